/* test_ranges.c - the ranges layer (core/src/layers/ranges.c): its gradient is the
 * derivative of its height, it never moves water or takes land down to it,
 * the default world has no slope-capped plateaus or flat sheets, and
 * alpine keeps its peaks under about 9 km with rock on steep ground. */
#include "ct.h"
#include "layers/ct_ranges.h"
#include "world/ct_world.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ct_world *build(const char *preset, const char *const *sets)
{
    ct_config cfg;
    char err[256];
    ct_world *w;
    ct_config_preset(&cfg, preset, err, sizeof err);
    for (; sets && *sets; sets += 2) {
        ct_result r = ct_config_set(&cfg, sets[0], sets[1], err, sizeof err);
        CHECK(r == CT_OK, "set %s=%s: %s", sets[0], sets[1], err);
    }
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    return w;
}

static void random_dir(uint32_t k, double d[3])
{
    int c;
    for (c = 0; c < 3; c++) d[c] = ct__unit(ct__hash2((uint32_t)c + 71u, k)) * 2.0 - 1.0;
}

static void normalize(double d[3])
{
    double m = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    d[0] /= m; d[1] /= m; d[2] /= m;
}

/* Tangent basis at unit d: any vector not parallel to d, made orthogonal,
 * and d x t1. */
static void tangent_basis(const double d[3], double t1[3], double t2[3])
{
    double dot;
    int c;
    t1[0] = -d[1]; t1[1] = d[0]; t1[2] = 0.3;
    dot = t1[0] * d[0] + t1[1] * d[1] + t1[2] * d[2];
    for (c = 0; c < 3; c++) t1[c] -= dot * d[c];
    normalize(t1);
    t2[0] = d[1] * t1[2] - d[2] * t1[1];
    t2[1] = d[2] * t1[0] - d[0] * t1[2];
    t2[2] = d[0] * t1[1] - d[1] * t1[0];
}

/* The analytic gradient matches central differences of the same function
 * (belt and height above the shore held fixed, as the gradient assumes). */
static void test_gradient(void)
{
    ct_config cfg;
    int k, bad = 0, checked = 0;
    double worst = 0.0;
    ct_config_default(&cfg);
    for (k = 0; k < 2000; k++) {
        double d[3], t1[3], t2[3], g[3], e = 1e-7, above = 50.0 + 3000.0 * ct__unit(ct__hash2(5u, (uint32_t)k));
        double belt = ct__unit(ct__hash2(6u, (uint32_t)k)), h0, fd1, fd2, an1, an2, err;
        int c;
        random_dir((uint32_t)k, d);
        normalize(d);
        tangent_basis(d, t1, t2);
        h0 = ct__ranges_at(&cfg, d, belt, above, g);
        {
            double p[3], m[3], hp, hm;
            for (c = 0; c < 3; c++) { p[c] = d[c] + e * t1[c]; m[c] = d[c] - e * t1[c]; }
            hp = ct__ranges_at(&cfg, p, belt, above, NULL);
            hm = ct__ranges_at(&cfg, m, belt, above, NULL);
            fd1 = (hp - hm) / (2.0 * e * cfg.radius_m);
            for (c = 0; c < 3; c++) { p[c] = d[c] + e * t2[c]; m[c] = d[c] - e * t2[c]; }
            hp = ct__ranges_at(&cfg, p, belt, above, NULL);
            hm = ct__ranges_at(&cfg, m, belt, above, NULL);
            fd2 = (hp - hm) / (2.0 * e * cfg.radius_m);
        }
        an1 = g[0] * t1[0] + g[1] * t1[1] + g[2] * t1[2];
        an2 = g[0] * t2[0] + g[1] * t2[1] + g[2] * t2[2];
        (void)h0;
        err = fabs(fd1 - an1) + fabs(fd2 - an2);
        /* Creases of |n| are kinks: skip points right on them. */
        if (fabs(fd1) + fabs(fd2) > 0.0) {
            checked++;
            if (err > 1e-3 + 0.02 * (fabs(fd1) + fabs(fd2))) bad++;
            if (err > worst) worst = err;
        }
        CHECK(fabs(g[0] * d[0] + g[1] * d[1] + g[2] * d[2]) < 1e-12, "gradient is tangent");
    }
    CHECK(bad <= checked / 100, "%d of %d gradients differ from central differences (worst %g)", bad, checked,
          worst);
}

/* Valleys never reach the water: the result stays above -above/2, is 0 on
 * water (above <= 0) and with both amplitudes at 0. */
