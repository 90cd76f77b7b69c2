/* sites.c - ranked places for settlements, ports and spawns (ct_world_sites).
 *
 * Candidates are the land vertices of the macro graph (the whole world) or,
 * with a centre, those within the radius plus a fixed 9 x 9 grid over it, so
 * small radii still have candidates. Distances to fresh water (lakes and
 * river nodes) and to the sea come from hop counts over the macro graph
 * (breadth first, times the mean edge length), a pure function of the
 * frozen field. A cheap macro score orders them; the best few, spaced, are
 * refined with exact-ground queries (centre and a ring of 8 at the kind's
 * footprint radius: height, slope, relief, dryness, biome; ports also look
 * for deep sea on rings out to 3 km), scored again and picked greedily by
 * score at least min_spacing_m apart. Only +,-,*,/,sqrt enter a decision,
 * so native and WebAssembly rank alike. */
#include "world/ct_world.h"
#include "surface/ct_scatter.h"
#include "base/ct_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CT__SITE_GRID 9                 /* candidates per side of the local grid */
#define CT__PORT_DEEP_M 10.0            /* water at least this deep counts as deep */
#define CT__UNSET 0xffffffffu

static const char *const ct__site_names[CT_SITE_KIND_COUNT] = { "settlement", "port", "spawn" };
static const double ct__site_radius[CT_SITE_KIND_COUNT] = { 300.0, 200.0, 50.0 };
/* How mild each biome is to live in: water, sand, grass, forest, rock, snow, desert, tundra. */
static const double ct__mild[CT_BIOME_COUNT] = { 0.0, 0.6, 1.0, 0.8, 0.1, 0.0, 0.3, 0.4 };

const char *ct_site_kind_name(int kind)
{
    return kind >= 0 && kind < CT_SITE_KIND_COUNT ? ct__site_names[kind] : "?";
}

double ct_site_radius_m(int kind)
{
    return kind >= 0 && kind < CT_SITE_KIND_COUNT ? ct__site_radius[kind] : 0.0;
}

/* ------------------------------------------------------ macro distances */
/* Breadth-first hop counts from every vertex whose src flag is set. */
static void ct__site_bfs(const ct__graph *g, const uint8_t *src, uint32_t *hops, uint32_t *queue)
{
    uint32_t head = 0, tail = 0, v, k;
    for (v = 0; v < g->V; v++) {
        hops[v] = src[v] ? 0 : CT__UNSET;
        if (src[v]) queue[tail++] = v;
    }
    while (head < tail) {
        v = queue[head++];
        for (k = 0; k < 4; k++) {
            uint32_t u = g->nbr[4 * v + k];
            if (u == CT__NONE || hops[u] != CT__UNSET) continue;
            hops[u] = hops[v] + 1;
            queue[tail++] = u;
        }
    }
}

typedef struct ct__site_macro {
    ct__graph g;
    uint32_t *fresh, *coast;   /* [V] hops to a lake or river node, to the sea */
    double edge_m;             /* mean macro edge, metres */
} ct__site_macro;

static ct_result ct__site_macro_build(const ct_world *w, ct__site_macro *m, char *err, size_t errlen)
{
    const ct__field *f = &w->field;
    uint32_t V = f->vertex_count, v, k, *queue;
    uint8_t *src;
    ct_result r;
    memset(m, 0, sizeof *m);
    if ((r = ct__graph_build(f, f->cfg.radius_m, &m->g, err, errlen)) != CT_OK) return r;
    m->fresh = (uint32_t *)malloc(sizeof(uint32_t) * V);
    m->coast = (uint32_t *)malloc(sizeof(uint32_t) * V);
    queue = (uint32_t *)malloc(sizeof(uint32_t) * V);
    src = (uint8_t *)calloc((size_t)V + 1, 1);
    if (!m->fresh || !m->coast || !queue || !src) {
        free(queue);
        free(src);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for site distances");
    }
    for (v = 0; v < V; v++) src[v] = f->body_v[v] > 0;
    if (f->rivers)
        for (k = 0; k < f->rivers->node_count; k++) src[f->rivers->node_v[k]] = 1;
    ct__site_bfs(&m->g, src, m->fresh, queue);
    for (v = 0; v < V; v++) src[v] = f->body_v[v] == 0;
    ct__site_bfs(&m->g, src, m->coast, queue);
    m->edge_m = m->g.cell_arc * f->cfg.radius_m;
    free(queue);
    free(src);
    return CT_OK;
}

