/* chunk.c - 257x257 chunk generation at any LOD: its arrays, records and
 * digest (the height code and header bytes are io_chunk.c's).
 *
 * Every sample is ct__sample_dir (through a sampler that caches the macro
 * cell) at ct__sample_direction(face, lod, gx, gy):
 * the direction depends only on the global sample position, so borders
 * shared with a neighbour (also across cube edges) and coarse samples that
 * coincide with fine ones are the same bits. No allocation here. */
#include "surface/ct_surface.h"

/* Encodes one sample into the chunk arrays and the digest's record. */
static uint64_t ct__chunk_put(ct_chunk *chunk, size_t at, const ct_sample *s, double q, uint32_t *clipped,
                              uint64_t digest)
{
    int ch = 0, cw = 0;
    uint16_t hc, wc = CT_NO_WATER_CODE;
    uint8_t rec[6];
    hc = ct_height_encode(s->height_m, q, &ch);
    if (s->has_water) {
        wc = ct_height_encode(s->water_m, q, &cw);
        /* Code 0 means dry: a surface that deep is clipped to 1. */
        if (wc == CT_NO_WATER_CODE) { wc = 1; cw = 1; }
    }
    if (ch || cw) (*clipped)++;
    chunk->height[at] = hc;
    chunk->height_m[at] = (float)s->height_m;
    chunk->water[at] = wc;
    chunk->biome[at] = (uint8_t)s->biome;
    chunk->palette[at] = (uint8_t)s->palette_index;
    ct__put_u16(rec, hc);
    ct__put_u16(rec + 2, wc);
    rec[4] = (uint8_t)s->biome;
    rec[5] = (uint8_t)s->palette_index;
    return ct_fnv1a64(rec, sizeof rec, digest);
}

ct_result ct__chunk_generate_with(const ct__field *world, ct_key key, ct_chunk *chunk, int skips, uint64_t *counts,
                                  char *err, size_t errlen)
{
    const double q = world ? world->cfg.height_quantum_m : 1.0;
    uint64_t digest;
    uint32_t clipped = 0;
    int64_t gx0, gy0;
    int i, j;
    ct_result r;
    ct__sampler sp;
    ct__gpyr pyr;

    if (!world || !chunk) return ct__fail(err, errlen, CT_ERR_NULL, "world or chunk is NULL");
    r = ct_key_validate(key, err, errlen);
    if (r) return r;
    if ((uint32_t)key.lod > world->cfg.surface_lod)
        return ct__fail(err, errlen, CT_ERR_LOD, "LOD %d is finer than the world's surface_lod %lu",
                        (int)key.lod, (unsigned long)world->cfg.surface_lod);

    chunk->key = key;
    chunk->planet_id = world->cfg.planet_id;
    chunk->generation = world->generation;
    chunk->height_quantum_m = q;
    chunk->edit_set = 0;
    digest = CT_FNV1A64_INIT;   /* records, then the header (ct__chunk_digest_finish) */
    ct__sampler_init(&sp, world, 0);   /* chunks do not store the mask */
    sp.skips = skips;
    sp.skip_counts = counts;
    /* Edits: a chunk none reaches runs (and digests) exactly as the base
     * world's; one they reach carries the set's ID (io_chunk.c). */
    if (sp.edits && !ct__edits_chunk(sp.edits, key, sp.edit_buf, &sp.edit_ids, &sp.edit_n)) sp.edits = NULL;
    if (sp.edits) chunk->edit_set = sp.edits->id;
    gx0 = (int64_t)key.x * CT_CHUNK_CORE;
    gy0 = (int64_t)key.y * CT_CHUNK_CORE;
    sp.chunk_face = key.face;
    sp.chunk_lod = key.lod;
    /* Finer than the fine relief's first lattice, the chunk's samples take
     * it from one pyramid over the chunk's nodes (relief_pyramid.c); at or
     * above it each sample is a node of every octave and runs them itself. */
    if (sp.ground.octaves > 0 && key.lod > sp.ground.base) {
        ct__gpyr_init(&pyr, &sp.ground, key.face, key.lod, gx0, gx0 + CT_CHUNK_CORE, gy0, gy0 + CT_CHUNK_CORE,
                      ct__sampler_coarse, &sp);
        sp.pyr = &pyr;
    } else if (sp.ground.octaves > 0) {
        sp.chunk_chain = 1;
    }
    for (j = 0; j < CT_CHUNK_EDGE; j++) {
        /* Four samples at a time (the detail, shore and ridge noise run in
         * vector lanes), the row's remainder (its 257th sample) one by one;
         * records in row-major order. */
        for (i = 0; i < CT_CHUNK_EDGE; i += 4) {
            double dir[12];
            ct_sample s[4];
            int k, lanes = CT_CHUNK_EDGE - i < 4 ? CT_CHUNK_EDGE - i : 4;
            for (k = 0; k < lanes; k++) {
                ct__sample_direction(key.face, key.lod, gx0 + i + k, gy0 + j, dir + 3 * k);
                sp.lane_gx[k] = gx0 + i + k;
            }
            sp.lane_gy = gy0 + j;
            if (lanes == 4) {
                ct__sampler_run4(&sp, dir, 0, s);
            } else {
                for (k = 0; k < lanes; k++) {
                    sp.lane_gx[CT__SLOT_SCALAR] = gx0 + i + k;
                    ct__sampler_run(&sp, dir + 3 * k, 0, &s[k]);
                }
            }
            for (k = 0; k < lanes; k++)
                digest = ct__chunk_put(chunk, (size_t)j * CT_CHUNK_EDGE + (size_t)(i + k), &s[k], q, &clipped, digest);
        }
    }
    ct__sampler_finish(&sp);
    ct__sampler_release(&sp);
    chunk->clipped = clipped;
    chunk->digest = ct__chunk_digest_finish(chunk, digest);
    return CT_OK;
}
