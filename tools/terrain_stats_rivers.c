/* terrain_stats_rivers.c - river network figures of a world, from the public
 * river graph (ct_world_rivers), against Earth's published ones:
 *   - Hack's exponent h of L ~ A^h (L the main stream length above a node,
 *     A its drainage area), least squares over every node with A at least
 *     ten times the smallest; Earth 0.5-0.6 (Hack 1957; Rigon et al. 1996);
 *   - the Horton bifurcation ratio from Strahler orders, exp(-slope) of
 *     log N_k over k, N_k the number of streams (runs of one order, not
 *     segments) of order k; Earth 3-5 (Horton 1945, Strahler 1957). Twice:
 *     pooled over every basin, and over the basins whose mouth has the
 *     highest order only, as Horton's law is stated for one basin (the many
 *     small coastal basins add first-order streams with no higher orders
 *     to match, which inflates the pooled ratio);
 *   - drainage density, river length per land area (km per km2): at our
 *     threshold only the trunk rivers, so far below Earth's 0.5-2 of all
 *     channels;
 *   - sinuosity of the ten largest rivers: curve length of the main stem
 *     over the great-circle distance from its source to its mouth;
 *   - the share of land draining to the sea (Earth about 0.8);
 *   - mouths that end neither in the sea nor in a lake (should be 0).
 * libm is fine here: the tool measures, it does not generate. */
#include "terrain_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ts_nodes {
    uint32_t n;
    double *dir, *area, *len;
    int32_t *down;
    uint8_t *flags;
    uint32_t *order;       /* node indices by increasing area: upstream first */
    uint32_t *main_up;     /* largest upstream node, or UINT32_MAX */
} ts_nodes;

static const ts_nodes *ts__sort_nodes;
static int ts__by_area(const void *a, const void *b)
{
    double x = ts__sort_nodes->area[*(const uint32_t *)a], y = ts__sort_nodes->area[*(const uint32_t *)b];
    if (x != y) return x < y ? -1 : 1;
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static double ts__arc(const double *a, const double *b)
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    return acos(d > 1.0 ? 1.0 : d);
}

