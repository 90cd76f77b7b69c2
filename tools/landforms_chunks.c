/* landforms_chunks.c - whole land chunks of a world as measurement grids.
 *
 * Keys come from a fixed hash sequence (face, x, y from the hash of the
 * candidate number and the LOD under a named salt), the same for every
 * world, so two worlds are measured on the same keys where both have land
 * there. A candidate is kept when a 3x3 probe of it (ct_world_sample) meets
 * no ocean and its generated chunk has no sea sample: a sample whose water
 * surface decodes to sea level or below. Lakes and rivers stay: their water surface
 * is the surface measured (the height of a water sample is the larger of its
 * bed and its water surface), as a DEM with water bodies flattened reads.
 * Heights are the chunk's float heights (ct_chunk.height_m), never the 1 m
 * codes, whose terraces would read as flats and pits. Tangent steps come from
 * ct_key_metric, one call per 16 x 16 block (the metric changes by well under
 * 0.1% across one at these LODs). */
#include "landforms.h"
#include "chunk_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LF_KEY_SALT 0x1a2df0a5u
#define LF_BLOCK 16

static ct_key lf_candidate(int lod, int k)
{
    ct_key key;
    unsigned h = lf_hash32(((unsigned)k * 3u + LF_KEY_SALT) ^ lf_hash32((unsigned)lod));
    unsigned mask = (1u << lod) - 1u;
    key.face = (int32_t)(h % 6u);
    key.lod = lod;
    key.x = lf_hash32(h ^ 0x9e3779b9u) & mask;
    key.y = lf_hash32(h ^ 0x7f4a7c15u) & mask;
    return key;
}

static int lf_is_sea(const ct_sample *s) { return s->water_body == 0; }

/* 1 when none of a 3x3 probe over the chunk is sea (a cheap screen before
 * generating it; lakes and rivers under the probe are fine). */
static int lf_probe_no_sea(const ct_world *w, ct_key key)
{
    return chunk_probe_3x3(w, key, 16.0, 112.0, lf_is_sea) == CHUNK_PROBE_NONE;
}

int lf_chunk_grid(const ct_world *w, const ct_chunk *c, lf_grid *g, int *sea)
{
    double radius = ct_world_config(w)->radius_m, a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
    int i, j;
    char err[256];
    *sea = 0;
    for (j = 0; j < CT_CHUNK_EDGE; j++) {
        for (i = 0; i < CT_CHUNK_EDGE; i++) {
            size_t at = (size_t)j * CT_CHUNK_EDGE + (size_t)i;
            double h = (double)c->height_m[at];
            if (i % LF_BLOCK == 0 &&
                ct_key_metric(c->key, (i / LF_BLOCK + 0.5) * LF_BLOCK, (j / LF_BLOCK + 0.5) * LF_BLOCK,
                              radius, a, b, err, sizeof err) != CT_OK) {
                fprintf(stderr, "landforms: %s\n", err);
                return 0;
            }
            if (c->water[at] != CT_NO_WATER_CODE) {
                double level = ct_height_decode(c->water[at], c->height_quantum_m);
                if (c->water[at] <= CT_SEA_LEVEL_CODE) *sea = 1;
                if (level > h) h = level;
            }
            g->h[at] = h;
            memcpy(g->a + 3 * at, a, sizeof a);
            memcpy(g->b + 3 * at, b, sizeof b);
        }
    }
    return 1;
}

int lf_chunks_run(const ct_world *w, const lf_chunk_opts *o, lf_result *acc,
                  lf_chunk_report *each, int *count, int *tries)
{
    ct_chunk *chunk = (ct_chunk *)malloc(sizeof *chunk);
    size_t n = (size_t)CT_CHUNK_SAMPLES;
    double *fill = NULL, *area = NULL;
    lf_map map = {0, 0, NULL};
    lf_grid g;
    int k, ok = 0;
    char err[256];
    *count = 0;
    *tries = 0;
    if (!chunk || !lf_grid_alloc(&g, CT_CHUNK_EDGE, CT_CHUNK_EDGE)) {
        free(chunk);
        return 0;
    }
    if (o->png_path && (!(fill = (double *)malloc(sizeof *fill * n)) || !(area = (double *)malloc(sizeof *area * n)) ||
                        !lf_map_alloc(&map, CT_CHUNK_EDGE, CT_CHUNK_EDGE)))
        goto end;
    for (k = 0; k < o->max_tries && *count < o->want; k++) {
        ct_key key = lf_candidate(o->lod, k);
        int sea;
        lf_result r;
        (*tries)++;
        if (!lf_probe_no_sea(w, key)) continue;
        if (ct_chunk_generate(w, key, chunk, err, sizeof err) != CT_OK) {
            fprintf(stderr, "landforms: %s\n", err);
            goto end;
        }
        if (!lf_chunk_grid(w, chunk, &g, &sea)) goto end;
        if (sea) continue;
        memset(&r, 0, sizeof r);
        if (!lf_measure_maps(&g, &o->measure, &r, fill, area)) goto end;
        if (map.rgb && *count < LF_MAP_COLS * LF_MAP_ROWS)
            lf_map_draw(&map, *count % LF_MAP_COLS, *count / LF_MAP_COLS, &g, fill, area, o->measure.channel_m2);
        lf_result_add(acc, &r);
        if (each) {
            each[*count].key = key;
            each[*count].r = r;
        }
        (*count)++;
    }
    ok = !map.rgb || lf_map_write(&map, o->png_path);
end:
    lf_grid_free(&g);
    lf_map_free(&map);
    free(fill);
    free(area);
    free(chunk);
    return ok;
}
