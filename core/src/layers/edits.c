/* edits.c - the height an edit set gives a land sample, edit by edit in
 * set order, each a function of the distance d (chord metres) from its
 * centre or centre line:
 *   flatten  h + w (T - h), w 1 within radius, then a smoothstep down to 0
 *            at radius + blend (T: the given height, or the base ground at
 *            the centre);
 *   crater   h - depth + (depth + rim) (d/r)^2 inside r, then the rim
 *            falling off by a smoothstep to 0 at 1.5 r;
 *   path     h + w (P(s) - h), w 1 within width / 2, then a smoothstep down
 *            to 0 over the shoulder; P is the graded profile at s, metres
 *            along the path of the nearest centre-line point;
 *   brush    h + delta (1 - (d/r)^2)^2 inside r.
 * A pad or a path never takes the ground below the local water reference
 * plus CT__EDITS_FREEBOARD_M where it was above it. Every weight is 0 at the
 * footprint bound (foot_m), so nothing beyond it changes. */
#include "layers/ct_edits.h"

static double ct__d2p(const double a[3], const double b[3])
{
    double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

/* 1 at d <= inner, smoothly to 0 at inner + width. */
static double ct__edit_weight(double d, double inner, double width)
{
    if (d <= inner) return 1.0;
    if (!(width > 0.0) || d >= inner + width) return 0.0;
    return 1.0 - ct__smooth01((d - inner) / width);
}

/* Pads and paths keep land above the water next to it. */
static double ct__above_water(double h_new, double h_old, double ref_m)
{
    double floor_m = ref_m + CT__EDITS_FREEBOARD_M;
    if (h_new >= floor_m) return h_new;
    floor_m = h_old < floor_m ? h_old : floor_m;
    return h_new > floor_m ? h_new : floor_m;
}

void ct__edit_path_profile(ct__edits *E, ct__edit *e)
{
    double *s = E->st_s + e->st_first, *h = E->st_h + e->st_first;
    const uint8_t *wet = E->st_wet + e->st_first;
    uint32_t n = e->st_count, k, prev = n, j;
    /* Water: bridged straight between the dry stations either side (the
     * ends copy their dry neighbour), so the road meets its bridge level. */
    for (k = 0; k < n; k++) {
        if (wet[k]) continue;
        if (prev == n) {
            for (j = 0; j < k; j++) h[j] = h[k];
        } else {
            for (j = prev + 1; j < k; j++) h[j] = h[prev] + (h[k] - h[prev]) * (s[j] - s[prev]) / (s[k] - s[prev]);
        }
        prev = k;
    }
    if (prev < n)
        for (j = prev + 1; j < n; j++) h[j] = h[prev];
    /* The grade: forward, then backward (which alone guarantees it; the
     * forward pass spreads the cut and fill over both directions). */
    for (k = 1; k < n; k++)
        h[k] = ct__clamp(h[k], h[k - 1] - e->grade * (s[k] - s[k - 1]), h[k - 1] + e->grade * (s[k] - s[k - 1]));
    for (k = n - 1; k-- > 0;)
        h[k] = ct__clamp(h[k], h[k + 1] - e->grade * (s[k + 1] - s[k]), h[k + 1] + e->grade * (s[k + 1] - s[k]));
    for (k = 0; k < n; k++)
        if (h[k] > E->top_abs_m) E->top_abs_m = h[k];
}

/* The profile at s metres along the path (linear between stations). */
static double ct__path_profile_at(const ct__edits *E, const ct__edit *e, double s)
{
    const double *st = E->st_s + e->st_first, *h = E->st_h + e->st_first;
    uint32_t lo = 0, hi = e->st_count - 1;
    if (s <= st[0]) return h[0];
    if (s >= st[hi]) return h[hi];
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (st[mid] <= s) lo = mid;
        else hi = mid;
    }
    return h[lo] + (h[hi] - h[lo]) * (s - st[lo]) / (st[hi] - st[lo]);
}

/* Distance (chord metres) from p to the path's centre line and the position
 * along it of the nearest point (the first segment wins ties); HUGE_VAL
 * when no segment is within the footprint. */
