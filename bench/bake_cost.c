/* bake_cost.c - what baking a tile costs natively, and the hours a whole LOD
 * of the page world takes (docs/bake.md). For LODs 8, 10 and 12 of the page
 * world (balanced, surface_lod 12): the share of sea, shore and land tiles
 * (4096 keys spread over every face, each classed as the bake's planner
 * classes it: its centre and corners all sea, all land, or mixed), then the
 * CPU time of baking tiles of each class (generate, encode the .ctt, SHA-256;
 * the write is I/O and measured by bench/bake.mjs), classes interleaved rep
 * by rep, median; the tile and its gzip size; and from those the single-core
 * hours for the LOD alone.
 *
 *   make build/native/bake_cost && build/native/bake_cost [reps] [name=value ...] */
#include "chunk_cost.h"
#include "sha256.h"
#ifdef CT_CLI_ZLIB
#include <zlib.h>
#endif

#define SAMPLE_KEYS 4096
#define MAX_REPS 32

static ct_chunk chunk;
static uint8_t tile[CT_TILE_FILE_BYTES];

/* 0 sea, 1 shore, 2 land: the planner's five samples. */
static int tile_class(const ct_world *w, ct_key key)
{
    static const double at[5][2] = {{128, 128}, {0, 0}, {256, 0}, {0, 256}, {256, 256}};
    int k, land = 0;
    for (k = 0; k < 5; k++) {
        double d[3];
        ct_sample s;
        ct_key_direction(key, at[k][0], at[k][1], d, NULL, 0);
        ct_world_sample(w, d, &s, NULL, 0);
        land += !s.has_water;
    }
    return land == 0 ? 0 : land == 5 ? 2 : 1;
}

/* The n-th key of LOD lod in a fixed pseudo-random spread over all faces. */
static ct_key spread_key(int lod, uint32_t n)
{
    uint64_t h = ct_fnv1a64(&n, sizeof n, CT_FNV1A64_INIT ^ (uint64_t)lod);
    uint32_t side = 1u << lod;
    return ct_key_make((int)(h % 6), lod, (uint32_t)(h >> 8) % side, (uint32_t)(h >> 32) % side);
}

static size_t gz_bytes(const uint8_t *data, size_t len)
{
#ifdef CT_CLI_ZLIB
    static uint8_t out[CT_TILE_FILE_BYTES + 4096];
    z_stream z;
    size_t n;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = sizeof out;
    deflate(&z, Z_FINISH);
    n = z.total_out;
    deflateEnd(&z);
    return n;
#else
    (void)data; (void)len;
    return 0;
#endif
}

int main(int argc, char **argv)
{
    static const int lods[3] = {8, 10, 12};
    static const char *names[3] = {"sea", "shore", "land"};
    int reps = argc > 1 ? atoi(argv[1]) : 9, li;
    ct_world *w = build(12, argc, argv, 2);
    if (!w || reps < 1 || reps > MAX_REPS) return 1;
    printf("page world (balanced, surface_lod 12), generation %016llx; CPU ms per tile = generate + .ctt + SHA-256\n",
           (unsigned long long)ct_world_generation(w));
    for (li = 0; li < 3; li++) {
        int lod = lods[li], c, r;
        uint32_t n, found[3] = {0, 0, 0};
        ct_key pick[3][MAX_REPS];
        double share[3], ms[3][MAX_REPS], gz[3][MAX_REPS], dry[3] = {0, 0, 0}, per_tile = 0, tiles = 6.0 * (double)(1u << lod) * (double)(1u << lod);
        for (n = 0; n < SAMPLE_KEYS; n++) {
            ct_key k = spread_key(lod, n);
            c = tile_class(w, k);
            if (found[c] < (uint32_t)reps) pick[c][found[c]] = k;
            found[c]++;
        }
        for (c = 0; c < 3; c++) share[c] = (double)found[c] / SAMPLE_KEYS;
        /* Rep by rep, class by class: the same machine state for all three. */
        for (r = 0; r < reps; r++)
            for (c = 0; c < 3; c++) {
                uint8_t sha[32];
                double t0;
                if ((uint32_t)r >= found[c]) { ms[c][r] = gz[c][r] = 0; continue; }
                t0 = cpu_ms();
                ct_chunk_generate(w, pick[c][r], &chunk, NULL, 0);
                ct_chunk_encode_tile(&chunk, tile, sizeof tile, NULL, 0);
                cli_sha256(tile, sizeof tile, sha);
                ms[c][r] = cpu_ms() - t0;
                gz[c][r] = (double)gz_bytes(tile, sizeof tile);
                dry[c] += dry_share(&chunk);
            }
        for (c = 0; c < 3; c++) {
            int m = (int)(found[c] < (uint32_t)reps ? found[c] : (uint32_t)reps);
            if (m == 0) { printf("LOD %2d %-5s share %5.1f%%: no tile in the spread\n", lod, names[c], 100 * share[c]); continue; }
            qsort(ms[c], (size_t)m, sizeof(double), cmp);
            qsort(gz[c], (size_t)m, sizeof(double), cmp);
            printf("LOD %2d %-5s share %5.1f%%: %6.2f ms/tile (min %6.2f), %5.1f tiles/s per core, .ctt.gz %.0f KB, dry %.0f%%\n",
                   lod, names[c], 100 * share[c], ms[c][m / 2], ms[c][0], 1000.0 / ms[c][m / 2], gz[c][m / 2] / 1024.0,
                   100 * dry[c] / m);
            per_tile += share[c] * ms[c][m / 2];
        }
        printf("LOD %2d: %.0f tiles, %.2f ms/tile on average, %.1f CPU hours native (one core), %.2f TB of .ctt\n", lod,
               tiles, per_tile, tiles * per_tile / 3.6e6, tiles * CT_TILE_FILE_BYTES / 1e12);
    }
    ct_world_free(w);
    return 0;
}
