/* ground.c - fine relief: the ground below the ranges' smallest ridges (about
 * 4 km) down to about four samples of the world's surface_lod.
 *
 * The ranges layer ends at ridges about 4 km apart and the detail noise at
 * 12.5 km waves, so a finer surface_lod only samples a smooth field more
 * densely. This layer adds one octave per LOD past ground_from_lod (two at the
 * first), each octave's noise cell about four samples of its LOD, so every
 * octave a world carries is resolved by its finest chunks and none is wasted
 * below them. The octave count depends on the config only (surface_lod), never
 * on the LOD a chunk asks for, so coarse chunks sample the same field as fine
 * ones and stay exact subsets; everything is evaluated on the 3D unit
 * direction, so cube edges are seamless.
 *
 * Each octave is one pass over the 8 corners of a lattice cell of a 3D
 * gradient noise with analytic derivative. The same corners also pivot two
 * stripe patterns (the "erosion filter" / phacelle idea: stripes aligned with
 * a direction, each corner's stripes anchored at the corner with its own
 * phase, blended with the noise's weights and renormalised to unit amplitude):
 *   - gullies: stripes across the slope of everything coarser (the macro
 *     field, the ranges, and this layer's coarser octaves), so they run
 *     downhill; each finer octave sees the coarser gullies' slope and bends
 *     into them, which gives branching gullies and the spurs between them.
 *     Their strength grows with the slope (flat ground gets none);
 *   - dunes: asymmetric stripes across a fixed east-west wind on dry land
 *     (the moisture field below the desert threshold), in the octaves whose
 *     wavelength is a dune's (about 50 to 700 m).
 * On steep ground the noise turns into ridged ribs (rock outcrops with scree
 * slopes between); on low flat ground the amplitude falls to a share of
 * itself (rolling plains). The sum fades towards the shore, as |a| / (|a| + 2
 * bound) of the land height a above its shore reference, so beaches and lake
 * shores are smooth and the coastline never moves.
 *
 * NOTE: a plain fBm of the same octaves (no gullies) costs about 70% of this
 * and reads as noise from the ground; a 3x3 neighbourhood of pivots (the
 * original filter) costs about 3x per octave for a result the 2x2x2 blend of
 * the lattice corners matches closely enough at these scales.
 *
 * Only + - * / sqrt floor: identical natively and in WebAssembly. */
#include "ct_ground.h"

#include <math.h>

/* Unit-sphere frequency whose noise cell is about four samples of LOD 0
 * (the mean sample spacing of LOD L is (pi/2) / (256 2^L) radians; four of
 * them are 1 / 40.7 / 2^L). Octave k of a world has 40 x 2^(from_lod - 1 + k). */
#define CT__GROUND_F0 40.0
/* Share of the amplitude on flat low ground (rolling plains); the rest comes
 * with the coarser field's slope (half at CT__STEEP_HALF m per m) or the
 * height above the shore (half at CT__HIGH_HALF_M), whichever is more. */
#define CT__GROUND_PLAIN 0.3
#define CT__STEEP_HALF 0.12
#define CT__HIGH_HALF_M 1500.0
/* Gullies reach half of ground_gully at this slope (m per m). */
#define CT__GULLY_HALF 0.08
/* Stripes per noise cell: one gully per cell of its octave. */
#define CT__STRIPES 1.0
/* Slope band (m per m) over which the noise turns into rock ribs. */
#define CT__ROCK_LO 0.35
#define CT__ROCK_HI 0.9
/* Dunes: full below moisture CT__DRY_LO, none above CT__DRY_HI (the desert
 * biome starts at 0.3); wavelengths in [CT__DUNE_MIN_M, CT__DUNE_MAX_M]; the
 * dune octaves replace CT__DUNE_SWAP of the noise and add CT__DUNE_GAIN times
 * the octave's amplitude of dune profile. */
#define CT__DRY_LO 0.15
#define CT__DRY_HI 0.32
#define CT__DUNE_MIN_M 40.0
#define CT__DUNE_MAX_M 800.0
#define CT__DUNE_SWAP 0.7
#define CT__DUNE_GAIN 1.5
/* Lee-side skew of the dune profile: cos t + CT__DUNE_SKEW sin 2t. */
#define CT__DUNE_SKEW 0.35
/* Bounds of the shapes, per unit of octave amplitude: the gradient noise and
 * the stripes stay within 1.05 and 1, the ribs within 1.33; a dune profile
 * within 1 + 0.35. */
