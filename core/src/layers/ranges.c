/* ranges.c - mountain ranges with ridges and valleys, and the slope they give
 * the biome rules.
 *
 * Without this layer the slope projection lowers every over-piled walk
 * interior to the cone that the slope limit allows from the shore pins, so
 * high ground is one smooth plateau per continent at the slope bound, and the
 * fine detail is too weak to read from the ground. Three parts fix that:
 *
 * 1. Belts (build, per macro vertex): the zero set of a belt field (two
 *    octaves of ct__noise3_deriv, noise.c), widened by range_belt_width,
 *    marks long sinuous mountain belts; a very low frequency "activity"
 *    field leaves some continents with few of them.
 * 2. Macro ceiling (build, before the slope projection): land height x above
 *    its shore base becomes c x / (c + x), c = macro_ceiling_m raised inside
 *    belts and varied between continents, so interiors stay under the slope
 *    cone (the projection no longer caps them) and highlands follow belts.
 * 3. Ridges and valleys (every sample): a ridged multifractal of our own
 *    gradient noise with analytic derivatives, of amplitude range_height_m in
 *    belts plus hill_height_m (growing with the height above the shore) on
 *    all land. Valleys are squashed so land never reaches its water; the
 *    gradient is a pure function of the direction, so the rock-on-steep-slope
 *    biome is identical in chunks and ct_world_sample. With range_folds the
 *    first ridge octave turns, in belts, into crests along the belt field's
 *    level lines (folded chains instead of isotropic cells).
 * Chunks run the noise two samples at a time (ct__noise3_deriv_x2, noise.c), each
 * lane bit for bit the scalar path.
 *
 * Every part is off at its knob's zero value and then changes nothing. */
#include "layers/ct_ranges.h"
#include "base/ct_v2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Activity: below about -0.2 of this two-octave fBm a region has no belts. */
#define CT__ACTIVITY_FREQ 0.8
/* Ceiling factor: 0.35..1 of macro_ceiling_m between continents, plus 1.3x
 * in belt cores (highlands under the ranges). */
#define CT__CEIL_MIN 0.35
#define CT__CEIL_BELT 1.3
#define CT__LIFT_FREQ 1.1
/* Hills reach half their amplitude this far above the shore (m): coastal
 * plains stay gentle, uplands are hilly. */
#define CT__HILL_HALF_M 150.0
/* Crests reach half height this far above the shore (m): ranges may stand
 * close to the sea, but the surface still meets the water continuously. */
#define CT__CREST_FADE_M 100.0
/* Ridge octaves after the first are scaled by 0.3 + 0.7 R0 (R0 the first
 * octave's ridge value): fine relief gathers on the ridges, valleys stay
 * smoother, as erosion leaves them. */
#define CT__RIDGE_FLOOR 0.3
/* The ridged sum mostly sits in 0.3..0.9; this centre splits the relief into
 * ridges above and valleys below the macro surface. */
#define CT__RIDGE_CENTRE 0.55

int ct__ranges_need_belts(const ct_config *cfg)
{
    /* Walk mode uses neither the ceiling nor the ridges. */
    return cfg->mode != CT_MODE_WALK && (cfg->range_height_m > 0.0 || cfg->macro_ceiling_m > 0.0);
}

int ct__ranges_on(const ct_config *cfg)
{
    return cfg->mode != CT_MODE_WALK && (cfg->range_height_m > 0.0 || cfg->hill_height_m > 0.0);
}

/* The belt field: a two-octave fBm of ct__noise3_deriv (noise.c), with its
 * gradient. Belts lie along its zero lines (long sinuous curves), and fold
 * crests along its level lines near zero, so they run with the belt; the
 * gradient is rarely small there, which keeps folds free of the rings
 * level lines form around extrema. */
/* 1 + 1/2: the octave amplitudes sum to one, as in ct__fbm3, so
 * range_belt_width keeps its meaning. */
#define CT__BELT_NORM 1.5

