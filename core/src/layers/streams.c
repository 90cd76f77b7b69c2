/* streams.c - valleys that join downhill, below the macro rivers.
 *
 * Each cube face carries a lattice of 256 x 2^level nodes a side, each node
 * jittered inside its lattice cell by a hash of (face, x, y): world-anchored,
 * so every chunk, LOD and point sample sees the same nodes. A node drains to
 * the lowest of its 8 neighbours on the same face when that one is lower,
 * by the ground before fine relief (macro + detail + ranges, the caller's
 * height function): the links form trees that join downhill, found from a
 * node's 3 x 3 neighbourhood alone, so no global solve.
 *
 * Along each link the bed falls linearly from the child's ground minus
 * stream_depth_m to the parent's ground minus stream_depth_m: it never rises
 * downstream (the parent is lower) and every tributary meets its parent at
 * the parent's level. A sample takes the lowest valley over the links near
 * it, bed + the valley side's rise; the land goes down to it (never up,
 * except on the floor, where it is set to the bed so that a dip in the
 * finer relief does not close a hollow in the channel). The valley side
 * steepens to a wall at 1/4 of a lattice cell at a face centre, so links
 * whose child lies outside the 5 x 5 nodes around the sample cannot reach it
 * (they stay more than half a cell away, corners of the face included).
 *
 * Only + - * / sqrt floor and integer hashes: native equals WebAssembly. */
#include "layers/ct_streams.h"

#include <math.h>

#define CT__STREAMS_SALT 0x4005u
#define CT__STREAMS_REACH 0.25     /* most reach of a valley, in face-centre lattice cells */
#define CT__STREAMS_CUT 100.0      /* most a valley cuts, in stream depths (besides its floor) */

void ct__streams_prepare(const ct_config *cfg, ct__streams_prep *p)
{
    int l;
    p->on = cfg->stream_depth_m > 0.0 && cfg->mode != CT_MODE_WALK && cfg->surface_lod >= cfg->stream_from_lod;
    p->levels = cfg->stream_fine_level > cfg->stream_level ? 2 : 1;
    p->wall = cfg->stream_wall;
    p->core_m = cfg->stream_floor_m;
    p->radius_m = cfg->radius_m;
    for (l = 0; l < p->levels; l++) {
        ct__streams_level *v = &p->lv[l];
        v->level = (int)(l ? cfg->stream_fine_level : cfg->stream_level);
        v->n = (double)((int64_t)CT_CHUNK_CORE << v->level);
        /* the finer level's valleys are as much shallower as its links are shorter */
        v->depth_m = l ? cfg->stream_depth_m * p->lv[0].n / v->n : cfg->stream_depth_m;
        v->reach_m = CT__STREAMS_REACH * 2.0 * cfg->radius_m / v->n;
        /* a squared unit-sphere distance surely beyond the reach */
        v->near2 = (v->reach_m / cfg->radius_m) * (v->reach_m / cfg->radius_m) * (1.0 + 1e-6);
        v->seed = ct__hash2(ct__subseed(cfg->seed, CT__STREAMS_SALT), (uint32_t)l);
    }
}

/* --- the links that may reach a cell or a sample --- */

#define CT__SC_FED 1     /* whether the child is fed is known */
#define CT__SC_FEDV 2    /* the child is fed */
#define CT__SC_ROOT 4    /* whether the parent is a root is known */
#define CT__SC_ROOTV 8   /* the parent is a root */
#define CT__SC_H 16      /* the ends' grounds are not yet read */
#define CT__SC_LINK 32   /* the child may drain elsewhere: check its link */

/* Whether a link from the child at offset (dx, dy) of the 5 x 5 nodes
 * around a cell, towards neighbour (a, b), may reach the cell: a child two
 * cells off lies more than 1.15 cells from it (jitter 0.7) unless its link
 * comes back towards it, and the reach is at most 0.785 cells (below). */
static inline int ct__streams_pair(int dx, int dy, int a, int b)
{
    return (a || b) && (dx != -2 || a == 1) && (dx != 2 || a == -1) && (dy != -2 || b == 1) && (dy != 2 || b == -1);
}

