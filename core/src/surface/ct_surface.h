/* ct_surface.h - the surface layer (core/src/surface: sample.c, biome.c,
 * palette.c, chunk.c, io_chunk.c, mesh.c): the point sampler of a world's
 * frozen field (ct__field) used by chunks, meshes and the world's queries,
 * the biome classifier, the chunk digest and little-endian byte helpers. */
#ifndef CT_SURFACE_H
#define CT_SURFACE_H

#include "base/ct_base.h"
#include "layers/ct_coast.h"
#include "layers/ct_ranges.h"
#include "layers/ct_fine_relief.h"
#include "layers/ct_rivers.h"
#include "layers/ct_streams.h"
#include "layers/ct_edits.h"

/* Sampling without validation. need_moisture = 0 lets chunk generation skip
 * the moisture noise on water samples (their biome does not read it); every
 * field a chunk stores is identical either way. */
void ct__sample_dir(const ct__field *w, const double dir[3], int need_moisture, ct_sample *out);
/* ct_world_sample of a world's field (validates dir; w NULL is refused). */
ct_result ct__field_sample(const ct__field *w, const double dir[3], ct_sample *out, char *err, size_t errlen);

/* A macro cell's corners as the sampler uses them (sample.c): indices,
 * bodies, the interpolation split and every field value, widened to double. */
typedef struct ct__corners {
    int face;                /* -1: nothing cached */
    uint32_t i, j;
    uint32_t idx[4];         /* (i,j) (i+1,j) (i,j+1) (i+1,j+1) */
    int32_t body[4];         /* water bodies (-1 land) */
    int split, any_wet;
    double h[4], level[4], own[4], mask[4], shore[4], moist[4], belt[4];
    double rw[4][CT_REGION_COUNT];
    int pin[4];              /* shore pin (land next to water) */
    int sealed;              /* 1: every corner is water with its bed at or below its level (sample.c) */
    ct__macro_grad_prep grad; /* the cell's part of the macro gradient */
    size_t river_cell;       /* the cell's index in the river lists */
    int river;               /* 1: a river segment is within reach of the cell */
} ct__corners;

/* A sampler: ct__sample_dir for many directions, with what is constant per
 * world (seeds, layer switches, coast octave sums) prepared once and the
 * last macro cell's corners cached. Results are identical to
 * ct__sample_dir's, bit for bit, in any order of calls. want_mask = 0 skips
 * the land mask (ct_sample.mask), which chunks do not store. */
#define CT__SAMPLER_SLOTS 6   /* a cached cell per lane of ct__sampler_run4, one for ct__sampler_run, one for
                                 the fine relief's coarse inputs (ct__sampler_coarse) */
#define CT__SLOT_SCALAR 4
#define CT__SLOT_COARSE 5
/* Work that a bound proves cannot change any output bit, skipped (sample.c,
 * each with its proof beside it). The sampler counts what it skipped when
 * skip_counts is not NULL; skips = 0 runs everything (tests/c/test_skips.c
 * compares the two, bit for bit). */
