/* main_wasm.c - the example built with Emscripten against `make wasm-lib`,
 * run under Node. No pthreads: the same program, started a second time in a
 * Node worker thread with --chunk-worker, builds the same world and answers
 * chunk requests; chunks come back as bytes (transferred, the same ct_chunk
 * layout since it is the same build) and are handed to game_deliver(). The
 * main thread runs the game from emscripten_set_main_loop, never waiting
 * for the worker inside a frame. The EM_JS islands are the only JavaScript.
 * In a browser the same shape uses a Web Worker and postMessage. */
#include "game.h"

#include <emscripten.h>
#include <stdlib.h>

static ct_world *world;
static game *the_game;
static ct_chunk *scratch;     /* worker: generation target; main: arrival buffer */
static int generated;

EM_JS(int, cg_is_worker, (void), {
    return typeof process === 'object' && process.argv.indexOf('--chunk-worker') >= 0 ? 1 : 0;
});

/* Main thread: start the worker (this same script) and route its replies. */
EM_JS(void, cg_start_worker, (void), {
    const { Worker } = require('worker_threads');
    const w = new Worker(__filename, { argv: ['--chunk-worker'] });
    Module.cgWorker = w;
    w.on('message', (m) => {
        if (m.error) { console.error('c-game worker: ' + m.error); process.exitCode = 1; return; }
        HEAPU8.set(new Uint8Array(m.bytes), Module._cg_arrival_buffer());
        Module._cg_arrived();
    });
    w.on('error', (e) => { console.error('c-game worker died: ' + e.message); process.exitCode = 1; });
});

EM_JS(void, cg_post_request, (int face, int lod, int x, int y), {
    Module.cgWorker.postMessage({ face: face, lod: lod, x: x, y: y });
});

EM_JS(void, cg_stop_worker, (void), {
    Module.cgWorker.terminate();
});

/* Worker thread: answer each request with the chunk's bytes, transferred. */
EM_JS(void, cg_serve, (void), {
    const { parentPort } = require('worker_threads');
    parentPort.on('message', (m) => {
        const p = Module._cg_generate(m.face, m.lod, m.x, m.y);
        if (!p) { parentPort.postMessage({ error: 'chunk generation failed' }); return; }
        const bytes = HEAPU8.slice(p, p + Module._cg_chunk_bytes());
        parentPort.postMessage({ bytes: bytes.buffer }, [bytes.buffer]);
    });
});

void platform_request_chunk(ct_key key)
{
    cg_post_request(key.face, key.lod, (int)key.x, (int)key.y);
}

EMSCRIPTEN_KEEPALIVE ct_chunk *cg_generate(int face, int lod, int x, int y)
{
    char err[256];
    if (ct_chunk_generate(world, ct_key_make(face, lod, (uint32_t)x, (uint32_t)y), scratch, err, sizeof err) != CT_OK) {
        fprintf(stderr, "c-game worker: %s\n", err);
        return NULL;
    }
    return scratch;
}

EMSCRIPTEN_KEEPALIVE int cg_chunk_bytes(void) { return (int)sizeof(ct_chunk); }
EMSCRIPTEN_KEEPALIVE ct_chunk *cg_arrival_buffer(void) { return scratch; }

EMSCRIPTEN_KEEPALIVE void cg_arrived(void)
{
    generated++;
    game_deliver(the_game, scratch);
}

static void frame(void)
{
    int r = game_frame(the_game);
    if (r == 1) return;
    emscripten_cancel_main_loop();
    cg_stop_worker();
    fprintf(stderr, "c-game: %d chunks from the worker, %d frames waited\n", generated, game_stalls(the_game));
    game_free(the_game);
    ct_world_free(world);
    exit(r == 0 ? 0 : 1);
}

int main(void)
{
    char err[256];
    ct_config cfg;
    game_route route = game_example_route();
    scratch = (ct_chunk *)malloc(sizeof(ct_chunk));
    if (!scratch || game_example_config(&cfg, err, sizeof err) != CT_OK) {
        fprintf(stderr, "c-game: %s\n", scratch ? err : "out of memory");
        return 1;
    }
    /* Both threads build the same world from the same config; chunks carry
     * the generation, and game_deliver refuses any that differ. */
    world = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    if (!world) {
        fprintf(stderr, "c-game: %s\n", err);
        return 1;
    }
    if (cg_is_worker()) {
        cg_serve();
        emscripten_exit_with_live_runtime();
    }
    the_game = game_create(world, &route, stdout, err, sizeof err);
    if (!the_game) {
        fprintf(stderr, "c-game: %s\n", err);
        return 1;
    }
    cg_start_worker();
    emscripten_set_main_loop(frame, 0, 0);
    return 0;
}
