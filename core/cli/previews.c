/* previews.c - the preview program behind `make previews`: four PNGs in the
 * output folder, all drawn from this generator (no Python, no image library):
 *   correspondence.png  the sample chunks read from samples/ (previews_corr.c)
 *   presets.png         every preset side by side, same seed
 *   regions.png         region labels, elevation and surface colours (regional)
 *   walk_coherence.png  IID against coherent walk increments, same mask and seed
 * usage: previews SAMPLES_DIR OUT_DIR [PALETTE_FILE] */
#include "previews.h"
#include "image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED "42"
#define BG 0x15171cu
#define INK 0xe6e6e6u

int pv_correspondence(const char *samples_dir, const char *out_path, const ct_palette *pal);

/* A world from a preset plus NAME=VALUE overrides (NULL-terminated). */
static ct_world *pv_build(const char *preset, const char *const *sets)
{
    ct_config cfg;
    ct_world *w;
    char err[512];
    ct_config_default(&cfg);
    if (ct_config_preset(&cfg, preset, err, sizeof err) || ct_config_set(&cfg, "seed", SEED, err, sizeof err)) {
        fprintf(stderr, "previews: %s\n", err);
        return NULL;
    }
    for (; sets && *sets; sets += 2) {
        if (ct_config_set(&cfg, sets[0], sets[1], err, sizeof err)) {
            fprintf(stderr, "previews: %s=%s: %s\n", sets[0], sets[1], err);
            return NULL;
        }
    }
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    if (!w) fprintf(stderr, "previews: build %s: %s\n", preset, err);
    return w;
}

/* Horizontal elevation ramp with metre labels at both ends and sea level. */
static void pv_ramp_legend(pv_canvas *c, int x, int y, int w, double top_m)
{
    char label[64];
    int i, sea = w / 3;
    for (i = 0; i < w; i++) {
        double hm = i < sea ? -6000.0 + 6000.0 * i / sea : top_m * (i - sea) / (w - sea - 1);
        pv_fill(c, x + i, y, 1, 14, pv_elevation_rgb(hm, top_m, 1.0));
    }
    pv_text(c, x, y + 18, 1, INK, "-6000 M");
    pv_text(c, x + sea - 3, y + 18, 1, INK, "0");
    snprintf(label, sizeof label, "%.0f M", top_m);
    pv_text(c, x + w - pv_text_width(1, label), y + 18, 1, INK, label);
    pv_text(c, x + w + 12, y + 3, 1, INK, "LAKES: FLAT BLUE");
}

static int pv_presets(const char *out, const ct_palette *pal)
{
    const int m = 16, cw = 400, ch = 200, cols = 4, n = (int)ct_preset_count();
    const int rows = (n + 1 + cols - 1) / cols, W = m + cols * (cw + m), H = 44 + rows * (ch + 26 + m);
    pv_canvas c;
    int k, b, s, rc;
    if (pv_canvas_init(&c, W, H, BG)) return -1;
    pv_text(&c, m, 12, 2, INK, "EVERY PRESET, SEED " SEED ": SURFACE COLOURS, EQUIRECTANGULAR");
    for (k = 0; k < n; k++) {
        int x = m + (k % cols) * (cw + m), y = 44 + (k / cols) * (ch + 26 + m);
        ct_world *w = pv_build(ct_preset_name((size_t)k), NULL);
        if (!w) { pv_canvas_free(&c); return -1; }
        pv_text(&c, x, y, 2, INK, ct_preset_name((size_t)k));
        pv_map_equirect(&c, x, y + 22, cw, ch, w, pal, PV_SURFACE, 0.0, PV_GAIN_MAP);
        ct_world_free(w);
    }
    /* Last cell: the palette, one row per biome, five shades each. */
    {
        int x = m + (n % cols) * (cw + m), y = 44 + (n / cols) * (ch + 26 + m);
        pv_text(&c, x, y, 2, INK, "PALETTE");
        for (b = 0; b < 8; b++) {
            for (s = 0; s < 5; s++) pv_fill(&c, x + s * 24, y + 24 + b * 22, 22, 20, pv_palette_rgb(pal, b * 5 + s));
            pv_text(&c, x + 130, y + 28 + b * 22, 2, INK, ct_biome_name(b));
        }
    }
    rc = pv_save(&c, out);
    pv_canvas_free(&c);
    return rc;
}

