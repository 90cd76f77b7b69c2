/* walk.c - signed additive walks from coast vertices over the macro graph.
 *
 * Fronts advance in synchronous passes. Every source (a coast vertex) is its
 * own provenance. A vertex reached in pass r expands in pass r + 1 + d, where
 * d is its deterministic front delay, proposing parent height + increment to
 * every unreached neighbour in the domain. All decisions of a pass are taken
 * from the state at its start and resolved by sorted keys (value, then vertex
 * index), so the result never depends on processing order.
 *
 * Collisions. Two incoming walks collide when they arrive from opposing
 * directions (angle above 120 degrees between the arrival vectors) and their
 * sources lie at least `separation` grid cells apart (great-circle distance in
 * units of the mean edge angle). A collision is terminal: it holds the SUM of
 * the distinct incoming heights (relative to sea level) and never becomes a
 * parent. Fronts meet either on a vertex (several proposals in one pass) or
 * across an edge (a front steps into a vertex another front reached but has
 * not expanded yet); both make a collision, so ridges are not dotted.
 * "Distinct" means pairwise separated sources: nearby sources of one stretch
 * of coast count once.
 *
 * Pockets. Unreached domain vertices fenced in by collisions are closed after
 * the last pass as one terminal junction per connected pocket: the SUM of the
 * bordering collisions' incoming walks, deduplicated by provenance.
 *
 * The run, step by step: ct__walk_setup, ct__walk_seed, then per pass
 * ct__pass_take (the due vertices), ct__pass_edge_meetings (fronts meeting
 * across an edge), ct__pass_propose and ct__pass_accept (hops or meetings on
 * a vertex), every collision made by ct__record_collision; last
 * ct__close_pockets. */
#include "solve/ct_solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ct__prop { uint32_t target, from; double value; } ct__prop;
typedef struct ct__u32s { uint32_t *v; size_t n, cap; } ct__u32s;
typedef struct ct__props { ct__prop *v; size_t n, cap; } ct__props;

/* Makes room for one more element in a growable array of elem-byte items
 * (doubling, starting at first): 0 when out of memory, the array untouched. */
static int ct__grow(void **items, size_t count, size_t *cap, size_t elem, size_t first)
{
    if (count == *cap) {
        size_t want = *cap ? *cap * 2u : first;
        void *g = realloc(*items, elem * want);
        if (!g) return 0;
        *items = g;
        *cap = want;
    }
    return 1;
}

static int ct__u32s_push(ct__u32s *l, uint32_t x)
{
    void *items = l->v;
    int ok = ct__grow(&items, l->n, &l->cap, sizeof *l->v, 64u);
    l->v = (uint32_t *)items;
    if (!ok) return 0;
    l->v[l->n++] = x;
    return 1;
}

static int ct__props_push(ct__props *l, uint32_t target, uint32_t from, double value)
{
    void *items = l->v;
    int ok = ct__grow(&items, l->n, &l->cap, sizeof *l->v, 256u);
    l->v = (ct__prop *)items;
    if (!ok) return 0;
    l->v[l->n].target = target;
    l->v[l->n].from = from;
    l->v[l->n].value = value;
    l->n++;
    return 1;
}

static int ct__contrib_push(ct__walk *w, uint32_t src, uint32_t from, double value)
{
    void *items = w->contrib;
    int ok = ct__grow(&items, w->contrib_count, &w->contrib_cap, sizeof *w->contrib, 256u);
    w->contrib = (ct__contrib *)items;
    if (!ok) return 0;
    w->contrib[w->contrib_count].src = src;
    w->contrib[w->contrib_count].from = from;
    w->contrib[w->contrib_count].value_m = value;
    w->contrib_count++;
    return 1;
}

/* Sorting. The pass sorts run hundreds of times per build, and libc's qsort
 * is slow in WebAssembly (Emscripten's musl uses smoothsort: 6x glibc's
 * time here), so this is our own: a stable LSD radix sort on the target
 * vertex (every key is below V), then an insertion sort of each run of equal
 * targets, which holds at most 4 proposals. Keys are unique (a vertex
 * proposes to a neighbour once), so the order is the comparator's, exactly
 * what qsort gave. Arrays up to CT__SMALL_SORT use insertion sort alone.
 * The expanding vertices of a pass need no sort: every decision is taken
 * from the pass's sorted proposals, whatever order they were gathered in. */
