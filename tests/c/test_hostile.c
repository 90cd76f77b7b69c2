/* test_hostile.c - hostile input that must be rejected: NUL bytes inside
 * config text, a directory given as a config file, snapshots claiming graphs
 * beyond macro_resolution's range, local positions so large their squares
 * overflow, and `terrain --verify` on good and tampered files. Run from the repository root (make test does). */
#include "surface/ct_surface.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define TMP "build/test_hostile_tmp"

static void test_config_nul(void)
{
    static const char text[] = "seed=5\0junk\nplanet_id=3\n";
    ct_config cfg, before;
    char err[256];
    ct_config_default(&cfg);
    before = cfg;
    CHECK(ct_config_parse_n(&cfg, text, sizeof text - 1, err, sizeof err) == CT_ERR_CONFIG &&
              strstr(err, "NUL") && strstr(err, "line 1"),
          "a NUL inside config text is refused, naming its line: %s", err);
    CHECK(memcmp(&cfg, &before, sizeof cfg) == 0, "config unchanged after the refusal");
    CHECK(ct_config_parse_n(&cfg, "seed=5\nplanet_id=3", 18, err, sizeof err) == CT_OK && cfg.seed == 5 &&
              cfg.planet_id == 3, "the same text without the NUL parses: %s", err);
    CHECK(ct_config_parse_n(&cfg, "seed=9\nplanet_id=4", 6, err, sizeof err) == CT_OK && cfg.seed == 9 &&
              cfg.planet_id == 3, "only text_len bytes are read");
}

static void test_huge_locals(void)
{
    static const double locals[] = {1e150, 1e154, 1e200, 1e300, -1e300, 1.7e308};
    ct_key key = ct_key_make(CT_FACE_PZ, 0, 0, 0);
    double dir[3], m[3], m2[3];
    char err[256];
    size_t k;
    for (k = 0; k < sizeof locals / sizeof locals[0]; k++) {
        double len;
        ct_result r = ct_key_direction(key, locals[k], 7.0, dir, err, sizeof err);
        len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
        CHECK(r == CT_OK && fabs(len - 1.0) < 1e-12 && fabs(fabs(dir[0]) - 1.0) < 1e-12,
              "local_x %g: a unit direction along the u axis (r %d, |d| %g, d %g %g %g)", locals[k], (int)r, len,
              dir[0], dir[1], dir[2]);
        r = ct_key_metric(key, locals[k], 7.0, 1000.0, m, m2, err, sizeof err);
        CHECK(r == CT_ERR_LOCAL || (r == CT_OK && ct__is_finite(m[0]) && ct__is_finite(m2[2])),
              "local_x %g: a metric is finite or refused (r %d)", locals[k], (int)r);
    }
    /* Ordinary positions keep their exact bits (chunk sample directions). */
    CHECK(ct_key_direction(key, 128.0, 64.0, dir, NULL, 0) == CT_OK, "ordinary position");
    {
        double want[3];
        ct__sample_direction(CT_FACE_PZ, 0, 128, 64, want);
        CHECK(memcmp(dir, want, sizeof want) == 0, "ordinary positions are not rescaled");
    }
}

static void test_snapshot_graph_bound(void)
{
    ct_config cfg;
    ct_world *w, *out = NULL;
    char err[256];
    size_t len, pos, k;
    uint8_t *snap;
    static const uint32_t ns[] = {1024u, 4096u, 65536u};
    ct_config_preset(&cfg, "balanced", NULL, 0);
    ct_config_set(&cfg, "macro_resolution", "8", NULL, 0);
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    if (!w) return;
    len = ct_world_snapshot_size(w);
    snap = (uint8_t *)malloc(len);
    if (!snap) { ct_world_free(w); return; }
    ct_world_snapshot_write(w, snap, len, NULL, 0);
    pos = 20;
    for (k = 0; k < ct_knob_count(); k++) pos += ct_knob_get(k)->kind == CT_KNOB_UINT ? 4u : 8u;
    CHECK(ct__get_u32(snap + pos) == 8u, "n sits after the knobs");
    for (k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        /* A consistent (n, 6n^2+2) pair past the knob range: refused before
         * any size is computed (32-bit size_t in WebAssembly). */
        ct__put_u32(snap + pos, ns[k]);
        ct__put_u32(snap + pos + 4, 6u * ns[k] * ns[k] + 2u);
        CHECK(ct_world_snapshot_read(snap, len, &out, err, sizeof err) == CT_ERR_FORMAT &&
                  strstr(err, "impossible graph size"),
              "n=%lu refused as an impossible graph: %s", (unsigned long)ns[k], err);
        ct_world_free(out);
        out = NULL;
    }
    free(snap);
    ct_world_free(w);
}

