/* io_tile.c - the .ctt tile: a chunk as a baked file, float heights
 * included. A .ctc carries 16-bit codes only (half a quantum off), while
 * meshes, colliders and ground queries read ct_chunk.height_m, so a tile
 * served in place of a generated chunk must carry those floats to give the
 * same surface bit for bit.
 *
 * Header (little endian):
 *    0  8  magic "CTTILE" 0x00 0x01
 *    8  4  u32 format version (1)     12  4  u32 header bytes (72)
 *   16  8  u64 generation             24  8  u64 chunk digest
 *   32  8  u64 edit set ID (0: the chunk of an unedited world)
 *   40  4  u32 planet_id
 *   44  1  u8 face   45  1  u8 lod    46  2  u16 reserved (0)
 *   48  4  u32 chunk x                52  4  u32 chunk y
 *   56  8  f64 height_quantum_m       64  4  u32 clipped samples
 *   68  4  u32 float checksum: FNV-1a 32 over the floats as u32 words
 * then the .ctc records, then 257x257 float32 height_m, row = local y.
 *
 * The digest is the chunk's own (records, then the .ctc header fields, the
 * edit set ID among them for an edited chunk), so a
 * tile vouches for the same bytes a .ctc of that chunk does; the floats are
 * tied to it by requiring each to round to its record's code, and the float
 * checksum catches a flip below that half quantum. Integrity
 * against a hostile host is the bake index's SHA-256, not this digest. */
#include "surface/ct_surface.h"

#include <math.h>
#include <string.h>

#define CT__TILE_VERSION 1u
#define CT__TILE_RECORDS (CT_TILE_HEADER_BYTES)
#define CT__TILE_FLOATS (CT_TILE_HEADER_BYTES + CT_CTC_RECORD_BYTES * CT_CHUNK_SAMPLES)
static const uint8_t ct__tile_magic[8] = {'C', 'T', 'T', 'I', 'L', 'E', 0x00, 0x01};

/* FNV-1a over the float heights as 32-bit words: each step is a bijection
 * of the state for a given word, so a change in any one height always
 * changes the sum, at a quarter of the byte-wise cost (tiles are decoded
 * on every streamed request). */
static uint32_t ct__tile_float_sum(const uint8_t *buf)
{
    const uint8_t *f = buf + CT__TILE_FLOATS;
    uint32_t h = 2166136261u;
    size_t k;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++, f += 4) h = (h ^ ct__get_u32(f)) * 16777619u;
    return h;
}

ct_result ct_chunk_encode_tile(const ct_chunk *chunk, uint8_t *buf, size_t buflen,
                               char *err, size_t errlen)
{
    size_t k;
    uint8_t *f;
    if (!chunk || !buf) return ct__fail(err, errlen, CT_ERR_NULL, "chunk or buffer is NULL");
    if (buflen < CT_TILE_FILE_BYTES)
        return ct__fail(err, errlen, CT_ERR_BUFFER, "buffer holds %lu bytes; a .ctt tile needs %lu",
                        (unsigned long)buflen, (unsigned long)CT_TILE_FILE_BYTES);
    memset(buf, 0, CT_TILE_HEADER_BYTES);
    memcpy(buf, ct__tile_magic, 8);
    ct__put_u32(buf + 8, CT__TILE_VERSION);
    ct__put_u32(buf + 12, CT_TILE_HEADER_BYTES);
    ct__put_u64(buf + 16, chunk->generation);
    ct__put_u64(buf + 24, chunk->digest);
    ct__put_u64(buf + 32, chunk->edit_set);
    ct__put_u32(buf + 40, chunk->planet_id);
    buf[44] = (uint8_t)chunk->key.face;
    buf[45] = (uint8_t)chunk->key.lod;
    ct__put_u32(buf + 48, chunk->key.x);
    ct__put_u32(buf + 52, chunk->key.y);
    ct__put_f64(buf + 56, chunk->height_quantum_m);
    ct__put_u32(buf + 64, chunk->clipped);
    ct__records_put(chunk, buf + CT__TILE_RECORDS);
    f = buf + CT__TILE_FLOATS;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++, f += 4) ct__put_f32(f, chunk->height_m[k]);
    ct__put_u32(buf + 68, ct__tile_float_sum(buf));
    return CT_OK;
}

/* A float height belongs to its code when it lies within half a quantum of
 * the code's height, widened by float32 rounding (the code was made from the
 * double, the float is that double rounded). Clamped codes hold any height
 * beyond their end of the range. */
static int ct__tile_height_fits(float h, uint16_t code, double q)
{
    double d = (double)h - ct_height_decode(code, q);
    double slack = 0.5 * q + fabs((double)h) * 2.4e-7 + 1e-9;
    if (!ct__is_finite((double)h)) return 0;
    if (code == 0u && d < 0.0) return 1;
    if (code == 65535u && d > 0.0) return 1;
    return fabs(d) <= slack;
}

