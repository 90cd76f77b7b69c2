/* test_rivers.c - rivers in the samples and chunks (rivers.c): the water
 * surface never rises downstream along every river (point samples along each
 * curve), rivers are water in the samples, chunks crossed by a river across a
 * cube edge agree with the point samples and on their shared border, their
 * river surface falls along the river through both chunks, and LOD subsets
 * hold on a river chunk. Prints the chunk cost of rivers, interleaved. */
#include "test.h"
#include "layers/ct_rivers.h"
#include "world/ct_world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Samples per polyline piece: 13 is prime to the build's 8 steps per piece
 * (CT__RIVER_WET_STEPS), so most samples fall between the points at which the
 * build looked for water. */
#define SUBSTEPS 13

static ct_world *build(uint32_t seed, double min_area_km2)
{
    ct_config cfg;
    char err[256];
    ct_world *w;
    ct_config_preset(&cfg, "balanced", err, sizeof err);
    cfg.seed = seed;
    if (min_area_km2 >= 0.0) cfg.river_min_area_km2 = min_area_km2;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build seed %u: %s", seed, err);
    return w;
}

static void seg_point(const ct__river_seg *s, int k, double t, double p[3])
{
    int q;
    double l = 0.0;
    for (q = 0; q < 3; q++) {
        p[q] = s->pt[3 * k + q] * (1.0 - t) + s->pt[3 * k + 3 + q] * t;
        l += p[q] * p[q];
    }
    l = sqrt(l);
    for (q = 0; q < 3; q++) p[q] /= l;
}

/* Along every segment: each wet sample's surface is at most the previous
 * one's and inside [level_b, level_a]; each segment's downstream end is the
 * next segment's upstream level. Also counts banks below the river. */
static void test_monotone(const ct_world *w, uint32_t seed)
{
    const ct__rivers *rv = w->field.rivers;
    uint32_t s, rises = 0, out_of_range = 0, chain = 0;
    long samples = 0, wet = 0, river = 0, perched = 0, banks = 0;
    double worst = 0.0;
    for (s = 0; s < rv->seg_count; s++) {
        const ct__river_seg *sg = &rv->seg[s];
        double prev = HUGE_VAL;
        int k, j;
        for (k = 0; k + 1 < sg->npts; k++) {
            for (j = 0; j < SUBSTEPS; j++) {
                double p[3];
                ct_sample sm;
                seg_point(sg, k, (double)j / SUBSTEPS, p);
                if (ct_world_sample(w, p, &sm, NULL, 0) != CT_OK) continue;
                samples++;
                if (!sm.has_water) continue;
                wet++;
                if (sm.water_m > prev) {
                    rises++;
                    if (sm.water_m - prev > worst) worst = sm.water_m - prev;
                }
                prev = sm.water_m;
                if (sm.water_m > sg->level_a || sm.water_m < sg->level_b) out_of_range++;
                if (sm.water_body == CT_WATER_RIVER && (k * SUBSTEPS + j) % 16 == 8) {
                    /* the bank: a point two channel widths to the side */
                    double e[3], side[3], q[3], l;
                    ct_sample b;
                    int c;
                    for (c = 0; c < 3; c++) e[c] = sg->pt[3 * k + 3 + c] - sg->pt[3 * k + c];
                    side[0] = p[1] * e[2] - p[2] * e[1];
                    side[1] = p[2] * e[0] - p[0] * e[2];
                    side[2] = p[0] * e[1] - p[1] * e[0];
                    l = sqrt(side[0] * side[0] + side[1] * side[1] + side[2] * side[2]);
                    for (c = 0; c < 3; c++) q[c] = p[c] + side[c] / l * (4.0 * sg->half_w_m / w->field.cfg.radius_m);
                    river++;
                    if (ct_world_sample(w, q, &b, NULL, 0) == CT_OK && !b.has_water) {
                        banks++;
                        if (b.height_m < sm.water_m) perched++;
                    }
                }
            }
        }
        if (s < rv->node_count && rv->node_down[s] >= 0 && !sg->clipped && rv->seg[rv->node_down[s]].level_a != sg->level_b)
            chain++;
    }
    CHECK(samples > 10000, "seed %u: %ld samples along the rivers", seed, samples);
    CHECK(wet > samples * 95 / 100, "seed %u: only %ld of %ld samples on the river curves are water", seed, wet,
          samples);
    CHECK(rises == 0, "seed %u: the surface rises downstream %u times (worst %.6f m)", seed, rises, worst);
    CHECK(out_of_range == 0, "seed %u: %u wet samples outside their segment's level range", seed, out_of_range);
    CHECK(chain == 0, "seed %u: %u segments end at another level than their downstream one starts", seed, chain);
    CHECK(banks > 0 && perched < banks / 8, "seed %u: %ld of %ld banks below their river", seed, perched, banks);
    printf("ok seed %u: %u segments, %ld samples along rivers, %.1f%% wet, %ld of %ld banks below the river\n", seed,
           rv->seg_count, samples, 100.0 * (double)wet / (double)samples, perched, banks);
}

