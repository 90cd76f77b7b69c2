/* slope.c - projection of macro heights onto the slope constraints
 * |h[a] - h[b]| <= s * len(a,b) on every graph edge, keeping shore pins.
 *
 * Min-plus distance envelopes, computed by sweeps over the edges in index
 * order and back until nothing changes (2-4 pairs in the default worlds,
 * streaming through memory), finished by Dijkstra with the vertex queue of
 * heap.c (a 4-ary heap of inline pairs; O(E log V)) when the sweeps do not settle:
 *   hi(v) = min over pins p of pin(p) + s d(p,v)   (the highest v may be)
 *   lo(v) = max over pins p of pin(p) - s d(p,v)   (the lowest v may be)
 * Each free vertex is clamped to [lo, hi]; then one lower envelope over all
 * vertices, h'(v) = max over u of h(u) - s d(u,v), is the smallest function
 * above h that satisfies every edge inequality. Because clamped values never
 * exceed hi, that final envelope leaves the pins where they are (we reset
 * them exactly to drop round-off). It may raise values (to honour pinned
 * lower bounds) and lowers over-piled ridges through the clamp: a graph
 * height projection, not erosion. */
#include "solve/ct_solve.h"
#include "base/ct_heap.h"

#include <math.h>     /* HUGE_VAL */
#include <stdlib.h>
#include <string.h>

#define CT__FAR 1e300   /* "unreached" key: finite so no inf arithmetic */

/* Settles the queue: pops in (key, vertex) order and relaxes the edges.
 * best[] ends as the result (a popped vertex's key is its best). */
static int ct__dijkstra(const ct__graph *g, double s, ct__heap *hp)
{
    for (;;) {
        double ku;
        uint32_t u = ct__heap_pop(hp, &ku), k;
        const uint32_t *nbr;
        const double *len;
        if (u == CT__NONE) break;
        nbr = g->nbr + 4u * (size_t)u;
        len = g->len_m + 4u * (size_t)u;
        for (k = 0; k < 4u; k++) {
            uint32_t b = nbr[k];
            if (b == CT__NONE || hp->done[b]) continue;
            if (!ct__heap_push(hp, b, ku + s * len[k])) return 0;
        }
    }
    return 1;
}

/* Relaxes every edge in index order, then in reverse, up to max_pairs
 * times; returns 1 when a pair lowered nothing (best[] is then final).
 * Sweeps stream through the graph, where Dijkstra's pops jump over the whole
 * sphere and miss cache on almost every vertex (at n = 256 the envelopes
 * were a quarter of the build). The result is the same, bit for bit: every
 * best[] value is at any time the left-to-right sum along some path from a
 * seed, and once no edge can lower its end, best[v] is at most every such
 * path sum into v (by induction along the path, as fl(a + w) is monotone in
 * a for w >= 0), so it is the minimum over paths, which is also what
 * Dijkstra settles. Ties keep the first value (strict <), and the only
 * zeros of the same value with two signs are seeds' own -0, kept by both. */
static int ct__sweep(const ct__graph *g, double s, double *best, int max_pairs)
{
    uint32_t V = g->V;
    int pair;
    for (pair = 0; pair < max_pairs; pair++) {
        int changed = 0;
        uint32_t i, k;
        for (i = 0; i < 2u * V; i++) {
            uint32_t u = i < V ? i : 2u * V - 1u - i;   /* forward, then backward */
            const uint32_t *nbr = g->nbr + 4u * (size_t)u;
            const double *len = g->len_m + 4u * (size_t)u;
            double ku = best[u];
            if (!(ku < HUGE_VAL)) continue;   /* not reached yet */
            for (k = 0; k < 4u; k++) {
                uint32_t b = nbr[k];
                double key;
                if (b == CT__NONE) continue;
                key = ku + s * len[k];
                if (key < best[b]) {
                    best[b] = key;
                    changed = 1;
                }
            }
        }
        if (!changed) return 1;
    }
    return 0;
}

/* Settles best[] (the seeds' keys, +inf elsewhere) and copies it to out
 * (CT__FAR where nothing reached). First sweeps; if they did not settle,
 * Dijkstra finishes from their state: it queues only the vertices whose key
 * can lower a neighbour's (key + s len < the neighbour's best; every other
 * vertex, queued, would pop having changed nothing, because a vertex is
 * lowered only from one with a strictly smaller key and best[] only
 * decreases), and each key it starts from is itself a path sum from a seed,
 * so it settles to the same minimum over paths. */
