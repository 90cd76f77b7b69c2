/* test_io.c - files: CTWORLD2 snapshot round trips (byte-identical snapshots
 * and chunk files), rejection of every single-byte flip of the header and of
 * sampled payload bytes, truncation at many lengths, version 1 and foreign
 * files, atomic saves that leave nothing behind, .ctc/.u16le layouts, and the
 * terrain CLI's exit codes, palette handling and --load. Run from the
 * repository root (make test does). */
#include "surface/ct_surface.h"
#include "world/ct_world.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define TMP "build/test_io_tmp"

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static uint8_t *snapshot_of(const ct_world *w, size_t *len)
{
    uint8_t *buf;
    *len = ct_world_snapshot_size(w);
    buf = (uint8_t *)malloc(*len);
    if (buf) CHECK(ct_world_snapshot_write(w, buf, *len, NULL, 0) == CT_OK, "snapshot write");
    return buf;
}

/* .ctc bytes of a chunk into buf. */
static void ctc_of(const ct_world *w, ct_key key, uint8_t *buf)
{
    static ct_chunk c;
    char err[256];
    CHECK(ct_chunk_generate(w, key, &c, err, sizeof err) == CT_OK, "generate: %s", err);
    CHECK(ct_chunk_encode_ctc(&c, buf, CT_CTC_FILE_BYTES, err, sizeof err) == CT_OK, "encode: %s", err);
}

static void test_round_trip(const ct_world *w)
{
    size_t len, len2;
    uint8_t *snap = snapshot_of(w, &len), *snap2, *a, *b;
    ct_world *back = NULL;
    char err[256];
    ct_world_stats s1, s2;
    static const ct_key keys[3] = {{CT_FACE_PZ, 2, 1, 3}, {CT_FACE_NX, 0, 0, 0}, {CT_FACE_PY, 3, 7, 7}};
    int k;
    if (!snap) return;
    CHECK(memcmp(snap, "CTWORLD2", 8) == 0, "magic");
    {
        size_t knob_bytes = 0;
        for (k = 0; k < (int)ct_knob_count(); k++)
            knob_bytes += ct_knob_get((size_t)k)->kind == CT_KNOB_UINT ? 4 : 8;
        CHECK(len == 20 + knob_bytes + 8 + 24u * (size_t)w->field.vertex_count + 16,
              "snapshot size %lu matches the documented layout", (unsigned long)len);
    }
    CHECK(ct_world_snapshot_read(snap, len, &back, err, sizeof err) == CT_OK, "read: %s", err);
    if (!back) { free(snap); return; }
    CHECK(ct_world_generation(back) == ct_world_generation(w), "same generation");
    CHECK(memcmp(ct_world_config(back), ct_world_config(w), sizeof(ct_config)) == 0, "same config");
    snap2 = snapshot_of(back, &len2);
    CHECK(len2 == len && snap2 && memcmp(snap, snap2, len) == 0, "the loaded world snapshots byte-identically");
    ct_world_stats_get(w, &s1);
    ct_world_stats_get(back, &s2);
    CHECK(s1.vertex_count == s2.vertex_count && s1.lakes == s2.lakes && s1.water_bodies == s2.water_bodies &&
          s1.ocean_fraction == s2.ocean_fraction && s1.max_height_m == s2.max_height_m,
          "terrain statistics survive");
    CHECK(s2.passes == 0 && s2.collisions == 0, "the transient build log is not kept");
    a = (uint8_t *)malloc(CT_CTC_FILE_BYTES);
    b = (uint8_t *)malloc(CT_CTC_FILE_BYTES);
    for (k = 0; a && b && k < 3; k++) {
        ctc_of(w, keys[k], a);
        ctc_of(back, keys[k], b);
        CHECK(memcmp(a, b, CT_CTC_FILE_BYTES) == 0, "chunk %d: loaded world gives a byte-identical .ctc", k);
    }
    free(a);
    free(b);
    free(snap2);

    /* The same through files. */
    CHECK(ct_world_save(w, TMP "/w.ctw", err, sizeof err) == CT_OK, "save: %s", err);
    CHECK(!file_exists(TMP "/w.ctw.tmp~"), "no temporary left after a save");
    {
        ct_world *f = ct_world_load(TMP "/w.ctw", err, sizeof err);
        CHECK(f != NULL, "load: %s", err);
        if (f) {
            CHECK(ct_world_generation(f) == ct_world_generation(w), "file round trip keeps the generation");
            ct_world_free(f);
        }
    }
    CHECK(ct_world_load(TMP "/missing.ctw", err, sizeof err) == NULL && strstr(err, "missing.ctw"),
          "missing file named: %s", err);
    ct_world_free(back);
    free(snap);
}

