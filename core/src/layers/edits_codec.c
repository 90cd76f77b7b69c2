/* edits_codec.c - an edit set's byte form: encoding ct_edit arrays, decoding
 * and checking bytes into a ct__edits, and the set's ID.
 *
 * Layout (little endian):
 *    0  8  magic "CTEDITS\0"
 *    8  4  u32 format version (1)
 *   12  4  u32 edit count
 * then per edit, in order:
 *    0  4  u32 kind (ct_edit_kind)      4  4  u32 flags (bit 0: flatten has a height)
 *    8  4  u32 point count (1; path: 2..1024)   12  4  u32 reserved 0
 *   16 48  f64 params[6]: flatten radius, height, blend; crater radius,
 *          depth, rim; path width, max grade (degrees), shoulder; brush
 *          radius, delta; unused params are 0
 *   64 24n f64 points, 3 per point (the centre for every kind but path)
 * Every byte means one thing, so equal sets are equal bytes and the ID (a
 * salted FNV-1a 64 of the bytes) names the set. Doubles are stored as their
 * IEEE bits: a set round-trips exactly. */
#include "layers/ct_edits.h"

#include <stdlib.h>
#include <string.h>

#define CT__EDITS_VERSION 1u
#define CT__EDITS_HEAD 16u
#define CT__EDIT_RECORD 64u
static const char ct__edits_magic[8] = {'C', 'T', 'E', 'D', 'I', 'T', 'S', '\0'};
/* The named salt of the ID: the ID hashes this, then the bytes. */
static const char ct__edits_salt[] = "cubesphere.edit_set.v1";

