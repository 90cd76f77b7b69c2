/* test_heap.c - the vertex queue of the slope and lake solves (heap.c):
 * against a brute-force reference, every pop is the least (key, vertex) among
 * queued vertices not popped yet, with the first of equal keys kept (so -0.0
 * and +0.0 stay as pushed), stale pairs skipped, growth past the initial
 * capacity, and reset; and the slope projection (sweeps, then Dijkstra
 * from their state when they did not settle; Dijkstra alone; the last
 * envelope queueing only some vertices) against a plain Dijkstra with every
 * vertex queued, bit for bit. The world build's generation IDs depend on both. */
#include "solve/ct_solve.h"
#include "base/ct_heap.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define NV 40u

static uint32_t rng_state = 12345u;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

/* Few distinct keys, so ties between vertices are common; both zeros. */
static double pick_key(void)
{
    static const double keys[] = {-3.5, -1.0, -0.0, 0.0, 0.25, 1.0, 2.0, 7.0, 1e300};
    return keys[rnd((uint32_t)(sizeof keys / sizeof keys[0]))];
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The reference: least (best, v) over queued and not popped. */
static uint32_t ref_min(const int *queued, const int *done, const double *best)
{
    uint32_t v, m = CT__NONE;
    for (v = 0; v < NV; v++) {
        if (!queued[v] || done[v]) continue;
        if (m == CT__NONE || best[v] < best[m] || (best[v] == best[m] && v < m)) m = v;
    }
    return m;
}

static void run_round(ct__heap *hp, uint32_t ops, uint32_t *bad)
{
    int queued[NV], done[NV];
    double best[NV];
    uint32_t i, v;
    ct__heap_reset(hp);
    for (v = 0; v < NV; v++) { queued[v] = 0; done[v] = 0; best[v] = 0.0; }
    for (i = 0; i < ops; i++) {
        if (rnd(8u) != 0u) {   /* mostly pushes, so stale pairs pile up */
            double key = pick_key();
            v = rnd(NV);
            if (!ct__heap_push(hp, v, key)) { (*bad)++; return; }
            if (!done[v] && (!queued[v] || key < best[v])) { queued[v] = 1; best[v] = key; }
        } else {
            double key = 0.0;
            uint32_t want = ref_min(queued, done, best), got = ct__heap_pop(hp, &key);
            if (got != want || (got != CT__NONE && !same_bits(key, best[got]))) (*bad)++;
            if (got != CT__NONE && got < NV) done[got] = 1;
            if (got < NV && hp->done[got] != 1u) (*bad)++;
        }
    }
    /* Drain: the rest in order, then empty. */
    for (;;) {
        double key = 0.0;
        uint32_t want = ref_min(queued, done, best), got = ct__heap_pop(hp, &key);
        if (got != want) { (*bad)++; break; }
        if (got == CT__NONE) break;
        if (!same_bits(key, best[got])) (*bad)++;
        done[got] = 1;
    }
}

/* The slope projection as it was before the last envelope queued only the
 * vertices that can lower a neighbour: every vertex queued, on the same heap. */
static void ref_envelope(const ct__graph *g, double s, const uint8_t *is_seed, const double *h,
                         ct__heap *hp, double *out)
{
    uint32_t v, k, u;
    double ku;
    ct__heap_reset(hp);
    for (v = 0; v < g->V; v++) out[v] = 1e300;
    for (v = 0; v < g->V; v++)
        if (!is_seed || is_seed[v]) ct__heap_push(hp, v, -h[v]);
    while ((u = ct__heap_pop(hp, &ku)) != CT__NONE) {
        out[u] = ku;
        for (k = 0; k < 4u; k++) {
            uint32_t b = g->nbr[4u * u + k];
            if (b != CT__NONE && !hp->done[b]) ct__heap_push(hp, b, ku + s * g->len_m[4u * u + k]);
        }
    }
}

static void ref_project(const ct__graph *g, double s, const uint8_t *is_pin, double *h, ct__heap *hp)
{
    uint32_t V = g->V, v, pins = 0;
    double *hi = (double *)malloc(sizeof *hi * V), *lo = (double *)malloc(sizeof *lo * V);
    double *hn = (double *)malloc(sizeof *hn * V);
    for (v = 0; v < V; v++) { pins += is_pin[v]; hn[v] = -h[v]; }
    if (pins) {
        ref_envelope(g, s, is_pin, hn, hp, hi);   /* hn negated back: +h seeds */
        ref_envelope(g, s, is_pin, h, hp, lo);
        for (v = 0; v < V; v++) {
            if (is_pin[v]) continue;
            if (h[v] < -lo[v]) h[v] = -lo[v];
            if (h[v] > hi[v]) h[v] = hi[v];
        }
    }
    ref_envelope(g, s, NULL, h, hp, lo);
    for (v = 0; v < V; v++)
        if (!is_pin[v]) h[v] = -lo[v];
    free(hi);
    free(lo);
    free(hn);
}

/* ct__slope_project against the reference, bit for bit, on heights with
 * plateaus, signed zeros and over-steep spikes. */
static void check_projection(void)
{
    ct__field w;
    ct__graph g;
    ct__heap hp;
    char err[256];
    uint32_t V, v, trial, differ = 0, differ_budget = 0, changed = 0;
    double *h, *r, *h0, *h1;
    uint8_t *pin;
    memset(&w, 0, sizeof w);
    CHECK(ct__field_alloc_graph(&w, 12, err, sizeof err) == CT_OK, "graph: %s", err);
    CHECK(ct__graph_build(&w, 1000.0, &g, err, sizeof err) == CT_OK, "graph: %s", err);
    V = g.V;
    h = (double *)malloc(sizeof *h * V);
    r = (double *)malloc(sizeof *r * V);
    h0 = (double *)malloc(sizeof *h0 * V);
    h1 = (double *)malloc(sizeof *h1 * V);
    pin = (uint8_t *)malloc(V);
    CHECK(ct__heap_init(&hp, V) == CT_OK, "heap");
    for (trial = 0; trial < 40u; trial++) {
        double s = trial % 4u == 0u ? 0.05 : 0.5;   /* edges are about 130 m */
        for (v = 0; v < V; v++) {
            uint32_t x = rnd(20u);
            pin[v] = trial % 5u != 0u && rnd(10u) == 0u;   /* every fifth: no pins */
            h[v] = x < 3u ? 0.0 : x < 5u ? -0.0 : 25.0 * ((double)rnd(25u) - 12.0);
            if (rnd(50u) == 0u) h[v] = 2000.0;            /* spikes to cut down */
            r[v] = h[v];
        }
        /* Sweep budgets: the default, none (Dijkstra alone) and one pair
         * (Dijkstra finishing from a half-swept state). */
        for (v = 0; v < V; v++) { h1[v] = h[v]; h0[v] = h[v]; }
        CHECK(ct__slope_project(&g, s, pin, h, err, sizeof err) == CT_OK, "project: %s", err);
        CHECK(ct__slope_project_sweeps(&g, s, 0, pin, h0, err, sizeof err) == CT_OK, "project: %s", err);
        CHECK(ct__slope_project_sweeps(&g, s, 1, pin, h1, err, sizeof err) == CT_OK, "project: %s", err);
        ref_project(&g, s, pin, r, &hp);
        for (v = 0; v < V; v++) {
            if (memcmp(&h[v], &r[v], sizeof h[v]) != 0) differ++;
            if (memcmp(&h0[v], &r[v], sizeof h[v]) != 0 || memcmp(&h1[v], &r[v], sizeof h[v]) != 0) differ_budget++;
            if (!pin[v] && h[v] != 25.0 * (double)(int)(h[v] / 25.0)) changed++;
        }
    }
    CHECK(differ == 0, "%u heights differ from the all-queued reference", differ);
    CHECK(differ_budget == 0, "%u heights differ with sweep budgets 0 or 1", differ_budget);
    CHECK(changed > 100u, "the projection moved only %u heights: the test is too easy", changed);
    ct__heap_free(&hp);
    free(h);
    free(r);
    free(h0);
    free(h1);
    free(pin);
    ct__graph_free(&g);
    free(w.vertex_fij);
    free(w.dir_v);
}

int main(void)
{
    ct__heap hp;
    uint32_t round, bad = 0, grew = 0;
    CHECK(ct__heap_init(&hp, NV) == CT_OK, "init");
    for (round = 0; round < 400u; round++) {
        run_round(&hp, 20u + rnd(400u), &bad);
        if (hp.cap > NV) grew = 1;
    }
    CHECK(bad == 0, "%u pops differ from the reference", bad);
    CHECK(grew, "the heap never grew past its initial capacity (stale pairs not exercised)");

    /* Pushing a popped vertex does nothing; a higher or equal key neither. */
    ct__heap_reset(&hp);
    {
        double k = 0.0;
        CHECK(ct__heap_push(&hp, 5, 2.0) && ct__heap_push(&hp, 5, 3.0) && ct__heap_push(&hp, 5, 2.0), "push");
        CHECK(hp.count == 1u, "equal or higher keys queue nothing: %u pairs", (unsigned)hp.count);
        CHECK(ct__heap_push(&hp, 5, 1.0) && hp.count == 2u, "a lower key adds a pair");
        CHECK(ct__heap_pop(&hp, &k) == 5u && k == 1.0, "pop 5 at 1.0, got %g", k);
        CHECK(ct__heap_push(&hp, 5, -9.0) && hp.count == 1u, "popped vertices are never queued again");
        CHECK(ct__heap_pop(&hp, &k) == CT__NONE, "the stale pair is skipped and the queue is empty");
        ct__heap_reset(&hp);
        CHECK(ct__heap_push(&hp, 5, -9.0) && ct__heap_pop(&hp, &k) == 5u && k == -9.0, "reset forgets popped vertices");
    }
    ct__heap_free(&hp);
    ct__heap_free(&hp);   /* twice is harmless */
    check_projection();
    return test_summary("heap");
}
