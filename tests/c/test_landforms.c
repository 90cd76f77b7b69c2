/* test_landforms.c - the measures of the landform tool (tools/landforms*.c)
 * on grids whose answer is known: planted pits of known depth, a tilted plane
 * (no pits, parallel flow with known drainage areas and channel length),
 * the stream-power calibration landscape (no pits, no ponding, exponent near
 * 0.5), and real chunks of a world (land only, the same figures twice). */
#include "landforms.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 65
#define DX 10.0

/* A grid of N x N samples DX apart on skewed but equal-area steps (the
 * measure must use the metric, not the indices). */
static int plane(lf_grid *g, double tilt_x, double tilt_y)
{
    int c;
    if (!lf_grid_alloc(g, N, N)) return 0;
    for (c = 0; c < N * N; c++) {
        g->a[3 * c] = DX; g->a[3 * c + 1] = 0.0; g->a[3 * c + 2] = 0.0;
        g->b[3 * c] = 0.0; g->b[3 * c + 1] = DX; g->b[3 * c + 2] = 0.0;
        g->h[c] = 100.0 + tilt_x * (c % N) + tilt_y * (c / N);
    }
    return 1;
}

/* A cone-shaped hole of depth d (metres) and radius r (samples) at (ci, cj). */
static void dig(lf_grid *g, int ci, int cj, double d, double r)
{
    int i, j;
    for (j = 0; j < N; j++) {
        for (i = 0; i < N; i++) {
            double s = sqrt((double)((i - ci) * (i - ci) + (j - cj) * (j - cj)));
            if (s < r) g->h[j * N + i] -= d * (1.0 - s / r);
        }
    }
}

static lf_result measure(const lf_grid *g, double channel_m2)
{
    lf_result r;
    lf_opts o;
    o.channel_m2 = channel_m2;
    memset(&r, 0, sizeof r);
    CHECK(lf_measure(g, &o, &r) == 1, "measure");
    return r;
}

static void test_plane(void)
{
    lf_grid g;
    lf_result r;
    int T = 10, k;
    if (!plane(&g, 0.5, 0.0)) {
        CHECK(0, "out of memory");
        return;
    }
    /* Tilted up along +i: every interior cell drains to its -i neighbour
     * (the straight step is steeper than the diagonals) and edge cells are
     * outlets, so interior cell i drains N-1-i cells and the outlet at i = 0
     * of an interior row N-1. */
    r = measure(&g, T * DX * DX);
    CHECK(r.pits == 0 && r.pits_any == 0 && r.ponded == 0, "plane: pits %g/%g, ponded %g", r.pits, r.pits_any,
          r.ponded);
    CHECK(fabs(r.area_m2 - N * N * DX * DX) < 1e-6, "plane area %g", r.area_m2);
    /* Channels: interior cells draining at least T cells (i <= N-1-T), one
     * DX step each, on N-2 rows. */
    CHECK(fabs(r.channel_m - (double)(N - 2) * (N - 1 - T) * DX) < 1e-6, "plane channels %g m", r.channel_m);
    for (k = 0; k < LF_BINS && lf_bin_area(k) <= N - 1; k++) {
        double a = lf_bin_area(k);
        double want = (double)(N - 2) * floor(N - 1 - a) + (N - 2) + (a <= 1.0 ? 4.0 * (N - 1) - (N - 2) : 0.0);
        CHECK(r.exceed[k] == want, "plane exceedance at %g: %g, want %g", a, r.exceed[k], want);
    }
    lf_grid_free(&g);
}

/* Planted holes on a gentle plane: each one deeper than 2 m is a pit, a
 * shallow one is a depression but no pit, and two holes inside one basin
 * fill to one level and count once. */
static void test_pits(void)
{
    lf_grid g;
    lf_result r;
    if (!plane(&g, 0.01, 0.005)) {
        CHECK(0, "out of memory");
        return;
    }
    dig(&g, 20, 20, 5.0, 6.0);
    r = measure(&g, 1e9);
    CHECK(r.pits == 1 && r.pits_any == 1, "one 5 m hole: pits %g, depressions %g", r.pits, r.pits_any);
    CHECK(r.max_depth_m > 4.8 && r.max_depth_m <= 5.0, "its depth %g", r.max_depth_m);
    /* Raised more than 0.5 m: the cone where it is more than about 0.55 m
     * deep, radius 6 (1 - 0.55/5) = 5.3 samples: about 89 samples. */
    CHECK(r.ponded > 70 && r.ponded < 110, "ponded samples %g", r.ponded);
    dig(&g, 45, 20, 1.0, 4.0);
    r = measure(&g, 1e9);
    CHECK(r.pits == 1 && r.pits_any == 2, "and a 1 m hole: pits %g, depressions %g", r.pits, r.pits_any);
    dig(&g, 45, 48, 3.0, 5.0);
    r = measure(&g, 1e9);
    CHECK(r.pits == 2 && r.pits_any == 3, "and a 3 m hole: pits %g, depressions %g", r.pits, r.pits_any);
    lf_grid_free(&g);

    if (!plane(&g, 0.01, 0.0)) return;
    dig(&g, 32, 32, 3.0, 20.0);
    dig(&g, 26, 32, 5.0, 3.0);
    dig(&g, 38, 32, 5.0, 3.0);
    r = measure(&g, 1e9);
    CHECK(r.pits == 1 && r.pits_any == 1, "two holes in one basin: pits %g, depressions %g", r.pits, r.pits_any);
    lf_grid_free(&g);
}

