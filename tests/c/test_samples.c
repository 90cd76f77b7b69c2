/* test_samples.c - the committed samples/ are exactly what `make samples`
 * would write now: the world snapshot from samples/world.cfg and the sixteen
 * +Z LOD 6 chunks x 22..29, y 52..53 (.ctc and .u16le), byte for byte. When a
 * deliberate generation change makes them stale, every failure says to run
 * `make samples`. Run from the repository root (make test does). */
#include "ct.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define STALE "samples/ is stale or missing: run make samples (then commit samples/)"

/* Whole file into a malloc'd buffer; NULL if it cannot be read. */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = (uint8_t *)malloc((size_t)n + 1u);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
        if (buf) { buf[n] = 0; *len = (size_t)n; }
    }
    fclose(f);
    return buf;
}

/* Compares bytes with a file; reports the first differing offset. */
static void check_file(const char *path, const uint8_t *want, size_t len)
{
    size_t have_len = 0, i = 0;
    uint8_t *have = slurp(path, &have_len);
    CHECK(have != NULL, "%s cannot be read. " STALE, path);
    if (!have) return;
    if (have_len == len) while (i < len && have[i] == want[i]) i++;
    CHECK(have_len == len && i == len, "%s differs from a fresh build (%lu bytes vs %lu, first difference at %lu). " STALE,
          path, (unsigned long)have_len, (unsigned long)len, (unsigned long)i);
    free(have);
}

int main(void)
{
    ct_config cfg;
    ct_world *w;
    ct_chunk *chunk = (ct_chunk *)malloc(sizeof *chunk);
    uint8_t *ctc = (uint8_t *)malloc(CT_CTC_FILE_BYTES), *u16 = (uint8_t *)malloc(CT_U16LE_FILE_BYTES);
    uint8_t *snap;
    size_t cfg_len = 0, snap_len;
    char err[512], path[256];
    char *text = (char *)slurp("samples/world.cfg", &cfg_len);
    uint32_t x, y;

    CHECK(chunk && ctc && u16, "out of memory");
    CHECK(text != NULL, "samples/world.cfg cannot be read (run from the repository root)");
    if (!chunk || !ctc || !u16 || !text) return test_summary("samples");
    ct_config_default(&cfg);   /* `make samples` runs --preset balanced = the defaults */
    CHECK(ct_config_parse(&cfg, text, err, sizeof err) == CT_OK, "samples/world.cfg: %s", err);
    CHECK(cfg.surface_lod >= 6, "the samples need surface_lod >= 6, the config has %lu",
          (unsigned long)cfg.surface_lod);
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    if (w) {
        snap_len = ct_world_snapshot_size(w);
        snap = (uint8_t *)malloc(snap_len);
        CHECK(snap && ct_world_snapshot_write(w, snap, snap_len, err, sizeof err) == CT_OK, "snapshot: %s", err);
        if (snap) check_file("samples/world.ctw", snap, snap_len);
        free(snap);
        for (y = 52; y <= 53; y++) {
            for (x = 22; x <= 29; x++) {
                ct_key key;
                key.face = CT_FACE_PZ;
                key.lod = 6;
                key.x = x;
                key.y = y;
                CHECK(ct_chunk_generate(w, key, chunk, err, sizeof err) == CT_OK, "chunk %lu %lu: %s",
                      (unsigned long)x, (unsigned long)y, err);
                CHECK(ct_chunk_encode_ctc(chunk, ctc, CT_CTC_FILE_BYTES, err, sizeof err) == CT_OK, "ctc: %s", err);
                CHECK(ct_chunk_encode_u16le(chunk, u16, CT_U16LE_FILE_BYTES, err, sizeof err) == CT_OK, "u16le: %s", err);
                snprintf(path, sizeof path, "samples/chunk_pz_6_%lu_%lu.ctc", (unsigned long)x, (unsigned long)y);
                check_file(path, ctc, CT_CTC_FILE_BYTES);
                snprintf(path, sizeof path, "samples/chunk_pz_6_%lu_%lu.u16le", (unsigned long)x, (unsigned long)y);
                check_file(path, u16, CT_U16LE_FILE_BYTES);
            }
        }
        ct_world_free(w);
    }
    free(text);
    free(chunk);
    free(ctc);
    free(u16);
    return test_summary("samples");
}
