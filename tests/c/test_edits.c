/* test_edits.c - edit sets: each kind shapes what it should (a flat pad, a
 * crater's depth and rim, a path within its grade, a brush's delta), the
 * blends are continuous, edits reach samples, chunks, meshes, the ground and
 * raycasts, chunks no edit reaches keep their bytes and digests (and the
 * edited-key list is exact), pads stay above water, paths report their water
 * crossings, sets round-trip through bytes, snapshots and .ctc files, and
 * bad edits are refused by index and field with the world unchanged. */
#include "ct.h"
#include "world/ct_world.h"
#include "layers/ct_edits.h"
#include "test.h"
#include "test_world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static ct_chunk ca, cb;
static double R;

static ct_world *build(void)
{
    ct_config cfg;
    ct_config_preset(&cfg, "balanced", NULL, 0);
    return test_world_build(&cfg, "macro_resolution=32\nseed=7\nsurface_lod=9\nradius_m=400000\n");
}

static void unit(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= l; v[1] /= l; v[2] /= l;
}

/* Two unit tangents at c. */
static void tangents(const double c[3], double t1[3], double t2[3])
{
    double a[3] = {0.0, 1.0, 0.0};
    if (fabs(c[1]) > 0.9) { a[0] = 1.0; a[1] = 0.0; }
    t1[0] = a[1] * c[2] - a[2] * c[1]; t1[1] = a[2] * c[0] - a[0] * c[2]; t1[2] = a[0] * c[1] - a[1] * c[0];
    unit(t1);
    t2[0] = c[1] * t1[2] - c[2] * t1[1]; t2[1] = c[2] * t1[0] - c[0] * t1[2]; t2[2] = c[0] * t1[1] - c[1] * t1[0];
}

/* The unit direction d metres (chord) from c along unit tangent t. */
static void offset(const double c[3], const double t[3], double d, double out[3])
{
    double x = d / R, k = sqrt(1.0 - 0.25 * x * x);
    /* chord x: angle 2 asin(x/2); cos and sin of it from x alone */
    double cosa = 1.0 - 0.5 * x * x, sina = x * k;
    int i;
    for (i = 0; i < 3; i++) out[i] = c[i] * cosa + t[i] * sina;
}

static double height(const ct_world *w, const double d[3], int *water)
{
    ct_sample s;
    char err[200];
    CHECK(ct_world_sample(w, d, &s, err, sizeof err) == CT_OK, "sample: %s", err);
    if (water) *water = s.has_water;
    return s.height_m;
}

/* A land direction with dry ground for 3 km around, between 200 and 1500 m. */
static int find_land(const ct_world *w, double out[3])
{
    int i, j, k, ok, wet;
    for (i = 0; i < 400; i++) {
        double c[3] = {cos(i * 0.37) * 0.8, sin(i * 0.91) * 0.6, 0.3 + 0.01 * i}, t1[3], t2[3], p[3];
        double h;
        unit(c);
        h = height(w, c, &wet);
        if (wet || h < 200.0 || h > 1500.0) continue;
        tangents(c, t1, t2);
        ok = 1;
        for (j = 0; j < 8 && ok; j++)
            for (k = 1; k <= 3 && ok; k++) {
                double t[3] = {t1[0] * cos(j * 0.785) + t2[0] * sin(j * 0.785), t1[1] * cos(j * 0.785) + t2[1] * sin(j * 0.785),
                               t1[2] * cos(j * 0.785) + t2[2] * sin(j * 0.785)};
                offset(c, t, 1000.0 * k, p);
                height(w, p, &wet);
                ok = !wet;
            }
        if (ok) { memcpy(out, c, sizeof(double) * 3); return 1; }
    }
    return 0;
}

/* A land direction with sea within 1.5 km along t1 (the sea direction in sea). */
static int find_coast(const ct_world *w, double land[3], double sea[3])
{
    int i, k, wet, wet2;
    for (i = 0; i < 4000; i++) {
        double c[3] = {cos(i * 0.13) * 0.9, sin(i * 0.71) * 0.7, sin(i * 0.29)}, t1[3], t2[3], p[3];
        double h;
        unit(c);
        h = height(w, c, &wet);
        if (wet || h < 5.0) continue;
        tangents(c, t1, t2);
        for (k = 1; k <= 6; k++) {
            ct_sample s;
            offset(c, t1, 250.0 * k, p);
            ct_world_sample(w, p, &s, NULL, 0);
            height(w, p, &wet2);
            if (s.has_water && s.water_body == 0) {
                memcpy(land, c, sizeof(double) * 3);
                memcpy(sea, p, sizeof(double) * 3);
                return 1;
            }
        }
    }
    return 0;
}

