/* test_ground_query.c - the exact ground and the terrain raycast
 * (surface/ground_query.c, ground_ray.c): the cell samples a world query
 * takes are the chunk's bit for bit; heights, normals and water agree with
 * the stride-1 meshes' float triangles within 1 mm at random points, on a
 * chunk border, a cube edge and a cube corner; the chunk-level twin equals
 * the world query; raycasts agree with a brute-force ray against every
 * triangle of a chunk's mesh, including grazing rays over a peak, rays from
 * orbit land on the ground, an origin under the ground hits at 0; bad input
 * gets clear errors. */
#include "ct.h"
#include "world/ct_world.h"
#include "surface/ct_ground_query.h"
#include "test.h"
#include "test_world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VERTS (257u * 257u)
#define IDX (6u * 256u * 256u)

static ct_chunk ca, cb;
static char err[256];

typedef struct tmesh {
    float pos[3 * VERTS], nrm[3 * VERTS];
    uint32_t idx[IDX];
    ct_mesh m;
} tmesh;
static tmesh ma, mb, wa;

static uint32_t rng = 12345u;
static double rnd(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (double)(rng >> 8) / 16777216.0;
}

static ct_world *build(const char *text)
{
    ct_config cfg;
    ct_config_preset(&cfg, "balanced", NULL, 0);
    return test_world_build(&cfg, text);
}

static void mesh(const ct_world *w, const ct_chunk *c, int water, tmesh *t)
{
    ct_mesh_options o;
    memset(&o, 0, sizeof o);
    o.stride = 1;
    o.water = water;
    memset(&t->m, 0, sizeof t->m);
    t->m.positions = t->pos;
    t->m.normals = t->nrm;
    t->m.indices = t->idx;
    CHECK(ct_mesh_build(w, c, &o, NULL, &t->m, err, sizeof err) == CT_OK, "mesh: %s", err);
}

/* Moller-Trumbore in double against one mesh triangle (float positions
 * plus the centre); the distance or -1. */
