/* test_noise_exact.c - the faster noise, fBm and angle code against plain
 * reference versions, bit for bit, on many inputs: the cell-shared multi-seed
 * fBm, the inlined corner hashes, the early-stopping asin series, the
 * 4-sample vector noise, the two-point derivative noise and the four-lane
 * fine relief (fine_relief.c) must all give exactly what the straightforward
 * formulation gives, or generation IDs and digests would move. The references below are the formulations the golden
 * values were made with. */
#include "layers/ct_fine_relief.h"
#include "test.h"

#include <math.h>
#include <string.h>

static const double ref_grad[12][3] = {
    {1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0},
    {1, 0, 1}, {-1, 0, 1}, {1, 0, -1}, {-1, 0, -1},
    {0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1}
};

static double ref_fade(double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }

static double ref_dot(uint32_t h, double fx, double fy, double fz)
{
    const double *g = ref_grad[(uint32_t)(((uint64_t)h * 12u) >> 32)];
    return g[0] * fx + g[1] * fy + g[2] * fz;
}

static double ref_blend(const uint32_t h[8], double fx, double fy, double fz)
{
    double u = ref_fade(fx), v = ref_fade(fy), w = ref_fade(fz);
    double c000 = ref_dot(h[0], fx, fy, fz), c100 = ref_dot(h[1], fx - 1.0, fy, fz);
    double c010 = ref_dot(h[2], fx, fy - 1.0, fz), c110 = ref_dot(h[3], fx - 1.0, fy - 1.0, fz);
    double c001 = ref_dot(h[4], fx, fy, fz - 1.0), c101 = ref_dot(h[5], fx - 1.0, fy, fz - 1.0);
    double c011 = ref_dot(h[6], fx, fy - 1.0, fz - 1.0), c111 = ref_dot(h[7], fx - 1.0, fy - 1.0, fz - 1.0);
    double x00 = c000 + u * (c100 - c000), x10 = c010 + u * (c110 - c010);
    double x01 = c001 + u * (c101 - c001), x11 = c011 + u * (c111 - c011);
    double y0 = x00 + v * (x10 - x00), y1 = x01 + v * (x11 - x01);
    return y0 + w * (y1 - y0);
}

/* Every corner hashed from scratch with the library's out-of-line hash. */
static double ref_noise3(uint32_t seed, double x, double y, double z)
{
    double x0f = floor(x), y0f = floor(y), z0f = floor(z);
    uint32_t ix = (uint32_t)(int64_t)x0f, iy = (uint32_t)(int64_t)y0f, iz = (uint32_t)(int64_t)z0f;
    uint32_t hs = ct__hash32(seed + 0x9e3779b9u), h[8];
    int c;
    for (c = 0; c < 8; c++) {
        uint32_t hx = ct__hash32(hs ^ (ix + (uint32_t)(c & 1)));
        uint32_t hxy = ct__hash32(hx ^ ((iy + (uint32_t)((c >> 1) & 1)) * 0x85ebca6bu));
        h[c] = ct__hash32(hxy ^ ((iz + (uint32_t)(c >> 2)) * 0xc2b2ae35u));
    }
    return ref_blend(h, x - x0f, y - y0f, z - z0f);
}

static double ref_noise3_fast(uint32_t seed, double x, double y, double z)
{
    double x0f = floor(x), y0f = floor(y), z0f = floor(z);
    uint32_t xs = (uint32_t)(int64_t)x0f * 501125321u, ys = (uint32_t)(int64_t)y0f * 1136930381u;
    uint32_t zs = (uint32_t)(int64_t)z0f * 1720413743u, h[8];
    int c;
    for (c = 0; c < 8; c++) {
        uint32_t k = (seed ^ (xs + ((c & 1) ? 501125321u : 0u)) ^ (ys + ((c & 2) ? 1136930381u : 0u)) ^
                      (zs + ((c & 4) ? 1720413743u : 0u))) * 0x27d4eb2du;
        h[c] = k ^ (k >> 15);
    }
    return ref_blend(h, x - x0f, y - y0f, z - z0f);
}

