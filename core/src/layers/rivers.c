/* rivers.c - the river network from the drainage, at world load (what a
 * river does to a sample is in river_sample.c).
 *
 * Network (at world load, from the frozen field): every land vertex whose
 * precipitation-weighted drainage area passes river_min_area_km2 is a river
 * node; its segment runs to its downstream vertex (a node, or the sea or
 * lake it ends in), and an open lake's outlet node also gets a stub segment
 * from the lake. A segment is a cubic Hermite curve between the two vertex
 * directions, tangent-continuous along the main stem (each node's tangent
 * points from its largest upstream neighbour to its downstream one), with
 * tributaries joining at an angle, plus a hashed meander offset that vanishes
 * with its slope at both ends; it is kept as a 16-piece polyline.
 *
 * Surfaces: m(v) = the lowest "macro height - incision" on the way down to v
 * (lakes reset it to their level), then raised to the level of the first
 * water body downstream. So it never rises downstream, meets the lake or sea
 * at its level, and a lake outlet leaves at the lake's level and cuts its way
 * through the pass. Along a segment the surface is flat over the first and
 * last CT__RIVER_FLAT of its length and linear between: where the channels
 * of several segments meet at a node they all stand at the node's level. An
 * outlet stub stays at its lake's level over its first piece too: the
 * sub-grid shore can leave slivers of the lake beside the curve between the
 * steps at which the build looks for water, and there the river must not
 * stand below the lake.
 *
 * Samples (river_sample.c): the distance to the nearby polylines (per macro
 * cell lists made here), a parabolic channel of width ~ sqrt(discharge), valley walls rising
 * at river_valley_slope from the channel's edge, faded out over the outer
 * half of the valley. Everything is a function of the direction alone. */
#include "layers/ct_rivers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Discharge: weighted area times a runoff depth per year (m3/s from m2). */
#define CT__RUNOFF_M_PER_S (0.6 / 31557600.0)
/* Hydraulic geometry (Leopold and Maddock 1953): depth ~ 0.25 Q^0.375 m. */
#define CT__DEPTH_K 0.25
/* The valley is at least this many channel half-widths wide. */
#define CT__VALLEY_MIN_HALF_WIDTHS 4.0
#define CT__SALT_MEANDER 0x6001u

void ct__rivers_free(ct__rivers *rv)
{
    if (!rv) return;
    ct__drainage_free(&rv->dr);
    free(rv->node_v);
    free(rv->node_down);
    free(rv->node_seg);
    free(rv->node_level_m);
    free(rv->node_width_m);
    free(rv->node_flags);
    free(rv->seg);
    free(rv->cell_off);
    free(rv->cell_seg);
    free(rv);
}

size_t ct__rivers_bytes(const ct__rivers *rv)
{
    size_t V, cells;
    if (!rv) return 0;
    V = rv->dr.V;
    cells = rv->cell_off ? (size_t)(V - 2u) : 0u;   /* 6 n^2 = V - 2 */
    return sizeof *rv + V * (4u * sizeof(uint32_t) + 4u * sizeof(double) + 1u) +
           (size_t)rv->node_count * (3u * sizeof(uint32_t) + 2u * sizeof(double) + 1u) +
           (size_t)rv->seg_count * sizeof(ct__river_seg) + (cells + 1u) * sizeof(uint32_t) +
           (rv->cell_off ? (size_t)rv->cell_off[cells] * sizeof(uint32_t) : 0u);
}

int ct__river_cell_has(const ct__rivers *rv, size_t c)
{
    return rv->cell_off[c + 1u] > rv->cell_off[c];
}

static double ct__dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void ct__unit3(double a[3])
{
    double l = sqrt(ct__dot(a, a));
    if (l > 0.0) {
        a[0] /= l;
        a[1] /= l;
        a[2] /= l;
    }
}

/* ------------------------------------------------------------ the network */

/* River surface per vertex (see the top of the file); lvl[v] for water is its
 * level. Needs the flood order of the drainage. */
