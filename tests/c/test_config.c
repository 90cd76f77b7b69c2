/* test_config.c - knob table, presets, name=value parsing and every
 * rejection path of the config parser. */
#include "base/ct_base.h"
#include "test.h"

#include <string.h>

static void test_table(void)
{
    size_t i, n = ct_knob_count();
    ct_config c;
    CHECK(n >= 50, "knob count %d", (int)n);
    ct_config_default(&c);
    for (i = 0; i < n; i++) {
        const ct_knob_info *k = ct_knob_get(i);
        CHECK(k && k->name && k->doc && k->doc[0], "knob %d documented", (int)i);
        CHECK(k->min <= k->def && k->def <= k->max, "knob %s default inside its range", k->name);
        CHECK(ct_config_get(&c, k) == k->def, "default of %s", k->name);
        CHECK(ct_knob_find(k->name) == k, "find %s", k->name);
    }
    CHECK(ct_knob_get(n) == NULL && ct_knob_find("nope") == NULL, "past the end");
    CHECK(c.seed == 42 && c.macro_resolution == 64 && c.surface_lod == 6, "struct fields");
    CHECK(ct_config_validate(&c, NULL, 0) == CT_OK, "defaults validate");
    CHECK(strcmp(ct_result_name(CT_ERR_KNOB_RANGE), "CT_ERR_KNOB_RANGE") == 0, "code names");
    CHECK(strcmp(ct_result_name((ct_result)999), "?") == 0, "unknown code");
}

static void test_presets(void)
{
    size_t i;
    ct_config a, b;
    char err[256];
    CHECK(ct_preset_count() == 8, "eight presets");
    for (i = 0; i < ct_preset_count(); i++) {
        CHECK(ct_config_preset(&a, ct_preset_name(i), err, sizeof err) == CT_OK, "preset %s", ct_preset_name(i));
        CHECK(ct_config_validate(&a, err, sizeof err) == CT_OK, "preset %s validates: %s", ct_preset_name(i), err);
    }
    ct_config_preset(&a, "walk", NULL, 0);
    CHECK(a.mode == CT_MODE_WALK && a.relief_amplitude_m == 0.0, "walk mode");
    ct_config_preset(&a, "noise", NULL, 0);
    CHECK(a.mode == CT_MODE_NOISE, "noise mode");
    ct_config_preset(&a, "regional", NULL, 0);
    CHECK(a.region_strength == 1.0 && a.macro_resolution == 128, "regional");
    /* A preset resets everything set before it. */
    ct_config_default(&b);
    ct_config_set(&a, "seed", "7", NULL, 0);
    ct_config_preset(&a, "balanced", NULL, 0);
    CHECK(memcmp(&a, &b, sizeof a) == 0, "balanced is the defaults and resets overrides");
    CHECK(ct_config_preset(&a, "lunar", err, sizeof err) == CT_ERR_PRESET, "unknown preset");
    CHECK(strstr(err, "lunar") != NULL, "message names it: %s", err);
    CHECK(ct_config_preset(NULL, "walk", err, sizeof err) == CT_ERR_NULL, "NULL cfg");
}

/* Each preset as the strcmp chain in config.c set it before the presets
 * became name=value text in one table, copied here unchanged: the table must
 * give the same config, knob by knob and bit for bit. */
static int old_preset(ct_config *c, const char *preset)
{
    ct_config_default(c);
    if (strcmp(preset, "balanced") == 0) {
        /* the defaults */
    } else if (strcmp(preset, "walk") == 0) {
        c->mode = CT_MODE_WALK;
        c->relief_amplitude_m = 0.0;
        c->detail_amplitude_m = 0.0;
        c->detail_height_gain = 0.0;
    } else if (strcmp(preset, "noise") == 0) {
        c->mode = CT_MODE_NOISE;
        c->relief_amplitude_m = 2600.0;
    } else if (strcmp(preset, "archipelago") == 0) {
        c->land_bias = -0.13;
        c->continent_frequency = 3.2;
        c->coast_noise = 0.25;
        c->land_step_m = 220.0;
        c->land_jitter_m = 220.0;
        c->lake_max_vertices = 200;
    } else if (strcmp(preset, "alpine") == 0) {
        c->land_bias = -0.03;
        c->land_step_m = 520.0;
        c->land_jitter_m = 480.0;
        c->relief_amplitude_m = 2200.0;
        c->ridge_scale = 1.3;
        c->max_macro_slope = 0.0045;
        c->tree_line_m = 2600.0;
        c->snow_line_m = 3800.0;
        c->range_height_m = 7000.0;
        c->macro_ceiling_m = 5000.0;
        c->hill_height_m = 2000.0;
        c->erosion_iterations = 1;
        c->range_folds = 0.85;
    } else if (strcmp(preset, "dry") == 0) {
        c->land_bias = 0.0;
        c->moisture_bias = -0.45;
        c->lake_max_vertices = 150;
        c->land_step_m = 260.0;
    } else if (strcmp(preset, "regional") == 0) {
        c->region_strength = 1.0;
        c->coast_noise = 0.25;
        c->macro_resolution = 128;
        c->land_step_m = 175.0;
        c->land_jitter_m = 175.0;
        c->sea_step_m = -60.0;
        c->sea_jitter_m = 80.0;
    } else if (strcmp(preset, "reference") == 0) {
        return ct_config_reference_layers(c, NULL, 0) == CT_OK;
    } else {
        return 0;
    }
    return 1;
}

