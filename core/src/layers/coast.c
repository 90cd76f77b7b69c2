/* coast.c - fractal coasts and lake shores below the macro grid, and the
 * shore ramp. Off when coast_fractal and shore_ramp_m are both 0:
 * the sampler then never calls in here.
 *
 * Inside a macro triangle that holds both land and water corners, the wet
 * weight w (the interpolation weight of its water corners: 1 on a water-water
 * edge, 0 on a land-land edge) gives a shore coordinate S, piecewise linear
 * in w: 1 at w = 0, 0 at w = CT__COAST_MID, -1 at w = 1. The
 * refined coordinate S' = S + A g(w) N(dir) adds fBm N, globally addressed by
 * the unit direction, from coast_fractal_frequency (about 150 km waves) down
 * to about two sample spacings at surface_lod. g(w) = 4w(1 - w) is 0 on both
 * kinds of edge, so:
 *   - a land-land edge stays land and a water-water edge stays water: the
 *     shore moves only inside the triangles that already held it (at most
 *     about one macro cell), two bodies never meet (a triangle holds one body,
 *     and triangles of different bodies share only land-land edges), and no
 *     lake floods into the sea;
 *   - S' is continuous across every triangle and cell edge, so the value at a
 *     direction never depends on the chunk, LOD or face that asked for it.
 * The amplitude A = coast_fractal * the region roughness at full strength
 * (plains and basins smooth, broken and ridges rough), used even when
 * region_strength is 0 so that the default world's coasts vary too. */
#include "layers/ct_coast.h"

#include <math.h>

/* N is normalised fBm; like the detail noise it is spread because the octave
 * average has a standard deviation of only about 0.15. */
#define CT__COAST_SPREAD 2.5
/* The loop stops once the octaves left cannot plausibly change the answer
 * (the side of the shore, or a saturated ramp): their sum has a standard
 * deviation of CT__COAST_OCTAVE_RMS * sqrt(sum of their amplitudes squared)
 * (0.27 measured for one octave of ct__noise3_fast), and we stop beyond
 * CT__COAST_TAIL of those. With three, 94% of the points stop early, and
 * the side of the shore differed from the full loop's at 3 in 100,000 of 2
 * million random directions, wet weights and roughness values (specks of
 * shore moved by less than the finest wave). The exact bound (every octave
 * is within [-1,1]) is 2.5 times wider and saved almost nothing.
 * The cut depends only on the direction, so every contract holds as before. */
#define CT__COAST_OCTAVE_RMS 0.27
#define CT__COAST_TAIL 3.0
/* The land ramp t = clamp(K S', 0, 1) reaches full height 1/K of the way from
 * the shore to the land edge of the triangle: about 6 km on a 156 km cell, so
 * beaches stay narrow. */
#define CT__COAST_RAMP_K 12.0
/* Wet weight of the unperturbed shore. The reference fills a shore triangle
 * with water up to its land-land edge (its pins stand exactly at the level);
 * 0.3 keeps most of that water, so lakes of one or two vertices stay lakes,
 * while leaving room for headlands on both sides. */
#define CT__COAST_MID 0.3
/* The noise's weight g(w) rises from 0 on the triangle's land-land and
 * water-water edges to 1 over this much of the wet weight, then stays 1:
 * most of the triangle is free for bays and headlands. */
#define CT__COAST_EDGE 0.15
#define CT__SALT_COAST_FRACTAL 0x1005u

int ct__coast_on(const ct_config *cfg)
{
    return cfg->coast_fractal > 0.0 || cfg->shore_ramp_m > 0.0;
}

int ct__coast_octaves(const ct_config *cfg)
{
    /* Nyquist frequency of the finest samples on the unit sphere: a face edge
     * (about pi/2 rad) holds 256 * 2^L sample steps, so waves of two steps
     * have f = 256 * 2^L / pi. Octaves double from the base frequency up to
     * the first one past that (about two steps per wave at surface_lod: 8
     * octaves, 150 km down to 1.2 km, at the defaults). No libm. */
    double f = cfg->coast_fractal_frequency, top = 256.0 * (double)(1u << cfg->surface_lod) / 3.14159265358979;
    int octaves = 1;
    while (f <= top && octaves < CT__COAST_MAX_OCTAVES) {
        f *= 2.0;
        octaves++;
    }
    return octaves;
}

double ct__coast_roughness(const ct_config *cfg, const double rw[4])
{
    return rw[0] * cfg->plains_roughness + rw[1] * cfg->ridges_roughness + rw[2] * cfg->broken_roughness +
           rw[3] * cfg->basins_roughness;
}

