/* bake_args.c - the options of `terrain bake`, checked before any work:
 * a bad value exits 2 naming the option and what it expects. */
#include "bake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char bake_usage_text[] =
    "usage: terrain bake [world] [tiles] --out DIR [--shard I/N] [--quiet] [--gzip]\n"
    "       terrain bake --merge DIR | --verify DIR\n"
    "world (default: the balanced preset):\n"
    "  --world FILE.ctw        bake a CTWORLD2 snapshot\n"
    "  --preset NAME, --set NAME=VALUE, --config FILE   build one (as terrain does)\n"
    "tiles:\n"
    "  --lods A-B              LOD range (default 0-3; B at most surface_lod)\n"
    "  --faces LIST            comma-separated faces, +X or px style (default all six)\n"
    "  --region X,Y,Z,RADIUS_M only keys whose chunk touches the cap of RADIUS_M metres around X,Y,Z\n"
    "  --format ctt|ctc|glb    tile files (default ctt: the float heights too)\n"
    "output:\n"
    "  --out DIR               the bake folder; a rerun skips tiles that verify\n"
    "  --shard I/N             bake shard I of N (0 <= I < N), balanced by cost; without it one\n"
    "                          shard bakes everything and merges\n"
    "  --merge DIR             join the shards' indices into index/all.idx and manifest.json\n"
    "  --verify DIR            check every file against manifest.json and its indices\n"
    "  --gzip                  also write tile.EXT.gz beside each tile\n"
    "  --quiet                 no progress on stderr\n"
    "test hook: CT_BAKE_FAIL_AFTER_BYTES=N makes writes fail after N bytes in all (a full disk)\n";

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "terrain bake: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    fputs("(terrain bake --help lists the options)\n", stderr);
    return 2;
}

const char *bake_format_ext(int format)
{
    return format == BAKE_CTC ? "ctc" : format == BAKE_GLB ? "glb" : "ctt";
}

static int parse_lods(bake_opts *o, const char *s)
{
    char *end;
    long a = strtol(s, &end, 10), b;
    if (end == s || *end != '-') return bad("--lods expects A-B (like 0-3), got '%s'", s);
    s = end + 1;
    b = strtol(s, &end, 10);
    if (end == s || *end || a < 0 || b < a || b > CT_MAX_LOD)
        return bad("--lods expects A-B with 0 <= A <= B <= 16, got '%s'", s);
    o->lod_lo = (int)a;
    o->lod_hi = (int)b;
    o->lods_given = 1;
    return 0;
}

static int parse_faces(bake_opts *o, const char *s)
{
    char word[8];
    o->faces = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        int face;
        if (n == 0 || n >= sizeof word) return bad("--faces expects a list like +X,-Z or px,nz, got '%s'", s);
        memcpy(word, s, n);
        word[n] = '\0';
        if (ct_face_parse(word, &face) != CT_OK) return bad("--faces: unknown face '%s'", word);
        o->faces |= 1u << face;
        s += n;
        if (*s == ',') s++;
    }
    return o->faces ? 0 : bad("--faces is empty%s", "");
}

static int parse_region(bake_opts *o, const char *s)
{
    double v[4];
    int k;
    for (k = 0; k < 4; k++) {
        char *end;
        v[k] = strtod(s, &end);
        if (end == s || !(v[k] - v[k] == 0.0) || (k < 3 ? *end != ',' : *end != '\0'))
            return bad("--region expects X,Y,Z,RADIUS_M (four finite numbers), got '%s'", s);
        s = end + 1;
    }
    if (v[0] == 0 && v[1] == 0 && v[2] == 0) return bad("--region: the direction is zero%s", "");
    if (!(v[3] > 0)) return bad("--region: RADIUS_M must be positive%s", "");
    memcpy(o->region_dir, v, sizeof o->region_dir);
    o->region_m = v[3];
    o->has_region = 1;
    return 0;
}

static int parse_shard(bake_opts *o, const char *s)
{
    char *end;
    long i = strtol(s, &end, 10), n;
    if (end == s || *end != '/') return bad("--shard expects I/N (like 0/4), got '%s'", s);
    n = strtol(end + 1, &end, 10);
    if (*end || n < 1 || n > BAKE_MAX_SHARDS) return bad("--shard: N must be 1..9999 in '%s'", s);
    if (i < 0 || i >= n) return bad("--shard: index out of range in '%s' (0 <= I < N)", s);
    o->shard = (int)i;
    o->shards = (int)n;
    o->shard_given = 1;
    return 0;
}

