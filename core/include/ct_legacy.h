/* ct_legacy.h - glue for engines that link the core into their own build
 * (e.g. `make wasm-lib` and their own emcc link) and still speak the older
 * renderer's conventions.
 *
 * WHAT IT DOES
 *   1. Axis conversion. The old renderer's directions are Z-up; the core is
 *      Y-up. world = {legacy.x, legacy.z, legacy.y}, and the same swap maps
 *      back. The swap is a reflection (determinant -1): convert directions and
 *      positions with it, but flip triangle winding if you convert meshes.
 *   2. Materials. The old renderer knows six materials: sea, shore, grass,
 *      forest, rock and snow. The core's eight biomes map onto them (desert
 *      counts as shore, tundra as grass), the same table ct_sample.material
 *      uses, so space view and surface agree.
 *   3. One call for the old height callback: a legacy direction in, height
 *      and material out, through ct_world_sample.
 *   4. A ready height source of exactly the old surface renderer's callback
 *      type, double fn(const double n[3], int *material, void *user), with
 *      user the ct_world: register ct_legacy_height_source with the world as
 *      user (see examples/c-game/).
 *
 * WHAT IT DOES NOT
 *   Clamp negative heights to zero or recolour terrain (the old callback
 *   path did; it then cannot show the sea floor or lake surfaces), replace
 *   wrapped lon/lat addressing (use ct_key_at at surface_lod), or own any
 *   state. Everything is static inline C99; include it after nothing else. */
#ifndef CT_LEGACY_H
#define CT_LEGACY_H

#include "ct.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Material values of the legacy renderer, in its order. */
typedef enum ct_legacy_material {
    CT_LEGACY_SEA = CT_MAT_SEA,
    CT_LEGACY_SHORE = CT_MAT_SHORE,
    CT_LEGACY_GRASS = CT_MAT_GRASS,
    CT_LEGACY_FOREST = CT_MAT_FOREST,
    CT_LEGACY_ROCK = CT_MAT_ROCK,
    CT_LEGACY_SNOW = CT_MAT_SNOW
} ct_legacy_material;

/* Legacy Z-up vector -> core Y-up vector (in and out may alias). */
static inline void ct_legacy_to_world(const double legacy[3], double world[3])
{
    double x = legacy[0], y = legacy[1], z = legacy[2];
    world[0] = x;
    world[1] = z;
    world[2] = y;
}

/* Core Y-up vector -> legacy Z-up vector (in and out may alias). */
static inline void ct_world_to_legacy(const double world[3], double legacy[3])
{
    double x = world[0], y = world[1], z = world[2];
    legacy[0] = x;
    legacy[1] = z;
    legacy[2] = y;
}

/* Legacy material of a ct_biome; unknown values count as rock (solid ground
 * is the safer guess for collision). */
static inline int ct_legacy_material_from_biome(int biome)
{
    switch (biome) {
    case CT_BIOME_WATER:  return CT_LEGACY_SEA;
    case CT_BIOME_SAND:   return CT_LEGACY_SHORE;
    case CT_BIOME_GRASS:  return CT_LEGACY_GRASS;
    case CT_BIOME_FOREST: return CT_LEGACY_FOREST;
    case CT_BIOME_ROCK:   return CT_LEGACY_ROCK;
    case CT_BIOME_SNOW:   return CT_LEGACY_SNOW;
    case CT_BIOME_DESERT: return CT_LEGACY_SHORE;   /* sandy ground */
    case CT_BIOME_TUNDRA: return CT_LEGACY_GRASS;   /* low vegetation */
    default:              return CT_LEGACY_ROCK;
    }
}

static inline const char *ct_legacy_material_name(int material)
{
    static const char *const names[6] = { "sea", "shore", "grass", "forest", "rock", "snow" };
    return (material >= 0 && material < 6) ? names[material] : "?";
}

/* The old height callback: terrain bed height (metres, negative under the
 * sea) and legacy material at a legacy Z-up direction. Either output may be
 * NULL. Errors as ct_world_sample (zero/NaN direction, NULL world). */
static inline ct_result ct_legacy_sample(const ct_world *world, const double legacy_dir[3],
                                         double *height_m, int *material,
                                         char *err, size_t errlen)
{
    double dir[3];
    ct_sample s;
    ct_result r;
    if (!legacy_dir) return ct_world_sample(world, NULL, &s, err, errlen);
    ct_legacy_to_world(legacy_dir, dir);
    r = ct_world_sample(world, dir, &s, err, errlen);
    if (r != CT_OK) return r;
    if (height_m) *height_m = s.height_m;
    if (material) *material = ct_legacy_material_from_biome(s.biome);
    return CT_OK;
}

/* The old surface renderer's height source: n is a unit direction in the
 * legacy Z-up frame, the result is the terrain bed height in metres (negative
 * under the sea; the renderer scales it into its own cells), *material the
 * legacy material (material may be NULL). user is the const ct_world *. The
 * callback type has no error channel: a NULL world or an invalid direction
 * gives 0 m and CT_LEGACY_ROCK, the same safe guess as unknown biomes. */
static inline double ct_legacy_height_source(const double n[3], int *material, void *user)
{
    double height_m = 0.0;
    int mat = CT_LEGACY_ROCK;
    if (ct_legacy_sample((const ct_world *)user, n, &height_m, &mat, NULL, 0) != CT_OK) {
        height_m = 0.0;
        mat = CT_LEGACY_ROCK;
    }
    if (material) *material = mat;
    return height_m;
}

#ifdef __cplusplus
}
#endif
#endif /* CT_LEGACY_H */
