/* test_cube.c - addressing invariants: face transforms, ties, both sides of
 * every cube edge and corner, shared chunk borders bit for bit, LOD subsets,
 * metrics, neighbourhoods and every rejection path. */
#include "base/ct_base.h"
#include "test.h"

#include <math.h>
#include <string.h>

static int same_bits(const double a[3], const double b[3])
{
    return memcmp(a, b, 3 * sizeof(double)) == 0;
}

static double dist3(const double a[3], const double b[3])
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Projects a direction onto a given face's plane (not necessarily the owner):
 * the inverse of the face transform, written out independently of cube.c. */
static int project_onto(int face, const double d[3], double *u, double *v)
{
    static const int axis[6] = {0, 0, 1, 1, 2, 2};
    static const double sign[6] = {1, -1, 1, -1, 1, -1};
    double s = d[axis[face]] * sign[face];
    double p[3];
    if (s <= 0) return 0;
    p[0] = d[0] / s; p[1] = d[1] / s; p[2] = d[2] / s;
    switch (face) {
    case CT_FACE_PX: *u = -p[2]; *v = -p[1]; break;
    case CT_FACE_NX: *u = p[2];  *v = -p[1]; break;
    case CT_FACE_PY: *u = p[0];  *v = p[2];  break;
    case CT_FACE_NY: *u = p[0];  *v = -p[2]; break;
    case CT_FACE_PZ: *u = p[0];  *v = -p[1]; break;
    default:         *u = -p[0]; *v = -p[1]; break;
    }
    return 1;
}

static void test_face_round_trip(void)
{
    int f, i, j;
    for (f = 0; f < 6; f++) {
        for (i = -4; i <= 4; i++) {
            for (j = -4; j <= 4; j++) {
                double u = i / 4.5, v = j / 4.5, d[3], uu, vv;
                int g;
                CHECK(ct_face_to_direction(f, u, v, d, NULL, 0) == CT_OK, "face %d", f);
                CHECK(ct_face_from_direction(d, &g, &uu, &vv, NULL, 0) == CT_OK, "from dir");
                CHECK(g == f, "face %d uv (%g,%g) came back as face %d", f, u, v, g);
                CHECK(fabs(uu - u) < 1e-14 && fabs(vv - v) < 1e-14, "uv (%g,%g) -> (%.17g,%.17g)", u, v, uu, vv);
            }
        }
    }
    /* The transforms themselves, spelled out: +X (1,-v,-u) etc. at u=0.25, v=0.5. */
    {
        static const double want[6][3] = {
            {1, -0.5, -0.25}, {-1, -0.5, 0.25}, {0.25, 1, 0.5},
            {0.25, -1, -0.5}, {0.25, -0.5, 1}, {-0.25, -0.5, -1}};
        for (f = 0; f < 6; f++) {
            double p[3];
            ct__face_uv_to_cube(f, 0.25, 0.5, p);
            CHECK(p[0] == want[f][0] && p[1] == want[f][1] && p[2] == want[f][2], "face transform %d", f);
        }
    }
}

static void test_ties(void)
{
    struct { double d[3]; int face; } c[] = {
        {{1, 1, 0}, CT_FACE_PX}, {{-1, 1, 0}, CT_FACE_NX}, {{1, 0, 1}, CT_FACE_PX},
        {{0, 1, 1}, CT_FACE_PY}, {{0, -1, 1}, CT_FACE_NY}, {{1, 1, 1}, CT_FACE_PX},
        {{-1, -1, -1}, CT_FACE_NX}, {{0, 1, -1}, CT_FACE_PY}, {{0, 0, -2}, CT_FACE_NZ},
        {{0, 0, 3}, CT_FACE_PZ}, {{0, -1, -1}, CT_FACE_NY}, {{-2, 0, 2}, CT_FACE_NX}};
    size_t i;
    for (i = 0; i < sizeof c / sizeof c[0]; i++) {
        int f; double u, v;
        ct_face_from_direction(c[i].d, &f, &u, &v, NULL, 0);
        CHECK(f == c[i].face, "tie case %d went to face %d", (int)i, f);
    }
}

/* Both sides of every edge: step just beyond each face edge (and corner) and
 * check the owner is the neighbour and the direction survives the round trip. */