#define CT__SHAPE_PEAK 1.4
#define CT__DUNE_PEAK 1.35
#define CT__TWO_PI 6.283185307179586

void ct__ground_prepare(const ct_config *cfg, ct__ground_prep *p)
{
    int k, lod = (int)cfg->surface_lod, from = (int)cfg->ground_from_lod;
    double f, a, sum = 0.0;
    uint32_t base = ct__subseed(cfg->seed, CT_SALT_GROUND);
    p->octaves = 0;
    p->dune_from = p->dune_to = 0;
    p->radius_m = cfg->radius_m;
    p->gully = cfg->ground_gully;
    p->dunes = cfg->ground_dunes;
    p->bound_m = 0.0;
    /* Walk mode shows the contour process alone, as for the detail. */
    if (!(cfg->ground_amplitude_m > 0.0) || cfg->mode == CT_MODE_WALK || lod < from) return;
    p->octaves = lod - from + 2;
    if (p->octaves > CT__GROUND_MAX_OCTAVES) p->octaves = CT__GROUND_MAX_OCTAVES;
    f = CT__GROUND_F0;
    for (k = 1; k < from; k++) f *= 2.0;   /* 40 x 2^(from - 1); from >= 1 */
    a = cfg->ground_amplitude_m;
    p->dune_from = p->octaves;
    for (k = 0; k < p->octaves; k++) {
        double wavelength_m = cfg->radius_m / f;
        p->freq[k] = f;
        p->amp_m[k] = a;
        p->seed[k] = ct__hash2(base, (uint32_t)k);
        if (wavelength_m <= CT__DUNE_MAX_M && wavelength_m >= CT__DUNE_MIN_M) {
            if (p->dune_from > k) p->dune_from = k;
            p->dune_to = k + 1;
        }
        sum += a * (CT__SHAPE_PEAK + p->dunes * CT__DUNE_GAIN * CT__DUNE_PEAK);
        f *= 2.0;
        a *= cfg->ground_gain;
    }
    if (p->dune_to == 0) p->dune_from = 0;
    p->bound_m = sum;
}

/* One octave's lattice pass: the gradient noise n with its derivative dn
 * (per lattice unit), and the blended (cos, sin) of the gully stripes across
 * q and of the dune stripes across qw (each only when asked for). */
typedef struct ct__goct {
    double n, dn[3];
    double gc, gs, dc, ds;
} ct__goct;

/* Corner hash: xor of primed lattice coordinates and the seed, one multiply
 * (the FastNoiseLite primes, a multiplier of its own). The top bits pick the
 * gradient, the low bits the two stripe phases. */
#define CT__GX 501125321u
#define CT__GY 1136930381u
#define CT__GZ 1720413743u
static uint32_t ct__gcorner(uint32_t seed, uint32_t x, uint32_t y, uint32_t z)
{
    uint32_t h = (seed ^ x ^ y ^ z) * 0x9e3779b1u;
    return h ^ (h >> 15);
}

static const double ct__ggrad[12][3] = {
    {1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0}, {1, 0, 1}, {-1, 0, 1},
    {1, 0, -1}, {-1, 0, -1}, {0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1}
};

/* A C1 periodic stand-in for cos(2 pi t) without libm: a cubic in the
 * distance to the nearest crest, 1 at t = 0, -1 at t = 1/2, flat at both. */
static double ct__wave(double t)
{
    double s = t - floor(t), a = s <= 0.5 ? s : 1.0 - s, b = 4.0 * a - 1.0;
    return -0.5 * b * (3.0 - b * b);
}

