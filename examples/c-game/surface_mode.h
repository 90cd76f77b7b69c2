/* surface_mode.h - a stand-in for the game's surface renderer API, with the
 * prototypes it really has: it takes its terrain through a height-source
 * callback and works in cells of surface_mode_unit_meters() metres. The
 * example registers ct_legacy_height_source here, exactly as the game would. */
#ifndef SURFACE_MODE_H
#define SURFACE_MODE_H

typedef double (*surface_height_fn)(const double n[3], int *material, void *user);

void surface_mode_set_height_source(surface_height_fn fn, void *user, double vscale);
double surface_mode_unit_meters(void);
/* What the renderer would read at a Z-up unit direction: height in metres
 * times vscale, and the material. 0 and -1 before a source is registered. */
double surface_mode_probe(const double n[3], int *material);

#endif /* SURFACE_MODE_H */
