/* test_world.c - the public world API: repeatable generation IDs (in one
 * process and across processes), sensitivity to every knob and to the seed,
 * rejection of every invalid config and of a NaN shape, progress reporting
 * and cancellation, statistics. */
#include "ct.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ct_config small_config(const char *preset, uint32_t n)
{
    ct_config cfg;
    char err[256];
    ct_config_preset(&cfg, preset, err, sizeof err);
    cfg.macro_resolution = n;
    return cfg;
}

static uint64_t generation_of(const ct_config *cfg)
{
    char err[256];
    ct_world *w = ct_world_build(cfg, NULL, NULL, err, sizeof err);
    uint64_t g;
    if (!w) {
        fprintf(stderr, "build failed: %s\n", err);
        return 0;
    }
    g = ct_world_generation(w);
    ct_world_free(w);
    return g;
}

/* Child mode: print the generation of the default world at n = 32. */
static int child_main(void)
{
    ct_config cfg = small_config("balanced", 32);
    printf("%016llx\n", (unsigned long long)generation_of(&cfg));
    return 0;
}

static void test_repeatable(const char *self)
{
    ct_config cfg = small_config("balanced", 32);
    uint64_t a = generation_of(&cfg), b = generation_of(&cfg);
    char cmd[1024], line[64] = "";
    FILE *p;
    CHECK(a != 0 && a == b, "same config, same process: %016llx vs %016llx", (unsigned long long)a,
          (unsigned long long)b);
    /* A second process computes the same ID from scratch. */
    snprintf(cmd, sizeof cmd, "'%s' --child-generation", self);
    p = popen(cmd, "r");
    CHECK(p != NULL, "popen %s", cmd);
    if (p) {
        if (!fgets(line, sizeof line, p)) line[0] = '\0';
        pclose(p);
    }
    {
        char mine[32];
        snprintf(mine, sizeof mine, "%016llx", (unsigned long long)a);
        CHECK(strncmp(line, mine, 16) == 0, "other process: '%.16s' vs '%s'", line, mine);
    }
    /* Every preset at its own resolution is repeatable too (one at 64). */
    cfg = small_config("alpine", 64);
    CHECK(generation_of(&cfg) == generation_of(&cfg), "alpine at 64 repeats");
}

static void test_seeds_differ(void)
{
    ct_config a = small_config("balanced", 16), b = a;
    char err[256];
    ct_world *wa, *wb;
    b.seed = a.seed + 1u;
    wa = ct_world_build(&a, NULL, NULL, err, sizeof err);
    wb = ct_world_build(&b, NULL, NULL, err, sizeof err);
    CHECK(wa && wb, "builds: %s", err);
    if (wa && wb) {
        CHECK(ct_world_generation(wa) != ct_world_generation(wb), "different seeds, different IDs");
        CHECK(memcmp(ct_world_config(wa), &a, sizeof a) == 0, "the world keeps its config");
    }
    ct_world_free(wa);
    ct_world_free(wb);
}

/* Nudges one knob within its range; returns 0 if it cannot move. */
static int nudge(ct_config *cfg, const ct_knob_info *k)
{
    double v = ct_config_get(cfg, k), nv;
    char text[64], err[256];
    if (strcmp(k->name, "macro_resolution") == 0) nv = v * 2.0;
    else if (k->kind == CT_KNOB_UINT) nv = v + 1.0 <= k->max ? v + 1.0 : v - 1.0;
    else {
        double step = (k->max - k->min) * 0.01;
        nv = v + step <= k->max ? v + step : v - step;
    }
    if (k->kind == CT_KNOB_UINT) snprintf(text, sizeof text, "%.0f", nv);
    else snprintf(text, sizeof text, "%.17g", nv);
    return ct_config_set(cfg, k->name, text, err, sizeof err) == CT_OK && ct_config_get(cfg, k) != v;
}