static void ct__site_macro_free(ct__site_macro *m)
{
    ct__graph_free(&m->g);
    free(m->fresh);
    free(m->coast);
}

static double ct__hops_m(const ct__site_macro *m, uint32_t hops)
{
    return hops == CT__UNSET ? 1e12 : (double)hops * m->edge_m;
}

/* The macro vertex nearest a unit direction (its face grid point). */
static uint32_t ct__site_vertex(const ct__field *f, const double d[3])
{
    int face;
    double u, v, n = (double)f->n;
    long i, j;
    ct__cube_from_dir(d, &face, &u, &v);
    i = (long)floor((u + 1.0) * 0.5 * n + 0.5);
    j = (long)floor((v + 1.0) * 0.5 * n + 0.5);
    if (i < 0) i = 0;
    if (j < 0) j = 0;
    if (i > (long)f->n) i = (long)f->n;
    if (j > (long)f->n) j = (long)f->n;
    return f->vertex_fij[CT__FIJ(f->n, face, i, j)];
}

/* -------------------------------------------------------------- candidates */
/* Lean, as there is one per land vertex (a million at macro_resolution
 * 512); only the few refined ones get a site record. */
typedef struct ct__cand {
    double dir[3];
    double pre;                /* macro score */
    uint32_t v;                /* nearest macro vertex */
    int ok;                    /* refined and within the kind's rules */
    ct_site *site;             /* the refined record, NULL before */
} ct__cand;

/* A tangent basis at unit d from +,-,*,/,sqrt only. */
static void ct__site_basis(const double d[3], double e1[3], double e2[3])
{
    double a[3] = { 0.0, 0.0, 0.0 }, len;
    int k, m = 0;
    for (k = 1; k < 3; k++)
        if (fabs(d[k]) < fabs(d[m])) m = k;
    a[m] = 1.0;
    ct__cross3(d, a, e1);
    len = sqrt(ct__dot3(e1, e1));
    for (k = 0; k < 3; k++) e1[k] /= len;
    ct__cross3(d, e1, e2);
}

/* d moved by (x, y) radians along the basis, normalised. */
static void ct__site_offset(const double d[3], const double e1[3], const double e2[3], double x, double y,
                            double out[3])
{
    double len;
    int k;
    for (k = 0; k < 3; k++) out[k] = d[k] + x * e1[k] + y * e2[k];
    len = sqrt(ct__dot3(out, out));
    for (k = 0; k < 3; k++) out[k] /= len;
}

static double ct__site_pre(const ct__field *f, const ct__site_macro *m, int kind, uint32_t v)
{
    double h = f->height_v[v], fresh = ct__hops_m(m, m->fresh[v]), coast = ct__hops_m(m, m->coast[v]);
    if (f->body_v[v] != -1) return -1.0;
    if (kind == CT_SITE_SETTLEMENT) return (h > 0.0 && h < 2500.0 ? 1.0 : 0.2) / (1.0 + fresh / 20000.0);
    if (kind == CT_SITE_PORT) return m->coast[v] <= 1 ? 1.0 / (1.0 + h / 100.0) : -1.0;
    return (h > 0.0 && h < 3000.0 ? 1.0 : 0.2) / (1.0 + coast / 1e6);
}

/* The candidate list: land macro vertices (within the radius when near is
 * set) and, with near, the 9 x 9 grid over the disc. */
static ct__cand *ct__site_candidates(const ct_world *w, const ct__site_macro *m, const ct_site_query *q,
                                    const double near[3], size_t *n_out)
{
    const ct__field *f = &w->field;
    double ang = q->has_near ? q->radius_m / f->cfg.radius_m : 0.0, e1[3], e2[3];
    size_t cap = CT__SITE_GRID * CT__SITE_GRID, n = 0;
    ct__cand *c;
    uint32_t v;
    int gi, gj, k;
    for (v = 0; v < f->vertex_count; v++) cap += f->body_v[v] == -1;
    c = (ct__cand *)malloc(sizeof *c * cap);
    if (!c) return NULL;
    for (v = 0; v < f->vertex_count; v++) {
        if (f->body_v[v] != -1) continue;
        if (q->has_near && ct__arc(f->dir_v + 3 * v, near) > ang) continue;
        for (k = 0; k < 3; k++) c[n].dir[k] = f->dir_v[3 * v + k];
        c[n++].v = v;
    }
    if (q->has_near) {
        ct__site_basis(near, e1, e2);
        for (gj = 0; gj < CT__SITE_GRID; gj++) {
            for (gi = 0; gi < CT__SITE_GRID; gi++) {
                double x = ang * (2.0 * gi / (CT__SITE_GRID - 1) - 1.0), y = ang * (2.0 * gj / (CT__SITE_GRID - 1) - 1.0);
                if (x * x + y * y > ang * ang) continue;
                ct__site_offset(near, e1, e2, x, y, c[n].dir);
                c[n].v = ct__site_vertex(f, c[n].dir);
                n++;
            }
        }
    }
    for (k = 0; k < (int)n; k++) {
        c[k].pre = ct__site_pre(f, m, q->kind, c[k].v);
        c[k].ok = 0;
        c[k].site = NULL;
    }
    *n_out = n;
    return c;
}

