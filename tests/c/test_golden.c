/* test_golden.c - frozen generation IDs and chunk digests
 * (tests/golden/digests.txt): any change of generated output fails here
 * until it is made deliberately with tests/golden/regenerate.sh. */
#include "ct.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ct_chunk chunk;   /* 400 KB: static rather than on the stack */

int main(void)
{
    FILE *f = fopen("tests/golden/digests.txt", "r");
    char line[256], preset[32] = "", err[256];
    ct_world *world = NULL;
    int worlds = 0, chunks = 0;
    CHECK(f != NULL, "tests/golden/digests.txt must be readable from the repository root");
    if (!f) return test_summary("golden");
    while (fgets(line, sizeof line, f)) {
        char name[32], face_text[8], hex[32];
        int lod;
        unsigned long x, y;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "world %31s generation %31s", name, hex) == 2) {
            ct_config cfg;
            char got[32];
            ct_world_free(world);
            world = NULL;
            CHECK(ct_config_preset(&cfg, name, err, sizeof err) == CT_OK, "preset %s: %s", name, err);
            world = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
            CHECK(world != NULL, "build %s: %s", name, err);
            if (!world) continue;
            snprintf(got, sizeof got, "%016llx", (unsigned long long)ct_world_generation(world));
            CHECK(strcmp(got, hex) == 0, "preset %s generation %s, golden %s", name, got, hex);
            strcpy(preset, name);
            worlds++;
        } else if (sscanf(line, "chunk %31s %7s %d %lu %lu digest %31s", name, face_text, &lod, &x, &y, hex) == 6) {
            ct_key key;
            int face = -1;
            char got[32];
            CHECK(strcmp(name, preset) == 0 && world, "chunk line for %s follows its world line", name);
            if (!world || ct_face_parse(face_text, &face) != CT_OK) continue;
            key.face = face; key.lod = lod; key.x = (uint32_t)x; key.y = (uint32_t)y;
            CHECK(ct_chunk_generate(world, key, &chunk, err, sizeof err) == CT_OK, "chunk: %s", err);
            snprintf(got, sizeof got, "%016llx", (unsigned long long)chunk.digest);
            CHECK(strcmp(got, hex) == 0, "%s chunk %s %d %lu %lu digest %s, golden %s", name, face_text, lod, x, y,
                  got, hex);
            chunks++;
        } else {
            CHECK(0, "unreadable golden line: %s", line);
        }
    }
    fclose(f);
    ct_world_free(world);
    CHECK(worlds >= 3 && chunks >= 12, "golden file covers %d worlds and %d chunks", worlds, chunks);
    return test_summary("golden");
}