typedef struct rec {
    double dir[3];
    int chunk;
    uint16_t height, water;
    uint8_t biome, palette;
} rec;

static int cmp_rec(const void *a, const void *b)
{
    return memcmp(((const rec *)a)->dir, ((const rec *)b)->dir, sizeof(double) * 3);
}

/* Border records of chunk c (index id) into r; returns the count. */
static int border(const ct_chunk *c, int id, rec *r)
{
    int i, n = 0;
    for (i = 0; i < 4 * 256; i++) {
        int e = i / 256, t = i % 256, li, lj, q;
        size_t at;
        if (e == 0) { li = t; lj = 0; }
        else if (e == 1) { li = 256; lj = t; }
        else if (e == 2) { li = 256 - t; lj = 256; }
        else { li = 0; lj = 256 - t; }
        at = (size_t)lj * 257 + (size_t)li;
        ct_key_direction(c->key, li, lj, r[n].dir, NULL, 0);
        for (q = 0; q < 3; q++) r[n].dir[q] += 0.0;
        r[n].chunk = id;
        r[n].height = c->height[at];
        r[n].water = c->water[at];
        r[n].biome = c->biome[at];
        r[n].palette = c->palette[at];
        n++;
    }
    return n;
}

/* Every vertex of c equals the point sample; returns the river vertices and
 * appends (u along sg, water code) of those within sg's channel. */
static long chunk_vs_samples(const ct_world *w, const ct_chunk *c, const ct__river_seg *sg, double *u, uint16_t *code,
                             long *n_u, long *bad)
{
    int i, j;
    long rivers = 0;
    for (j = 0; j <= 256; j++)
        for (i = 0; i <= 256; i++) {
            double d[3], uu;
            ct_sample s;
            size_t at = (size_t)j * 257 + (size_t)i;
            uint16_t wc;
            ct_key_direction(c->key, i, j, d, NULL, 0);
            ct_world_sample(w, d, &s, NULL, 0);
            wc = s.has_water ? ct_height_encode(s.water_m, w->field.cfg.height_quantum_m, NULL) : 0;
            if (ct_height_encode(s.height_m, w->field.cfg.height_quantum_m, NULL) != c->height[at] || wc != c->water[at] ||
                s.biome != c->biome[at] || s.palette_index != c->palette[at])
                (*bad)++;
            if (s.water_body != CT_WATER_RIVER) continue;
            rivers++;
            ct__normalize_canonical(d);
            if (sqrt(ct__river_nearest(sg, d, &uu)) * w->field.cfg.radius_m < sg->half_w_m) {
                u[*n_u] = uu;
                code[*n_u] = c->water[at];
                (*n_u)++;
            }
        }
    return rivers;
}

