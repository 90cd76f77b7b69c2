/* test_drainage.c - the drainage solve (drainage.c) and the river graph API:
 * every land vertex drains to the sea or a lake, flows accumulate, open lakes
 * have one outlet and keep their own levels, the graph survives a snapshot
 * round trip, and the knob's off value leaves no drainage at all. */
#include "test.h"
#include "layers/ct_rivers.h"
#include "base/ct_heap.h"
#include "world/ct_world.h"

#include <stdlib.h>
#include <string.h>

static ct_world *build(const char *preset, uint32_t seed, double min_area_km2)
{
    ct_config cfg;
    char err[256];
    ct_world *w;
    ct_config_preset(&cfg, preset, err, sizeof err);
    cfg.seed = seed;
    if (min_area_km2 >= 0.0) cfg.river_min_area_km2 = min_area_km2;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build %s seed %u: %s", preset, seed, err);
    return w;
}

/* Following down_v from every land vertex ends, within V steps, at a sink:
 * the sea or a closed lake (an open lake passes its water on). */
static void test_every_vertex_drains(const ct_world *w, const char *name)
{
    const ct__drainage *d = &w->field.rivers->dr;
    uint32_t V = w->field.vertex_count, v, stuck = 0, bad_sink = 0, uphill_area = 0, land = 0;
    for (v = 0; v < V; v++) {
        uint32_t x = v, steps = 0;
        if (w->field.body_v[v] >= 0) continue;
        land++;
        while (d->down_v[x] != CT__NONE && steps <= V) {
            if (d->area_m2[d->down_v[x]] < d->area_m2[x]) uphill_area++;
            x = d->down_v[x];
            steps++;
        }
        if (steps > V) stuck++;
        else if (w->field.body_v[x] < 0 || (d->lake_v[x] && !d->closed_v[x])) bad_sink++;
        if (d->sink_v[v] != x) bad_sink++;
    }
    CHECK(land > 0, "%s: no land", name);
    CHECK(stuck == 0, "%s: %u land vertices never reach a sink (a cycle)", name, stuck);
    CHECK(bad_sink == 0, "%s: %u land vertices end outside the sea and closed lakes", name, bad_sink);
    CHECK(uphill_area == 0, "%s: %u steps where the drainage area shrinks downstream", name, uphill_area);
}

/* Every open lake drains through exactly one vertex to land; a closed lake
 * through none. */
static void test_one_outlet_per_lake(const ct_world *w, const char *name)
{
    const ct__drainage *d = &w->field.rivers->dr;
    uint32_t V = w->field.vertex_count, v, bodies = 0, bad = 0, open = 0;
    uint32_t *exits;
    for (v = 0; v < V; v++)
        if (w->field.body_v[v] >= 0 && (uint32_t)w->field.body_v[v] + 1u > bodies) bodies = (uint32_t)w->field.body_v[v] + 1u;
    exits = (uint32_t *)calloc(bodies + 1u, sizeof *exits);
    if (!exits) return;
    for (v = 0; v < V; v++)
        if (d->lake_v[v] && d->down_v[v] != CT__NONE && w->field.body_v[d->down_v[v]] != w->field.body_v[v])
            exits[w->field.body_v[v]]++;
    for (v = 0; v < V; v++) {
        int32_t b = w->field.body_v[v];
        if (!d->lake_v[v] || exits[b] == 0xffffffffu) continue;
        if (d->closed_v[v] ? exits[b] != 0 : exits[b] != 1) bad++;
        if (!d->closed_v[v]) open++;
        exits[b] = 0xffffffffu;   /* each body once */
    }
    CHECK(bad == 0, "%s: %u lakes with a wrong number of outlets", name, bad);
    CHECK(open == d->lakes_open, "%s: %u open lakes counted, %u solved", name, open, d->lakes_open);
    free(exits);
}

/* The rivers are derived: the macro field (heights, levels, bodies) and so
 * every lake level is the same with the layer on and off, and a lake sample
 * still stands at its own level. */
