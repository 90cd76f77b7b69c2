/* ct_solve.h - the solve layer (core/src/solve): the frozen field the world
 * build solves on the macro graph, and the interfaces between its stage
 * files (graph.c, regions.c, mask.c, water.c, walk.c, lakes.c, slope.c,
 * relief.c; the drainage has ct_drainage.h). Nothing here outlives
 * ct_world_build except what it writes into the field; tests include this
 * header to check single stages. */
#ifndef CT_SOLVE_H
#define CT_SOLVE_H

#include "base/ct_base.h"

/* ------------------------------------------------------------------ field */
struct ct__rivers;   /* ct_rivers.h (layers), filled by the rivers layer */

/* The frozen field. Arrays are indexed by unique macro vertex (_v suffix)
 * unless named otherwise. Everything here is written once by the build (or
 * the snapshot reader) and only read afterwards; the sampler, chunks and
 * meshes read it and nothing else of a world. A world (ct_world.h) holds
 * one; the layers above the solve fill their own tables in it. */
typedef struct ct__field {
    ct_config cfg;
    uint64_t generation;        /* the world's generation ID (world.c hashes it) */
    uint32_t n;                 /* macro cells per face edge */
    uint32_t vertex_count;      /* 6n^2+2 */
    uint32_t *vertex_fij;       /* [6*(n+1)*(n+1)]: face grid (f,i,j) -> vertex */
    double *dir_v;              /* [3V] unit directions */
    double *height_v;           /* [V] frozen macro bed height, metres */
    double *water_level_v;      /* [V] water surface (0 ocean, lake level), 0 on land */
    int32_t *body_v;            /* [V] -1 land, 0 ocean, k > 0 other water body */
    float *mask_v;              /* [V] signed land mask used by the build (hashed:
                                   a shape callback's values cannot be recomputed) */
    float *region_w_v;          /* [4V] region weights (sum 1); derived */
    float *shore_v;             /* [V] hop distance to the nearest water boundary; derived */
    /* Derived, not serialised: filled by ct__world_derive (world_derive.c) at the
     * end of ct_world_build and of the snapshot reader; freed by
     * ct_world_free. NULL falls back to sea level as every land reference. */
    double *shore_ref_v;        /* [V] water: its level; land: level of the nearest
                                   water (BFS hops, ties -> highest level) */
    double *moisture_v;         /* [V] moisture fBm before bias and shore terms;
                                   low frequency, so interpolating it per sample
                                   costs nothing visible and saves four octaves */
    float *belt_v;              /* [V] mountain-belt weight 0..1 (ranges.c); NULL
                                   in walk mode and when range_height_m and
                                   macro_ceiling_m are 0 */
    struct ct__rivers *rivers;  /* drainage and river network (rivers.c); NULL
                                   when river_min_area_km2 is 0 */
    const struct ct__edits *edits;   /* an edited world's edit set (layers/ct_edits.h); NULL: none */
} ct__field;

/* Index into vertex_fij for face f, grid column i, row j (0..n). */
#define CT__FIJ(n, f, i, j) (((size_t)(f) * ((n) + 1) + (size_t)(j)) * ((n) + 1) + (size_t)(i))

/* Allocates the graph tables (vertex_fij, dir_v) for resolution n. Shared by
 * the build and the snapshot reader. */
ct_result ct__field_alloc_graph(ct__field *f, uint32_t n, char *err, size_t errlen);

/* ------------------------------------------------------------------ graph */
/* Four-neighbour adjacency of the macro graph. Slots are filled in a fixed
 * order (face, row, column of the first grid edge that links two vertices),
 * so every loop over neighbours is deterministic. Cube corners have 3. */
typedef struct ct__graph {
    uint32_t V;
    uint32_t *nbr;      /* [4V] neighbour vertex, CT__NONE in unused slots */
    double *len_m;      /* [4V] great-circle length of that edge, metres */
    double cell_arc;    /* mean edge angle, radians (the grid's unit of distance) */
    uint32_t edge_count;
} ct__graph;

ct_result ct__graph_build(const ct__field *w, double radius_m, ct__graph *g,
                          char *err, size_t errlen);
void ct__graph_free(ct__graph *g);

