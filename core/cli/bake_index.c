/* bake_index.c - the binary index (each tile's key, length and SHA-256) and
 * manifest.json, both byte-for-byte functions of the bake (no time, no host):
 * the layout is in docs/bake.md. The manifest is written the way
 * JSON.stringify(value, null, 2) writes it, plus a newline. */
#include "bake.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t index_magic[8] = {'C', 'T', 'I', 'N', 'D', 'E', 'X', 0x01};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void bake_record_put(uint8_t *r, const bake_tile *t)
{
    memset(r, 0, BAKE_INDEX_RECORD);
    r[0] = (uint8_t)t->key.face;
    r[1] = (uint8_t)t->key.lod;
    put32(r + 4, t->key.x);
    put32(r + 8, t->key.y);
    put32(r + 12, t->bytes);
    memcpy(r + 16, t->sha, 32);
}

int bake_record_get(const uint8_t *r, bake_tile *t)
{
    char kerr[128];
    memset(t, 0, sizeof *t);
    t->key = ct_key_make(r[0], r[1], get32(r + 4), get32(r + 8));
    t->bytes = get32(r + 12);
    memcpy(t->sha, r + 16, 32);
    return r[2] || r[3] || ct_key_validate(t->key, kerr, sizeof kerr) != CT_OK;
}

uint8_t *bake_index_encode(const bake_list *l, uint64_t generation, size_t *len)
{
    size_t k;
    uint8_t *buf;
    *len = BAKE_INDEX_HEADER + l->count * BAKE_INDEX_RECORD;
    buf = (uint8_t *)calloc(1, *len);
    if (!buf) return NULL;
    memcpy(buf, index_magic, 8);
    put32(buf + 8, 1);
    put32(buf + 12, (uint32_t)l->count);
    put32(buf + 16, (uint32_t)generation);
    put32(buf + 20, (uint32_t)(generation >> 32));
    for (k = 0; k < l->count; k++) bake_record_put(buf + BAKE_INDEX_HEADER + k * BAKE_INDEX_RECORD, &l->tiles[k]);
    return buf;
}

int bake_index_decode(const uint8_t *buf, size_t len, uint64_t *generation, bake_list *out, char *err, size_t errlen)
{
    uint32_t count;
    size_t k;
    if (len < BAKE_INDEX_HEADER || memcmp(buf, index_magic, 8) != 0) { snprintf(err, errlen, "not a CTINDEX file"); return 1; }
    if (get32(buf + 8) != 1) { snprintf(err, errlen, "unsupported index version %lu", (unsigned long)get32(buf + 8)); return 1; }
    count = get32(buf + 12);
    if ((len - BAKE_INDEX_HEADER) / BAKE_INDEX_RECORD != count || (len - BAKE_INDEX_HEADER) % BAKE_INDEX_RECORD) {
        snprintf(err, errlen, "index length %lu does not hold its %lu records", (unsigned long)len, (unsigned long)count);
        return 1;
    }
    *generation = (uint64_t)get32(buf + 16) | (uint64_t)get32(buf + 20) << 32;
    for (k = 0; k < count; k++) {
        bake_tile t;
        if (bake_record_get(buf + BAKE_INDEX_HEADER + k * BAKE_INDEX_RECORD, &t)) {
            snprintf(err, errlen, "index record %lu holds a bad key", (unsigned long)k);
            return 1;
        }
        if (k > 0 && bake_tile_order(&out->tiles[out->count - 1], &t) >= 0) {
            snprintf(err, errlen, "index record %lu is out of order or repeated", (unsigned long)k);
            return 1;
        }
        if (bake_list_push(out, &t)) { snprintf(err, errlen, "out of memory"); return 1; }
    }
    return 0;
}

/* ------------------------------------------------------------- JSON text */
typedef struct text_buf { char *s; size_t len, cap; int failed; } text_buf;

static void tb_printf(text_buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (b->failed) return;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) { b->failed = 1; return; }
        if (b->s && b->len + (size_t)n < b->cap) { b->len += (size_t)n; return; }
        {
            size_t ncap = (b->cap + (size_t)n) * 2 + 256;
            char *ns = (char *)realloc(b->s, ncap);
            if (!ns) { b->failed = 1; return; }
            b->s = ns;
            b->cap = ncap;
        }
    }
}

/* A JSON string as JSON.stringify writes it. */
static void tb_string(text_buf *b, const char *s)
{
    tb_printf(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') tb_printf(b, "\\%c", c);
        else if (c == '\n') tb_printf(b, "\\n");
        else if (c == '\t') tb_printf(b, "\\t");
        else if (c == '\r') tb_printf(b, "\\r");
        else if (c < 0x20) tb_printf(b, "\\u%04x", c);
        else tb_printf(b, "%c", c);
    }
    tb_printf(b, "\"");
}

/* The shortest of %.15g..%.17g that reads back exactly (JSON.stringify's
 * round-trip digits for the numbers a bake holds). */
