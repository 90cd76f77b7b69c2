/* scatter.c - deterministic scatter: the instances of a chunk at any LOD,
 * stable across LODs, chunk borders and cube faces.
 *
 * The grid. Cells are squares of surface_lod samples on a face: level 0 is
 * 2^k samples (1 <= k <= 4, the first with 16 m at the face centre),
 * level L is 2^L level-0 cells. A cell is a pure function of (face, level,
 * cx, cy), so it does not depend on the key that asks, and it lies inside
 * exactly one chunk of every LOD whose chunks are at least as large (a face
 * has 256 * 2^surface_lod samples per edge): no duplicate and no gap across
 * chunk borders or cube edges.
 *
 * A cell of level L proposes at most one candidate (hash of the cell): its
 * kind is drawn among the kinds of level L with probabilities density x cell
 * area (the largest density the kind has in any biome; scaled down together
 * when they add up past 1), and for L > 0 it stands in one of the level-0
 * cells inside it (hashed). A candidate gives way when a coarser cell holding
 * it proposes one in the same level-L cell. So a level-d cell holds at most
 * one candidate of level >= d, and a key of LOD surface_lod - d holds at most
 * (256 / 2)^2 of them. Then the ground decides, the same ground whichever
 * key asks: dry cell (no water mesh, so no river channel), the biome's
 * density (a second hash against density / largest density), height, slope
 * from the exact ground, moisture where the kind limits it, and
 * ct__scatter_excluded. The instance's foot is where the radial line meets
 * the stride-1 mesh (ground_query.c), read from the surface_lod chunk when
 * the caller holds it, else from the four corner samples of its cell. */
#include "surface/ct_scatter.h"
#include "base/ct_math.h"
#include "layers/ct_edits.h"

#include <string.h>

#define CT__SALT_SCATTER 0x7001u
#define CT__SC_TWO_PI 6.283185307179586476925
#define CT__SC_MIN_CELL_M 16.0   /* level-0 cells at least this wide at the face centre */

/* Draws from a candidate's hash, one salt each. */
enum { CT__SC_KIND = 1, CT__SC_SUB, CT__SC_ACCEPT, CT__SC_SIZE, CT__SC_YAW, CT__SC_JX, CT__SC_JY };

typedef struct ct__sgrid {
    const ct__field *f;
    uint32_t seed;
    int lod;               /* surface_lod */
    int64_t face_n;        /* samples per face edge */
    int c0_log2;           /* level-0 cell: 2^c0_log2 samples */
    double radius_m, dmax[CT_SCATTER_KIND_COUNT];
    /* per level: its kinds in table order, the sum of their dmax, and the
     * cell area at the face centre, km2 (a cell's area is this / w^1.5) */
    int nk[CT_SCATTER_LEVELS], kinds[CT_SCATTER_LEVELS][CT_SCATTER_KIND_COUNT];
    double dsum[CT_SCATTER_LEVELS], area0_km2[CT_SCATTER_LEVELS];
} ct__sgrid;

static void ct__sgrid_init(ct__sgrid *g, const ct__field *f)
{
    double centre_m;
    int k, b, j;
    g->f = f;
    g->seed = ct__subseed(f->cfg.seed, CT__SALT_SCATTER);
    g->lod = (int)f->cfg.surface_lod;
    g->face_n = (int64_t)CT_CHUNK_CORE << g->lod;
    g->radius_m = f->cfg.radius_m;
    centre_m = 2.0 * g->radius_m / (double)g->face_n;   /* a sample step at the face centre */
    g->c0_log2 = 1;
    while (g->c0_log2 < 4 && (double)(1 << g->c0_log2) * centre_m < CT__SC_MIN_CELL_M) g->c0_log2++;
    for (k = 0; k < CT_SCATTER_KIND_COUNT; k++) {
        const ct_scatter_kind *sk = ct_scatter_kind_get((size_t)k);
        g->dmax[k] = 0.0;
        for (b = 0; b < CT_BIOME_COUNT; b++)
            if (sk->density_km2[b] > g->dmax[k]) g->dmax[k] = sk->density_km2[b];
    }
    for (j = 0; j < CT_SCATTER_LEVELS; j++) {
        double du = 2.0 * (double)((int64_t)1 << (g->c0_log2 + j)) / (double)g->face_n;
        g->area0_km2[j] = g->radius_m * g->radius_m * du * du * 1e-6;
        g->nk[j] = 0;
        g->dsum[j] = 0.0;
        for (k = 0; k < CT_SCATTER_KIND_COUNT; k++) {
            if (ct_scatter_kind_get((size_t)k)->level != j) continue;
            g->kinds[j][g->nk[j]++] = k;
            g->dsum[j] += g->dmax[k];
        }
    }
}

