/* ground_ray.c - the first hit of a ray with the exact ground
 * (ground_query.c's triangles) and, when asked, the water surfaces.
 *
 * A straight ray's radial shadow on the sphere is a great circle, and the
 * gnomonic cube faces map great circles to straight lines, so the cells a
 * ray passes over are those a line crosses on each face. The walk steps
 * along the ray so that its shadow moves under half the smallest cell
 * (cells shrink to about 0.47 of the face-centre size near cube corners), so
 * consecutive points are in the same or neighbouring cells; for a diagonal
 * move both cells beside the shared corner are tested, and at a change of
 * face the 3x3 cells around both points. A hit lies over its own cell, so
 * the first cell with a hit, in ray order, has the first hit. Only the part
 * of the ray inside the sphere of the world's highest ground is walked.
 * Samples are cached by global position: neighbouring cells share corners. */
#include "surface/ct_ground_query.h"
#include "base/ct_math.h"

#include <math.h>
#include <string.h>

#define CT__RAY_SLOTS 1024          /* cached samples (direct-mapped) */
#define CT__RAY_STEP 0.45           /* shadow step per step, in face-centre cells x 2 / 2 */
#define CT__RAY_EPS 1e-9            /* barycentric slack: shared edges hit from either side */

typedef struct ct__ray_slot {
    int64_t gx, gy;
    int face;                       /* -1: empty */
    ct__gq_sample s;
} ct__ray_slot;

typedef struct ct__ray {
    const ct__field *f;
    ct__gq_world g;                 /* the sampler (chunk.c's way) and a cell's samples */
    int lod;
    int64_t n;                      /* samples per face edge */
    double o[3], d[3], max_m;
    int water;
    double best;                    /* distance of the best hit so far */
    ct_ray_hit hit;
    ct__ray_slot slot[CT__RAY_SLOTS];
} ct__ray;

static ct__ray_slot *ct__ray_slot_of(ct__ray *ry, int face, int64_t gx, int64_t gy)
{
    return &ry->slot[ct__hash2((uint32_t)(gx * 6 + face), (uint32_t)gy) & (CT__RAY_SLOTS - 1)];
}

/* Local positions (row-major) of ry->g.key into ry->g's table: those cached
 * from earlier cells, the rest sampled and cached. */
static void ct__ray_take(ct__ray *ry, const int lx[], const int ly[], int n)
{
    const ct_key key = ry->g.key;
    int64_t gx0 = (int64_t)key.x * CT_CHUNK_CORE, gy0 = (int64_t)key.y * CT_CHUNK_CORE;
    int mx[12], my[12], m = 0, k, before;
    for (k = 0; k < n; k++) {
        const ct__ray_slot *sl = ct__ray_slot_of(ry, key.face, gx0 + lx[k], gy0 + ly[k]);
        if (sl->face == key.face && sl->gx == gx0 + lx[k] && sl->gy == gy0 + ly[k]) {
            ct__gq_world_put(&ry->g, lx[k], ly[k], &sl->s);
        } else {
            mx[m] = lx[k];
            my[m++] = ly[k];
        }
    }
    before = ry->g.have;
    ct__gq_world_sample(&ry->g, mx, my, m);
    for (k = before; k < ry->g.have; k++) {
        ct__ray_slot *sl = ct__ray_slot_of(ry, key.face, gx0 + ry->g.lx[k], gy0 + ry->g.ly[k]);
        sl->face = key.face;
        sl->gx = gx0 + ry->g.lx[k];
        sl->gy = gy0 + ry->g.ly[k];
        sl->s = ry->g.got[k];
    }
}

/* Moller-Trumbore in double; the hit's distance or -1. */
static double ct__ray_tri(const ct__ray *ry, const double a[3], const double b[3], const double c[3])
{
    double e1[3], e2[3], pv[3], s[3], q[3], det, inv, u, v;
    int k;
    for (k = 0; k < 3; k++) {
        e1[k] = b[k] - a[k];
        e2[k] = c[k] - a[k];
        s[k] = ry->o[k] - a[k];
    }
    ct__cross3(ry->d, e2, pv);
    det = ct__dot3(e1, pv);
    if (det == 0.0 || !ct__is_finite(det)) return -1.0;
    inv = 1.0 / det;
    u = ct__dot3(s, pv) * inv;
    if (u < -CT__RAY_EPS || u > 1.0 + CT__RAY_EPS) return -1.0;
    ct__cross3(s, e1, q);
    v = ct__dot3(ry->d, q) * inv;
    if (v < -CT__RAY_EPS || u + v > 1.0 + CT__RAY_EPS) return -1.0;
    return ct__dot3(e2, q) * inv;
}

