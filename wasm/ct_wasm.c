/* ct_wasm.c - the flat WebAssembly ABI over ct.h for wasm/ct.mjs.
 *
 * This and its siblings (wasm/ct_wasm_*.c, e.g. the ground pose's) are the
 * only C files that include emscripten.h. Every export takes and
 * returns plain integers, doubles and pointers into linear memory, so the JS
 * loader needs no generated glue: it allocates with malloc/free, passes
 * pointers, and copies results out. Structs never cross the boundary; the
 * few multi-value results are written into caller arrays in an order that
 * wasm/ct.mjs documents beside its reader; the statistics follow the rows
 * of ct_stats.def, which the JS reads through ctw_stat_*.
 *
 * Errors: every fallible export returns a ct_result and writes the message
 * into the (err, errlen) buffer the caller passes, like the C API itself.
 * No file-scope mutable state: two worlds in one instance never interfere.
 */
#include <emscripten.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "ct.h"

#define CTW_EXPORT EMSCRIPTEN_KEEPALIVE

/* Build progress goes to JS through one import, env.ctw_progress. EM_JS makes
 * Emscripten declare it as an import without needing -sERROR_ON_UNDEFINED_SYMBOLS
 * or a JS library; the body below is never used because we ship no glue: the
 * loader in wasm/ct.mjs supplies the real function (non-zero = cancel). */
EM_JS(int, ctw_progress, (const char *stage, double fraction), { return 0; })

static int ctw__progress(const char *stage, double fraction, void *user)
{
    (void)user;
    return ctw_progress(stage, fraction);
}

static void ctw__hex64(uint64_t v, char out[17])
{
    /* Same text as the native CLI's "%016llx". */
    snprintf(out, 17, "%016llx", (unsigned long long)v);
}

/* Bytes currently allocated by malloc (dlmalloc's mallinfo): lets tests see
 * a leak long before it grows WebAssembly memory. */
CTW_EXPORT size_t ctw_heap_in_use(void)
{
    struct mallinfo mi = mallinfo();
    return (size_t)mi.uordblks;
}

/* ------------------------------------------------------------ tables */
CTW_EXPORT int ctw_knob_count(void) { return (int)ct_knob_count(); }

CTW_EXPORT const char *ctw_knob_name(int i)
{
    const ct_knob_info *k = ct_knob_get((size_t)i);
    return k ? k->name : NULL;
}

CTW_EXPORT const char *ctw_knob_doc(int i)
{
    const ct_knob_info *k = ct_knob_get((size_t)i);
    return k ? k->doc : NULL;
}

/* out: kind, default, min, max. Returns 0 past the end. */
CTW_EXPORT int ctw_knob_info(int i, double *out)
{
    const ct_knob_info *k = ct_knob_get((size_t)i);
    if (!k || !out) return 0;
    out[0] = (double)k->kind;
    out[1] = k->def;
    out[2] = k->min;
    out[3] = k->max;
    return 1;
}

/* The statistics table (ct_stats.def): names, docs and print formats. */
CTW_EXPORT int ctw_stat_count(void) { return (int)ct_stat_count(); }

CTW_EXPORT const char *ctw_stat_name(int i)
{
    const ct_stat_info *s = ct_stat_get((size_t)i);
    return s ? s->name : NULL;
}

CTW_EXPORT const char *ctw_stat_doc(int i)
{
    const ct_stat_info *s = ct_stat_get((size_t)i);
    return s ? s->doc : NULL;
}

/* out: kind, printf conversion (a character code), digits. Returns 0 past the end. */
CTW_EXPORT int ctw_stat_info(int i, double *out)
{
    const ct_stat_info *s = ct_stat_get((size_t)i);
    if (!s || !out) return 0;
    out[0] = (double)s->kind;
    out[1] = (double)(unsigned char)s->conv;
    out[2] = (double)s->digits;
    return 1;
}

CTW_EXPORT int ctw_preset_count(void) { return (int)ct_preset_count(); }
CTW_EXPORT const char *ctw_preset_name(int i) { return ct_preset_name((size_t)i); }
CTW_EXPORT const char *ctw_reference_layers(void) { return ct_reference_layers(); }
CTW_EXPORT const char *ctw_result_name(int r) { return ct_result_name((ct_result)r); }
CTW_EXPORT const char *ctw_result_message(int r) { return ct_result_message((ct_result)r); }
CTW_EXPORT const char *ctw_face_name(int face) { return ct_face_name(face); }
CTW_EXPORT const char *ctw_face_file_name(int face) { return ct_face_file_name(face); }
CTW_EXPORT const char *ctw_region_name(int region) { return ct_region_name(region); }
CTW_EXPORT const char *ctw_biome_name(int biome) { return ct_biome_name(biome); }

