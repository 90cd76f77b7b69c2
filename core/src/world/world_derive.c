/* world_derive.c - ct__world_derive: every table a world recomputes from its
 * covered data, called by ct_world_build and by the snapshot reader alike.
 *
 * The rule (docs/chunks.md, "What a snapshot stores"): a per-vertex value
 * that shapes a sample or a chunk is either hashed into the generation ID
 * (ct__world_generation: knobs, heights, water levels, bodies, mask) or
 * derived here from hashed data. A snapshot stores only the hashed part, so
 * a forged byte either changes the generation (and the stored ID no longer
 * matches) or lands in nothing the reader trusts. New terrain layers add
 * their derived tables here, never to the snapshot.
 *
 * Every step that walks the macro graph reads one adjacency: the build hands
 * over the graph it solved on, a loaded world builds it once here. */
#include "world/ct_world.h"
#include "layers/ct_ranges.h"
#include "layers/ct_rivers.h"
#include "surface/ct_surface.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Region weights are a pure function of the knobs and the direction: the
 * same warp and blend the build's mask stage runs. */
static ct_result ct__derive_regions(ct_world *w, char *err, size_t errlen)
{
    uint32_t V = w->field.vertex_count, v;
    ct__fbm_memo *memo = (ct__fbm_memo *)calloc(2, sizeof *memo);   /* warp, regions */
    if (!memo) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving region weights");
    if (!w->field.region_w_v) w->field.region_w_v = (float *)malloc(sizeof(float) * 4u * (size_t)V);
    if (!w->field.region_w_v) {
        free(memo);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving region weights");
    }
    for (v = 0; v < V; v++) {
        double pw[3], wt[4];
        int k;
        ct__continent_warp(&w->field.cfg, &memo[0], w->field.dir_v + 3u * (size_t)v, pw);
        ct__region_weights_warped(&w->field.cfg, &memo[1], pw, wt);
        for (k = 0; k < CT_REGION_COUNT; k++) w->field.region_w_v[4u * (size_t)v + (uint32_t)k] = (float)wt[k];
    }
    free(memo);
    return CT_OK;
}

size_t ct__world_bytes(const ct_world *w)
{
    /* Graph tables, the frozen field and the derived arrays (dir_v 3 doubles,
     * height and water level, body, mask + 4 region weights + shore floats,
     * shore reference and moisture; mountain belts when the config has them). */
    size_t V = w->field.vertex_count, n1 = (size_t)w->field.n + 1u;
    return sizeof *w + sizeof(uint32_t) * 6u * n1 * n1 +
           V * (3u * sizeof(double) + 2u * sizeof(double) + sizeof(int32_t) + 6u * sizeof(float) +
                2u * sizeof(double) + (w->field.belt_v ? sizeof(float) : 0u));
}

/* Shore reference: each land vertex takes the water level of its nearest
 * water (hops on the graph), water vertices their own. A multi-source BFS
 * from every water vertex in index order; queue order has non-decreasing
 * distance, so each land vertex takes the highest reference among its
 * neighbours one hop nearer the water, independent of which of them the BFS
 * happened to reach first. */
static ct_result ct__derive_shore_ref(ct_world *w, const ct__graph *g, char *err, size_t errlen)
{
    uint32_t V = w->field.vertex_count, head = 0, tail = 0, q;
    uint32_t *queue = (uint32_t *)malloc(sizeof *queue * (size_t)(V ? V : 1u));
    int32_t *dist = (int32_t *)malloc(sizeof *dist * (size_t)(V ? V : 1u));
    double *ref = (double *)malloc(sizeof *ref * (size_t)(V ? V : 1u));
    if (!queue || !dist || !ref) {
        free(queue);
        free(dist);
        free(ref);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving the shore reference");
    }
    for (q = 0; q < V; q++) {
        if (w->field.body_v[q] >= 0) {
            dist[q] = 0;
            ref[q] = w->field.water_level_v[q];
            queue[tail++] = q;
        } else {
            dist[q] = -1;
            ref[q] = 0.0;
        }
    }
    while (head < tail) {
        uint32_t a = queue[head++], k;
        for (k = 0; k < 4u; k++) {
            uint32_t b = g->nbr[4u * (size_t)a + k];
            if (b != CT__NONE && dist[b] < 0) {
                dist[b] = dist[a] + 1;
                queue[tail++] = b;
            }
        }
    }
    for (q = 0; q < tail; q++) {
        uint32_t a = queue[q], k;
        int first = 1;
        if (dist[a] == 0) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t b = g->nbr[4u * (size_t)a + k];
            if (b != CT__NONE && dist[b] == dist[a] - 1 && (first || ref[b] > ref[a])) {
                ref[a] = ref[b];
                first = 0;
            }
        }
    }
    free(w->field.shore_ref_v);
    w->field.shore_ref_v = ref;
    free(queue);
    free(dist);
    return CT_OK;
}

