/* test_pose.c - the ground pose (ct_pose_*): a walk round the planet over
 * both poles, parallel transport round closed loops against the enclosed
 * area, every cube edge crossing and walks past the 8 corners read in chunk
 * axes (checked against finite differences of ct_key_direction), the key
 * heading round trip on every face, edge and corner, and every rejection. */
#include "base/ct_base.h"
#include "test.h"

#include <math.h>
#include <string.h>

#define R_M 6371000.0
#define PI 3.14159265358979323846

static double gap3(const double a[3], const double b[3])
{
    double g = fabs(a[0] - b[0]);
    if (fabs(a[1] - b[1]) > g) g = fabs(a[1] - b[1]);
    if (fabs(a[2] - b[2]) > g) g = fabs(a[2] - b[2]);
    return g;
}

static void unit3(double v[3])
{
    double l = sqrt(ct__dot3(v, v));
    v[0] /= l; v[1] /= l; v[2] /= l;
}

static double wrap(double a) { return atan2(sin(a), cos(a)); }

/* Signed angle from tangent a to tangent b at up d, counter-clockwise seen from above. */
static double turn(const double d[3], const double a[3], const double b[3])
{
    double c[3];
    ct__cross3(a, b, c);
    return atan2(ct__dot3(d, c), ct__dot3(a, b));
}

/* A pose at d with some heading: the owner key's +x turned by 0.3. */
static ct_pose pose_at(const double d[3])
{
    ct_key k;
    double lx, ly;
    ct_pose p;
    ct_key_at(NULL, d, 6, &k, &lx, &ly, NULL, 0);
    ct_pose_from_key_heading(k, lx, ly, 0.3, &p, NULL, 0);
    return p;
}

/* One move straight to direction q. */
static ct_pose move_to(ct_pose p, const double q[3])
{
    double right[3], w[3], c[3], along = ct__dot3(p.dir, q), angle, lw;
    int k;
    ct__cross3(p.forward, p.dir, right);
    for (k = 0; k < 3; k++) w[k] = q[k] - p.dir[k] * along;
    ct__cross3(p.dir, q, c);
    angle = atan2(sqrt(ct__dot3(c, c)), along);
    lw = sqrt(ct__dot3(w, w));
    if (lw > 0.0)
        CHECK(ct_pose_move(&p, angle * R_M * ct__dot3(w, p.forward) / lw,
                           angle * R_M * ct__dot3(w, right) / lw, R_M, &p, NULL, 0) == CT_OK, "move_to");
    return p;
}

static void test_great_circle(void)
{
    ct_pose start, p;
    int i, steps = 4000, poles = 0;
    double step = 2.0 * PI * R_M / steps, worst = 0.0;
    char err[256];
    memset(&start, 0, sizeof start);
    start.dir[0] = cos(0.2); start.dir[2] = -sin(0.2);
    start.forward[1] = 1.0;   /* north, from the equator */
    p = start;
    for (i = 1; i <= steps; i++) {
        double a = i * step / R_M, want[3], want_f[3];
        int k;
        CHECK(ct_pose_move(&p, step, 0.0, R_M, &p, err, sizeof err) == CT_OK, "%s", err);
        for (k = 0; k < 3; k++) {
            want[k] = start.dir[k] * cos(a) + start.forward[k] * sin(a);
            want_f[k] = start.forward[k] * cos(a) - start.dir[k] * sin(a);
        }
        if (gap3(p.dir, want) > worst) worst = gap3(p.dir, want);
        if (gap3(p.forward, want_f) > worst) worst = gap3(p.forward, want_f);
        if (fabs(p.dir[1]) > 1.0 - 1e-6) poles++;
    }
    CHECK(worst < 1e-9, "departure from the great circle %g", worst);
    CHECK(poles >= 2, "passed both poles (%d steps near one)", poles);
    CHECK(gap3(p.dir, start.dir) < 1e-9 && gap3(p.forward, start.forward) < 1e-9, "back at the start");
    /* Facing north on the equator at lon 0 (+X), right is east: towards -Z. */
    memset(&start, 0, sizeof start);
    start.dir[0] = 1.0; start.forward[1] = 1.0;
    CHECK(ct_pose_move(&start, 0.0, 1000.0, R_M, &p, NULL, 0) == CT_OK && p.dir[2] < 0.0, "right is east");
}

/* Signed spherical excess of a polygon (counter-clockwise seen from outside positive). */
static double excess(double c[][3], int n)
{
    double e = 0.0, bc[3];
    int i;
    for (i = 1; i + 1 < n; i++) {
        ct__cross3(c[i], c[i + 1], bc);
        e += 2.0 * atan2(ct__dot3(c[0], bc),
                         1.0 + ct__dot3(c[0], c[i]) + ct__dot3(c[i], c[i + 1]) + ct__dot3(c[i + 1], c[0]));
    }
    return e;
}

