/* scatter_kinds.c - the scatter catalogue (core/include/ct_scatter.def) as a
 * table the core and the bindings read, and the libm-free slope angle. */
#include "surface/ct_scatter.h"

#include <math.h>

static const ct_scatter_kind ct__scatter_kinds[CT_SCATTER_KIND_COUNT] = {
#define CT_SCATTER_KIND(NAME, name, lvl, spc, slope, h0, h1, m0, m1, wet, s0, s1, coll, b0, b1, b2, b3, b4, b5, b6, b7, doc) \
    { name, doc, lvl, spc, slope, h0, h1, m0, m1, wet, s0, s1, coll, { b0, b1, b2, b3, b4, b5, b6, b7 } },
#include "ct_scatter.def"
#undef CT_SCATTER_KIND
};

size_t ct_scatter_kind_count(void)
{
    return CT_SCATTER_KIND_COUNT;
}

const ct_scatter_kind *ct_scatter_kind_get(size_t index)
{
    return index < CT_SCATTER_KIND_COUNT ? &ct__scatter_kinds[index] : NULL;
}

#define CT__SC_DEG 57.295779513082320876798     /* degrees per radian */
#define CT__SC_HALF_PI 1.5707963267948966192313

double ct__slope_deg_exact(const double normal[3], const double up[3])
{
    double c = normal[0] * up[0] + normal[1] * up[1] + normal[2] * up[2], s;
    if (c >= 1.0) return 0.0;
    if (c <= 0.0) return 90.0;
    s = sqrt(1.0 - c * c);
    /* asin is exact enough (< 1e-12) below 0.75; steeper, use the cosine. */
    return (s <= 0.75 ? ct__asin_small(s) : CT__SC_HALF_PI - ct__asin_small(c)) * CT__SC_DEG;
}