static void test_every_knob_matters(void)
{
    ct_config base = small_config("balanced", 16);
    uint64_t g0 = generation_of(&base);
    size_t i, count = ct_knob_count(), same = 0, unmoved = 0;
    for (i = 0; i < count; i++) {
        const ct_knob_info *k = ct_knob_get(i);
        ct_config c = base;
        uint64_t g;
        if (!nudge(&c, k)) { unmoved++; fprintf(stderr, "cannot nudge %s\n", k->name); continue; }
        g = generation_of(&c);
        if (g == g0 || g == 0) {
            same++;
            fprintf(stderr, "knob %s does not change the generation\n", k->name);
        }
    }
    CHECK(count > 40, "knob table has %lu knobs", (unsigned long)count);
    CHECK(unmoved == 0 && same == 0, "%lu knobs unmoved, %lu without effect", (unsigned long)unmoved,
          (unsigned long)same);
}

static void test_invalid_configs(void)
{
    ct_config base = small_config("balanced", 16);
    size_t i, count = ct_knob_count();
    char err[256];
    ct_world *w = NULL;
    ct_result r;
    for (i = 0; i < count; i++) {
        const ct_knob_info *k = ct_knob_get(i);
        ct_config c = base;
        char *field = (char *)&c + k->offset;
        int tried = 0;
        if (k->kind == CT_KNOB_REAL) {
            double bad[3];
            int j;
            bad[0] = NAN;
            bad[1] = k->max + (k->max - k->min) + 1.0;
            bad[2] = k->min - (k->max - k->min) - 1.0;
            for (j = 0; j < 3; j++) {
                c = base;
                memcpy((char *)&c + k->offset, &bad[j], sizeof(double));
                err[0] = '\0';
                r = ct_world_build_ex(&c, NULL, &w, err, sizeof err);
                CHECK(r != CT_OK && w == NULL && strstr(err, k->name) != NULL,
                      "%s = %g: code %s, message '%s'", k->name, bad[j], ct_result_name(r), err);
                tried++;
            }
        } else {
            uint32_t bad = 0;
            if (k->max < 4294967295.0) bad = (uint32_t)k->max + 1u;
            else if (k->min > 0.0) bad = (uint32_t)k->min - 1u;
            else continue;   /* every uint32 value is valid (seed, planet_id) */
            memcpy(field, &bad, sizeof bad);
            err[0] = '\0';
            r = ct_world_build_ex(&c, NULL, &w, err, sizeof err);
            CHECK(r == CT_ERR_KNOB_RANGE && w == NULL && strstr(err, k->name) != NULL,
                  "%s = %u: code %s, message '%s'", k->name, bad, ct_result_name(r), err);
            tried++;
        }
        CHECK(tried > 0, "%s tried", k->name);
    }
    /* Cross-knob rule: macro_resolution must be a power of two. */
    base.macro_resolution = 24;
    r = ct_world_build_ex(&base, NULL, &w, err, sizeof err);
    CHECK(r == CT_ERR_KNOB_RANGE && strstr(err, "macro_resolution"), "n = 24: %s", err);
    CHECK(ct_world_build(NULL, NULL, NULL, err, sizeof err) == NULL, "NULL config");
    CHECK(ct_world_build_ex(NULL, NULL, &w, err, sizeof err) == CT_ERR_NULL, "NULL config code");
    base.macro_resolution = 16;
    CHECK(ct_world_build_ex(&base, NULL, NULL, err, sizeof err) == CT_ERR_NULL, "NULL out");
    {
        ct_world *ok = ct_world_build(&base, NULL, NULL, NULL, 0);
        CHECK(ok != NULL, "a NULL error buffer is fine");
        ct_world_free(ok);
    }
    ct_world_free(NULL);
    CHECK(ct_world_config(NULL) == NULL && ct_world_generation(NULL) == 0, "NULL world accessors");
    {
        ct_world_stats s;
        CHECK(ct_world_stats_get(NULL, &s) == CT_ERR_NULL, "stats of NULL");
    }
}

