/* test_cache.c - the native threaded chunk cache under capacity pressure.
 *
 * What must hold: busy answers when every slot is pinned or queued; a pinned
 * chunk is never evicted and its bytes never change; eviction takes the least
 * recently used unpinned slot; cached chunks are byte-identical to direct
 * ct_chunk_generate output whatever the request order or client thread;
 * destroy works with work still queued; nothing leaks (LeakSanitizer in
 * `make sanitize` checks the create/destroy cycles). Run it under `make
 * thread-sanitize` too: the worker and two client threads share the world. */
#include "ct.h"
#include "native/ct_cache_hold.h"
#include "test.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define WAIT_MS 120000   /* generous: sanitizer builds are slow */
#define TEST_LOD 3

static ct_world *make_world(void)
{
    ct_config cfg;
    char err[256] = "";
    ct_world *w;
    ct_config_default(&cfg);
    /* A small, quick world: the cache is under test, not the terrain. */
    if (ct_config_parse(&cfg, "macro_resolution=16\nsurface_lod=3\ndetail_octaves=2\nseed=11\n",
                        err, sizeof err) != CT_OK) {
        fprintf(stderr, "config: %s\n", err);
        return NULL;
    }
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    if (!w) fprintf(stderr, "build: %s\n", err);
    return w;
}

static ct_key key_of(int face, unsigned x, unsigned y)
{
    ct_key k;
    k.face = face; k.lod = TEST_LOD; k.x = x; k.y = y;
    return k;
}

static int key_equal(ct_key a, ct_key b)
{
    return a.face == b.face && a.lod == b.lod && a.x == b.x && a.y == b.y;
}

/* Every field a consumer reads (struct padding is not compared). */
static int chunk_same(const ct_chunk *a, const ct_chunk *b)
{
    return key_equal(a->key, b->key) && a->planet_id == b->planet_id &&
           a->generation == b->generation && a->digest == b->digest &&
           a->clipped == b->clipped && a->height_quantum_m == b->height_quantum_m &&
           memcmp(a->height, b->height, sizeof a->height) == 0 &&
           memcmp(a->water, b->water, sizeof a->water) == 0 &&
           memcmp(a->biome, b->biome, sizeof a->biome) == 0 &&
           memcmp(a->palette, b->palette, sizeof a->palette) == 0;
}

/* Keys spread over faces, including chunks on cube edges and corners. */
#define NKEYS 12
static ct_key g_keys[NKEYS];
static ct_chunk *g_ref;   /* [NKEYS] direct generation */

static int make_refs(const ct_world *w)
{
    static const int spec[NKEYS][3] = {
        {0, 0, 0}, {0, 7, 7}, {1, 3, 4}, {2, 0, 7}, {2, 4, 4}, {3, 7, 0},
        {4, 1, 2}, {4, 7, 3}, {5, 0, 0}, {5, 6, 5}, {1, 7, 0}, {3, 2, 6}
    };
    int i;
    char err[256];
    g_ref = (ct_chunk *)malloc(NKEYS * sizeof *g_ref);
    if (!g_ref) return 0;
    for (i = 0; i < NKEYS; i++) {
        g_keys[i] = key_of(spec[i][0], (unsigned)spec[i][1], (unsigned)spec[i][2]);
        if (ct_chunk_generate(w, g_keys[i], &g_ref[i], err, sizeof err) != CT_OK) {
            fprintf(stderr, "direct generation failed: %s\n", err);
            return 0;
        }
    }
    /* The digests must tell the keys apart, or comparing them proves little. */
    for (i = 1; i < NKEYS; i++)
        CHECK(g_ref[i].digest != g_ref[0].digest, "keys 0 and %d share a digest", i);
    return 1;
}