static ct_result ct__levels(const ct__field *w, const ct__drainage *d, double *lvl)
{
    uint32_t V = w->vertex_count, i, v;
    double *fw = (double *)malloc(sizeof *fw * (size_t)V);
    if (!fw) return CT_ERR_MEMORY;
    for (v = 0; v < V; v++)
        lvl[v] = w->body_v[v] >= 0 ? w->water_level_v[v] : w->height_v[v] - w->cfg.river_incision_m;
    for (i = V; i-- > 0;) {   /* upstream first: the lowest height on the way down */
        uint32_t dn;
        v = d->order[i];
        dn = d->down_v[v];
        if (dn != CT__NONE && w->body_v[dn] < 0 && lvl[v] < lvl[dn]) lvl[dn] = lvl[v];
    }
    for (i = 0; i < V; i++) {   /* downstream first: the first water's level */
        v = d->order[i];
        if (w->body_v[v] >= 0 || d->down_v[v] == CT__NONE) {
            fw[v] = w->body_v[v] >= 0 ? w->water_level_v[v] : lvl[v];
        } else {
            fw[v] = fw[d->down_v[v]];
            if (lvl[v] < fw[v]) lvl[v] = fw[v];
        }
    }
    free(fw);
    return CT_OK;
}

/* Unit tangent at vertex v, in its tangent plane, from a towards b. */
static void ct__tangent(const ct__field *w, uint32_t v, uint32_t a, uint32_t b, double t[3])
{
    const double *p = w->dir_v + 3u * (size_t)v, *pa = w->dir_v + 3u * (size_t)a, *pb = w->dir_v + 3u * (size_t)b;
    double r;
    int k;
    for (k = 0; k < 3; k++) t[k] = pb[k] - pa[k];
    r = ct__dot(t, p);
    for (k = 0; k < 3; k++) t[k] -= r * p[k];
    ct__unit3(t);
}

/* The segment's polyline: Hermite curve from A (tangent ta) to B (tangent
 * tb) plus the meander offset across it, each point back on the sphere. */
static void ct__seg_shape(const ct__field *w, ct__river_seg *s, const double ta[3], const double tb[3])
{
    const double *A = w->dir_v + 3u * (size_t)s->a, *B = w->dir_v + 3u * (size_t)s->b;
    double chord[3], L, m1, m2;
    uint32_t h = ct__hash3(ct__subseed(w->cfg.seed, CT__SALT_MEANDER), s->a, s->b);
    int k, q;
    s->flat_a = CT__RIVER_FLAT;
    for (q = 0; q < 3; q++) chord[q] = B[q] - A[q];
    L = sqrt(ct__dot(chord, chord));
    m1 = w->cfg.river_meander * L * (2.0 * ct__unit(h) - 1.0);
    m2 = w->cfg.river_meander * L * (2.0 * ct__unit(ct__hash2(h, 2u)) - 1.0);
    for (k = 0; k <= CT__RIVER_PIECES; k++) {
        double t = (double)k / (double)CT__RIVER_PIECES, t2 = t * t, t3 = t2 * t;
        double h00 = 2.0 * t3 - 3.0 * t2 + 1.0, h10 = t3 - 2.0 * t2 + t, h01 = -2.0 * t3 + 3.0 * t2, h11 = t3 - t2;
        double d00 = 6.0 * t2 - 6.0 * t, d10 = 3.0 * t2 - 4.0 * t + 1.0, d01 = -d00, d11 = 3.0 * t2 - 2.0 * t;
        double bump = t2 * (1.0 - t) * (1.0 - t);   /* zero with its slope at both ends */
        double off = 16.0 * bump * m1 + 32.0 * bump * (1.0 - 2.0 * t) * m2;
        double p[3], dp[3], lat[3];
        for (q = 0; q < 3; q++) {
            p[q] = h00 * A[q] + h10 * L * ta[q] + h01 * B[q] + h11 * L * tb[q];
            dp[q] = d00 * A[q] + d10 * L * ta[q] + d01 * B[q] + d11 * L * tb[q];
        }
        lat[0] = p[1] * dp[2] - p[2] * dp[1];
        lat[1] = p[2] * dp[0] - p[0] * dp[2];
        lat[2] = p[0] * dp[1] - p[1] * dp[0];
        ct__unit3(lat);
        for (q = 0; q < 3; q++) p[q] += off * lat[q];
        ct__unit3(p);
        if (k == 0 || k == CT__RIVER_PIECES) memcpy(p, k == 0 ? A : B, sizeof p);   /* ends exact */
        memcpy(s->pt + 3 * k, p, sizeof p);
    }
    s->npts = CT__RIVER_PIECES + 1;
}

