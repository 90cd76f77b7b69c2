/* ct_world.h - the world layer (core/src/world): struct ct_world, the world
 * build, the derived tables, world files and the public queries that take a
 * world. The layers below never see a ct_world: they receive its frozen
 * field (ct__field, ct_solve.h) or the values they need. */
#ifndef CT_WORLD_H
#define CT_WORLD_H

#include "solve/ct_solve.h"

/* A world: the frozen field that every query reads, and what only the world
 * layer keeps beside it. */
struct ct_world {
    ct__field field;
    ct_palette palette;         /* default palette (CLI/JS may pass others) */
    ct_world_stats stats;
    /* An edited world (edits_api.c): field is a copy of the base's field
     * struct, its tables shared read-only, with field.edits set; edits is
     * owned, and so is owned_base (a snapshot read with edits), else NULL. */
    const ct_world *base;
    struct ct__edits *edits;
    ct_world *owned_base;
};

/* Frees an edited world's own parts (edits_api.c); 1 when world was edited
 * (its field tables belong to the base and are not freed). */
int ct__world_free_edits(ct_world *world);
/* Snapshot section of an edited world's set (edits_api.c): its size (0 when
 * unedited), the writer, and the reader, which makes *io an edited world
 * that owns the base it was given. */
size_t ct__edits_section_size(const ct_world *world);
void ct__edits_section_write(const ct_world *world, uint8_t *buf);
ct_result ct__edits_section_read(ct_world **io, const uint8_t *buf, size_t len, char *err, size_t errlen);

/* Everything a world recomputes from its hashed data (world_derive.c):
 * region weights, shore distances, field statistics, then the sampling
 * tables and the rivers. Build and snapshot reader both call it once the
 * field is final. A new per-vertex table that shapes samples belongs here
 * (or in the generation hash), never in the snapshot. Tables already present
 * (the build's own region weights and shore distances) are kept; a loaded
 * world has none and gets them all. graph NULL: derive builds its own. */
ct_result ct__world_derive(ct_world *w, const ct__graph *graph, char *err, size_t errlen);
/* Heap bytes a world holds (ct_world_stats.bytes_held), built or loaded
 * (world_derive.c). */
size_t ct__world_bytes(const ct_world *w);
/* Generation ID from algorithm version, every knob and the solved field. */
uint64_t ct__world_generation(const ct_world *w);

/* Optional copy of the final land walk for tests (collisions, provenance). */
typedef struct ct__build_trace {
    ct__walk land2;         /* filled when the build ran walks; caller frees */
    double *h_pass1;        /* [V] first-pass heights (lakes filled) */
    double *level_b;        /* [bodies] final water levels */
    uint32_t body_count;
} ct__build_trace;

ct_result ct__world_build_traced(const ct_config *cfg, const ct_build_options *opts,
                                 ct__build_trace *trace, ct_world **out,
                                 char *err, size_t errlen);
void ct__build_trace_free(ct__build_trace *t);

#endif