/* Returns the face (0..5) or -1 with the message in err. */
CTW_EXPORT int ctw_face_parse(const char *text, char *err, size_t errlen)
{
    int face = -1;
    if (ct_face_parse(text, &face) != CT_OK) {
        if (err && errlen) snprintf(err, errlen, "unknown face \"%s\" (use +X..-Z or px..nz)",
                                    text ? text : "(null)");
        return -1;
    }
    return face;
}

/* ------------------------------------------------------------ config */
CTW_EXPORT ct_config *ctw_config_new(void)
{
    ct_config *cfg = (ct_config *)malloc(sizeof *cfg);
    if (cfg) ct_config_default(cfg);
    return cfg;
}

CTW_EXPORT void ctw_config_free(ct_config *cfg) { free(cfg); }

CTW_EXPORT int ctw_config_preset(ct_config *cfg, const char *name, char *err, size_t errlen)
{
    return (int)ct_config_preset(cfg, name, err, errlen);
}

CTW_EXPORT int ctw_config_set(ct_config *cfg, const char *name, const char *value,
                              char *err, size_t errlen)
{
    return (int)ct_config_set(cfg, name, value, err, errlen);
}

/* Text with its byte length: a NUL inside it is an error, not an early end. */
CTW_EXPORT int ctw_config_parse(ct_config *cfg, const char *text, size_t len, char *err, size_t errlen)
{
    return (int)ct_config_parse_n(cfg, text, len, err, errlen);
}

CTW_EXPORT int ctw_config_validate(const ct_config *cfg, char *err, size_t errlen)
{
    return (int)ct_config_validate(cfg, err, errlen);
}

/* Value of knob number i (NaN past the end). */
CTW_EXPORT double ctw_config_get(const ct_config *cfg, int i)
{
    const ct_knob_info *k = ct_knob_get((size_t)i);
    if (!cfg || !k) return NAN;
    return ct_config_get(cfg, k);
}

/* "name=value\n" for every knob; returns the length needed, like snprintf. */
CTW_EXPORT size_t ctw_config_format(const ct_config *cfg, char *buf, size_t len)
{
    return ct_config_format(cfg, buf, len);
}

/* ------------------------------------------------------------- world */
CTW_EXPORT int ctw_world_build(const ct_config *cfg, int with_progress, ct_world **out,
                               char *err, size_t errlen)
{
    ct_build_options opts;
    memset(&opts, 0, sizeof opts);
    if (with_progress) opts.progress = ctw__progress;
    return (int)ct_world_build_ex(cfg, &opts, out, err, errlen);
}

CTW_EXPORT int ctw_world_load(const uint8_t *buf, size_t len, ct_world **out,
                              char *err, size_t errlen)
{
    return (int)ct_world_snapshot_read(buf, len, out, err, errlen);
}

CTW_EXPORT void ctw_world_free(ct_world *w) { ct_world_free(w); }

CTW_EXPORT const ct_config *ctw_world_config(const ct_world *w) { return ct_world_config(w); }

CTW_EXPORT void ctw_world_generation_hex(const ct_world *w, char *out17)
{
    ctw__hex64(ct_world_generation(w), out17);
}

/* out: ctw_stat_count() doubles, one per row of ct_stats.def in its order. */
CTW_EXPORT int ctw_world_stats(const ct_world *w, double *out, char *err, size_t errlen)
{
    ct_world_stats s;
    ct_result r = ct_world_stats_get(w, &s);
    size_t i;
    if (r != CT_OK) {
        if (err && errlen) snprintf(err, errlen, "%s", ct_result_message(r));
        return (int)r;
    }
    for (i = 0; i < ct_stat_count(); i++) out[i] = ct_world_stats_value(&s, ct_stat_get(i));
    return CT_OK;
}

/* out: node_count, segment_count, lakes_open, lakes_closed, land_area_m2,
 * land_to_sea_m2. */
