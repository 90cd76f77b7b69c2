/* scatter_digest.h - the digests tests/golden/scatter.txt pins for scatter
 * and sites: FNV-1a 64 over little-endian bytes, the same as
 * tests/js/scatter.test.mjs computes from world.scatter and world.sites.
 *   scatter: per instance id (u64), kind (u8), positions (3 f32), height,
 *            yaw, scale (f32), after the centre (3 f64);
 *   sites:   per site its record (world/ct_site_record.h: dir (3 f64),
 *            height, relief, slope, fresh water, coast, biome, score). */
#ifndef CT_SCATTER_DIGEST_H
#define CT_SCATTER_DIGEST_H

#include <string.h>

#include "../../core/src/world/ct_site_record.h"   /* by path: tests/golden/regenerate_scatter.sh has no -Icore/src */

static inline uint64_t sd_bytes(uint64_t h, const void *p, size_t n)
{
    /* The hosts these tests run on are little endian (as WebAssembly is). */
    return ct_fnv1a64(p, n, h);
}

static inline uint64_t sd_scatter(const ct_scatter *s)
{
    uint64_t h = sd_bytes(CT_FNV1A64_INIT, s->center_m, sizeof s->center_m);
    uint32_t i;
    for (i = 0; i < s->count; i++) {
        h = sd_bytes(h, &s->id[i], 8);
        h = sd_bytes(h, &s->kind[i], 1);
        h = sd_bytes(h, &s->positions[3 * i], 12);
        h = sd_bytes(h, &s->height_m[i], 4);
        h = sd_bytes(h, &s->yaw[i], 4);
        h = sd_bytes(h, &s->scale[i], 4);
    }
    return h;
}

static inline uint64_t sd_sites(const ct_site *s, uint32_t n)
{
    uint64_t h = CT_FNV1A64_INIT;
    uint32_t i;
    for (i = 0; i < n; i++) {
        double v[CT_SITE_RECORD_DOUBLES];
        ct__site_record(&s[i], v);
        h = sd_bytes(h, v, sizeof v);
    }
    return h;
}

/* Caller-owned scatter arrays for CT_SCATTER_MAX instances. */
typedef struct sd_buffers {
    float positions[3 * CT_SCATTER_MAX], height_m[CT_SCATTER_MAX], yaw[CT_SCATTER_MAX], scale[CT_SCATTER_MAX];
    uint8_t kind[CT_SCATTER_MAX];
    uint64_t id[CT_SCATTER_MAX];
} sd_buffers;

static inline ct_scatter sd_out(sd_buffers *b)
{
    ct_scatter s;
    memset(&s, 0, sizeof s);
    s.capacity = CT_SCATTER_MAX;
    s.positions = b->positions;
    s.kind = b->kind;
    s.height_m = b->height_m;
    s.yaw = b->yaw;
    s.scale = b->scale;
    s.id = b->id;
    return s;
}

#endif
