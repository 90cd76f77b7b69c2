/* streams_nodes.c - the lattice nodes of the streams layer (streams.c) and
 * their memo: a node's jittered direction, its ground (the caller's height,
 * carved by the coarser levels), its link (the lowest of its 8 same-face
 * neighbours when lower) and whether a neighbour drains into it, each filled
 * when first asked for and each a pure function of the node, so the memo
 * never changes a result. The questions a link needs answered (does this
 * node drain there, is it a root) read the memo's grounds first and others
 * only until one rules the answer out.
 *
 * Only + - * / sqrt and integer hashes: native equals WebAssembly. */
#include "layers/ct_streams.h"

#include <stdlib.h>

#define CT__STREAMS_MEMO_BITS 10   /* 2^bits == CT__STREAMS_MEMO */

/* The full memo's tables in one block with its header. */
typedef struct ct__streams_memo_full {
    ct__streams_memo m;
    ct__streams_node node[CT__STREAMS_LEVELS][CT__STREAMS_MEMO];
    ct__streams_region reg[CT__STREAMS_LEVELS][CT__STREAMS_REGIONS];
    ct__streams_cand pool[CT__STREAMS_LEVELS][CT__STREAMS_POOL];
} ct__streams_memo_full;

ct__streams_memo *ct__streams_memo_new(void)
{
    ct__streams_memo_full *f = (ct__streams_memo_full *)malloc(sizeof *f);
    int l;
    if (!f) return NULL;
    for (l = 0; l < CT__STREAMS_LEVELS; l++) {
        f->m.node[l] = f->node[l];
        f->m.reg[l] = f->reg[l];
        f->m.pool[l] = f->pool[l];
    }
    f->m.node_bits = CT__STREAMS_MEMO_BITS;
    ct__streams_memo_reset(&f->m);
    return &f->m;
}

void ct__streams_memo_free(ct__streams_memo *m)
{
    free(m);   /* m is the block's first member */
}

ct__streams_memo *ct__streams_memo_small_init(ct__streams_memo_small *s)
{
    int l;
    for (l = 0; l < CT__STREAMS_LEVELS; l++) {
        s->m.node[l] = s->node[l];
        s->m.reg[l] = NULL;
        s->m.pool[l] = NULL;
    }
    s->m.node_bits = CT__STREAMS_SMALL_BITS;
    ct__streams_memo_reset(&s->m);
    return &s->m;
}

