/* test_coasts.c - the sub-grid coast layer (coast.c; coast_fractal and
 * shore_ramp_m): the refined shore never merges water bodies or floods a lake,
 * land is never below the water beside it, the shore moves only inside macro
 * cells that already held a shore, the contracts (shared borders, LOD subsets,
 * sample == chunk vertex) hold with the layer on, and the coast really is
 * longer than the macro grid's. With the layer off the payloads equal the
 * reference model's (tests/c/test_reference.c). */
#include "surface/ct_surface.h"
#include "world/ct_world.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ct_chunk ca, cb;

static ct_world *build(const char *text)
{
    ct_config cfg;
    char err[256];
    ct_world *w;
    ct_config_preset(&cfg, "balanced", NULL, 0);
    /* A small world: 32 macro cells per face edge, chunks down to LOD 4
     * (128 samples per macro cell). */
    if (ct_config_parse(&cfg, "macro_resolution=32\nsurface_lod=4", err, sizeof err) != CT_OK ||
        ct_config_parse(&cfg, text, err, sizeof err) != CT_OK) {
        CHECK(0, "config: %s", err);
        return NULL;
    }
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    return w;
}

/* Face (u,v) of chunk sample (i,j) and the macro cell's corner bodies. */
static void cell_of(const ct_world *w, ct_key key, int i, int j, uint32_t idx[4], int32_t body[4])
{
    double dir[3];
    int face;
    double u, v, gx, gy;
    uint32_t n = w->field.n, ci, cj;
    double m;
    ct__sample_direction(key.face, key.lod, (int64_t)key.x * 256 + i, (int64_t)key.y * 256 + j, dir);
    /* The sampler's canonical unit vector (sample.c), so that samples on a
     * cell edge land in the same cell as there. */
    m = fabs(dir[0]);
    if (fabs(dir[1]) > m) m = fabs(dir[1]);
    if (fabs(dir[2]) > m) m = fabs(dir[2]);
    dir[0] /= m;
    dir[1] /= m;
    dir[2] /= m;
    ct__normalize_canonical(dir);
    ct__cube_from_dir(dir, &face, &u, &v);
    gx = (u + 1.0) * 0.5 * (double)n;
    gy = (v + 1.0) * 0.5 * (double)n;
    ci = (uint32_t)gx;
    cj = (uint32_t)gy;
    if (ci >= n) ci = n - 1u;
    if (cj >= n) cj = n - 1u;
    idx[0] = w->field.vertex_fij[CT__FIJ(n, face, ci, cj)];
    idx[1] = w->field.vertex_fij[CT__FIJ(n, face, ci + 1u, cj)];
    idx[2] = w->field.vertex_fij[CT__FIJ(n, face, ci, cj + 1u)];
    idx[3] = w->field.vertex_fij[CT__FIJ(n, face, ci + 1u, cj + 1u)];
    for (i = 0; i < 4; i++) body[i] = w->field.body_v[idx[i]];
}

/* A chunk that holds both land and water. */
static int coastal(const ct_chunk *c)
{
    int k, wet = 0;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++) wet += c->water[k] != CT_NO_WATER_CODE;
    return wet > CT_CHUNK_SAMPLES / 50 && wet < CT_CHUNK_SAMPLES - CT_CHUNK_SAMPLES / 50;
}

static int transitions(const ct_chunk *c)
{
    int i, j, t = 0;
    for (j = 0; j < CT_CHUNK_EDGE; j++)
        for (i = 0; i + 1 < CT_CHUNK_EDGE; i++) {
            t += (c->water[j * CT_CHUNK_EDGE + i] != 0) != (c->water[j * CT_CHUNK_EDGE + i + 1] != 0);
            t += (c->water[i * CT_CHUNK_EDGE + j] != 0) != (c->water[(i + 1) * CT_CHUNK_EDGE + j] != 0);
        }
    return t;
}

/* On coastal chunks at LOD 3 of two seeds: the water of each sample belongs
 * to a water corner of its macro cell and carries that body's level; two
 * bodies never touch (no wet 4-neighbours of different levels); land is never
 * below the water next to it; where the layer changed land to water or back,
 * the cell already held a shore; and the shore is longer than without it. */
