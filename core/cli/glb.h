/* glb.h - one chunk as a glTF 2.0 binary (.glb) for engines and tools: its
 * stride-1 terrain mesh without skirts, positions relative to the chunk
 * centre, the centre in the node's translation (float64 in the JSON). */
#ifndef CLI_GLB_H
#define CLI_GLB_H

#include "ct.h"

#include <stddef.h>
#include <stdint.h>

/* The largest .glb a chunk makes (buf for glb_encode_chunk). */
size_t glb_max_bytes(void);
/* Writes the file into buf (glb_max_bytes() long), its length in *len.
 * scratch must hold glb_max_bytes() bytes too (the mesh before packing). */
int glb_encode_chunk(const ct_world *w, const ct_chunk *c, uint8_t *buf, size_t *len, uint8_t *scratch,
                     char *err, size_t errlen);

#endif
