/* ct_fine_relief.h - private declarations of the fine-relief layer: the octaves
 * at lattice nodes (fine_relief.c) and the pyramid that places them on the face
 * lattices and interpolates between nodes (relief_pyramid.c). */
#ifndef CT_FINE_RELIEF_H
#define CT_FINE_RELIEF_H

#include "base/ct_base.h"

/* Most octaves the layer can run (surface_lod 16 with ground_from_lod 7 runs
 * 11). */
#define CT__GROUND_MAX_OCTAVES 12

/* What is constant per world: the octave count (a function of surface_lod and
 * ground_from_lod only, never of the chunk LOD asked for, so every LOD samples
 * the same field), the octave frequencies and seeds. Octave k lives on the
 * lattice of level[k] (the sample grid of that LOD on each face), two lattice
 * nodes to its noise cell, so the finest octave's level is surface_lod - 1
 * and a chunk of surface_lod runs no octave at its own new samples. */
typedef struct ct__ground_prep {
    int octaves;                              /* 0: the layer does nothing */
    int level[CT__GROUND_MAX_OCTAVES];        /* the lattice level each octave lives on */
    int base, top;                            /* the first and the last octave's levels */
    int lod;                                  /* surface_lod: the finest samples */
    double inv_n[CT_MAX_LOD + 1];             /* 1 / (256 x 2^level): a level's lattice units per face side */
    double axes[6][2][3];                     /* each face's u and v axes (ct__face_axes) */
    double freq[CT__GROUND_MAX_OCTAVES];      /* noise cells per unit-sphere radian */
    double amp_m[CT__GROUND_MAX_OCTAVES];     /* nominal amplitude of each octave (m) */
    uint32_t seed[CT__GROUND_MAX_OCTAVES];
    double radius_m, gully, dunes, bound_m;
    double drain;                             /* ground_drain: 0 off */
    int dune_from, dune_to;                   /* octaves [from, to) carry dunes */
} ct__ground_prep;

/* The relief at a lattice node and its derivatives per lattice unit of the
 * node's level (m): the data of a bicubic Hermite patch corner. */
typedef struct ct__gnode {
    double f, fx, fy, fxy;
} ct__gnode;

/* A node's place: its direction, the lattice axes in metres per lattice
 * unit of its level (tangent), and the share of its slope along x and along
 * y that steers its octaves (ct__ground_keep: 0 on its face's boundary). */
typedef struct ct__gframe {
    double dir[3], tx[3], ty[3];
    double ig[3];             /* the axes' inverse Gram matrix: xx, xy, yy */
    double keep_x, keep_y;
} ct__gframe;

/* Fills fr->ig from fr->tx and fr->ty. */
void ct__ground_frame_gram(ct__gframe *fr);

/* The steering share of a node at lattice coordinate x of level `level`. */
double ct__ground_keep(int64_t x, int level);

/* What the coarser field gives a node: the tangent gradient of macro +
 * ranges (m per m) the gullies follow, and the moisture the dunes read. */
typedef struct ct__gcoarse {
    double grad[3];
    double moisture;
} ct__gcoarse;

/* The stripe phases (relief_phase.c): [k] = (cos, sin) of 2 pi k / 256. */
extern const double ct__ground_phase[256][2];

/* Fills *p; p->octaves is 0 when the layer is off for this config. */
void ct__ground_prepare(const ct_config *cfg, ct__ground_prep *p);

/* The frame of node (x, y) of face at lattice level `level`. */
void ct__ground_frame(const ct__ground_prep *p, int face, int level, int64_t x, int64_t y, ct__gframe *fr);

/* Adds octave k at a node to *s: gullies and spurs steered downhill by
 * c->grad plus the slope of s (the coarser octaves), rock ribs on steep
 * ground, dunes where dry. */
void ct__ground_add_octave(const ct__ground_prep *p, int k, const ct__gframe *fr, const ct__gcoarse *c, ct__gnode *s);

/* Adds the octaves that live on level e (ct__ground_add_octave each). */
void ct__ground_level_octaves(const ct__ground_prep *p, int e, const ct__gframe *fr, const ct__gcoarse *c,
                              ct__gnode *s);

/* ct__ground_level_octaves at two nodes of level e, bit for bit, the
 * octaves' arithmetic in vector lanes. */
void ct__ground_level_octaves_x2(const ct__ground_prep *p, int e, const ct__gframe fr[2], const ct__gcoarse c[2],
                                 ct__gnode s[2]);

