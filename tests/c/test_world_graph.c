/* test_world_graph.c - the macro graph (unique vertices shared across cube
 * seams, adjacency, edge lengths) and the region weights/profiles. */
#include "solve/ct_solve.h"
#include "world/ct_world.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void check_graph(uint32_t n)
{
    ct__field w;
    ct__graph g;
    char err[256];
    uint32_t f, i, j, v, k, deg3 = 0, bad_deg = 0, bad_dir = 0, bad_unit = 0, bad_len = 0;
    uint32_t *hits;
    size_t miss = 0;
    double mean;
    memset(&w, 0, sizeof w);
    CHECK(ct__field_alloc_graph(&w, n, err, sizeof err) == CT_OK, "alloc n=%u: %s", n, err);
    CHECK(w.vertex_count == 6u * n * n + 2u, "n=%u: %u vertices", n, w.vertex_count);
    CHECK(ct__graph_build(&w, 1000.0, &g, err, sizeof err) == CT_OK, "graph n=%u: %s", n, err);
    CHECK(g.edge_count == 12u * n * n, "n=%u: %u edges", n, g.edge_count);
    /* Every grid point maps to a vertex whose direction is exactly that
     * point's canonical direction; every vertex is hit by some grid point. */
    hits = (uint32_t *)calloc(w.vertex_count, sizeof *hits);
    for (f = 0; f < 6; f++)
        for (j = 0; j <= n; j++)
            for (i = 0; i <= n; i++) {
                double d[3];
                uint32_t id = w.vertex_fij[CT__FIJ(n, f, i, j)];
                ct__face_uv_to_cube((int)f, 2.0 * ((double)i / n) - 1.0, 2.0 * ((double)j / n) - 1.0, d);
                ct__normalize_canonical(d);
                if (id >= w.vertex_count) { bad_dir++; continue; }
                hits[id]++;
                /* == rather than memcmp: face transforms may spell a seam zero as -0. */
                if (d[0] != w.dir_v[3u * id] || d[1] != w.dir_v[3u * id + 1u] || d[2] != w.dir_v[3u * id + 2u])
                    bad_dir++;
            }
    for (v = 0; v < w.vertex_count; v++) if (!hits[v]) miss++;
    CHECK(bad_dir == 0, "n=%u: %u grid points map to a vertex with another direction", n, bad_dir);
    CHECK(miss == 0, "n=%u: %lu vertices never referenced", n, (unsigned long)miss);
    /* Seam points are shared: interior points hit once, edge points twice,
     * the 8 cube corners three times. */
    {
        uint32_t once = 0, twice = 0, thrice = 0;
        for (v = 0; v < w.vertex_count; v++) {
            once += hits[v] == 1u;
            twice += hits[v] == 2u;
            thrice += hits[v] == 3u;
        }
        CHECK(thrice == 8u && twice == 12u * (n - 1u) && once == 6u * (n - 1u) * (n - 1u),
              "n=%u: hit counts %u/%u/%u", n, once, twice, thrice);
    }
    mean = g.cell_arc * 1000.0;
    for (v = 0; v < w.vertex_count; v++) {
        const double *d = w.dir_v + 3u * v;
        uint32_t deg = 0;
        if (fabs(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - 1.0) > 1e-14) bad_unit++;
        for (k = 0; k < 4; k++) {
            uint32_t b = g.nbr[4u * v + k], kk, back = 0;
            if (b == CT__NONE) continue;
            deg++;
            /* Symmetric with the same length both ways. */
            for (kk = 0; kk < 4; kk++)
                if (g.nbr[4u * b + kk] == v && g.len_m[4u * b + kk] == g.len_m[4u * v + k]) back = 1;
            if (!back || !(g.len_m[4u * v + k] > 0.4 * mean && g.len_m[4u * v + k] < 1.6 * mean)) bad_len++;
        }
        if (deg == 3u) deg3++;
        else if (deg != 4u) bad_deg++;
    }
    CHECK(deg3 == 8u && bad_deg == 0, "n=%u: %u degree-3 vertices, %u with another degree", n, deg3, bad_deg);
    CHECK(bad_unit == 0, "n=%u: %u non-unit directions", n, bad_unit);
    CHECK(bad_len == 0, "n=%u: %u asymmetric or implausible edge lengths", n, bad_len);
    /* Edge length is the great-circle distance: a face-centre edge at n. */
    CHECK(fabs(mean - 1000.0 * 3.14159265358979 / 2.0 / n) < 0.25 * 1000.0 * 3.14159265358979 / 2.0 / n,
          "n=%u: mean edge %.3f m on a 1 km sphere", n, mean);
    free(hits);
    ct__graph_free(&g);
    free(w.vertex_fij);
    free(w.dir_v);
}

