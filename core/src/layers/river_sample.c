/* river_sample.c - what a river does to one sample (rivers.c builds the
 * network): the water surface along a segment, the distance to its curve,
 * the channel, the valley carved around it and the wetter banks, with a
 * per-lane memo of segments a distance bound proves out of reach. The
 * surface is flat over each segment's first flat_a and last CT__RIVER_FLAT
 * of its length and linear between (rivers.c says why). */
#include "layers/ct_rivers.h"

#include <math.h>

double ct__river_seg_level(const ct__river_seg *s, double u)
{
    if (u <= s->flat_a) return s->level_a;
    if (u >= 1.0 - CT__RIVER_FLAT) return s->level_b;
    return s->level_a + (s->level_b - s->level_a) * ((u - s->flat_a) / (1.0 - CT__RIVER_FLAT - s->flat_a));
}

/* Squared distance (unit sphere) from x to the polyline and the arc length
 * share of the nearest point; the first piece wins exact ties. */
double ct__river_nearest(const ct__river_seg *s, const double x[3], double *u_out)
{
    double best = 1e300, u = 0.0;
    int k;
    for (k = 0; k + 1 < s->npts; k++) {
        const double *p0 = s->pt + 3 * k, *p1 = p0 + 3;
        double e0 = p1[0] - p0[0], e1 = p1[1] - p0[1], e2 = p1[2] - p0[2];
        double r0 = x[0] - p0[0], r1 = x[1] - p0[1], r2 = x[2] - p0[2];
        double t = (r0 * e0 + r1 * e1 + r2 * e2) * s->inv_len2[k], d2;
        if (t < 0.0) t = 0.0;
        if (t > 1.0) t = 1.0;
        r0 -= t * e0;
        r1 -= t * e1;
        r2 -= t * e2;
        d2 = r0 * r0 + r1 * r1 + r2 * r2;
        if (d2 < best) {
            best = d2;
            u = s->u[k] + t * (s->u[k + 1] - s->u[k]);
        }
    }
    *u_out = u;
    return best;
}

void ct__river_memo_reset(ct__river_memo *m)
{
    m->cell = (size_t)-1;
    m->skipped = 0;
}

/* Unit-sphere slack of the river skip (about 6 mm on an Earth-sized
 * planet): orders above the rounding of the distances it compares (about
 * 1e-15 on unit vectors), orders below any valley (km). */
#define CT__RIVER_SLACK 1e-9

/* The river skip. Proof: the distance D(x) from a point to a segment's
 * polyline (straight 3D pieces between unit-sphere points, as
 * ct__river_nearest measures it) is 1-Lipschitz: D(x) >= D(x0) - |x - x0|.
 * The memo holds, for a point x0, clear = D~(x0) - v/R - SLACK, D~ the
 * computed distance (within e = 1e-15 of D: points and unit vectors exact
 * to an ulp, and the nearest point of a piece is stationary or clamped, so
 * an ulp in t moves the distance to second order) and v/R the segment's
 * valley half-width on the unit sphere. If |x - x0|~ + SLACK < clear, then
 * D(x) > v/R + 2 SLACK - 2e, so D~(x) > v/R + SLACK: the loop below would
 * find d_m >= valley_m and `continue` with nothing changed (carve, water and
 * bank moisture all need d_m < valley_m). Skipping it is exact. Along a
 * chunk row a segment 50 km off is measured about once per 70 samples at
 * surface_lod 6 instead of at each. Returns 1 to skip. */
static int ct__river_skip(const ct__river_memo *m, int slot, const double x[3])
{
    const double *a;
    if (!m || slot >= CT__RIVER_MEMO || !(m->clear[slot] > 0.0)) return 0;
    a = m->at[slot];
    return sqrt((x[0] - a[0]) * (x[0] - a[0]) + (x[1] - a[1]) * (x[1] - a[1]) + (x[2] - a[2]) * (x[2] - a[2])) +
           CT__RIVER_SLACK < m->clear[slot];
}

static void ct__river_remember(ct__river_memo *m, int slot, const double x[3], double dist, double valley)
{
    if (!m || slot >= CT__RIVER_MEMO) return;
    m->at[slot][0] = x[0]; m->at[slot][1] = x[1]; m->at[slot][2] = x[2];
    m->clear[slot] = dist - valley - CT__RIVER_SLACK;
}

void ct__river_at(const ct__rivers *rv, size_t c, const double dir[3], double land_m, ct__river_memo *memo,
                  ct__river_hit *out)
{
    uint32_t q, first = rv->cell_off[c];
    double reach2 = rv->reach;
    out->carve_m = 0.0;
    out->wet = 0;
    out->surface_m = 0.0;
    out->moisture = 0.0;
    if (memo && memo->cell != c) {
        int k;
        memo->cell = c;
        for (k = 0; k < CT__RIVER_MEMO; k++) memo->clear[k] = 0.0;
    }
    for (q = first; q < rv->cell_off[c + 1u]; q++) {
        const ct__river_seg *s = &rv->seg[rv->cell_seg[q]];
        double e0 = dir[0] - s->centre[0], e1 = dir[1] - s->centre[1], e2 = dir[2] - s->centre[2];
        double lim = s->radius + reach2, u, d, d_m, level, target, carve, fade;
        int slot = (int)(q - first);
        if (e0 * e0 + e1 * e1 + e2 * e2 > lim * lim) continue;
        if (ct__river_skip(memo, slot, dir)) {
            memo->skipped++;
            continue;
        }
        d = sqrt(ct__river_nearest(s, dir, &u));
        ct__river_remember(memo, slot, dir, d, s->valley_m / rv->radius_m);
        d_m = d * rv->radius_m;
        if (!(d_m < s->valley_m)) continue;
        level = ct__river_seg_level(s, u);
        if (d_m < s->half_w_m) {
            double r = d_m / s->half_w_m;
            target = level - s->depth_m * (1.0 - r * r);
        } else {
            target = level + rv->valley_slope * (d_m - s->half_w_m);
        }
        /* Full depth over the inner half of the valley, none at its edge. */
        fade = 1.0 - ct__smoothstep(0.5 * s->valley_m, s->valley_m, d_m);
        carve = target < land_m ? (target - land_m) * fade : 0.0;
        if (carve < out->carve_m) out->carve_m = carve;
        if (d_m < s->half_w_m && (!out->wet || level < out->surface_m)) {
            out->wet = 1;
            out->surface_m = level;
        }
        {
            double m = rv->bank_moisture * fade;
            if (m > out->moisture) out->moisture = m;
        }
    }
    /* Water only where the carved bed lies under the surface. */
    if (out->wet && !(land_m + out->carve_m < out->surface_m)) out->wet = 0;
}
