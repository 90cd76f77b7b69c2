/* bake_merge.c - `terrain bake --merge DIR`: the shards' indices joined into
 * index/all.idx and manifest.json listing it, then the shard files removed.
 * The merged files hold nothing of the split (manifest "shards": 1), so a
 * bake in one shard or in N leaves the same bytes. Shards of different bakes
 * (generation, config, formats, LODs, faces, region or N) are refused. */
#include "bake.h"
#include "sha256.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct merge_state {
    const char *dir;
    int n;                     /* shards */
    char *head;                /* shard 0's manifest up to "counts" */
    size_t head_len;
    bake_list all;
    uint64_t generation;
} merge_state;

/* N from the shard files in DIR/index: 0 with none, -1 with mixed splits. */
static int shard_count(const char *dir, int *n)
{
    char path[BAKE_PATH];
    DIR *d;
    struct dirent *e;
    *n = 0;
    snprintf(path, sizeof path, "%s/index", dir);
    d = opendir(path);
    if (!d) return 1;
    while ((e = readdir(d)) != NULL) {
        int i, m;
        char tail[8];
        if (sscanf(e->d_name, "shard-%4d-of-%4d.%7s", &i, &m, tail) != 3 || strcmp(tail, "json") != 0) continue;
        if (*n && *n != m) *n = -1;
        if (*n >= 0) *n = m;
        if (*n < 0) break;
    }
    closedir(d);
    return 0;
}

/* One shard: its manifest agrees with shard 0's, its index with both. */
static int merge_shard(merge_state *s, int i)
{
    char path[BAKE_PATH], err[BAKE_ERRLEN], want[65], got[65];
    uint8_t *json, *idx, sha[32];
    const char *counts, *indices;
    size_t len, ilen;
    uint64_t gen;
    int rc = 0;
    snprintf(path, sizeof path, "%s/index/shard-%04d-of-%04d.json", s->dir, i, s->n);
    json = bake_read_file(path, &len, err, sizeof err);
    if (!json) {
        fprintf(stderr, "terrain bake --merge: shard %d of %d is missing or unreadable (%s)\n", i, s->n, err);
        return 1;
    }
    counts = strstr((const char *)json, "  \"counts\":");
    indices = counts ? strstr(counts, "\"indices\":") : NULL;
    if (!indices || bake_json_field(indices, "sha256", want, sizeof want)) {
        fprintf(stderr, "terrain bake --merge: %s is not a shard manifest\n", path);
        free(json);
        return 2;
    }
    if (!s->head) {
        s->head_len = (size_t)(counts - (const char *)json);
        s->head = (char *)malloc(s->head_len);
        if (s->head) memcpy(s->head, json, s->head_len);
    } else if ((size_t)(counts - (const char *)json) != s->head_len || memcmp(json, s->head, s->head_len) != 0) {
        fprintf(stderr, "terrain bake --merge: %s is of another bake than shard 0 "
                        "(generation, config, format, LODs, faces or region differ)\n", path);
        free(json);
        return 2;
    }
    free(json);
    snprintf(path + strlen(path) - 4, 5, "idx");
    idx = bake_read_file(path, &ilen, err, sizeof err);
    if (!idx) { fprintf(stderr, "terrain bake --merge: %s\n", err); return 1; }
    cli_sha256(idx, ilen, sha);
    cli_sha256_hex(sha, got);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "terrain bake --merge: %s does not match its shard manifest (SHA-256 differs)\n", path);
        rc = 1;
    } else if (bake_index_decode(idx, ilen, &gen, &s->all, err, sizeof err)) {
        fprintf(stderr, "terrain bake --merge: %s: %s\n", path, err);
        rc = 1;
    } else if (i > 0 && gen != s->generation) {
        fprintf(stderr, "terrain bake --merge: %s is of another generation\n", path);
        rc = 2;
    }
    s->generation = gen;
    free(idx);
    return rc;
}

