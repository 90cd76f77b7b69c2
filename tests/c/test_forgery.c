/* test_forgery.c - a snapshot cannot be forged under its generation ID.
 *
 * Every byte of a small world's snapshot is edited (two ways: low bit and
 * high bit), the trailing FNV-1a checksum is recomputed so the edit is not
 * caught as plain corruption, and the result is read back. Each edit must be
 * rejected, or load as a different generation, or sample exactly like the
 * original at every macro vertex and at scattered directions. Before the
 * generation hash covered (or the reader recomputed) every value a sample
 * reads, region-weight and shore-distance edits loaded under the original ID
 * with different terrain. */
#include "surface/ct_surface.h"
#include "world/ct_world.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define EXTRA_DIRS 256

static double unit_hash(uint32_t x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return (double)x / 4294967296.0;
}

/* Directions to compare: every macro vertex (where a vertex's own values
 * weigh most) and scattered points between them. */
static double *probe_dirs(const ct_world *w, size_t *count)
{
    size_t V = w->field.vertex_count, k;
    double *d = (double *)malloc(sizeof(double) * 3u * (V + EXTRA_DIRS));
    if (!d) return NULL;
    memcpy(d, w->field.dir_v, sizeof(double) * 3u * V);
    for (k = 0; k < EXTRA_DIRS; k++) {
        d[3u * (V + k)] = unit_hash(3u * (uint32_t)k) * 2.0 - 1.0;
        d[3u * (V + k) + 1] = unit_hash(3u * (uint32_t)k + 1u) * 2.0 - 1.0;
        d[3u * (V + k) + 2] = unit_hash(3u * (uint32_t)k + 2u) * 2.0 - 1.0 + 1e-3;
    }
    *count = V + EXTRA_DIRS;
    return d;
}

static int same_sample(const ct_sample *a, const ct_sample *b)
{
    return memcmp(&a->height_m, &b->height_m, sizeof(double)) == 0 &&
           memcmp(&a->water_m, &b->water_m, sizeof(double)) == 0 && a->has_water == b->has_water &&
           a->water_body == b->water_body && memcmp(&a->mask, &b->mask, sizeof(double)) == 0 &&
           memcmp(&a->moisture, &b->moisture, sizeof(double)) == 0 && a->biome == b->biome &&
           a->material == b->material && a->palette_index == b->palette_index;
}

static int samples_match(const ct_world *a, const ct_world *b, const double *dirs, size_t count)
{
    size_t k;
    for (k = 0; k < count; k++) {
        ct_sample sa, sb;
        if (ct_world_sample(a, dirs + 3u * k, &sa, NULL, 0) != CT_OK) return 0;
        if (ct_world_sample(b, dirs + 3u * k, &sb, NULL, 0) != CT_OK) return 0;
        if (!same_sample(&sa, &sb)) return 0;
    }
    return 1;
}

static void sweep(const char *label, const ct_world *w)
{
    size_t len = ct_world_snapshot_size(w), pos, ndirs = 0;
    uint8_t *snap = (uint8_t *)malloc(len);
    double *dirs = probe_dirs(w, &ndirs);
    unsigned rejected = 0, other_generation = 0, same_terrain = 0, forged = 0, edits = 0;
    static const uint8_t masks[2] = {0x01, 0x80};
    int m;
    if (!snap || !dirs) { CHECK(0, "out of memory"); free(snap); free(dirs); return; }
    CHECK(ct_world_snapshot_write(w, snap, len, NULL, 0) == CT_OK, "%s: snapshot", label);
    for (pos = 0; pos + 8u < len; pos++) {
        for (m = 0; m < 2; m++) {
            ct_world *back = NULL;
            uint64_t sum;
            snap[pos] ^= masks[m];
            sum = ct_fnv1a64(snap, len - 8u, CT_FNV1A64_INIT);
            ct__put_u64(snap + len - 8u, sum);
            edits++;
            if (ct_world_snapshot_read(snap, len, &back, NULL, 0) != CT_OK) {
                rejected++;
            } else if (ct_world_generation(back) != ct_world_generation(w)) {
                other_generation++;
            } else if (samples_match(w, back, dirs, ndirs)) {
                same_terrain++;
            } else {
                if (forged < 5) fprintf(stderr, "%s: edit ^0x%02x at byte %lu of %lu loads as the same generation "
                                        "with different samples\n", label, masks[m], (unsigned long)pos,
                                        (unsigned long)len);
                forged++;
            }
            ct_world_free(back);
            snap[pos] ^= masks[m];
        }
    }
    ct__put_u64(snap + len - 8u, ct_fnv1a64(snap, len - 8u, CT_FNV1A64_INIT));
    printf("%s: %u resealed one-byte edits of a %lu-byte snapshot: %u rejected, %u other generation, "
           "%u identical samples, %u forged\n", label, edits, (unsigned long)len, rejected, other_generation,
           same_terrain, forged);
    CHECK(forged == 0, "%s: %u of %u resealed edits load under the same generation with different samples",
          label, forged, edits);
    CHECK(edits == 2u * (unsigned)(len - 8u), "%s: every byte edited", label);
    free(snap);
    free(dirs);
}

