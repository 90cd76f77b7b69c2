/* streams_api.c - the public stream network call (surface/streams_chunk.c)
 * on a world's field. */
#include "world/ct_world.h"
#include "surface/ct_surface.h"

ct_result ct_chunk_streams(const ct_world *world, ct_key key, ct_streams *out, char *err, size_t errlen)
{
    return ct__field_streams(world ? &world->field : NULL, key, out, err, errlen);
}
