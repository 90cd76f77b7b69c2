/* previews_corr.c - previews/correspondence.png: where the sample chunks
 * are and what they hold. Top: the planet as a globe, the whole +Z face and a
 * closer window, each with the sixteen chunks outlined. Middle: the chunks
 * themselves, drawn from the .ctc files in samples/ (palette colour and a
 * hill shade from their own heights), not re-sampled from the world. Bottom:
 * a height transect along one row across all eight chunk columns, also read
 * from the files, with the water level where there is water. */
#include "previews.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CX0 22   /* the reference's sample chunks: +Z, LOD 6, x 22..29, y 52..53 */
#define CY0 52
#define NCX 8
#define NCY 2
#define CLOD 6
#define TRANSECT_CY 52    /* transect along local row 128 of the y = 52 chunks */
#define TRANSECT_ROW 128
#define BG 0x15171cu
#define INK 0xe6e6e6u
#define MARK 0xff3b30u

static uint8_t *pv__slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) { fclose(f); return NULL; }
    buf = (uint8_t *)malloc((size_t)n + 1u);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Reads and decodes the sixteen .ctc files; 0 or -1 with a message. */
static int pv__load_chunks(const char *dir, ct_chunk *chunks)
{
    char path[4096], err[256];
    int k;
    for (k = 0; k < NCX * NCY; k++) {
        size_t len = 0;
        uint8_t *buf;
        snprintf(path, sizeof path, "%s/chunk_pz_%d_%d_%d.ctc", dir, CLOD, CX0 + k % NCX, CY0 + k / NCX);
        buf = pv__slurp(path, &len);
        if (!buf) { fprintf(stderr, "previews: cannot read %s (run make samples)\n", path); return -1; }
        if (ct_chunk_decode_ctc(buf, len, &chunks[k], err, sizeof err) != CT_OK) {
            fprintf(stderr, "previews: %s: %s\n", path, err);
            free(buf);
            return -1;
        }
        free(buf);
    }
    return 0;
}

/* Outline of the chunk strip on a panel showing face coordinates s0..s1, t0..t1. */
static void pv__strip_frame(pv_canvas *c, int x, int y, int w, int h, double s0, double t0, double s1, double t1)
{
    double n = (double)(1 << CLOD);
    int ax = x + (int)floor((CX0 / n - s0) / (s1 - s0) * w), ay = y + (int)floor((CY0 / n - t0) / (t1 - t0) * h);
    int bx = x + (int)ceil(((CX0 + NCX) / n - s0) / (s1 - s0) * w);
    int by = y + (int)ceil(((CY0 + NCY) / n - t0) / (t1 - t0) * h);
    pv_frame(c, ax - 1, ay - 1, bx - ax + 2, by - ay + 2, MARK);
    pv_frame(c, ax - 2, ay - 2, bx - ax + 4, by - ay + 4, MARK);
}

/* The +Z face outline and the chunk strip on the globe: edge points projected. */
static void pv__globe_marks(pv_canvas *c, int x, int y, int d, const double eye[3])
{
    double n = (double)(1 << CLOD);
    int k, e, px, py;
    for (e = 0; e < 4; e++) {
        for (k = 0; k <= 400; k++) {
            double t = k / 400.0, s = e == 0 ? t : e == 1 ? 1.0 : e == 2 ? 1.0 - t : 0.0;
            double u = e == 0 ? 0.0 : e == 1 ? t : e == 2 ? 1.0 : 1.0 - t, dir[3];
            ct_face_to_direction(CT_FACE_PZ, 2.0 * s - 1.0, 2.0 * u - 1.0, dir, NULL, 0);
            if (pv_globe_project(x, y, d, eye, dir, &px, &py)) pv_fill(c, px, py, 2, 2, INK);
            s = (CX0 + (e == 0 ? t : e == 1 ? 1.0 : e == 2 ? 1.0 - t : 0.0) * NCX) / n;
            u = (CY0 + (e == 0 ? 0.0 : e == 1 ? t : e == 2 ? 1.0 : 1.0 - t) * NCY) / n;
            ct_face_to_direction(CT_FACE_PZ, 2.0 * s - 1.0, 2.0 * u - 1.0, dir, NULL, 0);
            if (pv_globe_project(x, y, d, eye, dir, &px, &py)) pv_fill(c, px - 1, py - 1, 3, 3, MARK);
        }
    }
}

