/* test_world.h - a world for a native test: name=value text applied over a
 * config the test has set up (a preset, knobs of its own), then built; a bad
 * config or a failed build is a failed check and NULL. Include after ct.h
 * and test.h. */
#ifndef CT_TEST_WORLD_H
#define CT_TEST_WORLD_H

#include <math.h>
#include <stdint.h>

static ct_world *test_world_build(ct_config *cfg, const char *text)
{
    char err[256];
    ct_world *w;
    if (ct_config_parse(cfg, text, err, sizeof err) != CT_OK) {
        CHECK(0, "config: %s", err);
        return NULL;
    }
    w = ct_world_build(cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    return w;
}

/* The next direction of a fixed sequence (an LCG in *s, the same on every
 * machine) into d: 1, or 0 for a draw too short to normalise (skip it). */
static inline int test_world_next_dir(uint32_t *s, double d[3])
{
    double len;
    int k;
    for (k = 0; k < 3; k++) {
        *s = *s * 1103515245u + 12345u;
        d[k] = (double)((*s >> 8) & 0xffffu) / 32768.0 - 1.0;
    }
    len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 0.1)) return 0;
    for (k = 0; k < 3; k++) d[k] /= len;
    return 1;
}

#endif
