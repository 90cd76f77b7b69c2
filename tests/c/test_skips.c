/* test_skips.c - the bound-proven skips of the sampler (sample.c: sealed
 * water cells; rivers.c: the river segment memo) change no bit. Every chunk
 * is generated twice, skips off and on (ct__chunk_generate_with), and every
 * record (u16 height, float height bits, water code, biome, palette), the
 * clipped count and the digest must match; the same for point samples
 * (ct_world_sample against ct__sample_dir_with off) and for one sampler
 * walking many directions in small steps and jumps, scalar and four lanes at
 * a time, so the river memo is exercised in orders a chunk never uses.
 * Worlds: five presets x three seeds at surface_lod 6 (LODs 0..6 on every
 * face), two at surface_lod 8 and two at 14 (LODs 7, 8, 11, 14, fine relief
 * on); chunks under river nodes at several LODs. The skips must also fire
 * (sealed groups in sea chunks, river skips in river chunks), or the test
 * would pass without testing anything. */
#include "ct.h"
#include "world/ct_world.h"
#include "surface/ct_surface.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static ct_chunk chunk_off, chunk_on;

/* Chunks compared, by class, and what the skips counted in each class. */
enum { LAND, SEA, SHORE, RIVER, CLASSES };
static int seen[CLASSES];
static uint64_t fired[CLASSES][CT__SKIP_COUNT];
static const char *const class_names[CLASSES] = {"land", "sea", "shore", "river"};

static ct_world *build(const char *preset, unsigned seed, int surface_lod)
{
    ct_config cfg;
    char err[256], text[64];
    ct_world *w;
    ct_config_preset(&cfg, preset, NULL, 0);
    sprintf(text, "seed=%u\nsurface_lod=%d\n", seed, surface_lod);
    if (ct_config_parse(&cfg, text, err, sizeof err) != CT_OK) { CHECK(0, "config: %s", err); return NULL; }
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "world %s seed %u: %s", preset, seed, err);
    return w;
}

/* Generates key with the skips off and on; 1 when every output is equal.
 * river: the caller knows the chunk holds a river node. */
static int compare_chunk(const ct_world *w, ct_key key, int river)
{
    uint64_t counts[CT__SKIP_COUNT];
    size_t k, differ = 0, dry = 0;
    int cls, q;
    memset(counts, 0, sizeof counts);
    if (ct__chunk_generate_with(&w->field, key, &chunk_off, 0, NULL, NULL, 0) != CT_OK ||
        ct__chunk_generate_with(&w->field, key, &chunk_on, 1, counts, NULL, 0) != CT_OK) {
        CHECK(0, "generate face %d lod %d %u,%u", key.face, key.lod, key.x, key.y);
        return 0;
    }
    for (k = 0; k < CT_CHUNK_SAMPLES; k++) {
        if (chunk_off.height[k] != chunk_on.height[k] || chunk_off.water[k] != chunk_on.water[k] ||
            chunk_off.biome[k] != chunk_on.biome[k] || chunk_off.palette[k] != chunk_on.palette[k] ||
            memcmp(&chunk_off.height_m[k], &chunk_on.height_m[k], sizeof(float)) != 0)
            differ++;
        dry += chunk_off.water[k] == CT_NO_WATER_CODE;
    }
    CHECK(differ == 0 && chunk_off.digest == chunk_on.digest && chunk_off.clipped == chunk_on.clipped,
          "face %d lod %d %u,%u: %lu samples differ with the skips on", key.face, key.lod, key.x, key.y,
          (unsigned long)differ);
    cls = river ? RIVER : dry * 20 >= CT_CHUNK_SAMPLES * 19 ? LAND : dry * 20 <= CT_CHUNK_SAMPLES ? SEA : SHORE;
    seen[cls]++;
    for (q = 0; q < CT__SKIP_COUNT; q++) fired[cls][q] += counts[q];
    return differ == 0;
}

