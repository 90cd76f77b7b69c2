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
#include "solve/ct_solve.h"
#include "base/ct_heap.h"

#include <stdlib.h>
#include <string.h>

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

/* Shore pins (land vertices next to water) and each lake's pins as a CSR
 * list, built once for either solve, so a level fixed for a lake reaches
 * every pin of it. */
typedef struct ct__lake_pins {
    uint32_t *off;          /* [body count + 1] first pin of each body in list */
    uint32_t *list;         /* pins of body c: list[off[c] .. off[c+1]), increasing */
    uint8_t *open_v;        /* [V] distinct lakes a pin touches (the own-levels solve counts them down) */
} ct__lake_pins;

static void ct__lake_pins_free(ct__lake_pins *pins)
{
    free(pins->off);
    free(pins->list);
    free(pins->open_v);
}

/* Marks is_pin_v and fills pins. 0 when out of memory. */
static int ct__lake_pins_build(const ct__graph *g, const int32_t *body_v, const ct__bodies *b,
                               uint8_t *is_pin_v, ct__lake_pins *pins)
{
    uint32_t V = g->V, v, k, nb = b->count, *fill;
    pins->off = (uint32_t *)calloc((size_t)nb + 1u, sizeof *pins->off);
    pins->open_v = (uint8_t *)calloc((size_t)V + 1u, 1);
    fill = (uint32_t *)calloc((size_t)nb + 1u, sizeof *fill);
    if (!pins->off || !pins->open_v || !fill) {
        free(fill);
        return 0;
    }
    for (v = 0; v < V; v++) {
        if (body_v[v] >= 0) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (w == CT__NONE || body_v[w] < 0) continue;
            is_pin_v[v] = 1;
            if (ct__new_lake_nbr(g, body_v, b, v, k)) {
                pins->off[body_v[w] + 1]++;
                pins->open_v[v]++;
            }
        }
    }
    for (k = 0; k < nb; k++) pins->off[k + 1u] += pins->off[k];
    pins->list = (uint32_t *)malloc(sizeof *pins->list * (size_t)(pins->off[nb] ? pins->off[nb] : 1u));
    if (!pins->list) {
        free(fill);
        return 0;
    }
    for (v = 0; v < V; v++) {
        if (!is_pin_v[v]) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (ct__new_lake_nbr(g, body_v, b, v, k))
                pins->list[pins->off[body_v[w]] + fill[body_v[w]]++] = v;
        }
    }
    free(fill);
    return 1;
}

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

/* The reference rule (lake_own_levels = 0): shared shore vertices tie levels.
 * Every pin starts at the lowest level it touches; the first pin of a lake to
 * settle fixes the whole lake, and its other pins follow at that value. */
