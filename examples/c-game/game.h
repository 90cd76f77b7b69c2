/* game.h - the shape of a C game that embeds the terrain core: a ground pose
 * (body-fixed direction and heading) walked over the sphere, the canonical
 * chunk address under the player, the heading in that chunk's axes (turned
 * at a cube edge), the 3x3 chunk neighbourhood across cube edges, chunks
 * generated elsewhere (a worker) and delivered back, the exact ground read
 * from those same chunks, and the old surface renderer fed through
 * ct_legacy.h. Nothing here knows Emscripten or
 * threads: main_wasm.c and main_native.c supply the "worker". */
#ifndef GAME_H
#define GAME_H

#include <stdio.h>
#include "ct.h"

#define GAME_SLOTS 18        /* chunks held: the active 3x3 plus the next 3x3 */

typedef struct game game;

/* Route of the example: start at a body-fixed direction facing another (both
 * Z-up, the game's frame) and walk straight ahead, `steps` steps of step_m
 * over the sphere, feet on the ground and eyes eye_m above them. */
typedef struct game_route {
    double from[3], toward[3];   /* Z-up directions, any length, not parallel */
    int steps;
    double step_m, eye_m;
} game_route;

/* The platform asks a worker to generate key and later hands the result to
 * game_deliver(). Provided by main_native.c or main_wasm.c. */
void platform_request_chunk(ct_key key);

/* The example's world settings and route (shared by both builds). */
ct_result game_example_config(ct_config *cfg, char *err, size_t errlen);
game_route game_example_route(void);

/* The world is borrowed (must outlive the game). NULL on error. */
game *game_create(const ct_world *world, const game_route *route, FILE *out, char *err, size_t errlen);
void game_free(game *g);
/* One frame. Returns 1 while the route goes on, 0 when it is done, -1 on error. */
int game_frame(game *g);
/* A generated chunk for a key the game asked for (copied; the caller keeps data). */
void game_deliver(game *g, const ct_chunk *data);
/* Frames spent waiting for chunks (timing-dependent, so not in the route log). */
int game_stalls(const game *g);

#endif /* GAME_H */
