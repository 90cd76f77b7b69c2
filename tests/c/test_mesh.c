/* test_mesh.c - native tests of mesh.c: layouts for every stride, option and
 * argument rejection, grid positions against chunk samples, skirts, winding
 * on every face, bounding spheres, exaggeration, colours, water meshes
 * that cover exactly the wet cells, and the two-lane grid path against the
 * scalar sequence it replaces, bit for bit. */
#include "ct.h"
#include "base/ct_base.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXV (257 * 257 + 4 * 257)
#define MAXI (6 * 256 * 256 + 24 * 256)

static float positions[3 * MAXV], normals[3 * MAXV];
static uint8_t colors[4 * MAXV], pal_index[MAXV];
static uint32_t indices[MAXI];
static ct_chunk chunk;

static void mesh_init(ct_mesh *m)
{
    memset(m, 0, sizeof *m);
    m->positions = positions;
    m->normals = normals;
    m->colors = colors;
    m->palette_index = pal_index;
    m->indices = indices;
}

static ct_mesh_options opts(int stride, double skirt, double vex, int water)
{
    ct_mesh_options o;
    memset(&o, 0, sizeof o);
    o.stride = stride;
    o.skirt_depth_m = skirt;
    o.vertical_exaggeration = vex;
    o.water = water;
    return o;
}

static uint32_t index_at(const ct_mesh_layout *l, uint32_t i)
{
    return l->index_bytes == 2 ? ((const uint16_t *)(const void *)indices)[i] : indices[i];
}

static void vertex(const ct_mesh *m, uint32_t v, double out[3])
{
    int k;
    for (k = 0; k < 3; k++) out[k] = m->center_m[k] + positions[3 * v + k];
}

static double norm3(const double a[3]) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

static void test_layouts(void)
{
    int s;
    ct_mesh_layout l;
    ct_mesh_options o;
    char err[256];
    for (s = 1; s <= 256; s *= 2) {
        uint32_t n = 256u / (uint32_t)s;
        o = opts(s, 0, 0, 0);
        CHECK(ct_mesh_layout_get(&o, &l, err, sizeof err) == CT_OK, "stride %d: %s", s, err);
        CHECK(l.vertex_count == (n + 1) * (n + 1) && l.index_count == 6 * n * n, "stride %d counts", s);
        CHECK(l.index_bytes == (l.vertex_count <= 65536u ? 2u : 4u), "stride %d index width", s);
        o = opts(s, 10.0, 0, 0);
        ct_mesh_layout_get(&o, &l, err, sizeof err);
        CHECK(l.vertex_count == (n + 1) * (n + 1) + 4 * (n + 1) && l.index_count == 6 * n * n + 24 * n,
              "stride %d skirt counts", s);
        o = opts(s, 10.0, 0, 1);
        ct_mesh_layout_get(&o, &l, err, sizeof err);
        CHECK(l.vertex_count == (n + 1) * (n + 1), "water meshes have no skirts (stride %d)", s);
    }
    o = opts(0, 0, 0, 0);
    CHECK(ct_mesh_layout_get(&o, &l, err, sizeof err) == CT_OK && l.vertex_count == 257u * 257u,
          "stride 0 means 1");
    CHECK(l.index_bytes == 4, "257^2 vertices need 32-bit indices");
    {
        const ct_mesh_options bad[] = {
            {3, 0, 0, 0}, {512, 0, 0, 0}, {-1, 0, 0, 0}, {1, -1.0, 0, 0}, {1, 0, -2.0, 0},
            {1, 0, 0, 2}, {1, 0, 1e9, 0}
        };
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
            CHECK(ct_mesh_layout_get(&bad[i], &l, err, sizeof err) == CT_ERR_MESH, "bad options %lu",
                  (unsigned long)i);
        o = opts(1, NAN, 0, 0);
        CHECK(ct_mesh_layout_get(&o, &l, err, sizeof err) == CT_ERR_MESH, "NaN skirt");
    }
    CHECK(ct_mesh_layout_get(NULL, &l, err, sizeof err) == CT_ERR_NULL, "NULL options");
}