static void test_lakes_keep_levels(uint32_t seed)
{
    ct_world *on = build("balanced", seed, -1.0), *off = build("balanced", seed, 0.0);
    uint32_t V, v, wet_bad = 0, lakes = 0;
    if (!on || !off) goto done;
    V = on->field.vertex_count;
    CHECK(on->field.rivers != NULL && off->field.rivers == NULL, "seed %u: the knob switches the layer", seed);
    CHECK(memcmp(on->field.water_level_v, off->field.water_level_v, sizeof(double) * V) == 0, "seed %u: lake levels moved", seed);
    CHECK(memcmp(on->field.height_v, off->field.height_v, sizeof(double) * V) == 0, "seed %u: macro heights moved", seed);
    CHECK(memcmp(on->field.body_v, off->field.body_v, sizeof(int32_t) * V) == 0, "seed %u: water bodies moved", seed);
    for (v = 0; v < V; v++) {
        ct_sample s;
        if (!on->field.rivers->dr.lake_v[v]) continue;
        lakes++;
        CHECK(ct_world_sample(on, on->field.dir_v + 3u * (size_t)v, &s, NULL, 0) == CT_OK, "sample");
        if (!s.has_water || s.water_body != on->field.body_v[v] || s.water_m != on->field.water_level_v[v]) wet_bad++;
    }
    CHECK(lakes > 0, "seed %u: no lakes", seed);
    CHECK(wet_bad == 0, "seed %u: %u lake vertices not at their lake's level", seed, wet_bad);
    CHECK(on->field.rivers->dr.lakes_open > 0, "seed %u: no lake has an outlet", seed);
done:
    ct_world_free(on);
    ct_world_free(off);
}

/* The API's arrays, and the same after a snapshot round trip (derived at
 * load, never stored). */
static void test_api_and_snapshot(const ct_world *w)
{
    ct_rivers_info info, info2;
    ct_world *back = NULL;
    uint32_t n, i, mouths = 0, outlets = 0, bad_down = 0, bad_level = 0;
    size_t size = ct_world_snapshot_size(w);
    uint8_t *buf = (uint8_t *)malloc(size);
    double *dir, *area, *width, *len, *surf, *dir2, *area2;
    int32_t *down;
    uint8_t *flags;
    char err[256];
    CHECK(ct_world_rivers_info(w, &info, NULL, 0) == CT_OK, "info");
    n = info.node_count;
    CHECK(n > 100, "only %u river nodes", n);
    CHECK(info.land_to_sea_m2 > 0.8 * info.land_area_m2, "only %.2f of the land drains to the sea",
          info.land_to_sea_m2 / info.land_area_m2);
    dir = (double *)malloc(sizeof(double) * 3u * n);
    dir2 = (double *)malloc(sizeof(double) * 3u * n);
    area = (double *)malloc(sizeof(double) * n);
    area2 = (double *)malloc(sizeof(double) * n);
    width = (double *)malloc(sizeof(double) * n);
    len = (double *)malloc(sizeof(double) * n);
    surf = (double *)malloc(sizeof(double) * n);
    down = (int32_t *)malloc(sizeof(int32_t) * n);
    flags = (uint8_t *)malloc(n);
    if (!buf || !dir || !dir2 || !area || !area2 || !width || !len || !surf || !down || !flags) goto done;
    CHECK(ct_world_rivers(w, n - 1u, dir, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0) == CT_ERR_BUFFER,
          "a short buffer is refused");
    CHECK(ct_world_rivers(w, n, dir, down, area, width, len, surf, flags, err, sizeof err) == CT_OK, "rivers: %s", err);
    for (i = 0; i < n; i++) {
        if (down[i] < 0) {
            mouths++;
            if (!(flags[i] & (CT_RIVER_MOUTH_SEA | CT_RIVER_MOUTH_LAKE))) bad_down++;
            continue;
        }
        if ((uint32_t)down[i] >= n || area[down[i]] < area[i]) bad_down++;
        if (surf[down[i]] > surf[i]) bad_level++;
        if (flags[i] & CT_RIVER_LAKE_OUTLET) outlets++;
        if (!(width[i] > 0.0) || !(len[i] > 0.0)) bad_down++;
    }
    CHECK(mouths > 0 && bad_down == 0, "%u mouths, %u bad downstream links", mouths, bad_down);
    CHECK(bad_level == 0, "%u nodes whose downstream node's surface is higher", bad_level);
    CHECK(outlets > 0, "no lake outlets");
    CHECK(ct_world_snapshot_write(w, buf, size, err, sizeof err) == CT_OK, "write: %s", err);
    CHECK(ct_world_snapshot_read(buf, size, &back, err, sizeof err) == CT_OK, "read: %s", err);
    if (!back) goto done;
    CHECK(ct_world_rivers_info(back, &info2, NULL, 0) == CT_OK && memcmp(&info, &info2, sizeof info) == 0,
          "loaded world has the same river graph summary");
    CHECK(ct_world_rivers(back, n, dir2, NULL, area2, NULL, NULL, NULL, NULL, NULL, 0) == CT_OK, "rivers (loaded)");
    CHECK(memcmp(dir, dir2, sizeof(double) * 3u * n) == 0 && memcmp(area, area2, sizeof(double) * n) == 0,
          "loaded world has the same river nodes");
done:
    ct_world_free(back);
    free(buf);
    free(dir);
    free(dir2);
    free(area);
    free(area2);
    free(width);
    free(len);
    free(surf);
    free(down);
    free(flags);
}

