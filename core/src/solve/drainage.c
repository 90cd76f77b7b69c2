/* drainage.c - where water goes on the macro graph: depressions resolved by a
 * priority flood from the sinks, flow directions down the filled surface,
 * flow accumulated with a precipitation proxy.
 *
 * The flood (Barnes, Lehman and Mulla 2014, "Priority-Flood") starts at the
 * sinks - the sea at 0 m and every closed lake at its level - and grows
 * outwards in order of the filled height max(own height, height it was
 * reached at), so a depression fills to its spill point. Open lakes take
 * part at their level: the flood enters them over their lowest pass, which
 * becomes the outlet. Levels stay the lakes layer's (lakes.c); this file only
 * decides where water runs.
 *
 * A vertex drains to the neighbour flooded before it with the steepest
 * descent of the filled surface (ties: lower vertex index). Every vertex but
 * a sink has such a neighbour (the one it was reached from), and flood ranks
 * fall along the path, so it ends at a sink and there are no cycles: every
 * land vertex drains to the sea or to a closed lake, by construction. An open
 * lake is then routed through itself to the vertex the flood entered it by,
 * so it has one outlet; that keeps the paths acyclic (a path only ever
 * leaves a lake at that vertex, towards earlier flood ranks). */
#include "solve/ct_drainage.h"
#include "base/ct_heap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The precipitation proxy never reaches 0, so a desert still passes on the
 * water of its mountains upstream (an allogenic river, like the Nile). */
#define CT__PRECIP_MIN 0.05
/* 4 pi: the cell areas are scaled to sum to the sphere's. */
#define CT__FOUR_PI 12.566370614359172

double ct__drainage_precip(const ct__field *w, uint32_t v)
{
    double m = 0.5 + 0.9 * (w->moisture_v ? w->moisture_v[v] : 0.0) + w->cfg.moisture_bias;
    return m < CT__PRECIP_MIN ? CT__PRECIP_MIN : (m > 1.0 ? 1.0 : m);
}

void ct__drainage_free(ct__drainage *d)
{
    if (!d) return;
    free(d->down_v);
    free(d->order);
    free(d->sink_v);
    free(d->fill_v);
    free(d->cell_m2);
    free(d->area_m2);
    free(d->flow_m2);
    free(d->closed_v);
    free(d->lake_v);
    memset(d, 0, sizeof *d);
}

/* Cell areas: the square of the mean edge length at each vertex, scaled so
 * that they sum to 4 pi R^2 (cube-sphere cells shrink towards the corners). */
static void ct__cell_areas(const ct__graph *g, double radius_m, double *cell)
{
    uint32_t v, k;
    double sum = 0.0, scale;
    for (v = 0; v < g->V; v++) {
        double len = 0.0;
        uint32_t cnt = 0;
        for (k = 0; k < 4u; k++) {
            if (g->nbr[4u * (size_t)v + k] == CT__NONE) continue;
            len += g->len_m[4u * (size_t)v + k];
            cnt++;
        }
        len = cnt ? len / (double)cnt : 0.0;
        cell[v] = len * len;
        sum += cell[v];
    }
    scale = sum > 0.0 ? CT__FOUR_PI * radius_m * radius_m / sum : 0.0;
    for (v = 0; v < g->V; v++) cell[v] *= scale;
}

/* Marks the vertices of closed lakes: a lake (the build's rule, from sizes
 * counted on body_v) whose mean precipitation proxy is under the knob. */
