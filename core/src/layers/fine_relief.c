/* fine_relief.c - fine relief: the ground below the ranges' smallest ridges (about
 * 4 km) down to about four samples of the world's surface_lod: the octaves
 * at a lattice node (relief_pyramid.c places them and interpolates).
 *
 * The ranges layer ends at ridges about 4 km apart and the detail noise at
 * 12.5 km waves, so a finer surface_lod only samples a smooth field more
 * densely. This layer adds one octave per LOD past ground_from_lod (two at the
 * first), each octave's noise cell about four samples of its LOD, so every
 * octave a world carries is resolved by its finest chunks and none is wasted
 * below them. The octave count depends on the config only (surface_lod), never
 * on the LOD a chunk asks for, so coarse chunks sample the same field as fine
 * ones and stay exact subsets. Each octave is evaluated at the nodes of its
 * own lattice level (two nodes to its noise cell) on the 3D unit direction of
 * the node; its slope goes into the node's lattice derivatives, which the
 * patches between nodes carry.
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
 * slopes between); flat ground keeps the whole amplitude (rolling plains;
 * version 5 took 0.3 of it there, and the eroded lowlands came out too flat).
 * The sum fades towards the shore, as |a| / (|a| + 2 bound) of the land height
 * a above its shore reference (ct__ground_finish), so beaches and lake shores
 * are smooth and the coastline never moves.
 *
 * NOTE: a plain fBm of the same octaves (no gullies) costs about 70% of this
 * and reads as noise from the ground; a 3x3 neighbourhood of pivots (the
 * original filter) costs about 3x per octave for a result the 2x2x2 blend of
 * the lattice corners matches closely enough at these scales.
 *
 * Only + - * / sqrt floor (cos and sin by a Taylor pair, ct__cis): identical
 * natively and in WebAssembly. */
#include "layers/ct_fine_relief.h"
#include "base/ct_v2.h"

#include <math.h>

/* Unit-sphere frequency whose noise cell is about four samples of LOD 0
 * (the mean sample spacing of LOD L is (pi/2) / (256 2^L) radians; four of
 * them are 1 / 40.7 / 2^L). Octave k of a world has 40 x 2^(from_lod - 1 + k). */
#define CT__GROUND_F0 40.0
/* Gullies reach half of ground_gully at this slope (m per m). */
#define CT__GULLY_HALF 0.08
/* Stripes per noise cell: one gully per cell of its octave. */
#define CT__STRIPES 1.0
/* How much steeper than the noise the drainage limit lets gullies be. On
 * LOD 9 and 10 land chunks of a surface_lod 12 world (tools/landforms): 2
 * gives 1 to 15 pits deeper than 2 m per 1,000 km2 and a drainage-area
 * exponent of 0.67 to 0.73; 3 gives 28 to 64 pits and 0.61 to 0.69, as the
 * stripes' blending between lattice corners tilts steeper gullies along
 * the flow; 1.5 gives 1 to 5 pits and 0.71 to 0.75. */
#define CT__GULLY_ROOM 2.0
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
    p->drain = cfg->ground_drain;
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
    for (k = 0; k <= CT_MAX_LOD; k++) p->inv_n[k] = 1.0 / (double)((int64_t)CT_CHUNK_CORE << k);
    for (k = 0; k < 6; k++) ct__face_axes(k, p->axes[k][0], p->axes[k][1]);
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

/* The drainage limit (ground_drain, 0: none): an octave's amplitude at a
 * node, no more than lets its steepest slope (amplitude x 2 pi x waves per
 * metre) reach `room` x ground_drain x the slope of everything coarser
 * there. The noise gets room 1: a gradient that never falls below
 * (1 - ground_drain) of the coarser one cannot turn to zero, so the noise
 * opens no closed hollow where the coarser ground drains, and ground that
 * is flat stays smooth while rough ground stays rough. The gullies' slope
 * runs across the coarser one (their stripes follow it), so it cannot stop
 * the flow and they get CT__GULLY_ROOM: valley walls steep enough to turn
 * the finer gullies into them, so valleys gather valleys downhill; only the
 * stripes' blending between lattice corners tilts them along the flow,
 * which the room bounds. */