static void test_arguments(const ct_world *w)
{
    char err[256];
    ct_cache *c;
    ct_key k = key_of(0, 0, 0);
    int r;
    ct_chunk foreign;

    err[0] = 0;
    CHECK(ct_cache_create(NULL, 4, err, sizeof err) == NULL && err[0], "NULL world accepted");
    err[0] = 0;
    CHECK(ct_cache_create(w, 0, err, sizeof err) == NULL && err[0], "0 slots accepted");
    CHECK(ct_cache_create(w, -3, NULL, 0) == NULL, "negative slots accepted");
    CHECK(ct_cache_create(w, 1 << 20, NULL, 0) == NULL, "a million slots accepted");
    r = ct_cache_request(NULL, k, err, sizeof err);
    CHECK(r == -1 - (int)CT_ERR_NULL, "NULL cache: %d", r);

    c = ct_cache_create(w, 2, err, sizeof err);
    CHECK(c != NULL, "create: %s", err);
    if (!c) return;

    k = key_of(6, 0, 0); err[0] = 0;
    r = ct_cache_request(c, k, err, sizeof err);
    CHECK(r < -1 && -1 - r == (int)CT_ERR_FACE && err[0], "face 6: %d '%s'", r, err);
    k = key_of(-1, 0, 0);
    r = ct_cache_request(c, k, NULL, 0);
    CHECK(r < -1 && -1 - r == (int)CT_ERR_FACE, "face -1: %d", r);
    k = key_of(0, 0, 0); k.lod = TEST_LOD + 1; err[0] = 0;
    r = ct_cache_request(c, k, err, sizeof err);
    CHECK(r < -1 && -1 - r == (int)CT_ERR_LOD && err[0], "lod above surface_lod: %d '%s'", r, err);
    k = key_of(0, 8, 0); err[0] = 0;
    r = ct_cache_request(c, k, err, sizeof err);
    CHECK(r < -1 && -1 - r == (int)CT_ERR_CHUNK_XY && err[0], "x = 2^lod: %d '%s'", r, err);
    k = key_of(0, 0, 0); k.lod = -1;
    r = ct_cache_request(c, k, NULL, 0);
    CHECK(r < -1 && -1 - r == (int)CT_ERR_LOD, "lod -1: %d", r);

    /* Nothing was requested: no chunk, no blocking, foreign pointers ignored. */
    CHECK(ct_cache_acquire(c, key_of(0, 0, 0)) == NULL, "acquire of an unrequested key");
    CHECK(ct_cache_wait(c, key_of(0, 0, 0), 60000) == 0, "wait on an unrequested key");
    ct_cache_release(c, NULL);
    ct_cache_release(c, &foreign);
    CHECK(ct_cache_acquire(NULL, key_of(0, 0, 0)) == NULL, "acquire on NULL cache");
    {
        ct_cache_stats st;
        ct_cache_stats_get(c, &st);
        CHECK(st.hits + st.misses + st.busy == 0, "invalid requests were counted");
        ct_cache_stats_get(NULL, &st);
        CHECK(st.generated == 0 && st.hits == 0, "NULL cache stats not zeroed");
    }
    ct_cache_destroy(c);
    ct_cache_destroy(NULL);
}