void ct__coast_prepare(const ct_config *cfg, ct__coast_prep *p)
{
    double amp = 1.0;
    int i;
    p->cfg = cfg;
    p->seed = ct__subseed(cfg->seed, CT__SALT_COAST_FRACTAL);
    p->octaves = ct__coast_octaves(cfg);
    p->norm = p->sumsq = 0.0;
    for (i = 0; i < p->octaves; i++) {
        p->norm += amp;
        p->sumsq += amp * amp;
        amp *= cfg->coast_fractal_gain;
    }
}

/* One point's refinement state: the unperturbed coordinate s, the noise's
 * scale and the running sum, and rest2, the squared (scaled) amplitudes of
 * the octaves still to run. */
typedef struct ct__coast_lane {
    double s, scale, sum, rest2;
} ct__coast_lane;

/* Starts a point; 0 when no noise is needed (the answer is then l->s). */
static int ct__coast_lane_start(const ct__coast_prep *p, double wet, double roughness, ct__coast_lane *l)
{
    const ct_config *cfg = p->cfg;
    double g = (wet < CT__COAST_EDGE ? wet / CT__COAST_EDGE : 1.0) *
               (1.0 - wet < CT__COAST_EDGE ? (1.0 - wet) / CT__COAST_EDGE : 1.0);
    l->s = wet < CT__COAST_MID ? 1.0 - wet / CT__COAST_MID : (CT__COAST_MID - wet) / (1.0 - CT__COAST_MID);
    l->scale = cfg->coast_fractal * roughness * g * CT__COAST_SPREAD;
    l->sum = 0.0;
    if (!(l->scale > 0.0)) return 0;
    /* Scale so that the sum is A g N. */
    l->scale /= p->norm;
    l->rest2 = p->sumsq * (l->scale * l->scale);
    return 1;
}

/* Adds octave noise n at amplitude amp; 1 when the answer (l->s + l->sum) is
 * settled: water, or land with the ramp saturated, beyond doubt. */
static int ct__coast_lane_step(ct__coast_lane *l, double amp, double n)
{
    double rest;
    l->sum += l->scale * amp * n;
    l->rest2 -= l->scale * l->scale * amp * amp;
    rest = CT__COAST_TAIL * CT__COAST_OCTAVE_RMS * sqrt(l->rest2 > 0.0 ? l->rest2 : 0.0);
    return l->s + l->sum + rest < 0.0 || l->s + l->sum - rest > 1.0 / CT__COAST_RAMP_K;
}

double ct__coast_shore_at(const ct__coast_prep *p, const double dir[3], double wet, double roughness)
{
    const ct_config *cfg = p->cfg;
    ct__coast_lane l;
    double amp = 1.0, f = cfg->coast_fractal_frequency;
    int i;
    if (!ct__coast_lane_start(p, wet, roughness, &l)) return l.s;
    for (i = 0; i < p->octaves; i++) {
        double n = ct__noise3_fast(p->seed + (uint32_t)i, dir[0] * f, dir[1] * f, dir[2] * f);
        if (ct__coast_lane_step(&l, amp, n)) break;
        amp *= cfg->coast_fractal_gain;
        f *= 2.0;
    }
    return l.s + l.sum;
}

void ct__coast_shore_x4(const ct__coast_prep *p, ct__lattice_memo *memo, const double dir[12], const double wet[4],
                        const double roughness[4], const int want[4], double out[4])
{
    const ct_config *cfg = p->cfg;
    ct__coast_lane l[4];
    double amp = 1.0, f = cfg->coast_fractal_frequency;
    int live[4], started[4], i, k, count = 0;
    for (k = 0; k < 4; k++) {
        live[k] = started[k] = want[k] && ct__coast_lane_start(p, wet[k], roughness[k], &l[k]);
        count += live[k];
    }
    for (i = 0; i < p->octaves && count > 0; i++) {
        double n[4];
        if (count > 1) {
            /* Every lane at this octave's frequency; lanes already settled
             * (or not asked for) are computed and ignored. */
            double q[12];
            for (k = 0; k < 12; k++) q[k] = dir[k] * f;
            ct__noise3_fast_x4_memo(memo ? &memo[i] : NULL, p->seed + (uint32_t)i, q, n);
        } else {
            for (k = 0; k < 4; k++)
                if (live[k]) n[k] = ct__noise3_fast(p->seed + (uint32_t)i, dir[3 * k] * f, dir[3 * k + 1] * f, dir[3 * k + 2] * f);
        }
        for (k = 0; k < 4; k++)
            if (live[k] && ct__coast_lane_step(&l[k], amp, n[k])) { live[k] = 0; count--; }
        amp *= cfg->coast_fractal_gain;
        f *= 2.0;
    }
    for (k = 0; k < 4; k++) out[k] = started[k] ? l[k].s + l[k].sum : (want[k] ? l[k].s : 0.0);
}

double ct__coast_ramp(double shore)
{
    double t = CT__COAST_RAMP_K * shore;
    return ct__clamp(t, 0.0, 1.0);
}