static uint8_t *encode(const ct_edit *e, size_t n, size_t *len)
{
    char err[200];
    uint8_t *b;
    *len = ct_edits_encoded_size(e, n);
    b = (uint8_t *)malloc(*len ? *len : 1);
    CHECK(ct_edits_encode(e, n, b, *len, err, sizeof err) == CT_OK, "encode: %s", err);
    return b;
}

static ct_world *apply(const ct_world *base, const ct_edit *e, size_t n)
{
    char err[200];
    size_t len;
    uint8_t *b = encode(e, n, &len);
    ct_world *w = NULL;
    CHECK(ct_world_with_edits(base, b, len, &w, err, sizeof err) == CT_OK, "with_edits: %s", err);
    free(b);
    return w;
}

static void test_shapes(const ct_world *base, const double c[3])
{
    double t1[3], t2[3], p[3], prev = 0.0, h0 = height(base, c, NULL), maxstep = 0.0;
    ct_edit e[1];
    ct_world *w;
    int k, wet;
    tangents(c, t1, t2);

    /* A pad at the ground's height at its centre (no heightM given). */
    memset(e, 0, sizeof e);
    e[0].kind = CT_EDIT_FLATTEN; memcpy(e[0].center, c, sizeof e[0].center);
    e[0].radius_m = 300.0; e[0].blend_m = 200.0;
    w = apply(base, e, 1);
    for (k = 0; k <= 60; k++) {
        double h;
        offset(c, t1, 10.0 * k, p);
        h = height(w, p, &wet);
        if (k <= 29) CHECK(fabs(h - h0) < 1e-6, "pad at %d m: %.6f, centre %.6f", 10 * k, h, h0);
        if (k >= 51) CHECK(h == height(base, p, NULL), "beyond the pad at %d m: changed", 10 * k);
        if (k && fabs(h - prev) > maxstep) maxstep = fabs(h - prev);
        prev = h;
    }
    /* Continuous: no 10 m step jumps more than the base terrain could. */
    CHECK(maxstep < 20.0, "pad blend step %.2f m per 10 m", maxstep);
    ct_world_free(w);

    /* A crater: depth at the centre, rim at the radius. */
    memset(e, 0, sizeof e);
    e[0].kind = CT_EDIT_CRATER; memcpy(e[0].center, c, sizeof e[0].center);
    e[0].radius_m = 800.0; e[0].depth_m = 120.0; e[0].rim_m = 30.0;
    w = apply(base, e, 1);
    CHECK(fabs(height(w, c, NULL) - (h0 - 120.0)) < 1e-6, "crater floor %.3f, base %.3f", height(w, c, NULL), h0);
    offset(c, t1, 800.0, p);
    CHECK(fabs(height(w, p, NULL) - (height(base, p, NULL) + 30.0)) < 0.05, "crater rim %.3f vs base %.3f",
          height(w, p, NULL), height(base, p, NULL));
    offset(c, t1, 1201.0, p);
    CHECK(height(w, p, NULL) == height(base, p, NULL), "beyond the crater's rim: changed");
    /* Continuous: the change it makes steps at most its steepest slope
     * (2 (depth + rim) / radius, 0.375) times the 10 m step. */
    maxstep = 0.0;
    for (k = 0; k <= 125; k++) {
        double delta;
        offset(c, t1, 10.0 * k, p);
        delta = height(w, p, NULL) - height(base, p, NULL);
        if (k && fabs(delta - prev) > maxstep) maxstep = fabs(delta - prev);
        prev = delta;
    }
    CHECK(maxstep <= 3.75 + 1e-6, "crater profile step %.3f m per 10 m", maxstep);
    ct_world_free(w);

    /* A brush: delta at the centre, half-way (1 - 1/4)^2 of it. */
    memset(e, 0, sizeof e);
    e[0].kind = CT_EDIT_BRUSH; memcpy(e[0].center, c, sizeof e[0].center);
    e[0].radius_m = 500.0; e[0].delta_m = 40.0;
    w = apply(base, e, 1);
    CHECK(fabs(height(w, c, NULL) - (h0 + 40.0)) < 1e-6, "brush centre");
    offset(c, t2, 250.0, p);
    CHECK(fabs(height(w, p, NULL) - height(base, p, NULL) - 40.0 * 0.5625) < 0.01, "brush half-way: %.3f",
          height(w, p, NULL) - height(base, p, NULL));
    ct_world_free(w);
}

