/* scatter_golden_read.h - reads tests/golden/scatter.txt for the native
 * scatter and sites tests: the world line, then each scatter and sites line
 * handed to a callback. */
#ifndef CT_SCATTER_GOLDEN_READ_H
#define CT_SCATTER_GOLDEN_READ_H

#include <stdio.h>

/* The world the golden file names (balanced, its seed and surface_lod). */
static inline ct_world *sg_world(void)
{
    FILE *f = fopen("tests/golden/scatter.txt", "r");
    char line[256], err[256];
    unsigned seed = 0, lod = 0;
    ct_config cfg;
    ct_world *w = NULL;
    CHECK(f != NULL, "tests/golden/scatter.txt must be readable from the repository root");
    if (!f) return NULL;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "world balanced %u %u", &seed, &lod) == 2) break;
    fclose(f);
    ct_config_preset(&cfg, "balanced", NULL, 0);
    cfg.seed = seed;
    cfg.surface_lod = lod;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL && lod == 12, "golden world: %s", err);
    return w;
}

/* Calls fn(line, user) for every line starting with prefix. */
static inline void sg_lines(const char *prefix, void (*fn)(const char *line, void *user), void *user)
{
    FILE *f = fopen("tests/golden/scatter.txt", "r");
    char line[256];
    int n = 0;
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, prefix, strlen(prefix)) != 0) continue;
        fn(line, user);
        n++;
    }
    fclose(f);
    CHECK(n > 0, "golden file has %s lines", prefix);
}

#endif
