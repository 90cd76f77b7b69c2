/* test_reference.c - the reference model stays reachable. Every generation
 * layer added after the reference model has an off value; with
 * those off values (ct_config_reference_layers) applied on top of a preset,
 * chunk payloads (heights, water, biomes, palette) must equal the ones frozen
 * in tests/golden/reference_payloads.txt, which were computed from the code
 * before any such layer existed. Generation IDs and chunk digests are not
 * compared: they change with the algorithm version and the knob table.
 *
 *   build/native/tests/test_reference            check (run from the repo root)
 *   build/native/tests/test_reference --write    rewrite the file: only ever
 *       from code that generates the reference model, never to make it pass. */
#include "ct.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_FILE "tests/golden/reference_payloads.txt"

static ct_chunk chunk;   /* 400 KB: static rather than on the stack */

/* One FNV-1a 64 per payload array, bytes little endian: independent of the
 * chunk digest format, which may change. */
typedef struct payload_hash { uint64_t height, water, biome, palette; } payload_hash;

static payload_hash hash_payload(const ct_chunk *c)
{
    payload_hash h;
    uint8_t b[2 * CT_CHUNK_SAMPLES];
    size_t k;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++) { b[2 * k] = (uint8_t)c->height[k]; b[2 * k + 1] = (uint8_t)(c->height[k] >> 8); }
    h.height = ct_fnv1a64(b, sizeof b, CT_FNV1A64_INIT);
    for (k = 0; k < CT_CHUNK_SAMPLES; k++) { b[2 * k] = (uint8_t)c->water[k]; b[2 * k + 1] = (uint8_t)(c->water[k] >> 8); }
    h.water = ct_fnv1a64(b, sizeof b, CT_FNV1A64_INIT);
    h.biome = ct_fnv1a64(c->biome, CT_CHUNK_SAMPLES, CT_FNV1A64_INIT);
    h.palette = ct_fnv1a64(c->palette, CT_CHUNK_SAMPLES, CT_FNV1A64_INIT);
    return h;
}

/* Preset, then "name=value" overrides (space separated), then the off set. */
static ct_world *build(const char *preset, const char *overrides, char *err, size_t errlen)
{
    ct_config cfg;
    char text[256];
    size_t k;
    if (ct_config_preset(&cfg, preset, err, errlen) != CT_OK) return NULL;
    if (strlen(overrides) >= sizeof text) return NULL;
    strcpy(text, overrides);
    for (k = 0; text[k]; k++) if (text[k] == ',') text[k] = '\n';
    if (strcmp(text, "-") != 0 && ct_config_parse(&cfg, text, err, errlen) != CT_OK) return NULL;
    if (ct_config_reference_layers(&cfg, err, errlen) != CT_OK) return NULL;
    return ct_world_build(&cfg, NULL, NULL, err, errlen);
}

static double water_share(const ct_chunk *c)
{
    size_t k, wet = 0;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++) wet += c->water[k] != CT_NO_WATER_CODE;
    return (double)wet / CT_CHUNK_SAMPLES;
}

static const char *kind_of(double share)
{
    return share < 0.02 ? "land" : share > 0.98 ? "sea" : "coast";
}

static void write_line(FILE *out, const char *name, ct_key key)
{
    payload_hash h = hash_payload(&chunk);
    fprintf(out, "payload %s %s %d %lu %lu %s %016llx %016llx %016llx %016llx\n", name, ct_face_name(key.face),
            (int)key.lod, (unsigned long)key.x, (unsigned long)key.y, kind_of(water_share(&chunk)),
            (unsigned long long)h.height, (unsigned long long)h.water, (unsigned long long)h.biome,
            (unsigned long long)h.palette);
}

/* Picks, once at write time, land, sea and coast chunks at LOD 1 and follows
 * the coast down to surface_lod through the child with the most even split,
 * plus the +Y face at LOD 0 and a chunk on the +X/-Z cube edge. */
