/* mask.c - the signed land mask and per-vertex region rules.
 *
 * For every macro vertex: the continent domain warp (shared with the region
 * fields), the blended region weights and their effective settings, the
 * vertex's deterministic front delay, and the signed mask (> 0 land):
 * warped continent fBm + land_bias + coast noise scaled by the regional
 * roughness, or the caller's ct_shape_fn instead. The build decides land and
 * water from the stored float, so a snapshot reproduces the same split. */
#include "solve/ct_solve.h"

#include <stdlib.h>

static float ct__to_float(double x)
{
    /* Keep the sign and stay finite in float: huge shape values saturate. */
    if (x > 1e30) return 1e30f;
    if (x < -1e30) return -1e30f;
    return (float)x;
}

ct_result ct__mask_fill(ct__field *w, ct_shape_fn shape, void *user, ct__vertex_rules *rules,
                        char *err, size_t errlen)
{
    const ct_config *cfg = &w->cfg;
    uint32_t V = w->vertex_count, v;
    uint32_t seed_cont = ct__subseed(cfg->seed, CT_SALT_CONTINENT);
    uint32_t seed_coast = ct__subseed(cfg->seed, CT_SALT_COAST);
    uint32_t seed_delay = ct__subseed(cfg->seed, CT_SALT_DELAY);
    /* Lattice-hash memos, one per field: vertex v + 1 mostly lies in the
     * same low-frequency cells as v (tests/c/test_noise_exact.c checks a memo
     * changes no bit). Heap, not stack: about 7 KB. */
    ct__fbm_memo *memo = (ct__fbm_memo *)calloc(4, sizeof *memo);   /* warp, regions, continent, coast */
    if (!memo) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory filling the land mask");
    for (v = 0; v < V; v++) {
        const double *dir = w->dir_v + 3u * (size_t)v;
        double pw[3], wt[4], m;
        ct_region_info eff;
        uint32_t max_delay;
        int k;
        ct__continent_warp(cfg, &memo[0], dir, pw);
        ct__region_weights_warped(cfg, &memo[1], pw, wt);
        ct__region_effective(cfg, wt, &eff);
        for (k = 0; k < CT_REGION_COUNT; k++) w->region_w_v[4u * (size_t)v + (uint32_t)k] = (float)wt[k];
        rules->height_scale[v] = eff.height_scale;
        rules->roughness[v] = eff.roughness;
        rules->ridge_scale[v] = eff.ridge_scale;
        /* Delay in [0, max] passes, uniform per vertex: fronts stall here. */
        max_delay = (uint32_t)eff.delay_passes;
        if (max_delay > 200u) max_delay = 200u;
        rules->delay[v] = (uint8_t)(ct__unit(ct__hash2(seed_delay, v)) * (double)(max_delay + 1u));
        if (shape) {
            m = shape(dir, user);
            if (!ct__is_finite(m)) {
                free(memo);
                return ct__fail(err, errlen, CT_ERR_SHAPE,
                                "shape callback returned %s at direction (%.17g, %.17g, %.17g)",
                                m != m ? "NaN" : "infinity", dir[0], dir[1], dir[2]);
            }
        } else {
            m = ct__fbm3_memo(&memo[2], seed_cont, pw, cfg->continent_frequency, (int)cfg->continent_octaves, 2.0,
                         cfg->continent_gain) + cfg->land_bias;
            if (cfg->coast_noise > 0.0)
                m += cfg->coast_noise * eff.roughness *
                     ct__fbm3_memo(&memo[3], seed_coast, pw, cfg->coast_frequency, 3, 2.0, 0.5);
        }
        w->mask_v[v] = ct__to_float(m);
    }
    free(memo);
    return CT_OK;
}