static void test_shore_guarantees(void)
{
    /* Rivers off: their water stands at its own surface, not a corner's level. */
    static const char *const seeds[] = {"seed=42\nriver_min_area_km2=0", "seed=7\nriver_min_area_km2=0"};
    size_t s;
    long checked = 0, bad_body = 0, touching = 0, below = 0, moved = 0, moved_far = 0, flat = 0, land = 0;
    long t_on = 0, t_off = 0;
    for (s = 0; s < 2; s++) {
        char off[64];
        ct_world *on, *ref;
        int f, x, y;
        snprintf(off, sizeof off, "%s\ncoast_fractal=0\nshore_ramp_m=0", seeds[s]);
        on = build(seeds[s]);
        ref = build(off);
        if (!on || !ref) return;
        for (f = 0; f < 6; f++) {
            for (y = 0; y < 4; y++) {
                for (x = 0; x < 4; x++) {
                    ct_key key;
                    int i, j;
                    key.face = f; key.lod = 2; key.x = (uint32_t)x; key.y = (uint32_t)y;
                    ct_chunk_generate(on, key, &ca, NULL, 0);
                    if (!coastal(&ca)) continue;
                    ct_chunk_generate(ref, key, &cb, NULL, 0);
                    t_on += transitions(&ca);
                    t_off += transitions(&cb);
                    for (j = 0; j < CT_CHUNK_EDGE; j++) {
                        for (i = 0; i < CT_CHUNK_EDGE; i++) {
                            int at = j * CT_CHUNK_EDGE + i, k, wet = ca.water[at] != 0;
                            int32_t body[4];
                            uint32_t idx[4];
                            checked++;
                            cell_of(on, key, i, j, idx, body);
                            if (wet != (cb.water[at] != 0)) {
                                int w_c = 0;
                                moved++;
                                for (k = 0; k < 4; k++) w_c += body[k] >= 0;
                                if (w_c == 0 || w_c == 4) moved_far++;
                            }
                            if (wet) {
                                int ok = 0;
                                for (k = 0; k < 4; k++)
                                    if (body[k] >= 0 &&
                                        ca.water[at] == ct_height_encode(on->field.water_level_v[idx[k]], 1.0, NULL))
                                        ok = 1;
                                if (!ok) bad_body++;
                            } else {
                                land++;
                                if (ca.height[at] == CT_SEA_LEVEL_CODE) flat++;
                            }
                            /* Right and down neighbours. */
                            for (k = 0; k < 2; k++) {
                                int ni = i + (k == 0), nj = j + (k == 1), nb;
                                if (ni >= CT_CHUNK_EDGE || nj >= CT_CHUNK_EDGE) continue;
                                nb = nj * CT_CHUNK_EDGE + ni;
                                if (wet && ca.water[nb] && ca.water[nb] != ca.water[at]) touching++;
                                if (wet && !ca.water[nb] && ca.height[nb] < ca.water[at]) below++;
                                if (!wet && ca.water[nb] && ca.height[at] < ca.water[nb]) below++;
                            }
                        }
                    }
                }
            }
        }
        ct_world_free(on);
        ct_world_free(ref);
    }
    CHECK(checked > 100000, "%ld coastal samples checked", checked);
    CHECK(bad_body == 0, "%ld wet samples not at the level of a water corner of their cell", bad_body);
    CHECK(touching == 0, "%ld wet samples touch water at another level", touching);
    CHECK(below == 0, "%ld land samples below the water next to them", below);
    CHECK(moved > 0 && moved_far == 0, "%ld samples changed side, %ld of them outside shore cells", moved,
          moved_far);
    CHECK(land > 0 && (double)flat < 0.01 * (double)land, "%ld of %ld coastal land samples at exactly 0 m", flat,
          land);
    CHECK((double)t_on > 1.3 * (double)t_off, "shore sample edges: %ld with the layer, %ld without", t_on, t_off);
    printf("ok coastal samples %ld: %ld changed side (all in shore cells), shore edges %ld vs %ld without\n",
           checked, moved, t_on, t_off);
}

/* The contracts with the layer on, on coastal chunks: a LOD 2 chunk's
 * samples are the even samples of its four LOD 3 children, a shared border
 * is the same on both sides, and ct_world_sample gives the chunk's values. */