static double tri_hit(const tmesh *t, uint32_t tri, const double o[3], const double d[3], double n_out[3])
{
    double p[3][3], e1[3], e2[3], pv[3], s[3], q[3], det, u, v;
    int k, c;
    for (c = 0; c < 3; c++)
        for (k = 0; k < 3; k++) p[c][k] = (double)t->pos[3 * t->idx[3 * tri + (uint32_t)c] + (uint32_t)k] + t->m.center_m[k];
    for (k = 0; k < 3; k++) { e1[k] = p[1][k] - p[0][k]; e2[k] = p[2][k] - p[0][k]; s[k] = o[k] - p[0][k]; }
    pv[0] = d[1] * e2[2] - d[2] * e2[1]; pv[1] = d[2] * e2[0] - d[0] * e2[2]; pv[2] = d[0] * e2[1] - d[1] * e2[0];
    det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
    if (det == 0.0) return -1.0;
    u = (s[0] * pv[0] + s[1] * pv[1] + s[2] * pv[2]) / det;
    /* Slack for the float positions: a vertex is off the exact sample
     * direction by up to about 1e-4 m of a 38 m cell. */
    if (u < -1e-5 || u > 1.0 + 1e-5) return -1.0;
    q[0] = s[1] * e1[2] - s[2] * e1[1]; q[1] = s[2] * e1[0] - s[0] * e1[2]; q[2] = s[0] * e1[1] - s[1] * e1[0];
    v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
    if (v < -1e-5 || u + v > 1.0 + 1e-5) return -1.0;
    if (n_out) {
        double len;
        n_out[0] = e1[1] * e2[2] - e1[2] * e2[1]; n_out[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n_out[2] = e1[0] * e2[1] - e1[1] * e2[0];
        len = sqrt(n_out[0] * n_out[0] + n_out[1] * n_out[1] + n_out[2] * n_out[2]);
        for (k = 0; k < 3; k++) n_out[k] /= len;
        if (n_out[0] * p[0][0] + n_out[1] * p[0][1] + n_out[2] * p[0][2] < 0.0)
            for (k = 0; k < 3; k++) n_out[k] = -n_out[k];
    }
    return (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
}

/* The first hit of a ray with every triangle of a mesh (-1: none). */
static double brute_ray(const tmesh *t, const double o[3], const double d[3], double max_m, double n_out[3])
{
    double best = -1.0, nn[3];
    uint32_t tri;
    for (tri = 0; tri < t->m.index_count / 3; tri++) {
        double h = tri_hit(t, tri, o, d, nn);
        if (h >= 0.0 && h <= max_m && (best < 0.0 || h < best)) {
            best = h;
            if (n_out) memcpy(n_out, nn, sizeof nn);
        }
    }
    return best;
}

/* The radial line through unit d against the mesh triangles of the 3x3
 * cells around local (lx, ly): radius of the hit minus R, or NAN. Water
 * meshes are compacted, so those are searched whole. */
static double mesh_height(const tmesh *t, double radius, double lx, double ly, const double d[3], double n_out[3])
{
    static const double zero[3] = { 0.0, 0.0, 0.0 };
    int ci = (int)floor(lx), cj = (int)floor(ly), di, dj;
    double best = NAN;
    if (t->m.index_count != 6u * 256u * 256u) {
        double r = brute_ray(t, zero, d, 2.0 * radius, n_out);
        return r < 0.0 ? NAN : r - radius;
    }
    for (dj = -1; dj <= 1; dj++) {
        for (di = -1; di <= 1; di++) {
            int x = ci + di, y = cj + dj, h;
            if (x < 0 || y < 0 || x > 255 || y > 255) continue;
            for (h = 0; h < 2; h++) {
                double r = tri_hit(t, (uint32_t)(2 * (y * 256 + x) + h), zero, d, n_out);
                if (r > 0.0) return r - radius;
            }
        }
    }
    return best;
}

/* A land chunk with relief and a shore chunk with water on it. */
static ct_key find_chunk(const ct_world *w, int want_water)
{
    int lod = (int)ct_world_config(w)->surface_lod, k;
    for (k = 0; k < 4000; k++) {
        double d[3] = { rnd() - 0.5, rnd() - 0.5, rnd() - 0.5 }, lx, ly;
        ct_sample s;
        ct_key key;
        int wet = 0, i;
        if (ct_world_sample(w, d, &s, NULL, 0) != CT_OK || s.has_water) continue;
        ct_key_at(w, d, lod, &key, &lx, &ly, NULL, 0);
        ct_chunk_generate(w, key, &ca, NULL, 0);
        for (i = 0; i < CT_CHUNK_SAMPLES; i++) wet += ca.water[i] != CT_NO_WATER_CODE;
        if (want_water ? (wet > 2000 && wet < CT_CHUNK_SAMPLES - 2000) : wet == 0) return key;
    }
    CHECK(0, "no %s chunk found", want_water ? "shore" : "land");
    return ct_key_make(0, lod, 0, 0);
}

static int same_sample(const ct__gq_sample *s, const ct_chunk *c, int lx, int ly)
{
    size_t at = (size_t)ly * CT_CHUNK_EDGE + (size_t)lx;
    return memcmp(&s->height_m, &c->height_m[at], sizeof(float)) == 0 && s->water == c->water[at] &&
           s->biome == c->biome[at] && s->palette == c->palette[at];
}

/* World queries over a chunk against its samples and its meshes. */
static void test_chunk(const ct_world *w, ct_key key, int points)
{
    double R = ct_world_config(w)->radius_m, worst = 0.0, worst_w = 0.0, worst_twin = 0.0;
    int k, bad_bits = 0, bad_norm = 0, bad_water = 0, checked_wet = 0, twin_bad = 0;
    CHECK(ct_chunk_generate(w, key, &ca, err, sizeof err) == CT_OK, "chunk: %s", err);
    mesh(w, &ca, 0, &ma);
    mesh(w, &ca, 1, &wa);
    for (k = 0; k < points; k++) {
        /* The four corners of the chunk first, then random points. */
        double lx = k < 4 ? 256.0 * (k & 1) : 256.0 * rnd(), ly = k < 4 ? 256.0 * (k >> 1) : 256.0 * rnd();
        double d[3], lxw, lyw, h, n[3];
        ct__gq_cell cell;
        ct_ground g, gc;
        int c, dx, dy;
        ct_key_direction(key, lx, ly, d, NULL, 0);
        CHECK(ct__field_ground_cell(&w->field, d, &cell, &lxw, &lyw, err, sizeof err) == CT_OK, "cell: %s", err);
        CHECK(ct_world_ground(w, d, &g, err, sizeof err) == CT_OK, "ground: %s", err);
        if (cell.key.face == key.face && cell.key.x == key.x && cell.key.y == key.y) {
            for (c = 0; c < 4; c++) bad_bits += !same_sample(&cell.corner[c], &ca, cell.ci + (c & 1), cell.cj + (c >> 1));
            if (cell.wet) {
                checked_wet++;
                for (dy = -1; dy <= 2; dy++)
                    for (dx = -1; dx <= 2; dx++) {
                        int x = cell.ci + dx, y = cell.cj + dy;
                        uint16_t want = (x < 0 || y < 0 || x > 256 || y > 256) ? CT_NO_WATER_CODE
                                                                                : ca.water[y * CT_CHUNK_EDGE + x];
                        bad_bits += cell.water[dy + 1][dx + 1] != want;
                    }
            }
        }
        h = mesh_height(&ma, R, lx, ly, d, n);
        if (!(fabs(h - g.height_m) <= worst)) worst = fabs(h - g.height_m);
        if (isnan(h)) worst = 1e9;
        if (!(n[0] * g.normal[0] + n[1] * g.normal[1] + n[2] * g.normal[2] > 1.0 - 1e-6) && k >= 4) bad_norm++;
        if (k >= 4 && (g.has_water || k % 5 == 0)) {
            double hw = mesh_height(&wa, R, lx, ly, d, NULL);
            if (g.has_water != !isnan(hw)) bad_water++;
            else if (g.has_water && fabs(hw - g.water_m) > worst_w) worst_w = fabs(hw - g.water_m);
        }
        CHECK(ct_chunk_ground(w, &ca, lx, ly, &gc, err, sizeof err) == CT_OK, "chunk ground: %s", err);
        if (fabs(gc.height_m - g.height_m) > worst_twin) worst_twin = fabs(gc.height_m - g.height_m);
        if (gc.has_water != g.has_water || (g.has_water && fabs(gc.water_m - g.water_m) > 1e-6) ||
            (k >= 4 && (gc.biome != g.biome || gc.palette_index != g.palette_index)))
            twin_bad++;
    }
    CHECK(bad_bits == 0, "%s %u,%u: %d cell samples differ from the chunk's bits", ct_face_name(key.face), key.x,
          key.y, bad_bits);
    CHECK(worst < 1e-3, "%s %u,%u: ground is %.6f m from the mesh", ct_face_name(key.face), key.x, key.y, worst);
    CHECK(bad_norm == 0, "%d normals differ from the mesh triangle's", bad_norm);
    CHECK(worst_w < 1e-3 && bad_water == 0, "water: %.6f m from the water mesh, %d coverage mismatches", worst_w,
          bad_water);
    CHECK(worst_twin < 1e-6 && twin_bad == 0, "chunk twin: %.9f m from the world query, %d field mismatches",
          worst_twin, twin_bad);
    if (checked_wet == 0 && ca.water[0] != ca.water[CT_CHUNK_SAMPLES - 1]) CHECK(0, "no water cell checked");
}

/* Finds where a chunk holds direction d on its border: local (lx, ly). */
static int find_on_border(ct_key key, const double d[3], int *lx, int *ly)
{
    int e, t;
    for (e = 0; e < 4; e++)
        for (t = 0; t <= 256; t++) {
            int x = e == 0 ? t : e == 1 ? 256 : e == 2 ? t : 0, y = e == 0 ? 0 : e == 1 ? t : e == 2 ? 256 : t;
            double q[3];
            ct_key_direction(key, x, y, q, NULL, 0);
            if (q[0] == d[0] && q[1] == d[1] && q[2] == d[2]) { *lx = x; *ly = y; return 1; }
        }
    return 0;
}

/* Points along a shared border (or a corner) seen from every chunk that
 * holds them: the same height from each chunk-level query, the world query
 * and each chunk's mesh. */
static void test_seam(const ct_world *w, ct_key key, int lx0, int ly0, int lx1, int ly1, int want_holders)
{
    double R = ct_world_config(w)->radius_m, worst = 0.0;
    ct_key nb[9];
    int n = 0, t, i, most = 0;
    ct_key_neighbourhood(key, lx0, ly0, nb, &n, NULL, 0);
    for (t = 0; t <= 16; t++) {
        int sx = lx0 + (lx1 - lx0) * t / 16, sy = ly0 + (ly1 - ly0) * t / 16, holders = 0;
        double d[3], d2[3];
        ct_ground g, gc;
        /* Halfway between samples too: the border's straight edge. */
        double fx = sx + (lx1 != lx0 && t < 16 ? 0.37 : 0.0), fy = sy + (ly1 != ly0 && t < 16 ? 0.37 : 0.0);
        ct_key_direction(key, sx, sy, d, NULL, 0);
        ct_key_direction(key, fx, fy, d2, NULL, 0);
        ct_world_ground(w, d, &g, NULL, 0);
        for (i = 0; i < n; i++) {
            int x, y;
            if (!find_on_border(nb[i], d, &x, &y)) continue;
            holders++;
            ct_chunk_generate(w, nb[i], &cb, NULL, 0);
            mesh(w, &cb, 0, &mb);
            ct_chunk_ground(w, &cb, x, y, &gc, NULL, 0);
            if (fabs(gc.height_m - g.height_m) > worst) worst = fabs(gc.height_m - g.height_m);
            if (fabs(mesh_height(&mb, R, x, y, d, NULL) - g.height_m) > worst)
                worst = fabs(mesh_height(&mb, R, x, y, d, NULL) - g.height_m);
            if (fx != sx || fy != sy) {
                /* A point between two border samples, from this chunk. */
                ct_ground gw;
                ct_world_ground(w, d2, &gw, NULL, 0);
                if (fabs(mesh_height(&mb, R, x, y, d2, NULL) - gw.height_m) > worst)
                    worst = fabs(mesh_height(&mb, R, x, y, d2, NULL) - gw.height_m);
            }
        }
        if (holders > most) most = holders;
        CHECK(holders >= 2, "%s %u,%u (%d,%d): held by %d chunks", ct_face_name(key.face), key.x, key.y, sx, sy,
              holders);
    }
    CHECK(most >= want_holders, "the seam is held by %d chunks (want %d)", most, want_holders);
    CHECK(worst < 1e-3, "%s %u,%u seam: heights differ by %.6f m", ct_face_name(key.face), key.x, key.y, worst);
}

/* A ray against the brute force: the same first triangle, the hit points
 * within 1 mm of each other, or, for a grazing ray (where float rounding of
 * the vertices slides the hit along the ray), the hit within 1 mm of the
 * brute-force triangle's plane. */
static void ray_check(const ct_world *w, const tmesh *t, const double o[3], const double dir[3], double max_m,
                      double *worst, int *mismatch)
{
    ct_ray_hit hit;
    int got = 0, q;
    double n[3], b, d[3], len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]), gap = 0.0;
    for (q = 0; q < 3; q++) d[q] = dir[q] / len;
    CHECK(ct_world_raycast(w, o, d, max_m, 0, &hit, &got, err, sizeof err) == CT_OK, "raycast: %s", err);
    b = brute_ray(t, o, d, max_m, n);
    if (got && hit.inside) {
        /* Under a flat top: the origin is under the ground, and the mesh's
         * first crossing is the way out. */
        ct_ground g;
        ct_world_ground(w, o, &g, NULL, 0);
        if (sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) > ct_world_config(w)->radius_m + g.height_m ||
            (b >= 0.0 && n[0] * d[0] + n[1] * d[1] + n[2] * d[2] < 0.0))
            (*mismatch)++;
        return;
    }
    if ((b >= 0.0) != (got != 0)) {
        (*mismatch)++;
        return;
    }
    if (!got) return;
    if (fabs(b - hit.distance_m) > 1e-3) {
        for (q = 0; q < 3; q++) gap += n[q] * (hit.point_m[q] - (o[q] + b * d[q]));
        gap = fabs(gap);
    }
    if (gap > *worst) *worst = gap;
    /* The same triangle's normal (a grazing hit near an edge may take the
     * triangle beside it, a fraction of a millimetre away). */
    if (fabs(b - hit.distance_m) < 1e-4 && n[0] * hit.normal[0] + n[1] * hit.normal[1] + n[2] * hit.normal[2] < 1.0 - 1e-6)
        (*mismatch)++;
}

