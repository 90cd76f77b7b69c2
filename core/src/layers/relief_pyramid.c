/* relief_pyramid.c - where the fine-relief octaves are evaluated: octave k at
 * the nodes of its own lattice (level p->level[k] of the face grid, two nodes
 * to its noise cell), bicubic Hermite patches between them (ct_fine_relief.h).
 *
 * Why: evaluated at every sample, as before algorithm version 7, the nine
 * octaves of a surface_lod 14 world cost 4.5-5x a whole default chunk. A
 * patch of an octave's nodes (its value there, and its slope as the gullies
 * steer by it) carries it to the finer samples for a few multiply-adds
 * (bench/ground_cost.c: a surface_lod 14 chunk 1.35-1.55x a default one);
 * what is lost is the octave's detail finer than its lattice (two nodes to a
 * noise cell), which the knobs' gain makes up (docs/generation.md). Patches
 * carry value, slope and twist, so a patch restricted to a finer cell is
 * again such a patch and the levels nest exactly.
 *
 * A node's value is a function of (face, level, node) only: the same code
 * computes it whether a chunk's rows ask for it or ct_world_sample's four
 * corners do. Where the patch weights of a corner are exactly 0 (a node on a
 * coarser lattice line) that corner is not read, so a chunk needs no node
 * outside its own box. Nodes on a face's boundary are computed by each face
 * with steering along the boundary only (fine_relief.c), so both faces agree to
 * rounding there; the samples on a cube edge themselves always take the
 * owner face's value (the chunk asks ct__ground_point), so they are equal to
 * the bit. */
#include "layers/ct_fine_relief.h"

#include <math.h>
#include <string.h>

/* 1D cubic Hermite at s in [0,1] between nodes a and b along x: value and
 * x slope from (f, fx), y slope and twist from (fy, fxy). */
static void ct__herm_x(double s, const ct__gnode *a, const ct__gnode *b, ct__gnode *o)
{
    double s2 = s * s, s3 = s2 * s;
    double h0 = 1.0 - 3.0 * s2 + 2.0 * s3, h1 = 3.0 * s2 - 2.0 * s3, k0 = s - 2.0 * s2 + s3, k1 = s3 - s2;
    double d0 = 6.0 * s2 - 6.0 * s, d1 = 6.0 * s - 6.0 * s2, e0 = 1.0 - 4.0 * s + 3.0 * s2, e1 = 3.0 * s2 - 2.0 * s;
    o->f = h0 * a->f + h1 * b->f + k0 * a->fx + k1 * b->fx;
    o->fx = d0 * a->f + d1 * b->f + e0 * a->fx + e1 * b->fx;
    o->fy = h0 * a->fy + h1 * b->fy + k0 * a->fxy + k1 * b->fxy;
    o->fxy = d0 * a->fy + d1 * b->fy + e0 * a->fxy + e1 * b->fxy;
}

/* The same along y: value and y slope from (f, fy), x slope and twist from
 * (fx, fxy). */
static void ct__herm_y(double t, const ct__gnode *a, const ct__gnode *b, ct__gnode *o)
{
    ct__gnode sa, sb, r;
    sa.f = a->f; sa.fx = a->fy; sa.fy = a->fx; sa.fxy = a->fxy;
    sb.f = b->f; sb.fx = b->fy; sb.fy = b->fx; sb.fxy = b->fxy;
    ct__herm_x(t, &sa, &sb, &r);
    o->f = r.f; o->fx = r.fy; o->fy = r.fx; o->fxy = r.fxy;
}

/* The bicubic Hermite patch over corners c00 c10 c01 c11 at (s, t); a
 * corner whose weight is exactly 0 (s or t is 0) is not read. */
static void ct__patch(double s, double t, const ct__gnode *c00, const ct__gnode *c10, const ct__gnode *c01,
                      const ct__gnode *c11, ct__gnode *o)
{
    if (s == 0.0 && t == 0.0) {
        *o = *c00;
    } else if (t == 0.0) {
        ct__herm_x(s, c00, c10, o);
    } else if (s == 0.0) {
        ct__herm_y(t, c00, c01, o);
    } else {
        ct__gnode r0, r1;
        ct__herm_x(s, c00, c10, &r0);
        ct__herm_x(s, c01, c11, &r1);
        ct__herm_y(t, &r0, &r1, o);
    }
}