static void ct__eput_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static uint32_t ct__eget_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void ct__eput_f64(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    ct__eput_u32(p, (uint32_t)u);
    ct__eput_u32(p + 4, (uint32_t)(u >> 32));
}
static double ct__eget_f64(const uint8_t *p)
{
    uint64_t u = (uint64_t)ct__eget_u32(p) | (uint64_t)ct__eget_u32(p + 4) << 32;
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static uint32_t ct__edit_points(const ct_edit *e)
{
    return e->kind == CT_EDIT_PATH ? e->point_count : 1u;
}

size_t ct_edits_encoded_size(const ct_edit *edits, size_t count)
{
    size_t k, total = CT__EDITS_HEAD;
    if (count > CT_EDITS_MAX || (count && !edits)) return 0;
    for (k = 0; k < count; k++) {
        uint32_t n = ct__edit_points(&edits[k]);
        if (n > CT_EDIT_PATH_POINTS_MAX) return 0;
        total += CT__EDIT_RECORD + 24u * n;
    }
    return total;
}

ct_result ct_edits_encode(const ct_edit *edits, size_t count, uint8_t *buf, size_t buflen, char *err,
                          size_t errlen)
{
    size_t need = ct_edits_encoded_size(edits, count), pos, k;
    if (!buf || (count && !edits)) return ct__fail(err, errlen, CT_ERR_NULL, "edits or buffer is NULL");
    if (!need)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "too many edits (%lu; at most %d) or path points (at most %d)",
                        (unsigned long)count, CT_EDITS_MAX, CT_EDIT_PATH_POINTS_MAX);
    if (buflen < need)
        return ct__fail(err, errlen, CT_ERR_BUFFER, "buffer holds %lu bytes; the edit set needs %lu",
                        (unsigned long)buflen, (unsigned long)need);
    memset(buf, 0, need);
    memcpy(buf, ct__edits_magic, 8);
    ct__eput_u32(buf + 8, CT__EDITS_VERSION);
    ct__eput_u32(buf + 12, (uint32_t)count);
    pos = CT__EDITS_HEAD;
    for (k = 0; k < count; k++) {
        const ct_edit *e = &edits[k];
        uint32_t n = ct__edit_points(e), i;
        double p[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        const double *pts = e->kind == CT_EDIT_PATH ? e->points : e->center;
        if (e->kind == CT_EDIT_PATH && n && !e->points)
            return ct__fail(err, errlen, CT_ERR_NULL, "edit %lu (path): points is NULL", (unsigned long)k);
        switch (e->kind) {
        case CT_EDIT_FLATTEN: p[0] = e->radius_m; p[1] = e->has_height ? e->height_m : 0.0; p[2] = e->blend_m; break;
        case CT_EDIT_CRATER: p[0] = e->radius_m; p[1] = e->depth_m; p[2] = e->rim_m; break;
        case CT_EDIT_PATH: p[0] = e->width_m; p[1] = e->max_grade_deg; p[2] = e->shoulder_m; break;
        case CT_EDIT_BRUSH: p[0] = e->radius_m; p[1] = e->delta_m; break;
        default: break;   /* the decoder names the bad kind */
        }
        ct__eput_u32(buf + pos, (uint32_t)e->kind);
        ct__eput_u32(buf + pos + 4, e->kind == CT_EDIT_FLATTEN && e->has_height ? 1u : 0u);
        ct__eput_u32(buf + pos + 8, n);
        for (i = 0; i < 6; i++) ct__eput_f64(buf + pos + 16 + 8 * i, p[i]);
        pos += CT__EDIT_RECORD;
        for (i = 0; i < 3 * n; i++, pos += 8) ct__eput_f64(buf + pos, pts[i]);
    }
    return CT_OK;
}

uint64_t ct__edits_id(const uint8_t *buf, size_t len)
{
    uint64_t h;
    if (len <= CT__EDITS_HEAD) return 0;
    h = ct_fnv1a64(ct__edits_salt, sizeof ct__edits_salt - 1, CT_FNV1A64_INIT);
    h = ct_fnv1a64(buf, len, h);
    return h ? h : 1u;
}

void ct__edits_free(ct__edits *E)
{
    if (!E) return;
    free(E->e);
    free(E->pts);
    free(E->seg_n);
    free(E->seg_s0);
    free(E->st_s);
    free(E->st_h);
    free(E->st_wet);
    free(E->cell_key);
    free(E->cell_edit);
    free(E->bytes);
    free(E);
}

static const char *ct__kind_name(int kind)
{
    switch (kind) {
    case CT_EDIT_FLATTEN: return "flatten";
    case CT_EDIT_CRATER: return "crater";
    case CT_EDIT_PATH: return "path";
    case CT_EDIT_BRUSH: return "brush";
    default: return "?";
    }
}

/* One parameter: finite and within [lo, hi], else an error naming it. */
static ct_result ct__param(double v, double lo, double hi, size_t k, int kind, const char *name, char *err,
                           size_t errlen)
{
    if (!ct__is_finite(v))
        return ct__fail(err, errlen, CT_ERR_CONFIG, "edit %lu (%s): %s is NaN or infinite", (unsigned long)k,
                        ct__kind_name(kind), name);
    if (v < lo || v > hi)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "edit %lu (%s): %s %g is out of range [%g, %g]",
                        (unsigned long)k, ct__kind_name(kind), name, v, lo, hi);
    return CT_OK;
}

/* A direction: finite, non-zero; stored canonical (unit). */
static ct_result ct__point(const uint8_t *p, double out[3], size_t k, int kind, const char *name, long index,
                           char *err, size_t errlen)
{
    double d[3];
    int i;
    for (i = 0; i < 3; i++) d[i] = ct__eget_f64(p + 8 * i);
    if (!ct__is_finite(d[0]) || !ct__is_finite(d[1]) || !ct__is_finite(d[2]) ||
        (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0)) {
        if (index >= 0)
            return ct__fail(err, errlen, CT_ERR_CONFIG, "edit %lu (%s): %s[%ld] is zero, NaN or infinite",
                            (unsigned long)k, ct__kind_name(kind), name, index);
        return ct__fail(err, errlen, CT_ERR_CONFIG, "edit %lu (%s): %s is zero, NaN or infinite",
                        (unsigned long)k, ct__kind_name(kind), name);
    }
    ct__canonical_dir(d, out);
    return CT_OK;
}

static double ct__chord_m(const double a[3], const double b[3], double radius_m)
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) * radius_m;
}

/* tan of an angle in degrees in (0, 60], from the sine and cosine series
 * (basic IEEE operations only: libm's tan may differ between targets). */
static double ct__tan_deg(double deg)
{
    double x = deg * (3.14159265358979323846 / 180.0), x2 = x * x, s = x, c = 1.0, ts = x, tc = 1.0;
    int n;
    for (n = 1; n <= 12; n++) {
        ts *= -x2 / (double)((2 * n) * (2 * n + 1));
        tc *= -x2 / (double)((2 * n - 1) * (2 * n));
        s += ts;
        c += tc;
    }
    return s / c;
}

