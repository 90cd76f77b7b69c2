/* bake.c - `terrain bake`: a world's tiles for LODs A..B (all faces, some,
 * or a region) written as a static pyramid (docs/bake.md).
 *
 * One run bakes one shard: the world snapshot (every shard writes the same
 * bytes), its tiles, then its index (index/shard-IIII-of-NNNN.idx, each
 * tile's length and SHA-256) and partial manifest (.json). Without --shard
 * the run is shard 0/1 and merges at once. A rerun keeps every tile file
 * already there that matches the shard's journal (bake_journal.c) and redoes
 * the rest, so a killed shard is simply run again. Exit status: 0 done, 1 a runtime failure (I/O, memory),
 * 2 bad arguments or a folder holding another world's bake. */
#include "bake.h"
#include "sha256.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct bake_run {
    const bake_opts *o;
    ct_world *w;
    uint64_t generation;
    bake_list all, mine, journal;
    int journal_fd;
    int buf_ready;                 /* r->buf already holds the current tile */
    size_t buf_len;
    ct_chunk *chunk;
    uint8_t *buf;
    char lastdir[BAKE_PATH];
    size_t written, kept, redone;
    double t0, tlast;
} bake_run;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fail(int rc, const char *what, const char *err)
{
    fprintf(stderr, "terrain bake: %s%s%s\n", what, *err ? ": " : "", err);
    return rc;
}

static int open_world(bake_run *r)
{
    char err[BAKE_ERRLEN];
    const bake_opts *o = r->o;
    if (o->world_file) {
        r->w = ct_world_load(o->world_file, err, sizeof err);
        if (!r->w) return fail(2, "--world", err);
    } else {
        r->w = ct_world_build(&o->cfg, NULL, NULL, err, sizeof err);
        if (!r->w) return fail(1, "build failed", err);
    }
    r->generation = ct_world_generation(r->w);
    if ((uint32_t)o->lod_hi > ct_world_config(r->w)->surface_lod) {
        fprintf(stderr, "terrain bake: --lods %d-%d goes past the world's surface_lod %lu\n", o->lod_lo, o->lod_hi,
                (unsigned long)ct_world_config(r->w)->surface_lod);
        return 2;
    }
    return 0;
}

/* The output folder: created, writable, and not another world's bake.
 * Writes world.ctw when it is not there yet (every shard writes the same
 * bytes, atomically, so shards racing on it are harmless). */
static int prepare_out(bake_run *r, uint8_t **snap, size_t *snap_len)
{
    char err[BAKE_ERRLEN], path[BAKE_PATH], g[17], mg[64];
    const char *out = r->o->out;
    uint8_t *old, *man;
    size_t old_len, man_len;
    if (bake_mkdirs(out, err, sizeof err)) return fail(1, "--out", err);
    snprintf(path, sizeof path, "%s/index", out);
    if (access(out, W_OK) != 0 || bake_mkdirs(path, err, sizeof err))
        return fail(1, "--out: the output folder is not writable", access(out, W_OK) != 0 ? strerror(errno) : err);
    *snap_len = ct_world_snapshot_size(r->w);
    *snap = (uint8_t *)malloc(*snap_len);
    if (!*snap || ct_world_snapshot_write(r->w, *snap, *snap_len, err, sizeof err)) return fail(1, "snapshot", err);
    bake_hex64(r->generation, g);
    snprintf(path, sizeof path, "%s/manifest.json", out);
    man = bake_exists(path) ? bake_read_file(path, &man_len, err, sizeof err) : NULL;
    if (man && (bake_json_field((const char *)man, "generation", mg, sizeof mg) || strcmp(mg, g) != 0)) {
        fprintf(stderr, "terrain bake: %s is the manifest of generation %s, this world is %s: bake into another folder\n",
                path, mg, g);
        free(man);
        return 2;
    }
    free(man);
    snprintf(path, sizeof path, "%s/world.ctw", out);
    if (!bake_exists(path)) return bake_write_atomic(path, *snap, *snap_len, err, sizeof err) ? fail(1, "world.ctw", err) : 0;
    old = bake_read_file(path, &old_len, err, sizeof err);
    if (!old) return fail(1, "world.ctw", err);
    if (old_len != *snap_len || memcmp(old, *snap, old_len) != 0) {
        fprintf(stderr, "terrain bake: %s is another world's snapshot (this world is generation %s): bake into another folder\n",
                path, g);
        free(old);
        return 2;
    }
    free(old);
    return 0;
}

