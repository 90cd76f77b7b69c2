/* grow.h - room for one more item in a growable array, the one pattern the
 * CLI's lists (bake_plan.c) and the measurement tools' sample lists
 * (tools/terrain_stats_chunks.c) share. Header-only, so tools/ links it
 * without a Makefile entry of its own. */
#ifndef CT_CLI_GROW_H
#define CT_CLI_GROW_H

#include <stdlib.h>

/* items holds count of *cap items of elem bytes. Returns items, or a larger
 * copy (capacity doubled, first when empty, *cap updated) when it is full;
 * NULL when out of memory, items then untouched and still the caller's. */
static inline void *cli_grow(void *items, size_t count, size_t *cap, size_t elem, size_t first)
{
    size_t want;
    void *g;
    if (count < *cap) return items;
    want = *cap ? *cap * 2u : first;
    g = realloc(items, elem * want);
    if (g) *cap = want;
    return g;
}

#endif