static int pv_regions(const char *out, const ct_palette *pal)
{
    const int m = 16, pw = 512, ph = 256, W = m + 3 * (pw + m), H = 44 + 26 + ph + 70;
    static const char *const titles[3] = {"REGION LABELS (DOMINANT)", "ELEVATION", "SURFACE COLOURS"};
    static const pv_mode modes[3] = {PV_REGIONS, PV_ELEVATION, PV_SURFACE};
    ct_world *w = pv_build("regional", NULL);
    pv_canvas c;
    double top;
    int k, rc;
    if (!w) return -1;
    if (pv_canvas_init(&c, W, H, BG)) { ct_world_free(w); return -1; }
    top = pv_world_top_m(w);
    pv_text(&c, m, 12, 2, INK, "REGIONAL PRESET, SEED " SEED);
    for (k = 0; k < 3; k++) {
        int x = m + k * (pw + m);
        pv_text(&c, x, 44, 2, INK, titles[k]);
        pv_map_equirect(&c, x, 70, pw, ph, w, pal, modes[k], top, PV_GAIN_MAP);
    }
    for (k = 0; k < CT_REGION_COUNT; k++) {
        pv_fill(&c, m + k * 128, 70 + ph + 16, 18, 18, pv_region_rgb(k));
        pv_text(&c, m + k * 128 + 24, 70 + ph + 18, 2, INK, ct_region_name(k));
    }
    pv_text(&c, m, 70 + ph + 44, 1, INK, "WATER IS DARKENED IN THE LABEL MAP");
    pv_ramp_legend(&c, m + pw + m, 70 + ph + 16, 360, top);
    rc = pv_save(&c, out);
    pv_canvas_free(&c);
    ct_world_free(w);
    return rc;
}

static int pv_walk_coherence(const char *out, const ct_palette *pal)
{
    static const char *const iid[] = {"walk_coherence", "0", NULL};
    static const char *const coherent[] = {"walk_coherence", "0.85", NULL};
    const int m = 16, pw = 640, ph = 320, fw = 320, W = m + pw + m + fw + m, H = 44 + 2 * (26 + ph + m) + 40;
    ct_world *w[2];
    pv_canvas c;
    double top;
    int k, rc;
    w[0] = pv_build("walk", iid);
    w[1] = pv_build("walk", coherent);
    if (!w[0] || !w[1] || pv_canvas_init(&c, W, H, BG)) {
        if (w[0]) ct_world_free(w[0]);
        if (w[1]) ct_world_free(w[1]);
        return -1;
    }
    /* One ramp for both, so equal colours mean equal heights. */
    top = pv_world_top_m(w[0]) > pv_world_top_m(w[1]) ? pv_world_top_m(w[0]) : pv_world_top_m(w[1]);
    pv_text(&c, m, 12, 2, INK, "WALK PRESET, SEED " SEED ": SAME MASK, IID VS COHERENT INCREMENTS");
    for (k = 0; k < 2; k++) {
        int y = 44 + k * (26 + ph + m);
        ct_world_stats st;
        char label[160];
        ct_world_stats_get(w[k], &st);
        snprintf(label, sizeof label, "%s: %lu COLLISIONS, %.0f TO %.0f M", k ? "COHERENCE 0.85" : "COHERENCE 0 (IID)",
                 (unsigned long)st.collisions, st.min_height_m, st.max_height_m);
        pv_text(&c, m, y, 2, INK, label);
        pv_map_equirect(&c, m, y + 26, pw, ph, w[k], pal, PV_ELEVATION, top, PV_GAIN_WALK);
        pv_text(&c, m + pw + m, y, 2, INK, "FACE +Z, CENTRE HALF");
        pv_map_face(&c, m + pw + m, y + 26, fw, ph, w[k], pal, PV_ELEVATION, top, PV_GAIN_WALK, CT_FACE_PZ, 0.25, 0.25, 0.75, 0.75);
    }
    pv_ramp_legend(&c, m, H - 34, 360, top);
    rc = pv_save(&c, out);
    pv_canvas_free(&c);
    ct_world_free(w[0]);
    ct_world_free(w[1]);
    return rc;
}

int main(int argc, char **argv)
{
    char path[4096], err[256];
    ct_palette pal;
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: previews SAMPLES_DIR OUT_DIR [PALETTE_FILE]\n");
        return 2;
    }
    ct_palette_default(&pal);
    if (argc == 4) {
        FILE *f = fopen(argv[3], "rb");
        char text[8192];
        size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
        if (f) fclose(f);
        text[n] = '\0';
        if (!f || ct_palette_parse(text, &pal, err, sizeof err)) {
            fprintf(stderr, "previews: palette %s: %s\n", argv[3], f ? err : "cannot open");
            return 2;
        }
    }
    if (!cli_image_png_compressed())
        fprintf(stderr, "previews: note: built without zlib, PNGs are stored uncompressed\n");
    snprintf(path, sizeof path, "%s/correspondence.png", argv[2]);
    if (pv_correspondence(argv[1], path, &pal)) return 1;
    snprintf(path, sizeof path, "%s/presets.png", argv[2]);
    if (pv_presets(path, &pal)) return 1;
    snprintf(path, sizeof path, "%s/regions.png", argv[2]);
    if (pv_regions(path, &pal)) return 1;
    snprintf(path, sizeof path, "%s/walk_coherence.png", argv[2]);
    if (pv_walk_coherence(path, &pal)) return 1;
    return 0;
}
