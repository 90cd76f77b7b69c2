/* ct_wasm_scatter.c - the flat WebAssembly ABI of scatter (ct_chunk_scatter,
 * the catalogue) and sites (ct_world_sites) for wasm/ct_scatter.mjs and
 * wasm/ct_sites.mjs, in the manner of ct_wasm.c: keys as their four parts,
 * results into caller arrays, errors into (err, errlen). */
#include <emscripten.h>

#include "ct.h"
#include "world/ct_site_record.h"

#include <stdio.h>
#include <stdlib.h>

#define CTW_EXPORT EMSCRIPTEN_KEEPALIVE

CTW_EXPORT int ctw_scatter_max(void) { return CT_SCATTER_MAX; }

/* chunk may be NULL (0): point ground queries. center: 3 doubles out;
 * count: u32 out (the instances there are, also when the buffer is short). */
CTW_EXPORT int ctw_chunk_scatter(const ct_world *w, const ct_chunk *chunk, int face, int lod, uint32_t x, uint32_t y,
                                 uint32_t capacity, float *positions, uint8_t *kind, float *height_m, float *yaw,
                                 float *scale, uint64_t *id, double *center, uint32_t *count, char *err,
                                 size_t errlen)
{
    ct_scatter s;
    ct_result r;
    int k;
    s.capacity = capacity;
    s.positions = positions;
    s.kind = kind;
    s.height_m = height_m;
    s.yaw = yaw;
    s.scale = scale;
    s.id = id;
    s.count = 0;
    r = ct_chunk_scatter(w, chunk, ct_key_make(face, lod, x, y), &s, err, errlen);
    for (k = 0; k < 3; k++) center[k] = s.center_m[k];
    *count = s.count;
    return (int)r;
}

/* Sites: near is 3 doubles (read when has_near); out holds capacity records
 * of CT_SITE_RECORD_DOUBLES doubles (world/ct_site_record.h: dir[3], height,
 * relief, slope, fresh water, coast, biome, score). */
CTW_EXPORT int ctw_world_sites(const ct_world *w, int kind, uint32_t want, double min_spacing_m, int has_near,
                               const double *near, double radius_m, double *out, uint32_t capacity,
                               uint32_t *count, char *err, size_t errlen)
{
    ct_site_query q;
    ct_site *sites;
    uint32_t i, n = 0;
    ct_result r;
    int k;
    if (capacity > CT_SITES_MAX) capacity = CT_SITES_MAX;
    sites = (ct_site *)malloc(sizeof(ct_site) * (capacity ? capacity : 1));
    *count = 0;
    if (!sites) {
        if (err && errlen) snprintf(err, errlen, "out of WebAssembly memory for %u sites", (unsigned)capacity);
        return (int)CT_ERR_MEMORY;
    }
    q.kind = kind;
    q.count = want;
    q.min_spacing_m = min_spacing_m;
    q.has_near = has_near;
    for (k = 0; k < 3; k++) q.near[k] = has_near ? near[k] : 0.0;
    q.radius_m = radius_m;
    r = ct_world_sites(w, &q, sites, capacity, &n, err, errlen);
    for (i = 0; i < n; i++) ct__site_record(&sites[i], out + (size_t)i * CT_SITE_RECORD_DOUBLES);
    *count = n;
    free(sites);
    return (int)r;
}