/* Moisture is a low-frequency field: evaluated once per vertex. */
static ct_result ct__derive_moisture(ct_world *w, char *err, size_t errlen)
{
    uint32_t V = w->field.vertex_count, q;
    uint32_t seed = ct__subseed(w->field.cfg.seed, CT_SALT_MOISTURE);
    ct__fbm_memo memo;   /* neighbouring vertices share cells: same bits, fewer hashes */
    double *moist = (double *)malloc(sizeof *moist * (size_t)(V ? V : 1u));
    if (!moist) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving moisture");
    memset(&memo, 0, sizeof memo);
    for (q = 0; q < V; q++)
        moist[q] = ct__fbm3_memo(&memo, seed, &w->field.dir_v[3u * (size_t)q], w->field.cfg.moisture_frequency, 4, 2.0, 0.5);
    free(w->field.moisture_v);
    w->field.moisture_v = moist;
    return CT_OK;
}

/* The tables the sampler reads: shore reference, moisture, mountain belts. */
static ct_result ct__derive_sampling(ct_world *w, const ct__graph *g, char *err, size_t errlen)
{
    ct_result r = ct__derive_shore_ref(w, g, err, errlen);
    if (r == CT_OK) r = ct__derive_moisture(w, err, errlen);
    if (r == CT_OK) r = ct__ranges_derive(&w->field, err, errlen);
    return r;
}

/* Statistics that describe the frozen field (the build log - passes, hops,
 * collisions, build time - is the build's to add; a load leaves it 0). */
