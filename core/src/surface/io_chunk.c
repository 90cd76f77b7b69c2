/* io_chunk.c - the byte forms of a chunk: the u16 height code, the header
 * and digest, .ctc files (60-byte header + 257x257 six-byte records) and
 * .u16le (the 256x256 core heights), little endian byte by byte, never
 * native structs. chunk.c calls in here, never the other way.
 *
 * .ctc header (all little endian):
 *    0  8  magic "CTCHUNK\0"
 *    8  4  u32 format version (2)
 *   12  4  i32 face          16  4  i32 lod
 *   20  4  u32 chunk x       24  4  u32 chunk y
 *   28  4  u32 planet_id     32  8  u64 generation
 *   40  8  f64 height_quantum_m (IEEE bits)
 *   48  4  u32 clipped samples
 *   52  8  u64 digest: FNV-1a 64 over the records, continued over header
 *          bytes 0..51 (every field above, in file order)
 * then records (height u16, water u16, biome u8, palette u8), row = local y.
 * Version 1's digest skipped bytes 28..51 (a flipped quantum byte rescaled
 * every height unnoticed); it is refused. The records come first in the
 * digest because `clipped` is only known once they are all generated.
 *
 * Version 3 is a chunk an edit set reaches (ct_chunk.edit_set != 0): the
 * same bytes 0..51 with version 3, then 52 u64 edit set ID, 60 u64 digest
 * (over the records, then header bytes 0..59), a 68-byte header. Every
 * other chunk stays version 2, byte for byte. */
#include "surface/ct_surface.h"

#include <math.h>
#include <string.h>

#define CT__CTC_VERSION 2u
#define CT__CTC_DIGESTED 52u   /* header bytes the digest covers */
#define CT__CTC_EDITED_VERSION 3u
#define CT__CTC_EDITED_DIGESTED 60u
static const char ct__ctc_magic[8] = {'C', 'T', 'C', 'H', 'U', 'N', 'K', '\0'};

uint16_t ct_height_encode(double height_m, double quantum_m, int *clipped)
{
    double x, code;
    int clip = 0;
    if (!ct__is_finite(height_m) || !ct__is_finite(quantum_m) || quantum_m <= 0.0) {
        if (clipped) *clipped = 1;
        return (uint16_t)CT_SEA_LEVEL_CODE;
    }
    /* Round half up: floor(x + 0.5), the same on every target. */
    x = height_m / quantum_m;
    code = floor(x + 0.5) + (double)CT_SEA_LEVEL_CODE;
    if (code < 0.0) { code = 0.0; clip = 1; }
    if (code > 65535.0) { code = 65535.0; clip = 1; }
    if (clipped) *clipped = clip;
    return (uint16_t)code;
}

double ct_height_decode(uint16_t code, double quantum_m)
{
    return ((double)code - (double)CT_SEA_LEVEL_CODE) * quantum_m;
}

void ct__put_f64(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    ct__put_u64(p, u);
}

void ct__put_f32(uint8_t *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    ct__put_u32(p, u);
}

