/* terrain_stats.c - native half of the terrain measurement tool.
 *
 *   terrain_stats [--preset NAME] [--set name=value]... | --world FILE.ctw
 *                 [--width 8192] [--height 4096] [--lat-max 60] [--raster PATH]
 *                 [--land-chunks 64] [--max-chunks 400] [--no-raster] [--no-chunks]
 *
 * Builds (or loads) one world, runs the surveys of terrain_stats_raster.c
 * and terrain_stats_chunks.c and prints one JSON object on stdout. The coast
 * figures themselves are computed from the raster by tools/terrain_stats.mjs
 * (npm run terrain-stats), which runs this program and also holds Earth. */
#include "terrain_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ts_args {
    const char *preset, *world_path, *raster_path;
    ts_raster_opts raster;
    ts_chunk_opts chunks;
    int do_raster, do_chunks;
    /* --slope-lods: land slopes of the same config at each of these
     * surface_lods (a world per LOD), --slope-chunks land chunks each */
    int slope_lods[8], slope_lod_count, slope_chunks;
} ts_args;

static int ts_usage(const char *msg)
{
    fprintf(stderr, "terrain_stats: %s\n"
            "usage: terrain_stats [--preset NAME] [--set name=value]... | --world FILE.ctw\n"
            "       [--width W] [--height H] [--lat-max DEG] [--raster PATH]\n"
            "       [--land-chunks N] [--max-chunks N] [--no-raster] [--no-chunks]\n"
            "       [--slope-lods L,L,...] [--slope-chunks N]\n", msg);
    return 2;
}