static ct_result ct__closed_lakes(const ct__field *w, ct__drainage *d)
{
    uint32_t V = w->vertex_count, v, bodies = 0;
    double *sum;
    uint32_t *size;
    for (v = 0; v < V; v++)
        if (w->body_v[v] >= 0 && (uint32_t)w->body_v[v] + 1u > bodies) bodies = (uint32_t)w->body_v[v] + 1u;
    if (!bodies) return CT_OK;
    sum = (double *)calloc(bodies, sizeof *sum);
    size = (uint32_t *)calloc(bodies, sizeof *size);
    if (!sum || !size) {
        free(sum);
        free(size);
        return CT_ERR_MEMORY;
    }
    for (v = 0; v < V; v++) {
        int32_t b = w->body_v[v];
        if (b < 0) continue;
        size[b]++;
        sum[b] += ct__drainage_precip(w, v);
    }
    for (v = 1; v < bodies; v++) {
        int lake = w->cfg.mode != CT_MODE_NOISE && size[v] > 0 && size[v] <= w->cfg.lake_max_vertices;
        double mean;
        if (!lake) continue;
        mean = sum[v] / (double)size[v];
        size[v] = 0;   /* from here size 0 flags a lake, sum < 0 a closed one */
        if (mean < w->cfg.river_closed_moisture) {
            sum[v] = -1.0;
            d->lakes_closed++;
        } else {
            sum[v] = 1.0;
            d->lakes_open++;
        }
    }
    for (v = 0; v < V; v++) {
        int32_t b = w->body_v[v];
        d->closed_v[v] = (uint8_t)(b > 0 && sum[b] < 0.0);
        d->lake_v[v] = (uint8_t)(b > 0 && size[b] == 0);
    }
    free(sum);
    free(size);
    return CT_OK;
}

/* A sink: the sea (any body that is not a lake) or a closed lake. */
static int ct__is_sink(const ct__field *w, const ct__drainage *d, const uint32_t *size, uint32_t v)
{
    int32_t b = w->body_v[v];
    if (b < 0) return 0;
    if (d->closed_v[v]) return 1;
    return b == 0 || w->cfg.mode == CT_MODE_NOISE || size[b] > w->cfg.lake_max_vertices;
}

/* The priority flood: fills fill_v and order. A world without any sink (all
 * land) floods from its lowest vertex, which then is the one sink.
 * A sink whose neighbours are all sinks (open sea) pops with its own height
 * and pushes nothing (a neighbour's push never beats its seed key), and only
 * its rank against non-sink neighbours is ever read (ct__directions), so it
 * skips the queue and takes a place at the front of the order: the others
 * keep their relative order and every fill value stays the same. */
static ct_result ct__flood(const ct__field *w, const ct__graph *g, ct__drainage *d, const uint32_t *size)
{
    ct__heap hp = {0};
    uint32_t V = w->vertex_count, v, count = 0, lowest = 0, seeds = 0, k;
    double key;
    uint8_t *sink = (uint8_t *)malloc(V ? V : 1u);
    if (!sink) return CT_ERR_MEMORY;
    if (ct__heap_init(&hp, V) != CT_OK) {
        free(sink);
        return CT_ERR_MEMORY;
    }
    for (v = 0; v < V; v++) {
        double h = w->body_v[v] >= 0 ? w->water_level_v[v] : w->height_v[v];
        d->fill_v[v] = h;
        if (h < d->fill_v[lowest]) lowest = v;
        sink[v] = (uint8_t)ct__is_sink(w, d, size, v);
    }
    for (v = 0; v < V; v++) {
        int inner = 1;
        if (!sink[v]) continue;
        seeds++;
        for (k = 0; k < 4u && inner; k++) {
            uint32_t u = g->nbr[4u * (size_t)v + k];
            if (u != CT__NONE && !sink[u]) inner = 0;
        }
        if (inner) {
            hp.done[v] = 1;
            d->order[count++] = v;
        } else if (!ct__heap_push(&hp, v, d->fill_v[v])) {
            goto oom;
        }
    }
    free(sink);
    sink = NULL;
    if (!seeds && V && !ct__heap_push(&hp, lowest, d->fill_v[lowest])) goto oom;
    while ((v = ct__heap_pop(&hp, &key)) != CT__NONE) {
        d->fill_v[v] = key;
        d->order[count++] = v;
        for (k = 0; k < 4u; k++) {
            uint32_t u = g->nbr[4u * (size_t)v + k];
            double h;
            if (u == CT__NONE || hp.done[u]) continue;
            h = w->body_v[u] >= 0 ? w->water_level_v[u] : w->height_v[u];
            if (!ct__heap_push(&hp, u, h > key ? h : key)) goto oom;
        }
    }
    ct__heap_free(&hp);
    /* The graph is connected, so the flood reached every vertex. */
    return count == V ? CT_OK : CT_ERR_CONFIG;
oom:
    free(sink);
    ct__heap_free(&hp);
    return CT_ERR_MEMORY;
}