/* The chunks at half resolution: palette colour, shaded by the height drop
 * to the sample down-right (same shade rule as the maps). */
static void pv__mosaic(pv_canvas *c, int x, int y, const ct_chunk *chunks, const ct_palette *pal,
                       double radius_m)
{
    int k, i, j;
    for (k = 0; k < NCX * NCY; k++) {
        const ct_chunk *ch = &chunks[k];
        double q = ch->height_quantum_m, spacing = 2.0 * radius_m / (256.0 * (1 << CLOD));
        for (j = 0; j < 128; j++) {
            for (i = 0; i < 128; i++) {
                int at = 2 * j * CT_CHUNK_EDGE + 2 * i, nx = at + CT_CHUNK_EDGE + 1;
                double h = ct_height_decode(ch->height[at], q), hn = ct_height_decode(ch->height[nx], q);
                double shade = ch->water[at] ? 1.0 : 1.0 + 6.0 * (h - hn) / (1.41 * spacing);
                if (shade < 0.55) shade = 0.55;
                if (shade > 1.35) shade = 1.35;
                pv_pixel(c, x + (k % NCX) * 128 + i, y + (k / NCX) * 128 + j,
                         pv_scale_rgb(pv_palette_rgb(pal, ch->palette[at]), shade));
            }
        }
    }
}

/* Height (and water level) along local row TRANSECT_ROW of the y = TRANSECT_CY
 * chunks: 8 x 256 samples, two per pixel, from the decoded files. */
static void pv__transect(pv_canvas *c, int x, int y, int w, int h, const ct_chunk *chunks)
{
    enum { N = NCX * 256 };
    static double bed[N], water[N];
    double lo = 1e300, hi = -1e300, q = chunks[0].height_quantum_m;
    char label[64];
    int k, px, prev_y = -1;
    for (k = 0; k < N; k++) {
        const ct_chunk *ch = &chunks[(TRANSECT_CY - CY0) * NCX + k / 256];
        int at = TRANSECT_ROW * CT_CHUNK_EDGE + k % 256;
        bed[k] = ct_height_decode(ch->height[at], q);
        water[k] = ch->water[at] ? ct_height_decode(ch->water[at], q) : -1e300;
        if (bed[k] < lo) lo = bed[k];
        if (bed[k] > hi) hi = bed[k];
        if (water[k] > hi) hi = water[k];
    }
    if (lo > 0.0) lo = 0.0;   /* keep sea level in view */
    hi += 0.08 * (hi - lo) + 1.0;
    lo -= 0.04 * (hi - lo);
    pv_fill(c, x, y, w, h, 0x0f1115u);
    for (px = 0; px < w && 2 * px < N; px++) {
        int k0 = 2 * px, ty = y + (int)((hi - bed[k0]) / (hi - lo) * (h - 1));
        double wl = water[k0] > water[k0 + 1] ? water[k0] : water[k0 + 1];
        pv_fill(c, x + px, ty, 1, y + h - ty, 0x6b5a44u);
        if (wl > -1e299) {
            int wy = y + (int)((hi - wl) / (hi - lo) * (h - 1));
            if (wy < ty) pv_fill(c, x + px, wy, 1, ty - wy, 0x2f6fb8u);
        }
        if (prev_y >= 0) pv_line(c, x + px - 1, prev_y, x + px, ty, 0xf0d8a8u);
        prev_y = ty;
    }
    /* Sea level, chunk boundaries (labelled with chunk x) and the range. */
    pv_fill(c, x, y + (int)((hi - 0.0) / (hi - lo) * (h - 1)), w, 1, 0x5a8fd0u);
    for (k = 0; k < NCX; k++) {
        int bx = x + k * 128;
        for (px = y; px < y + h; px += 4) pv_pixel(c, bx, px, 0x808080u);
        snprintf(label, sizeof label, "X %d", CX0 + k);
        pv_text(c, bx + 4, y + h - 18, 2, INK, label);
    }
    snprintf(label, sizeof label, "TOP %.0f M, BOTTOM %.0f M", hi, lo);
    pv_text(c, x + w - pv_text_width(2, label) - 4, y + 4, 2, INK, label);
}

