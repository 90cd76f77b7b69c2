/* chunk_cost.h - what the native chunk-cost programs (ground_cost.c,
 * skip_cost.c) share: thread CPU time, a balanced world at a surface_lod
 * with name=value overrides from the command line, a chunk's dry share and
 * a comparison for qsort. Header-only: each program is one file to compile. */
#ifndef CT_BENCH_CHUNK_COST_H
#define CT_BENCH_CHUNK_COST_H
#include "ct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

/* The balanced preset, argv[first..] as name=value overrides (others are
 * skipped), then surface_lod = lod. Exits on a bad override. */
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

static double dry_share(const ct_chunk *c)
{
    size_t k, dry = 0;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++) dry += c->water[k] == CT_NO_WATER_CODE;
    return (double)dry / CT_CHUNK_SAMPLES;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
#endif