/* Arc length shares, piece lengths and the bounding ball of the polyline. */
static void ct__seg_finish(const ct__field *w, ct__river_seg *s)
{
    double total = 0.0, r2 = 0.0;
    int k, q, last = s->npts - 1;
    s->u[0] = 0.0;
    for (k = 0; k < last; k++) {
        const double *p0 = s->pt + 3 * k, *p1 = p0 + 3;
        double e[3], l2;
        for (q = 0; q < 3; q++) e[q] = p1[q] - p0[q];
        l2 = ct__dot(e, e);
        s->inv_len2[k] = l2 > 0.0 ? 1.0 / l2 : 0.0;
        total += sqrt(l2);
        s->u[k + 1] = total;
    }
    for (k = 1; k <= last; k++) s->u[k] = total > 0.0 ? s->u[k] / total : 1.0;
    s->u[last] = 1.0;
    s->length_m = total * w->cfg.radius_m;
    for (q = 0; q < 3; q++) s->centre[q] = 0.5 * (s->pt[q] + s->pt[3 * last + q]);
    for (k = 0; k <= last; k++) {
        double e[3], d2;
        for (q = 0; q < 3; q++) e[q] = s->pt[3 * k + q] - s->centre[q];
        d2 = ct__dot(e, e);
        if (d2 > r2) r2 = d2;
    }
    s->radius = sqrt(r2);
}

/* The point at fine step g of the polyline (CT__RIVER_WET_STEPS per piece),
 * the positions where the build looks for water. */
static void ct__seg_step(const ct__river_seg *s, int g, double p[3])
{
    int k = g / CT__RIVER_WET_STEPS, q;
    double t = (double)(g % CT__RIVER_WET_STEPS) / (double)CT__RIVER_WET_STEPS;
    if (k >= s->npts - 1) {
        k = s->npts - 2;
        t = 1.0;
    }
    for (q = 0; q < 3; q++) p[q] = s->pt[3 * k + q] * (1.0 - t) + s->pt[3 * k + 3 + q] * t;
    ct__unit3(p);
}

static size_t ct__cell_of(uint32_t n, const double p[3], int *face, uint32_t *ci, uint32_t *cj);
static int ct__near_water(const ct__field *w, const uint32_t *vc, uint32_t a, uint32_t b);

/* 1 when the cell of p has a water corner: only those cells can hold water. */
static int ct__cell_wet(const ct__field *w, const double p[3])
{
    int face, q;
    uint32_t ci, cj;
    (void)ct__cell_of(w->n, p, &face, &ci, &cj);
    for (q = 0; q < 4; q++)
        if (w->body_v[w->vertex_fij[CT__FIJ(w->n, face, ci + (uint32_t)(q & 1), cj + (uint32_t)(q >> 1))]] >= 0) return 1;
    return 0;
}

/* ct__cell_wet of polyline point k, cached in point_wet (-1 unknown): the
 * two pieces at a point both ask for it. */
static int ct__point_wet(const ct__field *w, const ct__river_seg *s, int k, int *point_wet)
{
    if (point_wet[k] < 0) point_wet[k] = ct__cell_wet(w, s->pt + 3 * k);
    return point_wet[k];
}

/* 1 when fine step g may hold water, its point in p. A piece whose two ends
 * lie in cells without water runs through those cells (pieces are short
 * against cells) and is skipped; piece_wet caches that per piece and
 * point_wet per polyline point (-1 unknown). */
static int ct__step_candidate(const ct__field *w, const ct__river_seg *s, int g, int *piece_wet, double p[3])
{
    int k = g / CT__RIVER_WET_STEPS, *point_wet = piece_wet + CT__RIVER_PIECES;
    if (k >= s->npts - 1) k = s->npts - 2;
    if (piece_wet[k] < 0) piece_wet[k] = ct__point_wet(w, s, k, point_wet) || ct__point_wet(w, s, k + 1, point_wet);
    if (!piece_wet[k]) return 0;
    ct__seg_step(s, g, p);
    return ct__cell_wet(w, p);
}

/* The first fine step from `from` to `to` (inclusive, stepping by dir = +-1)
 * where the field before rivers has sea or lake water, its level in *level;
 * -1 if none. The candidates go to the sampler four at a time. */
