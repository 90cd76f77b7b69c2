/* cache.c - the native threaded chunk cache: a fixed set of chunk slots filled by
 * one generator thread.
 *
 * Compiled only for native builds with CT_WITH_THREADS (the WebAssembly core
 * stays pthread-free; browsers schedule chunks in Web Workers instead).
 *
 * Why it looks like this:
 *   - Everything (slots, their ct_chunk storage, the job ring) is allocated in
 *     ct_cache_create, so a game's frame loop never touches the allocator.
 *   - request/acquire/release hold one mutex for a scan over the slots (a few
 *     dozen compares for typical caches of 9..64 slots) and never generate or
 *     read files. Generation happens in the worker with the mutex released,
 *     into a slot whose state is GENERATING: no other path reads or reuses a
 *     slot in that state, so the chunk bytes need no lock of their own; the
 *     mutex hand-over when the slot turns READY publishes them.
 *   - A slot is reused only when it is EMPTY or READY with no pins, least
 *     recently used first. Queued and generating slots are never cancelled, so
 *     a request for a chunk never silently loses an earlier request's work;
 *     when nothing can be reused the answer is CT_CACHE_BUSY and the caller
 *     keeps its current terrain and asks again next frame.
 *   - The world is only read, by the worker and by anyone else at the same
 *     time; it must outlive the cache.
 */
#include "world/ct_world.h"
#include "native/ct_cache_hold.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CT__STREAM_MAX_SLOTS 1024   /* about 676 MB of chunks (660,552 bytes a slot); more is a bug */

enum { CT__SLOT_EMPTY = 0, CT__SLOT_QUEUED, CT__SLOT_GENERATING, CT__SLOT_READY };

typedef struct ct__slot {
    ct_key key;            /* meaningful unless EMPTY */
    int state;             /* CT__SLOT_* */
    int pins;              /* acquires not yet released */
    uint64_t last_use;     /* tick of the last hit, acquire or completion */
} ct__slot;

struct ct_cache {
    const ct_world *world;
    int slot_count;
    ct__slot *slot_s;          /* [slot_count] */
    ct_chunk *chunk_s;         /* [slot_count], chunk i belongs to slot i */
    int *queue_q;              /* ring of slot indices waiting for the worker */
    int queue_head, queue_len;
    uint64_t tick;
    int stopping;
    int held;                  /* ct__cache_hold: the worker takes no job */
    ct_cache_stats stats;
    pthread_mutex_t mutex;
    pthread_cond_t work;       /* worker sleeps here while the ring is empty */
    pthread_cond_t done;       /* ct_cache_wait sleeps here */
    pthread_t thread;
};

static int ct__key_equal(ct_key a, ct_key b)
{
    return a.face == b.face && a.lod == b.lod && a.x == b.x && a.y == b.y;
}

/* Index of the non-empty slot holding key, or -1. Mutex held. */
static int ct__find(const ct_cache *c, ct_key key)
{
    int i;
    for (i = 0; i < c->slot_count; i++)
        if (c->slot_s[i].state != CT__SLOT_EMPTY && ct__key_equal(c->slot_s[i].key, key))
            return i;
    return -1;
}

/* A slot that may take a new key: an empty one, else the least recently used
 * ready slot without pins; -1 if every slot is pinned, queued or generating.
 * Mutex held. */
static int ct__victim(const ct_cache *c)
{
    int i, best = -1;
    for (i = 0; i < c->slot_count; i++) {
        const ct__slot *s = &c->slot_s[i];
        if (s->state == CT__SLOT_EMPTY) return i;
        if (s->state == CT__SLOT_READY && s->pins == 0 &&
            (best < 0 || s->last_use < c->slot_s[best].last_use))
            best = i;
    }
    return best;
}

static double ct__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

static void *ct__worker(void *arg)
{
    ct_cache *c = (ct_cache *)arg;
    char err[256];
    pthread_mutex_lock(&c->mutex);
    for (;;) {
        int idx;
        ct_key key;
        ct_result r;
        double t0, ms;
        while (!c->stopping && (c->queue_len == 0 || c->held))
            pthread_cond_wait(&c->work, &c->mutex);
        if (c->stopping) break;   /* queued jobs are dropped with the cache */
        idx = c->queue_q[c->queue_head];
        c->queue_head = (c->queue_head + 1) % c->slot_count;
        c->queue_len--;
        c->slot_s[idx].state = CT__SLOT_GENERATING;
        key = c->slot_s[idx].key;
        pthread_mutex_unlock(&c->mutex);

        t0 = ct__now_ms();
        r = ct_chunk_generate(c->world, key, &c->chunk_s[idx], err, sizeof err);
        ms = ct__now_ms() - t0;

        pthread_mutex_lock(&c->mutex);
        if (r == CT_OK) {
            c->slot_s[idx].state = CT__SLOT_READY;
            c->slot_s[idx].last_use = ++c->tick;
            c->stats.generated++;
            c->stats.generate_ms_total += ms;
            if (ms > c->stats.generate_ms_max) c->stats.generate_ms_max = ms;
        } else {
            /* Keys are validated on request, so this means a broken world.
             * Free the slot; a waiter sees "not in cache" and returns 0. */
            c->slot_s[idx].state = CT__SLOT_EMPTY;
        }
        pthread_cond_broadcast(&c->done);
    }
    pthread_mutex_unlock(&c->mutex);
    return NULL;
}

