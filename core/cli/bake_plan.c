/* bake_plan.c - which tiles a bake writes and which shard writes each.
 *
 * A shard's share is balanced by estimated cost, not count: a tile's cost
 * comes from five macro samples (its centre and corners) and sea tiles are
 * cheaper than land (bench/bake_cost.c measures the ratio). Tiles are taken
 * by descending cost, ties in (lod, face, y, x) order, each to the shard
 * with the least cost so far (ties to the lowest index): the same options
 * and world give every shard the same assignment, whatever machine runs it.
 * Planning only decides who writes a tile, never its bytes. */
#include "bake.h"
#include "grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

/* Relative costs per tile: bench/bake_cost.c measures land and shore tiles
 * of the page world at about 3 (LOD 12) to 7 (LOD 8) times a sea tile (docs/bake.md). */
#define BAKE_COST_SEA 1u
#define BAKE_COST_LAND 4u

int bake_list_push(bake_list *l, const bake_tile *t)
{
    bake_tile *nt = (bake_tile *)cli_grow(l->tiles, l->count, &l->cap, sizeof *nt, 1024u);
    if (!nt) return 1;
    l->tiles = nt;
    l->tiles[l->count++] = *t;
    return 0;
}

void bake_list_free(bake_list *l)
{
    free(l->tiles);
    memset(l, 0, sizeof *l);
}

/* (lod, face, y, x): the index order. */
int bake_tile_order(const void *pa, const void *pb)
{
    const ct_key *a = &((const bake_tile *)pa)->key, *b = &((const bake_tile *)pb)->key;
    if (a->lod != b->lod) return a->lod < b->lod ? -1 : 1;
    if (a->face != b->face) return a->face < b->face ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    return 0;
}

static uint32_t tile_cost(const ct_world *w, ct_key key)
{
    static const double at[5][2] = {{128, 128}, {0, 0}, {256, 0}, {0, 256}, {256, 256}};
    uint32_t land = 0;
    int k;
    for (k = 0; k < 5; k++) {
        double d[3];
        ct_sample s;
        if (ct_key_direction(key, at[k][0], at[k][1], d, NULL, 0) == CT_OK &&
            ct_world_sample(w, d, &s, NULL, 0) == CT_OK && !s.has_water)
            land++;
    }
    return 5u * BAKE_COST_SEA + land * (BAKE_COST_LAND - BAKE_COST_SEA);
}

static double angle_between(const double a[3], const double b[3])
{
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    return acos(d > 1 ? 1 : d < -1 ? -1 : d);
}

/* The chunk's bounding cone: centre direction and the angle to its farthest
 * corner (the patch's edges are great-circle arcs, so a corner is farthest). */
static void chunk_cone(ct_key key, double c[3], double *r)
{
    static const double corner[4][2] = {{0, 0}, {256, 0}, {0, 256}, {256, 256}};
    int k;
    *r = 0;
    ct_key_direction(key, 128, 128, c, NULL, 0);
    for (k = 0; k < 4; k++) {
        double p[3], a;
        ct_key_direction(key, corner[k][0], corner[k][1], p, NULL, 0);
        a = angle_between(c, p);
        if (a > *r) *r = a;
    }
}

typedef struct plan_walk {
    const ct_world *w;
    const bake_opts *o;
    double dir[3], cap;        /* unit cap centre, cap angle (radians) */
    bake_list *out;
    int failed;
} plan_walk;

static void add_tile(plan_walk *pw, ct_key key)
{
    bake_tile t;
    memset(&t, 0, sizeof t);
    t.key = key;
    t.cost = tile_cost(pw->w, key);
    if (bake_list_push(pw->out, &t)) pw->failed = 1;
}

/* Region descent: a child's cone lies within 3r of its parent's centre, so
 * a parent farther than that from the cap has no child touching it. */
