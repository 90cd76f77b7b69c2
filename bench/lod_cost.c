/* lod_cost.c - what a chunk of each LOD costs in one world (default: balanced
 * at surface_lod 14): a land chunk per even LOD from 4 up, the one at the
 * centre of +Z's first LOD-6 chunk, best CPU time of five. The fine relief
 * runs every octave at every sample of a coarse chunk and about a third of an
 * octave per sample at surface_lod, so a descent's levels differ.
 *
 *   cc -std=c99 -O2 -ffp-contract=off -Icore/include -Icore/src -Ibench bench/lod_cost.c \
 *      build/native/libct.a -lm -pthread -o build/lod_cost
 *   build/lod_cost [name=value ...]   (overrides of the balanced preset) */
#include "chunk_cost.h"

static ct_chunk chunk;

int main(int argc, char **argv)
{
    ct_config cfg;
    ct_world *w = build(14, argc, argv, 1);
    int lod, r, top;
    if (!w) return 1;
    cfg = *ct_world_config(w);
    top = (int)cfg.surface_lod;
    for (lod = 4; lod <= top; lod += 2) {
        double best = 1e30;
        uint32_t s = lod > 6 ? (uint32_t)(lod - 6) : 0u, at = s ? 1u << (s - 1) : 0u;
        ct_key key = ct_key_make(CT_FACE_PZ, lod, at, at);
        for (r = 0; r < 5; r++) {
            double t0 = cpu_ms();
            ct_chunk_generate(w, key, &chunk, NULL, 0);
            t0 = cpu_ms() - t0;
            if (t0 < best) best = t0;
        }
        printf("LOD %2d: %6.1f ms (best of 5), dry share %.2f\n", lod, best, dry_share(&chunk));
    }
    ct_world_free(w);
    return 0;
}
