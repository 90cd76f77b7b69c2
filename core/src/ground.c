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
 * slopes between); low flat ground keeps a share of the amplitude
 * (CT__GROUND_PLAIN, all of it by default: rolling plains). The sum fades towards the shore, as |a| / (|a| + 2
 * bound) of the land height a above its shore reference, so beaches and lake
 * shores are smooth and the coastline never moves.
 *
 * NOTE: a plain fBm of the same octaves (no gullies) costs about 70% of this
 * and reads as noise from the ground; a 3x3 neighbourhood of pivots (the
 * original filter) costs about 3x per octave for a result the 2x2x2 blend of
 * the lattice corners matches closely enough at these scales.
 *
 * Only + - * / sqrt floor (cos and sin by a Taylor pair, ct__cis): identical
 * natively and in WebAssembly. */
#include "ct_ground.h"
#include "ct_v2.h"

#include <math.h>

/* Unit-sphere frequency whose noise cell is about four samples of LOD 0
 * (the mean sample spacing of LOD L is (pi/2) / (256 2^L) radians; four of
 * them are 1 / 40.7 / 2^L). Octave k of a world has 40 x 2^(from_lod - 1 + k). */
#define CT__GROUND_F0 40.0
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
 * the renormalised stripes stay within 1.05 and 1, the ribs within 1.33; a
 * dune profile within 1 + 0.35. */
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
        /* two lattice nodes to the octave's noise cell (four samples of LOD
         * from - 1 + k): level from - 2 + k, none below 0 */
        p->level[k] = from - 2 + k < 0 ? 0 : from - 2 + k;
        if (wavelength_m <= CT__DUNE_MAX_M && wavelength_m >= CT__DUNE_MIN_M) {
            if (p->dune_from > k) p->dune_from = k;
            p->dune_to = k + 1;
        }
        sum += a * (CT__SHAPE_PEAK + p->dunes * CT__DUNE_GAIN * CT__DUNE_PEAK);
        f *= 2.0;
        a *= cfg->ground_gain;
    }
    if (p->dune_to == 0) p->dune_from = 0;
    p->base = p->level[0];
    p->top = p->level[p->octaves - 1];
    p->lod = lod;
    p->bound_m = sum;
}

/* One octave's lattice pass: the gradient noise n with its derivative dn
 * (per lattice unit), and the blended (cos, sin) of the gully stripes across
 * q and of the dune stripes across qw (each only when asked for). */
typedef struct ct__goct {
    double n, dn[3];
    double gc, gs, dc, ds;
} ct__goct;

/* Corner hash: xor of primed lattice coordinates (the shared CT__PRIME_*)
 * and the seed, one multiply of its own. The top bits pick the gradient
 * (the shared ct__grad), the low bits the two stripe phases. */
static uint32_t ct__gcorner(uint32_t seed, uint32_t x, uint32_t y, uint32_t z)
{
    uint32_t h = (seed ^ x ^ y ^ z) * 0x9e3779b1u;
    return h ^ (h >> 15);
}

/* cos and sin of 2 pi t without libm: t reduced to [-1/2, 1/2), a Taylor pair
 * on a quarter of the angle (|y| <= pi/4, error under 1e-12), then the angle
 * doubled twice. */
static void ct__cis(double t, double out[2])
{
    double r = t - floor(t + 0.5), y = r * (CT__TWO_PI * 0.25), y2 = y * y, c, sn, k;
    /* reciprocals folded at compile time (correctly rounded constants) */
    sn = y * (1.0 - y2 * (1.0 / 6.0) * (1.0 - y2 * (1.0 / 20.0) * (1.0 - y2 * (1.0 / 42.0) *
                                        (1.0 - y2 * (1.0 / 72.0) * (1.0 - y2 * (1.0 / 110.0))))));
    c = 1.0 - y2 * 0.5 * (1.0 - y2 * (1.0 / 12.0) * (1.0 - y2 * (1.0 / 30.0) *
                                       (1.0 - y2 * (1.0 / 56.0) * (1.0 - y2 * (1.0 / 90.0)))));
    k = 2.0 * sn * c; c = c * c - sn * sn; sn = k;
    k = 2.0 * sn * c; c = c * c - sn * sn; sn = k;
    out[0] = c;
    out[1] = sn;
}

/* What a stripe pattern across unit vector q needs per octave: with f the
 * point's offset in its cell, corner c (bits b) has phase t_c = f.q - b.q +
 * its own phase, so e^(2 pi i t_c) = e^(2 pi i f.q) e^(-2 pi i b.q) P_c: four
 * cis per octave instead of eight, the corners by complex products. */