/* 1 + u^2 + v^2 at face sample coordinates (gx, gy): the gnomonic area and
 * length factor. */
static double ct__sc_w(const ct__sgrid *g, double gx, double gy)
{
    double u = 2.0 * (gx / (double)g->face_n) - 1.0, v = 2.0 * (gy / (double)g->face_n) - 1.0;
    return 1.0 + u * u + v * v;
}

typedef struct ct__sprop {
    int kind;              /* -1: no candidate */
    int64_t ox, oy;        /* its level-0 cell */
    uint32_t h;            /* the cell's hash */
} ct__sprop;

/* The candidate a level-j cell (cx, cy) of face proposes. */
static void ct__sc_propose(const ct__sgrid *g, int face, int j, int64_t cx, int64_t cy, ct__sprop *p)
{
    int64_t cs = (int64_t)1 << (g->c0_log2 + j);
    double w = ct__sc_w(g, ((double)cx + 0.5) * (double)cs, ((double)cy + 0.5) * (double)cs);
    double area_km2 = g->area0_km2[j] / (w * sqrt(w)), sum = g->dsum[j] * area_km2, acc = 0.0, u;
    int i;
    p->h = ct__hash4(g->seed, (uint32_t)face | (uint32_t)j << 4, (uint32_t)cx, (uint32_t)cy);
    p->kind = -1;
    if (!(sum > 0.0)) return;
    u = ct__unit(ct__hash2(p->h, CT__SC_KIND)) * (sum > 1.0 ? sum : 1.0);
    for (i = 0; i < g->nk[j] && p->kind < 0; i++) {
        acc += g->dmax[g->kinds[j][i]] * area_km2;
        if (u < acc) p->kind = g->kinds[j][i];
    }
    if (p->kind < 0) return;
    p->ox = cx << j;
    p->oy = cy << j;
    if (j > 0) {
        uint32_t s = ct__hash2(p->h, CT__SC_SUB), m = (1u << j) - 1u;
        p->ox += (int64_t)(s & m);
        p->oy += (int64_t)((s >> 8) & m);
    }
}

/* The proposals of the levels coarser than the key's first, over the key's
 * span (whole cells: a level m > d cell is at most 1/2 of a level-d key's
 * edge), so each candidate asks a table whether it gives way. An entry is
 * 0 for none, else 1 + the level-0 offset inside the cell (x + 16 y). */
#define CT__SC_SIDE 64                  /* 256 / 2 / 2: cells per key edge at level d + 1 */
typedef struct ct__syield {
    int64_t cx0[CT_SCATTER_LEVELS], cy0[CT_SCATTER_LEVELS], side[CT_SCATTER_LEVELS];
    uint16_t at[CT_SCATTER_LEVELS][CT__SC_SIDE * CT__SC_SIDE];
} ct__syield;

static void ct__sc_yield_init(const ct__sgrid *g, ct__syield *y, int face, int d, int64_t x0, int64_t y0, int64_t n)
{
    int m;
    for (m = d + 1; m < CT_SCATTER_LEVELS; m++) {
        int64_t cs = (int64_t)1 << (g->c0_log2 + m), i, k;
        y->cx0[m] = x0 / cs;
        y->cy0[m] = y0 / cs;
        y->side[m] = n / cs;
        for (k = 0; k < y->side[m]; k++) {
            for (i = 0; i < y->side[m]; i++) {
                ct__sprop q;
                ct__sc_propose(g, face, m, y->cx0[m] + i, y->cy0[m] + k, &q);
                y->at[m][k * y->side[m] + i] =
                    (uint16_t)(q.kind < 0 ? 0
                                          : 1 + (q.ox - ((y->cx0[m] + i) << m)) + 16 * (q.oy - ((y->cy0[m] + k) << m)));
            }
        }
    }
}

/* 1 when a coarser cell holding level-j cell (cx, cy) proposes a candidate
 * inside it. */