/* The derivative noise written out corner by corner, with its own hash. */
static double ref_noise3_deriv(uint32_t seed, double x, double y, double z, double d[3])
{
    double x0f = floor(x), y0f = floor(y), z0f = floor(z), f[3], c[8], u, v, w, du, dv, dw;
    uint32_t xs[2], ys[2], zs[2];
    const double *g[8];
    int k;
    xs[0] = (uint32_t)(int64_t)x0f * 501125321u; xs[1] = xs[0] + 501125321u;
    ys[0] = (uint32_t)(int64_t)y0f * 1136930381u; ys[1] = ys[0] + 1136930381u;
    zs[0] = (uint32_t)(int64_t)z0f * 1720413743u; zs[1] = zs[0] + 1720413743u;
    f[0] = x - x0f; f[1] = y - y0f; f[2] = z - z0f;
    for (k = 0; k < 8; k++) {
        uint32_t h = (seed ^ xs[k & 1] ^ ys[(k >> 1) & 1] ^ zs[k >> 2]) * 0x2c1b3c6du;
        double ox = k & 1 ? f[0] - 1.0 : f[0], oy = k & 2 ? f[1] - 1.0 : f[1], oz = k & 4 ? f[2] - 1.0 : f[2];
        h ^= h >> 16;
        g[k] = ref_grad[(uint32_t)(((uint64_t)h * 12u) >> 32)];
        c[k] = g[k][0] * ox + g[k][1] * oy + g[k][2] * oz;
    }
    u = ref_fade(f[0]); v = ref_fade(f[1]); w = ref_fade(f[2]);
    du = 30.0 * f[0] * f[0] * (f[0] - 1.0) * (f[0] - 1.0);
    dv = 30.0 * f[1] * f[1] * (f[1] - 1.0) * (f[1] - 1.0);
    dw = 30.0 * f[2] * f[2] * (f[2] - 1.0) * (f[2] - 1.0);
    {
        double k1 = c[1] - c[0], k2 = c[2] - c[0], k3 = c[4] - c[0];
        double k4 = c[0] - c[1] - c[2] + c[3], k5 = c[0] - c[2] - c[4] + c[6], k6 = c[0] - c[1] - c[4] + c[5];
        double k7 = -c[0] + c[1] + c[2] - c[3] + c[4] - c[5] - c[6] + c[7];
        for (k = 0; k < 3; k++) {
            double a00 = g[0][k] + u * (g[1][k] - g[0][k]), a10 = g[2][k] + u * (g[3][k] - g[2][k]);
            double a01 = g[4][k] + u * (g[5][k] - g[4][k]), a11 = g[6][k] + u * (g[7][k] - g[6][k]);
            double b0 = a00 + v * (a10 - a00), b1 = a01 + v * (a11 - a01);
            d[k] = b0 + w * (b1 - b0);
        }
        d[0] += du * (k1 + k4 * v + k6 * w + k7 * v * w);
        d[1] += dv * (k2 + k4 * u + k5 * w + k7 * u * w);
        d[2] += dw * (k3 + k5 * v + k6 * u + k7 * u * v);
        return c[0] + k1 * u + k2 * v + k3 * w + k4 * u * v + k5 * v * w + k6 * w * u + k7 * u * v * w;
    }
}

static double ref_fbm3(uint32_t seed, const double p[3], double freq, int octaves, double lac, double gain)
{
    double sum = 0.0, norm = 0.0, amp = 1.0, f = freq;
    int i;
    for (i = 0; i < octaves; i++) {
        sum += amp * ref_noise3(seed + (uint32_t)i, p[0] * f, p[1] * f, p[2] * f);
        norm += amp;
        amp *= gain;
        f *= lac;
    }
    return norm > 0.0 ? sum / norm : 0.0;
}

