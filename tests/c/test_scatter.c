/* test_scatter.c - scatter (ct_chunk_scatter): the golden digests, stability
 * across LODs (the same instances from every key covering them, exactly
 * those whose level the key reaches), borders (every instance inside the
 * chunk that owns it, no duplicates, children's union = parent's set),
 * none in water or on too steep ground, feet on the exact ground, spacing,
 * the bound and bad input. */
#include "ct.h"
#include "test.h"
#include "scatter_digest.h"
#include "scatter_golden_read.h"

#include <math.h>
#include <stdlib.h>

static ct_world *world;
static sd_buffers parent_buf, child_buf;
static ct_chunk chunk;

/* ------------------------------------------------------------- golden */
static void check_golden_line(const char *line, void *user)
{
    int face, lod;
    unsigned x, y, count;
    char hex[32], got[32], err[256];
    ct_scatter s = sd_out(&child_buf);
    ct_key key;
    const ct_chunk *c = NULL;
    (void)user;
    if (sscanf(line, "scatter %d %d %u %u count %u digest %31s", &face, &lod, &x, &y, &count, hex) != 6) {
        CHECK(0, "bad golden line %s", line);
        return;
    }
    key = ct_key_make(face, lod, x, y);
    if (lod == 12) {
        CHECK(ct_chunk_generate(world, key, &chunk, err, sizeof err) == CT_OK, "chunk: %s", err);
        c = &chunk;
    }
    CHECK(ct_chunk_scatter(world, c, key, &s, err, sizeof err) == CT_OK, "scatter: %s", err);
    snprintf(got, sizeof got, "%016llx", (unsigned long long)sd_scatter(&s));
    CHECK(s.count == count && strcmp(got, hex) == 0, "scatter %d/%d/%u/%u: %u instances digest %s, golden %u %s",
          face, lod, x, y, s.count, got, count, hex);
}

/* ------------------------------------------------------ across LODs */
/* The absolute foot of instance i. */
static void foot(const ct_scatter *s, uint32_t i, double p[3])
{
    int k;
    for (k = 0; k < 3; k++) p[k] = s->center_m[k] + (double)s->positions[3 * i + k];
}

/* The parent (LOD 11, point queries) against its four LOD 12 children
 * (each from its chunk): every parent instance is exactly one child
 * instance of level >= 1, bit for bit in height, yaw and scale, within float
 * rounding in position; every child instance of level >= 1 is in the parent. */
static void test_lod_stable(void)
{
    ct_key parent = ct_key_make(2, 11, 1612, 689);
    ct_scatter p = sd_out(&parent_buf);
    char err[256];
    uint32_t matched = 0, coarse_children = 0, i, j;
    int q, fine = 0;
    CHECK(ct_chunk_scatter(world, NULL, parent, &p, err, sizeof err) == CT_OK, "parent: %s", err);
    CHECK(p.count > 500, "the parent holds trees (%u): enough for the comparison to mean something", p.count);
    for (i = 0; i < p.count; i++)
        if (ct_scatter_kind_get(p.kind[i])->level < 1) fine = 1;
    CHECK(!fine, "a LOD 11 key returns only kinds of level >= 1");
    for (q = 0; q < 4; q++) {
        ct_key ck = ct_key_make(2, 12, 2 * parent.x + (q & 1), 2 * parent.y + (q >> 1));
        ct_scatter c = sd_out(&child_buf);
        CHECK(ct_chunk_generate(world, ck, &chunk, err, sizeof err) == CT_OK, "chunk: %s", err);
        CHECK(ct_chunk_scatter(world, &chunk, ck, &c, err, sizeof err) == CT_OK, "child: %s", err);
        for (i = 0; i < c.count; i++) {
            int found = 0;
            if (ct_scatter_kind_get(c.kind[i])->level < 1) continue;
            coarse_children++;
            for (j = 0; j < p.count && !found; j++) {
                double a[3], b[3];
                if (p.id[j] != c.id[i]) continue;
                found = 1;
                foot(&p, j, a);
                foot(&c, i, b);
                CHECK(p.kind[j] == c.kind[i] && p.height_m[j] == c.height_m[i] && p.yaw[j] == c.yaw[i] &&
                          p.scale[j] == c.scale[i] && fabs(a[0] - b[0]) + fabs(a[1] - b[1]) + fabs(a[2] - b[2]) < 0.05,
                      "instance %016llx differs between LOD 11 and LOD 12", (unsigned long long)c.id[i]);
            }
            CHECK(found, "child instance %016llx (level >= 1) missing from the parent", (unsigned long long)c.id[i]);
            matched += (uint32_t)found;
        }
    }
    CHECK(matched == p.count && coarse_children == p.count,
          "the children's level >= 1 instances (%u, %u matched) are exactly the parent's %u", coarse_children,
          matched, p.count);
}

