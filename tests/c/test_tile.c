/* test_tile.c - .ctt tiles: a decoded tile equals the generated chunk in
 * every field (float heights included, which a .ctc cannot carry), its mesh
 * is byte-identical, and every single-byte flip of the header, a sweep of
 * record and float bytes (down to one mantissa bit of one float height),
 * truncation and foreign files are refused without
 * touching the caller's chunk. */
#include "ct.h"
#include "base/ct_base.h"
#include "test.h"
#include "test_world.h"

#include <stdlib.h>
#include <string.h>

static ct_chunk gen, back, keep;

static int chunks_equal(const ct_chunk *a, const ct_chunk *b)
{
    return a->key.face == b->key.face && a->key.lod == b->key.lod && a->key.x == b->key.x &&
           a->key.y == b->key.y && a->planet_id == b->planet_id && a->generation == b->generation &&
           a->digest == b->digest && a->clipped == b->clipped &&
           memcmp(&a->height_quantum_m, &b->height_quantum_m, sizeof(double)) == 0 &&
           memcmp(a->height, b->height, sizeof a->height) == 0 && memcmp(a->water, b->water, sizeof a->water) == 0 &&
           memcmp(a->biome, b->biome, sizeof a->biome) == 0 && memcmp(a->palette, b->palette, sizeof a->palette) == 0 &&
           memcmp(a->height_m, b->height_m, sizeof a->height_m) == 0;
}

/* Mesh bytes (positions, normals, colours, indices) of a chunk at stride 1. */
static size_t mesh_bytes(const ct_world *w, const ct_chunk *c, uint8_t *out)
{
    ct_mesh_options o;
    ct_mesh_layout lay;
    ct_mesh m;
    size_t nv, off = 0;
    memset(&o, 0, sizeof o);
    o.skirt_depth_m = 50.0;
    if (ct_mesh_layout_get(&o, &lay, NULL, 0) != CT_OK) return 0;
    nv = lay.vertex_count;
    memset(&m, 0, sizeof m);
    m.positions = (float *)(void *)out;
    m.normals = (float *)(void *)(out + nv * 12);
    m.colors = out + nv * 24;
    m.indices = out + nv * 28;
    if (ct_mesh_build(w, c, &o, NULL, &m, NULL, 0) != CT_OK) return 0;
    off = nv * 28 + (size_t)lay.index_count * lay.index_bytes;
    memcpy(out + off, m.center_m, sizeof m.center_m);
    return off + sizeof m.center_m;
}

static void test_round_trip(const ct_world *w, ct_key key, uint8_t *buf)
{
    static uint8_t ma[8u << 20], mb[8u << 20];
    size_t na, nb;
    char err[256];
    CHECK(ct_chunk_generate(w, key, &gen, err, sizeof err) == CT_OK, "generate: %s", err);
    CHECK(ct_chunk_encode_tile(&gen, buf, CT_TILE_FILE_BYTES, err, sizeof err) == CT_OK, "encode: %s", err);
    CHECK(memcmp(buf, "CTTILE\0\1", 8) == 0 && buf[44] == (uint8_t)key.face && buf[45] == (uint8_t)key.lod,
          "header carries the magic and the key");
    memset(&back, 0xA5, sizeof back);
    CHECK(ct_chunk_decode_tile(buf, CT_TILE_FILE_BYTES, &back, err, sizeof err) == CT_OK, "decode: %s", err);
    CHECK(chunks_equal(&gen, &back), "decoded tile %d/%d/%u/%u equals the generated chunk in every field",
          key.face, key.lod, key.x, key.y);
    na = mesh_bytes(w, &gen, ma);
    nb = mesh_bytes(w, &back, mb);
    CHECK(na > 0 && na == nb && memcmp(ma, mb, na) == 0, "the decoded tile's mesh is byte-identical");
}

/* Every flip must be refused, and a refused decode leaves the chunk as it
 * was. Flips of header bytes the digest does not cover (the reserved ones,
 * the version, the sizes) are refused by their own checks. */