/* ---------------------------------------------------------------- refine */
static const double ct__ring8[8][2] = {
    { 1.0, 0.0 }, { 0.70710678118654752, 0.70710678118654752 }, { 0.0, 1.0 },
    { -0.70710678118654752, 0.70710678118654752 }, { -1.0, 0.0 }, { -0.70710678118654752, -0.70710678118654752 },
    { 0.0, -1.0 }, { 0.70710678118654752, -0.70710678118654752 }
};

/* Ports: the nearest of rings at 250 m, 1 km and 3 km with deep sea on it;
 * its radius, or -1. */
static double ct__site_deep(const ct_world *w, const double d[3], const double e1[3], const double e2[3])
{
    static const double radii[3] = { 250.0, 1000.0, 3000.0 };
    int r, k;
    for (r = 0; r < 3; r++) {
        double a = radii[r] / w->field.cfg.radius_m;
        for (k = 0; k < 8; k++) {
            double p[3];
            ct_sample s;
            ct__site_offset(d, e1, e2, a * ct__ring8[k][0], a * ct__ring8[k][1], p);
            if (ct_world_sample(w, p, &s, NULL, 0) != CT_OK) continue;
            if (s.has_water && s.water_body == 0 && s.water_m - s.height_m >= CT__PORT_DEEP_M) return radii[r];
        }
    }
    return -1.0;
}

/* Ports: the coast between land vertex v and its first sea neighbour, found
 * by bisection on the samples' sea water (14 halvings: tens of metres), the
 * dry end written to d. 0 when v has no sea neighbour. */
static int ct__site_coast(const ct_world *w, const ct__site_macro *m, uint32_t v, double d[3])
{
    const ct__field *f = &w->field;
    double a[3], b[3], mid[3], len;
    uint32_t u = CT__NONE;
    int k, it;
    for (k = 0; k < 4 && u == CT__NONE; k++) {
        uint32_t nb = m->g.nbr[4 * v + k];
        if (nb != CT__NONE && f->body_v[nb] == 0) u = nb;
    }
    if (u == CT__NONE) return 0;
    memcpy(a, f->dir_v + 3 * v, sizeof a);
    memcpy(b, f->dir_v + 3 * u, sizeof b);
    for (it = 0; it < 14; it++) {
        ct_sample s;
        for (k = 0; k < 3; k++) mid[k] = 0.5 * (a[k] + b[k]);
        len = sqrt(ct__dot3(mid, mid));
        for (k = 0; k < 3; k++) mid[k] /= len;
        if (ct_world_sample(w, mid, &s, NULL, 0) != CT_OK) return 0;
        if (s.has_water && s.water_body == 0) memcpy(b, mid, sizeof b);
        else memcpy(a, mid, sizeof a);
    }
    memcpy(d, a, sizeof a);
    return 1;
}

/* The footprint at d: height, slope, biome and the relief over a ring of 8
 * at the kind's radius; 0 when the centre or the ring is in water or the
 * centre is steeper than max_slope. */
static int ct__site_footprint(const ct_world *w, int kind, const double d[3], double max_slope, ct_site *s)
{
    double e1[3], e2[3], a = ct__site_radius[kind] / w->field.cfg.radius_m, lo, hi;
    ct_ground g;
    int k;
    if (ct_world_ground(w, d, &g, NULL, 0) != CT_OK) return 0;
    if (g.has_water && g.water_m > g.height_m) return 0;
    memcpy(s->dir, d, sizeof s->dir);
    s->height_m = g.height_m;
    s->slope_deg = ct__slope_deg_exact(g.normal, d);
    s->biome = g.biome;
    if (s->slope_deg > max_slope) return 0;
    lo = hi = g.height_m;
    ct__site_basis(d, e1, e2);
    for (k = 0; k < 8; k++) {
        double p[3];
        ct_ground r;
        ct__site_offset(d, e1, e2, a * ct__ring8[k][0], a * ct__ring8[k][1], p);
        if (ct_world_ground(w, p, &r, NULL, 0) != CT_OK) return 0;
        if (r.has_water && r.water_m > r.height_m) {
            if (kind != CT_SITE_PORT) return 0;
            continue;   /* a port's relief is its land's */
        }
        if (r.height_m < lo) lo = r.height_m;
        if (r.height_m > hi) hi = r.height_m;
    }
    s->relief_m = hi - lo;
    return 1;
}