static int write_world(FILE *out, const char *name, const char *preset, const char *overrides)
{
    char err[256];
    ct_world *w = build(preset, overrides, err, sizeof err);
    ct_key key, best[3];
    double score[3] = {-1.0, -1.0, -1.0};
    int f, x, y, lod, surface;
    if (!w) { fprintf(stderr, "build %s: %s\n", name, err); return 0; }
    surface = (int)ct_world_config(w)->surface_lod;
    fprintf(out, "world %s %s %s\n", name, preset, overrides);
    key.face = CT_FACE_PY; key.lod = 0; key.x = 0; key.y = 0;
    ct_chunk_generate(w, key, &chunk, err, sizeof err);
    write_line(out, name, key);
    key.face = CT_FACE_PX; key.lod = surface; key.x = (1u << surface) - 1u; key.y = 1u << (surface - 2);
    ct_chunk_generate(w, key, &chunk, err, sizeof err);
    write_line(out, name, key);
    for (f = 0; f < 6; f++) {
        for (y = 0; y < 2; y++) {
            for (x = 0; x < 2; x++) {
                double s, cand[3];
                int k;
                key.face = f; key.lod = 1; key.x = (uint32_t)x; key.y = (uint32_t)y;
                ct_chunk_generate(w, key, &chunk, err, sizeof err);
                s = water_share(&chunk);
                cand[0] = 1.0 - s; cand[1] = s; cand[2] = 1.0 - 2.0 * (s > 0.5 ? s - 0.5 : 0.5 - s);
                for (k = 0; k < 3; k++) if (cand[k] > score[k]) { score[k] = cand[k]; best[k] = key; }
            }
        }
    }
    for (f = 0; f < 3; f++) {
        ct_chunk_generate(w, best[f], &chunk, err, sizeof err);
        write_line(out, name, best[f]);
    }
    key = best[2];
    for (lod = 2; lod <= surface; lod++) {
        ct_key child, pick = key;
        double pick_score = -1.0;
        int c;
        for (c = 0; c < 4; c++) {
            double s, sc;
            child.face = key.face; child.lod = lod;
            child.x = 2u * key.x + (uint32_t)(c & 1); child.y = 2u * key.y + (uint32_t)(c >> 1);
            ct_chunk_generate(w, child, &chunk, err, sizeof err);
            s = water_share(&chunk);
            sc = 1.0 - 2.0 * (s > 0.5 ? s - 0.5 : 0.5 - s);
            if (sc > pick_score) { pick_score = sc; pick = child; }
        }
        key = pick;
        if (lod == 3 || lod == surface) {
            ct_chunk_generate(w, key, &chunk, err, sizeof err);
            write_line(out, name, key);
        }
    }
    ct_world_free(w);
    return 1;
}

/* The frozen configs: several presets, a second seed, regional (region
 * profiles on, macro 128). Written once from the reference code. */
static const char *const worlds[][3] = {
    {"balanced", "balanced", "-"},
    {"balanced-s7", "balanced", "seed=7"},
    {"regional", "regional", "-"},
    {"alpine", "alpine", "-"},
    {"walk", "walk", "-"},
    {"noise", "noise", "-"},
    {"archipelago", "archipelago", "seed=3"},
};

static int write_file(void)
{
    FILE *out = fopen(REF_FILE ".tmp", "w");
    size_t k;
    if (!out) return 1;
    fprintf(out, "# Chunk payloads of the reference model (before the issue-11 layers), frozen.\n"
                 "# tests/c/test_reference.c builds each world from its preset and overrides, applies\n"
                 "# ct_config_reference_layers (every new layer off) and compares FNV-1a 64 hashes of\n"
                 "# the height, water, biome and palette arrays (u16 little endian / bytes).\n"
                 "#   world NAME PRESET OVERRIDES(comma separated, - for none)\n"
                 "#   payload NAME FACE LOD X Y KIND HEIGHT WATER BIOME PALETTE\n");
    for (k = 0; k < sizeof worlds / sizeof worlds[0]; k++)
        if (!write_world(out, worlds[k][0], worlds[k][1], worlds[k][2])) { fclose(out); return 1; }
    fclose(out);
    return rename(REF_FILE ".tmp", REF_FILE) != 0;
}

