/* cube.c - cube-sphere addressing: face transforms, chunk keys, local sample
 * positions, tangent metrics and cross-edge neighbourhoods.
 *
 * Conventions (ct.h "ADDRESSING"): OpenGL cube-map face transforms, dominant
 * axis owns a direction with ties to X, then Y, then Z. Sample positions are
 * dyadic fractions gx / (256 * 2^lod), computed exactly in double, so a chunk
 * border, a coarser LOD and a neighbouring face all produce the same bits. */
#include "base/ct_base.h"

#include <math.h>

static const char *const ct__face_names[6] = {"+X", "-X", "+Y", "-Y", "+Z", "-Z"};
static const char *const ct__face_files[6] = {"px", "nx", "py", "ny", "pz", "nz"};

const char *ct_face_name(int face)
{
    return (face >= 0 && face < 6) ? ct__face_names[face] : "?";
}

const char *ct_face_file_name(int face)
{
    return (face >= 0 && face < 6) ? ct__face_files[face] : "?";
}

static int ct__lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

/* Accepts "+X" / "px" spellings in either case. */
ct_result ct_face_parse(const char *text, int *face)
{
    int f;
    if (!text || !face) return CT_ERR_NULL;
    for (f = 0; f < 6; f++) {
        const char *a = ct__face_names[f], *b = ct__face_files[f];
        if (text[0] && text[1] && !text[2] &&
            ((text[0] == a[0] && ct__lower(text[1]) == ct__lower(a[1])) ||
             (ct__lower(text[0]) == b[0] && ct__lower(text[1]) == b[1]))) {
            *face = f;
            return CT_OK;
        }
    }
    return CT_ERR_FACE;
}

int ct__is_finite(double x)
{
    /* x - x is NaN for NaN and infinities, 0 otherwise; avoids isfinite()
     * which needs C99 <math.h> macros some strict setups lack. */
    return (x - x) == 0.0;
}

void ct__face_uv_to_cube(int face, double u, double v, double out[3])
{
    switch (face) {
    case CT_FACE_PX: out[0] = 1.0; out[1] = -v;  out[2] = -u;  break;
    case CT_FACE_NX: out[0] = -1.0; out[1] = -v; out[2] = u;   break;
    case CT_FACE_PY: out[0] = u;   out[1] = 1.0; out[2] = v;   break;
    case CT_FACE_NY: out[0] = u;   out[1] = -1.0; out[2] = -v; break;
    case CT_FACE_PZ: out[0] = u;   out[1] = -v;  out[2] = 1.0; break;
    default:         out[0] = -u;  out[1] = -v;  out[2] = -1.0; break;
    }
}

/* Partial derivative of the face transform with respect to u (and v). */
void ct__face_axes(int face, double du[3], double dv[3])
{
    double o[3], a[3], b[3];
    int k;
    ct__face_uv_to_cube(face, 0.0, 0.0, o);
    ct__face_uv_to_cube(face, 1.0, 0.0, a);
    ct__face_uv_to_cube(face, 0.0, 1.0, b);
    for (k = 0; k < 3; k++) { du[k] = a[k] - o[k]; dv[k] = b[k] - o[k]; }
}

void ct__canonical_dir(const double dir_in[3], double dir[3])
{
    double m = fabs(dir_in[0]);
    if (fabs(dir_in[1]) > m) m = fabs(dir_in[1]);
    if (fabs(dir_in[2]) > m) m = fabs(dir_in[2]);
    dir[0] = dir_in[0] / m;
    dir[1] = dir_in[1] / m;
    dir[2] = dir_in[2] / m;
    ct__normalize_canonical(dir);
}

void ct__normalize_canonical(double d[3])
{
    /* Sum the squares smallest first: points on a shared edge or corner are
     * the same numbers in another order, so they normalise to the same bits. */
    double s0 = d[0] * d[0], s1 = d[1] * d[1], s2 = d[2] * d[2], t, len;
    if (s0 > s1) { t = s0; s0 = s1; s1 = t; }
    if (s1 > s2) { t = s1; s1 = s2; s2 = t; }
    if (s0 > s1) { t = s0; s0 = s1; s1 = t; }
    len = sqrt((s0 + s1) + s2);
    d[0] /= len;
    d[1] /= len;
    d[2] /= len;
}

void ct__cube_from_dir(const double d[3], int *face, double *u, double *v)
{
    double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]);
    if (ax >= ay && ax >= az) {
        if (d[0] > 0.0) { *face = CT_FACE_PX; *u = -d[2] / ax; *v = -d[1] / ax; }
        else            { *face = CT_FACE_NX; *u = d[2] / ax;  *v = -d[1] / ax; }
    } else if (ay >= az) {
        if (d[1] > 0.0) { *face = CT_FACE_PY; *u = d[0] / ay; *v = d[2] / ay; }
        else            { *face = CT_FACE_NY; *u = d[0] / ay; *v = -d[2] / ay; }
    } else {
        if (d[2] > 0.0) { *face = CT_FACE_PZ; *u = d[0] / az;  *v = -d[1] / az; }
        else            { *face = CT_FACE_NZ; *u = -d[0] / az; *v = -d[1] / az; }
    }
}

