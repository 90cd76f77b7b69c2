/* test_chunks.c - chunks and point samples: shared borders between neighbours
 * on a face and across every cube edge and corner (compared after a .ctc
 * encode/decode), LOD subsets, ct_world_sample == chunk vertex, request-order
 * reproducibility, the height encoding, clipping, the shoreline guarantee of
 * the fine noise, biomes and the default palette file. */
#include "surface/ct_surface.h"
#include "world/ct_world.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static ct_world *build(const char *preset, const char *const *sets)
{
    ct_config cfg;
    char err[256];
    ct_world *w;
    ct_config_preset(&cfg, preset, err, sizeof err);
    for (; sets && *sets; sets += 2) {
        ct_result r = ct_config_set(&cfg, sets[0], sets[1], err, sizeof err);
        CHECK(r == CT_OK, "set %s=%s: %s", sets[0], sets[1], err);
    }
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    return w;
}

/* Generates a chunk and returns it after a .ctc encode/decode round trip,
 * so every comparison below reads what a file reader would read. */
static int chunk_via_file(const ct_world *w, ct_key key, ct_chunk *out, uint8_t *buf)
{
    static ct_chunk direct;
    char err[256];
    if (ct_chunk_generate(w, key, &direct, err, sizeof err) != CT_OK) {
        CHECK(0, "generate: %s", err);
        return 0;
    }
    CHECK(ct_chunk_encode_ctc(&direct, buf, CT_CTC_FILE_BYTES, err, sizeof err) == CT_OK, "%s", err);
    if (ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES, out, err, sizeof err) != CT_OK) {
        CHECK(0, "decode: %s", err);
        return 0;
    }
    CHECK(out->digest == direct.digest, "digest survives the file");
    CHECK(memcmp(out->height, direct.height, sizeof direct.height) == 0, "heights survive the file");
    return 1;
}

/* ------------------------------------------------------------ encoding */
static void test_encoding(void)
{
    static const double quanta[4] = {1.0, 0.25, 0.01, 3.7};
    int qi, clipped;
    long c;
    for (qi = 0; qi < 4; qi++) {
        double q = quanta[qi];
        int bad = 0;
        for (c = 0; c <= 65535; c++) {
            double h = ct_height_decode((uint16_t)c, q);
            uint16_t back = ct_height_encode(h, q, &clipped);
            if (back != (uint16_t)c || clipped) bad++;
        }
        CHECK(bad == 0, "quantum %g: %d codes do not round-trip", q, bad);
    }
    /* Round half up, independent of sign. */
    CHECK(ct_height_encode(0.5, 1.0, &clipped) == 32769 && !clipped, "0.5 rounds up");
    CHECK(ct_height_encode(-0.5, 1.0, &clipped) == 32768 && !clipped, "-0.5 rounds up to 0");
    CHECK(ct_height_encode(-1.5, 1.0, &clipped) == 32767, "-1.5 rounds up to -1");
    CHECK(ct_height_encode(0.49999, 1.0, NULL) == 32768, "below half rounds down");
    CHECK(ct_height_encode(0.0, 1.0, NULL) == CT_SEA_LEVEL_CODE, "sea level code");
    CHECK(ct_height_encode(32767.0, 1.0, &clipped) == 65535 && !clipped, "top code not clipped");
    CHECK(ct_height_encode(32767.5, 1.0, &clipped) == 65535 && clipped, "past the top clips");
    CHECK(ct_height_encode(-32768.0, 1.0, &clipped) == 0 && !clipped, "bottom code not clipped");
    CHECK(ct_height_encode(-32768.6, 1.0, &clipped) == 0 && clipped, "below the bottom clips");
    CHECK(ct_height_encode(1e300, 1.0, &clipped) == 65535 && clipped, "huge clips");
    CHECK(ct_height_encode(NAN, 1.0, &clipped) == CT_SEA_LEVEL_CODE && clipped,
          "NaN is clipped to sea level");
    CHECK(ct_height_decode(32768 + 100, 0.5) == 50.0, "decode");
}

/* ------------------------------------------------- borders on every edge */
typedef struct border_rec {
    double dir[3];
    int face;
    uint16_t height, water;
    uint8_t biome, palette;
} border_rec;

static int cmp_dir(const void *a, const void *b)
{
    return memcmp(((const border_rec *)a)->dir, ((const border_rec *)b)->dir, sizeof(double) * 3);
}

/* Every border sample of every chunk at `lod`, grouped by the exact bits of
 * its direction: each group must hold equal records, and the groups that span
 * several faces must be exactly the cube-edge points. */
