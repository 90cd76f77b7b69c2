/* test_heap.c - the vertex queue of the slope and lake solves (slope.c):
 * against a brute-force reference, every pop is the least (key, vertex) among
 * queued vertices not popped yet, with the first of equal keys kept (so -0.0
 * and +0.0 stay as pushed), stale pairs skipped, growth past the initial
 * capacity, and reset. The world build's generation IDs depend on this order. */
#include "ct_build.h"
#include "test.h"

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
    return test_summary("heap");
}
