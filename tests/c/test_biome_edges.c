/* test_biome_edges.c - biome edges follow the ground, not a grid.
 *
 * The reference rules draw the beach as "below 30 m within 1.5 macro hops":
 * a contour of a bilinear field of integer hop counts, which runs straight
 * along rows or columns of samples wherever two corners of a macro cell tie,
 * so from orbit coastal lowlands showed stair-stepped sand squares. With
 * biome_edges on, every edge between two land biomes is broken by the edge
 * noise and the ground. Measured on LOD 4 chunks (64 samples per macro cell):
 * the longest straight run of an edge between two land biomes along a row or
 * a column, which must stay short with the knob on and is long with it off
 * (so the measure can fail). Measured: 21 samples on, 57 off. Coarse LODs being exact subsets and
 * ct_world_sample equalling chunk vertices are test_chunks.c's, with the
 * default biome_edges. */
#include "ct.h"
#include "test.h"
#include "test_world.h"

#include <stdio.h>
#include <stdlib.h>

#define LOD 4
#define STEP 3          /* every third chunk of the face each way */
#define MAX_RUN_ON 24   /* samples: the longest straight edge allowed with the knob on */
#define MIN_RUN_OFF 40  /* samples: what the reference rules reach (the measure can fail) */

static int land_edge(const ct_chunk *c, int a, int b)
{
    return c->water[a] == 0 && c->water[b] == 0 && c->biome[a] != c->biome[b];
}

/* Longest run of consecutive land-land biome edges between rows y and y+1
 * (horizontal edges) or columns x and x+1 (vertical ones) in one chunk. */
static int longest_run(const ct_chunk *c)
{
    int best = 0, i, k;
    for (i = 0; i + 1 < CT_CHUNK_EDGE; i++) {
        int row = 0, col = 0;
        for (k = 0; k < CT_CHUNK_EDGE; k++) {
            row = land_edge(c, i * CT_CHUNK_EDGE + k, (i + 1) * CT_CHUNK_EDGE + k) ? row + 1 : 0;
            col = land_edge(c, k * CT_CHUNK_EDGE + i, k * CT_CHUNK_EDGE + i + 1) ? col + 1 : 0;
            if (row > best) best = row;
            if (col > best) best = col;
        }
    }
    return best;
}

/* The longest straight land edge over a sample of the +Z face's LOD 4 chunks. */
static int face_longest_run(const char *edges, int *chunks)
{
    char err[256], text[128];
    ct_config cfg;
    ct_world *w;
    ct_chunk *c = malloc(sizeof *c);
    int best = 0, x, y;
    *chunks = 0;
    CHECK(c != NULL, "chunk allocation");
    ct_config_preset(&cfg, "balanced", err, sizeof err);
    /* Rivers off: their bank moisture stops at macro cell edges (a river's
     * reach is listed per cell), which draws grass-forest edges straight
     * along cell boundaries whatever the biome rules; that is the rivers
     * layer's to fix, and this test measures the biome rules. */
    snprintf(text, sizeof text, "seed=42\nriver_min_area_km2=0\nbiome_edges=%s\n", edges);
    w = test_world_build(&cfg, text);
    if (!w || !c) {
        free(c);
        if (w) ct_world_free(w);
        return -1;
    }
    for (y = 1; y < (1 << LOD); y += STEP) {
        for (x = 1; x < (1 << LOD); x += STEP) {
            ct_key key;
            int run;
            key.face = CT_FACE_PZ;
            key.lod = LOD;
            key.x = (uint32_t)x;
            key.y = (uint32_t)y;
            if (ct_chunk_generate(w, key, c, err, sizeof err) != CT_OK) {
                CHECK(0, "chunk: %s", err);
                continue;
            }
            run = longest_run(c);
            if (run > best) best = run;
            (*chunks)++;
        }
    }
    free(c);
    ct_world_free(w);
    return best;
}

int main(void)
{
    int on_chunks, off_chunks;
    int on = face_longest_run("1", &on_chunks), off = face_longest_run("0", &off_chunks);
    printf("longest straight land biome edge on LOD %d chunks: %d samples with biome_edges=1 (%d chunks), %d with 0\n",
           LOD, on, on_chunks, off);
    CHECK(on >= 0 && on <= MAX_RUN_ON, "biome_edges=1: a land biome edge runs %d samples straight along the grid (max %d)",
          on, MAX_RUN_ON);
    CHECK(off >= MIN_RUN_OFF, "biome_edges=0: the longest straight edge is %d samples; the reference rules reach %d, "
          "so the measure no longer sees grid-aligned edges", off, MIN_RUN_OFF);
    return test_summary("biome_edges");
}
