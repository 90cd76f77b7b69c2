/* noise.c - 3D gradient noise (one kernel family: the build's hash, the fast
 * detail hash, and the variant with analytic derivatives), fBm, ridged and
 * domain-warp helpers, and the libm-free angle functions used by generation.
 *
 * Only +, -, *, / and floor appear here: those are exactly rounded in IEEE
 * arithmetic, so native and WebAssembly builds agree bit for bit (compiled
 * with -ffp-contract=off so no FMA changes a rounding). */
#include "base/ct_base.h"

#include <math.h>

#include "base/ct_v2.h"

/* The 12 edge midpoints of a cube (Perlin's improved-noise gradients). */
const double ct__grad[12][3] = {
    {1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0},
    {1, 0, 1}, {-1, 0, 1}, {1, 0, -1}, {-1, 0, -1},
    {0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1}
};

static inline double ct__fade(double t)
{
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

static inline double ct__dot_grad(uint32_t h, double fx, double fy, double fz)
{
    /* The multiply-shift maps the hash to 0..11 without division. */
    const double *g = ct__grad[(uint32_t)(((uint64_t)h * 12u) >> 32)];
    return g[0] * fx + g[1] * fy + g[2] * fz;
}

/* A point's lattice cell: everything about the point that does not depend
 * on the seed (the cell's corner, the offsets inside it and their fade
 * weights, the y and z hash keys). Fields of several seeds at one point share
 * it; each seed then only hashes the corners and blends. */
typedef struct ct__cell {
    double fx, fy, fz, u, v, w;
    double x0f, y0f, z0f;
} ct__cell;

static inline void ct__cell_at(double x, double y, double z, ct__cell *c)
{
    c->x0f = floor(x); c->y0f = floor(y); c->z0f = floor(z);
    c->fx = x - c->x0f; c->fy = y - c->y0f; c->fz = z - c->z0f;
    c->u = ct__fade(c->fx); c->v = ct__fade(c->fy); c->w = ct__fade(c->fz);
}

/* The build's blend: ct__perlin_blend on two-lane vectors (defined below,
 * after the vector types). */
static double ct__blend_build(const uint32_t h[8], const ct__cell *c);

/* Trilinear blend of the eight corner gradients; h[] is indexed by corner
 * bits (x | y << 1 | z << 2). Shared by both lattice hashes below. */
static inline double ct__perlin_blend(const uint32_t h[8], const ct__cell *c)
{
    double fx = c->fx, fy = c->fy, fz = c->fz, u = c->u, v = c->v, w = c->w;
    double c000 = ct__dot_grad(h[0], fx, fy, fz);
    double c100 = ct__dot_grad(h[1], fx - 1.0, fy, fz);
    double c010 = ct__dot_grad(h[2], fx, fy - 1.0, fz);
    double c110 = ct__dot_grad(h[3], fx - 1.0, fy - 1.0, fz);
    double c001 = ct__dot_grad(h[4], fx, fy, fz - 1.0);
    double c101 = ct__dot_grad(h[5], fx - 1.0, fy, fz - 1.0);
    double c011 = ct__dot_grad(h[6], fx, fy - 1.0, fz - 1.0);
    double c111 = ct__dot_grad(h[7], fx - 1.0, fy - 1.0, fz - 1.0);
    double x00 = c000 + u * (c100 - c000), x10 = c010 + u * (c110 - c010);
    double x01 = c001 + u * (c101 - c001), x11 = c011 + u * (c111 - c011);
    double y0 = x00 + v * (x10 - x00), y1 = x01 + v * (x11 - x01);
    return y0 + w * (y1 - y0);
}

/* The eight corner hashes of a cell, computed together. Lattice hashing is
 * progressive: x first, then y, then z, so the corners share their x and xy
 * stages (15 mixes instead of 32); each stage is a short loop of independent
 * mixes that the compiler can interleave or vectorise. Lattice coordinates
 * wrap modulo 2^32 through int64 -> uint32, which is well defined;
 * |coordinate| stays far below 2^53 for every knob range. */
static inline void ct__corner_hashes(uint32_t seed, const ct__cell *c, uint32_t h[8])
{
    uint32_t ix = (uint32_t)(int64_t)c->x0f, iy = (uint32_t)(int64_t)c->y0f, iz = (uint32_t)(int64_t)c->z0f;
    uint32_t hs = ct__mix32(seed + 0x9e3779b9u), hx[2], hxy[4], ky[2], kz[2];
    int i;
    ky[0] = iy * 0x85ebca6bu; ky[1] = (iy + 1u) * 0x85ebca6bu;
    kz[0] = iz * 0xc2b2ae35u; kz[1] = (iz + 1u) * 0xc2b2ae35u;
    hx[0] = hs ^ ix; hx[1] = hs ^ (ix + 1u);
    for (i = 0; i < 2; i++) hx[i] = ct__mix32(hx[i]);
    for (i = 0; i < 4; i++) hxy[i] = ct__mix32(hx[i & 1] ^ ky[i >> 1]);
    for (i = 0; i < 8; i++) h[i] = ct__mix32(hxy[i & 3] ^ kz[i >> 2]);
}

double ct__noise3(uint32_t seed, double x, double y, double z)
{
    ct__cell c;
    uint32_t h[8];
    ct__cell_at(x, y, z, &c);
    ct__corner_hashes(seed, &c, h);
    return ct__blend_build(h, &c);
}

/* A corner's hash is the xor of its primed coordinates (CT__PRIME_*,
 * ct_base.h) and the seed, then one multiply and shift. */

static uint32_t ct__corner_fast(uint32_t seed, uint32_t xp, uint32_t yp, uint32_t zp)
{
    uint32_t h = (seed ^ xp ^ yp ^ zp) * 0x27d4eb2du;
    return h ^ (h >> 15);
}

/* The same gradient noise with a much cheaper lattice hash. The per-sample
 * fine detail of every chunk runs this at 257x257 samples x octaves, where the
 * hash was most of the cost; the world build keeps ct__noise3, whose values
 * are pinned by the golden generation IDs. */
double ct__noise3_fast(uint32_t seed, double x, double y, double z)
{
    ct__cell c;
    uint32_t x0, x1, y0, y1, z0, z1, h[8];
    ct__cell_at(x, y, z, &c);
    x0 = (uint32_t)(int64_t)c.x0f * CT__PRIME_X; x1 = x0 + CT__PRIME_X;
    y0 = (uint32_t)(int64_t)c.y0f * CT__PRIME_Y; y1 = y0 + CT__PRIME_Y;
    z0 = (uint32_t)(int64_t)c.z0f * CT__PRIME_Z; z1 = z0 + CT__PRIME_Z;
    h[0] = ct__corner_fast(seed, x0, y0, z0); h[1] = ct__corner_fast(seed, x1, y0, z0);
    h[2] = ct__corner_fast(seed, x0, y1, z0); h[3] = ct__corner_fast(seed, x1, y1, z0);
    h[4] = ct__corner_fast(seed, x0, y0, z1); h[5] = ct__corner_fast(seed, x1, y0, z1);
    h[6] = ct__corner_fast(seed, x0, y1, z1); h[7] = ct__corner_fast(seed, x1, y1, z1);
    return ct__perlin_blend(h, &c);
}

double ct__fbm3_fast(uint32_t seed, const double p[3], double freq, int octaves,
                     double lacunarity, double gain, int coarse_octaves, double *coarse)
{
    double sum = 0.0, norm = 0.0, csum = 0.0, cnorm = 0.0, amp = 1.0, f = freq;
    int i, run = octaves > coarse_octaves ? octaves : coarse_octaves;
    for (i = 0; i < run; i++) {
        double n = ct__noise3_fast(seed + (uint32_t)i, p[0] * f, p[1] * f, p[2] * f);
        if (i < octaves) { sum += amp * n; norm += amp; }
        if (i < coarse_octaves) { csum += amp * n; cnorm += amp; }
        amp *= gain;
        f *= lacunarity;
    }
    if (coarse) *coarse = cnorm > 0.0 ? csum / cnorm : 0.0;
    return norm > 0.0 ? sum / norm : 0.0;
}

/* ------------------------------------------------ 4 samples of fast noise
 * The same ct__noise3_fast and ct__fbm3_fast for four points at once, for a
 * sampler that fills a row. Floor, lattice hashing and the gradient lookup
 * stay scalar per lane (SSE2 has no 32-bit multiply or floor); the blend
 * runs on two-lane double vectors: wasm simd128, SSE2, or a plain struct.
 * Each lane does the same IEEE operations in the same order as the scalar
 * path, with no fusing (-ffp-contract=off), so results are bit-identical;
 * tests/c/test_noise_exact.c and tests/js/noise_simd.test.mjs check it. */
static ct__v2 ct__v2_fade(ct__v2 t)
{
    /* t * t * t * (t * (t * 6 - 15) + 10), left to right as in ct__fade. */
    ct__v2 a = CT__V2_ADD(CT__V2_MUL(t, CT__V2_SUB(CT__V2_MUL(t, CT__V2(6.0, 6.0)), CT__V2(15.0, 15.0))),
                          CT__V2(10.0, 10.0));
    return CT__V2_MUL(CT__V2_MUL(CT__V2_MUL(t, t), t), a);
}

/* A hash's gradient row, as ct__dot_grad picks it. */
static inline const double *ct__grad_of(uint32_t h)
{
    return ct__grad[(uint32_t)(((uint64_t)h * 12u) >> 32)];
}

/* g . (fx, fy, fz) for two lanes: ((gx fx + gy fy) + gz fz) as ct__dot_grad. */
static ct__v2 ct__v2_dot(const double *ga, const double *gb, ct__v2 fx, ct__v2 fy, ct__v2 fz)
{
    return CT__V2_ADD(CT__V2_ADD(CT__V2_MUL(CT__V2(ga[0], gb[0]), fx), CT__V2_MUL(CT__V2(ga[1], gb[1]), fy)),
                      CT__V2_MUL(CT__V2(ga[2], gb[2]), fz));
}

static ct__v2 ct__v2_lerp(ct__v2 a, ct__v2 b, ct__v2 t)
{
    return CT__V2_ADD(a, CT__V2_MUL(t, CT__V2_SUB(b, a)));   /* a + t * (b - a) */
}

/* Two lanes of ct__perlin_blend: ha/hb the corner gradient rows, f* the
 * offsets. */
static ct__v2 ct__v2_blend(const double *const ha[8], const double *const hb[8], ct__v2 fx, ct__v2 fy, ct__v2 fz)
{
    ct__v2 one = CT__V2(1.0, 1.0), gx = CT__V2_SUB(fx, one), gy = CT__V2_SUB(fy, one), gz = CT__V2_SUB(fz, one);
    ct__v2 u = ct__v2_fade(fx), v = ct__v2_fade(fy), w = ct__v2_fade(fz);
    ct__v2 c000 = ct__v2_dot(ha[0], hb[0], fx, fy, fz), c100 = ct__v2_dot(ha[1], hb[1], gx, fy, fz);
    ct__v2 c010 = ct__v2_dot(ha[2], hb[2], fx, gy, fz), c110 = ct__v2_dot(ha[3], hb[3], gx, gy, fz);
    ct__v2 c001 = ct__v2_dot(ha[4], hb[4], fx, fy, gz), c101 = ct__v2_dot(ha[5], hb[5], gx, fy, gz);
    ct__v2 c011 = ct__v2_dot(ha[6], hb[6], fx, gy, gz), c111 = ct__v2_dot(ha[7], hb[7], gx, gy, gz);
    ct__v2 y0 = ct__v2_lerp(ct__v2_lerp(c000, c100, u), ct__v2_lerp(c010, c110, u), v);
    ct__v2 y1 = ct__v2_lerp(ct__v2_lerp(c001, c101, u), ct__v2_lerp(c011, c111, u), v);
    return ct__v2_lerp(y0, y1, w);
}

/* Scalar half of one lane: the cell corner, the offsets, the 8 corner
 * gradient rows (from the fast hashes). */
static void ct__fast_lane(uint32_t seed, double x, double y, double z, double f[3], const double *g[8])
{
    uint32_t h[8];
    int k;
    double x0f = floor(x), y0f = floor(y), z0f = floor(z);
    uint32_t x0 = (uint32_t)(int64_t)x0f * CT__PRIME_X, x1 = x0 + CT__PRIME_X;
    uint32_t y0 = (uint32_t)(int64_t)y0f * CT__PRIME_Y, y1 = y0 + CT__PRIME_Y;
    uint32_t z0 = (uint32_t)(int64_t)z0f * CT__PRIME_Z, z1 = z0 + CT__PRIME_Z;
    f[0] = x - x0f; f[1] = y - y0f; f[2] = z - z0f;
    h[0] = ct__corner_fast(seed, x0, y0, z0); h[1] = ct__corner_fast(seed, x1, y0, z0);
    h[2] = ct__corner_fast(seed, x0, y1, z0); h[3] = ct__corner_fast(seed, x1, y1, z0);
    h[4] = ct__corner_fast(seed, x0, y0, z1); h[5] = ct__corner_fast(seed, x1, y0, z1);
    h[6] = ct__corner_fast(seed, x0, y1, z1); h[7] = ct__corner_fast(seed, x1, y1, z1);
    for (k = 0; k < 8; k++) g[k] = ct__grad_of(h[k]);
}

/* NOTE: a simd128 lattice (f64x2.floor, i32x4 cell coordinates and corner
 * hashes, gradients chosen with lane masks) was tried and measured in node:
 * 0.98-1.02x of the scalar fBm, against 0.83-0.86x for this scalar-lattice
 * version; with the vector hashes but the gradient table per lane, 0.83-0.86x
 * too. V8's lowering of the lattice ops cost what they saved, so the lattice
 * stays scalar (docs/history/benchmarks.md). */
static void ct__fast_lane_memo(ct__lattice_memo *m, uint32_t seed, const double p[3], double f[3],
                               const double *g[8]);

/* memo NULL: none. */
void ct__noise3_fast_x4_memo(ct__lattice_memo *m, uint32_t seed, const double pt[12], double out[4])
{
    int pair;
    for (pair = 0; pair < 2; pair++) {
        const double *a = pt + 6 * pair, *b = a + 3;
        double fa[3], fb[3];
        const double *ha[8], *hb[8];
        ct__v2 r;
        if (m) {
            ct__fast_lane_memo(m, seed, a, fa, ha);
            ct__fast_lane_memo(m, seed, b, fb, hb);
        } else {
            ct__fast_lane(seed, a[0], a[1], a[2], fa, ha);
            ct__fast_lane(seed, b[0], b[1], b[2], fb, hb);
        }
        r = ct__v2_blend(ha, hb, CT__V2(fa[0], fb[0]), CT__V2(fa[1], fb[1]), CT__V2(fa[2], fb[2]));
        out[2 * pair] = CT__V2_LO(r);
        out[2 * pair + 1] = CT__V2_HI(r);
    }
}

void ct__noise3_fast_x4(uint32_t seed, const double pt[12], double out[4])
{
    ct__noise3_fast_x4_memo(NULL, seed, pt, out);
}

void ct__fbm3_fast_x4n(uint32_t seed, const double p[12], double freq, const int octaves[4], double lacunarity,
                       double gain, int coarse_octaves, double out[4], double coarse[4])
{
    ct__fbm3_fast_x4n_memo(NULL, seed, p, freq, octaves, lacunarity, gain, coarse_octaves, out, coarse);
}

void ct__fbm3_fast_x4n_memo(ct__lattice_memo *memo, uint32_t seed, const double p[12], double freq,
                            const int octaves[4], double lacunarity, double gain, int coarse_octaves, double out[4],
                            double coarse[4])
{
    double sum[4] = {0.0, 0.0, 0.0, 0.0}, csum[4] = {0.0, 0.0, 0.0, 0.0};
    double norm[4] = {0.0, 0.0, 0.0, 0.0}, cnorm = 0.0, amp = 1.0, f = freq;
    int i, k, run = coarse_octaves;
    for (k = 0; k < 4; k++)
        if (octaves[k] > run) run = octaves[k];
    for (i = 0; i < run; i++) {
        double q[12], n[4];
        for (k = 0; k < 12; k++) q[k] = p[k] * f;
        ct__noise3_fast_x4_memo(memo && i < CT__FAST_MEMO ? memo + i : NULL, seed + (uint32_t)i, q, n);
        for (k = 0; k < 4; k++) {
            if (i < octaves[k]) { sum[k] += amp * n[k]; norm[k] += amp; }
            if (i < coarse_octaves) csum[k] += amp * n[k];
        }
        if (i < coarse_octaves) cnorm += amp;
        amp *= gain;
        f *= lacunarity;
    }
    for (k = 0; k < 4; k++) {
        if (coarse) coarse[k] = cnorm > 0.0 ? csum[k] / cnorm : 0.0;
        out[k] = norm[k] > 0.0 ? sum[k] / norm[k] : 0.0;
    }
}

void ct__fbm3_fast_x4(uint32_t seed, const double p[12], double freq, int octaves, double lacunarity,
                      double gain, int coarse_octaves, double out[4], double coarse[4])
{
    const int oct[4] = {octaves, octaves, octaves, octaves};
    ct__fbm3_fast_x4n(seed, p, freq, oct, lacunarity, gain, coarse_octaves, out, coarse);
}

/* ------------------------------------------------ gradient noise with derivatives
 * The same gradient noise (lattice primes, gradient set, quintic fade) with
 * its analytic gradient, for the ranges layer's ridges and belt field
 * (ranges.c). Its corner hash has its own final mix, so its fields are
 * decorrelated from the detail noise's at the same seed. The value is the
 * trilinear blend of the corner dot products; the derivative is the same
 * blend of the corner gradients plus the fade weights' derivatives times the
 * blend's differences. */
static uint32_t ct__corner_deriv(uint32_t seed, uint32_t xp, uint32_t yp, uint32_t zp)
{
    uint32_t h = (seed ^ xp ^ yp ^ zp) * 0x2c1b3c6du;
    return h ^ (h >> 16);
}

/* Scalar half of one point: the offsets in its cell and the eight corner
 * gradients, corner k at bits (x | y << 1 | z << 2). */
static void ct__deriv_lane(uint32_t seed, const double p[3], double f[3], const double *g[8])
{
    double x0f = floor(p[0]), y0f = floor(p[1]), z0f = floor(p[2]);
    uint32_t x0 = (uint32_t)(int64_t)x0f * CT__PRIME_X, y0 = (uint32_t)(int64_t)y0f * CT__PRIME_Y;
    uint32_t z0 = (uint32_t)(int64_t)z0f * CT__PRIME_Z;
    uint32_t xs[2], ys[2], zs[2];
    int k;
    xs[0] = x0; xs[1] = x0 + CT__PRIME_X;
    ys[0] = y0; ys[1] = y0 + CT__PRIME_Y;
    zs[0] = z0; zs[1] = z0 + CT__PRIME_Z;
    f[0] = p[0] - x0f; f[1] = p[1] - y0f; f[2] = p[2] - z0f;
    for (k = 0; k < 8; k++) {
        uint32_t h = ct__corner_deriv(seed, xs[k & 1], ys[(k >> 1) & 1], zs[k >> 2]);
        g[k] = ct__grad[(uint32_t)(((uint64_t)h * 12u) >> 32)];
    }
}

/* The trilinear blend of gradient noise with its analytic derivative, from
 * the corner values c, corner gradients g, fade weights u,v,w and their
 * derivatives du,dv,dw: the value, and the gradient in d. One copy serves
 * every derivative kernel (the ranges' noise here, the fine relief's lattice
 * in fine_relief.c), so they cannot drift apart in operation order. */
double ct__deriv_blend(const double c[8], const double *const g[8], double u, double v, double w, double du,
                       double dv, double dw, double d[3])
{
    double k1, k2, k3, k4, k5, k6, k7;
    int k;
    /* n = c0 + k1 u + k2 v + k3 w + k4 uv + k5 vw + k6 wu + k7 uvw */
    k1 = c[1] - c[0];
    k2 = c[2] - c[0];
    k3 = c[4] - c[0];
    k4 = c[0] - c[1] - c[2] + c[3];
    k5 = c[0] - c[2] - c[4] + c[6];
    k6 = c[0] - c[1] - c[4] + c[5];
    k7 = -c[0] + c[1] + c[2] - c[3] + c[4] - c[5] - c[6] + c[7];
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

double ct__noise3_deriv(uint32_t seed, double x, double y, double z, double d[3])
{
    const double *g[8];
    double p[3], f[3], o[3], c[8], u, v, w, du, dv, dw;
    int k;
    p[0] = x; p[1] = y; p[2] = z;
    ct__deriv_lane(seed, p, f, g);
    for (k = 0; k < 3; k++) o[k] = f[k] - 1.0;
    for (k = 0; k < 8; k++)
        c[k] = g[k][0] * (k & 1 ? o[0] : f[0]) + g[k][1] * (k & 2 ? o[1] : f[1]) + g[k][2] * (k & 4 ? o[2] : f[2]);
    u = ct__fade(f[0]);
    v = ct__fade(f[1]);
    w = ct__fade(f[2]);
    du = 30.0 * f[0] * f[0] * (f[0] - 1.0) * (f[0] - 1.0);
    dv = 30.0 * f[1] * f[1] * (f[1] - 1.0) * (f[1] - 1.0);
    dw = 30.0 * f[2] * f[2] * (f[2] - 1.0) * (f[2] - 1.0);
    return ct__deriv_blend(c, g, u, v, w, du, dv, dw, d);
}

/* The blend coefficients k1..k7 of ct__noise3_deriv from the corner values. */
static void ct__v2_deriv_coeffs(const ct__v2 c[8], ct__v2 k[8])
{
    k[1] = CT__V2_SUB(c[1], c[0]);
    k[2] = CT__V2_SUB(c[2], c[0]);
    k[3] = CT__V2_SUB(c[4], c[0]);
    k[4] = CT__V2_ADD(CT__V2_SUB(CT__V2_SUB(c[0], c[1]), c[2]), c[3]);
    k[5] = CT__V2_ADD(CT__V2_SUB(CT__V2_SUB(c[0], c[2]), c[4]), c[6]);
    k[6] = CT__V2_ADD(CT__V2_SUB(CT__V2_SUB(c[0], c[1]), c[4]), c[5]);
    k[7] = CT__V2_MUL(CT__V2(-1.0, -1.0), c[0]);
    k[7] = CT__V2_ADD(CT__V2_SUB(CT__V2_SUB(CT__V2_ADD(CT__V2_SUB(CT__V2_ADD(CT__V2_ADD(k[7], c[1]), c[2]), c[3]),
                                                       c[4]), c[5]), c[6]), c[7]);
}

/* ct__noise3_deriv at two points, a and b, in the two lanes of vectors:
 * floor, lattice hashes and gradient lookups per lane, everything else as
 * two-lane vector operations in ct__noise3_deriv's order (negation as a
 * multiply by -1, which keeps the sign of zero as unary minus does), so each
 * lane gives ct__noise3_deriv's bits. pa/pb hold x, y, z. */
void ct__noise3_deriv_x2(uint32_t seed, const double pa[3], const double pb[3], double n[2], double d[2][3])
{
    const double *ga[8], *gb[8];
    double fa[3], fb[3];
    ct__deriv_lane(seed, pa, fa, ga);
    ct__deriv_lane(seed, pb, fb, gb);
    ct__deriv_blend_x2(fa, fb, ga, gb, n, d);
}

void ct__deriv_blend_x2(const double fa[3], const double fb[3], const double *const ga[8], const double *const gb[8],
                        double n[2], double d[2][3])
{
    ct__v2 f[3], o[3], c[8], gv[8][3], one = CT__V2(1.0, 1.0), fade[3], dfade[3], kc[8], r, dd[3];
    int k;
    for (k = 0; k < 3; k++) {
        f[k] = CT__V2(fa[k], fb[k]);
        o[k] = CT__V2_SUB(f[k], one);    /* fx - 1.0 */
        fade[k] = ct__v2_fade(f[k]);
        /* 30 t t (t - 1) (t - 1), left to right */
        dfade[k] = CT__V2_MUL(CT__V2_MUL(CT__V2_MUL(CT__V2_MUL(CT__V2(30.0, 30.0), f[k]), f[k]), o[k]), o[k]);
    }
    for (k = 0; k < 8; k++) {
        ct__v2 ox = (k & 1) ? o[0] : f[0], oy = (k & 2) ? o[1] : f[1], oz = (k & 4) ? o[2] : f[2];
        gv[k][0] = CT__V2(ga[k][0], gb[k][0]);
        gv[k][1] = CT__V2(ga[k][1], gb[k][1]);
        gv[k][2] = CT__V2(ga[k][2], gb[k][2]);
        c[k] = CT__V2_ADD(CT__V2_ADD(CT__V2_MUL(gv[k][0], ox), CT__V2_MUL(gv[k][1], oy)), CT__V2_MUL(gv[k][2], oz));
    }
    ct__v2_deriv_coeffs(c, kc);
    for (k = 0; k < 3; k++) {
        ct__v2 a00 = ct__v2_lerp(gv[0][k], gv[1][k], fade[0]), a10 = ct__v2_lerp(gv[2][k], gv[3][k], fade[0]);
        ct__v2 a01 = ct__v2_lerp(gv[4][k], gv[5][k], fade[0]), a11 = ct__v2_lerp(gv[6][k], gv[7][k], fade[0]);
        dd[k] = ct__v2_lerp(ct__v2_lerp(a00, a10, fade[1]), ct__v2_lerp(a01, a11, fade[1]), fade[2]);
    }
    {
        ct__v2 u = fade[0], v = fade[1], w = fade[2];
        /* d[0] += du (k1 + k4 v + k6 w + k7 v w), and so on, left to right. */
        dd[0] = CT__V2_ADD(dd[0], CT__V2_MUL(dfade[0], CT__V2_ADD(CT__V2_ADD(CT__V2_ADD(kc[1], CT__V2_MUL(kc[4], v)),
                                                                             CT__V2_MUL(kc[6], w)),
                                                                  CT__V2_MUL(CT__V2_MUL(kc[7], v), w))));
        dd[1] = CT__V2_ADD(dd[1], CT__V2_MUL(dfade[1], CT__V2_ADD(CT__V2_ADD(CT__V2_ADD(kc[2], CT__V2_MUL(kc[4], u)),
                                                                             CT__V2_MUL(kc[5], w)),
                                                                  CT__V2_MUL(CT__V2_MUL(kc[7], u), w))));
        dd[2] = CT__V2_ADD(dd[2], CT__V2_MUL(dfade[2], CT__V2_ADD(CT__V2_ADD(CT__V2_ADD(kc[3], CT__V2_MUL(kc[5], v)),
                                                                             CT__V2_MUL(kc[6], u)),
                                                                  CT__V2_MUL(CT__V2_MUL(kc[7], u), v))));
        r = CT__V2_ADD(c[0], CT__V2_MUL(kc[1], u));
        r = CT__V2_ADD(r, CT__V2_MUL(kc[2], v));
        r = CT__V2_ADD(r, CT__V2_MUL(kc[3], w));
        r = CT__V2_ADD(r, CT__V2_MUL(CT__V2_MUL(kc[4], u), v));
        r = CT__V2_ADD(r, CT__V2_MUL(CT__V2_MUL(kc[5], v), w));
        r = CT__V2_ADD(r, CT__V2_MUL(CT__V2_MUL(kc[6], w), u));
        r = CT__V2_ADD(r, CT__V2_MUL(CT__V2_MUL(CT__V2_MUL(kc[7], u), v), w));
    }
    n[0] = CT__V2_LO(r);
    n[1] = CT__V2_HI(r);
    for (k = 0; k < 3; k++) {
        d[0][k] = CT__V2_LO(dd[k]);
        d[1][k] = CT__V2_HI(dd[k]);
    }
}

/* ------------------------------------------------ the build's vector blend
 * ct__perlin_blend with the corners paired along z: the lanes hold (c000,
 * c001), (c100, c101), (c010, c011), (c110, c111), so the x and y lerps run
 * on both z layers at once and only the last lerp is scalar. The point's
 * offsets are shared by both lanes; only the gradients differ, and
 * ct__grad_pair holds them already paired (row 12 a + b: gx of a and b, gy,
 * gz), three vector loads per pair instead of six scalar loads and packs.
 * Each lane does ct__perlin_blend's operations in its order, so the result
 * is bit for bit the same (tests/c/test_noise_exact.c). */
#define CT__GR0 1, 1, 0
#define CT__GR1 -1, 1, 0
#define CT__GR2 1, -1, 0
#define CT__GR3 -1, -1, 0
#define CT__GR4 1, 0, 1
#define CT__GR5 -1, 0, 1
#define CT__GR6 1, 0, -1
#define CT__GR7 -1, 0, -1
#define CT__GR8 0, 1, 1
#define CT__GR9 0, -1, 1
#define CT__GR10 0, 1, -1
#define CT__GR11 0, -1, -1
#define CT__GP_IL(ax, ay, az, bx, by, bz) { ax, bx, ay, by, az, bz }
#define CT__GP_ARGS(...) CT__GP_IL(__VA_ARGS__)
#define CT__GP(a, b) CT__GP_ARGS(CT__GR##a, CT__GR##b)
#define CT__GP_ROW(a) CT__GP(a, 0), CT__GP(a, 1), CT__GP(a, 2), CT__GP(a, 3), CT__GP(a, 4), CT__GP(a, 5), \
                      CT__GP(a, 6), CT__GP(a, 7), CT__GP(a, 8), CT__GP(a, 9), CT__GP(a, 10), CT__GP(a, 11)
static const double ct__grad_pair[144][6] = {
    CT__GP_ROW(0), CT__GP_ROW(1), CT__GP_ROW(2), CT__GP_ROW(3), CT__GP_ROW(4), CT__GP_ROW(5),
    CT__GP_ROW(6), CT__GP_ROW(7), CT__GP_ROW(8), CT__GP_ROW(9), CT__GP_ROW(10), CT__GP_ROW(11)
};

/* The ct__grad_pair row of a corner pair: a the z = 0 corner, b the z = 1. */
static inline uint32_t ct__pair_row(uint32_t ha, uint32_t hb)
{
    return 12u * (uint32_t)(((uint64_t)ha * 12u) >> 32) + (uint32_t)(((uint64_t)hb * 12u) >> 32);
}

/* Two adjacent doubles as one vector: a single load where there is one. */
#if defined(__wasm_simd128__)
#define CT__V2_LOAD(p) wasm_v128_load(p)
#elif defined(__SSE2__)
#define CT__V2_LOAD(p) _mm_loadu_pd(p)
#else
#define CT__V2_LOAD(p) CT__V2((p)[0], (p)[1])
#endif

static ct__v2 ct__row_dot(uint32_t row, ct__v2 fx, ct__v2 fy, ct__v2 fz)
{
    const double *t = ct__grad_pair[row];
    return CT__V2_ADD(CT__V2_ADD(CT__V2_MUL(CT__V2_LOAD(t), fx), CT__V2_MUL(CT__V2_LOAD(t + 2), fy)),
                      CT__V2_MUL(CT__V2_LOAD(t + 4), fz));
}

/* The blend from the four pair rows (x | y << 1 of the pair's corners). The
 * memo keeps rows rather than hashes, so a hit also skips the gradient
 * index arithmetic. */
static double ct__blend_rows(const uint8_t r[4], const ct__cell *c)
{
    double gx = c->fx - 1.0, gy = c->fy - 1.0;
    ct__v2 x0 = CT__V2(c->fx, c->fx), x1 = CT__V2(gx, gx), y0 = CT__V2(c->fy, c->fy), y1 = CT__V2(gy, gy);
    ct__v2 z = CT__V2(c->fz, c->fz - 1.0);
    ct__v2 a = ct__row_dot(r[0], x0, y0, z), b = ct__row_dot(r[1], x1, y0, z);
    ct__v2 cc = ct__row_dot(r[2], x0, y1, z), d = ct__row_dot(r[3], x1, y1, z);
    ct__v2 u = CT__V2(c->u, c->u), v = CT__V2(c->v, c->v);
    ct__v2 xa = ct__v2_lerp(a, b, u), xb = ct__v2_lerp(cc, d, u);   /* (x00, x01), (x10, x11) */
    ct__v2 yy = ct__v2_lerp(xa, xb, v);                             /* (y0, y1) */
    double ya = CT__V2_LO(yy), yb = CT__V2_HI(yy);
    return ya + c->w * (yb - ya);
}

static double ct__blend_build(const uint32_t h[8], const ct__cell *c)
{
    uint8_t r[4];
    int k;
    for (k = 0; k < 4; k++) r[k] = (uint8_t)ct__pair_row(h[k], h[k + 4]);
    return ct__blend_rows(r, c);
}

double ct__fbm3(uint32_t seed, const double p[3], double freq, int octaves,
                double lacunarity, double gain)
{
    double sum = 0.0, norm = 0.0, amp = 1.0, f = freq;
    int i;
    for (i = 0; i < octaves; i++) {
        /* seed + i: each octave is its own deterministic field (FastNoiseLite style). */
        sum += amp * ct__noise3(seed + (uint32_t)i, p[0] * f, p[1] * f, p[2] * f);
        norm += amp;
        amp *= gain;
        f *= lacunarity;
    }
    return norm > 0.0 ? sum / norm : 0.0;
}

/* The corner hashes of one cell for four seeds, lane by lane: each stage is
 * a loop of four independent mixes over the lanes, which clang turns into
 * i32x4 multiplies in WebAssembly (simd128) and which keeps four dependency
 * chains in flight natively. Per lane the integer operations are exactly
 * ct__corner_hashes'; h[corner][lane]. */
static void ct__corner_hashes_x4(const uint32_t seed[4], const ct__cell *c, uint32_t h[8][4])
{
    uint32_t ix = (uint32_t)(int64_t)c->x0f, iy = (uint32_t)(int64_t)c->y0f, iz = (uint32_t)(int64_t)c->z0f;
    uint32_t hs[4], hx[2][4], hxy[4][4], ky[2], kz[2];
    int i, l;
    ky[0] = iy * 0x85ebca6bu; ky[1] = (iy + 1u) * 0x85ebca6bu;
    kz[0] = iz * 0xc2b2ae35u; kz[1] = (iz + 1u) * 0xc2b2ae35u;
    for (l = 0; l < 4; l++) hs[l] = ct__mix32(seed[l] + 0x9e3779b9u);
    for (i = 0; i < 2; i++)
        for (l = 0; l < 4; l++) hx[i][l] = ct__mix32(hs[l] ^ (ix + (uint32_t)i));
    for (i = 0; i < 4; i++)
        for (l = 0; l < 4; l++) hxy[i][l] = ct__mix32(hx[i & 1][l] ^ ky[i >> 1]);
    for (i = 0; i < 8; i++)
        for (l = 0; l < 4; l++) h[i][l] = ct__mix32(hxy[i & 3][l] ^ kz[i >> 2]);
}

/* One octave's gradient pair rows for up to four seeds at one point
 * (rows[lane][pair]): from the memo when the point lies in the cell (and
 * seeds) the memo last saw, else hashed and remembered. The rows are a pure
 * function of (seeds, cell), so a hit gives the same integers as hashing
 * again. */
static const uint8_t (*ct__octave_rows(ct__fbm_memo *memo, int octave, const uint32_t *seeds, int count,
                                       uint32_t base, const ct__cell *c, uint8_t scratch[4][4]))[4]
{
    uint32_t s4[4], h[8][4];
    int l, k;
    struct ct__memo_octave *m = memo && octave < CT__MEMO_OCTAVES ? &memo->oct[octave] : NULL;
    for (l = 0; l < 4; l++) s4[l] = seeds[l < count ? l : 0] + base;
    if (m && m->valid && m->x0f == c->x0f && m->y0f == c->y0f && m->z0f == c->z0f &&
        m->seed[0] == s4[0] && m->seed[1] == s4[1] && m->seed[2] == s4[2] && m->seed[3] == s4[3])
        return (const uint8_t (*)[4])m->row;
    if (m) {
        m->valid = 1;
        m->x0f = c->x0f; m->y0f = c->y0f; m->z0f = c->z0f;
        for (l = 0; l < 4; l++) m->seed[l] = s4[l];
        scratch = m->row;
    }
    /* Every lane is filled, so what the memo holds depends on s4 alone
     * (a later call whose spare lanes coincide with real seeds reads them). */
    if (count == 1) {
        uint32_t h1[8];
        ct__corner_hashes(s4[0], c, h1);
        for (k = 0; k < 4; k++) scratch[0][k] = (uint8_t)ct__pair_row(h1[k], h1[k + 4]);
        for (l = 1; l < 4; l++)
            for (k = 0; k < 4; k++) scratch[l][k] = scratch[0][k];
    } else {
        ct__corner_hashes_x4(s4, c, h);
        for (l = 0; l < 4; l++)
            for (k = 0; k < 4; k++) scratch[l][k] = (uint8_t)ct__pair_row(h[k][l], h[k + 4][l]);
    }
    return (const uint8_t (*)[4])scratch;
}

/* The point's cell at one octave (shared by every seed and memo). */
static void ct__octave_cell(const double p[3], double f, ct__cell *c)
{
    ct__cell_at(p[0] * f, p[1] * f, p[2] * f, c);
}

void ct__fbm3_multi_memo(ct__fbm_memo *memo, const uint32_t *seeds, int count, const double p[3], double freq,
                         int octaves, double lacunarity, double gain, double *out)
{
    double sum[CT__FBM_MULTI_MAX], norm = 0.0, amp = 1.0, f = freq;
    int i, j;
    if (count > CT__FBM_MULTI_MAX) count = CT__FBM_MULTI_MAX;
    if (count > 4) memo = NULL;   /* the memo holds four lanes */
    for (j = 0; j < count; j++) sum[j] = 0.0;
    for (i = 0; i < octaves; i++) {
        ct__cell c;
        ct__octave_cell(p, f, &c);   /* once for every seed */
        /* Seeds four at a time (a short last group hashes spare lanes it
         * then ignores: cheaper than a scalar tail). */
        for (j = 0; j < count; j += 4) {
            uint8_t scratch[4][4];
            const uint8_t (*r4)[4];
            int lanes = count - j < 4 ? count - j : 4, l;
            r4 = ct__octave_rows(memo, i, seeds + j, lanes, (uint32_t)i, &c, scratch);
            for (l = 0; l < lanes; l++) sum[j + l] += amp * ct__blend_rows(r4[l], &c);
        }
        norm += amp;
        amp *= gain;
        f *= lacunarity;
    }
    for (j = 0; j < count; j++) out[j] = norm > 0.0 ? sum[j] / norm : 0.0;
}

/* ct__ridged3 with a memo of its lattice rows (same bits). */
double ct__ridged3_memo(ct__fbm_memo *memo, uint32_t seed, const double p[3], double freq, int octaves,
                        double lacunarity, double gain)
{
    double sum = 0.0, norm = 0.0, amp = 1.0, f = freq;
    int i;
    for (i = 0; i < octaves; i++) {
        ct__cell c;
        uint8_t scratch[4][4];
        double n, r;
        ct__octave_cell(p, f, &c);
        n = ct__blend_rows(ct__octave_rows(memo, i, &seed, 1, (uint32_t)i, &c, scratch)[0], &c);
        r = 1.0 - fabs(n);
        sum += amp * r * r;
        norm += amp;
        amp *= gain;
        f *= lacunarity;
    }
    return norm > 0.0 ? sum / norm : 0.0;
}

void ct__fbm3_multi(const uint32_t *seeds, int count, const double p[3], double freq, int octaves,
                    double lacunarity, double gain, double *out)
{
    ct__fbm3_multi_memo(NULL, seeds, count, p, freq, octaves, lacunarity, gain, out);
}

double ct__fbm3_memo(ct__fbm_memo *memo, uint32_t seed, const double p[3], double freq, int octaves,
                     double lacunarity, double gain)
{
    double out;
    ct__fbm3_multi_memo(memo, &seed, 1, p, freq, octaves, lacunarity, gain, &out);
    return out;
}

double ct__ridged3(uint32_t seed, const double p[3], double freq, int octaves,
                   double lacunarity, double gain)
{
    return ct__ridged3_memo(NULL, seed, p, freq, octaves, lacunarity, gain);
}

void ct__warp3(uint32_t seed, const double p[3], double freq, double strength, double out[3])
{
    ct__warp3_memo(NULL, seed, p, freq, strength, out);
}

void ct__warp3_memo(ct__fbm_memo *memo, uint32_t seed, const double p[3], double freq, double strength,
                    double out[3])
{
    /* Three decorrelated fields via distinct sub-seeds, at one point: they
     * share each octave's lattice cell. */
    uint32_t seeds[3];
    double wv[3];
    seeds[0] = ct__hash2(seed, 1u); seeds[1] = ct__hash2(seed, 2u); seeds[2] = ct__hash2(seed, 3u);
    ct__fbm3_multi_memo(memo, seeds, 3, p, freq, 3, 2.0, 0.5, wv);
    out[0] = p[0] + strength * wv[0];
    out[1] = p[1] + strength * wv[1];
    out[2] = p[2] + strength * wv[2];
}

/* The series' coefficients (2k)! / (4^k (k!)^2), each as the running product
 * coef *= (2k + 1) / (2k + 2) from 1 rounds it (the same for every x), so a
 * table gives the product's bits without its division per term. */
static const double ct__asin_coef[40] = {
    0x1p+0, 0x1p-1, 0x1.8p-2, 0x1.4p-2,
    0x1.18p-2, 0x1.f8p-3, 0x1.cep-3, 0x1.adp-3,
    0x1.923p-3, 0x1.7bd8p-3, 0x1.68dap-3, 0x1.5873p-3,
    0x1.4a18ep-3, 0x1.3d66bp-3, 0x1.3210bcp-3, 0x1.27dcfap-3,
    0x1.1e9e123p-3, 0x1.16300298p-3, 0x1.0e75c9a2p-3, 0x1.0757bd97p-3,
    0x1.00c258d9ap-3, 0x1.f54aad782p-4, 0x1.e9e6124108p-4, 0x1.df3fadaeecp-4,
    0x1.d543af65f1cp-4, 0x1.cbe10d2b95ep-4, 0x1.c30907fe7088p-4, 0x1.baaeca375b7cp-4,
    0x1.b2c718e415478p-4, 0x1.ab48140c49e0cp-4, 0x1.a42902a5af0bfp-4, 0x1.9d6227c40b30fp-4,
    0x1.96ec9f24fb043p-4, 0x1.90c23fa46b93ap-4, 0x1.8add8278972bdp-4, 0x1.85396e524bde7p-4,
    0x1.7fd185ad99099p-4, 0x1.7aa1b7c377d59p-4, 0x1.75a653a951347p-4, 0x1.70dbfd4167236p-4
};

/* Maclaurin series of asin, at most 40 terms (for |x| <= 0.5 the 40th is
 * below 1e-24). It stops at the first term that leaves the sum unchanged:
 * the terms only shrink (each is under x^2 = 1/4 of the one before) and
 * rounding is monotone, so every later term would leave it unchanged too, and
 * the result is bit for bit the 40-term sum's, in about a third of the terms
 * for the short graph edges. */
static double ct__asin_series(double x)
{
    double x2 = x * x, power = x, sum = 0.0;
    int k;
    for (k = 0; k < 40; k++) {
        double next = sum + ct__asin_coef[k] * power / (double)(2 * k + 1);
        if (next == sum) break;
        sum = next;
        power *= x2;
    }
    return sum;
}

#define CT__HALF_PI 1.57079632679489661923

double ct__asin_small(double x)
{
    double ax = fabs(x), r;
    if (ax > 1.0) ax = 1.0;
    if (ax <= 0.5) {
        r = ct__asin_series(ax);
    } else {
        /* asin(x) = pi/2 - 2 asin(sqrt((1-x)/2)) brings the argument to <= 0.5. */
        r = CT__HALF_PI - 2.0 * ct__asin_series(sqrt((1.0 - ax) * 0.5));
    }
    return x < 0.0 ? -r : r;
}

double ct__arc(const double a[3], const double b[3])
{
    /* 2 asin(chord/2) is well conditioned for the short edges of the graph,
     * unlike acos of a dot product. */
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    double chord = sqrt(dx * dx + dy * dy + dz * dz);
    return 2.0 * ct__asin_small(0.5 * chord);
}

/* ------------------------------------------------ chunk-side lattice memos
 * One point's offsets in its cell and its corner gradients, the gradients
 * from the memo when the cell and seed are those of the memo's last miss.
 * The offsets are always computed from this point's own floor, so a hit
 * differs from hashing only in skipping the eight hashes. ct__memo_get
 * returns 1 on a hit (f and g filled); on a miss it notes the cell, and the
 * caller hashes and hands the rows to ct__memo_put. */
static inline int ct__memo_get(ct__lattice_memo *m, uint32_t seed, const double p[3], double f[3], const double *g[8])
{
    double x0f = floor(p[0]), y0f = floor(p[1]), z0f = floor(p[2]);
    int k;
    if (m->valid && m->seed == seed && m->x0f == x0f && m->y0f == y0f && m->z0f == z0f) {
        f[0] = p[0] - x0f; f[1] = p[1] - y0f; f[2] = p[2] - z0f;
        for (k = 0; k < 8; k++) g[k] = m->g[k];
        return 1;
    }
    m->valid = 0;
    m->seed = seed;
    m->x0f = x0f; m->y0f = y0f; m->z0f = z0f;
    return 0;
}

static void ct__memo_put(ct__lattice_memo *m, const double *const g[8])
{
    int k;
    for (k = 0; k < 8; k++) m->g[k] = g[k];
    m->valid = 1;
}

static void ct__deriv_lane_memo(ct__lattice_memo *m, uint32_t seed, const double p[3], double f[3], const double *g[8])
{
    if (ct__memo_get(m, seed, p, f, g)) return;
    ct__deriv_lane(seed, p, f, g);
    ct__memo_put(m, g);
}

void ct__noise3_deriv_x2_memo(ct__lattice_memo *m, uint32_t seed, const double pa[3], const double pb[3], double n[2],
                              double d[2][3])
{
    const double *ga[8], *gb[8];
    double fa[3], fb[3];
    if (!m) {
        ct__noise3_deriv_x2(seed, pa, pb, n, d);
        return;
    }
    ct__deriv_lane_memo(m, seed, pa, fa, ga);
    ct__deriv_lane_memo(m, seed, pb, fb, gb);
    ct__deriv_blend_x2(fa, fb, ga, gb, n, d);
}

static void ct__fast_lane_memo(ct__lattice_memo *m, uint32_t seed, const double p[3], double f[3],
                               const double *g[8])
{
    if (ct__memo_get(m, seed, p, f, g)) return;
    ct__fast_lane(seed, p[0], p[1], p[2], f, g);
    ct__memo_put(m, g);
}
