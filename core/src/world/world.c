/* world.c - ct_world_build: the macro solve from config to frozen field.
 *
 * Order (see docs/generation.md): graph -> region weights and land mask ->
 * water bodies -> first pass (lakes filled: land walk + sea walk) -> lake
 * levels and shore pins -> second land pass seeded from sea and lake shores
 * -> lake beds -> relief faded in from the shore -> slope projection -> freeze
 * (generation ID, statistics, derived sampling tables). Temporaries live in
 * one struct released in one place, so every failure and cancellation path
 * frees the same way. */
#include "world/ct_world.h"
#include "layers/ct_ranges.h"
#include "layers/ct_rivers.h"
#include "solve/ct_drainage.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Noise mode: one unit of mask spans about this many walk hops of height. */
#define CT__NOISE_HOPS 16.0
/* Sea and inland-sea beds stay at least this far below the water surface. */
#define CT__MIN_SEA_DEPTH_M 1.0

typedef struct ct__progress {
    ct_progress_fn fn;
    void *user;
    double last;
} ct__progress;

typedef struct ct__stage_tick {
    ct__progress *pr;
    const char *stage;
    double from, to;
} ct__stage_tick;

typedef struct ct__tmp {
    ct__graph g;
    ct__vertex_rules rules;
    ct__bodies bodies;
    ct__walk land1, sea, land2;
    ct__walk_scratch walk_scratch;   /* shared by the three walks */
    uint8_t *domain, *is_pin;
    uint32_t *sources;
    double *source_h, *mean_v, *jitter_v, *level_b, *pin_v;
    uint32_t passes, hops, collisions, junction_cells;   /* over every walk */
} ct__tmp;

/* Reports strictly increasing fractions; returns non-zero to cancel. */
static int ct__report(ct__progress *pr, const char *stage, double f)
{
    if (!pr->fn || f <= pr->last) return 0;
    pr->last = f;
    return pr->fn(stage, f, pr->user);
}

static int ct__walk_tick(void *user, double fraction)
{
    ct__stage_tick *t = (ct__stage_tick *)user;
    return ct__report(t->pr, t->stage, t->from + (t->to - t->from) * fraction);
}

static void ct__tmp_free(ct__tmp *t)
{
    ct__graph_free(&t->g);
    free(t->rules.height_scale);
    free(t->rules.roughness);
    free(t->rules.ridge_scale);
    free(t->rules.delay);
    ct__bodies_free(&t->bodies);
    ct__walk_free(&t->land1);
    ct__walk_free(&t->sea);
    ct__walk_free(&t->land2);
    ct__walk_scratch_free(&t->walk_scratch);
    free(t->domain);
    free(t->is_pin);
    free(t->sources);
    free(t->source_h);
    free(t->mean_v);
    free(t->jitter_v);
    free(t->level_b);
    free(t->pin_v);
}

void ct_world_free(ct_world *world)
{
    if (!world) return;
    if (ct__world_free_edits(world)) return;
    free(world->field.vertex_fij);
    free(world->field.dir_v);
    free(world->field.height_v);
    free(world->field.water_level_v);
    free(world->field.body_v);
    free(world->field.mask_v);
    free(world->field.region_w_v);
    free(world->field.shore_v);
    free(world->field.shore_ref_v);
    free(world->field.moisture_v);
    free(world->field.belt_v);
    ct__rivers_free(world->field.rivers);
    free(world);
}

/* Vertices of the domain with a neighbour outside it, in vertex order. */
static uint32_t ct__domain_border(const ct__graph *g, const uint8_t *domain, uint32_t *out)
{
    uint32_t v, k, count = 0;
    for (v = 0; v < g->V; v++) {
        if (!domain[v]) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (w != CT__NONE && !domain[w]) {
                out[count++] = v;
                break;
            }
        }
    }
    return count;
}