static void test_borders(const ct_world *w, int lod)
{
    int side = 1 << lod, f, x, y, i, groups = 0, multi_face = 0, three_face = 0, mismatched = 0;
    int lonely = 0;
    size_t per = 4 * 256, cap = (size_t)6 * side * side * per, n = 0, a, b;
    border_rec *recs = (border_rec *)malloc(cap * sizeof *recs);
    ct_chunk *ch = (ct_chunk *)malloc(sizeof *ch);
    uint8_t *buf = (uint8_t *)malloc(CT_CTC_FILE_BYTES);
    if (!recs || !ch || !buf) { CHECK(0, "out of memory"); return; }
    for (f = 0; f < 6; f++) {
        for (y = 0; y < side; y++) {
            for (x = 0; x < side; x++) {
                ct_key key = ct_key_make(f, lod, (uint32_t)x, (uint32_t)y);
                if (!chunk_via_file(w, key, ch, buf)) goto done;
                for (i = 0; i < 4 * 256; i++) {
                    /* walk the ring: top row, right column, bottom row, left column */
                    int e = i / 256, t = i % 256, li, lj;
                    size_t at;
                    border_rec *r = &recs[n++];
                    if (e == 0) { li = t; lj = 0; }
                    else if (e == 1) { li = 256; lj = t; }
                    else if (e == 2) { li = 256 - t; lj = 256; }
                    else { li = 0; lj = 256 - t; }
                    at = (size_t)lj * 257 + (size_t)li;
                    CHECK(ct_key_direction(key, li, lj, r->dir, NULL, 0) == CT_OK, "direction");
                    /* +0.0 and -0.0 are the same direction: x + 0.0 maps -0.0 to +0.0. */
                    r->dir[0] += 0.0;
                    r->dir[1] += 0.0;
                    r->dir[2] += 0.0;
                    r->face = f;
                    r->height = ch->height[at];
                    r->water = ch->water[at];
                    r->biome = ch->biome[at];
                    r->palette = ch->palette[at];
                }
            }
        }
    }
    qsort(recs, n, sizeof *recs, cmp_dir);
    for (a = 0; a < n; a = b) {
        int faces = 0;
        for (b = a; b < n && memcmp(recs[b].dir, recs[a].dir, sizeof recs[a].dir) == 0; b++) {
            faces |= 1 << recs[b].face;
            if (recs[b].height != recs[a].height || recs[b].water != recs[a].water ||
                recs[b].biome != recs[a].biome || recs[b].palette != recs[a].palette)
                mismatched++;
        }
        groups++;
        if (b - a < 2) lonely++;
        if (faces & (faces - 1)) multi_face++;
        if (faces == (faces & -faces)) continue;
        {
            int bits = 0, k;
            for (k = 0; k < 6; k++) bits += (faces >> k) & 1;
            if (bits == 3) three_face++;
        }
    }
    CHECK(mismatched == 0, "LOD %d: %d border records differ between the chunks sharing them", lod, mismatched);
    CHECK(lonely == 0, "LOD %d: %d border samples have no second owner (directions not bit-identical)", lod,
          lonely);
    /* 12 cube edges of 256*2^L+1 points share the 8 corners. */
    CHECK(multi_face == 12 * (256 * side - 1) + 8, "LOD %d: %d multi-face groups, expected %d", lod, multi_face,
          12 * (256 * side - 1) + 8);
    CHECK(three_face == 8, "LOD %d: %d cube corners found, expected 8", lod, three_face);
done:
    free(recs);
    free(ch);
    free(buf);
}

/* ------------------------------------------------------------ LOD subsets */
static void test_lod_subset(const ct_world *w, ct_key coarse)
{
    static ct_chunk c, fine[4];
    uint8_t *buf = (uint8_t *)malloc(CT_CTC_FILE_BYTES);
    int a, i, j, bad = 0;
    if (!buf) return;
    if (!chunk_via_file(w, coarse, &c, buf)) { free(buf); return; }
    for (a = 0; a < 4; a++)
        if (!chunk_via_file(w, ct_key_make(coarse.face, coarse.lod + 1, coarse.x * 2 + (uint32_t)(a & 1),
                                     coarse.y * 2 + (uint32_t)(a >> 1)), &fine[a], buf)) {
            free(buf);
            return;
        }
    for (j = 0; j <= 256; j++) {
        for (i = 0; i <= 256; i++) {
            int fi = 2 * i, fj = 2 * j, ax = fi > 256 ? 1 : 0, ay = fj > 256 ? 1 : 0;
            const ct_chunk *f = &fine[ax + 2 * ay];
            size_t cat = (size_t)j * 257 + (size_t)i;
            size_t fat = (size_t)(fj - 256 * ay) * 257 + (size_t)(fi - 256 * ax);
            if (c.height[cat] != f->height[fat] || memcmp(&c.height_m[cat], &f->height_m[fat], sizeof(float)) != 0 ||
                c.water[cat] != f->water[fat] ||
                c.biome[cat] != f->biome[fat] || c.palette[cat] != f->palette[fat])
                bad++;
        }
    }
    CHECK(bad == 0, "LOD %d chunk %s %u,%u: %d samples differ from the LOD %d samples they cover",
          (int)coarse.lod, ct_face_name(coarse.face), coarse.x, coarse.y, bad, (int)coarse.lod + 1);
    free(buf);
}