#define CT__SITE_STEP_M 1500.0   /* settlements and spawns try the centre, then 8 points this far out */

/* Exact-ground facts and the score of one candidate; ok 0 when it breaks a rule. */
static void ct__site_refine(const ct_world *w, const ct__site_macro *m, const ct_site_query *q, const double near[3],
                            ct__cand *c)
{
    int kind = q->kind;
    static const double max_slope[CT_SITE_KIND_COUNT] = { 8.0, 10.0, 12.0 };
    static const double max_relief[CT_SITE_KIND_COUNT] = { 40.0, 60.0, 25.0 };
    double e1[3], e2[3], d[3], step = CT__SITE_STEP_M / w->field.cfg.radius_m, flat, mild, deep, off = 0.0;
    ct_site *s = c->site;
    int k, found = 0;
    c->ok = 0;
    memset(s, 0, sizeof *s);
    if (kind == CT_SITE_PORT) {
        if (!ct__site_coast(w, m, c->v, d)) return;
        found = ct__site_footprint(w, kind, d, max_slope[kind], s);
    } else {
        ct__site_basis(c->dir, e1, e2);
        for (k = -1; k < 8 && !found; k++) {
            if (k < 0) memcpy(d, c->dir, sizeof d);
            else ct__site_offset(c->dir, e1, e2, step * ct__ring8[k][0], step * ct__ring8[k][1], d);
            /* A search near a point keeps its sites within the radius. */
            if (q->has_near && ct__arc(d, near) * w->field.cfg.radius_m > q->radius_m) continue;
            found = ct__site_footprint(w, kind, d, max_slope[kind], s) && s->relief_m <= max_relief[kind];
            off = k < 0 ? 0.0 : CT__SITE_STEP_M;
        }
    }
    if (!found || s->relief_m > max_relief[kind]) return;
    if (q->has_near && ct__arc(s->dir, near) * w->field.cfg.radius_m > q->radius_m) return;
    s->fresh_water_m = ct__hops_m(m, m->fresh[c->v]) + off;
    s->coast_m = ct__hops_m(m, m->coast[c->v]) + off;
    mild = ct__mild[s->biome];
    flat = 1.0 - 0.5 * s->slope_deg / max_slope[kind] - 0.5 * s->relief_m / max_relief[kind];
    if (kind == CT_SITE_PORT) {
        if (s->height_m > 60.0) return;
        ct__site_basis(s->dir, e1, e2);
        deep = ct__site_deep(w, s->dir, e1, e2);
        if (deep < 0.0) return;
        s->coast_m = 0.0;
        s->score = 0.5 / (1.0 + deep / 1000.0) + 0.3 * flat + 0.2 * mild;
    } else if (kind == CT_SITE_SETTLEMENT) {
        if (s->height_m < 2.0 || s->height_m > 2500.0 || mild < 0.3) return;
        s->score = 0.35 * flat + 0.35 / (1.0 + s->fresh_water_m / 3000.0) + 0.3 * mild;
    } else {
        if (s->height_m < 2.0 || s->height_m > 3000.0 || mild < 0.3) return;
        s->score = 0.6 * flat + 0.4 * mild;
    }
    c->ok = 1;
}

/* --------------------------------------------------------------- picking */
static int ct__cand_by_pre(const void *a, const void *b)
{
    const ct__cand *x = (const ct__cand *)a, *y = (const ct__cand *)b;
    if (x->pre != y->pre) return x->pre > y->pre ? -1 : 1;
    return x->v != y->v ? (x->v < y->v ? -1 : 1) : memcmp(x->dir, y->dir, sizeof x->dir);
}