/* Derivatives per lattice unit of the next finer level (half the unit). */
static void ct__finer(ct__gnode *n)
{
    n->fx *= 0.5;
    n->fy *= 0.5;
    n->fxy *= 0.25;
}

static void ct__gcoarse_lerp(const ct__gcoarse *a, const ct__gcoarse *b, double s, ct__gcoarse *o)
{
    int k;
    for (k = 0; k < 3; k++) o->grad[k] = a->grad[k] + s * (b->grad[k] - a->grad[k]);
    o->moisture = a->moisture + s * (b->moisture - a->moisture);
}

void ct__gpyr_init(ct__gpyr *g, const ct__ground_prep *p, int face, int top, int64_t x0, int64_t x1, int64_t y0,
                   int64_t y1, ct__gcoarse_fn coarse, void *ctx)
{
    int e, used = 0;
    g->p = p;
    g->face = face;
    g->top = top;
    g->coarse_fn = coarse;
    g->ctx = ctx;
    g->cell_valid = 0;
    /* Each coarser level's box holds the corners of the cells the finer
     * box's nodes lie in. */
    for (e = top - 1; e >= p->base; e--) {
        ct__gpyr_level *L = &g->level[e - p->base];
        x0 >>= 1; y0 >>= 1;
        x1 = (x1 + 1) >> 1; y1 = (y1 + 1) >> 1;
        L->x0 = x0; L->x1 = x1; L->y0 = y0; L->y1 = y1;
        L->width = (int)(x1 - x0 + 1);
        L->row_id[0] = L->row_id[1] = -1;
        L->node[0] = g->pool[0] + used;
        L->node[1] = g->pool[1] + used;
        L->done[0] = g->pool_done[0] + used;
        L->done[1] = g->pool_done[1] + used;
        used += L->width;
    }
}

/* The slot of row y of a level: rows are kept by parity, so the two rows a
 * finer row needs are both there. */
static int ct__gpyr_slot(ct__gpyr *g, ct__gpyr_level *L, int64_t y, int is_base)
{
    int slot = (int)(y & 1);
    if (L->row_id[slot] != y) {
        L->row_id[slot] = y;
        memset(L->done[slot], 0, (size_t)L->width);
        if (is_base) memset(g->cdone[slot], 0, sizeof g->cdone[slot]);
    }
    return slot;
}

/* The coarse input at node (x, y) of level base. */
static const ct__gcoarse *ct__gpyr_base_coarse(ct__gpyr *g, int64_t x, int64_t y)
{
    ct__gpyr_level *L = &g->level[0];
    int slot = ct__gpyr_slot(g, L, y, 1);
    int64_t col = x - L->x0;
    if (!g->cdone[slot][col]) {
        double dir[3];
        ct__sample_direction(g->face, g->p->base, x, y, dir);
        ct__canonical_dir(dir, dir);
        g->coarse_fn(g->ctx, dir, &g->coarse[slot][col]);
        g->cdone[slot][col] = 1;
    }
    return &g->coarse[slot][col];
}

/* The coarse input at node (x, y) of level e: bilinear between the level
 * base nodes around it (exactly theirs on their lattice lines). */
