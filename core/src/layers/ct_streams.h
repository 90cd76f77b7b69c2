/* ct_streams.h - private declarations of the streams layer (streams.c): a
 * tree of valleys on a world-anchored jittered lattice per cube face, each
 * node draining to its lowest neighbour by the ground before fine relief,
 * carved into the land with a bed that falls monotonically downstream. */
#ifndef CT_STREAMS_H
#define CT_STREAMS_H

#include "base/ct_base.h"

#define CT__STREAMS_LEVELS 2   /* most lattice levels */
#define CT__STREAMS_JITTER 0.7 /* node spread inside its cell (share of the cell) */

/* Lattice nodes a sampler keeps per level (direct-mapped by node; each
 * field a pure function of the node, so the memo never changes a result). */
#define CT__STREAMS_MEMO 1024

#define CT__STREAMS_REGIONS 128   /* link lists a sampler keeps per level: 64 columns x 2 rows of cells */
#define CT__STREAMS_POOL 448      /* links those lists hold per level together (a LOD 10 chunk row of cells) */
#define CT__STREAMS_CANDS 25      /* most links a list holds: one per child of the 5 x 5 around a cell */

/* One node: its direction, its ground, its link and whether a neighbour
 * drains into it, each filled when first asked for (flags). */
typedef struct ct__streams_node {
    int64_t key;   /* -1: empty */
    double P[3], H;
    int flags, link;
} ct__streams_node;

/* A link that may reach a lattice cell (or one point in it): the child and
 * parent nodes, the segment between them and their grounds; whether the
 * child is fed and the parent a root are filled when a sample needs them. */
typedef struct ct__streams_cand {
    double P[3], ab[3], ab2, hc, hp;
    /* a cell's list: lattice (x, y) along the link (tx, ty) x + ty y outside [t0,
     * t1], or across it tx y - ty x outside [n0, n1], is out of reach */
    double tx, ty, t0, t1, n0, n1;
    int32_t x, y, px, py;
    int flags;
} ct__streams_cand;

/* The links that may reach cell (ix, iy) of a face. */
typedef struct ct__streams_region {
    int valid, face, start, n;   /* its links: pool[start .. start + n) */
    int epoch;                   /* the pool's round it was written in */
    int64_t ix, iy;
} ct__streams_region;

/* A memo's tables, per level: nodes (2^node_bits, direct-mapped), link
 * lists and their pool. The sampler's (ct__streams_memo_new) is on the heap,
 * ~235 KB; a one-off's (ct__streams_memo_small) keeps a few nodes on the
 * stack and no lists, so every sample reads its links alone: slower, the
 * same bits. */
typedef struct ct__streams_memo {
    ct__streams_node *node[CT__STREAMS_LEVELS];
    ct__streams_region *reg[CT__STREAMS_LEVELS];   /* NULL: no lists */
    ct__streams_cand *pool[CT__STREAMS_LEVELS];
    int node_bits;
    int head[CT__STREAMS_LEVELS];                 /* where the next list goes */
    int wraps[CT__STREAMS_LEVELS];                /* rounds of the pool */
    int64_t last_ix[CT__STREAMS_LEVELS], last_iy[CT__STREAMS_LEVELS];
    int last_face[CT__STREAMS_LEVELS], served[CT__STREAMS_LEVELS];
} ct__streams_memo;

#define CT__STREAMS_SMALL_BITS 4   /* a one-off memo's nodes per level: 16 */

/* A memo with its tables on the stack: a handful of nodes, no lists. */
typedef struct ct__streams_memo_small {
    ct__streams_memo m;
    ct__streams_node node[CT__STREAMS_LEVELS][1 << CT__STREAMS_SMALL_BITS];
} ct__streams_memo_small;

/* One lattice level: 256 x 2^level nodes a face side. */
typedef struct ct__streams_level {
    int level;
    double n;            /* 256 x 2^level */
    double depth_m;      /* bed below a fed node's ground */
    double reach_m;      /* how far a valley reaches from its link */
    double near2;        /* a squared unit-sphere distance surely beyond reach_m */
    uint32_t seed;
} ct__streams_level;