/* A path over hills: its centre line within the grade. */
static void test_path(const ct_world *base, const double c[3])
{
    double t1[3], t2[3], pts[9], p[3], q[3], prev = 0.0, worst = 0.0, tang = tan(4.0 * 3.14159265358979 / 180.0);
    ct_edit e;
    ct_world *w;
    int k, changed = 0;
    tangents(c, t1, t2);
    offset(c, t1, -2500.0, pts);
    memcpy(pts + 3, c, sizeof(double) * 3);
    offset(c, t2, 2000.0, p);
    memcpy(pts + 6, p, sizeof p);
    memset(&e, 0, sizeof e);
    e.kind = CT_EDIT_PATH; e.points = pts; e.point_count = 3; e.width_m = 12.0; e.max_grade_deg = 4.0;
    w = apply(base, &e, 1);
    for (k = 0; k <= 240; k++) {
        double h, s = 10.0 * k;
        int wet;
        if (s <= 2500.0) offset(c, t1, s - 2500.0, q);
        else offset(c, t2, s - 2500.0, q);
        h = height(w, q, &wet);
        changed += h != height(base, q, NULL);
        if (k && !wet && fabs(h - prev) / 10.0 > worst) worst = fabs(h - prev) / 10.0;
        prev = h;
    }
    CHECK(changed > 200, "path changed %d of 241 centre-line samples", changed);
    /* The profile's grade, plus what the chord-vs-arc position adds. */
    CHECK(worst <= tang * 1.02 + 1e-6, "path grade %.4f over tan(4 deg) %.4f", worst, tang);
    ct_world_free(w);
}

/* The smallest (chord metres to an edit's centre - its footprint) over a
 * chunk's samples and the test's three cap edits: < 0 where a sample lies
 * inside a footprint. Independent of the core's reach test. */
static double chunk_margin(ct_key k, const ct_edit *e, const double *foot)
{
    double best = HUGE_VAL, d[3];
    int i, j, m;
    for (j = 0; j <= 256; j++)
        for (i = 0; i <= 256; i++) {
            ct_key_direction(k, i, j, d, NULL, 0);
            for (m = 0; m < 3; m++) {
                double c[3], l, x, y, z, dist;
                memcpy(c, e[m].center, sizeof c);
                l = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
                x = d[0] - c[0] / l; y = d[1] - c[1] / l; z = d[2] - c[2] / l;
                dist = sqrt(x * x + y * y + z * z) * R - foot[m];
                if (dist < best) best = dist;
            }
        }
    return best;
}

/* Untouched chunks keep every byte; listed ones carry the ID; the list is
 * the set of chunks whose samples change: every listed chunk and every
 * unlisted neighbour of one is generated on both worlds. (A 400 km planet:
 * LOD 9 chunks are 1.2 km, so the footprints' edges fall inside chunks.) */
