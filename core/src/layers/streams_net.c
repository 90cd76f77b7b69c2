/* streams_net.c - the stream network inside a chunk (ct_chunk_streams): the
 * links of the streams layer's lattice (streams.c) that pass through a key's
 * area, as polylines with their water level, width and order.
 *
 * The links are the carve's own: the same node directions and heights
 * (ct__streams_node_dir, ct__streams_node_h), the same rule (a node drains
 * to the lowest of its 8 same-face neighbours when that one is lower, the
 * first of equals in row order), the same bed (falling linearly along the
 * chord from the child's ground, less stream depth when fed, to the
 * parent's ground less depth, a root parent's ground, never above the
 * start). So the water lies on the valley floor the samples carve.
 *
 * A node's link reads its 3 x 3 neighbours, its "fed" flag their links (5 x
 * 5), and the drainage-area estimate the links of its neighbours'
 * neighbours (7 x 7): rows of node heights are kept in a ring of
 * CT__SNET_ROWS rows, filled once each as the children's rows advance.
 *
 * Only + - * / sqrt floor ceil and integer hashes: native equals WebAssembly. */
#include "layers/ct_streams.h"

#include <math.h>

#define CT__SNET_ROWS 8    /* node rows kept: a child's row +- 3, and the next */
#define CT__SNET_REACH 3   /* rows and columns of heights needed beyond a child */
/* Children of a key span at most 256 / CT_STREAMS_MIN_SAMPLES + 2 columns;
 * their heights CT__SNET_REACH more on each side. */
#define CT__SNET_COLS (CT_CHUNK_CORE / CT_STREAMS_MIN_SAMPLES + 2 + 2 * CT__SNET_REACH)
#define CT__SNET_RUNOFF 0.01   /* mean runoff, m3/s per km2 of drainage (about 315 mm a year) */
#define CT__SNET_WIDTH_A 4.0   /* w = a Q^0.5, m with Q in m3/s (mean flow) */

typedef struct ct__snet_node {
    double P[3], H, above;
    int ok;
} ct__snet_node;

/* One level's nodes around a key. */
typedef struct ct__snet {
    const ct__streams_prep *p;
    int l, face;
    ct__streams_memo *m;
    ct__streams_height_fn height;
    void *ctx;
    int64_t x0, last;       /* node column of ring column 0; the face's last node */
    int64_t filled;         /* last row filled */
    int cols;
    ct__snet_node ring[CT__SNET_ROWS][CT__SNET_COLS];
} ct__snet;

/* The key's area in cells of the level: [b0, b1] on each axis. */
typedef struct ct__snet_box {
    double bx0, by0, bx1, by1;
} ct__snet_box;

static ct__snet_node *ct__snet_at(ct__snet *g, int64_t x, int64_t y)
{
    return &g->ring[(uint64_t)(y + 8) % CT__SNET_ROWS][x - g->x0];
}

static void ct__snet_fill_row(ct__snet *g, int64_t y)
{
    int c;
    for (c = 0; c < g->cols; c++) {
        int64_t x = g->x0 + c;
        ct__snet_node *q = ct__snet_at(g, x, y);
        q->ok = x >= 0 && y >= 0 && x <= g->last && y <= g->last;
        if (!q->ok) continue;
        ct__streams_node_dir(&g->p->lv[g->l], g->face, x, y, q->P);
        g->height(g->ctx, q->P, &q->above);
        q->H = ct__streams_node_h(g->p, g->l, g->m, g->face, x, y, q->P, g->height, g->ctx);
    }
    g->filled = y;
}

/* Whether node (x, y) is kept and on the face. */
static int ct__snet_ok(ct__snet *g, int64_t x, int64_t y)
{
    return x >= g->x0 && x < g->x0 + g->cols && ct__snet_at(g, x, y)->ok;
}

/* The node (x, y) drains to, as streams.c's ct__streams_link: 1 and *px, *py,
 * or 0 for a root. */
static int ct__snet_link(ct__snet *g, int64_t x, int64_t y, int64_t *px, int64_t *py)
{
    int a, b, found = 0;
    double hl = ct__snet_at(g, x, y)->H;
    for (b = -1; b <= 1; b++)
        for (a = -1; a <= 1; a++)
            if ((a || b) && ct__snet_ok(g, x + a, y + b) && ct__snet_at(g, x + a, y + b)->H < hl) {
                hl = ct__snet_at(g, x + a, y + b)->H;
                *px = x + a;
                *py = y + b;
                found = 1;
            }
    return found;
}

/* How many of the 8 neighbours of (x, y) drain into it; with grand 1, also
 * how many drain into those. */