/* Rays inside one chunk (origin and end over it) against all its triangles. */
static void test_rays(const ct_world *w, ct_key key)
{
    double R = ct_world_config(w)->radius_m, worst = 0.0, peak = -1e30, dp[3], up[3], east[3], dy[3];
    int k, mismatch = 0, pi = 0, pj = 0, i, j;
    ct_chunk_generate(w, key, &ca, NULL, 0);
    mesh(w, &ca, 0, &ma);
    for (k = 0; k < 24; k++) {
        double a[3], b[3], o[3], d[3], len = 0.0;
        ct_ground ga, gb;
        int q;
        ct_key_direction(key, 20 + 216 * rnd(), 20 + 216 * rnd(), a, NULL, 0);
        ct_key_direction(key, 20 + 216 * rnd(), 20 + 216 * rnd(), b, NULL, 0);
        ct_world_ground(w, a, &ga, NULL, 0);
        ct_world_ground(w, b, &gb, NULL, 0);
        for (q = 0; q < 3; q++) {
            o[q] = a[q] * (R + ga.height_m + 5.0 + 300.0 * rnd());
            d[q] = b[q] * (R + gb.height_m - 3.0) - o[q];
            len += d[q] * d[q];
        }
        ray_check(w, &ma, o, d, sqrt(len), &worst, &mismatch);
    }
    /* Grazing rays over the chunk's highest inner sample: just above and
     * just below its vertex, level with the sphere there. */
    for (j = 40; j <= 216; j++)
        for (i = 40; i <= 216; i++)
            if (ca.height_m[j * CT_CHUNK_EDGE + i] > peak) { peak = ca.height_m[j * CT_CHUNK_EDGE + i]; pi = i; pj = j; }
    ct_key_direction(key, pi, pj, up, NULL, 0);
    ct_key_metric(key, pi, pj, R, east, dy, NULL, 0);
    for (k = 0; k < 4; k++) {
        double o[3], d[3], len, above = k & 1 ? 0.05 : -0.05;
        int q;
        for (q = 0; q < 3; q++) d[q] = k < 2 ? east[q] : dy[q];
        len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (q = 0; q < 3; q++) {
            d[q] /= len;
            dp[q] = up[q] * (R + peak + above);
            o[q] = dp[q] - 150.0 * d[q];
        }
        ray_check(w, &ma, o, d, 300.0, &worst, &mismatch);
    }
    CHECK(mismatch == 0 && worst < 1e-3, "%s %u,%u: %d rays disagree with the mesh, worst %.6f m",
          ct_face_name(key.face), key.x, key.y, mismatch, worst);
}

