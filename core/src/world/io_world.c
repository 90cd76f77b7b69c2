/* io_world.c - CTWORLD2 world snapshots and the native file helpers.
 *
 * A snapshot keeps only what the generation ID covers: the knobs and the
 * solved field. Everything else (graph tables, region weights, shore
 * distances, statistics, sampling tables) is rebuilt on load by
 * ct__world_derive, the same function the build ends with, so no stored byte
 * can change a sample without changing the generation. The build log (pass
 * and collision counters) reads 0 after a load. Layout, little endian:
 *    "CTWORLD2"  u32 format version (3)  u32 algorithm version
 *    u32 knob count, then every knob in ct_knobs.def order (u32 or f64)
 *    u32 n, u32 vertex_count
 *    f64 height_v[V], f64 water_level_v[V], i32 body_v[V], f32 mask_v[V]
 *    u64 generation
 *    u64 FNV-1a 64 of every byte before it
 * An edited world appends its edit set as a section of its own (magic
 * "CTWEDITS", edits_api.c) after those bytes; an unedited world's snapshot
 * ends at the checksum, as it always did.
 * Format 2 also stored region weights, shore distances and statistics that
 * the reader trusted; it is refused. */
#include "world/ct_world.h"
#include "surface/ct_surface.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CT__WORLD_FORMAT 3u
#define CT__WORLD_HEAD 20u         /* magic, format, algorithm, knob count */
#define CT__WORLD_PER_VERTEX 24u   /* 8 + 8 + 4 + 4 */
static const char ct__world_magic[8] = {'C', 'T', 'W', 'O', 'R', 'L', 'D', '2'};

static size_t ct__knob_bytes(void)
{
    size_t k, total = 0;
    for (k = 0; k < ct_knob_count(); k++)
        total += ct_knob_get(k)->kind == CT_KNOB_UINT ? 4u : 8u;
    return total;
}

static size_t ct__snapshot_bytes(uint32_t vertex_count)
{
    return CT__WORLD_HEAD + ct__knob_bytes() + 8u + (size_t)CT__WORLD_PER_VERTEX * vertex_count + 16u;
}

size_t ct_world_snapshot_size(const ct_world *world)
{
    return world ? ct__snapshot_bytes(world->field.vertex_count) + ct__edits_section_size(world) : 0;
}

ct_result ct_world_snapshot_write(const ct_world *world, uint8_t *buf, size_t buflen,
                                  char *err, size_t errlen)
{
    size_t need, pos, k;
    uint32_t V, c;
    if (!world || !buf) return ct__fail(err, errlen, CT_ERR_NULL, "world or buffer is NULL");
    need = ct_world_snapshot_size(world);
    if (buflen < need)
        return ct__fail(err, errlen, CT_ERR_BUFFER, "buffer holds %lu bytes; the snapshot needs %lu",
                        (unsigned long)buflen, (unsigned long)need);
    V = world->field.vertex_count;
    memcpy(buf, ct__world_magic, 8);
    ct__put_u32(buf + 8, CT__WORLD_FORMAT);
    ct__put_u32(buf + 12, CT_ALGORITHM_VERSION);
    ct__put_u32(buf + 16, (uint32_t)ct_knob_count());
    pos = CT__WORLD_HEAD;
    for (k = 0; k < ct_knob_count(); k++) {
        const ct_knob_info *kn = ct_knob_get(k);
        double v = ct_config_get(&world->field.cfg, kn);
        if (kn->kind == CT_KNOB_UINT) { ct__put_u32(buf + pos, (uint32_t)v); pos += 4; }
        else { ct__put_f64(buf + pos, v); pos += 8; }
    }
    ct__put_u32(buf + pos, world->field.n);
    ct__put_u32(buf + pos + 4, V);
    pos += 8;
    for (c = 0; c < V; c++, pos += 8) ct__put_f64(buf + pos, world->field.height_v[c]);
    for (c = 0; c < V; c++, pos += 8) ct__put_f64(buf + pos, world->field.water_level_v[c]);
    for (c = 0; c < V; c++, pos += 4) ct__put_u32(buf + pos, (uint32_t)world->field.body_v[c]);
    for (c = 0; c < V; c++, pos += 4) ct__put_f32(buf + pos, world->field.mask_v[c]);
    ct__put_u64(buf + pos, world->field.generation);
    pos += 8;
    ct__put_u64(buf + pos, ct_fnv1a64(buf, pos, CT_FNV1A64_INIT));
    if (world->edits) ct__edits_section_write(world, buf + pos + 8);
    return CT_OK;
}

