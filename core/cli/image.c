/* image.c - PPM and PNG writers for the command-line tools (previews and
 * diagnostics). PNG rows get the usual per-row filter choice (the one with
 * the smallest sum of absolute residuals) and are deflated with the
 * distribution's zlib when the build found it (CT_CLI_ZLIB, see the
 * Makefile); without zlib the same rows go into stored deflate blocks, so the
 * files are still valid PNGs, about as large as a PPM. The core never links
 * zlib: only these tools do. */
#include "image.h"

#include "ct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef CT_CLI_ZLIB
#include <zlib.h>
#endif

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t len)
{
    size_t i;
    int k;
    crc = ~crc;
    for (i = 0; i < len; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* Appends a chunk (length, type, data, CRC) at out+*pos. */
static void png_chunk(uint8_t *out, size_t *pos, const char *type, const uint8_t *data, size_t len)
{
    uint8_t *c = out + *pos;
    put_be32(c, (uint32_t)len);
    memcpy(c + 4, type, 4);
    if (len) memmove(c + 8, data, len);
    put_be32(c + 8 + len, crc32_update(0, c + 4, len + 4));
    *pos += len + 12;
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = p > a ? p - a : a - p, pb = p > b ? p - b : b - p, pc = p > c ? p - c : c - p;
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* One filtered row (filter byte + residuals) into dst; cur/prev are RGB rows
 * (prev NULL on the first row). */
static void filter_row(int type, const uint8_t *cur, const uint8_t *prev, size_t n, uint8_t *dst)
{
    size_t i;
    dst[0] = (uint8_t)type;
    for (i = 0; i < n; i++) {
        int a = i >= 3 ? cur[i - 3] : 0, b = prev ? prev[i] : 0, c = prev && i >= 3 ? prev[i - 3] : 0;
        int pred = type == 1 ? a : type == 2 ? b : type == 3 ? (a + b) / 2 : type == 4 ? paeth(a, b, c) : 0;
        dst[1 + i] = (uint8_t)(cur[i] - pred);
    }
}

/* The filtered image: each row gets the filter whose residuals, read as
 * signed bytes, sum smallest (the heuristic the PNG specification suggests). */
static uint8_t *filter_image(int w, int h, const uint8_t *rgb, size_t *raw_len)
{
    size_t n = (size_t)w * 3u, row = n + 1u;
    uint8_t *raw = (uint8_t *)malloc(row * (size_t)h), *tmp = (uint8_t *)malloc(row);
    int y, t;
    if (!raw || !tmp) { free(raw); free(tmp); return NULL; }
    for (y = 0; y < h; y++) {
        const uint8_t *cur = rgb + (size_t)y * n, *prev = y ? cur - n : NULL;
        unsigned long best = 0;
        for (t = 0; t < 5; t++) {
            unsigned long sum = 0;
            size_t i;
            filter_row(t, cur, prev, n, tmp);
            for (i = 1; i <= n; i++) sum += tmp[i] < 128 ? tmp[i] : 256u - tmp[i];
            if (t == 0 || sum < best) { best = sum; memcpy(raw + (size_t)y * row, tmp, row); }
        }
    }
    free(tmp);
    *raw_len = row * (size_t)h;
    return raw;
}

/* zlib stream of raw into z (capacity *zlen); sets *zlen. */
static int deflate_raw(const uint8_t *raw, size_t raw_len, uint8_t *z, size_t *zlen)
{
#ifdef CT_CLI_ZLIB
    uLongf dst = (uLongf)*zlen;
    if (compress2(z, &dst, raw, (uLong)raw_len, 9) != Z_OK) return -1;
    *zlen = (size_t)dst;
    return 0;
#else
    size_t k = 2, done = 0, m;
    uint32_t a = 1, b = 0;
    z[0] = 0x78; z[1] = 0x01;
    do {
        size_t n = raw_len - done > 65535u ? 65535u : raw_len - done;
        z[k] = (uint8_t)(done + n == raw_len ? 1 : 0);          /* BFINAL, stored */
        z[k + 1] = (uint8_t)n; z[k + 2] = (uint8_t)(n >> 8);
        z[k + 3] = (uint8_t)~n; z[k + 4] = (uint8_t)(~n >> 8);
        k += 5;
        for (m = 0; m < n; m++, done++) {
            z[k++] = raw[done];
            a = (a + raw[done]) % 65521u;
            b = (b + a) % 65521u;
        }
    } while (done < raw_len);
    put_be32(z + k, (b << 16) | a);
    *zlen = k + 4;
    return 0;
#endif
}

static int write_png(const char *path, int w, int h, const uint8_t *rgb, char *err, size_t errlen)
{
    size_t raw_len = 0, zcap, pos = 8, zlen;
    uint8_t *raw = filter_image(w, h, rgb, &raw_len), *out, ihdr[13];
    int rc;
    if (!raw) { snprintf(err, errlen, "out of memory for %s", path); return -1; }
    /* Room for stored blocks covers zlib's worst case too. */
    zcap = 2u + raw_len + 5u * (raw_len / 65535u + 1u) + 4u + 64u;
    out = (uint8_t *)malloc(8u + 25u + 12u + zcap + 12u);
    if (!out) { free(raw); snprintf(err, errlen, "out of memory for %s", path); return -1; }
    memcpy(out, "\x89PNG\r\n\x1a\n", 8);
    put_be32(ihdr, (uint32_t)w);
    put_be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;   /* 8-bit RGB */
    png_chunk(out, &pos, "IHDR", ihdr, 13);
    zlen = zcap;
    if (deflate_raw(raw, raw_len, out + pos + 8, &zlen)) {
        free(raw);
        free(out);
        snprintf(err, errlen, "deflate failed for %s", path);
        return -1;
    }
    free(raw);
    png_chunk(out, &pos, "IDAT", out + pos + 8, zlen);
    png_chunk(out, &pos, "IEND", NULL, 0);
    rc = ct_file_write_atomic(path, out, pos, err, errlen) == CT_OK ? 0 : -1;
    free(out);
    return rc;
}

static int write_ppm(const char *path, int w, int h, const uint8_t *rgb, char *err, size_t errlen)
{
    char head[64];
    int hl = snprintf(head, sizeof head, "P6\n%d %d\n255\n", w, h);
    size_t body = (size_t)w * (size_t)h * 3u;
    uint8_t *out = (uint8_t *)malloc((size_t)hl + body);
    int rc;
    if (!out) { snprintf(err, errlen, "out of memory for %s", path); return -1; }
    memcpy(out, head, (size_t)hl);
    memcpy(out + hl, rgb, body);
    rc = ct_file_write_atomic(path, out, (size_t)hl + body, err, errlen) == CT_OK ? 0 : -1;
    free(out);
    return rc;
}

int cli_image_png_compressed(void)
{
#ifdef CT_CLI_ZLIB
    return 1;
#else
    return 0;
#endif
}

int cli_image_write(const char *path, int width, int height, const uint8_t *rgb,
                    char *err, size_t errlen)
{
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".png") == 0)
        return write_png(path, width, height, rgb, err, errlen);
    return write_ppm(path, width, height, rgb, err, errlen);
}