/* --preset, --set or --config, applied in command-line order. */
static int parse_config_edit(bake_opts *o, const char *arg, const char *value)
{
    char err[512];
    ct_result r;
    if (strcmp(arg, "--preset") == 0) {
        r = ct_config_preset(&o->cfg, value, err, sizeof err);
    } else if (strcmp(arg, "--set") == 0) {
        char name[128];
        const char *eq = strchr(value, '=');
        if (!eq || eq == value || (size_t)(eq - value) >= sizeof name) return bad("--set expects NAME=VALUE, got '%s'", value);
        memcpy(name, value, (size_t)(eq - value));
        name[eq - value] = '\0';
        r = ct_config_set(&o->cfg, name, eq + 1, err, sizeof err);
    } else {
        size_t len;
        uint8_t *text = bake_read_file(value, &len, err, sizeof err);
        if (!text) return bad("--config: %s", err);
        r = ct_config_parse_n(&o->cfg, (const char *)text, len, err, sizeof err);
        free(text);
    }
    if (r) {
        fprintf(stderr, "terrain bake: %s %s: %s\n", arg, value, err);
        return 2;
    }
    o->config_given = 1;
    return 0;
}

static int parse_one(bake_opts *o, const char *arg, const char *value)
{
    if (strcmp(arg, "--preset") == 0 || strcmp(arg, "--set") == 0 || strcmp(arg, "--config") == 0)
        return parse_config_edit(o, arg, value);
    if (strcmp(arg, "--world") == 0) { o->world_file = value; return 0; }
    if (strcmp(arg, "--lods") == 0) return parse_lods(o, value);
    if (strcmp(arg, "--faces") == 0) return parse_faces(o, value);
    if (strcmp(arg, "--region") == 0) return parse_region(o, value);
    if (strcmp(arg, "--shard") == 0) return parse_shard(o, value);
    if (strcmp(arg, "--out") == 0) { o->out = value; return 0; }
    if (strcmp(arg, "--merge") == 0) { o->merge = value; return 0; }
    if (strcmp(arg, "--verify") == 0) { o->verify = value; return 0; }
    if (strcmp(arg, "--format") == 0) {
        if (strcmp(value, "ctt") == 0) o->format = BAKE_CTT;
        else if (strcmp(value, "ctc") == 0) o->format = BAKE_CTC;
        else if (strcmp(value, "glb") == 0) o->format = BAKE_GLB;
        else return bad("--format expects ctt, ctc or glb, got '%s'", value);
        return 0;
    }
    return bad("unknown argument '%s'", arg);
}

int bake_parse_args(int argc, char **argv, bake_opts *o)
{
    int a, rc;
    memset(o, 0, sizeof *o);
    ct_config_default(&o->cfg);
    o->lod_hi = 3;
    o->faces = 0x3f;
    o->shards = 1;
    for (a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) { fputs(bake_usage_text, stdout); return -1; }
        if (strcmp(arg, "--quiet") == 0) { o->quiet = 1; continue; }
        if (strcmp(arg, "--gzip") == 0) { o->gzip = 1; continue; }
        if (strncmp(arg, "--", 2) == 0 && a + 1 >= argc) return bad("%s needs a value", arg);
        if ((rc = parse_one(o, arg, strncmp(arg, "--", 2) == 0 ? argv[++a] : "")) != 0) return rc;
    }
    if (o->merge || o->verify) {
        if (argc != (o->quiet ? 4 : 3)) return bad("--merge and --verify take one DIR (and --quiet), nothing else%s", "");
        return 0;
    }
    if (!o->out) return bad("--out DIR is required%s", "");
    if (o->world_file && o->config_given) return bad("--world takes its config from the snapshot; drop --preset/--set/--config%s", "");
    if (o->config_given) {
        char err[512];
        if (ct_config_validate(&o->cfg, err, sizeof err)) { fprintf(stderr, "terrain bake: %s\n", err); return 2; }
    }
#ifndef CT_CLI_ZLIB
    if (o->gzip) return bad("--gzip needs the tool built with zlib (zlib1g-dev)%s", "");
#endif
    return 0;
}
