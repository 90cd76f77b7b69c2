/* lakes.c - elevated lake levels, shore pins and lake beds.
 *
 * A lake's provisional level is the minimum first-pass height over its
 * footprint (the first pass walked across the filled lake). Shore pins are
 * the land vertices next to water; a pin carries the level of the water it
 * touches. With a slope limit s the pins must be mutually feasible:
 * |pin(p) - pin(q)| <= s d(p,q). We find the highest feasible levels with one
 * Dijkstra over the graph in which every lake's pins act as a single node
 * (they must share one level): pins start at their body's provisional level
 * (sea pins at 0), and the first time any pin of a lake is settled at value x
 * the whole lake is fixed at x. In that reference rule a land vertex touching
 * two bodies ties their levels, so a lake one vertex away from the sea sits
 * at sea level. lake_own_levels = 1 (ct__lake_levels_own below) keeps each
 * lake at its own level: a vertex touching two bodies is a dam at the higher
 * level, and a lake is lowered only where the slope limit requires it. */
#include "ct_build.h"

#include <stdlib.h>

static int ct__lake_of(const int32_t *body_v, const ct__bodies *b, uint32_t w)
{
    int32_t k = body_v[w];
    return k > 0 && b->is_lake[k];
}

/* Neighbour k of v is a lake that no earlier neighbour of v belongs to: each
 * (shore vertex, lake) pair is counted and listed once. */
static int ct__new_lake_nbr(const ct__graph *g, const int32_t *body_v, const ct__bodies *b, uint32_t v, uint32_t k)
{
    uint32_t w = g->nbr[4u * (size_t)v + k], j;
    if (w == CT__NONE || !ct__lake_of(body_v, b, w)) return 0;
    for (j = 0; j < k; j++) {
        uint32_t x = g->nbr[4u * (size_t)v + j];
        if (x != CT__NONE && body_v[x] == body_v[w]) return 0;
    }
    return 1;
}

/* The reference rule (lake_own_levels = 0): shared shore vertices tie levels. */
/* Each pin's level from the water bodies it touches: the lowest of them, or
 * with highest set the highest (and at least 0). */
static void ct__pins_at_levels(const ct__graph *g, const int32_t *body_v, const double *level_b,
                               const uint8_t *is_pin_v, int highest, double *pin_v)
{
    uint32_t v, k;
    for (v = 0; v < g->V; v++) {
        double key = highest ? 0.0 : 1e300;
        if (!is_pin_v[v]) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (w == CT__NONE || body_v[w] < 0) continue;
            if (highest ? level_b[body_v[w]] > key : level_b[body_v[w]] < key) key = level_b[body_v[w]];
        }
        pin_v[v] = key;
    }
}