static void test_identity(const ct_world *base, const double c[3])
{
    double t1[3], t2[3], p[3], foot[3];
    ct_edit e[3];
    ct_world *w;
    ct_key keys[96];
    size_t n = 0, i, changed_listed = 0, ring = 0;
    char err[200];
    int lod, dx, dy;
    tangents(c, t1, t2);
    memset(e, 0, sizeof e);
    e[0].kind = CT_EDIT_FLATTEN; memcpy(e[0].center, c, sizeof e[0].center); e[0].radius_m = 500.0; e[0].blend_m = 300.0;
    offset(c, t1, 2500.0, p);
    e[1].kind = CT_EDIT_CRATER; memcpy(e[1].center, p, sizeof p); e[1].radius_m = 700.0; e[1].depth_m = 80.0; e[1].rim_m = 20.0;
    offset(c, t2, -2000.0, p);
    e[2].kind = CT_EDIT_BRUSH; memcpy(e[2].center, p, sizeof p); e[2].radius_m = 600.0; e[2].delta_m = -25.0;
    w = apply(base, e, 3);
    foot[0] = 800.0; foot[1] = 1050.0; foot[2] = 600.0;   /* radius + blend, 1.5 radius, radius */
    CHECK(ct_world_edit_set_id(w) != 0, "edit set ID");
    for (lod = 8; lod <= 9; lod++) {
        /* a listed chunk's area reaches a footprint: a sample within one spacing of it */
        const double spacing = R * 1.5707963 / (256.0 * (double)(1 << lod)) * 1.5;
        CHECK(ct_world_edited_keys(w, lod, keys, 96, &n, err, sizeof err) == CT_OK, "keys: %s", err);
        CHECK(n > 1 && n <= 96, "lod %d: %lu edited keys", lod, (unsigned long)n);
        if (n > 96) n = 96;
        changed_listed = ring = 0;
        for (i = 0; i < n; i++) {
            ct_chunk_generate(base, keys[i], &ca, NULL, 0);
            ct_chunk_generate(w, keys[i], &cb, NULL, 0);
            CHECK(cb.edit_set == ct_world_edit_set_id(w) && cb.digest != ca.digest, "lod %d listed chunk: edit_set %llx",
                  lod, (unsigned long long)cb.edit_set);
            changed_listed += memcmp(ca.height_m, cb.height_m, sizeof ca.height_m) != 0;
            CHECK(chunk_margin(keys[i], e, foot) < spacing, "lod %d listed chunk %lu,%lu is beyond every footprint",
                  lod, (unsigned long)keys[i].x, (unsigned long)keys[i].y);
            for (dy = -1; dy <= 1; dy++)
                for (dx = -1; dx <= 1; dx++) {
                    ct_key k = ct_key_make(keys[i].face, lod, keys[i].x + dx, keys[i].y + dy);
                    size_t j;
                    int listed = 0;
                    if (ct_key_validate(k, NULL, 0) != CT_OK) continue;
                    for (j = 0; j < n; j++) listed |= keys[j].face == k.face && keys[j].x == k.x && keys[j].y == k.y;
                    if (listed) continue;
                    ct_chunk_generate(base, k, &ca, NULL, 0);
                    ct_chunk_generate(w, k, &cb, NULL, 0);
                    CHECK(memcmp(&ca, &cb, sizeof ca) == 0, "lod %d unlisted chunk %lu,%lu differs", lod,
                          (unsigned long)k.x, (unsigned long)k.y);
                    CHECK(chunk_margin(k, e, foot) > -1e-6, "lod %d unlisted chunk %lu,%lu has a sample in a footprint",
                          lod, (unsigned long)k.x, (unsigned long)k.y);
                    ring++;
                }
        }
        /* Exact: the listed chunks change (a footprint may just touch a
         * chunk's corner between samples, so not quite all). */
        CHECK(changed_listed * 10 >= n * 8, "lod %d: %lu of %lu listed chunks changed", lod,
              (unsigned long)changed_listed, (unsigned long)n);
        CHECK(ring > 0, "lod %d: no unlisted neighbours checked", lod);
    }
    ct_world_free(w);
}