static void walk_region(plan_walk *pw, ct_key key)
{
    double c[3], r, a;
    uint32_t i;
    chunk_cone(key, c, &r);
    a = angle_between(pw->dir, c);
    if (a > pw->cap + 3.0 * r + 1e-12 || pw->failed) return;
    if (key.lod >= pw->o->lod_lo && a <= pw->cap + r + 1e-12) add_tile(pw, key);
    if (key.lod >= pw->o->lod_hi) return;
    for (i = 0; i < 4; i++)
        walk_region(pw, ct_key_make(key.face, key.lod + 1, 2 * key.x + (i & 1), 2 * key.y + (i >> 1)));
}

int bake_plan_all(const ct_world *w, const bake_opts *o, bake_list *out, char *err, size_t errlen)
{
    plan_walk pw;
    int face, lod;
    memset(&pw, 0, sizeof pw);
    pw.w = w;
    pw.o = o;
    pw.out = out;
    if (o->has_region) {
        double n = sqrt(o->region_dir[0] * o->region_dir[0] + o->region_dir[1] * o->region_dir[1] +
                        o->region_dir[2] * o->region_dir[2]);
        int k;
        for (k = 0; k < 3; k++) pw.dir[k] = o->region_dir[k] / n;
        pw.cap = o->region_m / ct_world_config(w)->radius_m;
    }
    for (face = 0; face < 6 && !pw.failed; face++) {
        if (!(o->faces & (1u << face))) continue;
        if (o->has_region) { walk_region(&pw, ct_key_make(face, 0, 0, 0)); continue; }
        for (lod = o->lod_lo; lod <= o->lod_hi && !pw.failed; lod++) {
            uint32_t n = 1u << lod, x, y;
            for (y = 0; y < n && !pw.failed; y++)
                for (x = 0; x < n && !pw.failed; x++) add_tile(&pw, ct_key_make(face, lod, x, y));
        }
    }
    if (pw.failed) { snprintf(err, errlen, "out of memory planning %lu tiles", (unsigned long)out->count); return 1; }
    if (out->count) qsort(out->tiles, out->count, sizeof *out->tiles, bake_tile_order);
    return 0;
}

static int by_cost(const void *pa, const void *pb)
{
    const bake_tile *a = (const bake_tile *)pa, *b = (const bake_tile *)pb;
    if (a->cost != b->cost) return a->cost > b->cost ? -1 : 1;
    return bake_tile_order(pa, pb);
}

/* A binary min-heap of shards by (load, index). */
typedef struct shard_load { uint64_t load; int index; } shard_load;

static int lighter(const shard_load *a, const shard_load *b)
{
    return a->load < b->load || (a->load == b->load && a->index < b->index);
}

static void sift_down(shard_load *h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        shard_load t;
        if (l < n && lighter(&h[l], &h[m])) m = l;
        if (r < n && lighter(&h[r], &h[m])) m = r;
        if (m == i) return;
        t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

int bake_plan_shard(const bake_list *all, int shard, int shards, bake_list *out, char *err, size_t errlen)
{
    bake_tile *sorted = (bake_tile *)malloc((all->count ? all->count : 1) * sizeof *sorted);
    shard_load *heap = (shard_load *)malloc((size_t)shards * sizeof *heap);
    size_t k;
    int i;
    if (!sorted || !heap) {
        free(sorted);
        free(heap);
        snprintf(err, errlen, "out of memory assigning shards");
        return 1;
    }
    if (all->count) memcpy(sorted, all->tiles, all->count * sizeof *sorted);
    qsort(sorted, all->count, sizeof *sorted, by_cost);
    for (i = 0; i < shards; i++) { heap[i].load = 0; heap[i].index = i; }
    for (k = 0; k < all->count; k++) {
        if (heap[0].index == shard && bake_list_push(out, &sorted[k])) {
            snprintf(err, errlen, "out of memory assigning shards");
            free(sorted);
            free(heap);
            return 1;
        }
        heap[0].load += sorted[k].cost;
        sift_down(heap, shards, 0);
    }
    free(sorted);
    free(heap);
    if (out->count) qsort(out->tiles, out->count, sizeof *out->tiles, bake_tile_order);
    return 0;
}