/* ------------------------------------------- point sample == chunk vertex */
static void test_sample_matches_chunk(const ct_world *w, ct_key key)
{
    static ct_chunk c;
    int k, bad = 0;
    double q = ct_world_config(w)->height_quantum_m;
    CHECK(ct_chunk_generate(w, key, &c, NULL, 0) == CT_OK, "generate");
    for (k = 0; k < 2000; k++) {
        /* all four corners, then a scatter of interior and border samples */
        int i = k < 4 ? (k & 1) * 256 : (int)(ct__hash2(7u, (uint32_t)k) % 257u);
        int j = k < 4 ? (k >> 1) * 256 : (int)(ct__hash2(9u, (uint32_t)k) % 257u);
        double d[3];
        ct_sample s;
        size_t at = (size_t)j * 257 + (size_t)i;
        uint16_t wc;
        ct_key_direction(key, i, j, d, NULL, 0);
        CHECK(ct_world_sample(w, d, &s, NULL, 0) == CT_OK, "sample");
        wc = s.has_water ? ct_height_encode(s.water_m, q, NULL) : 0;
        float hf = (float)s.height_m;
        if (ct_height_encode(s.height_m, q, NULL) != c.height[at] || memcmp(&hf, &c.height_m[at], sizeof hf) != 0 ||
            wc != c.water[at] ||
            s.biome != c.biome[at] || s.palette_index != c.palette[at])
            bad++;
        if (s.palette_index / 5 != s.biome || s.material != ct__biome_material(s.biome)) bad++;
    }
    CHECK(bad == 0, "%d point samples differ from their chunk vertex", bad);
}

/* ------------------------------------------------------- request order */
static void test_request_order(const ct_world *w)
{
    static ct_chunk c;
    ct_key keys[5];
    uint64_t first[5];
    int k;
    keys[0] = ct_key_make(CT_FACE_PZ, 2, 1, 2);
    keys[1] = ct_key_make(CT_FACE_NX, 3, 7, 0);
    keys[2] = ct_key_make(CT_FACE_PY, 0, 0, 0);
    keys[3] = ct_key_make(CT_FACE_NZ, 3, 4, 4);
    keys[4] = ct_key_make(CT_FACE_PZ, 2, 1, 2);   /* a repeat */
    for (k = 0; k < 5; k++) {
        CHECK(ct_chunk_generate(w, keys[k], &c, NULL, 0) == CT_OK, "generate");
        first[k] = c.digest;
    }
    CHECK(first[0] == first[4], "a repeated request gives the same digest");
    CHECK(first[0] != first[1] && first[1] != first[2], "different chunks have different digests");
    memset(&c, 0xA5, sizeof c);   /* a dirty buffer must not leak into the result */
    for (k = 4; k >= 0; k--) {
        CHECK(ct_chunk_generate(w, keys[k], &c, NULL, 0) == CT_OK, "generate");
        CHECK(c.digest == first[k], "chunk %d: digest depends on request order", k);
    }
    /* The digest is FNV-1a over the six-byte records, then header bytes
     * 0..51 of the .ctc (every field but the digest itself). */
    {
        uint8_t *buf = (uint8_t *)malloc(CT_CTC_FILE_BYTES);
        uint64_t h;
        if (buf) {
            ct_chunk_encode_ctc(&c, buf, CT_CTC_FILE_BYTES, NULL, 0);
            h = ct_fnv1a64(buf + 60, CT_CTC_FILE_BYTES - 60, CT_FNV1A64_INIT);
            h = ct_fnv1a64(buf, 52, h);
            CHECK(h == c.digest, "digest = FNV-1a(records, header bytes 0..51)");
            free(buf);
        }
    }
}

