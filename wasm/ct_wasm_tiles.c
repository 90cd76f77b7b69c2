/* ct_wasm_tiles.c - the WebAssembly exports of baked tiles for wasm/ct_tiles.mjs:
 * the .ctt tile codec (ct_chunk_encode_tile / ct_chunk_decode_tile) and a
 * setter that lets JS put a chunk it holds (a decoded tile, or any
 * world.chunk() result) into a ct_chunk, so meshes and colliders are built
 * from it exactly as from a generated one.
 *
 * 64-bit values (generation, digest) cross as two uint32 halves: the loader
 * has no BigInt glue. Errors go to the (err, errlen) buffer like every
 * export of wasm/ct_wasm.c. No file-scope mutable state.
 */
#include <emscripten.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ct.h"

#define CTW_EXPORT EMSCRIPTEN_KEEPALIVE

/* Bytes of a .ctt tile file (CT_TILE_FILE_BYTES), read by JS, never retyped. */
CTW_EXPORT size_t ctw_tile_file_bytes(void) { return CT_TILE_FILE_BYTES; }

CTW_EXPORT int ctw_chunk_encode_tile(const ct_chunk *c, uint8_t *buf, size_t len, char *err, size_t errlen)
{
    return (int)ct_chunk_encode_tile(c, buf, len, err, errlen);
}

CTW_EXPORT int ctw_chunk_decode_tile(const uint8_t *buf, size_t len, ct_chunk *out, char *err, size_t errlen)
{
    return (int)ct_chunk_decode_tile(buf, len, out, err, errlen);
}

/* The fields of a chunk that are not sample arrays (JS writes those through
 * ctw_chunk_height and its siblings). The key is checked; the rest is the
 * caller's word: ct_mesh_build checks the generation against its world, and
 * a tile written from a wrong digest is refused when it is decoded. */
CTW_EXPORT int ctw_chunk_set_meta(ct_chunk *c, int face, int lod, uint32_t x, uint32_t y, uint32_t planet_id,
                                  uint32_t gen_lo, uint32_t gen_hi, uint32_t digest_lo, uint32_t digest_hi,
                                  uint32_t clipped, double quantum_m, uint32_t edit_lo, uint32_t edit_hi,
                                  char *err, size_t errlen)
{
    ct_key k = ct_key_make(face, lod, x, y);
    ct_result r = ct_key_validate(k, err, errlen);
    if (r != CT_OK) return (int)r;
    c->key = k;
    c->planet_id = planet_id;
    c->generation = ((uint64_t)gen_hi << 32) | gen_lo;
    c->digest = ((uint64_t)digest_hi << 32) | digest_lo;
    c->clipped = clipped;
    c->height_quantum_m = quantum_m;
    c->edit_set = ((uint64_t)edit_hi << 32) | edit_lo;
    return CT_OK;
}