static void ct__ground_lattice(uint32_t seed, const double P[3], const double *q, const double *qw, ct__goct *o)
{
    double x0f = floor(P[0]), y0f = floor(P[1]), z0f = floor(P[2]);
    double f[3], g1[3], c[8], u, v, w, du, dv, dw, k1, k2, k3, k4, k5, k6, k7;
    uint32_t x0 = (uint32_t)(int64_t)x0f * CT__GX, y0 = (uint32_t)(int64_t)y0f * CT__GY;
    uint32_t z0 = (uint32_t)(int64_t)z0f * CT__GZ;
    const double *g[8];
    int k;
    f[0] = P[0] - x0f; f[1] = P[1] - y0f; f[2] = P[2] - z0f;
    g1[0] = f[0] - 1.0; g1[1] = f[1] - 1.0; g1[2] = f[2] - 1.0;
    u = f[0] * f[0] * f[0] * (f[0] * (f[0] * 6.0 - 15.0) + 10.0);
    v = f[1] * f[1] * f[1] * (f[1] * (f[1] * 6.0 - 15.0) + 10.0);
    w = f[2] * f[2] * f[2] * (f[2] * (f[2] * 6.0 - 15.0) + 10.0);
    du = 30.0 * f[0] * f[0] * g1[0] * g1[0];
    dv = 30.0 * f[1] * f[1] * g1[1] * g1[1];
    dw = 30.0 * f[2] * f[2] * g1[2] * g1[2];
    o->gc = o->gs = o->dc = o->ds = 0.0;
    for (k = 0; k < 8; k++) {
        double ox = (k & 1) ? g1[0] : f[0], oy = (k & 2) ? g1[1] : f[1], oz = (k & 4) ? g1[2] : f[2];
        double wt = ((k & 1) ? u : 1.0 - u) * ((k & 2) ? v : 1.0 - v) * ((k & 4) ? w : 1.0 - w);
        uint32_t h = ct__gcorner(seed, (k & 1) ? x0 + CT__GX : x0, (k & 2) ? y0 + CT__GY : y0,
                                 (k & 4) ? z0 + CT__GZ : z0);
        g[k] = ct__ggrad[(uint32_t)(((uint64_t)h * 12u) >> 32)];
        c[k] = g[k][0] * ox + g[k][1] * oy + g[k][2] * oz;
        if (q) {
            double t = (ox * q[0] + oy * q[1] + oz * q[2]) * CT__STRIPES + (double)(h & 0xffffu) * (1.0 / 65536.0);
            o->gc += wt * ct__wave(t);
            o->gs += wt * ct__wave(t - 0.25);
        }
        if (qw) {
            double t = (ox * qw[0] + oy * qw[1] + oz * qw[2]) * CT__STRIPES +
                       (double)((h >> 8) & 0xffffu) * (1.0 / 65536.0);
            o->dc += wt * ct__wave(t);
            o->ds += wt * ct__wave(t - 0.25);
        }
    }
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
        o->dn[k] = b0 + w * (b1 - b0);
    }
    o->dn[0] += du * (k1 + k4 * v + k6 * w + k7 * v * w);
    o->dn[1] += dv * (k2 + k4 * u + k5 * w + k7 * u * w);
    o->dn[2] += dw * (k3 + k5 * v + k6 * u + k7 * u * v);
    o->n = c[0] + k1 * u + k2 * v + k3 * w + k4 * u * v + k5 * v * w + k6 * w * u + k7 * u * v * w;
}

/* The slope of G across the surface at dir (|dir x G|, G's tangent part) and
 * the unit vector across it, in the tangent plane (0 when flat). */
static double ct__across(const double dir[3], const double G[3], double q[3])
{
    double s;
    q[0] = dir[1] * G[2] - dir[2] * G[1];
    q[1] = dir[2] * G[0] - dir[0] * G[2];
    q[2] = dir[0] * G[1] - dir[1] * G[0];
    s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    if (s > 1e-12) {
        q[0] /= s; q[1] /= s; q[2] /= s;
    } else {
        s = 0.0;
    }
    return s;
}

/* Dryness 0..1 and the unit east vector (crests of transverse dunes run
 * north-south under a west wind); dunes fade out near the poles, where east
 * is undefined. */
static double ct__dune_frame(const ct__ground_prep *p, const double dir[3], double moisture, double qw[3])
{
    double e2 = dir[0] * dir[0] + dir[2] * dir[2], e, dry;
    if (!(p->dunes > 0.0) || p->dune_to <= p->dune_from) return 0.0;
    dry = ct__smoothstep(CT__DRY_HI, CT__DRY_LO, moisture) * ct__smoothstep(0.01, 0.05, e2);
    if (!(dry > 0.0)) return 0.0;
    e = sqrt(e2);
    qw[0] = dir[2] / e;
    qw[1] = 0.0;
    qw[2] = -dir[0] / e;
    return dry * p->dunes;
}

