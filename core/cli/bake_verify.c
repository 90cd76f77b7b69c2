/* bake_verify.c - `terrain bake --verify DIR`: every file of a merged bake
 * against manifest.json: the world snapshot's SHA-256 and length, each index
 * listed (its SHA-256, generation and records), and every tile each index
 * names (there, its length, its SHA-256). Prints one line per missing or
 * altered file naming it and exits 1 if there is any; 0 when all is good. */
#include "bake.h"
#include "sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct verify_state {
    const char *dir;
    const char *man;
    uint64_t generation;
    int format;
    size_t tiles, bad;
} verify_state;

/* Whether path's bytes are len long with SHA-256 sha (hex or raw). */
static int file_matches(const char *path, uint64_t len, const char *hex, const uint8_t *raw, const char **why)
{
    char err[BAKE_ERRLEN], got[65], want[65];
    size_t n;
    uint8_t *buf = bake_read_file(path, &n, err, sizeof err), sha[32];
    if (!buf) { *why = "missing"; return 0; }
    cli_sha256(buf, n, sha);
    free(buf);
    cli_sha256_hex(sha, got);
    if (raw) cli_sha256_hex(raw, want);
    if (n != len || strcmp(got, raw ? want : hex) != 0) { *why = "altered"; return 0; }
    return 1;
}

static void report(verify_state *v, const char *why, const char *path)
{
    v->bad++;
    printf("verify: %s %s\n", why, path);
}

static void verify_index(verify_state *v, const char *file, const char *sha_hex, unsigned long long tiles)
{
    char path[BAKE_PATH], err[BAKE_ERRLEN];
    const char *why;
    uint8_t *buf;
    size_t len, k;
    uint64_t gen;
    bake_list l;
    memset(&l, 0, sizeof l);
    snprintf(path, sizeof path, "%s/%s", v->dir, file);
    buf = bake_read_file(path, &len, err, sizeof err);
    if (!buf || !file_matches(path, len, sha_hex, NULL, &why)) {
        report(v, buf ? why : "missing", path);
        free(buf);
        return;
    }
    if (bake_index_decode(buf, len, &gen, &l, err, sizeof err) || gen != v->generation || l.count != tiles) {
        report(v, "altered", path);
        free(buf);
        bake_list_free(&l);
        return;
    }
    free(buf);
    for (k = 0; k < l.count; k++) {
        bake_tile_path(path, sizeof path, v->dir, v->generation, l.tiles[k].key, v->format);
        if (!file_matches(path, l.tiles[k].bytes, NULL, l.tiles[k].sha, &why)) report(v, why, path);
    }
    v->tiles += l.count;
    bake_list_free(&l);
}

static int verify_manifest(verify_state *v)
{
    char path[BAKE_PATH], val[128], sha[65];
    const char *why, *p;
    if (bake_json_field(v->man, "format", val, sizeof val) || strcmp(val, "cubesphere-bake") != 0 ||
        bake_json_field(v->man, "version", val, sizeof val) || strcmp(val, "1") != 0) {
        fprintf(stderr, "terrain bake --verify: %s/manifest.json is not a version 1 bake manifest\n", v->dir);
        return 2;
    }
    bake_json_field(v->man, "generation", val, sizeof val);
    v->generation = strtoull(val, NULL, 16);
    bake_json_field(v->man, "tileFormat", val, sizeof val);
    v->format = strcmp(val, "ctc") == 0 ? BAKE_CTC : strcmp(val, "glb") == 0 ? BAKE_GLB : BAKE_CTT;
    p = strstr(v->man, "\"world\":");
    if (!p || bake_json_field(p, "sha256", sha, sizeof sha) || bake_json_field(p, "bytes", val, sizeof val)) {
        fprintf(stderr, "terrain bake --verify: manifest.json names no world\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s/world.ctw", v->dir);
    if (!file_matches(path, strtoull(val, NULL, 10), sha, NULL, &why)) report(v, why, path);
    for (p = strstr(v->man, "\"indices\":"); p && (p = strstr(p, "\"file\": ")) != NULL; p++) {
        char file[128], tiles[32];
        if (bake_json_field(p, "file", file, sizeof file) || bake_json_field(p, "sha256", sha, sizeof sha) ||
            bake_json_field(p, "tiles", tiles, sizeof tiles) || strstr(file, "..")) {
            fprintf(stderr, "terrain bake --verify: manifest.json has a malformed index entry\n");
            return 2;
        }
        verify_index(v, file, sha, strtoull(tiles, NULL, 10));
    }
    if (bake_json_field(strstr(v->man, "\"counts\":") ? strstr(v->man, "\"counts\":") : v->man, "tiles", val, sizeof val) ||
        strtoull(val, NULL, 10) != v->tiles) {
        printf("verify: manifest.json counts %s tiles, its indices hold %lu\n", val, (unsigned long)v->tiles);
        v->bad++;
    }
    return 0;
}

int bake_verify(const char *dir, int quiet)
{
    char path[BAKE_PATH], err[BAKE_ERRLEN];
    verify_state v;
    size_t len;
    uint8_t *man;
    int rc;
    memset(&v, 0, sizeof v);
    v.dir = dir;
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    man = bake_read_file(path, &len, err, sizeof err);
    if (!man) {
        fprintf(stderr, "terrain bake --verify: %s (merge the shards first: terrain bake --merge %s)\n", err, dir);
        return 1;
    }
    v.man = (const char *)man;
    rc = verify_manifest(&v);
    free(man);
    if (rc) return rc;
    if (v.bad) {
        printf("verify: %s: %lu file(s) missing or altered, %lu tiles listed\n", dir, (unsigned long)v.bad, (unsigned long)v.tiles);
        return 1;
    }
    if (!quiet) fprintf(stderr, "bake: verified %lu tiles\n", (unsigned long)v.tiles);
    printf("verify: %s: %lu tiles, all present and intact\n", dir, (unsigned long)v.tiles);
    return 0;
}