/* Ground, raycast and meshes see the edit, also above the base world's top. */
static void test_reach(const ct_world *base, const double c[3])
{
    ct_edit e;
    ct_world *w;
    ct_ground g;
    ct_ray_hit hit;
    int got = 0;
    double origin[3], down[3], top = 14000.0;
    char err[200];
    ct_key key;
    ct_mesh_options mo;
    ct_mesh_layout lay;
    ct_mesh ma, mb;
    memset(&e, 0, sizeof e);
    e.kind = CT_EDIT_FLATTEN; memcpy(e.center, c, sizeof e.center); e.radius_m = 400.0; e.blend_m = 2000.0;
    e.has_height = 1; e.height_m = top;
    w = apply(base, &e, 1);
    CHECK(ct_world_ground(w, c, &g, err, sizeof err) == CT_OK, "ground: %s", err);
    CHECK(fabs(g.height_m - top) < 1e-3, "ground on the pad %.4f", g.height_m);
    CHECK(g.slope_deg < 0.01, "pad slope %.4f deg", g.slope_deg);
    origin[0] = c[0] * (R + 30000.0); origin[1] = c[1] * (R + 30000.0); origin[2] = c[2] * (R + 30000.0);
    down[0] = -c[0]; down[1] = -c[1]; down[2] = -c[2];
    CHECK(ct_world_raycast(w, origin, down, 60000.0, 0, &hit, &got, err, sizeof err) == CT_OK, "ray: %s", err);
    CHECK(got && fabs(hit.distance_m - (30000.0 - top)) < 1e-2, "ray hit %d at %.3f m", got, hit.distance_m);
    ct_key_at(base, c, 9, &key, NULL, NULL, NULL, 0);
    ct_chunk_generate(base, key, &ca, NULL, 0);
    ct_chunk_generate(w, key, &cb, NULL, 0);
    memset(&mo, 0, sizeof mo);
    mo.stride = 4;
    ct_mesh_layout_get(&mo, &lay, NULL, 0);
    memset(&ma, 0, sizeof ma);
    memset(&mb, 0, sizeof mb);
    ma.positions = (float *)malloc(12u * lay.vertex_count); mb.positions = (float *)malloc(12u * lay.vertex_count);
    ma.normals = (float *)malloc(12u * lay.vertex_count); mb.normals = (float *)malloc(12u * lay.vertex_count);
    ma.indices = malloc((size_t)lay.index_bytes * lay.index_count); mb.indices = malloc((size_t)lay.index_bytes * lay.index_count);
    CHECK(ct_mesh_build(base, &ca, &mo, NULL, &ma, err, sizeof err) == CT_OK, "mesh: %s", err);
    CHECK(ct_mesh_build(w, &cb, &mo, NULL, &mb, err, sizeof err) == CT_OK, "mesh: %s", err);
    CHECK(memcmp(ma.positions, mb.positions, 12u * lay.vertex_count) != 0, "the mesh shows the pad");
    free(ma.positions); free(mb.positions); free(ma.normals); free(mb.normals); free(ma.indices); free(mb.indices);
    ct_world_free(w);
}

/* A pad below the sea stays above it on land; a path into the sea leaves
 * the water as it is and reports the crossing. */
static void test_water(const ct_world *base)
{
    double land[3], sea[3], t1[3], t2[3], p[3], pts[6];
    ct_edit e;
    ct_world *w;
    ct_path_crossing cr[4];
    size_t n = 0;
    int k, j, wet, wet0, below = 0, wet_changed = 0;
    char err[200];
    CHECK(find_coast(base, land, sea), "no coast found");
    tangents(land, t1, t2);
    memset(&e, 0, sizeof e);
    e.kind = CT_EDIT_FLATTEN; memcpy(e.center, land, sizeof e.center); e.radius_m = 600.0; e.blend_m = 100.0;
    e.has_height = 1; e.height_m = -40.0;
    w = apply(base, &e, 1);
    for (k = -6; k <= 6; k++)
        for (j = -6; j <= 6; j++) {
            double q[3], h, hb;
            offset(land, t1, 100.0 * k, p);
            offset(p, t2, 100.0 * j, q);
            hb = height(base, q, &wet0);
            h = height(w, q, &wet);
            if (wet0) wet_changed += !wet || h != hb;
            else below += h < (hb < 0.5 ? hb : 0.5) - 1e-9;
        }
    CHECK(below == 0 && wet_changed == 0, "pad: %d land samples below the sea, %d water samples changed", below,
          wet_changed);
    ct_world_free(w);
    memcpy(pts, land, sizeof land);
    offset(land, t1, 2500.0, pts + 3);
    memset(&e, 0, sizeof e);
    e.kind = CT_EDIT_PATH; e.points = pts; e.point_count = 2; e.width_m = 8.0; e.max_grade_deg = 6.0;
    w = apply(base, &e, 1);
    CHECK(ct_world_path_crossings(w, 0, cr, 4, &n, err, sizeof err) == CT_OK, "crossings: %s", err);
    CHECK(n >= 1 && cr[0].from_m > 0.0 && cr[0].to_m >= cr[0].from_m && cr[0].water_body == 0,
          "%lu crossings, first %.1f..%.1f m body %d", (unsigned long)n, n ? cr[0].from_m : 0.0, n ? cr[0].to_m : 0.0,
          n ? cr[0].water_body : -9);
    CHECK(ct_world_path_crossings(w, 1, cr, 4, &n, err, sizeof err) == CT_ERR_CONFIG, "crossings of edit 1");
    ct_world_free(w);
}