static int nan_calls;
static double nan_shape(const double dir[3], void *user)
{
    nan_calls++;
    (void)user;
    return dir[1] > 0.9 ? NAN : dir[0];
}
static double inf_shape(const double dir[3], void *user)
{
    (void)user;
    return dir[2] < -0.99 ? -INFINITY : dir[2];
}
static double plane_shape(const double dir[3], void *user)
{
    *(int *)user += 1;
    return dir[0] - 0.2;
}

static void test_shapes(void)
{
    ct_config cfg = small_config("balanced", 16);
    char err[256];
    ct_world *w;
    ct_result r;
    ct_build_options o;
    int calls = 0;
    w = ct_world_build(&cfg, nan_shape, NULL, err, sizeof err);
    CHECK(w == NULL && strstr(err, "NaN") != NULL, "NaN shape rejected: %s", err);
    CHECK(nan_calls > 0, "the shape was called");
    memset(&o, 0, sizeof o);
    o.shape = inf_shape;
    r = ct_world_build_ex(&cfg, &o, &w, err, sizeof err);
    CHECK(r == CT_ERR_SHAPE && w == NULL, "infinite shape: %s", ct_result_name(r));
    /* A valid shape is used for the mask, once per vertex, with user data. */
    w = ct_world_build(&cfg, plane_shape, &calls, err, sizeof err);
    CHECK(w != NULL, "plane shape: %s", err);
    if (w) {
        ct_world_stats s;
        ct_world_stats_get(w, &s);
        CHECK(calls == (int)s.vertex_count, "shape called %d times for %u vertices", calls, s.vertex_count);
        CHECK(s.water_bodies == 1 && fabs(s.land_fraction - 0.4) < 0.1, "half-space: %u bodies, land %.3f",
              s.water_bodies, s.land_fraction);
    }
    ct_world_free(w);
}

typedef struct progress_log {
    double f[4096];
    int n, cancel_at;
    const char *cancel_stage;
    int bad_stage;
    int walk_stages, noise_stages;   /* reports naming a walk, the noise heights */
} progress_log;

static int on_progress(const char *stage, double fraction, void *user)
{
    progress_log *log = (progress_log *)user;
    if (!stage || !stage[0]) log->bad_stage++;
    if (stage && strstr(stage, "walk")) log->walk_stages++;
    if (stage && strstr(stage, "noise heights")) log->noise_stages++;
    if (log->n < 4096) log->f[log->n] = fraction;
    log->n++;
    if (log->cancel_at >= 0 && log->n > log->cancel_at) return 1;
    if (log->cancel_stage && strstr(stage, log->cancel_stage)) return 1;
    return 0;
}

static void test_progress_and_cancel(void)
{
    ct_config cfg = small_config("balanced", 64);
    ct_build_options o;
    progress_log log;
    ct_world *w = NULL;
    char err[256];
    ct_result r;
    int i, increasing = 1;
    uint64_t plain;
    memset(&o, 0, sizeof o);
    memset(&log, 0, sizeof log);
    log.cancel_at = -1;
    o.progress = on_progress;
    o.progress_user = &log;
    r = ct_world_build_ex(&cfg, &o, &w, err, sizeof err);
    CHECK(r == CT_OK && w != NULL, "build with progress: %s", err);
    for (i = 1; i < log.n && i < 4096; i++) if (!(log.f[i] > log.f[i - 1])) increasing = 0;
    CHECK(log.n >= 8 && increasing, "%d strictly increasing reports", log.n);
    CHECK(log.n > 0 && log.f[0] >= 0.0 && log.f[log.n - 1] == 1.0, "first %.3f, last %.3f", log.f[0],
          log.n ? log.f[log.n - 1] : -1.0);
    CHECK(log.bad_stage == 0, "every report names its stage");
    plain = generation_of(&cfg);
    CHECK(w && ct_world_generation(w) == plain, "progress reporting does not change the world");
    ct_world_free(w);

    /* Cancel at the first report, in the middle, inside a walk, and at 1.0. */
    for (i = 0; i < 4; i++) {
        memset(&log, 0, sizeof log);
        log.cancel_at = i == 0 ? 0 : (i == 1 ? 3 : -1);
        log.cancel_stage = i == 2 ? "second pass" : (i == 3 ? "done" : NULL);
        w = (ct_world *)&log;   /* must be reset to NULL */
        r = ct_world_build_ex(&cfg, &o, &w, err, sizeof err);
        CHECK(r == CT_ERR_CANCELLED && w == NULL && strstr(err, "cancel"), "cancel case %d: %s (%s)", i,
              ct_result_name(r), err);
    }

    /* Stages name what runs: noise mode never announces a walk. */
    memset(&log, 0, sizeof log);
    log.cancel_at = -1;
    cfg = small_config("noise", 32);
    r = ct_world_build_ex(&cfg, &o, &w, err, sizeof err);
    CHECK(r == CT_OK && log.walk_stages == 0 && log.noise_stages == 1, "noise mode: %d walk, %d noise reports",
          log.walk_stages, log.noise_stages);
    ct_world_free(w);
    memset(&log, 0, sizeof log);
    log.cancel_at = -1;
    cfg = small_config("balanced", 32);
    r = ct_world_build_ex(&cfg, &o, &w, err, sizeof err);
    CHECK(r == CT_OK && log.walk_stages > 0 && log.noise_stages == 0, "hybrid mode: %d walk, %d noise reports",
          log.walk_stages, log.noise_stages);
    ct_world_free(w);
}