/* Tests the two triangles of one surface of a cell. */
static void ct__ray_surface(ct__ray *ry, const ct__gq_cell *c, int water)
{
    double p[4][3];
    int h, k;
    ct__gq_cell_points(c, ry->f->cfg.radius_m, water, p);
    for (h = 0; h < 2; h++) {
        int idx[3];
        double t;
        ct__gq_tri(h, idx);
        t = ct__ray_tri(ry, p[idx[0]], p[idx[1]], p[idx[2]]);
        if (t < 0.0 || t > ry->max_m || t >= ry->best) continue;
        ry->best = t;
        memset(&ry->hit, 0, sizeof ry->hit);
        ry->hit.distance_m = t;
        for (k = 0; k < 3; k++) ry->hit.point_m[k] = ry->o[k] + t * ry->d[k];
        /* The outward normal (the direction handed over need not be unit
         * for it); a triangle seen edge-on from the centre gets the up. */
        if (!ct__gq_radial_hit(p[idx[0]], p[idx[1]], p[idx[2]], ry->hit.point_m, &t, ry->hit.normal)) {
            for (k = 0; k < 3; k++) ry->hit.normal[k] = ry->hit.point_m[k];
            ct__normalize3_or(ry->hit.normal, ry->d);
        }
        ry->hit.key = c->key;
        ry->hit.water = water;
    }
}

/* Tests global cell (i, j) of face; cells off the face are skipped. */
static void ct__ray_cell(ct__ray *ry, int face, int64_t i, int64_t j)
{
    ct__gq_cell c;
    int ci, cj, k, lx[12], ly[12], wet = 0;
    if (i < 0 || j < 0 || i >= ry->n || j >= ry->n) return;
    ry->g.key = ct_key_make(face, ry->lod, (uint32_t)(i / CT_CHUNK_CORE), (uint32_t)(j / CT_CHUNK_CORE));
    ry->g.have = 0;
    ci = (int)(i % CT_CHUNK_CORE);
    cj = (int)(j % CT_CHUNK_CORE);
    for (k = 0; k < 4; k++) {
        lx[k] = ci + (k & 1);
        ly[k] = cj + (k >> 1);
    }
    ct__ray_take(ry, lx, ly, 4);
    for (k = 0; k < 4; k++) {
        ct__gq_sample sm;
        if (ct__gq_world_find(&ry->g, lx[k], ly[k], &sm) && sm.water != CT_NO_WATER_CODE) wet = 1;
    }
    /* The ring a water cell's levels read, only when water stops the ray
     * (without it the cell's water levels are filled from nothing, unread). */
    if (wet && ry->water) ct__ray_take(ry, lx, ly, ct__gq_world_ring(ci, cj, lx, ly));
    ct__gq_cell_from_table(&c, &ry->g, ci, cj);
    ct__ray_surface(ry, &c, 0);
    if (ry->water && c.wet) ct__ray_surface(ry, &c, 1);
}

static void ct__ray_block(ct__ray *ry, int face, int64_t i, int64_t j)
{
    int di, dj;
    for (dj = -1; dj <= 1; dj++)
        for (di = -1; di <= 1; di++) ct__ray_cell(ry, face, i + di, j + dj);
}

/* The cell under the ray's point at distance t. */
static void ct__ray_locate(const ct__ray *ry, double t, int *face, int64_t *i, int64_t *j)
{
    double p[3], u, v, n = (double)ry->n;
    int k;
    for (k = 0; k < 3; k++) p[k] = ry->o[k] + t * ry->d[k];
    ct__cube_from_dir(p, face, &u, &v);
    *i = (int64_t)floor((u + 1.0) * 0.5 * n);
    *j = (int64_t)floor((v + 1.0) * 0.5 * n);
    if (*i > ry->n - 1) *i = ry->n - 1;
    if (*j > ry->n - 1) *j = ry->n - 1;
    if (*i < 0) *i = 0;
    if (*j < 0) *j = 0;
}

/* Ray length that moves the shadow by CT__RAY_STEP / n radians at t. */
static double ct__ray_step(const ct__ray *ry, double t)
{
    double p[3], r, along, perp;
    int k;
    for (k = 0; k < 3; k++) p[k] = ry->o[k] + t * ry->d[k];
    r = sqrt(ct__dot3(p, p));
    along = r > 0.0 ? ct__dot3(p, ry->d) / r : 1.0;
    perp = sqrt(fmax(0.0, 1.0 - along * along));
    return CT__RAY_STEP / (double)ry->n * r / fmax(perp, 1e-12);
}