#define CT__SMALL_SORT 32u
#define CT__RADIX_MAX_BITS 11u

/* Target, then value, then proposer. */
static int ct__prop_less(const ct__prop *x, const ct__prop *y)
{
    if (x->target != y->target) return x->target < y->target;
    if (x->value != y->value) return x->value < y->value;
    return x->from < y->from;
}

static void ct__props_insertion(ct__prop *a, size_t n)
{
    size_t i, j;
    for (i = 1; i < n; i++) {
        ct__prop x = a[i];
        for (j = i; j > 0 && ct__prop_less(&x, &a[j - 1u]); j--) a[j] = a[j - 1u];
        a[j] = x;
    }
}

/* Digit width and pass count for keys below V: as few passes as possible,
 * each at most CT__RADIX_MAX_BITS wide. */
static unsigned ct__radix_plan(uint32_t V, unsigned *passes)
{
    unsigned bits = 1u;
    while (bits < 32u && (V - 1u) >> bits) bits++;
    *passes = (bits + CT__RADIX_MAX_BITS - 1u) / CT__RADIX_MAX_BITS;
    return (bits + *passes - 1u) / *passes;
}

/* Sorts proposals by (target, value, proposer); tmp holds n. */
static void ct__sort_props(ct__prop *a, ct__prop *tmp, size_t n, uint32_t V)
{
    uint32_t count[1u << CT__RADIX_MAX_BITS];
    ct__prop *from = a, *to = tmp, *t;
    unsigned passes, width = ct__radix_plan(V, &passes), pass;
    size_t i, e;
    if (n <= CT__SMALL_SORT) {
        ct__props_insertion(a, n);
        return;
    }
    for (pass = 0; pass < passes; pass++) {
        unsigned shift = pass * width;
        uint32_t mask = (1u << width) - 1u, sum = 0, c;
        memset(count, 0, sizeof count[0] << width);
        for (i = 0; i < n; i++) count[(from[i].target >> shift) & mask]++;
        for (c = 0; c <= mask; c++) {
            uint32_t k = count[c];
            count[c] = sum;
            sum += k;
        }
        for (i = 0; i < n; i++) to[count[(from[i].target >> shift) & mask]++] = from[i];
        t = from;
        from = to;
        to = t;
    }
    if (from != a) memcpy(a, from, sizeof *a * n);
    for (i = 0; i < n; i = e) {
        for (e = i + 1u; e < n && a[e].target == a[i].target; e++) {}
        if (e - i > 1u) ct__props_insertion(a + i, e - i);
    }
}

/* Grows a scratch buffer to at least bytes (contents not kept). */
static int ct__reserve(void **buf, size_t *cap, size_t bytes)
{
    void *g;
    if (bytes <= *cap) return 1;
    if (bytes < 2u * *cap) bytes = 2u * *cap;
    g = malloc(bytes);
    if (!g) return 0;
    free(*buf);
    *buf = g;
    *cap = bytes;
    return 1;
}

/* Provenance, then highest value, then proposer. */
static int ct__contrib_less(const ct__contrib *x, const ct__contrib *y)
{
    if (x->src != y->src) return x->src < y->src;
    if (x->value_m != y->value_m) return x->value_m > y->value_m;
    return x->from < y->from;
}

/* Stable merge sort of a pocket's gathered walks (rare, any length); tmp
 * holds n. Equal records are identical copies, so stability is only tidy. */
static void ct__sort_contribs(ct__contrib *a, ct__contrib *tmp, size_t n)
{
    size_t mid = n / 2u, i = 0, j, k = 0;
    if (n <= CT__SMALL_SORT) {
        for (i = 1; i < n; i++) {
            ct__contrib x = a[i];
            for (j = i; j > 0 && ct__contrib_less(&x, &a[j - 1u]); j--) a[j] = a[j - 1u];
            a[j] = x;
        }
        return;
    }
    ct__sort_contribs(a, tmp, mid);
    ct__sort_contribs(a + mid, tmp, n - mid);
    j = mid;
    while (i < mid && j < n) tmp[k++] = ct__contrib_less(&a[j], &a[i]) ? a[j++] : a[i++];
    while (i < mid) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, sizeof *a * n);
}

