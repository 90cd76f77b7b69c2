/* scatter_golden.c - writes tests/golden/scatter.txt: scatter digests of a
 * few chunk keys (a surface_lod chunk from the chunk, and coarser keys over
 * it from point queries) and sites digests of one world, which
 * tests/c/test_scatter.c and tests/js/scatter.test.mjs compare native and
 * WebAssembly output against. Run through tests/golden/regenerate_scatter.sh. */
#include "ct.h"
#include "scatter_digest.h"

#include <stdio.h>
#include <stdlib.h>

static sd_buffers buf;
static ct_chunk chunk;

int main(void)
{
    static const ct_key keys[] = { { 2, 12, 3224, 1378 }, { 2, 11, 1612, 689 }, { 2, 10, 806, 344 },
                                   { 2, 12, 3225, 1378 }, { 0, 12, 2880, 0 } };
    static const int kinds[] = { CT_SITE_SETTLEMENT, CT_SITE_PORT, CT_SITE_SPAWN };
    char err[256];
    ct_config cfg;
    ct_world *w;
    size_t i;
    ct_config_preset(&cfg, "balanced", err, sizeof err);
    cfg.seed = 42;
    cfg.surface_lod = 12;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    if (!w) {
        fprintf(stderr, "build: %s\n", err);
        return 1;
    }
    printf("# Frozen scatter and sites digests (tests/c/scatter_digest.h). Regenerate\n"
           "# deliberately with tests/golden/regenerate_scatter.sh. Format:\n"
           "#   world PRESET SEED SURFACE_LOD generation HEX\n"
           "#   scatter FACE LOD X Y count N digest HEX   (surface_lod keys read their chunk)\n"
           "#   sites KIND COUNT MIN_SPACING_M count N digest HEX\n");
    printf("world balanced 42 12 generation %016llx\n", (unsigned long long)ct_world_generation(w));
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        ct_scatter s = sd_out(&buf);
        const ct_chunk *c = NULL;
        if (keys[i].lod == 12) {
            if (ct_chunk_generate(w, keys[i], &chunk, err, sizeof err) != CT_OK) return 1;
            c = &chunk;
        }
        if (ct_chunk_scatter(w, c, keys[i], &s, err, sizeof err) != CT_OK) {
            fprintf(stderr, "scatter: %s\n", err);
            return 1;
        }
        printf("scatter %d %d %u %u count %u digest %016llx\n", keys[i].face, keys[i].lod, keys[i].x, keys[i].y,
               s.count, (unsigned long long)sd_scatter(&s));
    }
    for (i = 0; i < 3; i++) {
        ct_site_query q = { 0 };
        ct_site sites[20];
        uint32_t n = 0;
        q.kind = kinds[i];
        q.count = 20;
        q.min_spacing_m = 200000.0;
        if (ct_world_sites(w, &q, sites, 20, &n, err, sizeof err) != CT_OK) return 1;
        printf("sites %s 20 200000 count %u digest %016llx\n", ct_site_kind_name(kinds[i]), n,
               (unsigned long long)sd_sites(sites, n));
    }
    ct_world_free(w);
    return ferror(stdout) ? 1 : 0;
}
