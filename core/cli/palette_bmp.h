/* palette_bmp.h - imports a planet_tool-style BMP of palette rows into the
 * 40-line palette file that `terrain --palette` reads. */
#ifndef CT_CLI_PALETTE_BMP_H
#define CT_CLI_PALETTE_BMP_H

#include "ct.h"

#include <stddef.h>
#include <stdint.h>

/* Parses an uncompressed 24- or 32-bit BMP held in buf: row k from the top is
 * biome k (core order: water sand grass forest rock snow desert tundra) and
 * five colours are taken evenly across the row, the first and last pixel
 * included (column round(i * (width - 1) / 4), halves up). Rows below the
 * eighth are ignored. Returns 0, or -1 with a message in err. */
int cli_palette_from_bmp(const uint8_t *buf, size_t len, ct_palette *out, char *err, size_t errlen);

/* `terrain --palette-from-bmp IN --palette-out OUT`: returns the exit status
 * (0 written, 1 cannot read or write, 2 not an acceptable BMP). */
int cli_palette_bmp_main(const char *in_path, const char *out_path);

#endif
