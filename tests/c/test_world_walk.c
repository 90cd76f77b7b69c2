/* test_world_walk.c - the solve's invariants: an island's inward
 * self-collision makes SUM ridges, increments stay in their ranges, elevated
 * lakes are flat, above sea level and held by their rim, the slope projection
 * leaves no excess and keeps shore pins, and the modes do what they say. */
#include "solve/ct_solve.h"
#include "world/ct_world.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double C_DIR[3] = {0.26726124191242440, 0.53452248382484879, 0.80178372573727319};

static double dot_c(const double d[3])
{
    return d[0] * C_DIR[0] + d[1] * C_DIR[1] + d[2] * C_DIR[2];
}

/* A round island of radius 0.5 rad (cos 0.5 = 0.87758). */
static double island_shape(const double dir[3], void *user)
{
    (void)user;
    return dot_c(dir) - 0.87758256189037276;
}

/* A continent (radius 1.2 rad) holding a ring lake between 0.35 and 0.47 rad
 * from its centre, with an island inside the ring. */
static double ring_lake_shape(const double dir[3], void *user)
{
    double d = dot_c(dir);
    (void)user;
    if (d < 0.36235775447667357) return -1.0;                          /* ocean */
    if (d > 0.89156835 && d < 0.93937271) return -0.5;                 /* the ring */
    return 1.0;
}

static int adjacent(const ct__graph *g, uint32_t a, uint32_t b)
{
    uint32_t k;
    for (k = 0; k < 4; k++) if (g->nbr[4u * a + k] == b) return 1;
    return 0;
}

static int opposing(const double *dir, uint32_t t, uint32_t f1, uint32_t f2)
{
    double a[3], b[3], dot, aa, bb;
    int k;
    for (k = 0; k < 3; k++) {
        a[k] = dir[3u * t + k] - dir[3u * f1 + k];
        b[k] = dir[3u * t + k] - dir[3u * f2 + k];
    }
    dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    aa = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    bb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    return dot < 0.0 && dot * dot > 0.25 * aa * bb;
}

/* Number of connected components of vertices with flag == want. */
static uint32_t components(const ct__graph *g, const uint8_t *flag, uint8_t want)
{
    uint32_t *queue = (uint32_t *)malloc(sizeof *queue * g->V), v, count = 0;
    uint8_t *seen = (uint8_t *)calloc(g->V, 1);
    for (v = 0; v < g->V; v++) {
        uint32_t head = 0, tail = 0;
        if (flag[v] != want || seen[v]) continue;
        count++;
        seen[v] = 1;
        queue[tail++] = v;
        while (head < tail) {
            uint32_t a = queue[head++], k;
            for (k = 0; k < 4; k++) {
                uint32_t b = g->nbr[4u * a + k];
                if (b != CT__NONE && flag[b] == want && !seen[b]) { seen[b] = 1; queue[tail++] = b; }
            }
        }
    }
    free(queue);
    free(seen);
    return count;
}