/* Checks one record's kind, flags and parameters; fills what is known
 * without the points. */
static ct_result ct__edit_params(const uint8_t *rec, size_t k, ct__edit *e, uint32_t *n_out, char *err,
                                 size_t errlen)
{
    uint32_t kind = ct__eget_u32(rec), flags = ct__eget_u32(rec + 4), n = ct__eget_u32(rec + 8);
    double p[6];
    ct_result r = CT_OK;
    int i, used;
    for (i = 0; i < 6; i++) p[i] = ct__eget_f64(rec + 16 + 8 * i);
    if (kind < CT_EDIT_FLATTEN || kind > CT_EDIT_BRUSH)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "edit %lu: kind %lu is not flatten, crater, path or brush",
                        (unsigned long)k, (unsigned long)kind);
    e->kind = (int)kind;
    if (ct__eget_u32(rec + 12) != 0u || (flags & ~1u) || (flags && kind != CT_EDIT_FLATTEN))
        return ct__fail(err, errlen, CT_ERR_FORMAT, "edit %lu (%s): reserved bits are set", (unsigned long)k,
                        ct__kind_name(e->kind));
    if (kind == CT_EDIT_PATH) {
        if (n < 2u || n > CT_EDIT_PATH_POINTS_MAX)
            return ct__fail(err, errlen, CT_ERR_CONFIG, "edit %lu (path): points has %lu points; a path needs 2 to %d",
                            (unsigned long)k, (unsigned long)n, CT_EDIT_PATH_POINTS_MAX);
    } else if (n != 1u) {
        return ct__fail(err, errlen, CT_ERR_FORMAT, "edit %lu (%s): %lu points; expected the centre only",
                        (unsigned long)k, ct__kind_name(e->kind), (unsigned long)n);
    }
    *n_out = n;
    switch (kind) {
    case CT_EDIT_FLATTEN:
        r = ct__param(p[0], 1.0, 20000.0, k, e->kind, "radiusM", err, errlen);
        if (!r && flags) r = ct__param(p[1], -20000.0, 20000.0, k, e->kind, "heightM", err, errlen);
        if (!r) r = ct__param(p[2], 0.0, 20000.0, k, e->kind, "blendM", err, errlen);
        e->has_height = (int)flags;
        e->radius_m = p[0]; e->target_m = p[1]; e->a = p[2];
        e->foot_m = p[0] + p[2];
        used = 3;
        if (!flags && memcmp(rec + 24, "\0\0\0\0\0\0\0\0", 8) != 0)
            return ct__fail(err, errlen, CT_ERR_FORMAT, "edit %lu (flatten): heightM is stored but not flagged",
                            (unsigned long)k);
        break;
    case CT_EDIT_CRATER:
        r = ct__param(p[0], 1.0, 50000.0, k, e->kind, "radiusM", err, errlen);
        if (!r) r = ct__param(p[1], 0.0, 10000.0, k, e->kind, "depthM", err, errlen);
        if (!r) r = ct__param(p[2], 0.0, 5000.0, k, e->kind, "rimM", err, errlen);
        e->radius_m = p[0]; e->a = p[1]; e->b = p[2];
        e->foot_m = p[0] * (1.0 + CT__EDITS_RIM_FALLOFF);
        used = 3;
        break;
    case CT_EDIT_PATH:
        r = ct__param(p[0], 0.5, 1000.0, k, e->kind, "widthM", err, errlen);
        if (!r) r = ct__param(p[1], 0.1, 60.0, k, e->kind, "maxGradeDeg", err, errlen);
        if (!r) r = ct__param(p[2], 0.0, 5000.0, k, e->kind, "shoulderM", err, errlen);
        e->half_m = 0.5 * p[0];
        e->shoulder_m = p[2] > 0.0 ? p[2] : p[0];
        e->grade = r ? 0.0 : ct__tan_deg(p[1]);
        e->foot_m = e->half_m + e->shoulder_m;
        used = 3;
        break;
    default:
        r = ct__param(p[0], 1.0, 20000.0, k, e->kind, "radiusM", err, errlen);
        if (!r) r = ct__param(p[1], -5000.0, 5000.0, k, e->kind, "deltaM", err, errlen);
        e->radius_m = p[0]; e->a = p[1];
        e->foot_m = p[0];
        used = 2;
        break;
    }
    if (r) return r;
    for (i = used; i < 6; i++) {
        uint8_t zero[8] = {0};
        if (memcmp(rec + 16 + 8 * i, zero, 8) != 0)
            return ct__fail(err, errlen, CT_ERR_FORMAT, "edit %lu (%s): unused parameter %d is not 0",
                            (unsigned long)k, ct__kind_name(e->kind), i);
    }
    return CT_OK;
}