enum {
    CT__SKIP_SEALED = 0,      /* groups of four samples in sealed water cells: land layers skipped */
    CT__SKIP_RIVER,           /* river segment distances skipped (river_sample.c, ct__river_skip) */
    CT__SKIP_COUNT
};
typedef struct ct__sampler {
    const ct__field *w;
    ct__corners cell[CT__SAMPLER_SLOTS];
    int want_mask, own_levels, coast_on, ranges_on, want_slope;
    int want_grad;            /* the coarse gradient: biome slope or fine relief */
    uint32_t detail_seed;
    uint32_t edge_seed;       /* the biome edge noise (biome_edges.c) */
    int edge_octaves;         /* its octaves; 0: biome_edges is 0 */
    ct__coast_prep coast;
    ct__ground_prep ground;   /* ground.octaves 0: no fine relief */
    const ct__rivers *rivers; /* NULL: the rivers layer is off */
    ct__lattice_memo ranges_memo[CT__RANGES_MEMO];   /* ct__ranges_at_x4's lattice memos */
    ct__lattice_memo detail_memo[CT__FAST_MEMO];     /* the detail fBm's */
    ct__lattice_memo coast_memo[CT__COAST_MAX_OCTAVES];   /* the shore noise's (ct__coast_shore_x4) */
    ct__lattice_memo edge_memo[CT__FAST_MEMO];       /* the biome edge noise's */
    int skips;                /* 1 (ct__sampler_init's default): bound-proven skips on */
    uint64_t *skip_counts;    /* NULL, or CT__SKIP_COUNT counters of skipped work */
    uint64_t sealed_groups;   /* CT__SKIP_SEALED so far */
    ct__river_memo river_memo[CT__SAMPLER_SLOTS];   /* a lane's river skips (rivers.c) */
    /* A chunk's fine-relief pyramid (NULL: each sample asks ct__ground_point)
     * and the chunk's face, LOD and the node of each lane. */
    ct__gpyr *pyr;
    ct__streams_prep streams;        /* streams.on 0: no streams */
    /* The stream lattice's memo (~235 KB): on the heap, made at the first
     * sample that needs it, so a sampler with streams off allocates nothing;
     * NULL with streams_no_heap 1 after a failed allocation: each sample
     * then reads its links alone (same bits, slower). */
    ct__streams_memo *streams_memo;
    int streams_no_heap;
    int chunk_chain;          /* 1: a chunk whose samples are nodes of every octave */
    int chunk_face, chunk_lod;
    int64_t lane_gx[CT__SAMPLER_SLOTS], lane_gy;
    /* Edits (ct__sampler_init: the field's; a chunk no edit reaches sets
     * NULL): edit_ids / edit_n the edits to run per sample, edit_ids NULL
     * to look each sample's cell up (ct__edits_height). */
    const ct__edits *edits;
    const uint32_t *edit_ids;
    uint32_t edit_n;
    uint32_t edit_buf[CT__EDITS_CHUNK_MAX];
} ct__sampler;
void ct__sampler_init(ct__sampler *sp, const ct__field *w, int want_mask);
/* Frees what a sampler allocated (its streams memo); call it where every
 * sampler's life ends. The sampler may be inited again after. */
void ct__sampler_release(ct__sampler *sp);
/* The streams' height function (ct__streams_height_fn) over a sampler: the
 * ground before fine relief at dir, and its height above its water or shore
 * reference in *above_m. ctx is the ct__sampler. */
double ct__sampler_stream_height(void *ctx, const double dir[3], double *above_m);
/* The fine relief's coarse input at a canonical direction (ct__gcoarse_fn,
 * ctx the sampler): the gradient of macro + ranges and the moisture field,
 * the same bits the sampler hands the layer at that direction. */
void ct__sampler_coarse(void *ctx, const double dir[3], ct__gcoarse *out);
void ct__sampler_run(ct__sampler *sp, const double dir[3], int need_moisture, ct_sample *out);
/* Adds what the sampler skipped to sp->skip_counts (when not NULL). */
void ct__sampler_finish(ct__sampler *sp);
/* Sea or lake water at four directions (12 doubles): wet[k] is
 * ct__sampler_run's has_water (rivers aside), level_m[k] that water's level,
 * without the fine relief, which never moves a sample across the shore
 * (ct__detail_amp's weight keeps it under half the height above the shore,
 * the ranges' bound the same). The shore noise runs four lanes at a time. */
void ct__sampler_water4(ct__sampler *sp, const double dir[12], double level_m[4], int wet[4]);
/* Four directions (x, y, z of each, 12 doubles): four ct__sampler_run calls'
 * results, bit for bit, with the detail fBm run four lanes at a time
 * (ct__fbm3_fast_x4n). */
void ct__sampler_run4(ct__sampler *sp, const double dir[12], int need_moisture, ct_sample out[4]);

/* ct_mesh_build of a world's field (mesh.c). */
ct_result ct__mesh_build(const ct__field *world, const ct_chunk *chunk, const ct_mesh_options *opts,
                         const ct_palette *palette, ct_mesh *mesh, char *err, size_t errlen);

/* ct_chunk_generate (which runs with the skips on) with the skips on or off,
 * adding what was skipped to counts (CT__SKIP_COUNT entries) when not NULL:
 * the tests' and benchmarks' way to run both sides. */
ct_result ct__chunk_generate_with(const ct__field *world, ct_key key, ct_chunk *chunk, int skips, uint64_t *counts,
                                  char *err, size_t errlen);
/* ct__sample_dir with the skips on or off (a fresh sampler: its river memo
 * starts empty, so only the sealed skip's conditions can apply, and those
 * need need_moisture 0 and four lanes). */
void ct__sample_dir_with(const ct__field *w, const double dir[3], int need_moisture, int skips, uint64_t *counts,
                         ct_sample *out);

