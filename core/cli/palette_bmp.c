/* palette_bmp.c - the palette importer: reads the rows of an uncompressed
 * 24- or 32-bit BMP (the planet_tool habit of one colour ramp per row) and
 * writes the 40-line RRGGBB file `--palette` reads. Anything it cannot read
 * exactly (RLE or other compression, colour tables, truncated or padded
 * files, too few rows or columns) is refused with a message that says what
 * to fix, rather than guessed at. wasm/palette_bmp.mjs is its JS twin and
 * prints the same messages. */
#include "palette_bmp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BMP_FILE_HEADER 14u
#define BMP_MAX_SIDE 65536L          /* bigger palettes are certainly a mistake */
#define BMP_BI_RGB 0u
#define BMP_BI_BITFIELDS 3u

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int fail(char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
    return -1;
}

/* BI_BITFIELDS is accepted only for 32-bit pixels laid out exactly like
 * BI_RGB (blue, green, red bytes): image editors write that for plain 32-bit
 * exports, and any other layout would need real mask handling. */
static int plain_bitfields(const uint8_t *buf, size_t len, uint32_t dib, uint32_t bpp)
{
    size_t at = BMP_FILE_HEADER + 40u;   /* masks follow a 40-byte header or sit inside V4/V5 */
    if (bpp != 32 || len < at + 12u || (dib != 40u && dib < 52u)) return 0;
    return le32(buf + at) == 0x00ff0000u && le32(buf + at + 4) == 0x0000ff00u &&
           le32(buf + at + 8) == 0x000000ffu;
}

int cli_palette_from_bmp(const uint8_t *buf, size_t len, ct_palette *out, char *err, size_t errlen)
{
    uint32_t dib, bpp, compression, declared, offset, colors_used;
    long width, height;
    size_t stride, need;
    int biome, shade, top_down;
    if (len < BMP_FILE_HEADER + 40u || buf[0] != 'B' || buf[1] != 'M')
        return fail(err, errlen, "not a BMP file (no 'BM' signature and 54-byte header)");
    declared = le32(buf + 2);
    offset = le32(buf + 10);
    dib = le32(buf + 14);
    if (dib != 40u && dib != 52u && dib != 56u && dib != 108u && dib != 124u)
        return fail(err, errlen, "unsupported BMP header (need BITMAPINFOHEADER or V4/V5)");
    if (declared != 0u && declared != len)
        return fail(err, errlen, "wrong size: the BMP header's file size does not match the file");
    width = (long)(int32_t)le32(buf + 18);
    height = (long)(int32_t)le32(buf + 22);
    bpp = le16(buf + 28);
    compression = le32(buf + 30);
    colors_used = le32(buf + 46);
    if (le16(buf + 26) != 1u) return fail(err, errlen, "malformed BMP: planes must be 1");
    if (bpp <= 8u || colors_used != 0u)
        return fail(err, errlen, "palettised BMP (colour table); save it as 24-bit or 32-bit RGB");
    if (compression != BMP_BI_RGB &&
        !(compression == BMP_BI_BITFIELDS && plain_bitfields(buf, len, dib, bpp)))
        return fail(err, errlen, "compressed BMP (RLE, bitfields or embedded image); save it uncompressed");
    if (bpp != 24u && bpp != 32u) return fail(err, errlen, "unsupported BMP depth; need 24 or 32 bits per pixel");
    top_down = height < 0;
    if (top_down) height = -height;
    if (width < 5 || width > BMP_MAX_SIDE)
        return fail(err, errlen, "a palette BMP needs at least 5 columns (5 shades per biome)");
    if (height < 8 || height > BMP_MAX_SIDE)
        return fail(err, errlen, "a palette BMP needs at least 8 rows (one per biome)");
    stride = (((size_t)width * bpp + 31u) / 32u) * 4u;
    need = (size_t)offset + stride * (size_t)height;
    if (offset < BMP_FILE_HEADER + dib || need > len)
        return fail(err, errlen, "wrong size: the BMP is truncated (pixel rows end past the file)");
    for (biome = 0; biome < 8; biome++) {
        /* Row k from the top: bottom-up files (the usual kind) store it last. */
        long row = top_down ? biome : height - 1 - biome;
        const uint8_t *line = buf + offset + stride * (size_t)row;
        for (shade = 0; shade < 5; shade++) {
            long col = (2L * shade * (width - 1) + 4L) / 8L;   /* round(shade*(w-1)/4) */
            const uint8_t *px = line + (size_t)col * (bpp / 8u);
            uint8_t *rgb = out->rgb[biome * 5 + shade];
            rgb[0] = px[2];
            rgb[1] = px[1];
            rgb[2] = px[0];
        }
    }
    return 0;
}

int cli_palette_bmp_main(const char *in_path, const char *out_path)
{
    static const char hex[] = "0123456789abcdef";
    char err[256], text[CT_PALETTE_SIZE * 7 + 1];
    FILE *f = fopen(in_path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;
    ct_palette pal;
    int k, c, rc;
    if (!f) { fprintf(stderr, "terrain: --palette-from-bmp: cannot open '%s'\n", in_path); return 1; }
    do {
        if (cap - len < 4096u) {
            uint8_t *nb = (uint8_t *)realloc(buf, cap + 65536u);
            if (!nb) { free(buf); fclose(f); fprintf(stderr, "terrain: out of memory\n"); return 1; }
            buf = nb;
            cap += 65536u;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    rc = cli_palette_from_bmp(buf, len, &pal, err, sizeof err);
    free(buf);
    if (rc) { fprintf(stderr, "terrain: --palette-from-bmp %s: %s\n", in_path, err); return 2; }
    for (k = 0; k < CT_PALETTE_SIZE; k++) {
        for (c = 0; c < 3; c++) {
            text[k * 7 + 2 * c] = hex[pal.rgb[k][c] >> 4];
            text[k * 7 + 2 * c + 1] = hex[pal.rgb[k][c] & 15];
        }
        text[k * 7 + 6] = '\n';
    }
    if (ct_file_write_atomic(out_path, text, (size_t)CT_PALETTE_SIZE * 7u, err, sizeof err) != CT_OK) {
        fprintf(stderr, "terrain: --palette-out: %s\n", err);
        return 1;
    }
    printf("palette %s from %s\n", out_path, in_path);
    return 0;
}