static void ct__walk_setup(const ct_world *w, ct__tmp *t, int sea, ct__walk_params *p)
{
    const ct_config *cfg = &w->field.cfg;
    uint32_t kind = sea ? 2u : 1u;
    memset(p, 0, sizeof *p);
    p->g = &t->g;
    p->dir_v = w->field.dir_v;
    p->domain_v = t->domain;
    p->source = t->sources;
    p->source_h = t->source_h;
    p->mean_v = sea ? NULL : t->mean_v;
    p->jitter_v = sea ? NULL : t->jitter_v;
    /* The sea mean stays global (no regional effect), per the reference. */
    p->mean = cfg->sea_step_m;
    p->jitter = cfg->sea_jitter_m;
    p->delay_v = t->rules.delay;
    p->coherence = cfg->walk_coherence;
    p->coherence_frequency = cfg->coherence_frequency;
    p->seed_iid = ct__hash2(ct__subseed(cfg->seed, CT_SALT_WALK_IID), kind);
    p->seed_coh = ct__hash2(ct__subseed(cfg->seed, CT_SALT_WALK_COH), kind);
    p->separation = cfg->collision_separation;
    p->scratch = &t->walk_scratch;
}

/* Runs one walk over t->domain from its border (or from the pins). */
static ct_result ct__run_walk(const ct_world *w, ct__tmp *t, int sea, int from_pins,
                              ct__stage_tick *tick, ct__walk *out, char *err, size_t errlen)
{
    ct__walk_params p;
    uint32_t i;
    ct_result r;
    ct__walk_setup(w, t, sea, &p);
    if (from_pins) {
        uint32_t v;
        p.source_count = 0;
        for (v = 0; v < t->g.V; v++) {
            if (!t->is_pin[v]) continue;
            t->sources[p.source_count] = v;
            t->source_h[p.source_count] = t->pin_v[v];
            p.source_count++;
        }
    } else {
        p.source_count = ct__domain_border(&t->g, t->domain, t->sources);
        /* Land coasts start at sea level; the first water vertex is already
         * one accepted sea hop from the shoreline. */
        for (i = 0; i < p.source_count; i++)
            t->source_h[i] = sea ? ct__walk_increment(&p, t->sources[i], 0u) : 0.0;
    }
    if (tick->pr->fn) {
        p.tick = ct__walk_tick;
        p.tick_user = tick;
    }
    r = ct__walk_run(&p, out, err, errlen);
    if (r == CT_OK) {
        t->passes += out->passes;
        t->hops += out->hops;
        t->collisions += out->collisions;
        t->junction_cells += out->junction_cells;
    }
    return r;
}

/* Keeps only the heights of a finished walk (peak memory). */
static void ct__walk_keep_heights(ct__walk *w)
{
    double *h = w->h;
    w->h = NULL;
    ct__walk_free(w);
    w->h = h;
}

/* ct_fnv1a64 of x's four little-endian bytes, inlined: the generation ID
 * hashes every vertex's fields, and the call per four bytes cost more than
 * the hashing. */