static void test_presets_as_before(void)
{
    static const char *const before[] = {"walk", "noise", "balanced", "archipelago", "alpine", "dry", "regional",
                                         "reference"};
    static const char unknown[] =
        "unknown preset 'lunar' (walk, noise, balanced, archipelago, alpine, dry, regional, reference)";
    size_t i, k;
    char err[256];
    ct_config c;
    for (i = 0; i < sizeof before / sizeof before[0]; i++) {
        const char *name = before[i];
        ct_config now, then;
        size_t differ = 0;
        CHECK(ct_preset_name(i) && strcmp(ct_preset_name(i), name) == 0, "preset %d is %s, as before", (int)i, name);
        CHECK(ct_preset_doc(i) && ct_preset_doc(i)[0], "preset %s documented", name);
        CHECK(ct_config_preset(&now, name, err, sizeof err) == CT_OK, "preset %s: %s", name, err);
        CHECK(old_preset(&then, name), "old values of %s", name);
        for (k = 0; k < ct_knob_count(); k++) {
            const ct_knob_info *knob = ct_knob_get(k);
            double a = ct_config_get(&now, knob), b = ct_config_get(&then, knob);
            if (memcmp(&a, &b, sizeof a) != 0) {
                differ++;
                CHECK(0, "preset %s knob %s: %.17g, before %.17g", name, knob->name, a, b);
            }
        }
        CHECK(differ == 0, "preset %s equals its old values in all %d knobs", name, (int)ct_knob_count());
    }
    CHECK(ct_preset_name(ct_preset_count()) == NULL && ct_preset_doc(ct_preset_count()) == NULL, "past the end");
    CHECK(ct_config_preset(&c, "lunar", err, sizeof err) == CT_ERR_PRESET, "unknown preset");
    CHECK(strcmp(err, unknown) == 0, "the message lists the table's names: %s", err);
}

static void test_set(void)
{
    ct_config c, before;
    char err[256];
    ct_config_default(&c);
    CHECK(ct_config_set(&c, "seed", "4294967295", err, sizeof err) == CT_OK, "max seed");
    CHECK(c.seed == 4294967295u, "seed value");
    CHECK(ct_config_set(&c, "walk_coherence", " 0.85 ", err, sizeof err) == CT_OK && c.walk_coherence == 0.85, "spaces");
    CHECK(ct_config_set(&c, "radius_m", "1e6", err, sizeof err) == CT_OK && c.radius_m == 1e6, "exponent");
    before = c;
    CHECK(ct_config_set(&c, "sead", "1", err, sizeof err) == CT_ERR_KNOB_UNKNOWN, "unknown knob");
    CHECK(strstr(err, "sead") != NULL, "names it: %s", err);
    CHECK(ct_config_set(&c, "seed", "abc", err, sizeof err) == CT_ERR_KNOB_VALUE, "not a number");
    CHECK(ct_config_set(&c, "seed", "12x", err, sizeof err) == CT_ERR_KNOB_VALUE, "trailing junk");
    CHECK(ct_config_set(&c, "seed", "", err, sizeof err) == CT_ERR_KNOB_VALUE, "empty");
    CHECK(ct_config_set(&c, "radius_m", "nan", err, sizeof err) == CT_ERR_KNOB_VALUE, "NaN");
    CHECK(strstr(err, "radius_m") != NULL, "NaN message names the knob: %s", err);
    CHECK(ct_config_set(&c, "radius_m", "inf", err, sizeof err) == CT_ERR_KNOB_VALUE, "Inf");
    CHECK(ct_config_set(&c, "walk_coherence", "1.5", err, sizeof err) == CT_ERR_KNOB_RANGE, "above max");
    CHECK(strstr(err, "walk_coherence") && strstr(err, "0..1"), "range in message: %s", err);
    CHECK(ct_config_set(&c, "surface_lod", "-1", err, sizeof err) == CT_ERR_KNOB_RANGE, "below min");
    CHECK(strstr(err, "0..16") != NULL, "integer range in message: %s", err);
    CHECK(ct_config_set(&c, "surface_lod", "2.5", err, sizeof err) == CT_ERR_KNOB_VALUE, "fractional int");
    CHECK(ct_config_set(&c, "seed", "4294967296", err, sizeof err) == CT_ERR_KNOB_RANGE, "seed overflow");
    CHECK(ct_config_set(NULL, "seed", "1", err, sizeof err) == CT_ERR_NULL, "NULL cfg");
    CHECK(ct_config_set(&c, "seed", NULL, err, sizeof err) == CT_ERR_NULL, "NULL value");
    CHECK(memcmp(&c, &before, sizeof c) == 0, "failed sets change nothing");
}