static void test_flips(uint8_t *buf)
{
    size_t i, refused = 0, tried = 0, untouched = 0;
    char err[256];
    memcpy(&keep, &back, sizeof keep);
    for (i = 0; i < CT_TILE_FILE_BYTES; i += (i < CT_TILE_HEADER_BYTES ? 1 : 4099)) {
        uint8_t old = buf[i];
        buf[i] ^= (uint8_t)(1u << (i % 8));
        tried++;
        if (ct_chunk_decode_tile(buf, CT_TILE_FILE_BYTES, &back, err, sizeof err) != CT_OK) {
            refused++;
            untouched += memcmp(&keep, &back, sizeof keep) == 0;
        }
        buf[i] = old;
    }
    CHECK(refused == tried, "every flipped byte is refused (%lu of %lu)", (unsigned long)refused,
          (unsigned long)tried);
    CHECK(untouched == refused, "a refused tile leaves the caller's chunk untouched (%lu of %lu)",
          (unsigned long)untouched, (unsigned long)refused);
}

static void test_refusals(uint8_t *buf)
{
    char err[256];
    size_t cut[] = {0, 7, 8, 71, 72, 1000, CT_TILE_FILE_BYTES - 1};
    size_t k;
    float far = 1.0e6f;
    for (k = 0; k < sizeof cut / sizeof cut[0]; k++)
        CHECK(ct_chunk_decode_tile(buf, cut[k], &back, err, sizeof err) != CT_OK, "truncated at %lu refused",
              (unsigned long)cut[k]);
    CHECK(ct_chunk_decode_tile(buf, CT_TILE_FILE_BYTES, NULL, err, sizeof err) == CT_ERR_NULL, "NULL chunk");
    CHECK(ct_chunk_encode_tile(&gen, buf, CT_TILE_FILE_BYTES - 1, err, sizeof err) == CT_ERR_BUFFER &&
          strstr(err, "660562"), "short buffer names the size: %s", err);
    /* A float moved off its code, with the digest still right, is caught. */
    {
        /* written little endian whatever the host, and the float checksum
         * redone, so only the code check stands between it and the caller */
        uint32_t u;
        uint64_t sum;
        memcpy(&u, &far, 4);
        buf[CT_TILE_HEADER_BYTES + 6 * CT_CHUNK_SAMPLES + 4000] = (uint8_t)u;
        buf[CT_TILE_HEADER_BYTES + 6 * CT_CHUNK_SAMPLES + 4001] = (uint8_t)(u >> 8);
        buf[CT_TILE_HEADER_BYTES + 6 * CT_CHUNK_SAMPLES + 4002] = (uint8_t)(u >> 16);
        buf[CT_TILE_HEADER_BYTES + 6 * CT_CHUNK_SAMPLES + 4003] = (uint8_t)(u >> 24);
        sum = ct_fnv1a64(buf + CT_TILE_HEADER_BYTES + 6 * CT_CHUNK_SAMPLES, 4 * (size_t)CT_CHUNK_SAMPLES,
                         CT_FNV1A64_INIT);
        for (k = 0; k < 4; k++) buf[68 + k] = (uint8_t)(sum >> (8 * k));
    }
    CHECK(ct_chunk_decode_tile(buf, CT_TILE_FILE_BYTES, &back, err, sizeof err) == CT_ERR_CHECKSUM &&
          strstr(err, "height 1000"), "a float height far from its code is named: %s", err);
    /* A .ctc is not a tile. */
    {
        static uint8_t ctc[CT_CTC_FILE_BYTES];
        CHECK(ct_chunk_encode_ctc(&gen, ctc, sizeof ctc, NULL, 0) == CT_OK, "ctc encode");
        CHECK(ct_chunk_decode_tile(ctc, sizeof ctc, &back, err, sizeof err) == CT_ERR_FORMAT &&
              strstr(err, "bad magic"), "a .ctc is refused as a tile: %s", err);
    }
}

int main(void)
{
    static const ct_key keys[] = {{CT_FACE_PZ, 3, 2, 5}, {CT_FACE_NX, 0, 0, 0}, {CT_FACE_PY, 3, 7, 0}};
    ct_config cfg;
    ct_world *w;
    uint8_t *buf = (uint8_t *)malloc(CT_TILE_FILE_BYTES);
    size_t k;
    ct_config_preset(&cfg, "balanced", NULL, 0);
    w = test_world_build(&cfg, "macro_resolution=32\nsurface_lod=3\nseed=11\n");
    if (w && buf) {
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++) test_round_trip(w, keys[k], buf);
        test_flips(buf);
        test_refusals(buf);
    }
    free(buf);
    ct_world_free(w);
    return test_summary("tile");
}