/* ------------------------------------------------------------- rejection */
static void test_rejections(const ct_world *w)
{
    static ct_chunk c;
    char err[256];
    double d[3] = {0, 0, 0};
    ct_sample s;
    uint32_t lod = ct_world_config(w)->surface_lod;
    CHECK(ct_chunk_generate(NULL, ct_key_make(0, 0, 0, 0), &c, err, sizeof err) == CT_ERR_NULL, "NULL world");
    CHECK(ct_chunk_generate(w, ct_key_make(0, 0, 0, 0), NULL, err, sizeof err) == CT_ERR_NULL, "NULL chunk");
    CHECK(ct_chunk_generate(w, ct_key_make(6, 0, 0, 0), &c, err, sizeof err) == CT_ERR_FACE, "face 6");
    CHECK(ct_chunk_generate(w, ct_key_make(-1, 0, 0, 0), &c, err, sizeof err) == CT_ERR_FACE, "face -1");
    CHECK(ct_chunk_generate(w, ct_key_make(0, -1, 0, 0), &c, err, sizeof err) == CT_ERR_LOD, "lod -1");
    CHECK(ct_chunk_generate(w, ct_key_make(0, (int)lod + 1, 0, 0), &c, err, sizeof err) == CT_ERR_LOD,
          "LOD above surface_lod");
    CHECK(strstr(err, "surface_lod") != NULL, "message names surface_lod: %s", err);
    CHECK(ct_chunk_generate(w, ct_key_make(0, 2, 4, 0), &c, err, sizeof err) == CT_ERR_CHUNK_XY, "x too big");
    CHECK(ct_chunk_generate(w, ct_key_make(0, 2, 0, 4), &c, err, sizeof err) == CT_ERR_CHUNK_XY, "y too big");
    CHECK(ct_world_sample(w, d, &s, err, sizeof err) == CT_ERR_DIRECTION, "zero direction");
    d[0] = NAN;
    CHECK(ct_world_sample(w, d, &s, err, sizeof err) == CT_ERR_DIRECTION, "NaN direction");
    d[0] = HUGE_VAL;
    CHECK(ct_world_sample(w, d, &s, err, sizeof err) == CT_ERR_DIRECTION, "infinite direction");
    CHECK(ct_world_sample(NULL, d, &s, err, sizeof err) == CT_ERR_NULL, "NULL world");
    /* Any scale of a direction samples the same place. */
    {
        double a[3] = {0.3, -0.5, 0.8}, b[3] = {3e-200, -5e-200, 8e-200}, e[3] = {3e200, -5e200, 8e200};
        ct_sample sa, sb, se;
        CHECK(ct_world_sample(w, a, &sa, NULL, 0) == CT_OK && ct_world_sample(w, b, &sb, NULL, 0) == CT_OK &&
              ct_world_sample(w, e, &se, NULL, 0) == CT_OK, "tiny and huge directions are accepted");
        CHECK(fabs(sa.height_m - sb.height_m) < 1e-6 && fabs(sa.height_m - se.height_m) < 1e-6,
              "scale does not matter: %.17g %.17g %.17g", sa.height_m, sb.height_m, se.height_m);
    }
}

/* --------------------------------------------------------------- clipping */
static void test_clipping(void)
{
    /* 1 cm steps span only +-327 m: mountains and sea floor must clip, and
     * the count must equal the samples whose height or water is out of range. */
    static const char *const sets[] = {"macro_resolution", "16", "surface_lod", "2",
                                       "height_quantum_m", "0.01", NULL};
    static ct_chunk c;
    ct_world *w = build("alpine", sets);
    int f, best = 0;
    if (!w) return;
    for (f = 0; f < 6; f++) {
        ct_key key = ct_key_make(f, 0, 0, 0);
        uint32_t count = 0;
        int i, j;
        CHECK(ct_chunk_generate(w, key, &c, NULL, 0) == CT_OK, "generate");
        for (j = 0; j <= 256; j++) {
            for (i = 0; i <= 256; i++) {
                double d[3];
                ct_sample s;
                int ch = 0, cw = 0;
                ct_key_direction(key, i, j, d, NULL, 0);
                ct_world_sample(w, d, &s, NULL, 0);
                ct_height_encode(s.height_m, 0.01, &ch);
                if (s.has_water) {
                    uint16_t wc = ct_height_encode(s.water_m, 0.01, &cw);
                    if (wc == 0) cw = 1;
                }
                count += (ch || cw) ? 1u : 0u;
            }
        }
        CHECK(c.clipped == count, "face %d: chunk counted %u clipped samples, independent count %u", f,
              c.clipped, count);
        if ((int)c.clipped > best) best = (int)c.clipped;
    }
    CHECK(best > 1000, "a 1 cm quantum must clip many samples (max %d)", best);
    ct_world_free(w);
}