CTW_EXPORT int ctw_world_rivers_info(const ct_world *w, double *out, char *err, size_t errlen)
{
    ct_rivers_info info;
    ct_result r = ct_world_rivers_info(w, &info, err, errlen);
    if (r != CT_OK) return (int)r;
    out[0] = info.node_count;
    out[1] = info.segment_count;
    out[2] = info.lakes_open;
    out[3] = info.lakes_closed;
    out[4] = info.land_area_m2;
    out[5] = info.land_to_sea_m2;
    return CT_OK;
}

CTW_EXPORT int ctw_world_rivers(const ct_world *w, uint32_t capacity, double *direction, int32_t *downstream,
                                double *area_m2, double *width_m, double *length_m, double *surface_m,
                                uint8_t *flags, char *err, size_t errlen)
{
    return (int)ct_world_rivers(w, capacity, direction, downstream, area_m2, width_m, length_m, surface_m, flags,
                                err, errlen);
}

/* counts: segment_count, point_count. */
CTW_EXPORT int ctw_world_river_curves(const ct_world *w, uint32_t segment_capacity, uint32_t point_capacity,
                                      uint32_t *offset, double *points, double *surface_m, double *width_m,
                                      uint32_t *counts, char *err, size_t errlen)
{
    return (int)ct_world_river_curves(w, segment_capacity, point_capacity, offset, points, surface_m, width_m,
                                      counts, counts + 1, err, errlen);
}

CTW_EXPORT size_t ctw_world_snapshot_size(const ct_world *w) { return ct_world_snapshot_size(w); }

CTW_EXPORT int ctw_world_snapshot_write(const ct_world *w, uint8_t *buf, size_t len,
                                        char *err, size_t errlen)
{
    return (int)ct_world_snapshot_write(w, buf, len, err, errlen);
}

/* out: 4 weights, dominant, height_scale, roughness, ridge_scale, delay_passes. */
CTW_EXPORT int ctw_world_region(const ct_world *w, const double *dir, double *out,
                                char *err, size_t errlen)
{
    ct_region_info info;
    ct_result r = ct_world_region(w, dir, &info, err, errlen);
    int i;
    if (r != CT_OK) return (int)r;
    for (i = 0; i < CT_REGION_COUNT; i++) out[i] = info.weight[i];
    out[4] = info.dominant;
    out[5] = info.height_scale;
    out[6] = info.roughness;
    out[7] = info.ridge_scale;
    out[8] = info.delay_passes;
    return CT_OK;
}

/* Samples n directions (3 doubles each) into parallel arrays. Stops at the
 * first bad direction: its index goes to *bad (else -1) and the message names
 * it. Any output pointer may be NULL. */
CTW_EXPORT int ctw_world_sample_many(const ct_world *w, const double *dirs, int n,
                                     double *height_m, double *water_m, uint8_t *has_water,
                                     int32_t *water_body, uint8_t *biome, uint8_t *material,
                                     uint8_t *palette, float *moisture, double *mask,
                                     int *bad, char *err, size_t errlen)
{
    int i;
    if (bad) *bad = -1;
    for (i = 0; i < n; i++) {
        ct_sample s;
        ct_result r = ct_world_sample(w, dirs + 3 * i, &s, err, errlen);
        if (r != CT_OK) {
            if (bad) *bad = i;
            return (int)r;
        }
        if (height_m) height_m[i] = s.height_m;
        if (water_m) water_m[i] = s.water_m;
        if (has_water) has_water[i] = (uint8_t)(s.has_water != 0);
        if (water_body) water_body[i] = s.water_body;
        if (biome) biome[i] = (uint8_t)s.biome;
        if (material) material[i] = (uint8_t)s.material;
        if (palette) palette[i] = (uint8_t)s.palette_index;
        if (moisture) moisture[i] = (float)s.moisture;
        if (mask) mask[i] = s.mask;
    }
    return CT_OK;
}

/* Every ct_sample field as a double, for one direction: height_m, water_m,
 * has_water, water_body, mask, moisture, biome, material, palette_index. */
CTW_EXPORT int ctw_world_sample_one(const ct_world *w, const double *dir, double *out,
                                    char *err, size_t errlen)
{
    ct_sample s;
    ct_result r = ct_world_sample(w, dir, &s, err, errlen);
    if (r != CT_OK) return (int)r;
    out[0] = s.height_m;
    out[1] = s.water_m;
    out[2] = s.has_water;
    out[3] = s.water_body;
    out[4] = s.mask;
    out[5] = s.moisture;
    out[6] = s.biome;
    out[7] = s.material;
    out[8] = s.palette_index;
    return CT_OK;
}