void ct__sample_direction(int face, int lod, int64_t gx, int64_t gy, double out[3])
{
    double n = (double)((int64_t)CT_CHUNK_CORE << lod);
    /* gx / n is exact (n is a power of two), and so is 2s - 1. */
    double u = 2.0 * ((double)gx / n) - 1.0;
    double v = 2.0 * ((double)gy / n) - 1.0;
    ct__face_uv_to_cube(face, u, v, out);
    ct__normalize_canonical(out);
}

static ct_result ct__check_dir(const double dir[3], char *err, size_t errlen)
{
    if (!dir) return ct__fail(err, errlen, CT_ERR_NULL, "direction is NULL");
    if (!ct__is_finite(dir[0]) || !ct__is_finite(dir[1]) || !ct__is_finite(dir[2]))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "direction has a NaN or infinite component");
    if (dir[0] == 0.0 && dir[1] == 0.0 && dir[2] == 0.0)
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "direction is the zero vector");
    return CT_OK;
}

ct_result ct_face_from_direction(const double dir[3], int *face, double *u, double *v,
                                 char *err, size_t errlen)
{
    ct_result r = ct__check_dir(dir, err, errlen);
    if (r) return r;
    if (!face || !u || !v) return ct__fail(err, errlen, CT_ERR_NULL, "output pointer is NULL");
    ct__cube_from_dir(dir, face, u, v);
    return CT_OK;
}

ct_result ct_face_to_direction(int face, double u, double v, double dir[3],
                               char *err, size_t errlen)
{
    if (!dir) return ct__fail(err, errlen, CT_ERR_NULL, "output direction is NULL");
    if (face < 0 || face > 5)
        return ct__fail(err, errlen, CT_ERR_FACE, "face %d out of range 0..5", face);
    if (!ct__is_finite(u) || !ct__is_finite(v))
        return ct__fail(err, errlen, CT_ERR_LOCAL, "face coordinates must be finite");
    ct__face_uv_to_cube(face, u, v, dir);
    ct__normalize_canonical(dir);
    return CT_OK;
}

ct_key ct_key_make(int face, int lod, uint32_t x, uint32_t y)
{
    ct_key k;
    k.face = face;
    k.lod = lod;
    k.x = x;
    k.y = y;
    return k;
}

ct_result ct_key_validate(ct_key key, char *err, size_t errlen)
{
    uint32_t side;
    if (key.face < 0 || key.face > 5)
        return ct__fail(err, errlen, CT_ERR_FACE, "face %d out of range 0..5", (int)key.face);
    if (key.lod < 0 || key.lod > CT_MAX_LOD)
        return ct__fail(err, errlen, CT_ERR_LOD, "LOD %d out of range 0..%d", (int)key.lod, CT_MAX_LOD);
    side = 1u << key.lod;
    if (key.x >= side || key.y >= side)
        return ct__fail(err, errlen, CT_ERR_CHUNK_XY,
                        "chunk (%lu,%lu) out of range at LOD %d: x and y must be below %lu",
                        (unsigned long)key.x, (unsigned long)key.y, (int)key.lod,
                        (unsigned long)side);
    return CT_OK;
}

ct_result ct__key_at(const ct_config *cfg, const double dir[3], int lod, ct_key *key, double *local_x,
                     double *local_y, char *err, size_t errlen)
{
    int face;
    double u, v, n, gx, gy;
    uint32_t side, cx, cy;
    ct_result r = ct__check_dir(dir, err, errlen);
    if (r) return r;
    if (!key) return ct__fail(err, errlen, CT_ERR_NULL, "key output is NULL");
    if (lod < 0 || lod > CT_MAX_LOD)
        return ct__fail(err, errlen, CT_ERR_LOD, "LOD %d out of range 0..%d", lod, CT_MAX_LOD);
    if (cfg && (uint32_t)lod > cfg->surface_lod)
        return ct__fail(err, errlen, CT_ERR_LOD, "LOD %d is finer than the world's surface_lod %lu",
                        lod, (unsigned long)cfg->surface_lod);
    ct__cube_from_dir(dir, &face, &u, &v);
    side = 1u << lod;
    n = (double)((int64_t)CT_CHUNK_CORE << lod);
    gx = (u + 1.0) * 0.5 * n;
    gy = (v + 1.0) * 0.5 * n;
    /* |u|,|v| <= 1 exactly, so gx in [0,n]; the positive face edge belongs to
     * the last chunk, at local position 256. */
    cx = (uint32_t)floor(gx / CT_CHUNK_CORE);
    cy = (uint32_t)floor(gy / CT_CHUNK_CORE);
    if (cx >= side) cx = side - 1u;
    if (cy >= side) cy = side - 1u;
    key->face = face;
    key->lod = lod;
    key->x = cx;
    key->y = cy;
    if (local_x) *local_x = gx - (double)cx * CT_CHUNK_CORE;
    if (local_y) *local_y = gy - (double)cy * CT_CHUNK_CORE;
    return CT_OK;
}

