/* main_native.c - the example as a native program, the reference its
 * WebAssembly build is compared with. The "worker" is a queue served at the
 * start of the next frame, so chunks arrive a frame late as they would from
 * a real worker and the game must keep using its old neighbourhood. */
#include "game.h"

#include <stdlib.h>

#define QUEUE_MAX 64

static ct_key queue[QUEUE_MAX];
static int queued;

void platform_request_chunk(ct_key key)
{
    if (queued < QUEUE_MAX) queue[queued++] = key;
}

int main(void)
{
    char err[256];
    ct_config cfg;
    ct_world *world;
    ct_chunk *scratch = (ct_chunk *)malloc(sizeof(ct_chunk));
    game_route route = game_example_route();
    game *g;
    int r = 1, generated = 0;
    if (!scratch || game_example_config(&cfg, err, sizeof err) != CT_OK) {
        fprintf(stderr, "c-game: %s\n", scratch ? err : "out of memory");
        return 1;
    }
    world = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    g = world ? game_create(world, &route, stdout, err, sizeof err) : NULL;
    if (!g) {
        fprintf(stderr, "c-game: %s\n", err);
        return 1;
    }
    while (r == 1) {
        int n = queued, i;
        queued = 0;
        for (i = 0; i < n; i++) {
            if (ct_chunk_generate(world, queue[i], scratch, err, sizeof err) != CT_OK) {
                fprintf(stderr, "c-game: %s\n", err);
                return 1;
            }
            generated++;
            game_deliver(g, scratch);
        }
        r = game_frame(g);
    }
    fprintf(stderr, "c-game: %d chunks generated, %d frames waited\n", generated, game_stalls(g));
    game_free(g);
    ct_world_free(world);
    free(scratch);
    return r == 0 ? 0 : 1;
}
