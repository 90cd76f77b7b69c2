/* terrain_stats_raster.c - the land/water survey of the measurement tool.
 *
 * Coasts: every pixel centre of a full-globe equirectangular grid with
 * |lat| <= lat_max is classified by ct_world_sample, the same call the space
 * view makes and the same value as the chunk vertex at that direction, so the
 * raster is the land/water answer a player sees (not the macro mask). The
 * raster goes to a file; tools/coast_measure.mjs turns it into coast length
 * and box-counting figures with exactly the code used for Earth.
 *
 * Lakes: the water bodies seen on a cube grid that contains every macro
 * vertex, with their levels, so elevated lakes are counted from what is
 * drawn rather than trusted from the build statistics. */
#include "terrain_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TS_PI 3.14159265358979323846

double ts_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Longitude 0 faces +Z, latitude along +Y (the project's up axis). The
 * world has no relation to Earth's graticule; any fixed choice will do. */
static void ts_lonlat_dir(double lon, double lat, double dir[3])
{
    dir[0] = cos(lat) * sin(lon);
    dir[1] = sin(lat);
    dir[2] = cos(lat) * cos(lon);
}

int ts_raster_run(const ct_world *w, const ts_raster_opts *o, ts_raster_result *out)
{
    int W = o->width, H = o->height, x, y;
    double t0 = ts_now_ms(), land_w = 0.0, all_w = 0.0;
    unsigned char *row;
    FILE *f = NULL;
    char err[256];

    out->row0 = H;
    out->row1 = 0;
    for (y = 0; y < H; y++) {
        double lat_deg = 90.0 - (y + 0.5) * 180.0 / H;
        if (fabs(lat_deg) <= o->lat_max_deg) {
            if (y < out->row0) out->row0 = y;
            out->row1 = y + 1;
        }
    }
    row = (unsigned char *)malloc((size_t)W);
    if (!row) return 0;
    if (o->out_path && !(f = fopen(o->out_path, "wb"))) {
        fprintf(stderr, "terrain_stats: cannot write %s\n", o->out_path);
        free(row);
        return 0;
    }
    for (y = out->row0; y < out->row1; y++) {
        double lat = (90.0 - (y + 0.5) * 180.0 / H) * TS_PI / 180.0, cw = cos(lat);
        for (x = 0; x < W; x++) {
            double lon = (-180.0 + (x + 0.5) * 360.0 / W) * TS_PI / 180.0, dir[3];
            ct_sample s;
            ts_lonlat_dir(lon, lat, dir);
            if (ct_world_sample(w, dir, &s, err, sizeof err) != CT_OK) {
                fprintf(stderr, "terrain_stats: %s\n", err);
                free(row);
                if (f) fclose(f);
                return 0;
            }
            row[x] = !s.has_water ? TS_LAND : (s.water_body == 0 ? TS_OCEAN : TS_INLAND);
            all_w += cw;
            if (row[x] == TS_LAND) land_w += cw;
        }
        if (f && fwrite(row, 1, (size_t)W, f) != (size_t)W) {
            fprintf(stderr, "terrain_stats: short write to %s\n", o->out_path);
            free(row);
            fclose(f);
            return 0;
        }
    }
    free(row);
    if (f && fclose(f) != 0) return 0;
    out->land_share = all_w > 0.0 ? land_w / all_w : 0.0;
    out->ms = ts_now_ms() - t0;
    return 1;
}

typedef struct ts_body {
    int seen;             /* any sample of the body was found */
    int vertices;         /* samples on macro vertices (seams counted once) */
    double level_m;       /* highest water surface seen on the body */
} ts_body;

/* Records one wet sample of body id; grows the table as ids appear. */
static int ts_body_add(ts_body **body, int *cap, int id, int on_vertex, double level_m)
{
    ts_body *b;
    if (id >= *cap) {
        int ncap = *cap;
        ts_body *grown;
        while (id >= ncap) ncap *= 2;
        grown = (ts_body *)realloc(*body, sizeof **body * (size_t)ncap);
        if (!grown) return 0;
        memset(grown + *cap, 0, sizeof **body * (size_t)(ncap - *cap));
        *body = grown;
        *cap = ncap;
    }
    b = &(*body)[id];
    if (!b->seen || level_m > b->level_m) b->level_m = level_m;
    b->seen = 1;
    if (on_vertex) b->vertices++;
    return 1;
}

/* Splits the bodies into lakes and inland seas the way the build does (by
 * macro vertex count against lake_max_vertices; none are lakes when the
 * world has no elevated lakes, e.g. noise mode) and counts elevated lakes. */
static void ts_lakes_classify(const ct_world *w, const ts_body *body, int cap, ts_lake_result *out)
{
    const ct_config *cfg = ct_world_config(w);
    ct_world_stats st;
    int id, any_lakes = ct_world_stats_get(w, &st) == CT_OK && st.lakes > 0;
    for (id = 1; id < cap; id++) {
        if (!body[id].seen) continue;
        out->bodies_seen++;
        if (!any_lakes || (uint32_t)body[id].vertices > cfg->lake_max_vertices) {
            out->seas++;
            continue;
        }
        if (out->lakes == 0 || body[id].level_m < out->level_min_m) out->level_min_m = body[id].level_m;
        if (out->lakes == 0 || body[id].level_m > out->level_max_m) out->level_max_m = body[id].level_m;
        out->lakes++;
        if (body[id].level_m >= TS_ELEVATED_M) out->lakes_elevated++;
    }
}

int ts_lakes_run(const ct_world *w, ts_lake_result *out)
{
    const ct_config *cfg = ct_world_config(w);
    uint32_t n = cfg->macro_resolution;
    /* A grid of N cells per face edge with N a multiple of n puts a sample
     * on every macro vertex (every (N/n)-th one); the samples between also
     * catch bodies whose water shows only away from the vertices. */
    uint32_t N = n < 256u ? 256u : n, stride = N / n, i, j;
    int face, cap = 64;
    ts_body *body = (ts_body *)calloc((size_t)cap, sizeof *body);
    char err[256];

    memset(out, 0, sizeof *out);
    if (!body) return 0;
    for (face = 0; face < 6; face++) {
        for (j = 0; j <= N; j++) {
            for (i = 0; i <= N; i++) {
                double u = -1.0 + 2.0 * (double)i / (double)N, v = -1.0 + 2.0 * (double)j / (double)N;
                double dir[3], ou, ov;
                int owner;
                ct_sample s;
                if (ct_face_to_direction(face, u, v, dir, err, sizeof err) != CT_OK ||
                    ct_face_from_direction(dir, &owner, &ou, &ov, err, sizeof err) != CT_OK ||
                    ct_world_sample(w, dir, &s, err, sizeof err) != CT_OK) {
                    fprintf(stderr, "terrain_stats: %s\n", err);
                    free(body);
                    return 0;
                }
                /* Seam samples belong to one face only, so none counts twice. */
                if (owner != face || !s.has_water || s.water_body <= 0) continue;
                if (!ts_body_add(&body, &cap, s.water_body, i % stride == 0 && j % stride == 0, s.water_m)) {
                    free(body);
                    return 0;
                }
            }
        }
    }
    ts_lakes_classify(w, body, cap, out);
    free(body);
    return 1;
}
