/* slope.c - projection of macro heights onto the slope constraints
 * |h[a] - h[b]| <= s * len(a,b) on every graph edge, keeping shore pins.
 *
 * Min-plus distance envelopes computed by Dijkstra with an indexed binary
 * heap (O(V) extra memory, O(E log V) per envelope):
 *   hi(v) = min over pins p of pin(p) + s d(p,v)   (the highest v may be)
 *   lo(v) = max over pins p of pin(p) - s d(p,v)   (the lowest v may be)
 * Each free vertex is clamped to [lo, hi]; then one lower envelope over all
 * vertices, h'(v) = max over u of h(u) - s d(u,v), is the smallest function
 * above h that satisfies every edge inequality. Because clamped values never
 * exceed hi, that final envelope leaves the pins where they are (we reset
 * them exactly to drop round-off). It may raise values (to honour pinned
 * lower bounds) and lowers over-piled ridges through the clamp: a graph
 * height projection, not erosion. */
#include "ct_build.h"

#include <stdlib.h>

#define CT__FAR 1e300   /* "unreached" key: finite so no inf arithmetic */

static int ct__heap_less(const ct__heap *hp, uint32_t a, uint32_t b)
{
    double ka = hp->key[a], kb = hp->key[b];
    return ka < kb || (ka == kb && a < b);
}

static void ct__heap_place(ct__heap *hp, uint32_t i, uint32_t v)
{
    hp->heap[i] = v;
    hp->pos[v] = i;
}

static void ct__heap_up(ct__heap *hp, uint32_t i)
{
    uint32_t v = hp->heap[i];
    while (i > 0) {
        uint32_t parent = (i - 1u) / 2u;
        if (!ct__heap_less(hp, v, hp->heap[parent])) break;
        ct__heap_place(hp, i, hp->heap[parent]);
        i = parent;
    }
    ct__heap_place(hp, i, v);
}

static void ct__heap_down(ct__heap *hp, uint32_t i)
{
    uint32_t v = hp->heap[i];
    for (;;) {
        uint32_t l = 2u * i + 1u, best = i, bv = v;
        if (l < hp->count && ct__heap_less(hp, hp->heap[l], bv)) { best = l; bv = hp->heap[l]; }
        if (l + 1u < hp->count && ct__heap_less(hp, hp->heap[l + 1u], bv)) { best = l + 1u; bv = hp->heap[l + 1u]; }
        if (best == i) break;
        ct__heap_place(hp, i, bv);
        i = best;
    }
    ct__heap_place(hp, i, v);
}

ct_result ct__heap_init(ct__heap *hp, uint32_t V)
{
    uint32_t v;
    hp->V = V;
    hp->count = 0;
    hp->heap = (uint32_t *)malloc(sizeof *hp->heap * (size_t)(V ? V : 1u));
    hp->pos = (uint32_t *)malloc(sizeof *hp->pos * (size_t)(V ? V : 1u));
    hp->key = (double *)malloc(sizeof *hp->key * (size_t)(V ? V : 1u));
    if (!hp->heap || !hp->pos || !hp->key) {
        ct__heap_free(hp);
        return CT_ERR_MEMORY;
    }
    for (v = 0; v < V; v++) {
        hp->pos[v] = CT__NONE;
        hp->key[v] = CT__FAR;
    }
    return CT_OK;
}

void ct__heap_free(ct__heap *hp)
{
    if (!hp) return;
    free(hp->heap);
    free(hp->pos);
    free(hp->key);
    hp->heap = hp->pos = NULL;
    hp->key = NULL;
    hp->count = 0;
}

void ct__heap_push(ct__heap *hp, uint32_t v, double key)
{
    if (hp->pos[v] == CT__NONE) {
        hp->key[v] = key;
        hp->heap[hp->count] = v;
        hp->pos[v] = hp->count;
        hp->count++;
        ct__heap_up(hp, hp->count - 1u);
    } else if (key < hp->key[v]) {
        hp->key[v] = key;
        ct__heap_up(hp, hp->pos[v]);
    }
}

