/* ct_wasm_edits.c - the flat WebAssembly ABI of edit sets (ct_world_with_edits
 * and its queries) for wasm/ct_edits.mjs, beside ct_wasm.c and in its
 * manner: bytes in, IDs as 16 hex digits, keys as four u32, crossings as
 * ten doubles, errors into (err, errlen). */
#include <emscripten.h>
#include <stdio.h>

#include "ct.h"

#define CTW_EXPORT EMSCRIPTEN_KEEPALIVE

static void ctw__edit_hex(uint64_t v, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)v);
}

CTW_EXPORT int ctw_world_with_edits(const ct_world *base, const uint8_t *bytes, size_t len, ct_world **out,
                                    char *err, size_t errlen)
{
    return (int)ct_world_with_edits(base, bytes, len, out, err, errlen);
}

CTW_EXPORT void ctw_world_edit_set_hex(const ct_world *w, char *out17)
{
    ctw__edit_hex(ct_world_edit_set_id(w), out17);
}

/* The edit set's bytes: pointer in *at (valid while the world is), length returned. */
CTW_EXPORT size_t ctw_world_edit_bytes(const ct_world *w, const uint8_t **at)
{
    return ct_world_edit_bytes(w, at);
}

/* keys_out: 4 u32 per key (face, lod, x, y; ct_key's four 32-bit fields),
 * up to cap keys; *count the total. */
CTW_EXPORT int ctw_world_edited_keys(const ct_world *w, int lod, ct_key *keys_out, size_t cap, uint32_t *count,
                                     char *err, size_t errlen)
{
    size_t total = 0;
    ct_result r = ct_world_edited_keys(w, lod, keys_out, cap, &total, err, errlen);
    *count = (uint32_t)total;
    return (int)r;
}

/* out: 10 doubles per crossing (from_m, to_m, from_dir[3], to_dir[3], water_m, water_body). */
CTW_EXPORT int ctw_world_path_crossings(const ct_world *w, uint32_t index, double *out, size_t cap, uint32_t *count,
                                        char *err, size_t errlen)
{
    ct_path_crossing one[32];
    size_t n = 0, i;
    ct_result r = ct_world_path_crossings(w, index, one, cap < 32 ? cap : 32, &n, err, errlen);
    if (r) return (int)r;
    *count = (uint32_t)n;
    for (i = 0; i < n && i < cap && i < 32; i++) {
        double *o = out + 10 * i;
        o[0] = one[i].from_m; o[1] = one[i].to_m;
        o[2] = one[i].from_dir[0]; o[3] = one[i].from_dir[1]; o[4] = one[i].from_dir[2];
        o[5] = one[i].to_dir[0]; o[6] = one[i].to_dir[1]; o[7] = one[i].to_dir[2];
        o[8] = one[i].water_m; o[9] = (double)one[i].water_body;
    }
    return 0;
}

CTW_EXPORT void ctw_chunk_edit_set_hex(const ct_chunk *c, char *out17) { ctw__edit_hex(c->edit_set, out17); }
CTW_EXPORT size_t ctw_chunk_ctc_size(const ct_chunk *c) { return ct_chunk_ctc_size(c); }
