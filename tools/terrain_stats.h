/* terrain_stats.h - shared pieces of the terrain measurement tool (native).
 *
 * The tool reads a world through the public API only (ct.h), so it measures
 * exactly what chunks and the space view show, whatever the generator does
 * inside. Two surveys:
 *   - terrain_stats_raster.c: land/water on an equirectangular grid (coasts,
 *     written as a raster for tools/terrain_stats.mjs) and the water bodies
 *     found on the LOD-0 sample grid (lake levels);
 *   - terrain_stats_chunks.c: slopes and heights of land samples from real
 *     chunks at surface_lod, over a deterministic spread of the sphere. */
#ifndef TERRAIN_STATS_H
#define TERRAIN_STATS_H

#include "ct.h"

#include <stdio.h>

/* Raster classes, one byte per pixel. */
enum { TS_LAND = 0, TS_OCEAN = 1, TS_INLAND = 2 };

typedef struct ts_raster_opts {
    int width, height;      /* full-globe equirectangular grid, pixels */
    double lat_max_deg;     /* only rows whose centre has |lat| <= this */
    const char *out_path;   /* raster bytes (rows row0..row1-1), or NULL */
} ts_raster_opts;

typedef struct ts_raster_result {
    int row0, row1;                 /* rows written, [row0, row1) */
    double land_share;              /* area-weighted share of land pixels */
    double ms;                      /* wall time of the pass */
} ts_raster_result;

typedef struct ts_lake_result {
    int bodies_seen;                /* non-ocean bodies seen on the LOD-0 grid */
    int lakes;                      /* of them, lake-sized (<= lake_max_vertices) */
    int lakes_elevated;             /* lakes whose level is >= 5 m */
    int seas;                       /* larger inland bodies */
    double level_min_m, level_max_m;   /* over lakes */
} ts_lake_result;

typedef struct ts_chunk_opts {
    int land_chunks;                /* stop after this many chunks with land */
    int max_chunks;                 /* and never generate more than this */
} ts_chunk_opts;

typedef struct ts_chunk_result {
    int lod;
    int chunks_generated, chunks_with_land;
    double land_samples, slope_samples;
    double slope_deg[3];            /* p50, p90, p99 */
    double height_m[4];             /* p50, p90, p99, max */
    double beach_share;             /* land samples with 0 <= height <= TS_BEACH_M */
    double zero_share;              /* land samples whose height code is sea level */
    double spacing_m;               /* median sample spacing of the surveyed chunks */
    double ms;
} ts_chunk_result;

/* River network figures (terrain_stats_rivers.c). */
typedef struct ts_river_result {
    uint32_t nodes, lakes_open, lakes_closed, lost_mouths, hack_nodes;
    int max_order;
    double hack;                    /* exponent h of L ~ A^h */
    double bifurcation;             /* Horton ratio from Strahler orders, every basin pooled */
    double bifurcation_top;         /* the same over the basins of the highest order */
    double river_km, density_per_km;   /* total length; per km2 of land */
    double sinuosity;               /* mean over the ten largest rivers */
    double sea_share;               /* land area draining to the sea */
} ts_river_result;
int ts_rivers_run(const ct_world *w, ts_river_result *out);
typedef struct ts_mouth_result {
    uint32_t mouths, with_gap, unreached;   /* of the largest sea mouths measured */
    double gap_p50_km, gap_max_km;          /* land between the river's water and the sea */
    double to_sea_p50_km;                   /* mouth node to the sea, along the curve */
} ts_mouth_result;
int ts_mouths_run(const ct_world *w, ts_mouth_result *out);

#define TS_BEACH_M 2.0              /* "flat beach band": land within 2 m of sea level */
#define TS_ELEVATED_M 5.0           /* a lake counts as elevated at or above this level */

double ts_now_ms(void);
int ts_raster_run(const ct_world *w, const ts_raster_opts *o, ts_raster_result *out);
int ts_lakes_run(const ct_world *w, ts_lake_result *out);
int ts_chunks_run(const ct_world *w, const ts_chunk_opts *o, ts_chunk_result *out);
/* terrain_stats_math.c */
/* Percentile p in [0,1] of n values, sorting them in place (nearest rank). */
double ts_percentile(float *v, size_t n, double p);
/* Slope in degrees of a surface whose height changes by dx_m and dy_m over
 * the tangent steps a and b (metres, any two independent vectors). */
double ts_slope_deg(const double a[3], const double b[3], double dx_m, double dy_m);
/* Point k of n on the Fibonacci sphere (equal-area spread). */
void ts_fibonacci(int k, int n, double dir[3]);
/* A step near n / golden ratio that is coprime to n: k * step mod n visits
 * every index once, and any prefix is spread over the whole range. */
int ts_stride(int n);

#endif