/* Magic and versions: the first things a reader checks, with a reason. */
static ct_result ct__check_head(const uint8_t *buf, size_t len, char *err, size_t errlen)
{
    uint32_t format, algo;
    if (len < 8 || memcmp(buf, "CTWORLD", 7) != 0) {
        if (len < 8 && memcmp(buf, "CTWORLD", len < 7 ? len : 7) == 0)
            return ct__fail(err, errlen, CT_ERR_TRUNCATED, "world snapshot is truncated (%lu bytes)",
                            (unsigned long)len);
        return ct__fail(err, errlen, CT_ERR_FORMAT, "not a CTWORLD2 world snapshot (bad magic)");
    }
    if (buf[7] == '1')
        return ct__fail(err, errlen, CT_ERR_VERSION,
                        "CTWORLD1 (version 1) snapshots are no longer supported: regenerate the world from its config");
    if (buf[7] != '2')
        return ct__fail(err, errlen, CT_ERR_VERSION, "unsupported world snapshot version '%c' (expected CTWORLD2)",
                        (buf[7] >= 32 && buf[7] < 127) ? buf[7] : '?');
    if (len < CT__WORLD_HEAD)
        return ct__fail(err, errlen, CT_ERR_TRUNCATED, "world snapshot header is truncated (%lu bytes)",
                        (unsigned long)len);
    format = ct__get_u32(buf + 8);
    if (format == 1u || format == 2u)
        return ct__fail(err, errlen, CT_ERR_VERSION,
                        "world snapshot format version %lu is no longer supported (it stored unverified "
                        "tables): regenerate the world from its config", (unsigned long)format);
    if (format != CT__WORLD_FORMAT)
        return ct__fail(err, errlen, CT_ERR_VERSION, "world snapshot format version %lu is not supported (expected %u)",
                        (unsigned long)format, CT__WORLD_FORMAT);
    algo = ct__get_u32(buf + 12);
    if (algo != CT_ALGORITHM_VERSION)
        return ct__fail(err, errlen, CT_ERR_VERSION,
                        "world snapshot has algorithm version %lu, this build is %u: regenerate the world from its config",
                        (unsigned long)algo, CT_ALGORITHM_VERSION);
    if (ct__get_u32(buf + 16) != (uint32_t)ct_knob_count())
        return ct__fail(err, errlen, CT_ERR_VERSION,
                        "world snapshot has %lu knobs, this build has %lu: regenerate the world from its config",
                        (unsigned long)ct__get_u32(buf + 16), (unsigned long)ct_knob_count());
    return CT_OK;
}

static int ct__all_finite_f64(const double *a, size_t count)
{
    size_t k;
    for (k = 0; k < count; k++)
        if (!ct__is_finite(a[k])) return 0;
    return 1;
}

static int ct__all_finite_f32(const float *a, size_t count)
{
    size_t k;
    for (k = 0; k < count; k++)
        if (!ct__is_finite((double)a[k])) return 0;
    return 1;
}

/* The knob block at pos into cfg, in table order; returns the position after it. */
static size_t ct__snapshot_knobs(const uint8_t *buf, size_t pos, ct_config *cfg)
{
    size_t k;
    ct_config_default(cfg);
    for (k = 0; k < ct_knob_count(); k++) {
        const ct_knob_info *kn = ct_knob_get(k);
        if (kn->kind == CT_KNOB_UINT) {
            uint32_t u = ct__get_u32(buf + pos);
            memcpy((char *)cfg + kn->offset, &u, sizeof u);
            pos += 4;
        } else {
            double d = ct__get_f64(buf + pos);
            memcpy((char *)cfg + kn->offset, &d, sizeof d);
            pos += 8;
        }
    }
    return pos;
}

/* The graph size at pos, checked before any field is read: sizes first,
 * bounded by macro_resolution's range before any size is computed (size_t is
 * 32 bits in WebAssembly), then the checksum, then meaning, so a flipped
 * byte anywhere is reported as corruption. */
