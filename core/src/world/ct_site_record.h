/* ct_site_record.h - a site (ct_site) as the flat record of doubles that the
 * WebAssembly ABI hands to JS (wasm/ct_wasm_scatter.c, read back by
 * wasm/ct_sites.mjs) and that the golden sites digest hashes
 * (tests/c/scatter_digest.h): one packing, so the two cannot drift apart. */
#ifndef CT_SITE_RECORD_H
#define CT_SITE_RECORD_H

#include "ct.h"

/* dir[3], height, relief, slope, fresh water, coast, biome, score. */
#define CT_SITE_RECORD_DOUBLES 10

static inline void ct__site_record(const ct_site *s, double out[CT_SITE_RECORD_DOUBLES])
{
    int k;
    for (k = 0; k < 3; k++) out[k] = s->dir[k];
    out[3] = s->height_m;
    out[4] = s->relief_m;
    out[5] = s->slope_deg;
    out[6] = s->fresh_water_m;
    out[7] = s->coast_m;
    out[8] = (double)s->biome;
    out[9] = s->score;
}

#endif