/* The relief a sample gets from the pyramid's value: clamped to p->bound_m
 * and faded towards the shore as above / (above + 2 bound), so |result| <
 * above / 2 (land stays land, the shoreline never moves); exactly 0 where
 * above_m <= 0 (water, sea beds). */
double ct__ground_finish(const ct__ground_prep *p, double relief, double above_m);

/* ------------------------------------------------------------- the pyramid
 * The field: at the nodes of level base (octave 0's lattice) the relief is
 * octave 0, steered by the coarse input there. At each finer level e a node
 * takes the bicubic Hermite patch of level e - 1 around it (its own value
 * where it is a coarser node too) and adds the octaves of level e, steered by
 * the coarse input (bilinear between level-base nodes) plus the patch's
 * slope. So a sample runs octave k only at the nodes of level[k] it needs,
 * not at every sample: a chunk of surface_lod runs about 1/3 octave
 * evaluation per sample instead of all of them. Every value is a function
 * of (face, level, node) alone, so chunks, their borders and
 * ct_world_sample agree bit for bit. */

/* Gives the coarse input at a canonical direction. */
typedef void (*ct__gcoarse_fn)(void *ctx, const double dir[3], ct__gcoarse *out);

/* Rows of all levels share one pool: a chunk's finest stored level has 129
 * nodes a row, each coarser about half as many (at least 2), so two rows of
 * every level of a surface_lod 16 world fit in 2 x 330 nodes (about 22 KB
 * with the flags; the coarse inputs add 8 KB). */
#define CT__GPYR_ROW 132    /* most nodes in a row of one level */
#define CT__GPYR_POOL 330   /* nodes in one row of every level together */
typedef struct ct__gpyr_level {
    int64_t x0, x1, y0, y1;                   /* the level's box of nodes */
    int64_t row_id[2];                        /* which row each slot holds (by parity), -1 none */
    ct__gnode *node[2];                       /* the slots' rows, in the pool */
    uint8_t *done[2];
    int width;                                /* x1 - x0 + 1 */
} ct__gpyr_level;

typedef struct ct__gpyr {
    const ct__ground_prep *p;
    int face, top;                            /* the box's level */
    ct__gcoarse_fn coarse_fn;
    void *ctx;
    ct__gpyr_level level[CT_MAX_LOD + 1];     /* [e - base] for e in [base, the box's level) */
    ct__gnode pool[2][CT__GPYR_POOL];
    uint8_t pool_done[2][CT__GPYR_POOL];
    ct__gcoarse coarse[2][CT__GPYR_ROW];      /* coarse inputs of level base, rows as level[0]'s */
    uint8_t cdone[2][CT__GPYR_ROW];
    ct__gcoarse cell[4];                      /* the corners of base cell (cell_x, cell_y) */
    int64_t cell_x, cell_y;
    int cell_valid;
} ct__gpyr;

/* A pyramid over the nodes [x0, x1] x [y0, y1] of level top (> p->base) on
 * face; nodes are asked for in rows that never go back by more than one. */
void ct__gpyr_init(ct__gpyr *g, const ct__ground_prep *p, int face, int top, int64_t x0, int64_t x1, int64_t y0,
                   int64_t y1, ct__gcoarse_fn coarse, void *ctx);
/* The relief (before ct__ground_finish) at node (x, y) of level top, all
 * octaves. */
double ct__gpyr_at(ct__gpyr *g, int64_t x, int64_t y);
/* ct__gpyr_at at two nodes of one row, bit for bit, their octaves in
 * vector lanes. */
void ct__gpyr_at2(ct__gpyr *g, const int64_t x[2], int64_t y, double out[2]);
/* The relief at node (x, y) of level `level` <= base (a node of every octave), from
 * its own coarse input: no pyramid needed. */
double ct__ground_chain(const ct__ground_prep *p, int face, int level, int64_t x, int64_t y, const ct__gcoarse *c);
/* ct__ground_chain at two nodes of one row, bit for bit. */
void ct__ground_chain2(const ct__ground_prep *p, int face, int level, const int64_t x[2], int64_t y,
                       const ct__gcoarse c[2], double out[2]);
/* The relief at any canonical direction, on its owner face: the node there
 * when the direction is a sample of surface_lod (to 1e-7 of one, as a chunk
 * makes it), else the bicubic patch of the finest octave's level around it.
 * own is the coarse input at dir itself when the caller has it (else NULL). */
double ct__ground_point(const ct__ground_prep *p, const double dir[3], const ct__gcoarse *own, ct__gcoarse_fn coarse,
                        void *ctx);

#endif