/* Grid vertices lie at their chunk samples; all lie in the bounding sphere. */
static void test_positions(const ct_world *w, ct_key key)
{
    ct_mesh m;
    ct_mesh_layout l;
    ct_mesh_options o = opts(8, 400.0, 0, 0);
    char err[256];
    double radius = ct_world_config(w)->radius_m, far = 0.0;
    uint32_t v, i, n = 32, bad = 0;
    CHECK(ct_chunk_generate(w, key, &chunk, err, sizeof err) == CT_OK, "chunk: %s", err);
    mesh_init(&m);
    ct_mesh_layout_get(&o, &l, err, sizeof err);
    CHECK(ct_mesh_build(w, &chunk, &o, NULL, &m, err, sizeof err) == CT_OK, "mesh: %s", err);
    CHECK(m.vertex_count == l.vertex_count && m.index_count == l.index_count, "counts as laid out");
    CHECK(fabs(norm3(m.center_m) - radius) < 1e-6 * radius, "centre on the sphere");
    for (v = 0; v < (n + 1) * (n + 1); v++) {
        uint32_t gi = v % (n + 1), gj = v / (n + 1);
        double p[3], want = (double)chunk.height_m[gj * 8 * 257 + gi * 8];   /* meshes use the float heights */
        vertex(&m, v, p);
        if (fabs(norm3(p) - radius - want) > m.radius_m * 2e-7 + 1e-3) bad++;
    }
    CHECK(bad == 0, "%lu grid vertices off their samples", (unsigned long)bad);
    for (v = 0; v < m.vertex_count; v++) {
        double d = sqrt((double)positions[3 * v] * positions[3 * v] + (double)positions[3 * v + 1] * positions[3 * v + 1] +
                        (double)positions[3 * v + 2] * positions[3 * v + 2]);
        if (d > m.radius_m) bad++;
        if (d > far) far = d;
    }
    CHECK(bad == 0 && far >= m.radius_m * (1 - 1e-6), "bounding sphere holds and is tight");
    for (i = 0; i < m.index_count; i++) if (index_at(&l, i) >= m.vertex_count) bad++;
    CHECK(bad == 0, "indices in range");
    /* Skirt vertex k of edge e: 400 m below its edge vertex. */
    for (v = 0; v < 4 * (n + 1); v++) {
        uint32_t e = v / (n + 1), k = v % (n + 1);
        uint32_t top = e == 0 ? k : e == 1 ? n * (n + 1) + k : e == 2 ? k * (n + 1) : k * (n + 1) + n;
        double a[3], b[3];
        vertex(&m, top, a);
        vertex(&m, (n + 1) * (n + 1) + v, b);
        if (fabs(norm3(a) - norm3(b) - 400.0) > 2 * (m.radius_m * 2e-7 + 1e-3)) bad++;
    }
    CHECK(bad == 0, "skirts 400 m deep");
    for (v = 0; v < (n + 1) * (n + 1); v++) {
        const uint8_t *c = colors + 4 * v;
        uint8_t p = pal_index[v];
        ct_palette def;
        ct_palette_default(&def);
        if (c[0] != def.rgb[p][0] || c[1] != def.rgb[p][1] || c[2] != def.rgb[p][2] || c[3] != 255) bad++;
    }
    CHECK(bad == 0, "colours are the default palette's");
}

static void test_winding(const ct_world *w)
{
    int face;
    char err[256];
    for (face = 0; face < 6; face++) {
        ct_key key;
        ct_mesh m;
        ct_mesh_layout l;
        ct_mesh_options o = opts(32, 0, 0, 0);
        uint32_t t, bad = 0;
        key.face = face; key.lod = 1; key.x = 1; key.y = 0;
        ct_chunk_generate(w, key, &chunk, err, sizeof err);
        mesh_init(&m);
        ct_mesh_layout_get(&o, &l, err, sizeof err);
        CHECK(ct_mesh_build(w, &chunk, &o, NULL, &m, err, sizeof err) == CT_OK, "face %d: %s", face, err);
        for (t = 0; t < m.index_count; t += 3) {
            double a[3], b[3], c[3], u[3], v[3], n[3];
            int k;
            vertex(&m, index_at(&l, t), a);
            vertex(&m, index_at(&l, t + 1), b);
            vertex(&m, index_at(&l, t + 2), c);
            for (k = 0; k < 3; k++) { u[k] = b[k] - a[k]; v[k] = c[k] - a[k]; }
            n[0] = u[1] * v[2] - u[2] * v[1];
            n[1] = u[2] * v[0] - u[0] * v[2];
            n[2] = u[0] * v[1] - u[1] * v[0];
            if (n[0] * a[0] + n[1] * a[1] + n[2] * a[2] <= 0) bad++;
        }
        CHECK(bad == 0, "face %d: %lu triangles wind clockwise from outside", face, (unsigned long)bad);
    }
}

/* Finds a chunk at LOD 2 with both wet and dry samples. */
static int find_coast(const ct_world *w, ct_key *out)
{
    int face, x, y;
    char err[256];
    for (face = 0; face < 6; face++)
        for (y = 0; y < 4; y++)
            for (x = 0; x < 4; x++) {
                int i, wet = 0;
                out->face = face; out->lod = 2; out->x = (uint32_t)x; out->y = (uint32_t)y;
                if (ct_chunk_generate(w, *out, &chunk, err, sizeof err)) continue;
                for (i = 0; i < CT_CHUNK_SAMPLES; i++) wet += chunk.water[i] != 0;
                if (wet > 1000 && wet < CT_CHUNK_SAMPLES - 1000) return 1;
            }
    return 0;
}