/* Checks every record of a walk: hops, collision sums and their inputs. */
static void check_walk_records(const ct__walk_params *p, const ct__walk *w, double lo, double hi,
                               const char *what)
{
    uint32_t v, bad_hop = 0, bad_sum = 0, bad_in = 0, bad_sep = 0, no_opp = 0, low_ridge = 0;
    double sep = (double)p->separation * p->g->cell_arc;
    for (v = 0; v < w->V; v++) {
        if (w->state[v] == CT__WALK_HOP) {
            uint32_t u = w->parent[v];
            double inc = w->h[v] - w->h[u];
            if (!adjacent(p->g, u, v) || w->src[v] != w->src[u] || w->depth[v] != w->depth[u] + 1u ||
                !(inc >= lo && inc <= hi))
                bad_hop++;
        } else if (w->state[v] == CT__WALK_COLLISION) {
            uint32_t n = w->contrib_n[v], a, b;
            const ct__contrib *c = w->contrib + w->contrib_off[v];
            double sum = 0.0;
            int opp = 0;
            if (n < 2u) { bad_sum++; continue; }
            for (a = 0; a < n; a++) {
                double inc = c[a].value_m - w->h[c[a].from];
                sum += c[a].value_m;
                if (!adjacent(p->g, c[a].from, v) || w->src[c[a].from] != c[a].src ||
                    w->state[c[a].src] != CT__WALK_SOURCE || !(inc >= lo && inc <= hi))
                    bad_in++;
                if (w->h[v] < w->h[c[a].from]) low_ridge++;
                for (b = a + 1u; b < n; b++) {
                    if (c[a].src == c[b].src ||
                        ct__arc(p->dir_v + 3u * c[a].src, p->dir_v + 3u * c[b].src) < sep)
                        bad_sep++;
                    if (opposing(p->dir_v, v, c[a].from, c[b].from)) opp = 1;
                }
            }
            if (sum != w->h[v]) bad_sum++;
            if (!opp) no_opp++;
        }
    }
    CHECK(bad_hop == 0, "%s: %u hops with a wrong parent, provenance or increment", what, bad_hop);
    CHECK(bad_sum == 0, "%s: %u collisions not the SUM of >= 2 incoming walks", what, bad_sum);
    CHECK(bad_in == 0, "%s: %u collision inputs not one hop from a reached neighbour", what, bad_in);
    CHECK(bad_sep == 0, "%s: %u collision inputs from sources closer than the separation", what, bad_sep);
    CHECK(no_opp == 0, "%s: %u collisions without opposing arrivals", what, no_opp);
    CHECK(low_ridge == 0, "%s: %u collisions lower than a walk feeding them", what, low_ridge);
}

static void test_island_sum_ridge(void)
{
    ct__field w;
    ct__graph g;
    ct__walk walk;
    ct__walk_params p;
    char err[256];
    uint32_t v, nsrc = 0, unreached = 0;
    uint8_t *domain, *delay;
    uint32_t *src;
    double *srch;

    memset(&w, 0, sizeof w);
    CHECK(ct__field_alloc_graph(&w, 32, err, sizeof err) == CT_OK, "graph: %s", err);
    CHECK(ct__graph_build(&w, 6371000.0, &g, err, sizeof err) == CT_OK, "adjacency: %s", err);
    domain = (uint8_t *)calloc(g.V, 1);
    delay = (uint8_t *)calloc(g.V, 1);
    src = (uint32_t *)malloc(sizeof *src * g.V);
    srch = (double *)calloc(g.V, sizeof *srch);
    for (v = 0; v < g.V; v++) domain[v] = island_shape(w.dir_v + 3u * v, NULL) > 0.0;
    /* One land component and one water component: a single coast loop. */
    CHECK(components(&g, domain, 1) == 1 && components(&g, domain, 0) == 1, "the island is one loop");
    for (v = 0; v < g.V; v++) {
        uint32_t k;
        if (!domain[v]) continue;
        for (k = 0; k < 4; k++) {
            uint32_t b = g.nbr[4u * v + k];
            if (b != CT__NONE && !domain[b]) { src[nsrc++] = v; break; }
        }
    }
    memset(&p, 0, sizeof p);
    p.g = &g;
    p.dir_v = w.dir_v;
    p.domain_v = domain;
    p.source = src;
    p.source_h = srch;
    p.source_count = nsrc;
    p.mean = 350.0;
    p.jitter = 350.0;
    p.seed_iid = 11u;
    p.seed_coh = 12u;
    p.separation = 6u;
    p.coherence_frequency = 9.0;
    CHECK(ct__walk_run(&p, &walk, err, sizeof err) == CT_OK, "walk: %s", err);
    CHECK(walk.collisions > 0, "the island's fronts collide with themselves (%u)", walk.collisions);
    for (v = 0; v < g.V; v++) if (domain[v] && walk.state[v] == CT__WALK_UNREACHED) unreached++;
    CHECK(unreached == 0, "%u island vertices never reached", unreached);
    check_walk_records(&p, &walk, 0.0, 700.0, "island IID");
    {
        /* SUM ridge: collisions stand above the average walked vertex. */
        double hs = 0.0, cs = 0.0;
        uint32_t hn = 0, cn = 0;
        for (v = 0; v < g.V; v++) {
            if (walk.state[v] == CT__WALK_HOP) { hs += walk.h[v]; hn++; }
            if (walk.state[v] == CT__WALK_COLLISION) { cs += walk.h[v]; cn++; }
        }
        CHECK(cn && hn && cs / cn > 1.5 * (hs / hn), "collision mean %.0f vs hop mean %.0f", cs / cn, hs / hn);
    }
    ct__walk_free(&walk);

    /* Delays and coherence change the geometry, not the rules. */
    for (v = 0; v < g.V; v++) delay[v] = (uint8_t)(ct__hash32(v) % 4u);
    p.delay_v = delay;
    p.coherence = 0.8;
    CHECK(ct__walk_run(&p, &walk, err, sizeof err) == CT_OK, "walk: %s", err);
    CHECK(walk.collisions > 0, "collisions with delays and coherence (%u)", walk.collisions);
    check_walk_records(&p, &walk, 0.0, 700.0, "island delayed+coherent");
    ct__walk_free(&walk);

    free(domain);
    free(delay);
    free(src);
    free(srch);
    ct__graph_free(&g);
    free(w.vertex_fij);
    free(w.dir_v);
}

