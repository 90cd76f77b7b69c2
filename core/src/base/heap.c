/* heap.c - the vertex min-queue of the Dijkstra-style solves (slope
 * envelopes, lake levels, drainage): a 4-ary heap of (key, vertex) pairs
 * held inline, with lazy deletion instead of decrease-key (ct_heap.h). */
#include "base/ct_heap.h"

#include <math.h>     /* HUGE_VAL */
#include <stdlib.h>
#include <string.h>

/* (key, vertex) order: the tie-break on the index makes pops unique. Bitwise
 * & and | so the compiler can select instead of branching on each half. */
static int ct__item_less(const ct__heap_item *a, const ct__heap_item *b)
{
    return (a->key < b->key) | ((a->key == b->key) & (a->v < b->v));
}

/* A double's bits mapped so that unsigned order is the double order: flip
 * every bit of negatives, the sign bit of the rest. -0 becomes +0 first, as
 * the two compare equal. Keys are never NaN. */
static uint64_t ct__key_bits(double d)
{
    uint64_t u;
    if (d == 0.0) d = 0.0;
    memcpy(&u, &d, sizeof u);
    return (u >> 63) ? ~u : (u | ((uint64_t)1 << 63));
}

/* 4-ary: half the depth of a binary heap, and the four children of a node
 * sit side by side (64 bytes), so a pop touches fewer cache lines. */
static void ct__heap_up(ct__heap *hp, size_t i, ct__heap_item x)
{
    ct__heap_item *a = hp->item;
    while (i > 0) {
        size_t parent = (i - 1u) / 4u;
        if (!ct__item_less(&x, &a[parent])) break;
        a[i] = a[parent];
        i = parent;
    }
    a[i] = x;
}

/* Pop's half: the hole left at the root walks down to a leaf along the least
 * children, then the heap's last pair rises from there (Floyd's bottom-up
 * deletion). The last pair is usually among the largest, so this skips the
 * comparison with it at every level on the way down. */
static void ct__heap_pop_top(ct__heap *hp)
{
    ct__heap_item *a = hp->item;
    size_t n = --hp->count, i = 0;
    ct__heap_item x = a[n];
    for (;;) {
        size_t c = 4u * i + 1u, best;
        if (c + 3u < n) {
            size_t l = ct__item_less(&a[c + 1u], &a[c]) ? c + 1u : c;
            size_t r = ct__item_less(&a[c + 3u], &a[c + 2u]) ? c + 3u : c + 2u;
            best = ct__item_less(&a[r], &a[l]) ? r : l;
        } else if (c < n) {
            size_t k;
            best = c;
            for (k = c + 1u; k < n; k++)
                if (ct__item_less(&a[k], &a[best])) best = k;
        } else {
            break;
        }
        a[i] = a[best];
        i = best;
    }
    if (i < n) ct__heap_up(hp, i, x);
}

/* The four children of node i are items 4i+1..4i+4 (64 bytes): with item 1
 * on a 64-byte boundary each group is one cache line instead of straddling
 * two, so a pop's walk down touches one line per level. Allocates cap items
 * so aligned (plus slack); 0 when out of memory. */
static int ct__heap_items(ct__heap *hp, size_t cap)
{
    unsigned char *block = (unsigned char *)malloc(sizeof(ct__heap_item) * (cap + 4u) + 64u), *first;
    size_t skew;
    if (!block) return 0;
    /* item[1] at the first 64-byte boundary after block + sizeof item. */
    skew = (size_t)(64u - ((uintptr_t)(block + sizeof(ct__heap_item)) & 63u)) & 63u;
    first = block + skew;
    if (hp->item && hp->count) memcpy(first, hp->item, sizeof(ct__heap_item) * hp->count);
    free(hp->item_block);
    hp->item_block = block;
    hp->item = (ct__heap_item *)(void *)first;
    hp->cap = cap;
    return 1;
}

ct_result ct__heap_init(ct__heap *hp, uint32_t V)
{
    hp->V = V;
    hp->count = 0;
    hp->item = NULL;
    hp->item_block = NULL;
    (void)ct__heap_items(hp, V ? V : 1u);   /* item stays NULL when out of memory */
    hp->best = (double *)malloc(sizeof *hp->best * (size_t)(V ? V : 1u));
    hp->done = (uint8_t *)malloc((size_t)(V ? V : 1u));
    if (!hp->item || !hp->best || !hp->done) {
        ct__heap_free(hp);
        return CT_ERR_MEMORY;
    }
    ct__heap_reset(hp);
    return CT_OK;
}

void ct__heap_reset(ct__heap *hp)
{
    uint32_t v;
    hp->count = 0;
    /* +inf: any finite key can be queued. */
    for (v = 0; v < hp->V; v++) hp->best[v] = HUGE_VAL;
    memset(hp->done, 0, (size_t)hp->V);
}

void ct__heap_free(ct__heap *hp)
{
    if (!hp) return;
    free(hp->item_block);
    free(hp->best);
    free(hp->done);
    hp->item = NULL;
    hp->item_block = NULL;
    hp->best = NULL;
    hp->done = NULL;
    hp->count = hp->cap = 0;
}

int ct__heap_queue_best(ct__heap *hp, uint32_t v)
{
    ct__heap_item x;
    if (hp->count == hp->cap && !ct__heap_items(hp, hp->cap * 2u)) return 0;
    x.key = ct__key_bits(hp->best[v]);
    x.v = v;
    hp->count++;
    ct__heap_up(hp, hp->count - 1u, x);
    return 1;
}

int ct__heap_push(ct__heap *hp, uint32_t v, double key)
{
    if (hp->done[v] || !(key < hp->best[v])) return 1;
    hp->best[v] = key;
    return ct__heap_queue_best(hp, v);
}

uint32_t ct__heap_pop(ct__heap *hp, double *key)
{
    while (hp->count > 0) {
        ct__heap_item top = hp->item[0];
        ct__heap_pop_top(hp);
        /* A popped vertex's later pairs carry the keys it had before a
         * lower one arrived: stale. */
        if (hp->done[top.v]) continue;
        hp->done[top.v] = 1;
        *key = hp->best[top.v];   /* its key as pushed (a -0 stays -0) */
        return top.v;
    }
    return CT__NONE;
}
