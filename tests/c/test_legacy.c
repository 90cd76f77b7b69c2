/* test_legacy.c - ct_legacy.h: the Z-up axis swap, the biome-to-material
 * table against the core's own, the legacy sample call on a small world, and
 * the ready height source through a pointer of the old renderer's exact
 * callback type. */
#include "ct_legacy.h"
#include "surface/ct_surface.h"
#include "test.h"

#include <math.h>
#include <string.h>

/* The old surface renderer's callback type, spelled out as it declares it. */
typedef double (*legacy_height_fn)(const double n[3], int *material, void *user);

/* A zero the compiler cannot fold, so 0/0 is a run-time NaN without warnings. */
static double zero_d(void)
{
    volatile double z = 0.0;
    return z;
}

int main(void)
{
    double a[3] = { 0.25, -0.5, 0.75 }, w[3], b[3];
    int biome;
    char err[256];
    ct_config cfg;
    ct_world *world;

    /* Legacy up (+Z) is world up (+Y); legacy +Y is world +Z; x stays. */
    ct_legacy_to_world(a, w);
    CHECK(w[0] == 0.25 && w[1] == 0.75 && w[2] == -0.5, "to world: %g %g %g", w[0], w[1], w[2]);
    ct_world_to_legacy(w, b);
    CHECK(memcmp(a, b, sizeof a) == 0, "round trip");
    {
        double up[3] = { 0, 0, 1 };
        ct_legacy_to_world(up, up);   /* aliasing is allowed */
        CHECK(up[0] == 0 && up[1] == 1 && up[2] == 0, "legacy up -> world up");
    }

    /* The header's table must agree with the one behind ct_sample.material. */
    for (biome = -1; biome <= CT_BIOME_COUNT; biome++) {
        int want = (biome >= 0 && biome < CT_BIOME_COUNT) ? ct__biome_material(biome) : CT_LEGACY_ROCK;
        CHECK(ct_legacy_material_from_biome(biome) == want, "biome %d -> %d, core says %d",
              biome, ct_legacy_material_from_biome(biome), want);
    }
    CHECK(ct_legacy_material_from_biome(CT_BIOME_WATER) == CT_LEGACY_SEA, "water is sea");
    CHECK(ct_legacy_material_from_biome(CT_BIOME_DESERT) == CT_LEGACY_SHORE, "desert is shore");
    CHECK(strcmp(ct_legacy_material_name(CT_LEGACY_SNOW), "snow") == 0, "names");
    CHECK(strcmp(ct_legacy_material_name(9), "?") == 0, "unknown name");

    /* The legacy call equals ct_world_sample at the swapped direction. */
    ct_config_default(&cfg);
    cfg.macro_resolution = 16;
    cfg.surface_lod = 2;
    world = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(world != NULL, "build: %s", err);
    if (world) {
        int i, same = 0, n = 64;
        for (i = 0; i < n; i++) {
            double ld[3], wd[3], h = 0.0;
            int mat = -1;
            ct_sample s;
            ld[0] = (double)(i % 4) - 1.5;
            ld[1] = (double)((i / 4) % 4) - 1.5;
            ld[2] = (double)(i / 16) - 1.7;
            ct_legacy_to_world(ld, wd);
            if (ct_legacy_sample(world, ld, &h, &mat, err, sizeof err) != CT_OK) continue;
            if (ct_world_sample(world, wd, &s, NULL, 0) != CT_OK) continue;
            if (h == s.height_m && mat == s.material) same++;
        }
        CHECK(same == n, "legacy sample matches the core at %d of %d directions", same, n);
        {
            /* The height source must match ct_world_sample at the swapped
             * direction through the renderer's own function-pointer type. */
            legacy_height_fn fn = ct_legacy_height_source;
            int hits = 0, water = 0, land = 0;
            for (i = 0; i < n; i++) {
                double ld[3], wd[3], len, h;
                int mat = -1;
                ct_sample s;
                ld[0] = 0.9 * (double)(i % 8) - 3.1;
                ld[1] = 0.7 * (double)((i / 8) % 4) - 1.2;
                ld[2] = 0.45 * (double)(i / 8) - 1.6;
                len = sqrt(ld[0] * ld[0] + ld[1] * ld[1] + ld[2] * ld[2]);
                ld[0] /= len; ld[1] /= len; ld[2] /= len;
                ct_legacy_to_world(ld, wd);
                h = fn(ld, &mat, world);
                if (ct_world_sample(world, wd, &s, NULL, 0) != CT_OK) continue;
                if (h == s.height_m && mat == s.material) hits++;
                if (s.height_m < 0.0) water++; else land++;
            }
            CHECK(hits == n, "height source matches ct_world_sample at %d of %d directions", hits, n);
            CHECK(water > 0 && land > 0, "directions reach both sea bed (%d) and land (%d)", water, land);
            {
                double up[3] = { 0, 0, 1 }, nan3[3] = { 0, 0, 0 };
                int mat = -1;
                double h = fn(up, NULL, world);   /* material may be NULL */
                ct_sample s;
                double wup[3] = { 0, 1, 0 };
                CHECK(ct_world_sample(world, wup, &s, NULL, 0) == CT_OK && h == s.height_m,
                      "legacy up samples world up");
                nan3[0] = 0.0 / zero_d();
                CHECK(fn(nan3, &mat, world) == 0.0 && mat == CT_LEGACY_ROCK, "NaN direction: 0 m, rock");
                mat = -1;
                CHECK(fn(up, &mat, NULL) == 0.0 && mat == CT_LEGACY_ROCK, "no world: 0 m, rock");
            }
        }
        {
            double zero[3] = { 0, 0, 0 };
            CHECK(ct_legacy_sample(world, zero, NULL, NULL, err, sizeof err) == CT_ERR_DIRECTION,
                  "zero direction rejected");
            CHECK(ct_legacy_sample(world, NULL, NULL, NULL, err, sizeof err) != CT_OK, "NULL rejected");
        }
        ct_world_free(world);
    }
    return test_summary("legacy");
}