int main(int argc, char **argv)
{
    FILE *f;
    char line[512], current[32] = "", err[256];
    ct_world *world = NULL, *fine = NULL;
    int worlds_seen = 0, fine_checked = 0, payloads = 0, kinds[3] = {0, 0, 0}, lods_fine = 0;
    if (argc > 1 && strcmp(argv[1], "--write") == 0) return write_file();

    /* The reference preset is balanced with the off set applied. */
    {
        ct_config a, b;
        ct_config_preset(&a, "balanced", NULL, 0);
        CHECK(ct_config_reference_layers(&a, err, sizeof err) == CT_OK, "off set applies: %s", err);
        CHECK(ct_config_preset(&b, "reference", err, sizeof err) == CT_OK, "reference preset: %s", err);
        CHECK(memcmp(&a, &b, sizeof a) == 0, "reference preset == balanced + off set");
        CHECK(ct_config_reference_layers(NULL, NULL, 0) == CT_ERR_NULL, "NULL config rejected");
    }

    f = fopen(REF_FILE, "r");
    CHECK(f != NULL, REF_FILE " must be readable from the repository root");
    if (!f) return test_summary("reference");
    while (fgets(line, sizeof line, f)) {
        char name[32], preset[32], over[200], face_text[8], kind[8];
        unsigned long long want[4];
        int lod;
        unsigned long x, y;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "world %31s %31s %199s", name, preset, over) == 3) {
            ct_world_free(world);
            world = build(preset, over, err, sizeof err);
            CHECK(world != NULL, "build %s: %s", name, err);
            /* The same world at surface_lod 10, where fine relief (fine_relief.c)
             * would run past ground_from_lod: its off value keeps every
             * payload. (The reference model has no layer that reads
             * surface_lod below it.) */
            ct_world_free(fine);
            {
                char fine_over[240];
                sprintf(fine_over, "%s%s", strcmp(over, "-") == 0 ? "" : over,
                        strcmp(over, "-") == 0 ? "surface_lod=10" : ",surface_lod=10");
                fine = build(preset, fine_over, err, sizeof err);
                CHECK(fine != NULL, "build %s at surface_lod 10: %s", name, err);
            }
            strcpy(current, name);
            worlds_seen++;
        } else if (sscanf(line, "payload %31s %7s %d %lu %lu %7s %llx %llx %llx %llx", name, face_text, &lod, &x,
                          &y, kind, &want[0], &want[1], &want[2], &want[3]) == 10) {
            ct_key key;
            int face = -1;
            payload_hash h;
            CHECK(strcmp(name, current) == 0, "payload line for %s follows its world line", name);
            if (!world || ct_face_parse(face_text, &face) != CT_OK) continue;
            key.face = face; key.lod = lod; key.x = (uint32_t)x; key.y = (uint32_t)y;
            CHECK(ct_chunk_generate(world, key, &chunk, err, sizeof err) == CT_OK, "chunk: %s", err);
            h = hash_payload(&chunk);
            CHECK(h.height == want[0], "%s %s %d %lu %lu heights differ from the reference", name, face_text, lod, x, y);
            CHECK(h.water == want[1], "%s %s %d %lu %lu water differs from the reference", name, face_text, lod, x, y);
            CHECK(h.biome == want[2], "%s %s %d %lu %lu biomes differ from the reference", name, face_text, lod, x, y);
            CHECK(h.palette == want[3], "%s %s %d %lu %lu palette differs from the reference", name, face_text, lod,
                  x, y);
            if (fine) {
                payload_hash hf;
                CHECK(ct_chunk_generate(fine, key, &chunk, err, sizeof err) == CT_OK, "chunk: %s", err);
                hf = hash_payload(&chunk);
                CHECK(hf.height == want[0] && hf.water == want[1] && hf.biome == want[2] && hf.palette == want[3],
                      "%s %s %d %lu %lu at surface_lod 10 differs from the reference", name, face_text, lod, x, y);
                fine_checked++;
            }
            kinds[strcmp(kind, "land") == 0 ? 0 : strcmp(kind, "sea") == 0 ? 1 : 2]++;
            if (lod >= 6) lods_fine++;
            payloads++;
        } else {
            CHECK(0, "unreadable line: %s", line);
        }
    }
    fclose(f);
    ct_world_free(world);
    ct_world_free(fine);
    CHECK(fine_checked == payloads, "%d of %d payloads checked at surface_lod 10", fine_checked, payloads);
    CHECK(worlds_seen >= 5 && payloads >= 30, "file covers %d worlds and %d payloads", worlds_seen, payloads);
    CHECK(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0 && lods_fine > 0,
          "land %d, sea %d, coast %d and surface-LOD %d chunks all present", kinds[0], kinds[1], kinds[2], lods_fine);
    return test_summary("reference");
}