/* Face uv of a key position; the shared first step of direction and metric. */
static ct_result ct__key_uv(ct_key key, double lx, double ly, double *u, double *v,
                            char *err, size_t errlen)
{
    double n;
    ct_result r = ct_key_validate(key, err, errlen);
    if (r) return r;
    if (!ct__is_finite(lx) || !ct__is_finite(ly))
        return ct__fail(err, errlen, CT_ERR_LOCAL, "local position must be finite");
    n = (double)((int64_t)CT_CHUNK_CORE << key.lod);
    /* Same operation order as ct__sample_direction, so integer positions give
     * the chunk's exact sample directions. */
    *u = 2.0 * (((double)key.x * CT_CHUNK_CORE + lx) / n) - 1.0;
    *v = 2.0 * (((double)key.y * CT_CHUNK_CORE + ly) / n) - 1.0;
    if (!ct__is_finite(*u) || !ct__is_finite(*v))
        return ct__fail(err, errlen, CT_ERR_LOCAL, "local position is too large");
    return CT_OK;
}

/* A cube point from a far-away local position (beyond about 1e154) would
 * overflow when squared and normalise to a zero vector. Scaling by a power of
 * two is exact and keeps the direction; ordinary positions are left alone,
 * so their directions keep their exact bits. */
static void ct__scale_huge(double p[3])
{
    double m = fabs(p[0]);
    int k;
    if (fabs(p[1]) > m) m = fabs(p[1]);
    if (fabs(p[2]) > m) m = fabs(p[2]);
    if (m > 0x1p500)
        for (k = 0; k < 3; k++) p[k] *= 0x1p-600;
}

ct_result ct_key_direction(ct_key key, double local_x, double local_y, double dir[3],
                           char *err, size_t errlen)
{
    double u, v;
    ct_result r;
    if (!dir) return ct__fail(err, errlen, CT_ERR_NULL, "output direction is NULL");
    r = ct__key_uv(key, local_x, local_y, &u, &v, err, errlen);
    if (r) return r;
    ct__face_uv_to_cube(key.face, u, v, dir);
    ct__scale_huge(dir);
    ct__normalize_canonical(dir);
    return CT_OK;
}

ct_result ct_key_metric(ct_key key, double local_x, double local_y, double radius_m,
                        double dx_m[3], double dy_m[3], char *err, size_t errlen)
{
    double u, v, p[3], du[3], dv[3], len, scale, pu = 0.0, pv = 0.0;
    int k;
    ct_result r;
    if (!dx_m || !dy_m) return ct__fail(err, errlen, CT_ERR_NULL, "output vector is NULL");
    if (!ct__is_finite(radius_m) || radius_m <= 0.0)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "radius_m must be a positive finite number");
    r = ct__key_uv(key, local_x, local_y, &u, &v, err, errlen);
    if (r) return r;
    ct__face_uv_to_cube(key.face, u, v, p);
    ct__face_axes(key.face, du, dv);
    if (fabs(u) > 0x1p500 || fabs(v) > 0x1p500)
        return ct__fail(err, errlen, CT_ERR_LOCAL, "local position is too far from the chunk for a metric");
    len = sqrt(ct__dot3(p, p));
    for (k = 0; k < 3; k++) { p[k] /= len; pu += p[k] * du[k]; pv += p[k] * dv[k]; }
    /* d(P/|P|)/du = (dP/du - dir (dir . dP/du)) / |P|; du/dlocal = 2 / n. */
    scale = radius_m * 2.0 / (double)((int64_t)CT_CHUNK_CORE << key.lod) / len;
    for (k = 0; k < 3; k++) {
        dx_m[k] = scale * (du[k] - p[k] * pu);
        dy_m[k] = scale * (dv[k] - p[k] * pv);
    }
    return CT_OK;
}

ct_result ct_key_neighbourhood(ct_key key, double local_x, double local_y,
                               ct_key out[9], int *count, char *err, size_t errlen)
{
    int dx, dy, i, n = 0;
    ct_result r;
    if (!out || !count) return ct__fail(err, errlen, CT_ERR_NULL, "output is NULL");
    *count = 0;
    for (dy = -1; dy <= 1; dy++) {
        for (dx = -1; dx <= 1; dx++) {
            double dir[3];
            ct_key k;
            int dup = 0;
            r = ct_key_direction(key, local_x + CT_CHUNK_CORE * dx, local_y + CT_CHUNK_CORE * dy,
                                 dir, err, errlen);
            if (r) return r;
            r = ct_key_at(NULL, dir, key.lod, &k, NULL, NULL, err, errlen);
            if (r) return r;
            for (i = 0; i < n; i++)
                if (out[i].face == k.face && out[i].x == k.x && out[i].y == k.y) dup = 1;
            if (!dup) out[n++] = k;
        }
    }
    *count = n;
    return CT_OK;
}
