/* ct_wasm_streams.c - the flat WebAssembly ABI of the stream network
 * (ct_chunk_streams) for wasm/ct_streams.mjs, in the manner of ct_wasm.c:
 * keys as their four parts, results into caller arrays, errors into
 * (err, errlen). */
#include <emscripten.h>

#include "ct.h"

#define CTW_EXPORT EMSCRIPTEN_KEEPALIVE

CTW_EXPORT int ctw_streams_max_links(void) { return CT_STREAMS_MAX_LINKS; }
CTW_EXPORT int ctw_streams_max_points(void) { return CT_STREAMS_MAX_POINTS; }

/* center: 3 doubles out; counts: 2 u32 out (links, points; also when a
 * buffer is short). Capacities apply to every array (none may be NULL). */
CTW_EXPORT int ctw_chunk_streams(const ct_world *w, int face, int lod, uint32_t x, uint32_t y, uint32_t link_capacity,
                                 uint32_t point_capacity, uint32_t *point_start, float *positions, float *water_m,
                                 float *width_m, uint8_t *order, uint8_t *level, double *center, uint32_t *counts,
                                 char *err, size_t errlen)
{
    ct_streams s;
    ct_result r;
    int k;
    s.link_capacity = link_capacity;
    s.point_capacity = point_capacity;
    s.point_start = point_start;
    s.positions = positions;
    s.water_m = water_m;
    s.width_m = width_m;
    s.order = order;
    s.level = level;
    s.count = s.point_count = 0;
    for (k = 0; k < 3; k++) s.center_m[k] = 0.0;
    r = ct_chunk_streams(w, ct_key_make(face, lod, x, y), &s, err, errlen);
    for (k = 0; k < 3; k++) center[k] = s.center_m[k];
    counts[0] = s.count;
    counts[1] = s.point_count;
    return (int)r;
}