/* The lattice positions (x + 0.5 + jitter, the hash of ct__streams_node_dir)
 * of the 5 x 5 nodes around cell (ix, iy), and the square of the reach in
 * lattice units where the face is most shrunk over them: the sphere
 * distance between two points is at least their face (u, v) distance over
 * 1 + u^2 + v^2 along the straight (u, v) line between them (a great
 * circle), and a 2% margin plus 0.02 cells covers the chord's sag and
 * rounding. */
static double ct__streams_lattice(const ct__streams_level *lv, int face, int64_t ix, int64_t iy, double X[5][5],
                                  double Y[5][5], int ok[5][5])
{
    int64_t last = (int64_t)lv->n - 1;
    double ua, ub, va, vb, r;
    int i, j;
    for (j = 0; j < 5; j++)
        for (i = 0; i < 5; i++) {
            int64_t x = ix - 2 + i, y = iy - 2 + j;
            uint32_t h;
            ok[j][i] = x >= 0 && y >= 0 && x <= last && y <= last;
            if (!ok[j][i]) continue;
            h = ct__hash4(lv->seed, (uint32_t)face, (uint32_t)x, (uint32_t)y);
            X[j][i] = (double)x + 0.5 + ((double)(h & 0xffffu) / 65536.0 - 0.5) * CT__STREAMS_JITTER;
            Y[j][i] = (double)y + 0.5 + ((double)(h >> 16) / 65536.0 - 0.5) * CT__STREAMS_JITTER;
        }
    ua = fabs(2.0 * (double)(ix - 2) / lv->n - 1.0);
    ub = fabs(2.0 * (double)(ix + 3) / lv->n - 1.0);
    va = fabs(2.0 * (double)(iy - 2) / lv->n - 1.0);
    vb = fabs(2.0 * (double)(iy + 3) / lv->n - 1.0);
    ua = ua > ub ? ua : ub;
    va = va > vb ? va : vb;
    if (ua > 1.0) ua = 1.0;
    if (va > 1.0) va = 1.0;
    r = (CT__STREAMS_REACH * (1.0 + ua * ua + va * va)) * 1.02 + 0.02;
    return r * r;
}

/* Whether the box of the segment between lattice points (x0, y0) and
 * (x1, y1) is nearer box [b0, b1] x [b2, b3] than sqrt(rc2). */
static inline int ct__streams_near(double x0, double y0, double x1, double y1, const double box[4], double rc2)
{
    double sx0 = x0 < x1 ? x0 : x1, sx1 = x0 < x1 ? x1 : x0, sy0 = y0 < y1 ? y0 : y1, sy1 = y0 < y1 ? y1 : y0;
    double gx = sx0 > box[1] ? sx0 - box[1] : box[0] > sx1 ? box[0] - sx1 : 0.0;
    double gy = sy0 > box[3] ? sy0 - box[3] : box[2] > sy1 ? box[2] - sy1 : 0.0;
    return gx * gx + gy * gy < rc2;
}

/* Whether the lattice segment from (x0, y0) to (x1, y1) comes nearer point
 * (x, y) than sqrt(rc2). */
static int ct__streams_near_point(double x0, double y0, double x1, double y1, double x, double y, double rc2)
{
    double dx = x1 - x0, dy = y1 - y0, px = x - x0, py = y - y0, t = (px * dx + py * dy) / (dx * dx + dy * dy);
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    px -= t * dx;
    py -= t * dy;
    return px * px + py * py < rc2;
}

/* A candidate link from node (x, y) to (px, py): its segment; its ends'
 * grounds now (heights 1) or when first needed. */
static void ct__streams_cand_set(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x,
                                 int64_t y, int64_t px, int64_t py, int heights, ct__streams_height_fn height,
                                 void *ctx, ct__streams_cand *c)
{
    const double *P;
    int k;
    c->x = (int32_t)x;
    c->y = (int32_t)y;
    c->px = (int32_t)px;
    c->py = (int32_t)py;
    c->flags = heights ? 0 : CT__SC_H;
    if (heights) {
        c->hc = ct__streams_ground(p, l, m, face, x, y, height, ctx);
        c->hp = ct__streams_ground(p, l, m, face, px, py, height, ctx);
    }
    P = ct__streams_dir_of(p, l, m, face, px, py);
    for (k = 0; k < 3; k++) c->ab[k] = P[k];
    P = ct__streams_dir_of(p, l, m, face, x, y);
    for (k = 0; k < 3; k++) {
        c->P[k] = P[k];
        c->ab[k] = c->ab[k] - P[k];
    }
    c->ab2 = c->ab[0] * c->ab[0] + c->ab[1] * c->ab[1] + c->ab[2] * c->ab[2];
}

