/* test_knob_effect.c - every knob in ct_knobs.def changes what a world
 * produces (the heights, water or biomes at a fixed set of 3000 directions),
 * or is listed in NO_EFFECT below with the condition under which it has none. The generation hash covers every knob, so a hash test cannot find
 * a dead knob; this one compares outputs. It walks the knob table, so a knob
 * added later is covered without editing this file: it must either change
 * the output or be listed here with its reason.
 *
 * For a listed knob both halves are checked: under the base config (where
 * the condition holds) moving it changes nothing, and with the condition
 * lifted (the `lift` overrides) moving it changes the output. Identity-only
 * knobs have no lift; for them the generation ID must still change. */
#include "ct.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define N_DIRS 3000
#define BASE_RES "32"   /* small macro graph: about 40 ms per build */

typedef struct no_effect {
    const char *knob;
    const char *condition;     /* when it has no effect */
    const char *lift[6];       /* NAME, VALUE pairs that lift the condition; NULL: identity only */
} no_effect;

static const no_effect NO_EFFECT[] = {
    {"planet_id", "always: it names the body in addresses and the generation ID, never the terrain", {NULL}},
    /* surface_lod is not listed: the sub-grid coast (coast.c) refines down to
     * the finest sample spacing, so the finest LOD shapes the shore. */
    {"coast_frequency", "coast_noise = 0 (no coastline noise to set the frequency of)", {"coast_noise", "0.5", NULL}},
    {"coherence_frequency", "walk_coherence = 0 (IID increments only)", {"walk_coherence", "0.8", NULL}},
    /* region_frequency, region_blend and the *_roughness knobs are not listed:
     * the sub-grid coast reads the regions' roughness even at strength 0. */
#define REGION_KNOB(p) \
    {#p "_height_scale", "region_strength = 0", {"region_strength", "1", NULL}}, \
    {#p "_ridge_scale", "region_strength = 0", {"region_strength", "1", NULL}}, \
    {#p "_delay_passes", "region_strength = 0", {"region_strength", "1", NULL}}
    REGION_KNOB(plains), REGION_KNOB(ridges), REGION_KNOB(broken), REGION_KNOB(basins),
#undef REGION_KNOB
    /* Fine relief (fine_relief.c) starts at ground_from_lod: the base world's
     * surface_lod 6 carries none (ground_from_lod itself, moved below 7,
     * does change it). Dunes need dry land. */
#define GROUND_KNOB(k) {#k, "surface_lod < ground_from_lod (fine relief octaves start past LOD 6)", \
                        {"surface_lod", "10", NULL}}
    GROUND_KNOB(ground_amplitude_m), GROUND_KNOB(ground_gain), GROUND_KNOB(ground_gully), GROUND_KNOB(ground_drain),
#undef GROUND_KNOB
    {"ground_dunes", "surface_lod < ground_from_lod, or no dry land",
     {"surface_lod", "10", "moisture_bias", "-0.5", NULL}},
    /* Streams (layers/streams.c) are off by default and start at stream_from_lod. */
    {"stream_depth_m", "surface_lod < stream_from_lod", {"surface_lod", "10", NULL}},
#define STREAM_KNOB(k) {#k, "stream_depth_m = 0 (streams off)", {"surface_lod", "10", "stream_depth_m", "16", NULL}}
    STREAM_KNOB(stream_wall), STREAM_KNOB(stream_floor_m), STREAM_KNOB(stream_level), STREAM_KNOB(stream_fine_level),
    STREAM_KNOB(stream_from_lod),
#undef STREAM_KNOB
};
#define N_NO_EFFECT (sizeof NO_EFFECT / sizeof NO_EFFECT[0])

typedef struct output {
    uint64_t heights, water, biomes, generation;
} output;

static double dirs[N_DIRS][3];

static void fibonacci_dirs(void)
{
    const double golden = 2.39996322972865332;   /* pi * (3 - sqrt 5) */
    int i;
    for (i = 0; i < N_DIRS; i++) {
        double y = 1.0 - (i + 0.5) * 2.0 / N_DIRS, r = sqrt(1.0 - y * y);
        dirs[i][0] = r * cos(golden * i);
        dirs[i][1] = y;
        dirs[i][2] = r * sin(golden * i);
    }
}

static uint64_t mix(uint64_t h, const void *p, size_t n) { return ct_fnv1a64(p, n, h); }

/* Builds cfg and hashes its outputs at the fixed directions: heights (in
 * metres and as the u16 codes chunks store, which also see height_quantum_m),
 * water (cover, body, level) and biomes. ct_world_sample equals the chunk
 * vertex at the same place (test_chunks), so this is what chunks hold too.
 * 0 on failure. */
static int run(const ct_config *cfg, output *out)
{
    char err[512];
    int i;
    ct_world *w = ct_world_build(cfg, NULL, NULL, err, sizeof err);
    if (!w) { fprintf(stderr, "build: %s\n", err); return 0; }
    out->heights = out->water = out->biomes = CT_FNV1A64_INIT;
    out->generation = ct_world_generation(w);
    for (i = 0; i < N_DIRS; i++) {
        ct_sample s;
        uint16_t code;
        int clipped = 0;
        ct_world_sample(w, dirs[i], &s, NULL, 0);
        code = ct_height_encode(s.height_m, cfg->height_quantum_m, &clipped);
        out->heights = mix(out->heights, &s.height_m, sizeof s.height_m);
        out->heights = mix(out->heights, &code, sizeof code);
        out->water = mix(out->water, &s.has_water, sizeof s.has_water);
        out->water = mix(out->water, &s.water_body, sizeof s.water_body);
        if (s.has_water) out->water = mix(out->water, &s.water_m, sizeof s.water_m);
        out->biomes = mix(out->biomes, &s.biome, sizeof s.biome);
    }
    ct_world_free(w);
    return 1;
}

static int differs(const output *a, const output *b)
{
    return a->heights != b->heights || a->water != b->water || a->biomes != b->biomes;
}

static const no_effect *listed(const char *name)
{
    size_t k;
    for (k = 0; k < N_NO_EFFECT; k++)
        if (strcmp(NO_EFFECT[k].knob, name) == 0) return &NO_EFFECT[k];
    return NULL;
}

/* Candidate values for a knob, away from its current value v: a step up and
 * down, the midpoints to its limits, and the limits. Powers of two are kept
 * for macro_resolution (the validator would refuse anything else). */
static int candidates(const ct_knob_info *kn, double v, double *out)
{
    double c[6];
    int n = 0, i, j;
    if (strcmp(kn->name, "macro_resolution") == 0) {
        c[0] = v * 2.0; c[1] = v / 2.0;
        j = 2;
    } else {
        c[0] = kn->kind == CT_KNOB_UINT ? v + 1.0 : v != 0.0 ? v * 1.5 : 0.5 * (v + kn->max);
        c[1] = kn->kind == CT_KNOB_UINT ? v - 1.0 : v != 0.0 ? v * 0.5 : 0.5 * (v + kn->min);
        c[2] = 0.5 * (v + kn->max);
        c[3] = 0.5 * (v + kn->min);
        c[4] = kn->max;
        c[5] = kn->min;
        j = 6;
    }
    for (i = 0; i < j; i++) {
        double x = kn->kind == CT_KNOB_UINT ? floor(c[i] + 0.5) : c[i];
        if (x >= kn->min && x <= kn->max && x != v) out[n++] = x;
    }
    return n;
}

/* Sets knob to x in a copy of base; 0 when the config would be invalid. */
static int with_value(const ct_config *base, const ct_knob_info *kn, double x, ct_config *out)
{
    char val[64], err[256];
    *out = *base;
    snprintf(val, sizeof val, kn->kind == CT_KNOB_UINT ? "%.0f" : "%.17g", x);
    return ct_config_set(out, kn->name, val, err, sizeof err) == CT_OK &&
           ct_config_validate(out, err, sizeof err) == CT_OK;
}

/* 1 if some candidate value of kn changes the outputs of base; *tried counts
 * valid candidates, *gen_changed whether every one changed the generation ID. */
static int has_effect(const ct_config *base, const output *ref, const ct_knob_info *kn,
                      int *tried, int *gen_changed, char *which, size_t which_len)
{
    double cand[6];
    int n = candidates(kn, ct_config_get(base, kn), cand), i;
    *tried = 0;
    *gen_changed = 1;
    for (i = 0; i < n; i++) {
        ct_config cfg;
        output o;
        if (!with_value(base, kn, cand[i], &cfg) || !run(&cfg, &o)) continue;
        (*tried)++;
        if (o.generation == ref->generation) *gen_changed = 0;
        if (differs(&o, ref)) {
            snprintf(which, which_len, "%.6g:%s%s%s", cand[i], o.heights != ref->heights ? " heights" : "",
                     o.water != ref->water ? " water" : "", o.biomes != ref->biomes ? " biomes" : "");
            return 1;
        }
    }
    return 0;
}

int main(void)
{
    ct_config base;
    output ref;
    char err[256], which[128];
    size_t k;
    int effect_count = 0, listed_count = 0;
    fibonacci_dirs();
    ct_config_default(&base);
    CHECK(ct_config_set(&base, "macro_resolution", BASE_RES, err, sizeof err) == CT_OK, "%s", err);
    CHECK(run(&base, &ref), "the base world builds");
    for (k = 0; k < N_NO_EFFECT; k++)
        CHECK(ct_knob_find(NO_EFFECT[k].knob) != NULL, "NO_EFFECT lists '%s', which is not a knob", NO_EFFECT[k].knob);

    for (k = 0; k < ct_knob_count(); k++) {
        const ct_knob_info *kn = ct_knob_get(k);
        const no_effect *ne = listed(kn->name);
        int tried = 0, gen = 0, eff = has_effect(&base, &ref, kn, &tried, &gen, which, sizeof which);
        CHECK(tried > 0, "%s: no valid value to try", kn->name);
        if (!ne) {
            CHECK(eff, "%s changes no height, water or biome of the base world (tried %d values): make it "
                       "matter or list it in NO_EFFECT with its condition", kn->name, tried);
            if (eff) { effect_count++; printf("ok %s -> %s\n", kn->name, which); }
            continue;
        }
        listed_count++;
        CHECK(!eff, "%s is listed as without effect when %s, but it changed the base world (%s)",
              kn->name, ne->condition, which);
        if (!ne->lift[0]) {
            CHECK(gen, "%s: identity knob, yet the generation ID did not change", kn->name);
        } else {
            ct_config lifted = base;
            output lref;
            int i, lt = 0, lg = 0;
            for (i = 0; ne->lift[i]; i += 2)
                CHECK(ct_config_set(&lifted, ne->lift[i], ne->lift[i + 1], err, sizeof err) == CT_OK, "%s", err);
            CHECK(run(&lifted, &lref), "%s: lifted world builds", kn->name);
            CHECK(has_effect(&lifted, &lref, kn, &lt, &lg, which, sizeof which),
                  "%s has no effect even with %s=%s", kn->name, ne->lift[0], ne->lift[1]);
            printf("ok %s: none when %s; with %s=%s -> %s\n", kn->name, ne->condition, ne->lift[0], ne->lift[1], which);
        }
    }
    printf("knob_effect: %d knobs change the output, %d listed with their condition\n", effect_count, listed_count);
    return test_summary("knob_effect");
}