/* The increment with v's mean and half-width already looked up. */
static double ct__increment_at(const ct__walk_params *p, uint32_t v, uint32_t depth, double mean, double jit)
{
    double x = 2.0 * ct__unit(ct__hash3(p->seed_iid, v, depth)) - 1.0;   /* [-1,1) */
    if (p->coherence > 0.0) {
        /* A fresh coherent field per causal depth: neighbours share structure,
         * successive hops stay independent. */
        const double *d = p->dir_v + 3u * (size_t)v;
        double f = p->coherence_frequency;
        double c = ct__noise3(ct__hash2(p->seed_coh, depth), d[0] * f, d[1] * f, d[2] * f);
        if (c < -1.0) c = -1.0;
        if (c > 1.0) c = 1.0;
        x = (1.0 - p->coherence) * x + p->coherence * c;
    }
    return mean + jit * x;
}

double ct__walk_increment(const ct__walk_params *p, uint32_t v, uint32_t depth)
{
    return ct__increment_at(p, v, depth, p->mean_v ? p->mean_v[v] : p->mean,
                            p->jitter_v ? p->jitter_v[v] : p->jitter);
}

/* Arrival vector into `to` from `from` (a chord, fine for the angle test). */
static void ct__arrival(const double *dir, uint32_t to, uint32_t from, double a[3])
{
    const double *t = dir + 3u * (size_t)to, *f = dir + 3u * (size_t)from;
    a[0] = t[0] - f[0];
    a[1] = t[1] - f[1];
    a[2] = t[2] - f[2];
}

/* Angle between a and b above 120 degrees: cos < -1/2, without sqrt. */
static int ct__opposing(const double a[3], const double b[3])
{
    double dot = ct__dot3(a, b), aa = ct__dot3(a, a), bb = ct__dot3(b, b);
    return dot < 0.0 && dot * dot > 0.25 * aa * bb;
}

/* One vertex's walk state and what the passes read of it, in one 64-byte
 * cache line: a front reads a vertex's neighbours, state, height and
 * provenance together, and as separate [V] arrays each is a cache miss of
 * its own once V outgrows the cache. Copied out to the ct__walk arrays after
 * the last pass. sched: the pass the vertex expands in, CT__NONE once
 * expanded or never reached (the pocket marker after the passes). */
typedef struct ct__wv {
    double h, mean, jitter;
    uint32_t src, parent, depth, sched;
    uint32_t nbr[4];
    uint8_t state, domain, delay;
} ct__wv;
typedef char ct__wv_fills_a_line[sizeof(ct__wv) == 64u ? 1 : -1];

/* The run's state: the walk being written and the pass machinery around it. */
typedef struct ct__walk_ctx {
    const ct__walk_params *p;
    ct__walk *w;
    double sep_arc;       /* minimum source separation, radians */
    ct__wv *wv;           /* [V], 64-byte aligned inside wv_store.block */
    ct__walk_scratch wv_store;
    ct__u32s *bucket;     /* [R] ring of vertices by expansion pass */
    uint32_t R;           /* ring size: delays never reach a full turn */
    size_t pending;       /* vertices queued in the ring */
    ct__u32s active;      /* this pass's expanding vertices */
    ct__props events;     /* this pass's steps into reached, unexpanded vertices */
    ct__props props;      /* this pass's proposals into unreached vertices */
    void *scratch;        /* the sort's second buffer, grow-only */
    size_t scratch_cap;   /* bytes */
    uint32_t domain_count, reached;
} ct__walk_ctx;

/* Up to five walks meeting at one vertex, in sorted order. */
#define CT__MEET_MAX 5u
typedef struct ct__meeting {
    uint32_t n;
    uint32_t src[CT__MEET_MAX], from[CT__MEET_MAX];
    double value[CT__MEET_MAX];
} ct__meeting;

