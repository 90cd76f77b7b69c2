/* water.c - connected water bodies of the land mask across cube faces.
 *
 * Water is mask <= 0. Components are found by breadth-first search over the
 * four-neighbour graph, seeded in vertex order, so their numbering depends
 * only on the mask. The largest component is the ocean (body 0; ties go to
 * the lower vertex); the others keep their discovery order as 1, 2, ...
 * Bodies of at most lake_max_vertices vertices become elevated lakes; bigger
 * ones stay inland seas at sea level. The test counts vertices, not area:
 * cube cells near face corners are smaller than at face centres. */
#include "solve/ct_solve.h"

#include <stdlib.h>

ct_result ct__water_bodies(ct__field *w, const ct__graph *g, uint32_t lake_max_vertices,
                           int elevated_lakes, ct__bodies *out, char *err, size_t errlen)
{
    uint32_t V = w->vertex_count, v, count = 0, cap = 16, largest = 0, b;
    uint32_t *queue = (uint32_t *)malloc(sizeof *queue * (size_t)V);
    uint32_t *size = (uint32_t *)malloc(sizeof *size * cap);
    int32_t *body = w->body_v;
    out->count = 0;
    out->lakes = 0;
    out->size = NULL;
    out->is_lake = NULL;
    if (!queue || !size) {
        free(queue);
        free(size);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory finding water bodies");
    }
    for (v = 0; v < V; v++) body[v] = w->mask_v[v] > 0.0f ? -1 : -2;   /* -2: water, unlabelled */
    for (v = 0; v < V; v++) {
        uint32_t head = 0, tail = 0;
        if (body[v] != -2) continue;
        if (count == cap) {
            uint32_t *grown = (uint32_t *)realloc(size, sizeof *size * (size_t)cap * 2u);
            if (!grown) {
                free(queue);
                free(size);
                return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory finding water bodies");
            }
            size = grown;
            cap *= 2u;
        }
        body[v] = (int32_t)count;
        queue[tail++] = v;
        while (head < tail) {
            uint32_t a = queue[head++], k;
            for (k = 0; k < 4u; k++) {
                uint32_t c = g->nbr[4u * (size_t)a + k];
                if (c != CT__NONE && body[c] == -2) {
                    body[c] = (int32_t)count;
                    queue[tail++] = c;
                }
            }
        }
        size[count] = tail;
        if (tail > size[largest]) largest = count;
        count++;
    }
    free(queue);
    out->count = count;
    out->size = size;
    out->is_lake = (uint8_t *)calloc(count ? count : 1u, 1);
    if (!out->is_lake) {
        ct__bodies_free(out);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory finding water bodies");
    }
    if (count == 0) return CT_OK;
    /* Ocean first: the largest becomes 0, the ones before it shift up by one. */
    if (largest != 0) {
        uint32_t s = size[largest];
        for (v = 0; v < V; v++) {
            int32_t c = body[v];
            if (c < 0) continue;
            if ((uint32_t)c == largest) body[v] = 0;
            else if ((uint32_t)c < largest) body[v] = c + 1;
        }
        for (b = largest; b > 0; b--) size[b] = size[b - 1u];
        size[0] = s;
    }
    for (b = 1; b < count; b++) {
        if (elevated_lakes && size[b] <= lake_max_vertices) {
            out->is_lake[b] = 1;
            out->lakes++;
        }
    }
    return CT_OK;
}

void ct__bodies_free(ct__bodies *b)
{
    if (!b) return;
    free(b->size);
    free(b->is_lake);
    b->size = NULL;
    b->is_lake = NULL;
    b->count = 0;
}