/* Mutex and both condition variables; 1 on success, nothing left on failure. */
static int ct__sync_init(ct_cache *c)
{
    pthread_condattr_t attr;
    int ok = 0;
    if (pthread_mutex_init(&c->mutex, NULL) != 0) return 0;
    if (pthread_condattr_init(&attr) == 0) {
#if !defined(__APPLE__)
        /* Timeouts in ct_cache_wait must not jump with the wall clock. */
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
#endif
        if (pthread_cond_init(&c->work, NULL) == 0) {
            if (pthread_cond_init(&c->done, &attr) == 0) ok = 1;
            else pthread_cond_destroy(&c->work);
        }
        pthread_condattr_destroy(&attr);
    }
    if (!ok) pthread_mutex_destroy(&c->mutex);
    return ok;
}

ct_cache *ct_cache_create(const ct_world *world, int slots, char *err, size_t errlen)
{
    ct_cache *c;
    if (!world) {
        ct__fail(err, errlen, CT_ERR_NULL, "ct_cache_create: world is NULL");
        return NULL;
    }
    if (slots < 1 || slots > CT__STREAM_MAX_SLOTS) {
        ct__fail(err, errlen, CT_ERR_CONFIG, "ct_cache_create: slots %d out of range [1, %d]",
                 slots, CT__STREAM_MAX_SLOTS);
        return NULL;
    }
    c = (ct_cache *)calloc(1, sizeof *c);
    if (!c) goto oom;
    c->world = world;
    c->slot_count = slots;
    c->slot_s = (ct__slot *)calloc((size_t)slots, sizeof *c->slot_s);
    c->chunk_s = (ct_chunk *)calloc((size_t)slots, sizeof *c->chunk_s);
    c->queue_q = (int *)calloc((size_t)slots, sizeof *c->queue_q);
    if (!c->slot_s || !c->chunk_s || !c->queue_q) goto oom;

    if (!ct__sync_init(c)) goto oom;
    if (pthread_create(&c->thread, NULL, ct__worker, c) != 0) {
        pthread_cond_destroy(&c->work);
        pthread_cond_destroy(&c->done);
        pthread_mutex_destroy(&c->mutex);
        free(c->queue_q); free(c->chunk_s); free(c->slot_s); free(c);
        ct__fail(err, errlen, CT_ERR_MEMORY, "ct_cache_create: cannot start the generator thread");
        return NULL;
    }
    return c;
oom:
    if (c) { free(c->queue_q); free(c->chunk_s); free(c->slot_s); free(c); }
    ct__fail(err, errlen, CT_ERR_MEMORY, "ct_cache_create: out of memory for %d slots", slots);
    return NULL;
}

int ct_cache_request(ct_cache *cache, ct_key key, char *err, size_t errlen)
{
    ct_result r;
    int i, answer;
    if (!cache)
        return -1 - (int)ct__fail(err, errlen, CT_ERR_NULL, "ct_cache_request: cache is NULL");
    r = ct_key_validate(key, err, errlen);
    if (r != CT_OK) return -1 - (int)r;
    if ((uint32_t)key.lod > cache->world->field.cfg.surface_lod)
        return -1 - (int)ct__fail(err, errlen, CT_ERR_LOD,
                                  "ct_cache_request: LOD %d exceeds the world's surface_lod %u",
                                  (int)key.lod, (unsigned)cache->world->field.cfg.surface_lod);

    pthread_mutex_lock(&cache->mutex);
    i = ct__find(cache, key);
    if (i >= 0) {
        if (cache->slot_s[i].state == CT__SLOT_READY) {
            cache->slot_s[i].last_use = ++cache->tick;
            cache->stats.hits++;
            answer = CT_CACHE_READY;
        } else {
            cache->stats.misses++;    /* already queued or generating */
            answer = CT_CACHE_QUEUED;
        }
    } else if ((i = ct__victim(cache)) < 0) {
        cache->stats.busy++;
        answer = CT_CACHE_BUSY;
    } else {
        ct__slot *s = &cache->slot_s[i];
        s->key = key;
        s->state = CT__SLOT_QUEUED;
        s->pins = 0;
        /* A slot is in the ring at most once, so slot_count entries suffice. */
        cache->queue_q[(cache->queue_head + cache->queue_len) % cache->slot_count] = i;
        cache->queue_len++;
        cache->stats.misses++;
        pthread_cond_signal(&cache->work);
        answer = CT_CACHE_QUEUED;
    }
    pthread_mutex_unlock(&cache->mutex);
    return answer;
}

