/* skip_cost.c - what the bound-proven skips (sample.c) save per chunk: the
 * same chunk generated with the skips off and on, alternated rep by rep in
 * one process (which goes first rotates), CPU time, for land, sea, shore and
 * river chunks of the default world at surface_lod 6 and 14. Prints min and
 * median of each side and of the per-rep on/off ratios, and checks that both
 * sides give the same digest.
 *
 *   make build/native/skip_cost   (or: cc ... bench/skip_cost.c build/native/libct.a -lm -pthread)
 *   build/native/skip_cost [reps] [only-class] [name=value ...]
 *   (SKIP_COST_LOD=6 or 14 in the environment: that surface_lod only)
 *
 * Keys (found in the surface_lod 6 world): land and sea, the first of the
 * bench keys of bench/common.mjs at least 95% / at most 5% dry; shore, the
 * scanned chunk nearest half dry; river, the chunk under the river node of
 * largest drainage area that lies in river water. At surface_lod 14 each
 * class's key is the LOD-14 chunk at a point of its LOD-6 key: the centre
 * (land, sea), a dry sample next to a wet one (shore), the river node. */
#include "chunk_cost.h"
#include "world/ct_world.h"
#include "surface/ct_surface.h"

static ct_chunk chunk;

/* A dry sample of the chunk in `chunk` next to a wet one, as a direction. */
static void shore_dir(ct_key k, double dir[3])
{
    int i, j;
    ct_key_direction(k, 128.0, 128.0, dir, NULL, 0);
    for (j = 0; j < 256; j++)
        for (i = 0; i < 256; i++) {
            size_t at = (size_t)j * CT_CHUNK_EDGE + (size_t)i;
            if ((chunk.water[at] == CT_NO_WATER_CODE) != (chunk.water[at + 1] == CT_NO_WATER_CODE)) {
                ct_key_direction(k, (double)i, (double)j, dir, NULL, 0);
                return;
            }
        }
}

/* Land (0), sea (1), shore (2), river (3) keys at LOD 6 and a direction
 * inside each (shore: a coast sample; river: a river node in river water). */
static void find_keys(const ct_world *w, ct_key key[4], double dir[4][3])
{
    int found[3] = {0, 0, 0}, i;
    double best_shore = 2.0, lx, ly;
    for (i = 0; i < 600 && !(found[0] && found[1] && best_shore < 0.01); i++) {
        ct_key k = ct_key_make(i % 6, 6, (uint32_t)((i * 37 + 11) % 64), (uint32_t)((i * 53 + 5) % 64));
        double s;
        ct_chunk_generate(w, k, &chunk, NULL, 0);
        s = dry_share(&chunk);
        if (!found[0] && s >= 0.95) { key[0] = k; found[0] = 1; }
        if (!found[1] && s <= 0.05) { key[1] = k; found[1] = 1; }
        if (s > 0.05 && s < 0.95 && (s - 0.5) * (s - 0.5) < best_shore) {
            best_shore = (s - 0.5) * (s - 0.5);
            key[2] = k;
            shore_dir(k, dir[2]);
        }
    }
    ct_key_direction(key[0], 128.0, 128.0, dir[0], NULL, 0);
    ct_key_direction(key[1], 128.0, 128.0, dir[1], NULL, 0);
    {
        /* river: the node of largest drainage that lies in river water */
        ct_rivers_info info;
        uint32_t n, best = 0, v;
        double *d, *area;
        uint8_t *flags;
        ct_world_rivers_info(w, &info, NULL, 0);
        n = info.node_count;
        d = malloc(3 * sizeof(double) * (n + 1));
        area = malloc(sizeof(double) * (n + 1));
        flags = malloc(n + 1);
        ct_world_rivers(w, n, d, NULL, area, NULL, NULL, NULL, flags, NULL, 0);
        key[3] = key[0];
        memcpy(dir[3], dir[0], sizeof dir[3]);
        for (;;) {
            double top = -1.0;
            ct_sample smp;
            for (v = 0; v < n; v++)
                if (flags[v] == 0 && area[v] > top) { top = area[v]; best = v; }
            if (top < 0.0) break;
            area[best] = -2.0;
            ct_world_sample(w, d + 3 * best, &smp, NULL, 0);
            if (smp.water_body != CT_WATER_RIVER) continue;
            ct_key_at(w, d + 3 * best, 6, &key[3], &lx, &ly, NULL, 0);
            memcpy(dir[3], d + 3 * best, sizeof dir[3]);
            break;
        }
        free(d); free(area); free(flags);
    }
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 9, li, c, r;
    const char *only = argc > 2 && !strchr(argv[2], '=') ? argv[2] : NULL;
    const char *names[4] = {"land", "sea", "shore", "river"};
    const int lods[2] = {6, 14};
    ct_key key6[4];
    double dir[4][3];
    static double t_on[64], t_off[64], ratio[64];
    ct_world *w6 = build(6, argc, argv, 2);
    if (!w6 || reps < 1 || reps > 64) return 1;
    find_keys(w6, key6, dir);
    for (li = 0; li < 2; li++) {
        ct_world *w;
        if (getenv("SKIP_COST_LOD") && atoi(getenv("SKIP_COST_LOD")) != lods[li]) continue;
        w = lods[li] == 6 ? w6 : build(lods[li], argc, argv, 2);
        for (c = 0; c < 4; c++) {
            ct_key k = key6[c];
            uint64_t d_on = 0, d_off = 0, counts[CT__SKIP_COUNT];
            double lx, ly, s;
            int q;
            if (only && strcmp(only, names[c])) continue;
            if (lods[li] != 6) ct_key_at(w, dir[c], lods[li], &k, &lx, &ly, NULL, 0);
            memset(counts, 0, sizeof counts);
            ct__chunk_generate_with(&w->field, k, &chunk, 1, counts, NULL, 0);
            s = dry_share(&chunk);
            for (r = 0; r < reps; r++) {
                int first_on = r & 1, side;
                for (side = 0; side < 2; side++) {
                    int on = side == 0 ? first_on : !first_on;
                    double t0 = cpu_ms();
                    ct__chunk_generate_with(&w->field, k, &chunk, on, NULL, NULL, 0);
                    if (on) { t_on[r] = cpu_ms() - t0; d_on = chunk.digest; }
                    else { t_off[r] = cpu_ms() - t0; d_off = chunk.digest; }
                }
                ratio[r] = t_on[r] / t_off[r];
            }
            qsort(t_on, (size_t)reps, sizeof(double), cmp);
            qsort(t_off, (size_t)reps, sizeof(double), cmp);
            qsort(ratio, (size_t)reps, sizeof(double), cmp);
            printf("surface_lod %2d %-5s face %d lod %d %u,%u dry %.2f | off %.2f [%.2f] ms, on %.2f [%.2f] ms, "
                   "on/off median %.2f min %.2f | digests %s | skips",
                   lods[li], names[c], k.face, k.lod, k.x, k.y, s, t_off[reps / 2], t_off[0], t_on[reps / 2],
                   t_on[0], ratio[reps / 2], ratio[0], d_on == d_off ? "equal" : "DIFFER");
            for (q = 0; q < CT__SKIP_COUNT; q++) printf(" %llu", (unsigned long long)counts[q]);
            printf("\n");
            fflush(stdout);
        }
        if (w != w6) ct_world_free(w);
    }
    ct_world_free(w6);
    return 0;
}
