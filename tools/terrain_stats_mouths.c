/* terrain_stats_mouths.c - where the largest rivers meet the sea, measured in
 * the samples (ct_world_sample) along their drawn curves
 * (ct_world_river_curves): walking the mouth segment downstream, the gap is
 * the curve length from the last river-water point to the first sea point
 * (0 when the channel runs into the sea), and "node to sea" the length from
 * the mouth node to that sea point. A mouth whose curve never meets the sea
 * counts as unreached. libm is fine here: the tool measures. */
#include "terrain_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TS_MOUTHS 30           /* the largest sea mouths, by drainage area */
#define TS_MOUTH_STEP_M 250.0  /* sample spacing along the curve */

/* Walks one polyline downstream; gap and node-to-sea in metres, 0 when the
 * curve never meets the sea. */
static int ts__mouth_walk(const ct_world *w, const double *pt, uint32_t npts, double radius_m, double *gap,
                          double *to_sea)
{
    double walked = 0.0, last_river = -1.0;
    uint32_t k;
    for (k = 0; k + 1 < npts; k++) {
        const double *a = pt + 3 * k, *b = a + 3;
        double e[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) * radius_m;
        int steps = (int)ceil(len / TS_MOUTH_STEP_M), s, last;
        if (steps < 1) steps = 1;
        last = k + 2 == npts ? steps : steps - 1;   /* the curve's own end too */
        for (s = 0; s <= last; s++) {
            double t = (double)s / steps, p[3], r;
            ct_sample smp;
            int q;
            for (q = 0; q < 3; q++) p[q] = a[q] + t * e[q];
            r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            for (q = 0; q < 3; q++) p[q] /= r;
            if (ct_world_sample(w, p, &smp, NULL, 0) != CT_OK) return 0;
            if (smp.water_body == CT_WATER_RIVER) last_river = walked + t * len;
            /* The sea: the ocean or an inland sea, water at sea level. */
            if (smp.has_water && smp.water_body >= 0 && fabs(smp.water_m) < 0.5) {
                double here = walked + t * len;
                *gap = last_river < 0.0 ? here : here - last_river;
                if (*gap < TS_MOUTH_STEP_M) *gap = 0.0;
                *to_sea = here;
                return 1;
            }
        }
        walked += len;
    }
    return 0;
}

int ts_mouths_run(const ct_world *w, ts_mouth_result *out)
{
    ct_rivers_info info;
    uint32_t n, segs = 0, pts = 0, i, m;
    double *area = NULL, *points = NULL, gap, sea;
    float gaps[TS_MOUTHS], seas[TS_MOUTHS];
    int32_t *down = NULL;
    uint8_t *flags = NULL, *taken = NULL;
    uint32_t *off = NULL;
    int ok = 0, got = 0;
    memset(out, 0, sizeof *out);
    if (ct_world_rivers_info(w, &info, NULL, 0) != CT_OK) return 0;
    n = info.node_count;
    if (!n) return 1;
    if (ct_world_river_curves(w, 0, 0, NULL, NULL, NULL, NULL, &segs, &pts, NULL, 0) != CT_OK) return 0;
    area = malloc(sizeof *area * n);
    down = malloc(sizeof *down * n);
    flags = malloc(n);
    taken = calloc(n, 1);
    off = malloc(sizeof *off * (segs + 1u));
    points = malloc(sizeof *points * 3u * pts);
    if (!area || !down || !flags || !taken || !off || !points) goto done;
    if (ct_world_rivers(w, n, NULL, down, area, NULL, NULL, NULL, flags, NULL, 0) != CT_OK ||
        ct_world_river_curves(w, segs + 1u, pts, off, points, NULL, NULL, NULL, NULL, NULL, 0) != CT_OK)
        goto done;
    for (m = 0; m < TS_MOUTHS; m++) {
        uint32_t best = UINT32_MAX;
        for (i = 0; i < n; i++)
            if ((flags[i] & CT_RIVER_MOUTH_SEA) && !taken[i] && (best == UINT32_MAX || area[i] > area[best])) best = i;
        if (best == UINT32_MAX) break;
        taken[best] = 1;
        out->mouths++;
        if (ts__mouth_walk(w, points + 3u * off[best], off[best + 1u] - off[best], ct_world_config(w)->radius_m,
                           &gap, &sea)) {
            if (gap > 0.0) out->with_gap++;
            if (gap / 1000.0 > out->gap_max_km) out->gap_max_km = gap / 1000.0;
            gaps[got] = (float)gap;
            seas[got] = (float)sea;
            got++;
        } else {
            out->unreached++;
        }
    }
    if (got) {
        out->gap_p50_km = ts_percentile(gaps, (size_t)got, 0.5) / 1000.0;
        out->to_sea_p50_km = ts_percentile(seas, (size_t)got, 0.5) / 1000.0;
    }
    ok = 1;
done:
    free(area);
    free(down);
    free(flags);
    free(taken);
    free(off);
    free(points);
    return ok;
}
