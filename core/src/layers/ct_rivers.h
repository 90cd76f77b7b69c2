/* ct_rivers.h - private interface of the rivers layer (rivers.c): the river
 * network derived from the drainage (ct_drainage.h) and its point-evaluable
 * channels, valleys and water surfaces, read by the sampler (sample.c). */
#ifndef CT_RIVERS_H
#define CT_RIVERS_H

#include "solve/ct_drainage.h"

/* Polyline pieces per river segment (one macro edge): a piece is about 10 km
 * at the default 64 cells per face edge, short against the cells. */
#define CT__RIVER_PIECES 16
/* Steps per piece at which the build looks for water along a segment:
 * about 1.2 km at the default resolution, so a lake that the curve grazes
 * for a few km is found (4 steps missed two on an eroded world, seed 7). */
#define CT__RIVER_WET_STEPS 8
/* Share of a segment's length that is flat at its downstream end (and, by
 * default, flat_a at its upstream end): where the channels of several
 * segments meet at a node they all stand at the node's level. */
#define CT__RIVER_FLAT 0.1
/* node flags: the public CT_RIVER_* (ct.h) */
#define CT__RIVER_OUTLET CT_RIVER_LAKE_OUTLET
#define CT__RIVER_TO_SEA CT_RIVER_MOUTH_SEA
#define CT__RIVER_TO_LAKE CT_RIVER_MOUTH_LAKE

/* One river segment: a curve from an upstream vertex to its downstream one,
 * drawn as a polyline on the unit sphere. */
typedef struct ct__river_seg {
    uint32_t a, b;                         /* upstream, downstream vertex */
    double level_a, level_b;               /* water surface at the ends, m (a >= b) */
    double flat_a;                         /* arc length share held at level_a */
    double half_w_m, depth_m;              /* channel half-width and depth */
    double valley_m;                       /* valley half-width, m */
    int npts;                              /* polyline points, 2..CT__RIVER_PIECES + 1 */
    int clipped;                           /* 1: ends early, where the curve first meets water */
    double pt[3 * (CT__RIVER_PIECES + 1)]; /* unit-sphere points */
    double u[CT__RIVER_PIECES + 1];        /* arc length share 0..1 at each point */
    double inv_len2[CT__RIVER_PIECES];     /* 1 / |piece|^2 (unit sphere) */
    double centre[3], radius;              /* a ball around the polyline (unit sphere) */
    double length_m;                       /* polyline length */
} ct__river_seg;

typedef struct ct__rivers {
    ct__drainage dr;
    double radius_m;
    double reach;              /* largest valley half-width, unit sphere */
    int list_stride;           /* polyline points the cell lists step by (ct__valleys) */
    double valley_slope, bank_moisture;
    /* nodes: land vertices whose weighted drainage area passes the threshold */
    uint32_t node_count;
    uint32_t *node_v;          /* [nodes] vertex, increasing */
    int32_t *node_down;        /* [nodes] downstream node, -1 at a mouth */
    uint32_t *node_seg;        /* [nodes] its segment to the downstream vertex */
    double *node_level_m;      /* [nodes] water surface at the node */
    double *node_width_m;      /* [nodes] channel width */
    uint8_t *node_flags;       /* [nodes] CT__RIVER_* */
    uint32_t seg_count;
    ct__river_seg *seg;        /* [seg_count]: one per node, then the outlet stubs */
    uint32_t *cell_off;        /* [6 n^2 + 1] segments near macro cell c: cell_seg[cell_off[c]..] */
    uint32_t *cell_seg;
    double land_m2, land_to_sea_m2;   /* land area and the part that drains to the sea */
    uint32_t *vc;              /* build scratch: the cells at each vertex (NULL after) */
    uint32_t level_lifts;      /* segments raised to water beside or above them */
} ct__rivers;

/* The river at a point. carve_m <= 0 is added to the land height; wet marks
 * river water over the carved bed at surface_m. */
typedef struct ct__river_hit {
    double carve_m;
    int wet;
    double surface_m;
    double moisture;           /* bank bonus, added to the sample's moisture */
} ct__river_hit;
/* What ct__river_at may remember between calls to skip segments a distance
 * bound proves out of reach (river_sample.c, beside ct__river_skip): for the
 * first CT__RIVER_MEMO segments of one macro cell's list, a point where the
 * segment's distance was computed and the clearance left there. A sampler
 * keeps one per lane; results never depend on it (tests/c/test_skips.c). */
#define CT__RIVER_MEMO 32
typedef struct ct__river_memo {
    size_t cell;                      /* the cell the entries are for; (size_t)-1: none */
    double at[CT__RIVER_MEMO][3];     /* where the entry was computed (unit sphere) */
    double clear[CT__RIVER_MEMO];     /* bound on (curve distance - valley) there; <= 0: no entry */
    uint64_t skipped;                 /* segment distances skipped so far */
} ct__river_memo;
void ct__river_memo_reset(ct__river_memo *m);
/* Index of the macro cell (face, i, j) in cell_off. */
#define CT__RIVER_CELL(n, f, i, j) (((size_t)(f) * (n) + (size_t)(j)) * (n) + (size_t)(i))

/* Where the field before rivers has sea or lake water, four directions (12
 * doubles) at a time: wet[k] and that water's level_m[k]. The network's
 * build asks it where a river's curve first meets water; the caller
 * answers with the sampler (world_derive.c hands ct__sampler_water4 down). */
typedef struct ct__water_probe {
    void (*water4)(void *ctx, const double dir[12], double level_m[4], int wet[4]);
    void *ctx;
} ct__water_probe;

/* Builds w->rivers from the final field when river_min_area_km2 > 0
 * (world_derive.c calls it, build and load alike); leaves it NULL otherwise. */
ct_result ct__rivers_derive(ct__field *w, const ct__graph *g, const ct__water_probe *wp, char *err, size_t errlen);
void ct__rivers_free(ct__rivers *rv);
size_t ct__rivers_bytes(const ct__rivers *rv);
/* Non-zero when macro cell c has a segment within reach (else ct__river_at
 * gives carve 0, dry, and need not be called). */
int ct__river_cell_has(const ct__rivers *rv, size_t c);

/* The rivers layer at a land sample: dir the canonical unit direction in
 * macro cell c, land_m the land height after the fine relief. Bound: the
 * carving is never positive, is exactly 0 farther than the valley half-width
 * (river_valley_m, at least four channel half-widths) from every river curve,
 * and never takes the land below the nearest segment's surface minus its
 * depth; so a sample can move by at most land_m - (surface - depth) metres,
 * and only within reach of a river. */
/* Squared unit-sphere distance from x to the segment's polyline, and the arc
 * length share (0..1) of the nearest point in *u. */
double ct__river_nearest(const ct__river_seg *s, const double x[3], double *u);
/* The segment's water surface at arc length share u: flat over the first
 * flat_a and the last CT__RIVER_FLAT of its length, linear between. */
double ct__river_seg_level(const ct__river_seg *s, double u);

/* memo may be NULL (every listed segment measured). */
void ct__river_at(const ct__rivers *rv, size_t c, const double dir[3], double land_m, ct__river_memo *memo,
                  ct__river_hit *out);

#endif