const ct_chunk *ct_cache_acquire(ct_cache *cache, ct_key key)
{
    const ct_chunk *chunk = NULL;
    int i;
    if (!cache) return NULL;
    pthread_mutex_lock(&cache->mutex);
    i = ct__find(cache, key);
    if (i >= 0 && cache->slot_s[i].state == CT__SLOT_READY) {
        cache->slot_s[i].pins++;
        cache->slot_s[i].last_use = ++cache->tick;
        chunk = &cache->chunk_s[i];
    }
    pthread_mutex_unlock(&cache->mutex);
    return chunk;
}

void ct_cache_release(ct_cache *cache, const ct_chunk *chunk)
{
    int i;
    if (!cache || !chunk) return;
    pthread_mutex_lock(&cache->mutex);
    /* Compare addresses for equality only (ordering pointers that may come
     * from elsewhere is undefined); a foreign pointer is ignored. */
    for (i = 0; i < cache->slot_count; i++) {
        if (&cache->chunk_s[i] == chunk) {
            if (cache->slot_s[i].pins > 0) cache->slot_s[i].pins--;
            break;
        }
    }
    pthread_mutex_unlock(&cache->mutex);
}

int ct_cache_wait(ct_cache *cache, ct_key key, int timeout_ms)
{
    struct timespec deadline;
    int ready = 0;
    if (!cache) return 0;
    if (timeout_ms >= 0) {
#if defined(__APPLE__)
        clock_gettime(CLOCK_REALTIME, &deadline);
#else
        clock_gettime(CLOCK_MONOTONIC, &deadline);
#endif
        deadline.tv_sec += timeout_ms / 1000;
        deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
    }
    pthread_mutex_lock(&cache->mutex);
    for (;;) {
        int i = ct__find(cache, key);
        if (i < 0) break;                      /* nobody is making it */
        if (cache->slot_s[i].state == CT__SLOT_READY) { ready = 1; break; }
        if (timeout_ms < 0) {
            pthread_cond_wait(&cache->done, &cache->mutex);
        } else if (pthread_cond_timedwait(&cache->done, &cache->mutex, &deadline) != 0) {
            /* ETIMEDOUT (or an error, which must not spin): one last look. */
            i = ct__find(cache, key);
            ready = i >= 0 && cache->slot_s[i].state == CT__SLOT_READY;
            break;
        }
    }
    pthread_mutex_unlock(&cache->mutex);
    return ready;
}

void ct__cache_hold(ct_cache *cache, int on)
{
    if (!cache) return;
    pthread_mutex_lock(&cache->mutex);
    cache->held = on != 0;
    if (!cache->held) pthread_cond_broadcast(&cache->work);
    pthread_mutex_unlock(&cache->mutex);
}

void ct_cache_stats_get(const ct_cache *cache, ct_cache_stats *out)
{
    ct_cache *c = (ct_cache *)cache;   /* locking is not a logical change */
    if (!out) return;
    if (!c) { memset(out, 0, sizeof *out); return; }
    pthread_mutex_lock(&c->mutex);
    *out = c->stats;
    pthread_mutex_unlock(&c->mutex);
}

void ct_cache_destroy(ct_cache *cache)
{
    if (!cache) return;
    /* The worker finishes the chunk it is generating (generation has no
     * cancellation point), then drops whatever is still queued. */
    pthread_mutex_lock(&cache->mutex);
    cache->stopping = 1;
    pthread_cond_broadcast(&cache->work);
    pthread_cond_broadcast(&cache->done);
    pthread_mutex_unlock(&cache->mutex);
    pthread_join(cache->thread, NULL);
    pthread_cond_destroy(&cache->work);
    pthread_cond_destroy(&cache->done);
    pthread_mutex_destroy(&cache->mutex);
    free(cache->queue_q);
    free(cache->chunk_s);
    free(cache->slot_s);
    free(cache);
}
