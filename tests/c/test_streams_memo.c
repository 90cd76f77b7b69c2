/* test_streams_memo.c - the streams memo lives on the heap and never
 * changes a bit: a sampler with the streams on allocates it at its first
 * land sample and frees it in ct__sampler_release; one with them off, or
 * one that meets only water, allocates nothing; a sampler whose allocation
 * failed (streams_no_heap, as after a NULL malloc) reads every link alone
 * on a small memo and gives the very bits of one with the memo, in four lanes and one by one, at LOD 12 (one
 * cell list serves many samples) and LOD 6 (each sample alone); a node's
 * ground asked with a NULL memo equals the full memo's; ground queries,
 * rays and scatter by point queries run with the streams on. Run under
 * ASan: every memo is freed. */
#include "ct.h"
#include "world/ct_world.h"
#include "surface/ct_surface.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

static ct_world *build(const char *depth)
{
    ct_config cfg;
    char err[256], text[96];
    ct_world *w;
    ct_config_preset(&cfg, "balanced", NULL, 0);
    snprintf(text, sizeof text, "seed=42\nsurface_lod=12\nstream_depth_m=%s\n", depth);
    if (ct_config_parse(&cfg, text, err, sizeof err) != CT_OK) { CHECK(0, "config: %s", err); return NULL; }
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "world stream_depth_m=%s: %s", depth, err);
    return w;
}

static int same(const ct_sample *a, const ct_sample *b)
{
    return memcmp(&a->height_m, &b->height_m, sizeof a->height_m) == 0 && a->has_water == b->has_water &&
           a->biome == b->biome && a->palette_index == b->palette_index;
}

/* Samples rows of key with the memo, without it (no_heap) and with the
 * streams off; returns how many differ between the first two, and counts
 * in *carved those the streams changed. */
static int compare_rows(ct_world *on, ct_world *off, ct_key key, int rows, int *carved)
{
    ct__sampler heap, none, plain;
    int i, j, k, bad = 0;
    ct__sampler_init(&heap, &on->field, 0);
    ct__sampler_init(&none, &on->field, 0);
    ct__sampler_init(&plain, &off->field, 0);
    none.streams_no_heap = 1;
    CHECK(heap.streams_memo == NULL, "no memo before the first sample");
    for (j = 0; j < rows; j++) {
        int y = j * (CT_CHUNK_EDGE - 1) / (rows > 1 ? rows - 1 : 1);
        for (i = 0; i + 4 <= CT_CHUNK_EDGE; i += 4) {
            double d[12];
            ct_sample a[4], b[4], c[4], s1;
            for (k = 0; k < 4; k++) ct_key_direction(key, i + k, y, d + 3 * k, NULL, 0);
            ct__sampler_run4(&heap, d, 0, a);
            ct__sampler_run4(&none, d, 0, b);
            ct__sampler_run4(&plain, d, 0, c);
            for (k = 0; k < 4; k++) {
                bad += !same(&a[k], &b[k]);
                *carved += memcmp(&a[k].height_m, &c[k].height_m, sizeof(double)) != 0;
            }
            ct__sampler_run(&none, d + 3 * (i / 4 % 4), 0, &s1);   /* one by one as well */
            bad += !same(&s1, &a[i / 4 % 4]);
        }
    }
    CHECK(heap.streams_memo != NULL, "the streams memo is allocated at the first sample");
    CHECK(none.streams_memo == NULL, "a failed allocation leaves the memo NULL");
    CHECK(plain.streams_memo == NULL, "streams off allocate no memo");
    ct__sampler_release(&heap);
    ct__sampler_release(&none);
    ct__sampler_release(&plain);
    CHECK(heap.streams_memo == NULL, "ct__sampler_release clears the memo");
    return bad;
}

/* A sampler that meets only water makes no memo, streams on or not. */
static void sea_row(ct_world *on)
{
    ct__sampler sp;
    ct_key key;
    int i, k, wet = 0;
    key.lod = 12;
    key.face = 0;
    key.x = 0;
    key.y = 1080;
    ct__sampler_init(&sp, &on->field, 0);
    for (i = 0; i + 4 <= CT_CHUNK_EDGE; i += 4) {
        double d[12];
        ct_sample a[4];
        for (k = 0; k < 4; k++) ct_key_direction(key, i + k, 128, d + 3 * k, NULL, 0);
        ct__sampler_run4(&sp, d, 0, a);
        for (k = 0; k < 4; k++) wet += a[k].has_water;
    }
    CHECK(wet == 256, "the sea row is water (%d of 256)", wet);
    CHECK(sp.streams_memo == NULL, "water samples make no streams memo");
    ct__sampler_release(&sp);
}