static double ref_ridged3(uint32_t seed, const double p[3], double freq, int octaves, double lac, double gain)
{
    double sum = 0.0, norm = 0.0, amp = 1.0, f = freq;
    int i;
    for (i = 0; i < octaves; i++) {
        double r = 1.0 - fabs(ref_noise3(seed + (uint32_t)i, p[0] * f, p[1] * f, p[2] * f));
        sum += amp * r * r;
        norm += amp;
        amp *= gain;
        f *= lac;
    }
    return norm > 0.0 ? sum / norm : 0.0;
}

static double ref_asin_series(double x)
{
    double x2 = x * x, coef = 1.0, power = x, sum = 0.0;
    int k;
    for (k = 0; k < 40; k++) {
        sum += coef * power / (double)(2 * k + 1);
        coef *= (double)(2 * k + 1) / (double)(2 * k + 2);
        power *= x2;
    }
    return sum;
}

static double ref_asin_small(double x)
{
    double ax = fabs(x), r;
    if (ax > 1.0) ax = 1.0;
    r = ax <= 0.5 ? ref_asin_series(ax) : 1.57079632679489661923 - 2.0 * ref_asin_series(sqrt((1.0 - ax) * 0.5));
    return x < 0.0 ? -r : r;
}

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double rnd(double lo, double hi)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

static void test_noise_reference(void)
{
    int i, bad = 0, bad_fast = 0;
    for (i = 0; i < 200000; i++) {
        /* Large and negative coordinates, lattice points and cell edges. */
        double s = i % 3 == 0 ? 4.0 : i % 3 == 1 ? 1000.0 : 3.0e6;
        double x = rnd(-s, s), y = rnd(-s, s), z = rnd(-s, s);
        uint32_t seed = (uint32_t)(rng >> 32);
        if (i % 50 == 0) { x = floor(x); y = floor(y); }
        if (!same(ct__noise3(seed, x, y, z), ref_noise3(seed, x, y, z))) bad++;
        if (!same(ct__noise3_fast(seed, x, y, z), ref_noise3_fast(seed, x, y, z))) bad_fast++;
    }
    CHECK(bad == 0, "%d of 200000 noise3 values differ from the reference", bad);
    CHECK(bad_fast == 0, "%d of 200000 fast noise values differ from the reference", bad_fast);
    CHECK(ct__noise3(5, 3.0, -2.0, 11.0) == 0.0 && ref_noise3(5, 3.0, -2.0, 11.0) == 0.0, "lattice zero");
}

static void test_fbm_multi(void)
{
    int i, j, bad = 0, bad_warp = 0;
    for (i = 0; i < 20000; i++) {
        double p[3], out[CT__FBM_MULTI_MAX], w[3], freq = rnd(0.5, 40.0);
        uint32_t seeds[CT__FBM_MULTI_MAX];
        int count = 1 + i % CT__FBM_MULTI_MAX, oct = i % 7;
        p[0] = rnd(-1, 1); p[1] = rnd(-1, 1); p[2] = rnd(-1, 1);
        for (j = 0; j < count; j++) seeds[j] = (uint32_t)(rng >> (j + 8));
        ct__fbm3_multi(seeds, count, p, freq, oct, 2.0, 0.5, out);
        for (j = 0; j < count; j++)
            if (!same(out[j], ref_fbm3(seeds[j], p, freq, oct, 2.0, 0.5)) ||
                !same(out[j], ct__fbm3(seeds[j], p, freq, oct, 2.0, 0.5))) bad++;
        ct__warp3(seeds[0], p, freq, 0.3, w);
        for (j = 0; j < 3; j++)
            if (!same(w[j], p[j] + 0.3 * ref_fbm3(ct__hash2(seeds[0], (uint32_t)j + 1u), p, freq, 3, 2.0, 0.5)))
                bad_warp++;
    }
    CHECK(bad == 0, "%d multi-seed fBm values differ from single-seed fBm", bad);
    CHECK(bad_warp == 0, "%d warp components differ from three separate fBm", bad_warp);
}