static int ct__settle_keyed(const ct__graph *g, double s, int max_pairs, ct__heap *hp, double *out)
{
    uint32_t V = g->V, v, k;
    if (!ct__sweep(g, s, hp->best, max_pairs)) {
        for (v = 0; v < V; v++) {
            const uint32_t *nbr = g->nbr + 4u * (size_t)v;
            const double *len = g->len_m + 4u * (size_t)v;
            double kv = hp->best[v];
            for (k = 0; k < 4u; k++) {
                if (nbr[k] != CT__NONE && kv + s * len[k] < hp->best[nbr[k]]) {
                    if (!ct__heap_queue_best(hp, v)) return 0;
                    break;
                }
            }
        }
        if (!ct__dijkstra(g, s, hp)) return 0;
    }
    for (v = 0; v < V; v++) out[v] = hp->best[v] < HUGE_VAL ? hp->best[v] : CT__FAR;
    return 1;
}

/* out[v] = min over seeds u of seed(u) + s d(u,v); seeds are the vertices with
 * is_seed[u], seed values negated when neg; CT__FAR where no seed reaches.
 * Returns 0 when out of memory. */
static int ct__envelope(const ct__graph *g, double s, int max_pairs, const uint8_t *is_seed, const double *h,
                        int neg, ct__heap *hp, double *out)
{
    uint32_t V = g->V, v;
    ct__heap_reset(hp);   /* best[] = +inf: not a seed, not reached */
    for (v = 0; v < V; v++)
        if (is_seed[v]) hp->best[v] = neg ? -h[v] : h[v];
    return ct__settle_keyed(g, s, max_pairs, hp, out);
}

/* The same with every vertex a seed. */
static int ct__envelope_all(const ct__graph *g, double s, int max_pairs, const double *h, int neg,
                            ct__heap *hp, double *out)
{
    uint32_t V = g->V, v;
    ct__heap_reset(hp);
    for (v = 0; v < V; v++) hp->best[v] = neg ? -h[v] : h[v];
    return ct__settle_keyed(g, s, max_pairs, hp, out);
}

ct_result ct__slope_project(const ct__graph *g, double s, const uint8_t *is_pin_v, double *h,
                            char *err, size_t errlen)
{
    return ct__slope_project_sweeps(g, s, CT__SWEEP_PAIRS, is_pin_v, h, err, errlen);
}

ct_result ct__slope_project_sweeps(const ct__graph *g, double s, int max_pairs, const uint8_t *is_pin_v,
                                   double *h, char *err, size_t errlen)
{
    uint32_t V = g->V, v, pins = 0;
    double *hi = NULL, *lo = NULL;
    int ok = 1;
    ct__heap hp;
    if (!(s > 0.0)) return CT_OK;
    for (v = 0; v < V; v++) pins += is_pin_v[v] ? 1u : 0u;
    if (ct__heap_init(&hp, V) != CT_OK)
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory in the slope projection");
    hi = (double *)malloc(sizeof *hi * (size_t)V);
    lo = (double *)malloc(sizeof *lo * (size_t)V);
    if (!hi || !lo) ok = 0;
    if (ok && pins > 0) {
        ok = ct__envelope(g, s, max_pairs, is_pin_v, h, 0, &hp, hi) &&
             ct__envelope(g, s, max_pairs, is_pin_v, h, 1, &hp, lo);   /* lo holds -lower bound */
        for (v = 0; v < V && ok; v++) {
            double top = hi[v], bottom = -lo[v];
            if (is_pin_v[v]) continue;
            if (h[v] < bottom) h[v] = bottom;
            if (h[v] > top) h[v] = top;   /* feasible pins give bottom <= top up to round-off */
        }
    }
    /* Final lower envelope over every vertex; lo reused as the result. */
    if (ok) ok = ct__envelope_all(g, s, max_pairs, h, 1, &hp, lo);
    for (v = 0; v < V && ok; v++)
        if (!is_pin_v[v]) h[v] = -lo[v];
    free(hi);
    free(lo);
    ct__heap_free(&hp);
    if (!ok) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory in the slope projection");
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
