/* landforms.c - native half of the landform measurement tool.
 *
 *   landforms [--preset NAME] [--set name=value]... [--lods 9,10] [--chunks 8]
 *             [--max-tries 4000] [--channel-km2 1] [--fit-min 4] [--fit-max 512]
 *             [--sim] [--no-world]
 *
 * Builds one world (the preset with surface_lod 12, the demo page's world,
 * then the --set knobs), measures whole land chunks at each LOD and prints
 * one JSON object on stdout. --sim adds the calibration landscape
 * (landforms_sim.c) measured the same way; --no-world measures only that.
 * tools/landforms.mjs (npm run landforms) runs this per seed and prints the
 * tables. Definitions: docs/generation.md, "Landforms". */
#include "landforms.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lf_args {
    const char *preset;
    int lods[8], lod_count, chunks, max_tries, sim, world;
    double channel_km2, fit_min, fit_max;
} lf_args;

static int lf_usage(const char *msg)
{
    fprintf(stderr, "landforms: %s\n"
            "usage: landforms [--preset NAME] [--set name=value]... [--lods 9,10] [--chunks N]\n"
            "       [--max-tries N] [--channel-km2 A] [--fit-min S] [--fit-max S] [--sim] [--no-world]\n", msg);
    return 2;
}

static int lf_number(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || !(v >= lo && v <= hi)) return 0;
    *out = v;
    return 1;
}

static int lf_parse(int argc, char **argv, lf_args *a, ct_config *cfg)
{
    int k;
    char err[256];
    double v;
    memset(a, 0, sizeof *a);
    a->preset = "balanced";
    a->lods[0] = 9;
    a->lods[1] = 10;
    a->lod_count = 2;
    a->chunks = 8;
    a->max_tries = 4000;
    a->world = 1;
    a->channel_km2 = 1.0;
    a->fit_min = 4.0;
    a->fit_max = 512.0;
    for (k = 1; k + 1 < argc; k++)
        if (strcmp(argv[k], "--preset") == 0) a->preset = argv[k + 1];
    if (ct_config_preset(cfg, a->preset, err, sizeof err) != CT_OK ||
        ct_config_set(cfg, "surface_lod", "12", err, sizeof err) != CT_OK)
        return lf_usage(err);
    for (k = 1; k < argc; k++) {
        const char *o = argv[k], *val = k + 1 < argc ? argv[k + 1] : NULL;
        if (strcmp(o, "--sim") == 0) { a->sim = 1; continue; }
        if (strcmp(o, "--no-world") == 0) { a->world = 0; continue; }
        if (!val) return lf_usage("missing value after an option");
        k++;
        if (strcmp(o, "--preset") == 0) continue;
        if (strcmp(o, "--set") == 0) {
            char name[64];
            const char *eq = strchr(val, '=');
            if (!eq || (size_t)(eq - val) >= sizeof name) return lf_usage("--set wants name=value");
            memcpy(name, val, (size_t)(eq - val));
            name[eq - val] = '\0';
            if (ct_config_set(cfg, name, eq + 1, err, sizeof err) != CT_OK) return lf_usage(err);
        } else if (strcmp(o, "--lods") == 0) {
            const char *p = val;
            a->lod_count = 0;
            while (*p) {
                char *end;
                long lod = strtol(p, &end, 10);
                if (end == p || lod < 1 || lod > 16 || a->lod_count >= 8 || (*end && *end != ','))
                    return lf_usage("bad --lods (LODs 1..16, comma separated)");
                a->lods[a->lod_count++] = (int)lod;
                p = *end == ',' ? end + 1 : end;
            }
        } else if (strcmp(o, "--chunks") == 0) {
            if (!lf_number(val, 1, 4096, &v) || v != floor(v)) return lf_usage("bad --chunks (1..4096)");
            a->chunks = (int)v;
        } else if (strcmp(o, "--max-tries") == 0) {
            if (!lf_number(val, 1, 1e6, &v) || v != floor(v)) return lf_usage("bad --max-tries (1..1000000)");
            a->max_tries = (int)v;
        } else if (strcmp(o, "--channel-km2") == 0) {
            if (!lf_number(val, 1e-6, 1e6, &a->channel_km2)) return lf_usage("bad --channel-km2");
        } else if (strcmp(o, "--fit-min") == 0) {
            if (!lf_number(val, 1, 1e9, &a->fit_min)) return lf_usage("bad --fit-min (sample areas >= 1)");
        } else if (strcmp(o, "--fit-max") == 0) {
            if (!lf_number(val, 1, 1e9, &a->fit_max)) return lf_usage("bad --fit-max (sample areas >= 1)");
        } else {
            return lf_usage("unknown option");
        }
    }
    if (a->fit_max < 4.0 * a->fit_min) return lf_usage("--fit-max must be at least 4 x --fit-min");
    for (k = 0; k < a->lod_count; k++)
        if ((uint32_t)a->lods[k] > cfg->surface_lod) return lf_usage("a --lods LOD is finer than surface_lod");
    return 0;
}

static void lf_print_num(const char *name, double v, const char *fmt)
{
    printf("\"%s\":", name);
    if (isnan(v)) printf("null");
    else printf(fmt, v);
}