/* ct__streams_node_h with a NULL memo equals it with the sampler's memo. */
static void node_heights(ct_world *on)
{
    ct__sampler sp;
    ct__streams_memo *m = ct__streams_memo_new();
    int l, k, bad = 0;
    CHECK(m != NULL, "memo");
    if (!m) return;
    ct__sampler_init(&sp, &on->field, 0);
    for (l = 0; l < sp.streams.levels; l++)
        for (k = 0; k < 40; k++) {
            /* nodes around the land of the LOD 12 key below */
            int64_t x = (int64_t)(3558.0 / 4096.0 * sp.streams.lv[l].n) + k % 8 - 4;
            int64_t y = (int64_t)(554.0 / 4096.0 * sp.streams.lv[l].n) + k / 8 - 2;
            double d[3], a, b;
            ct__streams_node_dir(&sp.streams.lv[l], 2, x, y, d);
            a = ct__streams_node_h(&sp.streams, l, m, 2, x, y, d, ct__sampler_stream_height, &sp);
            b = ct__streams_node_h(&sp.streams, l, NULL, 2, x, y, d, ct__sampler_stream_height, &sp);
            bad += memcmp(&a, &b, sizeof a) != 0;
        }
    CHECK(bad == 0, "%d node grounds differ with a NULL memo", bad);
    ct__streams_memo_free(m);
    ct__sampler_release(&sp);
}

/* The samplers of ground queries, rays and scatter with the streams on:
 * the same ground as the chunk's, and (under ASan) each memo freed. */
static void queries(ct_world *on, ct_key key)
{
    static ct_chunk chunk;
    static float pos[3 * CT_SCATTER_MAX];
    static uint8_t kind_a[CT_SCATTER_MAX], kind_b[CT_SCATTER_MAX];
    ct_scatter a, b;
    ct_ground g, h;
    ct_ray_hit hit;
    double d[3], o[3], down[3], r = on->field.cfg.radius_m;
    int k, got = 0;
    CHECK(ct_chunk_generate(on, key, &chunk, NULL, 0) == CT_OK, "chunk");
    ct_key_direction(key, 100.25, 60.5, d, NULL, 0);
    CHECK(ct_world_ground(on, d, &g, NULL, 0) == CT_OK, "ground");
    CHECK(ct_chunk_ground(on, &chunk, 100.25, 60.5, &h, NULL, 0) == CT_OK, "chunk ground");
    CHECK(g.height_m == h.height_m, "world ground %.6f equals the chunk's %.6f", g.height_m, h.height_m);
    for (k = 0; k < 3; k++) {
        o[k] = d[k] * (r + g.height_m + 500.0);
        down[k] = -d[k];
    }
    CHECK(ct_world_raycast(on, o, down, 2000.0, 0, &hit, &got, NULL, 0) == CT_OK && got, "a ray down hits");
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.capacity = b.capacity = CT_SCATTER_MAX;
    a.positions = b.positions = pos;
    a.kind = kind_a;
    b.kind = kind_b;
    CHECK(ct_chunk_scatter(on, NULL, key, &a, NULL, 0) == CT_OK, "scatter by point queries");
    CHECK(ct_chunk_scatter(on, &chunk, key, &b, NULL, 0) == CT_OK, "scatter from the chunk");
    CHECK(a.count == b.count && memcmp(kind_a, kind_b, a.count) == 0,
          "scatter by queries and from the chunk agree (%u, %u)", a.count, b.count);
}

int main(void)
{
    ct_world *on = build("16"), *off = build("0");
    static const struct { int lod, face, rows; uint32_t x, y; } keys[] = {
        {12, 2, 6, 3558, 554},   /* land */
        {12, 0, 3, 1986, 288},   /* shore */
        {6, 0, 9, 0, 56},        /* land, a sample per cell */
    };
    size_t n;
    CHECK(on && off, "worlds build");
    if (!on || !off) return test_summary("streams_memo");
    CHECK(on->field.cfg.stream_depth_m > 0.0 && off->field.cfg.stream_depth_m == 0.0, "streams on and off");
    for (n = 0; n < sizeof keys / sizeof keys[0]; n++) {
        ct_key key;
        int carved = 0, bad;
        key.lod = keys[n].lod;
        key.face = keys[n].face;
        key.x = keys[n].x;
        key.y = keys[n].y;
        bad = compare_rows(on, off, key, keys[n].rows, &carved);
        printf("streams_memo: LOD %d f%d %u %u: %d samples carved, %d differ without the memo\n", key.lod,
               key.face, key.x, key.y, carved, bad);
        CHECK(bad == 0, "LOD %d f%d %u %u: %d samples differ without the memo", key.lod, key.face, key.x,
              key.y, bad);
        CHECK(carved > 0, "LOD %d f%d %u %u: the streams carve some sample", key.lod, key.face, key.x, key.y);
    }
    node_heights(on);
    sea_row(on);
    {
        ct_key land;
        land.lod = 12;
        land.face = 2;
        land.x = 3558;
        land.y = 554;
        queries(on, land);
    }
    ct_world_free(on);
    ct_world_free(off);
    return test_summary("streams_memo");
}