static void test_increment_ranges(void)
{
    ct__field w;
    ct__walk_params p;
    char err[256];
    uint32_t v, d, out_land = 0, out_sea = 0, out_coh = 0;
    double lo = 1e9, hi = -1e9;
    memset(&w, 0, sizeof w);
    ct__field_alloc_graph(&w, 16, err, sizeof err);
    memset(&p, 0, sizeof p);
    p.dir_v = w.dir_v;
    p.seed_iid = 5u;
    p.seed_coh = 6u;
    p.coherence_frequency = 9.0;
    for (v = 0; v < w.vertex_count; v++) {
        for (d = 0; d < 8; d++) {
            double x;
            p.coherence = 0.0;
            p.mean = 350.0; p.jitter = 350.0;
            x = ct__walk_increment(&p, v, d);
            if (!(x >= 0.0 && x < 700.0)) out_land++;
            p.mean = -120.0; p.jitter = 160.0;
            x = ct__walk_increment(&p, v, d);
            if (!(x >= -280.0 && x < 40.0)) out_sea++;
            if (x < lo) lo = x;
            if (x > hi) hi = x;
            p.coherence = 1.0;
            p.mean = 350.0; p.jitter = 350.0;
            x = ct__walk_increment(&p, v, d);
            if (!(x >= 0.0 && x <= 700.0)) out_coh++;
        }
    }
    CHECK(out_land == 0, "%u land increments outside [0,700)", out_land);
    CHECK(out_sea == 0, "%u sea increments outside [-280,40)", out_sea);
    CHECK(lo < -250.0 && hi > 10.0, "sea increments span the range: [%.1f, %.1f]", lo, hi);
    CHECK(out_coh == 0, "%u coherent land increments negative or above 2x mean", out_coh);
    free(w.vertex_fij);
    free(w.dir_v);
}

