/* test_sites.c - ct_world_sites: the golden digests, each kind's rules
 * (dry, slope, relief, ports on the coast with deep water), spacing,
 * determinism, a search near a point, and bad input. */
#include "ct.h"
#include "test.h"
#include "scatter_digest.h"
#include "scatter_golden_read.h"

#include <math.h>

static ct_world *world;

static int kind_of(const char *name)
{
    int k;
    for (k = 0; k < CT_SITE_KIND_COUNT; k++)
        if (strcmp(ct_site_kind_name(k), name) == 0) return k;
    return -1;
}

static void check_golden_line(const char *line, void *user)
{
    char name[32], hex[32], got[32], err[256];
    unsigned want, count;
    double spacing;
    ct_site_query q = { 0 };
    ct_site s[CT_SITES_MAX];
    uint32_t n = 0, i, j;
    (void)user;
    if (sscanf(line, "sites %31s %u %lf count %u digest %31s", name, &want, &spacing, &count, hex) != 5) {
        CHECK(0, "bad golden line %s", line);
        return;
    }
    q.kind = kind_of(name);
    q.count = want;
    q.min_spacing_m = spacing;
    CHECK(ct_world_sites(world, &q, s, CT_SITES_MAX, &n, err, sizeof err) == CT_OK, "sites: %s", err);
    snprintf(got, sizeof got, "%016llx", (unsigned long long)sd_sites(s, n));
    CHECK(n == count && strcmp(got, hex) == 0, "%s: %u sites digest %s, golden %u %s", name, n, got, count, hex);
    CHECK(n >= 10, "%s: a world this size has at least 10 (%u)", name, n);
    for (i = 0; i < n; i++) {
        ct_ground g;
        CHECK(ct_world_ground(world, s[i].dir, &g, NULL, 0) == CT_OK && !(g.has_water && g.water_m > g.height_m) &&
                  g.height_m == s[i].height_m,
              "%s %u stands on dry ground at its height", name, i);
        CHECK(i == 0 || s[i].score <= s[i - 1].score, "%s: ranked best first", name);
        if (q.kind == CT_SITE_SETTLEMENT)
            CHECK(s[i].slope_deg <= 8.0 && s[i].relief_m <= 40.0 && s[i].height_m >= 2.0 &&
                      s[i].biome != CT_BIOME_SNOW && s[i].biome != CT_BIOME_ROCK,
                  "settlement %u: flat, dry, mild (slope %.2f, relief %.1f)", i, s[i].slope_deg, s[i].relief_m);
        if (q.kind == CT_SITE_PORT)
            CHECK(s[i].height_m <= 60.0 && s[i].slope_deg <= 10.0 && s[i].coast_m == 0.0,
                  "port %u: low, gentle, on the coast (%.1f m, %.2f deg)", i, s[i].height_m, s[i].slope_deg);
        if (q.kind == CT_SITE_SPAWN)
            CHECK(s[i].slope_deg <= 12.0 && s[i].relief_m <= 25.0, "spawn %u: safe ground", i);
        for (j = 0; j < i; j++) {
            double a = s[i].dir[0] * s[j].dir[0] + s[i].dir[1] * s[j].dir[1] + s[i].dir[2] * s[j].dir[2];
            CHECK(acos(a > 1.0 ? 1.0 : a) * ct_world_config(world)->radius_m >= spacing * 0.999,
                  "%s %u and %u keep their spacing", name, i, j);
        }
    }
}

static void test_near(void)
{
    ct_site_query q = { 0 };
    ct_site a[8], b[8];
    uint32_t na = 0, nb = 0, i;
    char err[256];
    ct_site_query whole = { 0 };
    ct_site first[1];
    whole.kind = CT_SITE_SPAWN;
    whole.count = 1;
    CHECK(ct_world_sites(world, &whole, first, 1, &na, err, sizeof err) == CT_OK && na == 1, "one spawn: %s", err);
    q.kind = CT_SITE_SPAWN;
    q.count = 8;
    q.min_spacing_m = 500.0;
    q.has_near = 1;
    memcpy(q.near, first[0].dir, sizeof q.near);
    q.radius_m = 20000.0;
    CHECK(ct_world_sites(world, &q, a, 8, &na, err, sizeof err) == CT_OK && na > 0, "spawns near one: %s", err);
    CHECK(ct_world_sites(world, &q, b, 8, &nb, err, sizeof err) == CT_OK && nb == na &&
              sd_sites(a, na) == sd_sites(b, nb),
          "the same query gives the same sites");
    for (i = 0; i < na; i++) {
        double c = a[i].dir[0] * q.near[0] + a[i].dir[1] * q.near[1] + a[i].dir[2] * q.near[2];
        CHECK(acos(c > 1.0 ? 1.0 : c) * ct_world_config(world)->radius_m <= 20000.0 * 1.0001,
              "spawn %u lies within the radius", i);
    }
}

static void test_errors(void)
{
    ct_site_query q = { 0 };
    ct_site s[4];
    uint32_t n = 7;
    char err[256];
    q.count = 4;
    CHECK(ct_world_sites(NULL, &q, s, 4, &n, err, sizeof err) == CT_ERR_NULL && n == 0, "NULL world");
    q.kind = 7;
    CHECK(ct_world_sites(world, &q, s, 4, &n, err, sizeof err) == CT_ERR_CONFIG, "bad kind: %s", err);
    q.kind = CT_SITE_PORT;
    q.count = 0;
    CHECK(ct_world_sites(world, &q, s, 4, &n, err, sizeof err) == CT_ERR_CONFIG, "count 0: %s", err);
    q.count = 4;
    q.min_spacing_m = NAN;
    CHECK(ct_world_sites(world, &q, s, 4, &n, err, sizeof err) == CT_ERR_CONFIG, "NaN spacing: %s", err);
    q.min_spacing_m = 0.0;
    q.has_near = 1;
    q.radius_m = 1000.0;
    CHECK(ct_world_sites(world, &q, s, 4, &n, err, sizeof err) == CT_ERR_DIRECTION, "zero near: %s", err);
    q.near[2] = 1.0;
    q.radius_m = -1.0;
    CHECK(ct_world_sites(world, &q, s, 4, &n, err, sizeof err) == CT_ERR_CONFIG, "negative radius: %s", err);
    q.radius_m = 1000.0;
    CHECK(ct_world_sites(world, &q, s, 3, &n, err, sizeof err) == CT_ERR_BUFFER, "capacity short: %s", err);
}

int main(void)
{
    world = sg_world();
    if (!world) return test_summary("sites");
    sg_lines("sites ", check_golden_line, NULL);
    test_near();
    test_errors();
    ct_world_free(world);
    return test_summary("sites");
}