static int ct__sc_yields(const ct__syield *y, int j, int64_t cx, int64_t cy)
{
    int m;
    for (m = j + 1; m < CT_SCATTER_LEVELS; m++) {
        int64_t Cx = cx >> (m - j), Cy = cy >> (m - j), ox, oy;
        uint16_t e = y->at[m][(Cy - y->cy0[m]) * y->side[m] + (Cx - y->cx0[m])];
        if (!e) continue;
        ox = (Cx << m) + (int64_t)((e - 1) % 16);
        oy = (Cy << m) + (int64_t)((e - 1) / 16);
        if ((ox >> j) == cx && (oy >> j) == cy) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ the ground */
/* Where the cell's corners come from: the caller's surface_lod chunk, or
 * samples taken as ct_world_ground takes them. */
typedef struct ct__sground {
    const ct_chunk *chunk;     /* NULL: sample */
    ct__gq_world gw;
    ct__sampler moist;         /* moisture of the kinds that limit it */
    int moist_ready;
    ct__syield yield;
} ct__sground;

/* The four corners of cell (ci, cj) of surface_lod chunk sk, and with ring
 * the 12 samples around them too; 0 when a corner is wet (the water mesh
 * covers the cell). *wet_near: a ring sample is wet (asked with ring). */
static int ct__sc_cell(ct__sground *s, ct_key sk, int ci, int cj, int ring, ct__gq_cell *c, int *wet_near)
{
    int k, lx[12], ly[12], n = 0;
    ct__gq_sample got;
    *wet_near = 0;
    if (s->chunk) {
        for (k = 0; k < 4; k++) {
            size_t at = (size_t)(cj + (k >> 1)) * CT_CHUNK_EDGE + (size_t)(ci + (k & 1));
            if (s->chunk->water[at] != CT_NO_WATER_CODE) return 0;
        }
        ct__gq_cell_fill(c, sk, ci, cj, s->chunk->height_quantum_m, ct__gq_fetch_chunk, (void *)s->chunk);
        if (ring) n = ct__gq_world_ring(ci, cj, lx, ly);
        for (k = 0; k < n; k++)
            if (s->chunk->water[(size_t)ly[k] * CT_CHUNK_EDGE + (size_t)lx[k]] != CT_NO_WATER_CODE) *wet_near = 1;
        return 1;
    }
    for (k = 0; k < 4; k++) {
        lx[k] = ci + (k & 1);
        ly[k] = cj + (k >> 1);
    }
    s->gw.key = sk;
    s->gw.have = 0;
    ct__gq_world_sample(&s->gw, lx, ly, 4);
    for (k = 0; k < 4; k++)
        if (ct__gq_world_find(&s->gw, lx[k], ly[k], &got) && got.water != CT_NO_WATER_CODE) return 0;
    if (ring) {
        n = ct__gq_world_ring(ci, cj, lx, ly);
        ct__gq_world_sample(&s->gw, lx, ly, n);
        for (k = 0; k < n; k++)
            if (ct__gq_world_find(&s->gw, lx[k], ly[k], &got) && got.water != CT_NO_WATER_CODE) *wet_near = 1;
    }
    ct__gq_cell_from_table(c, &s->gw, ci, cj);
    return 1;
}

/* Whether the moisture of sample (gx, gy) of face is within the kind's
 * limits: settled by its biome where the biome's rule bounds it
 * (biome.c: desert < 0.3 <= grass <= 0.58 < forest), else sampled. */
static int ct__sc_moist_ok(const ct__sgrid *g, ct__sground *s, const ct_scatter_kind *sk, int biome, int face,
                           int64_t gx, int64_t gy)
{
    double lo = 0.0, hi = 1.0, d[3];
    ct_sample smp;
    if (sk->min_moisture <= 0.0 && sk->max_moisture >= 1.0) return 1;
    if (biome == CT_BIOME_DESERT) hi = 0.3;
    if (biome == CT_BIOME_GRASS) { lo = 0.3; hi = 0.58; }
    if (biome == CT_BIOME_FOREST) lo = 0.58;
    if (hi <= sk->min_moisture || lo > sk->max_moisture) return 0;
    if (lo >= sk->min_moisture && hi <= sk->max_moisture) return 1;
    if (!s->moist_ready) {
        ct__sampler_init(&s->moist, g->f, 0);
        s->moist_ready = 1;
    }
    ct__sample_direction(face, g->lod, gx, gy, d);
    ct__sampler_run(&s->moist, d, 1, &smp);
    return smp.moisture >= sk->min_moisture && smp.moisture <= sk->max_moisture;
}

/* ------------------------------------------------------------- instances */
typedef struct ct__sinst {
    double dir[3], height_m;
    float yaw, scale;
} ct__sinst;

/* The instance of candidate p (level j, cell (cx, cy)) if the ground takes it. */
static int ct__sc_place(const ct__sgrid *g, ct__sground *s, int face, const ct__sprop *p, ct__sinst *in)
{
    const ct_scatter_kind *sk = ct_scatter_kind_get((size_t)p->kind);
    int64_t c0 = (int64_t)1 << g->c0_log2, ox = p->ox * c0, oy = p->oy * c0;
    double w = ct__sc_w(g, (double)ox + 0.5 * (double)c0, (double)oy + 0.5 * (double)c0);
    /* Half the spacing in samples, at the shortest a sample step gets here
     * (the gnomonic map shortens steps by up to 1 / w). */
    double margin = 0.5 * sk->spacing_m * w * (double)g->face_n / (2.0 * g->radius_m), span, gx, gy, lx, ly;
    double pts[4][3], r, normal[3];
    int ci, cj, near, idx[3], wet_near, biome;
    ct__gq_cell cell;
    ct_key key;
    ct_ground gr;
    if (2.0 * margin >= (double)c0) margin = 0.5 * (double)c0;
    span = (double)c0 - 2.0 * margin;
    gx = (double)ox + margin + span * ct__unit(ct__hash2(p->h, CT__SC_JX));
    gy = (double)oy + margin + span * ct__unit(ct__hash2(p->h, CT__SC_JY));
    key = ct_key_make(face, g->lod, (uint32_t)(ox >> 8), (uint32_t)(oy >> 8));
    lx = gx - (double)(ox >> 8) * CT_CHUNK_CORE;
    ly = gy - (double)(oy >> 8) * CT_CHUNK_CORE;
    ci = (int)lx;
    cj = (int)ly;
    if (!ct__sc_cell(s, key, ci, cj, sk->near_water, &cell, &wet_near)) return 0;
    if (sk->near_water && !wet_near) return 0;
    near = (lx - ci >= 0.5 ? 1 : 0) + (ly - cj >= 0.5 ? 2 : 0);
    biome = cell.corner[near].biome;
    if (ct__unit(ct__hash2(p->h, CT__SC_ACCEPT)) * g->dmax[p->kind] >= sk->density_km2[biome]) return 0;
    ct_key_direction(key, lx, ly, in->dir, NULL, 0);
    ct__gq_tri(ct__gq_half(lx - ci, ly - cj), idx);
    ct__gq_cell_points(&cell, g->radius_m, 0, pts);
    r = g->radius_m;
    if (!ct__gq_radial_hit(pts[idx[0]], pts[idx[1]], pts[idx[2]], in->dir, &r, normal)) return 0;
    in->height_m = r - g->radius_m;
    if (in->height_m < sk->min_height_m || in->height_m > sk->max_height_m) return 0;
    if (ct__slope_deg_exact(normal, in->dir) > sk->max_slope_deg) return 0;
    if (!ct__sc_moist_ok(g, s, sk, biome, face, (ox >> 8) * CT_CHUNK_CORE + ci + (near & 1),
                         (oy >> 8) * CT_CHUNK_CORE + cj + (near >> 1)))
        return 0;
    memset(&gr, 0, sizeof gr);
    gr.height_m = in->height_m;
    memcpy(gr.normal, normal, sizeof normal);
    gr.biome = biome;
    gr.key = key;
    gr.local_x = lx;
    gr.local_y = ly;
    if (ct__scatter_excluded(g->f, in->dir, &gr)) return 0;
    in->scale = (float)(sk->min_size_m + (sk->max_size_m - sk->min_size_m) * ct__unit(ct__hash2(p->h, CT__SC_SIZE)));
    in->yaw = (float)(CT__SC_TWO_PI * ct__unit(ct__hash2(p->h, CT__SC_YAW)));
    return 1;
}

int ct__scatter_excluded(const ct__field *f, const double dir[3], const ct_ground *g)
{
    /* Water and slopes are the kinds' own rules; here only what a game built:
     * a pad's or a path's footprint (blend and shoulders included) keeps off
     * placement, so a levelled site or a road comes back bare. Craters and
     * brushes only reshape the ground, which the kinds' rules then read. */
    (void)g;
    return f && ct__edits_excludes(f->edits, dir);
}

/* -------------------------------------------------------------- the call */
typedef struct ct__sout {
    ct_scatter *out;
    double radius_m;
} ct__sout;

static void ct__sc_emit(ct__sout *o, int kind, int face, int j, int64_t cx, int64_t cy, const ct__sinst *in)
{
    ct_scatter *s = o->out;
    uint32_t i = s->count++;
    int k;
    if (i >= s->capacity) return;
    if (s->positions)
        for (k = 0; k < 3; k++)
            s->positions[3 * i + k] = (float)(in->dir[k] * (o->radius_m + in->height_m) - s->center_m[k]);
    if (s->kind) s->kind[i] = (uint8_t)kind;
    if (s->height_m) s->height_m[i] = (float)in->height_m;
    if (s->yaw) s->yaw[i] = in->yaw;
    if (s->scale) s->scale[i] = in->scale;
    if (s->id) s->id[i] = (uint64_t)face << 60 | (uint64_t)j << 56 | (uint64_t)cy << 28 | (uint64_t)cx;
}

/* The candidates of level j inside the key's sample span [x0, x0 + n) x [y0, y0 + n). */
static void ct__sc_level(const ct__sgrid *g, ct__sground *s, const ct__syield *y, ct__sout *o, int face, int j,
                         int64_t x0, int64_t y0, int64_t n)
{
    int64_t cs = (int64_t)1 << (g->c0_log2 + j), c0 = (int64_t)1 << g->c0_log2, cx, cy;
    for (cy = y0 / cs; cy <= (y0 + n - 1) / cs; cy++) {
        for (cx = x0 / cs; cx <= (x0 + n - 1) / cs; cx++) {
            ct__sprop p;
            ct__sinst in;
            ct__sc_propose(g, face, j, cx, cy, &p);
            if (p.kind < 0) continue;
            if (p.ox * c0 < x0 || p.ox * c0 >= x0 + n || p.oy * c0 < y0 || p.oy * c0 >= y0 + n) continue;
            if (ct__sc_yields(y, j, cx, cy)) continue;
            if (!ct__sc_place(g, s, face, &p, &in)) continue;
            ct__sc_emit(o, p.kind, face, j, cx, cy, &in);
        }
    }
}

ct_result ct__field_scatter(const ct__field *f, const ct_chunk *chunk, ct_key key, ct_scatter *out, char *err,
                            size_t errlen)
{
    ct__sgrid g;
    ct__sground s;
    ct__sout o;
    ct_result r;
    double c[3];
    int d, j, k;
    int64_t n;
    if (!f || !out) return ct__fail(err, errlen, CT_ERR_NULL, "world and scatter output are required");
    r = ct_key_validate(key, err, errlen);
    if (r != CT_OK) return r;
    if (key.lod > (int)f->cfg.surface_lod)
        return ct__fail(err, errlen, CT_ERR_LOD, "scatter key LOD %d is finer than the world's surface_lod %u",
                        (int)key.lod, (unsigned)f->cfg.surface_lod);
    if (chunk) {
        if (chunk->generation != f->generation)
            return ct__fail(err, errlen, CT_ERR_MESH, "chunk was generated by a different world");
        if (key.lod != (int)f->cfg.surface_lod || chunk->key.face != key.face || chunk->key.lod != key.lod ||
            chunk->key.x != key.x || chunk->key.y != key.y)
            return ct__fail(err, errlen, CT_ERR_MESH, "scatter reads only the surface_lod chunk of its own key");
    }
    ct__sgrid_init(&g, f);
    memset(&s, 0, sizeof s);
    s.chunk = chunk;
    if (!chunk) ct__gq_world_init(&s.gw, f);
    ct_key_direction(key, 0.5 * CT_CHUNK_CORE, 0.5 * CT_CHUNK_CORE, c, NULL, 0);
    for (k = 0; k < 3; k++) out->center_m[k] = c[k] * f->cfg.radius_m;
    out->count = 0;
    o.out = out;
    o.radius_m = f->cfg.radius_m;
    d = (int)f->cfg.surface_lod - key.lod;
    n = (int64_t)CT_CHUNK_CORE << d;
    ct__sc_yield_init(&g, &s.yield, key.face, d, (int64_t)key.x * n, (int64_t)key.y * n, n);
    for (j = d; j < CT_SCATTER_LEVELS; j++)
        ct__sc_level(&g, &s, &s.yield, &o, key.face, j, (int64_t)key.x * n, (int64_t)key.y * n, n);
    if (!chunk) ct__sampler_finish(&s.gw.sp);
    if (!chunk) ct__sampler_release(&s.gw.sp);
    if (s.moist_ready) ct__sampler_finish(&s.moist);
    if (s.moist_ready) ct__sampler_release(&s.moist);
    if (out->count > out->capacity)
        return ct__fail(err, errlen, CT_ERR_BUFFER, "scatter needs room for %u instances, capacity is %u",
                        (unsigned)out->count, (unsigned)out->capacity);
    return CT_OK;
}