/* The world build runs the same walk: heights equal the traced pass. */
static void test_island_world(void)
{
    ct_config cfg;
    ct__build_trace tr;
    ct_world *w = NULL;
    ct_world_stats s;
    char err[256];
    uint32_t v, diff = 0;
    ct_config_preset(&cfg, "walk", err, sizeof err);
    cfg.macro_resolution = 32;
    cfg.max_macro_slope = 0.0;
    {
        ct_build_options o;
        memset(&o, 0, sizeof o);
        o.shape = island_shape;
        CHECK(ct__world_build_traced(&cfg, &o, &tr, &w, err, sizeof err) == CT_OK, "island world: %s", err);
    }
    if (!w) return;
    ct_world_stats_get(w, &s);
    CHECK(s.collisions > 0 && s.water_bodies == 1 && s.lakes == 0, "collisions %u, bodies %u, lakes %u",
          s.collisions, s.water_bodies, s.lakes);
    for (v = 0; v < w->field.vertex_count; v++)
        if (w->field.body_v[v] < 0 && w->field.height_v[v] != tr.land2.h[v]) diff++;
    CHECK(diff == 0, "%u land heights differ from the walk (walk mode, no slope limit)", diff);
    {
        uint32_t coll = 0;
        for (v = 0; v < w->field.vertex_count; v++) coll += tr.land2.state[v] == CT__WALK_COLLISION;
        CHECK(coll > 0 && coll <= s.collisions, "second-pass collisions %u of %u", coll, s.collisions);
    }
    ct__build_trace_free(&tr);
    ct_world_free(w);
}

/* Lake checks shared by the free and the slope-limited builds. Returns the
 * ring lake's level. */
static double check_ring_lake(const ct_world *w, const ct__build_trace *tr, const char *what)
{
    ct__graph g;
    char err[256];
    uint32_t v, best = CT__NONE, bad_flat = 0, bad_bed = 0, bad_rim = 0, bad_pin = 0;
    int32_t lake;
    double level, min_h1 = 1e300, probe = 0.9155;   /* cos(0.41 rad): inside the ring */
    ct__graph_build(&w->field, w->field.cfg.radius_m, &g, err, sizeof err);
    for (v = 0; v < w->field.vertex_count; v++) {
        double d = dot_c(w->field.dir_v + 3u * v);
        if (w->field.body_v[v] > 0 && (best == CT__NONE || fabs(d - probe) < fabs(dot_c(w->field.dir_v + 3u * best) - probe)))
            best = v;
    }
    CHECK(best != CT__NONE, "%s: the ring is a water body", what);
    if (best == CT__NONE) { ct__graph_free(&g); return 0.0; }
    lake = w->field.body_v[best];
    level = w->field.water_level_v[best];
    for (v = 0; v < w->field.vertex_count; v++) {
        uint32_t k;
        if (w->field.body_v[v] == lake) {
            if (w->field.water_level_v[v] != level) bad_flat++;
            if (!(w->field.height_v[v] < level)) bad_bed++;
            if (tr->h_pass1[v] < min_h1) min_h1 = tr->h_pass1[v];
            continue;
        }
        if (w->field.body_v[v] >= 0) continue;
        for (k = 0; k < 4; k++) {
            uint32_t b = g.nbr[4u * v + k];
            if (b == CT__NONE || w->field.body_v[b] != lake) continue;
            if (w->field.height_v[v] < level) bad_rim++;
            if (w->field.height_v[v] != level) bad_pin++;
        }
    }
    CHECK(level > 0.0, "%s: the lake is elevated (level %.1f m)", what, level);
    CHECK(bad_flat == 0, "%s: %u lake vertices off the flat level", what, bad_flat);
    CHECK(bad_bed == 0, "%s: %u lake beds not below the level", what, bad_bed);
    CHECK(bad_rim == 0, "%s: %u rim vertices below the level", what, bad_rim);
    CHECK(bad_pin == 0, "%s: %u rim pins moved off the level", what, bad_pin);
    CHECK(level <= min_h1, "%s: level %.3f above the first-pass minimum %.3f", what, level, min_h1);
    CHECK(w->stats.max_macro_slope_excess_m < 1e-6, "%s: slope excess %g", what, w->stats.max_macro_slope_excess_m);
    ct__graph_free(&g);
    return level;
}