static int ct__scan_wet(const ct__field *w, const ct__water_probe *wp, const ct__river_seg *s, int from, int to, int dir,
                        int *piece_wet, double *level)
{
    int cand[4], wet[4], n = 0, g = from, k;
    double pts[12], lv[4];
    for (;;) {
        int end = dir > 0 ? g > to : g < to;
        if (!end && ct__step_candidate(w, s, g, piece_wet, pts + 3 * n)) cand[n++] = g;
        if (n == 4 || (end && n > 0)) {
            for (k = n; k < 4; k++) memcpy(pts + 3 * k, pts, 3 * sizeof(double));
            wp->water4(wp->ctx, pts, lv, wet);
            for (k = 0; k < n; k++)
                if (wet[k]) {
                    *level = lv[k];
                    return cand[k];
                }
            n = 0;
        }
        if (end) return -1;
        g += dir;
    }
}

/* A river ends where its curve first meets the sea or a lake (a sub-grid bay
 * may lie across the macro edge), and an outlet stub starts where its curve
 * last leaves its lake: so along a segment the water never turns back into
 * a river at a higher level. Clips the polyline there (at the fine steps);
 * returns 1 when the start moved (a stub that leaves its lake late). */
static int ct__seg_clip(const ct__field *w, const ct__water_probe *wp, ct__rivers *rv, ct__river_seg *s, int stub)
{
    int G = (s->npts - 1) * CT__RIVER_WET_STEPS, g, g0 = 0, g1 = G, k, n = 0;
    double lv = 0.0, contact = s->level_b, np[3 * (CT__RIVER_PIECES + 1)];
    int piece_wet[2 * CT__RIVER_PIECES + 1];   /* per piece, then per point */
    if (!ct__near_water(w, rv->vc, s->a, s->b)) return 0;
    for (k = 0; k < 2 * CT__RIVER_PIECES + 1; k++) piece_wet[k] = -1;
    /* A stub's backward scan found every step after g0 dry (or all of them
     * dry), so it needs no forward scan. */
    if (stub) {
        if ((g = ct__scan_wet(w, wp, s, G, 0, -1, piece_wet, &lv)) >= 0) g0 = g;
    } else if ((g = ct__scan_wet(w, wp, s, 1, G, 1, piece_wet, &lv)) >= 0) {
        g1 = g;
        contact = lv;
    }
    if (g0 == 0 && g1 == G) return 0;
    ct__seg_step(s, g0, np);
    n = 1;
    for (k = 1; k + 1 < s->npts; k++)
        if (k * CT__RIVER_WET_STEPS > g0 && k * CT__RIVER_WET_STEPS < g1) {
            memcpy(np + 3 * n, s->pt + 3 * k, 3 * sizeof(double));
            n++;
        }
    ct__seg_step(s, g1, np + 3 * n);
    n++;
    memcpy(s->pt, np, 3u * sizeof(double) * (size_t)n);
    s->npts = n;
    if (g1 < G) {
        s->clipped = 1;
        s->level_b = contact;
        /* Water above the river (a lake beside its course): the river rises
         * to it, and ct__lift_levels raises what lies upstream. */
        if (contact > s->level_a) {
            s->level_a = contact;
            rv->level_lifts++;
        }
    }
    return g0 > 0;
}

/* Channel width and depth from the weighted drainage area (hydraulic
 * geometry: w = k sqrt(Q), d = 0.25 Q^0.375, with only sqrt). */
static void ct__hydraulics(const ct__field *w, double flow_m2, double *width_m, double *depth_m)
{
    double Q = flow_m2 * CT__RUNOFF_M_PER_S, q4 = sqrt(sqrt(Q));
    *width_m = w->cfg.river_width_scale * sqrt(Q);
    *depth_m = CT__DEPTH_K * q4 * sqrt(q4);
}

/* The main upstream vertex of every vertex (largest flow, ties: lower
 * index) and, for river nodes, the lake vertex with the largest flow that
 * drains into it (an outlet). */
static void ct__upstream(const ct__field *w, const ct__drainage *d, uint32_t *main_up, uint32_t *lake_in)
{
    uint32_t V = w->vertex_count, v;
    for (v = 0; v < V; v++) main_up[v] = lake_in[v] = CT__NONE;
    for (v = 0; v < V; v++) {
        uint32_t dn = d->down_v[v];
        if (dn == CT__NONE) continue;
        if (main_up[dn] == CT__NONE || d->flow_m2[v] > d->flow_m2[main_up[dn]]) main_up[dn] = v;
        if (w->body_v[v] > 0 && w->body_v[dn] < 0 &&
            (lake_in[dn] == CT__NONE || d->flow_m2[v] > d->flow_m2[lake_in[dn]]))
            lake_in[dn] = v;
    }
}

