/* game.c - the game side of the example (see game.h): pose, addressing,
 * neighbourhood, chunk slots, ground and the route log. Plain C99; the
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
    ct_pose pose;             /* the player: core (Y-up) body-fixed direction and heading */
    ct_pose last_pose;        /* the pose of the last logged step, */
    ct_key last_key;          /* the chunk it stood in */
    int have_last;
    ct_key active[9];         /* neighbourhood the ground is read from */
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

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* v / |v|; 0 when v is zero or not finite. */
static int unit3(double v[3])
{
    double len = sqrt(dot3(v, v));
    if (!(len > 0.0) || !(len < HUGE_VAL)) return 0;
    v[0] /= len;
    v[1] /= len;
    v[2] /= len;
    return 1;
}

/* The start pose: at route.from, facing route.toward (the part of it
 * tangent to the sphere there). Both are Z-up; the pose is in the core's
 * Y-up frame, like every ct_pose call. */
static int route_start(const game_route *r, ct_pose *pose)
{
    double along;
    int k;
    ct_legacy_to_world(r->from, pose->dir);
    ct_legacy_to_world(r->toward, pose->forward);
    if (!unit3(pose->dir)) return 0;
    along = dot3(pose->dir, pose->forward);
    for (k = 0; k < 3; k++) pose->forward[k] -= pose->dir[k] * along;
    return unit3(pose->forward);
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
    if (!route_start(route, &g->pose)) {
        free(g);
        if (err && errlen) snprintf(err, errlen, "game_create: route from and toward must be finite, non-zero and not parallel");
        return NULL;
    }
    g->world = world;
    g->route = *route;
    g->out = out;
    g->lod = (int)ct_world_config(world)->surface_lod;
    g->radius_m = ct_world_config(world)->radius_m;
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

/* Vectors and angles are printed to fixed digits: libm's sin, cos and atan2
 * (in ct_pose_move and ct_pose_heading_in_key) may differ in the last bit
 * between the native and the WebAssembly C library, and the two builds must
 * print the same bytes. 1e-12 of a direction is 6 micrometres on the ground. */
static void print_vec(FILE *out, const char *name, const double world[3], int digits)
{
    double z[3];
    ct_world_to_legacy(world, z);   /* the log speaks the game's Z-up frame */
    fprintf(out, " %s=%.*f,%.*f,%.*f", name, digits, z[0], digits, z[1], digits, z[2]);
}

/* A cube-edge crossing: the same heading read in the old chunk's axes and in
 * the new one's. The angles differ (local +x on one face is another axis on
 * the next), while the world-space forward before and after the step agrees
 * up to the step's own small turn. A game that kept the old angle in the new
 * chunk would walk off sideways here. */
static ct_result log_crossing(game *g, ct_key key, char *err, size_t errlen)
{
    char from[32], to[32];
    double from_rad, to_rad;
    ct_result r = ct_pose_heading_in_key(&g->pose, g->last_key, &from_rad, err, errlen);
    if (r == CT_OK) r = ct_pose_heading_in_key(&g->pose, key, &to_rad, err, errlen);
    if (r != CT_OK) return r;
    key_text(g->last_key, from, sizeof from);
    key_text(key, to, sizeof to);
    fprintf(g->out, "cross %s -> %s at step %d from=%s to=%s heading_from=%.6f heading_to=%.6f",
            ct_face_name(g->last_key.face), ct_face_name(key.face), g->step, from, to, from_rad, to_rad);
    print_vec(g->out, "forward_before", g->last_pose.forward, 9);
    print_vec(g->out, "forward_after", g->pose.forward, 9);
    fputc('\n', g->out);
    return CT_OK;
}

static ct_result log_step(game *g, ct_key key, double lx, double ly, const ct_chunk *c, char *err, size_t errlen)
{
    char addr[48], kt[32];
    double heading, vertex_m, source_m, vdir[3], vzup[3], dxm[3], dym[3];
    int vi, vj, source_mat = -1, i, clipped = 0, agree;
    ct_ground ground;
    /* The player stands on the exact ground: where the radial line meets the
     * chunk's stride-1 mesh (the triangles ct_mesh_build draws), from the
     * chunk's float heights, with its normal, slope and water. */
    ct_result r = ct_chunk_ground(g->world, c, lx, ly, &ground, err, errlen);
    /* The heading in this chunk's axes, for code that keeps headings that
     * way (the old renderer's camera, local movement). Read it from the pose
     * every frame; never carry the angle from one chunk to the next. */
    if (r == CT_OK) r = ct_pose_heading_in_key(&g->pose, key, &heading, err, errlen);
    if (r != CT_OK) return r;
    /* What the surface renderer's callback says at the nearest vertex. */
    vi = (int)floor(lx + 0.5);
    vj = (int)floor(ly + 0.5);
    vertex_m = ct_height_decode(c->height[vj * CT_CHUNK_EDGE + vi], c->height_quantum_m);
    ct_key_direction(key, vi, vj, vdir, NULL, 0);
    ct_world_to_legacy(vdir, vzup);
    source_m = surface_mode_probe(vzup, &source_mat);
    /* The chunk stores the same height quantised: encoding the callback's
     * value must give the chunk's code, and the materials must match. */
    agree = ct_height_encode(source_m, c->height_quantum_m, &clipped) == c->height[vj * CT_CHUNK_EDGE + vi] &&
            source_mat == ct_legacy_material_from_biome(ground.biome);
    /* Cell size here, from the metric (not the renderer's fixed 1 km). */
    ct_key_metric(key, lx, ly, g->radius_m, dxm, dym, NULL, 0);
    key_text(key, addr, sizeof addr);
    fprintf(g->out, "step=%d", g->step);
    print_vec(g->out, "dir", g->pose.dir, 12);
    print_vec(g->out, "forward", g->pose.forward, 9);
    fprintf(g->out, " heading=%.6f addr=%u/%016" PRIx64 "/%s local=%.3f,%.3f feet_m=%.4f eye_m=%.4f slope_deg=%.2f",
            heading, (unsigned)c->planet_id, c->generation, addr, lx, ly, ground.height_m,
            ground.height_m + g->route.eye_m, ground.slope_deg);
    if (ground.has_water) fprintf(g->out, " water_m=%.4f", ground.water_m);
    else fprintf(g->out, " water_m=none");
    fprintf(g->out, " vertex=%d,%d vertex_m=%.3f source_m=%.6f material=%s source_material=%s agree=%s"
            " cell_m=%.1fx%.1f nb=%d:",
            vi, vj, vertex_m, source_m, ct_legacy_material_name(ct_legacy_material_from_biome(ground.biome)),
            ct_legacy_material_name(source_mat), agree ? "yes" : "NO",
            sqrt(dot3(dxm, dxm)), sqrt(dot3(dym, dym)), g->n_wanted);
    for (i = 0; i < g->n_wanted; i++) {
        key_text(g->wanted[i], kt, sizeof kt);
        fprintf(g->out, "%s%s", i ? "," : "", kt);
    }
    fprintf(g->out, " nb_library=%s\n", same_as_library(key, lx, ly, g->wanted, g->n_wanted) ? "same" : "DIFFERENT");
    return CT_OK;
}

static int game_fail(const char *err)
{
    fprintf(stderr, "c-game: %s\n", err);
    return -1;
}

int game_frame(game *g)
{
    char err[256];
    double lx, ly;
    ct_key key, nb[9];
    game_slot *s;
    int n, i, changed;
    if (!g) return -1;
    if (g->step > g->route.steps) return 0;
    if (ct_key_at(g->world, g->pose.dir, g->lod, &key, &lx, &ly, err, sizeof err) != CT_OK) return game_fail(err);

    n = gather_neighbourhood(g, key, lx, ly, nb);
    changed = n != g->n_wanted;
    for (i = 0; i < n && !changed; i++) changed = !key_in(nb[i], g->wanted, g->n_wanted);
    if (changed) {
        memcpy(g->wanted, nb, sizeof nb);
        g->n_wanted = n;
    }
    request_missing(g);
    swap_when_ready(g);

    /* The ground is read only from the active neighbourhood. The player
     * moves less than a chunk per step, so its chunk is in the old 3x3
     * while the new one loads; if even that is missing (start-up), wait a
     * frame without moving. */
    s = key_in(key, g->active, g->n_active) ? slot_of(g, key) : NULL;
    if (!s) {
        g->stalls++;
        return 1;
    }
    if (g->have_last && g->last_key.face != key.face && log_crossing(g, key, err, sizeof err) != CT_OK)
        return game_fail(err);
    if (log_step(g, key, lx, ly, s->chunk, err, sizeof err) != CT_OK) return game_fail(err);
    g->last_pose = g->pose;
    g->last_key = key;
    g->have_last = 1;
    /* Walk on. ct_pose_move carries the heading over the sphere by parallel
     * transport: no latitude, longitude or chunk axes in it, so nothing has
     * to be turned by hand at a cube edge. */
    if (ct_pose_move(&g->pose, g->route.step_m, 0.0, g->radius_m, &g->pose, err, sizeof err) != CT_OK)
        return game_fail(err);
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
     * face to its +X face, close to their shared corner: 48 steps of 36 km
     * (about 20 samples at surface_lod 4), eyes 1.7 m above the feet. */
    game_route r = { { 0.7, 1.0, 0.99 }, { 1.0, 0.7, 0.99 }, 48, 36000.0, 1.7 };
    return r;
}
