/* relief.c - shore distance and the fractal/ridged relief mixed into the
 * walk heights away from pinned water boundaries.
 *
 * Land relief = relief_amplitude_m * height_scale * (coarse fBm + roughness *
 * fine fBm / 2 + ridge_scale * regional ridge_scale * ridged fBm). Ridged
 * noise is in [0,1], so ridges only ever lift land. Sea and inland-sea beds
 * get half the coarse+fine fBm and no ridges. Both fade in with the hop
 * distance from the shoreline over relief_shore_hops hops, starting at zero
 * on the pinned shore vertices, so relief never moves a coastline. */
#include "solve/ct_solve.h"

#include <stdlib.h>

ct_result ct__shore_distance(const ct__graph *g, const int32_t *body_v, float *shore_v,
                             char *err, size_t errlen)
{
    uint32_t V = g->V, v, k, head = 0, tail = 0;
    uint32_t *queue = (uint32_t *)malloc(sizeof *queue * (size_t)(V ? V : 1u));
    uint32_t *dist = (uint32_t *)calloc((size_t)(V ? V : 1u), sizeof *dist);
    if (!queue || !dist) {
        free(queue);
        free(dist);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory measuring shore distance");
    }
    /* Seeds: both sides of every shoreline, at one hop from the other kind. */
    for (v = 0; v < V; v++) {
        int wet = body_v[v] >= 0;
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)v + k];
            if (w != CT__NONE && (body_v[w] >= 0) != wet) {
                dist[v] = 1u;
                queue[tail++] = v;
                break;
            }
        }
    }
    while (head < tail) {
        uint32_t a = queue[head++];
        for (k = 0; k < 4u; k++) {
            uint32_t w = g->nbr[4u * (size_t)a + k];
            if (w != CT__NONE && dist[w] == 0u) {
                dist[w] = dist[a] + 1u;
                queue[tail++] = w;
            }
        }
    }
    /* No shoreline at all (all land or all water): "far from any shore". */
    for (v = 0; v < V; v++) shore_v[v] = dist[v] ? (float)dist[v] : (float)V;
    free(queue);
    free(dist);
    return CT_OK;
}

double ct__relief_fade(const ct_config *cfg, double shore_hops)
{
    double x = shore_hops - 1.0;   /* 0 on the shoreline vertices */
    if (cfg->relief_shore_hops <= 0.0) return x > 0.0 ? 1.0 : 0.0;
    return ct__smoothstep(0.0, cfg->relief_shore_hops, x);
}

/* memo: NULL, or CT__RELIEF_MEMOS memos (coarse, fine, ridge) kept over a
 * loop of neighbouring vertices; the values are the same bits either way. */
static double ct__relief_fbm(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double roughness)
{
    uint32_t seed = ct__subseed(cfg->seed, CT_SALT_RELIEF);
    int oct = (int)cfg->relief_octaves, coarse = oct < 2 ? oct : 2;
    double f = ct__fbm3_memo(memo, seed, dir, cfg->relief_frequency, coarse, 2.0, 0.5);
    /* Roughness scales only the fine octaves: broad shapes stay put. */
    if (oct > 2)
        f += 0.5 * roughness *
             ct__fbm3_memo(memo ? memo + 1 : NULL, ct__hash2(seed, 1u), dir, cfg->relief_frequency * 4.0, oct - 2,
                           2.0, 0.5);
    return f;
}

double ct__relief_at(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double height_scale,
                     double roughness, double ridge_scale)
{
    double f = ct__relief_fbm(cfg, memo, dir, roughness), ridge = 0.0;
    double rs = cfg->ridge_scale * ridge_scale;
    if (rs > 0.0)
        ridge = rs * ct__ridged3_memo(memo ? memo + 2 : NULL, ct__subseed(cfg->seed, CT_SALT_RIDGE), dir,
                                      cfg->relief_frequency, (int)cfg->relief_octaves, 2.0, 0.5);
    return cfg->relief_amplitude_m * height_scale * (f + ridge);
}

double ct__relief_sea_at(const ct_config *cfg, ct__fbm_memo *memo, const double dir[3], double roughness)
{
    return 0.5 * cfg->relief_amplitude_m * ct__relief_fbm(cfg, memo, dir, roughness);
}