/* ct__arc(a, b) >= sep_arc, mostly without the asin series. ct__arc is
 * 2 asin_small(chord / 2) on the chord it computes exactly as here. For
 * chord <= 1 the series' first term is chord / 2 and every later term is
 * positive, so (rounding being monotone) the arc is >= chord; for chord > 1
 * the arc is pi/2 - 2 asin(s <= 1/2) doubled, >= pi/3 - 1e-15 > 1. So when
 * sep_arc <= 1, chord >= sep_arc already gives arc >= sep_arc, the same
 * answer; only nearer sources (rare: fronts from sources that close meet
 * seldom) need the arc. tests/c/test_world_walk.c checks it against the
 * arc on many pairs. */
int ct__walk_separated(const double *a, const double *b, double sep_arc)
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    if (sep_arc <= 1.0 && sqrt(dx * dx + dy * dy + dz * dz) >= sep_arc) return 1;
    return ct__arc(a, b) >= sep_arc;
}

static int ct__separated(const ct__walk_ctx *c, uint32_t s1, uint32_t s2)
{
    const double *d = c->p->dir_v;
    if (s1 == s2) return 0;
    return ct__walk_separated(d + 3u * (size_t)s1, d + 3u * (size_t)s2, c->sep_arc);
}

static int ct__walk_opposing(const ct__walk_ctx *c, uint32_t target, uint32_t from1, uint32_t from2)
{
    double a[3], b[3];
    ct__arrival(c->p->dir_v, target, from1, a);
    ct__arrival(c->p->dir_v, target, from2, b);
    return ct__opposing(a, b);
}

/* Greedy distinct set: keeps candidates (in order) whose sources are
 * separated from every kept one. pick[] holds indices; returns the count. */
static uint32_t ct__distinct(const ct__walk_ctx *c, const uint32_t *srcs, uint32_t count,
                             uint32_t *pick, uint32_t picked)
{
    uint32_t i, k;
    for (i = 0; i < count; i++) {
        int ok = 1;
        for (k = 0; k < picked && ok; k++) {
            if (pick[k] == i || !ct__separated(c, srcs[pick[k]], srcs[i])) ok = 0;
        }
        if (ok) pick[picked++] = i;
    }
    return picked;
}

/* The one place a collision is made: t becomes terminal, holding the sum of
 * the picked walks (in pick order) and the first one's provenance. Returns 0
 * when out of memory. */
static int ct__record_collision(ct__walk_ctx *c, uint32_t t, const ct__meeting *m,
                                const uint32_t *pick, uint32_t picked)
{
    ct__walk *w = c->w;
    ct__wv *x = &c->wv[t];
    double sum = 0.0;
    uint32_t k;
    w->contrib_off[t] = (uint32_t)w->contrib_count;
    for (k = 0; k < picked; k++) {
        if (!ct__contrib_push(w, m->src[pick[k]], m->from[pick[k]], m->value[pick[k]])) return 0;
        sum += m->value[pick[k]];
    }
    w->contrib_n[t] = picked;
    x->h = sum;
    x->state = CT__WALK_COLLISION;
    x->src = m->src[pick[0]];
    x->parent = m->from[pick[0]];
    x->depth = c->wv[x->parent].depth + 1u;
    x->sched = CT__NONE;
    w->collisions++;
    return 1;
}

/* Sorts a pass's proposal list, growing the shared scratch buffer. */
static int ct__pass_sort(ct__walk_ctx *c, ct__props *l)
{
    if (l->n <= 1u) return 1;
    if (!ct__reserve(&c->scratch, &c->scratch_cap, l->n * sizeof *l->v)) return 0;
    ct__sort_props(l->v, (ct__prop *)c->scratch, l->n, c->w->V);
    return 1;
}

/* Queues a reached vertex to expand in pass `when`. */
static int ct__schedule(ct__walk_ctx *c, uint32_t v, uint32_t when)
{
    c->wv[v].sched = when;
    if (!ct__u32s_push(&c->bucket[when % c->R], v)) return 0;
    c->pending++;
    return 1;
}

