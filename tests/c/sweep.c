/* sweep.c - `make sweep`: many worlds (seeds, front delays, coherence, strict
 * slopes, regional extremes, macro resolutions 8..256) each checked against
 * the invariants, one line per world:
 *   - slope: max_macro_slope_excess_m is ~0 when the projection is on;
 *   - lakes: every water body has one level (flat), the ocean sits at 0,
 *     no body below sea level, land next to a body never below its level,
 *     water beds below their surface, and wet point samples report exactly
 *     their body's level;
 *   - borders: LOD 0 chunks meet bit for bit across two cube edges (after a
 *     .ctc encode/decode);
 *   - snapshot: write/read gives the same generation, a byte-identical
 *     snapshot and an identical chunk digest.
 * Exit status 1 if any world fails. */
#include "surface/ct_surface.h"
#include "world/ct_world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sweep_world {
    const char *preset;
    const char *sets;   /* "name=value name=value ..." */
} sweep_world;

static const sweep_world worlds[] = {
    {"balanced", "seed=1"},
    {"balanced", "seed=2 macro_resolution=8"},
    {"balanced", "seed=3 macro_resolution=16"},
    {"balanced", "seed=4 macro_resolution=32"},
    {"balanced", "seed=5 macro_resolution=128"},
    {"balanced", "seed=6 macro_resolution=256"},
    {"balanced", "seed=7 front_delay_passes=4"},
    {"balanced", "seed=8 front_delay_passes=16 macro_resolution=32"},
    {"balanced", "seed=9 walk_coherence=0.5"},
    {"balanced", "seed=10 walk_coherence=1 coherence_frequency=30"},
    {"balanced", "seed=11 max_macro_slope=0.001"},
    {"balanced", "seed=12 max_macro_slope=0.0002 macro_resolution=32"},
    {"balanced", "seed=13 max_macro_slope=0"},
    {"alpine", "seed=14"},
    {"alpine", "seed=15 max_macro_slope=0.003 walk_coherence=0.85"},
    {"archipelago", "seed=16"},
    {"archipelago", "seed=17 lake_max_vertices=5000 macro_resolution=32"},
    {"dry", "seed=18"},
    {"walk", "seed=19"},
    {"walk", "seed=20 front_delay_passes=8 walk_coherence=0.3"},
    {"noise", "seed=21"},
    {"noise", "seed=22 macro_resolution=32"},
    {"regional", "seed=23"},
    {"regional", "seed=24 region_strength=1 broken_roughness=8 ridges_height_scale=8 basins_delay_passes=16"},
    {"regional", "seed=25 region_strength=1 plains_height_scale=0 ridges_ridge_scale=8 region_blend=0.01"},
    {"regional", "seed=26 region_strength=0.5 region_frequency=8 broken_delay_passes=16 coast_noise=1"},
    {"regional", "seed=27 macro_resolution=256 walk_coherence=0.85 broken_roughness=1.8"},
    {"balanced", "seed=28 land_bias=0.6 lake_max_vertices=100000 macro_resolution=32"},
    {"balanced", "seed=29 land_bias=-0.6 macro_resolution=32"},
    {"balanced", "seed=4294967295 planet_id=77 height_quantum_m=0.5 lake_depth_m=0"},
};

static int apply_sets(ct_config *cfg, const char *sets, char *err, size_t errlen)
{
    char buf[512], *tok;
    strncpy(buf, sets, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    for (tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        if (!eq) return 0;
        *eq = '\0';
        if (ct_config_set(cfg, tok, eq + 1, err, errlen) != CT_OK) return 0;
    }
    return 1;
}

/* Chunk through a .ctc round trip. */
static int file_chunk(const ct_world *w, ct_key key, ct_chunk *out, uint8_t *buf)
{
    static ct_chunk c;
    return ct_chunk_generate(w, key, &c, NULL, 0) == CT_OK &&
           ct_chunk_encode_ctc(&c, buf, CT_CTC_FILE_BYTES, NULL, 0) == CT_OK &&
           ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES, out, NULL, 0) == CT_OK;
}

static int same_sample(const ct_chunk *a, int ai, int aj, const ct_chunk *b, int bi, int bj)
{
    size_t x = (size_t)aj * 257 + (size_t)ai, y = (size_t)bj * 257 + (size_t)bi;
    return a->height[x] == b->height[y] && a->water[x] == b->water[y] && a->biome[x] == b->biome[y] &&
           a->palette[x] == b->palette[y];
}