/* Bytes, IDs, snapshots, .ctc files and addresses. */
static void test_round_trip(const ct_world *base, const double c[3])
{
    double t1[3], t2[3], pts[6];
    ct_edit e[2];
    ct_world *w, *r = NULL;
    size_t len, slen, blen = ct_world_snapshot_size(base);
    uint8_t *bytes, *snap, *snap0, *ctc;
    const uint8_t *back;
    char err[200], addr[96], addr0[96];
    ct_key key;
    tangents(c, t1, t2);
    memset(e, 0, sizeof e);
    e[0].kind = CT_EDIT_FLATTEN; memcpy(e[0].center, c, sizeof e[0].center); e[0].radius_m = 333.3; e[0].blend_m = 0.1;
    e[0].has_height = 1; e[0].height_m = 0.1 + 0.2;   /* a double that is not short in decimal */
    offset(c, t1, 1000.0, pts);
    offset(c, t2, 1000.0, pts + 3);
    e[1].kind = CT_EDIT_PATH; e[1].points = pts; e[1].point_count = 2; e[1].width_m = 5.0; e[1].max_grade_deg = 8.0;
    bytes = encode(e, 2, &len);
    snap0 = (uint8_t *)malloc(blen);
    ct_world_snapshot_write(base, snap0, blen, NULL, 0);
    CHECK(ct_world_with_edits(base, bytes, len, &w, err, sizeof err) == CT_OK, "with_edits: %s", err);
    CHECK(ct_world_edit_bytes(w, &back) == len && memcmp(back, bytes, len) == 0, "edit bytes round trip");
    /* The base's snapshot is unchanged; the edited one appends the set. */
    snap = (uint8_t *)malloc(blen);
    ct_world_snapshot_write(base, snap, blen, NULL, 0);
    CHECK(memcmp(snap, snap0, blen) == 0, "base snapshot unchanged");
    free(snap);
    slen = ct_world_snapshot_size(w);
    CHECK(slen == blen + 16 + len + 8, "edited snapshot %lu bytes", (unsigned long)slen);
    snap = (uint8_t *)malloc(slen);
    CHECK(ct_world_snapshot_write(w, snap, slen, err, sizeof err) == CT_OK, "write: %s", err);
    CHECK(memcmp(snap, snap0, blen) == 0, "edited snapshot starts with the base world");
    CHECK(ct_world_snapshot_read(snap, slen, &r, err, sizeof err) == CT_OK, "read: %s", err);
    if (r) {
        CHECK(ct_world_edit_set_id(r) == ct_world_edit_set_id(w), "snapshot keeps the ID");
        CHECK(ct_world_edit_bytes(r, &back) == len && memcmp(back, bytes, len) == 0, "snapshot keeps the doubles");
        ct_key_at(base, c, 9, &key, NULL, NULL, NULL, 0);
        ct_chunk_generate(w, key, &ca, NULL, 0);
        ct_chunk_generate(r, key, &cb, NULL, 0);
        CHECK(memcmp(&ca, &cb, sizeof ca) == 0 && ca.edit_set != 0, "read world's chunk equals the edited one");
        ct_world_free(r);
    }
    snap[slen - 1] ^= 1;
    CHECK(ct_world_snapshot_read(snap, slen, &r, err, sizeof err) == CT_ERR_CHECKSUM, "corrupt edit section");
    /* .ctc version 3 carries the ID; version 2 unchanged for the rest. */
    ctc = (uint8_t *)malloc(CT_CTC_EDITED_FILE_BYTES);
    CHECK(ct_chunk_ctc_size(&ca) == CT_CTC_EDITED_FILE_BYTES, "edited .ctc size");
    CHECK(ct_chunk_encode_ctc(&ca, ctc, CT_CTC_EDITED_FILE_BYTES, err, sizeof err) == CT_OK, "encode: %s", err);
    CHECK(ct_chunk_decode_ctc(ctc, CT_CTC_EDITED_FILE_BYTES, &cb, err, sizeof err) == CT_OK, "decode: %s", err);
    CHECK(cb.edit_set == ca.edit_set && cb.digest == ca.digest && ctc[8] == 3, "edited .ctc round trip");
    ctc[55] ^= 1;   /* the ID is covered by the digest */
    CHECK(ct_chunk_decode_ctc(ctc, CT_CTC_EDITED_FILE_BYTES, &cb, err, sizeof err) == CT_ERR_CHECKSUM, "ID flip");
    ct_chunk_generate(base, key, &ca, NULL, 0);
    CHECK(ct_chunk_ctc_size(&ca) == CT_CTC_FILE_BYTES, "base .ctc size");
    CHECK(ct_chunk_encode_ctc(&ca, ctc, CT_CTC_FILE_BYTES, err, sizeof err) == CT_OK && ctc[8] == 2, "base .ctc v2");
    free(ctc);
    ct_address_format(base, key, addr0, sizeof addr0);
    ct_address_format(w, key, addr, sizeof addr);
    CHECK(strchr(addr0, '~') == NULL && strchr(addr, '~') != NULL && strncmp(addr, addr0, strchr(addr, '~') - addr) == 0,
          "addresses %s / %s", addr0, addr);
    /* excludes: on the pad, off it */
    CHECK(ct__edits_excludes(w->edits, c) && ct__edits_excludes(w->edits, pts), "excludes the pad and the path");
    {
        double far[3];
        offset(c, t1, -3000.0, far);
        CHECK(!ct__edits_excludes(w->edits, far), "does not exclude open ground");
    }
    ct_world_free(w);
    free(snap);
    free(snap0);
    free(bytes);
}