static double ct__drain_amp(const ct__ground_prep *p, int k, double slope, double room)
{
    double amp = p->amp_m[k], most;
    if (!(p->drain > 0.0)) return amp;
    most = room * p->drain * slope * p->radius_m / (CT__TWO_PI * p->freq[k]);
    return most < amp ? most : amp;
}

/* The gullies' amplitude over the noise's (1 exactly when neither is
 * capped, so ground_drain 0 gives version 7's heights bit for bit; 0 where
 * the noise has none, which happens only on flat nodes, where gullies have
 * no share either). */
static double ct__ratio(double ag, double amp)
{
    return amp > 0.0 ? ag / amp : 0.0;
}

/* The share of an octave drawn as gullies. Under the drainage limit the
 * amplitude already follows the slope, so every sloping node gets the whole
 * ground_gully: gentle ground gets shallow valleys, not undirected bumps.
 * Without it (ground_drain 0, version 7's relief) the share ramps up with the
 * slope, so that flat ground keeps its rolling noise. */
static double ct__gully_share(const ct__ground_prep *p, double slope)
{
    if (!(slope > 0.0)) return 0.0;
    if (p->drain > 0.0) return p->gully;
    return p->gully * slope / (slope + CT__GULLY_HALF);
}

/* One octave at a node: its height (m) and its own gradient dh (m per m),
 * steered by G, the gradient of everything coarser. */
static double ct__ground_octave(const ct__ground_prep *p, int k, const double dir[3], double dune, const double qw[3],
                                const double G[3], double dh[3])
{
    double P[3], q[3], slope, gm, rock, an, rib, drib, sh, dsh, gl, gcos, gsin, h, scale, keep, amp, ag;
    ct__goct o;
    int j;
    slope = ct__across(dir, G, q);
    amp = ct__drain_amp(p, k, slope, 1.0);
    ag = ct__drain_amp(p, k, slope, CT__GULLY_ROOM);
    gm = ct__gully_share(p, slope);
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
    h = amp * keep * ((1.0 - gm) * sh + gm * ct__ratio(ag, amp) * gcos);
    if (dune > 0.0) {
        double dl = sqrt(o.dc * o.dc + o.ds * o.ds + 1e-4), dc = o.dc / dl, ds = o.ds / dl;
        h += amp * CT__DUNE_GAIN * dune * (dc + CT__DUNE_SKEW * 2.0 * ds * dc);
    }
    /* The gradient (m per m) the finer octaves follow: the noise's, and the
     * gullies' across q (d cos / dx = -2 pi S f sin). Dunes do not drain. */
    scale = amp * keep * p->freq[k] / p->radius_m;
    for (j = 0; j < 3; j++) dh[j] = scale * (1.0 - gm) * dsh * o.dn[j];
    scale = ag * keep * p->freq[k] / p->radius_m;
    if (gm > 0.0)
        for (j = 0; j < 3; j++) dh[j] -= scale * gm * gsin * CT__TWO_PI * CT__STRIPES * q[j];
    return h;
}