typedef struct ct__stripes {
    double base[2];        /* e^(2 pi i f.q) */
    double corner[8][2];   /* e^(-2 pi i b.q) per corner */
} ct__stripes;

static void ct__cmul(const double a[2], const double b[2], double out[2])
{
    double re = a[0] * b[0] - a[1] * b[1], im = a[0] * b[1] + a[1] * b[0];
    out[0] = re;
    out[1] = im;
}

static void ct__stripes_prepare(const double f[3], const double q[3], ct__stripes *st)
{
    double e[3][2];
    int k;
    ct__cis((f[0] * q[0] + f[1] * q[1] + f[2] * q[2]) * CT__STRIPES, st->base);
    for (k = 0; k < 3; k++) ct__cis(-q[k] * CT__STRIPES, e[k]);
    st->corner[0][0] = 1.0; st->corner[0][1] = 0.0;
    st->corner[1][0] = e[0][0]; st->corner[1][1] = e[0][1];
    st->corner[2][0] = e[1][0]; st->corner[2][1] = e[1][1];
    ct__cmul(e[0], e[1], st->corner[3]);
    for (k = 0; k < 4; k++) ct__cmul(st->corner[k], e[2], st->corner[4 + k]);
}

static void ct__ground_lattice(uint32_t seed, const double P[3], const double *q, const double *qw, ct__goct *o)
{
    double x0f = floor(P[0]), y0f = floor(P[1]), z0f = floor(P[2]);
    double f[3], g1[3], c[8], u, v, w, du, dv, dw, ga[2] = {0.0, 0.0}, da[2] = {0.0, 0.0};
    uint32_t x0 = (uint32_t)(int64_t)x0f * CT__PRIME_X, y0 = (uint32_t)(int64_t)y0f * CT__PRIME_Y;
    uint32_t z0 = (uint32_t)(int64_t)z0f * CT__PRIME_Z;
    const double *g[8];
    ct__stripes sg, sd;
    int k;
    f[0] = P[0] - x0f; f[1] = P[1] - y0f; f[2] = P[2] - z0f;
    g1[0] = f[0] - 1.0; g1[1] = f[1] - 1.0; g1[2] = f[2] - 1.0;
    u = f[0] * f[0] * f[0] * (f[0] * (f[0] * 6.0 - 15.0) + 10.0);
    v = f[1] * f[1] * f[1] * (f[1] * (f[1] * 6.0 - 15.0) + 10.0);
    w = f[2] * f[2] * f[2] * (f[2] * (f[2] * 6.0 - 15.0) + 10.0);
    du = 30.0 * f[0] * f[0] * g1[0] * g1[0];
    dv = 30.0 * f[1] * f[1] * g1[1] * g1[1];
    dw = 30.0 * f[2] * f[2] * g1[2] * g1[2];
    if (q) ct__stripes_prepare(f, q, &sg);
    if (qw) ct__stripes_prepare(f, qw, &sd);
    for (k = 0; k < 8; k++) {
        double ox = (k & 1) ? g1[0] : f[0], oy = (k & 2) ? g1[1] : f[1], oz = (k & 4) ? g1[2] : f[2];
        uint32_t h = ct__gcorner(seed, (k & 1) ? x0 + CT__PRIME_X : x0, (k & 2) ? y0 + CT__PRIME_Y : y0,
                                 (k & 4) ? z0 + CT__PRIME_Z : z0);
        g[k] = ct__grad[(uint32_t)(((uint64_t)h * 12u) >> 32)];
        c[k] = g[k][0] * ox + g[k][1] * oy + g[k][2] * oz;
        if (q || qw) {
            double wt = ((k & 1) ? u : 1.0 - u) * ((k & 2) ? v : 1.0 - v) * ((k & 4) ? w : 1.0 - w), z[2];
            if (q) {
                ct__cmul(sg.corner[k], ct__ground_phase[h & 255u], z);
                ga[0] += wt * z[0];
                ga[1] += wt * z[1];
            }
            if (qw) {
                ct__cmul(sd.corner[k], ct__ground_phase[(h >> 8) & 255u], z);
                da[0] += wt * z[0];
                da[1] += wt * z[1];
            }
        }
    }
    o->gc = o->gs = o->dc = o->ds = 0.0;
    if (q) {
        double z[2];
        ct__cmul(sg.base, ga, z);
        o->gc = z[0];
        o->gs = z[1];
    }
    if (qw) {
        double z[2];
        ct__cmul(sd.base, da, z);
        o->dc = z[0];
        o->ds = z[1];
    }
    o->n = ct__deriv_blend(c, g, u, v, w, du, dv, dw, o->dn);
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
        double inv = 1.0 / s;
        q[0] *= inv; q[1] *= inv; q[2] *= inv;
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

/* One octave at a node: its height (m) and its own gradient dh (m per m),
 * steered by G, the gradient of everything coarser. */
static double ct__ground_octave(const ct__ground_prep *p, int k, const double dir[3], double dune, const double qw[3],
                                const double G[3], double dh[3])
{
    double P[3], q[3], slope, gm, rock, an, rib, drib, sh, dsh, gl, gcos, gsin, h, scale, keep, amp = p->amp_m[k];
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
    for (j = 0; j < 3; j++) dh[j] = scale * (1.0 - gm) * dsh * o.dn[j];
    if (gm > 0.0)
        for (j = 0; j < 3; j++) dh[j] -= scale * gm * gsin * CT__TWO_PI * CT__STRIPES * q[j];
    return h;
}

void ct__ground_frame(const ct__ground_prep *p, int face, int level, int64_t x, int64_t y, ct__gframe *fr)
{
    int64_t last = (int64_t)CT_CHUNK_CORE << level;
    double n = (double)last, u = 2.0 * ((double)x / n) - 1.0, v = 2.0 * ((double)y / n) - 1.0;
    double c[3], au[3], av[3], inv, du, dv, s;
    int k;
    ct__face_frame(face, u, v, c, au, av);
    /* Any fixed rounding will do: a node's direction is computed here only,
     * for every chunk and point that needs it. */
    inv = 1.0 / sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    for (k = 0; k < 3; k++) fr->dir[k] = c[k] * inv;
    du = ct__dot3(fr->dir, au);
    dv = ct__dot3(fr->dir, av);
    /* metres per lattice unit of this level: radius x (2 / n) / |c| along the
     * face axes, minus their radial part */
    s = p->radius_m * (2.0 / n) * inv;
    for (k = 0; k < 3; k++) {
        fr->tx[k] = s * (au[k] - fr->dir[k] * du);
        fr->ty[k] = s * (av[k] - fr->dir[k] * dv);
    }
    fr->edge_x = x == 0 || x == last;
    fr->edge_y = y == 0 || y == last;
}

/* The tangent vector (m per m) whose lattice derivatives are fx, fy: the
 * Gram system of the two lattice axes. */
static void ct__ground_tangent(const ct__gframe *fr, double fx, double fy, double out[3])
{
    double e = ct__dot3(fr->tx, fr->tx), f = ct__dot3(fr->tx, fr->ty), g = ct__dot3(fr->ty, fr->ty);
    double inv = 1.0 / (e * g - f * f), a = (g * fx - f * fy) * inv, b = (e * fy - f * fx) * inv;
    int k;
    for (k = 0; k < 3; k++) out[k] = a * fr->tx[k] + b * fr->ty[k];
}

void ct__ground_add_octave(const ct__ground_prep *p, int k, const ct__gframe *fr, const ct__gcoarse *c, ct__gnode *s)
{
    double G[3], dh[3], qw[3] = {0.0, 0.0, 0.0}, dry, dune, h;
    int j;
    /* On a face's boundary the derivative across it is one-sided (the next
     * face has its own), so the steering keeps only the part along it and
     * both faces steer a boundary node alike. */
    ct__ground_tangent(fr, fr->edge_x ? 0.0 : s->fx, fr->edge_y ? 0.0 : s->fy, G);
    for (j = 0; j < 3; j++) G[j] += c->grad[j];
    dry = (k >= p->dune_from && k < p->dune_to) ? ct__dune_frame(p, fr->dir, c->moisture, qw) : 0.0;
    dune = dry;
    h = ct__ground_octave(p, k, fr->dir, dune, qw, G, dh);
    s->f += h;
    s->fx += ct__dot3(dh, fr->tx);
    s->fy += ct__dot3(dh, fr->ty);
}

void ct__ground_level_octaves(const ct__ground_prep *p, int e, const ct__gframe *fr, const ct__gcoarse *c,
                              ct__gnode *s)
{
    int k;
    for (k = 0; k < p->octaves; k++)
        if (p->level[k] == e) ct__ground_add_octave(p, k, fr, c, s);
}

double ct__ground_finish(const ct__ground_prep *p, double relief, double above_m)
{
    double bound = p->bound_m;
    if (!(above_m > 0.0) || p->octaves <= 0) return 0.0;
    /* The bound holds by the shapes' ranges and the patches' overshoot is
     * small; the clamp makes it exact. */
    if (relief > bound) relief = bound;
    if (relief < -bound) relief = -bound;
    return relief * (above_m / (above_m + 2.0 * bound));
}
