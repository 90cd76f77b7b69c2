/* world_api.c - the public queries that take a world: each hands the
 * world's frozen field (or its config) down to the layer that answers, which
 * validates the rest, so the layers below never see a ct_world. */
#include "world/ct_world.h"
#include "surface/ct_surface.h"

#include <stdio.h>

ct_result ct_key_at(const ct_world *world, const double dir[3], int lod, ct_key *key, double *local_x,
                    double *local_y, char *err, size_t errlen)
{
    return ct__key_at(world ? &world->field.cfg : NULL, dir, lod, key, local_x, local_y, err, errlen);
}

ct_result ct_world_region(const ct_world *world, const double dir[3], ct_region_info *out, char *err, size_t errlen)
{
    return ct__region_at(world ? &world->field.cfg : NULL, dir, out, err, errlen);
}

ct_result ct_world_sample(const ct_world *world, const double dir[3], ct_sample *out, char *err, size_t errlen)
{
    return ct__field_sample(world ? &world->field : NULL, dir, out, err, errlen);
}

ct_result ct_chunk_generate(const ct_world *world, ct_key key, ct_chunk *chunk, char *err, size_t errlen)
{
    return ct__chunk_generate_with(world ? &world->field : NULL, key, chunk, 1, NULL, err, errlen);
}

ct_result ct_mesh_build(const ct_world *world, const ct_chunk *chunk, const ct_mesh_options *opts,
                        const ct_palette *palette, ct_mesh *mesh, char *err, size_t errlen)
{
    return ct__mesh_build(world ? &world->field : NULL, chunk, opts, palette, mesh, err, errlen);
}

size_t ct_address_format(const ct_world *world, ct_key key, char *buf, size_t buflen)
{
    char gen[40];
    int n;
    if (buf && buflen) buf[0] = '\0';
    if (!world || ct_key_validate(key, NULL, 0) != CT_OK) return 0;
    /* Face in its file spelling (px..nz) so addresses are safe in paths and
     * URLs; generation as 16 hex digits, the way every tool prints it. An
     * edited world adds "~" and its edit set ID, so clients with different
     * edits never share tiles. */
    snprintf(gen, sizeof gen, "%08lx%08lx", (unsigned long)(uint32_t)(world->field.generation >> 32),
             (unsigned long)(uint32_t)world->field.generation);
    if (world->edits) {
        uint64_t id = ct_world_edit_set_id(world);
        snprintf(gen + 16, sizeof gen - 16, "~%08lx%08lx", (unsigned long)(uint32_t)(id >> 32),
                 (unsigned long)(uint32_t)id);
    }
    n = snprintf(buf, buf ? buflen : 0, "%lu/%s/%s/%d/%lu/%lu", (unsigned long)world->field.cfg.planet_id, gen,
                 ct_face_file_name(key.face), (int)key.lod, (unsigned long)key.x, (unsigned long)key.y);
    return n < 0 ? 0 : (size_t)n;
}