static void test_stats(void)
{
    ct_config cfg = small_config("balanced", 64);
    char err[256];
    ct_world *w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    ct_world_stats s;
    CHECK(w != NULL, "default build: %s", err);
    if (!w) return;
    CHECK(ct_world_stats_get(w, &s) == CT_OK, "stats");
    CHECK(s.macro_resolution == 64 && s.vertex_count == 24578u && s.edge_count == 12u * 64u * 64u,
          "graph size %u/%u/%u", s.macro_resolution, s.vertex_count, s.edge_count);
    CHECK(s.passes > 0 && s.accepted_hops > 0 && s.collisions > 0, "walk counters %u %u %u", s.passes,
          s.accepted_hops, s.collisions);
    CHECK(s.water_bodies >= 1 && s.lakes < s.water_bodies, "bodies %u lakes %u", s.water_bodies, s.lakes);
    CHECK(s.ocean_fraction > 0.2 && s.ocean_fraction < 0.95 && s.land_fraction > 0.05 &&
          s.ocean_fraction + s.land_fraction <= 1.0 + 1e-12, "ocean %.3f land %.3f", s.ocean_fraction,
          s.land_fraction);
    CHECK(s.min_height_m < -100.0 && s.max_height_m > 100.0, "heights %.0f..%.0f", s.min_height_m,
          s.max_height_m);
    CHECK(s.max_macro_slope_excess_m < 1e-6, "excess %g", s.max_macro_slope_excess_m);
    /* Graph + field: the reference quotes ~3.5 MiB for the default graph. */
    CHECK(s.bytes_held > 1000000u && s.bytes_held < 8u * 1024u * 1024u, "bytes held %lu",
          (unsigned long)s.bytes_held);
    CHECK(s.build_ms >= 0.0, "build time %.1f ms", s.build_ms);
    printf("ok default world: %.1f ms, %u passes, %u hops, %u collisions, %u junction cells, "
           "%u bodies, %u lakes, ocean %.3f, heights %.0f..%.0f m, %lu bytes\n",
           s.build_ms, s.passes, s.accepted_hops, s.collisions, s.junction_cells, s.water_bodies, s.lakes,
           s.ocean_fraction, s.min_height_m, s.max_height_m, (unsigned long)s.bytes_held);
    ct_world_free(w);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child-generation") == 0) return child_main();
    test_repeatable(argv[0]);
    test_seeds_differ();
    test_every_knob_matters();
    test_invalid_configs();
    test_shapes();
    test_progress_and_cancel();
    test_stats();
    return test_summary("world");
}