static double ct__path_nearest(const ct__edits *E, const ct__edit *e, const double p[3], double *s_out)
{
    const double R = E->radius_m, f = e->foot_u;
    double best = HUGE_VAL;
    uint32_t i;
    for (i = 0; i + 1 < e->count; i++) {
        const double *a = E->pts + 3u * (e->first + i), *b = a + 3, *n = E->seg_n + 3u * (e->first + i);
        double t = ct__dot3(p, n), q[3], ca[3], cb[3], ql, d2, foot[3];
        int k;
        /* |p.n| is at most the chord to the great circle, so to the arc: a
         * sample that far from the whole circle is beyond the footprint
         * (most of a chunk's samples; one dot product). Segments beyond the
         * footprint never decide a sample within it. */
        if (t * t >= f * f) continue;
        for (k = 0; k < 3; k++) q[k] = p[k] - t * n[k];
        ct__cross3(a, q, ca);
        ct__cross3(q, b, cb);
        ql = sqrt(ct__dot3(q, q));
        if (ql > 0.0 && ct__dot3(ca, n) >= 0.0 && ct__dot3(cb, n) >= 0.0) {
            for (k = 0; k < 3; k++) foot[k] = q[k] / ql;
        } else if (ct__d2p(p, a) <= ct__d2p(p, b)) {
            for (k = 0; k < 3; k++) foot[k] = a[k];
        } else {
            for (k = 0; k < 3; k++) foot[k] = b[k];
        }
        d2 = ct__d2p(p, foot);
        if (d2 < best) {
            best = d2;
            *s_out = E->seg_s0[e->first + i] + sqrt(ct__d2p(a, foot)) * R;
        }
    }
    return best == HUGE_VAL ? best : sqrt(best) * R;
}

static double ct__edit_apply(const ct__edits *E, const ct__edit *e, const double p[3], double h, double ref_m)
{
    const double R = E->radius_m;
    double d, d2, f, w, t, s = 0.0;
    if (e->kind == CT_EDIT_PATH) {
        d = ct__path_nearest(E, e, p, &s);
        if (!(d < e->foot_m)) return h;
        w = ct__edit_weight(d, e->half_m, e->shoulder_m);
        return ct__above_water(h + w * (ct__path_profile_at(E, e, s) - h), h, ref_m);
    }
    f = e->foot_u;
    d2 = ct__d2p(p, e->c);
    if (!(d2 < f * f)) return h;
    d = sqrt(d2) * R;
    switch (e->kind) {
    case CT_EDIT_FLATTEN:
        w = ct__edit_weight(d, e->radius_m, e->a);
        return ct__above_water(h + w * (e->target_m - h), h, ref_m);
    case CT_EDIT_CRATER:
        t = d / e->radius_m;
        if (t <= 1.0) return h - e->a + (e->a + e->b) * t * t;
        return h + e->b * ct__edit_weight(d, e->radius_m, CT__EDITS_RIM_FALLOFF * e->radius_m);
    default:
        t = d / e->radius_m;
        t = 1.0 - t * t;
        return h + e->a * t * t;
    }
}

double ct__edits_height(const ct__edits *E, const uint32_t *ids, uint32_t n, const double p[3], double h_m,
                        double ref_m)
{
    uint32_t k;
    if (!ids) ct__edits_cell_of(E, p, &ids, &n);
    for (k = 0; k < n; k++) {
        const ct__edit *e = &E->e[ids[k]];
        /* the common case inline: a sample outside a centre's footprint */
        if (e->kind != CT_EDIT_PATH && !(ct__d2p(p, e->c) < e->foot_u * e->foot_u)) continue;
        h_m = ct__edit_apply(E, e, p, h_m, ref_m);
    }
    return h_m;
}

double ct__edits_top(const ct__edits *E, double base_top_m)
{
    double top = E->top_abs_m > base_top_m ? E->top_abs_m : base_top_m;
    return top + E->raise_m;
}

int ct__edits_excludes(const ct__edits *E, const double p[3])
{
    const uint32_t *ids;
    uint32_t n, k;
    double s;
    if (!E || !E->count) return 0;
    ct__edits_cell_of(E, p, &ids, &n);
    for (k = 0; k < n; k++) {
        const ct__edit *e = &E->e[ids[k]];
        double f = e->foot_u;
        if (e->kind == CT_EDIT_FLATTEN && ct__d2p(p, e->c) < f * f) return 1;
        if (e->kind == CT_EDIT_PATH && ct__path_nearest(E, e, p, &s) < e->foot_m) return 1;
    }
    return 0;
}