static void test_contracts(void)
{
    ct_world *w = build("seed=42");
    int f, x, y, tested = 0, bad_lod = 0, bad_border = 0, bad_sample = 0;
    if (!w) return;
    for (f = 0; f < 6 && tested < 4; f++) {
        for (y = 0; y < 4 && tested < 4; y++) {
            for (x = 0; x < 3 && tested < 4; x++) {
                ct_key key, child, right;
                int i, j, c;
                key.face = f; key.lod = 2; key.x = (uint32_t)x; key.y = (uint32_t)y;
                ct_chunk_generate(w, key, &ca, NULL, 0);
                if (!coastal(&ca)) continue;
                tested++;
                for (c = 0; c < 4; c++) {
                    child.face = f; child.lod = 3;
                    child.x = 2u * key.x + (uint32_t)(c & 1); child.y = 2u * key.y + (uint32_t)(c >> 1);
                    ct_chunk_generate(w, child, &cb, NULL, 0);
                    for (j = 0; j <= 256; j += 2)
                        for (i = 0; i <= 256; i += 2) {
                            int pa = (j / 2 + 128 * (c >> 1)) * CT_CHUNK_EDGE + i / 2 + 128 * (c & 1);
                            int pb = j * CT_CHUNK_EDGE + i;
                            if (ca.height[pa] != cb.height[pb] || ca.water[pa] != cb.water[pb] ||
                                ca.palette[pa] != cb.palette[pb])
                                bad_lod++;
                        }
                }
                right = key;
                right.x++;
                ct_chunk_generate(w, right, &cb, NULL, 0);
                for (j = 0; j <= 256; j++) {
                    int pa = j * CT_CHUNK_EDGE + 256, pb = j * CT_CHUNK_EDGE;
                    if (ca.height[pa] != cb.height[pb] || ca.water[pa] != cb.water[pb]) bad_border++;
                }
                for (j = 0; j <= 256; j += 16)
                    for (i = 0; i <= 256; i += 16) {
                        double dir[3];
                        ct_sample s;
                        int at = j * CT_CHUNK_EDGE + i;
                        ct__sample_direction(key.face, key.lod, (int64_t)key.x * 256 + i, (int64_t)key.y * 256 + j,
                                             dir);
                        ct_world_sample(w, dir, &s, NULL, 0);
                        if (ct_height_encode(s.height_m, 1.0, NULL) != ca.height[at] ||
                            (s.has_water ? ct_height_encode(s.water_m, 1.0, NULL) : 0u) != ca.water[at] ||
                            s.palette_index != ca.palette[at])
                            bad_sample++;
                    }
            }
        }
    }
    CHECK(tested > 0, "coastal chunks found (%d)", tested);
    CHECK(bad_lod == 0, "%d LOD 2 samples differ from their LOD 3 twins", bad_lod);
    CHECK(bad_border == 0, "%d shared border samples differ", bad_border);
    CHECK(bad_sample == 0, "%d ct_world_sample results differ from the chunk", bad_sample);
    ct_world_free(w);
}

/* ct__coast_shore_x4 (chunks refine four samples of a row at a time) gives
 * ct__coast_shore_at's bits in every lane it is asked for, with lanes that
 * need no noise, lanes that settle at different octaves and lanes not
 * asked for mixed in one call; through lattice memos (kept from call to
 * call, as a chunk's sampler keeps them) and without. */
static void test_x4(void)
{
    ct_config cfg;
    ct__coast_prep prep;
    uint64_t r = 0x2545f4914f6cdd1dull;
    ct__lattice_memo memo[CT__COAST_MAX_OCTAVES];
    int i, k, bad = 0, asked = 0;
    ct_config_preset(&cfg, "balanced", NULL, 0);
    ct__coast_prepare(&cfg, &prep);
    for (k = 0; k < CT__COAST_MAX_OCTAVES; k++) memo[k].valid = 0;
    for (i = 0; i < 20000; i++) {
        double dir[12], wet[4], rough[4], out[4];
        int want[4];
        for (k = 0; k < 4; k++) {
            double x, y, z, len;
            r = r * 6364136223846793005ull + 1442695040888963407ull; x = (double)(r >> 11) / 9007199254740992.0 - 0.5;
            r = r * 6364136223846793005ull + 1442695040888963407ull; y = (double)(r >> 11) / 9007199254740992.0 - 0.5;
            r = r * 6364136223846793005ull + 1442695040888963407ull; z = (double)(r >> 11) / 9007199254740992.0 - 0.5;
            len = sqrt(x * x + y * y + z * z);
            /* Neighbouring lanes a sample step apart, as in a chunk row. */
            dir[3 * k] = (x + (i % 2 ? 0.0 : 1e-4 * k)) / len; dir[3 * k + 1] = y / len; dir[3 * k + 2] = z / len;
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            wet[k] = (double)(r >> 11) / 9007199254740992.0;
            if ((r >> 5) % 9 == 0) wet[k] = (r >> 9) % 2 ? 0.0 : 1.0;   /* no noise needed */
            rough[k] = 0.5 + (double)((r >> 20) % 4) * 0.5;
            want[k] = (r >> 30) % 5 != 0;
        }
        ct__coast_shore_x4(&prep, i % 3 ? memo : NULL, dir, wet, rough, want, out);
        for (k = 0; k < 4; k++) {
            double one;
            if (!want[k]) continue;
            asked++;
            one = ct__coast_shore_at(&prep, dir + 3 * k, wet[k], rough[k]);
            if (memcmp(&one, &out[k], sizeof one) != 0) bad++;
        }
    }
    CHECK(bad == 0, "%d of %d four-lane shore coordinates differ from the scalar ones", bad, asked);
}

int main(void)
{
    test_x4();
    test_shore_guarantees();
    test_contracts();
    return test_summary("coasts");
}