/* Fills one node's segment (and its flags) from the vertex tables. */
static void ct__node_segment(const ct__field *w, const ct__water_probe *wp, ct__rivers *rv, uint32_t i, const double *lvl,
                             const uint32_t *main_up, const uint32_t *node_of)
{
    const ct__drainage *d = &rv->dr;
    uint32_t v = rv->node_v[i], b = d->down_v[v];
    ct__river_seg *s = &rv->seg[i];
    double ta[3], tb[3], width, depth;
    s->a = v;
    s->b = b;
    ct__tangent(w, v, main_up[v] != CT__NONE ? main_up[v] : v, b, ta);
    if (node_of[b] == CT__NONE) {
        ct__tangent(w, b, v, b, tb);
        ct__tangent(w, v, v, b, ta);   /* a mouth runs straight into its water */
        rv->node_flags[i] |= (uint8_t)(d->lake_v[b] ? CT__RIVER_TO_LAKE : CT__RIVER_TO_SEA);
    } else {
        ct__tangent(w, b, main_up[b] != CT__NONE ? main_up[b] : b, d->down_v[b], tb);
        if (main_up[b] != v) {
            double c[3];
            int q;
            ct__tangent(w, b, v, b, c);
            for (q = 0; q < 3; q++) tb[q] += c[q];
            ct__unit3(tb);
        }
    }
    ct__seg_shape(w, s, ta, tb);
    s->level_a = lvl[v];
    s->level_b = lvl[b];
    ct__seg_clip(w, wp, rv, s, 0);
    ct__seg_finish(w, s);
    ct__hydraulics(w, d->flow_m2[v], &width, &depth);
    s->half_w_m = 0.5 * width;
    s->depth_m = depth;
    rv->node_level_m[i] = lvl[v];
    rv->node_width_m[i] = width;
    rv->node_down[i] = node_of[b] == CT__NONE ? -1 : (int32_t)node_of[b];
    rv->node_seg[i] = i;
}

/* The outlet stub from lake vertex l to node i. */
static void ct__stub_segment(const ct__field *w, const ct__water_probe *wp, ct__rivers *rv, ct__river_seg *s, uint32_t l,
                             uint32_t i, const double *lvl, const uint32_t *main_up)
{
    uint32_t p = rv->node_v[i];
    double ta[3], tb[3], width, depth;
    int moved;
    s->a = l;
    s->b = p;
    ct__tangent(w, l, l, p, ta);
    ct__tangent(w, p, main_up[p] != CT__NONE ? main_up[p] : p, rv->dr.down_v[p], tb);
    ct__seg_shape(w, s, ta, tb);
    s->level_a = lvl[l];
    s->level_b = lvl[p];
    if (s->level_a < s->level_b) {   /* a lake below the water it flows to: keep the surface monotone */
        s->level_a = s->level_b;
        rv->level_lifts++;
    }
    moved = ct__seg_clip(w, wp, rv, s, 1);
    ct__seg_finish(w, s);
    if (moved) {   /* held at the lake's level over the first piece (see the top) */
        s->flat_a = s->u[1] + CT__RIVER_FLAT * (1.0 - s->u[1]);
        if (s->flat_a > 0.5) s->flat_a = 0.5;
    }
    ct__hydraulics(w, rv->dr.flow_m2[p], &width, &depth);
    s->half_w_m = 0.5 * width;
    s->depth_m = depth;
    rv->node_flags[i] |= CT__RIVER_OUTLET;
}

/* The macro cell of a unit direction (the sampler's rule, sample.c). */
static size_t ct__cell_of(uint32_t n, const double p[3], int *face, uint32_t *ci, uint32_t *cj)
{
    double u, v, gx, gy;
    ct__cube_from_dir(p, face, &u, &v);
    gx = (u + 1.0) * 0.5 * (double)n;
    gy = (v + 1.0) * 0.5 * (double)n;
    *ci = (uint32_t)floor(gx);
    *cj = (uint32_t)floor(gy);
    if (*ci >= n) *ci = n - 1u;
    if (*cj >= n) *cj = n - 1u;
    return CT__RIVER_CELL(n, *face, *ci, *cj);
}

/* Per-cell segment lists: a segment is listed in every cell of the 3 x 3
 * block (across cube edges too, through the shared corner vertices) around
 * the cell of every list_stride-th polyline point and the last. A point
 * within the valley half-width of the curve is within reach + list_stride
 * half-pieces of one of those, which ct__valleys keeps under the smallest
 * cell width, so the lists are complete. */