void ct__ground_frame(const ct__ground_prep *p, int face, int level, int64_t x, int64_t y, ct__gframe *fr)
{
    /* 1 / n is exact (n a power of two), so x / n and 2 / n are too: the
     * same bits as dividing, without a division */
    double inv_n = p->inv_n[level], u = 2.0 * ((double)x * inv_n) - 1.0, v = 2.0 * ((double)y * inv_n) - 1.0;
    const double *au = p->axes[face][0], *av = p->axes[face][1];
    double c[3], inv, du, dv, s;
    int k;
    ct__face_uv_to_cube(face, u, v, c);
    /* Any fixed rounding will do: a node's direction is computed here only,
     * for every chunk and point that needs it. */
    inv = 1.0 / sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    for (k = 0; k < 3; k++) fr->dir[k] = c[k] * inv;
    du = ct__dot3(fr->dir, au);
    dv = ct__dot3(fr->dir, av);
    /* metres per lattice unit of this level: radius x (2 / n) / |c| along the
     * face axes, minus their radial part */
    s = p->radius_m * (2.0 * inv_n) * inv;
    for (k = 0; k < 3; k++) {
        fr->tx[k] = s * (au[k] - fr->dir[k] * du);
        fr->ty[k] = s * (av[k] - fr->dir[k] * dv);
    }
    fr->keep_x = ct__ground_keep(x, level);
    fr->keep_y = ct__ground_keep(y, level);
    ct__ground_frame_gram(fr);
}

void ct__ground_frame_gram(ct__gframe *fr)
{
    double e = ct__dot3(fr->tx, fr->tx), f = ct__dot3(fr->tx, fr->ty), g = ct__dot3(fr->ty, fr->ty);
    double inv = 1.0 / (e * g - f * f);
    fr->ig[0] = g * inv;
    fr->ig[1] = -f * inv;
    fr->ig[2] = e * inv;
}

/* How far a node is from its face's boundary, as the share of its whole
 * slope that steers it (ct__ground_steer): 0 on the boundary, 1 from
 * CT__KEEP_NODES nodes in. */
#define CT__KEEP_NODES 4
double ct__ground_keep(int64_t x, int level)
{
    int64_t last = (int64_t)CT_CHUNK_CORE << level, d = x < last - x ? x : last - x;
    return d >= CT__KEEP_NODES ? 1.0 : (double)d / (double)CT__KEEP_NODES;
}

/* The tangent vector (m per m) whose lattice derivatives are fx, fy: the
 * inverse Gram matrix of the two lattice axes (kept in the frame). */
static void ct__ground_tangent(const ct__gframe *fr, double fx, double fy, double out[3])
{
    double a = fr->ig[0] * fx + fr->ig[1] * fy, b = fr->ig[1] * fx + fr->ig[2] * fy;
    int k;
    for (k = 0; k < 3; k++) out[k] = a * fr->tx[k] + b * fr->ty[k];
}

/* The gradient a node's next octave follows: the coarse input's plus the
 * slope of what the node holds so far. On a face's boundary only the part of
 * that slope along the boundary (its lattice derivative along it over the
 * axis' length squared, along the axis) steers: the slope across is
 * one-sided (the next face has its own) and the lattice axes are skewed
 * differently in each face, so this is the one gradient both faces agree on.
 * It blends into the whole slope over the first CT__KEEP_NODES nodes. */
static void ct__ground_steer(const ct__gframe *fr, const ct__gcoarse *c, const ct__gnode *s, double G[3])
{
    double kx = fr->keep_x, ky = fr->keep_y, full[3], ax, ay;
    int j;
    ct__ground_tangent(fr, s->fx, s->fy, full);
    if (kx == 1.0 && ky == 1.0) {
        for (j = 0; j < 3; j++) G[j] = full[j] + c->grad[j];
        return;
    }
    ax = (1.0 - ky) * kx * s->fx / ct__dot3(fr->tx, fr->tx);
    ay = (1.0 - kx) * ky * s->fy / ct__dot3(fr->ty, fr->ty);
    for (j = 0; j < 3; j++) G[j] = kx * ky * full[j] + ax * fr->tx[j] + ay * fr->ty[j] + c->grad[j];
}

