/* biome.c - the eight surface biomes, their names, their legacy materials and
 * the rules that pick a biome and a shade from the shared field.
 *
 * Biomes: water, sand, grass, forest, exposed rock, snow, plus
 *   desert  - dry lowland (moisture below 0.3), warm latitudes;
 *   tundra  - cold lowland: high latitude or high ground below the tree line.
 * Rock also covers land steeper than rock_slope when that knob is non-zero
 * (the slope comes from the ranges layer's gradient, sample.c).
 * With biome_edges > 0 land follows biome_edges.c's rules instead.
 * Palette index = biome * 5 + shade, shade 0 darkest .. 4 lightest. */
#include "surface/ct_surface.h"

#include <math.h>

static const char *const ct__biome_names[CT_BIOME_COUNT] = {
    "water", "sand", "grass", "forest", "rock", "snow", "desert", "tundra"
};

const char *ct_biome_name(int biome)
{
    return (biome >= 0 && biome < CT_BIOME_COUNT) ? ct__biome_names[biome] : "?";
}

int ct__biome_material(int biome)
{
    static const int map[CT_BIOME_COUNT] = {
        CT_MAT_SEA,     /* water */
        CT_MAT_SHORE,   /* sand */
        CT_MAT_GRASS,   /* grass */
        CT_MAT_FOREST,  /* forest */
        CT_MAT_ROCK,    /* rock */
        CT_MAT_SNOW,    /* snow */
        CT_MAT_SHORE,   /* desert: sandy ground */
        CT_MAT_GRASS    /* tundra: low vegetation */
    };
    return (biome >= 0 && biome < CT_BIOME_COUNT) ? map[biome] : CT_MAT_ROCK;
}

/* Maps q in about [0,1] to a shade 0..4. */
int ct__biome_shade(double q)
{
    double s = floor(q * 5.0);
    if (!(s >= 0.0)) return 0;       /* also catches NaN */
    return s > 4.0 ? 4 : (int)s;
}

/* Warm lowland by moisture (m) and shade jitter (j): desert, grass or
 * forest. The last step of both classifications (biome_edges.c too). */
int ct__biome_lowland(double m, double j, int *shade)
{
    if (m < 0.3) {
        *shade = ct__biome_shade(0.3 + (0.3 - m) * 2.0 + j);
        return CT_BIOME_DESERT;
    }
    if (m > 0.58) {
        *shade = ct__biome_shade(0.9 - (m - 0.58) * 1.5 + j);
        return CT_BIOME_FOREST;
    }
    *shade = ct__biome_shade(0.9 - (m - 0.3) * 2.0 + j);
    return CT_BIOME_GRASS;
}

int ct__biome_classify(const ct_config *cfg, const ct__biome_in *in, int *shade)
{
    /* Height limits drop towards the poles: latitude2 = sin^2(latitude), so
     * the lines sit at 25% of their equatorial height at a pole. */
    double cold = 1.0 - 0.75 * in->latitude2;
    double snow = cfg->snow_line_m * cold, tree = cfg->tree_line_m * cold;
    double h = in->height_m, m = in->moisture, j = 0.12 * in->jitter;
    /* Temperature proxy: 1 at the equator at sea level, 0 at a pole or at
     * the equatorial snow line. */
    double warmth = 1.0 - in->latitude2 - (cfg->snow_line_m > 0.0 ? h / cfg->snow_line_m : 0.0);

    if (in->has_water) {
        /* Deep water dark, shallow water light: depth over a 400 m scale. */
        double d = in->depth_m > 0.0 ? in->depth_m : 0.0;
        *shade = ct__biome_shade(1.0 - d / (d + 400.0) + 0.5 * j);
        return CT_BIOME_WATER;
    }
    if (cfg->biome_edges > 0.0) return ct__biome_classify_edges(cfg, in, shade);
    /* Steep ground sheds soil and snow: bare rock at any height, which also
     * keeps ridges and valley walls rock-grey above the snow line (snow
     * stays on peaks and gentle high ground). Off when rock_slope is 0. */
    if (cfg->rock_slope > 0.0 && in->slope > cfg->rock_slope) {
        *shade = ct__biome_shade(0.2 + 0.4 * (in->slope - cfg->rock_slope) / (in->slope + 0.5) + j);
        return CT_BIOME_ROCK;
    }
    if (h >= snow) {
        *shade = ct__biome_shade(0.55 + (h - snow) / (snow + 2000.0) + j);
        return CT_BIOME_SNOW;
    }
    if (h >= tree) {
        *shade = ct__biome_shade(0.25 + 0.5 * (h - tree) / (snow - tree + 1.0) + j);
        return CT_BIOME_ROCK;
    }
    if (in->above_shore_m < cfg->beach_height_m && in->shore_hops < 1.5) {
        *shade = ct__biome_shade(0.75 - 0.5 * m + j);
        return CT_BIOME_SAND;
    }
    if (warmth < 0.3) {
        *shade = ct__biome_shade(0.5 + j + (warmth - 0.15));
        return CT_BIOME_TUNDRA;
    }
    return ct__biome_lowland(m, j, shade);
}