static ct_result ct__cell_lists(const ct__field *w, ct__rivers *rv, const uint32_t *vc)
{
    uint32_t n = w->n, s, pass;
    size_t cells = 6u * (size_t)n * n, c;
    uint32_t *mark = (uint32_t *)calloc(cells, sizeof *mark);
    /* the cell of each listed point, found in pass 0 and read in pass 1 */
    uint32_t *pc = (uint32_t *)malloc(sizeof *pc * ((size_t)rv->seg_count * (CT__RIVER_PIECES + 1u) + 1u));
    size_t np;
    rv->cell_off = (uint32_t *)calloc(cells + 1u, sizeof *rv->cell_off);
    if (!mark || !pc || !rv->cell_off) goto oom;
    for (pass = 0; pass < 2u; pass++) {
        uint32_t *fill = NULL;
        if (pass == 1) {
            for (c = 0; c < cells; c++) rv->cell_off[c + 1u] += rv->cell_off[c];
            rv->cell_seg = (uint32_t *)malloc(sizeof *rv->cell_seg * ((size_t)rv->cell_off[cells] + 1u));
            fill = (uint32_t *)malloc(sizeof *fill * cells);
            if (!rv->cell_seg || !fill) {
                free(fill);
                goto oom;
            }
            memcpy(fill, rv->cell_off, sizeof *fill * cells);
            memset(mark, 0, sizeof *mark * cells);
        }
        for (s = 0, np = 0; s < rv->seg_count; s++) {
            int k, last = rv->seg[s].npts - 1;
            for (k = 0; k <= last; k = (k < last && k + rv->list_stride > last) ? last : k + rv->list_stride) {
                int face;
                uint32_t ci, cj, q, m;
                if (pass == 0) {
                    pc[np] = (uint32_t)ct__cell_of(n, rv->seg[s].pt + 3 * k, &face, &ci, &cj);
                } else {
                    ci = pc[np] % n;
                    cj = (pc[np] / n) % n;
                    face = (int)(pc[np] / (n * n));
                }
                np++;
                for (q = 0; q < 4u; q++) {
                    uint32_t cv = w->vertex_fij[CT__FIJ(n, face, ci + (q & 1u), cj + (q >> 1))];
                    for (m = 0; m < 4u; m++) {
                        uint32_t cc = vc[4u * (size_t)cv + m];
                        if (cc == CT__NONE || mark[cc] == s + 1u) continue;
                        mark[cc] = s + 1u;
                        if (pass == 0) rv->cell_off[cc + 1u]++;
                        else rv->cell_seg[fill[cc]++] = s;
                    }
                }
            }
        }
        free(fill);
    }
    free(mark);
    free(pc);
    return CT_OK;
oom:
    free(mark);
    free(pc);
    return CT_ERR_MEMORY;
}

/* The macro cells at each vertex: vc[4v..4v+3], CT__NONE in unused slots
 * (a cube corner has 3). */
static uint32_t *ct__vertex_cells(const ct__field *w)
{
    uint32_t n = w->n, V = w->vertex_count, f, i, j;
    size_t c;
    uint32_t *vc = (uint32_t *)malloc(sizeof *vc * 4u * (size_t)V);
    if (!vc) return NULL;
    for (c = 0; c < 4u * (size_t)V; c++) vc[c] = CT__NONE;
    for (f = 0; f < 6u; f++)
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++) {
                uint32_t q, k, corner[4];
                corner[0] = w->vertex_fij[CT__FIJ(n, f, i, j)];
                corner[1] = w->vertex_fij[CT__FIJ(n, f, i + 1u, j)];
                corner[2] = w->vertex_fij[CT__FIJ(n, f, i, j + 1u)];
                corner[3] = w->vertex_fij[CT__FIJ(n, f, i + 1u, j + 1u)];
                for (q = 0; q < 4u; q++)
                    for (k = 0; k < 4u; k++)
                        if (vc[4u * (size_t)corner[q] + k] == CT__NONE) {
                            vc[4u * (size_t)corner[q] + k] = (uint32_t)CT__RIVER_CELL(n, f, i, j);
                            break;
                        }
            }
    return vc;
}

/* 1 when a cell at vertex a or b has a water corner. A segment's curve stays
 * inside those cells (its bulge and meander are well under a cell), and
 * only they can hold the water ct__seg_clip looks for. */