/* ----------------------------------- fine noise never moves the coastline */
static void test_detail_keeps_coast(void)
{
    /* Rivers off in both: they carve land into river water on purpose. */
    static const char *const on[] = {"macro_resolution", "32", "surface_lod", "3", "detail_amplitude_m", "400",
                                      "river_min_area_km2", "0", NULL};
    static const char *const off[] = {"macro_resolution", "32", "surface_lod", "3", "detail_amplitude_m", "0",
                                      "detail_height_gain", "0", "river_min_area_km2", "0",
                                      NULL};
    ct_world *a = build("balanced", on), *b = build("balanced", off);
    int k, differ = 0, wet = 0, moved = 0, wet_moved = 0;
    if (!a || !b) { ct_world_free(a); ct_world_free(b); return; }
    for (k = 0; k < 40000; k++) {
        double d[3];
        ct_sample sa, sb;
        d[0] = ct__unit(ct__hash2(1u, (uint32_t)k)) * 2 - 1;
        d[1] = ct__unit(ct__hash2(2u, (uint32_t)k)) * 2 - 1;
        d[2] = ct__unit(ct__hash2(3u, (uint32_t)k)) * 2 - 1;
        if (d[0] == 0 && d[1] == 0 && d[2] == 0) continue;
        ct_world_sample(a, d, &sa, NULL, 0);
        ct_world_sample(b, d, &sb, NULL, 0);
        if (sa.has_water != sb.has_water || sa.water_body != sb.water_body) differ++;
        if (sa.height_m != sb.height_m) {
            if (sb.has_water) wet_moved++;
            else moved++;
        }
        wet += sb.has_water;
    }
    CHECK(differ == 0, "fine noise changed land/water at %d of 40000 directions", differ);
    /* Detail is land relief: nearly every land sample moves, no bed under water does. */
    CHECK(moved > (40000 - wet) * 9 / 10, "the fine noise must move land heights (%d of %d moved)", moved,
          40000 - wet);
    CHECK(wet_moved == 0, "fine noise moved %d beds under water", wet_moved);
    CHECK(wet > 4000 && wet < 36000, "the test world has both land and water (%d wet)", wet);
    ct_world_free(a);
    ct_world_free(b);
}

/* ------------------------------------------- macro vertices and lakes */
static void test_macro_vertices(void)
{
    /* Fine layers off (detail, ranges, hills and the rivers' valleys) and no
     * shore ramp (which lifts the shore pins on purpose): samples at macro
     * vertices are the macro field. */
    static const char *const sets[] = {"macro_resolution", "32", "detail_amplitude_m", "0",
                                       "detail_height_gain", "0", "shore_ramp_m", "0", "range_height_m", "0",
                                       "hill_height_m", "0", "river_min_area_km2", "0", NULL};
    ct_world *w = build("balanced", sets);
    uint32_t c, bad_h = 0, bad_w = 0, bad_lake = 0, lakes = 0, pins = 0;
    if (!w) return;
    for (c = 0; c < w->field.vertex_count; c++) {
        ct_sample s;
        ct_world_sample(w, &w->field.dir_v[3 * c], &s, NULL, 0);
        if (fabs(s.height_m - w->field.height_v[c]) > 1e-6 * (1.0 + fabs(w->field.height_v[c]))) bad_h++;
        /* A land pin sits exactly on its shoreline (height == shore level):
         * the rounding of its direction may put the sample a hair into the
         * water, so only the other vertices have a definite side. */
        if (w->field.body_v[c] < 0 && w->field.shore_ref_v && w->field.height_v[c] == w->field.shore_ref_v[c]) pins++;
        else if (s.has_water != (w->field.body_v[c] >= 0)) bad_w++;
        /* Wet samples carry their body's level; a pin a hair into the
         * water carries the level of the water it pins (its shore level). */
        if (s.has_water && s.water_m != (w->field.body_v[c] >= 0 ? w->field.water_level_v[c] : w->field.shore_ref_v[c])) bad_lake++;
        if (w->field.body_v[c] > 0) lakes++;
    }
    CHECK(bad_h == 0, "%u macro vertices sample to a different bed height", bad_h);
    CHECK(bad_w == 0, "%u macro vertices disagree on water", bad_w);
    CHECK(bad_lake == 0, "%u water vertices sample a different level", bad_lake);
    /* Lakes are flat in the samples too: every wet sample of a body has its level. */
    {
        int k, flat_bad = 0;
        for (k = 0; k < 30000; k++) {
            double d[3];
            ct_sample s;
            d[0] = ct__unit(ct__hash2(11u, (uint32_t)k)) * 2 - 1;
            d[1] = ct__unit(ct__hash2(12u, (uint32_t)k)) * 2 - 1;
            d[2] = ct__unit(ct__hash2(13u, (uint32_t)k)) * 2 - 1;
            if (ct_world_sample(w, d, &s, NULL, 0) != CT_OK || !s.has_water) continue;
            for (c = 0; c < w->field.vertex_count; c++)
                if (w->field.body_v[c] == s.water_body) break;
            if (c == w->field.vertex_count || w->field.water_level_v[c] != s.water_m) flat_bad++;
            if (s.water_body == 0 && s.water_m != 0.0) flat_bad++;
        }
        CHECK(flat_bad == 0, "%d wet samples are not at their body's level", flat_bad);
    }
    CHECK(w->field.shore_ref_v != NULL, "the build derives the shore reference");
    printf("ok macro vertices: %u vertices, %u lake vertices, %u shoreline pins\n", w->field.vertex_count, lakes, pins);
    ct_world_free(w);
}

