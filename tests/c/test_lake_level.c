/* test_lake_level.c - the reference's rule for lake levels, pinned as an
 * equality: a lake's provisional level is the minimum first-pass height over
 * its footprint, and only slope constraints may lower it. So with the slope
 * projection off (max_macro_slope = 0) or so lax it never binds, every lake
 * sits exactly at that minimum; test_world_walk.c covers the strict-slope
 * case, where the level must drop below it.
 *
 * A lake whose rim vertex also touches another water body shares that pin
 * with it and takes the lower of the two levels (the rim cannot hold two
 * heights); those lakes are reported and checked only for level <= minimum. */
#include "solve/ct_solve.h"
#include "world/ct_world.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double C_DIR[3] = {0.26726124191242440, 0.53452248382484879, 0.80178372573727319};

/* A continent holding a ring lake with an island inside (as in test_world_walk). */
static double ring_lake_shape(const double dir[3], void *user)
{
    double d = dir[0] * C_DIR[0] + dir[1] * C_DIR[1] + dir[2] * C_DIR[2];
    (void)user;
    if (d < 0.36235775447667357) return -1.0;
    if (d > 0.89156835 && d < 0.93937271) return -0.5;
    return 1.0;
}

/* Checks every lake of a traced build; returns the number pinned exactly. */
static uint32_t check_levels(const ct_world *w, const ct__build_trace *tr, const char *what)
{
    ct__graph g;
    char err[256];
    uint32_t V = w->field.vertex_count, nb = tr->body_count, v, k, exact = 0, shared_count = 0;
    uint32_t *size = (uint32_t *)calloc(nb + 1u, sizeof *size);
    uint8_t *shared = (uint8_t *)calloc(nb + 1u, 1);
    double *min_h1 = (double *)malloc(sizeof *min_h1 * (nb + 1u));
    CHECK(size && shared && min_h1, "out of memory");
    CHECK(ct__graph_build(&w->field, w->field.cfg.radius_m, &g, err, sizeof err) == CT_OK, "graph: %s", err);
    if (!size || !shared || !min_h1) { free(size); free(shared); free(min_h1); return 0; }
    for (k = 0; k < nb; k++) min_h1[k] = 1e300;
    for (v = 0; v < V; v++) {
        int32_t c = w->field.body_v[v];
        if (c > 0) {
            size[c]++;
            if (tr->h_pass1[v] < min_h1[c]) min_h1[c] = tr->h_pass1[v];
            continue;
        }
        if (c == 0) continue;
        /* A land vertex touching two different water bodies is a shared pin. */
        {
            int32_t first = -1;
            for (k = 0; k < 4; k++) {
                uint32_t b = g.nbr[4u * v + k];
                if (b == CT__NONE || w->field.body_v[b] < 0) continue;
                if (first < 0) first = w->field.body_v[b];
                else if (w->field.body_v[b] != first) shared[first] = shared[w->field.body_v[b]] = 1;
            }
        }
    }
    for (k = 1; k < nb; k++) {
        if (!size[k] || size[k] > w->field.cfg.lake_max_vertices) continue;   /* inland sea, not a lake */
        CHECK(tr->level_b[k] <= min_h1[k], "%s: lake %u level %.6f above its first-pass minimum %.6f",
              what, k, tr->level_b[k], min_h1[k]);
        if (shared[k]) { shared_count++; continue; }
        CHECK(tr->level_b[k] == min_h1[k], "%s: lake %u (%u vertices) level %.9g is not its provisional "
              "level, the first-pass minimum %.9g", what, k, size[k], tr->level_b[k], min_h1[k]);
        exact += tr->level_b[k] == min_h1[k];
    }
    printf("ok %s: %u lakes exactly at their first-pass minimum, %u share a rim pin with other water\n",
           what, exact, shared_count);
    ct__graph_free(&g);
    free(size);
    free(shared);
    free(min_h1);
    return exact;
}

static void run_case(const char *what, const char *preset, uint32_t res, double slope, ct_shape_fn shape)
{
    ct_config cfg;
    ct_build_options o;
    ct__build_trace tr;
    ct_world *w = NULL;
    char err[256];
    memset(&o, 0, sizeof o);
    o.shape = shape;
    ct_config_preset(&cfg, preset, err, sizeof err);
    cfg.macro_resolution = res;
    cfg.max_macro_slope = slope;
    CHECK(ct__world_build_traced(&cfg, &o, &tr, &w, err, sizeof err) == CT_OK, "%s: %s", what, err);
    if (!w) return;
    CHECK(check_levels(w, &tr, what) >= 1, "%s: at least one lake pinned at its minimum", what);
    ct__build_trace_free(&tr);
    ct_world_free(w);
}

int main(void)
{
    run_case("ring lake, no slope limit", "balanced", 32, 0.0, ring_lake_shape);
    run_case("ring lake, lax slope 10 m/m", "balanced", 32, 10.0, ring_lake_shape);
    run_case("balanced seed 42, no slope limit", "balanced", 64, 0.0, NULL);
    run_case("archipelago seed 42, lax slope", "archipelago", 64, 10.0, NULL);
    return test_summary("lake_level");
}