double ct__get_f64(const uint8_t *p)
{
    uint64_t u = ct__get_u64(p);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

float ct__get_f32(const uint8_t *p)
{
    uint32_t u = ct__get_u32(p);
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Header bytes 0..51 (0..59 for an edited chunk), as written to a .ctc. */
static void ct__ctc_header_fields(const ct__chunk_fields *h, uint8_t *hdr)
{
    memcpy(hdr, ct__ctc_magic, 8);
    ct__put_u32(hdr + 8, h->edit_set ? CT__CTC_EDITED_VERSION : CT__CTC_VERSION);
    ct__put_u32(hdr + 12, (uint32_t)h->key.face);
    ct__put_u32(hdr + 16, (uint32_t)h->key.lod);
    ct__put_u32(hdr + 20, h->key.x);
    ct__put_u32(hdr + 24, h->key.y);
    ct__put_u32(hdr + 28, h->planet_id);
    ct__put_u64(hdr + 32, h->generation);
    ct__put_f64(hdr + 40, h->height_quantum_m);
    ct__put_u32(hdr + 48, h->clipped);
    if (h->edit_set) ct__put_u64(hdr + 52, h->edit_set);
}

static ct__chunk_fields ct__fields_of(const ct_chunk *chunk)
{
    ct__chunk_fields h;
    h.key = chunk->key;
    h.planet_id = chunk->planet_id;
    h.generation = chunk->generation;
    h.height_quantum_m = chunk->height_quantum_m;
    h.clipped = chunk->clipped;
    h.edit_set = chunk->edit_set;
    return h;
}

static void ct__ctc_header(const ct_chunk *chunk, uint8_t *hdr)
{
    ct__chunk_fields h = ct__fields_of(chunk);
    ct__ctc_header_fields(&h, hdr);
}

/* Header bytes (60, or 68 for an edited chunk) and digested bytes. */
static size_t ct__ctc_head_bytes(const ct_chunk *chunk)
{
    return chunk->edit_set ? CT_CTC_EDITED_HEADER_BYTES : CT_CTC_HEADER_BYTES;
}

size_t ct_chunk_ctc_size(const ct_chunk *chunk)
{
    return chunk ? ct__ctc_head_bytes(chunk) + (size_t)CT_CTC_RECORD_BYTES * CT_CHUNK_SAMPLES : 0;
}

uint64_t ct__digest_finish_fields(const ct__chunk_fields *h, uint64_t records_state)
{
    uint8_t hdr[CT_CTC_EDITED_HEADER_BYTES];
    ct__ctc_header_fields(h, hdr);
    return ct_fnv1a64(hdr, h->edit_set ? CT__CTC_EDITED_DIGESTED : CT__CTC_DIGESTED, records_state);
}

uint64_t ct__chunk_digest_finish(const ct_chunk *chunk, uint64_t records_state)
{
    ct__chunk_fields h = ct__fields_of(chunk);
    return ct__digest_finish_fields(&h, records_state);
}

void ct__records_put(const ct_chunk *chunk, uint8_t *rec)
{
    size_t k;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++, rec += CT_CTC_RECORD_BYTES) {
        ct__put_u16(rec, chunk->height[k]);
        ct__put_u16(rec + 2, chunk->water[k]);
        rec[4] = chunk->biome[k];
        rec[5] = chunk->palette[k];
    }
}

ct_result ct__records_check(const uint8_t *rec, const char *what, char *err, size_t errlen)
{
    size_t k;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++, rec += CT_CTC_RECORD_BYTES) {
        if (rec[4] >= CT_BIOME_COUNT || rec[5] >= CT_PALETTE_SIZE)
            return ct__fail(err, errlen, CT_ERR_FORMAT, "%s record %lu has biome %u / palette %u out of range",
                            what, (unsigned long)k, rec[4], rec[5]);
    }
    return CT_OK;
}

void ct__records_get(const uint8_t *rec, ct_chunk *out)
{
    size_t k;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++, rec += CT_CTC_RECORD_BYTES) {
        out->height[k] = ct__get_u16(rec);
        out->water[k] = ct__get_u16(rec + 2);
        out->biome[k] = rec[4];
        out->palette[k] = rec[5];
    }
}

ct_result ct_chunk_encode_ctc(const ct_chunk *chunk, uint8_t *buf, size_t buflen,
                              char *err, size_t errlen)
{
    size_t head;
    if (!chunk || !buf) return ct__fail(err, errlen, CT_ERR_NULL, "chunk or buffer is NULL");
    if (buflen < ct_chunk_ctc_size(chunk))
        return ct__fail(err, errlen, CT_ERR_BUFFER, "buffer holds %lu bytes; a .ctc needs %lu",
                        (unsigned long)buflen, (unsigned long)ct_chunk_ctc_size(chunk));
    head = ct__ctc_head_bytes(chunk);
    ct__ctc_header(chunk, buf);
    ct__put_u64(buf + head - 8, chunk->digest);
    ct__records_put(chunk, buf + head);
    return CT_OK;
}

