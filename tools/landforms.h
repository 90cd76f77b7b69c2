/* landforms.h - the landform measurement tool (native half of
 * `npm run landforms`).
 *
 * It measures land the way hydrologists measure a DEM: fill the depressions
 * (priority-flood), route the flow down the steepest of the eight neighbours
 * (D8) on the filled surface, and count. The same grid measure runs on chunks
 * of a world (landforms_chunks.c, public API only) and on a small
 * stream-power landscape grown in the tool itself (landforms_sim.c), which
 * calibrates it: a landscape carved by flowing water to steady state has no
 * pits, no ponding and a drainage-area exponent near 0.5.
 *   - landforms_flow.c: the grid measure (fill, pits, ponding, D8, areas);
 *   - landforms_fit.c: the exceedance curve and the fit of its exponent;
 *   - landforms_sim.c: the calibration landscape;
 *   - landforms_chunks.c: chunk choice and the chunk grids;
 *   - landforms.c: the program (arguments, JSON). */
#ifndef LANDFORMS_H
#define LANDFORMS_H

#include "ct.h"

#include <stddef.h>

#define LF_PIT_DEPTH_M 2.0      /* a closed depression counts as a pit when deeper than this */
#define LF_PONDED_M 0.5         /* a sample is ponded when the fill raises it more than this */
#define LF_BINS 48              /* exceedance thresholds 2^(k/2) sample areas, k = 0..47 */

/* A grid of samples with their tangent steps: sample (i, j) is at index
 * j * nx + i; step (di, dj) from it spans |di a + dj b| metres and it stands
 * for |a x b| square metres of ground (a, b: 3 doubles per sample). */
typedef struct lf_grid {
    int nx, ny;
    double *h;                  /* surface height, metres (water surface where there is water) */
    double *a, *b;              /* tangent steps per +1 i and +1 j, metres */
} lf_grid;

/* What one grid gives; the fields add up over grids (lf_result_add). */
typedef struct lf_result {
    int grids;
    double samples, area_m2;
    double pits;                /* distinct depressions deeper than LF_PIT_DEPTH_M */
    double pits_any;            /* distinct depressions of any depth */
    double ponded;              /* samples raised more than LF_PONDED_M by the fill */
    double exceed[LF_BINS];     /* samples with A >= 2^(k/2) sample areas */
    double channel_m;           /* D8 steps of samples draining at least channel_m2 */
    double max_depth_m;         /* deepest depression */
} lf_result;

typedef struct lf_opts {
    double channel_m2;          /* channel-initiation area (1e6: 1 km2) */
} lf_opts;

/* Fills, routes and counts one grid, adding into *acc. 0 on allocation failure. */
int lf_measure(const lf_grid *g, const lf_opts *o, lf_result *acc);
void lf_result_add(lf_result *acc, const lf_result *r);

/* landforms_fit.c: beta of P(A >= a) ~ a^-beta, least squares of ln P against
 * ln a over the thresholds inside [lo, hi] sample areas. NaN when fewer than
 * three thresholds have samples. */
double lf_beta(const lf_result *r, double lo, double hi);
double lf_bin_area(int k);      /* threshold k in sample areas: 2^(k/2) */

/* landforms_sim.c: uplift against stream-power erosion K A^m S (m = 0.5,
 * n = 1) on an n x n grid with all four edges at base level, from a
 * deterministic rough start, by the implicit scheme of Braun and Willett
 * (2013) until the heights stop changing. Fills g (caller frees with
 * lf_grid_free). Returns the number of steps taken, 0 on failure. */
typedef struct lf_sim_opts {
    int n;                      /* grid edge, samples (257) */
    double dx_m;                /* sample spacing */
    double uplift_m_per_yr, k_per_yr, dt_yr;
    int max_steps;
    unsigned seed;
} lf_sim_opts;
void lf_sim_defaults(lf_sim_opts *o);
int lf_sim_run(const lf_sim_opts *o, lf_grid *g);

int lf_grid_alloc(lf_grid *g, int nx, int ny);
void lf_grid_free(lf_grid *g);

/* landforms_chunks.c: whole chunks at lod with no sea on them, chosen from a
 * fixed hash sequence of keys (the same keys for every world), measured into
 * *acc. Stops after want chunks or max_tries keys; *keys_out (may be NULL)
 * receives the keys measured. */
typedef struct lf_chunk_opts {
    int lod, want, max_tries;
    lf_opts measure;
} lf_chunk_opts;
typedef struct lf_chunk_report {
    ct_key key;
    lf_result r;
} lf_chunk_report;
int lf_chunks_run(const ct_world *w, const lf_chunk_opts *o, lf_result *acc,
                  lf_chunk_report *each, int *count, int *tries);
/* The grid of one chunk (all 257 x 257 samples): float heights, water
 * surface where there is water; *sea set when any sample is sea. */
int lf_chunk_grid(const ct_world *w, const ct_chunk *c, lf_grid *g, int *sea);

#endif
