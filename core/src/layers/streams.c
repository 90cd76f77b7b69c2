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
#define CT__STREAMS_JITTER 0.7     /* node spread inside its cell (share of the cell) */
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
        v->seed = ct__hash2(ct__subseed(cfg->seed, CT__STREAMS_SALT), (uint32_t)l);
    }
}

void ct__streams_memo_reset(ct__streams_memo *m)
{
    int k, l;
    for (l = 0; l < CT__STREAMS_LEVELS; l++) {
        for (k = 0; k < CT__STREAMS_MEMO; k++) m->key[l][k] = -1;
        m->win[l].valid = 0;
    }
}

/* Node (x, y) of face: its unit direction. */
void ct__streams_node_dir(const ct__streams_level *p, int face, int64_t x, int64_t y, double d[3])
{
    uint32_t h = ct__hash4(p->seed, (uint32_t)face, (uint32_t)x, (uint32_t)y);
    double jx = ((double)(h & 0xffffu) / 65536.0 - 0.5) * CT__STREAMS_JITTER;
    double jy = ((double)(h >> 16) / 65536.0 - 0.5) * CT__STREAMS_JITTER;
    double u = 2.0 * (((double)x + 0.5 + jx) / p->n) - 1.0;
    double v = 2.0 * (((double)y + 0.5 + jy) / p->n) - 1.0;
    ct__face_uv_to_cube(face, u, v, d);
    ct__normalize_canonical(d);
}

static double ct__streams_carve(const ct__streams_prep *p, int l, ct__streams_memo *m, const double dir[3],
                                double h_m, double above_m, ct__streams_height_fn height, void *ctx);

/* A node's ground: the caller's height, carved by the coarser levels, so a
 * finer level's links follow the coarser valleys. */
double ct__streams_node_h(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x,
                                 int64_t y, const double d[3], ct__streams_height_fn height, void *ctx)
{
    int64_t n = (int64_t)p->lv[l].n, key = ((int64_t)face * n + y) * n + x;
    uint32_t slot = ct__hash2((uint32_t)key, (uint32_t)(key >> 32)) & (CT__STREAMS_MEMO - 1);
    double h, above;
    if (m && m->key[l][slot] == key) return m->h[l][slot];
    h = height(ctx, d, &above);
    if (l > 0) h += ct__streams_carve(p, l - 1, m, d, h, above, height, ctx);
    if (m) {
        m->key[l][slot] = key;
        m->h[l][slot] = h;
    }
    return h;
}

#define CT__W CT__STREAMS_WIN

/* The lowest of the 8 neighbours of window node (i, j) when lower than it:
 * its window index j * CT__W + i, else -1 (a root). */
static int ct__streams_link(double H[CT__W][CT__W], int ok[CT__W][CT__W], int i, int j)
{
    int a, b, best = -1;
    double hl = H[j][i];
    for (b = -1; b <= 1; b++)
        for (a = -1; a <= 1; a++)
            if ((a || b) && ok[j + b][i + a] && H[j + b][i + a] < hl) {
                hl = H[j + b][i + a];
                best = (j + b) * CT__W + i + a;
            }
    return best;
}

/* Fills w with the window of cell (ix, iy) of level l on face. */
static void ct__streams_fill(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t ix, int64_t iy,
                             ct__streams_height_fn height, void *ctx, ct__streams_window *w)
{
    const ct__streams_level *lv = &p->lv[l];
    int64_t last = (int64_t)lv->n - 1;
    int i, j, a, b;
    for (j = 0; j < CT__W; j++)
        for (i = 0; i < CT__W; i++) {
            int64_t x = ix - 4 + i, y = iy - 4 + j;
            w->ok[j][i] = x >= 0 && y >= 0 && x <= last && y <= last;
            w->link[j][i] = -1;
            w->fed[j][i] = 0;
            if (!w->ok[j][i]) continue;
            ct__streams_node_dir(lv, face, x, y, w->P[j][i]);
            w->H[j][i] = ct__streams_node_h(p, l, m, face, x, y, w->P[j][i], height, ctx);
        }
    for (j = 1; j < CT__W - 1; j++)
        for (i = 1; i < CT__W - 1; i++)
            if (w->ok[j][i]) w->link[j][i] = ct__streams_link(w->H, w->ok, i, j);
    for (j = 2; j < CT__W - 2; j++)
        for (i = 2; i < CT__W - 2; i++)
            for (b = -1; b <= 1; b++)
                for (a = -1; a <= 1; a++)
                    if ((a || b) && w->link[j + b][i + a] == j * CT__W + i) w->fed[j][i] = 1;
    w->face = face;
    w->ix = ix;
    w->iy = iy;
    w->valid = 1;
}

