/* ct_heap.h - the vertex min-queue (heap.c) that the slope envelopes, the
 * lake levels and the drainage solve share. */
#ifndef CT_HEAP_H
#define CT_HEAP_H

#include "base/ct_base.h"

/* Min-queue of vertices for the Dijkstra-style solves (slope envelopes, lake
 * levels): pops the least (key, vertex index), each vertex once. A 4-ary heap
 * of (key, vertex) pairs held inline, with lazy deletion instead of
 * decrease-key: a push that lowers a vertex's key adds a new pair and the
 * stale ones are skipped when they surface. Pairs are totally ordered, so the
 * pop order is the same as any exact priority queue's (an indexed binary
 * heap with decrease-key, say): only the cost differs. Keys are compared as
 * integers (same order as the doubles, -0 equal to +0), which compiles to
 * branch-free selects natively and in WebAssembly. */
typedef struct ct__heap_item {
    uint64_t key;           /* the double key's bits, remapped to sort as unsigned */
    uint32_t v;
} ct__heap_item;

typedef struct ct__heap {
    ct__heap_item *item;    /* [cap] heap-ordered pairs, count in use; &item[1] on a 64-byte line */
    void *item_block;       /* the allocation item points into */
    size_t count, cap;
    double *best;           /* [V] lowest key pushed since the reset */
    uint8_t *done;          /* [V] 1 once popped */
    uint32_t V;
} ct__heap;

ct_result ct__heap_init(ct__heap *hp, uint32_t V);
void ct__heap_free(ct__heap *hp);
/* Empties the queue and marks every vertex unseen (best = far, not done). */
void ct__heap_reset(ct__heap *hp);
/* Queues v with key unless v was popped already or holds a key <= key.
 * Returns 0 when the heap could not grow (out of memory). */
int ct__heap_push(ct__heap *hp, uint32_t v, double key);
/* The least (key, v) not popped yet, its key in *key; CT__NONE when empty. */
uint32_t ct__heap_pop(ct__heap *hp, double *key);
/* Queues v at the key the caller stored in best[v] after a reset (a solve
 * that starts every vertex at a value and queues only some). 0: out of memory. */
int ct__heap_queue_best(ct__heap *hp, uint32_t v);

#endif