static void test_holonomy(void)
{
    static const double centres[3][3] = {{0.3, 0.5, 0.8}, {0, 1, 0}, {1, 1, 1}};
    static const double sizes[3] = {0.01, 0.02, 0.005};
    int c;
    for (c = 0; c < 3; c++) {
        double p[3], east[3], north[3], up[3] = {0.3, 1.0, 0.2}, corner[4][3], e;
        ct_pose start, at;
        int i, s, k;
        memcpy(p, centres[c], sizeof p);
        unit3(p);
        ct__cross3(up, p, east);
        unit3(east);
        ct__cross3(p, east, north);
        for (i = 0; i < 4; i++) {
            double a = (45.0 + 90.0 * i) * PI / 180.0;
            for (k = 0; k < 3; k++)
                corner[i][k] = p[k] + tan(sizes[c]) * (east[k] * cos(a) + north[k] * sin(a));
            unit3(corner[i]);
        }
        e = excess(corner, 4);
        start = move_to(pose_at(corner[0]), corner[0]);
        at = start;
        for (i = 1; i <= 4; i++)
            for (s = 1; s <= 40; s++) {
                /* Points along the side's great circle. */
                double *a0 = corner[i - 1], *b0 = corner[i % 4], q[3];
                double th = acos(ct__dot3(a0, b0)), t = s / 40.0;
                for (k = 0; k < 3; k++) q[k] = a0[k] * sin((1 - t) * th) / sin(th) + b0[k] * sin(t * th) / sin(th);
                unit3(q);
                at = move_to(at, q);
            }
        CHECK(gap3(at.dir, start.dir) < 1e-12, "loop %d closed", c);
        CHECK(e > 0.0 && fabs(turn(start.dir, start.forward, at.forward) - e) < 1e-11 + 1e-9 * e,
              "loop %d: heading turned %.17g, enclosed area / R^2 %.17g", c,
              turn(start.dir, start.forward, at.forward), e);
    }
}

/* Local +x of key at d by central differences of ct_key_direction. */
static void x_axis_by_difference(ct_key key, const double d[3], double ex[3])
{
    double du[3], dv[3], n[3], a[3], b[3], s, lx, ly, span = (double)((int64_t)CT_CHUNK_CORE << key.lod), along;
    int k;
    ct__face_axes(key.face, du, dv);
    ct__face_uv_to_cube(key.face, 0.0, 0.0, n);
    s = ct__dot3(d, n);
    lx = (ct__dot3(d, du) / s + 1.0) / 2.0 * span - key.x * 256.0;
    ly = (ct__dot3(d, dv) / s + 1.0) / 2.0 * span - key.y * 256.0;
    ct_key_direction(key, lx + 1e-4, ly, a, NULL, 0);
    ct_key_direction(key, lx - 1e-4, ly, b, NULL, 0);
    for (k = 0; k < 3; k++) ex[k] = a[k] - b[k];
    along = ct__dot3(ex, d);
    for (k = 0; k < 3; k++) ex[k] -= d[k] * along;
    unit3(ex);
}

/* Walks p in steps of step_m; at every face change checks the jump of the
 * heading in the owning key against the independent turn between axes.
 * Returns the number of face changes; *skewed counts turns off a quarter. */
static int walk_checking_turns(ct_pose p, double step_m, int steps, int lod, int *skewed)
{
    ct_key last, owner;
    int i, changes = 0;
    ct_key_at(NULL, p.dir, lod, &last, NULL, NULL, NULL, 0);
    for (i = 0; i < steps; i++) {
        ct_pose_move(&p, step_m, 0.0, R_M, &p, NULL, 0);
        ct_key_at(NULL, p.dir, lod, &owner, NULL, NULL, NULL, 0);
        if (owner.face != last.face) {
            double h_to, h_from, xa[3], xb[3], jump, q;
            CHECK(ct_pose_heading_in_key(&p, owner, &h_to, NULL, 0) == CT_OK, "heading in owner");
            CHECK(ct_pose_heading_in_key(&p, last, &h_from, NULL, 0) == CT_OK, "heading in previous");
            x_axis_by_difference(last, p.dir, xa);
            x_axis_by_difference(owner, p.dir, xb);
            jump = wrap(h_to - h_from);
            CHECK(fabs(wrap(jump - turn(p.dir, xb, xa))) < 1e-6, "face %d->%d: jump %.9f, axes turn %.9f",
                  (int)last.face, (int)owner.face, jump, turn(p.dir, xb, xa));
            CHECK(fabs(wrap(h_from - turn(p.dir, xa, p.forward))) < 1e-6, "heading from +x alone");
            q = jump / (PI / 2);
            if (skewed && fabs(q - floor(q + 0.5)) > 0.2) (*skewed)++;
            changes++;
        }
        last = owner;
    }
    return changes;
}

