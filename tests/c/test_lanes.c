/* test_lanes.c - chunks run their samples four at a time (sample.c's
 * ct__sampler_run4: canonical directions two per vector, detail noise four
 * per vector, ridges, shore noise and fine relief two per vector) while
 * ct_world_sample runs the scalar path. Every vertex of whole chunks, land,
 * sea and shore, at surface_lod 6 and 14 and on a cube edge, must equal the
 * point sample in every output bit (float height, codes, biome, palette). */
#include "ct.h"
#include "test.h"
#include "test_world.h"

#include <stdio.h>
#include <string.h>

static ct_chunk chunk;

static ct_world *build(const char *text)
{
    ct_config cfg;
    ct_config_preset(&cfg, "balanced", NULL, 0);
    return test_world_build(&cfg, text);
}

/* Vertices of the chunk that differ from ct_world_sample; *dry counts land. */
static int chunk_vs_samples(const ct_world *w, ct_key key, int *dry)
{
    double q = ct_world_config(w)->height_quantum_m;
    int i, j, bad = 0;
    *dry = 0;
    if (ct_chunk_generate(w, key, &chunk, NULL, 0) != CT_OK) return -1;
    for (j = 0; j < 257; j++)
        for (i = 0; i < 257; i++) {
            size_t at = (size_t)j * 257 + (size_t)i;
            double d[3];
            ct_sample s;
            float hf;
            uint16_t wc = CT_NO_WATER_CODE;
            ct_key_direction(key, i, j, d, NULL, 0);
            ct_world_sample(w, d, &s, NULL, 0);
            hf = (float)s.height_m;
            if (s.has_water) {
                wc = ct_height_encode(s.water_m, q, NULL);
                if (wc == CT_NO_WATER_CODE) wc = 1;
            }
            *dry += chunk.water[at] == CT_NO_WATER_CODE;
            if (memcmp(&hf, &chunk.height_m[at], sizeof hf) != 0 || ct_height_encode(s.height_m, q, NULL) != chunk.height[at] ||
                wc != chunk.water[at] || s.biome != chunk.biome[at] || s.palette_index != chunk.palette[at])
                bad++;
        }
    return bad;
}

static void check_world(const char *text, const ct_key *keys, int nkeys)
{
    ct_world *w = build(text);
    int k, classes[3] = {0, 0, 0};
    if (!w) return;
    for (k = 0; k < nkeys; k++) {
        int dry, bad = chunk_vs_samples(w, keys[k], &dry);
        CHECK(bad == 0, "%s: %s %d %u,%u: %d vertices differ from ct_world_sample", text, ct_face_name(keys[k].face),
              (int)keys[k].lod, keys[k].x, keys[k].y, bad);
        classes[dry == CT_CHUNK_SAMPLES ? 0 : dry == 0 ? 1 : 2]++;
    }
    /* The keys were picked to cover land, sea and shore chunks. */
    CHECK(classes[0] > 0 && classes[1] > 0 && classes[2] > 0, "%s: land %d, sea %d, shore %d chunks", text,
          classes[0], classes[1], classes[2]);
    ct_world_free(w);
}

int main(void)
{
    const ct_key k6[5] = {
        {CT_FACE_PZ, 6, 0, 0}, {CT_FACE_PZ, 6, 6, 0}, {CT_FACE_PZ, 6, 0, 12}, {CT_FACE_PX, 6, 63, 32},
        {CT_FACE_NY, 6, 20, 40}};
    const ct_key k14[4] = {
        {CT_FACE_PZ, 14, 128, 128}, {CT_FACE_PZ, 14, (6u << 8) + 128u, 128}, {CT_FACE_PZ, 14, 128, (12u << 8) + 128u},
        {CT_FACE_PZ, 14, 224, 12u << 8}};
    check_world("seed=42\n", k6, 5);
    check_world("surface_lod=14\nseed=42\n", k14, 4);
    return test_summary("lanes");
}
