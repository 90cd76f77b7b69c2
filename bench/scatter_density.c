/* scatter_density.c - instances per km2 by biome, for docs/populate.md: chunks
 * of the bench world (balanced, seed 42, surface_lod 12) found from a
 * Fibonacci lattice of directions, kept when one biome covers at least 95%
 * of their samples (up to 4 per biome), scattered from the chunk; counts per
 * kind over the chunk's area (the gnomonic cell areas summed).
 *
 *   cc -std=c99 -O2 -ffp-contract=off -Icore/include -Itests/c bench/scatter_density.c \
 *      build/native/libct.a -lm -pthread -o build/native/scatter_density && build/native/scatter_density */
#include "ct.h"
#include "scatter_digest.h"

#include <math.h>
#include <stdio.h>

static sd_buffers buf;
static ct_chunk chunk;

/* The chunk's area, km2: 16 x 16 sub-squares at their centres. */
static double chunk_area_km2(ct_key k, double radius_m)
{
    double n = 256.0 * (double)(1u << k.lod), du = 2.0 * 16.0 / n, a = 0.0;
    int i, j;
    for (j = 0; j < 16; j++)
        for (i = 0; i < 16; i++) {
            double u = 2.0 * ((k.x * 256.0 + i * 16.0 + 8.0) / n) - 1.0;
            double v = 2.0 * ((k.y * 256.0 + j * 16.0 + 8.0) / n) - 1.0, w = 1.0 + u * u + v * v;
            a += radius_m * radius_m * du * du / (w * sqrt(w));
        }
    return a * 1e-6;
}

int main(void)
{
    static double per_kind[CT_BIOME_COUNT][CT_SCATTER_KIND_COUNT], area[CT_BIOME_COUNT];
    int found[CT_BIOME_COUNT] = { 0 }, b, k, i, total = 6000;
    ct_config cfg;
    ct_world *w;
    ct_config_preset(&cfg, "balanced", NULL, 0);
    cfg.seed = 42;
    cfg.surface_lod = 12;
    w = ct_world_build(&cfg, NULL, NULL, NULL, 0);
    if (!w) return 1;
    for (i = 0; i < total; i++) {
        double z = 1.0 - 2.0 * (i + 0.5) / total, r = sqrt(1.0 - z * z), a = i * 2.399963229728653;
        double d[3] = { r * cos(a), z, r * sin(a) }, lx, ly;
        int count[CT_BIOME_COUNT] = { 0 }, top = 0, s;
        ct_key key;
        ct_scatter out = sd_out(&buf);
        ct_sample smp;
        if (ct_world_sample(w, d, &smp, NULL, 0) != CT_OK || smp.biome == CT_BIOME_WATER || found[smp.biome] >= 4)
            continue;
        ct_key_at(w, d, 12, &key, &lx, &ly, NULL, 0);
        if (ct_chunk_generate(w, key, &chunk, NULL, 0) != CT_OK) return 1;
        for (s = 0; s < CT_CHUNK_SAMPLES; s++) count[chunk.biome[s]]++;
        for (b = 1; b < CT_BIOME_COUNT; b++)
            if (count[b] > count[top]) top = b;
        if (count[top] < 0.95 * CT_CHUNK_SAMPLES || found[top] >= 4) continue;
        if (ct_chunk_scatter(w, &chunk, key, &out, NULL, 0) != CT_OK) return 1;
        found[top]++;
        area[top] += chunk_area_km2(key, cfg.radius_m);
        for (s = 0; s < (int)out.count; s++) per_kind[top][out.kind[s]] += 1.0;
    }
    printf("| biome | chunks | km2 |");
    for (k = 0; k < CT_SCATTER_KIND_COUNT; k++) printf(" %s |", ct_scatter_kind_get(k)->name);
    printf(" all | trees per ha |\n|---|---:|---:|");
    for (k = 0; k <= CT_SCATTER_KIND_COUNT + 1; k++) printf("---:|");
    printf("\n");
    for (b = 1; b < CT_BIOME_COUNT; b++) {
        double all = 0.0, trees;
        if (!found[b]) continue;
        printf("| %s | %d | %.1f |", ct_biome_name(b), found[b], area[b]);
        for (k = 0; k < CT_SCATTER_KIND_COUNT; k++) {
            printf(" %.0f |", per_kind[b][k] / area[b]);
            all += per_kind[b][k];
        }
        trees = per_kind[b][CT_SCATTER_CONIFER] + per_kind[b][CT_SCATTER_BROADLEAF] + per_kind[b][CT_SCATTER_PALM];
        printf(" %.0f | %.2f |\n", all / area[b], trees / area[b] / 100.0);
    }
    ct_world_free(w);
    return 0;
}
