/* ct_scatter.h - private declarations of the scatter (scatter.c, the grid and
 * the instances; scatter_kinds.c, the catalogue) and of the libm-free angle
 * the scatter and the sites share, so native and WebAssembly agree on every
 * accepted instance and every reported slope. */
#ifndef CT_SCATTER_H
#define CT_SCATTER_H

#include "surface/ct_ground_query.h"

/* The slope of a ground normal against the unit up, degrees 0..90, from
 * +,-,*,/,sqrt only (ct__asin_small): unlike acos, the same bits natively
 * and in WebAssembly. */
double ct__slope_deg_exact(const double normal[3], const double up[3]);

/* Whether anything a game placed on the ground keeps scatter off the point
 * at dir (unit) whose exact ground is g (dry, on a slope its kind allows).
 * The one place that later ground edits (pads, paths) extend. */
int ct__scatter_excluded(const ct__field *f, const double dir[3], const ct_ground *g);

/* ct_chunk_scatter of a field (chunk NULL: point ground queries). */
ct_result ct__field_scatter(const ct__field *f, const ct_chunk *chunk, ct_key key, ct_scatter *out, char *err,
                            size_t errlen);

#endif