/* Bad edits: named by index and field, the base world unchanged. */
static void test_bad(const ct_world *base, const double c[3])
{
    ct_edit e[3];
    double one[3] = {1.0, 0.0, 0.0}, h = height(base, c, NULL);
    size_t len;
    uint8_t *b;
    char err[200];
    ct_world *w;
    memset(e, 0, sizeof e);
    e[0].kind = CT_EDIT_BRUSH; memcpy(e[0].center, c, sizeof e[0].center); e[0].radius_m = 100.0; e[0].delta_m = 1.0;
    e[1] = e[0];
    e[1].kind = CT_EDIT_CRATER; e[1].radius_m = NAN;
    b = encode(e, 2, &len);
    err[0] = '\0';
    CHECK(ct_world_with_edits(base, b, len, &w, err, sizeof err) == CT_ERR_CONFIG && !w && strstr(err, "edit 1") && strstr(err, "radiusM"), "NaN radius: %s", err);
    free(b);
    e[1].radius_m = 60000.0;
    b = encode(e, 2, &len);
    CHECK(ct_world_with_edits(base, b, len, &w, err, sizeof err) == CT_ERR_CONFIG && !w && strstr(err, "edit 1") && strstr(err, "out of range"), "radius range: %s", err);
    free(b);
    e[1].kind = CT_EDIT_PATH; e[1].points = one; e[1].point_count = 1; e[1].width_m = 4.0; e[1].max_grade_deg = 5.0;
    b = encode(e, 2, &len);
    CHECK(ct_world_with_edits(base, b, len, &w, err, sizeof err) == CT_ERR_CONFIG && !w && strstr(err, "edit 1") && strstr(err, "points"), "one-point path: %s", err);
    free(b);
    e[2] = e[0];
    e[2].center[0] = e[2].center[1] = e[2].center[2] = 0.0;
    e[1] = e[0];
    b = encode(e, 3, &len);
    CHECK(ct_world_with_edits(base, b, len, &w, err, sizeof err) == CT_ERR_CONFIG && !w && strstr(err, "edit 2") && strstr(err, "center"), "zero centre: %s", err);
    b[12] = 0xff; b[13] = 0xff;   /* count */
    CHECK(ct_world_with_edits(base, b, len, &w, err, sizeof err) == CT_ERR_CONFIG && !w && strstr(err, "too many edits"), "too many: %s", err);
    free(b);
    CHECK(height(base, c, NULL) == h, "the base world is unchanged");
}