/* river_closed_moisture closes lakes: at 1 every lake whose precipitation
 * proxy is not saturated is endorheic, and its rivers end in it. */
static void test_closed_lakes(void)
{
    ct_world *a = build("balanced", 42u, -1.0), *b;
    ct_config cfg;
    char err[256];
    ct_config_preset(&cfg, "balanced", err, sizeof err);
    cfg.river_closed_moisture = 1.0;
    b = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(a && b && a->field.rivers && b->field.rivers, "builds: %s", err);
    if (a && b && a->field.rivers && b->field.rivers) {
        CHECK(b->field.rivers->dr.lakes_closed > a->field.rivers->dr.lakes_closed, "closed lakes %u -> %u",
              a->field.rivers->dr.lakes_closed, b->field.rivers->dr.lakes_closed);
        CHECK(b->field.rivers->land_to_sea_m2 < a->field.rivers->land_to_sea_m2, "less land drains to the sea");
        test_every_vertex_drains(b, "balanced, lakes closed");
        test_one_outlet_per_lake(b, "balanced, lakes closed");
    }
    ct_world_free(a);
    ct_world_free(b);
}

static void test_off(void)
{
    ct_world *w = build("reference", 42u, -1.0);
    ct_rivers_info info;
    if (!w) return;
    CHECK(w->field.rivers == NULL, "the reference preset solves no drainage");
    CHECK(ct_world_rivers_info(w, &info, NULL, 0) == CT_OK && info.node_count == 0, "no river nodes");
    CHECK(ct_world_rivers(w, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0) == CT_OK, "empty graph");
    CHECK(ct_world_rivers(NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0) == CT_ERR_NULL, "NULL world");
    CHECK(ct_world_rivers_info(w, NULL, NULL, 0) == CT_ERR_NULL, "NULL out");
    ct_world_free(w);
}

/* The flood against a plain priority flood that queues every sink: the same
 * fill heights, the same directions off the lakes, and each open lake's
 * outlet at its first vertex in that flood's order. */