static double ct__belt_field(const ct_config *cfg, const double p[3], double grad[3])
{
    uint32_t seed = ct__hash2(ct__subseed(cfg->seed, CT_SALT_RANGE_BELT), 11u);
    double f = cfg->range_belt_frequency, amp = 1.0 / CT__BELT_NORM, n = 0.0, d[3];
    int o, k;
    grad[0] = grad[1] = grad[2] = 0.0;
    for (o = 0; o < 2; o++) {
        n += amp * ct__noise3_deriv(seed + (uint32_t)o, p[0] * f, p[1] * f, p[2] * f, d);
        for (k = 0; k < 3; k++) grad[k] += amp * f * d[k];
        amp *= 0.5;
        f *= 2.0;
    }
    return n;
}

/* memo: NULL or one kept over a vertex loop (same bits, fewer hashes). */
static double ct__belt_of_field(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double n)
{
    uint32_t seed = ct__subseed(cfg->seed, CT_SALT_RANGE_BELT);
    double belt = ct__smoothstep(cfg->range_belt_width, 0.0, fabs(n));
    double act = ct__smoothstep(-0.2, 0.1, ct__fbm3_memo(memo, ct__hash2(seed, 9u), dir, CT__ACTIVITY_FREQ, 2, 2.0,
                                                         0.5));
    return belt * act;
}

static double ct__belt_at(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3])
{
    double g[3];
    return ct__belt_of_field(cfg, memo, dir, ct__belt_field(cfg, dir, g));
}

double ct__range_belt(const ct_config *cfg, const double dir[3])
{
    return ct__belt_at(cfg, NULL, dir);
}

ct_result ct__ranges_derive(ct__field *w, char *err, size_t errlen)
{
    ct__fbm_memo memo;
    uint32_t v;
    if (!ct__ranges_need_belts(&w->cfg) || w->belt_v) return CT_OK;
    w->belt_v = (float *)malloc(sizeof *w->belt_v * (size_t)(w->vertex_count ? w->vertex_count : 1u));
    if (!w->belt_v) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for mountain belts");
    memset(&memo, 0, sizeof memo);
    for (v = 0; v < w->vertex_count; v++)
        w->belt_v[v] = (float)ct__belt_at(&w->cfg, &memo, &w->dir_v[3u * (size_t)v]);
    return CT_OK;
}

double ct__range_ceiling(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double belt, double base,
                         double h)
{
    double x = h - base, lift, c;
    if (!(cfg->macro_ceiling_m > 0.0) || !(x > 0.0)) return h;
    lift = 0.5 + 1.5 * ct__fbm3_memo(memo, ct__subseed(cfg->seed, CT_SALT_RANGE_LIFT), dir, CT__LIFT_FREQ, 2, 2.0, 0.5);
    lift = ct__clamp(lift, 0.0, 1.0);
    c = cfg->macro_ceiling_m * (CT__CEIL_MIN + (1.0 - CT__CEIL_MIN) * lift + CT__CEIL_BELT * belt);
    return base + c * x / (c + x);
}

/* One ridge octave: R = (1 - |n|)^2 and its gradient (frequency applied). */
static double ct__ridge_octave(uint32_t seed, const double p[3], double f, double d[3])
{
    double n = ct__noise3_deriv(seed, p[0] * f, p[1] * f, p[2] * f, d), r, k;
    int i;
    r = 1.0 - fabs(n);
    k = -2.0 * r * (n < 0.0 ? -1.0 : 1.0) * f;
    for (i = 0; i < 3; i++) d[i] *= k;
    return r * r;
}

/* ------------------------------------------------ folds: crests along the belt */

/* Crests sit on every 1/K-th level line of the belt field, so they run
 * parallel to each other and to the belt, like the folded chains of a
 * collision belt, instead of the closed cells of isotropic ridged noise.
 * Spacing is 1 / (K |grad n|) on the unit sphere; with |grad n| about
 * CT__FOLD_GRAD range_belt_frequency (the median in belts) this puts crests about
 * CT__FOLD_SPACING ridge spacings apart. */
#define CT__FOLD_GRAD 0.85
#define CT__FOLD_SPACING 1.3
/* Where |grad n| falls below these shares of its typical size, level lines
 * bend into rings; the folds fade out there and isotropic ridges take over. */
#define CT__FOLD_FADE_LO 0.2
#define CT__FOLD_FADE_HI 0.5
/* A jitter noise of about 100 km (this multiple of the ridge spacing), this
 * strong in crest periods, breaks crests into offset segments, and the same
 * noise raises and lowers them along their length (peaks and passes). */