/* ------------------------------------------------ biomes and the palette */
static void test_biomes_and_palette(const ct_world *w)
{
    ct_palette def, file;
    char err[256];
    FILE *f = fopen("core/palette.txt", "rb");
    static char text[8192];
    size_t len = 0;
    int k, lines = 0, seen[CT_BIOME_COUNT] = {0}, kinds = 0;
    CHECK(f != NULL, "core/palette.txt opens (run from the repository root)");
    if (f) {
        len = fread(text, 1, sizeof text - 1, f);
        fclose(f);
    }
    text[len] = '\0';
    for (k = 0; k < (int)len; k++) lines += text[k] == '\n';
    CHECK(lines == 40, "palette.txt has %d lines, expected exactly 40", lines);
    ct_palette_default(&def);
    CHECK(ct_palette_parse(text, &file, err, sizeof err) == CT_OK, "palette.txt parses: %s", err);
    CHECK(memcmp(&def, &file, sizeof def) == 0, "ct_palette_default equals core/palette.txt");
    CHECK(memcmp(&w->palette, &def, sizeof def) == 0, "a built world carries the default palette");

    for (k = 0; k < CT_BIOME_COUNT; k++)
        CHECK(strcmp(ct_biome_name(k), "?") != 0, "biome %d has a name", k);
    CHECK(strcmp(ct_biome_name(8), "?") == 0 && strcmp(ct_biome_name(-1), "?") == 0, "out of range names");
    CHECK(strcmp(ct_biome_name(CT_BIOME_TUNDRA), "tundra") == 0, "tundra");
    /* A default world shows most biomes over its surface. */
    for (k = 0; k < 60000; k++) {
        double d[3];
        ct_sample s;
        d[0] = ct__unit(ct__hash2(21u, (uint32_t)k)) * 2 - 1;
        d[1] = ct__unit(ct__hash2(22u, (uint32_t)k)) * 2 - 1;
        d[2] = ct__unit(ct__hash2(23u, (uint32_t)k)) * 2 - 1;
        if (ct_world_sample(w, d, &s, NULL, 0) != CT_OK) continue;
        CHECK(s.biome >= 0 && s.biome < CT_BIOME_COUNT && s.palette_index >= 5 * s.biome &&
              s.palette_index < 5 * s.biome + 5, "palette index %d for biome %d", s.palette_index, s.biome);
        CHECK(s.moisture >= 0.0 && s.moisture <= 1.0, "moisture %g", s.moisture);
        CHECK((s.biome == CT_BIOME_WATER) == (s.has_water != 0), "water biome iff has_water");
        seen[s.biome]++;
    }
    for (k = 0; k < CT_BIOME_COUNT; k++) kinds += seen[k] > 0;
    printf("ok biomes:");
    for (k = 0; k < CT_BIOME_COUNT; k++) printf(" %s %d", ct_biome_name(k), seen[k]);
    printf("\n");
    CHECK(kinds >= 6, "only %d biomes appear on a default world", kinds);
}