static void test_corruption(const ct_world *w)
{
    size_t len, pos, header, k;
    uint8_t *snap = snapshot_of(w, &len);
    ct_world *out;
    char err[256];
    int accepted = 0, tried = 0, bad_code = 0;
    if (!snap) return;
    header = 20 + 8;
    for (k = 0; k < ct_knob_count(); k++) header += ct_knob_get(k)->kind == CT_KNOB_UINT ? 4 : 8;
    /* Every byte of the header, each with two different flips. */
    for (pos = 0; pos < header; pos++) {
        int f;
        for (f = 0; f < 2; f++) {
            uint8_t keep = snap[pos];
            ct_result r;
            snap[pos] ^= f ? 0xFF : 0x01;
            out = (ct_world *)0x1;
            r = ct_world_snapshot_read(snap, len, &out, err, sizeof err);
            tried++;
            if (r == CT_OK) { accepted++; ct_world_free(out); }
            else if (out != NULL) bad_code++;
            snap[pos] = keep;
        }
    }
    /* A spread of payload bytes, and the whole tail (stats, generation, checksum). */
    for (k = 0; k < 600; k++) {
        uint8_t keep;
        ct_result r;
        pos = k < 100 ? len - 1 - k : header + (size_t)(ct__hash2(5u, (uint32_t)k) % (uint32_t)(len - header));
        keep = snap[pos];
        snap[pos] ^= (uint8_t)(1u << (k % 8));
        out = NULL;
        r = ct_world_snapshot_read(snap, len, &out, err, sizeof err);
        tried++;
        if (r == CT_OK) { accepted++; ct_world_free(out); }
        snap[pos] = keep;
    }
    CHECK(accepted == 0, "%d of %d single-byte corruptions were accepted", accepted, tried);
    CHECK(bad_code == 0, "a rejected read must leave *out NULL");
    /* Flipping a payload byte is reported as a checksum failure. */
    snap[header + 100] ^= 4;
    CHECK(ct_world_snapshot_read(snap, len, &out, err, sizeof err) == CT_ERR_CHECKSUM, "checksum: %s", err);
    snap[header + 100] ^= 4;

    /* Truncation at many lengths, including every length of the header. */
    accepted = 0;
    tried = 0;
    for (pos = 0; pos < len; pos += (pos < header + 64 ? 1 : 1 + len / 97)) {
        ct_result r = ct_world_snapshot_read(snap, pos, &out, err, sizeof err);
        tried++;
        if (r != CT_ERR_TRUNCATED) accepted++;
    }
    CHECK(ct_world_snapshot_read(snap, len - 1, &out, err, sizeof err) == CT_ERR_TRUNCATED, "one byte short");
    CHECK(accepted == 0, "%d of %d truncated lengths were not reported as truncated", accepted, tried);
    {
        uint8_t *longer = (uint8_t *)malloc(len + 1);
        if (longer) {
            memcpy(longer, snap, len);
            longer[len] = 0;
            CHECK(ct_world_snapshot_read(longer, len + 1, &out, err, sizeof err) == CT_ERR_FORMAT,
                  "trailing byte rejected");
            free(longer);
        }
    }

    /* Version 1, other versions, foreign files. */
    snap[7] = '1';
    CHECK(ct_world_snapshot_read(snap, len, &out, err, sizeof err) == CT_ERR_VERSION, "CTWORLD1 rejected");
    CHECK(strstr(err, "regenerate") != NULL && strstr(err, "config") != NULL,
          "version 1 says to regenerate from the config: %s", err);
    snap[7] = '2';
    ct__put_u32(snap + 8, 1u);
    CHECK(ct_world_snapshot_read(snap, len, &out, err, sizeof err) == CT_ERR_VERSION && strstr(err, "regenerate"),
          "format version 1 field rejected: %s", err);
    ct__put_u32(snap + 8, 2u);
    CHECK(ct_world_snapshot_read(snap, len, &out, err, sizeof err) == CT_ERR_VERSION && strstr(err, "regenerate"),
          "format version 2 (unverified tables) rejected: %s", err);
    ct__put_u32(snap + 8, 3u);
    ct__put_u32(snap + 12, CT_ALGORITHM_VERSION + 1u);
    CHECK(ct_world_snapshot_read(snap, len, &out, err, sizeof err) == CT_ERR_VERSION, "other algorithm version");
    ct__put_u32(snap + 12, CT_ALGORITHM_VERSION);
    CHECK(ct_world_snapshot_read(snap, len, &out, err, sizeof err) == CT_OK, "restored snapshot reads again");
    ct_world_free(out);
    CHECK(ct_world_snapshot_read((const uint8_t *)"PK\3\4 this is a zip file", 24, &out, err, sizeof err) ==
              CT_ERR_FORMAT, "foreign file");
    CHECK(ct_world_snapshot_read((const uint8_t *)"", 0, &out, err, sizeof err) == CT_ERR_TRUNCATED,
          "empty file is truncated");
    CHECK(ct_world_snapshot_read(NULL, 10, &out, err, sizeof err) == CT_ERR_NULL, "NULL buffer");
    CHECK(ct_world_snapshot_write(w, snap, len - 1, err, sizeof err) == CT_ERR_BUFFER, "small buffer");
    free(snap);
}