/* The lattice-hash memo: a walk of small steps (most points share cells
 * with the one before, some cross), two fields sharing nothing, and seed
 * changes in the same cell; every value must equal the memo-free fBm. */
static void test_fbm_memo(void)
{
    static ct__fbm_memo memo[4];
    int i, j, bad = 0;
    double p[3] = {0.3, -0.2, 0.9};
    memset(memo, 0, sizeof memo);
    for (i = 0; i < 60000; i++) {
        uint32_t seeds[4], s1 = 77u + (uint32_t)(i / 5000);   /* the seed changes now and then */
        double out[4], w[3], wr[3], one;
        int count = 1 + (i / 997) % 4, oct = 1 + (i / 1999) % CT__MEMO_OCTAVES;
        for (j = 0; j < 3; j++) p[j] += rnd(-0.01, 0.01);
        for (j = 0; j < 4; j++) seeds[j] = s1 * 2654435761u + (uint32_t)j;
        ct__fbm3_multi_memo(&memo[0], seeds, count, p, 1.7, oct, 2.0, 0.5, out);
        for (j = 0; j < count; j++)
            if (!same(out[j], ref_fbm3(seeds[j], p, 1.7, oct, 2.0, 0.5))) bad++;
        one = ct__fbm3_memo(&memo[1], s1, p, 3.1, oct + 1, 2.0, 0.55);
        if (!same(one, ref_fbm3(s1, p, 3.1, oct + 1, 2.0, 0.55))) bad++;
        one = ct__ridged3_memo(&memo[3], s1, p, 2.3, oct, 2.0, 0.5);
        if (!same(one, ref_ridged3(s1, p, 2.3, oct, 2.0, 0.5)) ||
            !same(ct__ridged3(s1, p, 2.3, oct, 2.0, 0.5), one))
            bad++;
        ct__warp3_memo(&memo[2], s1, p, 1.1, 0.35, w);
        ct__warp3(s1, p, 1.1, 0.35, wr);
        for (j = 0; j < 3; j++)
            if (!same(w[j], wr[j])) bad++;
    }
    CHECK(bad == 0, "%d memo fBm values differ from the memo-free fBm", bad);
}

static void test_asin(void)
{
    int i, bad = 0;
    static const double edge[] = {0.0, -0.0, 1e-300, 4.9e-324, 1e-9, 0.5, -0.5, 0.49999999999999994,
                                  0.5000000000000001, 0.999999, 1.0, -1.0, 1.5, -2.0};
    for (i = 0; i < (int)(sizeof edge / sizeof edge[0]); i++)
        if (!same(ct__asin_small(edge[i]), ref_asin_small(edge[i]))) bad++;
    for (i = 0; i < 300000; i++) {
        /* Mostly the short chords of graph edges, then the whole range. */
        double x = i % 2 ? rnd(0.0, 0.02) : rnd(-1.0, 1.0);
        if (i % 7 == 0) x = rnd(0.0, 1e-6);
        if (!same(ct__asin_small(x), ref_asin_small(x))) bad++;
    }
    CHECK(bad == 0, "%d asin values differ from the 40-term series", bad);
}

/* The 4-sample vector noise and fBm against the scalar functions, per lane,
 * on random points, cell edges and lattice points, with lanes in different
 * cells. Under WebAssembly (make wasm-check) this checks the simd128 path. */