static ct_result ct__lake_levels_tied(const ct__graph *g, const int32_t *body_v, const ct__bodies *b,
                                      double s, double *level_b, double *pin_v, uint8_t *is_pin_v,
                                      char *err, size_t errlen)
{
    uint32_t V = g->V, v, k, nb = b->count;
    uint32_t *off = NULL, *list = NULL, *fill = NULL;
    uint8_t *fixed = NULL;
    ct__heap hp = {0};   /* all NULL: ct__heap_free is safe before ct__heap_init ran */
    ct_result res = CT_OK;

    off = (uint32_t *)calloc((size_t)nb + 1u, sizeof *off);
    fill = (uint32_t *)calloc((size_t)nb + 1u, sizeof *fill);
    fixed = (uint8_t *)calloc((size_t)nb + 1u, 1);
    if (!off || !fill || !fixed || ct__heap_init(&hp, V) != CT_OK) goto oom;

    /* Pins, and each lake's pin list (CSR) so a fixed level reaches them all. */
    for (v = 0; v < V; v++) {
        is_pin_v[v] = 0;
        pin_v[v] = 0.0;
        if (body_v[v] >= 0) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (w == CT__NONE || body_v[w] < 0) continue;
            is_pin_v[v] = 1;
            if (!ct__lake_of(body_v, b, w)) continue;
            if (ct__new_lake_nbr(g, body_v, b, v, k)) off[body_v[w] + 1]++;
        }
    }
    for (k = 0; k < nb; k++) off[k + 1u] += off[k];
    list = (uint32_t *)malloc(sizeof *list * (size_t)(off[nb] ? off[nb] : 1u));
    if (!list) goto oom;
    for (v = 0; v < V; v++) {
        double key = 1e300;
        if (!is_pin_v[v]) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (w == CT__NONE || body_v[w] < 0) continue;
            if (level_b[body_v[w]] < key) key = level_b[body_v[w]];
            if (!ct__lake_of(body_v, b, w)) continue;
            if (ct__new_lake_nbr(g, body_v, b, v, k)) list[off[body_v[w]] + fill[body_v[w]]++] = v;
        }
        if (!ct__heap_push(&hp, v, key)) goto oom;
    }

    for (;;) {
        double x;
        uint32_t u = ct__heap_pop(&hp, &x);
        if (u == CT__NONE) break;
        if (is_pin_v[u]) {
            for (k = 0; k < 4u; k++) {
                uint32_t w = g->nbr[4u * (size_t)u + k], q;
                int32_t c;
                if (w == CT__NONE || !ct__lake_of(body_v, b, w)) continue;
                c = body_v[w];
                if (fixed[c]) continue;
                fixed[c] = 1;
                level_b[c] = x;
                for (q = off[c]; q < off[c + 1]; q++)
                    if (!hp.done[list[q]] && !ct__heap_push(&hp, list[q], x)) goto oom;
            }
        }
        if (s > 0.0) {
            for (k = 0; k < 4u; k++) {
                uint32_t w = g->nbr[4u * (size_t)u + k];
                if (w == CT__NONE || hp.done[w]) continue;
                if (!ct__heap_push(&hp, w, x + s * g->len_m[4u * (size_t)u + k])) goto oom;
            }
        }
    }
    /* A pin carries the lowest level it touches (all equal after the solve). */
    ct__pins_at_levels(g, body_v, level_b, is_pin_v, 0, pin_v);
    goto done;
oom:
    res = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory solving lake levels");
done:
    free(off);
    free(list);
    free(fill);
    free(fixed);
    ct__heap_free(&hp);
    return res;
}

/* ------------------------------------------------- lakes at their own levels */

/* Depth kept under water next to a shore pin: relaxing from a water vertex
 * gives its neighbours this much less headroom, so the slope projection never
 * raises a bed to (or above) its water surface. The same 1 m as the minimum
 * sea depth of world.c. */
#define CT__LAKE_BED_MARGIN_M 1.0

/* Lakes keep their own levels (lake_own_levels = 1). A shore pin touching
 * several bodies is a dam: it stands at the highest of their levels, so it is
 * never below the water on either side, and it ties nothing. Levels are the
 * highest that keep every constraint the slope limit s puts on the heights
 * that are fixed: |pin(p) - pin(q)| <= s d(p,q) and, for a water vertex w of
 * a body at level L, pin(p) <= L - 1 m + s d(w,p) (a bed stays under its
 * surface). One Dijkstra over the vertices plus one node per lake, in
 * increasing value: D(u) = min over fixed heights x + s d. A lake's node is
 * keyed min(provisional level, D of its pins) and fixes its level when it
 * pops; a pin becomes a source when the last body it touches is fixed (its
 * value is then the highest level, because levels are fixed in increasing
 * order). With s = 0 nothing relaxes and every lake keeps its provisional
 * level. */