static void tb_number(text_buf *b, double v)
{
    char s[40];
    int p;
    if (v == (double)(long long)v && v > -9e15 && v < 9e15) { tb_printf(b, "%lld", (long long)v); return; }
    for (p = 15; p <= 17; p++) {
        snprintf(s, sizeof s, "%.*g", p, v);
        if (strtod(s, NULL) == v) break;
    }
    tb_printf(b, "%s", s);
}

/* From "counts" on: what differs between a shard's manifest and the merged one. */
static void write_tail(text_buf *b, const bake_meta *m, const bake_index_ref *refs, int nrefs)
{
    int k;
    tb_printf(b, "  \"counts\": {\n    \"tiles\": %llu,\n    \"bytes\": %llu,\n    \"perLod\": {",
              (unsigned long long)m->tiles, (unsigned long long)m->bytes);
    for (k = m->lod_lo; k <= m->lod_hi; k++)
        tb_printf(b, "%s\n      \"%d\": %llu", k > m->lod_lo ? "," : "", k, (unsigned long long)m->per_lod[k]);
    tb_printf(b, "\n    }\n  },\n  \"shards\": %d,\n  \"indices\": [", m->shards);
    for (k = 0; k < nrefs; k++)
        tb_printf(b, "%s\n    {\n      \"file\": \"%s\",\n      \"sha256\": \"%s\",\n      \"tiles\": %llu\n    }",
                  k ? "," : "", refs[k].file, refs[k].sha, (unsigned long long)refs[k].tiles);
    tb_printf(b, "%s]\n}\n", nrefs ? "\n  " : "");
}

char *bake_manifest_text(const bake_meta *m, const bake_index_ref *refs, int nrefs)
{
    text_buf b;
    char g[17];
    int k, first;
    memset(&b, 0, sizeof b);
    bake_hex64(m->generation, g);
    tb_printf(&b, "{\n  \"format\": \"cubesphere-bake\",\n  \"version\": 1,\n  \"generation\": \"%s\",\n", g);
    tb_printf(&b, "  \"planetId\": %lu,\n  \"algorithmVersion\": %lu,\n  \"surfaceLod\": %lu,\n  \"config\": ",
              (unsigned long)m->planet_id, (unsigned long)CT_ALGORITHM_VERSION, (unsigned long)m->surface_lod);
    tb_string(&b, m->config);
    tb_printf(&b, ",\n  \"world\": {\n    \"file\": \"world.ctw\",\n    \"sha256\": \"%s\",\n    \"bytes\": %llu\n  },\n",
              m->world_sha, (unsigned long long)m->world_bytes);
    tb_printf(&b, "  \"tileFormat\": \"%s\",\n  \"urlTemplate\": \"{generation}/{face}/{lod}/{x}/{y}.%s\",\n",
              bake_format_ext(m->format), bake_format_ext(m->format));
    tb_printf(&b, "  \"lods\": [\n    %d,\n    %d\n  ],\n  \"faces\": [", m->lod_lo, m->lod_hi);
    for (k = 0, first = 1; k < 6; k++)
        if (m->faces & (1u << k)) { tb_printf(&b, "%s\n    \"%s\"", first ? "" : ",", ct_face_name(k)); first = 0; }
    tb_printf(&b, "\n  ],\n  \"region\": ");
    if (!m->has_region) {
        tb_printf(&b, "null");
    } else {
        tb_printf(&b, "{\n    \"center\": [");
        for (k = 0; k < 3; k++) { tb_printf(&b, "%s\n      ", k ? "," : ""); tb_number(&b, m->region_dir[k]); }
        tb_printf(&b, "\n    ],\n    \"radiusM\": ");
        tb_number(&b, m->region_m);
        tb_printf(&b, "\n  }");
    }
    tb_printf(&b, ",\n");
    write_tail(&b, m, refs, nrefs);
    if (b.failed) { free(b.s); return NULL; }
    return b.s;
}

char *bake_manifest_merged(const char *head, size_t head_len, const bake_meta *m, const bake_index_ref *refs, int nrefs)
{
    text_buf b;
    memset(&b, 0, sizeof b);
    tb_printf(&b, "%.*s", (int)head_len, head);
    write_tail(&b, m, refs, nrefs);
    if (b.failed) { free(b.s); return NULL; }
    return b.s;
}

int bake_json_field(const char *text, const char *key, char *out, size_t outlen)
{
    char pat[80];
    const char *p;
    size_t n = 0;
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    p = strstr(text, pat);
    if (!p) return 1;
    p += strlen(pat);
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++) {
            char c = *p;
            if (c == '\\') {
                p++;
                c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'r' ? '\r' : *p;
                if (!*p) return 1;
            }
            if (n + 1 >= outlen) return 1;
            out[n++] = c;
        }
        if (*p != '"') return 1;
    } else {
        while (*p && *p != ',' && *p != '\n' && *p != '}' && *p != ']') {
            if (n + 1 >= outlen) return 1;
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    return 0;
}
