/* glb.c - a chunk's terrain mesh as glTF 2.0 binary: POSITION (float32,
 * metres from the chunk centre), NORMAL, COLOR_0 (palette RGBA, normalized
 * u8) and uint32 indices, in one buffer; the centre is the node's translation,
 * printed with 17 significant digits so it reads back as the exact float64.
 * The mesh is ct_mesh_build's stride-1 grid without skirts, so neighbouring
 * tiles share their border vertices: the same directions and heights, each
 * rounded once to float32 relative to its own centre. asset.extras names the
 * generation, key and chunk digest.
 * Multi-byte values are written as the host holds them: little-endian hosts
 * only, as glTF requires (every platform the bake runs on). */
#include "glb.h"

#include <stdio.h>
#include <string.h>

#define GLB_GRID ((size_t)CT_CHUNK_EDGE * CT_CHUNK_EDGE)
#define GLB_INDICES ((size_t)CT_CHUNK_CORE * CT_CHUNK_CORE * 6)
#define GLB_BIN (GLB_GRID * (12 + 12 + 4) + GLB_INDICES * 4)
#define GLB_JSON_MAX 4096

size_t glb_max_bytes(void) { return 12 + 8 + GLB_JSON_MAX + 8 + GLB_BIN; }

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* The JSON chunk's text (unpadded); its length, or 0 if it did not fit. */
static size_t glb_json(char *j, size_t cap, const ct_chunk *c, const ct_mesh *m, const float lo[3], const float hi[3])
{
    char g[17], d[17];
    size_t pos = GLB_GRID * 12, col = GLB_GRID * 4, o1 = pos, o2 = o1 + pos, o3 = o2 + col;
    int n;
    snprintf(g, sizeof g, "%08lx%08lx", (unsigned long)(uint32_t)(c->generation >> 32), (unsigned long)(uint32_t)c->generation);
    snprintf(d, sizeof d, "%08lx%08lx", (unsigned long)(uint32_t)(c->digest >> 32), (unsigned long)(uint32_t)c->digest);
    n = snprintf(j, cap,
        "{\"asset\":{\"version\":\"2.0\",\"generator\":\"cubesphere terrain bake\","
        "\"extras\":{\"generation\":\"%s\",\"face\":\"%s\",\"lod\":%d,\"x\":%lu,\"y\":%lu,\"digest\":\"%s\"}},"
        "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
        "\"nodes\":[{\"name\":\"%s/%d/%lu/%lu\",\"mesh\":0,\"translation\":[%.17g,%.17g,%.17g]}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"COLOR_0\":2},\"indices\":3,\"mode\":4}]}],"
        "\"buffers\":[{\"byteLength\":%lu}],"
        "\"bufferViews\":["
        "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":%lu,\"byteStride\":12,\"target\":34962},"
        "{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu,\"byteStride\":12,\"target\":34962},"
        "{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu,\"byteStride\":4,\"target\":34962},"
        "{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu,\"target\":34963}],"
        "\"accessors\":["
        "{\"bufferView\":0,\"componentType\":5126,\"count\":%lu,\"type\":\"VEC3\","
        "\"min\":[%.17g,%.17g,%.17g],\"max\":[%.17g,%.17g,%.17g]},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":%lu,\"type\":\"VEC3\"},"
        "{\"bufferView\":2,\"componentType\":5121,\"normalized\":true,\"count\":%lu,\"type\":\"VEC4\"},"
        "{\"bufferView\":3,\"componentType\":5125,\"count\":%lu,\"type\":\"SCALAR\"}]}",
        g, ct_face_name(c->key.face), (int)c->key.lod, (unsigned long)c->key.x, (unsigned long)c->key.y, d,
        ct_face_file_name(c->key.face), (int)c->key.lod, (unsigned long)c->key.x, (unsigned long)c->key.y,
        m->center_m[0], m->center_m[1], m->center_m[2], (unsigned long)GLB_BIN,
        (unsigned long)pos, (unsigned long)o1, (unsigned long)pos, (unsigned long)o2, (unsigned long)col,
        (unsigned long)o3, (unsigned long)(GLB_INDICES * 4),
        (unsigned long)GLB_GRID, (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2],
        (unsigned long)GLB_GRID, (unsigned long)GLB_GRID, (unsigned long)GLB_INDICES);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

int glb_encode_chunk(const ct_world *w, const ct_chunk *c, uint8_t *buf, size_t *len, uint8_t *scratch,
                     char *err, size_t errlen)
{
    ct_mesh_options mo;
    ct_mesh m;
    float lo[3], hi[3];
    size_t k, jlen, jpad;
    int a;
    memset(&mo, 0, sizeof mo);
    mo.stride = 1;
    memset(&m, 0, sizeof m);
    m.positions = (float *)scratch;
    m.normals = (float *)(scratch + GLB_GRID * 12);
    m.colors = scratch + GLB_GRID * 24;
    m.indices = scratch + GLB_GRID * 28;
    if (ct_mesh_build(w, c, &mo, NULL, &m, err, errlen) != CT_OK) return 1;
    if (m.vertex_count != GLB_GRID || m.index_count != GLB_INDICES) {
        snprintf(err, errlen, "unexpected mesh size %lu/%lu", (unsigned long)m.vertex_count, (unsigned long)m.index_count);
        return 1;
    }
    for (a = 0; a < 3; a++) lo[a] = hi[a] = m.positions[a];
    for (k = 0; k < GLB_GRID; k++)
        for (a = 0; a < 3; a++) {
            float v = m.positions[3 * k + a];
            if (v < lo[a]) lo[a] = v;
            if (v > hi[a]) hi[a] = v;
        }
    jlen = glb_json((char *)buf + 20, GLB_JSON_MAX, c, &m, lo, hi);
    if (!jlen) { snprintf(err, errlen, "glTF JSON too long"); return 1; }
    jpad = (jlen + 3) & ~(size_t)3;
    memset(buf + 20 + jlen, ' ', jpad - jlen);
    *len = 12 + 8 + jpad + 8 + GLB_BIN;
    memcpy(buf, "glTF", 4);
    put32(buf + 4, 2);
    put32(buf + 8, (uint32_t)*len);
    put32(buf + 12, (uint32_t)jpad);
    memcpy(buf + 16, "JSON", 4);
    put32(buf + 20 + jpad, (uint32_t)GLB_BIN);
    memcpy(buf + 24 + jpad, "BIN", 4);
    memcpy(buf + 28 + jpad, scratch, GLB_BIN);
    return 0;
}