static ct_result ct__snapshot_check(const uint8_t *buf, size_t len, size_t pos, const ct_config *cfg,
                                    uint32_t *n_out, uint32_t *V_out, char *err, size_t errlen)
{
    uint32_t n = ct__get_u32(buf + pos), V = ct__get_u32(buf + pos + 4);
    size_t expect;
    char inner[200];
    ct_result r;
    if (n < 1u || (double)n > ct_knob_find("macro_resolution")->max || V != 6u * n * n + 2u) {
        size_t shortest = ct__snapshot_bytes(6u * 8u * 8u + 2u);
        if (len < shortest)
            return ct__fail(err, errlen, CT_ERR_TRUNCATED, "world snapshot is truncated (%lu bytes)",
                            (unsigned long)len);
        return ct__fail(err, errlen, CT_ERR_FORMAT,
                        "world snapshot has an impossible graph size (n=%lu, %lu vertices)",
                        (unsigned long)n, (unsigned long)V);
    }
    expect = ct__snapshot_bytes(V);
    if (len < expect)
        return ct__fail(err, errlen, CT_ERR_TRUNCATED, "world snapshot is truncated: %lu of %lu bytes",
                        (unsigned long)len, (unsigned long)expect);
    if (len > expect && (len - expect < 8u || memcmp(buf + expect, "CTWEDITS", 8) != 0))
        return ct__fail(err, errlen, CT_ERR_FORMAT, "world snapshot has %lu bytes; expected %lu",
                        (unsigned long)len, (unsigned long)expect);
    if (ct_fnv1a64(buf, expect - 8u, CT_FNV1A64_INIT) != ct__get_u64(buf + expect - 8u))
        return ct__fail(err, errlen, CT_ERR_CHECKSUM, "world snapshot checksum mismatch: the file is corrupt");
    r = ct_config_validate(cfg, inner, sizeof inner);
    if (r) return ct__fail(err, errlen, CT_ERR_CONFIG, "world snapshot config is invalid: %s", inner);
    if (n != cfg->macro_resolution)
        return ct__fail(err, errlen, CT_ERR_FORMAT, "world snapshot graph n=%lu disagrees with macro_resolution=%lu",
                        (unsigned long)n, (unsigned long)cfg->macro_resolution);
    *n_out = n;
    *V_out = V;
    return CT_OK;
}

/* The covered field at pos (heights, water levels, bodies, mask), then the
 * generation ID it must reproduce. */
static ct_result ct__snapshot_field(ct_world *w, const uint8_t *buf, size_t pos, char *err, size_t errlen)
{
    uint32_t V = w->field.vertex_count, c;
    w->field.height_v = (double *)malloc(sizeof(double) * V);
    w->field.water_level_v = (double *)malloc(sizeof(double) * V);
    w->field.body_v = (int32_t *)malloc(sizeof(int32_t) * V);
    w->field.mask_v = (float *)malloc(sizeof(float) * V);
    if (!w->field.height_v || !w->field.water_level_v || !w->field.body_v || !w->field.mask_v)
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory loading the world");
    for (c = 0; c < V; c++, pos += 8) w->field.height_v[c] = ct__get_f64(buf + pos);
    for (c = 0; c < V; c++, pos += 8) w->field.water_level_v[c] = ct__get_f64(buf + pos);
    for (c = 0; c < V; c++, pos += 4) w->field.body_v[c] = (int32_t)ct__get_u32(buf + pos);
    for (c = 0; c < V; c++, pos += 4) w->field.mask_v[c] = ct__get_f32(buf + pos);
    if (!ct__all_finite_f64(w->field.height_v, V) || !ct__all_finite_f64(w->field.water_level_v, V) ||
        !ct__all_finite_f32(w->field.mask_v, V))
        return ct__fail(err, errlen, CT_ERR_FORMAT, "world snapshot holds a NaN or infinite value");
    ct_palette_default(&w->palette);
    /* The ID first: derive only ever sees data the ID vouches for. */
    w->field.generation = ct__world_generation(w);
    if (w->field.generation != ct__get_u64(buf + pos))
        return ct__fail(err, errlen, CT_ERR_CHECKSUM,
                        "world snapshot generation does not match its contents: the file is corrupt");
    return CT_OK;
}