static void test_palette_parse_errors(void)
{
    static char text[4096];
    char err[256];
    ct_palette p, before;
    int k;
    size_t n = 0;
    /* A good file with comments and blank lines. */
    n += (size_t)sprintf(text + n, "# my palette\n\n");
    for (k = 0; k < 40; k++) n += (size_t)sprintf(text + n, "%02x%02X%02x  # shade\n", k, 255 - k, k * 3);
    CHECK(ct_palette_parse(text, &p, err, sizeof err) == CT_OK, "commented palette: %s", err);
    CHECK(p.rgb[39][0] == 39 && p.rgb[39][1] == 216 && p.rgb[39][2] == 117, "values parsed");
    /* Malformed line 5 (counting from 1). */
    memset(&before, 7, sizeof before);
    p = before;
    strcpy(text, "000000\n111111\n222222\n333333\n44x444\n");
    CHECK(ct_palette_parse(text, &p, err, sizeof err) == CT_ERR_PALETTE, "bad hex");
    CHECK(strstr(err, "line 5") != NULL, "message names line 5: %s", err);
    CHECK(memcmp(&p, &before, sizeof p) == 0, "output untouched on error");
    strcpy(text, "000000\n1111111\n");
    CHECK(ct_palette_parse(text, &p, err, sizeof err) == CT_ERR_PALETTE && strstr(err, "line 2"),
          "seven digits on line 2: %s", err);
    strcpy(text, "000000\n\n\n12345\n");
    CHECK(ct_palette_parse(text, &p, err, sizeof err) == CT_ERR_PALETTE && strstr(err, "line 4"),
          "five digits on line 4: %s", err);
    strcpy(text, "abcdef extra\n");
    CHECK(ct_palette_parse(text, &p, err, sizeof err) == CT_ERR_PALETTE && strstr(err, "line 1"),
          "trailing text on line 1: %s", err);
    n = 0;
    for (k = 0; k < 39; k++) n += (size_t)sprintf(text + n, "123456\n");
    CHECK(ct_palette_parse(text, &p, err, sizeof err) == CT_ERR_PALETTE && strstr(err, "39"),
          "39 colours: %s", err);
    n += (size_t)sprintf(text + n, "123456\n123456\n");
    CHECK(ct_palette_parse(text, &p, err, sizeof err) == CT_ERR_PALETTE && strstr(err, "line 41"),
          "41 colours rejected at line 41: %s", err);
    CHECK(ct_palette_parse(NULL, &p, err, sizeof err) == CT_ERR_NULL, "NULL text");
}

static void test_address(const ct_world *w)
{
    char buf[128], small[8];
    uint64_t g = ct_world_generation(w);
    char want[128];
    size_t n;
    sprintf(want, "%lu/%08lx%08lx/pz/3/2/5", (unsigned long)ct_world_config(w)->planet_id,
            (unsigned long)(uint32_t)(g >> 32), (unsigned long)(uint32_t)g);
    n = ct_address_format(w, ct_key_make(CT_FACE_PZ, 3, 2, 5), buf, sizeof buf);
    CHECK(strcmp(buf, want) == 0 && n == strlen(want), "address %s, want %s", buf, want);
    n = ct_address_format(w, ct_key_make(CT_FACE_PZ, 3, 2, 5), small, sizeof small);
    CHECK(n == strlen(want) && strlen(small) == sizeof small - 1, "truncated like snprintf");
    CHECK(ct_address_format(w, ct_key_make(7, 3, 2, 5), buf, sizeof buf) == 0 && buf[0] == '\0', "bad key");
}

/* ------------------------------------------------------------ continuity */
/* Pairs of directions 1e-8 apart, half of them straddling the planes where
 * face ownership changes: the bed must never jump (cell splits, the shore
 * reference, the detail fade and cube edges all meet continuously). The
 * largest honest change over 1e-8 rad is well under a metre. */
static void test_continuity(const ct_world *w)
{
    int k, c, jumps = 0, level_jumps = 0, river_jumps = 0;
    double worst = 0.0;
    for (k = 0; k < 100000; k++) {
        double d[3], e[3], dh;
        ct_sample a, b;
        for (c = 0; c < 3; c++) d[c] = ct__unit(ct__hash2((uint32_t)c + 41u, (uint32_t)k)) * 2 - 1;
        if (k % 2) d[k % 3] = d[(k + 1) % 3] * (1.0 + 1e-9 * (ct__unit(ct__hash2(44u, (uint32_t)k)) - 0.5));
        for (c = 0; c < 3; c++) e[c] = d[c] + 1e-8 * (ct__unit(ct__hash2((uint32_t)c + 45u, (uint32_t)k)) - 0.5);
        if (ct_world_sample(w, d, &a, NULL, 0) != CT_OK || ct_world_sample(w, e, &b, NULL, 0) != CT_OK) continue;
        dh = fabs(a.height_m - b.height_m);
        if (dh > worst) worst = dh;
        if (dh > 1.0) jumps++;
        /* A river's surface slopes down its course, so only a step counts. */
        if (a.has_water && b.has_water && a.water_body == b.water_body && a.water_m != b.water_m) {
            if (a.water_body != CT_WATER_RIVER) level_jumps++;
            else if (fabs(a.water_m - b.water_m) > 0.01) river_jumps++;
        }
    }
    CHECK(river_jumps == 0, "%d river surface steps over 1e-8 rad", river_jumps);
    CHECK(jumps == 0, "%d height jumps over 1e-8 rad (worst %g m)", jumps, worst);
    CHECK(level_jumps == 0, "%d water level changes inside one body", level_jumps);
}

/* ---------------------------------------------------- shore cell splits */
static void cell_point(const ct_world *w, uint32_t f, uint32_t i, uint32_t j, double s, double t, ct_sample *out)
{
    double d[3], n = (double)w->field.n;
    ct_face_to_direction((int)f, 2.0 * ((i + s) / n) - 1.0, 2.0 * ((j + t) / n) - 1.0, d, NULL, 0);
    ct_world_sample(w, d, out, NULL, 0);
}