/* Sizes: the header, then every record's length; counts points. */
static ct_result ct__edits_scan(const uint8_t *buf, size_t len, uint32_t *count, uint32_t *points, char *err,
                                size_t errlen)
{
    size_t pos = CT__EDITS_HEAD, k;
    uint32_t total = 0;
    if (len < CT__EDITS_HEAD || memcmp(buf, ct__edits_magic, 8) != 0)
        return ct__fail(err, errlen, len < CT__EDITS_HEAD ? CT_ERR_TRUNCATED : CT_ERR_FORMAT,
                        "not an edit set (%lu bytes; expected the CTEDITS magic)", (unsigned long)len);
    if (ct__eget_u32(buf + 8) != CT__EDITS_VERSION)
        return ct__fail(err, errlen, CT_ERR_VERSION, "edit set format version %lu is not supported (expected %u)",
                        (unsigned long)ct__eget_u32(buf + 8), CT__EDITS_VERSION);
    *count = ct__eget_u32(buf + 12);
    if (*count > CT_EDITS_MAX)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "too many edits: %lu (at most %d)", (unsigned long)*count,
                        CT_EDITS_MAX);
    for (k = 0; k < *count; k++) {
        uint32_t n;
        if (len - pos < CT__EDIT_RECORD)
            return ct__fail(err, errlen, CT_ERR_TRUNCATED, "edit set is truncated in edit %lu", (unsigned long)k);
        n = ct__eget_u32(buf + pos + 8);
        if (n > CT_EDIT_PATH_POINTS_MAX)
            return ct__fail(err, errlen, CT_ERR_CONFIG, "edit %lu: points has %lu points (at most %d)",
                            (unsigned long)k, (unsigned long)n, CT_EDIT_PATH_POINTS_MAX);
        pos += CT__EDIT_RECORD;
        if ((len - pos) / 24u < n)
            return ct__fail(err, errlen, CT_ERR_TRUNCATED, "edit set is truncated in edit %lu's points",
                            (unsigned long)k);
        pos += 24u * n;
        total += n;
    }
    if (pos != len)
        return ct__fail(err, errlen, CT_ERR_FORMAT, "edit set has %lu bytes after its last edit",
                        (unsigned long)(len - pos));
    *points = total;
    return CT_OK;
}

/* A path's points and segments: distinct consecutive points, segments of at
 * most 20 km, stations spread along it. */
