/* terrain_stats_chunks.c - slopes and heights of land from real chunks.
 *
 * Chunks at surface_lod are generated with ct_chunk_generate and read back
 * as a game would (decoded u16 heights, water codes), over a deterministic
 * spread of the sphere: a Fibonacci point set, visited in a golden-ratio
 * stride so any prefix of it is spread too. Chunks whose 3x3 probe of
 * ct_world_sample is all water are skipped unsurveyed (they would add
 * nothing but time). Distances are the true metric ones from ct_key_metric,
 * so a slope is a slope wherever the chunk sits on its cube face. */
#include "terrain_stats.h"
#include "chunk_probe.h"
#include "../core/cli/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TS_CANDIDATES 4096    /* Fibonacci points: far more than any survey needs */

typedef struct ts_floats { float *v; size_t n, cap; } ts_floats;

static int ts_push(ts_floats *a, float x)
{
    float *g = (float *)cli_grow(a->v, a->n, &a->cap, sizeof *g, 65536u);
    if (!g) return 0;
    a->v = g;
    a->v[a->n++] = x;
    return 1;
}

static int ts_is_land(const ct_sample *s) { return !s->has_water; }

/* 1 if any of a 3x3 probe over the chunk is land. */
static int ts_chunk_has_land(const ct_world *w, ct_key key)
{
    int at = chunk_probe_3x3(w, key, 32.0, 96.0, ts_is_land);
    return at >= 0 && at != CHUNK_PROBE_NONE;
}

/* The metric changes by well under 0.1% across a block of this many samples
 * at surface LODs, so one ct_key_metric call per block is enough. */
#define TS_METRIC_BLOCK 16

/* Adds the land samples of one chunk. */
static int ts_chunk_survey(const ct_world *w, const ct_chunk *c, ts_floats *slope, ts_floats *height,
                           ts_floats *spacing, double *beach, double *zero)
{
    const ct_config *cfg = ct_world_config(w);
    double a[3], b[3];
    int i, j;
    char err[256];
    if (ct_key_metric(c->key, CT_CHUNK_CORE / 2, CT_CHUNK_CORE / 2, cfg->radius_m, a, b, err, sizeof err) != CT_OK ||
        !ts_push(spacing, (float)sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])))
        return 0;
    for (j = 0; j < CT_CHUNK_CORE; j++) {
        for (i = 0; i < CT_CHUNK_CORE; i++) {
            size_t at = (size_t)j * CT_CHUNK_EDGE + (size_t)i;
            double h;
            if (i % TS_METRIC_BLOCK == 0 &&
                ct_key_metric(c->key, (i / TS_METRIC_BLOCK + 0.5) * TS_METRIC_BLOCK,
                              (j / TS_METRIC_BLOCK + 0.5) * TS_METRIC_BLOCK, cfg->radius_m, a, b,
                              err, sizeof err) != CT_OK)
                return 0;
            if (c->water[at] != CT_NO_WATER_CODE) continue;
            /* Float heights: at fine LODs 1 m codes would make every slope
             * a staircase of 0 and 1 m steps. */
            h = (double)c->height_m[at];
            if (!ts_push(height, (float)h)) return 0;
            if (h >= 0.0 && h <= TS_BEACH_M) *beach += 1.0;
            if (c->height[at] == CT_SEA_LEVEL_CODE) *zero += 1.0;
            /* Slopes only where the whole forward stencil is dry land, so a
             * shore's drop to the sea bed is not counted as a land slope. */
            if (c->water[at + 1] != CT_NO_WATER_CODE || c->water[at + CT_CHUNK_EDGE] != CT_NO_WATER_CODE)
                continue;
            if (!ts_push(slope, (float)ts_slope_deg(a, b, (double)c->height_m[at + 1] - h,
                                                    (double)c->height_m[at + CT_CHUNK_EDGE] - h)))
                return 0;
        }
    }
    return 1;
}

int ts_chunks_run(const ct_world *w, const ts_chunk_opts *o, ts_chunk_result *out)
{
    const ct_config *cfg = ct_world_config(w);
    ts_floats slope = {0, 0, 0}, height = {0, 0, 0}, spacing = {0, 0, 0};
    ct_chunk *chunk = (ct_chunk *)malloc(sizeof *chunk);
    ct_key *done = (ct_key *)malloc(sizeof *done * TS_CANDIDATES);
    double t0 = ts_now_ms(), beach = 0.0, zero = 0.0;
    int k, stride = ts_stride(TS_CANDIDATES), ndone = 0, ok = 0;
    char err[256];

    memset(out, 0, sizeof *out);
    out->lod = (int)cfg->surface_lod;
    if (!chunk || !done) goto end;
    for (k = 0; k < TS_CANDIDATES && out->chunks_with_land < o->land_chunks &&
                out->chunks_generated < o->max_chunks; k++) {
        double dir[3], lx, ly;
        ct_key key;
        int d, dup = 0;
        ts_fibonacci((int)(((long)k * stride) % TS_CANDIDATES), TS_CANDIDATES, dir);
        if (ct_key_at(w, dir, out->lod, &key, &lx, &ly, err, sizeof err) != CT_OK) goto fail;
        for (d = 0; d < ndone && !dup; d++)
            dup = done[d].face == key.face && done[d].x == key.x && done[d].y == key.y;
        if (dup) continue;
        done[ndone++] = key;
        if (!ts_chunk_has_land(w, key)) continue;
        if (ct_chunk_generate(w, key, chunk, err, sizeof err) != CT_OK) goto fail;
        out->chunks_generated++;
        {
            size_t before = height.n;
            if (!ts_chunk_survey(w, chunk, &slope, &height, &spacing, &beach, &zero)) goto end;
            if (height.n > before) out->chunks_with_land++;
        }
    }
    out->land_samples = (double)height.n;
    out->slope_samples = (double)slope.n;
    out->beach_share = height.n ? beach / (double)height.n : 0.0;
    out->zero_share = height.n ? zero / (double)height.n : 0.0;
    out->slope_deg[0] = ts_percentile(slope.v, slope.n, 0.50);
    out->slope_deg[1] = ts_percentile(slope.v, slope.n, 0.90);
    out->slope_deg[2] = ts_percentile(slope.v, slope.n, 0.99);
    out->height_m[0] = ts_percentile(height.v, height.n, 0.50);
    out->height_m[1] = ts_percentile(height.v, height.n, 0.90);
    out->height_m[2] = ts_percentile(height.v, height.n, 0.99);
    out->height_m[3] = ts_percentile(height.v, height.n, 1.0);
    out->spacing_m = ts_percentile(spacing.v, spacing.n, 0.5);
    out->ms = ts_now_ms() - t0;
    ok = 1;
    goto end;
fail:
    fprintf(stderr, "terrain_stats: %s\n", err);
end:
    free(slope.v);
    free(height.v);
    free(spacing.v);
    free(chunk);
    free(done);
    return ok;
}