static void test_x4(void)
{
    int i, k, bad = 0, bad_fbm = 0, bad_coarse = 0;
    for (i = 0; i < 100000; i++) {
        /* Also beyond the int32 lattice range, where the simd128 path
         * falls back to the scalar lattice for all four lanes. */
        double pt[12], out[4], s = i % 2 ? 2.0 : (i % 50 == 0 ? 1.0e10 : 5000.0);
        uint32_t seed = (uint32_t)(rng >> 20);
        for (k = 0; k < 12; k++) pt[k] = rnd(-s, s);
        if (i % 40 == 0) { pt[0] = floor(pt[0]); pt[4] = floor(pt[4]); pt[8] = -0.0; }
        ct__noise3_fast_x4(seed, pt, out);
        for (k = 0; k < 4; k++)
            if (!same(out[k], ct__noise3_fast(seed, pt[3 * k], pt[3 * k + 1], pt[3 * k + 2])) ||
                !same(out[k], ref_noise3_fast(seed, pt[3 * k], pt[3 * k + 1], pt[3 * k + 2]))) bad++;
    }
    for (i = 0; i < 20000; i++) {
        double p[12], out[4], co[4], freq = rnd(1.0, 256.0);
        uint32_t seed = (uint32_t)(rng >> 24);
        int oct = i % 8, coct = i % 3;
        for (k = 0; k < 4; k++) {
            double x = rnd(-1, 1), y = rnd(-1, 1), z = rnd(-1, 1), len = sqrt(x * x + y * y + z * z);
            p[3 * k] = x / len; p[3 * k + 1] = y / len; p[3 * k + 2] = z / len;
        }
        ct__fbm3_fast_x4(seed, p, freq, oct, 2.0, 0.5, coct, out, i % 5 ? co : NULL);
        for (k = 0; k < 4; k++) {
            double c = 0.0, v = ct__fbm3_fast(seed, p + 3 * k, freq, oct, 2.0, 0.5, coct, &c);
            if (!same(out[k], v)) bad_fbm++;
            if (i % 5 && !same(co[k], c)) bad_coarse++;
        }
    }
    for (i = 0; i < 20000; i++) {
        /* Per-lane octave counts (land and water samples in one row). */
        double p[12], out[4], co[4], freq = rnd(1.0, 256.0);
        uint32_t seed = (uint32_t)(rng >> 24);
        int oct[4], coct = i % 3;
        for (k = 0; k < 4; k++) {
            double x = rnd(-1, 1), y = rnd(-1, 1), z = rnd(-1, 1), len = sqrt(x * x + y * y + z * z);
            p[3 * k] = x / len; p[3 * k + 1] = y / len; p[3 * k + 2] = z / len;
            oct[k] = (int)((rng >> 40) % 7u);
            (void)rnd(0.0, 1.0);
        }
        ct__fbm3_fast_x4n(seed, p, freq, oct, 2.0, 0.5, coct, out, co);
        for (k = 0; k < 4; k++) {
            double c = 0.0, v = ct__fbm3_fast(seed, p + 3 * k, freq, oct[k], 2.0, 0.5, coct, &c);
            if (!same(out[k], v)) bad_fbm++;
            if (!same(co[k], c)) bad_coarse++;
        }
    }
    CHECK(bad == 0, "%d of 400000 vector noise lanes differ from the scalar noise", bad);
    CHECK(bad_fbm == 0, "%d vector fBm lanes differ from the scalar fBm", bad_fbm);
    CHECK(bad_coarse == 0, "%d vector coarse fBm lanes differ", bad_coarse);
}

/* The lattice memos: points walking in steps well below a cell (as a
 * chunk's rows do, so most calls reuse the cell before), through one memo
 * kept across calls and seeds, with components at exactly +0 and -0 (a hit
 * from the other zero's cell must still give the offset +0): the detail fBm
 * and the derivative noise give the scalar bits in every lane. */