static void test_parse_and_format(void)
{
    ct_config c, d;
    char err[256], buf[8192];
    size_t need;
    ct_config_default(&c);
    CHECK(ct_config_parse(&c, "# a world\n\nseed = 9\nland_bias=0.25 # more land\r\n  mode=1\n", err, sizeof err) == CT_OK,
          "parse: %s", err);
    CHECK(c.seed == 9 && c.land_bias == 0.25 && c.mode == 1, "parsed values");
    d = c;
    CHECK(ct_config_parse(&c, "seed=1\nmode=7\n", err, sizeof err) == CT_ERR_KNOB_RANGE, "bad line");
    CHECK(strstr(err, "line 2") != NULL && strstr(err, "mode") != NULL, "line number: %s", err);
    CHECK(memcmp(&c, &d, sizeof c) == 0, "all or nothing");
    CHECK(ct_config_parse(&c, "seed 5\n", err, sizeof err) == CT_ERR_CONFIG, "missing =");
    CHECK(strstr(err, "line 1") != NULL, "line 1: %s", err);
    CHECK(ct_config_parse(&c, "nope=5\n", err, sizeof err) == CT_ERR_KNOB_UNKNOWN, "unknown in file");
    /* format -> parse reproduces every field exactly */
    ct_config_set(&c, "radius_m", "1234567.890123", NULL, 0);
    ct_config_set(&c, "walk_coherence", "0.1", NULL, 0);
    need = ct_config_format(&c, NULL, 0);
    CHECK(need > 0 && need < sizeof buf, "format size %d", (int)need);
    CHECK(ct_config_format(&c, buf, sizeof buf) == need && strlen(buf) == need, "format writes");
    ct_config_default(&d);
    CHECK(ct_config_parse(&d, buf, err, sizeof err) == CT_OK, "reparse: %s", err);
    CHECK(memcmp(&c, &d, sizeof c) == 0, "round trip is exact");
}

static void test_validate(void)
{
    ct_config c;
    char err[256];
    ct_config_default(&c);
    c.macro_resolution = 96;
    CHECK(ct_config_validate(&c, err, sizeof err) == CT_ERR_KNOB_RANGE, "not a power of two");
    CHECK(strstr(err, "macro_resolution") != NULL, "names knob: %s", err);
    ct_config_default(&c);
    c.land_bias = 0.0 / 0.0;
    CHECK(ct_config_validate(&c, err, sizeof err) == CT_ERR_KNOB_VALUE, "NaN in struct");
    ct_config_default(&c);
    c.surface_lod = 40;
    CHECK(ct_config_validate(&c, err, sizeof err) == CT_ERR_KNOB_RANGE, "lod in struct");
    CHECK(strstr(err, "surface_lod") != NULL, "names knob: %s", err);
    CHECK(ct_config_validate(NULL, err, sizeof err) == CT_ERR_NULL, "NULL");
}

int main(void)
{
    test_table();
    test_presets();
    test_presets_as_before();
    test_set();
    test_parse_and_format();
    test_validate();
    return test_summary("test_config");
}