/* Runs a shell command, captures stdout+stderr into out, returns the exit status. */
static int run(const char *cmd, char *out, size_t outlen)
{
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    int st;
    if (!p) return -1;
    if (out && outlen) {
        n = fread(out, 1, outlen - 1, p);
        out[n] = '\0';
    }
    st = pclose(p);
    return st >= 0 ? (st >> 8) & 0xff : -1;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static void test_cli(void)
{
    static char a[8192];
    FILE *f;
    uint8_t *buf;
    if (run("test -x ./terrain", NULL, 0) != 0) { CHECK(0, "./terrain is not built (make all)"); return; }
    mkdir("build", 0777);
    mkdir(TMP, 0777);
    CHECK(run("./terrain --set macro_resolution=16 --set surface_lod=2 --out " TMP " --chunk +Z 1 0 1 >/dev/null",
              NULL, 0) == 0, "write a world and a chunk");
    CHECK(run("./terrain --verify " TMP "/chunk_pz_1_0_1.ctc 2>&1", a, sizeof a) == 0 && strstr(a, "kind ctc\n") &&
              strstr(a, "\ngeneration ") && strstr(a, "\nkey +Z 1 0 1\n") && strstr(a, "\ndigest "),
          "--verify a good .ctc: %s", a);
    CHECK(run("./terrain --verify " TMP "/world.ctw 2>&1", a, sizeof a) == 0 && strstr(a, "kind ctw\n") &&
              strstr(a, "\ngeneration ") && strstr(a, "\nkey ") && strstr(a, "\ndigest "),
          "--verify a good .ctw: %s", a);
    /* Byte 46 is inside the height quantum: version 1 accepted this flip. */
    buf = (uint8_t *)malloc(CT_CTC_FILE_BYTES);
    f = fopen(TMP "/chunk_pz_1_0_1.ctc", "rb");
    if (f && buf && fread(buf, 1, CT_CTC_FILE_BYTES, f) == CT_CTC_FILE_BYTES) {
        FILE *g = fopen(TMP "/tampered.ctc", "wb");
        buf[46] ^= 0x10;
        if (g) { fwrite(buf, 1, CT_CTC_FILE_BYTES, g); fclose(g); }
    }
    if (f) fclose(f);
    free(buf);
    CHECK(run("./terrain --verify " TMP "/tampered.ctc 2>&1", a, sizeof a) == 2 && count_lines(a) == 1 &&
              strstr(a, "digest"), "--verify a tampered .ctc: one line, exit 2: %s", a);
    CHECK(run("./terrain --verify " TMP " 2>&1", a, sizeof a) == 2 && count_lines(a) == 1, "--verify a directory: %s", a);
    CHECK(run("./terrain --verify " TMP "/none.ctc 2>&1", a, sizeof a) == 2 && count_lines(a) == 1,
          "--verify a missing file: %s", a);
    CHECK(run("./terrain --verify Makefile 2>&1", a, sizeof a) == 2 && strstr(a, "magic"), "--verify text: %s", a);
    /* --config: a directory is a read error, a NUL is refused. */
    CHECK(run("./terrain --config " TMP " 2>&1", a, sizeof a) == 2 && strstr(a, "cannot read"),
          "--config DIR reports the read error: %s", a);
    f = fopen(TMP "/nul.cfg", "wb");
    if (f) { fwrite("seed=5\0junk\n", 1, 12, f); fclose(f); }
    CHECK(run("./terrain --config " TMP "/nul.cfg 2>&1", a, sizeof a) == 2 && strstr(a, "NUL"),
          "--config with a NUL byte is refused: %s", a);
}

/* cache_demo under slot pressure: when the centre request is refused as
 * BUSY it must wait on a chunk the cache holds (waiting on one it does not
 * hold returns at once and frees nothing), so every centre chunk arrives. */
static void test_cache_demo(void)
{
    static char a[65536];
    static const char *const runs[] = {"--steps 40", "--slots 4", "--slots 1 --steps 6"};
    static const int steps[] = {40, 16, 6};
    char cmd[512];
    int k;
    if (run("test -x ./cache_demo", NULL, 0) != 0) { CHECK(0, "./cache_demo is not built (make all)"); return; }
    CHECK(run("./terrain --set macro_resolution=16 --set surface_lod=5 --out " TMP "/sd >/dev/null", NULL, 0) == 0,
          "world for the cache demo");
    for (k = 0; k < 3; k++) {
        const char *p;
        int lines = 0;
        snprintf(cmd, sizeof cmd, "./cache_demo " TMP "/sd/world.ctw %s 2>&1", runs[k]);
        CHECK(run(cmd, a, sizeof a) == 0, "cache_demo %s exits 0: %.300s", runs[k], a);
        CHECK(strstr(a, "never arrived") == NULL, "cache_demo %s: every centre chunk arrives", runs[k]);
        for (p = a; (p = strstr(p, "\n")) != NULL; p++) {
            int step;
            char face[8];
            if (sscanf(p + 1, "%d %7s", &step, face) == 2 && (face[0] == '+' || face[0] == '-')) lines++;
        }
        CHECK(lines == steps[k], "cache_demo %s: %d of %d steps printed", runs[k], lines, steps[k]);
    }
}

int main(void)
{
    test_config_nul();
    test_huge_locals();
    test_snapshot_graph_bound();
    test_cli();
    test_cache_demo();
    return test_summary("hostile");
}