static ct_result ct__lake_levels_own(const ct__graph *g, const int32_t *body_v, const ct__bodies *b,
                                     double s, double *level_b, double *pin_v, uint8_t *is_pin_v,
                                     char *err, size_t errlen)
{
    uint32_t V = g->V, v, k, nb = b->count, c;
    uint32_t *off = NULL, *list = NULL, *fill = NULL, *voff = NULL, *vlist = NULL, *vfill = NULL;
    uint8_t *open_lakes = NULL, *from_water = NULL;
    ct__heap hp = {0};   /* all NULL: ct__heap_free is safe before ct__heap_init ran */
    ct_result res = CT_OK;

    off = (uint32_t *)calloc((size_t)nb + 1u, sizeof *off);
    fill = (uint32_t *)calloc((size_t)nb + 1u, sizeof *fill);
    voff = (uint32_t *)calloc((size_t)nb + 1u, sizeof *voff);
    vfill = (uint32_t *)calloc((size_t)nb + 1u, sizeof *vfill);
    open_lakes = (uint8_t *)calloc((size_t)V + 1u, 1);
    from_water = (uint8_t *)calloc((size_t)V + 1u, 1);
    vlist = (uint32_t *)malloc(sizeof *vlist * (size_t)(V ? V : 1u));
    if (!off || !fill || !voff || !vfill || !open_lakes || !from_water || !vlist ||
        ct__heap_init(&hp, V + nb) != CT_OK)
        goto oom;

    /* Pins, how many distinct lakes each touches, and each lake's pin and
     * water-vertex lists (CSR). */
    for (v = 0; v < V; v++) {
        if (body_v[v] >= 0) {
            voff[body_v[v] + 1]++;
            continue;
        }
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (w == CT__NONE || body_v[w] < 0) continue;
            is_pin_v[v] = 1;
            if (!ct__lake_of(body_v, b, w)) continue;
            if (ct__new_lake_nbr(g, body_v, b, v, k)) {
                off[body_v[w] + 1]++;
                open_lakes[v]++;
            }
        }
    }
    for (k = 0; k < nb; k++) {
        off[k + 1u] += off[k];
        voff[k + 1u] += voff[k];
    }
    list = (uint32_t *)malloc(sizeof *list * (size_t)(off[nb] ? off[nb] : 1u));
    if (!list) goto oom;
    for (v = 0; v < V; v++) {
        if (body_v[v] >= 0) {
            vlist[voff[body_v[v]] + vfill[body_v[v]]++] = v;
            continue;
        }
        if (!is_pin_v[v]) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (w == CT__NONE || !ct__lake_of(body_v, b, w)) continue;
            if (ct__new_lake_nbr(g, body_v, b, v, k)) list[off[body_v[w]] + fill[body_v[w]]++] = v;
        }
    }
    /* Ocean and seas are fixed at 0 from the start: their water vertices
     * and the pins that touch no lake are sources at 0. Lakes wait in the
     * queue at their provisional level. */
    for (v = 0; v < V; v++) {
        int32_t bv = body_v[v];
        if (bv >= 0 && !b->is_lake[bv]) {
            if (!ct__heap_push(&hp, v, 0.0)) goto oom;
            from_water[v] = 1;
        } else if (bv < 0 && is_pin_v[v] && open_lakes[v] == 0) {
            if (!ct__heap_push(&hp, v, 0.0)) goto oom;
        }
    }
    for (c = 0; c < nb; c++)
        if (b->is_lake[c] && !ct__heap_push(&hp, V + c, level_b[c])) goto oom;

    for (;;) {
        double x;
        uint32_t u = ct__heap_pop(&hp, &x), q;
        if (u == CT__NONE) break;
        if (u >= V) {
            c = u - V;
            level_b[c] = x;
            for (q = voff[c]; q < voff[c + 1u]; q++) {
                uint32_t w = vlist[q];
                if (hp.done[w] || !(x < hp.best[w])) continue;
                from_water[w] = 1;
                if (!ct__heap_push(&hp, w, x)) goto oom;
            }
            for (q = off[c]; q < off[c + 1u]; q++) {
                uint32_t p = list[q];
                if (--open_lakes[p] == 0 && !ct__heap_push(&hp, p, x)) goto oom;
            }
            continue;
        }
        if (is_pin_v[u]) {
            /* Every lake this pin touches must stand at or below D(u). */
            for (k = 0; k < 4u; k++) {
                uint32_t w = g->nbr[4u * (size_t)u + k];
                if (w == CT__NONE || !ct__lake_of(body_v, b, w)) continue;
                if (!ct__heap_push(&hp, V + (uint32_t)body_v[w], x)) goto oom;
            }
        }
        if (s > 0.0) {
            for (k = 0; k < 4u; k++) {
                uint32_t w = g->nbr[4u * (size_t)u + k];
                double step = s * g->len_m[4u * (size_t)u + k], key;
                if (w == CT__NONE || hp.done[w]) continue;
                if (from_water[u]) step = step > CT__LAKE_BED_MARGIN_M ? step - CT__LAKE_BED_MARGIN_M : 0.0;
                key = x + step;
                if (!(key < hp.best[w])) continue;
                from_water[w] = 0;
                if (!ct__heap_push(&hp, w, key)) goto oom;
            }
        }
    }
    /* A pin stands at the highest level it touches: never below its water. */
    ct__pins_at_levels(g, body_v, level_b, is_pin_v, 1, pin_v);
    goto done;
