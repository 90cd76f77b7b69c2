/* sha256.h - SHA-256 (FIPS 180-4) for the bake's tile, index and manifest
 * digests: the tools only, never the core (generation uses FNV-1a). */
#ifndef CLI_SHA256_H
#define CLI_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_sha256_ctx {
    uint32_t h[8];
    uint64_t bytes;          /* message length so far */
    uint8_t block[64];
    size_t used;             /* bytes waiting in block */
} cli_sha256_ctx;

void cli_sha256_init(cli_sha256_ctx *s);
void cli_sha256_update(cli_sha256_ctx *s, const void *data, size_t len);
void cli_sha256_final(cli_sha256_ctx *s, uint8_t out[32]);
/* One call over a buffer. */
void cli_sha256(const void *data, size_t len, uint8_t out[32]);
/* 64 lowercase hex digits and a NUL into hex[65]. */
void cli_sha256_hex(const uint8_t digest[32], char hex[65]);

#endif