static int ct__near_water(const ct__field *w, const uint32_t *vc, uint32_t a, uint32_t b)
{
    uint32_t n = w->n, e, k, q;
    for (e = 0; e < 2u; e++)
        for (k = 0; k < 4u; k++) {
            uint32_t c = vc[4u * (size_t)(e ? b : a) + k], f, ci, cj;
            if (c == CT__NONE) continue;
            ci = c % n;
            cj = (c / n) % n;
            f = c / (n * n);
            for (q = 0; q < 4u; q++)
                if (w->body_v[w->vertex_fij[CT__FIJ(n, f, ci + (q & 1u), cj + (q >> 1))]] >= 0) return 1;
        }
    return 0;
}

/* Valley half-widths: at least CT__VALLEY_MIN_HALF_WIDTHS channel
 * half-widths, and at most what keeps the cell lists complete. */
static void ct__valleys(const ct__field *w, const ct__graph *g, ct__rivers *rv)
{
    double min_edge = 1e300, max_piece = 0.0, cap;
    uint32_t s, k;
    for (k = 0; k < 4u * g->V; k++)
        if (g->nbr[k] != CT__NONE && g->len_m[k] < min_edge) min_edge = g->len_m[k];
    for (s = 0; s < rv->seg_count; s++)
        for (k = 0; k + 1 < (uint32_t)rv->seg[s].npts; k++) {
            double l = rv->seg[s].inv_len2[k] > 0.0 ? 1.0 / sqrt(rv->seg[s].inv_len2[k]) : 0.0;
            if (l > max_piece) max_piece = l;
        }
    cap = 0.9 * min_edge - 0.5 * max_piece * w->cfg.radius_m;
    if (cap < 0.0) cap = 0.0;
    rv->reach = 0.0;
    for (s = 0; s < rv->seg_count; s++) {
        ct__river_seg *sg = &rv->seg[s];
        double v = w->cfg.river_valley_m;
        if (v < CT__VALLEY_MIN_HALF_WIDTHS * sg->half_w_m) v = CT__VALLEY_MIN_HALF_WIDTHS * sg->half_w_m;
        if (v > cap) v = cap;
        if (sg->half_w_m > 0.25 * v) sg->half_w_m = 0.25 * v;
        sg->valley_m = v;
        if (v / w->cfg.radius_m > rv->reach) rv->reach = v / w->cfg.radius_m;
    }
    /* The cell lists may skip polyline points while every point of the
     * curve stays within reach + stride half-pieces of a listed one. */
    rv->list_stride = 1;
    while (rv->list_stride < 8 && rv->reach * w->cfg.radius_m + 0.5 * (double)(2 * rv->list_stride) * max_piece *
                                          w->cfg.radius_m <= 0.9 * min_edge)
        rv->list_stride *= 2;
}

/* After clipping, a node whose segment was raised to a lake lifts every
 * node upstream of it to at least that level (downstream first, so each
 * downstream node is final when its upstream ones read it). */
static void ct__lift_levels(const ct__field *w, ct__rivers *rv, const uint32_t *node_of)
{
    uint32_t i, s;
    if (!rv->level_lifts) return;
    for (i = 0; i < w->vertex_count; i++) {
        uint32_t n = node_of[rv->dr.order[i]];
        ct__river_seg *sg;
        double L;
        if (n == CT__NONE) continue;
        sg = &rv->seg[n];
        L = rv->node_level_m[n] > sg->level_a ? rv->node_level_m[n] : sg->level_a;
        if (!sg->clipped && rv->node_down[n] >= 0) {
            double dn = rv->node_level_m[rv->node_down[n]];
            if (dn > L) L = dn;
            sg->level_b = dn;
        }
        rv->node_level_m[n] = L;
        sg->level_a = L;
    }
    for (s = rv->node_count; s < rv->seg_count; s++) {   /* outlet stubs end at their node */
        ct__river_seg *sg = &rv->seg[s];
        if (sg->clipped) continue;
        sg->level_b = rv->node_level_m[node_of[sg->b]];
        if (sg->level_a < sg->level_b) sg->level_a = sg->level_b;
    }
}