/* Rays from orbit: straight down lands on the ground; a slanted one lands on
 * the ground with nothing under the ray before it. */
static void test_orbit(const ct_world *w, ct_key key)
{
    double R = ct_world_config(w)->radius_m, d[3], o[3], dir[3], t[3], dy[3];
    ct_ray_hit hit;
    ct_ground g;
    int got = 0, q, k, under = 0;
    ct_key_direction(key, 100.3, 151.8, d, NULL, 0);
    ct_world_ground(w, d, &g, NULL, 0);
    for (q = 0; q < 3; q++) { o[q] = 3.0 * R * d[q]; dir[q] = -d[q]; }
    CHECK(ct_world_raycast(w, o, dir, 3.0 * R, 0, &hit, &got, err, sizeof err) == CT_OK && got, "orbit: %s", err);
    CHECK(got && fabs(hit.distance_m - (3.0 * R - R - g.height_m)) < 1e-3 && !hit.inside,
          "straight down: %.6f m from the ground", hit.distance_m - (2.0 * R - g.height_m));
    /* Slanted: from 150 km up and 150 km sideways towards the ground point. */
    ct_key_metric(key, 100.3, 151.8, R, t, dy, NULL, 0);
    {
        double len = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]), p[3], l2 = 0.0;
        for (q = 0; q < 3; q++) {
            p[q] = d[q] * (R + g.height_m);
            o[q] = p[q] + 150e3 * d[q] + 150e3 * t[q] / len;
            dir[q] = p[q] - o[q];
            l2 += dir[q] * dir[q];
        }
        CHECK(ct_world_raycast(w, o, dir, 2.0 * sqrt(l2), 0, &hit, &got, err, sizeof err) == CT_OK && got,
              "slanted: %s", err);
        if (got) {
            ct_world_ground(w, hit.point_m, &g, NULL, 0);
            CHECK(fabs(sqrt(hit.point_m[0] * hit.point_m[0] + hit.point_m[1] * hit.point_m[1] +
                            hit.point_m[2] * hit.point_m[2]) - R - g.height_m) < 1e-3,
                  "slanted: the hit is off the ground");
            CHECK(hit.distance_m <= sqrt(l2) + 1e-3, "slanted: hit %.3f m past the aimed point",
                  hit.distance_m - sqrt(l2));
            for (k = 1; k <= 3000; k++) {
                double s = hit.distance_m - 0.5 * k, x[3], r;
                for (q = 0; q < 3; q++) x[q] = o[q] + s * dir[q] / sqrt(l2);
                r = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
                ct_world_ground(w, x, &g, NULL, 0);
                under += r < R + g.height_m - 1e-4;
            }
            CHECK(under == 0, "slanted: %d points before the hit are under the ground", under);
        }
    }
}