static void test_edges_and_corners(void)
{
    int lod = 3, f, e, side = 1 << lod, neighbours[6][6];
    memset(neighbours, 0, sizeof neighbours);
    for (f = 0; f < 6; f++) {
        for (e = 0; e < 4; e++) {
            int t;
            for (t = 1; t < 8; t++) {
                /* e: 0 left (x=0), 1 right, 2 top (y=0), 3 bottom */
                ct_key key = {0, 0, 0, 0}, k2;
                double lx, ly, d[3], d2[3], lx2, ly2;
                key.face = f; key.lod = lod;
                lx = ly = 32.0 * t;
                if (e == 0) { key.x = 0; lx = -0.75; key.y = (uint32_t)(t % side); }
                if (e == 1) { key.x = (uint32_t)side - 1; lx = 256.75; key.y = (uint32_t)(t % side); }
                if (e == 2) { key.y = 0; ly = -0.75; key.x = (uint32_t)(t % side); }
                if (e == 3) { key.y = (uint32_t)side - 1; ly = 256.75; key.x = (uint32_t)(t % side); }
                CHECK(ct_key_direction(key, lx, ly, d, NULL, 0) == CT_OK, "beyond-face direction");
                CHECK(ct_key_at(NULL, d, lod, &k2, &lx2, &ly2, NULL, 0) == CT_OK, "key_at");
                CHECK(k2.face != f, "face %d edge %d: position beyond the edge stayed on the face", f, e);
                neighbours[f][k2.face] = 1;
                CHECK(lx2 >= 0 && lx2 <= 256 && ly2 >= 0 && ly2 <= 256, "local in range");
                CHECK(ct_key_direction(k2, lx2, ly2, d2, NULL, 0) == CT_OK, "back");
                CHECK(dist3(d, d2) < 1e-13, "face %d edge %d: direction moved by %g", f, e, dist3(d, d2));
            }
        }
    }
    /* Every face touches exactly four others, never its opposite. */
    for (f = 0; f < 6; f++) {
        int g, n = 0;
        for (g = 0; g < 6; g++) n += neighbours[f][g];
        CHECK(n == 4 && !neighbours[f][f ^ 1], "face %d has %d neighbours", f, n);
    }
    /* Corners: beyond both edges diagonally from each corner chunk. */
    for (f = 0; f < 6; f++) {
        int c;
        for (c = 0; c < 4; c++) {
            ct_key key = {0, 0, 0, 0}, k2;
            double lx = (c & 1) ? 256.5 : -0.5, ly = (c & 2) ? 256.5 : -0.5, d[3], d2[3], a, b;
            key.face = f; key.lod = lod;
            key.x = (c & 1) ? (uint32_t)side - 1 : 0;
            key.y = (c & 2) ? (uint32_t)side - 1 : 0;
            ct_key_direction(key, lx, ly, d, NULL, 0);
            CHECK(ct_key_at(NULL, d, lod, &k2, &a, &b, NULL, 0) == CT_OK, "corner key_at");
            CHECK(k2.face != f, "corner stays on face");
            ct_key_direction(k2, a, b, d2, NULL, 0);
            CHECK(dist3(d, d2) < 1e-13, "corner round trip");
        }
    }
}

/* Sample (256,j) of chunk x equals sample (0,j) of chunk x+1 bit for bit; on
 * cube edges the neighbour face's own sample grid hits the same bits. */
static void test_shared_borders(void)
{
    int lod = 2, f, g, n = 256 << lod, k, checked = 0;
    for (f = 0; f < 6; f++) {
        ct_key a = {0, 0, 0, 0}, b;
        int j;
        a.face = f; a.lod = lod; a.x = 1; a.y = 2;
        b = a; b.x = 2;
        for (j = 0; j <= 256; j += 7) {
            double da[3], db[3];
            ct_key_direction(a, 256, j, da, NULL, 0);
            ct_key_direction(b, 0, j, db, NULL, 0);
            CHECK(same_bits(da, db), "face %d row %d border differs", f, j);
        }
        b = a; b.y = 3;
        for (j = 0; j <= 256; j += 7) {
            double da[3], db[3];
            ct_key_direction(a, j, 256, da, NULL, 0);
            ct_key_direction(b, j, 0, db, NULL, 0);
            CHECK(same_bits(da, db), "face %d column %d border differs", f, j);
        }
    }
    /* Cube edges and corners: every boundary sample of face f, projected onto
     * each other face it lies on, is an exact grid point there with the same bits. */
    for (f = 0; f < 6; f++) {
        for (k = 0; k <= n; k += 3) {
            int64_t pos[4][2];
            int e;
            pos[0][0] = 0; pos[0][1] = k; pos[1][0] = n; pos[1][1] = k;
            pos[2][0] = k; pos[2][1] = 0; pos[3][0] = k; pos[3][1] = n;
            for (e = 0; e < 4; e++) {
                double d[3];
                ct__sample_direction(f, lod, pos[e][0], pos[e][1], d);
                for (g = 0; g < 6; g++) {
                    double u, v, gx, gy, d2[3];
                    if (g == f || !project_onto(g, d, &u, &v)) continue;
                    if (fabs(u) > 1.0 + 1e-12 || fabs(v) > 1.0 + 1e-12) continue;
                    gx = floor((u + 1) * 0.5 * n + 0.5);
                    gy = floor((v + 1) * 0.5 * n + 0.5);
                    ct__sample_direction(g, lod, (int64_t)gx, (int64_t)gy, d2);
                    CHECK(same_bits(d, d2), "face %d/%d edge sample %d differs", f, g, k);
                    checked++;
                }
            }
        }
    }
    CHECK(checked > 6 * 4 * (n / 3), "edge samples checked: %d", checked);
}

