/* pose.c - the body-fixed ground pose: a unit direction from the planet's
 * centre and a unit forward tangent, moved over the sphere by parallel
 * transport and read in (or made from) a chunk's local axes.
 *
 * No latitude or longitude anywhere, so a pose walks over both poles and
 * every cube edge and corner like any other ground. stream/pose.js is the
 * JavaScript twin: the same operations in the same order, so the two agree
 * to a few units in the last place (tests/js/pose_parity.test.mjs). */
#include "base/ct_base.h"

#include <math.h>

/* A key reads a pose only where its face's plane, extended, reaches the
 * point: dir . face normal above this (beyond it the local axes degenerate). */
#define CT__POSE_FACE_MIN 1e-9

/* v / |v| with |v| summed in axis order (as stream/pose.js's normalize). */
static void ct__pose_unit(double v[3])
{
    double len = sqrt(ct__dot3(v, v));
    v[0] /= len;
    v[1] /= len;
    v[2] /= len;
}

static ct_result ct__pose_check_vec(const double v[3], const char *name, char *err, size_t errlen)
{
    double len;
    if (!ct__is_finite(v[0]) || !ct__is_finite(v[1]) || !ct__is_finite(v[2]))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "pose %s has a NaN or infinite component", name);
    if (v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0)
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "pose %s is the zero vector", name);
    len = sqrt(ct__dot3(v, v));
    if (fabs(len - 1.0) > CT_POSE_TOLERANCE)
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "pose %s is not unit length (|%s| = %.17g)",
                        name, name, len);
    return CT_OK;
}

/* Checks a pose (unit dir, unit forward, tangent, all within CT_POSE_TOLERANCE)
 * and writes its exact orthonormal form: dir normalised, forward made
 * tangent to it and normalised. Small drift from a caller's arithmetic is
 * forgiven here rather than let grow. */
static ct_result ct__pose_clean(const ct_pose *pose, double d[3], double f[3], char *err, size_t errlen)
{
    double along;
    int k;
    ct_result r;
    if (!pose) return ct__fail(err, errlen, CT_ERR_NULL, "pose is NULL");
    r = ct__pose_check_vec(pose->dir, "dir", err, errlen);
    if (!r) r = ct__pose_check_vec(pose->forward, "forward", err, errlen);
    if (r) return r;
    along = ct__dot3(pose->dir, pose->forward);
    if (fabs(along) > CT_POSE_TOLERANCE)
        return ct__fail(err, errlen, CT_ERR_DIRECTION,
                        "pose forward is not tangent to dir (dir . forward = %.17g)", along);
    for (k = 0; k < 3; k++) d[k] = pose->dir[k];
    ct__pose_unit(d);
    along = ct__dot3(d, pose->forward);
    for (k = 0; k < 3; k++) f[k] = pose->forward[k] - d[k] * along;
    ct__pose_unit(f);
    return CT_OK;
}

/* Rotates v about the unit axis n by the angle whose cosine and sine are c, s
 * (Rodrigues): v c + (n x v) s + n (n . v)(1 - c). */
static void ct__pose_rotate(const double n[3], double c, double s, const double v[3], double out[3])
{
    double nv[3], along = ct__dot3(n, v);
    int k;
    ct__cross3(n, v, nv);
    for (k = 0; k < 3; k++) out[k] = v[k] * c + nv[k] * s + n[k] * (along * (1.0 - c));
}

