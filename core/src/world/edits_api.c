/* edits_api.c - the public edit calls: a world with an edit set applied
 * (sharing its base's frozen field), its ID, bytes and edited keys, a
 * path's water crossings, and the edit set's section of a world snapshot.
 * What an edit reads from the ground (a pad's default height, a path's
 * profile) is sampled here from the base world, never from the edited one,
 * so an edit's shape does not depend on the edits before it. */
#include "world/ct_world.h"
#include "surface/ct_surface.h"

#include <stdlib.h>
#include <string.h>

/* Snapshot section after the base world: magic, u32 version, u32 length of
 * the edit set bytes, the bytes, u64 FNV-1a 64 of every section byte
 * before it. */
#define CT__EDSEC_HEAD 16u
static const char ct__edsec_magic[8] = {'C', 'T', 'W', 'E', 'D', 'I', 'T', 'S'};

static const ct_world *ct__root(const ct_world *w)
{
    return w->base ? w->base : w;
}

/* What the edits read from the base ground: pad heights, path profiles,
 * and the bound on what they raise. */
static void ct__edits_ground(const ct_world *base, ct__edits *E)
{
    uint32_t k, j;
    E->top_abs_m = -HUGE_VAL;
    E->raise_m = 0.0;
    for (k = 0; k < E->count; k++) {
        ct__edit *e = &E->e[k];
        ct_sample s;
        if (e->kind == CT_EDIT_FLATTEN) {
            if (!e->has_height) {
                ct__sample_dir(&base->field, e->c, 0, &s);
                e->target_m = s.height_m;
            }
            if (e->target_m + CT__EDITS_FREEBOARD_M > E->top_abs_m) E->top_abs_m = e->target_m + CT__EDITS_FREEBOARD_M;
        } else if (e->kind == CT_EDIT_CRATER) {
            E->raise_m += e->b;
        } else if (e->kind == CT_EDIT_BRUSH) {
            if (e->a > 0.0) E->raise_m += e->a;
        } else {
            for (j = 0; j < e->st_count; j++) {
                double dir[3];
                ct__edit_station_dir(E, e, j, dir);
                ct__sample_dir(&base->field, dir, 0, &s);
                E->st_h[e->st_first + j] = s.height_m;
                E->st_wet[e->st_first + j] = (uint8_t)(s.has_water != 0);
            }
            ct__edit_path_profile(E, e);
        }
    }
}

ct_result ct_world_with_edits(const ct_world *base, const uint8_t *bytes, size_t len, ct_world **out, char *err,
                              size_t errlen)
{
    ct__edits *E = NULL;
    ct_world *w;
    ct_result r;
    if (out) *out = NULL;
    if (!base || !out || (len && !bytes)) return ct__fail(err, errlen, CT_ERR_NULL, "world, output or edit bytes are NULL");
    base = ct__root(base);
    if (len) {
        r = ct__edits_decode(bytes, len, base->field.cfg.radius_m, &E, err, errlen);
        if (r) return r;
        if (E->count == 0) {
            ct__edits_free(E);
            E = NULL;
        }
    }
    if (E) {
        ct__edits_ground(base, E);
        r = ct__edits_index(E, err, errlen);
        if (r) {
            ct__edits_free(E);
            return r;
        }
    }
    w = (ct_world *)malloc(sizeof *w);
    if (!w) {
        ct__edits_free(E);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory applying the edit set");
    }
    *w = *base;   /* the field's tables are shared, never freed through w */
    w->base = base;
    w->edits = E;
    w->owned_base = NULL;
    w->field.edits = E;
    *out = w;
    return CT_OK;
}

int ct__world_free_edits(ct_world *world)
{
    if (!world->base) return 0;
    ct__edits_free(world->edits);
    ct_world_free(world->owned_base);
    free(world);
    return 1;
}

uint64_t ct_world_edit_set_id(const ct_world *world)
{
    return world && world->edits ? world->edits->id : 0u;
}

size_t ct_world_edit_bytes(const ct_world *world, const uint8_t **bytes)
{
    if (bytes) *bytes = world && world->edits ? world->edits->bytes : NULL;
    return world && world->edits ? world->edits->byte_count : 0u;
}

/* ------------------------------------------------------------ edited keys */
typedef struct ct__keyset {
    uint64_t *k;
    size_t n, cap;
    int failed;
} ct__keyset;

static int ct__keyset_add(void *ctx, int face, uint32_t x, uint32_t y)
{
    ct__keyset *s = (ct__keyset *)ctx;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        uint64_t *k = (uint64_t *)realloc(s->k, cap * sizeof *k);
        if (!k) { s->failed = 1; return 1; }
        s->k = k;
        s->cap = cap;
    }
    /* sorted by face, then y, then x */
    s->k[s->n++] = (uint64_t)face << 48 | (uint64_t)y << 24 | x;
    return 0;
}

static int ct__u64_cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