/* -------------------------------------------------------- addressing */
/* key_out: face, lod, x, y (x, y unsigned); local_out: local_x, local_y. */
CTW_EXPORT int ctw_key_at(const ct_world *w, const double *dir, int lod, uint32_t *key_out,
                          double *local_out, char *err, size_t errlen)
{
    ct_key k;
    ct_result r = ct_key_at(w, dir, lod, &k, &local_out[0], &local_out[1], err, errlen);
    if (r != CT_OK) return (int)r;
    key_out[0] = (uint32_t)k.face;
    key_out[1] = (uint32_t)k.lod;
    key_out[2] = k.x;
    key_out[3] = k.y;
    return CT_OK;
}

CTW_EXPORT int ctw_key_direction(int face, int lod, uint32_t x, uint32_t y, double local_x,
                                 double local_y, double *out, char *err, size_t errlen)
{
    return (int)ct_key_direction(ct_key_make(face, lod, x, y), local_x, local_y, out, err, errlen);
}

/* out: dx_m[3] then dy_m[3]. */
CTW_EXPORT int ctw_key_metric(int face, int lod, uint32_t x, uint32_t y, double local_x,
                              double local_y, double radius_m, double *out,
                              char *err, size_t errlen)
{
    return (int)ct_key_metric(ct_key_make(face, lod, x, y), local_x, local_y, radius_m,
                              out, out + 3, err, errlen);
}

CTW_EXPORT int ctw_key_validate(int face, int lod, uint32_t x, uint32_t y,
                                char *err, size_t errlen)
{
    return (int)ct_key_validate(ct_key_make(face, lod, x, y), err, errlen);
}

/* out: up to 9 keys as (face, lod, x, y); *count set. */
CTW_EXPORT int ctw_key_neighbourhood(int face, int lod, uint32_t x, uint32_t y, double local_x,
                                     double local_y, uint32_t *out, int *count,
                                     char *err, size_t errlen)
{
    ct_key keys[9];
    int i, n = 0;
    ct_result r = ct_key_neighbourhood(ct_key_make(face, lod, x, y), local_x, local_y, keys, &n,
                                       err, errlen);
    if (r != CT_OK) return (int)r;
    for (i = 0; i < n; i++) {
        out[4 * i + 0] = (uint32_t)keys[i].face;
        out[4 * i + 1] = (uint32_t)keys[i].lod;
        out[4 * i + 2] = keys[i].x;
        out[4 * i + 3] = keys[i].y;
    }
    *count = n;
    return CT_OK;
}

/* Returns the length needed, like snprintf. */
CTW_EXPORT size_t ctw_address(const ct_world *w, int face, int lod, uint32_t x, uint32_t y,
                              char *buf, size_t len)
{
    return ct_address_format(w, ct_key_make(face, lod, x, y), buf, len);
}

/* ------------------------------------------------------------ chunks */
/* One chunk buffer per world in JS (about 660 KB), reused for every request. */
CTW_EXPORT ct_chunk *ctw_chunk_new(void) { return (ct_chunk *)calloc(1, sizeof(ct_chunk)); }
CTW_EXPORT void ctw_chunk_free(ct_chunk *c) { free(c); }

CTW_EXPORT int ctw_chunk_generate(const ct_world *w, ct_chunk *c, int face, int lod,
                                  uint32_t x, uint32_t y, char *err, size_t errlen)
{
    return (int)ct_chunk_generate(w, ct_key_make(face, lod, x, y), c, err, errlen);
}

CTW_EXPORT uint16_t *ctw_chunk_height(ct_chunk *c) { return c->height; }
CTW_EXPORT float *ctw_chunk_height_m(ct_chunk *c) { return c->height_m; }
CTW_EXPORT uint16_t *ctw_chunk_water(ct_chunk *c) { return c->water; }
CTW_EXPORT uint8_t *ctw_chunk_biome(ct_chunk *c) { return c->biome; }
CTW_EXPORT uint8_t *ctw_chunk_palette(ct_chunk *c) { return c->palette; }
CTW_EXPORT uint32_t ctw_chunk_clipped(const ct_chunk *c) { return c->clipped; }
CTW_EXPORT double ctw_chunk_quantum(const ct_chunk *c) { return c->height_quantum_m; }
CTW_EXPORT void ctw_chunk_digest_hex(const ct_chunk *c, char *out17) { ctw__hex64(c->digest, out17); }
CTW_EXPORT void ctw_chunk_generation_hex(const ct_chunk *c, char *out17)
{
    ctw__hex64(c->generation, out17);
}