/* Three slots, keys K0..K5 (indices into g_keys). */
static void test_pressure(const ct_world *w)
{
    char err[256];
    ct_cache *c = ct_cache_create(w, 3, err, sizeof err);
    const ct_chunk *pa, *pb, *pc, *pa2;
    ct_chunk *copy_a, *copy_b;
    ct_cache_stats st;
    uint64_t valid = 0;
    int r;
#define REQ(i) (valid++, ct_cache_request(c, g_keys[i], err, sizeof err))

    CHECK(c != NULL, "create: %s", err);
    copy_a = (ct_chunk *)malloc(sizeof *copy_a);
    copy_b = (ct_chunk *)malloc(sizeof *copy_b);
    if (!c || !copy_a || !copy_b) { free(copy_a); free(copy_b); ct_cache_destroy(c); return; }

    CHECK(REQ(0) == CT_CACHE_QUEUED, "first request is not queued");
    CHECK(REQ(1) == CT_CACHE_QUEUED, "second request is not queued");
    CHECK(REQ(2) == CT_CACHE_QUEUED, "third request is not queued");
    r = REQ(1);
    CHECK(r == CT_CACHE_QUEUED || r == CT_CACHE_READY, "repeat of an in-flight key: %d", r);

    CHECK(ct_cache_wait(c, g_keys[0], WAIT_MS) == 1, "K0 never became ready");
    CHECK(ct_cache_wait(c, g_keys[1], WAIT_MS) == 1, "K1 never became ready");
    CHECK(ct_cache_wait(c, g_keys[2], WAIT_MS) == 1, "K2 never became ready");
    CHECK(REQ(0) == CT_CACHE_READY, "ready chunk not a hit");

    pa = ct_cache_acquire(c, g_keys[0]);
    pb = ct_cache_acquire(c, g_keys[1]);
    pc = ct_cache_acquire(c, g_keys[2]);
    CHECK(pa && pb && pc && pa != pb && pb != pc && pa != pc, "acquire of ready chunks");
    if (!pa || !pb || !pc) goto out;
    CHECK(chunk_same(pa, &g_ref[0]) && chunk_same(pb, &g_ref[1]) && chunk_same(pc, &g_ref[2]),
          "cached chunks differ from direct generation");
    memcpy(copy_a, pa, sizeof *copy_a);
    memcpy(copy_b, pb, sizeof *copy_b);

    /* All pinned: busy, and repeatedly so. */
    CHECK(REQ(3) == CT_CACHE_BUSY, "all slots pinned but not busy");
    CHECK(REQ(4) == CT_CACHE_BUSY, "all slots pinned but not busy (2)");

    /* Unpin K2: the next new key takes exactly that slot. */
    ct_cache_release(c, pc);
    CHECK(REQ(3) == CT_CACHE_QUEUED, "an unpinned slot exists but request failed");
    CHECK(ct_cache_acquire(c, g_keys[2]) == NULL, "evicted K2 still acquirable");
    CHECK(ct_cache_wait(c, g_keys[3], WAIT_MS) == 1, "K3 never became ready");

    /* K0, K1 pinned, K3 ready: K4 must evict K3. */
    CHECK(REQ(4) == CT_CACHE_QUEUED, "K4 could not evict K3");
    CHECK(ct_cache_wait(c, g_keys[4], WAIT_MS) == 1, "K4 never became ready");
    CHECK(ct_cache_acquire(c, g_keys[3]) == NULL, "K3 was not the one evicted");

    /* A second pin needs a second release. */
    pa2 = ct_cache_acquire(c, g_keys[0]);
    CHECK(pa2 == pa, "second acquire of K0 moved it");
    ct_cache_release(c, pa2);
    /* K0 still pinned once. Unpin K1: unpinned slots are K1 (used before K4
     * completed) and K4, so least recently used means K1 goes. */
    ct_cache_release(c, pb);
    CHECK(REQ(5) == CT_CACHE_QUEUED, "K5 found no slot");
    CHECK(ct_cache_acquire(c, g_keys[1]) == NULL, "K1 (least recently used) not evicted");
    CHECK(ct_cache_wait(c, g_keys[5], WAIT_MS) == 1, "K5 never became ready");
    pc = ct_cache_acquire(c, g_keys[4]);
    CHECK(pc != NULL, "K4 (more recent) was evicted instead of K1");
    ct_cache_release(c, pc);

    /* Through all of that, the pinned K0 never moved or changed. */
    CHECK(ct_cache_acquire(c, g_keys[0]) == pa, "pinned K0 moved");
    ct_cache_release(c, pa);
    CHECK(chunk_same(pa, copy_a) && chunk_same(pa, &g_ref[0]), "pinned K0 bytes changed");
    CHECK(chunk_same(copy_b, &g_ref[1]), "K1 copy differs from direct generation");
    ct_cache_release(c, pa);

    ct_cache_stats_get(c, &st);
    CHECK(st.hits + st.misses + st.busy == valid, "stats do not add up: %llu+%llu+%llu != %llu",
          (unsigned long long)st.hits, (unsigned long long)st.misses,
          (unsigned long long)st.busy, (unsigned long long)valid);
    CHECK(st.busy == 2, "busy answers: %llu", (unsigned long long)st.busy);
    CHECK(st.generated == 6, "generated: %llu", (unsigned long long)st.generated);
    CHECK(st.generate_ms_total > 0.0 && st.generate_ms_max <= st.generate_ms_total,
          "generation times %g %g", st.generate_ms_total, st.generate_ms_max);
out:
    free(copy_a);
    free(copy_b);
    ct_cache_destroy(c);
#undef REQ
}

/* Every slot queued or generating: a new key has nowhere to go, and queued
 * work is never thrown away to make room. The worker is held, so the two
 * queued slots are still queued when the third key comes, on any machine. */
