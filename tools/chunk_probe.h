/* chunk_probe.h - a 3x3 probe of a chunk key with point samples, the cheap
 * screen the chunk surveys (landforms_chunks.c, terrain_stats_chunks.c) run
 * before generating a candidate chunk. Header-only: both tools link it
 * without a Makefile entry of its own. */
#ifndef CHUNK_PROBE_H
#define CHUNK_PROBE_H

#include "ct.h"

#define CHUNK_PROBE_NONE 9

/* Samples key (ct_world_sample) at local (first + step * a, first + step * b)
 * for b, then a, in 0..2 and returns the index 3b + a of the first sample
 * hit() accepts, CHUNK_PROBE_NONE when none is accepted, or -1 when a
 * direction or sample fails. */
static inline int chunk_probe_3x3(const ct_world *w, ct_key key, double first, double step,
                                  int (*hit)(const ct_sample *s))
{
    int a, b;
    char err[256];
    for (b = 0; b < 3; b++) {
        for (a = 0; a < 3; a++) {
            double dir[3];
            ct_sample s;
            if (ct_key_direction(key, first + step * a, first + step * b, dir, err, sizeof err) != CT_OK ||
                ct_world_sample(w, dir, &s, err, sizeof err) != CT_OK)
                return -1;
            if (hit(&s)) return 3 * b + a;
        }
    }
    return CHUNK_PROBE_NONE;
}

#endif