static int cmp_u(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Chunks at surface_lod on both sides of each of the first few cube edges a
 * river crosses: vertices equal the point samples, the shared border is
 * identical, and the river surface through both chunks falls along the
 * river. Then the LOD subset of the coarser chunk over the crossing. */
static void test_cube_edge_chunks(const ct_world *w)
{
    const ct__rivers *rv = w->field.rivers;
    static ct_chunk c[2], fine[4], coarse;
    rec *r = (rec *)malloc(sizeof *r * 8u * 256u);
    double *u = (double *)malloc(sizeof(double) * 2u * 257u * 257u * 2u);
    uint16_t *code = (uint16_t *)malloc(sizeof(uint16_t) * 2u * 257u * 257u);
    uint32_t s;
    int found = 0, lod = (int)w->field.cfg.surface_lod;
    long bad = 0, rivers = 0, shared = 0, mismatched = 0, rises = 0, along = 0, subset_bad = 0;
    if (!r || !u || !code) goto done;
    for (s = 0; s < rv->node_count && found < 3; s++) {
        const ct__river_seg *sg = &rv->seg[s];
        int k, f0, f1;
        double a, b;
        for (k = 0; k + 1 < sg->npts; k++) {
            ct__cube_from_dir(sg->pt + 3 * k, &f0, &a, &b);
            ct__cube_from_dir(sg->pt + 3 * k + 3, &f1, &a, &b);
            if (f0 != f1) break;
        }
        if (k + 1 >= sg->npts) continue;
        {
            ct_key key[2];
            double lx, ly, p[3];
            long n_u = 0, i, n = 0;
            int side;
            /* points a quarter piece either side of the edge crossing */
            for (side = 0; side < 2; side++) {
                seg_point(sg, k, side ? 0.999 : 0.001, p);
                if (side == 0) (void)ct__cube_from_dir(p, &f0, &a, &b);
                CHECK(ct_key_at(w, p, lod, &key[side], &lx, &ly, NULL, 0) == CT_OK, "key");
                CHECK(ct_chunk_generate(w, key[side], &c[side], NULL, 0) == CT_OK, "generate");
                rivers += chunk_vs_samples(w, &c[side], sg, u, code, &n_u, &bad);
            }
            if (key[0].face == key[1].face) continue;
            found++;
            n = border(&c[0], 0, r);
            n += border(&c[1], 1, r + n);
            qsort(r, (size_t)n, sizeof *r, cmp_rec);
            for (i = 0; i + 1 < n; i++) {
                if (memcmp(r[i].dir, r[i + 1].dir, sizeof r[i].dir) != 0 || r[i].chunk == r[i + 1].chunk) continue;
                shared++;
                if (r[i].height != r[i + 1].height || r[i].water != r[i + 1].water || r[i].biome != r[i + 1].biome ||
                    r[i].palette != r[i + 1].palette)
                    mismatched++;
            }
            /* the river's surface codes in both chunks, in order along it */
            {
                double *pairs = u + 2u * 257u * 257u;
                for (i = 0; i < n_u; i++) {
                    pairs[2 * i] = u[i];
                    pairs[2 * i + 1] = (double)code[i];
                }
                qsort(pairs, (size_t)n_u, 2 * sizeof(double), cmp_u);
                for (i = 1; i < n_u; i++)
                    if (pairs[2 * i + 1] > pairs[2 * i - 1]) rises++;
                along += n_u;
            }
            /* LOD subset: the chunk one level up over the upstream side */
            {
                ct_key ck = ct_key_make(key[0].face, key[0].lod - 1, key[0].x / 2u, key[0].y / 2u);
                int fa, ii, jj;
                ct_chunk_generate(w, ck, &coarse, NULL, 0);
                for (fa = 0; fa < 4; fa++)
                    ct_chunk_generate(w, ct_key_make(ck.face, ck.lod + 1, ck.x * 2u + (uint32_t)(fa & 1),
                                                     ck.y * 2u + (uint32_t)(fa >> 1)), &fine[fa], NULL, 0);
                for (jj = 0; jj <= 256; jj++)
                    for (ii = 0; ii <= 256; ii++) {
                        int fi = 2 * ii, fj = 2 * jj, ax = fi > 256, ay = fj > 256;
                        const ct_chunk *f = &fine[ax + 2 * ay];
                        size_t cat = (size_t)jj * 257 + (size_t)ii;
                        size_t fat = (size_t)(fj - 256 * ay) * 257 + (size_t)(fi - 256 * ax);
                        if (coarse.height[cat] != f->height[fat] || coarse.water[cat] != f->water[fat] ||
                            coarse.palette[cat] != f->palette[fat])
                            subset_bad++;
                    }
            }
        }
    }
    CHECK(found > 0, "no river crosses a cube edge");
    CHECK(bad == 0, "%ld chunk vertices differ from their point samples", bad);
    CHECK(rivers > 0, "the chunks across the cube edges hold no river water");
    CHECK(shared > 200 && mismatched == 0, "%ld of %ld shared border samples differ", mismatched, shared);
    CHECK(along > 0 && rises == 0, "the river surface rises %ld times along %ld chunk vertices", rises, along);
    CHECK(subset_bad == 0, "%ld coarse samples differ from the finer ones they cover", subset_bad);
    printf("ok cube edges: %d crossings, %ld river vertices, %ld on the crossing river, %ld shared border samples\n",
           found, rivers, along, shared);
done:
    free(r);
    free(u);
    free(code);
}

/* Chunk cost with rivers on and off, interleaved, on chunks whose cells have
 * a river within reach and on chunks without (a figure, not a check). */
static void report_cost(uint32_t seed)
{
    ct_world *on = build(seed, -1.0), *off = build(seed, 0.0);
    static ct_chunk c;
    double t[2][2] = {{0, 0}, {0, 0}};
    int count[2] = {0, 0}, f, x, y, rep, lod;
    if (!on || !off) goto done;
    lod = (int)on->field.cfg.surface_lod;
    for (rep = 0; rep < 2; rep++)
        for (f = 0; f < 6; f++)
            for (y = 5; y < 64; y += 13)
                for (x = 3; x < 64; x += 11) {
                    ct_key key = ct_key_make(f, lod, (uint32_t)x, (uint32_t)y);
                    double d[3];
                    int has, lo, i;
                    uint32_t fi, fj;
                    size_t cell;
                    ct_key_direction(key, 128, 128, d, NULL, 0);
                    ct__normalize_canonical(d);
                    {
                        int face;
                        double uu, vv;
                        ct__cube_from_dir(d, &face, &uu, &vv);
                        fi = (uint32_t)floor((uu + 1.0) * 0.5 * on->field.n);
                        fj = (uint32_t)floor((vv + 1.0) * 0.5 * on->field.n);
                        if (fi >= on->field.n) fi = on->field.n - 1u;
                        if (fj >= on->field.n) fj = on->field.n - 1u;
                        cell = CT__RIVER_CELL(on->field.n, face, fi, fj);
                    }
                    has = ct__river_cell_has(on->field.rivers, cell);
                    for (lo = 0; lo < 2; lo++) {
                        const ct_world *w = lo ? on : off;
                        clock_t t0 = clock();
                        for (i = 0; i < 2; i++) ct_chunk_generate(w, key, &c, NULL, 0);
                        t[has][lo] += (double)(clock() - t0);
                    }
                    if (rep == 0) count[has]++;
                }
    printf("ok chunk cost seed %u: with a river near %d chunks: off %.2f ms on %.2f ms (%+.1f%%); "
           "without %d chunks: off %.2f ms on %.2f ms (%+.1f%%)\n",
           seed, count[1], t[1][0] * 1000.0 / CLOCKS_PER_SEC / (4.0 * count[1]),
           t[1][1] * 1000.0 / CLOCKS_PER_SEC / (4.0 * count[1]), 100.0 * (t[1][1] / t[1][0] - 1.0), count[0],
           t[0][0] * 1000.0 / CLOCKS_PER_SEC / (4.0 * count[0]), t[0][1] * 1000.0 / CLOCKS_PER_SEC / (4.0 * count[0]),
           100.0 * (t[0][1] / t[0][0] - 1.0));
done:
    ct_world_free(on);
    ct_world_free(off);
}

/* Walking a mouth curve downstream at MOUTH_STEP_M: the curve length from the
 * last river water to the first sea sample (0 when the river touches it), or
 * -1 when the curve never meets the sea. */
#define MOUTH_STEP_M 100.0
static double mouth_gap(const ct_world *w, const double *pt, uint32_t npts)
{
    double walked = 0.0, last_river = -1.0;
    uint32_t k;
    for (k = 0; k + 1 < npts; k++) {
        const double *a = pt + 3 * k, *b = a + 3;
        double len = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                          (b[2] - a[2]) * (b[2] - a[2])) * w->field.cfg.radius_m;
        int steps = (int)ceil(len / MOUTH_STEP_M), st;
        for (st = 0; st <= steps; st++) {
            double x[3], l = 0.0, here = walked + len * st / steps;
            ct_sample s;
            int q;
            for (q = 0; q < 3; q++) {
                x[q] = a[q] + (b[q] - a[q]) * st / steps;
                l += x[q] * x[q];
            }
            for (q = 0; q < 3; q++) x[q] /= sqrt(l);
            if (ct_world_sample(w, x, &s, NULL, 0) != CT_OK) return -1.0;
            if (s.water_body == CT_WATER_RIVER) last_river = here;
            if (s.has_water && s.water_body >= 0 && fabs(s.water_m) < 0.5)
                return last_river < 0.0 ? here : (here - last_river <= MOUTH_STEP_M ? 0.0 : here - last_river);
        }
        walked += len;
    }
    return -1.0;
}