/* One octave: its height (m) and its part of the gradient added to G. */
static double ct__ground_octave(const ct__ground_prep *p, int k, const double dir[3], double amp, double dune,
                                const double qw[3], double G[3])
{
    double P[3], q[3], slope, gm, rock, an, rib, drib, sh, dsh, gl, gcos, gsin, h, scale, keep;
    ct__goct o;
    int j;
    slope = ct__across(dir, G, q);
    gm = slope > 0.0 ? p->gully * slope / (slope + CT__GULLY_HALF) : 0.0;
    rock = ct__smoothstep(CT__ROCK_LO, CT__ROCK_HI, slope);
    for (j = 0; j < 3; j++) P[j] = dir[j] * p->freq[k];
    ct__ground_lattice(p->seed[k], P, gm > 0.0 ? q : NULL, dune > 0.0 ? qw : NULL, &o);
    /* Rock ribs: (1 - |n|)^2 has sharp crests and broad hollows. */
    an = o.n < 0.0 ? -o.n : o.n;
    rib = 2.0 * (1.0 - an) * (1.0 - an) - 0.67;
    drib = (o.n < 0.0 ? 4.0 : -4.0) * (1.0 - an);
    sh = o.n + rock * (rib - o.n);
    dsh = 1.0 + rock * (drib - 1.0);
    gcos = gsin = 0.0;
    if (gm > 0.0) {
        gl = sqrt(o.gc * o.gc + o.gs * o.gs + 1e-4);
        gcos = o.gc / gl;
        gsin = o.gs / gl;
    }
    keep = 1.0 - CT__DUNE_SWAP * dune;
    h = amp * keep * ((1.0 - gm) * sh + gm * gcos);
    if (dune > 0.0) {
        double dl = sqrt(o.dc * o.dc + o.ds * o.ds + 1e-4), dc = o.dc / dl, ds = o.ds / dl;
        h += amp * CT__DUNE_GAIN * dune * (dc + CT__DUNE_SKEW * 2.0 * ds * dc);
    }
    /* The gradient (m per m) the finer octaves follow: the noise's, and the
     * gullies' across q (d cos / dx = -2 pi S f sin). Dunes do not drain. */
    scale = amp * keep * p->freq[k] / p->radius_m;
    for (j = 0; j < 3; j++) G[j] += scale * (1.0 - gm) * dsh * o.dn[j];
    if (gm > 0.0)
        for (j = 0; j < 3; j++) G[j] -= scale * gm * gsin * CT__TWO_PI * CT__STRIPES * q[j];
    return h;
}

double ct__ground_relief(const ct__ground_prep *p, const double dir[3], const ct__ground_in *in)
{
    double a = in->above_m, G[3], q[3], qw[3] = {0.0, 0.0, 0.0}, steep, rough, dry, sum = 0.0, bound = 0.0;
    int k;
    if (!(a > 0.0) || p->octaves <= 0) return 0.0;
    G[0] = in->grad[0]; G[1] = in->grad[1]; G[2] = in->grad[2];
    steep = ct__across(dir, G, q);
    steep = steep / (steep + CT__STEEP_HALF);
    rough = a / (a + CT__HIGH_HALF_M);
    if (steep > rough) rough = steep;
    rough = CT__GROUND_PLAIN + (1.0 - CT__GROUND_PLAIN) * rough;
    dry = ct__dune_frame(p, dir, in->moisture, qw);
    for (k = 0; k < p->octaves; k++) {
        double amp = p->amp_m[k] * rough, dune = (k >= p->dune_from && k < p->dune_to) ? dry : 0.0;
        sum += ct__ground_octave(p, k, dir, amp, dune, qw, G);
        bound += amp * ((1.0 - CT__DUNE_SWAP * dune) * CT__SHAPE_PEAK + CT__DUNE_GAIN * dune * CT__DUNE_PEAK);
    }
    /* The bound holds by the shapes' ranges; the clamp makes it exact. */
    if (sum > bound) sum = bound;
    if (sum < -bound) sum = -bound;
    return sum * (a / (a + 2.0 * bound));
}