static void test_busy_when_queued(const ct_world *w)
{
    ct_cache *c = ct_cache_create(w, 2, NULL, 0);
    ct_cache_stats st;
    int r0, r1, r2;
    CHECK(c != NULL, "create");
    if (!c) return;
    ct__cache_hold(c, 1);
    r0 = ct_cache_request(c, g_keys[6], NULL, 0);
    r1 = ct_cache_request(c, g_keys[9], NULL, 0);
    r2 = ct_cache_request(c, g_keys[10], NULL, 0);
    ct_cache_stats_get(c, &st);
    CHECK(r0 == CT_CACHE_QUEUED && r1 == CT_CACHE_QUEUED, "fresh keys not queued: %d %d", r0, r1);
    CHECK(r2 == CT_CACHE_BUSY, "third key with two slots queued: %d", r2);
    CHECK(st.busy == 1 && st.misses == 2 && st.generated == 0, "busy/miss/generated %llu/%llu/%llu",
          (unsigned long long)st.busy, (unsigned long long)st.misses, (unsigned long long)st.generated);
    /* Released, the worker builds both queued keys: nothing was dropped. */
    ct__cache_hold(c, 0);
    CHECK(ct_cache_wait(c, g_keys[6], 60000) == 1 && ct_cache_wait(c, g_keys[9], 60000) == 1,
          "queued keys built after the hold");
    CHECK(ct_cache_request(c, g_keys[10], NULL, 0) == CT_CACHE_QUEUED, "a ready slot is reused for a new key");
    ct_cache_destroy(c);
}

/* Collects every key through a cache too small to hold them, in one order. */
static void collect_in_order(const ct_world *w, const int *order, int n, int slots, const char *name)
{
    char err[256];
    int done[NKEYS] = {0}, left = n, pass, i, same = 0;
    ct_cache *c = ct_cache_create(w, slots, err, sizeof err);
    CHECK(c != NULL, "create: %s", err);
    if (!c) return;
    /* Fire every request first (some answer busy), then sweep until all came. */
    for (i = 0; i < n; i++) (void)ct_cache_request(c, g_keys[order[i]], NULL, 0);
    for (pass = 0; left > 0 && pass < 4 * n; pass++) {
        for (i = 0; i < n; i++) {
            int k = order[i], r;
            const ct_chunk *ch;
            if (done[k]) continue;
            r = ct_cache_request(c, g_keys[k], err, sizeof err);
            if (r == CT_CACHE_QUEUED) (void)ct_cache_wait(c, g_keys[k], WAIT_MS);
            if (r == CT_CACHE_BUSY) continue;
            ch = ct_cache_acquire(c, g_keys[k]);
            if (!ch) continue;
            same += chunk_same(ch, &g_ref[k]);
            ct_cache_release(c, ch);
            done[k] = 1;
            left--;
        }
    }
    CHECK(left == 0, "%s: %d keys never arrived", name, left);
    CHECK(same == n, "%s: %d of %d cached chunks identical to direct generation", name, same, n);
    ct_cache_destroy(c);
}

static void test_orders(const ct_world *w)
{
    static const int fwd[6] = {0, 1, 2, 3, 4, 5};
    static const int rev[6] = {5, 4, 3, 2, 1, 0};
    static const int mix[6] = {3, 0, 5, 1, 4, 2};
    collect_in_order(w, fwd, 6, 3, "forward");
    collect_in_order(w, rev, 6, 2, "reverse");
    collect_in_order(w, mix, 6, 1, "shuffled, one slot");
}

/* A client thread, like a game's loader: a window of three keys that moves
 * on every 100 operations (both clients share the windows, in different
 * orders), requested every operation; ready chunks are acquired, checked
 * against direct generation and held (up to two pins) until the next one
 * arrives. When nothing is ready it waits a little, as a loading screen
 * would, so slow sanitizer builds still make progress. */
typedef struct client {
    ct_cache *cache;
    int rot;
    int ops;
    int checked, wrong, bad_answers;
    uint64_t valid;
} client;

static void *client_run(void *arg)
{
    client *cl = (client *)arg;
    const ct_chunk *held[2] = {NULL, NULL};
    int op, turn = 0;
    for (op = 0; op < cl->ops; op++) {
        int window = op / 100, j, got = 0, first = -1;
        for (j = 0; j < 3; j++) {
            int k = (3 * window + (j + cl->rot) % 3) % NKEYS, r;
            r = ct_cache_request(cl->cache, g_keys[k], NULL, 0);
            cl->valid++;
            if (r == CT_CACHE_READY) {
                const ct_chunk *ch = ct_cache_acquire(cl->cache, g_keys[k]);
                if (!ch) continue;   /* evicted in between: fine, ask again */
                got = 1;
                cl->checked++;
                if (!key_equal(ch->key, g_keys[k]) || ch->digest != g_ref[k].digest ||
                    ch->height[(op * 7919) % CT_CHUNK_SAMPLES] != g_ref[k].height[(op * 7919) % CT_CHUNK_SAMPLES])
                    cl->wrong++;
                if (held[turn]) ct_cache_release(cl->cache, held[turn]);
                held[turn] = ch;
                turn ^= 1;
            } else if (r == CT_CACHE_QUEUED) {
                if (first < 0) first = k;
            } else if (r != CT_CACHE_BUSY) {
                cl->bad_answers++;
            }
        }
        if (!got && first >= 0) (void)ct_cache_wait(cl->cache, g_keys[first], 200);
    }
    if (held[0]) ct_cache_release(cl->cache, held[0]);
    if (held[1]) ct_cache_release(cl->cache, held[1]);
    return NULL;
}