static int ct__snet_upstream(ct__snet *g, int64_t x, int64_t y, int grand)
{
    int a, b, n = 0;
    int64_t px, py;
    for (b = -1; b <= 1; b++)
        for (a = -1; a <= 1; a++)
            if ((a || b) && ct__snet_ok(g, x + a, y + b) && ct__snet_link(g, x + a, y + b, &px, &py) && px == x &&
                py == y)
                n += 1 + (grand ? ct__snet_upstream(g, x + a, y + b, 0) : 0);
    return n;
}

/* Whether the face-uv segment from node c to node q (cell units) meets the
 * box: the segment clipped to each slab in turn (Liang-Barsky). */
static int ct__snet_crosses(const ct__snet_box *b, double cx, double cy, double qx, double qy)
{
    double t0 = 0.0, t1 = 1.0, d[2], lo[2], hi[2], o[2];
    int k;
    d[0] = qx - cx;
    d[1] = qy - cy;
    o[0] = cx;
    o[1] = cy;
    lo[0] = b->bx0;
    lo[1] = b->by0;
    hi[0] = b->bx1;
    hi[1] = b->by1;
    for (k = 0; k < 2; k++) {
        double ta, tb;
        if (d[k] == 0.0) {
            if (o[k] < lo[k] || o[k] > hi[k]) return 0;
            continue;
        }
        ta = (lo[k] - o[k]) / d[k];
        tb = (hi[k] - o[k]) / d[k];
        if (ta > tb) { double s = ta; ta = tb; tb = s; }
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
        if (t0 > t1) return 0;
    }
    return 1;
}

/* The jittered cell position of node (x, y) in cell units (the uv that
 * ct__streams_node_dir uses, times n / 2 plus n / 2). */
static void ct__snet_cell_pos(const ct__streams_level *lv, int face, int64_t x, int64_t y, double *px, double *py)
{
    double d[3], u, v;
    int f;
    ct__streams_node_dir(lv, face, x, y, d);
    ct__cube_from_dir(d, &f, &u, &v);
    *px = (u + 1.0) * 0.5 * lv->n;
    *py = (v + 1.0) * 0.5 * lv->n;
}

/* Writes one link's polyline: t from t0 to 1 along the chord, the water
 * falling from bed0 to bed1. */
typedef struct ct__snet_link_out {
    const double *P0, *P1;
    double t0, bed0, bed1, width_m;
    int segments, order, level;
} ct__snet_link_out;

static void ct__snet_emit(const ct__streams_prep *p, const ct__snet_link_out *k, ct_streams *out)
{
    uint32_t li = out->count, pi = out->point_count;
    int i, a;
    if (out->point_start && li < out->link_capacity) out->point_start[li] = pi;
    if (li < out->link_capacity) {
        if (out->width_m) out->width_m[li] = (float)k->width_m;
        if (out->order) out->order[li] = (uint8_t)k->order;
        if (out->level) out->level[li] = (uint8_t)k->level;
    }
    for (i = 0; i <= k->segments; i++, pi++) {
        double t = i == k->segments ? 1.0 : k->t0 + (1.0 - k->t0) * (double)i / (double)k->segments;
        double w = k->bed1 + (1.0 - t) * (k->bed0 - k->bed1), d[3], len, r;
        /* clamped, so rounding never lifts a point above the one before */
        if (w > k->bed0 || (i == 0 && k->t0 == 0.0)) w = k->bed0;
        if (w < k->bed1 || i == k->segments) w = k->bed1;
        if (pi >= out->point_capacity) continue;
        if (out->water_m) out->water_m[pi] = (float)w;
        if (!out->positions) continue;
        /* the last point is the parent node itself, bit for bit, as its own link's first */
        for (a = 0; a < 3; a++) d[a] = i == k->segments ? k->P1[a] : k->P0[a] + t * (k->P1[a] - k->P0[a]);
        len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        r = (p->radius_m + w) / len;
        for (a = 0; a < 3; a++) out->positions[3 * (size_t)pi + a] = (float)(d[a] * r - out->center_m[a]);
    }
    out->count = li + 1;
    out->point_count = pi;
    if (out->point_start && out->count <= out->link_capacity) out->point_start[out->count] = pi;
}

/* Drainage area of a cell of the level at node direction d, km2: the face
 * centre's cell shrunk by the cube map's area element 1 / (1 + u^2 + v^2)^1.5. */
static double ct__snet_cell_km2(const ct__streams_prep *p, const ct__streams_level *lv, const double d[3])
{
    double side_km = 2.0 * p->radius_m / lv->n / 1000.0, u, v, s;
    int f;
    ct__cube_from_dir(d, &f, &u, &v);
    s = 1.0 + u * u + v * v;
    return side_km * side_km / (s * sqrt(s));
}