static void test_atomic_saves(const ct_world *w)
{
    char err[256];
    FILE *f;
    CHECK(ct_world_save(w, TMP "/no/such/dir/w.ctw", err, sizeof err) == CT_ERR_IO, "missing directory");
    CHECK(!file_exists(TMP "/no/such/dir/w.ctw") && !file_exists(TMP "/no"), "nothing created");
    mkdir(TMP "/adir", 0777);
    CHECK(ct_world_save(w, TMP "/adir", err, sizeof err) == CT_ERR_IO, "saving onto a directory fails: %s", err);
    CHECK(!file_exists(TMP "/adir.tmp~"), "the temporary is removed after a failed save");
    CHECK(file_exists(TMP "/adir/."), "the directory is still there");
    /* Replacing an existing file replaces it whole. */
    f = fopen(TMP "/small.bin", "wb");
    if (f) { fputs("old contents that are longer than the new ones", f); fclose(f); }
    CHECK(ct_file_write_atomic(TMP "/small.bin", "new", 3, err, sizeof err) == CT_OK, "replace: %s", err);
    f = fopen(TMP "/small.bin", "rb");
    if (f) {
        char got[64];
        size_t n = fread(got, 1, sizeof got, f);
        fclose(f);
        CHECK(n == 3 && memcmp(got, "new", 3) == 0, "file holds exactly the new bytes (%lu)", (unsigned long)n);
    }
    CHECK(ct_file_write_atomic(NULL, "x", 1, err, sizeof err) == CT_ERR_NULL, "NULL path");
}