/* The lattice lines of link c from (x0, y0) to (x1, y1): no sample farther
 * than rc from its line, or beyond rc before its child or past its parent
 * along it, is within reach (rounding is far inside rc's margin). */
static void ct__streams_capsule(double x0, double y0, double x1, double y1, double rc, ct__streams_cand *c)
{
    double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
    c->tx = dx / len;
    c->ty = dy / len;
    c->t0 = c->tx * x0 + c->ty * y0 - rc;
    c->t1 = c->t0 + len + 2.0 * rc;
    c->n0 = c->tx * y0 - c->ty * x0 - rc;
    c->n1 = c->n0 + 2.0 * rc;
}

/* Fills r with the links of cell (ix, iy): those of the children in the
 * 5 x 5 nodes around it whose ends' box comes within the reach of the
 * cell. So no link within reach of a sample in the cell is left out; each
 * sample still measures its exact distance to them. */
static void ct__streams_build(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t ix,
                              int64_t iy, ct__streams_height_fn height, void *ctx, ct__streams_region *r)
{
    double X[5][5], Y[5][5], rc2, rc, box[4];
    int ok[5][5], i, j, a, b;
    ct__streams_cand *c;
    /* the list goes at the pool's head, which wraps round to 0 (lists it
     * then overwrites are found stale by ct__streams_intact) */
    if (m->head[l] + CT__STREAMS_CANDS > CT__STREAMS_POOL) {
        m->head[l] = 0;
        m->wraps[l]++;
    }
    r->start = m->head[l];
    r->epoch = m->wraps[l];
    rc2 = ct__streams_lattice(&p->lv[l], face, ix, iy, X, Y, ok);
    rc = sqrt(rc2);
    box[0] = (double)ix;
    box[1] = (double)ix + 1.0;
    box[2] = (double)iy;
    box[3] = (double)iy + 1.0;
    r->n = 0;
    for (j = 0; j < 5; j++)
        for (i = 0; i < 5; i++) {
            int mask = 0, link;
            int64_t x = ix - 2 + i, y = iy - 2 + j;
            if (!ok[j][i]) continue;
            for (b = -1; b <= 1; b++)
                for (a = -1; a <= 1; a++)
                    if (ct__streams_pair(i - 2, j - 2, a, b) && ok[j + b][i + a] &&
                        ct__streams_near(X[j][i], Y[j][i], X[j + b][i + a], Y[j + b][i + a], box, rc2))
                        mask |= 1 << ((b + 1) * 3 + a + 1);
            if (!mask) continue;
            link = ct__streams_link(p, l, m, face, x, y, height, ctx);
            if (link < 0 || !(mask & (1 << link))) continue;   /* a root, or its link stays out of reach */
            c = &m->pool[l][r->start + r->n++];
            ct__streams_cand_set(p, l, m, face, x, y, x + link % 3 - 1, y + link / 3 - 1, 1, height, ctx, c);
            a = link % 3 - 1;
            b = link / 3 - 1;
            ct__streams_capsule(X[j][i], Y[j][i], X[j + b][i + a], Y[j + b][i + a], rc, c);
        }
    m->head[l] += r->n;
    r->face = face;
    r->ix = ix;
    r->iy = iy;
    r->valid = 1;
}

/* Whether list r still holds its links: written in this round of the pool,
 * or in the last one above where this round has reached. */
static int ct__streams_intact(const ct__streams_memo *m, int l, const ct__streams_region *r)
{
    return r->epoch == m->wraps[l] || (r->epoch == m->wraps[l] - 1 && m->head[l] <= r->start);
}

/* Whether a sample whose cell has no kept list reads its links alone: when
 * the last cell served one sample alone (a coarse chunk), a cell's list
 * would not repay its making (two samples a cell already do, LOD 8
 * measured). */
static int ct__streams_alone(ct__streams_memo *m, int l, int face, int64_t ix, int64_t iy)
{
    int alone;
    if (m->last_face[l] == face && m->last_ix[l] == ix && m->last_iy[l] == iy) {
        m->served[l]++;
        return 0;
    }
    alone = m->served[l] == 1;
    m->last_face[l] = face;
    m->last_ix[l] = ix;
    m->last_iy[l] = iy;
    m->served[l] = 1;
    return alone;
}