static void progress(bake_run *r, size_t done, int last)
{
    double t = now_s(), rate, left;
    if (r->o->quiet || (!last && t - r->tlast < 2.0)) return;
    r->tlast = t;
    rate = (r->written + r->redone) / (t - r->t0 > 1e-9 ? t - r->t0 : 1e-9);
    left = rate > 0 ? (r->mine.count - done) / rate : 0;
    fprintf(stderr, "bake: shard %d/%d: %lu/%lu tiles (%lu kept), %.1f tiles/s, %.0f s left\n", r->o->shard, r->o->shards,
            (unsigned long)done, (unsigned long)r->mine.count, (unsigned long)r->kept, rate, left);
}

/* The tile's folder, created once per folder in a row. */
static int tile_dir(bake_run *r, const char *path, char *err, size_t errlen)
{
    char dir[BAKE_PATH];
    const char *slash = strrchr(path, '/');
    size_t n = (size_t)(slash - path);
    memcpy(dir, path, n);
    dir[n] = '\0';
    if (strcmp(dir, r->lastdir) == 0) return 0;
    if (bake_mkdirs(dir, err, errlen)) return 1;
    memcpy(r->lastdir, dir, n + 1);
    return 0;
}

static int write_gz(const char *path, const uint8_t *data, size_t len, char *err, size_t errlen)
{
    char gz[BAKE_PATH + 4];
    uint8_t *z;
    size_t zlen;
    int rc;
    snprintf(gz, sizeof gz, "%s.gz", path);
    if (bake_gzip(data, len, &z, &zlen, err, errlen)) return 1;
    rc = bake_write_atomic(gz, z, zlen, err, errlen);
    free(z);
    return rc;
}

/* The tile's bytes into r->buf (length in *len). */
static int make_tile(bake_run *r, const bake_tile *t, size_t *len, const char *path)
{
    char err[BAKE_ERRLEN];
    if (ct_chunk_generate(r->w, t->key, r->chunk, err, sizeof err) != CT_OK ||
        bake_tile_encode(r->w, r->chunk, r->o->format, r->buf, len, err, sizeof err))
        return fail(1, path, err);
    return 0;
}

/* A tile file already there: kept when it matches this shard's journal, or,
 * without a record, when it equals the tile generated again. 1 keep, 0 bake
 * it, -1 failure. */
static int keep_old(bake_run *r, bake_tile *t, const char *path)
{
    char err[BAKE_ERRLEN];
    size_t len, newlen;
    uint8_t *old = bake_read_file(path, &len, err, sizeof err), sha[32];
    const bake_tile *rec;
    int same;
    if (!old) return 0;
    cli_sha256(old, len, sha);
    rec = r->journal.count ? (const bake_tile *)bsearch(t, r->journal.tiles, r->journal.count, sizeof *t, bake_tile_order)
                           : NULL;
    if (rec) {
        same = rec->bytes == len && memcmp(rec->sha, sha, 32) == 0;
    } else {
        if (make_tile(r, t, &newlen, path)) { free(old); return -1; }
        same = newlen == len && memcmp(r->buf, old, len) == 0;
        r->buf_ready = !same;
        r->buf_len = newlen;
    }
    free(old);
    if (!same) {
        if (!r->o->quiet) fprintf(stderr, "bake: %s is not the tile this bake wrote: baking it again\n", path);
        return 0;
    }
    t->bytes = (uint32_t)len;
    memcpy(t->sha, sha, 32);
    if (!rec) bake_journal_add(r->journal_fd, t);
    return 1;
}

/* One tile: kept when the file there is right, else generated and written. */
static int bake_one(bake_run *r, bake_tile *t)
{
    char path[BAKE_PATH], gz[BAKE_PATH + 4], err[BAKE_ERRLEN];
    size_t len;
    bake_tile_path(path, sizeof path, r->o->out, r->generation, t->key, r->o->format);
    snprintf(gz, sizeof gz, "%s.gz", path);
    if (bake_exists(path)) {
        int k = keep_old(r, t, path);
        if (k < 0) return 1;
        if (k > 0) {
            r->kept++;
            if (r->o->gzip && !bake_exists(gz)) {
                uint8_t *old = bake_read_file(path, &len, err, sizeof err);
                int rc = !old || write_gz(path, old, len, err, sizeof err);
                free(old);
                if (rc) return fail(1, gz, err);
            }
            return 0;
        }
        r->redone++;
    } else {
        r->written++;
    }
    if (r->buf_ready) len = r->buf_len;
    else if (make_tile(r, t, &len, path)) return 1;
    r->buf_ready = 0;
    if (tile_dir(r, path, err, sizeof err) || bake_write_atomic(path, r->buf, len, err, sizeof err)) return fail(1, path, err);
    if (r->o->gzip && write_gz(path, r->buf, len, err, sizeof err)) return fail(1, path, err);
    t->bytes = (uint32_t)len;
    cli_sha256(r->buf, len, t->sha);
    bake_journal_add(r->journal_fd, t);
    return 0;
}

/* index/shard-IIII-of-NNNN.idx and .json: this shard's tiles and its
 * partial manifest (the merged manifest's shape, its own index only). */