/* What is constant per world. on 0: the layer does nothing. */
typedef struct ct__streams_prep {
    int on, levels;
    ct__streams_level lv[CT__STREAMS_LEVELS];   /* coarse first */
    double wall;         /* stream_wall: rise of the valley sides (m per m) */
    double core_m;       /* half-width of the floor cut to the bed */
    double radius_m;
} ct__streams_prep;

/* The ground a node links by (macro + detail + ranges, no fine relief) at a
 * canonical unit direction, and its height above its water or shore
 * reference in *above_m. */
typedef double (*ct__streams_height_fn)(void *ctx, const double dir[3], double *above_m);
void ct__streams_prepare(const ct_config *cfg, ct__streams_prep *p);
/* A reset memo of full size on the heap (free it with
 * ct__streams_memo_free), or NULL when out of memory; a reset small one in
 * s, returned. */
ct__streams_memo *ct__streams_memo_new(void);
void ct__streams_memo_free(ct__streams_memo *m);
ct__streams_memo *ct__streams_memo_small_init(ct__streams_memo_small *s);
void ct__streams_memo_reset(ct__streams_memo *m);

/* The change (<= 0 away from the floor; the floor is set to the bed) the
 * streams make to a land sample of height h_m (above_m above its water or
 * shore reference, > 0) at canonical direction dir. Never lowers a sample by
 * more than half its height above the reference, so land stays land. m must
 * have been reset (ct__streams_memo_reset) for this world, or NULL: a small
 * memo of the call's own (same bits, slower). */
double ct__streams_at(const ct__streams_prep *p, ct__streams_memo *m, const double dir[3], double h_m,
                      double above_m, ct__streams_height_fn height, void *ctx);

/* Shared with the stream network enumeration (world.streams): node (x, y) of
 * a level on a face, its jittered unit direction, and its ground as the
 * links see it (the caller's height, carved by the coarser levels; m a reset
 * memo, or NULL for a one-off on a small memo of its own). A node drains to the
 * lowest of its 8 same-face neighbours when that one is lower. */
void ct__streams_node_dir(const ct__streams_level *lv, int face, int64_t x, int64_t y, double d[3]);
double ct__streams_node_h(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                          const double d[3], ct__streams_height_fn height, void *ctx);

/* The stream network inside a chunk (streams_net.c, ct_chunk_streams): the
 * links of the levels visible at key's LOD that pass through its area,
 * appended to out (count, point_count and the given arrays, as far as their
 * capacities go; center_m must be set). Nothing when p->on is 0. m: the
 * memo ct__streams_at uses, reset. */
void ct__streams_net(const ct__streams_prep *p, ct__streams_memo *m, ct_key key, ct__streams_height_fn height,
                     void *ctx, ct_streams *out);

/* The memo's answers about node (x, y) of level l on face (streams_nodes.c;
 * m a reset memo): its direction (valid until the next question at this
 * level), its ground, its link as (b + 1) * 3 + (a + 1) for neighbour offset
 * (a, b) or -1 for a root, whether its link is to, whether it is a root and
 * whether a neighbour drains into it. */
const double *ct__streams_dir_of(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x,
                                 int64_t y);
double ct__streams_ground(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                          ct__streams_height_fn height, void *ctx);
int ct__streams_link(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                     ct__streams_height_fn height, void *ctx);
int ct__streams_drains(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y, int to,
                       ct__streams_height_fn height, void *ctx);
int ct__streams_root(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                     ct__streams_height_fn height, void *ctx);
int ct__streams_fed(const ct__streams_prep *p, int l, ct__streams_memo *m, int face, int64_t x, int64_t y,
                    ct__streams_height_fn height, void *ctx);

/* The change level l makes to a land sample (sample 1) or to a finer node's
 * ground (sample 0) of height h_m at canonical dir, in cube cell (face, u, v)
 * (streams.c; what ct__streams_at adds up over the levels). */
double ct__streams_carve(const ct__streams_prep *p, int l, ct__streams_memo *m, const double dir[3], int face, double u,
                         double v, double h_m, double above_m, int sample, ct__streams_height_fn height, void *ctx);

#endif