/* ---------------------------------------------------------------- regions */
/* Region weights at a direction (continuous, sum 1). */
void ct__region_weights(const ct_config *cfg, const double dir[3], double w[4]);
/* Effective per-profile settings blended by weights and region_strength. */
void ct__region_effective(const ct_config *cfg, const double w[4], ct_region_info *out);
/* ct_world_region of a world with config cfg (NULL: "world ... is NULL"). */
ct_result ct__region_at(const ct_config *cfg, const double dir[3], ct_region_info *out, char *err, size_t errlen);
/* Weights from an already domain-warped point (the build warps once per
 * vertex and shares it with the land mask). memo (may be NULL): the lattice
 * hashes of the previous point, for a loop over neighbouring vertices. */
void ct__region_weights_warped(const ct_config *cfg, ct__fbm_memo *memo, const double pw[3], double w[4]);
/* The continent domain warp shared by the land mask and the region fields. */
void ct__continent_warp(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double pw[3]);

/* ------------------------------------------------------------------- mask */
/* Per-vertex effective region settings the later stages read. */
typedef struct ct__vertex_rules {
    double *height_scale;    /* [V] */
    double *roughness;       /* [V] */
    double *ridge_scale;     /* [V] */
    uint8_t *delay;          /* [V] this vertex's deterministic front delay, passes */
} ct__vertex_rules;

/* Fills w->region_w_v, w->mask_v and rules for every vertex. shape may be
 * NULL (continent noise). NaN/Inf from shape -> CT_ERR_SHAPE. */
ct_result ct__mask_fill(ct__field *w, ct_shape_fn shape, void *user, ct__vertex_rules *rules,
                        char *err, size_t errlen);

/* ------------------------------------------------------------------ water */
typedef struct ct__bodies {
    uint32_t count;          /* water bodies (body 0 is the ocean when count > 0) */
    uint32_t *size;          /* [count] vertices per body */
    uint8_t *is_lake;        /* [count] 1: small enough to be an elevated lake */
    uint32_t lakes;
} ct__bodies;

/* Connected water components (mask <= 0) across faces: the largest becomes
 * body 0 (ties: lowest vertex), the rest are numbered by their lowest vertex.
 * Writes w->body_v. */
ct_result ct__water_bodies(ct__field *w, const ct__graph *g, uint32_t lake_max_vertices,
                           int elevated_lakes, ct__bodies *out, char *err, size_t errlen);
void ct__bodies_free(ct__bodies *b);

/* ------------------------------------------------------------------- walk */
enum {
    CT__WALK_UNREACHED = 0,
    CT__WALK_SOURCE,        /* a coast vertex: its own provenance */
    CT__WALK_HOP,           /* reached by one accepted hop from its parent */
    CT__WALK_COLLISION,     /* terminal: SUM of distinct incoming walks */
    CT__WALK_JUNCTION       /* terminal: an enclosed pocket closed as one junction */
};

/* One incoming walk recorded at a collision or junction. */
typedef struct ct__contrib {
    uint32_t src;           /* provenance (source coast vertex) */
    uint32_t from;          /* the vertex it stepped from */
    double value_m;         /* its uncombined height relative to sea level */
} ct__contrib;

/* The run's per-vertex working state, reusable by the next run (the walks
 * of one build have the same V): the block is grown, never shrunk, and
 * freed by ct__walk_scratch_free. */
typedef struct ct__walk_scratch { void *block; size_t bytes; } ct__walk_scratch;
void ct__walk_scratch_free(ct__walk_scratch *s);

typedef struct ct__walk_params {
    const ct__graph *g;
    const double *dir_v;          /* [3V] */
    const uint8_t *domain_v;      /* [V] 1: the walk may enter this vertex */
    const uint32_t *source;       /* source vertices, increasing */
    const double *source_h;       /* [source_count] starting heights, metres */
    uint32_t source_count;
    const double *mean_v;         /* [V] mean increment, or NULL: use mean */
    const double *jitter_v;       /* [V] half-width, or NULL: use jitter */
    double mean, jitter;
    const uint8_t *delay_v;       /* [V] deterministic front delay, or NULL */
    double coherence;             /* 0 IID .. 1 coherent */
    double coherence_frequency;
    uint32_t seed_iid, seed_coh;  /* feature sub-seeds (already salted per walk kind) */
    uint32_t separation;          /* collision_separation in grid cells */
    /* Optional progress tick every few passes; non-zero cancels. */
    int (*tick)(void *user, double fraction);
    void *tick_user;
    ct__walk_scratch *scratch;    /* optional: working memory kept for the next run */
} ct__walk_params;

