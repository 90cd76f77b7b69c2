/* ct_math.h - the small maths helpers every stage shares: clamping, the
 * smoothstep polynomial, 3-vector dot, cross and normalise. Header-only
 * (static inline) so each stays a few inlined operations.
 *
 * Each helper is written as one fixed sequence of IEEE operations (no libm
 * beyond sqrt), so a call gives the same bits as the same expression written
 * out, natively and in WebAssembly; NaN passes through the clamps unchanged. */
#ifndef CT_MATH_H
#define CT_MATH_H

#include <math.h>

/* x limited to [lo, hi]. */
static inline double ct__clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* The smoothstep polynomial 3t^2 - 2t^3 of a t already in [0,1]. */
static inline double ct__smooth01(double t)
{
    return t * t * (3.0 - 2.0 * t);
}

/* smoothstep on [e0,e1]: 0 below e0, 1 above e1 (e1 < e0 runs downwards). */
static inline double ct__smoothstep(double e0, double e1, double x)
{
    if (e1 == e0) return x < e0 ? 0.0 : 1.0;
    return ct__smooth01(ct__clamp((x - e0) / (e1 - e0), 0.0, 1.0));
}

static inline double ct__dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void ct__cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* v scaled to unit length, or fallback where v has no length (or NaN). */
static inline void ct__normalize3_or(double v[3], const double fallback[3])
{
    double len = sqrt(ct__dot3(v, v));
    int k;
    if (!(len > 0.0)) {
        for (k = 0; k < 3; k++) v[k] = fallback[k];
        return;
    }
    for (k = 0; k < 3; k++) v[k] /= len;
}

#endif
