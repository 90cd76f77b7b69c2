/* config.c - the knob table (generated from ct_knobs.def), defaults, presets,
 * name=value parsing, validation and formatting of ct_config. */
#include "base/ct_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

static const ct_knob_info ct__knobs[] = {
#define CT_KNOB_U(name, def, lo, hi, doc) \
    {#name, CT_KNOB_UINT, (double)(def), (double)(lo), (double)(hi), doc, offsetof(ct_config, name)},
#define CT_KNOB_F(name, def, lo, hi, doc) \
    {#name, CT_KNOB_REAL, (double)(def), (double)(lo), (double)(hi), doc, offsetof(ct_config, name)},
#include "ct_knobs.def"
#undef CT_KNOB_U
#undef CT_KNOB_F
};

#define CT__KNOB_COUNT (sizeof ct__knobs / sizeof ct__knobs[0])

size_t ct_knob_count(void) { return CT__KNOB_COUNT; }

const ct_knob_info *ct_knob_get(size_t index)
{
    return index < CT__KNOB_COUNT ? &ct__knobs[index] : NULL;
}

const ct_knob_info *ct_knob_find(const char *name)
{
    size_t i;
    if (!name) return NULL;
    for (i = 0; i < CT__KNOB_COUNT; i++)
        if (strcmp(ct__knobs[i].name, name) == 0) return &ct__knobs[i];
    return NULL;
}

double ct_config_get(const ct_config *cfg, const ct_knob_info *knob)
{
    const char *base = (const char *)cfg;
    if (knob->kind == CT_KNOB_UINT) {
        uint32_t u;
        memcpy(&u, base + knob->offset, sizeof u);
        return (double)u;
    } else {
        double d;
        memcpy(&d, base + knob->offset, sizeof d);
        return d;
    }
}

static void ct__config_put(ct_config *cfg, const ct_knob_info *knob, double value)
{
    char *base = (char *)cfg;
    if (knob->kind == CT_KNOB_UINT) {
        uint32_t u = (uint32_t)value;
        memcpy(base + knob->offset, &u, sizeof u);
    } else {
        memcpy(base + knob->offset, &value, sizeof value);
    }
}

void ct_config_default(ct_config *cfg)
{
    size_t i;
    if (!cfg) return;
    memset(cfg, 0, sizeof *cfg);
    for (i = 0; i < CT__KNOB_COUNT; i++) ct__config_put(cfg, &ct__knobs[i], ct__knobs[i].def);
}

/* ----------------------------------------------------------------- presets */
/* The off values of every generation layer added after the reference model,
 * in one place. Applied on top of any preset they give back the reference
 * behaviour: chunk payloads (heights, water, biomes, palette) equal
 * the ones frozen in tests/golden/reference_payloads.txt. Each new layer knob
 * appends its "name=off" line here. */
static const char ct__reference_layers_text[] =
    "lake_own_levels=0\n"
    "coast_fractal=0\n"
    "shore_ramp_m=0\n"
    /* ranges.c: mountain belts, ridges and valleys, slope-aware rock */
    "range_height_m=0\n"
    "range_folds=0\n"
    "hill_height_m=0\n"
    "macro_ceiling_m=0\n"
    "rock_slope=0\n"
    /* the ranges layer took over the detail noise's three finest octaves */
    "detail_octaves=6\n"
    /* layers/fine_relief.c: fine relief */
    "ground_amplitude_m=0\n"
    /* layers/fine_relief.c: valleys shaped by drainage */
    "ground_drain=0\n"
    /* layers/streams.c: streams */
    "stream_depth_m=0\n"
    /* drainage.c, rivers.c: no drainage solve, no rivers */
    "river_min_area_km2=0\n"
    "erosion_iterations=0\n"
    /* surface/biome_edges.c: biome edges by height and hops alone */
    "biome_edges=0\n";

const char *ct_reference_layers(void) { return ct__reference_layers_text; }

ct_result ct_config_reference_layers(ct_config *cfg, char *err, size_t errlen)
{
    if (!cfg) return ct__fail(err, errlen, CT_ERR_NULL, "config is NULL");
    return ct_config_parse(cfg, ct__reference_layers_text, err, errlen);
}

/* Every preset, once: name, one line for --help, and the name=value text
 * that ct_config_preset parses over the defaults. Presets reset every knob,
 * so this text is the only place a preset's values live. The CLIs' usage,
 * the unknown-preset message and wasm/ct_constants.mjs (PRESET_NAMES,
 * PRESET_DOCS) all list the presets from here, in this order. */
typedef struct ct__preset {
    const char *name, *doc, *text;
} ct__preset;

static const ct__preset ct__presets[] = {
    {"walk", "the contour process alone: walk mode, no relief, no fine detail",
     "mode=1\n" /* CT_MODE_WALK */
     "relief_amplitude_m=0\n"
     "detail_amplitude_m=0\n"
     "detail_height_gain=0\n"},
    {"noise", "noise mode: no walks and no elevated lakes, with taller relief",
     "mode=2\n" /* CT_MODE_NOISE */
     "relief_amplitude_m=2600\n"},
    {"balanced", "every knob at its default", ""},
    {"archipelago", "more sea in smaller pieces: islands, rougher coasts, lower land, fewer lakes",
     "land_bias=-0.13\n"
     "continent_frequency=3.2\n"
     "coast_noise=0.25\n"
     "land_step_m=220\n"
     "land_jitter_m=220\n"
     "lake_max_vertices=200\n"},
    {"alpine", "tall folded mountain ranges, high tree and snow lines",
     /* Tall but still inside the +-32 km of the default 1 m quantum. */
     "land_bias=-0.03\n"
     "land_step_m=520\n"
     "land_jitter_m=480\n"
     "relief_amplitude_m=2200\n"
     "ridge_scale=1.3\n"
     "max_macro_slope=0.0045\n"
     "tree_line_m=2600\n"
     "snow_line_m=3800\n"
     /* Higher highlands than the default under its ranges, with lower
      * hills and one erosion step instead of two: the median land stays
      * near 1 km and peaks at about 9 km (docs/generation.md). */
     "range_height_m=7000\n"
     "macro_ceiling_m=5000\n"
     "hill_height_m=2000\n"
     "erosion_iterations=1\n"
     /* Folded chains: the mountain preset pays for them (three more
      * noises per belt sample); the default world keeps its shore
      * chunks cheaper without them. */
     "range_folds=0.85\n"},
    {"dry", "a drier climate over more land: deserts, fewer lakes",
     "land_bias=0\n"
     "moisture_bias=-0.45\n"
     "lake_max_vertices=150\n"
     "land_step_m=260\n"},
    {"regional", "the four terrain profiles at full strength on a finer macro graph",
     "region_strength=1\n"
     "coast_noise=0.25\n"
     "macro_resolution=128\n"
     /* Twice the hops per distance: halve the per-hop steps to keep relief. */
     "land_step_m=175\n"
     "land_jitter_m=175\n"
     "sea_step_m=-60\n"
     "sea_jitter_m=80\n"},
    {"reference", "balanced with every layer added after the reference model off", ct__reference_layers_text},
};
#define CT__PRESET_COUNT (sizeof ct__presets / sizeof ct__presets[0])

size_t ct_preset_count(void) { return CT__PRESET_COUNT; }

const char *ct_preset_name(size_t index)
{
    return index < CT__PRESET_COUNT ? ct__presets[index].name : NULL;
}

const char *ct_preset_doc(size_t index)
{
    return index < CT__PRESET_COUNT ? ct__presets[index].doc : NULL;
}

/* "unknown preset 'x' (walk, noise, ...)": the names from the table. */
static ct_result ct__unknown_preset(const char *preset, char *err, size_t errlen)
{
    char names[256];
    size_t i, used = 0;
    names[0] = '\0';
    for (i = 0; i < CT__PRESET_COUNT; i++) {
        int n = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", ct__presets[i].name);
        if (n < 0 || (size_t)n >= sizeof names - used) break;
        used += (size_t)n;
    }
    return ct__fail(err, errlen, CT_ERR_PRESET, "unknown preset '%s' (%s)", preset, names);
}

ct_result ct_config_preset(ct_config *cfg, const char *preset, char *err, size_t errlen)
{
    ct_config c;
    ct_result r;
    size_t i;
    if (!cfg || !preset) return ct__fail(err, errlen, CT_ERR_NULL, "config or preset name is NULL");
    for (i = 0; i < CT__PRESET_COUNT; i++)
        if (strcmp(ct__presets[i].name, preset) == 0) break;
    if (i == CT__PRESET_COUNT) return ct__unknown_preset(preset, err, errlen);
    ct_config_default(&c);
    r = ct_config_parse(&c, ct__presets[i].text, err, errlen);
    if (r) return r;
    *cfg = c;
    return CT_OK;
}

/* ----------------------------------------------------------------- parsing */
static int ct__is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static ct_result ct__range_error(const ct_knob_info *k, const char *value, char *err, size_t errlen)
{
    if (k->kind == CT_KNOB_UINT)
        return ct__fail(err, errlen, CT_ERR_KNOB_RANGE,
                        "knob %s: value '%s' out of range: integer %.0f..%.0f", k->name, value,
                        k->min, k->max);
    return ct__fail(err, errlen, CT_ERR_KNOB_RANGE, "knob %s: value '%s' out of range %.17g..%.17g",
                    k->name, value, k->min, k->max);
}

ct_result ct_config_set(ct_config *cfg, const char *name, const char *value,
                        char *err, size_t errlen)
{
    const ct_knob_info *k;
    char *end;
    double d;
    if (!cfg || !name || !value) return ct__fail(err, errlen, CT_ERR_NULL, "config, name or value is NULL");
    k = ct_knob_find(name);
    if (!k) return ct__fail(err, errlen, CT_ERR_KNOB_UNKNOWN, "unknown knob '%s' (see --knobs)", name);
    while (ct__is_space(*value)) value++;
    d = strtod(value, &end);
    while (ct__is_space(*end)) end++;
    if (end == value || *end != '\0')
        return ct__fail(err, errlen, CT_ERR_KNOB_VALUE, "knob %s: '%s' is not a number", name, value);
    if (!ct__is_finite(d))
        return ct__fail(err, errlen, CT_ERR_KNOB_VALUE, "knob %s: '%s' is not a finite number", name, value);
    if (d < k->min || d > k->max) return ct__range_error(k, value, err, errlen);
    if (k->kind == CT_KNOB_UINT && d != (double)(uint32_t)d)
        return ct__fail(err, errlen, CT_ERR_KNOB_VALUE, "knob %s: '%s' must be a whole number in %.0f..%.0f",
                        name, value, k->min, k->max);
    ct__config_put(cfg, k, d);
    return CT_OK;
}

ct_result ct_config_parse_n(ct_config *cfg, const char *text, size_t text_len, char *err, size_t errlen)
{
    ct_config work;
    const char *line = text, *end = text + text_len, *nul;
    int lineno = 0;
    if (!cfg || !text) return ct__fail(err, errlen, CT_ERR_NULL, "config or text is NULL");
    /* A NUL would end the text early for any C reader: refuse it rather
     * than silently ignore what follows (seed=5<NUL>junk is not seed 5). */
    nul = (const char *)memchr(text, '\0', text_len);
    if (nul) {
        const char *p;
        for (p = text, lineno = 1; p < nul; p++) lineno += *p == '\n';
        return ct__fail(err, errlen, CT_ERR_CONFIG, "line %d: config text holds a NUL byte (offset %lu)", lineno,
                        (unsigned long)(nul - text));
    }
    work = *cfg;
    while (line < end) {
        const char *eol = (const char *)memchr(line, '\n', (size_t)(end - line));
        size_t len = eol ? (size_t)(eol - line) : (size_t)(end - line);
        char buf[512], *eq, *name, *value, *p;
        char inner[256];
        ct_result r;
        lineno++;
        if (len >= sizeof buf)
            return ct__fail(err, errlen, CT_ERR_CONFIG, "line %d: longer than %d characters", lineno,
                            (int)sizeof buf - 1);
        memcpy(buf, line, len);
        buf[len] = '\0';
        line = eol ? eol + 1 : end;
        if ((p = strchr(buf, '#')) != NULL) *p = '\0';
        name = buf;
        while (ct__is_space(*name)) name++;
        if (*name == '\0') continue;
        eq = strchr(name, '=');
        if (!eq) return ct__fail(err, errlen, CT_ERR_CONFIG, "line %d: expected name=value, got '%s'", lineno, name);
        *eq = '\0';
        value = eq + 1;
        for (p = eq; p > name && ct__is_space(p[-1]); p--) p[-1] = '\0';
        r = ct_config_set(&work, name, value, inner, sizeof inner);
        if (r) return ct__fail(err, errlen, r, "line %d: %s", lineno, inner);
    }
    *cfg = work;
    return CT_OK;
}

ct_result ct_config_parse(ct_config *cfg, const char *text, char *err, size_t errlen)
{
    if (!cfg || !text) return ct__fail(err, errlen, CT_ERR_NULL, "config or text is NULL");
    return ct_config_parse_n(cfg, text, strlen(text), err, errlen);
}

ct_result ct_config_validate(const ct_config *cfg, char *err, size_t errlen)
{
    size_t i;
    if (!cfg) return ct__fail(err, errlen, CT_ERR_NULL, "config is NULL");
    for (i = 0; i < CT__KNOB_COUNT; i++) {
        const ct_knob_info *k = &ct__knobs[i];
        double d = ct_config_get(cfg, k);
        char text[64];
        if (!ct__is_finite(d))
            return ct__fail(err, errlen, CT_ERR_KNOB_VALUE, "knob %s: value is not a finite number", k->name);
        if (d < k->min || d > k->max) {
            snprintf(text, sizeof text, "%.17g", d);
            return ct__range_error(k, text, err, errlen);
        }
    }
    if (cfg->macro_resolution & (cfg->macro_resolution - 1u))
        return ct__fail(err, errlen, CT_ERR_KNOB_RANGE,
                        "knob macro_resolution: %lu is not a power of two in 8..512",
                        (unsigned long)cfg->macro_resolution);
    return CT_OK;
}

size_t ct_config_format(const ct_config *cfg, char *buf, size_t buflen)
{
    size_t i, used = 0;
    if (!cfg) return 0;
    if (buf && buflen) buf[0] = '\0';
    for (i = 0; i < CT__KNOB_COUNT; i++) {
        const ct_knob_info *k = &ct__knobs[i];
        char line[128];
        int n;
        if (k->kind == CT_KNOB_UINT)
            n = snprintf(line, sizeof line, "%s=%.0f\n", k->name, ct_config_get(cfg, k));
        else
            n = snprintf(line, sizeof line, "%s=%.17g\n", k->name, ct_config_get(cfg, k));
        if (n < 0) continue;
        if (buf && used + (size_t)n < buflen) memcpy(buf + used, line, (size_t)n + 1);
        used += (size_t)n;
    }
    return used;
}
