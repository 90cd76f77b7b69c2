/* game.c - the game side of the example (see game.h): pose, addressing,
 * neighbourhood, chunk slots, collision and the route log. Plain C99; the
 * "worker" lives behind platform_request_chunk() / game_deliver(). */
#include "game.h"
#include "ct_legacy.h"
#include "surface_mode.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct game_slot {
    int used;
    ct_chunk *chunk;          /* allocated once at game_create */
} game_slot;

struct game {
    const ct_world *world;
    game_route route;
    FILE *out;
    int lod;                  /* surface_lod: the canonical address level */
    double radius_m;
    int step;                 /* next route step to log */
    int last_face;
    ct_key active[9];         /* neighbourhood collision reads from */
    int n_active;
    ct_key wanted[9];         /* neighbourhood being loaded (== active once ready) */
    int n_wanted;
    ct_key pending[GAME_SLOTS];   /* asked of the worker, not delivered yet */
    int n_pending;
    game_slot slots[GAME_SLOTS];
    int stalls;
};

static int key_eq(ct_key a, ct_key b)
{
    return a.face == b.face && a.lod == b.lod && a.x == b.x && a.y == b.y;
}

static int key_in(ct_key k, const ct_key *list, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (key_eq(k, list[i])) return 1;
    return 0;
}

static void key_text(ct_key k, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%d/%u/%u", ct_face_name(k.face), (int)k.lod, (unsigned)k.x, (unsigned)k.y);
}

static game_slot *slot_of(game *g, ct_key k)
{
    int i;
    for (i = 0; i < GAME_SLOTS; i++)
        if (g->slots[i].used && key_eq(g->slots[i].chunk->key, k)) return &g->slots[i];
    return NULL;
}

/* Route position of step s: the normalised blend of the two ends. A blend
 * and sqrt instead of slerp keeps libm's sin/acos out, so the native and
 * the WebAssembly builds print the same digits. */
static void route_dir(const game_route *r, int s, double dir[3])
{
    double t = r->steps > 0 ? (double)s / (double)r->steps : 0.0, len;
    int i;
    for (i = 0; i < 3; i++) dir[i] = (1.0 - t) * r->from[i] + t * r->to[i];
    len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    for (i = 0; i < 3; i++) dir[i] /= len;
}

/* The 3x3 neighbourhood as the reference describes it: step one chunk
 * (256 samples) in each direction from the player's local position with
 * ct_key_direction (beyond-face positions continue across the cube edge),
 * re-project each direction with ct_key_at, and drop duplicates (near a
 * cube corner two offsets land in the same chunk). */
static int gather_neighbourhood(const game *g, ct_key key, double lx, double ly, ct_key out[9])
{
    int dx, dy, n = 0;
    for (dy = -1; dy <= 1; dy++) {
        for (dx = -1; dx <= 1; dx++) {
            double d[3];
            ct_key k;
            if (ct_key_direction(key, lx + CT_CHUNK_CORE * dx, ly + CT_CHUNK_CORE * dy, d, NULL, 0) != CT_OK) continue;
            if (ct_key_at(g->world, d, g->lod, &k, NULL, NULL, NULL, 0) != CT_OK) continue;
            if (!key_in(k, out, n)) out[n++] = k;
        }
    }
    return n;
}

/* The library's own answer, to show the hand-made one agrees. */
static int same_as_library(ct_key key, double lx, double ly, const ct_key *mine, int n)
{
    ct_key lib[9];
    int count = 0, i;
    if (ct_key_neighbourhood(key, lx, ly, lib, &count, NULL, 0) != CT_OK || count != n) return 0;
    for (i = 0; i < n; i++)
        if (!key_in(lib[i], mine, n)) return 0;
    return 1;
}

static void request_missing(game *g)
{
    int i;
    for (i = 0; i < g->n_wanted; i++) {
        ct_key k = g->wanted[i];
        if (slot_of(g, k) || key_in(k, g->pending, g->n_pending) || g->n_pending == GAME_SLOTS) continue;
        g->pending[g->n_pending++] = k;
        platform_request_chunk(k);
    }
}

/* Once every wanted chunk is here, it becomes the active neighbourhood and
 * chunks in neither set are let go. Until then the old one stays in use. */
static void swap_when_ready(game *g)
{
    int i;
    for (i = 0; i < g->n_wanted; i++)
        if (!slot_of(g, g->wanted[i])) return;
    memcpy(g->active, g->wanted, sizeof g->active);
    g->n_active = g->n_wanted;
    for (i = 0; i < GAME_SLOTS; i++)
        if (g->slots[i].used && !key_in(g->slots[i].chunk->key, g->active, g->n_active)) g->slots[i].used = 0;
}

