/* landforms_sim.c - the calibration landscape: uplift against stream-power
 * erosion to steady state.
 *
 *   dh/dt = U - K A^m S^n,  m = 0.5, n = 1,
 *
 * on an n x n grid whose four edges are held at base level, grown from a
 * rough start (deterministic hash noise under 1 m). Each step routes D8 down
 * the steepest neighbour, orders the cells from the outlets upstream, adds up
 * drainage areas, and solves the erosion implicitly along the receivers
 * (Braun and Willett 2013, the FastScape scheme): going upstream,
 *   h_i = (h_i + U dt + F h_r) / (1 + F),  F = K dt A_i^m / L_ir,
 * which is stable for any dt. A cell with no lower neighbour only rises, so
 * pits fill by uplift. The run stops when no height moves by more than a
 * millionth of a step's uplift. Such a landscape is carved only by flowing
 * water, so the tool must find no pits and no ponding on it, and an
 * exponent near 0.5. */
#include "landforms.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LF_SIM_SALT 0x51a7e5edu

void lf_sim_defaults(lf_sim_opts *o)
{
    o->n = 257;
    o->dx_m = 100.0;
    o->uplift_m_per_yr = 1e-3;
    o->k_per_yr = 2e-5;
    o->dt_yr = 2e5;
    o->max_steps = 4000;
    o->seed = 1;
}

static unsigned lf_hash(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static const int LF_SDI[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int LF_SDJ[8] = {0, 1, 1, 1, 0, -1, -1, -1};

int lf_sim_run(const lf_sim_opts *o, lf_grid *g)
{
    int n = o->n, cells = n * n, c, step, done = 0;
    int *recv = (int *)malloc(sizeof *recv * (size_t)cells);
    int *stack = (int *)malloc(sizeof *stack * (size_t)cells);
    int *first = (int *)malloc(sizeof *first * (size_t)(cells + 1));
    int *donors = (int *)malloc(sizeof *donors * (size_t)cells);
    double *len = (double *)malloc(sizeof *len * (size_t)cells);
    double *area = (double *)malloc(sizeof *area * (size_t)cells);
    double cell = o->dx_m * o->dx_m, rise = o->uplift_m_per_yr * o->dt_yr;
    g->h = g->a = g->b = NULL;
    if (!recv || !stack || !first || !donors || !len || !area || !lf_grid_alloc(g, n, n)) goto end;
    for (c = 0; c < cells; c++) {
        int i = c % n, j = c / n;
        double *a = g->a + 3 * (size_t)c, *b = g->b + 3 * (size_t)c;
        a[0] = o->dx_m; a[1] = 0.0; a[2] = 0.0;
        b[0] = 0.0; b[1] = o->dx_m; b[2] = 0.0;
        g->h[c] = (i == 0 || j == 0 || i == n - 1 || j == n - 1) ? 0.0
                  : (double)(lf_hash((unsigned)c ^ o->seed * LF_SIM_SALT) >> 8) / 16777216.0;
    }
    for (step = 1; step <= o->max_steps && !done; step++) {
        int top = 0, k;
        double moved = 0.0;
        /* D8 receivers (edges and pits drain to themselves). */
        for (c = 0; c < cells; c++) {
            int i = c % n, j = c / n, d;
            double best = 0.0;
            recv[c] = c;
            len[c] = o->dx_m;
            if (i == 0 || j == 0 || i == n - 1 || j == n - 1) continue;
            for (d = 0; d < 8; d++) {
                int nb = (j + LF_SDJ[d]) * n + i + LF_SDI[d];
                double l = (LF_SDI[d] && LF_SDJ[d]) ? o->dx_m * 1.4142135623730951 : o->dx_m;
                double s = (g->h[c] - g->h[nb]) / l;
                if (s > best) {
                    best = s;
                    recv[c] = nb;
                    len[c] = l;
                }
            }
        }
        /* Donor lists (counting sort by receiver), then the stack: cells in
         * an order where each comes after its receiver. */
        memset(first, 0, sizeof *first * (size_t)(cells + 1));
        for (c = 0; c < cells; c++) if (recv[c] != c) first[recv[c] + 1]++;
        for (c = 0; c < cells; c++) first[c + 1] += first[c];
        for (c = 0; c < cells; c++) if (recv[c] != c) donors[first[recv[c]]++] = c;
        for (c = cells; c > 0; c--) first[c] = first[c - 1];
        first[0] = 0;
        for (c = 0; c < cells; c++) {
            int head;
            if (recv[c] != c) continue;
            head = top;
            stack[top++] = c;
            while (head < top) {
                int x = stack[head++], e;
                for (e = first[x]; e < first[x + 1]; e++) stack[top++] = donors[e];
            }
        }
        for (c = 0; c < cells; c++) area[c] = cell;
        for (k = cells - 1; k >= 0; k--) {
            int x = stack[k];
            if (recv[x] != x) area[recv[x]] += area[x];
        }
        for (k = 0; k < cells; k++) {
            int x = stack[k], i = x % n, j = x / n;
            double old = g->h[x], f;
            if (i == 0 || j == 0 || i == n - 1 || j == n - 1) continue;
            if (recv[x] == x) {
                g->h[x] = old + rise;
            } else {
                f = o->k_per_yr * o->dt_yr * sqrt(area[x]) / len[x];
                g->h[x] = (old + rise + f * g->h[recv[x]]) / (1.0 + f);
            }
            if (fabs(g->h[x] - old) > moved) moved = fabs(g->h[x] - old);
        }
        done = moved < 1e-6 * rise;
    }
end:
    free(recv);
    free(stack);
    free(first);
    free(donors);
    free(len);
    free(area);
    if (!done) return 0;
    return step - 1;
}
