/* image.h - tiny image writers for the command-line tools: binary PPM (P6)
 * and PNG (deflated with zlib when built with CT_CLI_ZLIB, else stored
 * blocks), both written atomically. */
#ifndef CT_CLI_IMAGE_H
#define CT_CLI_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* rgb: width*height*3 bytes, rows top to bottom. Picks PNG when path ends
 * in ".png", PPM otherwise. Returns 0 on success, else writes err. */
int cli_image_write(const char *path, int width, int height, const uint8_t *rgb,
                    char *err, size_t errlen);
/* 1 when PNGs are deflated by zlib, 0 when they use stored blocks. */
int cli_image_png_compressed(void);

#endif