#define CT__FOLD_JITTER_CRESTS 6.0
#define CT__FOLD_JITTER 0.35
#define CT__FOLD_PEAKS 0.6
#define CT__FOLD_GAP 0.35
/* The isotropic ridges bend the crests by up to this many crest periods:
 * crests wander around spurs instead of running as smooth arcs. */
#define CT__FOLD_WOBBLE 0.35
/* Share of the isotropic ridged value kept on top of the folds: spurs and
 * saddles along the crests. */
#define CT__FOLD_DETAIL 0.2

/* A fold evaluated at one point: value in [0.1, 1.0] (valley floors a
 * little under, crests above the ridged sum's usual 0.3..0.9), its gradient,
 * and how much the folds can be trusted there. */
typedef struct {
    double v, d[3], fade;
} ct__fold_out;

/* The fold from its noises: belt field n (gradient dn), jitter j (dj), and
 * the isotropic first octave rv (rd) that bends the crests. */
static void ct__fold_shape(const ct_config *cfg, const double p[3], double rv, const double rd[3], double n,
                           const double dn[3], double j, const double dj[3], ct__fold_out *out)
{
    double gl, x, k, fj = cfg->ridge_frequency / CT__FOLD_JITTER_CRESTS, w, sgn, hm, dhm, t, pw;
    int i;
    /* Only the tangent part of grad n sets the crest spacing on the sphere. */
    x = ct__dot3(dn, p);
    gl = sqrt((dn[0] - x * p[0]) * (dn[0] - x * p[0]) + (dn[1] - x * p[1]) * (dn[1] - x * p[1])
              + (dn[2] - x * p[2]) * (dn[2] - x * p[2])) / (CT__FOLD_GRAD * cfg->range_belt_frequency);
    out->fade = ct__smoothstep(CT__FOLD_FADE_LO, CT__FOLD_FADE_HI, gl);
    k = cfg->ridge_frequency / (CT__FOLD_SPACING * CT__FOLD_GRAD * cfg->range_belt_frequency);
    /* Phase in crest periods; w is 1 on a crest and 0 mid-valley. */
    x = k * n + CT__FOLD_JITTER * j + CT__FOLD_WOBBLE * (rv - CT__RIDGE_CENTRE);
    x -= floor(x);
    w = fabs(2.0 * x - 1.0);
    sgn = x < 0.5 ? -2.0 : 2.0;
    /* A triangle profile: sharp crests and V-shaped valleys. hm: crests rise
     * to peaks and sink to passes and gaps along their length, so they end
     * and restart en echelon instead of running like corrugations. */
    pw = w;
    t = (j + CT__FOLD_GAP) / (2.0 * CT__FOLD_GAP);
    t = ct__clamp(t, 0.0, 1.0);
    hm = 1.0 - CT__FOLD_PEAKS + CT__FOLD_PEAKS * t * t * (3.0 - 2.0 * t);
    dhm = CT__FOLD_PEAKS * 6.0 * t * (1.0 - t) / (2.0 * CT__FOLD_GAP) * fj;
    for (i = 0; i < 3; i++)
        out->d[i] = 0.9 * (sgn * (k * dn[i] + CT__FOLD_JITTER * fj * dj[i] + CT__FOLD_WOBBLE * rd[i]) * hm
                           + pw * dhm * dj[i]);
    out->v = 0.1 + 0.9 * pw * hm;
}

static void ct__fold(const ct_config *cfg, const double p[3], double rv, const double rd[3], ct__fold_out *out)
{
    double dn[3], dj[3], n, j, fj = cfg->ridge_frequency / CT__FOLD_JITTER_CRESTS;
    n = ct__belt_field(cfg, p, dn);
    j = ct__noise3_deriv(ct__subseed(cfg->seed, CT_SALT_RANGE_FOLD), p[0] * fj, p[1] * fj, p[2] * fj, dj);
    ct__fold_shape(cfg, p, rv, rd, n, dn, j, dj, out);
}

/* ct__fold at two points with the three noises two lanes at a time; each
 * lane's bits those of ct__fold. */