static void test_elevated_lake(void)
{
    ct_config cfg;
    ct__build_trace tr;
    ct_world *w = NULL;
    ct_build_options o;
    char err[256];
    double free_level, min_h1 = 1e300;
    uint32_t v;
    memset(&o, 0, sizeof o);
    o.shape = ring_lake_shape;
    ct_config_default(&cfg);
    cfg.macro_resolution = 32;
    CHECK(ct__world_build_traced(&cfg, &o, &tr, &w, err, sizeof err) == CT_OK, "ring lake: %s", err);
    if (!w) return;
    CHECK(w->stats.lakes >= 1, "%u lakes", w->stats.lakes);
    free_level = check_ring_lake(w, &tr, "default slope");
    ct__build_trace_free(&tr);
    ct_world_free(w);

    /* A strict slope limit forces the level down below its footprint minimum. */
    cfg.max_macro_slope = 0.0002;
    CHECK(ct__world_build_traced(&cfg, &o, &tr, &w, err, sizeof err) == CT_OK, "strict ring lake: %s", err);
    if (!w) return;
    {
        double level = check_ring_lake(w, &tr, "strict slope");
        for (v = 0; v < w->field.vertex_count; v++)
            if (w->field.body_v[v] > 0 && w->field.water_level_v[v] == level && tr.h_pass1[v] < min_h1) min_h1 = tr.h_pass1[v];
        CHECK(level < min_h1 - 1.0, "strict slope lowered the level: %.1f < %.1f", level, min_h1);
        CHECK(level < free_level, "strict level %.1f below free level %.1f", level, free_level);
    }
    ct__build_trace_free(&tr);
    ct_world_free(w);
}

/* Every preset: no slope excess, pins exactly at their water level, water
 * beds below their surface, noise mode keeps water at sea level. */
static void test_presets_slope_and_pins(void)
{
    size_t i;
    for (i = 0; i < ct_preset_count(); i++) {
        ct_config cfg;
        ct_world *w;
        ct__graph g;
        char err[256];
        const char *name = ct_preset_name(i);
        uint32_t v, bad_pin = 0, bad_bed = 0, bad_level = 0, pins = 0;
        ct_config_preset(&cfg, name, err, sizeof err);
        if (i % 2 == 0) cfg.macro_resolution = 32;
        w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
        CHECK(w != NULL, "%s: %s", name, err);
        if (!w) continue;
        CHECK(w->stats.max_macro_slope_excess_m < 1e-6, "%s: slope excess %g m", name,
              w->stats.max_macro_slope_excess_m);
        ct__graph_build(&w->field, cfg.radius_m, &g, err, sizeof err);
        for (v = 0; v < w->field.vertex_count; v++) {
            uint32_t k;
            double pin = 1e300;
            if (w->field.body_v[v] >= 0) {
                if (!(w->field.height_v[v] < w->field.water_level_v[v])) bad_bed++;
                if (w->field.body_v[v] == 0 && w->field.water_level_v[v] != 0.0) bad_level++;
                if (cfg.mode == CT_MODE_NOISE && w->field.water_level_v[v] != 0.0) bad_level++;
                continue;
            }
            if (w->field.water_level_v[v] != 0.0) bad_level++;
            /* A pin stands at the level of its water: the lowest it touches
             * under the reference rule (all equal there), the highest (a dam)
             * when lakes keep their own levels. */
            for (k = 0; k < 4; k++) {
                uint32_t b = g.nbr[4u * v + k];
                double lv;
                if (b == CT__NONE || w->field.body_v[b] < 0) continue;
                lv = w->field.water_level_v[b];
                if (pin == 1e300 || (cfg.lake_own_levels ? lv > pin : lv < pin)) pin = lv;
            }
            if (pin < 1e300) {
                pins++;
                if (w->field.height_v[v] != pin) bad_pin++;
            }
        }
        CHECK(pins > 0 && bad_pin == 0, "%s: %u of %u shore pins moved", name, bad_pin, pins);
        CHECK(bad_bed == 0, "%s: %u water beds not below the surface", name, bad_bed);
        CHECK(bad_level == 0, "%s: %u wrong water levels", name, bad_level);
        if (cfg.mode == CT_MODE_NOISE)
            CHECK(w->stats.passes == 0 && w->stats.lakes == 0, "noise mode: %u passes, %u lakes",
                  w->stats.passes, w->stats.lakes);
        else
            CHECK(w->stats.passes > 0 && w->stats.accepted_hops > 0, "%s: walks ran", name);
        ct__graph_free(&g);
        ct_world_free(w);
    }
}