/* Least squares slope of y over x. */
static double ts__slope(const double *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int i;
    for (i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    return n > 1 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : NAN;
}

/* Horton's bifurcation ratio: exp(-slope) of log N_k over the orders k with
 * streams (least squares). */
static double ts__horton(const uint32_t *streams, int max_order)
{
    double x[64], y[64];
    int m = 0, o;
    for (o = 1; o <= max_order && o < 64; o++)
        if (streams[o]) {
            x[m] = o;
            y[m] = log((double)streams[o]);
            m++;
        }
    return m > 1 ? exp(-ts__slope(x, y, m)) : NAN;
}

static void ts__free(ts_nodes *t)
{
    free(t->dir);
    free(t->area);
    free(t->len);
    free(t->down);
    free(t->flags);
    free(t->order);
    free(t->main_up);
}

/* Mean sinuosity of the ten largest rivers (mouths by area): main stem
 * curve length over the great-circle distance from source to mouth. Marks
 * the mouths it took in flags bit 7. */
static double ts__sinuosity(ts_nodes *t, double radius_m)
{
    double sum = 0.0;
    int rivers = 0, r;
    uint32_t i;
    for (r = 0; r < 10; r++) {
        uint32_t best = UINT32_MAX, v;
        double curve = 0.0;
        for (i = 0; i < t->n; i++)
            if (t->down[i] < 0 && !(t->flags[i] & 0x80u) && (best == UINT32_MAX || t->area[i] > t->area[best]))
                best = i;
        if (best == UINT32_MAX) break;
        t->flags[best] |= 0x80u;
        for (v = best; t->main_up[v] != UINT32_MAX; v = t->main_up[v]) curve += t->len[t->main_up[v]];
        if (v == best) continue;
        sum += curve / (ts__arc(t->dir + 3 * (size_t)v, t->dir + 3 * (size_t)best) * radius_m);
        rivers++;
    }
    return rivers ? sum / rivers : NAN;
}

int ts_rivers_run(const ct_world *w, ts_river_result *out)
{
    ts_nodes t;
    ct_rivers_info info;
    uint32_t i, streams[64], top_streams[64];
    int *strahler = NULL, *top_n = NULL, max_order = 0, fit_n = 0;
    double *lmain = NULL, *lx = NULL, *ly = NULL, amin = HUGE_VAL, total_len = 0.0;
    const ct_config *cfg = ct_world_config(w);
    memset(out, 0, sizeof *out);
    memset(&t, 0, sizeof t);
    memset(streams, 0, sizeof streams);
    memset(top_streams, 0, sizeof top_streams);
    out->hack = out->bifurcation = out->bifurcation_top = out->sinuosity = NAN;
    if (ct_world_rivers_info(w, &info, NULL, 0) != CT_OK) return 0;
    out->nodes = t.n = info.node_count;
    out->lakes_open = info.lakes_open;
    out->lakes_closed = info.lakes_closed;
    out->sea_share = info.land_area_m2 > 0.0 ? info.land_to_sea_m2 / info.land_area_m2 : NAN;
    if (!t.n) return 1;
    t.dir = malloc(sizeof(double) * 3 * t.n);
    t.area = malloc(sizeof(double) * t.n);
    t.len = malloc(sizeof(double) * t.n);
    t.down = malloc(sizeof(int32_t) * t.n);
    t.flags = malloc(t.n);
    t.order = malloc(sizeof(uint32_t) * t.n);
    t.main_up = malloc(sizeof(uint32_t) * t.n);
    strahler = calloc(t.n, sizeof *strahler);
    top_n = calloc(t.n, sizeof *top_n);
    lmain = calloc(t.n, sizeof *lmain);
    lx = malloc(sizeof(double) * t.n);
    ly = malloc(sizeof(double) * t.n);
    if (!t.dir || !t.area || !t.len || !t.down || !t.flags || !t.order || !t.main_up || !strahler || !top_n || !lmain ||
        !lx || !ly ||
        ct_world_rivers(w, t.n, t.dir, t.down, t.area, NULL, t.len, NULL, t.flags, NULL, 0) != CT_OK) {
        ts__free(&t);
        free(strahler);
        free(top_n);
        free(lmain);
        free(lx);
        free(ly);
        return 0;
    }
    for (i = 0; i < t.n; i++) {
        t.order[i] = i;
        t.main_up[i] = UINT32_MAX;
        if (t.area[i] < amin) amin = t.area[i];
        total_len += t.len[i];
        if (t.down[i] < 0 && !(t.flags[i] & (CT_RIVER_MOUTH_SEA | CT_RIVER_MOUTH_LAKE))) out->lost_mouths++;
    }
    ts__sort_nodes = &t;
    qsort(t.order, t.n, sizeof *t.order, ts__by_area);
    for (i = 0; i < t.n; i++) {
        uint32_t v = t.order[i];
        int32_t d = t.down[v];
        if (d >= 0 && (t.main_up[d] == UINT32_MAX || t.area[v] > t.area[t.main_up[d]])) t.main_up[d] = v;
    }
    /* Strahler orders and main stream lengths, upstream first (areas grow
     * strictly downstream, so increasing area is a topological order). */
    /* strahler[] holds the highest upstream order until a node is reached,
     * and top_n how many upstream nodes have it: the order is that highest
     * one, plus one where two or more share it (Strahler 1957). */
    for (i = 0; i < t.n; i++) {
        uint32_t v = t.order[i];
        strahler[v] = strahler[v] ? strahler[v] + (top_n[v] >= 2) : 1;
        lmain[v] = t.main_up[v] == UINT32_MAX ? sqrt(t.area[v]) : lmain[t.main_up[v]] + t.len[t.main_up[v]];
        if (t.down[v] >= 0) {
            int32_t d = t.down[v];
            if (strahler[v] > strahler[d]) {
                strahler[d] = strahler[v];
                top_n[d] = 1;
            } else if (strahler[v] == strahler[d]) {
                top_n[d]++;
            }
        }
    }
    /* A stream of order k starts where no upstream node has order k
     * (lmain is done: its sign bit marks "continued" here, then is cleared). */
    for (i = 0; i < t.n; i++)
        if (t.down[i] >= 0 && strahler[i] == strahler[t.down[i]]) lmain[t.down[i]] = -fabs(lmain[t.down[i]]);
    for (i = 0; i < t.n; i++)
        if (strahler[i] > max_order) max_order = strahler[i];
    /* The basin (mouth node) of every node, downstream first; top_n is free
     * again and holds it. */
    for (i = t.n; i-- > 0;) {
        uint32_t v = t.order[i];
        top_n[v] = t.down[v] < 0 ? (int)v : top_n[t.down[v]];
    }
    for (i = 0; i < t.n; i++) {
        if (!(lmain[i] < 0.0) && strahler[i] < 64) {
            streams[strahler[i]]++;
            if (strahler[top_n[i]] == max_order) top_streams[strahler[i]]++;
        }
        lmain[i] = fabs(lmain[i]);
    }
    out->bifurcation = ts__horton(streams, max_order);
    out->bifurcation_top = ts__horton(top_streams, max_order);
    out->max_order = max_order;
    for (i = 0; i < t.n; i++)
        if (t.area[i] >= 10.0 * amin) {
            lx[fit_n] = log(t.area[i]);
            ly[fit_n] = log(lmain[i]);
            fit_n++;
        }
    out->hack = ts__slope(lx, ly, fit_n);
    out->hack_nodes = fit_n;
    out->river_km = total_len / 1000.0;
    out->density_per_km = info.land_area_m2 > 0.0 ? (total_len / 1000.0) / (info.land_area_m2 / 1e6) : NAN;
    out->sinuosity = ts__sinuosity(&t, cfg->radius_m);
    ts__free(&t);
    free(strahler);
    free(top_n);
    free(lmain);
    free(lx);
    free(ly);
    return 1;
}
