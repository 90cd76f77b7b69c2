/* ct_base.h - the base layer (core/src/base): the error helper, hashing and
 * its named salts, noise, and cube-face addressing. Every other layer builds
 * on these; nothing here knows a world. Nothing here is part of the public
 * API; names use the ct__ prefix. */
#ifndef CT_BASE_H
#define CT_BASE_H

#include "ct.h"
#include "base/ct_math.h"

/* ------------------------------------------------------------ error helper */
/* Writes "message" (printf-style) into err and returns code. err may be NULL. */
ct_result ct__fail(char *err, size_t errlen, ct_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#define CT__NONE 0xffffffffu   /* "no vertex" in index arrays */

/* ---------------------------------------------------------------- hashing */
/* Named salts: one per feature, so adding a feature never shifts another's
 * random numbers. Values are arbitrary distinct constants. */
enum {
    CT_SALT_CONTINENT = 0x1001u,
    CT_SALT_WARP      = 0x1002u,
    CT_SALT_COAST     = 0x1003u,
    CT_SALT_REGION    = 0x1004u,
    CT_SALT_WALK_IID  = 0x2001u,
    CT_SALT_WALK_COH  = 0x2002u,
    CT_SALT_DELAY     = 0x2003u,
    CT_SALT_RELIEF    = 0x3001u,
    CT_SALT_RIDGE     = 0x3002u,
    CT_SALT_RANGE_BELT = 0x3003u,
    CT_SALT_RANGE_LIFT = 0x3004u,
    CT_SALT_DETAIL    = 0x4001u,
    CT_SALT_RANGE     = 0x4002u,
    CT_SALT_RANGE_FOLD = 0x4003u,
    CT_SALT_GROUND    = 0x4004u,
    CT_SALT_MOISTURE  = 0x5001u,
    CT_SALT_BIOME_EDGE = 0x5002u
};

/* lowbias32 (Wellons): a cheap full-avalanche 32-bit mix. Inline here so
 * the noise's lattice hashing (15 per sample in the world build) does not
 * call out of line; ct__hash32 is the same function with linkage. */
static inline uint32_t ct__mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}
uint32_t ct__hash32(uint32_t x);                       /* avalanche mix: ct__mix32 */
uint32_t ct__hash2(uint32_t a, uint32_t b);
uint32_t ct__hash3(uint32_t a, uint32_t b, uint32_t c);
uint32_t ct__hash4(uint32_t a, uint32_t b, uint32_t c, uint32_t d);
/* Sub-seed for a feature: hash(seed, salt). */
uint32_t ct__subseed(uint32_t seed, uint32_t salt);
/* Uniform double in [0,1) from a 32-bit hash (exact: h / 2^32). */
double ct__unit(uint32_t h);

/* ------------------------------------------------------------------ noise */
/* 3D gradient (Perlin-style, quintic fade) noise, roughly in [-1,1]. Only
 * +,-,*,floor are used so native and WASM agree bit for bit. */
double ct__noise3(uint32_t seed, double x, double y, double z);
/* The same noise with a cheap per-corner hash (xor of primed coordinates,
 * one multiply): for the per-sample chunk fields, not the world build. */
double ct__noise3_fast(uint32_t seed, double x, double y, double z);
/* Gradient noise with its analytic gradient d[3] (its own corner hash);
 * the _x2 form runs two points in vector lanes, each lane bit for bit the
 * scalar call. */
/* The gradient-noise lattice every kernel shares: large primes per axis (as
 * in FastNoiseLite) that a corner's hash xors together, and the 12 edge
 * gradients its top bits pick (noise.c, fine_relief.c). */
#define CT__PRIME_X 501125321u
#define CT__PRIME_Y 1136930381u
#define CT__PRIME_Z 1720413743u
extern const double ct__grad[12][3];
double ct__noise3_deriv(uint32_t seed, double x, double y, double z, double d[3]);
double ct__deriv_blend(const double c[8], const double *const g[8], double u, double v, double w, double du,
                       double dv, double dw, double d[3]);
void ct__noise3_deriv_x2(uint32_t seed, const double pa[3], const double pb[3], double n[2], double d[2][3]);
/* ct__deriv_blend of two points in vector lanes, from their cell offsets fa,
 * fb and corner gradients ga, gb (fade and corner values as
 * ct__noise3_deriv computes them): each lane's bits equal the scalar's. */
void ct__deriv_blend_x2(const double fa[3], const double fb[3], const double *const ga[8], const double *const gb[8],
                        double n[2], double d[2][3]);
/* The last lattice cell one noise stream (one seed, one octave) saw, with
 * its corner gradients. Chunks sample rows whose spacing is far below the
 * cells of the ridges and detail octaves, so most calls land in the cell of
 * the call before; the gradients are a pure function of (seed, cell), so reusing them
 * gives the bits of hashing again. valid 0: empty. */
typedef struct ct__lattice_memo {
    double x0f, y0f, z0f;
    uint32_t seed;
    int valid;
    const double *g[8];
} ct__lattice_memo;
/* ct__noise3_deriv_x2 through a memo (NULL: none); same bits. */
void ct__noise3_deriv_x2_memo(ct__lattice_memo *m, uint32_t seed, const double pa[3], const double pb[3], double n[2],
                              double d[2][3]);
/* fBm of ct__noise3_fast over `octaves`; *coarse (may be NULL) receives the
 * normalised sum of the first coarse_octaves octaves from the same loop. */
double ct__fbm3_fast(uint32_t seed, const double p[3], double freq, int octaves,
                     double lacunarity, double gain, int coarse_octaves, double *coarse);