void game_deliver(game *g, const ct_chunk *data)
{
    int i, p;
    if (!g || !data) return;
    for (p = 0; p < g->n_pending && !key_eq(g->pending[p], data->key); p++) {}
    if (p < g->n_pending) g->pending[p] = g->pending[--g->n_pending];
    if (data->generation != ct_world_generation(g->world)) return;     /* never mix generations */
    if (slot_of(g, data->key) || !key_in(data->key, g->wanted, g->n_wanted)) return;   /* late or stale */
    for (i = 0; i < GAME_SLOTS; i++) {
        game_slot *s = &g->slots[i];
        if (s->used && (key_in(s->chunk->key, g->active, g->n_active) || key_in(s->chunk->key, g->wanted, g->n_wanted)))
            continue;
        memcpy(s->chunk, data, sizeof *data);
        s->used = 1;
        return;
    }
}

/* Collision from the chunk: bilinear over the cell holding (lx, ly), as the
 * chunk's own triangles would give on flat cells, plus the nearest sample
 * (the exact vertex ct_world_sample reproduces) and its biome. */
static double chunk_ground(const ct_chunk *c, double lx, double ly, int *vi, int *vj, double *vertex_m, int *biome)
{
    int i0 = (int)floor(lx), j0 = (int)floor(ly);
    double fx, fy, h00, h10, h01, h11, q = c->height_quantum_m;
    if (i0 > CT_CHUNK_CORE - 1) i0 = CT_CHUNK_CORE - 1;
    if (j0 > CT_CHUNK_CORE - 1) j0 = CT_CHUNK_CORE - 1;
    if (i0 < 0) i0 = 0;
    if (j0 < 0) j0 = 0;
    fx = lx - i0;
    fy = ly - j0;
    h00 = ct_height_decode(c->height[j0 * CT_CHUNK_EDGE + i0], q);
    h10 = ct_height_decode(c->height[j0 * CT_CHUNK_EDGE + i0 + 1], q);
    h01 = ct_height_decode(c->height[(j0 + 1) * CT_CHUNK_EDGE + i0], q);
    h11 = ct_height_decode(c->height[(j0 + 1) * CT_CHUNK_EDGE + i0 + 1], q);
    *vi = (int)floor(lx + 0.5);
    *vj = (int)floor(ly + 0.5);
    *vertex_m = ct_height_decode(c->height[*vj * CT_CHUNK_EDGE + *vi], q);
    *biome = c->biome[*vj * CT_CHUNK_EDGE + *vi];
    return (1.0 - fy) * ((1.0 - fx) * h00 + fx * h10) + fy * ((1.0 - fx) * h01 + fx * h11);
}

game *game_create(const ct_world *world, const game_route *route, FILE *out, char *err, size_t errlen)
{
    game *g;
    int i;
    if (!world || !route || !out || route->steps < 1) {
        if (err && errlen) snprintf(err, errlen, "game_create: world, route (steps >= 1) and out are required");
        return NULL;
    }
    g = (game *)calloc(1, sizeof *g);
    if (!g) return NULL;
    g->world = world;
    g->route = *route;
    g->out = out;
    g->lod = (int)ct_world_config(world)->surface_lod;
    g->radius_m = ct_world_config(world)->radius_m;
    g->last_face = -1;
    for (i = 0; i < GAME_SLOTS; i++) {
        g->slots[i].chunk = (ct_chunk *)malloc(sizeof(ct_chunk));
        if (!g->slots[i].chunk) {
            game_free(g);
            if (err && errlen) snprintf(err, errlen, "game_create: out of memory");
            return NULL;
        }
    }
    /* The old renderer reads its terrain through this callback, in its own
     * Z-up frame and materials; vscale 1: heights stay metres. */
    surface_mode_set_height_source(ct_legacy_height_source, (void *)world, 1.0);
    fprintf(out, "world generation=%016" PRIx64 " planet=%u surface_lod=%d radius_m=%.0f unit_m=%.0f\n",
            ct_world_generation(world), (unsigned)ct_world_config(world)->planet_id, g->lod, g->radius_m,
            surface_mode_unit_meters());
    return g;
}

void game_free(game *g)
{
    int i;
    if (!g) return;
    for (i = 0; i < GAME_SLOTS; i++) free(g->slots[i].chunk);
    free(g);
}

int game_stalls(const game *g)
{
    return g ? g->stalls : 0;
}