static void ct__walk_release(ct__walk *w)
{
    free(w->h);
    free(w->state);
    free(w->src);
    free(w->parent);
    free(w->depth);
    free(w->contrib_off);
    free(w->contrib_n);
    free(w->contrib);
    memset(w, 0, sizeof *w);
}

void ct__walk_free(ct__walk *w)
{
    if (w) ct__walk_release(w);
}

/* The walks a pocket cell's neighbour b brings to the pocket: a bordering
 * terminal its incoming walks; a plain vertex (not expected: it would have
 * expanded) itself. 0 when out of memory. */
static int ct__pocket_gather(const ct__walk *w, uint32_t b, ct__contrib **gather, size_t *gn, size_t *gcap)
{
    uint32_t r, rn = w->contrib_n[b];
    for (r = 0; r < (rn ? rn : 1u); r++) {
        void *items = *gather;
        int ok = ct__grow(&items, *gn, gcap, sizeof **gather, 64u);
        *gather = (ct__contrib *)items;
        if (!ok) return 0;
        if (rn) (*gather)[*gn] = w->contrib[w->contrib_off[b] + r];
        else {
            (*gather)[*gn].src = w->src[b];
            (*gather)[*gn].from = b;
            (*gather)[*gn].value_m = w->h[b];
        }
        (*gn)++;
    }
    return 1;
}

/* Turns one flooded pocket into a junction: the sum of its bordering walks,
 * one per provenance (the highest). 0 when out of memory. */
static int ct__pocket_close(ct__walk *w, const ct__u32s *cells, ct__contrib *gather, size_t gn)
{
    size_t i, first = w->contrib_count, kept = 0;
    double sum = 0.0;
    if (gn > 1u) {
        ct__contrib *tmp = (ct__contrib *)malloc(sizeof *tmp * gn);
        if (!tmp) return 0;
        ct__sort_contribs(gather, tmp, gn);
        free(tmp);
    }
    for (i = 0; i < gn; i++) {
        if (i > 0 && gather[i].src == gather[i - 1u].src) continue;
        if (!ct__contrib_push(w, gather[i].src, gather[i].from, gather[i].value_m)) return 0;
        sum += gather[i].value_m;
        kept++;
    }
    for (i = 0; i < cells->n; i++) {
        uint32_t a = cells->v[i];
        w->state[a] = CT__WALK_JUNCTION;
        w->h[a] = sum;
        w->src[a] = gather[0].src;
        w->parent[a] = CT__NONE;
        w->contrib_off[a] = (uint32_t)first;
        w->contrib_n[a] = (uint32_t)kept;
    }
    w->junction_cells += (uint32_t)cells->n;
    return 1;
}

/* Closes every enclosed pocket of unreached domain vertices as a junction:
 * floods each pocket from its lowest vertex, gathering the walks around it. */
static int ct__close_pockets(const ct__walk_ctx *c)
{
    const ct__walk_params *p = c->p;
    ct__walk *w = c->w;
    uint32_t V = w->V, v;
    ct__u32s cells = {0, 0, 0};
    ct__contrib *gather = NULL;
    size_t gn = 0, gcap = 0;
    int ok = 1;
    for (v = 0; v < V && ok; v++) {
        size_t head = 0;
        if (!p->domain_v[v] || w->state[v] != CT__WALK_UNREACHED || c->wv[v].sched == 1u) continue;
        cells.n = 0;
        gn = 0;
        c->wv[v].sched = 1u;
        if (!ct__u32s_push(&cells, v)) { ok = 0; break; }
        while (head < cells.n && ok) {
            uint32_t a = cells.v[head++], k;
            for (k = 0; k < 4u && ok; k++) {
                uint32_t b = p->g->nbr[4u * (size_t)a + k];
                if (b == CT__NONE || !p->domain_v[b]) continue;
                if (w->state[b] != CT__WALK_UNREACHED) ok = ct__pocket_gather(w, b, &gather, &gn, &gcap);
                else if (c->wv[b].sched != 1u) {
                    c->wv[b].sched = 1u;
                    ok = ct__u32s_push(&cells, b);
                }
            }
        }
        /* gn == 0: no walk ever came near (no sources) */
        if (ok && gn > 0) ok = ct__pocket_close(w, &cells, gather, gn);
    }
    free(cells.v);
    free(gather);
    return ok;
}