/* ---------------------------------------------- per-instance properties */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Every instance: owned by key (ct_key_at of its foot at key.lod), dry,
 * within its kind's slope, on the ground; ids unique; spacing kept. */
static void check_instances(ct_key key, const ct_scatter *s)
{
    static uint64_t ids[CT_SCATTER_MAX];
    uint32_t i, j, bad_owner = 0, bad_ground = 0, bad_space = 0, dup = 0;
    for (i = 0; i < s->count; i++) {
        const ct_scatter_kind *k = ct_scatter_kind_get(s->kind[i]);
        double p[3], lx, ly;
        ct_key at;
        ct_ground g;
        foot(s, i, p);
        if (ct_key_at(world, p, key.lod, &at, &lx, &ly, NULL, 0) != CT_OK || at.face != key.face ||
            at.x != key.x || at.y != key.y)
            bad_owner++;
        if (ct_world_ground(world, p, &g, NULL, 0) != CT_OK || g.has_water ||
            fabs(g.height_m - (double)s->height_m[i]) > 0.01 || g.slope_deg > k->max_slope_deg + 0.01 ||
            g.height_m < k->min_height_m - 0.01 || g.height_m > k->max_height_m + 0.01)
            bad_ground++;
        ids[i] = s->id[i];
    }
    for (i = 0; i < s->count; i++) {
        for (j = i + 1; j < s->count; j++) {
            double d2 = 0.0, need = 0.5 * (ct_scatter_kind_get(s->kind[i])->spacing_m +
                                           ct_scatter_kind_get(s->kind[j])->spacing_m);
            int k;
            for (k = 0; k < 3; k++) {
                double e = (double)s->positions[3 * i + k] - (double)s->positions[3 * j + k];
                d2 += e * e;
            }
            if (d2 < 0.98 * need * need) bad_space++;
        }
    }
    qsort(ids, s->count, sizeof ids[0], cmp_u64);
    for (i = 1; i < s->count; i++) dup += ids[i] == ids[i - 1];
    CHECK(bad_owner == 0, "%u of %u instances lie outside their chunk", bad_owner, s->count);
    CHECK(bad_ground == 0, "%u of %u instances in water, too steep or off the ground", bad_ground, s->count);
    CHECK(bad_space == 0, "%u pairs closer than their spacing", bad_space);
    CHECK(dup == 0, "%u duplicate ids", dup);
    CHECK(s->count <= 16384, "at most one instance per level-d cell: %u", s->count);
}

