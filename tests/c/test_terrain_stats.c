/* test_terrain_stats.c - the measures of the terrain measurement tool
 * (tools/terrain_stats*.c) on inputs whose answer is known: percentiles,
 * slopes on planes seen through skewed tangent bases, the spread of the chunk
 * survey, the band rows of the raster, and lake counts against the world's
 * own statistics. The coast measures are tested in
 * tests/js/terrain_stats.test.mjs. */
#include "terrain_stats.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static double unit(uint32_t *s) { return (double)lcg(s) / 16777216.0; }

static void test_percentile(void)
{
    float v[100];
    uint32_t s = 7;
    int k;
    for (k = 0; k < 100; k++) v[k] = (float)(k + 1);
    for (k = 99; k > 0; k--) {   /* shuffle: the function must sort */
        int j = (int)(lcg(&s) % (uint32_t)(k + 1));
        float t = v[k]; v[k] = v[j]; v[j] = t;
    }
    CHECK(ts_percentile(v, 100, 0.50) == 50.0f, "p50 %g", ts_percentile(v, 100, 0.50));
    CHECK(ts_percentile(v, 100, 0.90) == 90.0f, "p90");
    CHECK(ts_percentile(v, 100, 0.99) == 99.0f, "p99");
    CHECK(ts_percentile(v, 100, 1.0) == 100.0f, "max");
    CHECK(ts_percentile(v, 100, 0.0) == 1.0f, "min");
    CHECK(ts_percentile(v, 0, 0.5) == 0.0, "empty");
}

/* A plane with gradient g (in a random tangent plane) seen through two
 * random, non-orthogonal tangent steps a and b: the height changes are g.a
 * and g.b, and the slope must come out as atan |g| whatever the basis. */
static void test_slope(void)
{
    double a[3] = {100, 0, 0}, b[3] = {0, 100, 0};
    uint32_t s = 11;
    int k, bad = 0;
    CHECK(fabs(ts_slope_deg(a, b, 100.0, 0.0) - 45.0) < 1e-12, "45 degrees along x");
    CHECK(fabs(ts_slope_deg(a, b, 0.0, 0.0)) < 1e-12, "flat");
    CHECK(fabs(ts_slope_deg(a, b, 100.0, 100.0) - atan(sqrt(2.0)) * 180.0 / PI) < 1e-12, "diagonal");
    for (k = 0; k < 1000; k++) {
        double n[3], t1[3], t2[3], g[3], len, c1, c2, c3, want, got, sa, sb, ga, gb;
        int i;
        for (i = 0; i < 3; i++) n[i] = unit(&s) - 0.5;
        /* Two tangent vectors orthogonal to n (Gram-Schmidt on random ones). */
        for (i = 0; i < 3; i++) { t1[i] = unit(&s) - 0.5; t2[i] = unit(&s) - 0.5; }
        len = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
        c1 = (t1[0] * n[0] + t1[1] * n[1] + t1[2] * n[2]) / len;
        c2 = (t2[0] * n[0] + t2[1] * n[1] + t2[2] * n[2]) / len;
        for (i = 0; i < 3; i++) { t1[i] -= c1 * n[i]; t2[i] -= c2 * n[i]; }
        /* Steps of 100..2000 m (times |t|), gradient up to 3 (72 degrees). */
        sa = 100 + 1900 * unit(&s);
        sb = 100 + 1900 * unit(&s);
        for (i = 0; i < 3; i++) { a[i] = t1[i] * sa; b[i] = t2[i] * sb; }
        c3 = 3.0 * unit(&s);
        ga = 0.3 + unit(&s);
        gb = unit(&s) - 0.5;
        for (i = 0; i < 3; i++) g[i] = ga * t1[i] + gb * t2[i];
        len = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        for (i = 0; i < 3; i++) g[i] *= c3 / len;
        want = atan(c3) * 180.0 / PI;
        got = ts_slope_deg(a, b, g[0] * a[0] + g[1] * a[1] + g[2] * a[2], g[0] * b[0] + g[1] * b[1] + g[2] * b[2]);
        if (!(fabs(got - want) < 1e-6)) bad++;
    }
    CHECK(bad == 0, "%d of 1000 skewed planes off", bad);
}

/* The survey order visits every candidate once, and its first points already
 * cover the sphere: their mean direction is near the centre. */