static void test_chunk_files(const ct_world *w)
{
    static ct_chunk c, d;
    uint8_t *buf = (uint8_t *)malloc(CT_CTC_FILE_BYTES), *u = (uint8_t *)malloc(CT_U16LE_FILE_BYTES);
    char err[256];
    int i, j, bad = 0, pos;
    ct_key key = ct_key_make(CT_FACE_NZ, 3, 6, 1);
    if (!buf || !u) return;
    CHECK(ct_chunk_generate(w, key, &c, NULL, 0) == CT_OK, "generate");
    CHECK(ct_chunk_encode_ctc(&c, buf, CT_CTC_FILE_BYTES, NULL, 0) == CT_OK, "encode");
    CHECK(CT_CTC_FILE_BYTES == 396354 && CT_U16LE_FILE_BYTES == 131072, "file sizes");
    /* Header fields at their documented offsets, little endian. */
    CHECK(memcmp(buf, "CTCHUNK", 8) == 0, "ctc magic");
    CHECK(ct__get_u32(buf + 8) == 2 && ct__get_u32(buf + 12) == CT_FACE_NZ && ct__get_u32(buf + 16) == 3 &&
          ct__get_u32(buf + 20) == 6 && ct__get_u32(buf + 24) == 1, "key in the header");
    CHECK(ct__get_u64(buf + 32) == ct_world_generation(w) && ct__get_u64(buf + 52) == c.digest, "gen and digest");
    CHECK(ct__get_f64(buf + 40) == ct_world_config(w)->height_quantum_m, "quantum");
    /* Record (i, j) = (10, 20) at 60 + 6 * (20 * 257 + 10). */
    pos = 60 + 6 * (20 * 257 + 10);
    CHECK(ct__get_u16(buf + pos) == c.height[20 * 257 + 10] && ct__get_u16(buf + pos + 2) == c.water[20 * 257 + 10] &&
          buf[pos + 4] == c.biome[20 * 257 + 10] && buf[pos + 5] == c.palette[20 * 257 + 10], "row-major records");
    CHECK(ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES, &d, err, sizeof err) == CT_OK, "decode: %s", err);
    CHECK(d.key.face == key.face && d.key.x == 6 && d.generation == c.generation && d.clipped == c.clipped &&
          memcmp(d.water, c.water, sizeof c.water) == 0 && memcmp(d.palette, c.palette, sizeof c.palette) == 0,
          "decode restores the chunk");
    buf[1000] ^= 1;
    CHECK(ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES, &d, err, sizeof err) == CT_ERR_CHECKSUM, "payload flip");
    buf[1000] ^= 1;
    buf[20] ^= 1;   /* x=7: a different key, so a different digest */
    CHECK(ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES, &d, err, sizeof err) == CT_ERR_CHECKSUM, "key flip");
    buf[20] ^= 1;
    /* Every header byte is vouched for: each flip of each bit is refused
     * (version 1 let bytes 28..51 - planet, generation, quantum, clipped -
     * change freely; flipping byte 46 halved every decoded height). */
    {
        int accepted = 0, bit;
        for (pos = 0; pos < CT_CTC_HEADER_BYTES; pos++) {
            for (bit = 0; bit < 8; bit++) {
                buf[pos] ^= (uint8_t)(1u << bit);
                if (ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES, &d, err, sizeof err) == CT_OK) {
                    if (accepted < 3) fprintf(stderr, "header byte %d bit %d flip accepted\n", pos, bit);
                    accepted++;
                }
                buf[pos] ^= (uint8_t)(1u << bit);
            }
        }
        CHECK(accepted == 0, "%d of %d single-bit header flips accepted", accepted, 8 * CT_CTC_HEADER_BYTES);
        CHECK(ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES, &d, err, sizeof err) == CT_OK, "restored: %s", err);
    }
    ct__put_u32(buf + 8, 1u);
    CHECK(ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES, &d, err, sizeof err) == CT_ERR_VERSION &&
              strstr(err, "version 1") && strstr(err, "regenerate"),
          "version 1 refused with a reason: %s", err);
    ct__put_u32(buf + 8, 2u);
    buf[0] = 'X';
    CHECK(ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES, &d, err, sizeof err) == CT_ERR_FORMAT, "magic");
    buf[0] = 'C';
    CHECK(ct_chunk_decode_ctc(buf, CT_CTC_FILE_BYTES - 1, &d, err, sizeof err) == CT_ERR_TRUNCATED, "short");
    CHECK(ct_chunk_decode_ctc(buf, 30, &d, err, sizeof err) == CT_ERR_TRUNCATED, "header short");
    CHECK(ct_chunk_encode_ctc(&c, buf, CT_CTC_FILE_BYTES - 1, err, sizeof err) == CT_ERR_BUFFER, "small buffer");
    CHECK(ct_chunk_encode_u16le(&c, u, CT_U16LE_FILE_BYTES, NULL, 0) == CT_OK, "u16le");
    for (j = 0; j < 256; j++)
        for (i = 0; i < 256; i++)
            if (ct__get_u16(u + 2 * (j * 256 + i)) != c.height[j * 257 + i]) bad++;
    CHECK(bad == 0, ".u16le holds the 256x256 core heights row by row (%d wrong)", bad);
    CHECK(ct_chunk_encode_u16le(&c, u, 100, err, sizeof err) == CT_ERR_BUFFER, "small u16le buffer");
    free(buf);
    free(u);
}