CTW_EXPORT int ctw_chunk_encode_ctc(const ct_chunk *c, uint8_t *buf, size_t len,
                                    char *err, size_t errlen)
{
    return (int)ct_chunk_encode_ctc(c, buf, len, err, errlen);
}

CTW_EXPORT int ctw_chunk_encode_u16le(const ct_chunk *c, uint8_t *buf, size_t len,
                                      char *err, size_t errlen)
{
    return (int)ct_chunk_encode_u16le(c, buf, len, err, errlen);
}

CTW_EXPORT int ctw_chunk_decode_ctc(const uint8_t *buf, size_t len, ct_chunk *out,
                                    char *err, size_t errlen)
{
    return (int)ct_chunk_decode_ctc(buf, len, out, err, errlen);
}

/* key_out[5]: face, lod, x, y, planet_id of a decoded chunk. */
CTW_EXPORT void ctw_chunk_key(const ct_chunk *c, uint32_t *key_out)
{
    key_out[0] = (uint32_t)c->key.face;
    key_out[1] = (uint32_t)c->key.lod;
    key_out[2] = c->key.x;
    key_out[3] = c->key.y;
    key_out[4] = c->planet_id;
}

/* ----------------------------------------------------------- palette */
CTW_EXPORT size_t ctw_palette_bytes(void) { return sizeof(ct_palette); }
CTW_EXPORT void ctw_palette_default(ct_palette *out) { ct_palette_default(out); }
CTW_EXPORT int ctw_palette_parse(const char *text, ct_palette *out, char *err, size_t errlen)
{
    return (int)ct_palette_parse(text, out, err, errlen);
}

/* -------------------------------------------------------------- mesh */
static ct_mesh_options ctw__mesh_opts(int stride, double skirt_m, double exaggeration, int water)
{
    ct_mesh_options o;
    memset(&o, 0, sizeof o);
    o.stride = stride;
    o.skirt_depth_m = skirt_m;
    o.vertical_exaggeration = exaggeration;
    o.water = water;
    return o;
}

/* out: vertex_count, index_count, index_bytes. */
CTW_EXPORT int ctw_mesh_layout(int stride, double skirt_m, double exaggeration, int water,
                               uint32_t *out, char *err, size_t errlen)
{
    ct_mesh_options o = ctw__mesh_opts(stride, skirt_m, exaggeration, water);
    ct_mesh_layout l;
    ct_result r = ct_mesh_layout_get(&o, &l, err, errlen);
    if (r != CT_OK) return (int)r;
    out[0] = l.vertex_count;
    out[1] = l.index_count;
    out[2] = l.index_bytes;
    return CT_OK;
}

/* Buffers sized from ctw_mesh_layout; colors and palette_index may be NULL.
 * meta_out: center_m[3], radius_m; counts_out: vertex_count, index_count;
 * digest_hex: NULL, or 17 bytes for FNV-1a 64 over the written positions,
 * normals, colours and indices. Palette indices stay out of it: they add
 * nothing the colours do not already pin down, and digests keep their earlier
 * values. The digest is a test aid and costs a third of a stride-1 mesh
 * (3.4 MB hashed a byte at a time), so callers ask for it. */
CTW_EXPORT int ctw_mesh_build(const ct_world *w, const ct_chunk *c, const ct_palette *pal,
                              int stride, double skirt_m, double exaggeration, int water,
                              float *positions, float *normals, uint8_t *colors,
                              uint8_t *palette_index, void *indices,
                              double *meta_out, uint32_t *counts_out, char *digest_hex,
                              char *err, size_t errlen)
{
    ct_mesh_options o = ctw__mesh_opts(stride, skirt_m, exaggeration, water);
    ct_mesh_layout l;
    ct_mesh m;
    uint64_t h = CT_FNV1A64_INIT;
    ct_result r = ct_mesh_layout_get(&o, &l, err, errlen);
    if (r != CT_OK) return (int)r;
    memset(&m, 0, sizeof m);
    m.positions = positions;
    m.normals = normals;
    m.colors = colors;
    m.palette_index = palette_index;
    m.indices = indices;
    r = ct_mesh_build(w, c, &o, pal, &m, err, errlen);
    if (r != CT_OK) return (int)r;
    meta_out[0] = m.center_m[0];
    meta_out[1] = m.center_m[1];
    meta_out[2] = m.center_m[2];
    meta_out[3] = m.radius_m;
    counts_out[0] = m.vertex_count;
    counts_out[1] = m.index_count;
    if (!digest_hex) return CT_OK;
    h = ct_fnv1a64(positions, (size_t)m.vertex_count * 3 * sizeof(float), h);
    h = ct_fnv1a64(normals, (size_t)m.vertex_count * 3 * sizeof(float), h);
    if (colors) h = ct_fnv1a64(colors, (size_t)m.vertex_count * 4, h);
    h = ct_fnv1a64(indices, (size_t)m.index_count * l.index_bytes, h);
    ctw__hex64(h, digest_hex);
    return CT_OK;
}

