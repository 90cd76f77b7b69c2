/* scatter_api.c - the public scatter call (surface/scatter.c) on a world's
 * field. */
#include "world/ct_world.h"
#include "surface/ct_scatter.h"

ct_result ct_chunk_scatter(const ct_world *world, const ct_chunk *chunk_or_null, ct_key key, ct_scatter *out,
                           char *err, size_t errlen)
{
    return ct__field_scatter(world ? &world->field : NULL, chunk_or_null, key, out, err, errlen);
}