static void test_edges_and_corners(void)
{
    int a, b, edges = 0, skewed = 0, sx, sy, sz;
    ct_pose p;
    double h;
    for (a = 0; a < 6; a++)
        for (b = 0; b < 6; b++) {
            double na[3], nb[3], t[3], along;
            int k;
            ct__face_uv_to_cube(a, 0, 0, na);
            ct__face_uv_to_cube(b, 0, 0, nb);
            if (a == b || fabs(ct__dot3(na, nb)) > 0.5) continue;
            /* From near the edge on face a, heading across it to face b. */
            for (k = 0; k < 3; k++) { p.dir[k] = na[k] * 0.72 + nb[k] * 0.69; t[k] = nb[k] - na[k]; }
            unit3(p.dir);
            along = ct__dot3(t, p.dir);
            for (k = 0; k < 3; k++) p.forward[k] = t[k] - p.dir[k] * along;
            unit3(p.forward);
            CHECK(walk_checking_turns(p, 1000.0, 200, 5, NULL) == 1, "edge %d->%d crossed once", a, b);
            edges++;
        }
    CHECK(edges == 24, "12 edges both ways: %d", edges);
    for (sx = -1; sx <= 1; sx += 2)
        for (sy = -1; sy <= 1; sy += 2)
            for (sz = -1; sz <= 1; sz += 2) {
                double c[3];
                c[0] = sx; c[1] = sy; c[2] = sz;
                unit3(c);
                p = pose_at(c);
                /* 3 km back and 300 m to the side, then straight past the corner. */
                ct_pose_move(&p, -3000.0, 300.0, R_M, &p, NULL, 0);
                CHECK(walk_checking_turns(p, 100.0, 60, 8, &skewed) >= 1, "corner (%d,%d,%d) crossed", sx, sy, sz);
            }
    CHECK(skewed >= 8, "turns off a quarter near corners: %d", skewed);
    /* By hand: +X heading up (+Y) is a quarter turn from +X's +x (-Z); over
     * the edge it heads towards -X, opposite +Y's +x (+X). */
    ct_pose_from_key_heading(ct_key_make(0, 0, 0, 0), 128, 128, PI / 2, &p, NULL, 0);
    CHECK(fabs(p.forward[1] - 1.0) < 1e-15, "heading up on +X");
    ct_pose_move(&p, R_M * PI / 2 * 0.6, 0, R_M, &p, NULL, 0);
    CHECK(ct_pose_heading_in_key(&p, ct_key_make(2, 0, 0, 0), &h, NULL, 0) == CT_OK && fabs(fabs(h) - PI) < 1e-12,
          "on +Y heading %.17g", h);
}

static void test_round_trip(void)
{
    static const double locals[6][2] = {{0, 0}, {256, 256}, {256, 0}, {0, 256}, {77.25, 130.5}, {-3, 259}};
    static const double angles[4] = {0.0, 1.0, -2.5, PI};
    int lods[3] = {0, 5, 16}, li, face, corner, l, a, n = 0;
    for (li = 0; li < 3; li++)
        for (face = 0; face < 6; face++)
            for (corner = 0; corner < 3; corner++) {
                uint32_t last = (1u << lods[li]) - 1u, xy = corner == 0 ? 0u : corner == 1 ? last : last / 2u;
                ct_key key = ct_key_make(face, lods[li], xy, corner == 2 ? 0u : xy);
                for (l = 0; l < 6; l++)
                    for (a = 0; a < 4; a++) {
                        ct_pose p, back;
                        ct_key own;
                        double h, d[3], lx, ly;
                        CHECK(ct_pose_from_key_heading(key, locals[l][0], locals[l][1], angles[a], &p, NULL, 0) == CT_OK,
                              "make");
                        ct_key_direction(key, locals[l][0], locals[l][1], d, NULL, 0);
                        CHECK(gap3(p.dir, d) == 0.0, "at the key position");
                        CHECK(fabs(ct__dot3(p.dir, p.forward)) < 1e-15 && fabs(sqrt(ct__dot3(p.forward, p.forward)) - 1) < 1e-15,
                              "unit, tangent");
                        CHECK(ct_pose_heading_in_key(&p, key, &h, NULL, 0) == CT_OK && fabs(wrap(h - angles[a])) < 1e-12,
                              "heading %g back as %.17g", angles[a], h);
                        ct_key_at(NULL, p.dir, lods[li], &own, &lx, &ly, NULL, 0);
                        ct_pose_heading_in_key(&p, own, &h, NULL, 0);
                        ct_pose_from_key_heading(own, lx, ly, h, &back, NULL, 0);
                        CHECK(gap3(back.dir, p.dir) < 1e-15 && gap3(back.forward, p.forward) < 1e-12, "pose back");
                        n++;
                    }
            }
    CHECK(n == 3 * 6 * 3 * 6 * 4, "round trips %d", n);
}