int pv_correspondence(const char *samples_dir, const char *out_path, const ct_palette *pal)
{
    const int m = 16, panel = 320, W = 2 * m + NCX * 128, top = 40, row2 = top + 26 + panel + 40;
    const int row3 = row2 + NCY * 128 + 40, H = row3 + 220 + m;
    char path[4096], err[256], label[160];
    ct_chunk *chunks = (ct_chunk *)malloc(sizeof *chunks * NCX * NCY);
    ct_world *w;
    pv_canvas c;
    double eye[3], n = (double)(1 << CLOD), s0, t0, zs0, zt0;
    uint64_t g;
    int rc = -1;
    if (!chunks) { fprintf(stderr, "previews: out of memory\n"); return -1; }
    snprintf(path, sizeof path, "%s/world.ctw", samples_dir);
    w = ct_world_load(path, err, sizeof err);
    if (!w) { fprintf(stderr, "previews: %s: %s (run make samples)\n", path, err); free(chunks); return -1; }
    if (pv__load_chunks(samples_dir, chunks) || pv_canvas_init(&c, W, H, BG)) goto done;
    g = ct_world_generation(w);
    for (rc = 0; rc < NCX * NCY; rc++)
        if (chunks[rc].generation != g) {
            fprintf(stderr, "previews: samples/ chunk %d is from another generation (run make samples)\n", rc);
            rc = -1;
            pv_canvas_free(&c);
            goto done;
        }
    snprintf(label, sizeof label, "SAMPLES: WORLD %08lx%08lx, CHUNKS +Z LOD %d X %d-%d Y %d-%d",
             (unsigned long)(uint32_t)(g >> 32), (unsigned long)(uint32_t)g, CLOD, CX0, CX0 + NCX - 1, CY0, CY0 + NCY - 1);
    pv_text(&c, m, 12, 2, INK, label);
    /* Globe looking at the strip's centre. */
    s0 = (CX0 + NCX * 0.5) / n;
    t0 = (CY0 + NCY * 0.5) / n;
    ct_face_to_direction(CT_FACE_PZ, 2.0 * s0 - 1.0, 2.0 * t0 - 1.0, eye, NULL, 0);
    pv_text(&c, m, top, 2, INK, "PLANET");
    pv_map_globe(&c, m, top + 26, panel, w, pal, eye);
    pv__globe_marks(&c, m, top + 26, panel, eye);
    pv_text(&c, m + panel + 32, top, 2, INK, "FACE +Z");
    pv_map_face(&c, m + panel + 32, top + 26, panel, panel, w, pal, PV_SURFACE, 0.0, PV_GAIN_MAP, CT_FACE_PZ, 0.0, 0.0, 1.0, 1.0);
    pv__strip_frame(&c, m + panel + 32, top + 26, panel, panel, 0.0, 0.0, 1.0, 1.0);
    zs0 = s0 - 0.125;
    zt0 = t0 - 0.125;
    pv_text(&c, m + 2 * (panel + 32), top, 2, INK, "CLOSER: 1/4 FACE WIDTH");
    pv_map_face(&c, m + 2 * (panel + 32), top + 26, panel, panel, w, pal, PV_SURFACE, 0.0, PV_GAIN_MAP, CT_FACE_PZ,
                zs0, zt0, zs0 + 0.25, zt0 + 0.25);
    pv__strip_frame(&c, m + 2 * (panel + 32), top + 26, panel, panel, zs0, zt0, zs0 + 0.25, zt0 + 0.25);
    pv_text(&c, m, row2 - 26, 2, INK, "THE 16 CHUNK FILES (.CTC), X TO THE RIGHT, Y DOWN");
    pv__mosaic(&c, m, row2, chunks, pal, ct_world_config(w)->radius_m);
    pv_fill(&c, m, row2 + (TRANSECT_CY - CY0) * 128 + TRANSECT_ROW / 2, NCX * 128, 1, MARK);
    snprintf(label, sizeof label, "HEIGHT TRANSECT: ROW %d OF THE Y %d CHUNKS (RED LINE)", TRANSECT_ROW, TRANSECT_CY);
    pv_text(&c, m, row3 - 26, 2, INK, label);
    pv__transect(&c, m, row3, NCX * 128, 220, chunks);
    rc = pv_save(&c, out_path);
    pv_canvas_free(&c);
done:
    ct_world_free(w);
    free(chunks);
    return rc;
}
