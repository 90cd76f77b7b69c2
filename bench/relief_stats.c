/* relief_stats.c - relief figures of one world, the way a player sees them:
 * land slope percentiles between neighbouring chunk vertices at surface_lod,
 * land height percentiles, the share of land biomes that are rock and snow,
 * and the share of macro land vertices with a downhill edge exactly at the
 * slope limit (the "slope-capped plateau" measure).
 *
 *   cc -std=c99 -O2 -ffp-contract=off -Icore/include -Icore/src bench/relief_stats.c \
 *      build/native/libct.a -lm -pthread -o build/relief_stats
 *   build/relief_stats PRESET SEED [name=value ...] [at_lod=L]   (L: the LOD measured, default surface_lod)
 *
 * Points are chunk vertices at surface_lod picked by a fixed hash sequence
 * (uniform per face area, not per sphere area); the slope at a vertex is the
 * gradient from its +x and +y neighbours, metres from ct_key_metric. Not a
 * test: a measuring tool for docs/generation.md. */
#include "ct.h"
#include "base/ct_base.h"
#include "world/ct_world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POINTS 60000

static uint32_t mix(uint32_t x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
    size_t k = (size_t)(p * (double)(n - 1));
    return n ? v[k] : 0.0;
}

/* Share of land vertices with an edge to a lower neighbour at the slope limit. */
static double capped_share(const ct_world *w)
{
    uint32_t n = w->field.n, f, i, j, land = 0, capped = 0;
    double s = w->field.cfg.max_macro_slope, R = w->field.cfg.radius_m;
    if (!(s > 0.0)) return 0.0;
    for (f = 0; f < 6; f++)
        for (j = 0; j <= n; j++)
            for (i = 0; i <= n; i++) {
                uint32_t a = w->field.vertex_fij[CT__FIJ(n, f, i, j)], k, hit = 0;
                int di[4] = {1, -1, 0, 0}, dj[4] = {0, 0, 1, -1};
                if (w->field.body_v[a] >= 0) continue;
                for (k = 0; k < 4; k++) {
                    long ii = (long)i + di[k], jj = (long)j + dj[k];
                    uint32_t b;
                    double d;
                    if (ii < 0 || jj < 0 || ii > (long)n || jj > (long)n) continue;
                    b = w->field.vertex_fij[CT__FIJ(n, f, (uint32_t)ii, (uint32_t)jj)];
                    d = ct__arc(&w->field.dir_v[3u * a], &w->field.dir_v[3u * b]) * R;
                    if (w->field.height_v[a] - w->field.height_v[b] >= s * d * (1.0 - 1e-6)) hit = 1;
                }
                land++;
                capped += hit;
            }
    return land ? (double)capped / (double)land : 0.0;
}

/* Share of land vertices inside a belt core (weight > 0.5). */
static double belt_share(const ct_world *w)
{
    uint32_t v, land = 0, in = 0;
    if (!w->field.belt_v) return 0.0;
    for (v = 0; v < w->field.vertex_count; v++) {
        if (w->field.body_v[v] >= 0) continue;
        land++;
        in += w->field.belt_v[v] > 0.5f;
    }
    return land ? (double)in / (double)land : 0.0;
}