typedef struct ct__walk {
    uint32_t V;
    double *h;              /* [V] height relative to sea level, metres */
    uint8_t *state;         /* [V] CT__WALK_* */
    uint32_t *src;          /* [V] provenance (source vertex) */
    uint32_t *parent;       /* [V] vertex stepped from (CT__NONE for sources) */
    uint32_t *depth;        /* [V] accepted hops from the source */
    uint32_t *contrib_off;  /* [V] first record of a collision/junction */
    uint32_t *contrib_n;    /* [V] records (0 for plain vertices) */
    ct__contrib *contrib;
    size_t contrib_count, contrib_cap;
    uint32_t passes, hops, collisions, junction_cells;
} ct__walk;

ct_result ct__walk_run(const ct__walk_params *p, ct__walk *out, char *err, size_t errlen);
void ct__walk_free(ct__walk *w);
/* The increment of an accepted hop into v at causal depth (hops from the
 * source). Pure function of (params, v, depth). */
double ct__walk_increment(const ct__walk_params *p, uint32_t v, uint32_t depth);
/* ct__arc(a, b) >= sep_arc for unit vectors a, b (same answer, cheaper). */
int ct__walk_separated(const double *a, const double *b, double sep_arc);

/* ------------------------------------------------------------------ lakes */
/* Lake levels from the first-pass heights h1: minimum over each footprint,
 * then lowered until every shore pin is feasible under slope s (m per m).
 * own_levels 0 is the reference rule (a shore vertex shared by two bodies
 * ties their levels); 1 keeps each lake at its own level, with such a vertex
 * a dam at the higher one. Writes level_b[body] (0 for ocean and seas) and
 * pin_v[v] (shore pin height of land vertices next to water; is_pin_v[v] = 1
 * there). */
ct_result ct__lake_levels(const ct__graph *g, const int32_t *body_v, const ct__bodies *b,
                          const double *h1, double s, int own_levels, double *level_b, double *pin_v,
                          uint8_t *is_pin_v, char *err, size_t errlen);
/* Lake beds: level - depth_m * (hops from the shore / deepest hops of that lake). */
ct_result ct__lake_beds(const ct__graph *g, const int32_t *body_v, const ct__bodies *b,
                        const double *level_b, double depth_m, double *h,
                        char *err, size_t errlen);

/* ------------------------------------------------------------------ slope */
/* Projects h onto |h[a]-h[b]| <= s * len(a,b) on every edge, keeping pinned
 * vertices exactly. Pins must be mutually feasible. s <= 0: no change. */
ct_result ct__slope_project(const ct__graph *g, double s, const uint8_t *is_pin_v, double *h,
                            char *err, size_t errlen);
/* Each envelope first relaxes every edge in index order and back, up to this
 * many times, and finishes with Dijkstra only if that did not settle it: the
 * default worlds settle in 2-3 such pairs plus one that changes nothing
 * (n = 64..256). Same result bit for bit either way (slope.c). */
#define CT__SWEEP_PAIRS 6
/* ct__slope_project with a chosen sweep budget (0: Dijkstra alone); tests. */
ct_result ct__slope_project_sweeps(const ct__graph *g, double s, int max_pairs, const uint8_t *is_pin_v,
                                   double *h, char *err, size_t errlen);
/* Worst remaining edge violation max(0, |dh| - s*len), metres (0 if s <= 0). */
double ct__slope_excess(const ct__graph *g, double s, const double *h);

/* ----------------------------------------------------------------- relief */
/* Hop distance from every vertex to the nearest vertex of the other kind
 * (land vs water): 1 for both sides of a shoreline. No water or no land:
 * every vertex gets the graph size. */
ct_result ct__shore_distance(const ct__graph *g, const int32_t *body_v, float *shore_v,
                             char *err, size_t errlen);
/* Relief height at a direction for the vertex's effective region settings;
 * memo is NULL or CT__RELIEF_MEMOS zeroed memos reused over a vertex loop
 * (same bits, fewer lattice hashes). */
#define CT__RELIEF_MEMOS 3
double ct__relief_at(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double height_scale,
                     double roughness, double ridge_scale);
/* Sea and inland-sea bed relief (half amplitude, no ridges). */
double ct__relief_sea_at(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double roughness);
/* Fade-in weight of relief at a shore distance (0 at the pins). */
double ct__relief_fade(const ct_config *cfg, double shore_hops);

#endif