/* Flow directions down the filled surface. */
static void ct__directions(const ct__field *w, const ct__graph *g, ct__drainage *d, const uint32_t *size,
                           const uint32_t *rank)
{
    uint32_t V = w->vertex_count, i, v, k;
    for (i = 0; i < V; i++) {
        uint32_t best = CT__NONE;
        double best_s = 0.0;
        v = d->order[i];
        d->down_v[v] = CT__NONE;
        if (i == 0 || ct__is_sink(w, d, size, v)) continue;
        for (k = 0; k < 4u; k++) {
            uint32_t u = g->nbr[4u * (size_t)v + k];
            double s;
            if (u == CT__NONE || rank[u] >= i) continue;
            s = (d->fill_v[v] - d->fill_v[u]) / g->len_m[4u * (size_t)v + k];
            if (best == CT__NONE || s > best_s || (s == best_s && u < best)) {
                best = u;
                best_s = s;
            }
        }
        d->down_v[v] = best;
    }
}

/* An open lake has one outlet: the flood entered it at its first vertex (in
 * flood order), whose direction leads out over the pass; every other vertex
 * of the lake drains to it through the lake (breadth first from it, in
 * neighbour-slot order). queue and seen are [V] scratch. */
static void ct__lake_routes(const ct__field *w, const ct__graph *g, ct__drainage *d, uint32_t *queue, uint8_t *seen)
{
    uint32_t V = w->vertex_count, i, head, tail, k;
    memset(seen, 0, (size_t)V);
    for (i = 0; i < V; i++) {
        uint32_t e = d->order[i];
        int32_t b = w->body_v[e];
        if (!d->lake_v[e] || d->closed_v[e] || seen[e]) continue;
        seen[e] = 1;
        head = tail = 0;
        queue[tail++] = e;
        while (head < tail) {
            uint32_t v = queue[head++];
            for (k = 0; k < 4u; k++) {
                uint32_t u = g->nbr[4u * (size_t)v + k];
                if (u == CT__NONE || seen[u] || w->body_v[u] != b) continue;
                seen[u] = 1;
                d->down_v[u] = v;
                queue[tail++] = u;
            }
        }
    }
}

/* order: sinks first, then every vertex after its downstream (breadth first
 * up the tree, children in vertex order). first and next are [V] scratch. */
static void ct__tree_order(uint32_t V, ct__drainage *d, uint32_t *first, uint32_t *next)
{
    uint32_t v, head = 0, tail = 0;
    for (v = 0; v < V; v++) first[v] = next[v] = CT__NONE;
    for (v = V; v-- > 0;) {   /* pushed in reverse, so each list runs in vertex order */
        uint32_t dn = d->down_v[v];
        if (dn == CT__NONE) {
            d->order[tail++] = v;   /* sinks in vertex order */
            continue;
        }
        next[v] = first[dn];
        first[dn] = v;
    }
    /* the reverse loop queued sinks from the top: put them in vertex order */
    for (v = 0; v < tail / 2u; v++) {
        uint32_t t = d->order[v];
        d->order[v] = d->order[tail - 1u - v];
        d->order[tail - 1u - v] = t;
    }
    while (head < tail) {
        uint32_t u = first[d->order[head++]];
        for (; u != CT__NONE; u = next[u]) d->order[tail++] = u;
    }
}

/* Sinks and accumulation in order (downstream first) and its reverse. */
static void ct__accumulate(const ct__field *w, ct__drainage *d)
{
    uint32_t V = w->vertex_count, i, v;
    for (i = 0; i < V; i++) {
        v = d->order[i];
        d->sink_v[v] = d->down_v[v] == CT__NONE ? v : d->sink_v[d->down_v[v]];
        d->area_m2[v] = d->cell_m2[v];
        d->flow_m2[v] = d->cell_m2[v] * ct__drainage_precip(w, v);
    }
    for (i = V; i-- > 0;) {
        v = d->order[i];
        if (d->down_v[v] == CT__NONE) continue;
        d->area_m2[d->down_v[v]] += d->area_m2[v];
        d->flow_m2[d->down_v[v]] += d->flow_m2[v];
    }
}