static void test_lod_subsets(void)
{
    int f, lod;
    for (f = 0; f < 6; f++) {
        for (lod = 1; lod <= 8; lod++) {
            int64_t gx;
            for (gx = 0; gx <= (256 << (lod - 1)); gx += 37) {
                double a[3], b[3];
                int64_t gy = (gx * 5) % (256 << (lod - 1));
                ct__sample_direction(f, lod - 1, gx, gy, a);
                ct__sample_direction(f, lod, 2 * gx, 2 * gy, b);
                CHECK(same_bits(a, b), "face %d lod %d vertex %d", f, lod, (int)gx);
            }
        }
    }
    /* key_direction at integer positions is the chunk's sample direction. */
    {
        ct_key k = {CT_FACE_NY, 5, 7, 30};
        double a[3], b[3];
        ct_key_direction(k, 13, 256, a, NULL, 0);
        ct__sample_direction(k.face, k.lod, 7 * 256 + 13, 30 * 256 + 256, b);
        CHECK(same_bits(a, b), "key_direction vs sample direction");
    }
}

static void test_key_at(void)
{
    int f, lod;
    for (f = 0; f < 6; f++) {
        for (lod = 0; lod <= 10; lod += 2) {
            ct_key key = {0, 0, 0, 0}, k2;
            double d[3], lx, ly;
            key.face = f; key.lod = lod;
            key.x = (uint32_t)((1u << lod) / 3u); key.y = (uint32_t)((1u << lod) - 1u);
            ct_key_direction(key, 100.25, 3.5, d, NULL, 0);
            CHECK(ct_key_at(NULL, d, lod, &k2, &lx, &ly, NULL, 0) == CT_OK, "key_at");
            CHECK(k2.face == f && k2.x == key.x && k2.y == key.y && k2.lod == lod, "key_at chunk");
            CHECK(fabs(lx - 100.25) < 1e-6 && fabs(ly - 3.5) < 1e-6, "local (%g,%g)", lx, ly);
        }
    }
}

static void test_metric(void)
{
    ct_key k = {CT_FACE_PZ, 6, 32, 32};
    double dx[3], dy[3], a[3], b[3], c[3], r = 6371000.0, h = 1e-3, fd[3];
    int i;
    CHECK(ct_key_metric(k, 0, 0, r, dx, dy, NULL, 0) == CT_OK, "metric");
    /* Face centre: 2R / (256 * 2^L) metres per sample (about 778 m at L=6). */
    CHECK(fabs(sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]) - 2 * r / (256 * 64)) < 1e-6, "centre spacing");
    ct_key_metric(k, 40, 200, r, dx, dy, NULL, 0);
    ct_key_direction(k, 40 - h, 200, a, NULL, 0);
    ct_key_direction(k, 40 + h, 200, b, NULL, 0);
    ct_key_direction(k, 40, 200 + h, c, NULL, 0);
    for (i = 0; i < 3; i++) fd[i] = (b[i] - a[i]) * r / (2 * h);
    CHECK(dist3(fd, dx) < 1e-3, "dx matches finite difference (%g)", dist3(fd, dx));
    ct_key_direction(k, 40, 200 - h, a, NULL, 0);
    for (i = 0; i < 3; i++) fd[i] = (c[i] - a[i]) * r / (2 * h);
    CHECK(dist3(fd, dy) < 1e-3, "dy matches finite difference");
    CHECK(ct_key_metric(k, 0, 0, -1.0, dx, dy, NULL, 0) == CT_ERR_CONFIG, "negative radius");
    CHECK(ct_key_metric(k, 0, 0, r, NULL, dy, NULL, 0) == CT_ERR_NULL, "NULL output");
}

static void test_neighbourhood(void)
{
    ct_key k = {CT_FACE_PX, 3, 4, 4}, out[9];
    int n, i, j;
    CHECK(ct_key_neighbourhood(k, 128, 128, out, &n, NULL, 0) == CT_OK, "interior");
    CHECK(n == 9, "interior neighbourhood has %d keys", n);
    k.x = 7; k.y = 0;   /* a face corner chunk: three faces meet */
    CHECK(ct_key_neighbourhood(k, 250, 5, out, &n, NULL, 0) == CT_OK, "corner");
    CHECK(n >= 7 && n <= 9, "corner neighbourhood has %d keys", n);
    for (i = 0; i < n; i++) {
        CHECK(ct_key_validate(out[i], NULL, 0) == CT_OK, "valid key");
        for (j = 0; j < i; j++)
            CHECK(!(out[i].face == out[j].face && out[i].x == out[j].x && out[i].y == out[j].y), "duplicate");
    }
    CHECK(out[4].face == CT_FACE_PX || n < 9, "centre present");
}