static ct_result ct__lake_levels_tied(const ct__graph *g, const int32_t *body_v, const ct__bodies *b,
                                      const ct__lake_pins *pins, double s, double *level_b,
                                      double *pin_v, const uint8_t *is_pin_v, char *err, size_t errlen)
{
    uint32_t V = g->V, v, k;
    uint8_t *fixed = (uint8_t *)calloc((size_t)b->count + 1u, 1);
    ct__heap hp = {0};   /* all NULL: ct__heap_free is safe before ct__heap_init ran */
    ct_result res = CT_OK;
    if (!fixed || ct__heap_init(&hp, V) != CT_OK) goto oom;
    ct__pins_at_levels(g, body_v, level_b, is_pin_v, 0, pin_v);
    for (v = 0; v < V; v++)
        if (is_pin_v[v] && !ct__heap_push(&hp, v, pin_v[v])) goto oom;
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
                for (q = pins->off[c]; q < pins->off[c + 1]; q++)
                    if (!hp.done[pins->list[q]] && !ct__heap_push(&hp, pins->list[q], x)) goto oom;
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

/* The own-levels solve: a Dijkstra over the V vertices plus one node per
 * body (node V + c). */
typedef struct ct__own_solve {
    const ct__graph *g;
    const int32_t *body_v;
    const ct__bodies *b;
    const uint8_t *is_pin_v;
    ct__lake_pins *pins;
    double s;                /* slope limit, m per m */
    double *level_b;
    uint32_t *voff, *vlist;  /* water vertices of body c: vlist[voff[c] .. voff[c+1]) */
    uint8_t *from_water;     /* [V] 1: the best key came straight from a water level */
    ct__heap hp;
} ct__own_solve;

/* Each body's water vertices as a CSR list. 0 when out of memory. */
static int ct__own_water_lists(ct__own_solve *o)
{
    uint32_t V = o->g->V, v, c, nb = o->b->count, *fill;
    o->voff = (uint32_t *)calloc((size_t)nb + 1u, sizeof *o->voff);
    o->vlist = (uint32_t *)malloc(sizeof *o->vlist * (size_t)(V ? V : 1u));
    fill = (uint32_t *)calloc((size_t)nb + 1u, sizeof *fill);
    if (!o->voff || !o->vlist || !fill) {
        free(fill);
        return 0;
    }
    for (v = 0; v < V; v++)
        if (o->body_v[v] >= 0) o->voff[o->body_v[v] + 1]++;
    for (c = 0; c < nb; c++) o->voff[c + 1u] += o->voff[c];
    for (v = 0; v < V; v++)
        if (o->body_v[v] >= 0) o->vlist[o->voff[o->body_v[v]] + fill[o->body_v[v]]++] = v;
    free(fill);
    return 1;
}

/* Ocean and seas are fixed at 0 from the start: their water vertices and
 * the pins that touch no lake are sources at 0. Lakes wait in the queue at
 * their provisional level. */
static int ct__own_seed(ct__own_solve *o)
{
    uint32_t V = o->g->V, v, c;
    for (v = 0; v < V; v++) {
        int32_t bv = o->body_v[v];
        if (bv >= 0 && !o->b->is_lake[bv]) {
            if (!ct__heap_push(&o->hp, v, 0.0)) return 0;
            o->from_water[v] = 1;
        } else if (bv < 0 && o->is_pin_v[v] && o->pins->open_v[v] == 0) {
            if (!ct__heap_push(&o->hp, v, 0.0)) return 0;
        }
    }
    for (c = 0; c < o->b->count; c++)
        if (o->b->is_lake[c] && !ct__heap_push(&o->hp, V + c, o->level_b[c])) return 0;
    return 1;
}

/* Lake c pops at x: its level is fixed, its water starts at x, and a pin
 * whose last open lake this was becomes a source. */
static int ct__own_fix_lake(ct__own_solve *o, uint32_t c, double x)
{
    uint32_t q;
    o->level_b[c] = x;
    for (q = o->voff[c]; q < o->voff[c + 1u]; q++) {
        uint32_t w = o->vlist[q];
        if (o->hp.done[w] || !(x < o->hp.best[w])) continue;
        o->from_water[w] = 1;
        if (!ct__heap_push(&o->hp, w, x)) return 0;
    }
    for (q = o->pins->off[c]; q < o->pins->off[c + 1u]; q++) {
        uint32_t p = o->pins->list[q];
        if (--o->pins->open_v[p] == 0 && !ct__heap_push(&o->hp, p, x)) return 0;
    }
    return 1;
}

/* Vertex u settles at x: every lake a pin touches must stand at or below x,
 * and its neighbours may rise by at most the slope limit (less the bed
 * margin next to water). */
static int ct__own_settle(ct__own_solve *o, uint32_t u, double x)
{
    const ct__graph *g = o->g;
    uint32_t V = g->V, k;
    if (o->is_pin_v[u]) {
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)u + k];
            if (w == CT__NONE || !ct__lake_of(o->body_v, o->b, w)) continue;
            if (!ct__heap_push(&o->hp, V + (uint32_t)o->body_v[w], x)) return 0;
        }
    }
    if (!(o->s > 0.0)) return 1;
    for (k = 0; k < 4u; k++) {
        uint32_t w = g->nbr[4u * (size_t)u + k];
        double step = o->s * g->len_m[4u * (size_t)u + k], key;
        if (w == CT__NONE || o->hp.done[w]) continue;
        if (o->from_water[u]) step = step > CT__LAKE_BED_MARGIN_M ? step - CT__LAKE_BED_MARGIN_M : 0.0;
        key = x + step;
        if (!(key < o->hp.best[w])) continue;
        o->from_water[w] = 0;
        if (!ct__heap_push(&o->hp, w, key)) return 0;
    }
    return 1;
}

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
                                     ct__lake_pins *pins, double s, double *level_b, double *pin_v,
                                     const uint8_t *is_pin_v, char *err, size_t errlen)
{
    ct__own_solve o;
    ct_result res = CT_OK;
    memset(&o, 0, sizeof o);   /* the heap all NULL: ct__heap_free is safe before ct__heap_init ran */
    o.g = g;
    o.body_v = body_v;
    o.b = b;
    o.is_pin_v = is_pin_v;
    o.pins = pins;
    o.s = s;
    o.level_b = level_b;
    o.from_water = (uint8_t *)calloc((size_t)g->V + 1u, 1);
    if (!o.from_water || !ct__own_water_lists(&o) || ct__heap_init(&o.hp, g->V + b->count) != CT_OK ||
        !ct__own_seed(&o))
        goto oom;
    for (;;) {
        double x;
        uint32_t u = ct__heap_pop(&o.hp, &x);
        if (u == CT__NONE) break;
        if (!(u >= g->V ? ct__own_fix_lake(&o, u - g->V, x) : ct__own_settle(&o, u, x))) goto oom;
    }
    /* A pin stands at the highest level it touches: never below its water. */
    ct__pins_at_levels(g, body_v, level_b, is_pin_v, 1, pin_v);
    goto done;
oom:
    res = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory solving lake levels");
done:
    free(o.voff);
    free(o.vlist);
    free(o.from_water);
    ct__heap_free(&o.hp);
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
    ct__lake_pins pins;
    ct_result res;
    /* Provisional level: the lowest first-pass height over the footprint. */
    for (k = 0; k < b->count; k++) level_b[k] = b->is_lake[k] ? 1e300 : 0.0;
    for (v = 0; v < V; v++) {
        int32_t c = body_v[v];
        if (c > 0 && b->is_lake[c] && h1[v] < level_b[c]) level_b[c] = h1[v];
    }
    for (v = 0; v < V; v++) {
        is_pin_v[v] = 0;
        pin_v[v] = 0.0;
    }
    memset(&pins, 0, sizeof pins);
    if (!ct__lake_pins_build(g, body_v, b, is_pin_v, &pins))
        res = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory solving lake levels");
    else if (own_levels)
        res = ct__lake_levels_own(g, body_v, b, &pins, s, level_b, pin_v, is_pin_v, err, errlen);
    else
        res = ct__lake_levels_tied(g, body_v, b, &pins, s, level_b, pin_v, is_pin_v, err, errlen);
    ct__lake_pins_free(&pins);
    return res;
}