ct_result ct_world_snapshot_read(const uint8_t *buf, size_t len, ct_world **out,
                                 char *err, size_t errlen)
{
    ct_config cfg;
    ct_world *w = NULL;
    size_t pos;
    uint32_t n = 0, V = 0;
    ct_result r;
    char inner[200];

    if (!buf || !out) return ct__fail(err, errlen, CT_ERR_NULL, "buffer or output is NULL");
    *out = NULL;
    r = ct__check_head(buf, len, err, errlen);
    if (r) return r;
    pos = CT__WORLD_HEAD;
    if (len < pos + ct__knob_bytes() + 8u)
        return ct__fail(err, errlen, CT_ERR_TRUNCATED, "world snapshot is truncated (%lu bytes)",
                        (unsigned long)len);
    pos = ct__snapshot_knobs(buf, pos, &cfg);
    r = ct__snapshot_check(buf, len, pos, &cfg, &n, &V, err, errlen);
    if (r) return r;
    pos += 8;

    w = (ct_world *)calloc(1, sizeof *w);
    if (!w) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory loading the world");
    w->field.cfg = cfg;
    r = ct__field_alloc_graph(&w->field, n, err, errlen);
    if (r == CT_OK) r = ct__snapshot_field(w, buf, pos, err, errlen);
    if (r) goto fail;
    r = ct__world_derive(w, NULL, inner, sizeof inner);
    if (r) {
        r = ct__fail(err, errlen, r, "world snapshot: %s", inner);
        goto fail;
    }
    if (len > ct__snapshot_bytes(V)) {
        r = ct__edits_section_read(&w, buf + ct__snapshot_bytes(V), len - ct__snapshot_bytes(V), err, errlen);
        if (r) goto fail;
    }
    *out = w;
    return CT_OK;
fail:
    ct_world_free(w);
    return r;
}

ct_result ct_file_write_atomic(const char *path, const void *data, size_t len,
                               char *err, size_t errlen)
{
    char *tmp;
    size_t plen;
    FILE *f;
    int ok;
    if (!path || (!data && len)) return ct__fail(err, errlen, CT_ERR_NULL, "path or data is NULL");
    plen = strlen(path);
    tmp = (char *)malloc(plen + 8u);
    if (!tmp) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory");
    /* Write beside the target, then rename over it: readers see the old
     * file or the whole new one, and a failure leaves neither half. */
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp~", 6);
    f = fopen(tmp, "wb");
    if (!f) {
        ct_result r = ct__fail(err, errlen, CT_ERR_IO, "cannot create '%s'", tmp);
        free(tmp);
        return r;
    }
    ok = (len == 0 || fwrite(data, 1, len, f) == len);
    ok = (fflush(f) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    if (!ok) {
        remove(tmp);
        free(tmp);
        return ct__fail(err, errlen, CT_ERR_IO, "writing '%s' failed", path);
    }
    if (rename(tmp, path) != 0) {
        remove(tmp);
        free(tmp);
        return ct__fail(err, errlen, CT_ERR_IO, "cannot replace '%s' (is it a directory?)", path);
    }
    free(tmp);
    return CT_OK;
}

ct_result ct_world_save(const ct_world *world, const char *path, char *err, size_t errlen)
{
    size_t size;
    uint8_t *buf;
    ct_result r;
    if (!world || !path) return ct__fail(err, errlen, CT_ERR_NULL, "world or path is NULL");
    size = ct_world_snapshot_size(world);
    buf = (uint8_t *)malloc(size);
    if (!buf) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for a %lu-byte snapshot",
                              (unsigned long)size);
    r = ct_world_snapshot_write(world, buf, size, err, errlen);
    if (!r) r = ct_file_write_atomic(path, buf, size, err, errlen);
    free(buf);
    return r;
}

ct_world *ct_world_load(const char *path, char *err, size_t errlen)
{
    FILE *f;
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    ct_world *w = NULL;
    if (!path) { ct__fail(err, errlen, CT_ERR_NULL, "path is NULL"); return NULL; }
    f = fopen(path, "rb");
    if (!f) { ct__fail(err, errlen, CT_ERR_IO, "cannot open '%s'", path); return NULL; }
    /* Grow-and-read avoids fseek/ftell, which cannot size pipes. */
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t ncap = cap ? cap * 2u : 1u << 20;
            uint8_t *nb = (uint8_t *)realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory reading '%s'", path);
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        ct__fail(err, errlen, CT_ERR_IO, "reading '%s' failed", path);
        return NULL;
    }
    fclose(f);
    ct_world_snapshot_read(buf, len, &w, err, errlen);
    free(buf);
    return w;
}