static double ct__streams_carve(const ct__streams_prep *p, int l, ct__streams_memo *m, const double dir[3],
                                double h_m, double above_m, ct__streams_height_fn height, void *ctx)
{
    const ct__streams_level *lv = &p->lv[l];
    ct__streams_window local, *w = m ? &m->win[l] : &local;
    double u, v, reach, best = 0.0, out, lo;
    int face, i, j;
    int64_t ix, iy, last;
    if (!(above_m > 0.0)) return 0.0;
    ct__cube_from_dir(dir, &face, &u, &v);
    last = (int64_t)lv->n - 1;
    ix = (int64_t)floor((u + 1.0) * 0.5 * lv->n);
    iy = (int64_t)floor((v + 1.0) * 0.5 * lv->n);
    if (ix > last) ix = last;
    if (iy > last) iy = last;
    if (ix < 0) ix = 0;
    if (iy < 0) iy = 0;
    reach = lv->reach_m;
    if (!m || !w->valid || w->face != face || w->ix != ix || w->iy != iy)
        ct__streams_fill(p, l, m, face, ix, iy, height, ctx, w);
    for (j = 2; j < CT__W - 2; j++)
        for (i = 2; i < CT__W - 2; i++) {
            int a, pi, pj, fed = w->fed[j][i], pl = w->link[j][i];
            double ab[3], sa[3], t, ab2, q[3], d, r, target, bed0, bed1, cut, wt;
            if (!w->ok[j][i] || pl < 0) continue;   /* a root: drains nowhere at this scale */
            pi = pl % CT__W;
            pj = pl / CT__W;
            /* A head (no node drains into it) starts at its ground, a node
             * fed from upstream at depth_m below it. The parent is fed (by
             * this node) and lower, so its bed, depth_m below its ground,
             * is lower than this one's: the bed never rises downstream. A
             * root parent keeps its ground; the link then ends no higher
             * than it starts. */
            bed0 = w->H[j][i] - (fed ? lv->depth_m : 0.0);
            bed1 = w->link[pj][pi] >= 0 ? w->H[pj][pi] - lv->depth_m : w->H[pj][pi];
            if (bed1 > bed0) bed1 = bed0;
            for (a = 0; a < 3; a++) {
                ab[a] = w->P[pj][pi][a] - w->P[j][i][a];
                sa[a] = dir[a] - w->P[j][i][a];
            }
            ab2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
            t = (sa[0] * ab[0] + sa[1] * ab[1] + sa[2] * ab[2]) / ab2;
            if (t < 0.0) t = 0.0;
            if (t > 1.0) t = 1.0;
            for (a = 0; a < 3; a++) q[a] = sa[a] - t * ab[a];
            d = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) * p->radius_m;
            if (!(d < reach)) continue;
            target = (1.0 - t) * bed0 + t * bed1 + p->wall * d;
            r = d / reach;
            /* how far the sample goes down to this valley: to its side where
             * the side is below the ground, at most CT__STREAMS_CUT depths,
             * fading to nothing at the reach */
            cut = h_m - target;
            if (!(cut > 0.0)) continue;   /* the ground is below this valley's side */
            if (cut > CT__STREAMS_CUT * lv->depth_m) cut = CT__STREAMS_CUT * lv->depth_m;
            wt = (1.0 - r * r) * (1.0 - r * r);
            /* a head's valley shallows out over the first half of its link,
             * so it never ends in a hole */
            if (!fed) {
                double e = t < 0.5 ? 2.0 * t : 1.0;
                wt *= e * e * (3.0 - 2.0 * e);
            }
            cut *= wt;
            if (fed && d < p->core_m) cut += (1.0 - d / p->core_m) * (h_m - target - cut);
            if (cut > best) best = cut;
        }
    if (!(best > 0.0)) return 0.0;
    out = -best;
    lo = -0.5 * above_m;
    return out < lo ? lo : out;
}

double ct__streams_at(const ct__streams_prep *p, ct__streams_memo *m, const double dir[3], double h_m,
                      double above_m, ct__streams_height_fn height, void *ctx)
{
    double d;
    if (!p->on) return 0.0;
    d = ct__streams_carve(p, 0, m, dir, h_m, above_m, height, ctx);
    if (p->levels > 1) d += ct__streams_carve(p, 1, m, dir, h_m + d, above_m + d, height, ctx);
    return d;
}
