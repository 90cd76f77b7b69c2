/* streams_chunk.c - ct_chunk_streams of a world's field: the key checked, a
 * sampler made, and the stream network (layers/streams_net.c) read through
 * the sampler's own stream height function, so its links and beds are the
 * ones the samples carve. */
#include "surface/ct_surface.h"

ct_result ct__field_streams(const ct__field *f, ct_key key, ct_streams *out, char *err, size_t errlen)
{
    ct__sampler sp;
    ct__streams_memo *memo;
    ct_result r;
    double c[3];
    int k;
    if (!f || !out) return ct__fail(err, errlen, CT_ERR_NULL, "world and streams output are required");
    r = ct_key_validate(key, err, errlen);
    if (r != CT_OK) return r;
    if (key.lod > (int)f->cfg.surface_lod)
        return ct__fail(err, errlen, CT_ERR_LOD, "streams key LOD %d is finer than the world's surface_lod %u",
                        (int)key.lod, (unsigned)f->cfg.surface_lod);
    ct_key_direction(key, 0.5 * CT_CHUNK_CORE, 0.5 * CT_CHUNK_CORE, c, NULL, 0);
    for (k = 0; k < 3; k++) out->center_m[k] = c[k] * f->cfg.radius_m;
    out->count = out->point_count = 0;
    if (out->point_start) out->point_start[0] = 0;   /* link_capacity + 1 >= 1 entries */
    ct__sampler_init(&sp, f, 0);
    /* The memo the samples use (on the heap); NULL, out of memory or with
     * streams off, gives the same links from a small one per node. */
    memo = sp.streams.on ? ct__streams_memo_new() : NULL;
    ct__streams_net(&sp.streams, memo, key, ct__sampler_stream_height, &sp, out);
    ct__streams_memo_free(memo);
    ct__sampler_finish(&sp);
    ct__sampler_release(&sp);
    if ((out->count > out->link_capacity && (out->point_start || out->width_m || out->order || out->level)) ||
        (out->point_count > out->point_capacity && (out->positions || out->water_m)))
        return ct__fail(err, errlen, CT_ERR_BUFFER,
                        "streams need room for %u links and %u points, capacity is %u and %u", (unsigned)out->count,
                        (unsigned)out->point_count, (unsigned)out->link_capacity, (unsigned)out->point_capacity);
    return CT_OK;
}