static void ct__gpyr_coarse_at(ct__gpyr *g, int e, int64_t x, int64_t y, ct__gcoarse *out)
{
    int d = e - g->p->base;
    int64_t bx = x >> d, by = y >> d;
    double scale = 1.0 / (double)((int64_t)1 << d);
    double s = (double)(x - (bx << d)) * scale, t = (double)(y - (by << d)) * scale;
    ct__gcoarse a, b;
    if (t == 0.0) {
        if (s == 0.0) *out = *ct__gpyr_base_coarse(g, bx, by);
        else ct__gcoarse_lerp(ct__gpyr_base_coarse(g, bx, by), ct__gpyr_base_coarse(g, bx + 1, by), s, out);
        return;
    }
    if (s == 0.0) {
        a = *ct__gpyr_base_coarse(g, bx, by);
        ct__gcoarse_lerp(&a, ct__gpyr_base_coarse(g, bx, by + 1), t, out);
        return;
    }
    /* a chunk's nodes mostly lie in one or two cells of level base: their
     * corners by value, a pure function of the cell */
    if (!g->cell_valid || g->cell_x != bx || g->cell_y != by) {
        g->cell[0] = *ct__gpyr_base_coarse(g, bx, by);
        g->cell[1] = *ct__gpyr_base_coarse(g, bx + 1, by);
        g->cell[2] = *ct__gpyr_base_coarse(g, bx, by + 1);
        g->cell[3] = *ct__gpyr_base_coarse(g, bx + 1, by + 1);
        g->cell_x = bx;
        g->cell_y = by;
        g->cell_valid = 1;
    }
    ct__gcoarse_lerp(&g->cell[0], &g->cell[1], s, &a);
    ct__gcoarse_lerp(&g->cell[2], &g->cell[3], s, &b);
    ct__gcoarse_lerp(&a, &b, t, out);
}

static const ct__gnode *ct__gpyr_get(ct__gpyr *g, int e, int64_t x, int64_t y);

/* The value of a 1D Hermite at its midpoint: (a + b) / 2 + (da - db) / 8. */
static double ct__mid(double fa, double da, double fb, double db)
{
    return 0.5 * fa + 0.5 * fb + 0.125 * da - 0.125 * db;
}

/* A new node of level surface_lod (no octave lives there and nothing finer
 * reads it): the value of the patch of level surface_lod - 1 at the cell's
 * edge midpoint or centre, its derivatives left 0. */
static void ct__gpyr_value(ct__gpyr *g, int e, int64_t x, int64_t y, ct__gnode *out)
{
    int64_t px = x >> 1, py = y >> 1;
    int sx = (int)(x & 1), sy = (int)(y & 1);
    ct__gnode a = *ct__gpyr_get(g, e - 1, px, py), b;
    out->fx = out->fy = out->fxy = 0.0;
    if (sx && sy) {
        ct__gnode c = *ct__gpyr_get(g, e - 1, px + 1, py), d;
        double f0, f1, d0, d1;
        b = *ct__gpyr_get(g, e - 1, px, py + 1);
        d = *ct__gpyr_get(g, e - 1, px + 1, py + 1);
        /* rows at the midpoint in x (value and y slope), then y */
        f0 = ct__mid(a.f, a.fx, c.f, c.fx);
        d0 = ct__mid(a.fy, a.fxy, c.fy, c.fxy);
        f1 = ct__mid(b.f, b.fx, d.f, d.fx);
        d1 = ct__mid(b.fy, b.fxy, d.fy, d.fxy);
        out->f = ct__mid(f0, d0, f1, d1);
    } else if (sx) {
        b = *ct__gpyr_get(g, e - 1, px + 1, py);
        out->f = ct__mid(a.f, a.fx, b.f, b.fx);
    } else if (sy) {
        b = *ct__gpyr_get(g, e - 1, px, py + 1);
        out->f = ct__mid(a.f, a.fy, b.f, b.fy);
    } else {
        out->f = a.f;
    }
}

/* What node (x, y) of level e holds before its own octaves: the patch of
 * level e - 1 there (nothing at level base); its frame and coarse input. */
static void ct__gpyr_pre(ct__gpyr *g, int e, int64_t x, int64_t y, ct__gnode *out, ct__gframe *fr, ct__gcoarse *c)
{
    const ct__ground_prep *p = g->p;
    if (e == p->base) {
        out->f = out->fx = out->fy = out->fxy = 0.0;
    } else {
        int64_t px = x >> 1, py = y >> 1;
        int sx = (int)(x & 1), sy = (int)(y & 1);
        ct__gnode n00 = *ct__gpyr_get(g, e - 1, px, py), n10, n01, n11;
        /* copies: the window's slots may move while the others are fetched */
        if (sx) n10 = *ct__gpyr_get(g, e - 1, px + 1, py);
        if (sy) n01 = *ct__gpyr_get(g, e - 1, px, py + 1);
        if (sx && sy) n11 = *ct__gpyr_get(g, e - 1, px + 1, py + 1);
        ct__patch(sx ? 0.5 : 0.0, sy ? 0.5 : 0.0, &n00, sx ? &n10 : NULL, sy ? &n01 : NULL, (sx && sy) ? &n11 : NULL, out);
        ct__finer(out);
    }
    ct__ground_frame(p, g->face, e, x, y, fr);
    ct__gpyr_coarse_at(g, e, x, y, c);
}