static inline uint64_t ct__fnv_u32(uint64_t h, uint32_t x)
{
    int k;
    for (k = 0; k < 4; k++) {
        h ^= (uint8_t)(x >> (8 * k));
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t ct__fnv_f64(uint64_t h, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);   /* IEEE bits, then written little endian */
    h = ct__fnv_u32(h, (uint32_t)u);
    return ct__fnv_u32(h, (uint32_t)(u >> 32));
}

uint64_t ct__world_generation(const ct_world *w)
{
    uint64_t h = CT_FNV1A64_INIT;
    size_t i, count = ct_knob_count();
    uint32_t v;
    h = ct__fnv_u32(h, CT_ALGORITHM_VERSION);
    for (i = 0; i < count; i++) {
        const ct_knob_info *k = ct_knob_get(i);
        double d = ct_config_get(&w->field.cfg, k);
        h = k->kind == CT_KNOB_UINT ? ct__fnv_u32(h, (uint32_t)d) : ct__fnv_f64(h, d);
    }
    for (v = 0; v < w->field.vertex_count; v++) h = ct__fnv_f64(h, w->field.height_v[v]);
    for (v = 0; v < w->field.vertex_count; v++) h = ct__fnv_f64(h, w->field.water_level_v[v]);
    for (v = 0; v < w->field.vertex_count; v++) h = ct__fnv_u32(h, (uint32_t)w->field.body_v[v]);
    /* The mask may come from a shape callback, so it cannot be recomputed
     * on load: it is covered instead (float bits). Everything else a sample
     * reads is derived from these (ct__world_derive). */
    for (v = 0; v < w->field.vertex_count; v++) {
        uint32_t bits;
        memcpy(&bits, &w->field.mask_v[v], sizeof bits);
        h = ct__fnv_u32(h, bits);
    }
    return h;
}

/* Walk passes, lakes and beds (hybrid and walk modes). */
static ct_result ct__solve_walks(ct_world *w, ct__tmp *t, ct__progress *pr, char *err, size_t errlen)
{
    const ct_config *cfg = &w->field.cfg;
    uint32_t V = w->field.vertex_count, v;
    ct__stage_tick tick;
    ct_result r;
    tick.pr = pr;

    /* First pass: lakes filled, so the land walk crosses them. */
    for (v = 0; v < V; v++) {
        int32_t c = w->field.body_v[v];
        t->domain[v] = (uint8_t)(c < 0 || t->bodies.is_lake[c]);
    }
    tick.stage = "walk (first pass)"; tick.from = 0.20; tick.to = 0.42;
    if ((r = ct__run_walk(w, t, 0, 0, &tick, &t->land1, err, errlen)) != CT_OK) return r;
    /* The sea walk over ocean and inland seas; lakes never touch those, so
     * its sources and result are the same in both passes: run once. */
    for (v = 0; v < V; v++) t->domain[v] = (uint8_t)!t->domain[v];
    tick.stage = "walk (sea)"; tick.from = 0.42; tick.to = 0.50;
    if ((r = ct__run_walk(w, t, 1, 0, &tick, &t->sea, err, errlen)) != CT_OK) return r;
    for (v = 0; v < V; v++)
        if (t->domain[v]) w->field.height_v[v] = t->sea.h[v];
    ct__walk_free(&t->sea);
    if (ct__report(pr, "lake levels", 0.52)) goto cancel;
    if ((r = ct__lake_levels(&t->g, w->field.body_v, &t->bodies, t->land1.h, cfg->max_macro_slope,
                             (int)cfg->lake_own_levels, t->level_b, t->pin_v, t->is_pin, err, errlen)) != CT_OK)
        return r;
    ct__walk_keep_heights(&t->land1);
    /* Second pass: land only, seeded from sea and lake shores together. */
    for (v = 0; v < V; v++) t->domain[v] = (uint8_t)(w->field.body_v[v] < 0);
    tick.stage = "walk (second pass)"; tick.from = 0.55; tick.to = 0.78;
    if ((r = ct__run_walk(w, t, 0, 1, &tick, &t->land2, err, errlen)) != CT_OK) return r;
    for (v = 0; v < V; v++)
        if (w->field.body_v[v] < 0) w->field.height_v[v] = t->land2.h[v];
    return ct__lake_beds(&t->g, w->field.body_v, &t->bodies, t->level_b, cfg->lake_depth_m, w->field.height_v,
                         err, errlen);
cancel:
    return ct__fail(err, errlen, CT_ERR_CANCELLED, "world build cancelled by the caller");
}

/* Relief faded in from the shore, floors, pins, slope projection. */
static ct_result ct__finish_heights(ct_world *w, ct__tmp *t, int walked, char *err, size_t errlen)
{
    const ct_config *cfg = &w->field.cfg;
    uint32_t V = w->field.vertex_count, v;
    int relief = cfg->mode != CT_MODE_WALK && cfg->relief_amplitude_m > 0.0;
    /* The ceiling (ranges.c) is part of the hybrid and noise models; walk
     * mode keeps showing the contour process alone. */
    int ceiling = cfg->mode != CT_MODE_WALK && cfg->macro_ceiling_m > 0.0;
    /* Vertex v + 1 mostly shares v's low-octave cells: relief, then lift. */
    ct__fbm_memo memo[CT__RELIEF_MEMOS + 1];
    ct_result r = ct__ranges_derive(&w->field, err, errlen);   /* belts, if the config uses them */
    if (r != CT_OK) return r;
    memset(memo, 0, sizeof memo);
    for (v = 0; v < V; v++) {
        const double *dir = w->field.dir_v + 3u * (size_t)v;
        int32_t c = w->field.body_v[v];
        double fade = relief ? ct__relief_fade(cfg, (double)w->field.shore_v[v]) : 0.0;
        if (c < 0) {
            /* Land never drops below the water level its front started from. */
            double base = 0.0;
            if (walked && t->land2.src[v] != CT__NONE) base = t->pin_v[t->land2.src[v]];
            if (fade > 0.0)
                w->field.height_v[v] += fade * ct__relief_at(cfg, memo, dir, t->rules.height_scale[v],
                                                       t->rules.roughness[v], t->rules.ridge_scale[v]);
            if (ceiling)
                w->field.height_v[v] = ct__range_ceiling(cfg, &memo[CT__RELIEF_MEMOS], dir, (double)w->field.belt_v[v], base,
                                                  w->field.height_v[v]);
            if (w->field.height_v[v] < base) w->field.height_v[v] = base;
            if (t->is_pin[v]) w->field.height_v[v] = t->pin_v[v];
        } else if (!t->bodies.is_lake[c]) {
            if (fade > 0.0) w->field.height_v[v] += fade * ct__relief_sea_at(cfg, memo, dir, t->rules.roughness[v]);
            if (w->field.height_v[v] > -CT__MIN_SEA_DEPTH_M) w->field.height_v[v] = -CT__MIN_SEA_DEPTH_M;
        }
    }
    /* Valleys follow the rivers and ridges divide basins; the projection
     * below still sees the pins, so shores and lakes hold as before. Walk
     * mode shows the contour process alone, so it is not eroded. */
    if (cfg->erosion_iterations > 0 && cfg->mode != CT_MODE_WALK && (r = ct__erode(&w->field, &t->g, t->is_pin, err, errlen)) != CT_OK) return r;
    return ct__slope_project(&t->g, cfg->max_macro_slope, t->is_pin, w->field.height_v, err, errlen);
}

static ct_result ct__alloc_field(ct_world *w, ct__tmp *t)
{
    size_t V = w->field.vertex_count;
    w->field.height_v = (double *)calloc(V, sizeof *w->field.height_v);
    w->field.water_level_v = (double *)calloc(V, sizeof *w->field.water_level_v);
    w->field.body_v = (int32_t *)calloc(V, sizeof *w->field.body_v);
    w->field.mask_v = (float *)calloc(V, sizeof *w->field.mask_v);
    w->field.region_w_v = (float *)calloc(4u * V, sizeof *w->field.region_w_v);
    w->field.shore_v = (float *)calloc(V, sizeof *w->field.shore_v);
    t->rules.height_scale = (double *)malloc(sizeof(double) * V);
    t->rules.roughness = (double *)malloc(sizeof(double) * V);
    t->rules.ridge_scale = (double *)malloc(sizeof(double) * V);
    t->rules.delay = (uint8_t *)malloc(V);
    t->domain = (uint8_t *)calloc(V, 1);
    t->is_pin = (uint8_t *)calloc(V, 1);
    t->sources = (uint32_t *)malloc(sizeof(uint32_t) * V);
    t->source_h = (double *)malloc(sizeof(double) * V);
    t->mean_v = (double *)malloc(sizeof(double) * V);
    t->jitter_v = (double *)malloc(sizeof(double) * V);
    t->pin_v = (double *)calloc(V, sizeof(double));
    if (!w->field.height_v || !w->field.water_level_v || !w->field.body_v || !w->field.mask_v || !w->field.region_w_v ||
        !w->field.shore_v || !t->rules.height_scale || !t->rules.roughness || !t->rules.ridge_scale ||
        !t->rules.delay || !t->domain || !t->is_pin || !t->sources || !t->source_h ||
        !t->mean_v || !t->jitter_v || !t->pin_v)
        return CT_ERR_MEMORY;
    return CT_OK;
}

/* The build log on top of the field statistics ct__world_derive filled. */
static void ct__fill_build_log(ct_world *w, const ct__tmp *t, clock_t start)
{
    ct_world_stats *s = &w->stats;
    s->passes = t->passes;
    s->accepted_hops = t->hops;
    s->collisions = t->collisions;
    s->junction_cells = t->junction_cells;
    s->build_ms = (double)(clock() - start) * 1000.0 / (double)CLOCKS_PER_SEC;
}

/* Noise mode: no walks, no elevated lakes; every body at sea level and the
 * heights straight from the mask. */
static ct_result ct__noise_heights(ct_world *w, ct__tmp *t, char *err, size_t errlen)
{
    uint32_t V = w->field.vertex_count, v;
    ct_result r = ct__lake_levels(&t->g, w->field.body_v, &t->bodies, w->field.height_v, 0.0, 0, t->level_b, t->pin_v,
                                  t->is_pin, err, errlen);
    if (r != CT_OK) return r;
    for (v = 0; v < V; v++) {
        double m = (double)w->field.mask_v[v];
        w->field.height_v[v] = w->field.body_v[v] < 0 ? m * t->mean_v[v] * CT__NOISE_HOPS
                                          : m * -w->field.cfg.sea_step_m * CT__NOISE_HOPS;
    }
    return CT_OK;
}

/* Hands the final land walk, the first-pass heights and the water levels
 * over to a test's trace (they leave t). */
static void ct__keep_trace(ct__tmp *t, int walked, ct__build_trace *trace)
{
    if (walked) {
        trace->land2 = t->land2;
        memset(&t->land2, 0, sizeof t->land2);
        trace->h_pass1 = t->land1.h;
        t->land1.h = NULL;
    }
    trace->level_b = t->level_b;
    trace->body_count = t->bodies.count;
    t->level_b = NULL;
}

ct_result ct__world_build_traced(const ct_config *cfg, const ct_build_options *opts,
                                 ct__build_trace *trace, ct_world **out, char *err, size_t errlen)
{
    clock_t start = clock();
    ct_world *w = NULL;
    ct__tmp t;
    ct__progress pr;
    ct_result r;
    uint32_t V, v;
    int walked;

    memset(&t, 0, sizeof t);
    if (trace) memset(trace, 0, sizeof *trace);
    if (out) *out = NULL;
    if (!cfg || !out) return ct__fail(err, errlen, CT_ERR_NULL, "config or output pointer is NULL");
    if ((r = ct_config_validate(cfg, err, errlen)) != CT_OK) return r;
    pr.fn = opts ? opts->progress : NULL;
    pr.user = opts ? opts->progress_user : NULL;
    pr.last = -1.0;
    w = (ct_world *)calloc(1, sizeof *w);
    if (!w) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for the world");
    w->field.cfg = *cfg;
    ct_palette_default(&w->palette);
    walked = cfg->mode != CT_MODE_NOISE;

    if (ct__report(&pr, "graph", 0.0)) goto cancel;
    if ((r = ct__field_alloc_graph(&w->field, cfg->macro_resolution, err, errlen)) != CT_OK) goto fail;
    V = w->field.vertex_count;
    if (ct__alloc_field(w, &t) != CT_OK) goto oom;
    if ((r = ct__graph_build(&w->field, cfg->radius_m, &t.g, err, errlen)) != CT_OK) goto fail;
    if (ct__report(&pr, "regions and land mask", 0.03)) goto cancel;
    if ((r = ct__mask_fill(&w->field, opts ? opts->shape : NULL, opts ? opts->shape_user : NULL, &t.rules,
                           err, errlen)) != CT_OK)
        goto fail;
    if (ct__report(&pr, "water bodies", 0.15)) goto cancel;
    if ((r = ct__water_bodies(&w->field, &t.g, cfg->lake_max_vertices, walked, &t.bodies, err, errlen)) != CT_OK)
        goto fail;
    t.level_b = (double *)calloc((size_t)t.bodies.count + 1u, sizeof *t.level_b);
    if (!t.level_b) goto oom;
    for (v = 0; v < V; v++) {
        double mean = cfg->land_step_m * t.rules.height_scale[v];
        double jit = cfg->land_jitter_m * t.rules.roughness[v];
        /* Jitter capped at the mean keeps land increments >= 0. */
        t.mean_v[v] = mean;
        t.jitter_v[v] = jit < mean ? jit : mean;
    }
    /* Each branch announces the stage it runs. */
    if (ct__report(&pr, walked ? "walk (first pass)" : "noise heights", 0.20)) goto cancel;
    if (walked) {
        if ((r = ct__solve_walks(w, &t, &pr, err, errlen)) != CT_OK) goto fail;
    } else if ((r = ct__noise_heights(w, &t, err, errlen)) != CT_OK) {
        goto fail;
    }
    if (ct__report(&pr, "relief", 0.80)) goto cancel;
    if ((r = ct__shore_distance(&t.g, w->field.body_v, w->field.shore_v, err, errlen)) != CT_OK) goto fail;
    if (ct__report(&pr, "slope projection", 0.86)) goto cancel;
    /* The levels are final; erosion (in the next step) reads them. */
    for (v = 0; v < V; v++)
        w->field.water_level_v[v] = w->field.body_v[v] >= 0 ? t.level_b[w->field.body_v[v]] : 0.0;
    if ((r = ct__finish_heights(w, &t, walked, err, errlen)) != CT_OK) goto fail;
    if (ct__report(&pr, "freeze", 0.97)) goto cancel;
    w->field.generation = ct__world_generation(w);
    if ((r = ct__world_derive(w, &t.g, err, errlen)) != CT_OK) goto fail;
    ct__fill_build_log(w, &t, start);
    if (trace) ct__keep_trace(&t, walked, trace);
    if (ct__report(&pr, "done", 1.0)) goto cancel;
    ct__tmp_free(&t);
    *out = w;
    return CT_OK;
oom:
    r = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory building the world");
    goto fail;
cancel:
    r = ct__fail(err, errlen, CT_ERR_CANCELLED, "world build cancelled by the caller");
fail:
    if (trace) ct__build_trace_free(trace);
    ct__tmp_free(&t);
    ct_world_free(w);
    return r;
}

void ct__build_trace_free(ct__build_trace *t)
{
    if (!t) return;
    ct__walk_free(&t->land2);
    free(t->h_pass1);
    free(t->level_b);
    memset(t, 0, sizeof *t);
}

ct_result ct_world_build_ex(const ct_config *cfg, const ct_build_options *opts, ct_world **out,
                            char *err, size_t errlen)
{
    return ct__world_build_traced(cfg, opts, NULL, out, err, errlen);
}

ct_world *ct_world_build(const ct_config *cfg, ct_shape_fn shape_or_null, void *user,
                         char *err, size_t errlen)
{
    ct_build_options opts;
    ct_world *w = NULL;
    memset(&opts, 0, sizeof opts);
    opts.shape = shape_or_null;
    opts.shape_user = user;
    if (ct_world_build_ex(cfg, &opts, &w, err, errlen) != CT_OK) return NULL;
    return w;
}

const ct_config *ct_world_config(const ct_world *world)
{
    return world ? &world->field.cfg : NULL;
}

uint64_t ct_world_generation(const ct_world *world)
{
    return world ? world->field.generation : 0u;
}

ct_result ct_world_stats_get(const ct_world *world, ct_world_stats *out)
{
    if (!world || !out) return ct__fail(NULL, 0, CT_ERR_NULL, "world or out is NULL");
    *out = world->stats;
    return CT_OK;
}