static void test_rejections(void)
{
    double nan = 0.0 / 0.0, inf = 1.0 / 0.0, d[3] = {0, 0, 1}, lx, ly;
    double bad[4][3] = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    ct_key key = {0, 3, 1, 1}, k2;
    char err[256];
    int f;
    double u, v;
    bad[0][0] = nan; bad[1][2] = 0; bad[2][1] = inf; bad[3][2] = -inf;
    CHECK(ct_key_at(NULL, bad[0], 3, &k2, &lx, &ly, err, sizeof err) == CT_ERR_DIRECTION, "NaN dir");
    CHECK(ct_key_at(NULL, bad[1], 3, &k2, &lx, &ly, err, sizeof err) == CT_ERR_DIRECTION, "zero dir");
    CHECK(strstr(err, "zero") != NULL, "message says zero: %s", err);
    CHECK(ct_key_at(NULL, bad[2], 3, &k2, &lx, &ly, err, sizeof err) == CT_ERR_DIRECTION, "Inf dir");
    CHECK(ct_key_at(NULL, bad[3], 3, &k2, &lx, &ly, err, sizeof err) == CT_ERR_DIRECTION, "-Inf dir");
    CHECK(ct_key_at(NULL, NULL, 3, &k2, &lx, &ly, err, sizeof err) == CT_ERR_NULL, "NULL dir");
    CHECK(ct_key_at(NULL, d, -1, &k2, &lx, &ly, err, sizeof err) == CT_ERR_LOD, "lod -1");
    CHECK(ct_key_at(NULL, d, CT_MAX_LOD + 1, &k2, &lx, &ly, err, sizeof err) == CT_ERR_LOD, "lod too big");
    CHECK(ct_key_at(NULL, d, 3, NULL, &lx, &ly, err, sizeof err) == CT_ERR_NULL, "NULL key");
    CHECK(ct_face_from_direction(bad[0], &f, &u, &v, err, sizeof err) == CT_ERR_DIRECTION, "face NaN");
    CHECK(ct_face_to_direction(6, 0, 0, d, err, sizeof err) == CT_ERR_FACE, "face 6");
    CHECK(ct_face_to_direction(0, nan, 0, d, err, sizeof err) == CT_ERR_LOCAL, "uv NaN");
    key.face = 6;
    CHECK(ct_key_direction(key, 0, 0, d, err, sizeof err) == CT_ERR_FACE, "key face 6");
    key.face = -1;
    CHECK(ct_key_direction(key, 0, 0, d, err, sizeof err) == CT_ERR_FACE, "key face -1");
    key.face = 0; key.lod = 17;
    CHECK(ct_key_direction(key, 0, 0, d, err, sizeof err) == CT_ERR_LOD, "key lod 17");
    key.lod = 3; key.x = 8;
    CHECK(ct_key_direction(key, 0, 0, d, err, sizeof err) == CT_ERR_CHUNK_XY, "x = 2^lod");
    CHECK(strstr(err, "below 8") != NULL, "message names the limit: %s", err);
    key.x = 0; key.y = 9;
    CHECK(ct_key_direction(key, 0, 0, d, err, sizeof err) == CT_ERR_CHUNK_XY, "y too big");
    key.y = 0;
    CHECK(ct_key_direction(key, nan, 0, d, err, sizeof err) == CT_ERR_LOCAL, "local NaN");
    CHECK(ct_key_direction(key, 0, inf, d, err, sizeof err) == CT_ERR_LOCAL, "local Inf");
    CHECK(ct_key_direction(key, 0, 0, NULL, err, sizeof err) == CT_ERR_NULL, "NULL out");
    {
        int count;
        ct_key out[9];
        CHECK(ct_key_neighbourhood(key, nan, 0, out, &count, err, sizeof err) == CT_ERR_LOCAL, "nbhd NaN");
        CHECK(ct_face_parse("+Q", &f) == CT_ERR_FACE, "bad face name");
        CHECK(ct_face_parse("pz", &f) == CT_OK && f == CT_FACE_PZ, "pz");
        CHECK(ct_face_parse("-x", &f) == CT_OK && f == CT_FACE_NX, "-x");
        CHECK(strcmp(ct_face_file_name(CT_FACE_NY), "ny") == 0 && strcmp(ct_face_name(3), "-Y") == 0, "names");
    }
}

int main(void)
{
    test_face_round_trip();
    test_ties();
    test_edges_and_corners();
    test_shared_borders();
    test_lod_subsets();
    test_key_at();
    test_metric();
    test_neighbourhood();
    test_rejections();
    return test_summary("test_cube");
}