static void test_rejections(void)
{
    ct_pose good, bad, out;
    char err[256];
    double h, nan = 0.0;
    ct_key key = ct_key_make(0, 2, 1, 1);
    nan = nan / nan;
    memset(&good, 0, sizeof good);
    good.dir[0] = 1.0; good.forward[1] = 1.0;
    CHECK(ct_pose_move(NULL, 1, 0, R_M, &out, err, sizeof err) == CT_ERR_NULL, "NULL pose");
    CHECK(ct_pose_move(&good, 1, 0, R_M, NULL, err, sizeof err) == CT_ERR_NULL, "NULL out");
    bad = good; bad.dir[1] = nan;
    CHECK(ct_pose_move(&bad, 1, 0, R_M, &out, err, sizeof err) == CT_ERR_DIRECTION && strstr(err, "NaN"), "%s", err);
    bad = good; bad.dir[0] = 0.0;
    CHECK(ct_pose_move(&bad, 1, 0, R_M, &out, err, sizeof err) == CT_ERR_DIRECTION && strstr(err, "zero"), "%s", err);
    bad = good; bad.dir[0] = 1.01;
    CHECK(ct_pose_move(&bad, 1, 0, R_M, &out, err, sizeof err) == CT_ERR_DIRECTION && strstr(err, "unit"), "%s", err);
    bad = good; bad.forward[1] = 1.0 - 2e-6;
    CHECK(ct_pose_move(&bad, 1, 0, R_M, &out, err, sizeof err) == CT_ERR_DIRECTION && strstr(err, "forward"), "%s", err);
    bad = good; bad.forward[0] = 0.01; bad.forward[1] = sqrt(1.0 - 1e-4);
    CHECK(ct_pose_move(&bad, 1, 0, R_M, &out, err, sizeof err) == CT_ERR_DIRECTION && strstr(err, "tangent"), "%s", err);
    bad = good; bad.forward[0] = 0.5e-6; bad.dir[0] = 1.0 + 0.5e-6;   /* within the tolerance: accepted, made exact */
    CHECK(ct_pose_move(&bad, 0, 0, R_M, &out, err, sizeof err) == CT_OK && out.dir[0] == 1.0 && out.forward[1] == 1.0,
          "within tolerance");
    CHECK(ct_pose_move(&good, nan, 0, R_M, &out, err, sizeof err) == CT_ERR_LOCAL, "NaN distance");
    CHECK(ct_pose_move(&good, 1e308, 1e308, R_M, &out, err, sizeof err) == CT_ERR_LOCAL, "%s", err);
    CHECK(ct_pose_move(&good, 1, 0, 0.0, &out, err, sizeof err) == CT_ERR_CONFIG, "zero radius");
    CHECK(ct_pose_move(&good, 1, 0, nan, &out, err, sizeof err) == CT_ERR_CONFIG, "NaN radius");
    CHECK(ct_pose_heading_in_key(&good, ct_key_make(6, 0, 0, 0), &h, err, sizeof err) == CT_ERR_FACE, "face");
    CHECK(ct_pose_heading_in_key(&good, ct_key_make(0, 17, 0, 0), &h, err, sizeof err) == CT_ERR_LOD, "lod");
    CHECK(ct_pose_heading_in_key(&good, ct_key_make(0, 2, 4, 0), &h, err, sizeof err) == CT_ERR_CHUNK_XY, "xy");
    CHECK(ct_pose_heading_in_key(&good, ct_key_make(1, 0, 0, 0), &h, err, sizeof err) == CT_ERR_LOCAL &&
          strstr(err, "-X"), "%s", err);
    CHECK(ct_pose_heading_in_key(&good, key, NULL, err, sizeof err) == CT_ERR_NULL, "NULL angle");
    CHECK(ct_pose_from_key_heading(key, nan, 0, 0, &out, err, sizeof err) == CT_ERR_LOCAL, "NaN local");
    CHECK(ct_pose_from_key_heading(key, 0, 0, nan, &out, err, sizeof err) == CT_ERR_DIRECTION, "NaN angle");
    CHECK(ct_pose_from_key_heading(key, -1e12, 0, 0, &out, err, sizeof err) == CT_ERR_LOCAL, "%s", err);
    CHECK(ct_pose_from_key_heading(key, 0, 0, 0, NULL, err, sizeof err) == CT_ERR_NULL, "NULL out");
    CHECK(ct_pose_from_key_heading(ct_key_make(0, 2, 1, 9), 0, 0, 0, &out, NULL, 0) == CT_ERR_CHUNK_XY, "bad key");
}

int main(void)
{
    test_great_circle();
    test_holonomy();
    test_edges_and_corners();
    test_round_trip();
    test_rejections();
    return test_summary("pose");
}