/* The calibration landscape: carved by flowing water only. */
static void test_sim(void)
{
    lf_sim_opts o;
    lf_grid g;
    lf_result r;
    double beta;
    int steps;
    lf_sim_defaults(&o);
    steps = lf_sim_run(&o, &g);
    CHECK(steps > 10 && steps < o.max_steps, "steady state after %d steps", steps);
    if (!steps) {
        lf_grid_free(&g);
        return;
    }
    r = measure(&g, 1e6);
    beta = lf_beta(&r, 4.0, 512.0);
    CHECK(r.pits_any == 0 && r.ponded == 0, "stream-power landscape: depressions %g, ponded %g", r.pits_any, r.ponded);
    CHECK(beta > 0.45 && beta < 0.58, "stream-power beta %g", beta);
    CHECK(r.channel_m > 0.0, "channels");
    lf_grid_free(&g);
}

/* Real chunks: land only, whole, the same figures twice. */
static void test_chunks(void)
{
    char err[256];
    ct_config cfg;
    ct_world *w;
    lf_chunk_opts o;
    lf_chunk_report each[2];
    lf_result a, b;
    int count = 0, tries = 0, k;
    if (ct_config_preset(&cfg, "balanced", err, sizeof err) != CT_OK ||
        ct_config_parse(&cfg, "surface_lod=12\nseed=42\n", err, sizeof err) != CT_OK) {
        CHECK(0, "config: %s", err);
        return;
    }
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    if (!w) return;
    o.lod = 10;
    o.want = 2;
    o.max_tries = 400;
    o.measure.channel_m2 = 1e6;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    CHECK(lf_chunks_run(w, &o, &a, each, &count, &tries) == 1 && count == 2, "two chunks: %d", count);
    CHECK(lf_chunks_run(w, &o, &b, NULL, &k, &tries) == 1 && memcmp(&a, &b, sizeof a) == 0, "same figures twice");
    CHECK(a.samples == 2.0 * CT_CHUNK_SAMPLES, "whole chunks: %g samples", a.samples);
    /* A LOD-10 chunk covers 81 km2 on average (the sphere over 6 x 4^10). */
    CHECK(a.area_m2 > 2 * 30e6 && a.area_m2 < 2 * 160e6, "area %g km2", a.area_m2 / 1e6);
    for (k = 0; k < count; k++) {
        ct_chunk *c = (ct_chunk *)malloc(sizeof *c);
        lf_grid g;
        int sea = 1, i, raised = 1;
        if (!c || !lf_grid_alloc(&g, CT_CHUNK_EDGE, CT_CHUNK_EDGE)) {
            free(c);
            CHECK(0, "out of memory");
            break;
        }
        CHECK(ct_chunk_generate(w, each[k].key, c, err, sizeof err) == CT_OK, "chunk: %s", err);
        CHECK(lf_chunk_grid(w, c, &g, &sea) == 1 && !sea, "chunk %d has no sea", k);
        /* The measured surface is the bed, or the water surface above it. */
        for (i = 0; i < CT_CHUNK_SAMPLES; i++) {
            if (g.h[i] < (double)c->height_m[i] ||
                (c->water[i] != CT_NO_WATER_CODE && g.h[i] < ct_height_decode(c->water[i], c->height_quantum_m)))
                raised = 0;
        }
        CHECK(raised, "surface below bed or water in chunk %d", k);
        CHECK(each[k].r.pits <= each[k].r.pits_any, "pits are depressions");
        /* Planted water: a lake surface 30 m over a sample is measured there;
         * a sample of sea marks the chunk. */
        c->water[1000] = ct_height_encode((double)c->height_m[1000] + 30.0, c->height_quantum_m, &i);
        CHECK(lf_chunk_grid(w, c, &g, &sea) == 1 && !sea && fabs(g.h[1000] - c->height_m[1000] - 30.0) <= 1.0,
              "planted lake: %g over the bed", g.h[1000] - c->height_m[1000]);
        c->water[2000] = CT_SEA_LEVEL_CODE;
        CHECK(lf_chunk_grid(w, c, &g, &sea) == 1 && sea, "planted sea sample");
        lf_grid_free(&g);
        free(c);
    }
    ct_world_free(w);
}

int main(void)
{
    test_plane();
    test_pits();
    test_sim();
    test_chunks();
    return test_summary("landforms");
}