/* --------------------------------------------------------------- the CLI */
/* Runs a shell command, captures stdout into out (may be NULL) and returns
 * the exit status. */
static int run(const char *cmd, char *out, size_t outlen)
{
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    int st;
    if (!p) return -1;
    if (out) {
        n = fread(out, 1, outlen - 1, p);
        out[n] = '\0';
    } else {
        char sink[4096];
        while (fread(sink, 1, sizeof sink, p) > 0) {}
    }
    st = pclose(p);
    return st >= 0 ? (st >> 8) & 0xff : -1;
}

static int file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (int)st.st_size : -1;
}

static void test_cli(void)
{
    static char a[65536], b[65536], c[65536];
    const char *base = "./terrain --preset balanced --set macro_resolution=16 --set surface_lod=3 --set seed=5";
    char cmd[1024];
    FILE *f;
    int k;
    if (!file_exists("./terrain")) { CHECK(0, "./terrain is not built (make all)"); return; }
    CHECK(run("./terrain --bogus 2>/dev/null", NULL, 0) == 2, "unknown option exits 2");
    CHECK(run("./terrain --chunk +Q 1 0 0 2>/dev/null", NULL, 0) == 2, "bad face exits 2");
    CHECK(run("./terrain --chunk +Z 1 2 0 2>/dev/null", NULL, 0) == 2, "x out of range exits 2");
    CHECK(run("./terrain --set surface_lod=2 --chunk +Z 3 0 0 2>/dev/null", NULL, 0) == 2, "LOD > surface_lod");
    CHECK(run("./terrain --set nope=1 2>&1", a, sizeof a) == 2 && strstr(a, "nope"), "unknown knob: %s", a);
    CHECK(run("./terrain --set surface_lod=40 2>&1", a, sizeof a) == 2 && strstr(a, "surface_lod") &&
          strstr(a, "0..16"), "out of range names knob and range: %s", a);
    CHECK(run("./terrain --preset nowhere 2>/dev/null", NULL, 0) == 2, "unknown preset exits 2");
    CHECK(run("./terrain --load " TMP "/nothing.ctw 2>/dev/null", NULL, 0) == 1, "missing snapshot exits 1");
    CHECK(run("./terrain --knobs", a, sizeof a) == 0, "--knobs");
    for (k = 0; k < (int)ct_knob_count(); k++)
        CHECK(strstr(a, ct_knob_get((size_t)k)->name) != NULL, "--knobs lists %s", ct_knob_get((size_t)k)->name);

    /* Build + chunks, with and without a replacement palette. */
    snprintf(cmd, sizeof cmd, "%s --out %s/cli --chunk +Z 3 2 5 --chunk pz 3 3 5", base, TMP);
    CHECK(run(cmd, a, sizeof a) == 0, "build with --out: %s", a);
    CHECK(strstr(a, "generation ") != NULL && strstr(a, "chunk +Z 3 2 5 digest ") != NULL &&
          strstr(a, "chunk +Z 3 3 5 digest ") != NULL, "prints generation and digests: %s", a);
    CHECK(file_size(TMP "/cli/chunk_pz_3_2_5.ctc") == 396354, ".ctc size");
    CHECK(file_size(TMP "/cli/chunk_pz_3_3_5.u16le") == 131072, ".u16le size");
    CHECK(file_size(TMP "/cli/world.ctw") > 0, "world.ctw written");
    f = fopen(TMP "/pal.txt", "wb");
    if (f) {
        for (k = 0; k < 40; k++) fprintf(f, "%02x%02x%02x\n", k * 6, 255 - k * 6, 128);
        fclose(f);
    }
    snprintf(cmd, sizeof cmd, "%s --out %s/cli2 --palette %s/pal.txt --chunk +Z 3 2 5 --chunk pz 3 3 5", base,
             TMP, TMP);
    CHECK(run(cmd, b, sizeof b) == 0, "with --palette");
    CHECK(strcmp(strstr(a, "chunk"), strstr(b, "chunk")) == 0 && strncmp(a, b, 27) == 0,
          "--palette changes no generation or digest:\n%s\n%s", a, b);
    /* A malformed palette names its line and exits 2. */
    f = fopen(TMP "/badpal.txt", "wb");
    if (f) { fputs("# comment\n000000\nnot a colour\n", f); fclose(f); }
    snprintf(cmd, sizeof cmd, "%s --palette %s/badpal.txt 2>&1", base, TMP);
    CHECK(run(cmd, c, sizeof c) == 2 && strstr(c, "line 3"), "malformed palette: %s", c);
    /* --load gives the same chunks without a rebuild. */
    snprintf(cmd, sizeof cmd, "./terrain --load %s/cli/world.ctw --out %s/cli3 --chunk +Z 3 2 5 --chunk pz 3 3 5",
             TMP, TMP);
    CHECK(run(cmd, b, sizeof b) == 0, "--load");
    CHECK(strcmp(strstr(a, "chunk"), strstr(b, "chunk")) == 0 && strncmp(a, b, 27) == 0,
          "--load gives the same generation and digests:\n%s\n%s", a, b);
    snprintf(cmd, sizeof cmd, "cmp -s %s/cli/chunk_pz_3_2_5.ctc %s/cli3/chunk_pz_3_2_5.ctc", TMP, TMP);
    CHECK(run(cmd, NULL, 0) == 0, "loaded world writes a byte-identical .ctc");
    snprintf(cmd, sizeof cmd, "./terrain --load %s/cli/world.ctw --set seed=1 2>/dev/null", TMP);
    CHECK(run(cmd, NULL, 0) == 2, "--load with --set is a usage error");
    /* The summary without --out echoes the overrides and the config. */
    snprintf(cmd, sizeof cmd, "%s --set relief_amplitude_m=123", base);
    CHECK(run(cmd, a, sizeof a) == 0, "summary");
    CHECK(strstr(a, "# --set relief_amplitude_m=123") && strstr(a, "\nrelief_amplitude_m=123\n") &&
          strstr(a, "\nvertex_count 1538\n") && strstr(a, "\nlakes "), "summary content: %.400s", a);
    /* --locate and --sample print machine-readable lines. */
    snprintf(cmd, sizeof cmd, "%s --locate 0 0 1 --sample 0.2 0.3 0.9", base);
    CHECK(run(cmd, a, sizeof a) == 0 && strstr(a, "locate face +Z lod 3 x 4 y 4 local_x 0 local_y 0 address ") &&
          strstr(a, "sample height_m "), "locate/sample: %s", a);
    snprintf(cmd, sizeof cmd, "%s --locate 0 0 1 2 --diagnostics --out %s/diag --preview %s/p.png --preview-width 64",
             base, TMP, TMP);
    CHECK(run(cmd, a, sizeof a) == 0 && strstr(a, "lod 2 x 2 y 2"), "locate with LOD: %s", a);
    CHECK(file_size(TMP "/diag/regions_px.ppm") == 15 + 256 * 256 * 3 && file_size(TMP "/diag/height_nz.ppm") > 0,
          "diagnostics written");
    /* PNGs are deflated when the CLI has zlib: more than the 57 bytes of
     * signature, IHDR and IEND is all that holds with and without it. */
    CHECK(file_size(TMP "/p.png") > 100, "preview png written");
}

int main(void)
{
    static const char *const sets[] = {"macro_resolution", "32", "surface_lod", "3", "seed", "11", NULL};
    ct_config cfg;
    ct_world *w;
    char err[256];
    int k;
    mkdir("build", 0777);
    mkdir(TMP, 0777);
    ct_config_preset(&cfg, "balanced", NULL, 0);
    for (k = 0; sets[k]; k += 2) ct_config_set(&cfg, sets[k], sets[k + 1], NULL, 0);
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    if (w) {
        test_round_trip(w);
        test_corruption(w);
        test_atomic_saves(w);
        test_chunk_files(w);
        ct_world_free(w);
    }
    test_cli();
    return test_summary("io");
}
