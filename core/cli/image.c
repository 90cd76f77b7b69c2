/* image.c - PPM and uncompressed PNG writers for the terrain CLI (previews and
 * diagnostics). PNG uses stored deflate blocks: no zlib needed, files are
 * about as large as the PPM, and every browser and README can show them. */
#include "image.h"

#include "ct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int write_png(const char *path, int w, int h, const uint8_t *rgb, char *err, size_t errlen)
{
    size_t row = (size_t)w * 3u + 1u, raw = row * (size_t)h;
    size_t blocks = raw / 65535u + 1u, zlen = 2u + raw + 5u * blocks + 4u;
    size_t total = 8u + 25u + (12u + zlen) + 12u, pos = 0, k, done;
    uint8_t *out = (uint8_t *)malloc(total), *z, ihdr[13];
    uint32_t a = 1, b = 0;
    int rc;
    if (!out) { snprintf(err, errlen, "out of memory for %s", path); return -1; }
    memcpy(out, "\x89PNG\r\n\x1a\n", 8);
    pos = 8;
    put_be32(ihdr, (uint32_t)w);
    put_be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;   /* 8-bit RGB */
    png_chunk(out, &pos, "IHDR", ihdr, 13);
    /* Build the zlib stream in place after the IDAT length and type. */
    z = out + pos + 8;
    z[0] = 0x78; z[1] = 0x01;
    k = 2;
    done = 0;
    do {
        size_t n = raw - done > 65535u ? 65535u : raw - done, m;
        z[k] = (uint8_t)(done + n == raw ? 1 : 0);          /* BFINAL, stored */
        z[k + 1] = (uint8_t)n; z[k + 2] = (uint8_t)(n >> 8);
        z[k + 3] = (uint8_t)~n; z[k + 4] = (uint8_t)(~n >> 8);
        k += 5;
        for (m = 0; m < n; m++, done++) {
            size_t r = done / row, c = done % row;
            uint8_t v = c == 0 ? 0 : rgb[r * (size_t)w * 3u + c - 1u];   /* filter 0 */
            z[k++] = v;
            a = (a + v) % 65521u;
            b = (b + a) % 65521u;
        }
    } while (done < raw);
    put_be32(z + k, (b << 16) | a);
    k += 4;
    png_chunk(out, &pos, "IDAT", z, k);
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

int cli_image_write(const char *path, int width, int height, const uint8_t *rgb,
                    char *err, size_t errlen)
{
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".png") == 0)
        return write_png(path, width, height, rgb, err, errlen);
    return write_ppm(path, width, height, rgb, err, errlen);
}