static void ct__ray_walk(ct__ray *ry, double t, double t_end)
{
    int face = -1, f2;
    int64_t i = 0, j = 0, i2, j2;
    for (;;) {
        ct__ray_locate(ry, t, &f2, &i2, &j2);
        if (face < 0) {
            ct__ray_block(ry, f2, i2, j2);
        } else if (f2 != face) {
            ct__ray_block(ry, face, i, j);
            ct__ray_block(ry, f2, i2, j2);
        } else if (i2 != i || j2 != j) {
            ct__ray_cell(ry, f2, i2, j2);
            if (i2 != i && j2 != j) {
                ct__ray_cell(ry, f2, i, j2);
                ct__ray_cell(ry, f2, i2, j);
            }
        }
        face = f2;
        i = i2;
        j = j2;
        if (t >= t_end || ry->best < t) return;
        t += ct__ray_step(ry, t);
        if (t > t_end) t = t_end;
    }
}

/* An origin under the surface: a hit at distance 0. */
static int ct__ray_inside(ct__ray *ry)
{
    const double *o = ry->o;
    double r0 = sqrt(ct__dot3(o, o));
    ct_ground g;
    int k, water;
    if (ct__field_ground(ry->f, r0 > 0.0 ? o : ry->d, &g, NULL, 0) != CT_OK) return 0;
    water = 0;
    if (r0 > ry->f->cfg.radius_m + g.height_m) {
        if (!ry->water || !g.has_water || r0 > ry->f->cfg.radius_m + g.water_m) return 0;
        water = 1;
    }
    memset(&ry->hit, 0, sizeof ry->hit);
    for (k = 0; k < 3; k++) {
        ry->hit.point_m[k] = o[k];
        ry->hit.normal[k] = g.normal[k];
    }
    ry->hit.key = g.key;
    ry->hit.water = water;
    ry->hit.inside = 1;
    return 1;
}

ct_result ct__field_raycast(const ct__field *f, double top_m, const double origin_m[3], const double dir[3],
                            double max_m, unsigned flags, ct_ray_hit *out, int *hit, char *err, size_t errlen)
{
    ct__ray ry;
    double len, top, b, c, disc, t0, t1;
    int k;
    if (!f || !origin_m || !dir || !out || !hit)
        return ct__fail(err, errlen, CT_ERR_NULL, "world, origin, direction, hit and output are required");
    *hit = 0;
    if (!ct__is_finite(origin_m[0]) || !ct__is_finite(origin_m[1]) || !ct__is_finite(origin_m[2]))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "ray origin has a NaN or infinite component");
    if (!ct__is_finite(dir[0]) || !ct__is_finite(dir[1]) || !ct__is_finite(dir[2]))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "ray direction has a NaN or infinite component");
    if (dir[0] == 0.0 && dir[1] == 0.0 && dir[2] == 0.0)
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "ray direction is the zero vector");
    if (!ct__is_finite(max_m) || !(max_m > 0.0))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "ray length max_m must be a finite number > 0 (got %g)", max_m);
    if (flags & ~CT_RAY_WATER) return ct__fail(err, errlen, CT_ERR_DIRECTION, "unknown ray flags 0x%x", flags);
    memset(&ry.hit, 0, sizeof ry.hit);
    ry.f = f;
    ry.lod = (int)f->cfg.surface_lod;
    ry.n = (int64_t)CT_CHUNK_CORE << ry.lod;
    ry.max_m = max_m;
    ry.water = (flags & CT_RAY_WATER) != 0;
    ry.best = HUGE_VAL;
    for (k = 0; k < CT__RAY_SLOTS; k++) ry.slot[k].face = -1;
    len = sqrt(ct__dot3(dir, dir));
    if (!(len > 0.0) || !ct__is_finite(len)) ct__canonical_dir(dir, ry.d);
    else for (k = 0; k < 3; k++) ry.d[k] = dir[k] / len;
    for (k = 0; k < 3; k++) ry.o[k] = origin_m[k];
    /* The part of the ray inside the sphere of the highest ground. */
    top = f->cfg.radius_m + top_m;
    b = ct__dot3(ry.o, ry.d);
    c = ct__dot3(ry.o, ry.o) - top * top;
    disc = b * b - c;
    if (c <= 0.0 && ct__ray_inside(&ry)) {
        *out = ry.hit;
        *hit = 1;
        return CT_OK;
    }
    if (!(disc >= 0.0)) return CT_OK;
    t0 = -b - sqrt(disc) - 1.0;   /* a metre early: the root's rounding never skips ground */
    t1 = -b + sqrt(disc);
    if (t0 < 0.0) t0 = 0.0;
    if (t1 > max_m) t1 = max_m;
    if (t0 > t1) return CT_OK;
    ct__gq_world_init(&ry.g, f);
    ct__ray_walk(&ry, t0, t1);
    ct__sampler_finish(&ry.g.sp);
    ct__sampler_release(&ry.g.sp);
    if (ry.best <= max_m) {
        *out = ry.hit;
        *hit = 1;
    }
    return CT_OK;
}