static void ct__derive_stats(ct_world *w, const ct__graph *g)
{
    ct_world_stats *s = &w->stats;
    uint32_t V = w->field.vertex_count, v, land = 0, ocean = 0, bodies = 0, lakes = 0, elevated = 0;
    uint32_t *size;
    memset(s, 0, sizeof *s);
    s->macro_resolution = w->field.n;
    s->vertex_count = V;
    s->edge_count = g->edge_count;
    s->min_height_m = V ? w->field.height_v[0] : 0.0;
    s->max_height_m = s->min_height_m;
    for (v = 0; v < V; v++) {
        double h = w->field.height_v[v];
        int32_t b = w->field.body_v[v];
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
            if (w->field.body_v[v] >= 0) size[w->field.body_v[v]]++;
        for (v = 1; v < bodies; v++)   /* body 0 is the ocean */
            if (w->field.cfg.mode != CT_MODE_NOISE && size[v] <= w->field.cfg.lake_max_vertices) lakes++;
        /* Lakes standing at least CT_ELEVATED_LAKE_M above sea level: one
         * body has one level, so each counts once (size[] doubles as the
         * seen flag). Only lakes stand above 0 m. */
        for (v = 0; v < V; v++) {
            int32_t c = w->field.body_v[v];
            if (c <= 0 || !size[c] || !(w->field.water_level_v[v] >= CT_ELEVATED_LAKE_M)) continue;
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
    s->max_macro_slope_excess_m = ct__slope_excess(g, w->field.cfg.max_macro_slope, w->field.height_v);
    s->bytes_held = ct__world_bytes(w);
}

/* The statistics table: ct_stats.def as data. */
static const ct_stat_info ct__stats[] = {
#define CT_STAT_U(name, doc) {#name, CT_STAT_UINT, 'u', 0, doc, offsetof(ct_world_stats, name)},
#define CT_STAT_Z(name, doc) {#name, CT_STAT_SIZE, 'u', 0, doc, offsetof(ct_world_stats, name)},
#define CT_STAT_F(name, conv, digits, doc) {#name, CT_STAT_REAL, (#conv)[0], digits, doc, offsetof(ct_world_stats, name)},
#include "ct_stats.def"
#undef CT_STAT_U
#undef CT_STAT_Z
#undef CT_STAT_F
};
#define CT__STAT_COUNT (sizeof ct__stats / sizeof ct__stats[0])

size_t ct_stat_count(void) { return CT__STAT_COUNT; }

const ct_stat_info *ct_stat_get(size_t index)
{
    return index < CT__STAT_COUNT ? &ct__stats[index] : NULL;
}

double ct_world_stats_value(const ct_world_stats *stats, const ct_stat_info *stat)
{
    const unsigned char *base = (const unsigned char *)stats;
    uint32_t u;
    size_t z;
    double f;
    if (!stats || !stat) return 0.0;
    switch (stat->kind) {
    case CT_STAT_UINT: memcpy(&u, base + stat->offset, sizeof u); return (double)u;
    case CT_STAT_SIZE: memcpy(&z, base + stat->offset, sizeof z); return (double)z;
    default:           memcpy(&f, base + stat->offset, sizeof f); return f;
    }
}

/* Body labels a reader may trust: -1 (land) or 0..bodies-1, every label used. */
static ct_result ct__check_bodies(const ct_world *w, char *err, size_t errlen)
{
    uint32_t V = w->field.vertex_count, v;
    for (v = 0; v < V; v++)
        if (w->field.body_v[v] < -1 || w->field.body_v[v] >= (int32_t)V)
            return ct__fail(err, errlen, CT_ERR_FORMAT, "vertex %lu has water body %ld",
                            (unsigned long)v, (long)w->field.body_v[v]);
    return CT_OK;
}

/* The rivers' water probe: the sampler of the field before rivers. */
static void ct__probe_water4(void *ctx, const double dir[12], double level_m[4], int wet[4])
{
    ct__sampler_water4((ct__sampler *)ctx, dir, level_m, wet);
}

/* The river network (rivers.c), once the field it drains is final. */
static ct_result ct__derive_rivers(ct_world *w, const ct__graph *g, char *err, size_t errlen)
{
    ct__sampler *sp;
    ct__water_probe probe;
    ct_result r;
    ct__rivers_free(w->field.rivers);
    w->field.rivers = NULL;
    if (!(w->field.cfg.river_min_area_km2 > 0.0)) return CT_OK;
    sp = (ct__sampler *)malloc(sizeof *sp);
    if (!sp) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for the river network");
    ct__sampler_init(sp, &w->field, 0);   /* the field before rivers: w->field.rivers is NULL */
    probe.water4 = ct__probe_water4;
    probe.ctx = sp;
    r = ct__rivers_derive(&w->field, g, &probe, err, errlen);
    ct__sampler_release(sp);
    free(sp);
    return r;
}

ct_result ct__world_derive(ct_world *w, const struct ct__graph *graph, char *err, size_t errlen)
{
    ct__graph own;
    const ct__graph *g = graph;
    ct_result r = CT_OK;
    if (!w || !w->field.vertex_fij || !w->field.dir_v || !w->field.height_v || !w->field.body_v || !w->field.water_level_v)
        return ct__fail(err, errlen, CT_ERR_NULL, "world field is missing");
    if ((r = ct__check_bodies(w, err, errlen)) != CT_OK) return r;
    /* The build filled region weights and shore distances with these very
     * functions on its way (mask.c, relief.c) and passes its graph; a
     * loaded world has neither, and gets them here. */
    if (!w->field.region_w_v && (r = ct__derive_regions(w, err, errlen)) != CT_OK) return r;
    memset(&own, 0, sizeof own);
    if (!g) {
        if ((r = ct__graph_build(&w->field, w->field.cfg.radius_m, &own, err, errlen)) != CT_OK) return r;
        g = &own;
    }
    if (!w->field.shore_v) {
        w->field.shore_v = (float *)malloc(sizeof(float) * (size_t)w->field.vertex_count);
        r = w->field.shore_v ? ct__shore_distance(g, w->field.body_v, w->field.shore_v, err, errlen)
                       : ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving shore distances");
    }
    if (r == CT_OK) ct__derive_stats(w, g);
    if (r == CT_OK) r = ct__derive_sampling(w, g, err, errlen);
    /* The drainage reads the moisture the sampling tables just derived. */
    if (r == CT_OK) r = ct__derive_rivers(w, g, err, errlen);
    /* The sampling tables, mountain belts and rivers are held too. */
    if (r == CT_OK) w->stats.bytes_held = ct__world_bytes(w) + ct__rivers_bytes(w->field.rivers);
    ct__graph_free(&own);
    return r;
}