static void ct__fold_x2(const ct_config *cfg, ct__lattice_memo *memo, const double *p[2], const double rv[2],
                        const double rd[2][3], ct__fold_out out[2])
{
    uint32_t seed = ct__hash2(ct__subseed(cfg->seed, CT_SALT_RANGE_BELT), 11u);
    double f = cfg->range_belt_frequency, amp = 1.0 / CT__BELT_NORM, fj = cfg->ridge_frequency / CT__FOLD_JITTER_CRESTS;
    double n[2] = {0.0, 0.0}, dn[2][3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}}, j[2], dj[2][3], q[2][3], v[2], d[2][3];
    int o, k, lane;
    /* ct__belt_field's octaves. */
    for (o = 0; o < 2; o++) {
        for (lane = 0; lane < 2; lane++)
            for (k = 0; k < 3; k++) q[lane][k] = p[lane][k] * f;
        ct__noise3_deriv_x2_memo(memo ? memo + CT__RANGES_MEMO_BELT + o : NULL, seed + (uint32_t)o, q[0], q[1], v, d);
        for (lane = 0; lane < 2; lane++) {
            n[lane] += amp * v[lane];
            for (k = 0; k < 3; k++) dn[lane][k] += amp * f * d[lane][k];
        }
        amp *= 0.5;
        f *= 2.0;
    }
    for (lane = 0; lane < 2; lane++)
        for (k = 0; k < 3; k++) q[lane][k] = p[lane][k] * fj;
    ct__noise3_deriv_x2_memo(memo ? memo + CT__RANGES_MEMO_FOLD : NULL, ct__subseed(cfg->seed, CT_SALT_RANGE_FOLD),
                             q[0], q[1], j, dj);
    for (lane = 0; lane < 2; lane++)
        ct__fold_shape(cfg, p[lane], rv[lane], rd[lane], n[lane], dn[lane], j[lane], dj[lane], &out[lane]);
}

/* Ridged multifractal in about [0,1] with its gradient on the unit sphere's
 * ambient coordinates: (R0 + W S) / norm, W = floor + (1-floor) R0 and
 * S = sum of the finer octaves at gain 0.5. This is its last step, shared by
 * the scalar and two-lane paths: r0/d0 the first octave, s/ds/norm the sum
 * of the finer ones. With fold_m > 0 (belts) the first octave turns into
 * folds by the share fold_m x fade; the finer octaves still gather on the
 * isotropic first octave's crests (spurs along and across the folds). The
 * fold weight is treated as constant in the gradient. */
static double ct__ridged_combine(const ct_config *cfg, const double p[3], double fold_m, const ct__fold_out *pre,
                                 double r0, const double d0r[3], double s, const double ds[3], double norm,
                                 double d[3])
{
    double wgt = CT__RIDGE_FLOOR + (1.0 - CT__RIDGE_FLOOR) * r0, d0[3];
    int k;
    for (k = 0; k < 3; k++) d0[k] = d0r[k];
    if (fold_m > 0.0) {
        ct__fold_out fo;
        double m;
        if (pre) fo = *pre;
        else ct__fold(cfg, p, r0, d0r, &fo);
        m = fold_m * fo.fade;
        for (k = 0; k < 3; k++)
            d0[k] = (1.0 - m) * d0[k] + m * ((1.0 - CT__FOLD_DETAIL) * fo.d[k] + CT__FOLD_DETAIL * d0[k]);
        r0 = (1.0 - m) * r0 + m * ((1.0 - CT__FOLD_DETAIL) * fo.v + CT__FOLD_DETAIL * r0);
    }
    /* (d0 - d0r) is +0 without folds: the sum is then bit for bit the
     * plain ridged gradient. */
    for (k = 0; k < 3; k++)
        d[k] = (d0r[k] * (1.0 + (1.0 - CT__RIDGE_FLOOR) * s) + (d0[k] - d0r[k]) + wgt * ds[k]) / norm;
    return (r0 + wgt * s) / norm;
}

static double ct__ridged(const ct_config *cfg, const double p[3], double fold_m, double d[3])
{
    uint32_t seed = ct__subseed(cfg->seed, CT_SALT_RANGE);
    double d0[3], di[3], ds[3] = {0.0, 0.0, 0.0}, r0, s = 0.0, amp = 1.0, norm = 1.0, f;
    int oct = (int)cfg->ridge_octaves, i, k;
    f = cfg->ridge_frequency;
    r0 = ct__ridge_octave(seed, p, f, d0);
    for (i = 1; i < oct; i++) {
        double ri;
        amp *= 0.5;
        f *= 2.0;
        ri = ct__ridge_octave(seed + (uint32_t)i, p, f, di);
        s += amp * ri;
        for (k = 0; k < 3; k++) ds[k] += amp * di[k];
        norm += amp;
    }
    return ct__ridged_combine(cfg, p, fold_m, NULL, r0, d0, s, ds, norm, d);
}