/* Hostile bytes: every bit of a small set flipped and every truncation is
 * either refused with a reason or gives a world (never a crash: run under
 * the sanitizers), and nothing is left behind either way. */
static void test_hostile(const ct_world *base, const double c[3])
{
    double t1[3], t2[3], pts[6];
    ct_edit e[3];
    size_t len, i;
    int bit, refused = 0, applied = 0;
    uint8_t *b;
    char err[200];
    tangents(c, t1, t2);
    memset(e, 0, sizeof e);
    e[0].kind = CT_EDIT_FLATTEN; memcpy(e[0].center, c, sizeof e[0].center); e[0].radius_m = 50.0; e[0].blend_m = 20.0;
    e[1].kind = CT_EDIT_BRUSH; memcpy(e[1].center, c, sizeof e[1].center); e[1].radius_m = 30.0; e[1].delta_m = 2.0;
    offset(c, t1, 40.0, pts);
    offset(c, t2, 40.0, pts + 3);
    e[2].kind = CT_EDIT_PATH; e[2].points = pts; e[2].point_count = 2; e[2].width_m = 4.0; e[2].max_grade_deg = 8.0;
    b = encode(e, 3, &len);
    for (i = 0; i < len; i++)
        for (bit = 0; bit < 8; bit++) {
            ct_world *w = NULL;
            b[i] ^= (uint8_t)(1u << bit);
            err[0] = '\0';
            if (ct_world_with_edits(base, b, len, &w, err, sizeof err) == CT_OK) {
                applied++;
                ct_world_free(w);
            } else {
                refused++;
                CHECK(w == NULL && err[0] != '\0', "byte %lu bit %d refused without a reason", (unsigned long)i, bit);
            }
            b[i] ^= (uint8_t)(1u << bit);
        }
    for (i = 0; i < len; i++) {
        ct_world *w = NULL;
        CHECK(ct_world_with_edits(base, b, i, &w, err, sizeof err) != CT_OK || i == 0, "truncated to %lu accepted",
              (unsigned long)i);
        ct_world_free(w);
    }
    CHECK(refused > 0 && applied > 0, "flips: %d refused, %d applied", refused, applied);
    free(b);
}

/* test_edits --digest FILE FACE LOD X Y: the test world with the edit set in
 * FILE; prints the chunk's edit set ID and digest (tests/js/edits.test.mjs
 * compares them with the WebAssembly build's). */
static int print_digest(char **argv)
{
    ct_world *base = build(), *w = NULL;
    FILE *f = fopen(argv[2], "rb");
    static uint8_t bytes[1 << 20];
    size_t len = f ? fread(bytes, 1, sizeof bytes, f) : 0;
    char err[200];
    if (f) fclose(f);
    if (!base || ct_world_with_edits(base, bytes, len, &w, err, sizeof err) != CT_OK) {
        fprintf(stderr, "edits: %s\n", err);
        return 1;
    }
    if (ct_chunk_generate(w, ct_key_make(atoi(argv[3]), atoi(argv[4]), (uint32_t)atol(argv[5]), (uint32_t)atol(argv[6])),
                          &ca, err, sizeof err) != CT_OK) {
        fprintf(stderr, "chunk: %s\n", err);
        return 1;
    }
    printf("%016llx %016llx\n", (unsigned long long)ca.edit_set, (unsigned long long)ca.digest);
    ct_world_free(w);
    ct_world_free(base);
    return 0;
}

int main(int argc, char **argv)
{
    ct_world *base;
    double c[3];
    if (argc == 7 && strcmp(argv[1], "--digest") == 0) return print_digest(argv);
    base = build();
    if (!base) return test_summary("edits");
    R = ct_world_config(base)->radius_m;
    CHECK(find_land(base, c), "no land found");
    test_shapes(base, c);
    test_path(base, c);
    test_identity(base, c);
    test_reach(base, c);
    test_water(base);
    test_round_trip(base, c);
    test_bad(base, c);
    test_hostile(base, c);
    ct_world_free(base);
    return test_summary("edits");
}