static void test_many_requests(const ct_world *w, int threads)
{
    char err[256];
    client cl[2];
    pthread_t th[2];
    int i, started[2] = {0, 0};
    ct_cache_stats st;
    uint64_t valid = 0;
    ct_cache *c = ct_cache_create(w, 4, err, sizeof err);
    CHECK(c != NULL, "create: %s", err);
    if (!c) return;
    for (i = 0; i < threads; i++) {
        memset(&cl[i], 0, sizeof cl[i]);
        cl[i].cache = c;
        cl[i].rot = i;
        cl[i].ops = 400;
        started[i] = pthread_create(&th[i], NULL, client_run, &cl[i]) == 0;
        CHECK(started[i], "thread %d did not start", i);
    }
    for (i = 0; i < threads; i++) {
        if (!started[i]) continue;
        pthread_join(th[i], NULL);
        CHECK(cl[i].wrong == 0, "client %d: %d of %d chunks wrong", i, cl[i].wrong, cl[i].checked);
        CHECK(cl[i].bad_answers == 0, "client %d: %d answers outside {1,0,busy}", i, cl[i].bad_answers);
        CHECK(cl[i].checked > 0, "client %d never got a chunk", i);
        valid += cl[i].valid;
    }
    ct_cache_stats_get(c, &st);
    CHECK(st.hits + st.misses + st.busy == valid, "%d threads: stats do not add up", threads);
    /* No pin may have leaked: four keys outside the working set must all find
     * a slot (a leaked pin would leave one of them busy for ever). */
    {
        ct_key fresh[4];
        int ok = 0;
        fresh[0] = key_of(0, 3, 3); fresh[1] = key_of(1, 1, 1);
        fresh[2] = key_of(2, 6, 1); fresh[3] = key_of(3, 5, 5);
        for (i = 0; i < 4; i++) {
            int r = ct_cache_request(c, fresh[i], NULL, 0), tries;
            /* Busy is fine while earlier jobs still occupy slots: wait them out. */
            for (tries = 0; r == CT_CACHE_BUSY && tries < 400; tries++) {
                int j;
                for (j = 0; j < i; j++) (void)ct_cache_wait(c, fresh[j], 100);
                for (j = 0; j < NKEYS; j++) (void)ct_cache_wait(c, g_keys[j], 100);
                r = ct_cache_request(c, fresh[i], NULL, 0);
            }
            ok += r >= 0;
        }
        for (i = 0; i < 4; i++)
            CHECK(ct_cache_wait(c, fresh[i], WAIT_MS) == 1, "fresh key %d not ready", i);
        CHECK(ok == 4, "%d threads: only %d of 4 fresh keys found a slot (leaked pin?)", threads, ok);
    }
    ct_cache_destroy(c);
}

static void test_destroy_while_queued(const ct_world *w)
{
    int cycle, queued = 0;
    for (cycle = 0; cycle < 6; cycle++) {
        ct_cache *c = ct_cache_create(w, 4, NULL, 0);
        int i;
        CHECK(c != NULL, "create in cycle %d", cycle);
        if (!c) return;
        for (i = 0; i < 4; i++) queued += ct_cache_request(c, g_keys[(cycle + i) % NKEYS], NULL, 0) == 0;
        ct_cache_destroy(c);   /* must not wait for all four, must not leak */
    }
    CHECK(queued == 24, "only %d of 24 requests queued", queued);
    {
        ct_cache *c = ct_cache_create(w, 1, NULL, 0);   /* idle destroy */
        CHECK(c != NULL, "create(1)");
        ct_cache_destroy(c);
    }
}

int main(void)
{
    ct_world *w = make_world();
    CHECK(w != NULL, "world build");
    if (!w) return test_summary("cache");
    if (make_refs(w)) {
        test_arguments(w);
        test_busy_when_queued(w);
        test_pressure(w);
        test_orders(w);
        test_many_requests(w, 2);
        test_destroy_while_queued(w);
    } else {
        CHECK(0, "reference chunks could not be generated");
    }
    free(g_ref);
    ct_world_free(w);
    return test_summary("cache");
}
