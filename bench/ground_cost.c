/* ground_cost.c - what the fine-relief layer (ground.c) costs per chunk: the
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
#include "ct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static ct_chunk chunk;

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

static ct_world *build(int lod, int argc, char **argv, int first)
{
    ct_config cfg;
    char err[256], text[64];
    int a;
    ct_config_preset(&cfg, "balanced", NULL, 0);
    for (a = first; a < argc; a++) {
        char name[128], *eq;
        strncpy(name, argv[a], sizeof name - 1);
        name[sizeof name - 1] = '\0';
        eq = strchr(name, '=');
        if (!eq) continue;
        *eq = '\0';
        if (ct_config_set(&cfg, name, eq + 1, err, sizeof err)) { fprintf(stderr, "%s\n", err); exit(1); }
    }
    sprintf(text, "%d", lod);
    ct_config_set(&cfg, "surface_lod", text, NULL, 0);
    return ct_world_build(&cfg, NULL, NULL, err, sizeof err);
}

static double dry_share(void)
{
    size_t k, dry = 0;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++) dry += chunk.water[k] == CT_NO_WATER_CODE;
    return (double)dry / CT_CHUNK_SAMPLES;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

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
            s = dry_share();
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
            if (r == 0) printf("%s: LOD-14 chunk dry share %.2f\n", names[c], dry_share());
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
