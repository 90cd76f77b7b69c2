/* verify.c - `terrain --verify FILE` for .ctc chunks and CTWORLD2 snapshots.
 *
 * The kind comes from the magic bytes, not the file name, and the whole file
 * goes through the same reader the library uses (ct_chunk_decode_ctc,
 * ct_world_snapshot_read), so "verified" means "the library would accept
 * it": digest or checksum, versions, sizes, and for snapshots the generation
 * ID recomputed from the contents. */
#include "verify.h"

#include "ct.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int verify_fail(const char *path, const char *reason)
{
    fprintf(stderr, "terrain: --verify %s: %s\n", path, reason);
    return 2;
}

static void print_hex64(const char *name, uint64_t v)
{
    printf("%s %08lx%08lx\n", name, (unsigned long)(uint32_t)(v >> 32), (unsigned long)(uint32_t)v);
}

static uint8_t *read_all(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, got;
    *len = 0;
    if (!f) { snprintf(err, errlen, "cannot open: %s", strerror(errno)); return NULL; }
    do {
        if (cap - *len < 65536) {
            uint8_t *nb = (uint8_t *)realloc(buf, cap ? cap * 2u : 1u << 20);
            if (!nb) { free(buf); fclose(f); snprintf(err, errlen, "out of memory"); return NULL; }
            buf = nb;
            cap = cap ? cap * 2u : 1u << 20;
        }
        got = fread(buf + *len, 1, cap - *len, f);
        *len += got;
    } while (got > 0);
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read: %s", strerror(errno));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    return buf;
}

static int verify_ctc(const char *path, const uint8_t *buf, size_t len)
{
    char err[256];
    ct_chunk *c = (ct_chunk *)malloc(sizeof *c);
    if (!c) return verify_fail(path, "out of memory");
    if (ct_chunk_decode_ctc(buf, len, c, err, sizeof err) != CT_OK) {
        free(c);
        return verify_fail(path, err);
    }
    printf("kind ctc\n");
    print_hex64("generation", c->generation);
    printf("key %s %d %lu %lu\n", ct_face_name(c->key.face), (int)c->key.lod, (unsigned long)c->key.x,
           (unsigned long)c->key.y);
    print_hex64("digest", c->digest);
    printf("planet_id %lu\n", (unsigned long)c->planet_id);
    printf("height_quantum_m %.17g\n", c->height_quantum_m);
    printf("clipped %lu\n", (unsigned long)c->clipped);
    free(c);
    return 0;
}

static int verify_ctw(const char *path, const uint8_t *buf, size_t len)
{
    char err[256];
    ct_world *w = NULL;
    uint64_t sum = 0;
    int k;
    if (ct_world_snapshot_read(buf, len, &w, err, sizeof err) != CT_OK) return verify_fail(path, err);
    /* A snapshot's digest is its trailing FNV-1a 64 checksum. */
    for (k = 7; k >= 0; k--) sum = (sum << 8) | buf[len - 8u + (size_t)k];
    printf("kind ctw\n");
    print_hex64("generation", ct_world_generation(w));
    printf("key -\n");   /* a world is every key; chunks carry one */
    print_hex64("digest", sum);
    printf("planet_id %lu\n", (unsigned long)ct_world_config(w)->planet_id);
    printf("macro_resolution %lu\n", (unsigned long)ct_world_config(w)->macro_resolution);
    ct_world_free(w);
    return 0;
}

int terrain_verify(const char *path)
{
    char err[256];
    size_t len;
    int rc;
    uint8_t *buf = read_all(path, &len, err, sizeof err);
    if (!buf) return verify_fail(path, err);
    if (len >= 7 && memcmp(buf, "CTCHUNK", 7) == 0)
        rc = verify_ctc(path, buf, len);
    else if (len >= 7 && memcmp(buf, "CTWORLD", 7) == 0)
        rc = verify_ctw(path, buf, len);
    else
        rc = verify_fail(path, "neither a .ctc chunk nor a CTWORLD2 snapshot (bad magic)");
    free(buf);
    return rc;
}