/* The link of child (x, y), if it has one on land that crosses the box. */
static void ct__snet_child(ct__snet *g, const ct__snet_box *box, double cells_per_sample, int64_t x, int64_t y,
                           ct_streams *out)
{
    const ct__streams_level *lv = &g->p->lv[g->l];
    ct__snet_node *c = ct__snet_at(g, x, y), *q;
    ct__snet_link_out k;
    int64_t px, py, rx, ry;
    double cx, cy, qx, qy, cells, area_km2, Q;
    int fed, up;
    if (!c->ok || !(c->above > 0.0) || !ct__snet_link(g, x, y, &px, &py)) return;
    ct__snet_cell_pos(lv, g->face, x, y, &cx, &cy);
    ct__snet_cell_pos(lv, g->face, px, py, &qx, &qy);
    if (!ct__snet_crosses(box, cx, cy, qx, qy)) return;
    q = ct__snet_at(g, px, py);
    up = ct__snet_upstream(g, x, y, 1);
    fed = up > 0;
    k.P0 = c->P;
    k.P1 = q->P;
    k.bed0 = c->H - (fed ? lv->depth_m : 0.0);
    k.bed1 = ct__snet_link(g, px, py, &rx, &ry) ? q->H - lv->depth_m : q->H;
    if (k.bed1 > k.bed0) k.bed1 = k.bed0;
    /* a head's valley fades in over the first half of its link (streams.c) */
    k.t0 = fed ? 0.0 : 0.5;
    cells = (1.0 - k.t0) * sqrt((qx - cx) * (qx - cx) + (qy - cy) * (qy - cy)) / cells_per_sample;
    k.segments = (int)ceil(cells);
    if (k.segments < 1) k.segments = 1;
    if (k.segments > CT_STREAMS_LINK_SEGMENTS) k.segments = CT_STREAMS_LINK_SEGMENTS;
    area_km2 = ct__snet_cell_km2(g->p, lv, c->P) * (double)(1 + up);
    Q = CT__SNET_RUNOFF * area_km2;
    k.width_m = CT__SNET_WIDTH_A * sqrt(Q);
    k.order = (g->l ? 1 : 3) + fed;   /* the fine level's heads 1, fed 2; the coarse level's 3, 4 */
    k.level = lv->level;
    ct__snet_emit(g->p, &k, out);
}

/* Level l's links through key (visible: its links at least
 * CT_STREAMS_MIN_SAMPLES samples of the key apart). */
static void ct__snet_level(ct__snet *g, ct_key key, ct_streams *out)
{
    const ct__streams_level *lv = &g->p->lv[g->l];
    double c = lv->n / (double)((int64_t)CT_CHUNK_CORE << key.lod);   /* cells per key sample */
    ct__snet_box box;
    int64_t cx0, cx1, cy0, cy1, x, y;
    box.bx0 = (double)key.x * CT_CHUNK_CORE * c;
    box.by0 = (double)key.y * CT_CHUNK_CORE * c;
    box.bx1 = box.bx0 + CT_CHUNK_CORE * c;
    box.by1 = box.by0 + CT_CHUNK_CORE * c;
    /* a node sits within 0.35 cells of its cell's centre and links one cell
     * at most: a child outside these cannot reach the box */
    cx0 = (int64_t)floor(box.bx0) - 1;
    cy0 = (int64_t)floor(box.by0) - 1;
    cx1 = (int64_t)ceil(box.bx1);
    cy1 = (int64_t)ceil(box.by1);
    g->x0 = cx0 - CT__SNET_REACH;
    g->cols = (int)(cx1 - cx0) + 1 + 2 * CT__SNET_REACH;
    g->last = (int64_t)lv->n - 1;
    for (y = cy0 - CT__SNET_REACH; y < cy0 + CT__SNET_REACH; y++) ct__snet_fill_row(g, y);
    for (y = cy0; y <= cy1; y++) {
        while (g->filled < y + CT__SNET_REACH) ct__snet_fill_row(g, g->filled + 1);
        if (y < 0 || y > g->last) continue;
        for (x = cx0 < 0 ? 0 : cx0; x <= cx1 && x <= g->last; x++) ct__snet_child(g, &box, c, x, y, out);
    }
}

void ct__streams_net(const ct__streams_prep *p, ct__streams_memo *m, ct_key key, ct__streams_height_fn height,
                     void *ctx, ct_streams *out)
{
    ct__snet g;   /* about 16 KB of node rows */
    int l;
    if (!p->on) return;
    for (l = 0; l < p->levels; l++) {
        int d = key.lod - p->lv[l].level;
        if (d < 0 || ((int64_t)1 << d) < CT_STREAMS_MIN_SAMPLES) continue;
        g.p = p;
        g.l = l;
        g.m = m;
        g.face = key.face;
        g.height = height;
        g.ctx = ctx;
        ct__snet_level(&g, key, out);
    }
}