/* ct_world_river_curves gives the sampled polylines: sizes, buffer checks,
 * node i's curve starts at its vertex with its surface, surfaces never rise
 * along a curve; and every sea mouth's curve meets the sea with river water
 * within 500 m before it (the channel reaches the sea). */
static void test_curves(const ct_world *w, uint32_t seed)
{
    const ct__rivers *rv = w->field.rivers;
    uint32_t segs = 0, pts = 0, i, *off, mouths = 0;
    double worst = 0.0;
    double *points, *surf, *width, *dir, *level;
    uint8_t *flags;
    char err[256];
    CHECK(ct_world_river_curves(w, 0, 0, NULL, NULL, NULL, NULL, &segs, &pts, err, sizeof err) == CT_OK, "%s", err);
    CHECK(segs == rv->seg_count && pts >= 2u * segs, "seed %u: %u segments, %u points", seed, segs, pts);
    off = malloc(sizeof *off * (segs + 1u));
    points = malloc(sizeof *points * 3u * pts);
    surf = malloc(sizeof *surf * pts);
    width = malloc(sizeof *width * segs);
    dir = malloc(sizeof *dir * 3u * rv->node_count);
    level = malloc(sizeof *level * rv->node_count);
    flags = malloc(rv->node_count);
    CHECK(ct_world_river_curves(w, segs, pts, off, points, surf, width, NULL, NULL, err, sizeof err) == CT_ERR_BUFFER,
          "offsets need segments + 1");
    CHECK(ct_world_river_curves(w, segs + 1u, pts - 1u, off, points, surf, width, NULL, NULL, err, sizeof err) ==
              CT_ERR_BUFFER, "points capacity checked");
    CHECK(ct_world_river_curves(w, segs + 1u, pts, off, points, surf, width, NULL, NULL, err, sizeof err) == CT_OK,
          "%s", err);
    CHECK(ct_world_rivers(w, rv->node_count, dir, NULL, NULL, NULL, NULL, level, flags, err, sizeof err) == CT_OK,
          "%s", err);
    CHECK(off[0] == 0 && off[segs] == pts, "offsets span the points");
    for (i = 0; i < segs; i++) {
        uint32_t p;
        int rises = 0;
        CHECK(off[i + 1u] >= off[i] + 2u && width[i] > 0.0, "segment %u: %u points", i, off[i + 1u] - off[i]);
        for (p = off[i] + 1u; p < off[i + 1u]; p++) rises += surf[p] > surf[p - 1u];
        CHECK(!rises, "seed %u segment %u: the surface rises along the curve", seed, i);
    }
    for (i = 0; i < rv->node_count; i++) {
        const double *a = points + 3u * off[i], *d = dir + 3u * i;
        CHECK(fabs(a[0] - d[0]) + fabs(a[1] - d[1]) + fabs(a[2] - d[2]) < 1e-12 && surf[off[i]] >= level[i] - 1e-9,
              "node %u: its curve starts at the node, at or above its surface", i);
        if (flags[i] & CT_RIVER_MOUTH_SEA) {
            double gap = mouth_gap(w, points + 3u * off[i], off[i + 1u] - off[i]);
            mouths++;
            CHECK(gap >= 0.0, "seed %u node %u: the mouth curve never meets the sea", seed, i);
            CHECK(gap <= 500.0, "seed %u node %u: %.0f m of land between the river and the sea", seed, i, gap);
            if (gap > worst) worst = gap;
        }
    }
    CHECK(mouths > 50, "seed %u: %u sea mouths", seed, mouths);
    printf("ok seed %u: %u curves, %u points; %u sea mouths, river water within %.0f m of the sea on each\n", seed,
           segs, pts, mouths, worst);
    free(off);
    free(points);
    free(surf);
    free(width);
    free(dir);
    free(level);
    free(flags);
}