oom:
    res = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory solving lake levels");
done:
    free(off);
    free(list);
    free(fill);
    free(voff);
    free(vlist);
    free(vfill);
    free(open_lakes);
    free(from_water);
    ct__heap_free(&hp);
    return res;
}

ct_result ct__lake_beds(const ct__graph *g, const int32_t *body_v, const ct__bodies *b,
                        const double *level_b, double depth_m, double *h,
                        char *err, size_t errlen)
{
    uint32_t V = g->V, v, k, head = 0, tail = 0, nb = b->count;
    uint32_t *hop = (uint32_t *)calloc((size_t)V, sizeof *hop);
    uint32_t *queue = (uint32_t *)malloc(sizeof *queue * (size_t)(V ? V : 1u));
    uint32_t *deepest = (uint32_t *)calloc((size_t)nb + 1u, sizeof *deepest);
    if (!hop || !queue || !deepest) {
        free(hop);
        free(queue);
        free(deepest);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory shaping lake beds");
    }
    /* Hops from the shore inside each lake: 1 next to land. */
    for (v = 0; v < V; v++) {
        if (!ct__lake_of(body_v, b, v)) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (w != CT__NONE && body_v[w] < 0) {
                hop[v] = 1u;
                queue[tail++] = v;
                break;
            }
        }
    }
    while (head < tail) {
        uint32_t a = queue[head++];
        if (hop[a] > deepest[body_v[a]]) deepest[body_v[a]] = hop[a];
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)a + k];
            if (w != CT__NONE && hop[w] == 0u && body_v[w] == body_v[a]) {
                hop[w] = hop[a] + 1u;
                queue[tail++] = w;
            }
        }
    }
    for (v = 0; v < V; v++) {
        int32_t c = body_v[v];
        if (!ct__lake_of(body_v, b, v)) continue;
        /* Deepest at the lake's far-from-shore centre, shallow at its edge. */
        h[v] = level_b[c] - depth_m * ((double)hop[v] / (double)(deepest[c] ? deepest[c] : 1u));
    }
    free(hop);
    free(queue);
    free(deepest);
    return CT_OK;
}

ct_result ct__lake_levels(const ct__graph *g, const int32_t *body_v, const ct__bodies *b,
                          const double *h1, double s, int own_levels, double *level_b, double *pin_v,
                          uint8_t *is_pin_v, char *err, size_t errlen)
{
    uint32_t V = g->V, v, k;
    /* Provisional level: the lowest first-pass height over the footprint. */
    for (k = 0; k < b->count; k++) level_b[k] = b->is_lake[k] ? 1e300 : 0.0;
    for (v = 0; v < V; v++) {
        int32_t c = body_v[v];
        if (c > 0 && b->is_lake[c] && h1[v] < level_b[c]) level_b[c] = h1[v];
    }
    if (own_levels) {
        for (v = 0; v < V; v++) {
            is_pin_v[v] = 0;
            pin_v[v] = 0.0;
        }
        return ct__lake_levels_own(g, body_v, b, s, level_b, pin_v, is_pin_v, err, errlen);
    }
    return ct__lake_levels_tied(g, body_v, b, s, level_b, pin_v, is_pin_v, err, errlen);
}
