/* biome_edges.c - biome edges that follow the ground (biome_edges > 0).
 *
 * The reference rules (biome.c) draw each edge as one contour of one field:
 * the snow and tree lines are contours of height, the beach is "below 30 m
 * and within 1.5 macro hops of water", and moisture bands are contours of a
 * bilinear macro field. Hop counts are integers on 150 km macro vertices, so
 * their contours run along macro cells, and from orbit coastal lowlands
 * turned into stair-stepped sand squares. Here every edge mixes the ground
 * with a world-anchored noise:
 *   - snow and tree lines drop on ground that falls towards the pole (less
 *     sun) and rise on the sunward side, more so at high latitude, and wander
 *     a few hundred metres up and down with the edge noise;
 *   - bare rock starts at a slope that the noise varies by +-20% and that
 *     drops by up to 30% between the tree and snow lines (scree);
 *   - between the tree and snow lines, gentle moist ground is alpine meadow
 *     (tundra) and rock takes over with height, slope and dryness;
 *   - sand is a beach: low, gentle land in a triangle that touches water
 *     (shore hops under about 1), the height limit varied by the noise;
 *   - the moisture and warmth thresholds wander with the noise.
 * The edge noise is fBm of the direction alone (no grid, no chunk), so
 * ct_world_sample equals chunk vertices and coarse LODs are exact subsets.
 * Water keeps the reference rule (biome.c). */
#include "surface/ct_surface.h"

#include <math.h>

/* 256 on the unit sphere: 25 km waves at Earth's radius, halving per octave. */
#define CT__EDGE_FREQUENCY 256.0
#define CT__EDGE_GAIN 0.55
/* Normalised fBm stays within about +-0.35; 3 spreads it over [-1,1]. */
#define CT__EDGE_SPREAD 3.0
#define CT__EDGE_MAX_OCTAVES 5

/* One octave per LOD past 4, so the finest wave spans about twenty samples of
 * surface_lod (finer breaks are the renderer's, render-only), at most 5
 * (1.6 km waves): the sample's own height carries the ground below that. */
int ct__biome_edge_octaves(const ct_config *cfg)
{
    int n = (int)cfg->surface_lod - 4;
    if (!(cfg->biome_edges > 0.0)) return 0;
    return n < 2 ? 2 : n > CT__EDGE_MAX_OCTAVES ? CT__EDGE_MAX_OCTAVES : n;
}

double ct__biome_edge_noise(uint32_t seed, int octaves, const double dir[3])
{
    double v = ct__fbm3_fast(seed, dir, CT__EDGE_FREQUENCY, octaves, 2.0, CT__EDGE_GAIN, 0, NULL);
    return ct__clamp(CT__EDGE_SPREAD * v, -1.0, 1.0);
}

void ct__biome_edge_noise4(uint32_t seed, int octaves, ct__lattice_memo *memo, const double p[12], const int want[4],
                           double out[4])
{
    int oct[4], k;
    for (k = 0; k < 4; k++) oct[k] = want[k] ? octaves : 0;
    ct__fbm3_fast_x4n_memo(memo, seed, p, CT__EDGE_FREQUENCY, oct, 2.0, CT__EDGE_GAIN, 0, out, NULL);
    for (k = 0; k < 4; k++) out[k] = want[k] ? ct__clamp(CT__EDGE_SPREAD * out[k], -1.0, 1.0) : 0.0;
}

/* The ground's facing in [-1,1]: 1 for a slope of 0.4 or more falling
 * towards the nearer pole at the pole, scaled by sin(latitude) (none at the
 * equator, where the noon sun stands overhead). */
static double ct__edge_facing(const ct__biome_in *in)
{
    return ct__clamp(in->pole_slope / 0.4, -1.0, 1.0) * sqrt(in->latitude2);
}

/* Between the tree and snow lines: rock (scree, bare ground) where height,
 * slope and dryness add up, alpine meadow (tundra) elsewhere. */
static int ct__edge_alpine(const ct_config *cfg, const ct__biome_in *in, double tree, double snow, double e, double j,
                           int *shade)
{
    double z = (in->height_m - tree) / (snow - tree + 1.0);
    double steep = cfg->rock_slope > 0.0 ? 0.5 * in->slope / cfg->rock_slope : 0.0;
    double bare = z + steep + 0.3 * (0.5 - in->moisture) + 0.25 * e;
    if (bare > 0.75) {
        *shade = ct__biome_shade(0.25 + 0.5 * z + j);
        return CT_BIOME_ROCK;
    }
    *shade = ct__biome_shade(0.55 - 0.3 * z + j);
    return CT_BIOME_TUNDRA;
}

int ct__biome_classify_edges(const ct_config *cfg, const ct__biome_in *in, int *shade)
{
    double k = cfg->biome_edges, e = k * in->edge, face = k * ct__edge_facing(in);
    double cold = 1.0 - 0.75 * in->latitude2, h = in->height_m;
    double snow = cfg->snow_line_m * cold * (1.0 - 0.12 * face + 0.08 * e);
    double tree = cfg->tree_line_m * cold * (1.0 - 0.08 * face + 0.06 * e);
    double m = in->moisture + 0.08 * e, j = 0.12 * in->jitter + 0.06 * e;
    double warmth = 1.0 - in->latitude2 - (cfg->snow_line_m > 0.0 ? h / cfg->snow_line_m : 0.0) - 0.05 * face;
    double rock = cfg->rock_slope * (1.0 + 0.2 * e) * (1.0 - 0.3 * ct__smoothstep(tree, snow, h));

    if (cfg->rock_slope > 0.0 && in->slope > rock) {
        *shade = ct__biome_shade(0.2 + 0.4 * (in->slope - rock) / (in->slope + 0.5) + j);
        return CT_BIOME_ROCK;
    }
    if (h >= snow) {
        *shade = ct__biome_shade(0.55 + (h - snow) / (snow + 2000.0) + j);
        return CT_BIOME_SNOW;
    }
    if (h >= tree) return ct__edge_alpine(cfg, in, tree, snow, e, j, shade);
    if (in->shore_hops < 1.0 + 0.25 * e && in->above_shore_m < cfg->beach_height_m * (0.65 + 0.35 * e) &&
        !(cfg->rock_slope > 0.0 && in->slope > 0.5 * cfg->rock_slope)) {
        *shade = ct__biome_shade(0.75 - 0.5 * m + j);
        return CT_BIOME_SAND;
    }
    if (warmth + 0.06 * e < 0.3) {
        *shade = ct__biome_shade(0.5 + j + (warmth - 0.15));
        return CT_BIOME_TUNDRA;
    }
    return ct__biome_lowland(m, j, shade);
}
