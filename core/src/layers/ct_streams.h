/* ct_streams.h - private declarations of the streams layer (streams.c): a
 * tree of valleys on a world-anchored jittered lattice per cube face, each
 * node draining to its lowest neighbour by the ground before fine relief,
 * carved into the land with a bed that falls monotonically downstream. */
#ifndef CT_STREAMS_H
#define CT_STREAMS_H

#include "base/ct_base.h"

#define CT__STREAMS_LEVELS 2   /* most lattice levels */

/* Node heights a sampler keeps per level (direct-mapped by node; a pure
 * function of the node, so the memo never changes a result). */
#define CT__STREAMS_MEMO 1024

#define CT__STREAMS_WIN 9   /* a sample's window of nodes: the 5 x 5 that may reach it, their neighbours, and theirs */

/* The nodes around one lattice cell, their links and whether anything
 * drains into them: what every sample in that cell reads. */
typedef struct ct__streams_window {
    int valid, face;
    int64_t ix, iy;
    double P[CT__STREAMS_WIN][CT__STREAMS_WIN][3], H[CT__STREAMS_WIN][CT__STREAMS_WIN];
    int ok[CT__STREAMS_WIN][CT__STREAMS_WIN], link[CT__STREAMS_WIN][CT__STREAMS_WIN];
    int fed[CT__STREAMS_WIN][CT__STREAMS_WIN];
} ct__streams_window;

typedef struct ct__streams_memo {
    int64_t key[CT__STREAMS_LEVELS][CT__STREAMS_MEMO];   /* -1: empty */
    double h[CT__STREAMS_LEVELS][CT__STREAMS_MEMO];
    ct__streams_window win[CT__STREAMS_LEVELS];          /* the last cell's window per level */
} ct__streams_memo;

/* One lattice level: 256 x 2^level nodes a face side. */
typedef struct ct__streams_level {
    int level;
    double n;            /* 256 x 2^level */
    double depth_m;      /* bed below a fed node's ground */
    double reach_m;      /* how far a valley reaches from its link */
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
void ct__streams_memo_reset(ct__streams_memo *m);

/* The change (<= 0 away from the floor; the floor is set to the bed) the
 * streams make to a land sample of height h_m (above_m above its water or
 * shore reference, > 0) at canonical direction dir. Never lowers a sample by
 * more than half its height above the reference, so land stays land. */
double ct__streams_at(const ct__streams_prep *p, ct__streams_memo *m, const double dir[3], double h_m,
                      double above_m, ct__streams_height_fn height, void *ctx);

/* Shared with the stream network enumeration (world.streams): node (x, y) of
 * a level on a face, its jittered unit direction, and its ground as the
 * links see it (the caller's height, carved by the coarser levels). A node
 * drains to the lowest of its 8 same-face neighbours when that one is lower. */
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

#endif
