/* ct_coast.h - private interface of coast.c, the sub-grid coast layer used
 * by the sampler (sample.c). */
#ifndef CT_COAST_H
#define CT_COAST_H

#include "base/ct_base.h"

/* 1 when the layer is on (coast_fractal > 0 or shore_ramp_m > 0). */
int ct__coast_on(const ct_config *cfg);
/* Octaves of the coast fBm: from coast_fractal_frequency to about two sample
 * steps at surface_lod. */
int ct__coast_octaves(const ct_config *cfg);
/* Coast roughness: the four region profiles' roughness blended by the region
 * weights at full strength (whatever region_strength is). */
double ct__coast_roughness(const ct_config *cfg, const double rw[4]);
/* What the shore coordinate needs from the config alone, computed once per
 * sampler: the seed, the octave count, and the amplitude sum and sum of
 * squares. */
typedef struct ct__coast_prep {
    const ct_config *cfg;
    uint32_t seed;
    int octaves;
    double norm, sumsq;
} ct__coast_prep;
void ct__coast_prepare(const ct_config *cfg, ct__coast_prep *p);
/* Refined shore coordinate S' of a direction in a macro triangle whose water
 * corners carry interpolation weight wet (0 < wet < 1): water where S' <= 0.
 * Exact where it matters: the value is only cut short when it is certainly
 * below 0 or certainly saturates the ramp. */
double ct__coast_shore_at(const ct__coast_prep *p, const double dir[3], double wet, double roughness);
/* ct__coast_shore_at at four directions (12 doubles) where want[k] is set,
 * out[k] bit for bit the scalar result; the octaves of the lanes still
 * undecided run four at a time (ct__noise3_fast_x4), through memo[i] for
 * octave i when memo is not NULL (CT__COAST_MAX_OCTAVES entries: a chunk's
 * rows stay in the coarse octaves' cells). */
#define CT__COAST_MAX_OCTAVES 12
void ct__coast_shore_x4(const ct__coast_prep *p, ct__lattice_memo *memo, const double dir[12], const double wet[4],
                        const double roughness[4], const int want[4], double out[4]);
/* Land ramp in [0,1] from S' (0 at the shore, 1 a few km inland). */
double ct__coast_ramp(double shore);

#endif
