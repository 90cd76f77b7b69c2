/* ground_api.c - the public exact ground and raycast calls (surface/
 * ground_query.c, ground_ray.c) on a world's field, with the height bound
 * the raycast skips empty space by. */
#include "world/ct_world.h"
#include "surface/ct_ground_query.h"
#include "layers/ct_edits.h"

/* A height no terrain or water surface of the world reaches: the highest
 * macro vertex plus everything the samples add on land (ranges, hills and
 * the detail noise at its height gain), each at twice its nominal size. */
static double ct__ground_top(const ct_world *w)
{
    const ct_config *c = &w->field.cfg;
    double top = w->stats.max_height_m > 0.0 ? w->stats.max_height_m : 0.0;
    double detail = c->detail_amplitude_m + c->detail_height_gain * top;
    top += 2.0 * (c->range_height_m + c->hill_height_m + detail) + 1000.0;
    /* Edits may raise the ground past it: pads, path fills, rims, brushes. */
    return w->edits ? ct__edits_top(w->edits, top) : top;
}

ct_result ct_world_ground(const ct_world *world, const double dir[3], ct_ground *out, char *err, size_t errlen)
{
    return ct__field_ground(world ? &world->field : NULL, dir, out, err, errlen);
}

ct_result ct_chunk_ground(const ct_world *world, const ct_chunk *chunk, double local_x, double local_y,
                          ct_ground *out, char *err, size_t errlen)
{
    return ct__chunk_ground(world ? &world->field : NULL, chunk, local_x, local_y, out, err, errlen);
}

ct_result ct_world_raycast(const ct_world *world, const double origin_m[3], const double dir[3], double max_m,
                           unsigned flags, ct_ray_hit *out, int *hit, char *err, size_t errlen)
{
    if (!world) {
        if (hit) *hit = 0;
        return ct__fail(err, errlen, CT_ERR_NULL, "world is NULL");
    }
    return ct__field_raycast(&world->field, ct__ground_top(world), origin_m, dir, max_m, flags, out, hit, err,
                             errlen);
}