int main(int argc, char **argv)
{
    static const uint32_t seeds[] = {42u, 7u, 1234u};
    size_t k;
    for (k = 0; k < 3; k++) {
        ct_world *w = build(seeds[k], -1.0);
        if (!w || !w->field.rivers) {
            CHECK(0, "seed %u: no rivers", seeds[k]);
            ct_world_free(w);
            continue;
        }
        test_monotone(w, seeds[k]);
        test_curves(w, seeds[k]);
        if (k == 0) test_cube_edge_chunks(w);
        ct_world_free(w);
    }
    {
        /* An eroded world with tall belts: there two rivers rose by 250 m
         * past lake slivers before the build looked for water at 8 steps per
         * piece and outlet stubs held their lake's level (rivers.c). */
        ct_config cfg;
        char err[256];
        ct_world *w;
        ct_config_preset(&cfg, "balanced", err, sizeof err);
        CHECK(ct_config_parse(&cfg, "seed=7\nerosion_iterations=2\nerosion_k=0.57\nrange_height_m=15500\n"
                                    "macro_ceiling_m=8000\nrange_belt_width=0.26\nhill_height_m=2000\n", err, sizeof err) == CT_OK, "%s", err);
        w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
        CHECK(w && w->field.rivers, "eroded seed 7: %s", err);
        if (w && w->field.rivers) test_monotone(w, 7u);
        ct_world_free(w);
    }
    if (argc > 1 && strcmp(argv[1], "--cost") == 0) report_cost(42u);
    return test_summary("rivers");
}