/* Allocates the walk and the pass ring, every vertex unreached. The ct__walk
 * arrays other than the collision records are written whole by
 * ct__walk_copy_out, so they need no clearing. */
static int ct__walk_setup(ct__walk_ctx *c)
{
    const ct__walk_params *p = c->p;
    ct__walk *w = c->w;
    uint32_t V = p->g->V, v, k, max_delay = 0;
    memset(w, 0, sizeof *w);
    w->V = V;
    w->h = (double *)malloc(sizeof *w->h * (size_t)V);
    w->state = (uint8_t *)malloc((size_t)V);
    w->src = (uint32_t *)malloc(sizeof *w->src * (size_t)V);
    w->parent = (uint32_t *)malloc(sizeof *w->parent * (size_t)V);
    w->depth = (uint32_t *)malloc(sizeof *w->depth * (size_t)V);
    w->contrib_off = (uint32_t *)calloc(V, sizeof *w->contrib_off);
    w->contrib_n = (uint32_t *)calloc(V, sizeof *w->contrib_n);
    if (p->scratch) {
        c->wv_store = *p->scratch;
        memset(p->scratch, 0, sizeof *p->scratch);   /* ours until the run ends */
    }
    if (c->wv_store.bytes < sizeof *c->wv * ((size_t)V + 1u)) {
        ct__walk_scratch_free(&c->wv_store);
        c->wv_store.block = malloc(sizeof *c->wv * ((size_t)V + 1u));
        c->wv_store.bytes = c->wv_store.block ? sizeof *c->wv * ((size_t)V + 1u) : 0u;
    }
    if (!w->h || !w->state || !w->src || !w->parent || !w->depth || !w->contrib_off ||
        !w->contrib_n || !c->wv_store.block)
        return 0;
    c->wv = (ct__wv *)((char *)c->wv_store.block + (64u - (size_t)((uintptr_t)c->wv_store.block & 63u)) % 64u);
    for (v = 0; v < V; v++) {
        ct__wv *x = &c->wv[v];
        x->h = 0.0;
        x->mean = p->mean_v ? p->mean_v[v] : p->mean;
        x->jitter = p->jitter_v ? p->jitter_v[v] : p->jitter;
        x->src = CT__NONE;
        x->parent = CT__NONE;
        x->depth = 0u;
        x->sched = CT__NONE;
        for (k = 0; k < 4u; k++) x->nbr[k] = p->g->nbr[4u * (size_t)v + k];
        x->state = CT__WALK_UNREACHED;
        x->domain = p->domain_v[v] ? 1u : 0u;
        x->delay = p->delay_v ? p->delay_v[v] : 0u;
        if (x->domain) {
            c->domain_count++;
            if (x->delay > max_delay) max_delay = x->delay;
        }
    }
    c->R = max_delay + 2u;
    c->bucket = (ct__u32s *)calloc(c->R, sizeof *c->bucket);
    c->sep_arc = (double)p->separation * p->g->cell_arc;
    return c->bucket != NULL;
}

/* The per-vertex state into the ct__walk arrays. */
static void ct__walk_copy_out(const ct__walk_ctx *c)
{
    ct__walk *w = c->w;
    uint32_t v;
    for (v = 0; v < w->V; v++) {
        const ct__wv *x = &c->wv[v];
        w->h[v] = x->h;
        w->state[v] = x->state;
        w->src[v] = x->src;
        w->parent[v] = x->parent;
        w->depth[v] = x->depth;
    }
}

/* Every source in the domain is reached at its own height and provenance. */
static int ct__walk_seed(ct__walk_ctx *c)
{
    const ct__walk_params *p = c->p;
    uint32_t i;
    for (i = 0; i < p->source_count; i++) {
        uint32_t s = p->source[i];
        ct__wv *x = &c->wv[s];
        if (!x->domain || x->state != CT__WALK_UNREACHED) continue;
        x->state = CT__WALK_SOURCE;
        x->h = p->source_h[i];
        x->src = s;
        if (!ct__schedule(c, s, 1u + x->delay)) return 0;
        c->reached++;
    }
    return 1;
}