static void test_memo_lanes(void)
{
    ct__lattice_memo fm[CT__FAST_MEMO], dm;
    double base[3] = {0.3, -0.2, 0.5};
    int i, k, c, bad = 0, bad_d = 0;
    memset(fm, 0, sizeof fm);
    memset(&dm, 0, sizeof dm);
    for (i = 0; i < 40000; i++) {
        double p[12], out[4], co[4], n[2], d[2][3], freq = 64.0 * (double)(1 + (i >> 12) % 3);
        uint32_t seed = 77u + (uint32_t)((i >> 10) % 2);
        int oct[4];
        if (i % 500 == 0)
            for (c = 0; c < 3; c++) base[c] = rnd(-1, 1);
        for (k = 0; k < 4; k++) {
            for (c = 0; c < 3; c++) p[3 * k + c] = base[c] + 1e-4 * (double)(4 * (i % 500) + k) * (c == 1 ? -1.0 : 1.0);
            if (i % 97 == 5) p[3 * k + (k % 3)] = (k & 1) ? -0.0 : 0.0;
            oct[k] = 1 + (i + k) % 5;
        }
        ct__fbm3_fast_x4n_memo(fm, seed, p, freq, oct, 2.0, 0.5, 2, out, co);
        for (k = 0; k < 4; k++) {
            double cc = 0.0, v = ct__fbm3_fast(seed, p + 3 * k, freq, oct[k], 2.0, 0.5, 2, &cc);
            if (!same(out[k], v) || !same(co[k], cc)) bad++;
        }
        for (k = 0; k < 2; k++) {
            double q[2][3], dr[3], v;
            for (c = 0; c < 3; c++) { q[0][c] = p[6 * k + c] * freq; q[1][c] = p[6 * k + 3 + c] * freq; }
            ct__noise3_deriv_x2_memo(&dm, seed, q[0], q[1], n, d);
            for (c = 0; c < 2; c++) {
                v = ct__noise3_deriv(seed, q[c][0], q[c][1], q[c][2], dr);
                if (!same(n[c], v) || !same(d[c][0], dr[0]) || !same(d[c][1], dr[1]) || !same(d[c][2], dr[2]))
                    bad_d++;
            }
        }
    }
    CHECK(bad == 0, "%d of 160000 memo fBm lanes differ from the scalar fBm", bad);
    CHECK(bad_d == 0, "%d of 160000 memo derivative-noise lanes differ from the scalar noise", bad_d);
}

/* The derivative noise: both lanes of the two-point form give the scalar
 * call's bits, the scalar call gives the reference's, and the gradient is the
 * value's derivative (central differences). */
static void test_deriv(void)
{
    int i, k, bad = 0, bad_ref = 0, bad_grad = 0;
    for (i = 0; i < 100000; i++) {
        double pa[3], pb[3], n[2], d[2][3], ds[3], dr[3], s = i % 2 ? 3.0 : 4000.0;
        uint32_t seed = (uint32_t)(rng >> 20);
        for (k = 0; k < 3; k++) { pa[k] = rnd(-s, s); pb[k] = rnd(-s, s); }
        if (i % 40 == 0) { pa[0] = floor(pa[0]); pb[2] = -0.0; }
        ct__noise3_deriv_x2(seed, pa, pb, n, d);
        if (!same(n[0], ct__noise3_deriv(seed, pa[0], pa[1], pa[2], ds))) bad++;
        for (k = 0; k < 3; k++) if (!same(d[0][k], ds[k])) bad++;
        if (!same(n[1], ct__noise3_deriv(seed, pb[0], pb[1], pb[2], ds))) bad++;
        for (k = 0; k < 3; k++) if (!same(d[1][k], ds[k])) bad++;
        if (!same(n[1], ref_noise3_deriv(seed, pb[0], pb[1], pb[2], dr))) bad_ref++;
        for (k = 0; k < 3; k++) if (!same(ds[k], dr[k])) bad_ref++;
        if (i % 10 == 0) {
            const double h = 1e-6;
            for (k = 0; k < 3; k++) {
                double q[3], lo, hi, dd[3];
                q[0] = pb[0]; q[1] = pb[1]; q[2] = pb[2];
                q[k] = pb[k] + h;
                hi = ct__noise3_deriv(seed, q[0], q[1], q[2], dd);
                q[k] = pb[k] - h;
                lo = ct__noise3_deriv(seed, q[0], q[1], q[2], dd);
                if (fabs((hi - lo) / (2.0 * h) - ds[k]) > 1e-3 * (1.0 + fabs(ds[k]))) bad_grad++;
            }
        }
    }
    CHECK(bad == 0, "%d derivative-noise lanes differ from the scalar call", bad);
    CHECK(bad_ref == 0, "%d derivative-noise values differ from the reference", bad_ref);
    CHECK(bad_grad == 0, "%d gradients differ from central differences", bad_grad);
}