static void log_step(game *g, const double zup[3], ct_key key, double lx, double ly, const ct_chunk *c)
{
    char addr[48], kt[32];
    double ground_m, vertex_m, source_m, vdir[3], vzup[3], dxm[3], dym[3];
    int vi, vj, biome, source_mat = -1, i, clipped = 0, agree;
    ground_m = chunk_ground(c, lx, ly, &vi, &vj, &vertex_m, &biome);
    /* What the surface renderer's callback says at that same vertex. */
    ct_key_direction(key, vi, vj, vdir, NULL, 0);
    ct_world_to_legacy(vdir, vzup);
    source_m = surface_mode_probe(vzup, &source_mat);
    /* The chunk stores the same height quantised: encoding the callback's
     * value must give the chunk's code, and the materials must match. */
    agree = ct_height_encode(source_m, c->height_quantum_m, &clipped) == c->height[vj * CT_CHUNK_EDGE + vi] &&
            source_mat == ct_legacy_material_from_biome(biome);
    /* Cell size here, from the metric (not the renderer's fixed 1 km). */
    ct_key_metric(key, lx, ly, g->radius_m, dxm, dym, NULL, 0);
    key_text(key, addr, sizeof addr);
    fprintf(g->out, "step=%d dir=%.17g,%.17g,%.17g eye_m=%.3f addr=%u/%016" PRIx64 "/%s local=%.3f,%.3f"
            " ground_m=%.3f vertex=%d,%d vertex_m=%.3f source_m=%.6f material=%s source_material=%s agree=%s"
            " cell_m=%.1fx%.1f nb=%d:",
            g->step, zup[0], zup[1], zup[2], ground_m + g->route.altitude_m, (unsigned)c->planet_id, c->generation, addr,
            lx, ly, ground_m, vi, vj, vertex_m, source_m,
            ct_legacy_material_name(ct_legacy_material_from_biome(biome)), ct_legacy_material_name(source_mat), agree ? "yes" : "NO",
            sqrt(dxm[0] * dxm[0] + dxm[1] * dxm[1] + dxm[2] * dxm[2]),
            sqrt(dym[0] * dym[0] + dym[1] * dym[1] + dym[2] * dym[2]), g->n_wanted);
    for (i = 0; i < g->n_wanted; i++) {
        key_text(g->wanted[i], kt, sizeof kt);
        fprintf(g->out, "%s%s", i ? "," : "", kt);
    }
    fprintf(g->out, " nb_library=%s\n", same_as_library(key, lx, ly, g->wanted, g->n_wanted) ? "same" : "DIFFERENT");
}

int game_frame(game *g)
{
    double zup[3], dir[3], lx, ly;
    ct_key key, nb[9];
    game_slot *s;
    int n, i, changed;
    if (!g) return -1;
    if (g->step > g->route.steps) return 0;
    /* The pose is authoritative in the game's Z-up body frame; the core is Y-up. */
    route_dir(&g->route, g->step, zup);
    ct_legacy_to_world(zup, dir);
    if (ct_key_at(g->world, dir, g->lod, &key, &lx, &ly, NULL, 0) != CT_OK) return -1;

    n = gather_neighbourhood(g, key, lx, ly, nb);
    changed = n != g->n_wanted;
    for (i = 0; i < n && !changed; i++) changed = !key_in(nb[i], g->wanted, g->n_wanted);
    if (changed) {
        memcpy(g->wanted, nb, sizeof nb);
        g->n_wanted = n;
    }
    request_missing(g);
    swap_when_ready(g);

    /* Collision reads only the active neighbourhood. The player moves less
     * than a chunk per step, so its chunk is in the old 3x3 while the new
     * one loads; if even that is missing (start-up), wait a frame. */
    s = key_in(key, g->active, g->n_active) ? slot_of(g, key) : NULL;
    if (!s) {
        g->stalls++;
        return 1;
    }
    if (g->last_face >= 0 && g->last_face != key.face)
        fprintf(g->out, "cross %s -> %s at step %d\n", ct_face_name(g->last_face), ct_face_name(key.face), g->step);
    g->last_face = key.face;
    log_step(g, zup, key, lx, ly, s->chunk);
    g->step++;
    return g->step <= g->route.steps ? 1 : 0;
}

ct_result game_example_config(ct_config *cfg, char *err, size_t errlen)
{
    ct_result r = ct_config_preset(cfg, "balanced", err, errlen);
    /* A small macro graph keeps the build quick; surface_lod 4 makes chunks
     * big enough that the route crosses a few of them per face. */
    if (r == CT_OK) r = ct_config_set(cfg, "seed", "42", err, errlen);
    if (r == CT_OK) r = ct_config_set(cfg, "macro_resolution", "32", err, errlen);
    if (r == CT_OK) r = ct_config_set(cfg, "surface_lod", "4", err, errlen);
    return r;
}

game_route game_example_route(void)
{
    /* Z-up: +Z is up (the core's +Y). From the core's +Z face over its +Y
     * face to its +X face, close to their shared corner. */
    game_route r = { { 0.7, 1.0, 0.99 }, { 1.0, 0.7, 0.99 }, 48, 120.0 };
    return r;
}