/* The larger of best and what link c takes off a sample of height h_m at
 * dir. */
static double ct__streams_cut(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, ct__streams_cand *c,
                              const double dir[3], double h_m, double best, ct__streams_height_fn height, void *ctx)
{
    const ct__streams_level *lv = &p->lv[l];
    double sa[3], t, q[3], qq, d, r, target, bed0, bed1, cut, wt, reach = lv->reach_m;
    int a, fed;
    for (a = 0; a < 3; a++) sa[a] = dir[a] - c->P[a];
    t = (sa[0] * c->ab[0] + sa[1] * c->ab[1] + sa[2] * c->ab[2]) / c->ab2;
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    for (a = 0; a < 3; a++) q[a] = sa[a] - t * c->ab[a];
    qq = q[0] * q[0] + q[1] * q[1] + q[2] * q[2];
    if (qq > lv->near2) return best;   /* surely beyond the reach; the exact test decides the rest */
    d = sqrt(qq) * p->radius_m;
    if (!(d < reach)) return best;
    if (c->flags & CT__SC_H) {
        c->hc = ct__streams_ground(p, l, m, face, c->x, c->y, height, ctx);
        c->hp = ct__streams_ground(p, l, m, face, c->px, c->py, height, ctx);
        c->flags &= ~CT__SC_H;
    }
    /* The beds are at least depth_m below both ends' grounds, and what a
     * link takes off is at most the ground above its side: a link that
     * cannot beat the best so far needs neither end's neighbourhood. */
    target = (1.0 - t) * (c->hc - lv->depth_m) + t * (c->hp - lv->depth_m) + p->wall * d;
    if (!(h_m - target + 1e-6 > best)) return best;
    if (c->flags & CT__SC_LINK) {
        if (!ct__streams_drains(p, l, m, face, c->x, c->y, (c->py - c->y + 1) * 3 + c->px - c->x + 1, height, ctx))
            return best;
        c->flags &= ~CT__SC_LINK;
    }
    if (!(c->flags & CT__SC_FED)) {
        if (ct__streams_fed(p, l, m, face, c->x, c->y, height, ctx)) c->flags |= CT__SC_FEDV;
        c->flags |= CT__SC_FED;
    }
    if (!(c->flags & CT__SC_ROOT)) {
        if (ct__streams_root(p, l, m, face, c->px, c->py, height, ctx)) c->flags |= CT__SC_ROOTV;
        c->flags |= CT__SC_ROOT;
    }
    fed = (c->flags & CT__SC_FEDV) != 0;
    /* A head (no node drains into it) starts at its ground, a node fed from
     * upstream at depth_m below it. The parent is fed (by this node) and
     * lower, so its bed, depth_m below its ground, is lower than this
     * one's: the bed never rises downstream. A root parent keeps its
     * ground; the link then ends no higher than it starts. */
    bed0 = c->hc - (fed ? lv->depth_m : 0.0);
    bed1 = !(c->flags & CT__SC_ROOTV) ? c->hp - lv->depth_m : c->hp;
    if (bed1 > bed0) bed1 = bed0;
    target = (1.0 - t) * bed0 + t * bed1 + p->wall * d;
    r = d / reach;
    /* how far the sample goes down to this valley: to its side where the
     * side is below the ground, at most CT__STREAMS_CUT depths, fading to
     * nothing at the reach */
    cut = h_m - target;
    if (!(cut > 0.0)) return best;   /* the ground is below this valley's side */
    if (cut > CT__STREAMS_CUT * lv->depth_m) cut = CT__STREAMS_CUT * lv->depth_m;
    wt = (1.0 - r * r) * (1.0 - r * r);
    /* a head's valley shallows out over the first half of its link, so it
     * never ends in a hole */
    if (!fed) {
        double e = t < 0.5 ? 2.0 * t : 1.0;
        wt *= e * e * (3.0 - 2.0 * e);
    }
    cut *= wt;
    if (fed && d < p->core_m) cut += (1.0 - d / p->core_m) * (h_m - target - cut);
    return cut > best ? cut : best;
}

/* The best cut over the links that may reach one point at lattice (su, sv)
 * in cell (ix, iy), each link's ends read only as far as it needs. */
