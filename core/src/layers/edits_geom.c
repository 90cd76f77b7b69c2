/* edits_geom.c - where an edit set reaches: each footprint (a cap around a
 * centre, or a band around a path's great-circle segments) against a
 * chunk's closed area, the chunks of a LOD it reaches, and the coarse cell
 * index that lets a sample find the few edits near it.
 *
 * A chunk's samples lie in the spherical quad of its four corner samples
 * (the face map is gnomonic, so the quad's edges are great-circle arcs), and
 * the footprint is the set of directions within foot_m of a point or arc.
 * So "reaches" is the distance between two convex shapes on the sphere: 0
 * when one holds a point of the other or their arcs cross, otherwise the
 * smallest distance between an endpoint of one and the other shape. A sample
 * an edit changes lies in its footprint, so a chunk this test refuses keeps
 * every base bit. */
#include "layers/ct_edits.h"

#include <stdlib.h>
#include <string.h>

/* Slack of the reach test, metres: rounding never drops a chunk. */
#define CT__EDITS_SLACK_M 1e-3

static double ct__d2(const double a[3], const double b[3])
{
    double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

/* Squared chord from p to the arc a..b (unit normal n, or n NULL: the point
 * a), and the arc's nearest point in foot (may be NULL). */
static double ct__arc_d2(const double p[3], const double a[3], const double b[3], const double *n, double *foot)
{
    double t, q[3], ca[3], cb[3], ql, da, db;
    int k;
    if (n) {
        t = ct__dot3(p, n);
        for (k = 0; k < 3; k++) q[k] = p[k] - t * n[k];
        ct__cross3(a, q, ca);
        ct__cross3(q, b, cb);
        ql = sqrt(ct__dot3(q, q));
        if (ql > 0.0 && ct__dot3(ca, n) >= 0.0 && ct__dot3(cb, n) >= 0.0) {
            for (k = 0; k < 3; k++) q[k] /= ql;
            if (foot) memcpy(foot, q, sizeof q);
            return ct__d2(p, q);
        }
        db = ct__d2(p, b);
    } else {
        db = HUGE_VAL;
    }
    da = ct__d2(p, a);
    if (foot) memcpy(foot, da <= db ? a : b, 3 * sizeof(double));
    return da <= db ? da : db;
}

/* The arcs a..b and c..d cross (or touch). */
static int ct__arcs_cross(const double a[3], const double b[3], const double c[3], const double d[3])
{
    double n1[3], n2[3], sc, sd, sa, sb;
    ct__cross3(a, b, n1);
    ct__cross3(c, d, n2);
    sc = ct__dot3(n1, c); sd = ct__dot3(n1, d);
    sa = ct__dot3(n2, a); sb = ct__dot3(n2, b);
    return sc * sd <= 0.0 && sa * sb <= 0.0 && ct__dot3(a, c) > 0.0;
}

typedef struct ct__quad {
    double c[4][3];           /* corners in order around */
    double en[4][3];          /* unit normal of edge i (c[i] x c[i+1]) */
    double mid[3];
} ct__quad;

static void ct__quad_of(int face, int lod, uint32_t x, uint32_t y, ct__quad *q)
{
    int64_t gx = (int64_t)x * CT_CHUNK_CORE, gy = (int64_t)y * CT_CHUNK_CORE;
    int i, k;
    ct__sample_direction(face, lod, gx, gy, q->c[0]);
    ct__sample_direction(face, lod, gx + CT_CHUNK_CORE, gy, q->c[1]);
    ct__sample_direction(face, lod, gx + CT_CHUNK_CORE, gy + CT_CHUNK_CORE, q->c[2]);
    ct__sample_direction(face, lod, gx, gy + CT_CHUNK_CORE, q->c[3]);
    for (i = 0; i < 4; i++) {
        double l;
        ct__cross3(q->c[i], q->c[(i + 1) & 3], q->en[i]);
        l = sqrt(ct__dot3(q->en[i], q->en[i]));
        for (k = 0; k < 3; k++) q->en[i][k] /= l;
    }
    for (k = 0; k < 3; k++) q->mid[k] = q->c[0][k] + q->c[1][k] + q->c[2][k] + q->c[3][k];
}

static int ct__quad_holds(const ct__quad *q, const double p[3])
{
    int i, pos = 0, neg = 0;
    if (ct__dot3(p, q->mid) <= 0.0) return 0;
    for (i = 0; i < 4; i++) {
        double s = ct__dot3(q->en[i], p);
        pos += s >= -1e-15;
        neg += s <= 1e-15;
    }
    return pos == 4 || neg == 4;
}

/* Smallest squared chord between the quad and the arc a..b (n NULL: the
 * point a). */
static double ct__quad_arc_d2(const ct__quad *q, const double a[3], const double b[3], const double *n)
{
    double best = HUGE_VAL, d;
    int i;
    if (ct__quad_holds(q, a) || (n && ct__quad_holds(q, b))) return 0.0;
    for (i = 0; i < 4; i++) {
        const double *c0 = q->c[i], *c1 = q->c[(i + 1) & 3];
        if (n && ct__arcs_cross(a, b, c0, c1)) return 0.0;
        d = ct__arc_d2(a, c0, c1, q->en[i], NULL);
        if (d < best) best = d;
        if (n) {
            d = ct__arc_d2(b, c0, c1, q->en[i], NULL);
            if (d < best) best = d;
            d = ct__arc_d2(c0, a, b, n, NULL);
            if (d < best) best = d;
        }
    }
    return best;
}

static int ct__reaches_quad(const ct__edits *E, const ct__edit *e, const ct__quad *q)
{
    double f = (e->foot_m + CT__EDITS_SLACK_M) / E->radius_m, f2 = f * f;
    uint32_t i;
    if (e->kind != CT_EDIT_PATH) return ct__quad_arc_d2(q, e->c, e->c, NULL) <= f2;
    for (i = 0; i + 1 < e->count; i++) {
        const double *a = E->pts + 3u * (e->first + i);
        if (ct__quad_arc_d2(q, a, a + 3, E->seg_n + 3u * (e->first + i)) <= f2) return 1;
    }
    return 0;
}

int ct__edit_reaches(const ct__edits *E, const ct__edit *e, int face, int lod, uint32_t x, uint32_t y)
{
    ct__quad q;
    ct__quad_of(face, lod, x, y, &q);
    return ct__reaches_quad(E, e, &q);
}

/* The chunks of lod on every face that a cap (unit centre c, angle theta
 * radians, a bound) may reach, each tested exactly against e. */
static int ct__cap_keys(const ct__edits *E, const ct__edit *e, const double c[3], double theta, int lod,
                        ct__edit_key_fn fn, void *ctx)
{
    int64_t N = (int64_t)1 << lod;
    int face;
    for (face = 0; face < 6; face++) {
        double o[3], du[3], dv[3], cn, cu, cv, ext, lo, u0, u1, v0, v1;
        int64_t x0, x1, y0, y1, x, y;
        ct__face_uv_to_cube(face, 0.0, 0.0, o);
        ct__face_axes(face, du, dv);
        cn = ct__dot3(c, o);
        /* Every point of a face is within 54.8 degrees of its centre (cos
         * 0.577); caps are under 0.06 rad (footprints under R/20). */
        if (cn < 0.45) continue;
        cu = ct__dot3(c, du) / cn;
        cv = ct__dot3(c, dv) / cn;
        /* The gnomonic map stretches by at most 1/cos^2 of the angle from
         * the face centre, which inside the cap is at least cn - theta. */
        lo = cn - theta - 0.01;
        ext = 1.1 * theta / (lo * lo) + 1e-9;
        u0 = cu - ext; u1 = cu + ext; v0 = cv - ext; v1 = cv + ext;
        if (u1 < -1.0 || u0 > 1.0 || v1 < -1.0 || v0 > 1.0) continue;
        x0 = (int64_t)((ct__clamp(u0, -1.0, 1.0) + 1.0) * 0.5 * (double)N);
        x1 = (int64_t)((ct__clamp(u1, -1.0, 1.0) + 1.0) * 0.5 * (double)N);
        y0 = (int64_t)((ct__clamp(v0, -1.0, 1.0) + 1.0) * 0.5 * (double)N);
        y1 = (int64_t)((ct__clamp(v1, -1.0, 1.0) + 1.0) * 0.5 * (double)N);
        /* A chunk's closed area includes its low edges: one more below. */
        if (x0 > 0) x0--;
        if (y0 > 0) y0--;
        if (x1 >= N) x1 = N - 1;
        if (y1 >= N) y1 = N - 1;
        for (y = y0; y <= y1; y++)
            for (x = x0; x <= x1; x++)
                if (ct__edit_reaches(E, e, face, lod, (uint32_t)x, (uint32_t)y) && fn(ctx, face, (uint32_t)x, (uint32_t)y))
                    return 1;
    }
    return 0;
}

int ct__edit_keys(const ct__edits *E, const ct__edit *e, int lod, ct__edit_key_fn fn, void *ctx)
{
    uint32_t i;
    if (e->kind != CT_EDIT_PATH) return ct__cap_keys(E, e, e->c, 1.01 * e->foot_m / E->radius_m + 1e-9, lod, fn, ctx);
    for (i = 0; i + 1 < e->count; i++) {
        const double *a = E->pts + 3u * (e->first + i), *b = a + 3;
        double m[3] = {a[0] + b[0], a[1] + b[1], a[2] + b[2]}, l = sqrt(ct__dot3(m, m));
        double half = 0.5 * sqrt(ct__d2(a, b));
        m[0] /= l; m[1] /= l; m[2] /= l;
        if (ct__cap_keys(E, e, m, 1.01 * (half + e->foot_m / E->radius_m) + 1e-9, lod, fn, ctx)) return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the index */
typedef struct ct__pairs {
    uint32_t *key, *edit;
    size_t n, cap;
    uint32_t current;
    int failed;
} ct__pairs;

static int ct__pairs_add(void *ctx, int face, uint32_t x, uint32_t y)
{
    ct__pairs *p = (ct__pairs *)ctx;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 256;
        uint32_t *k = (uint32_t *)realloc(p->key, cap * sizeof *k), *e;
        if (!k) { p->failed = 1; return 1; }
        p->key = k;
        e = (uint32_t *)realloc(p->edit, cap * sizeof *e);
        if (!e) { p->failed = 1; return 1; }
        p->edit = e;
        p->cap = cap;
    }
    p->key[p->n] = (uint32_t)face << 16 | y << 8 | x;
    p->edit[p->n] = p->current;
    p->n++;
    return 0;
}

static int ct__pair_cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

ct_result ct__edits_index(ct__edits *E, char *err, size_t errlen)
{
    ct__pairs p;
    uint64_t *both;
    size_t i, m = 0;
    memset(&p, 0, sizeof p);
    for (p.current = 0; p.current < E->count && !p.failed; p.current++)
        ct__edit_keys(E, &E->e[p.current], CT__EDITS_CELL_LOD, ct__pairs_add, &p);
    both = p.failed ? NULL : (uint64_t *)malloc((p.n ? p.n : 1) * sizeof *both);
    if (!both) {
        free(p.key);
        free(p.edit);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory indexing the edit set");
    }
    /* Sorted by cell, then edit: a cell's edits are a run in edit order. */
    for (i = 0; i < p.n; i++) both[i] = (uint64_t)p.key[i] << 32 | p.edit[i];
    qsort(both, p.n, sizeof *both, ct__pair_cmp);
    for (i = 0; i < p.n; i++) {
        if (m && both[i] == both[m - 1]) continue;
        both[m++] = both[i];
    }
    for (i = 0; i < m; i++) {
        p.key[i] = (uint32_t)(both[i] >> 32);
        p.edit[i] = (uint32_t)both[i];
    }
    free(both);
    E->cell_key = p.key;
    E->cell_edit = p.edit;
    E->cell_pairs = m;
    return CT_OK;
}

static void ct__cell_run(const ct__edits *E, uint32_t key, const uint32_t **ids, uint32_t *n)
{
    size_t lo = 0, hi = E->cell_pairs, end;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (E->cell_key[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    for (end = lo; end < E->cell_pairs && E->cell_key[end] == key; end++) {}
    *ids = E->cell_edit + lo;
    *n = (uint32_t)(end - lo);
}

void ct__edits_cell_of(const ct__edits *E, const double p[3], const uint32_t **ids, uint32_t *n)
{
    const double cells = (double)(1u << CT__EDITS_CELL_LOD);
    int face;
    double u, v;
    uint32_t x, y;
    ct__cube_from_dir(p, &face, &u, &v);
    x = (uint32_t)ct__clamp((u + 1.0) * 0.5 * cells, 0.0, cells - 1.0);
    y = (uint32_t)ct__clamp((v + 1.0) * 0.5 * cells, 0.0, cells - 1.0);
    ct__cell_run(E, (uint32_t)face << 16 | y << 8 | x, ids, n);
}

int ct__edits_chunk(const ct__edits *E, ct_key key, uint32_t buf[CT__EDITS_CHUNK_MAX], const uint32_t **ids,
                    uint32_t *n)
{
    const uint32_t *run;
    uint32_t count, k, kept = 0, i;
    ct__quad q;
    int coarse = key.lod < CT__EDITS_CELL_LOD, over = 0;
    if (coarse) {
        run = NULL;
        count = E->count;
    } else {
        int shift = key.lod - CT__EDITS_CELL_LOD;
        ct__cell_run(E, (uint32_t)key.face << 16 | (key.y >> shift) << 8 | (key.x >> shift), &run, &count);
    }
    ct__quad_of(key.face, key.lod, key.x, key.y, &q);
    for (k = 0; k < count; k++) {
        i = run ? run[k] : k;
        if (!ct__reaches_quad(E, &E->e[i], &q)) continue;
        if (kept < CT__EDITS_CHUNK_MAX) buf[kept] = i;
        else over = 1;
        kept++;
    }
    if (!kept) return 0;
    if (over) {
        *ids = run;   /* a fine chunk runs its cell's edits; a coarse one looks each sample's cell up */
        *n = run ? count : 0;
    } else {
        *ids = buf;
        *n = kept;
    }
    return 1;
}

void ct__edit_station_dir(const ct__edits *E, const ct__edit *e, uint32_t k, double out[3])
{
    double s = E->st_s[e->st_first + k], t, l;
    uint32_t i = 0;
    const double *a, *b;
    int c;
    while (i + 2 < e->count && E->seg_s0[e->first + i + 1] <= s) i++;
    a = E->pts + 3u * (e->first + i);
    b = a + 3;
    t = (s - E->seg_s0[e->first + i]) / (E->seg_s0[e->first + i + 1] - E->seg_s0[e->first + i]);
    for (c = 0; c < 3; c++) out[c] = a[c] + t * (b[c] - a[c]);
    l = sqrt(ct__dot3(out, out));
    for (c = 0; c < 3; c++) out[c] /= l;
}