static int write_shard_files(bake_run *r, const uint8_t *snap, size_t snap_len)
{
    const bake_opts *o = r->o;
    char path[BAKE_PATH], err[BAKE_ERRLEN], cfg[65536];
    bake_meta m;
    bake_index_ref ref;
    uint8_t *idx, sha[32];
    size_t len, k;
    char *json;
    int rc;
    memset(&m, 0, sizeof m);
    m.generation = r->generation;
    m.planet_id = ct_world_config(r->w)->planet_id;
    m.surface_lod = ct_world_config(r->w)->surface_lod;
    ct_config_format(ct_world_config(r->w), cfg, sizeof cfg);
    m.config = cfg;
    cli_sha256(snap, snap_len, sha);
    cli_sha256_hex(sha, m.world_sha);
    m.world_bytes = snap_len;
    m.format = o->format;
    m.lod_lo = o->lod_lo;
    m.lod_hi = o->lod_hi;
    m.faces = o->faces;
    m.has_region = o->has_region;
    memcpy(m.region_dir, o->region_dir, sizeof m.region_dir);
    m.region_m = o->region_m;
    m.shards = o->shards;
    for (k = 0; k < r->mine.count; k++) {
        m.tiles++;
        m.bytes += r->mine.tiles[k].bytes;
        m.per_lod[r->mine.tiles[k].key.lod]++;
    }
    idx = bake_index_encode(&r->mine, r->generation, &len);
    if (!idx) return fail(1, "index", "out of memory");
    snprintf(ref.file, sizeof ref.file, "index/shard-%04d-of-%04d.idx", o->shard, o->shards);
    cli_sha256(idx, len, sha);
    cli_sha256_hex(sha, ref.sha);
    ref.tiles = r->mine.count;
    snprintf(path, sizeof path, "%s/%s", o->out, ref.file);
    rc = bake_write_atomic(path, idx, len, err, sizeof err);
    free(idx);
    if (rc) return fail(1, path, err);
    json = bake_manifest_text(&m, &ref, 1);
    if (!json) return fail(1, "manifest", "out of memory");
    snprintf(path + strlen(path) - 3, 5, "json");
    rc = bake_write_atomic(path, json, strlen(json), err, sizeof err);
    free(json);
    return rc ? fail(1, path, err) : 0;
}

static int run_bake(bake_run *r)
{
    char err[BAKE_ERRLEN];
    uint8_t *snap = NULL;
    size_t snap_len = 0, k;
    int rc = open_world(r);
    if (!rc) rc = prepare_out(r, &snap, &snap_len);
    if (!rc && bake_plan_all(r->w, r->o, &r->all, err, sizeof err)) rc = fail(1, "plan", err);
    if (!rc && bake_plan_shard(&r->all, r->o->shard, r->o->shards, &r->mine, err, sizeof err)) rc = fail(1, "plan", err);
    if (!rc && bake_journal_open(r->o->out, r->o->shard, r->o->shards, &r->journal, &r->journal_fd, err, sizeof err))
        rc = fail(1, "journal", err);
    if (!rc) {
        r->chunk = (ct_chunk *)malloc(sizeof *r->chunk);
        r->buf = (uint8_t *)malloc(bake_tile_max(r->o->format));
        if (!r->chunk || !r->buf) rc = fail(1, "out of memory", "");
    }
    r->t0 = r->tlast = now_s();
    for (k = 0; !rc && k < r->mine.count; k++) {
        rc = bake_one(r, &r->mine.tiles[k]);
        progress(r, k + 1, k + 1 == r->mine.count);
    }
    if (!rc) rc = write_shard_files(r, snap, snap_len);
    if (!rc)
        printf("bake: shard %d/%d: %lu tiles (%lu written, %lu redone, %lu kept) of %lu in the bake\n", r->o->shard,
               r->o->shards, (unsigned long)r->mine.count, (unsigned long)r->written, (unsigned long)r->redone,
               (unsigned long)r->kept, (unsigned long)r->all.count);
    free(snap);
    return rc;
}

int terrain_bake(int argc, char **argv)
{
    static bake_opts o;
    bake_run r;
    int rc = bake_parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    if (o.merge) return bake_merge(o.merge, o.quiet);
    if (o.verify) return bake_verify(o.verify, o.quiet);
    memset(&r, 0, sizeof r);
    r.o = &o;
    r.journal_fd = -1;
    rc = run_bake(&r);
    fflush(stdout);
    if (!rc && !o.shard_given) rc = bake_merge(o.out, o.quiet);
    bake_list_free(&r.all);
    bake_list_free(&r.mine);
    bake_list_free(&r.journal);
    if (r.journal_fd >= 0) close(r.journal_fd);
    free(r.chunk);
    free(r.buf);
    ct_world_free(r.w);
    return rc;
}
