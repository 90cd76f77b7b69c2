/* bake.h - `terrain bake`: a static tile pyramid of one world, baked in
 * shards, merged, verified (docs/bake.md). The files it writes are the
 * contract with the browser client: tile files, per-shard and merged binary
 * indices holding each tile's SHA-256, and a manifest.json without time or
 * host, so N shards and one run write the same bytes. */
#ifndef CLI_BAKE_H
#define CLI_BAKE_H

#include "ct.h"

#include <stddef.h>
#include <stdint.h>

enum { BAKE_CTT = 0, BAKE_CTC = 1, BAKE_GLB = 2 };
#define BAKE_PATH 4096
#define BAKE_ERRLEN 600
#define BAKE_MAX_SHARDS 9999
#define BAKE_INDEX_HEADER 24
#define BAKE_INDEX_RECORD 48

typedef struct bake_tile {
    ct_key key;
    uint32_t cost;          /* estimated, relative (sea cheaper than land) */
    uint32_t bytes;         /* file length, once written or checked */
    uint8_t sha[32];        /* SHA-256 of the file */
} bake_tile;

typedef struct bake_list {
    bake_tile *tiles;
    size_t count, cap;
} bake_list;

typedef struct bake_opts {
    ct_config cfg;
    int config_given;
    const char *world_file;           /* --world FILE.ctw */
    int lod_lo, lod_hi, lods_given;
    unsigned faces;                   /* bit per face */
    int has_region;
    double region_dir[3], region_m;
    int format;                       /* BAKE_CTT ... */
    const char *out;
    int shard, shards, shard_given;
    const char *merge, *verify;       /* --merge DIR, --verify DIR */
    int quiet, gzip;
} bake_opts;

/* What the manifest says about the bake: everything but its indices. */
typedef struct bake_meta {
    uint64_t generation;
    uint32_t planet_id, surface_lod;
    char *config;                     /* ct_config_format text, owned */
    char world_sha[65];
    uint64_t world_bytes;
    int format, lod_lo, lod_hi;
    unsigned faces;
    int has_region;
    double region_dir[3], region_m;
    uint64_t tiles, bytes, per_lod[CT_MAX_LOD + 1];
    int shards;
} bake_meta;

typedef struct bake_index_ref {
    char file[64];
    char sha[65];
    uint64_t tiles;
} bake_index_ref;

/* bake.c: the subcommand (argv[0] is "bake"); returns the exit status. */
int terrain_bake(int argc, char **argv);

/* bake_args.c: 0 or an exit status (2 with a message on stderr). */
int bake_parse_args(int argc, char **argv, bake_opts *o);
const char *bake_format_ext(int format);
extern const char bake_usage_text[];

/* bake_plan.c: every tile the options ask for, sorted by (lod, face, y, x),
 * each with its cost estimated from the macro field; and the tiles of one
 * shard (cost-balanced greedy over a fixed order). */
int bake_plan_all(const ct_world *w, const bake_opts *o, bake_list *out, char *err, size_t errlen);
int bake_plan_shard(const bake_list *all, int shard, int shards, bake_list *out, char *err, size_t errlen);
int bake_list_push(bake_list *l, const bake_tile *t);
void bake_list_free(bake_list *l);
int bake_tile_order(const void *a, const void *b);

/* bake_io.c: atomic writes (temporary beside, then rename) with the failure
 * test hook, whole-file reads, folders. */
int bake_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);
uint8_t *bake_read_file(const char *path, size_t *len, char *err, size_t errlen);
int bake_mkdirs(const char *dir, char *err, size_t errlen);
int bake_exists(const char *path);
void bake_tile_path(char *buf, size_t buflen, const char *out, uint64_t generation, ct_key key, int format);
void bake_hex64(uint64_t v, char hex[17]);

/* bake_index.c: the binary index and the manifest text. */
/* One 48-byte record (index and journal); get returns non-zero on a bad key. */
void bake_record_put(uint8_t *r, const bake_tile *t);
int bake_record_get(const uint8_t *r, bake_tile *t);
uint8_t *bake_index_encode(const bake_list *l, uint64_t generation, size_t *len);
int bake_index_decode(const uint8_t *buf, size_t len, uint64_t *generation, bake_list *out, char *err, size_t errlen);
char *bake_manifest_text(const bake_meta *m, const bake_index_ref *refs, int nrefs);
/* A shard's manifest up to its "counts" line (head), then the merged tail. */
char *bake_manifest_merged(const char *head, size_t head_len, const bake_meta *m, const bake_index_ref *refs, int nrefs);
/* The value of "key" in our own JSON text (first occurrence after from):
 * a string's contents unescaped, or a number/literal as written. */
int bake_json_field(const char *text, const char *key, char *out, size_t outlen);

/* bake_tile.c: one tile's file bytes in the format (buf of bake_tile_max
 * bytes), and whether an existing file is a good tile of key. */
size_t bake_tile_max(int format);
int bake_tile_encode(const ct_world *w, const ct_chunk *c, int format, uint8_t *buf, size_t *len, char *err, size_t errlen);
int bake_tile_check(const uint8_t *buf, size_t len, int format, uint64_t generation, ct_key key, ct_chunk *scratch,
                    char *err, size_t errlen);
int bake_gzip(const uint8_t *in, size_t len, uint8_t **out, size_t *outlen, char *err, size_t errlen);

/* bake_journal.c: the shard's journal, one record appended per tile written
 * (index/shard-IIII-of-NNNN.journal): a rerun keeps a tile file whose length
 * and SHA-256 match its record. open reads the records there (sorted into
 * known) and opens the file for appending. */
int bake_journal_open(const char *out, int shard, int shards, bake_list *known, int *fd, char *err, size_t errlen);
void bake_journal_add(int fd, const bake_tile *t);
void bake_journal_path(char *buf, size_t buflen, const char *out, int shard, int shards);

/* bake_merge.c and bake_verify.c: --merge DIR and --verify DIR. */
int bake_merge(const char *dir, int quiet);
int bake_verify(const char *dir, int quiet);

#endif