static int ct__cand_by_score(const void *a, const void *b)
{
    const ct__cand *x = (const ct__cand *)a, *y = (const ct__cand *)b;
    if (x->ok != y->ok) return x->ok ? -1 : 1;
    if (x->ok && x->site->score != y->site->score) return x->site->score > y->site->score ? -1 : 1;
    return ct__cand_by_pre(a, b);
}

/* Keeps, in order, those at least ang radians from every one kept before
 * (refined: usable ones by their sites' places; else macro candidates with
 * a score, by their own); returns how many, at most want. */
static size_t ct__site_spread(ct__cand *c, size_t n, double ang, size_t want, int need_ok)
{
    size_t kept = 0, i, j;
    for (i = 0; i < n && kept < want; i++) {
        int far = need_ok ? c[i].ok : c[i].pre >= 0.0;
        for (j = 0; j < kept && far; j++)
            if (ct__arc(need_ok ? c[j].site->dir : c[j].dir, need_ok ? c[i].site->dir : c[i].dir) < ang) far = 0;
        if (far) c[kept++] = c[i];
    }
    return kept;
}

static ct_result ct__site_check(const ct_world *w, const ct_site_query *q, double near[3], char *err, size_t errlen)
{
    int k;
    double len;
    if (!w || !q) return ct__fail(err, errlen, CT_ERR_NULL, "world and site query are required");
    if (q->kind < 0 || q->kind >= CT_SITE_KIND_COUNT)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "site kind %d is not settlement (0), port (1) or spawn (2)",
                        q->kind);
    if (q->count < 1 || q->count > CT_SITES_MAX)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "site count %u is outside 1..%d", (unsigned)q->count,
                        CT_SITES_MAX);
    if (!ct__is_finite(q->min_spacing_m) || q->min_spacing_m < 0.0)
        return ct__fail(err, errlen, CT_ERR_CONFIG, "site minSpacingM must be a finite number >= 0");
    if (!q->has_near) return CT_OK;
    if (!ct__is_finite(q->radius_m) || !(q->radius_m > 0.0))
        return ct__fail(err, errlen, CT_ERR_CONFIG, "site radiusM must be a finite number > 0 with near");
    for (k = 0; k < 3; k++)
        if (!ct__is_finite(q->near[k])) return ct__fail(err, errlen, CT_ERR_DIRECTION, "site near is not finite");
    len = sqrt(ct__dot3(q->near, q->near));
    if (!(len > 0.0) || !ct__is_finite(len))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "site near is the zero vector or too large");
    for (k = 0; k < 3; k++) near[k] = q->near[k] / len;
    return CT_OK;
}

ct_result ct_world_sites(const ct_world *world, const ct_site_query *q, ct_site *out, uint32_t capacity,
                         uint32_t *count, char *err, size_t errlen)
{
    ct__site_macro m;
    ct__cand *c;
    ct_site *refined;
    double near[3] = { 0.0, 0.0, 1.0 }, ang;
    size_t n, i, keep;
    ct_result r;
    if (count) *count = 0;
    if ((r = ct__site_check(world, q, near, err, errlen)) != CT_OK) return r;
    if (!out || !count) return ct__fail(err, errlen, CT_ERR_NULL, "site output and count are required");
    if (capacity < q->count)
        return ct__fail(err, errlen, CT_ERR_BUFFER, "site output holds %u, %u asked for", (unsigned)capacity,
                        (unsigned)q->count);
    if ((r = ct__site_macro_build(world, &m, err, errlen)) != CT_OK) {
        ct__site_macro_free(&m);
        return r;
    }
    c = ct__site_candidates(world, &m, q, near, &n);
    if (!c) {
        ct__site_macro_free(&m);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for site candidates");
    }
    ang = q->min_spacing_m / world->field.cfg.radius_m;
    qsort(c, n, sizeof *c, ct__cand_by_pre);
    keep = ct__site_spread(c, n, ang, 3 * (size_t)q->count + 16, 0);
    refined = (ct_site *)malloc(sizeof *refined * (keep ? keep : 1));
    if (!refined) {
        free(c);
        ct__site_macro_free(&m);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for site candidates");
    }
    for (i = 0; i < keep; i++) {
        c[i].site = &refined[i];
        ct__site_refine(world, &m, q, near, &c[i]);
    }
    qsort(c, keep, sizeof *c, ct__cand_by_score);
    keep = ct__site_spread(c, keep, ang, q->count, 1);
    for (i = 0; i < keep; i++) out[i] = *c[i].site;
    *count = (uint32_t)keep;
    free(refined);
    free(c);
    ct__site_macro_free(&m);
    return CT_OK;
}
