/* test_noise.c - hashing, noise, fBm and angle helpers: properties that must
 * hold, plus golden values so any change to the noise is a deliberate
 * decision (regenerate: print the values below with %.17g, review the
 * change, bump CT_ALGORITHM_VERSION, paste them here). */
#include "base/ct_base.h"
#include "test.h"

#include <math.h>
#include <string.h>

static void test_golden(void)
{
    double p[3] = {0.3, -0.7, 0.64};
    CHECK(ct__noise3(42, 1.25, -3.5, 7.75) == 0.18798160552978516, "noise3 golden 1: %.17g", ct__noise3(42, 1.25, -3.5, 7.75));
    CHECK(ct__noise3(7, 0.1, 0.2, 0.3) == -0.41736801176944638, "noise3 golden 2");
    CHECK(ct__noise3(0xdeadbeefu, -100.3, 55.5, 0.01) == 0.26345133514824715, "noise3 golden 3");
    CHECK(ct__fbm3(42, p, 1.4, 5, 2.0, 0.5) == -0.075474920356511974, "fbm golden");
    CHECK(ct__ridged3(9, p, 3.0, 4, 2.0, 0.5) == 0.55771315216095052, "ridged golden");
    CHECK(ct__noise3_fast(42, 1.25, -3.5, 7.75) == -0.15138721466064453, "fast noise golden 1");
    CHECK(ct__noise3_fast(7, -100.3, 55.5, 0.01) == -0.047159536603435005, "fast noise golden 2");
    {
        double c;
        CHECK(ct__fbm3_fast(42, p, 64.0, 6, 2.0, 0.5, 2, &c) == -0.0027221456248792326, "fast fbm golden");
        CHECK(c == 0.014297431313913042, "fast fbm coarse golden");
    }
    CHECK(ct__hash32(1) == 1753845952u && ct__hash2(1, 2) == 1833388140u && ct__hash4(1, 2, 3, 4) == 1100620800u,
          "hash goldens");
}

static void test_fnv(void)
{
    /* Published FNV-1a 64 test vectors. */
    CHECK(ct_fnv1a64("", 0, CT_FNV1A64_INIT) == 0xcbf29ce484222325ull, "fnv empty");
    CHECK(ct_fnv1a64("a", 1, CT_FNV1A64_INIT) == 0xaf63dc4c8601ec8cull, "fnv a");
    CHECK(ct_fnv1a64("foobar", 6, CT_FNV1A64_INIT) == 0x85944171f73967e8ull, "fnv foobar");
    /* Streaming equals one shot. */
    CHECK(ct_fnv1a64("bar", 3, ct_fnv1a64("foo", 3, CT_FNV1A64_INIT)) == 0x85944171f73967e8ull, "fnv chained");
}

static void test_noise_properties(void)
{
    int i, distinct = 0;
    double lo = 1e9, hi = -1e9, prev = 0.0, maxstep = 0.0;
    /* Zero on lattice points (gradient noise). */
    CHECK(ct__noise3(5, 3.0, -2.0, 11.0) == 0.0, "zero at lattice point");
    for (i = 0; i < 20000; i++) {
        double x = i * 0.0137, y = i * 0.0071 - 30.0, z = 5.0 - i * 0.0023;
        double n = ct__noise3(123, x, y, z);
        if (n < lo) lo = n;
        if (n > hi) hi = n;
        if (i && fabs(n - prev) > maxstep) maxstep = fabs(n - prev);
        if (i && n != prev) distinct++;
        prev = n;
    }
    CHECK(lo >= -1.01 && hi <= 1.01, "range [%g, %g]", lo, hi);
    CHECK(lo < -0.4 && hi > 0.4, "uses its range [%g, %g]", lo, hi);
    CHECK(maxstep < 0.1, "continuous: largest step %g for a step of 0.016", maxstep);
    CHECK(distinct > 19000, "varies");
    CHECK(ct__noise3(1, 0.5, 0.5, 0.5) != ct__noise3(2, 0.5, 0.5, 0.5), "seed changes the field");
    {
        double p[3] = {0.1, 0.2, 0.97}, q[3];
        double a = ct__fbm3(3, p, 2.0, 6, 2.0, 0.5), r = ct__ridged3(3, p, 2.0, 6, 2.0, 0.5);
        CHECK(a == ct__fbm3(3, p, 2.0, 6, 2.0, 0.5), "fbm pure");
        CHECK(a >= -1.0 && a <= 1.0 && r >= 0.0 && r <= 1.0, "fbm %g ridged %g ranges", a, r);
        ct__warp3(3, p, 1.0, 0.0, q);
        CHECK(memcmp(p, q, sizeof p) == 0, "zero warp is the identity");
        ct__warp3(3, p, 1.0, 0.5, q);
        CHECK(q[0] != p[0] || q[1] != p[1], "warp moves the point");
    }
    /* The fast variant: same gradient noise, other lattice hash. */
    {
        double flo = 1e9, fhi = -1e9, p[3] = {0.2, 0.5, -0.84}, c, c2, full;
        for (i = 0; i < 20000; i++) {
            double n = ct__noise3_fast(77, i * 0.0137, i * 0.0071 - 30.0, 5.0 - i * 0.0023);
            if (n < flo) flo = n;
            if (n > fhi) fhi = n;
        }
        CHECK(flo >= -1.01 && fhi <= 1.01 && flo < -0.4 && fhi > 0.4, "fast range [%g, %g]", flo, fhi);
        CHECK(ct__noise3_fast(5, 3.0, -2.0, 11.0) == 0.0, "fast: zero at lattice point");
        /* coarse is exactly the 2-octave fBm from the same loop, with or without more octaves */
        full = ct__fbm3_fast(9, p, 10.0, 6, 2.0, 0.5, 2, &c);
        CHECK(c == ct__fbm3_fast(9, p, 10.0, 2, 2.0, 0.5, 0, NULL), "coarse = two octaves");
        CHECK(ct__fbm3_fast(9, p, 10.0, 0, 2.0, 0.5, 2, &c2) == 0.0 && c2 == c, "coarse without detail octaves");
        CHECK(full != c, "more octaves change the sum");
    }
    /* Large coordinates (fine detail at high frequency) stay well defined. */
    CHECK(fabs(ct__noise3(9, 123456.7, -98765.4, 4321.1)) <= 1.01, "large coordinates");
}

static void test_angles(void)
{
    int i;
    for (i = -100; i <= 100; i++) {
        double x = i / 100.0;
        CHECK(fabs(ct__asin_small(x) - asin(x)) < 1e-14, "asin(%g): %.17g vs %.17g", x, ct__asin_small(x), asin(x));
    }
    {
        double a[3] = {1, 0, 0}, b[3] = {0, 1, 0}, c[3] = {-1, 0, 0};
        CHECK(fabs(ct__arc(a, b) - 1.5707963267948966) < 1e-14, "quarter turn");
        CHECK(fabs(ct__arc(a, c) - 3.141592653589793) < 1e-14, "half turn");
        CHECK(ct__arc(a, a) == 0.0, "zero");
    }
    CHECK(ct__smoothstep(0, 1, -1) == 0.0 && ct__smoothstep(0, 1, 2) == 1.0 && ct__smoothstep(0, 1, 0.5) == 0.5,
          "smoothstep");
    CHECK(ct__unit(0) == 0.0 && ct__unit(0xffffffffu) < 1.0, "unit interval");
}

int main(void)
{
    test_golden();
    test_fnv();
    test_noise_properties();
    test_angles();
    return test_summary("test_noise");
}