static void test_flood_matches_full_queue(const ct_world *w, const char *name)
{
    const ct__drainage *d = &w->field.rivers->dr;
    uint32_t V = w->field.vertex_count, v, k, count = 0, bad_fill = 0, bad_down = 0, outlets = 0;
    uint32_t *order = (uint32_t *)malloc(sizeof *order * V), *rank = (uint32_t *)malloc(sizeof *rank * V);
    uint8_t *sink = (uint8_t *)malloc(V), *seen = (uint8_t *)calloc(V, 1);
    double *fill = (double *)malloc(sizeof *fill * V), key;
    ct__graph g;
    ct__heap hp = {0};
    char err[256];
    CHECK(ct__graph_build(&w->field, w->field.cfg.radius_m, &g, err, sizeof err) == CT_OK, "%s: graph: %s", name, err);
    CHECK(ct__heap_init(&hp, V) == CT_OK && order && rank && sink && seen && fill, "%s: memory", name);
    for (v = 0; v < V; v++) {
        fill[v] = w->field.body_v[v] >= 0 ? w->field.water_level_v[v] : w->field.height_v[v];
        sink[v] = (uint8_t)(w->field.body_v[v] >= 0 && !(d->lake_v[v] && !d->closed_v[v]));
        if (sink[v]) ct__heap_push(&hp, v, fill[v]);
    }
    while ((v = ct__heap_pop(&hp, &key)) != CT__NONE) {
        fill[v] = key;
        order[count++] = v;
        for (k = 0; k < 4u; k++) {
            uint32_t u = g.nbr[4u * (size_t)v + k];
            double h;
            if (u == CT__NONE || hp.done[u]) continue;
            h = w->field.body_v[u] >= 0 ? w->field.water_level_v[u] : w->field.height_v[u];
            ct__heap_push(&hp, u, h > key ? h : key);
        }
    }
    CHECK(count == V, "%s: reference flood reached %u of %u", name, count, V);
    for (v = 0; v < count; v++) rank[order[v]] = v;
    for (v = 0; v < V; v++)
        if (memcmp(&fill[v], &d->fill_v[v], sizeof fill[v]) != 0) bad_fill++;
    for (v = 0; v < count; v++) {
        uint32_t x = order[v], best = CT__NONE;
        double best_s = 0.0;
        int lake = d->lake_v[x] && !d->closed_v[x];
        if (sink[x] || v == 0 || (lake && seen[w->field.body_v[x]])) continue;
        if (lake) {
            seen[w->field.body_v[x]] = 1;   /* first vertex of its lake: the outlet */
            outlets++;
        }
        for (k = 0; k < 4u; k++) {
            uint32_t u = g.nbr[4u * (size_t)x + k];
            double sl;
            if (u == CT__NONE || rank[u] >= v) continue;
            sl = (fill[x] - fill[u]) / g.len_m[4u * (size_t)x + k];
            if (best == CT__NONE || sl > best_s || (sl == best_s && u < best)) {
                best = u;
                best_s = sl;
            }
        }
        if (best != d->down_v[x]) bad_down++;
    }
    CHECK(bad_fill == 0, "%s: %u fill heights differ from the full-queue flood", name, bad_fill);
    CHECK(bad_down == 0, "%s: %u directions differ from the full-queue flood", name, bad_down);
    CHECK(outlets == d->lakes_open, "%s: %u outlets checked, %u open lakes", name, outlets, d->lakes_open);
    ct__heap_free(&hp);
    ct__graph_free(&g);
    free(order);
    free(rank);
    free(sink);
    free(seen);
    free(fill);
}

int main(void)
{
    static const char *const presets[] = {"balanced", "balanced", "balanced", "dry", "archipelago", "alpine"};
    static const uint32_t seeds[] = {42u, 7u, 1234u, 42u, 42u, 42u};
    size_t k;
    for (k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        char name[64];
        ct_world *w = build(presets[k], seeds[k], -1.0);
        if (!w) continue;
        snprintf(name, sizeof name, "%s seed %u", presets[k], seeds[k]);
        CHECK(w->field.rivers != NULL, "%s: rivers on by default", name);
        if (w->field.rivers) {
            test_every_vertex_drains(w, name);
            test_one_outlet_per_lake(w, name);
            test_flood_matches_full_queue(w, name);
            if (k == 0) test_api_and_snapshot(w);
        }
        ct_world_free(w);
    }
    test_lakes_keep_levels(42u);
    test_lakes_keep_levels(1234u);
    test_closed_lakes();
    test_off();
    return test_summary("drainage");
}