/* ct__ridged at two points (the two lanes of ct__noise3_deriv_x2), each lane's
 * bits those of ct__ridged with its fold_m. */
static void ct__ridged_x2(const ct_config *cfg, ct__lattice_memo *memo, const double pa[3], const double pb[3],
                          const double fold_m[2], double val[2], double d[2][3])
{
    uint32_t seed = ct__subseed(cfg->seed, CT_SALT_RANGE);
    double ds[2][3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}}, d0[2][3], r0[2], s[2] = {0.0, 0.0};
    double amp = 1.0, norm = 1.0, f = cfg->ridge_frequency;
    int oct = (int)cfg->ridge_octaves, i, k, lane;
    for (i = 0; i < oct; i++) {
        double qa[3], qb[3], n[2], di[2][3];
        if (i > 0) {
            amp *= 0.5;
            f *= 2.0;
        }
        for (k = 0; k < 3; k++) { qa[k] = pa[k] * f; qb[k] = pb[k] * f; }
        ct__noise3_deriv_x2_memo(memo && i < CT__RANGES_MEMO_RIDGES ? memo + i : NULL, seed + (uint32_t)i, qa, qb, n, di);
        for (lane = 0; lane < 2; lane++) {
            /* ct__ridge_octave's step after the noise. */
            double r = 1.0 - fabs(n[lane]), kk = -2.0 * r * (n[lane] < 0.0 ? -1.0 : 1.0) * f;
            for (k = 0; k < 3; k++) di[lane][k] *= kk;
            if (i == 0) {
                r0[lane] = r * r;
                for (k = 0; k < 3; k++) d0[lane][k] = di[lane][k];
            } else {
                s[lane] += amp * (r * r);
                for (k = 0; k < 3; k++) ds[lane][k] += amp * di[lane][k];
            }
        }
        if (i > 0) norm += amp;
    }
    if (fold_m[0] > 0.0 && fold_m[1] > 0.0) {
        /* Both lanes in belts: their fold noises two at a time as well. */
        const double *pp[2];
        ct__fold_out fo[2];
        pp[0] = pa;
        pp[1] = pb;
        ct__fold_x2(cfg, memo, pp, r0, (const double (*)[3])d0, fo);
        val[0] = ct__ridged_combine(cfg, pa, fold_m[0], &fo[0], r0[0], d0[0], s[0], ds[0], norm, d[0]);
        val[1] = ct__ridged_combine(cfg, pb, fold_m[1], &fo[1], r0[1], d0[1], s[1], ds[1], norm, d[1]);
        return;
    }
    val[0] = ct__ridged_combine(cfg, pa, fold_m[0], NULL, r0[0], d0[0], s[0], ds[0], norm, d[0]);
    val[1] = ct__ridged_combine(cfg, pb, fold_m[1], NULL, r0[1], d0[1], s[1], ds[1], norm, d[1]);
}

/* The ranges' amplitude at a sample a m above its shore reference; 0 where
 * they add nothing (then ct__ranges_at returns 0 without any noise). */
static double ct__ranges_amp(const ct_config *cfg, double belt, double a)
{
    if (!ct__ranges_on(cfg) || !(a > 0.0)) return 0.0;
    return cfg->range_height_m * belt + cfg->hill_height_m * a / (a + CT__HILL_HALF_M);
}

/* Folds take the belt's share of the amplitude; hills and the belt's fringe
 * keep the isotropic ridges. */
static double ct__fold_share(const ct_config *cfg, double belt, double amp)
{
    return cfg->range_folds > 0.0 && belt > 0.0 ? cfg->range_folds * cfg->range_height_m * belt / amp : 0.0;
}

/* From the ridged value val and its gradient d: the height delta, and the
 * tangent gradient when grad is not NULL. */