void ct__streams_memo_reset(ct__streams_memo *m)
{
    int k, l;
    for (l = 0; l < CT__STREAMS_LEVELS; l++) {
        for (k = 0; k < 1 << m->node_bits; k++) m->node[l][k].key = -1;
        if (m->reg[l])
            for (k = 0; k < CT__STREAMS_REGIONS; k++) m->reg[l][k].valid = 0;
        m->head[l] = m->wraps[l] = 0;
        m->last_face[l] = -1;
        m->last_ix[l] = m->last_iy[l] = 0;
        m->served[l] = 0;
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

/* --- the node memo: each field filled when first asked for --- */

#define CT__SN_DIR 1
#define CT__SN_H 2
#define CT__SN_LINK 4
#define CT__SN_FED 8       /* whether fed is known */
#define CT__SN_FEDV 16     /* fed */

static int64_t ct__sn_key(const ct__streams_prep *p, int l, int face, int64_t x, int64_t y)
{
    int64_t n = (int64_t)p->lv[l].n;
    return ((int64_t)face * n + y) * n + x;
}

/* The memo slot of a node, emptied when it held another. */
static ct__streams_node *ct__sn(ct__streams_memo *m, int l, int64_t key)
{
    ct__streams_node *e = &m->node[l][((uint64_t)key * 0x9e3779b97f4a7c15ull) >> (64 - m->node_bits)];
    if (e->key != key) {
        e->key = key;
        e->flags = 0;
    }
    return e;
}

/* A node's direction (valid until the next look-up at this level). */
const double *ct__streams_dir_of(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y)
{
    ct__streams_node *e = ct__sn(m, l, ct__sn_key(p, l, face, x, y));
    if (!(e->flags & CT__SN_DIR)) {
        ct__streams_node_dir(&p->lv[l], face, x, y, e->P);
        e->flags |= CT__SN_DIR;
    }
    return e->P;
}

/* A node's ground: the caller's height, carved by the coarser levels, so a
 * finer level's links follow the coarser valleys. The carve touches only
 * the coarser levels' memo, so e stays this node's slot. */
static double ct__sn_h_at(const ct__streams_prep *p, int l, ct__streams_memo *m, ct__streams_node *e,
                          const double d[3], ct__streams_height_fn height, void *ctx)
{
    double h, above, u, v;
    int face;
    h = height(ctx, d, &above);
    if (l > 0) {
        double c = 0.0;   /* added even when nothing is carved: -0.0 becomes +0.0 as it always did */
        if (above > 0.0) {
            ct__cube_from_dir(d, &face, &u, &v);
            c = ct__streams_carve(p, l - 1, m, d, face, u, v, h, above, 0, height, ctx);
        }
        h += c;
    }
    e->H = h;
    e->flags |= CT__SN_H;
    return h;
}

double ct__streams_ground(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                       ct__streams_height_fn height, void *ctx)
{
    ct__streams_node *e = ct__sn(m, l, ct__sn_key(p, l, face, x, y));
    double d[3];
    if (e->flags & CT__SN_H) return e->H;
    if (!(e->flags & CT__SN_DIR)) {
        ct__streams_node_dir(&p->lv[l], face, x, y, e->P);
        e->flags |= CT__SN_DIR;
    }
    d[0] = e->P[0];
    d[1] = e->P[1];
    d[2] = e->P[2];
    return ct__sn_h_at(p, l, m, e, d, height, ctx);
}

static double ct__streams_node_h_alone(const ct__streams_prep *p, int l, int face, int64_t x, int64_t y,
                                       const double d[3], ct__streams_height_fn height, void *ctx)
{
    ct__streams_memo_small s;
    return ct__streams_node_h(p, l, ct__streams_memo_small_init(&s), face, x, y, d, height, ctx);
}

double ct__streams_node_h(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                          const double d[3], ct__streams_height_fn height, void *ctx)
{
    ct__streams_node *e;
    if (!m) return ct__streams_node_h_alone(p, l, face, x, y, d, height, ctx);
    e = ct__sn(m, l, ct__sn_key(p, l, face, x, y));
    if (e->flags & CT__SN_H) return e->H;
    return ct__sn_h_at(p, l, m, e, d, height, ctx);
}

/* The neighbour a node drains to, as (b + 1) * 3 + (a + 1) for offset
 * (a, b): the lowest of its 8 same-face neighbours when lower than it (the
 * first in row order on a tie); -1: a root. */
int ct__streams_link(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                       ct__streams_height_fn height, void *ctx)
{
    int64_t last = (int64_t)p->lv[l].n - 1, key = ct__sn_key(p, l, face, x, y);
    ct__streams_node *e = ct__sn(m, l, key);
    int a, b, best = -1;
    double hl;
    if (e->flags & CT__SN_LINK) return e->link;
    hl = ct__streams_ground(p, l, m, face, x, y, height, ctx);
    for (b = -1; b <= 1; b++)
        for (a = -1; a <= 1; a++) {
            int64_t nx = x + a, ny = y + b;
            double hn;
            if (!(a || b) || nx < 0 || ny < 0 || nx > last || ny > last) continue;
            hn = ct__streams_ground(p, l, m, face, nx, ny, height, ctx);
            if (hn < hl) {
                hl = hn;
                best = (b + 1) * 3 + a + 1;
            }
        }
    e = ct__sn(m, l, key);   /* the neighbours may have taken its slot */
    e->link = best;
    e->flags |= CT__SN_LINK;
    return best;
}

/* The memo's node for key when it holds one with flag, else NULL (never
 * claims the slot). */
static const ct__streams_node *ct__sn_known(const ct__streams_memo *m, int l, int64_t key, int flag)
{
    const ct__streams_node *e = &m->node[l][((uint64_t)key * 0x9e3779b97f4a7c15ull) >> (64 - m->node_bits)];
    return e->key == key && (e->flags & flag) ? e : NULL;
}

/* Whether neighbour k of a node (k as in ct__streams_link) passes test against
 * the ground g (lower: below g; else: above g, or not below it when k comes
 * after skip), each neighbour but skip; the memo's grounds first, so that a
 * neighbour that fails is often found without reading any ground. */
static int ct__sn_ring(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                       int skip, int lower, double g, ct__streams_height_fn height, void *ctx)
{
    int64_t last = (int64_t)p->lv[l].n - 1;
    int k, pass;
    for (pass = 0; pass < 2; pass++)
        for (k = 0; k < 9; k++) {
            int64_t nx = x + k % 3 - 1, ny = y + k / 3 - 1;
            const ct__streams_node *e;
            double h;
            if (k == 4 || k == skip || nx < 0 || ny < 0 || nx > last || ny > last) continue;
            if (pass == 0) {
                e = ct__sn_known(m, l, ct__sn_key(p, l, face, nx, ny), CT__SN_H);
                if (!e) continue;
                h = e->H;
            } else {
                h = ct__streams_ground(p, l, m, face, nx, ny, height, ctx);
            }
            if (lower ? h < g : !(k < skip ? h > g : h >= g)) return 0;
        }
    return 1;
}

/* Whether ct__streams_link of the node is to, found without reading every
 * neighbour's ground where one rules it out: to must be lower than the
 * node, lower than every neighbour before it and not higher than any after
 * it (the first lowest wins). */
int ct__streams_drains(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                         int to, ct__streams_height_fn height, void *ctx)
{
    int64_t key = ct__sn_key(p, l, face, x, y);
    const ct__streams_node *e = ct__sn_known(m, l, key, CT__SN_LINK);
    double ht;
    if (e) return e->link == to;
    ht = ct__streams_ground(p, l, m, face, x + to % 3 - 1, y + to / 3 - 1, height, ctx);
    if (!(ht < ct__streams_ground(p, l, m, face, x, y, height, ctx))) return 0;
    return ct__sn_ring(p, l, m, face, x, y, to, 0, ht, height, ctx);
}

/* Whether the node is a root: no neighbour lower. */
int ct__streams_root(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                       ct__streams_height_fn height, void *ctx)
{
    const ct__streams_node *e = ct__sn_known(m, l, ct__sn_key(p, l, face, x, y), CT__SN_LINK);
    if (e) return e->link < 0;
    return ct__sn_ring(p, l, m, face, x, y, -1, 1, ct__streams_ground(p, l, m, face, x, y, height, ctx), height, ctx);
}

/* Whether a neighbour drains into the node. */
int ct__streams_fed(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                      ct__streams_height_fn height, void *ctx)
{
    int64_t last = (int64_t)p->lv[l].n - 1, key = ct__sn_key(p, l, face, x, y);
    ct__streams_node *e = ct__sn(m, l, key);
    int a, b, fed = 0;
    if (e->flags & CT__SN_FED) return (e->flags & CT__SN_FEDV) != 0;
    for (b = -1; b <= 1 && !fed; b++)
        for (a = -1; a <= 1 && !fed; a++) {
            int64_t nx = x + a, ny = y + b;
            if (!(a || b) || nx < 0 || ny < 0 || nx > last || ny > last) continue;
            fed = ct__streams_drains(p, l, m, face, nx, ny, (1 - b) * 3 + 1 - a, height, ctx);
        }
    e = ct__sn(m, l, key);
    e->flags |= CT__SN_FED | (fed ? CT__SN_FEDV : 0);
    return fed;
}
