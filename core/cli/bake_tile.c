/* bake_tile.c - one tile's bytes in the bake's format, and the optional .gz
 * beside it. */
#include "bake.h"
#include "glb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef CT_CLI_ZLIB
#include <zlib.h>
#endif

size_t bake_tile_max(int format)
{
    return format == BAKE_CTC ? CT_CTC_FILE_BYTES : format == BAKE_GLB ? 2 * glb_max_bytes() : CT_TILE_FILE_BYTES;
}

/* buf holds bake_tile_max(format) bytes; a .glb builds its mesh in the
 * second half. */
int bake_tile_encode(const ct_world *w, const ct_chunk *c, int format, uint8_t *buf, size_t *len, char *err, size_t errlen)
{
    if (format == BAKE_GLB) return glb_encode_chunk(w, c, buf, len, buf + glb_max_bytes(), err, errlen);
    *len = format == BAKE_CTC ? CT_CTC_FILE_BYTES : CT_TILE_FILE_BYTES;
    if (format == BAKE_CTC) return ct_chunk_encode_ctc(c, buf, *len, err, errlen) != CT_OK;
    return ct_chunk_encode_tile(c, buf, *len, err, errlen) != CT_OK;
}

/* gzip (RFC 1952) at level 9 with no name and no time in its header, so the
 * same tile gives the same .gz with the same zlib. */
int bake_gzip(const uint8_t *in, size_t len, uint8_t **out, size_t *outlen, char *err, size_t errlen)
{
#ifdef CT_CLI_ZLIB
    z_stream z;
    size_t cap = len + len / 100 + 1024;
    memset(&z, 0, sizeof z);
    *out = (uint8_t *)malloc(cap);
    if (!*out || deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(*out);
        *out = NULL;
        snprintf(err, errlen, "gzip: out of memory");
        return 1;
    }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = *out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
        deflateEnd(&z);
        free(*out);
        *out = NULL;
        snprintf(err, errlen, "gzip: deflate failed");
        return 1;
    }
    *outlen = z.total_out;
    deflateEnd(&z);
    return 0;
#else
    (void)in; (void)len; (void)out; (void)outlen;
    snprintf(err, errlen, "built without zlib");
    return 1;
#endif
}
