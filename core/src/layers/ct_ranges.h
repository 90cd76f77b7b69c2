/* ct_ranges.h - private declarations of the ranges layer (ranges.c): mountain
 * belts on the macro graph, the macro ceiling applied before the slope
 * projection, and the per-sample ridge-and-valley relief with its analytic
 * gradient (the slope input of the biome rules). */
#ifndef CT_RANGES_H
#define CT_RANGES_H

#include "solve/ct_solve.h"

/* Non-zero when the world needs belt weights (ranges or the macro ceiling). */
int ct__ranges_need_belts(const ct_config *cfg);
/* Mountain-belt weight in [0,1] at a unit direction (world-build noise). */
double ct__range_belt(const ct_config *cfg, const double dir[3]);
/* Fills w->belt_v for every vertex if the config needs it and it is not
 * there yet (snapshot load). */
ct_result ct__ranges_derive(ct__field *w, char *err, size_t errlen);
/* Macro land height after the soft ceiling: base + c x / (c + x) for the
 * height x above base, c from macro_ceiling_m raised by the belt and varied
 * between continents. Returns h unchanged when the ceiling is off. memo:
 * NULL or one kept over a vertex loop (same bits). */
double ct__range_ceiling(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double belt, double base,
                         double h);

/* Per-sample relief of the ridge-and-valley noise on land: above_m is the
 * macro height above the shore reference (> 0 on land), belt the
 * interpolated belt weight. The result stays above -above_m / 2, so it never
 * takes land down to its water. grad (may be NULL) receives the tangent
 * gradient of the result in metres per metre, amplitude treated as constant. */
double ct__ranges_at(const ct_config *cfg, const double dir[3], double belt, double above_m,
                     double grad[3]);
/* Non-zero when ct__ranges_at can be non-zero for this config. */
int ct__ranges_on(const ct_config *cfg);
/* Lattice memos of the ranges' noise streams (ct__lattice_memo): one per ridge
 * octave, the belt field's two octaves, the fold jitter. */
#define CT__RANGES_MEMO_RIDGES 8
#define CT__RANGES_MEMO_BELT 8
#define CT__RANGES_MEMO_FOLD 10
#define CT__RANGES_MEMO 11
/* ct__ranges_at at four directions (12 doubles): out[k] and grad + 3k (when
 * grad is not NULL) are ct__ranges_at's bits for lane k; lanes that need the
 * ridged noise run it two at a time in vector lanes. memo: CT__RANGES_MEMO
 * entries zeroed before a chunk's first call and kept across its calls, or
 * NULL; the results do not depend on it. */
void ct__ranges_at_x4(const ct_config *cfg, ct__lattice_memo *memo, const double dir[12], const double belt[4],
                      const double above_m[4], double out[4], double grad[12]);

/* Tangent gradient (m per m) of the bilinear macro interpolation in a cell
 * with corner directions d[0..3] (unit vectors, corners (i,j) (i+1,j)
 * (i,j+1) (i+1,j+1)), in two steps: what depends on the cell's corner
 * directions only (once per cell), then, for corner heights h[0..3], the
 * height gradient at (s,t). */
typedef struct ct__macro_grad_prep {
    double es[3], et[3], a11, a12, a22, det;
} ct__macro_grad_prep;
void ct__macro_gradient_prepare(const double *d[4], double radius_m, ct__macro_grad_prep *p);
void ct__macro_gradient_at(const ct__macro_grad_prep *p, const double h[4], double s, double t, double grad[3]);


#endif