static void test_spread(void)
{
    int n = 4096, stride = ts_stride(n), k, dup = 0;
    unsigned char *seen = (unsigned char *)calloc((size_t)n, 1);
    double mean[3] = {0, 0, 0}, m;
    for (k = 0; k < n; k++) {
        int at = (int)(((long)k * stride) % n);
        if (seen[at]++) dup++;
        if (k < 64) {
            double d[3];
            ts_fibonacci(at, n, d);
            CHECK(fabs(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - 1.0) < 1e-12, "unit point");
            mean[0] += d[0] / 64; mean[1] += d[1] / 64; mean[2] += d[2] / 64;
        }
    }
    m = sqrt(mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2]);
    CHECK(dup == 0, "%d candidates visited twice", dup);
    CHECK(m < 0.1, "first 64 survey points lean to one side: |mean| %g", m);
    free(seen);
}

static ct_world *build(const char *preset)
{
    ct_config cfg;
    char err[256];
    ct_world *w;
    if (ct_config_preset(&cfg, preset, err, sizeof err) != CT_OK) return NULL;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build %s: %s", preset, err);
    return w;
}

/* Lakes counted from what is drawn agree with the world's own statistics,
 * and noise mode (no elevated lakes) has none. */
static void test_lakes(void)
{
    ct_world *w = build("balanced");
    ct_world_stats st;
    ts_lake_result l;
    if (!w) return;
    ct_world_stats_get(w, &st);
    CHECK(ts_lakes_run(w, &l) == 1, "lake survey");
    CHECK(l.lakes == (int)st.lakes, "lakes seen %d, build says %u", l.lakes, (unsigned)st.lakes);
    CHECK(l.bodies_seen == (int)st.water_bodies - 1, "bodies seen %d of %u", l.bodies_seen, (unsigned)st.water_bodies);
    CHECK(l.lakes_elevated <= l.lakes && l.level_min_m <= l.level_max_m, "elevated within lakes");
    ct_world_free(w);
    w = build("noise");
    if (!w) return;
    CHECK(ts_lakes_run(w, &l) == 1 && l.lakes == 0 && l.lakes_elevated == 0, "noise mode has no lakes");
    ct_world_free(w);
}

/* Band rows of a 64x32 grid at |lat| <= 60: centres at 90 - (y + 0.5) * 5.625
 * degrees, so rows 5 (59.06 N) to 26 (59.06 S). The raster's land share must
 * match a count of the same pixels through ct_world_sample. */
static void test_raster(void)
{
    ct_world *w = build("balanced");
    ts_raster_opts o = {64, 32, 60.0, NULL};
    ts_raster_result r;
    int x, y;
    double land = 0.0, all = 0.0;
    char err[256];
    if (!w) return;
    CHECK(ts_raster_run(w, &o, &r) == 1, "raster pass");
    CHECK(r.row0 == 5 && r.row1 == 27, "band rows %d..%d", r.row0, r.row1);
    for (y = 5; y < 27; y++) {
        double lat = (90.0 - (y + 0.5) * 5.625) * PI / 180.0;
        for (x = 0; x < 64; x++) {
            double lon = (-180.0 + (x + 0.5) * 5.625) * PI / 180.0;
            double d[3] = {cos(lat) * sin(lon), sin(lat), cos(lat) * cos(lon)};
            ct_sample s;
            ct_world_sample(w, d, &s, err, sizeof err);
            all += cos(lat);
            if (!s.has_water) land += cos(lat);
        }
    }
    CHECK(fabs(r.land_share - land / all) < 1e-12, "land share %g vs %g", r.land_share, land / all);
    ct_world_free(w);
}

/* The chunk survey is deterministic and its figures are ordered. */
static void test_chunks(void)
{
    ct_world *w = build("balanced");
    ts_chunk_opts o = {3, 40};
    ts_chunk_result a, b;
    if (!w) return;
    CHECK(ts_chunks_run(w, &o, &a) == 1 && ts_chunks_run(w, &o, &b) == 1, "chunk survey");
    CHECK(a.chunks_with_land == 3 && a.land_samples > 0 && a.slope_samples <= a.land_samples, "three land chunks");
    CHECK(memcmp(a.slope_deg, b.slope_deg, sizeof a.slope_deg) == 0 &&
          memcmp(a.height_m, b.height_m, sizeof a.height_m) == 0, "same figures twice");
    CHECK(a.slope_deg[0] <= a.slope_deg[1] && a.slope_deg[1] <= a.slope_deg[2], "slope percentiles ordered");
    CHECK(a.height_m[0] <= a.height_m[1] && a.height_m[2] <= a.height_m[3], "height percentiles ordered");
    CHECK(a.spacing_m > 300.0 && a.spacing_m < 800.0, "LOD 6 spacing %g m", a.spacing_m);
    ct_world_free(w);
}

int main(void)
{
    test_percentile();
    test_slope();
    test_spread();
    test_lakes();
    test_raster();
    test_chunks();
    return test_summary("terrain_stats");
}