/* ct_chunk_streams of a world's field (streams_chunk.c). */
ct_result ct__field_streams(const ct__field *f, ct_key key, ct_streams *out, char *err, size_t errlen);

/* Inputs of the biome rules, all derived from the shared field. */
typedef struct ct__biome_in {
    int has_water;
    double height_m;        /* bed with fine noise */
    double above_shore_m;   /* bed minus the interpolated shore reference */
    double depth_m;         /* water surface minus bed (water samples) */
    double shore_hops;      /* interpolated hop distance to the water boundary */
    double moisture;        /* 0..1 */
    double latitude2;       /* y^2 of the unit direction (Y is the pole axis) */
    double jitter;          /* smooth noise in about [-1,1] for shading */
    double slope;           /* |gradient| of macro + ranges (m per m); 0 when
                               rock_slope is 0 (ranges.c) */
    /* Read only with biome_edges > 0 (biome_edges.c): */
    double edge;            /* edge noise in [-1,1], world-anchored, 0 on water */
    double pole_slope;      /* the slope's pole-facing part (m per m; > 0:
                               the ground falls towards the nearer pole) */
} ct__biome_in;

/* Biome (ct_biome) and shade 0..4 (dark to light) for one sample. */
int ct__biome_classify(const ct_config *cfg, const ct__biome_in *in, int *shade);
/* The rules with biome_edges > 0 (biome_edges.c), and the edge noise's
 * octaves for a config (0 with the knob at 0) and its value at a canonical
 * direction. */
int ct__biome_shade(double q);   /* q in about [0,1] -> shade 0..4 */
int ct__biome_lowland(double m, double j, int *shade);   /* desert, grass or forest by moisture */
int ct__biome_classify_edges(const ct_config *cfg, const ct__biome_in *in, int *shade);
int ct__biome_edge_octaves(const ct_config *cfg);
double ct__biome_edge_noise(uint32_t seed, int octaves, const double dir[3]);
/* The same at four packed directions (x, y, z of each), where want[k] (0:
 * out[k] is 0), through a lattice memo per octave: bit for bit the scalar. */
void ct__biome_edge_noise4(uint32_t seed, int octaves, ct__lattice_memo *memo, const double p[12], const int want[4],
                           double out[4]);
/* The fixed biome -> ct_material map of the legacy renderer. */
int ct__biome_material(int biome);

/* ------------------------------------------------ little-endian byte order */
static inline void ct__put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void ct__put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void ct__put_u64(uint8_t *p, uint64_t v)
{
    ct__put_u32(p, (uint32_t)v);
    ct__put_u32(p + 4, (uint32_t)(v >> 32));
}
static inline uint16_t ct__get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t ct__get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t ct__get_u64(const uint8_t *p)
{
    return (uint64_t)ct__get_u32(p) | ((uint64_t)ct__get_u32(p + 4) << 32);
}
/* IEEE doubles and floats travel as their bit patterns. */
void ct__put_f64(uint8_t *p, double v);
void ct__put_f32(uint8_t *p, float v);
double ct__get_f64(const uint8_t *p);
float ct__get_f32(const uint8_t *p);

/* Finishes a chunk digest: records_state (FNV-1a over the six-byte records
 * from CT_FNV1A64_INIT) continued over the .ctc header bytes 0..51, so the
 * digest vouches for key, planet, generation, quantum and clipped count. */
uint64_t ct__chunk_digest_finish(const ct_chunk *chunk, uint64_t records_state);
/* The header fields the digest covers, for readers that check a digest
 * before they touch the caller's chunk. */
typedef struct ct__chunk_fields {
    ct_key key;
    uint32_t planet_id;
    uint64_t generation;
    double height_quantum_m;
    uint32_t clipped;
    uint64_t edit_set;    /* 0: an untouched chunk, digested as version 2 */
} ct__chunk_fields;
uint64_t ct__digest_finish_fields(const ct__chunk_fields *h, uint64_t records_state);
/* The 257x257 six-byte records shared by .ctc and .ctt files: write them,
 * check their biome and palette ranges (errors name `what`), read them. */
void ct__records_put(const ct_chunk *chunk, uint8_t *rec);
ct_result ct__records_check(const uint8_t *rec, const char *what, char *err, size_t errlen);
void ct__records_get(const uint8_t *rec, ct_chunk *out);

#endif
