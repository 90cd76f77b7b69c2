/* ct_ground.h - private declarations of the fine-relief layer (ground.c):
 * relief below the ranges' smallest ridges, down to about four samples of the
 * world's surface_lod, evaluated per sample on the unit direction. */
#ifndef CT_GROUND_H
#define CT_GROUND_H

#include "ct_internal.h"

/* Most octaves the layer can run (surface_lod 16 with ground_from_lod 7 runs
 * 11). */
#define CT__GROUND_MAX_OCTAVES 12

/* What is constant per world: the octave count (a function of surface_lod and
 * ground_from_lod only, never of the chunk LOD asked for, so every LOD samples
 * the same field), the octave frequencies and seeds. */
typedef struct ct__ground_prep {
    int octaves;                              /* 0: the layer does nothing */
    double freq[CT__GROUND_MAX_OCTAVES];      /* noise cells per unit-sphere radian */
    double amp_m[CT__GROUND_MAX_OCTAVES];     /* nominal amplitude of each octave (m) */
    uint32_t seed[CT__GROUND_MAX_OCTAVES];
    double radius_m, gully, dunes, bound_m;
    int dune_from, dune_to;                   /* octaves [from, to) carry dunes */
} ct__ground_prep;

/* What the sample knows before the layer runs. */
typedef struct ct__ground_in {
    double above_m;    /* land height above its shore reference after detail and ranges (m) */
    double grad[3];    /* tangent gradient of the coarser field (macro + ranges), m per m */
    double moisture;   /* the field's moisture, about 0..1, before the shore bonus */
} ct__ground_in;

/* The stripe phases (ground_phase.c): [k] = (cos, sin) of 2 pi k / 256. */
extern const double ct__ground_phase[256][2];

/* Fills *p; p->octaves is 0 when the layer is off for this config (then
 * ct__ground_relief is never called). */
void ct__ground_prepare(const ct_config *cfg, ct__ground_prep *p);

/* Fine relief at a canonical unit direction: gullies and spurs that follow
 * the coarser field's slope downhill, rock ribs on steep ground, rolling
 * plains, dunes on dry land. Bound: |result| <= p->bound_m (the most it can
 * move a height, metres) and |result| < in->above_m / 2, so land stays land
 * and the shoreline never moves; exactly 0 where in->above_m <= 0 (water,
 * sea beds). */
double ct__ground_relief(const ct__ground_prep *p, const double dir[3], const ct__ground_in *in);

/* ct__ground_relief at four directions (x, y, z of each, 12 doubles), bit for
 * bit: out[k] is ct__ground_relief(p, dir + 3 k, in + k), the four run in
 * vector lanes. */
void ct__ground_relief_x4(const ct__ground_prep *p, const double dir[12], const ct__ground_in in[4], double out[4]);

#endif