/* Node (x, y) of level e: the patch of level e - 1 there plus the octaves
 * of level e; at surface_lod, past the last octave's level, the patch's
 * value alone (between them, where the octave count is capped, the patch
 * with its slopes, which finer levels read). */
static void ct__gpyr_node(ct__gpyr *g, int e, int64_t x, int64_t y, ct__gnode *out)
{
    ct__gframe fr;
    ct__gcoarse c;
    if (e > g->p->top && e >= g->p->lod) {
        ct__gpyr_value(g, e, x, y, out);
        return;
    }
    ct__gpyr_pre(g, e, x, y, out, &fr, &c);
    ct__ground_level_octaves(g->p, e, &fr, &c, out);
}

static const ct__gnode *ct__gpyr_get(ct__gpyr *g, int e, int64_t x, int64_t y)
{
    ct__gpyr_level *L = &g->level[e - g->p->base];
    int slot = ct__gpyr_slot(g, L, y, e == g->p->base);
    int64_t col = x - L->x0;
    if (!L->done[slot][col]) {
        if (e <= g->p->top && x + 1 <= L->x1 && !L->done[slot][col + 1]) {
            /* this node and the next in its row, two octave lanes at once
             * (the next is nearly always asked for soon) */
            ct__gnode n[2];
            ct__gframe fr[2];
            ct__gcoarse c[2];
            ct__gpyr_pre(g, e, x, y, &n[0], &fr[0], &c[0]);
            ct__gpyr_pre(g, e, x + 1, y, &n[1], &fr[1], &c[1]);
            ct__ground_level_octaves_x2(g->p, e, fr, c, n);
            L->node[slot][col] = n[0];
            L->node[slot][col + 1] = n[1];
            L->done[slot][col] = L->done[slot][col + 1] = 1;
        } else {
            ct__gnode n;
            ct__gpyr_node(g, e, x, y, &n);
            L->node[slot][col] = n;
            L->done[slot][col] = 1;
        }
    }
    return &L->node[slot][col];
}

/* A node on its way up the levels past the one it was made on: its place
 * at its current level e, its frame there (once known), coarse input and
 * value. */
typedef struct ct__gclimb {
    int e, have_fr;
    int64_t x, y;
    ct__gframe fr;
    ct__gcoarse c;
    ct__gnode n;
} ct__gclimb;

/* To level e + 1 (the node's place there, derivatives per its unit, the
 * frame: halving the axes gives the bits ct__ground_frame would, as
 * everything in them scales by a power of two). */
static void ct__climb_to_next(const ct__ground_prep *p, int face, ct__gclimb *a)
{
    a->e++;
    a->x <<= 1;
    a->y <<= 1;
    ct__finer(&a->n);
    if (a->have_fr) {
        int k;
        /* halved axes: the inverse Gram matrix is four times theirs, exactly */
        for (k = 0; k < 3; k++) {
            a->fr.tx[k] *= 0.5;
            a->fr.ty[k] *= 0.5;
            a->fr.ig[k] *= 4.0;
        }
        a->fr.keep_x = ct__ground_keep(a->x, a->e);
        a->fr.keep_y = ct__ground_keep(a->y, a->e);
    } else {
        ct__ground_frame(p, face, a->e, a->x, a->y, &a->fr);
        a->have_fr = 1;
    }
}

/* Levels past each node's own up to the last octave's, for count (1 or 2)
 * nodes that are nodes on all of them; two at the same level run their
 * octaves in vector lanes. */
