/* palette.c - the default 40-colour palette (8 biomes x 5 shades, dark to
 * light) and the parser of palette files: exactly 40 RRGGBB values, one per
 * line, '#' comments and blank lines allowed. Palettes only colour samples:
 * they never enter heights, masks or generation IDs. */
#include "base/ct_base.h"

#include <string.h>

/* Must equal core/palette.txt line for line (tests/c/test_chunks.c reads the
 * file and compares). Rows: water, sand, grass, forest, rock, snow, desert,
 * tundra. */
static const uint32_t ct__palette_rgb[CT_PALETTE_SIZE] = {
    0x0b2447, 0x123466, 0x1a4a85, 0x2867a3, 0x3f88c0,   /* water */
    0xa38f5c, 0xb7a16a, 0xc9b47c, 0xd9c590, 0xe7d6a8,   /* sand */
    0x34602a, 0x437534, 0x548a3e, 0x679e4b, 0x7db25c,   /* grass */
    0x1b4320, 0x22532a, 0x2b6332, 0x36733a, 0x428446,   /* forest */
    0x55524c, 0x67635c, 0x79756d, 0x8c877f, 0xa09b92,   /* rock */
    0xc9d1d8, 0xd7dde2, 0xe3e8ec, 0xeef1f4, 0xf8fafb,   /* snow */
    0xa86f3d, 0xbb8049, 0xc9925a, 0xd6a46c, 0xe2b782,   /* desert */
    0x5e6453, 0x6f7563, 0x80866f, 0x93977f, 0xa6a993    /* tundra */
};

void ct_palette_default(ct_palette *out)
{
    int k;
    if (!out) return;
    for (k = 0; k < CT_PALETTE_SIZE; k++) {
        out->rgb[k][0] = (uint8_t)(ct__palette_rgb[k] >> 16);
        out->rgb[k][1] = (uint8_t)(ct__palette_rgb[k] >> 8);
        out->rgb[k][2] = (uint8_t)ct__palette_rgb[k];
    }
}

static int ct__hex(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int ct__blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

ct_result ct_palette_parse(const char *text, ct_palette *out, char *err, size_t errlen)
{
    ct_palette work;
    const char *p = text;
    int line = 0, count = 0;
    if (!text || !out) return ct__fail(err, errlen, CT_ERR_NULL, "palette text or output is NULL");
    while (*p) {
        const char *eol = strchr(p, '\n');
        const char *end = eol ? eol : p + strlen(p), *q = p, *digits;
        int k, v[6];
        line++;
        while (q < end && ct__blank(*q)) q++;
        if (q == end || *q == '#') { p = eol ? eol + 1 : end; continue; }
        digits = q;
        for (k = 0; k < 6; k++) {
            if (q >= end || (v[k] = ct__hex(*q)) < 0) break;
            q++;
        }
        if (k < 6 || (q < end && !ct__blank(*q) && *q != '#'))
            return ct__fail(err, errlen, CT_ERR_PALETTE,
                            "palette line %d: expected six hex digits RRGGBB, got '%.*s'", line,
                            (int)(end - digits > 40 ? 40 : end - digits), digits);
        while (q < end && ct__blank(*q)) q++;
        if (q < end && *q != '#')
            return ct__fail(err, errlen, CT_ERR_PALETTE,
                            "palette line %d: unexpected text after the colour", line);
        if (count >= CT_PALETTE_SIZE)
            return ct__fail(err, errlen, CT_ERR_PALETTE,
                            "palette line %d: more than %d colours", line, CT_PALETTE_SIZE);
        work.rgb[count][0] = (uint8_t)(v[0] * 16 + v[1]);
        work.rgb[count][1] = (uint8_t)(v[2] * 16 + v[3]);
        work.rgb[count][2] = (uint8_t)(v[4] * 16 + v[5]);
        count++;
        p = eol ? eol + 1 : end;
    }
    if (count != CT_PALETTE_SIZE)
        return ct__fail(err, errlen, CT_ERR_PALETTE,
                        "palette has %d colours after line %d; expected exactly %d (8 biomes x 5 shades)",
                        count, line, CT_PALETTE_SIZE);
    *out = work;
    return CT_OK;
}