/* A lone water corner must not leak into the rest of its cell (bilinear
 * interpolation would wet the far corner's quadrant), and two different
 * bodies meeting diagonally stay apart: the cell centre is dry land. */
static void test_cell_splits(const ct_world *w)
{
    uint32_t n = w->field.n, f, i, j;
    int lone = 0, lone_bad = 0, saddles = 0, saddle_bad = 0;
    for (f = 0; f < 6; f++) {
        for (j = 0; j < n; j++) {
            for (i = 0; i < n; i++) {
                int32_t b[4];
                int k, wet = 0, which = -1;
                ct_sample s;
                b[0] = w->field.body_v[w->field.vertex_fij[CT__FIJ(n, f, i, j)]];
                b[1] = w->field.body_v[w->field.vertex_fij[CT__FIJ(n, f, i + 1, j)]];
                b[2] = w->field.body_v[w->field.vertex_fij[CT__FIJ(n, f, i, j + 1)]];
                b[3] = w->field.body_v[w->field.vertex_fij[CT__FIJ(n, f, i + 1, j + 1)]];
                for (k = 0; k < 4; k++)
                    if (b[k] >= 0) { wet++; which = k; }
                if (wet == 1) {
                    /* the point near the opposite corner */
                    double ps = (which & 1) ? 0.2 : 0.8, pt = (which & 2) ? 0.2 : 0.8;
                    cell_point(w, f, i, j, ps, pt, &s);
                    lone++;
                    if (s.has_water) lone_bad++;
                } else if (wet == 2 && ((b[0] >= 0 && b[3] >= 0 && b[0] != b[3]) ||
                                        (b[1] >= 0 && b[2] >= 0 && b[1] != b[2]))) {
                    int a = b[0] >= 0 ? 0 : 1, z = 3 - a;
                    ct_sample sa, sz;
                    saddles++;
                    cell_point(w, f, i, j, 0.5, 0.5, &s);
                    /* At the water corners themselves: when lakes keep their
                     * own levels the dam corners may stand far above the lower
                     * body, whose shore then hugs its corner. */
                    cell_point(w, f, i, j, (a & 1) ? 1.0 : 0.0, (a & 2) ? 1.0 : 0.0, &sa);
                    cell_point(w, f, i, j, (z & 1) ? 1.0 : 0.0, (z & 2) ? 1.0 : 0.0, &sz);
                    if (s.has_water || !sa.has_water || !sz.has_water || sa.water_body != b[a] ||
                        sz.water_body != b[z])
                        saddle_bad++;
                }
            }
        }
    }
    CHECK(lone > 50 && lone_bad == 0, "%d of %d lone water corners leak across their cell", lone_bad, lone);
    CHECK(saddles > 0 && saddle_bad == 0, "%d of %d saddles between bodies are not kept apart", saddle_bad,
          saddles);
    printf("ok cell splits: %d lone water corners, %d saddles between bodies\n", lone, saddles);
}

/* ------------------------------------------------------------ timing */
static void report_timing(const ct_world *w)
{
    static ct_chunk c;
    clock_t t0 = clock();
    int k;
    for (k = 0; k < 8; k++) ct_chunk_generate(w, ct_key_make(CT_FACE_PZ, 3, (uint32_t)k, 3), &c, NULL, 0);
    printf("ok chunk generation: %.1f ms per 257x257 chunk (CPU time, this build)\n",
           (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC / 8.0);
}

int main(void)
{
    static const char *const sets[] = {"macro_resolution", "32", "surface_lod", "3", "seed", "7", NULL};
    ct_world *w;
    test_encoding();
    test_palette_parse_errors();
    w = build("balanced", sets);
    if (w) {
        test_borders(w, 1);
        test_lod_subset(w, ct_key_make(CT_FACE_PX, 0, 0, 0));
        test_lod_subset(w, ct_key_make(CT_FACE_NY, 2, 3, 1));
        test_lod_subset(w, ct_key_make(CT_FACE_PZ, 1, 1, 0));
        test_sample_matches_chunk(w, ct_key_make(CT_FACE_PZ, 3, 5, 2));
        test_sample_matches_chunk(w, ct_key_make(CT_FACE_NX, 0, 0, 0));
        test_request_order(w);
        test_continuity(w);
        test_cell_splits(w);
        test_rejections(w);
        test_biomes_and_palette(w);
        test_address(w);
        report_timing(w);
        ct_world_free(w);
    }
    test_clipping();
    test_detail_keeps_coast();
    test_macro_vertices();
    return test_summary("chunks");
}