ct_result ct_chunk_decode_tile(const uint8_t *buf, size_t len, ct_chunk *out,
                               char *err, size_t errlen)
{
    ct_key key;
    uint32_t version, header;
    ct__chunk_fields h;
    uint64_t state;
    uint32_t fsum;
    double q;
    size_t k, bad_rec, bad_fit;
    const uint8_t *f, *rec;
    ct_result r;
    char inner[160];

    if (!buf || !out) return ct__fail(err, errlen, CT_ERR_NULL, "buffer or chunk is NULL");
    if (len < 8 || memcmp(buf, ct__tile_magic, 8) != 0)
        return ct__fail(err, errlen, len < 8 ? CT_ERR_TRUNCATED : CT_ERR_FORMAT,
                        len < 8 ? "file is too short (%lu bytes) for a .ctt tile"
                                : "not a .ctt tile (bad magic; %lu bytes)", (unsigned long)len);
    if (len < CT_TILE_HEADER_BYTES)
        return ct__fail(err, errlen, CT_ERR_TRUNCATED, ".ctt header is truncated (%lu of %d bytes)",
                        (unsigned long)len, CT_TILE_HEADER_BYTES);
    version = ct__get_u32(buf + 8);
    if (version != CT__TILE_VERSION)
        return ct__fail(err, errlen, CT_ERR_VERSION, ".ctt format version %lu is not supported (expected %u)",
                        (unsigned long)version, CT__TILE_VERSION);
    header = ct__get_u32(buf + 12);
    if (header != CT_TILE_HEADER_BYTES)
        return ct__fail(err, errlen, CT_ERR_FORMAT, ".ctt header size is %lu; expected %d",
                        (unsigned long)header, CT_TILE_HEADER_BYTES);
    if (len != CT_TILE_FILE_BYTES)
        return ct__fail(err, errlen, len < CT_TILE_FILE_BYTES ? CT_ERR_TRUNCATED : CT_ERR_FORMAT,
                        ".ctt tile has %lu bytes; expected exactly %lu", (unsigned long)len,
                        (unsigned long)CT_TILE_FILE_BYTES);
    if (ct__get_u16(buf + 46) != 0u)
        return ct__fail(err, errlen, CT_ERR_FORMAT, ".ctt header has non-zero reserved bytes");
    key.face = (int32_t)buf[44];
    key.lod = (int32_t)buf[45];
    key.x = ct__get_u32(buf + 48);
    key.y = ct__get_u32(buf + 52);
    r = ct_key_validate(key, inner, sizeof inner);
    if (r) return ct__fail(err, errlen, CT_ERR_FORMAT, ".ctt header has an invalid key: %s", inner);
    q = ct__get_f64(buf + 56);
    if (!ct__is_finite(q) || q <= 0.0)
        return ct__fail(err, errlen, CT_ERR_FORMAT, ".ctt header has an invalid height quantum");
    /* One pass makes every check over the samples: the records' FNV-1a
     * digest is a chain of dependent multiplies, and the range, float
     * checksum and rounding checks run in its shadow instead of in three
     * more passes. The first failure of each kind is kept and reported in
     * the order of the checks: records, digest, float checksum, rounding. */
    rec = buf + CT__TILE_RECORDS;
    f = buf + CT__TILE_FLOATS;
    state = CT_FNV1A64_INIT;
    fsum = 2166136261u;
    bad_rec = bad_fit = CT_CHUNK_SAMPLES;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++, f += 4, rec += CT_CTC_RECORD_BYTES) {
        uint32_t word = ct__get_u32(f);
        int b;
        for (b = 0; b < CT_CTC_RECORD_BYTES; b++) {
            state ^= rec[b];
            state *= 0x100000001b3ull;
        }
        fsum = (fsum ^ word) * 16777619u;
        if ((rec[4] >= CT_BIOME_COUNT || rec[5] >= CT_PALETTE_SIZE) && bad_rec == CT_CHUNK_SAMPLES) bad_rec = k;
        if (bad_fit == CT_CHUNK_SAMPLES && !ct__tile_height_fits(ct__get_f32(f), ct__get_u16(rec), q)) bad_fit = k;
    }
    if (bad_rec < CT_CHUNK_SAMPLES) {
        rec = buf + CT__TILE_RECORDS + CT_CTC_RECORD_BYTES * bad_rec;
        return ct__fail(err, errlen, CT_ERR_FORMAT, "%s record %lu has biome %u / palette %u out of range",
                        ".ctt", (unsigned long)bad_rec, rec[4], rec[5]);
    }

    /* Everything is checked before the caller's chunk is touched. */
    h.key = key;
    h.generation = ct__get_u64(buf + 16);
    h.planet_id = ct__get_u32(buf + 40);
    h.height_quantum_m = q;
    h.clipped = ct__get_u32(buf + 64);
    h.edit_set = ct__get_u64(buf + 32);
    if (ct__digest_finish_fields(&h, state) != ct__get_u64(buf + 24))
        return ct__fail(err, errlen, CT_ERR_CHECKSUM, ".ctt digest mismatch: the tile is corrupt");
    if (fsum != ct__get_u32(buf + 68))
        return ct__fail(err, errlen, CT_ERR_CHECKSUM, ".ctt float height checksum mismatch: the tile is corrupt");
    if (bad_fit < CT_CHUNK_SAMPLES) {
        f = buf + CT__TILE_FLOATS + 4 * bad_fit;
        rec = buf + CT__TILE_RECORDS + CT_CTC_RECORD_BYTES * bad_fit;
        return ct__fail(err, errlen, CT_ERR_CHECKSUM,
                        ".ctt float height %lu (%g m) does not round to its record's code %u: the tile is corrupt",
                        (unsigned long)bad_fit, (double)ct__get_f32(f), ct__get_u16(rec));
    }
    out->key = key;
    out->generation = h.generation;
    out->digest = ct__get_u64(buf + 24);
    out->planet_id = h.planet_id;
    out->height_quantum_m = q;
    out->clipped = h.clipped;
    out->edit_set = h.edit_set;
    ct__records_get(buf + CT__TILE_RECORDS, out);
    f = buf + CT__TILE_FLOATS;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++, f += 4) out->height_m[k] = ct__get_f32(f);
    return CT_OK;
}