static void test_bounds(void)
{
    ct_config cfg, off;
    int k, low = 0, wet = 0, offs = 0;
    ct_config_default(&cfg);
    off = cfg;
    off.range_height_m = 0.0;
    off.hill_height_m = 0.0;
    for (k = 0; k < 20000; k++) {
        double d[3], above = 2000.0 * ct__unit(ct__hash2(8u, (uint32_t)k)) - 200.0, belt = ct__unit(ct__hash2(9u, (uint32_t)k));
        double r;
        random_dir((uint32_t)k, d);
        normalize(d);
        r = ct__ranges_at(&cfg, d, belt, above, NULL);
        if (above > 0.0 && !(r > -0.5 * above)) low++;
        if (above <= 0.0 && r != 0.0) wet++;
        if (ct__ranges_at(&off, d, belt, above, NULL) != 0.0) offs++;
    }
    CHECK(low == 0, "%d land samples taken below half their height above the water", low);
    CHECK(wet == 0, "%d water samples changed", wet);
    CHECK(offs == 0, "%d samples changed with the layer off", offs);
}

/* Same macro field with and without ridges and hills: water, water levels
 * and bodies are identical everywhere, and land never drops to the water. */
static void test_water_untouched(void)
{
    static const char *const off[] = {"range_height_m", "0", "hill_height_m", "0", NULL};
    ct_world *a = build("balanced", NULL), *b = build("balanced", off);
    int k, moved = 0, land = 0, below = 0;
    if (!a || !b) { ct_world_free(a); ct_world_free(b); return; }
    for (k = 0; k < 40000; k++) {
        double d[3];
        ct_sample sa, sb;
        random_dir((uint32_t)k + 100000u, d);
        ct_world_sample(a, d, &sa, NULL, 0);
        ct_world_sample(b, d, &sb, NULL, 0);
        if (sa.has_water != sb.has_water || sa.water_body != sb.water_body || sa.water_m != sb.water_m) moved++;
        if (!sa.has_water) {
            land++;
            /* Land beside a lake stands above the lake; elsewhere above sea level. */
            if (sa.height_m < 0.0) below++;
        }
    }
    CHECK(moved == 0, "%d samples changed water with ranges on", moved);
    CHECK(land > 5000 && below == 0, "%d of %d land samples below sea level", below, land);
    ct_world_free(a);
    ct_world_free(b);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* Land slopes between neighbouring LOD-6 chunk vertices: median >= 2 deg and
 * p90 >= 8 deg, so slopes read from the ground; the reference model has
 * about 1 and 5. */
static void slopes(const ct_world *w, double *median_deg, double *p90_deg, double *max_h, double *rock_share)
{
    enum { POINTS = 6000 };
    static double tanv[POINTS];
    int k, n = 0, rock = 0;
    *max_h = -1e9;
    for (k = 0; k < POINTS; k++) {
        uint32_t h = ct__hash2(77u, (uint32_t)k);
        ct_key key = ct_key_make((int)(h % 6u), 6, ct__hash2(h, 1u) % 64u, ct__hash2(h, 2u) % 64u);
        double li = (double)(ct__hash2(h, 3u) % 256u), lj = (double)(ct__hash2(h, 4u) % 256u);
        double d0[3], d1[3], d2[3], ex[3], ey[3];
        ct_sample s0, s1, s2;
        ct_key_direction(key, li, lj, d0, NULL, 0);
        ct_key_direction(key, li + 1.0, lj, d1, NULL, 0);
        ct_key_direction(key, li, lj + 1.0, d2, NULL, 0);
        ct_world_sample(w, d0, &s0, NULL, 0);
        if (s0.has_water) continue;
        ct_world_sample(w, d1, &s1, NULL, 0);
        ct_world_sample(w, d2, &s2, NULL, 0);
        ct_key_metric(key, li, lj, ct_world_config(w)->radius_m, ex, ey, NULL, 0);
        {
            /* Near-orthogonal axes: the two edge slopes combine. */
            double lx = sqrt(ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2]);
            double ly = sqrt(ey[0] * ey[0] + ey[1] * ey[1] + ey[2] * ey[2]);
            double gx = (s1.height_m - s0.height_m) / lx, gy = (s2.height_m - s0.height_m) / ly;
            tanv[n++] = sqrt(gx * gx + gy * gy);
        }
        if (s0.height_m > *max_h) *max_h = s0.height_m;
        rock += s0.biome == CT_BIOME_ROCK;
    }
    qsort(tanv, (size_t)n, sizeof tanv[0], cmp_double);
    *median_deg = n ? atan(tanv[n / 2]) * 57.29577951308232 : 0.0;
    *p90_deg = n ? atan(tanv[(n * 9) / 10]) * 57.29577951308232 : 0.0;
    *rock_share = n ? (double)rock / n : 0.0;
}