static void test_inside(const ct_world *w, ct_key shore)
{
    double R = ct_world_config(w)->radius_m, d[3], o[3], dir[3];
    ct_ray_hit hit;
    ct_ground g;
    int got = 0, q, k, found = 0;
    ct_key_direction(shore, 77.7, 33.3, d, NULL, 0);
    ct_world_ground(w, d, &g, NULL, 0);
    for (q = 0; q < 3; q++) { o[q] = d[q] * (R + g.height_m - 10.0); dir[q] = d[q]; }
    CHECK(ct_world_raycast(w, o, dir, 100.0, 0, &hit, &got, NULL, 0) == CT_OK && got && hit.inside &&
          hit.distance_m == 0.0 && !hit.water, "under the ground: a hit at 0, inside");
    /* Under a water surface but above its bed: inside only with water. */
    ct_chunk_generate(w, shore, &ca, NULL, 0);
    for (k = 0; k < CT_CHUNK_SAMPLES && !found; k++) {
        ct_ground g2;
        if (ca.water[k] == CT_NO_WATER_CODE) continue;
        ct_key_direction(shore, k % CT_CHUNK_EDGE + 0.25, k / CT_CHUNK_EDGE + 0.25, d, NULL, 0);
        ct_world_ground(w, d, &g2, NULL, 0);
        if (!g2.has_water || g2.water_m - g2.height_m < 2.0) continue;
        found = 1;
        for (q = 0; q < 3; q++) o[q] = d[q] * (R + 0.5 * (g2.water_m + g2.height_m));
        CHECK(ct_world_raycast(w, o, dir, 1.0, CT_RAY_WATER, &hit, &got, NULL, 0) == CT_OK && got && hit.inside &&
              hit.water, "under water: inside with CT_RAY_WATER");
        CHECK(ct_world_raycast(w, o, d, 1.0, 0, &hit, &got, NULL, 0) == CT_OK && !got, "under water: no hit without");
        for (q = 0; q < 3; q++) { o[q] = d[q] * (R + g2.water_m + 20.0); dir[q] = -d[q]; }
        CHECK(ct_world_raycast(w, o, dir, 100.0, CT_RAY_WATER, &hit, &got, NULL, 0) == CT_OK && got && hit.water &&
              fabs(hit.distance_m - 20.0) < 1e-3, "down onto water: %.6f", hit.distance_m);
        CHECK(ct_world_raycast(w, o, dir, 100.0, 0, &hit, &got, NULL, 0) == CT_OK && got && !hit.water &&
              fabs(hit.distance_m - (20.0 + g2.water_m - g2.height_m)) < 1e-3, "down through water to the bed");
    }
    CHECK(found, "a water sample 2 m deep in the shore chunk");
}

