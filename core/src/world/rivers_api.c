/* rivers_api.c - the river graph and its drawn curves for games (ct.h):
 * node tables and the polylines the samples carve, read from the network
 * rivers.c built at world load. */
#include "world/ct_world.h"
#include "layers/ct_rivers.h"

#include <string.h>


ct_result ct_world_rivers_info(const ct_world *world, ct_rivers_info *out, char *err, size_t errlen)
{
    const ct__rivers *rv;
    if (!world || !out) return ct__fail(err, errlen, CT_ERR_NULL, "world or out is NULL");
    memset(out, 0, sizeof *out);
    rv = world->field.rivers;
    if (!rv) return CT_OK;
    out->node_count = rv->node_count;
    out->segment_count = rv->seg_count;
    out->lakes_open = rv->dr.lakes_open;
    out->lakes_closed = rv->dr.lakes_closed;
    out->land_area_m2 = rv->land_m2;
    out->land_to_sea_m2 = rv->land_to_sea_m2;
    return CT_OK;
}

ct_result ct_world_rivers(const ct_world *world, uint32_t capacity, double *direction, int32_t *downstream,
                          double *drainage_area_m2, double *width_m, double *length_m, double *surface_m,
                          uint8_t *flags, char *err, size_t errlen)
{
    const ct__rivers *rv;
    uint32_t i;
    if (!world) return ct__fail(err, errlen, CT_ERR_NULL, "world is NULL");
    rv = world->field.rivers;
    if (!rv) return CT_OK;
    if (capacity < rv->node_count)
        return ct__fail(err, errlen, CT_ERR_BUFFER, "river arrays hold %lu nodes, the world has %lu",
                        (unsigned long)capacity, (unsigned long)rv->node_count);
    for (i = 0; i < rv->node_count; i++) {
        uint32_t v = rv->node_v[i];
        if (direction) memcpy(direction + 3u * (size_t)i, world->field.dir_v + 3u * (size_t)v, 3u * sizeof(double));
        if (downstream) downstream[i] = rv->node_down[i];
        if (drainage_area_m2) drainage_area_m2[i] = rv->dr.area_m2[v];
        if (width_m) width_m[i] = rv->node_width_m[i];
        if (length_m) length_m[i] = rv->seg[rv->node_seg[i]].length_m;
        if (surface_m) surface_m[i] = rv->node_level_m[i];
        if (flags) flags[i] = rv->node_flags[i];
    }
    return CT_OK;
}

ct_result ct_world_river_curves(const ct_world *world, uint32_t segment_capacity, uint32_t point_capacity,
                                uint32_t *offset, double *points, double *surface_m, double *width_m,
                                uint32_t *segment_count, uint32_t *point_count, char *err, size_t errlen)
{
    const ct__rivers *rv;
    uint32_t k, total = 0, segs;
    if (!world) return ct__fail(err, errlen, CT_ERR_NULL, "world is NULL");
    rv = world->field.rivers;
    segs = rv ? rv->seg_count : 0u;
    for (k = 0; k < segs; k++) total += (uint32_t)rv->seg[k].npts;
    if (segment_count) *segment_count = segs;
    if (point_count) *point_count = total;
    if ((offset || width_m) && segment_capacity < segs + (offset ? 1u : 0u))
        return ct__fail(err, errlen, CT_ERR_BUFFER, "curve arrays hold %lu segments, the world has %lu",
                        (unsigned long)segment_capacity, (unsigned long)segs);
    if ((points || surface_m) && point_capacity < total)
        return ct__fail(err, errlen, CT_ERR_BUFFER, "curve arrays hold %lu points, the world has %lu",
                        (unsigned long)point_capacity, (unsigned long)total);
    total = 0;
    if (offset) offset[0] = 0;
    for (k = 0; k < segs; k++) {
        const ct__river_seg *s = &rv->seg[k];
        int q;
        for (q = 0; q < s->npts; q++, total++) {
            if (points) memcpy(points + 3u * (size_t)total, s->pt + 3 * q, 3u * sizeof(double));
            if (surface_m) surface_m[total] = ct__river_seg_level(s, s->u[q]);
        }
        if (offset) offset[k + 1u] = total;
        if (width_m) width_m[k] = 2.0 * s->half_w_m;
    }
    return CT_OK;
}