static void ct__climb(const ct__ground_prep *p, int face, ct__gclimb *a, int count)
{
    for (;;) {
        int l = 0;
        if (count == 2 && a[0].e == a[1].e && a[0].e < p->top) {
            ct__gframe fr[2];
            ct__gcoarse c[2];
            ct__gnode n[2];
            for (l = 0; l < 2; l++) {
                ct__climb_to_next(p, face, &a[l]);
                fr[l] = a[l].fr;
                c[l] = a[l].c;
                n[l] = a[l].n;
            }
            ct__ground_level_octaves_x2(p, a[0].e, fr, c, n);
            a[0].n = n[0];
            a[1].n = n[1];
            continue;
        }
        if (count == 2 && a[1].e < a[0].e) l = 1;
        if (a[l].e >= p->top) {
            l = 1 - l;
            if (count < 2 || a[l].e >= p->top) return;
        }
        ct__climb_to_next(p, face, &a[l]);
        ct__ground_level_octaves(p, a[l].e, &a[l].fr, &a[l].c, &a[l].n);
    }
}

/* A climb starting at level e (frame NULL: made at the first step; coarse
 * NULL: not needed, the node is at the last octave's level or past it). */
static void ct__climb_begin(ct__gclimb *a, int e, int64_t x, int64_t y, const ct__gnode *n, const ct__gframe *fr,
                            const ct__gcoarse *c)
{
    a->e = e;
    a->x = x;
    a->y = y;
    a->n = *n;
    a->have_fr = fr != NULL;
    if (fr) a->fr = *fr;
    if (c) a->c = *c;
}

/* Node (x, y) of level top to be climbed: a node of level top - 1 too
 * comes from that level's rows (where the patches of its neighbours found
 * it); a new node of level top is made here. */
static void ct__gpyr_start(ct__gpyr *g, int64_t x, int64_t y, ct__gclimb *a)
{
    const ct__ground_prep *p = g->p;
    int e = g->top;
    ct__gnode n;
    ct__gcoarse c;
    if (e > p->base && !(x & 1) && !(y & 1)) {
        x >>= 1;
        y >>= 1;
        e--;
        n = *ct__gpyr_get(g, e, x, y);
    } else {
        ct__gpyr_node(g, e, x, y, &n);
    }
    if (e < p->top) ct__gpyr_coarse_at(g, e, x, y, &c);
    ct__climb_begin(a, e, x, y, &n, NULL, e < p->top ? &c : NULL);
}

static void ct__gpyr_full(ct__gpyr *g, int64_t x, int64_t y, ct__gnode *n)
{
    ct__gclimb a;
    ct__gpyr_start(g, x, y, &a);
    ct__climb(g->p, g->face, &a, 1);
    *n = a.n;
}

double ct__gpyr_at(ct__gpyr *g, int64_t x, int64_t y)
{
    ct__gnode n;
    ct__gpyr_full(g, x, y, &n);
    return n.f;
}

void ct__gpyr_at2(ct__gpyr *g, const int64_t x[2], int64_t y, double out[2])
{
    const ct__ground_prep *p = g->p;
    ct__gclimb a[2];
    int l;
    if (g->top <= p->top && ((x[0] | y) & 1) && ((x[1] | y) & 1)) {
        /* two new nodes of level top with octaves of their own: those in
         * vector lanes too, and their frames go on up with them */
        ct__gframe fr[2];
        ct__gcoarse c[2];
        ct__gnode n[2];
        for (l = 0; l < 2; l++) ct__gpyr_pre(g, g->top, x[l], y, &n[l], &fr[l], &c[l]);
        ct__ground_level_octaves_x2(p, g->top, fr, c, n);
        for (l = 0; l < 2; l++) ct__climb_begin(&a[l], g->top, x[l], y, &n[l], &fr[l], &c[l]);
    } else {
        ct__gpyr_start(g, x[0], y, &a[0]);
        ct__gpyr_start(g, x[1], y, &a[1]);
    }
    ct__climb(g->p, g->face, a, 2);
    out[0] = a[0].n.f;
    out[1] = a[1].n.f;
}

/* A node of level base that is one of every finer level too: octaves of
 * level base, then the climb. */
