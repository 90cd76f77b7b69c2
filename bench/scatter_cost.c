/* scatter_cost.c - the native half of bench/scatter.mjs: a line server (as
 * bench_native.c) over the bench world (balanced, seed 42, surface_lod 12)
 * that times one scatter (of a surface_lod chunk it already holds, or of a
 * coarser key from point queries), or one sites query,
 * per command, and answers one JSON line each.
 *
 *   cc -std=c99 -O2 -ffp-contract=off -Icore/include -Itests/c bench/scatter_cost.c \
 *      build/native/libct.a -lm -pthread -o build/native/scatter_cost
 *   commands: "scatter FACE LOD X Y", "sites KIND COUNT SPACING_M", "quit" */
#define _POSIX_C_SOURCE 200809L
#include "ct.h"
#include "scatter_digest.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static sd_buffers buf;
static ct_chunk chunk;
static ct_site sites[CT_SITES_MAX];

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(void)
{
    char line[256], err[256], kind[32];
    ct_config cfg;
    ct_world *w;
    ct_key held = { -1, 0, 0, 0 };
    ct_config_preset(&cfg, "balanced", NULL, 0);
    cfg.seed = 42;
    cfg.surface_lod = 12;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    if (!w) return 1;
    while (fgets(line, sizeof line, stdin)) {
        int face, lod;
        unsigned x, y, count;
        double spacing, t0, ms;
        if (sscanf(line, "scatter %d %d %u %u", &face, &lod, &x, &y) == 4) {
            ct_key k = ct_key_make(face, lod, x, y);
            ct_scatter s = sd_out(&buf);
            int fine = lod == (int)cfg.surface_lod;   /* coarser keys: point queries, no chunk */
            if (fine && (held.face != face || held.lod != lod || held.x != x || held.y != y)) {
                if (ct_chunk_generate(w, k, &chunk, err, sizeof err) != CT_OK) break;
                held = k;
            }
            t0 = now_ms();
            if (ct_chunk_scatter(w, fine ? &chunk : NULL, k, &s, err, sizeof err) != CT_OK) break;
            ms = now_ms() - t0;
            printf("{\"ok\":true,\"ms\":%.4f,\"count\":%u}\n", ms, s.count);
        } else if (sscanf(line, "sites %31s %u %lf", kind, &count, &spacing) == 3) {
            ct_site_query q = { 0 };
            uint32_t n = 0;
            int k;
            q.kind = -1;
            for (k = 0; k < CT_SITE_KIND_COUNT; k++)
                if (strcmp(kind, ct_site_kind_name(k)) == 0) q.kind = k;
            q.count = count;
            q.min_spacing_m = spacing;
            t0 = now_ms();
            if (ct_world_sites(w, &q, sites, CT_SITES_MAX, &n, err, sizeof err) != CT_OK) break;
            ms = now_ms() - t0;
            printf("{\"ok\":true,\"ms\":%.4f,\"count\":%u,\"digest\":\"%016llx\"}\n", ms, n,
                   (unsigned long long)sd_sites(sites, n));
        } else if (strncmp(line, "quit", 4) == 0) {
            break;
        } else {
            printf("{\"ok\":false,\"error\":\"unknown command\"}\n");
        }
        fflush(stdout);
    }
    ct_world_free(w);
    return 0;
}