static double ct__ranges_finish(const ct_config *cfg, const double dir[3], double a, double amp, double val,
                                const double d[3], double grad[3])
{
    double delta, slope_k, dot;
    int k;
    delta = amp * (val - CT__RIDGE_CENTRE);
    slope_k = amp / cfg->radius_m;
    if (delta > 0.0) {
        /* Crests fade to zero at the shoreline (a -> 0), so the land surface
         * meets the water without a step. */
        double q = a / (a + CT__CREST_FADE_M);
        slope_k *= q;
        delta *= q;
    } else {
        /* Valleys: delta a / (a - 2 delta) stays above -a/2, and matches
         * delta (value and slope) where it is small against a. */
        double q = a - 2.0 * delta;
        slope_k *= a * a / (q * q);
        delta = delta * a / q;
    }
    if (grad) {
        for (k = 0; k < 3; k++) grad[k] = slope_k * d[k];
        dot = ct__dot3(grad, dir);
        for (k = 0; k < 3; k++) grad[k] -= dot * dir[k];
    }
    return delta;
}

double ct__ranges_at(const ct_config *cfg, const double dir[3], double belt, double above_m,
                     double grad[3])
{
    double amp, val, d[3];
    if (grad) grad[0] = grad[1] = grad[2] = 0.0;
    amp = ct__ranges_amp(cfg, belt, above_m);
    if (!(amp > 0.0)) return 0.0;
    val = ct__ridged(cfg, dir, ct__fold_share(cfg, belt, amp), d);
    return ct__ranges_finish(cfg, dir, above_m, amp, val, d, grad);
}

void ct__ranges_at_x4(const ct_config *cfg, ct__lattice_memo *memo, const double dir[12], const double belt[4],
                      const double above_m[4], double out[4], double grad[12])
{
    double amp[4];
    int need[4], count = 0, k, q;
    for (k = 0; k < 4; k++) {
        out[k] = 0.0;
        if (grad) grad[3 * k] = grad[3 * k + 1] = grad[3 * k + 2] = 0.0;
        amp[k] = ct__ranges_amp(cfg, belt[k], above_m[k]);
        if (amp[k] > 0.0) need[count++] = k;
    }
    /* Lanes that need the ridged noise, two at a time. */
    for (q = 0; q < count; q += 2) {
        double val[2], d[2][3], fm[2];
        int n = count - q < 2 ? 1 : 2, j;
        for (j = 0; j < n; j++) fm[j] = ct__fold_share(cfg, belt[need[q + j]], amp[need[q + j]]);
        if (n == 2) {
            ct__ridged_x2(cfg, memo, dir + 3 * need[q], dir + 3 * need[q + 1], fm, val, d);
        } else {
            val[0] = ct__ridged(cfg, dir + 3 * need[q], fm[0], d[0]);
        }
        for (j = 0; j < n; j++) {
            k = need[q + j];
            out[k] = ct__ranges_finish(cfg, dir + 3 * k, above_m[k], amp[k], val[j], d[j], grad ? grad + 3 * k : NULL);
        }
    }
}

void ct__macro_gradient_prepare(const double *d[4], double radius_m, ct__macro_grad_prep *p)
{
    int k;
    p->a11 = p->a12 = p->a22 = 0.0;
    for (k = 0; k < 3; k++) {
        p->es[k] = (d[1][k] - d[0][k]) * radius_m;
        p->et[k] = (d[2][k] - d[0][k]) * radius_m;
        p->a11 += p->es[k] * p->es[k];
        p->a12 += p->es[k] * p->et[k];
        p->a22 += p->et[k] * p->et[k];
    }
    p->det = p->a11 * p->a22 - p->a12 * p->a12;
}

void ct__macro_gradient_at(const ct__macro_grad_prep *p, const double h[4], double s, double t, double grad[3])
{
    double hs, ht, b1, b2;
    int k;
    /* Bilinear derivatives along the cell's two edge directions. */
    hs = (1.0 - t) * (h[1] - h[0]) + t * (h[3] - h[2]);
    ht = (1.0 - s) * (h[2] - h[0]) + s * (h[3] - h[1]);
    if (!(p->det > 0.0)) {
        grad[0] = grad[1] = grad[2] = 0.0;
        return;
    }
    b1 = (p->a22 * hs - p->a12 * ht) / p->det;
    b2 = (p->a11 * ht - p->a12 * hs) / p->det;
    for (k = 0; k < 3; k++) grad[k] = b1 * p->es[k] + b2 * p->et[k];
}