/* Keys spread over every face at each LOD from lod_lo to lod_hi. */
static void compare_lods(const ct_world *w, int lod_lo, int lod_hi, int per_lod)
{
    int lod, i;
    for (lod = lod_lo; lod <= lod_hi; lod++) {
        uint32_t side = 1u << lod;
        for (i = 0; i < per_lod; i++) {
            int n = lod * 7 + i;
            ct_key key = ct_key_make(n % 6, lod, (uint32_t)(n * 37 + 11) % side, (uint32_t)(n * 53 + 5) % side);
            compare_chunk(w, key, 0);
        }
    }
}

/* Chunks under the river nodes of largest drainage, at each given LOD. */
static void compare_rivers(const ct_world *w, const int *lods, int nlods, int per_lod)
{
    ct_rivers_info info;
    uint32_t n, v, best = 0;
    double *dir, *area;
    uint8_t *flags;
    int l, taken;
    if (ct_world_rivers_info(w, &info, NULL, 0) != CT_OK || info.node_count == 0) return;
    n = info.node_count;
    dir = malloc(sizeof(double) * 3 * n);
    area = malloc(sizeof(double) * n);
    flags = malloc(n);
    if (!dir || !area || !flags) { CHECK(0, "out of memory"); free(dir); free(area); free(flags); return; }
    ct_world_rivers(w, n, dir, NULL, area, NULL, NULL, NULL, flags, NULL, 0);
    for (taken = 0; taken < per_lod; taken++) {
        double top = -1.0;
        for (v = 0; v < n; v++)
            if (flags[v] == 0 && area[v] > top) { top = area[v]; best = v; }
        if (top < 0.0) break;
        area[best] = -1.0;
        for (l = 0; l < nlods; l++) {
            ct_key key;
            double lx, ly;
            if (ct_key_at(w, dir + 3 * best, lods[l], &key, &lx, &ly, NULL, 0) == CT_OK) compare_chunk(w, key, 1);
        }
    }
    free(dir); free(area); free(flags);
}

static int sample_equal(const ct_sample *a, const ct_sample *b)
{
    return memcmp(&a->height_m, &b->height_m, sizeof(double)) == 0 &&
           memcmp(&a->water_m, &b->water_m, sizeof(double)) == 0 && a->has_water == b->has_water &&
           a->water_body == b->water_body && memcmp(&a->mask, &b->mask, sizeof(double)) == 0 &&
           memcmp(&a->moisture, &b->moisture, sizeof(double)) == 0 && a->biome == b->biome &&
           a->material == b->material && a->palette_index == b->palette_index;
}

static uint32_t rng_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static double rng_unit(uint32_t *s)
{
    return (double)(rng_next(s) >> 8) / 16777216.0 * 2.0 - 1.0;
}

/* Point samples: ct_world_sample (skips on) against skips off at random
 * directions; then one sampler of each kind walking count directions (small
 * steps of about `step` on the unit sphere, with a jump every 200), scalar
 * and four lanes at a time, against fresh skips-off samples. The walk starts
 * at river nodes when the world has rivers, so the river memo is used. */
