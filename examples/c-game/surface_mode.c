/* surface_mode.c - the stand-in surface renderer: it keeps the registered
 * height source (the real one keeps it in globals too) and answers probes. */
#include "surface_mode.h"

#include <stddef.h>

#define SURFACE_MODE_UNIT_METERS 1000.0   /* the game's cell size today */

static surface_height_fn source_fn;
static void *source_user;
static double source_vscale = 1.0;

void surface_mode_set_height_source(surface_height_fn fn, void *user, double vscale)
{
    source_fn = fn;
    source_user = user;
    source_vscale = vscale;
}

double surface_mode_unit_meters(void)
{
    return SURFACE_MODE_UNIT_METERS;
}

double surface_mode_probe(const double n[3], int *material)
{
    if (!source_fn) {
        if (material) *material = -1;
        return 0.0;
    }
    return source_fn(n, material, source_user) * source_vscale;
}
