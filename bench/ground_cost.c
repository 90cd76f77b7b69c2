/* ground_cost.c - what the fine-relief layer (fine_relief.c) costs per chunk: the
 * default world (surface_lod 6, where the layer does not run) against the same
 * world at surface_lod 14 (nine octaves), chunks of land, sea and shore at each
 * world's surface_lod, interleaved rep by rep in one process, CPU time.
 *
 *   cc -std=c99 -O2 -ffp-contract=off -Icore/include -Icore/src bench/ground_cost.c \
 *      build/native/libct.a -lm -pthread -o build/ground_cost
 *   build/ground_cost [reps] [name=value ...]   (overrides for both worlds)
 *
 * The keys are the chunks under one LOD-6 chunk of each class (found by
 * scanning +Z at LOD 6), so both worlds sample the same ground. */
#include "chunk_cost.h"

static ct_chunk chunk;

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5, c, r, x, y;
    ct_world *w6 = build(6, argc, argv, 2), *w14 = build(14, argc, argv, 2);
    ct_key key6[3];
    const char *names[3] = {"land", "sea", "shore"};
    double best[3] = {-1.0, -1.0, -1.0};
    static double t6[3][64], t14[3][64];
    if (!w6 || !w14 || reps < 1 || reps > 64) return 1;
    for (y = 0; y < 64; y += 3)
        for (x = 0; x < 64; x += 3) {
            ct_key k = ct_key_make(CT_FACE_PZ, 6, (uint32_t)x, (uint32_t)y);
            double s, sc[3];
            ct_chunk_generate(w6, k, &chunk, NULL, 0);
            s = dry_share(&chunk);
            sc[0] = s; sc[1] = 1.0 - s; sc[2] = 1.0 - 2.0 * (s > 0.5 ? s - 0.5 : 0.5 - s);
            for (c = 0; c < 3; c++) if (sc[c] > best[c]) { best[c] = sc[c]; key6[c] = k; }
        }
    for (r = 0; r < reps; r++) {
        for (c = 0; c < 3; c++) {
            /* A LOD-14 chunk inside the LOD-6 one: the one at its centre. */
            ct_key k14 = ct_key_make(key6[c].face, 14, (key6[c].x << 8) + 128u, (key6[c].y << 8) + 128u);
            double t0 = cpu_ms();
            ct_chunk_generate(w6, key6[c], &chunk, NULL, 0);
            t6[c][r] = cpu_ms() - t0;
            t0 = cpu_ms();
            ct_chunk_generate(w14, k14, &chunk, NULL, 0);
            t14[c][r] = cpu_ms() - t0;
            if (r == 0) printf("%s: LOD-14 chunk dry share %.2f\n", names[c], dry_share(&chunk));
        }
    }
    for (c = 0; c < 3; c++) {
        qsort(t6[c], (size_t)reps, sizeof(double), cmp);
        qsort(t14[c], (size_t)reps, sizeof(double), cmp);
        printf("%-5s +Z 6 %u %u: surface_lod 6 chunk %.2f ms, surface_lod 14 chunk %.2f ms (median CPU), ratio %.2f\n",
               names[c], key6[c].x, key6[c].y, t6[c][reps / 2], t14[c][reps / 2], t14[c][reps / 2] / t6[c][reps / 2]);
    }
    ct_world_free(w6);
    ct_world_free(w14);
    return 0;
}