int main(int argc, char **argv)
{
    ct_config cfg;
    char err[256];
    ct_world *w;
    ct_world_stats st;
    double *slope = malloc(sizeof(double) * POINTS), *height = malloc(sizeof(double) * POINTS);
    size_t land = 0, rock = 0, snow = 0, k;
    uint32_t lod, chunks;
    int a, at_lod = -1;
    if (argc < 3) { fprintf(stderr, "usage: relief_stats PRESET SEED [name=value ...]\n"); return 2; }
    if (ct_config_preset(&cfg, argv[1], err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    if (ct_config_set(&cfg, "seed", argv[2], err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    for (a = 3; a < argc; a++) {
        char name[128], *eq;
        strncpy(name, argv[a], sizeof name - 1);
        name[sizeof name - 1] = '\0';
        eq = strchr(name, '=');
        if (!eq) return 2;
        *eq = '\0';
        if (strcmp(name, "at_lod") == 0) { at_lod = atoi(eq + 1); continue; }
        if (ct_config_set(&cfg, name, eq + 1, err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    }
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    if (!w) { fprintf(stderr, "%s\n", err); return 1; }
    ct_world_stats_get(w, &st);
    lod = at_lod >= 0 && at_lod <= (int)cfg.surface_lod ? (uint32_t)at_lod : cfg.surface_lod;
    chunks = 1u << lod;
    for (k = 0; k < POINTS; k++) {
        uint32_t h = mix((uint32_t)k * 0x9e3779b9u + 17u);
        ct_key key = ct_key_make((int)(h % 6u), (int)lod, mix(h) % chunks, mix(h + 1u) % chunks);
        double li = (double)(mix(h + 2u) % 256u), lj = (double)(mix(h + 3u) % 256u);
        double d0[3], d1[3], d2[3], ex[3], ey[3], gx, gy, det, a11, a12, a22, b1, b2, sx, sy;
        ct_sample s0, s1, s2;
        ct_key_direction(key, li, lj, d0, NULL, 0);
        ct_key_direction(key, li + 1.0, lj, d1, NULL, 0);
        ct_key_direction(key, li, lj + 1.0, d2, NULL, 0);
        ct_world_sample(w, d0, &s0, NULL, 0);
        if (s0.has_water) continue;
        ct_world_sample(w, d1, &s1, NULL, 0);
        ct_world_sample(w, d2, &s2, NULL, 0);
        ct_key_metric(key, li, lj, cfg.radius_m, ex, ey, NULL, 0);
        /* Gradient g with g.ex = dh_x and g.ey = dh_y in the tangent plane. */
        gx = s1.height_m - s0.height_m;
        gy = s2.height_m - s0.height_m;
        a11 = ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2];
        a22 = ey[0] * ey[0] + ey[1] * ey[1] + ey[2] * ey[2];
        a12 = ex[0] * ey[0] + ex[1] * ey[1] + ex[2] * ey[2];
        det = a11 * a22 - a12 * a12;
        b1 = (a22 * gx - a12 * gy) / det;
        b2 = (a11 * gy - a12 * gx) / det;
        sx = b1 * ex[0] + b2 * ey[0];
        sy = b1 * ex[1] + b2 * ey[1];
        {
            double sz = b1 * ex[2] + b2 * ey[2];
            slope[land] = atan(sqrt(sx * sx + sy * sy + sz * sz)) * 57.29577951308232;
        }
        height[land] = s0.height_m;
        rock += s0.biome == CT_BIOME_ROCK;
        snow += s0.biome == CT_BIOME_SNOW;
        land++;
    }
    qsort(slope, land, sizeof *slope, cmp_double);
    qsort(height, land, sizeof *height, cmp_double);
    printf("%s seed %s: build %.0f ms, land %.0f%%, slope deg p10 %.2f p50 %.2f p90 %.2f p99 %.1f | "
           "height m p10 %.0f p50 %.0f p90 %.0f p99 %.0f max %.0f | macro max %.0f capped %.0f%% | "
           "rock %.1f%% snow %.1f%% of land | belts %.0f%%\n",
           argv[1], argv[2], st.build_ms, 100.0 * (double)land / POINTS, pct(slope, land, 0.1),
           pct(slope, land, 0.5), pct(slope, land, 0.9), pct(slope, land, 0.99), pct(height, land, 0.1),
           pct(height, land, 0.5), pct(height, land, 0.9), pct(height, land, 0.99), height[land ? land - 1 : 0],
           st.max_height_m, 100.0 * capped_share(w), 100.0 * (double)rock / (double)land,
           100.0 * (double)snow / (double)land, 100.0 * belt_share(w));
    ct_world_free(w);
    free(slope);
    free(height);
    return 0;
}
