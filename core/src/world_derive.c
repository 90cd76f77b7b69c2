/* world_derive.c - ct__world_derive: every table a world recomputes from its
 * covered data, called by ct_world_build and by the snapshot reader alike.
 *
 * The rule (docs/chunks.md, "What a snapshot stores"): a per-vertex value
 * that shapes a sample or a chunk is either hashed into the generation ID
 * (ct__world_generation: knobs, heights, water levels, bodies, mask) or
 * derived here from hashed data. A snapshot stores only the hashed part, so
 * a forged byte either changes the generation (and the stored ID no longer
 * matches) or lands in nothing the reader trusts. New terrain layers add
 * their derived tables here, never to the snapshot. */
#include "ct_rivers.h"

#include <stdlib.h>
#include <string.h>

/* Region weights are a pure function of the knobs and the direction: the
 * same warp and blend the build's mask stage runs. */
static ct_result ct__derive_regions(ct_world *w, char *err, size_t errlen)
{
    uint32_t V = w->vertex_count, v;
    ct__fbm_memo *memo = (ct__fbm_memo *)calloc(2, sizeof *memo);   /* warp, regions */
    if (!memo) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving region weights");
    if (!w->region_w_v) w->region_w_v = (float *)malloc(sizeof(float) * 4u * (size_t)V);
    if (!w->region_w_v) {
        free(memo);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving region weights");
    }
    for (v = 0; v < V; v++) {
        double pw[3], wt[4];
        int k;
        ct__continent_warp(&w->cfg, &memo[0], w->dir_v + 3u * (size_t)v, pw);
        ct__region_weights_warped(&w->cfg, &memo[1], pw, wt);
        for (k = 0; k < CT_REGION_COUNT; k++) w->region_w_v[4u * (size_t)v + (uint32_t)k] = (float)wt[k];
    }
    free(memo);
    return CT_OK;
}

/* Statistics that describe the frozen field (the build log - passes, hops,
 * collisions, build time - is the build's to add; a load leaves it 0). */
static void ct__derive_stats(ct_world *w, const ct__graph *g)
{
    ct_world_stats *s = &w->stats;
    uint32_t V = w->vertex_count, v, land = 0, ocean = 0, bodies = 0, lakes = 0, elevated = 0;
    uint32_t *size;
    memset(s, 0, sizeof *s);
    s->macro_resolution = w->n;
    s->vertex_count = V;
    s->edge_count = g->edge_count;
    s->min_height_m = V ? w->height_v[0] : 0.0;
    s->max_height_m = s->min_height_m;
    for (v = 0; v < V; v++) {
        double h = w->height_v[v];
        int32_t b = w->body_v[v];
        if (b < 0) land++;
        if (b == 0) ocean++;
        if (b >= 0 && (uint32_t)b + 1u > bodies) bodies = (uint32_t)b + 1u;
        if (h < s->min_height_m) s->min_height_m = h;
        if (h > s->max_height_m) s->max_height_m = h;
    }
    /* A lake is a body the build let rise (walk modes, small enough): the
     * same test as water.c, on sizes counted from body_v. */
    size = bodies ? (uint32_t *)calloc(bodies, sizeof *size) : NULL;
    if (size) {
        for (v = 0; v < V; v++)
            if (w->body_v[v] >= 0) size[w->body_v[v]]++;
        for (v = 1; v < bodies; v++)   /* body 0 is the ocean */
            if (w->cfg.mode != CT_MODE_NOISE && size[v] <= w->cfg.lake_max_vertices) lakes++;
        /* Lakes standing at least CT_ELEVATED_LAKE_M above sea level: one
         * body has one level, so each counts once (size[] doubles as the
         * seen flag). Only lakes stand above 0 m. */
        for (v = 0; v < V; v++) {
            int32_t c = w->body_v[v];
            if (c <= 0 || !size[c] || !(w->water_level_v[v] >= CT_ELEVATED_LAKE_M)) continue;
            size[c] = 0;
            elevated++;
        }
        free(size);
    }
    s->water_bodies = bodies;
    s->lakes = lakes;
    s->elevated_lakes = elevated;
    s->land_fraction = V ? (double)land / (double)V : 0.0;
    s->ocean_fraction = V ? (double)ocean / (double)V : 0.0;
    s->max_macro_slope_excess_m = ct__slope_excess(g, w->cfg.max_macro_slope, w->height_v);
    s->bytes_held = ct__world_bytes(w);
}

/* Body labels a reader may trust: -1 (land) or 0..bodies-1, every label used. */
static ct_result ct__check_bodies(const ct_world *w, char *err, size_t errlen)
{
    uint32_t V = w->vertex_count, v;
    for (v = 0; v < V; v++)
        if (w->body_v[v] < -1 || w->body_v[v] >= (int32_t)V)
            return ct__fail(err, errlen, CT_ERR_FORMAT, "vertex %lu has water body %ld",
                            (unsigned long)v, (long)w->body_v[v]);
    return CT_OK;
}

ct_result ct__world_derive(ct_world *w, const struct ct__graph *graph, char *err, size_t errlen)
{
    ct__graph own;
    const ct__graph *g = graph;
    ct_result r = CT_OK;
    if (!w || !w->vertex_fij || !w->dir_v || !w->height_v || !w->body_v || !w->water_level_v)
        return ct__fail(err, errlen, CT_ERR_NULL, "world field is missing");
    if ((r = ct__check_bodies(w, err, errlen)) != CT_OK) return r;
    /* The build filled region weights and shore distances with these very
     * functions on its way (mask.c, relief.c) and passes its graph; a
     * loaded world has neither, and gets them here. */
    if (!w->region_w_v && (r = ct__derive_regions(w, err, errlen)) != CT_OK) return r;
    memset(&own, 0, sizeof own);
    if (!g) {
        if ((r = ct__graph_build(w, w->cfg.radius_m, &own, err, errlen)) != CT_OK) return r;
        g = &own;
    }
    if (!w->shore_v) {
        w->shore_v = (float *)malloc(sizeof(float) * (size_t)w->vertex_count);
        r = w->shore_v ? ct__shore_distance(g, w->body_v, w->shore_v, err, errlen)
                       : ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving shore distances");
    }
    if (r == CT_OK) ct__derive_stats(w, g);
    if (r == CT_OK) r = ct__derive_sampling(w, err, errlen);
    /* The drainage reads the moisture the sampling tables just derived. */
    if (r == CT_OK) r = ct__rivers_derive(w, g, err, errlen);
    ct__graph_free(&own);
    /* The sampling tables, mountain belts and rivers are held too. */
    if (r == CT_OK) w->stats.bytes_held = ct__world_bytes(w) + ct__rivers_bytes(w->rivers);
    return r;
}
