/* landforms_flow.c - fill, route and count on one grid.
 *
 * Fill: priority-flood (Barnes, Lehman and Mulla 2014, with the plain queue
 * for cells below the spill level): every edge sample is an outlet, cells
 * are taken lowest first, and a cell lower than the one that reached it is
 * raised to that level. The order cells leave the flood is an order in which
 * every cell comes after the cell it drains to, so one reverse pass adds up
 * drainage areas.
 * Route: D8 on the filled surface, to the neighbour of steepest descent
 * (drop over the true step length); a cell with no lower neighbour (a filled
 * flat) drains to the cell the flood reached it from, which leads to the
 * flat's spill point.
 * Count: a depression is a connected (8-neighbour) set of raised cells at one
 * fill level; its depth is the largest raise in it. */
#include "landforms.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const int LF_DI[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int LF_DJ[8] = {0, 1, 1, 1, 0, -1, -1, -1};

typedef struct lf_heap { double *key; int *at; int n; } lf_heap;

/* Lower key first; equal keys by index, so the order never depends on the
 * heap's history. */
static int lf_less(const lf_heap *q, int x, int y)
{
    return q->key[x] < q->key[y] || (q->key[x] == q->key[y] && q->at[x] < q->at[y]);
}

static void lf_swap(lf_heap *q, int x, int y)
{
    double k = q->key[x];
    int a = q->at[x];
    q->key[x] = q->key[y];
    q->at[x] = q->at[y];
    q->key[y] = k;
    q->at[y] = a;
}

static void lf_push(lf_heap *q, double key, int at)
{
    int c = q->n++;
    q->key[c] = key;
    q->at[c] = at;
    while (c > 0 && lf_less(q, c, (c - 1) / 2)) {
        lf_swap(q, c, (c - 1) / 2);
        c = (c - 1) / 2;
    }
}

static int lf_pop(lf_heap *q)
{
    int top = q->at[0], c = 0;
    q->n--;
    q->key[0] = q->key[q->n];
    q->at[0] = q->at[q->n];
    for (;;) {
        int l = 2 * c + 1, r = l + 1, m = c;
        if (l < q->n && lf_less(q, l, m)) m = l;
        if (r < q->n && lf_less(q, r, m)) m = r;
        if (m == c) break;
        lf_swap(q, c, m);
        c = m;
    }
    return top;
}

static double lf_norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Length of step direction d from cell c. */
static double lf_step_m(const lf_grid *g, int c, int d)
{
    const double *a = g->a + 3 * (size_t)c, *b = g->b + 3 * (size_t)c;
    double v[3];
    int k;
    for (k = 0; k < 3; k++) v[k] = LF_DI[d] * a[k] + LF_DJ[d] * b[k];
    return lf_norm3(v);
}

static double lf_cell_m2(const lf_grid *g, int c)
{
    const double *a = g->a + 3 * (size_t)c, *b = g->b + 3 * (size_t)c;
    double v[3];
    v[0] = a[1] * b[2] - a[2] * b[1];
    v[1] = a[2] * b[0] - a[0] * b[2];
    v[2] = a[0] * b[1] - a[1] * b[0];
    return lf_norm3(v);
}

/* Priority-flood: fills fill[], parent[] (-1 for outlets) and order[] (cells
 * in the order they left the flood). */
static int lf_fill(const lf_grid *g, double *fill, int *parent, int *order)
{
    int nx = g->nx, ny = g->ny, n = nx * ny, i, j, taken = 0, qhead = 0, qtail = 0;
    lf_heap q;
    int *pitq = (int *)malloc(sizeof *pitq * (size_t)n);
    unsigned char *seen = (unsigned char *)calloc((size_t)n, 1);
    q.key = (double *)malloc(sizeof *q.key * (size_t)n);
    q.at = (int *)malloc(sizeof *q.at * (size_t)n);
    q.n = 0;
    if (!pitq || !seen || !q.key || !q.at) {
        free(pitq);
        free(seen);
        free(q.key);
        free(q.at);
        return 0;
    }
    for (j = 0; j < ny; j++) {
        for (i = 0; i < nx; i++) {
            int c = j * nx + i;
            if (i != 0 && j != 0 && i != nx - 1 && j != ny - 1) continue;
            seen[c] = 1;
            fill[c] = g->h[c];
            parent[c] = -1;
            lf_push(&q, fill[c], c);
        }
    }
    while (q.n > 0 || qhead < qtail) {
        int c = qhead < qtail ? pitq[qhead++] : lf_pop(&q), d;
        order[taken++] = c;
        for (d = 0; d < 8; d++) {
            int ni = c % nx + LF_DI[d], nj = c / nx + LF_DJ[d], nb;
            if (ni < 0 || nj < 0 || ni >= nx || nj >= ny) continue;
            nb = nj * nx + ni;
            if (seen[nb]) continue;
            seen[nb] = 1;
            parent[nb] = c;
            if (g->h[nb] <= fill[c]) {
                fill[nb] = fill[c];
                pitq[qtail++] = nb;
            } else {
                fill[nb] = g->h[nb];
                lf_push(&q, fill[nb], nb);
            }
        }
    }
    free(pitq);
    free(seen);
    free(q.key);
    free(q.at);
    return 1;
}