/* all.idx, then manifest.json, then the shard files go. */
static int merge_write(merge_state *s, int quiet)
{
    char path[BAKE_PATH], err[BAKE_ERRLEN];
    bake_meta m;
    bake_index_ref ref;
    uint8_t *idx, sha[32];
    char *text;
    size_t len, k;
    int i, rc;
    memset(&m, 0, sizeof m);
    {
        const char *l = strstr(s->head, "\"lods\": [");
        if (!l || sscanf(l, "\"lods\": [ %d , %d", &m.lod_lo, &m.lod_hi) != 2) {
            fprintf(stderr, "terrain bake --merge: shard manifest without lods\n");
            return 1;
        }
    }
    for (k = 0; k < s->all.count; k++) {
        m.tiles++;
        m.bytes += s->all.tiles[k].bytes;
        m.per_lod[s->all.tiles[k].key.lod]++;
    }
    m.shards = 1;
    idx = bake_index_encode(&s->all, s->generation, &len);
    if (!idx) { fprintf(stderr, "terrain bake --merge: out of memory\n"); return 1; }
    snprintf(ref.file, sizeof ref.file, "index/all.idx");
    cli_sha256(idx, len, sha);
    cli_sha256_hex(sha, ref.sha);
    ref.tiles = s->all.count;
    snprintf(path, sizeof path, "%s/index/all.idx", s->dir);
    rc = bake_write_atomic(path, idx, len, err, sizeof err);
    free(idx);
    if (rc) { fprintf(stderr, "terrain bake --merge: %s\n", err); return 1; }
    text = bake_manifest_merged(s->head, s->head_len, &m, &ref, 1);
    snprintf(path, sizeof path, "%s/manifest.json", s->dir);
    rc = !text || bake_write_atomic(path, text, strlen(text), err, sizeof err);
    free(text);
    if (rc) { fprintf(stderr, "terrain bake --merge: %s\n", text ? err : "out of memory"); return 1; }
    for (i = 0; i < s->n; i++) {
        snprintf(path, sizeof path, "%s/index/shard-%04d-of-%04d.idx", s->dir, i, s->n);
        remove(path);
        snprintf(path + strlen(path) - 3, 5, "json");
        remove(path);
        bake_journal_path(path, sizeof path, s->dir, i, s->n);
        remove(path);
    }
    if (!quiet) fprintf(stderr, "bake: merged %d shard(s): %lu tiles\n", s->n, (unsigned long)s->all.count);
    printf("bake: manifest %s/manifest.json, %lu tiles, %llu bytes\n", s->dir, (unsigned long)s->all.count,
           (unsigned long long)m.bytes);
    return 0;
}

int bake_merge(const char *dir, int quiet)
{
    char path[BAKE_PATH];
    merge_state s;
    int i, rc = 0;
    size_t k;
    memset(&s, 0, sizeof s);
    s.dir = dir;
    if (shard_count(dir, &s.n)) {
        fprintf(stderr, "terrain bake --merge: %s/index is not a readable folder\n", dir);
        return 1;
    }
    if (s.n < 0) { fprintf(stderr, "terrain bake --merge: %s/index holds shards of different splits\n", dir); return 2; }
    if (s.n == 0) {
        snprintf(path, sizeof path, "%s/manifest.json", dir);
        if (bake_exists(path)) { printf("bake: %s is merged already\n", dir); return 0; }
        fprintf(stderr, "terrain bake --merge: no shard manifests in %s/index\n", dir);
        return 1;
    }
    for (i = 0; i < s.n && !rc; i++) rc = merge_shard(&s, i);
    if (!rc) {
        if (s.all.count) qsort(s.all.tiles, s.all.count, sizeof *s.all.tiles, bake_tile_order);
        for (k = 1; k < s.all.count && !rc; k++)
            if (bake_tile_order(&s.all.tiles[k - 1], &s.all.tiles[k]) == 0) {
                fprintf(stderr, "terrain bake --merge: a tile is in two shards (%s %d %lu %lu)\n",
                        ct_face_name(s.all.tiles[k].key.face), (int)s.all.tiles[k].key.lod,
                        (unsigned long)s.all.tiles[k].key.x, (unsigned long)s.all.tiles[k].key.y);
                rc = 2;
            }
    }
    if (!rc) rc = merge_write(&s, quiet);
    free(s.head);
    bake_list_free(&s.all);
    return rc;
}
