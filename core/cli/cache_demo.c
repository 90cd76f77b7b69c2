/* cache_demo.c - walks a route across a cube edge through the native
 * threaded chunk cache and reports what a game's frame loop would see.
 *
 *   ./cache_demo out/world.ctw [--slots N] [--steps N] [--lod L]
 *
 * Each step is one "frame": the position's chunk and its 3x3 neighbourhood
 * (ct_key_neighbourhood, which follows the sphere across edges and corners)
 * are requested, centre first. A real game would keep drawing what it has
 * when the centre is not ready; the demo waits for it (the loading-screen use
 * of ct_cache_wait) so the printed heights follow the route. */
#include "ct.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

static int parse_int(const char *text, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: cache_demo WORLD.ctw [--slots N (1..256, default 9)] "
                    "[--steps N (2..1000, default 16)] [--lod L (default surface_lod)]\n");
    return 2;
}

/* Point on the route at t in [0,1]: a straight segment in space between two
 * directions on either side of the +X/+Z cube edge (x == z), normalised. */
static void route_direction(double t, double dir[3])
{
    static const double a[3] = {1.0, 0.05, 0.9}, b[3] = {0.9, 0.05, 1.0};
    double len = 0.0;
    int k;
    for (k = 0; k < 3; k++) { dir[k] = a[k] + (b[k] - a[k]) * t; len += dir[k] * dir[k]; }
    len = sqrt(len);
    for (k = 0; k < 3; k++) dir[k] /= len;
}

static int key_equal(ct_key a, ct_key b)
{
    return a.face == b.face && a.lod == b.lod && a.x == b.x && a.y == b.y;
}

/* Keys this demo asked for that were queued, oldest first (a ring). When the
 * cache answers BUSY every slot is queued or generating, so the way to a free
 * slot is to wait for one of those: waiting on a key the cache does not hold
 * (say a neighbour that was itself refused) returns at once and never frees
 * anything, and the centre chunk would never arrive. */
#define PENDING_MAX 512
typedef struct pending {
    ct_key key[PENDING_MAX];
    int head, count;
} pending;

static void pending_add(pending *p, ct_key key)
{
    p->key[(p->head + p->count) % PENDING_MAX] = key;
    if (p->count < PENDING_MAX) p->count++;
    else p->head = (p->head + 1) % PENDING_MAX;
}

/* Waits until one queued key is ready (or the budget runs out); keys the
 * cache no longer holds are dropped from the ring on the way. */
static void wait_for_a_slot(ct_cache *cache, pending *p, int budget_ms)
{
    double until = now_ms() + budget_ms;
    while (p->count > 0 && now_ms() < until) {
        ct_key k = p->key[p->head];
        double t = now_ms();
        if (ct_cache_wait(cache, k, 100)) return;   /* ready: its slot can be reused */
        /* An immediate "no" means the cache does not hold k: forget it. A
         * timeout means it is still being made: wait on it again. */
        if (now_ms() - t < 50.0) {
            p->head = (p->head + 1) % PENDING_MAX;
            p->count--;
        }
    }
}

/* The run: its settings, the cache, and the totals the summary prints. */
typedef struct demo {
    int slots, steps, lod, last_face, crossings;
    const char *path;
    ct_world *world;
    ct_cache *cache;
    double waited_total;
    long ready_n, queued_n, busy_n;
    pending queued;
} demo;

static int demo_args(demo *d, int argc, char **argv)
{
    int i;
    d->slots = 9;
    d->steps = 16;
    d->lod = -1;
    d->last_face = -1;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--slots") && i + 1 < argc) {
            if (!parse_int(argv[++i], 1, 256, &d->slots)) return usage();
        } else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
            if (!parse_int(argv[++i], 2, 1000, &d->steps)) return usage();
        } else if (!strcmp(argv[i], "--lod") && i + 1 < argc) {
            if (!parse_int(argv[++i], 0, CT_MAX_LOD, &d->lod)) return usage();
        } else if (argv[i][0] == '-' || d->path) {
            return usage();
        } else {
            d->path = argv[i];
        }
    }
    return d->path ? 0 : usage();
}

/* Loads the world and makes the cache; 1 (with a message) on failure. */
static int demo_open(demo *d)
{
    char err[512];
    d->world = ct_world_load(d->path, err, sizeof err);
    if (!d->world) {
        fprintf(stderr, "cache_demo: %s: %s\n", d->path, err);
        return 1;
    }
    if (d->lod < 0) d->lod = (int)ct_world_config(d->world)->surface_lod;
    if ((unsigned)d->lod > ct_world_config(d->world)->surface_lod) {
        fprintf(stderr, "cache_demo: --lod %d is finer than the world's surface_lod %u\n",
                d->lod, (unsigned)ct_world_config(d->world)->surface_lod);
        return 1;
    }
    d->cache = ct_cache_create(d->world, d->slots, err, sizeof err);
    if (!d->cache) {
        fprintf(stderr, "cache_demo: %s\n", err);
        return 1;
    }
    return 0;
}

/* Asks for the neighbourhood, centre (near[0]) first; counts the answers
 * into answers[ready, queued, busy]. */