/* The projection is a projection: a field that already satisfies the
 * constraints is left alone; an arbitrary one ends with no excess. */
static void test_projection(void)
{
    ct__field w;
    ct__graph g;
    char err[256];
    uint32_t v, moved = 0, pins_moved = 0;
    double *h, *h0, s = 0.001, R = 6371000.0;
    uint8_t *pin;
    memset(&w, 0, sizeof w);
    ct__field_alloc_graph(&w, 16, err, sizeof err);
    ct__graph_build(&w, R, &g, err, sizeof err);
    h = (double *)malloc(sizeof *h * g.V);
    h0 = (double *)malloc(sizeof *h0 * g.V);
    pin = (uint8_t *)calloc(g.V, 1);
    /* Half the limit times the arc from C: Lipschitz with slack on every edge. */
    for (v = 0; v < g.V; v++) {
        h[v] = h0[v] = 0.5 * s * R * ct__arc(w.dir_v + 3u * v, C_DIR);
        pin[v] = (ct__hash32(v) % 17u) == 0u;
    }
    CHECK(ct__slope_project(&g, s, pin, h, err, sizeof err) == CT_OK, "project: %s", err);
    for (v = 0; v < g.V; v++) if (fabs(h[v] - h0[v]) > 1e-9) moved++;
    CHECK(moved == 0, "%u vertices of a feasible field moved", moved);
    /* Rough field, pins at 0: ends feasible, pins kept. */
    for (v = 0; v < g.V; v++) {
        h[v] = pin[v] ? 0.0 : ((double)(ct__hash32(v + 99u) % 20000u) - 10000.0);
    }
    CHECK(ct__slope_excess(&g, s, h) > 1000.0, "the rough field violates the limit");
    ct__slope_project(&g, s, pin, h, err, sizeof err);
    for (v = 0; v < g.V; v++) if (pin[v] && h[v] != 0.0) pins_moved++;
    CHECK(ct__slope_excess(&g, s, h) < 1e-6, "rough field excess %g", ct__slope_excess(&g, s, h));
    CHECK(pins_moved == 0, "%u pins moved", pins_moved);
    /* s = 0 disables the projection entirely. */
    memcpy(h0, h, sizeof *h * g.V);
    h[3] = 1e6;
    h0[3] = 1e6;
    ct__slope_project(&g, 0.0, pin, h, err, sizeof err);
    CHECK(memcmp(h, h0, sizeof *h * g.V) == 0, "s = 0 leaves heights alone");
    free(h);
    free(h0);
    free(pin);
    ct__graph_free(&g);
    free(w.vertex_fij);
    free(w.dir_v);
}

/* Walk mode ignores relief knobs (no hybrid noise); noise mode ignores the
 * walk knobs (no walks). */
