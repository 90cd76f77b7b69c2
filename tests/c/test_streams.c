/* test_streams.c - the streams layer (layers/streams.c) on land chunks of a
 * surface_lod 12 world: it carves (heights differ from stream_depth_m=0 and
 * only go down, apart from nothing), a point sample equals its chunk vertex,
 * coarser chunks' samples (LOD 9, and LOD 5 where each sample reads its
 * own links) are exact samples of the finer one, and
 * stream_depth_m=0 gives the world without the layer. */
#include "ct.h"
#include "test.h"
#include "test_world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define LAND_CHUNKS 2

static ct_chunk fine, coarse, plain;

static ct_world *build(const char *depth)
{
    ct_config cfg;
    char text[96];
    ct_config_preset(&cfg, "balanced", NULL, 0);
    snprintf(text, sizeof text, "surface_lod=12\nseed=42\nstream_depth_m=%s\n", depth);
    return test_world_build(&cfg, text);
}

static int dry(const ct_chunk *c)
{
    int k;
    for (k = 0; k < CT_CHUNK_EDGE * CT_CHUNK_EDGE; k++)
        if (c->water[k] != CT_NO_WATER_CODE) return 0;
    return 1;
}

int main(void)
{
    ct_world *on = build("12"), *off = build("0");
    uint32_t s = 11u;
    int found = 0, tries = 0;
    CHECK(on && off, "worlds build");
    if (!on || !off) return test_summary("streams");
    while (found < LAND_CHUNKS && tries < 400) {
        double d[3], lx, ly;
        ct_sample sm;
        ct_key key, up;
        int k, i, j, lowered = 0, raised = 0, bad_point = 0, bad_subset = 0;
        tries++;
        if (!test_world_next_dir(&s, d)) continue;
        if (ct_world_sample(on, d, &sm, NULL, 0) != CT_OK || sm.has_water || sm.height_m < 100.0) continue;
        if (ct_key_at(on, d, 10, &key, &lx, &ly, NULL, 0) != CT_OK) continue;
        ct_chunk_generate(off, key, &plain, NULL, 0);
        if (!dry(&plain)) continue;
        CHECK(ct_chunk_generate(on, key, &fine, NULL, 0) == CT_OK, "generate");
        if (!dry(&fine)) continue;
        for (k = 0; k < CT_CHUNK_EDGE * CT_CHUNK_EDGE; k++) {
            lowered += fine.height_m[k] < plain.height_m[k];
            raised += fine.height_m[k] > plain.height_m[k];
        }
        /* point samples equal chunk vertices */
        for (k = 0; k < 600; k++) {
            float hf;
            i = k < 4 ? (k & 1) * 256 : (int)((uint32_t)(k * 2654435761u) % 257u);
            j = k < 4 ? (k >> 1) * 256 : (int)((uint32_t)(k * 40503u + 17u) % 257u);
            ct_key_direction(key, i, j, d, NULL, 0);
            CHECK(ct_world_sample(on, d, &sm, NULL, 0) == CT_OK, "sample");
            hf = (float)sm.height_m;
            if (memcmp(&hf, &fine.height_m[j * CT_CHUNK_EDGE + i], sizeof hf) != 0) bad_point++;
        }
        /* the LOD 9 chunk holding this one samples every other of its samples */
        up.face = key.face;
        up.lod = 9;
        up.x = key.x >> 1;
        up.y = key.y >> 1;
        CHECK(ct_chunk_generate(on, up, &coarse, NULL, 0) == CT_OK, "generate the coarser chunk");
        for (j = 0; j < CT_CHUNK_EDGE; j += 2)
            for (i = 0; i < CT_CHUNK_EDGE; i += 2) {
                int ci = (int)(key.x & 1u) * 128 + i / 2, cj = (int)(key.y & 1u) * 128 + j / 2;
                if (memcmp(&coarse.height_m[cj * CT_CHUNK_EDGE + ci], &fine.height_m[j * CT_CHUNK_EDGE + i],
                           sizeof(float)) != 0)
                    bad_subset++;
            }
        /* and the LOD 5 chunk holding it, whose samples (1.5 km apart) each
         * fall in their own finer-level cell and often their own coarser one,
         * so both levels read links per sample rather than per cell */
        if (found == 0) {
            int hits = 0;
            up.lod = 5;
            up.x = key.x >> 5;
            up.y = key.y >> 5;
            CHECK(ct_chunk_generate(on, up, &coarse, NULL, 0) == CT_OK, "generate the LOD 5 chunk");
            for (j = 0; j < CT_CHUNK_EDGE; j++)
                for (i = 0; i < CT_CHUNK_EDGE; i++) {
                    uint32_t gx = key.x * 256u + (uint32_t)i, gy = key.y * 256u + (uint32_t)j;
                    int ci, cj;
                    if (gx % 32u || gy % 32u) continue;
                    ci = (int)(gx / 32u - up.x * 256u);
                    cj = (int)(gy / 32u - up.y * 256u);
                    hits++;
                    if (memcmp(&coarse.height_m[cj * CT_CHUNK_EDGE + ci], &fine.height_m[j * CT_CHUNK_EDGE + i],
                               sizeof(float)) != 0)
                        bad_subset++;
                }
            CHECK(hits == 81, "the LOD 5 chunk holds 9 x 9 of the samples (%d)", hits);
        }
        printf("streams: chunk f%d %u %u: %d samples lowered, %d raised\n", key.face, key.x, key.y, lowered,
               raised);
        CHECK(lowered > 1000, "streams carve chunk f%d %u %u (%d samples lowered)", key.face, key.x, key.y,
              lowered);
        CHECK(raised == 0, "streams never raise the ground (%d samples raised)", raised);
        CHECK(bad_point == 0, "%d point samples differ from their chunk vertex", bad_point);
        CHECK(bad_subset == 0, "%d coarse samples differ from the fine ones", bad_subset);
        found++;
    }
    CHECK(found == LAND_CHUNKS, "%d land chunks found in %d tries", found, tries);
    ct_world_free(on);
    ct_world_free(off);
    return test_summary("streams");
}