/* The build keeps the region weights and shore distances its stages made;
 * a load derives them: both must be the same bits, and so must the stats. */
static void derived_equals_built(const char *label, const ct_world *w)
{
    size_t len = ct_world_snapshot_size(w), V = w->field.vertex_count;
    uint8_t *snap = (uint8_t *)malloc(len);
    ct_world *back = NULL;
    ct_world_stats a, b;
    if (!snap) return;
    ct_world_snapshot_write(w, snap, len, NULL, 0);
    CHECK(ct_world_snapshot_read(snap, len, &back, NULL, 0) == CT_OK, "%s: reload", label);
    if (back) {
        CHECK(memcmp(back->field.region_w_v, w->field.region_w_v, sizeof(float) * 4u * V) == 0, "%s: region weights", label);
        CHECK(memcmp(back->field.shore_v, w->field.shore_v, sizeof(float) * V) == 0, "%s: shore distances", label);
        CHECK(memcmp(back->field.shore_ref_v, w->field.shore_ref_v, sizeof(double) * V) == 0, "%s: shore references", label);
        ct_world_stats_get(w, &a);
        ct_world_stats_get(back, &b);
        CHECK(a.edge_count == b.edge_count && a.water_bodies == b.water_bodies && a.lakes == b.lakes &&
                  a.ocean_fraction == b.ocean_fraction && a.land_fraction == b.land_fraction &&
                  a.min_height_m == b.min_height_m && a.max_height_m == b.max_height_m &&
                  a.max_macro_slope_excess_m == b.max_macro_slope_excess_m && a.bytes_held == b.bytes_held,
              "%s: field statistics", label);
        ct_world_free(back);
    }
    free(snap);
}

/* A shape callback's mask cannot be recomputed on load: it must be hashed. */
static double ridge_shape(const double dir[3], void *user)
{
    (void)user;
    return dir[0] * 0.6 + dir[1] * dir[2] - 0.1;
}

int main(void)
{
    ct_config cfg;
    ct_world *w;
    char err[256];
    ct_config_preset(&cfg, "balanced", NULL, 0);
    ct_config_set(&cfg, "macro_resolution", "8", NULL, 0);
    ct_config_set(&cfg, "surface_lod", "2", NULL, 0);
    ct_config_set(&cfg, "seed", "3", NULL, 0);
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    if (w) derived_equals_built("noise-mask world", w);
    if (w) sweep("noise-mask world", w);
    ct_world_free(w);
    w = ct_world_build(&cfg, ridge_shape, NULL, err, sizeof err);
    CHECK(w != NULL, "shape build: %s", err);
    if (w) derived_equals_built("shape-callback world", w);
    if (w) sweep("shape-callback world", w);
    ct_world_free(w);
    /* A walk-mode world with lakes at a larger size: the lake count and the
     * slope excess come from the derived side too. */
    ct_config_set(&cfg, "macro_resolution", "32", NULL, 0);
    ct_config_set(&cfg, "mode", "1", NULL, 0);
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "walk build: %s", err);
    if (w) derived_equals_built("walk world", w);
    ct_world_free(w);
    return test_summary("forgery");
}