static void compare_points(const ct_world *w, uint32_t seed, int count, double step)
{
    ct__sampler on1, on4;
    ct_rivers_info info;
    double start[3] = {0.3, 0.5, -0.8}, p[3];
    uint64_t counts[CT__SKIP_COUNT];
    int i, k, bad = 0, bad_walk = 0;
    uint32_t s = seed * 2654435761u + 1u;
    for (i = 0; i < count; i++) {
        double d[3];
        ct_sample a, b;
        d[0] = rng_unit(&s); d[1] = rng_unit(&s); d[2] = rng_unit(&s);
        if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) continue;
        ct_world_sample(w, d, &a, NULL, 0);
        ct__sample_dir_with(&w->field, d, 1, 0, NULL, &b);
        bad += !sample_equal(&a, &b);
    }
    CHECK(bad == 0, "%d of %d point samples differ with the skips on", bad, count);
    if (ct_world_rivers_info(w, &info, NULL, 0) == CT_OK && info.node_count > 0) {
        double *dir = malloc(sizeof(double) * 3 * info.node_count);
        if (dir && ct_world_rivers(w, info.node_count, dir, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0) == CT_OK)
            memcpy(start, dir + 3 * (rng_next(&s) % info.node_count), sizeof start);
        free(dir);
    }
    ct__sampler_init(&on1, &w->field, 1);
    ct__sampler_init(&on4, &w->field, 0);
    memset(counts, 0, sizeof counts);
    on1.skip_counts = on4.skip_counts = counts;
    memcpy(p, start, sizeof p);
    for (i = 0; i < count; i += 4) {
        double d4[12];
        ct_sample a4[4];
        for (k = 0; k < 4; k++) {
            double r = (i % 200 == 0 && k == 0) ? 40.0 * step : step;
            p[0] += r * rng_unit(&s); p[1] += r * rng_unit(&s); p[2] += r * rng_unit(&s);
            memcpy(d4 + 3 * k, p, sizeof p);
        }
        ct__sampler_run4(&on4, d4, 0, a4);
        for (k = 0; k < 4; k++) {
            ct_sample a, b, c;
            ct__sampler_run(&on1, d4 + 3 * k, 1, &a);
            ct__sample_dir_with(&w->field, d4 + 3 * k, 1, 0, NULL, &b);
            ct__sample_dir_with(&w->field, d4 + 3 * k, 0, 0, NULL, &c);
            /* chunks' lanes drop the mask and, on water, the moisture */
            c.mask = a4[k].mask;
            if (c.has_water) c.moisture = a4[k].moisture;
            bad_walk += !sample_equal(&a, &b) + !sample_equal(&a4[k], &c);
        }
    }
    ct__sampler_finish(&on1);
    ct__sampler_finish(&on4);
    ct__sampler_release(&on1);
    ct__sampler_release(&on4);
    CHECK(bad_walk == 0, "%d walk samples differ with the skips on", bad_walk);
    if (info.node_count > 0) fired[RIVER][CT__SKIP_RIVER] += counts[CT__SKIP_RIVER];
}

int main(void)
{
    static const char *const presets[] = {"balanced", "archipelago", "alpine", "dry", "regional"};
    static const unsigned seeds[] = {42u, 7u, 1234u};
    static const int coarse_lods[] = {2, 4, 6};
    size_t p, s;
    int c;
    for (p = 0; p < sizeof presets / sizeof presets[0]; p++)
        for (s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
            ct_world *w = build(presets[p], seeds[s], 6);
            if (!w) continue;
            compare_lods(w, 0, 6, 3);
            compare_rivers(w, coarse_lods, 3, 2);
            compare_points(w, seeds[s], 400, 2e-4);
            ct_world_free(w);
        }
    {
        /* fine relief on, LODs past 6 */
        static const int fine8[] = {7, 8}, fine14[] = {11, 14};
        ct_world *w = build("balanced", 42u, 8);
        if (w) { compare_lods(w, 7, 8, 3); compare_rivers(w, fine8, 2, 2); compare_points(w, 8u, 200, 2e-5); ct_world_free(w); }
        w = build("alpine", 7u, 8);
        if (w) { compare_lods(w, 8, 8, 3); compare_rivers(w, fine8, 2, 1); ct_world_free(w); }
        w = build("balanced", 1234u, 14);
        if (w) { compare_lods(w, 11, 11, 2); compare_lods(w, 14, 14, 3); compare_rivers(w, fine14, 2, 2);
                 compare_points(w, 14u, 200, 2e-6); ct_world_free(w); }
        w = build("archipelago", 42u, 14);
        if (w) { compare_lods(w, 14, 14, 3); compare_rivers(w, fine14 + 1, 1, 1); ct_world_free(w); }
    }
    for (c = 0; c < CLASSES; c++) {
        printf("ok %s: %d chunks, skips", class_names[c], seen[c]);
        for (s = 0; s < CT__SKIP_COUNT; s++) printf(" %llu", (unsigned long long)fired[c][s]);
        printf("\n");
        CHECK(seen[c] > 0, "no %s chunk compared", class_names[c]);
    }
    /* Not vacuous: the sealed skip fired on sea chunks, the river skip on
     * river chunks (and walks). */
    CHECK(fired[SEA][CT__SKIP_SEALED] > 0, "the sealed-water skip never fired on sea chunks");
    CHECK(fired[RIVER][CT__SKIP_RIVER] > 0, "the river skip never fired on river chunks");
    return test_summary("skips");
}