/* ---------------------------------------------------- ground and rays */
#define CTW_GROUND_DOUBLES 16

/* out[16]: height_m, water_m, has_water, normal[3], slope_deg, biome,
 * material, palette_index, face, lod, x, y, local_x, local_y. */
static void ctw__ground_out(const ct_ground *g, double *out)
{
    out[0] = g->height_m;
    out[1] = g->water_m;
    out[2] = g->has_water;
    out[3] = g->normal[0];
    out[4] = g->normal[1];
    out[5] = g->normal[2];
    out[6] = g->slope_deg;
    out[7] = g->biome;
    out[8] = g->material;
    out[9] = g->palette_index;
    out[10] = g->key.face;
    out[11] = g->key.lod;
    out[12] = g->key.x;
    out[13] = g->key.y;
    out[14] = g->local_x;
    out[15] = g->local_y;
}

CTW_EXPORT int ctw_world_ground(const ct_world *w, const double *dir, double *out, char *err, size_t errlen)
{
    ct_ground g;
    ct_result r = ct_world_ground(w, dir, &g, err, errlen);
    if (r == CT_OK) ctw__ground_out(&g, out);
    return (int)r;
}

/* n directions (3 doubles each) into 16 doubles each; *bad is the index of
 * the direction that failed. */
CTW_EXPORT int ctw_world_ground_many(const ct_world *w, const double *dirs, int n, double *out, int *bad,
                                     char *err, size_t errlen)
{
    int i;
    for (i = 0; i < n; i++) {
        ct_ground g;
        ct_result r = ct_world_ground(w, dirs + 3 * i, &g, err, errlen);
        if (r != CT_OK) {
            *bad = i;
            return (int)r;
        }
        ctw__ground_out(&g, out + CTW_GROUND_DOUBLES * i);
    }
    return CT_OK;
}

/* ct_chunk_ground over a scratch chunk whose samples around the cell the
 * caller has copied in (the query reads no others): the key, quantum and
 * this world's generation are set here. */
CTW_EXPORT int ctw_chunk_ground(const ct_world *w, ct_chunk *c, int face, int lod, uint32_t x, uint32_t y,
                                double quantum_m, double local_x, double local_y, double *out, char *err,
                                size_t errlen)
{
    ct_ground g;
    ct_result r;
    if (!w || !c) return (int)ct_chunk_ground(w, NULL, local_x, local_y, &g, err, errlen);
    c->key = ct_key_make(face, lod, x, y);
    c->height_quantum_m = quantum_m;
    c->generation = ct_world_generation(w);
    r = ct_chunk_ground(w, c, local_x, local_y, &g, err, errlen);
    if (r == CT_OK) ctw__ground_out(&g, out);
    return (int)r;
}

/* in[7]: origin_m[3], dir[3], max_m. out[13]: distance_m, point_m[3],
 * normal[3], face, lod, x, y, water, inside. Returns the result; *hit 0/1. */
CTW_EXPORT int ctw_world_raycast(const ct_world *w, const double *in, unsigned flags, double *out, int *hit,
                                 char *err, size_t errlen)
{
    ct_ray_hit h;
    ct_result r = ct_world_raycast(w, in, in + 3, in[6], flags, &h, hit, err, errlen);
    if (r != CT_OK || !*hit) return (int)r;
    out[0] = h.distance_m;
    out[1] = h.point_m[0];
    out[2] = h.point_m[1];
    out[3] = h.point_m[2];
    out[4] = h.normal[0];
    out[5] = h.normal[1];
    out[6] = h.normal[2];
    out[7] = h.key.face;
    out[8] = h.key.lod;
    out[9] = h.key.x;
    out[10] = h.key.y;
    out[11] = h.water;
    out[12] = h.inside;
    return CT_OK;
}