static void test_modes(void)
{
    ct_config a, b;
    ct_world *wa, *wb;
    char err[256];
    ct_config_preset(&a, "walk", err, sizeof err);
    a.macro_resolution = 16;
    b = a;
    b.relief_amplitude_m = 3000.0;
    b.ridge_scale = 2.0;
    wa = ct_world_build(&a, NULL, NULL, err, sizeof err);
    wb = ct_world_build(&b, NULL, NULL, err, sizeof err);
    CHECK(wa && wb && memcmp(wa->field.height_v, wb->field.height_v, sizeof(double) * wa->field.vertex_count) == 0,
          "walk mode: relief knobs do not change heights");
    ct_world_free(wa);
    ct_world_free(wb);
    ct_config_preset(&a, "noise", err, sizeof err);
    a.macro_resolution = 16;
    b = a;
    b.land_step_m = 900.0;
    b.walk_coherence = 0.9;
    b.lake_depth_m = 300.0;
    b.front_delay_passes = 5;
    wa = ct_world_build(&a, NULL, NULL, err, sizeof err);
    wb = ct_world_build(&b, NULL, NULL, err, sizeof err);
    if (wa && wb) {
        uint32_t v, water_same = 1;
        for (v = 0; v < wa->field.vertex_count; v++)
            if (wa->field.body_v[v] >= 0 && wa->field.height_v[v] != wb->field.height_v[v]) water_same = 0;
        CHECK(water_same, "noise mode: walk and lake knobs do not change water beds");
    }
    ct_world_free(wa);
    ct_world_free(wb);
    /* Hybrid differs from walk mode by the relief. */
    ct_config_default(&a);
    a.macro_resolution = 16;
    b = a;
    b.mode = CT_MODE_WALK;
    wa = ct_world_build(&a, NULL, NULL, err, sizeof err);
    wb = ct_world_build(&b, NULL, NULL, err, sizeof err);
    CHECK(wa && wb && memcmp(wa->field.height_v, wb->field.height_v, sizeof(double) * wa->field.vertex_count) != 0,
          "hybrid adds relief to the walk");
    ct_world_free(wa);
    ct_world_free(wb);
}

/* The walk's separation test against the arc it stands for, on pairs from
 * far apart to nearly equal, with thresholds just below, at and just above
 * the pair's arc (where a loose bound would flip the answer) and beyond 1. */
static void test_separated_shortcut(void)
{
    uint32_t state = 12345u, i, bad = 0, close = 0;
    for (i = 0; i < 200000u; i++) {
        double a[3], b[3], la = 0.0, lb = 0.0, spread, arc, sep;
        int k;
        state = state * 1664525u + 1013904223u;
        spread = ldexp(1.0, -(int)(state >> 27));   /* 1 down to 2^-31 */
        for (k = 0; k < 3; k++) {
            state = state * 1664525u + 1013904223u;
            a[k] = (double)(state >> 8) / 16777216.0 - 0.5;
            state = state * 1664525u + 1013904223u;
            b[k] = a[k] + spread * ((double)(state >> 8) / 16777216.0 - 0.5);
        }
        for (k = 0; k < 3; k++) { la += a[k] * a[k]; lb += b[k] * b[k]; }
        for (k = 0; k < 3; k++) { a[k] /= sqrt(la); b[k] /= sqrt(lb); }
        arc = ct__arc(a, b);
        state = state * 1664525u + 1013904223u;
        switch (state >> 30) {
        case 0: sep = arc; break;
        case 1: sep = arc * (1.0 + 1e-15); break;
        case 2: sep = arc * (1.0 - 1e-15); break;
        default: sep = (double)(state >> 8) / 8388608.0 * arc; break;   /* 0..2 arcs */
        }
        if (i % 7u == 0u) sep = 0.5 + (double)(state & 1023u) / 1024.0;   /* some thresholds above 1 */
        if ((ct__walk_separated(a, b, sep) != 0) != (arc >= sep)) bad++;
        if (arc < sep) close++;
    }
    CHECK(bad == 0, "%u separation answers differ from ct__arc >= separation", bad);
    CHECK(close > 20000u, "enough pairs below the threshold (%u)", close);
}

int main(void)
{
    test_increment_ranges();
    test_separated_shortcut();
    test_island_sum_ridge();
    test_island_world();
    test_elevated_lake();
    test_presets_slope_and_pins();
    test_projection();
    test_modes();
    return test_summary("world_walk");
}