static void test_errors(const ct_world *w)
{
    double d[3] = { 0.3, 0.4, 0.5 }, z[3] = { 0, 0, 0 }, nan3[3] = { NAN, 0, 1 }, o[3] = { 7e6, 0, 0 };
    ct_ground g;
    ct_ray_hit hit;
    int got = 7;
    CHECK(ct_world_ground(w, z, &g, err, sizeof err) == CT_ERR_DIRECTION && strstr(err, "zero"), "zero dir: %s", err);
    CHECK(ct_world_ground(w, nan3, &g, err, sizeof err) == CT_ERR_DIRECTION && strstr(err, "NaN"), "NaN dir: %s", err);
    CHECK(ct_world_ground(NULL, d, &g, NULL, 0) == CT_ERR_NULL, "NULL world");
    CHECK(ct_world_raycast(w, o, z, 10.0, 0, &hit, &got, err, sizeof err) == CT_ERR_DIRECTION && got == 0,
          "zero ray dir: %s", err);
    CHECK(ct_world_raycast(w, nan3, d, 10.0, 0, &hit, &got, err, sizeof err) == CT_ERR_DIRECTION, "NaN origin");
    CHECK(ct_world_raycast(w, o, d, 0.0, 0, &hit, &got, err, sizeof err) == CT_ERR_DIRECTION && strstr(err, "max_m"),
          "zero-length ray: %s", err);
    CHECK(ct_world_raycast(w, o, d, -5.0, 0, &hit, &got, err, sizeof err) == CT_ERR_DIRECTION, "negative max_m");
    CHECK(ct_world_raycast(w, o, d, INFINITY, 0, &hit, &got, err, sizeof err) == CT_ERR_DIRECTION, "infinite max_m");
    CHECK(ct_world_raycast(w, o, d, 5.0, 8u, &hit, &got, err, sizeof err) == CT_ERR_DIRECTION, "unknown flags");
    ct_chunk_generate(w, ct_key_make(CT_FACE_PZ, 3, 1, 2), &ca, NULL, 0);
    CHECK(ct_chunk_ground(w, &ca, 256.5, 3.0, &g, err, sizeof err) == CT_ERR_LOCAL && strstr(err, "outside"),
          "local out of range: %s", err);
    CHECK(ct_chunk_ground(w, &ca, NAN, 3.0, &g, err, sizeof err) == CT_ERR_LOCAL, "NaN local");
    CHECK(ct_chunk_ground(w, &ca, 3.0, 3.0, &g, err, sizeof err) == CT_OK, "a coarse chunk's ground: %s", err);
    ca.key.x = 99;
    CHECK(ct_chunk_ground(w, &ca, 3.0, 3.0, &g, err, sizeof err) == CT_ERR_CHUNK_XY, "key out of range: %s", err);
    ca.key.x = 1;
    ca.generation ^= 1u;
    CHECK(ct_chunk_ground(w, &ca, 3.0, 3.0, &g, err, sizeof err) == CT_ERR_MESH, "another world's chunk: %s", err);
}

int main(void)
{
    ct_world *w = build("macro_resolution=32\nsurface_lod=10\nseed=7\n");
    ct_key land, shore;
    uint32_t last;
    if (!w) return test_summary("test_ground_query");
    land = find_chunk(w, 0);
    shore = find_chunk(w, 1);
    last = (1u << 10) - 1u;
    test_chunk(w, land, 600);
    test_chunk(w, shore, 600);
    test_chunk(w, ct_key_make(CT_FACE_PX, 10, last, 500), 300);   /* on a cube edge */
    /* A border inside a face, a cube edge, a cube corner (three faces). */
    test_seam(w, land, 256, 0, 256, 256, 2);
    test_seam(w, ct_key_make(CT_FACE_PX, 10, last, 500), 256, 0, 256, 256, 2);
    test_seam(w, ct_key_make(CT_FACE_PX, 10, last, last), 256, 256, 256, 256, 3);
    test_rays(w, land);
    test_rays(w, shore);
    test_orbit(w, land);
    test_inside(w, shore);
    test_errors(w);
    ct_world_free(w);
    return test_summary("test_ground_query");
}