static void demo_request(demo *d, const ct_key *near, int count, int answers[3])
{
    char err[512];
    int j;
    for (j = 0; j < count; j++) {
        int r = ct_cache_request(d->cache, near[j], err, sizeof err);
        if (r == CT_CACHE_READY) answers[0]++;
        else if (r == CT_CACHE_QUEUED) { answers[1]++; pending_add(&d->queued, near[j]); }
        else if (r == CT_CACHE_BUSY) answers[2]++;
        else fprintf(stderr, "cache_demo: request: %s\n", err);
    }
    d->ready_n += answers[0];
    d->queued_n += answers[1];
    d->busy_n += answers[2];
}

/* Loading-screen behaviour for the centre only: retry while busy, waiting
 * for a queued chunk to free a slot. The chunk comes back pinned, or NULL. */
static const ct_chunk *demo_wait_centre(demo *d, ct_key centre, double *waited)
{
    double t0 = now_ms();
    const ct_chunk *chunk = NULL;
    while (!chunk && now_ms() - t0 < 60000.0) {
        int r = ct_cache_request(d->cache, centre, NULL, 0);
        if (r == CT_CACHE_QUEUED) (void)ct_cache_wait(d->cache, centre, 30000);
        else if (r == CT_CACHE_BUSY) wait_for_a_slot(d->cache, &d->queued, 30000);
        chunk = ct_cache_acquire(d->cache, centre);
    }
    *waited = now_ms() - t0;
    d->waited_total += *waited;
    return chunk;
}

/* One frame of the route; 0 when the route cannot go on. */
static int demo_step(demo *d, int step)
{
    char err[512];
    double dir[3], lx, ly, waited;
    ct_key centre, near[9];
    int count, answers[3] = {0, 0, 0}, j, ix, iy;
    const ct_chunk *chunk;
    route_direction((double)step / (double)(d->steps - 1), dir);
    if (ct_key_at(d->world, dir, d->lod, &centre, &lx, &ly, err, sizeof err) != CT_OK ||
        ct_key_neighbourhood(centre, lx, ly, near, &count, err, sizeof err) != CT_OK) {
        fprintf(stderr, "cache_demo: step %d: %s\n", step, err);
        return 0;
    }
    /* The centre matters most: ask for it first so it gets a slot first. */
    for (j = 0; j < count; j++) {
        if (key_equal(near[j], centre)) {
            ct_key tmp = near[0]; near[0] = near[j]; near[j] = tmp;
            break;
        }
    }
    demo_request(d, near, count, answers);
    chunk = demo_wait_centre(d, centre, &waited);
    if (!chunk) {
        fprintf(stderr, "cache_demo: centre chunk never arrived\n");
        return 0;
    }
    ix = (int)(lx + 0.5); iy = (int)(ly + 0.5);
    if (centre.face != d->last_face) {
        if (d->last_face >= 0) {
            d->crossings++;
            printf("      -- crossed the cube edge from %s to %s --\n",
                   ct_face_name(d->last_face), ct_face_name(centre.face));
        }
        d->last_face = centre.face;
    }
    printf("%4d  %-4s %4u %4u  (%6.1f,%6.1f)   %d/%d/%d          %8.1f  %8.1f\n",
           step, ct_face_name(centre.face), (unsigned)centre.x, (unsigned)centre.y, lx, ly,
           answers[0], answers[1], answers[2], waited,
           ct_height_decode(chunk->height[iy * CT_CHUNK_EDGE + ix], chunk->height_quantum_m));
    ct_cache_release(d->cache, chunk);
    return 1;
}

static void demo_summary(const demo *d, double t_start)
{
    ct_cache_stats st;
    ct_cache_stats_get(d->cache, &st);
    printf("\nneighbourhood answers: %ld ready, %ld queued, %ld busy\n", d->ready_n, d->queued_n, d->busy_n);
    printf("cache: %llu hits, %llu misses, %llu busy, %llu chunks generated\n",
           (unsigned long long)st.hits, (unsigned long long)st.misses,
           (unsigned long long)st.busy, (unsigned long long)st.generated);
    printf("generation: %.1f ms per chunk on average, %.1f ms at most (worker thread)\n",
           st.generated ? st.generate_ms_total / (double)st.generated : 0.0, st.generate_ms_max);
    printf("route: %d edge crossing(s), %.0f ms waiting for centre chunks, %.0f ms in all\n",
           d->crossings, d->waited_total, now_ms() - t_start);
}

int main(int argc, char **argv)
{
    static demo d;
    double t_start;
    int rc = demo_args(&d, argc, argv), step;
    if (rc) return rc;
    if (demo_open(&d)) {
        ct_world_free(d.world);
        return 1;
    }
    printf("world %016llx, LOD %d, %d slots (%.1f MiB of chunks), %d steps across the +X/+Z edge\n",
           (unsigned long long)ct_world_generation(d.world), d.lod, d.slots,
           (double)d.slots * (double)sizeof(ct_chunk) / 1048576.0, d.steps);
    printf("step  face   x    y    local(x,y)     answers(R/Q/B)  wait ms  height m\n");
    t_start = now_ms();
    for (step = 0; step < d.steps; step++)
        if (!demo_step(&d, step)) break;
    demo_summary(&d, t_start);
    ct_cache_destroy(d.cache);
    ct_world_free(d.world);
    return d.crossings > 0 ? 0 : 1;
}