/* The figures of a result, as JSON members (no braces). */
static void lf_print_figures(const lf_args *a, const lf_result *r)
{
    double km2 = r->area_m2 / 1e6;
    printf("\"samples\":%.0f,\"area_km2\":%.3f,", r->samples, km2);
    lf_print_num("pits_per_1000km2", km2 > 0 ? r->pits / km2 * 1000.0 : NAN, "%.2f");
    printf(",");
    lf_print_num("depressions_per_1000km2", km2 > 0 ? r->pits_any / km2 * 1000.0 : NAN, "%.2f");
    printf(",\"pits\":%.0f,\"max_depth_m\":%.3f,", r->pits, r->max_depth_m);
    lf_print_num("ponded_share", r->samples > 0 ? r->ponded / r->samples : NAN, "%.5f");
    printf(",");
    lf_print_num("beta", lf_beta(r, a->fit_min, a->fit_max), "%.4f");
    printf(",");
    lf_print_num("drainage_density_km_per_km2", km2 > 0 ? r->channel_m / 1000.0 / km2 : NAN, "%.4f");
}

static int lf_run_sim(const lf_args *a)
{
    lf_sim_opts so;
    lf_grid g;
    lf_result r;
    lf_opts mo;
    int steps;
    lf_sim_defaults(&so);
    steps = lf_sim_run(&so, &g);
    if (!steps) {
        lf_grid_free(&g);
        fprintf(stderr, "landforms: the calibration landscape did not reach steady state\n");
        return 0;
    }
    mo.channel_m2 = a->channel_km2 * 1e6;
    memset(&r, 0, sizeof r);
    if (!lf_measure(&g, &mo, &r)) {
        lf_grid_free(&g);
        return 0;
    }
    lf_grid_free(&g);
    printf(" \"sim\":{\"n\":%d,\"dx_m\":%g,\"uplift_m_per_yr\":%g,\"k_per_yr\":%g,\"m\":0.5,\"n_slope\":1,"
           "\"steps\":%d,", so.n, so.dx_m, so.uplift_m_per_yr, so.k_per_yr, steps);
    lf_print_figures(a, &r);
    printf("}");
    return 1;
}

static int lf_run_world(const lf_args *a, const ct_config *cfg)
{
    char err[256];
    ct_world *w = ct_world_build(cfg, NULL, NULL, err, sizeof err);
    lf_chunk_report *each = (lf_chunk_report *)malloc(sizeof *each * (size_t)a->chunks);
    uint64_t gen;
    int l, k;
    if (!w || !each) {
        fprintf(stderr, "landforms: %s\n", w ? "out of memory" : err);
        ct_world_free(w);
        free(each);
        return 0;
    }
    gen = ct_world_generation(w);
    printf(" \"world\":{\"preset\":\"%s\",\"seed\":%lu,\"surface_lod\":%lu,\"generation\":\"%08lx%08lx\"},\n"
           " \"lods\":[", a->preset, (unsigned long)cfg->seed, (unsigned long)cfg->surface_lod,
           (unsigned long)(uint32_t)(gen >> 32), (unsigned long)(uint32_t)gen);
    for (l = 0; l < a->lod_count; l++) {
        lf_chunk_opts co;
        lf_result acc;
        int count, tries;
        co.lod = a->lods[l];
        co.want = a->chunks;
        co.max_tries = a->max_tries;
        co.measure.channel_m2 = a->channel_km2 * 1e6;
        memset(&acc, 0, sizeof acc);
        if (!lf_chunks_run(w, &co, &acc, each, &count, &tries)) {
            ct_world_free(w);
            free(each);
            return 0;
        }
        printf("%s{\"lod\":%d,\"chunks\":%d,\"tries\":%d,", l ? ",\n  " : "\n  ", co.lod, count, tries);
        lf_print_figures(a, &acc);
        printf(",\"each\":[");
        for (k = 0; k < count; k++) {
            printf("%s{\"key\":\"%s/%d/%lu/%lu\",", k ? ",\n    " : "\n    ", ct_face_file_name(each[k].key.face),
                   each[k].key.lod, (unsigned long)each[k].key.x, (unsigned long)each[k].key.y);
            lf_print_figures(a, &each[k].r);
            printf("}");
        }
        printf("]}");
    }
    printf("]");
    ct_world_free(w);
    free(each);
    return 1;
}

int main(int argc, char **argv)
{
    lf_args a;
    ct_config cfg;
    int rc = lf_parse(argc, argv, &a, &cfg);
    if (rc) return rc;
    printf("{\"fit_sample_areas\":[%g,%g],\"channel_km2\":%g,\"pit_depth_m\":%g,\"ponded_m\":%g",
           a.fit_min, a.fit_max, a.channel_km2, LF_PIT_DEPTH_M, LF_PONDED_M);
    if (a.sim) {
        printf(",\n");
        if (!lf_run_sim(&a)) return 1;
    }
    if (a.world) {
        printf(",\n");
        if (!lf_run_world(&a, &cfg)) return 1;
    }
    printf("}\n");
    return 0;
}