/* +Z (u,-v,1) at u=1 is +X (1,-v,-u) at u=-1 with the same v; +Y (u,1,v) at
 * v=1 is +Z at v=-1 with the same u. So at LOD 0: +Z column 256 == +X column
 * 0 and +Y row 256 == +Z row 0, sample for sample. */
static int check_borders(const ct_world *w, char *why, size_t whylen)
{
    static ct_chunk pz, px, py;
    uint8_t *buf = (uint8_t *)malloc(CT_CTC_FILE_BYTES);
    int t, bad = 0;
    if (!buf) return 0;
    if (!file_chunk(w, ct_key_make(CT_FACE_PZ, 0, 0, 0), &pz, buf) || !file_chunk(w, ct_key_make(CT_FACE_PX, 0, 0, 0), &px, buf) ||
        !file_chunk(w, ct_key_make(CT_FACE_PY, 0, 0, 0), &py, buf)) {
        free(buf);
        snprintf(why, whylen, "chunk generation failed");
        return 0;
    }
    free(buf);
    for (t = 0; t <= 256; t++) {
        if (!same_sample(&pz, 256, t, &px, 0, t)) bad++;
        if (!same_sample(&py, t, 256, &pz, t, 0)) bad++;
    }
    if (bad) snprintf(why, whylen, "%d samples differ across cube edges", bad);
    return bad == 0;
}

static int check_lakes(const ct_world *w, int *lakes_seen, char *why, size_t whylen)
{
    uint32_t n = w->field.n, V = w->field.vertex_count, v, f, i, j, bodies = 0;
    double *level;
    int ok = 1, k;
    for (v = 0; v < V; v++)
        if (w->field.body_v[v] + 1 > (int32_t)bodies) bodies = (uint32_t)w->field.body_v[v] + 1u;
    level = (double *)malloc(sizeof(double) * (bodies + 1u));
    if (!level) return 0;
    for (v = 0; v <= bodies; v++) level[v] = NAN;
    *lakes_seen = 0;
    for (v = 0; v < V && ok; v++) {
        int32_t b = w->field.body_v[v];
        if (b < 0) continue;
        if (level[b] != level[b]) level[b] = w->field.water_level_v[v];
        if (w->field.water_level_v[v] != level[b]) {
            snprintf(why, whylen, "body %ld is not flat", (long)b);
            ok = 0;
        } else if (w->field.height_v[v] > level[b]) {
            snprintf(why, whylen, "vertex %lu: bed %.3f above its water %.3f", (unsigned long)v, w->field.height_v[v],
                     level[b]);
            ok = 0;
        }
    }
    for (v = 0; ok && v < bodies; v++) {
        if (level[v] != level[v]) continue;
        if (level[v] < 0.0 || (v == 0 && level[v] != 0.0)) {
            snprintf(why, whylen, "body %lu at level %.3f below sea level", (unsigned long)v, level[v]);
            ok = 0;
        }
        if (level[v] > 0.0) (*lakes_seen)++;
    }
    /* Land next to a body is never below its level (the lake is held). */
    for (f = 0; ok && f < 6; f++)
        for (j = 0; ok && j <= n; j++)
            for (i = 0; ok && i <= n; i++) {
                uint32_t a = w->field.vertex_fij[CT__FIJ(n, f, i, j)], nb[2];
                int q;
                nb[0] = i < n ? w->field.vertex_fij[CT__FIJ(n, f, i + 1, j)] : a;
                nb[1] = j < n ? w->field.vertex_fij[CT__FIJ(n, f, i, j + 1)] : a;
                for (q = 0; q < 2; q++) {
                    uint32_t x = a, y = nb[q];
                    if (w->field.body_v[x] >= 0) { uint32_t t = x; x = y; y = t; }
                    if (w->field.body_v[x] < 0 && w->field.body_v[y] >= 0 &&
                        w->field.height_v[x] < level[w->field.body_v[y]] - 1e-6) {
                        snprintf(why, whylen, "land %.3f below the %.3f level of its neighbour body %ld",
                                 w->field.height_v[x], level[w->field.body_v[y]], (long)w->field.body_v[y]);
                        ok = 0;
                    }
                }
            }
    /* Point samples: wet means exactly the body's level. */
    for (k = 0; ok && k < 20000; k++) {
        double d[3];
        ct_sample s;
        d[0] = ct__unit(ct__hash2(31u, (uint32_t)k)) * 2 - 1;
        d[1] = ct__unit(ct__hash2(32u, (uint32_t)k)) * 2 - 1;
        d[2] = ct__unit(ct__hash2(33u, (uint32_t)k)) * 2 - 1;
        if (ct_world_sample(w, d, &s, NULL, 0) != CT_OK || !s.has_water) continue;
        if (s.water_body < 0 || (uint32_t)s.water_body >= bodies || s.water_m != level[s.water_body]) {
            snprintf(why, whylen, "wet sample of body %d at %.3f, body level %.3f", s.water_body, s.water_m,
                     (s.water_body >= 0 && (uint32_t)s.water_body < bodies) ? level[s.water_body] : NAN);
            ok = 0;
        }
    }
    free(level);
    return ok;
}