static int ts_int_arg(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

/* Parses argv; --set values go straight into cfg after the preset. */
static int ts_parse(int argc, char **argv, ts_args *a, ct_config *cfg)
{
    int k, sets = 0;
    char err[256];
    memset(a, 0, sizeof *a);
    a->preset = "balanced";
    a->raster.width = 8192;
    a->raster.height = 4096;
    a->raster.lat_max_deg = 60.0;
    a->chunks.land_chunks = 64;
    a->chunks.max_chunks = 400;
    a->do_raster = a->do_chunks = 1;
    a->slope_chunks = 8;
    /* Presets reset every knob, so find the preset before any --set. */
    for (k = 1; k + 1 < argc; k++)
        if (strcmp(argv[k], "--preset") == 0) a->preset = argv[k + 1];
    if (ct_config_preset(cfg, a->preset, err, sizeof err) != CT_OK) return ts_usage(err);
    for (k = 1; k < argc; k++) {
        const char *o = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (strcmp(o, "--no-raster") == 0) { a->do_raster = 0; continue; }
        if (strcmp(o, "--no-chunks") == 0) { a->do_chunks = 0; continue; }
        if (!v) return ts_usage("missing value after an option");
        k++;
        if (strcmp(o, "--preset") == 0) continue;
        if (strcmp(o, "--world") == 0) a->world_path = v;
        else if (strcmp(o, "--raster") == 0) a->raster_path = v;
        else if (strcmp(o, "--set") == 0) {
            char name[64];
            const char *eq = strchr(v, '=');
            if (!eq || (size_t)(eq - v) >= sizeof name) return ts_usage("--set wants name=value");
            memcpy(name, v, (size_t)(eq - v));
            name[eq - v] = '\0';
            if (ct_config_set(cfg, name, eq + 1, err, sizeof err) != CT_OK) return ts_usage(err);
            sets++;
        } else if (strcmp(o, "--width") == 0) {
            if (!ts_int_arg(v, 16, 65536, &a->raster.width)) return ts_usage("bad --width");
        } else if (strcmp(o, "--height") == 0) {
            if (!ts_int_arg(v, 8, 32768, &a->raster.height)) return ts_usage("bad --height");
        } else if (strcmp(o, "--lat-max") == 0) {
            int d;
            if (!ts_int_arg(v, 1, 90, &d)) return ts_usage("bad --lat-max (whole degrees 1..90)");
            a->raster.lat_max_deg = d;
        } else if (strcmp(o, "--land-chunks") == 0) {
            if (!ts_int_arg(v, 0, 4096, &a->chunks.land_chunks)) return ts_usage("bad --land-chunks");
        } else if (strcmp(o, "--slope-lods") == 0) {
            const char *p = v;
            while (*p) {
                char *end;
                long lod = strtol(p, &end, 10);
                if (end == p || lod < 0 || lod > 16 || a->slope_lod_count >= 8) return ts_usage("bad --slope-lods");
                a->slope_lods[a->slope_lod_count++] = (int)lod;
                p = *end == ',' ? end + 1 : end;
                if (*end && *end != ',') return ts_usage("bad --slope-lods");
            }
        } else if (strcmp(o, "--slope-chunks") == 0) {
            if (!ts_int_arg(v, 1, 4096, &a->slope_chunks)) return ts_usage("bad --slope-chunks");
        } else if (strcmp(o, "--max-chunks") == 0) {
            if (!ts_int_arg(v, 0, 4096, &a->chunks.max_chunks)) return ts_usage("bad --max-chunks");
        } else {
            return ts_usage("unknown option");
        }
    }
    if (a->world_path && sets) return ts_usage("--set cannot change a saved world");
    if (a->world_path && a->slope_lod_count) return ts_usage("--slope-lods builds worlds: not with --world");
    a->raster.out_path = a->raster_path;
    return 0;
}

static void ts_print(const ts_args *a, const ct_world *w, double load_ms, const ts_raster_result *r,
                     const ts_lake_result *l, const ts_chunk_result *c, const ts_river_result *rv,
                     const ts_river_result *tree, const ts_mouth_result *mo)
{
    const ct_config *cfg = ct_world_config(w);
    ct_world_stats st;
    uint64_t gen = ct_world_generation(w);
    char share[32];
    ct_world_stats_get(w, &st);
    printf("{\"world\":{\"preset\":\"%s\",\"file\":%s%s%s,\"seed\":%lu,\"generation\":\"%08lx%08lx\","
           "\"surface_lod\":%lu,\"macro_resolution\":%lu,\"radius_m\":%.17g,\"load_ms\":%.1f},\n",
           a->world_path ? "" : a->preset, a->world_path ? "\"" : "", a->world_path ? a->world_path : "null",
           a->world_path ? "\"" : "", (unsigned long)cfg->seed, (unsigned long)(uint32_t)(gen >> 32),
           (unsigned long)(uint32_t)gen, (unsigned long)cfg->surface_lod,
           (unsigned long)cfg->macro_resolution, cfg->radius_m, load_ms);
    printf(" \"stats\":{\"water_bodies\":%lu,\"lakes\":%lu,\"land_fraction\":%.6f,\"max_height_m\":%.3f},\n",
           (unsigned long)st.water_bodies, (unsigned long)st.lakes, st.land_fraction, st.max_height_m);
    if (l->lakes) snprintf(share, sizeof share, "%.4f", (double)l->lakes_elevated / l->lakes);
    else snprintf(share, sizeof share, "null");
    printf(" \"lakes\":{\"bodies_seen\":%d,\"lakes\":%d,\"elevated\":%d,\"seas\":%d,\"elevated_share\":%s,"
           "\"level_min_m\":%.3f,\"level_max_m\":%.3f,\"elevated_min_m\":%.1f}",
           l->bodies_seen, l->lakes, l->lakes_elevated, l->seas, share, l->level_min_m, l->level_max_m,
           TS_ELEVATED_M);
    if (a->do_raster)
        printf(",\n \"raster\":{\"width\":%d,\"height\":%d,\"lat_max_deg\":%.17g,\"row0\":%d,\"row1\":%d,"
               "\"land_share\":%.6f,\"path\":\"%s\",\"ms\":%.1f}",
               a->raster.width, a->raster.height, a->raster.lat_max_deg, r->row0, r->row1,
               r->land_share, a->raster_path ? a->raster_path : "", r->ms);
    if (a->do_chunks)
        printf(",\n \"chunks\":{\"lod\":%d,\"generated\":%d,\"with_land\":%d,\"land_samples\":%.0f,"
               "\"slope_samples\":%.0f,\"spacing_m\":%.1f,\"slope_deg\":{\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f},"
               "\"height_m\":{\"p50\":%.1f,\"p90\":%.1f,\"p99\":%.1f,\"max\":%.1f},"
               "\"beach_share\":%.5f,\"zero_share\":%.5f,\"beach_max_m\":%.1f,\"ms\":%.1f}",
               c->lod, c->chunks_generated, c->chunks_with_land, c->land_samples, c->slope_samples,
               c->spacing_m, c->slope_deg[0], c->slope_deg[1], c->slope_deg[2], c->height_m[0],
               c->height_m[1], c->height_m[2], c->height_m[3], c->beach_share, c->zero_share,
               TS_BEACH_M, c->ms);
    printf(",\n \"rivers\":{\"nodes\":%lu,\"lakes_open\":%lu,\"lakes_closed\":%lu,\"lost_mouths\":%lu,"
           "\"hack\":%.4f,\"hack_nodes\":%lu,\"bifurcation\":%.4f,\"bifurcation_top\":%.4f,\"max_order\":%d,\"river_km\":%.0f,"
           "\"density_per_km\":%.6f,\"sinuosity\":%.4f,\"sea_share\":%.4f}",
           (unsigned long)rv->nodes, (unsigned long)rv->lakes_open, (unsigned long)rv->lakes_closed,
           (unsigned long)rv->lost_mouths, isnan(rv->hack) ? -1.0 : rv->hack, (unsigned long)rv->hack_nodes,
           isnan(rv->bifurcation) ? -1.0 : rv->bifurcation,
           isnan(rv->bifurcation_top) ? -1.0 : rv->bifurcation_top, rv->max_order, rv->river_km,
           isnan(rv->density_per_km) ? -1.0 : rv->density_per_km, isnan(rv->sinuosity) ? -1.0 : rv->sinuosity,
           isnan(rv->sea_share) ? -1.0 : rv->sea_share);
    if (mo->mouths)
        printf(",\n \"mouths\":{\"measured\":%lu,\"with_gap\":%lu,\"unreached\":%lu,\"gap_p50_km\":%.2f,"
               "\"gap_max_km\":%.2f,\"node_to_sea_p50_km\":%.1f}",
               (unsigned long)mo->mouths, (unsigned long)mo->with_gap, (unsigned long)mo->unreached, mo->gap_p50_km,
               mo->gap_max_km, mo->to_sea_p50_km);
    if (tree->nodes)
        printf(",\n \"river_tree\":{\"nodes\":%lu,\"hack\":%.4f,\"hack_nodes\":%lu,\"bifurcation\":%.4f,"
               "\"bifurcation_top\":%.4f,\"max_order\":%d}",
               (unsigned long)tree->nodes, isnan(tree->hack) ? -1.0 : tree->hack, (unsigned long)tree->hack_nodes,
               isnan(tree->bifurcation) ? -1.0 : tree->bifurcation,
               isnan(tree->bifurcation_top) ? -1.0 : tree->bifurcation_top, tree->max_order);
    printf("%s\n", a->slope_lod_count ? "," : "}");
}

/* The land slopes of the config at each --slope-lods surface_lod: a world
 * per LOD (fine relief has one octave per LOD past ground_from_lod, so a
 * world's finest LOD is where its finest relief shows), chunks at that LOD,
 * float heights. Closes the JSON object ts_print left open. */
static int ts_slopes_run(const ts_args *a, const ct_config *base)
{
    int k;
    char err[256];
    if (!a->slope_lod_count) return 1;
    printf(" \"slopes\":[");
    for (k = 0; k < a->slope_lod_count; k++) {
        ct_config cfg = *base;
        ts_chunk_opts o;
        ts_chunk_result c;
        ct_world *w;
        cfg.surface_lod = (uint32_t)a->slope_lods[k];
        w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
        if (!w) {
            fprintf(stderr, "terrain_stats: surface_lod %d: %s\n", a->slope_lods[k], err);
            return 0;
        }
        o.land_chunks = a->slope_chunks;
        o.max_chunks = 8 * a->slope_chunks;
        if (!ts_chunks_run(w, &o, &c)) {
            ct_world_free(w);
            return 0;
        }
        printf("%s{\"lod\":%d,\"with_land\":%d,\"slope_samples\":%.0f,\"spacing_m\":%.2f,"
               "\"slope_deg\":{\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f},\"ms\":%.1f}",
               k ? ",\n  " : "\n  ", c.lod, c.chunks_with_land, c.slope_samples, c.spacing_m, c.slope_deg[0],
               c.slope_deg[1], c.slope_deg[2], c.ms);
        ct_world_free(w);
    }
    printf("]}\n");
    return 1;
}

int main(int argc, char **argv)
{
    ts_args a;
    ct_config cfg;
    ct_world *w;
    ts_raster_result r;
    ts_lake_result l;
    ts_chunk_result c;
    ts_river_result rv, tree;
    ts_mouth_result mo;
    double t0;
    char err[256];
    int rc = ts_parse(argc, argv, &a, &cfg);
    if (rc) return rc;
    t0 = ts_now_ms();
    w = a.world_path ? ct_world_load(a.world_path, err, sizeof err)
                     : ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    if (!w) {
        fprintf(stderr, "terrain_stats: %s\n", err);
        return 1;
    }
    t0 = ts_now_ms() - t0;
    memset(&r, 0, sizeof r);
    memset(&c, 0, sizeof c);
    if (!ts_lakes_run(w, &l) || (a.do_raster && !ts_raster_run(w, &a.raster, &r)) ||
        (a.do_chunks && !ts_chunks_run(w, &a.chunks, &c)) || !ts_rivers_run(w, &rv) ||
        !ts_mouths_run(w, &mo)) {
        ct_world_free(w);
        return 1;
    }
    /* Hack's law and Horton's ratios describe the whole channel network, not
     * only the rivers drawn: measure them again on the full drainage tree
     * (every land vertex a node), from the same config. */
    memset(&tree, 0, sizeof tree);
    if (!a.world_path && cfg.river_min_area_km2 > 0.0) {
        ct_config full = cfg;
        ct_world *wt;
        full.river_min_area_km2 = 1.0;
        wt = ct_world_build(&full, NULL, NULL, err, sizeof err);
        if (!wt || !ts_rivers_run(wt, &tree)) memset(&tree, 0, sizeof tree);
        ct_world_free(wt);
    }
    ts_print(&a, w, t0, &r, &l, &c, &rv, &tree, &mo);
    ct_world_free(w);
    return ts_slopes_run(&a, &cfg) ? 0 : 1;
}