ct_result ct_pose_move(const ct_pose *pose, double forward_m, double right_m, double radius_m,
                       ct_pose *out, char *err, size_t errlen)
{
    double d[3], f[3], right[3], t[3], n[3], len, c, s, along;
    int k;
    ct_result r = ct__pose_clean(pose, d, f, err, errlen);
    if (r) return r;
    if (!out) return ct__fail(err, errlen, CT_ERR_NULL, "output pose is NULL");
    if (!ct__is_finite(radius_m) || radius_m <= 0.0)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "radius_m must be a positive finite number");
    if (!ct__is_finite(forward_m) || !ct__is_finite(right_m))
        return ct__fail(err, errlen, CT_ERR_LOCAL, "forward_m and right_m must be finite");
    ct__cross3(f, d, right);   /* right = forward x up: right-handed seen from above */
    for (k = 0; k < 3; k++) t[k] = f[k] * forward_m + right[k] * right_m;
    len = sqrt(ct__dot3(t, t));
    if (!ct__is_finite(len))
        return ct__fail(err, errlen, CT_ERR_LOCAL, "move of (%g, %g) m is too long", forward_m, right_m);
    if (len == 0.0) {
        for (k = 0; k < 3; k++) { out->dir[k] = d[k]; out->forward[k] = f[k]; }
        return CT_OK;
    }
    for (k = 0; k < 3; k++) t[k] /= len;
    /* The great circle through d along t turns about n = d x t; d and forward
     * both turn by the arc angle, which is parallel transport along it. */
    ct__cross3(d, t, n);
    c = cos(len / radius_m);
    s = sin(len / radius_m);
    ct__pose_rotate(n, c, s, d, out->dir);
    ct__pose_rotate(n, c, s, f, out->forward);
    ct__pose_unit(out->dir);
    along = ct__dot3(out->dir, out->forward);
    for (k = 0; k < 3; k++) out->forward[k] -= out->dir[k] * along;
    ct__pose_unit(out->forward);
    return CT_OK;
}

/* The key's face axis u (local +x) and normal, after validating the key, and
 * a check that dir lies where the face's extended plane reaches it. */
static ct_result ct__pose_face(ct_key key, const double d[3], double du[3], char *err, size_t errlen)
{
    double dv[3], normal[3];
    ct_result r = ct_key_validate(key, err, errlen);
    if (r) return r;
    ct__face_axes(key.face, du, dv);
    ct__face_uv_to_cube(key.face, 0.0, 0.0, normal);
    if (!(ct__dot3(d, normal) > CT__POSE_FACE_MIN))
        return ct__fail(err, errlen, CT_ERR_LOCAL,
                        "pose is not on face %s's side of the planet (dir . face normal = %.17g)",
                        ct_face_name(key.face), ct__dot3(d, normal));
    return CT_OK;
}

ct_result ct_pose_heading_in_key(const ct_pose *pose, ct_key key, double *angle_rad,
                                 char *err, size_t errlen)
{
    double d[3], f[3], du[3], side[3];
    ct_result r = ct__pose_clean(pose, d, f, err, errlen);
    if (r) return r;
    if (!angle_rad) return ct__fail(err, errlen, CT_ERR_NULL, "output angle is NULL");
    r = ct__pose_face(key, d, du, err, errlen);
    if (r) return r;
    /* Local +x at d is du's tangent part, du - d (d . du) (ct_key_metric's
     * dx_m up to a positive scale); forward is tangent, so its dot products
     * with that and with d x (that) are those with du and d x du. */
    ct__cross3(d, du, side);
    *angle_rad = atan2(ct__dot3(f, side), ct__dot3(f, du));
    return CT_OK;
}

ct_result ct_pose_from_key_heading(ct_key key, double local_x, double local_y, double angle_rad,
                                   ct_pose *out, char *err, size_t errlen)
{
    double d[3], du[3], x_axis[3], side[3], along, c, s;
    int k;
    ct_result r;
    if (!out) return ct__fail(err, errlen, CT_ERR_NULL, "output pose is NULL");
    r = ct_key_direction(key, local_x, local_y, d, err, errlen);
    if (r) return r;
    if (!ct__is_finite(angle_rad))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "heading angle must be finite");
    r = ct__pose_face(key, d, du, err, errlen);
    if (r) return r;
    along = ct__dot3(d, du);
    for (k = 0; k < 3; k++) x_axis[k] = du[k] - d[k] * along;
    ct__pose_unit(x_axis);
    ct__cross3(d, x_axis, side);   /* +x turned a quarter counter-clockwise seen from above */
    c = cos(angle_rad);
    s = sin(angle_rad);
    for (k = 0; k < 3; k++) {
        out->dir[k] = d[k];
        out->forward[k] = x_axis[k] * c + side[k] * s;
    }
    ct__pose_unit(out->forward);
    return CT_OK;
}