ct_result ct__drainage_solve(const ct__field *w, const ct__graph *g, ct__drainage *d, char *err, size_t errlen)
{
    uint32_t V = w->vertex_count, v;
    uint32_t *size = NULL, *rank = NULL;
    ct_result r;
    memset(d, 0, sizeof *d);
    d->V = V;
    d->down_v = (uint32_t *)malloc(sizeof *d->down_v * (size_t)V);
    d->order = (uint32_t *)malloc(sizeof *d->order * (size_t)V);
    d->sink_v = (uint32_t *)malloc(sizeof *d->sink_v * (size_t)V);
    d->fill_v = (double *)malloc(sizeof *d->fill_v * (size_t)V);
    d->cell_m2 = (double *)malloc(sizeof *d->cell_m2 * (size_t)V);
    d->area_m2 = (double *)malloc(sizeof *d->area_m2 * (size_t)V);
    d->flow_m2 = (double *)malloc(sizeof *d->flow_m2 * (size_t)V);
    d->closed_v = (uint8_t *)calloc((size_t)V, 1);
    d->lake_v = (uint8_t *)calloc((size_t)V, 1);
    size = (uint32_t *)calloc((size_t)V + 1u, sizeof *size);   /* body sizes; bodies < V */
    rank = (uint32_t *)malloc(sizeof *rank * (size_t)V);
    if (!d->down_v || !d->order || !d->sink_v || !d->fill_v || !d->cell_m2 || !d->area_m2 || !d->flow_m2 ||
        !d->closed_v || !d->lake_v || !size || !rank) {
        r = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory solving the drainage");
        goto done;
    }
    for (v = 0; v < V; v++)
        if (w->body_v[v] >= 0) size[w->body_v[v]]++;
    ct__cell_areas(g, w->cfg.radius_m, d->cell_m2);
    if (ct__closed_lakes(w, d) != CT_OK) {
        r = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory solving the drainage");
        goto done;
    }
    r = ct__flood(w, g, d, size);
    if (r != CT_OK) {
        r = ct__fail(err, errlen, r, r == CT_ERR_MEMORY ? "out of memory flooding the drainage"
                                                        : "the macro graph is not connected");
        goto done;
    }
    for (v = 0; v < V; v++) rank[d->order[v]] = v;
    ct__directions(w, g, d, size, rank);
    /* size and rank are free again: scratch for the lake routes and order */
    ct__lake_routes(w, g, d, size, (uint8_t *)rank);
    ct__tree_order(V, d, size, rank);
    ct__accumulate(w, d);
done:
    free(size);
    free(rank);
    if (r != CT_OK) ct__drainage_free(d);
    return r;
}

/* The length of the edge from v to its neighbour u, metres. */
static double ct__edge_len(const ct__graph *g, uint32_t v, uint32_t u)
{
    uint32_t k;
    for (k = 0; k < 4u; k++)
        if (g->nbr[4u * (size_t)v + k] == u) return g->len_m[4u * (size_t)v + k];
    return 1.0;
}

ct_result ct__erode(ct__field *w, const ct__graph *g, const uint8_t *is_pin_v, char *err, size_t errlen)
{
    uint32_t it, i;
    for (it = 0; it < w->cfg.erosion_iterations; it++) {
        ct__drainage d;
        ct_result r = ct__drainage_solve(w, g, &d, err, errlen);
        if (r != CT_OK) return r;
        for (i = 0; i < d.V; i++) {
            uint32_t v = d.order[i], dn = d.down_v[v];
            double base, F, h, len;
            if (dn == CT__NONE || w->body_v[v] >= 0 || is_pin_v[v]) continue;
            base = w->body_v[dn] >= 0 ? w->water_level_v[dn] : w->height_v[dn];
            len = ct__edge_len(g, v, dn);
            F = w->cfg.erosion_k * d.area_m2[v] / (len * len);
            h = (w->height_v[v] + F * base) / (1.0 + F);
            w->height_v[v] = h > base ? h : base;
        }
        ct__drainage_free(&d);
    }
    return CT_OK;
}