uint32_t ct__heap_pop(ct__heap *hp)
{
    uint32_t top, last;
    if (hp->count == 0) return CT__NONE;
    top = hp->heap[0];
    hp->pos[top] = CT__NONE;
    hp->count--;
    if (hp->count > 0) {
        last = hp->heap[hp->count];
        ct__heap_place(hp, 0, last);
        ct__heap_down(hp, 0);
    }
    return top;
}

/* out[v] = min over seeds u of seed(u) + s d(u,v); seeds are the vertices with
 * is_seed[u] (all when is_seed is NULL), seed values negated when neg. */
static void ct__envelope(const ct__graph *g, double s, const uint8_t *is_seed, const double *h,
                         int neg, ct__heap *hp, uint8_t *done, double *out)
{
    uint32_t V = g->V, v;
    for (v = 0; v < V; v++) {
        done[v] = 0;
        hp->pos[v] = CT__NONE;
        out[v] = CT__FAR;
    }
    hp->count = 0;
    for (v = 0; v < V; v++)
        if (!is_seed || is_seed[v]) ct__heap_push(hp, v, neg ? -h[v] : h[v]);
    for (;;) {
        uint32_t u = ct__heap_pop(hp), k;
        double ku;
        if (u == CT__NONE) break;
        done[u] = 1;
        ku = hp->key[u];
        out[u] = ku;
        for (k = 0; k < 4u; k++) {
            uint32_t b = g->nbr[4u * (size_t)u + k];
            if (b == CT__NONE || done[b]) continue;
            ct__heap_push(hp, b, ku + s * g->len_m[4u * (size_t)u + k]);
        }
    }
}

ct_result ct__slope_project(const ct__graph *g, double s, const uint8_t *is_pin_v, double *h,
                            char *err, size_t errlen)
{
    uint32_t V = g->V, v, pins = 0;
    double *hi = NULL, *lo = NULL;
    uint8_t *done = NULL;
    ct__heap hp;
    if (!(s > 0.0)) return CT_OK;
    for (v = 0; v < V; v++) pins += is_pin_v[v] ? 1u : 0u;
    if (ct__heap_init(&hp, V) != CT_OK)
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory in the slope projection");
    hi = (double *)malloc(sizeof *hi * (size_t)V);
    lo = (double *)malloc(sizeof *lo * (size_t)V);
    done = (uint8_t *)malloc((size_t)V);
    if (!hi || !lo || !done) {
        free(hi);
        free(lo);
        free(done);
        ct__heap_free(&hp);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory in the slope projection");
    }
    if (pins > 0) {
        ct__envelope(g, s, is_pin_v, h, 0, &hp, done, hi);
        ct__envelope(g, s, is_pin_v, h, 1, &hp, done, lo);   /* lo holds -lower bound */
        for (v = 0; v < V; v++) {
            double top = hi[v], bottom = -lo[v];
            if (is_pin_v[v]) continue;
            if (h[v] < bottom) h[v] = bottom;
            if (h[v] > top) h[v] = top;   /* feasible pins give bottom <= top up to round-off */
        }
    }
    /* Final lower envelope over every vertex; lo reused as the result. */
    ct__envelope(g, s, NULL, h, 1, &hp, done, lo);
    for (v = 0; v < V; v++)
        if (!is_pin_v[v]) h[v] = -lo[v];
    free(hi);
    free(lo);
    free(done);
    ct__heap_free(&hp);
    return CT_OK;
}

double ct__slope_excess(const ct__graph *g, double s, const double *h)
{
    uint32_t V = g->V, a, k;
    double worst = 0.0;
    if (!(s > 0.0)) return 0.0;
    for (a = 0; a < V; a++) {
        for (k = 0; k < 4u; k++) {
            uint32_t b = g->nbr[4u * (size_t)a + k];
            double d, ex;
            if (b == CT__NONE || b < a) continue;
            d = h[a] - h[b];
            if (d < 0.0) d = -d;
            ex = d - s * g->len_m[4u * (size_t)a + k];
            if (ex > worst) worst = ex;
        }
    }
    return worst;
}