static void test_regions(void)
{
    ct_config cfg;
    ct_world *w;
    char err[256];
    uint32_t v, bad_sum = 0, bad_store = 0, neutral_bad = 0;
    ct_region_info info;
    double d[3] = {0.3, 0.8, -0.5}, prev[4];
    int k, step, jumps = 0, dominants[4] = {0, 0, 0, 0};

    CHECK(strcmp(ct_region_name(0), "plains") == 0 && strcmp(ct_region_name(3), "basins") == 0 &&
          strcmp(ct_region_name(4), "?") == 0 && strcmp(ct_region_name(-1), "?") == 0, "region names");
    ct_config_preset(&cfg, "regional", err, sizeof err);
    cfg.macro_resolution = 16;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "regional build: %s", err);
    if (!w) return;
    for (v = 0; v < w->field.vertex_count; v++) {
        double s = 0.0;
        ct_world_region(w, w->field.dir_v + 3u * v, &info, err, sizeof err);
        for (k = 0; k < 4; k++) {
            s += w->field.region_w_v[4u * v + k];
            if (w->field.region_w_v[4u * v + k] < 0.0f) bad_sum++;
            if (fabs(info.weight[k] - w->field.region_w_v[4u * v + k]) > 1e-6) bad_store++;
        }
        if (fabs(s - 1.0) > 1e-5) bad_sum++;
        dominants[info.dominant]++;
    }
    CHECK(bad_sum == 0, "%u vertices with weights not a partition of 1", bad_sum);
    CHECK(bad_store == 0, "%u stored vertex weights differ from ct_world_region", bad_store);
    CHECK(dominants[0] && dominants[1] && dominants[2] && dominants[3],
          "every profile dominates somewhere: %d %d %d %d", dominants[0], dominants[1], dominants[2], dominants[3]);
    /* Continuity: walking in tiny steps never jumps. */
    ct__region_weights(&cfg, d, prev);
    for (step = 0; step < 2000; step++) {
        double cur[4], len;
        d[0] += 1e-4;
        d[2] += 0.5e-4;
        len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        {
            double u[3] = {d[0] / len, d[1] / len, d[2] / len};
            ct__region_weights(&cfg, u, cur);
        }
        for (k = 0; k < 4; k++) if (fabs(cur[k] - prev[k]) > 0.05) jumps++;
        memcpy(prev, cur, sizeof prev);
    }
    CHECK(jumps == 0, "%d weight jumps over 2000 tiny steps", jumps);
    /* Effective settings at strength 1 are the weighted profile values. */
    ct_world_region(w, d, &info, err, sizeof err);
    CHECK(fabs(info.height_scale - (info.weight[0] * cfg.plains_height_scale + info.weight[1] * cfg.ridges_height_scale +
                                    info.weight[2] * cfg.broken_height_scale + info.weight[3] * cfg.basins_height_scale)) < 1e-12,
          "strength 1 height_scale is the weighted profile value");
    CHECK(ct_world_region(w, NULL, &info, err, sizeof err) == CT_ERR_NULL, "NULL dir");
    {
        double z[3] = {0, 0, 0}, nan3[3] = {NAN, 0, 1};
        CHECK(ct_world_region(w, z, &info, err, sizeof err) == CT_ERR_DIRECTION, "zero dir");
        CHECK(ct_world_region(w, nan3, &info, err, sizeof err) == CT_ERR_DIRECTION, "NaN dir");
    }
    ct_world_free(w);

    /* Strength 0: every effective setting neutral, whatever the profiles. */
    cfg.region_strength = 0.0;
    cfg.front_delay_passes = 2;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "strength 0 build: %s", err);
    if (!w) return;
    for (v = 0; v < w->field.vertex_count; v += 7) {
        ct_world_region(w, w->field.dir_v + 3u * v, &info, err, sizeof err);
        if (info.height_scale != 1.0 || info.roughness != 1.0 || info.ridge_scale != 1.0 ||
            info.delay_passes != 2.0)
            neutral_bad++;
    }
    CHECK(neutral_bad == 0, "%u vertices with non-neutral settings at strength 0", neutral_bad);
    ct_world_free(w);
}

/* Strength 0 neutralises every profile knob: the solved field is identical
 * (only the generation differs, because every knob is hashed). */
static void test_strength_zero_neutral(void)
{
    ct_config a, b;
    ct_world *wa, *wb;
    char err[256];
    ct_config_preset(&a, "regional", err, sizeof err);
    a.macro_resolution = 16;
    a.region_strength = 0.0;
    b = a;
    b.ridges_height_scale = 3.0;
    b.broken_roughness = 6.0;
    b.basins_delay_passes = 12.0;
    b.plains_ridge_scale = 5.0;
    wa = ct_world_build(&a, NULL, NULL, err, sizeof err);
    wb = ct_world_build(&b, NULL, NULL, err, sizeof err);
    CHECK(wa && wb, "builds: %s", err);
    if (wa && wb) {
        CHECK(memcmp(wa->field.height_v, wb->field.height_v, sizeof(double) * wa->field.vertex_count) == 0 &&
              memcmp(wa->field.mask_v, wb->field.mask_v, sizeof(float) * wa->field.vertex_count) == 0,
              "profile knobs change nothing at strength 0");
        CHECK(ct_world_generation(wa) != ct_world_generation(wb), "but the generation still differs");
    }
    /* ...and at strength 1 they do change the field. */
    a.region_strength = b.region_strength = 1.0;
    ct_world_free(wa);
    ct_world_free(wb);
    wa = ct_world_build(&a, NULL, NULL, err, sizeof err);
    wb = ct_world_build(&b, NULL, NULL, err, sizeof err);
    if (wa && wb)
        CHECK(memcmp(wa->field.height_v, wb->field.height_v, sizeof(double) * wa->field.vertex_count) != 0,
              "profile knobs matter at strength 1");
    ct_world_free(wa);
    ct_world_free(wb);
}

int main(void)
{
    check_graph(8);
    check_graph(16);
    check_graph(64);
    test_regions();
    test_strength_zero_neutral();
    return test_summary("world_graph");
}