/* Four points at once, bit for bit the scalar functions per point: pt and p
 * hold x, y, z of point 0, then of point 1, ... (12 doubles). Vector blend
 * under wasm simd128 or SSE2, scalar elsewhere; coarse may be NULL. */
void ct__noise3_fast_x4(uint32_t seed, const double pt[12], double out[4]);
/* ct__noise3_fast_x4 through a lattice memo (NULL: none); same bits. */
void ct__noise3_fast_x4_memo(ct__lattice_memo *m, uint32_t seed, const double pt[12], double out[4]);
void ct__fbm3_fast_x4(uint32_t seed, const double p[12], double freq, int octaves, double lacunarity,
                      double gain, int coarse_octaves, double out[4], double coarse[4]);
/* The same with an octave count per point (a row of samples where some are
 * land, running the detail octaves, and some water, running only the coarse
 * ones): out[k] is bit for bit ct__fbm3_fast(..., octaves[k], ...). */
void ct__fbm3_fast_x4n(uint32_t seed, const double p[12], double freq, const int octaves[4], double lacunarity,
                       double gain, int coarse_octaves, double out[4], double coarse[4]);
/* ct__fbm3_fast_x4n with a lattice memo per octave (CT__FAST_MEMO entries,
 * octaves past them run without; memo NULL: none); same bits. */
#define CT__FAST_MEMO 16
void ct__fbm3_fast_x4n_memo(ct__lattice_memo *memo, uint32_t seed, const double p[12], double freq,
                            const int octaves[4], double lacunarity, double gain, int coarse_octaves, double out[4],
                            double coarse[4]);
/* fBm: octave i uses seed+i, frequency freq*lacunarity^i, amplitude gain^i;
 * result normalised by the amplitude sum to about [-1,1]. */
double ct__fbm3(uint32_t seed, const double p[3], double freq, int octaves,
                double lacunarity, double gain);
/* ct__fbm3 of up to CT__FBM_MULTI_MAX seeds at one point: out[j] is bit for
 * bit ct__fbm3(seeds[j], ...); the seeds share each octave's lattice cell. */
#define CT__FBM_MULTI_MAX 8
void ct__fbm3_multi(const uint32_t *seeds, int count, const double p[3], double freq, int octaves,
                    double lacunarity, double gain, double *out);
/* A memo of one call site's fBm lattice hashes, per octave (up to
 * CT__MEMO_OCTAVES octaves, four seeds): a loop over neighbouring points (the
 * macro vertices in index order) mostly stays in the same low-frequency
 * cells, and a hit skips the 15 integer mixes and the gradient lookups per
 * seed. Results are bit for bit those without a memo. Zero-initialise it;
 * one memo per field. */
#define CT__MEMO_OCTAVES 10
typedef struct ct__fbm_memo {
    struct ct__memo_octave {
        double x0f, y0f, z0f;    /* the cell's corner */
        uint32_t seed[4];        /* per lane, octave offset included */
        uint8_t row[4][4];       /* gradient pair rows [lane][x | y << 1] (noise.c) */
        int valid;
    } oct[CT__MEMO_OCTAVES];
} ct__fbm_memo;
void ct__fbm3_multi_memo(ct__fbm_memo *memo, const uint32_t *seeds, int count, const double p[3], double freq,
                         int octaves, double lacunarity, double gain, double *out);
double ct__fbm3_memo(ct__fbm_memo *memo, uint32_t seed, const double p[3], double freq, int octaves,
                     double lacunarity, double gain);
void ct__warp3_memo(ct__fbm_memo *memo, uint32_t seed, const double p[3], double freq, double strength,
                    double out[3]);
/* Ridged fBm in [0,1]: (1-|n|)^2 per octave, weighted. */
double ct__ridged3(uint32_t seed, const double p[3], double freq, int octaves,
                   double lacunarity, double gain);
double ct__ridged3_memo(ct__fbm_memo *memo, uint32_t seed, const double p[3], double freq, int octaves,
                        double lacunarity, double gain);
/* Domain warp: out = p + strength * (fbm_x, fbm_y, fbm_z). */
void ct__warp3(uint32_t seed, const double p[3], double freq, double strength,
               double out[3]);
/* asin(x) for |x| <= 0.75 by a fixed series (no libm), error < 1e-12. */
double ct__asin_small(double x);
/* Great-circle angle between unit vectors (radians), libm-free. */
double ct__arc(const double a[3], const double b[3]);

/* ------------------------------------------------------------------- cube */
/* Face uv -> unnormalised direction (the face transform). */
void ct__face_uv_to_cube(int face, double u, double v, double out[3]);
/* Normalise a cube-surface point so that permuted/sign-flipped inputs give
 * bit-identical results (sums squares in sorted order). */
void ct__normalize_canonical(double d[3]);
/* Direction (finite, non-zero) -> face, u, v. No validation. */
void ct__cube_from_dir(const double d[3], int *face, double *u, double *v);
/* Exact direction of global sample (gx, gy) on face at lod: coordinates
 * gx/(256*2^lod) exactly, then the face transform and canonical norm. */
void ct__sample_direction(int face, int lod, int64_t gx, int64_t gy, double out[3]);
/* The face transform's derivatives along u and v (its axes). */
void ct__face_axes(int face, double du[3], double dv[3]);
/* One canonical unit vector whatever the caller's scale: divided by its
 * largest component, then ct__normalize_canonical (out may be dir_in). */
void ct__canonical_dir(const double dir_in[3], double dir[3]);
int ct__is_finite(double x);
/* ct_key_at of a world with config cfg (NULL: no world, any LOD up to
 * CT_MAX_LOD). */
ct_result ct__key_at(const ct_config *cfg, const double dir[3], int lod, ct_key *key, double *local_x,
                     double *local_y, char *err, size_t errlen);

#endif