ct_result ct_world_edited_keys(const ct_world *world, int lod, ct_key *keys, size_t cap, size_t *count,
                               char *err, size_t errlen)
{
    ct__keyset s;
    size_t i, m = 0;
    uint32_t k;
    if (!world || !count || (cap && !keys)) return ct__fail(err, errlen, CT_ERR_NULL, "world, keys or count is NULL");
    *count = 0;
    if (lod < 0 || (uint32_t)lod > world->field.cfg.surface_lod)
        return ct__fail(err, errlen, CT_ERR_LOD, "LOD %d is outside 0..%lu (the world's surface_lod)", lod,
                        (unsigned long)world->field.cfg.surface_lod);
    if (!world->edits) return CT_OK;
    memset(&s, 0, sizeof s);
    for (k = 0; k < world->edits->count && !s.failed; k++)
        ct__edit_keys(world->edits, &world->edits->e[k], lod, ct__keyset_add, &s);
    if (s.failed) {
        free(s.k);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory listing edited keys");
    }
    qsort(s.k, s.n, sizeof *s.k, ct__u64_cmp);
    for (i = 0; i < s.n; i++) {
        if (m && s.k[i] == s.k[m - 1]) continue;
        s.k[m++] = s.k[i];
    }
    for (i = 0; i < m && i < cap; i++)
        keys[i] = ct_key_make((int)(s.k[i] >> 48), lod, (uint32_t)(s.k[i] & 0xffffffu),
                              (uint32_t)((s.k[i] >> 24) & 0xffffffu));
    *count = m;
    free(s.k);
    return CT_OK;
}

/* ---------------------------------------------------------- water crossings */
ct_result ct_world_path_crossings(const ct_world *world, size_t index, ct_path_crossing *out, size_t cap,
                                  size_t *count, char *err, size_t errlen)
{
    const ct__edits *E;
    const ct__edit *e;
    size_t n = 0;
    uint32_t j;
    int open = 0;
    ct_path_crossing cur;
    if (!world || !count || (cap && !out)) return ct__fail(err, errlen, CT_ERR_NULL, "world, output or count is NULL");
    *count = 0;
    E = world->edits;
    if (!E || index >= E->count)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "edit %lu does not exist (the set has %lu edits)",
                        (unsigned long)index, (unsigned long)(E ? E->count : 0u));
    e = &E->e[index];
    if (e->kind != CT_EDIT_PATH)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "edit %lu is not a path", (unsigned long)index);
    memset(&cur, 0, sizeof cur);
    /* The stations again, on the base world: wet runs are the crossings. */
    for (j = 0; j <= e->st_count; j++) {
        int wet = j < e->st_count && E->st_wet[e->st_first + j];
        ct_sample s;
        double dir[3];
        if (wet) {
            ct__edit_station_dir(E, e, j, dir);
            ct__sample_dir(&ct__root(world)->field, dir, 0, &s);
            if (!open) {
                open = 1;
                cur.from_m = E->st_s[e->st_first + j];
                memcpy(cur.from_dir, dir, sizeof dir);
                cur.water_m = s.water_m;
                cur.water_body = s.water_body;
            }
            if (s.water_m > cur.water_m) cur.water_m = s.water_m;
            cur.to_m = E->st_s[e->st_first + j];
            memcpy(cur.to_dir, dir, sizeof dir);
        } else if (open) {
            if (n < cap) out[n] = cur;
            n++;
            open = 0;
        }
    }
    *count = n;
    return CT_OK;
}

/* --------------------------------------------------------- snapshot section */
size_t ct__edits_section_size(const ct_world *world)
{
    return world && world->edits ? CT__EDSEC_HEAD + world->edits->byte_count + 8u : 0u;
}

void ct__edits_section_write(const ct_world *world, uint8_t *buf)
{
    size_t L = world->edits->byte_count;
    memcpy(buf, ct__edsec_magic, 8);
    ct__put_u32(buf + 8, 1u);
    ct__put_u32(buf + 12, (uint32_t)L);
    memcpy(buf + CT__EDSEC_HEAD, world->edits->bytes, L);
    ct__put_u64(buf + CT__EDSEC_HEAD + L, ct_fnv1a64(buf, CT__EDSEC_HEAD + L, CT_FNV1A64_INIT));
}

ct_result ct__edits_section_read(ct_world **io, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
    size_t L;
    ct_world *w;
    char inner[200];
    if (len < CT__EDSEC_HEAD + 8u || memcmp(buf, ct__edsec_magic, 8) != 0)
        return ct__fail(err, errlen, CT_ERR_FORMAT, "world snapshot has %lu bytes after the world that are not an "
                        "edit set section", (unsigned long)len);
    if (ct__get_u32(buf + 8) != 1u)
        return ct__fail(err, errlen, CT_ERR_VERSION, "world snapshot edit section version %lu is not supported",
                        (unsigned long)ct__get_u32(buf + 8));
    L = ct__get_u32(buf + 12);
    if (len != CT__EDSEC_HEAD + L + 8u)
        return ct__fail(err, errlen, len < CT__EDSEC_HEAD + L + 8u ? CT_ERR_TRUNCATED : CT_ERR_FORMAT,
                        "world snapshot edit section has %lu bytes; expected %lu", (unsigned long)len,
                        (unsigned long)(CT__EDSEC_HEAD + L + 8u));
    if (ct_fnv1a64(buf, CT__EDSEC_HEAD + L, CT_FNV1A64_INIT) != ct__get_u64(buf + CT__EDSEC_HEAD + L))
        return ct__fail(err, errlen, CT_ERR_CHECKSUM, "world snapshot edit section checksum mismatch: the file is corrupt");
    if (ct_world_with_edits(*io, buf + CT__EDSEC_HEAD, L, &w, inner, sizeof inner) != CT_OK)
        return ct__fail(err, errlen, CT_ERR_FORMAT, "world snapshot edit set: %s", inner);
    w->owned_base = *io;
    *io = w;
    return CT_OK;
}