ct_result ct_chunk_decode_ctc(const uint8_t *buf, size_t len, ct_chunk *out,
                              char *err, size_t errlen)
{
    ct_key key;
    uint32_t version;
    uint64_t digest, stored, edit_set = 0;
    double q;
    size_t k, head = CT_CTC_HEADER_BYTES, total = CT_CTC_FILE_BYTES;
    ct_result r;
    char inner[160];

    if (!buf || !out) return ct__fail(err, errlen, CT_ERR_NULL, "buffer or chunk is NULL");
    if (len < 8 || memcmp(buf, ct__ctc_magic, 8) != 0)
        return ct__fail(err, errlen, len < 8 ? CT_ERR_TRUNCATED : CT_ERR_FORMAT,
                        len < 8 ? "file is too short (%lu bytes) for a .ctc chunk"
                                : "not a .ctc chunk file (bad magic; %lu bytes)",
                        (unsigned long)len);
    if (len < CT_CTC_HEADER_BYTES)
        return ct__fail(err, errlen, CT_ERR_TRUNCATED, ".ctc header is truncated (%lu of %d bytes)",
                        (unsigned long)len, CT_CTC_HEADER_BYTES);
    version = ct__get_u32(buf + 8);
    if (version == 1u)
        return ct__fail(err, errlen, CT_ERR_VERSION,
                        ".ctc format version 1 is no longer supported (its digest skipped header fields): "
                        "regenerate the chunk");
    if (version != CT__CTC_VERSION && version != CT__CTC_EDITED_VERSION)
        return ct__fail(err, errlen, CT_ERR_VERSION, ".ctc format version %lu is not supported (expected %u or %u)",
                        (unsigned long)version, CT__CTC_VERSION, CT__CTC_EDITED_VERSION);
    if (version == CT__CTC_EDITED_VERSION) {
        head = CT_CTC_EDITED_HEADER_BYTES;
        total = CT_CTC_EDITED_FILE_BYTES;
    }
    if (len != total)
        return ct__fail(err, errlen, len < total ? CT_ERR_TRUNCATED : CT_ERR_FORMAT,
                        ".ctc file has %lu bytes; expected exactly %lu", (unsigned long)len, (unsigned long)total);
    if (head != CT_CTC_HEADER_BYTES) {
        edit_set = ct__get_u64(buf + 52);
        if (!edit_set) return ct__fail(err, errlen, CT_ERR_FORMAT, ".ctc version 3 header has edit set ID 0");
    }
    key.face = (int32_t)ct__get_u32(buf + 12);
    key.lod = (int32_t)ct__get_u32(buf + 16);
    key.x = ct__get_u32(buf + 20);
    key.y = ct__get_u32(buf + 24);
    r = ct_key_validate(key, inner, sizeof inner);
    if (r) return ct__fail(err, errlen, CT_ERR_FORMAT, ".ctc header has an invalid key: %s", inner);
    q = ct__get_f64(buf + 40);
    if (!ct__is_finite(q) || q <= 0.0)
        return ct__fail(err, errlen, CT_ERR_FORMAT, ".ctc header has an invalid height quantum");
    stored = ct__get_u64(buf + head - 8);
    digest = ct_fnv1a64(buf + head, total - head, CT_FNV1A64_INIT);
    digest = ct_fnv1a64(buf, head - 8, digest);
    if (digest != stored)
        return ct__fail(err, errlen, CT_ERR_CHECKSUM, ".ctc digest mismatch: the chunk file is corrupt");
    r = ct__records_check(buf + head, ".ctc", err, errlen);
    if (r) return r;
    out->key = key;
    out->planet_id = ct__get_u32(buf + 28);
    out->generation = ct__get_u64(buf + 32);
    out->height_quantum_m = q;
    out->clipped = ct__get_u32(buf + 48);
    out->digest = stored;
    out->edit_set = edit_set;
    ct__records_get(buf + head, out);
    for (k = 0; k < CT_CHUNK_SAMPLES; k++)   /* files hold the quantised heights */
        out->height_m[k] = (float)ct_height_decode(out->height[k], q);
    return CT_OK;
}

ct_result ct_chunk_encode_u16le(const ct_chunk *chunk, uint8_t *buf, size_t buflen,
                                char *err, size_t errlen)
{
    int i, j;
    if (!chunk || !buf) return ct__fail(err, errlen, CT_ERR_NULL, "chunk or buffer is NULL");
    if (buflen < CT_U16LE_FILE_BYTES)
        return ct__fail(err, errlen, CT_ERR_BUFFER, "buffer holds %lu bytes; a .u16le needs %lu",
                        (unsigned long)buflen, (unsigned long)CT_U16LE_FILE_BYTES);
    for (j = 0; j < CT_CHUNK_CORE; j++)
        for (i = 0; i < CT_CHUNK_CORE; i++)
            ct__put_u16(buf + 2 * ((size_t)j * CT_CHUNK_CORE + (size_t)i),
                        chunk->height[(size_t)j * CT_CHUNK_EDGE + (size_t)i]);
    return CT_OK;
}