static void ct__chain_start(const ct__ground_prep *p, int face, int level, int64_t x, int64_t y, const ct__gcoarse *c,
                            ct__gclimb *a)
{
    ct__gnode zero = {0.0, 0.0, 0.0, 0.0};
    ct__gframe fr;
    x <<= p->base - level;
    y <<= p->base - level;
    ct__ground_frame(p, face, p->base, x, y, &fr);
    ct__climb_begin(a, p->base, x, y, &zero, &fr, c);
}

double ct__ground_chain(const ct__ground_prep *p, int face, int level, int64_t x, int64_t y, const ct__gcoarse *c)
{
    ct__gclimb a;
    ct__chain_start(p, face, level, x, y, c, &a);
    ct__ground_level_octaves(p, p->base, &a.fr, &a.c, &a.n);
    ct__climb(p, face, &a, 1);
    return a.n.f;
}

void ct__ground_chain2(const ct__ground_prep *p, int face, int level, const int64_t x[2], int64_t y,
                       const ct__gcoarse c[2], double out[2])
{
    ct__gclimb a[2];
    ct__gframe fr[2];
    ct__gcoarse cc[2];
    ct__gnode n[2];
    int l;
    for (l = 0; l < 2; l++) {
        ct__chain_start(p, face, level, x[l], y, &c[l], &a[l]);
        fr[l] = a[l].fr;
        cc[l] = a[l].c;
        n[l] = a[l].n;
    }
    ct__ground_level_octaves_x2(p, p->base, fr, cc, n);
    a[0].n = n[0];
    a[1].n = n[1];
    ct__climb(p, face, a, 2);
    out[0] = a[0].n.f;
    out[1] = a[1].n.f;
}

/* A lattice coordinate within 1e-7 of a node is that node: chunk sample
 * directions come back from ct__cube_from_dir a few ulps off theirs. */
static double ct__snap(double x)
{
    double r = floor(x + 0.5);
    return fabs(x - r) < 1e-7 ? r : x;
}

double ct__ground_point(const ct__ground_prep *p, const double dir[3], const ct__gcoarse *own, ct__gcoarse_fn coarse,
                        void *ctx)
{
    int face, top = p->top, shift = p->lod - p->top;
    double u, v, gx, gy, s, t, scale;
    int64_t x0, y0, last;
    ct__gnode c00, c10, c01, c11, out;
    ct__gpyr pyr;
    ct__cube_from_dir(dir, &face, &u, &v);
    last = (int64_t)CT_CHUNK_CORE << p->lod;
    gx = ct__snap((u + 1.0) * 0.5 * (double)last);
    gy = ct__snap((v + 1.0) * 0.5 * (double)last);
    if (gx == floor(gx) && gy == floor(gy)) {
        /* a sample of surface_lod: the node, as its chunks make it */
        int64_t x = (int64_t)gx, y = (int64_t)gy, step = (int64_t)1 << (p->lod - p->base);
        if (own && x % step == 0 && y % step == 0) return ct__ground_chain(p, face, p->base, x / step, y / step, own);
        ct__gpyr_init(&pyr, p, face, p->lod, x, x, y, y, coarse, ctx);
        ct__gpyr_full(&pyr, x, y, &c00);
        return c00.f;
    }
    /* between samples: the patch of the finest octave's level */
    scale = 1.0 / (double)((int64_t)1 << shift);
    gx *= scale;
    gy *= scale;
    last >>= shift;
    x0 = (int64_t)floor(gx);
    y0 = (int64_t)floor(gy);
    if (x0 >= last) x0 = last - 1;
    if (y0 >= last) y0 = last - 1;
    s = gx - (double)x0;
    t = gy - (double)y0;
    ct__gpyr_init(&pyr, p, face, top, x0, s == 0.0 ? x0 : x0 + 1, y0, t == 0.0 ? y0 : y0 + 1, coarse, ctx);
    ct__gpyr_full(&pyr, x0, y0, &c00);
    if (s != 0.0) ct__gpyr_full(&pyr, x0 + 1, y0, &c10);
    if (t != 0.0) ct__gpyr_full(&pyr, x0, y0 + 1, &c01);
    if (s != 0.0 && t != 0.0) ct__gpyr_full(&pyr, x0 + 1, y0 + 1, &c11);
    ct__patch(s, t, &c00, &c10, &c01, &c11, &out);
    return out.f;
}