static ct_result ct__network(ct__field *w, const ct__graph *g, const ct__water_probe *wp, ct__rivers *rv)
{
    const ct__drainage *d = &rv->dr;
    uint32_t V = w->vertex_count, v, i, stubs = 0, s;
    double thr = w->cfg.river_min_area_km2 * 1e6;
    double *lvl = (double *)malloc(sizeof *lvl * (size_t)V);
    uint32_t *node_of = (uint32_t *)malloc(sizeof *node_of * (size_t)V);
    uint32_t *main_up = (uint32_t *)malloc(sizeof *main_up * (size_t)V);
    uint32_t *lake_in = (uint32_t *)malloc(sizeof *lake_in * (size_t)V);
    ct_result r = CT_ERR_MEMORY;
    if (!lvl || !node_of || !main_up || !lake_in || ct__levels(w, d, lvl) != CT_OK) goto done;
    if (!(rv->vc = ct__vertex_cells(w))) goto done;
    ct__upstream(w, d, main_up, lake_in);
    for (v = 0; v < V; v++) {
        node_of[v] = CT__NONE;
        if (w->body_v[v] >= 0 || d->down_v[v] == CT__NONE || !(d->flow_m2[v] >= thr)) continue;
        node_of[v] = rv->node_count++;
        if (lake_in[v] != CT__NONE) stubs++;
    }
    rv->node_v = (uint32_t *)malloc(sizeof *rv->node_v * ((size_t)rv->node_count + 1u));
    rv->node_down = (int32_t *)malloc(sizeof *rv->node_down * ((size_t)rv->node_count + 1u));
    rv->node_seg = (uint32_t *)malloc(sizeof *rv->node_seg * ((size_t)rv->node_count + 1u));
    rv->node_level_m = (double *)malloc(sizeof *rv->node_level_m * ((size_t)rv->node_count + 1u));
    rv->node_width_m = (double *)malloc(sizeof *rv->node_width_m * ((size_t)rv->node_count + 1u));
    rv->node_flags = (uint8_t *)calloc((size_t)rv->node_count + 1u, 1);
    rv->seg_count = rv->node_count + stubs;
    rv->seg = (ct__river_seg *)calloc((size_t)rv->seg_count + 1u, sizeof *rv->seg);
    if (!rv->node_v || !rv->node_down || !rv->node_seg || !rv->node_level_m || !rv->node_width_m ||
        !rv->node_flags || !rv->seg)
        goto done;
    for (v = 0; v < V; v++)
        if (node_of[v] != CT__NONE) rv->node_v[node_of[v]] = v;
    for (i = 0; i < rv->node_count; i++) ct__node_segment(w, wp, rv, i, lvl, main_up, node_of);
    for (i = 0, s = rv->node_count; i < rv->node_count; i++)
        if (lake_in[rv->node_v[i]] != CT__NONE)
            ct__stub_segment(w, wp, rv, &rv->seg[s++], lake_in[rv->node_v[i]], i, lvl, main_up);
    ct__lift_levels(w, rv, node_of);
    ct__valleys(w, g, rv);
    r = ct__cell_lists(w, rv, rv->vc);
done:
    free(rv->vc);
    rv->vc = NULL;
    free(lvl);
    free(node_of);
    free(main_up);
    free(lake_in);
    return r;
}

ct_result ct__rivers_derive(ct__field *w, const ct__graph *g, const ct__water_probe *wp, char *err, size_t errlen)
{
    ct__rivers *rv;
    ct_result r;
    uint32_t v;
    ct__rivers_free(w->rivers);
    w->rivers = NULL;
    if (!(w->cfg.river_min_area_km2 > 0.0)) return CT_OK;
    rv = (ct__rivers *)calloc(1, sizeof *rv);
    if (!rv) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for the rivers");
    rv->radius_m = w->cfg.radius_m;
    rv->valley_slope = w->cfg.river_valley_slope;
    rv->bank_moisture = w->cfg.river_bank_moisture;
    if ((r = ct__drainage_solve(w, g, &rv->dr, err, errlen)) != CT_OK) {
        ct__rivers_free(rv);
        return r;
    }
    if (ct__network(w, g, wp, rv) != CT_OK) {
        ct__rivers_free(rv);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for the river network");
    }
    for (v = 0; v < w->vertex_count; v++) {
        uint32_t sk = rv->dr.sink_v[v];
        if (w->body_v[v] >= 0) continue;
        rv->land_m2 += rv->dr.cell_m2[v];
        if (w->body_v[sk] >= 0 && !rv->dr.closed_v[sk]) rv->land_to_sea_m2 += rv->dr.cell_m2[v];
    }
    w->rivers = rv;
    return CT_OK;
}