void ct__ground_add_octave(const ct__ground_prep *p, int k, const ct__gframe *fr, const ct__gcoarse *c, ct__gnode *s)
{
    double G[3], dh[3], qw[3] = {0.0, 0.0, 0.0}, dune, h;
    ct__ground_steer(fr, c, s, G);
    dune = (k >= p->dune_from && k < p->dune_to) ? ct__dune_frame(p, fr->dir, c->moisture, qw) : 0.0;
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

/* ------------------------------------------------------------------ lanes
 * ct__ground_add_octave for two nodes at once. The arithmetic-heavy parts (the
 * fade weights, the stripe phases' cis and complex products, the derivative
 * blend) run as two-lane vectors (ct_v2.h), each lane in the scalar path's
 * order of operations; floor, hashes, table lookups, sqrt, division and the
 * branches stay per lane. So each lane's result is ct__ground_add_octave's
 * bit for bit (tests/c/test_noise_exact.c compares them). The stripes of a pattern
 * are computed for both lanes when either needs them and kept only where the
 * scalar path would have computed them. */
#define CT__B2(x) CT__V2(x, x)

/* ct__cis at t0 and t1. */
static void ct__cis_x2(double t0, double t1, ct__v2 *c_out, ct__v2 *s_out)
{
    double r0 = t0 - floor(t0 + 0.5), r1 = t1 - floor(t1 + 0.5);
    ct__v2 one = CT__B2(1.0), y = CT__V2_MUL(CT__V2(r0, r1), CT__B2(CT__TWO_PI * 0.25)), y2 = CT__V2_MUL(y, y);
    ct__v2 sn, c, k;
    /* the nested Horner forms of ct__cis, innermost first */
    sn = CT__V2_SUB(one, CT__V2_MUL(y2, CT__B2(1.0 / 110.0)));
    sn = CT__V2_SUB(one, CT__V2_MUL(CT__V2_MUL(y2, CT__B2(1.0 / 72.0)), sn));
    sn = CT__V2_SUB(one, CT__V2_MUL(CT__V2_MUL(y2, CT__B2(1.0 / 42.0)), sn));
    sn = CT__V2_SUB(one, CT__V2_MUL(CT__V2_MUL(y2, CT__B2(1.0 / 20.0)), sn));
    sn = CT__V2_MUL(y, CT__V2_SUB(one, CT__V2_MUL(CT__V2_MUL(y2, CT__B2(1.0 / 6.0)), sn)));
    c = CT__V2_SUB(one, CT__V2_MUL(y2, CT__B2(1.0 / 90.0)));
    c = CT__V2_SUB(one, CT__V2_MUL(CT__V2_MUL(y2, CT__B2(1.0 / 56.0)), c));
    c = CT__V2_SUB(one, CT__V2_MUL(CT__V2_MUL(y2, CT__B2(1.0 / 30.0)), c));
    c = CT__V2_SUB(one, CT__V2_MUL(CT__V2_MUL(y2, CT__B2(1.0 / 12.0)), c));
    c = CT__V2_SUB(one, CT__V2_MUL(CT__V2_MUL(y2, CT__B2(0.5)), c));
    k = CT__V2_MUL(CT__V2_MUL(CT__B2(2.0), sn), c);
    c = CT__V2_SUB(CT__V2_MUL(c, c), CT__V2_MUL(sn, sn));
    sn = k;
    k = CT__V2_MUL(CT__V2_MUL(CT__B2(2.0), sn), c);
    c = CT__V2_SUB(CT__V2_MUL(c, c), CT__V2_MUL(sn, sn));
    *c_out = c;
    *s_out = k;
}

/* ct__cmul on two lanes (re, im as separate vectors). */
static void ct__cmul_x2(ct__v2 ar, ct__v2 ai, ct__v2 br, ct__v2 bi, ct__v2 *re, ct__v2 *im)
{
    *re = CT__V2_SUB(CT__V2_MUL(ar, br), CT__V2_MUL(ai, bi));
    *im = CT__V2_ADD(CT__V2_MUL(ar, bi), CT__V2_MUL(ai, br));
}

/* ct__stripes for two lanes. */
typedef struct ct__stripes2 {
    ct__v2 br, bi;           /* e^(2 pi i f.q) */
    ct__v2 cr[8], ci[8];     /* e^(-2 pi i b.q) per corner */
} ct__stripes2;

/* The corner half of ct__stripes_prepare; it depends on q only, so the
 * dunes' fixed east vector needs it once per sample. */
static void ct__stripes_corners_x2(const double qa[3], const double qb[3], ct__stripes2 *st)
{
    ct__v2 er[3], ei[3];
    int k;
    for (k = 0; k < 3; k++) ct__cis_x2(-qa[k] * CT__STRIPES, -qb[k] * CT__STRIPES, &er[k], &ei[k]);
    st->cr[0] = CT__B2(1.0); st->ci[0] = CT__B2(0.0);
    st->cr[1] = er[0]; st->ci[1] = ei[0];
    st->cr[2] = er[1]; st->ci[2] = ei[1];
    ct__cmul_x2(er[0], ei[0], er[1], ei[1], &st->cr[3], &st->ci[3]);
    for (k = 0; k < 4; k++) ct__cmul_x2(st->cr[k], st->ci[k], er[2], ei[2], &st->cr[4 + k], &st->ci[4 + k]);
}

static void ct__stripes_base_x2(const double fa[3], const double fb[3], const double qa[3], const double qb[3],
                                ct__stripes2 *st)
{
    ct__cis_x2((fa[0] * qa[0] + fa[1] * qa[1] + fa[2] * qa[2]) * CT__STRIPES,
               (fb[0] * qb[0] + fb[1] * qb[1] + fb[2] * qb[2]) * CT__STRIPES, &st->br, &st->bi);
}

/* The blended stripe phase: base times sum over corners of weight x corner x
 * the corner's own phase (8 bits of its hash from bit `shift`). */
static void ct__stripes_blend_x2(const ct__stripes2 *st, const ct__v2 wt[8], const uint32_t ha[8],
                                 const uint32_t hb[8], int shift, double c_out[2], double s_out[2])
{
    ct__v2 ar = CT__B2(0.0), ai = CT__B2(0.0), zr, zi;
    int k;
    for (k = 0; k < 8; k++) {
        const double *pa = ct__ground_phase[(ha[k] >> shift) & 255u], *pb = ct__ground_phase[(hb[k] >> shift) & 255u];
        ct__cmul_x2(st->cr[k], st->ci[k], CT__V2(pa[0], pb[0]), CT__V2(pa[1], pb[1]), &zr, &zi);
        ar = CT__V2_ADD(ar, CT__V2_MUL(wt[k], zr));
        ai = CT__V2_ADD(ai, CT__V2_MUL(wt[k], zi));
    }
    ct__cmul_x2(st->br, st->bi, ar, ai, &zr, &zi);
    c_out[0] = CT__V2_LO(zr); c_out[1] = CT__V2_HI(zr);
    s_out[0] = CT__V2_LO(zi); s_out[1] = CT__V2_HI(zi);
}

/* f^3 (f (6 f - 15) + 10), left to right as in ct__ground_lattice. */
static ct__v2 ct__gfade_x2(ct__v2 f)
{
    ct__v2 a = CT__V2_ADD(CT__V2_MUL(f, CT__V2_SUB(CT__V2_MUL(f, CT__B2(6.0)), CT__B2(15.0))), CT__B2(10.0));
    return CT__V2_MUL(CT__V2_MUL(CT__V2_MUL(f, f), f), a);
}

/* ct__ground_lattice at P[0] and P[1]; q[l] / qw[l] NULL where no lane needs
 * that pattern (both or neither); sd holds the dune corners already. */
static void ct__ground_lattice_x2(uint32_t seed, const double P[2][3], const double *const q[2],
                                  const double *const qw[2], ct__stripes2 *sd, ct__goct o[2])
{
    double f[2][3], n[2], dn[2][3], gc[2] = {0.0, 0.0}, gs[2] = {0.0, 0.0}, dc[2] = {0.0, 0.0}, ds[2] = {0.0, 0.0};
    uint32_t h[2][8];
    const double *g[2][8];
    ct__v2 u, v, w, wt[8];
    int k, l;
    for (l = 0; l < 2; l++) {
        double x0f = floor(P[l][0]), y0f = floor(P[l][1]), z0f = floor(P[l][2]);
        uint32_t x0 = (uint32_t)(int64_t)x0f * CT__PRIME_X, y0 = (uint32_t)(int64_t)y0f * CT__PRIME_Y;
        uint32_t z0 = (uint32_t)(int64_t)z0f * CT__PRIME_Z;
        f[l][0] = P[l][0] - x0f; f[l][1] = P[l][1] - y0f; f[l][2] = P[l][2] - z0f;
        for (k = 0; k < 8; k++) {
            h[l][k] = ct__gcorner(seed, (k & 1) ? x0 + CT__PRIME_X : x0, (k & 2) ? y0 + CT__PRIME_Y : y0,
                                  (k & 4) ? z0 + CT__PRIME_Z : z0);
            g[l][k] = ct__grad[(uint32_t)(((uint64_t)h[l][k] * 12u) >> 32)];
        }
    }
    if (q[0] || qw[0]) {
        ct__v2 one = CT__B2(1.0), uu[2], vv[2], ww[2];
        u = ct__gfade_x2(CT__V2(f[0][0], f[1][0]));
        v = ct__gfade_x2(CT__V2(f[0][1], f[1][1]));
        w = ct__gfade_x2(CT__V2(f[0][2], f[1][2]));
        uu[0] = CT__V2_SUB(one, u); uu[1] = u;
        vv[0] = CT__V2_SUB(one, v); vv[1] = v;
        ww[0] = CT__V2_SUB(one, w); ww[1] = w;
        for (k = 0; k < 8; k++) wt[k] = CT__V2_MUL(CT__V2_MUL(uu[k & 1], vv[(k >> 1) & 1]), ww[k >> 2]);
        if (q[0]) {
            ct__stripes2 sg;
            ct__stripes_base_x2(f[0], f[1], q[0], q[1], &sg);
            ct__stripes_corners_x2(q[0], q[1], &sg);
            ct__stripes_blend_x2(&sg, wt, h[0], h[1], 0, gc, gs);
        }
        if (qw[0]) {
            ct__stripes_base_x2(f[0], f[1], qw[0], qw[1], sd);
            ct__stripes_blend_x2(sd, wt, h[0], h[1], 8, dc, ds);
        }
    }
    ct__deriv_blend_x2(f[0], f[1], g[0], g[1], n, dn);
    for (l = 0; l < 2; l++) {
        o[l].n = n[l];
        for (k = 0; k < 3; k++) o[l].dn[k] = dn[l][k];
        o[l].gc = gc[l]; o[l].gs = gs[l]; o[l].dc = dc[l]; o[l].ds = ds[l];
    }
}

/* ct__ground_octave at two nodes (dir[l], G[l] per lane); the dune corners
 * for the lanes' east vectors are in sd when any lane is dry. */
static void ct__ground_octave_x2(const ct__ground_prep *p, int k, const double *const dir[2], const double dune[2],
                                 const double qw[2][3], ct__stripes2 *sd, const double G[2][3], double dh[2][3],
                                 double h_out[2])
{
    double P[2][3], q[2][3], slope[2], gm[2], rock[2], amp[2], ag[2];
    const double *qs[2] = {NULL, NULL}, *qws[2] = {NULL, NULL};
    ct__goct o[2];
    int j, l;
    for (l = 0; l < 2; l++) {
        slope[l] = ct__across(dir[l], G[l], q[l]);
        amp[l] = ct__drain_amp(p, k, slope[l], 1.0);
        ag[l] = ct__drain_amp(p, k, slope[l], CT__GULLY_ROOM);
        gm[l] = ct__gully_share(p, slope[l]);
        rock[l] = ct__smoothstep(CT__ROCK_LO, CT__ROCK_HI, slope[l]);
        for (j = 0; j < 3; j++) P[l][j] = dir[l][j] * p->freq[k];
    }
    if (gm[0] > 0.0 || gm[1] > 0.0) { qs[0] = q[0]; qs[1] = q[1]; }
    if (dune[0] > 0.0 || dune[1] > 0.0) { qws[0] = qw[0]; qws[1] = qw[1]; }
    ct__ground_lattice_x2(p->seed[k], (const double(*)[3])P, qs, qws, sd, o);
    for (l = 0; l < 2; l++) {
        /* the tail of ct__ground_octave, per lane */
        double an = o[l].n < 0.0 ? -o[l].n : o[l].n, rib, drib, sh, dsh, gcos = 0.0, gsin = 0.0, keep, h, scale;
        rib = 2.0 * (1.0 - an) * (1.0 - an) - 0.67;
        drib = (o[l].n < 0.0 ? 4.0 : -4.0) * (1.0 - an);
        sh = o[l].n + rock[l] * (rib - o[l].n);
        dsh = 1.0 + rock[l] * (drib - 1.0);
        if (gm[l] > 0.0) {
            double gl = sqrt(o[l].gc * o[l].gc + o[l].gs * o[l].gs + 1e-4);
            gcos = o[l].gc / gl;
            gsin = o[l].gs / gl;
        }
        keep = 1.0 - CT__DUNE_SWAP * dune[l];
        h = amp[l] * keep * ((1.0 - gm[l]) * sh + gm[l] * ct__ratio(ag[l], amp[l]) * gcos);
        if (dune[l] > 0.0) {
            double dl = sqrt(o[l].dc * o[l].dc + o[l].ds * o[l].ds + 1e-4), dc = o[l].dc / dl, ds = o[l].ds / dl;
            h += amp[l] * CT__DUNE_GAIN * dune[l] * (dc + CT__DUNE_SKEW * 2.0 * ds * dc);
        }
        scale = amp[l] * keep * p->freq[k] / p->radius_m;
        for (j = 0; j < 3; j++) dh[l][j] = scale * (1.0 - gm[l]) * dsh * o[l].dn[j];
        scale = ag[l] * keep * p->freq[k] / p->radius_m;
        if (gm[l] > 0.0)
            for (j = 0; j < 3; j++) dh[l][j] -= scale * gm[l] * gsin * CT__TWO_PI * CT__STRIPES * q[l][j];
        h_out[l] = h;
    }
}

void ct__ground_level_octaves_x2(const ct__ground_prep *p, int e, const ct__gframe fr[2], const ct__gcoarse c[2],
                                 ct__gnode s[2])
{
    int k, l;
    for (k = 0; k < p->octaves; k++) {
        double G[2][3], dh[2][3], qw[2][3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}}, dune[2], h[2];
        const double *dir[2];
        ct__stripes2 sd;
        if (p->level[k] != e) continue;
        for (l = 0; l < 2; l++) {
            ct__ground_steer(&fr[l], &c[l], &s[l], G[l]);
            dune[l] = (k >= p->dune_from && k < p->dune_to) ? ct__dune_frame(p, fr[l].dir, c[l].moisture, qw[l]) : 0.0;
            dir[l] = fr[l].dir;
        }
        if (dune[0] > 0.0 || dune[1] > 0.0) ct__stripes_corners_x2(qw[0], qw[1], &sd);
        ct__ground_octave_x2(p, k, dir, dune, (const double(*)[3])qw, &sd, (const double(*)[3])G, dh, h);
        for (l = 0; l < 2; l++) {
            s[l].f += h[l];
            s[l].fx += ct__dot3(dh[l], fr[l].tx);
            s[l].fy += ct__dot3(dh[l], fr[l].ty);
        }
    }
}