static int check_snapshot(const ct_world *w, char *why, size_t whylen)
{
    size_t len = ct_world_snapshot_size(w), len2;
    uint8_t *a = (uint8_t *)malloc(len), *b = NULL;
    ct_world *back = NULL;
    static ct_chunk c1, c2;
    int ok = 0;
    ct_key key = ct_key_make(CT_FACE_NY, 0, 0, 0);
    if (!a) return 0;
    if (ct_world_snapshot_write(w, a, len, why, whylen) != CT_OK ||
        ct_world_snapshot_read(a, len, &back, why, whylen) != CT_OK) {
        free(a);
        return 0;
    }
    len2 = ct_world_snapshot_size(back);
    b = (uint8_t *)malloc(len2);
    if (b && len2 == len && ct_world_snapshot_write(back, b, len2, NULL, 0) == CT_OK && memcmp(a, b, len) == 0 &&
        ct_world_generation(back) == ct_world_generation(w) && ct_chunk_generate(w, key, &c1, NULL, 0) == CT_OK &&
        ct_chunk_generate(back, key, &c2, NULL, 0) == CT_OK && c1.digest == c2.digest)
        ok = 1;
    else
        snprintf(why, whylen, "snapshot round trip differs");
    ct_world_free(back);
    free(a);
    free(b);
    return ok;
}

int main(void)
{
    size_t k, count = sizeof worlds / sizeof worlds[0];
    int failed = 0;
    clock_t all = clock();
    for (k = 0; k < count; k++) {
        ct_config cfg;
        ct_world *w;
        ct_world_stats st;
        char err[256], why[256] = "";
        int ok = 1, lakes = 0;
        clock_t t0 = clock();
        double tol;
        ct_config_preset(&cfg, worlds[k].preset, NULL, 0);
        if (!apply_sets(&cfg, worlds[k].sets, err, sizeof err)) {
            printf("world %2lu FAIL %s %s: config: %s\n", (unsigned long)k + 1, worlds[k].preset, worlds[k].sets, err);
            failed++;
            continue;
        }
        w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
        if (!w) {
            printf("world %2lu FAIL %s %s: build: %s\n", (unsigned long)k + 1, worlds[k].preset, worlds[k].sets, err);
            failed++;
            continue;
        }
        ct_world_stats_get(w, &st);
        tol = 1e-6 * (1.0 + fabs(st.max_height_m) + fabs(st.min_height_m));
        if (cfg.max_macro_slope > 0.0 && st.max_macro_slope_excess_m > tol) {
            snprintf(why, sizeof why, "slope excess %.3g m", st.max_macro_slope_excess_m);
            ok = 0;
        }
        if (ok) ok = check_lakes(w, &lakes, why, sizeof why);
        if (ok) ok = check_borders(w, why, sizeof why);
        if (ok) ok = check_snapshot(w, why, sizeof why);
        printf("world %2lu %s n=%-3lu %-11s %-40s gen %08lx%08lx excess %.1e lakes %2d/%-2lu ocean %.2f %5.0f ms%s%s\n",
               (unsigned long)k + 1, ok ? "ok  " : "FAIL", (unsigned long)cfg.macro_resolution, worlds[k].preset,
               worlds[k].sets, (unsigned long)(uint32_t)(w->field.generation >> 32), (unsigned long)(uint32_t)w->field.generation,
               st.max_macro_slope_excess_m, lakes, (unsigned long)st.lakes, st.ocean_fraction,
               (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC, ok ? "" : ": ", why);
        fflush(stdout);
        failed += !ok;
        ct_world_free(w);
    }
    printf("sweep: %lu worlds, %d failed, %.1f s\n", (unsigned long)count, failed,
           (double)(clock() - all) / CLOCKS_PER_SEC);
    return failed ? 1 : 0;
}
