/* regions.c - the four blended rule profiles (plains, ridges, broken,
 * basins): continuous weights at any direction and the effective settings
 * they give.
 *
 * Each profile has its own smooth fBm "affinity" field, evaluated on the same
 * domain-warped point as the continent mask (so region patches bend with the
 * continents). The weights are a polynomial soft arg-max of the four fields:
 * a profile within region_blend of the best one gets a smoothstep share,
 * anything further gets none. No exp(): only +,-,*,/ so WASM agrees with
 * native. The weights are continuous because max() and the clamp are. */
#include "solve/ct_solve.h"

#include <math.h>

static const char *const ct__region_names[CT_REGION_COUNT] = {
    "plains", "ridges", "broken", "basins"
};

const char *ct_region_name(int region)
{
    return (region >= 0 && region < CT_REGION_COUNT) ? ct__region_names[region] : "?";
}

void ct__continent_warp(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double pw[3])
{
    ct__warp3_memo(memo, ct__subseed(cfg->seed, CT_SALT_WARP), dir, cfg->warp_frequency, cfg->warp_strength, pw);
}

void ct__region_weights_warped(const ct_config *cfg, ct__fbm_memo *memo, const double pw[3], double w[4])
{
    uint32_t base = ct__subseed(cfg->seed, CT_SALT_REGION), seeds[CT_REGION_COUNT];
    double f[CT_REGION_COUNT], best, sum = 0.0;
    int k;
    /* The four fields at one point share their lattice cells (bit for bit
     * four ct__fbm3 calls). */
    for (k = 0; k < CT_REGION_COUNT; k++) seeds[k] = ct__hash2(base, (uint32_t)k);
    ct__fbm3_multi_memo(memo, seeds, CT_REGION_COUNT, pw, cfg->region_frequency, 3, 2.0, 0.5, f);
    best = f[0];
    for (k = 1; k < CT_REGION_COUNT; k++)
        if (f[k] > best) best = f[k];
    for (k = 0; k < CT_REGION_COUNT; k++) {
        double t = 1.0 - (best - f[k]) / cfg->region_blend;
        w[k] = ct__smooth01(t < 0.0 ? 0.0 : t);
        sum += w[k];
    }
    /* The best profile always has weight 1 before normalising, so sum >= 1. */
    for (k = 0; k < CT_REGION_COUNT; k++) w[k] /= sum;
}

void ct__region_weights(const ct_config *cfg, const double dir[3], double w[4])
{
    double pw[3];
    ct__continent_warp(cfg, NULL, dir, pw);
    ct__region_weights_warped(cfg, NULL, pw, w);
}

void ct__region_effective(const ct_config *cfg, const double w[4], ct_region_info *out)
{
    const double hs[CT_REGION_COUNT] = { cfg->plains_height_scale, cfg->ridges_height_scale,
                                         cfg->broken_height_scale, cfg->basins_height_scale };
    const double ro[CT_REGION_COUNT] = { cfg->plains_roughness, cfg->ridges_roughness,
                                         cfg->broken_roughness, cfg->basins_roughness };
    const double rs[CT_REGION_COUNT] = { cfg->plains_ridge_scale, cfg->ridges_ridge_scale,
                                         cfg->broken_ridge_scale, cfg->basins_ridge_scale };
    const double dp[CT_REGION_COUNT] = { cfg->plains_delay_passes, cfg->ridges_delay_passes,
                                         cfg->broken_delay_passes, cfg->basins_delay_passes };
    double s = cfg->region_strength, h = 0.0, r = 0.0, g = 0.0, d = 0.0;
    int k;
    out->dominant = 0;
    for (k = 0; k < CT_REGION_COUNT; k++) {
        out->weight[k] = w[k];
        if (w[k] > w[out->dominant]) out->dominant = k;
        h += w[k] * hs[k];
        r += w[k] * ro[k];
        g += w[k] * rs[k];
        d += w[k] * dp[k];
    }
    /* Strength blends towards the neutral profile (multipliers 1, delay 0),
     * so strength 0 removes every profile effect exactly. */
    out->height_scale = 1.0 + s * (h - 1.0);
    out->roughness = 1.0 + s * (r - 1.0);
    out->ridge_scale = 1.0 + s * (g - 1.0);
    /* The maximum per-vertex front delay actually used by the walks there. */
    out->delay_passes = (double)cfg->front_delay_passes + floor(s * d + 0.5);
}

ct_result ct__region_at(const ct_config *cfg, const double dir[3], ct_region_info *out, char *err, size_t errlen)
{
    double d[3], len2, len, w[4];
    if (!cfg || !dir || !out) return ct__fail(err, errlen, CT_ERR_NULL, "world, dir or out is NULL");
    if (!ct__is_finite(dir[0]) || !ct__is_finite(dir[1]) || !ct__is_finite(dir[2]))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "direction has a NaN or infinite component");
    len2 = ct__dot3(dir, dir);
    if (!(len2 > 0.0) || !ct__is_finite(len2))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "direction is zero or too large to normalise");
    len = sqrt(len2);
    d[0] = dir[0] / len;
    d[1] = dir[1] / len;
    d[2] = dir[2] / len;
    ct__region_weights(cfg, d, w);
    ct__region_effective(cfg, w, out);
    return CT_OK;
}