/* Takes pass r's bucket as the active list, keeping the vertices still due
 * to expand in it (a vertex may have turned terminal since it was queued). */
static void ct__pass_take(ct__walk_ctx *c, uint32_t r)
{
    ct__u32s *bk = &c->bucket[r % c->R], spare = c->active;
    size_t e, q;
    c->active = *bk;
    bk->v = spare.v;
    bk->n = 0;
    bk->cap = spare.cap;
    c->pending -= c->active.n;
    for (e = 0, q = 0; e < c->active.n; e++) {
        uint32_t u = c->active.v[e];
        const ct__wv *x = &c->wv[u];
        if (x->sched == r && (x->state == CT__WALK_SOURCE || x->state == CT__WALK_HOP))
            c->active.v[q++] = u;
    }
    c->active.n = q;
}

/* The proposal value of a step from u into t. */
static double ct__step_value(const ct__walk_ctx *c, uint32_t u, uint32_t t)
{
    const ct__wv *wu = &c->wv[u], *wt = &c->wv[t];
    return wu->h + ct__increment_at(c->p, t, wu->depth + 1u, wt->mean, wt->jitter);
}

/* Meetings across an edge: a front steps into a vertex another front reached
 * but has not expanded yet. Between two vertices both expanding now, only
 * the higher (value, index) one turns into the collision. */
static int ct__pass_edge_meetings(ct__walk_ctx *c, uint32_t r)
{
    ct__wv *wv = c->wv;
    size_t e, q;
    c->events.n = 0;
    for (e = 0; e < c->active.n; e++) {
        uint32_t u = c->active.v[e], k;
        const ct__wv *xu = &wv[u];
        for (k = 0; k < 4u; k++) {
            uint32_t t = xu->nbr[k];
            const ct__wv *xt;
            if (t == CT__NONE) continue;
            xt = &wv[t];
            if (!xt->domain || xt->state != CT__WALK_HOP) continue;
            if (xt->sched == CT__NONE) continue;          /* already expanded */
            if (xt->sched == r && (xt->h < xu->h || (xt->h == xu->h && t < u))) continue;
            if (!ct__walk_opposing(c, t, u, xt->parent) || !ct__separated(c, xu->src, xt->src))
                continue;
            if (!ct__props_push(&c->events, t, u, ct__step_value(c, u, t))) return 0;
        }
    }
    if (!ct__pass_sort(c, &c->events)) return 0;
    /* The reached vertex's own walk comes first, then the steps into it. */
    for (e = 0; e < c->events.n;) {
        const ct__prop *ev = c->events.v;
        uint32_t t = ev[e].target, pick[CT__MEET_MAX];
        ct__meeting m;
        m.src[0] = wv[t].src;
        m.from[0] = wv[t].parent;
        m.value[0] = wv[t].h;
        m.n = 1;
        for (q = e; q < c->events.n && ev[q].target == t; q++) {
            if (m.n == CT__MEET_MAX) continue;
            m.src[m.n] = wv[ev[q].from].src;
            m.from[m.n] = ev[q].from;
            m.value[m.n] = ev[q].value;
            m.n++;
        }
        pick[0] = 0;
        if (!ct__record_collision(c, t, &m, pick, ct__distinct(c, m.src, m.n, pick, 1u))) return 0;
        e = q;
    }
    return 1;
}

/* Proposals into unreached neighbours: every expanding vertex that is still
 * a plain walk offers parent height + increment, then is spent. */
static int ct__pass_propose(ct__walk_ctx *c)
{
    ct__wv *wv = c->wv;
    size_t e;
    c->props.n = 0;
    for (e = 0; e < c->active.n; e++) {
        uint32_t u = c->active.v[e], k;
        ct__wv *xu = &wv[u];
        if (xu->state == CT__WALK_COLLISION) continue;
        xu->sched = CT__NONE;
        for (k = 0; k < 4u; k++) {
            uint32_t t = xu->nbr[k];
            if (t == CT__NONE || !wv[t].domain || wv[t].state != CT__WALK_UNREACHED) continue;
            if (!ct__props_push(&c->props, t, u, ct__step_value(c, u, t))) return 0;
        }
    }
    return ct__pass_sort(c, &c->props);
}