/* Counts depressions (raised 8-connected cells at one fill level). */
static void lf_depressions(const lf_grid *g, const double *fill, int *stack, unsigned char *mark,
                           lf_result *r)
{
    int nx = g->nx, n = g->nx * g->ny, c;
    memset(mark, 0, (size_t)n);
    for (c = 0; c < n; c++) {
        double depth = 0.0, level = fill[c];
        int top = 0;
        if (mark[c] || !(fill[c] > g->h[c])) continue;
        mark[c] = 1;
        stack[top++] = c;
        while (top > 0) {
            int x = stack[--top], d;
            if (fill[x] - g->h[x] > depth) depth = fill[x] - g->h[x];
            for (d = 0; d < 8; d++) {
                int ni = x % nx + LF_DI[d], nj = x / nx + LF_DJ[d], nb;
                if (ni < 0 || nj < 0 || ni >= nx || nj >= g->ny) continue;
                nb = nj * nx + ni;
                if (mark[nb] || !(fill[nb] > g->h[nb]) || fill[nb] != level) continue;
                mark[nb] = 1;
                stack[top++] = nb;
            }
        }
        r->pits_any += 1.0;
        if (depth > LF_PIT_DEPTH_M) r->pits += 1.0;
        if (depth > r->max_depth_m) r->max_depth_m = depth;
    }
}

/* D8 receiver of c on the filled surface, or -1 for an outlet. */
static int lf_receiver(const lf_grid *g, const double *fill, const int *parent, int c, double *step)
{
    int nx = g->nx, d, best = -1;
    double best_s = 0.0;
    if (parent[c] < 0) return -1;
    for (d = 0; d < 8; d++) {
        int ni = c % nx + LF_DI[d], nj = c / nx + LF_DJ[d], nb;
        double len, s;
        if (ni < 0 || nj < 0 || ni >= nx || nj >= g->ny) continue;
        nb = nj * nx + ni;
        if (!(fill[nb] < fill[c])) continue;
        len = lf_step_m(g, c, d);
        s = (fill[c] - fill[nb]) / len;
        if (s > best_s) {
            best_s = s;
            best = nb;
            *step = len;
        }
    }
    if (best >= 0) return best;
    for (d = 0; d < 8; d++) {
        int ni = c % nx + LF_DI[d], nj = c / nx + LF_DJ[d];
        if (ni >= 0 && ni < nx && nj * nx + ni == parent[c]) {
            *step = lf_step_m(g, c, d);
            break;
        }
    }
    return parent[c];
}

double lf_bin_area(int k) { return ldexp(k % 2 ? 1.4142135623730951 : 1.0, k / 2); }

int lf_measure(const lf_grid *g, const lf_opts *o, lf_result *acc)
{
    int n = g->nx * g->ny, c, k, ok = 0;
    double *fill = (double *)malloc(sizeof *fill * (size_t)n);
    double *area = (double *)malloc(sizeof *area * (size_t)n);
    double *step = (double *)malloc(sizeof *step * (size_t)n);
    int *parent = (int *)malloc(sizeof *parent * (size_t)n);
    int *order = (int *)malloc(sizeof *order * (size_t)n);
    int *recv = (int *)malloc(sizeof *recv * (size_t)n);
    int *stack = (int *)malloc(sizeof *stack * (size_t)n);
    unsigned char *mark = (unsigned char *)malloc((size_t)n);
    lf_result r;
    double cell_mean;
    memset(&r, 0, sizeof r);
    if (!fill || !area || !step || !parent || !order || !recv || !stack || !mark || !lf_fill(g, fill, parent, order))
        goto end;
    r.grids = 1;
    r.samples = n;
    for (c = 0; c < n; c++) {
        area[c] = lf_cell_m2(g, c);
        r.area_m2 += area[c];
        if (fill[c] - g->h[c] > LF_PONDED_M) r.ponded += 1.0;
        step[c] = 0.0;
        recv[c] = lf_receiver(g, fill, parent, c, &step[c]);
    }
    cell_mean = r.area_m2 / n;
    lf_depressions(g, fill, stack, mark, &r);
    for (k = n - 1; k >= 0; k--) {
        int x = order[k];
        if (recv[x] >= 0) area[recv[x]] += area[x];
    }
    for (c = 0; c < n; c++) {
        double cells = area[c] / cell_mean;
        for (k = 0; k < LF_BINS && cells >= lf_bin_area(k); k++) r.exceed[k] += 1.0;
        if (area[c] >= o->channel_m2 && recv[c] >= 0) r.channel_m += step[c];
    }
    lf_result_add(acc, &r);
    ok = 1;
end:
    free(fill);
    free(area);
    free(step);
    free(parent);
    free(order);
    free(recv);
    free(stack);
    free(mark);
    return ok;
}

void lf_result_add(lf_result *acc, const lf_result *r)
{
    int k;
    acc->grids += r->grids;
    acc->samples += r->samples;
    acc->area_m2 += r->area_m2;
    acc->pits += r->pits;
    acc->pits_any += r->pits_any;
    acc->ponded += r->ponded;
    acc->channel_m += r->channel_m;
    for (k = 0; k < LF_BINS; k++) acc->exceed[k] += r->exceed[k];
    if (r->max_depth_m > acc->max_depth_m) acc->max_depth_m = r->max_depth_m;
}

int lf_grid_alloc(lf_grid *g, int nx, int ny)
{
    size_t n = (size_t)nx * (size_t)ny;
    g->nx = nx;
    g->ny = ny;
    g->h = (double *)malloc(sizeof *g->h * n);
    g->a = (double *)malloc(sizeof *g->a * 3 * n);
    g->b = (double *)malloc(sizeof *g->b * 3 * n);
    if (g->h && g->a && g->b) return 1;
    lf_grid_free(g);
    return 0;
}

void lf_grid_free(lf_grid *g)
{
    free(g->h);
    free(g->a);
    free(g->b);
    g->h = g->a = g->b = NULL;
}