/* ct__ground_level_octaves_x2 against two scalar ct__ground_level_octaves
 * calls, bit for bit: nodes of random faces and levels (face boundaries
 * among them), coarse gradients flat to steep, moisture dry enough for
 * dunes, nodes already holding coarser octaves' slopes, for several octave
 * sets. */
static void test_ground_lanes(void)
{
    const char *cfgs[4] = {"surface_lod=10\nseed=7\n", "surface_lod=14\nseed=3\n",
                           "surface_lod=16\nseed=9\nground_dunes=1\nground_gully=1\n",
                           "surface_lod=12\nseed=5\nground_from_lod=1\n"};
    int c, t, l, j, bad = 0, dry = 0, edges = 0;
    for (c = 0; c < 4; c++) {
        ct_config cfg;
        ct__ground_prep p;
        ct_config_preset(&cfg, "balanced", NULL, 0);
        ct_config_parse(&cfg, cfgs[c], NULL, 0);
        ct__ground_prepare(&cfg, &p);
        CHECK(p.octaves > 0 && p.dune_to > p.dune_from, "config %d runs the layer with dune octaves", c);
        for (t = 0; t < 3000; t++) {
            int e = p.base + (int)rnd(0.0, (double)(p.top - p.base + 1) - 1e-9), face = (int)rnd(0.0, 6.0 - 1e-9);
            int64_t n = (int64_t)CT_CHUNK_CORE << e;
            ct__gframe fr[2];
            ct__gcoarse co[2];
            ct__gnode two[2], one[2];
            for (l = 0; l < 2; l++) {
                double steep = rnd(0.0, 1.0) < 0.1 ? 0.0 : rnd(0.0, 1.5);
                int64_t x = (int64_t)rnd(0.0, (double)n), y = (int64_t)rnd(0.0, (double)n);
                if (t % 7 == 0) x = l ? n : 0;   /* on the face's boundary */
                ct__ground_frame(&p, face, e, x, y, &fr[l]);
                edges += fr[l].keep_x < 1.0 || fr[l].keep_y < 1.0;
                for (j = 0; j < 3; j++) co[l].grad[j] = steep * rnd(-1.0, 1.0);
                co[l].moisture = rnd(0.0, 0.5);
                dry += co[l].moisture < 0.3;
                two[l].f = rnd(-50.0, 50.0);
                two[l].fx = rnd(-5.0, 5.0);
                two[l].fy = rnd(-5.0, 5.0);
                two[l].fxy = rnd(-1.0, 1.0);
                one[l] = two[l];
            }
            ct__ground_level_octaves_x2(&p, e, fr, co, two);
            for (l = 0; l < 2; l++) {
                ct__ground_level_octaves(&p, e, &fr[l], &co[l], &one[l]);
                if (!same(one[l].f, two[l].f) || !same(one[l].fx, two[l].fx) || !same(one[l].fy, two[l].fy) ||
                    !same(one[l].fxy, two[l].fxy))
                    bad++;
            }
        }
    }
    CHECK(bad == 0, "%d fine-relief node lanes differ from the scalar call", bad);
    CHECK(dry > 10000 && edges > 1000, "the inputs cover dry lanes (%d) and face-boundary nodes (%d)", dry, edges);
}

int main(void)
{
    test_x4();
    test_deriv();
    test_memo_lanes();
    test_noise_reference();
    test_fbm_multi();
    test_fbm_memo();
    test_ground_lanes();
    test_asin();
    return test_summary("noise_exact");
}