static void test_instances(void)
{
    /* Two neighbouring forest chunks, and two chunks on the -Y edge of +X
     * that rivers cross (their water is found from the river nodes). */
    static const ct_key keys[] = { { 2, 12, 3224, 1378 }, { 2, 12, 3225, 1378 }, { 0, 12, 192, 0 },
                                   { 0, 12, 2880, 0 } };
    char err[256];
    size_t i;
    uint32_t j;
    int reeds = 0, wet_chunks = 0;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        ct_scatter s = sd_out(&child_buf);
        CHECK(ct_chunk_generate(world, keys[i], &chunk, err, sizeof err) == CT_OK, "chunk: %s", err);
        CHECK(ct_chunk_scatter(world, &chunk, keys[i], &s, err, sizeof err) == CT_OK, "scatter: %s", err);
        CHECK(s.count > 100, "a land chunk holds instances (%u)", s.count);
        check_instances(keys[i], &s);
        for (j = 0; j < s.count; j++) reeds += s.kind[j] == CT_SCATTER_REED;
        for (j = 0; j < CT_CHUNK_SAMPLES; j++)
            if (chunk.water[j] != CT_NO_WATER_CODE) break;
        wet_chunks += j < CT_CHUNK_SAMPLES;
    }
    CHECK(wet_chunks == 2 && reeds > 0, "the river chunks have water (%d) and reeds by it (%d)", wet_chunks, reeds);
}

/* ------------------------------------------------------------ bad input */
static void test_errors(void)
{
    ct_scatter s = sd_out(&child_buf), small;
    ct_key key = ct_key_make(2, 12, 3224, 1378);
    char err[256];
    CHECK(ct_chunk_scatter(NULL, NULL, key, &s, err, sizeof err) == CT_ERR_NULL, "NULL world");
    CHECK(ct_chunk_scatter(world, NULL, key, NULL, err, sizeof err) == CT_ERR_NULL, "NULL output");
    CHECK(ct_chunk_scatter(world, NULL, ct_key_make(2, 13, 0, 0), &s, err, sizeof err) == CT_ERR_LOD,
          "LOD past surface_lod: %s", err);
    CHECK(ct_chunk_scatter(world, NULL, ct_key_make(2, 3, 8, 0), &s, err, sizeof err) == CT_ERR_CHUNK_XY,
          "x out of range");
    CHECK(ct_chunk_scatter(world, NULL, ct_key_make(9, 3, 0, 0), &s, err, sizeof err) == CT_ERR_FACE, "bad face");
    CHECK(ct_chunk_generate(world, key, &chunk, err, sizeof err) == CT_OK, "chunk");
    CHECK(ct_chunk_scatter(world, &chunk, ct_key_make(2, 12, 3225, 1378), &s, err, sizeof err) == CT_ERR_MESH,
          "a chunk of another key: %s", err);
    small = sd_out(&child_buf);
    small.capacity = 10;
    CHECK(ct_chunk_scatter(world, &chunk, key, &small, err, sizeof err) == CT_ERR_BUFFER && small.count > 10,
          "short capacity: CT_ERR_BUFFER with the count needed (%u)", small.count);
    CHECK(ct_chunk_scatter(world, &chunk, key, &s, err, sizeof err) == CT_OK && s.count == small.count,
          "a failed call leaves nothing behind: the next one works (%u)", s.count);
}

/* The catalogue: every kind sane, names unique, the levels in range. */
static void test_catalogue(void)
{
    size_t i, j;
    CHECK(ct_scatter_kind_count() == CT_SCATTER_KIND_COUNT && ct_scatter_kind_get(CT_SCATTER_KIND_COUNT) == NULL,
          "the catalogue has %d kinds", CT_SCATTER_KIND_COUNT);
    for (i = 0; i < ct_scatter_kind_count(); i++) {
        const ct_scatter_kind *k = ct_scatter_kind_get(i);
        CHECK(k->level >= 0 && k->level < CT_SCATTER_LEVELS && k->min_size_m <= k->max_size_m &&
                  k->min_height_m <= k->max_height_m && k->density_km2[CT_BIOME_WATER] == 0.0,
              "kind %s is consistent", k->name);
        for (j = 0; j < i; j++) CHECK(strcmp(k->name, ct_scatter_kind_get(j)->name) != 0, "unique names");
    }
}

int main(void)
{
    world = sg_world();
    if (!world) return test_summary("scatter");
    test_catalogue();
    sg_lines("scatter ", check_golden_line, NULL);
    test_lod_stable();
    test_instances();
    test_errors();
    ct_world_free(world);
    return test_summary("scatter");
}