/* Share of land vertices with a downhill graph edge at the slope limit. */
static double capped_share(const ct_world *w)
{
    uint32_t n = w->field.n, f, i, j, land = 0, capped = 0;
    double s = w->field.cfg.max_macro_slope, R = w->field.cfg.radius_m;
    for (f = 0; f < 6; f++)
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++) {
                uint32_t a = w->field.vertex_fij[CT__FIJ(n, f, i, j)], b1 = w->field.vertex_fij[CT__FIJ(n, f, i + 1u, j)];
                uint32_t b2 = w->field.vertex_fij[CT__FIJ(n, f, i, j + 1u)];
                uint32_t b[2], k, hit = 0;
                b[0] = b1; b[1] = b2;
                if (w->field.body_v[a] >= 0) continue;
                for (k = 0; k < 2; k++) {
                    double d = ct__arc(&w->field.dir_v[3u * a], &w->field.dir_v[3u * b[k]]) * R;
                    if (fabs(w->field.height_v[a] - w->field.height_v[b[k]]) >= s * d * (1.0 - 1e-6)) hit = 1;
                }
                land++;
                capped += hit;
            }
    return land ? (double)capped / land : 0.0;
}

static void test_default_world(void)
{
    static const char *const ref[] = {"range_height_m", "0", "hill_height_m", "0", "macro_ceiling_m", "0",
                                      "rock_slope", "0", "detail_octaves", "6", NULL};
    ct_world *w = build("balanced", NULL), *r = build("balanced", ref);
    double med, p90, maxh, rock, rmed, rp90, rmaxh, rrock, cap, rcap;
    if (!w || !r) { ct_world_free(w); ct_world_free(r); return; }
    slopes(w, &med, &p90, &maxh, &rock);
    slopes(r, &rmed, &rp90, &rmaxh, &rrock);
    cap = capped_share(w);
    rcap = capped_share(r);
    printf("ok balanced LOD 6 land slope median %.2f p90 %.2f deg (off: %.2f %.2f); capped %.0f%% (off %.0f%%)\n",
           med, p90, rmed, rp90, 100.0 * cap, 100.0 * rcap);
    CHECK(med >= 2.0 && p90 >= 8.0, "slope median %.2f p90 %.2f deg", med, p90);
    CHECK(rmed < 2.0, "the reference model is flatter (median %.2f deg): the test can tell", rmed);
    CHECK(cap < 0.4 && rcap > 0.5, "land vertices at the slope limit: %.2f (off %.2f)", cap, rcap);
    ct_world_free(w);
    ct_world_free(r);
}

static void test_alpine(void)
{
    ct_world *w = build("alpine", NULL);
    double med, p90, maxh, rock;
    if (!w) return;
    slopes(w, &med, &p90, &maxh, &rock);
    printf("ok alpine: highest sampled land %.0f m, rock %.0f%% of land\n", maxh, 100.0 * rock);
    CHECK(maxh < 9500.0 && maxh > 4000.0, "alpine peaks %.0f m", maxh);
    /* Since the biome edges (version 8) gentle high ground between the tree
     * and snow lines is alpine meadow and snow; rock keeps the steep faces
     * and scree, about 6% of LOD 6 land here (over 10% before). */
    CHECK(rock > 0.04, "alpine rock share %.2f", rock);
    CHECK(ct__ranges_need_belts(ct_world_config(w)) && w->field.belt_v, "belts derived");
    ct_world_free(w);
}

/* Folds give belts a grain: crests parallel to each other. Measured as the
 * coherence of the structure tensor of the first ridge octave's analytic
 * gradient (hills off, one octave) over a 120 km tangent grid at belt
 * cores: 0 for no preferred direction, 1 for parallel crests. */
static double grain(const ct_config *cfg, const double d[3])
{
    double t1[3], t2[3], a = 0.0, b = 0.0, c = 0.0, span = 120e3 / cfg->radius_m;
    int i, j, k;
    tangent_basis(d, t1, t2);
    for (j = 0; j < 41; j++) {
        for (i = 0; i < 41; i++) {
            double p[3], g[3], gx, gy, u = span * (i / 40.0 - 0.5), v = span * (j / 40.0 - 0.5);
            for (k = 0; k < 3; k++) p[k] = d[k] + u * t1[k] + v * t2[k];
            normalize(p);
            ct__ranges_at(cfg, p, 1.0, 2000.0, g);
            gx = g[0] * t1[0] + g[1] * t1[1] + g[2] * t1[2];
            gy = g[0] * t2[0] + g[1] * t2[1] + g[2] * t2[2];
            a += gx * gx; b += gx * gy; c += gy * gy;
        }
    }
    return sqrt((a - c) * (a - c) + 4.0 * b * b) / (a + c);
}