static double ct__streams_point(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t ix,
                                int64_t iy, double su, double sv, const double dir[3], double h_m,
                                ct__streams_height_fn height, void *ctx)
{
    double X[5][5], Y[5][5], rc2, box[4], best = 0.0;
    int ok[5][5], i, j, a, b;
    ct__streams_cand c;
    rc2 = ct__streams_lattice(&p->lv[l], face, ix, iy, X, Y, ok);
    box[0] = box[1] = su;
    box[2] = box[3] = sv;
    for (j = 0; j < 5; j++)
        for (i = 0; i < 5; i++) {
            if (!ok[j][i]) continue;
            for (b = -1; b <= 1; b++)
                for (a = -1; a <= 1; a++) {
                    if (!ct__streams_pair(i - 2, j - 2, a, b) || !ok[j + b][i + a] ||
                        !ct__streams_near(X[j][i], Y[j][i], X[j + b][i + a], Y[j + b][i + a], box, rc2) ||
                        !ct__streams_near_point(X[j][i], Y[j][i], X[j + b][i + a], Y[j + b][i + a], su, sv, rc2))
                        continue;
                    ct__streams_cand_set(p, l, m, face, ix - 2 + i, iy - 2 + j, ix - 2 + i + a, iy - 2 + j + b, 0,
                                         height, ctx, &c);
                    c.flags |= CT__SC_LINK;
                    best = ct__streams_cut(p, l, m, face, &c, dir, h_m, best, height, ctx);
                }
        }
    return best;
}

double ct__streams_carve(const ct__streams_prep *p, int l, ct__streams_memo *m, const double dir[3], int face, double u,
                         double v, double h_m, double above_m, int sample, ct__streams_height_fn height, void *ctx)
{
    const ct__streams_level *lv = &p->lv[l];
    double su, sv, best = 0.0, out, lo;
    int k;
    int64_t ix, iy, last;
    if (!(above_m > 0.0)) return 0.0;
    last = (int64_t)lv->n - 1;
    su = (u + 1.0) * 0.5 * lv->n;
    sv = (v + 1.0) * 0.5 * lv->n;
    ix = (int64_t)floor(su);
    iy = (int64_t)floor(sv);
    if (ix > last) ix = last;
    if (iy > last) iy = last;
    if (ix < 0) ix = 0;
    if (iy < 0) iy = 0;
    if (!m->reg[l]) {   /* a small memo: no lists, every sample reads its links alone */
        best = ct__streams_point(p, l, m, face, ix, iy, su, sv, dir, h_m, height, ctx);
    } else {
        ct__streams_region *r = &m->reg[l][(ix & 63) | (iy & 1) << 6];
        int alone = sample && ct__streams_alone(m, l, face, ix, iy);
        int kept = r->valid && r->face == face && r->ix == ix && r->iy == iy && ct__streams_intact(m, l, r);
        if (!kept && alone) {
            best = ct__streams_point(p, l, m, face, ix, iy, su, sv, dir, h_m, height, ctx);
        } else {
            ct__streams_cand *c;
            if (!kept) ct__streams_build(p, l, m, face, ix, iy, height, ctx, r);
            c = &m->pool[l][r->start];
            for (k = 0; k < r->n; k++) {
                double t = c[k].tx * su + c[k].ty * sv, nn = c[k].tx * sv - c[k].ty * su;
                if (t < c[k].t0 || t > c[k].t1 || nn < c[k].n0 || nn > c[k].n1) continue;
                best = ct__streams_cut(p, l, m, face, &c[k], dir, h_m, best, height, ctx);
            }
        }
    }
    if (!(best > 0.0)) return 0.0;
    out = -best;
    lo = -0.5 * above_m;
    return out < lo ? lo : out;
}

double ct__streams_at(const ct__streams_prep *p, ct__streams_memo *m, const double dir[3], double h_m,
                      double above_m, ct__streams_height_fn height, void *ctx)
{
    ct__streams_memo_small s;
    double d, u, v;
    int face;
    if (!p->on || !(above_m > 0.0)) return 0.0;
    if (!m) m = ct__streams_memo_small_init(&s);
    ct__cube_from_dir(dir, &face, &u, &v);
    d = ct__streams_carve(p, 0, m, dir, face, u, v, h_m, above_m, 1, height, ctx);
    if (p->levels > 1) d += ct__streams_carve(p, 1, m, dir, face, u, v, h_m + d, above_m + d, 1, height, ctx);
    return d;
}
