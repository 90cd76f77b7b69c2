/* ct_edits.h - the edits layer (core/src/layers/edits*.c): an edit set as
 * data (edits_codec.c: the byte form, its checks and its ID), its footprints
 * against chunk areas and the coarse cell index (edits_geom.c), and the
 * height an edit set gives a land sample (edits.c). The layer never samples
 * a world: what an edit reads from the ground (a pad's default height, a
 * path's profile) is sampled by the world layer (world/edits_api.c) and
 * handed in. All distances are chords of the unit sphere times the planet
 * radius: no libm beyond sqrt, so every target gets the same bits. */
#ifndef CT_EDITS_H
#define CT_EDITS_H

#include "base/ct_base.h"

/* The coarse index's cells are the chunks of this LOD (about 39 km on an
 * Earth-sized planet): a chunk at or below it lies in one cell. */
#define CT__EDITS_CELL_LOD 8
/* A chunk keeps up to this many of its edits in its sampler; more, and each
 * sample looks its cell up instead (the same result, a little slower). */
#define CT__EDITS_CHUNK_MAX 64
/* A pad or path never leaves the ground below the local water surface plus
 * this (metres), unless the ground was already lower. */
#define CT__EDITS_FREEBOARD_M 0.5
/* Crater rims fall off over this fraction of the radius outside it. */
#define CT__EDITS_RIM_FALLOFF 0.5
/* Stations of a path's profile: at most this many per path. */
#define CT__EDITS_PATH_STATIONS 1024

typedef struct ct__edit {
    int kind;                 /* ct_edit_kind */
    int has_height;           /* flatten: heightM was given */
    double c[3];              /* unit centre (flatten, crater, brush) */
    double radius_m, a, b;    /* flatten: blend_m, height; crater: depth, rim; brush: delta */
    double foot_m;            /* footprint bound, metres from the centre or the centre line */
    double foot_u;            /* the same in unit-sphere chords (foot_m / radius) */
    double target_m;          /* flatten: the pad height (given or sampled) */
    /* path: points [first, first + count) of ct__edits.pts, segment data
     * from the same first index (count - 1 segments), stations
     * [st_first, st_first + st_count) */
    uint32_t first, count, st_first, st_count;
    double half_m, shoulder_m, grade;   /* path: half width, shoulder, tan(max grade) */
} ct__edit;

typedef struct ct__edits {
    uint64_t id;              /* ct_edit_set_id of the bytes */
    double radius_m;          /* the planet's */
    uint32_t count;
    ct__edit *e;
    double *pts;              /* [3 * points] unit path points */
    double *seg_n;            /* [3 * points] unit normal of segment k (a x b) */
    double *seg_s0;           /* [points] metres along the path at segment k's start */
    uint32_t point_total;
    double *st_s, *st_h;      /* [stations] metres along, profile height */
    uint8_t *st_wet;          /* [stations] 1: the base ground is water there */
    uint32_t station_total;
    /* The cell index: (cell, edit) pairs sorted by cell then edit, so a
     * cell's edits are a run, in edit order. */
    uint32_t *cell_key, *cell_edit;
    size_t cell_pairs;
    double top_abs_m;         /* highest pad or path target */
    double raise_m;           /* sum of what craters' rims and brushes may add */
    uint8_t *bytes;           /* the canonical bytes */
    size_t byte_count;
} ct__edits;

/* ------------------------------------------------------------ edits_codec.c */
/* Decodes and checks an edit set's bytes (planet radius radius_m: footprints
 * must stay under radius_m / 20). On success *out owns a copy of the bytes,
 * its ID and every edit with its footprint; pad targets (a given height) and
 * path segment data are filled, profiles are not (ct__edits_path_*). */
ct_result ct__edits_decode(const uint8_t *buf, size_t len, double radius_m, ct__edits **out, char *err,
                           size_t errlen);
void ct__edits_free(ct__edits *E);
/* The 64-bit ID of an edit set's bytes (never 0 for a non-empty set). */
uint64_t ct__edits_id(const uint8_t *buf, size_t len);

/* ------------------------------------------------------------- edits_geom.c */
/* 1 when edit e's footprint reaches the closed area of chunk (face, lod, x,
 * y) with its positive border samples, with a millimetre of slack (so it may
 * list a chunk the footprint misses by less than that, never miss one). */
int ct__edit_reaches(const ct__edits *E, const ct__edit *e, int face, int lod, uint32_t x, uint32_t y);
/* Calls fn(ctx, face, x, y) for every chunk of lod that e reaches (each
 * once, in no promised order); stops and returns nonzero when fn does. */
typedef int (*ct__edit_key_fn)(void *ctx, int face, uint32_t x, uint32_t y);
int ct__edit_keys(const ct__edits *E, const ct__edit *e, int lod, ct__edit_key_fn fn, void *ctx);
/* Builds the cell index (allocates; CT_ERR_MEMORY). */
ct_result ct__edits_index(ct__edits *E, char *err, size_t errlen);
/* The edits of the cell that holds unit direction p (a run of indices). */
void ct__edits_cell_of(const ct__edits *E, const double p[3], const uint32_t **ids, uint32_t *n);
/* The edits that reach chunk key, for its sampler: 0 when none (the chunk is
 * untouched), else 1 with *ids / *n the edits to run per sample (buf when
 * they fit in CT__EDITS_CHUNK_MAX, a cell run otherwise), or *ids NULL: look
 * each sample's cell up (chunks coarser than the cell LOD). */
int ct__edits_chunk(const ct__edits *E, ct_key key, uint32_t buf[CT__EDITS_CHUNK_MAX], const uint32_t **ids,
                    uint32_t *n);
/* Path helpers for the world layer: the position (unit direction) of
 * station k of e, and the station count (set at decode). */
void ct__edit_station_dir(const ct__edits *E, const ct__edit *e, uint32_t k, double out[3]);

/* ------------------------------------------------------------------ edits.c */
/* Finishes a path's profile from its stations' base ground (st_h, st_wet
 * filled by the caller): water stations bridged linearly, then the grade
 * limited both ways. */
void ct__edit_path_profile(ct__edits *E, ct__edit *e);
/* The edited height of a land sample at canonical unit direction p, base
 * height h_m, local water reference ref_m (the shore level the sampler
 * measures heights above). ids NULL: p's cell. */
double ct__edits_height(const ct__edits *E, const uint32_t *ids, uint32_t n, const double p[3], double h_m,
                        double ref_m);
/* A bound no edited ground exceeds, given one for the base world. */
double ct__edits_top(const ct__edits *E, double base_top_m);
/* 1 when unit direction p lies on a pad's or a path's footprint (where
 * placement keeps off: the flat of a pad with its blend, a path with its
 * shoulders). */
int ct__edits_excludes(const ct__edits *E, const double p[3]);

#endif