static void test_folds_grain(void)
{
    static const uint32_t seeds[3] = {42u, 7u, 1234u};
    int s;
    for (s = 0; s < 3; s++) {
        ct_config on, off;
        char err[256];
        double g_on = 0.0, g_off = 0.0;
        uint32_t k;
        int found = 0;
        ct_config_default(&on);
        on.seed = seeds[s];
        on.hill_height_m = 0.0;
        on.ridge_octaves = 1;
        CHECK(ct_config_set(&on, "range_folds", "0.85", err, sizeof err) == CT_OK, "%s", err);
        off = on;
        CHECK(ct_config_set(&off, "range_folds", "0", err, sizeof err) == CT_OK, "%s", err);
        for (k = 0; k < 100000u && found < 12; k++) {
            double d[3];
            random_dir(k + 9000u, d);
            normalize(d);
            if (ct__range_belt(&on, d) < 0.9) continue;
            g_on += grain(&on, d);
            g_off += grain(&off, d);
            found++;
        }
        CHECK(found == 12, "seed %u: found %d belt cores", (unsigned)seeds[s], found);
        g_on /= found;
        g_off /= found;
        printf("  folds: seed %u, mean grain at %d belt cores %.3f without folds, %.3f with\n",
               (unsigned)seeds[s], found, g_off, g_on);
        CHECK(g_on > 1.5 * g_off && g_on > 0.2, "seed %u: grain %.3f without folds, %.3f with",
              (unsigned)seeds[s], g_off, g_on);
    }
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* ct__ranges_at_x4 (chunks run it for four samples of a row, the ridged
 * noise two lanes at a time) gives ct__ranges_at's bits in every lane, with
 * and without the gradient, whichever lanes need the noise (land and water
 * samples, belt cores and plains mixed). Runs of sixteen groups walk in
 * small steps, as a chunk's row does, through one lattice memo (most calls
 * then reuse the cell of the call before; every fifth group runs without). */
static void test_x4(void)
{
    ct_config cfg;
    ct__lattice_memo memo[CT__RANGES_MEMO];
    char err[256];
    int i, k, bad = 0, bad_grad = 0;
    memset(memo, 0, sizeof memo);
    ct_config_preset(&cfg, "alpine", err, sizeof err);
    for (i = 0; i < 20000; i++) {
        double dir[12], belt[4], above[4], out[4], grad[12], one, g[3];
        for (k = 0; k < 4; k++) {
            uint32_t h = ct__hash2(977u, (uint32_t)(4 * i + k));
            random_dir((uint32_t)(4 * (i / 16) + k), dir + 3 * k);
            dir[3 * k] += 2e-5 * (double)(i % 16);
            normalize(dir + 3 * k);
            belt[k] = (h & 3u) == 0 ? 0.0 : ct__unit(ct__hash2(h, 1u));
            above[k] = (h & 12u) == 0 ? -50.0 : ct__unit(ct__hash2(h, 2u)) * 3000.0;
            if (i % 7 == 0 && k == 2) dir[3 * k] = 0.0;
        }
        ct__ranges_at_x4(&cfg, i % 5 ? memo : NULL, dir, belt, above, out, i % 3 ? grad : NULL);
        for (k = 0; k < 4; k++) {
            one = ct__ranges_at(&cfg, dir + 3 * k, belt[k], above[k], g);
            if (!same_bits(out[k], one)) bad++;
            if (i % 3 && (!same_bits(grad[3 * k], g[0]) || !same_bits(grad[3 * k + 1], g[1]) ||
                          !same_bits(grad[3 * k + 2], g[2])))
                bad_grad++;
        }
    }
    CHECK(bad == 0, "%d of 80000 four-lane ranges values differ from the scalar ones", bad);
    CHECK(bad_grad == 0, "%d four-lane ranges gradients differ from the scalar ones", bad_grad);
}

int main(void)
{
    test_x4();
    test_gradient();
    test_bounds();
    test_water_untouched();
    test_default_world();
    test_alpine();
    test_folds_grain();
    return test_summary("ranges");
}