/* Resolves the proposals into one vertex (props[e..end), sorted, at most
 * four count): the first opposing pair of separated sources makes a
 * collision; otherwise the lowest proposal is accepted as a hop. */
static int ct__pass_accept(ct__walk_ctx *c, uint32_t r, size_t e, size_t end)
{
    ct__wv *wv = c->wv, *xt;
    const ct__prop *pp = c->props.v + e;
    uint32_t t = pp[0].target, pick[CT__MEET_MAX], a, bb, k;
    ct__meeting m;
    m.n = (uint32_t)(end - e < 4u ? end - e : 4u);
    for (k = 0; k < m.n; k++) {
        m.src[k] = wv[pp[k].from].src;
        m.from[k] = pp[k].from;
        m.value[k] = pp[k].value;
    }
    c->reached++;
    for (a = 0; a < m.n; a++)
        for (bb = a + 1u; bb < m.n; bb++)
            if (ct__walk_opposing(c, t, m.from[a], m.from[bb]) && ct__separated(c, m.src[a], m.src[bb])) {
                pick[0] = a;
                pick[1] = bb;
                return ct__record_collision(c, t, &m, pick, ct__distinct(c, m.src, m.n, pick, 2u));
            }
    xt = &wv[t];
    xt->h = pp[0].value;
    xt->state = CT__WALK_HOP;
    xt->src = m.src[0];
    xt->parent = pp[0].from;
    xt->depth = wv[pp[0].from].depth + 1u;
    c->w->hops++;
    return ct__schedule(c, t, r + 1u + xt->delay);
}

/* One synchronous pass: edge meetings, then proposals, then their outcome. */
static int ct__walk_pass(ct__walk_ctx *c, uint32_t r)
{
    size_t e, end;
    ct__pass_take(c, r);
    c->w->passes++;
    if (!ct__pass_edge_meetings(c, r) || !ct__pass_propose(c)) return 0;
    for (e = 0; e < c->props.n; e = end) {
        for (end = e + 1u; end < c->props.n && c->props.v[end].target == c->props.v[e].target; end++) {}
        if (!ct__pass_accept(c, r, e, end)) return 0;
    }
    return 1;
}

static void ct__walk_ctx_free(ct__walk_ctx *c)
{
    uint32_t b;
    if (c->bucket)
        for (b = 0; b < c->R; b++) free(c->bucket[b].v);
    free(c->bucket);
    free(c->active.v);
    free(c->props.v);
    free(c->events.v);
    free(c->scratch);
    if (c->p->scratch) *c->p->scratch = c->wv_store;
    else ct__walk_scratch_free(&c->wv_store);
}

void ct__walk_scratch_free(ct__walk_scratch *s)
{
    free(s->block);
    s->block = NULL;
    s->bytes = 0;
}

ct_result ct__walk_run(const ct__walk_params *p, ct__walk *out, char *err, size_t errlen)
{
    ct__walk_ctx c;
    ct_result res = CT_OK;
    uint32_t r, v;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.w = out;
    if (!ct__walk_setup(&c) || !ct__walk_seed(&c)) goto oom;
    for (r = 1; c.pending > 0; r++) {
        if (!ct__walk_pass(&c, r)) goto oom;
        if (p->tick && (out->passes & 15u) == 0u &&
            p->tick(p->tick_user, c.domain_count ? (double)c.reached / (double)c.domain_count : 1.0)) {
            res = ct__fail(err, errlen, CT_ERR_CANCELLED, "world build cancelled by the caller");
            goto done;
        }
    }
    ct__walk_copy_out(&c);
    /* sched doubles as the pocket marker: nothing is scheduled any more. */
    for (v = 0; v < out->V; v++) c.wv[v].sched = 0u;
    if (!ct__close_pockets(&c)) goto oom;
    goto done;
oom:
    res = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory in the shore walk");
done:
    ct__walk_ctx_free(&c);
    if (res != CT_OK) ct__walk_release(out);
    return res;
}