static void test_water(const ct_world *w)
{
    ct_key key;
    ct_mesh m;
    ct_mesh_layout l;
    ct_mesh_options o = opts(4, 0, 0, 1);
    char err[256];
    uint32_t cells = 0, n = 64, gi, gj;
    CHECK(find_coast(w, &key), "a coastal chunk exists");
    for (gj = 0; gj < n; gj++)
        for (gi = 0; gi < n; gi++) {
            int a = chunk.water[gj * 4 * 257 + gi * 4] != 0, b = chunk.water[gj * 4 * 257 + gi * 4 + 4] != 0;
            int c = chunk.water[(gj * 4 + 4) * 257 + gi * 4] != 0, d = chunk.water[(gj * 4 + 4) * 257 + gi * 4 + 4] != 0;
            cells += (a || b || c || d);
        }
    mesh_init(&m);
    ct_mesh_layout_get(&o, &l, err, sizeof err);
    CHECK(ct_mesh_build(w, &chunk, &o, NULL, &m, err, sizeof err) == CT_OK, "water mesh: %s", err);
    CHECK(m.index_count == 6 * cells, "water triangles %lu for %lu wet cells", (unsigned long)m.index_count,
          (unsigned long)cells);
    CHECK(m.vertex_count > 0 && m.vertex_count < (n + 1) * (n + 1), "dry vertices are left out");
    /* Exaggeration is a mesh option: the chunk is the same afterwards. */
    {
        uint64_t digest = chunk.digest;
        ct_mesh_options t1 = opts(64, 0, 1.0, 0), t3 = opts(64, 0, 3.0, 0);
        double h1[25], p[3], radius = ct_world_config(w)->radius_m;
        uint32_t v, bad = 0;
        ct_mesh_build(w, &chunk, &t1, NULL, &m, err, sizeof err);
        for (v = 0; v < 25; v++) { vertex(&m, v, p); h1[v] = norm3(p) - radius; }
        CHECK(ct_mesh_build(w, &chunk, &t3, NULL, &m, err, sizeof err) == CT_OK, "exaggerated: %s", err);
        for (v = 0; v < 25; v++) {
            vertex(&m, v, p);
            if (fabs(norm3(p) - radius - 3 * h1[v]) > 4 * (m.radius_m * 2e-7 + 1e-3)) bad++;
        }
        CHECK(bad == 0, "heights tripled");
        CHECK(chunk.digest == digest, "chunk unchanged");
    }
}

/* The scalar sequence for terrain point (lx, ly) of the chunk: its direction,
 * the chunk's float height inside (ct_world_sample's one stride outside),
 * the point relative to the centre. */
static void ref_point(const ct_world *w, const ct_mesh *m, double vex, int64_t lx, int64_t ly,
                      double p[3], double dir[3])
{
    double h = 0.0, r;
    int k;
    ct__sample_direction(chunk.key.face, chunk.key.lod, (int64_t)chunk.key.x * 256 + lx,
                         (int64_t)chunk.key.y * 256 + ly, dir);
    if (lx >= 0 && ly >= 0 && lx <= 256 && ly <= 256) {
        h = (double)chunk.height_m[ly * CT_CHUNK_EDGE + lx];
    } else {
        ct_sample sm;
        if (ct_world_sample(w, dir, &sm, NULL, 0) == CT_OK) h = (double)(float)sm.height_m;
    }
    r = ct_world_config(w)->radius_m + h * vex;
    for (k = 0; k < 3; k++) p[k] = dir[k] * r - m->center_m[k];
}

/* Grid positions and normals of the mesh in chunk, against ref_point and
 * the scalar normal (central differences, cross product turned outward,
 * normalised): float bits equal. Returns the vertices that differ. */