static ct_result ct__edit_path(ct__edits *E, ct__edit *e, const uint8_t *pts, size_t k, uint32_t *station_total,
                               char *err, size_t errlen)
{
    uint32_t i, first = E->point_total;
    double s = 0.0, step;
    ct_result r;
    e->first = first;
    for (i = 0; i < e->count; i++) {
        r = ct__point(pts + 24u * i, E->pts + 3u * (first + i), k, e->kind, "points", (long)i, err, errlen);
        if (r) return r;
    }
    for (i = 0; i + 1 < e->count; i++) {
        const double *a = E->pts + 3u * (first + i), *b = a + 3;
        double *n = E->seg_n + 3u * (first + i), len_m = ct__chord_m(a, b, E->radius_m), nl;
        if (!(len_m >= 0.01) || len_m > 20000.0)
            return ct__fail(err, errlen, CT_ERR_CONFIG,
                            "edit %lu (path): points[%lu] to points[%lu] is %g m (each segment 0.01 m to 20 km)",
                            (unsigned long)k, (unsigned long)i, (unsigned long)(i + 1), len_m);
        ct__cross3(a, b, n);
        nl = sqrt(ct__dot3(n, n));
        n[0] /= nl; n[1] /= nl; n[2] /= nl;
        E->seg_s0[first + i] = s;
        s += len_m;
    }
    E->seg_s0[first + e->count - 1] = s;
    /* Stations every width (at least 1 m), or spread to the cap, plus the
     * points themselves so the profile bends where the path does. */
    step = 2.0 * e->half_m > 1.0 ? 2.0 * e->half_m : 1.0;
    if (s / step > (double)(CT__EDITS_PATH_STATIONS - e->count)) step = s / (double)(CT__EDITS_PATH_STATIONS - e->count);
    e->st_first = *station_total;
    e->st_count = 0;
    for (i = 0; i + 1 < e->count; i++) {
        double len_m = E->seg_s0[first + i + 1] - E->seg_s0[first + i];
        uint32_t m = (uint32_t)(len_m / step) + 1u, j;
        for (j = 0; j < m; j++) E->st_s[e->st_first + e->st_count++] = E->seg_s0[first + i] + len_m * (double)j / (double)m;
    }
    E->st_s[e->st_first + e->st_count++] = s;
    *station_total += e->st_count;
    E->point_total += e->count;
    return CT_OK;
}

ct_result ct__edits_decode(const uint8_t *buf, size_t len, double radius_m, ct__edits **out, char *err,
                           size_t errlen)
{
    ct__edits *E;
    uint32_t count = 0, points = 0, stations = 0, k;
    size_t pos = CT__EDITS_HEAD;
    ct_result r;
    *out = NULL;
    if (!buf) return ct__fail(err, errlen, CT_ERR_NULL, "edit set bytes are NULL");
    r = ct__edits_scan(buf, len, &count, &points, err, errlen);
    if (r) return r;
    E = (ct__edits *)calloc(1, sizeof *E);
    if (!E) return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory reading the edit set");
    E->radius_m = radius_m;
    E->count = count;
    E->id = ct__edits_id(buf, len);
    E->e = (ct__edit *)calloc(count ? count : 1, sizeof *E->e);
    E->pts = (double *)malloc(sizeof(double) * 3u * (points ? points : 1));
    E->seg_n = (double *)malloc(sizeof(double) * 3u * (points ? points : 1));
    E->seg_s0 = (double *)malloc(sizeof(double) * (points ? points : 1));
    /* A path of n points has at most CT__EDITS_PATH_STATIONS + n stations. */
    E->st_s = (double *)malloc(sizeof(double) * ((size_t)points + (size_t)count * CT__EDITS_PATH_STATIONS + 1u));
    E->bytes = (uint8_t *)malloc(len);
    if (!E->e || !E->pts || !E->seg_n || !E->seg_s0 || !E->st_s || !E->bytes) {
        ct__edits_free(E);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory reading the edit set");
    }
    memcpy(E->bytes, buf, len);
    E->byte_count = len;
    for (k = 0; k < count; k++) {
        ct__edit *e = &E->e[k];
        uint32_t n = 0;
        r = ct__edit_params(buf + pos, k, e, &n, err, errlen);
        pos += CT__EDIT_RECORD;
        if (!r && e->kind == CT_EDIT_PATH) {
            e->count = n;
            r = ct__edit_path(E, e, buf + pos, k, &stations, err, errlen);
        } else if (!r) {
            r = ct__point(buf + pos, e->c, k, e->kind, "center", -1, err, errlen);
        }
        e->foot_u = e->foot_m / radius_m;
        if (!r && e->foot_m > radius_m / 20.0)
            r = ct__fail(err, errlen, CT_ERR_CONFIG,
                         "edit %lu (%s): its footprint (%g m) is over a twentieth of the planet radius (%g m)",
                         (unsigned long)k, ct__kind_name(e->kind), e->foot_m, radius_m / 20.0);
        if (r) {
            ct__edits_free(E);
            return r;
        }
        pos += 24u * n;
    }
    E->station_total = stations;
    E->st_h = (double *)calloc(stations ? stations : 1, sizeof(double));
    E->st_wet = (uint8_t *)calloc(stations ? stations : 1, 1);
    if (!E->st_h || !E->st_wet) {
        ct__edits_free(E);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory reading the edit set");
    }
    *out = E;
    return CT_OK;
}