static unsigned long lane_mismatches(const ct_world *w, const ct_mesh *m, int s, double vex)
{
    int n = 256 / s, gi, gj, k;
    unsigned long bad = 0;
    for (gj = 0; gj <= n; gj++) {
        for (gi = 0; gi <= n; gi++) {
            int64_t lx = (int64_t)gi * s, ly = (int64_t)gj * s;
            double p[3], dir[3], xp[3], xm[3], yp[3], ym[3], a[3], b[3], nrm[3], d[3];
            float want[6];
            size_t v = (size_t)gj * (size_t)(n + 1) + (size_t)gi;
            ref_point(w, m, vex, lx, ly, p, dir);
            ref_point(w, m, vex, lx + s, ly, xp, d);
            ref_point(w, m, vex, lx - s, ly, xm, d);
            ref_point(w, m, vex, lx, ly + s, yp, d);
            ref_point(w, m, vex, lx, ly - s, ym, d);
            for (k = 0; k < 3; k++) { a[k] = xp[k] - xm[k]; b[k] = yp[k] - ym[k]; }
            ct__cross3(a, b, nrm);
            if (ct__dot3(nrm, dir) < 0.0) for (k = 0; k < 3; k++) nrm[k] = -nrm[k];
            ct__normalize3_or(nrm, dir);
            for (k = 0; k < 3; k++) { want[k] = (float)p[k]; want[3 + k] = (float)nrm[k]; }
            bad += memcmp(want, positions + 3 * v, 3 * sizeof(float)) != 0 ||
                   memcmp(want + 3, normals + 3 * v, 3 * sizeof(float)) != 0;
        }
    }
    return bad;
}

/* Every face (cube edges and corners included), strides with an odd vertex
 * count per row (the last lane pair runs one past the end) and 256 (even). */
static void test_lanes_exact(const ct_world *w)
{
    static const int strides[] = { 1, 4, 256 };
    static const unsigned xy[][2] = { { 0, 0 }, { 15, 7 }, { 6, 15 } };
    ct_mesh m;
    char err[256];
    int face, i, si;
    for (face = 0; face < 6; face++) {
        for (i = 0; i < 3; i++) {
            ct_key key;
            key.face = face; key.lod = 4; key.x = xy[i][0]; key.y = xy[i][1];
            if (ct_chunk_generate(w, key, &chunk, err, sizeof err) != CT_OK) { CHECK(0, "chunk: %s", err); return; }
            for (si = 0; si < 3; si++) {
                double vex = si == 1 ? 2.5 : 1.0;
                ct_mesh_options o = opts(strides[si], si == 2 ? 100.0 : 0.0, vex, 0);
                mesh_init(&m);
                CHECK(ct_mesh_build(w, &chunk, &o, NULL, &m, err, sizeof err) == CT_OK, "mesh: %s", err);
                CHECK(lane_mismatches(w, &m, strides[si], vex) == 0, "face %d chunk %u,%u stride %d: lanes differ from "
                      "the scalar sequence", face, key.x, key.y, strides[si]);
            }
        }
    }
}

static void test_rejections(const ct_world *w, const ct_world *other)
{
    ct_mesh m;
    ct_mesh_options o = opts(16, 0, 0, 0);
    ct_key key;
    char err[256];
    key.face = 0; key.lod = 1; key.x = 0; key.y = 0;
    ct_chunk_generate(other, key, &chunk, err, sizeof err);
    mesh_init(&m);
    CHECK(ct_mesh_build(w, &chunk, &o, NULL, &m, err, sizeof err) == CT_ERR_MESH, "chunk of another world");
    CHECK(ct_mesh_build(NULL, &chunk, &o, NULL, &m, err, sizeof err) == CT_ERR_NULL, "NULL world");
    CHECK(ct_mesh_build(other, NULL, &o, NULL, &m, err, sizeof err) == CT_ERR_NULL, "NULL chunk");
    m.positions = NULL;
    CHECK(ct_mesh_build(other, &chunk, &o, NULL, &m, err, sizeof err) == CT_ERR_NULL, "NULL positions");
    mesh_init(&m);
    m.colors = NULL;
    m.palette_index = NULL;
    CHECK(ct_mesh_build(other, &chunk, &o, NULL, &m, err, sizeof err) == CT_OK, "colours are optional: %s", err);
    o.stride = 5;
    CHECK(ct_mesh_build(other, &chunk, &o, NULL, &m, err, sizeof err) == CT_ERR_MESH, "stride 5");
}

int main(void)
{
    ct_config cfg;
    ct_world *w, *other;
    ct_key key;
    char err[256];
    test_layouts();
    ct_config_default(&cfg);
    cfg.macro_resolution = 32;
    cfg.surface_lod = 4;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    cfg.seed = 43;
    other = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(other != NULL, "build: %s", err);
    if (!w || !other) return test_summary("mesh");
    key.face = 4; key.lod = 4; key.x = 5; key.y = 9;
    test_positions(w, key);
    key.face = 1; key.lod = 0; key.x = 0; key.y = 0;
    test_positions(w, key);
    test_winding(w);
    test_water(w);
    test_lanes_exact(w);
    test_rejections(w, other);
    ct_world_free(w);
    ct_world_free(other);
    return test_summary("mesh");
}
