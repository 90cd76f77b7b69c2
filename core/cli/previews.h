/* previews.h - shared pieces of the preview program (make previews): an RGB
 * canvas with rectangles, lines and a 5x7 label font, colour ramps, and map
 * panels drawn from a world (equirectangular, one cube face, a globe). */
#ifndef CT_CLI_PREVIEWS_H
#define CT_CLI_PREVIEWS_H

#include "ct.h"

#include <stddef.h>
#include <stdint.h>

typedef struct pv_canvas {
    int w, h;
    uint8_t *rgb;   /* w*h*3, rows top to bottom */
} pv_canvas;

int pv_canvas_init(pv_canvas *c, int w, int h, uint32_t background);   /* 0 ok, -1 out of memory */
void pv_canvas_free(pv_canvas *c);
void pv_pixel(pv_canvas *c, int x, int y, uint32_t rgb);
void pv_fill(pv_canvas *c, int x, int y, int w, int h, uint32_t rgb);
void pv_frame(pv_canvas *c, int x, int y, int w, int h, uint32_t rgb);   /* 1-pixel outline */
void pv_line(pv_canvas *c, int x0, int y0, int x1, int y1, uint32_t rgb);
/* Upper-case 5x7 glyphs (lower case is drawn as upper case), scale s. */
void pv_text(pv_canvas *c, int x, int y, int s, uint32_t rgb, const char *text);
int pv_text_width(int s, const char *text);
int pv_save(const pv_canvas *c, const char *path);   /* prints the file; 0 or -1 */

/* Colour of a metre height: sea blues below 0, then green, ochre, brown and
 * white up to top_m; shade multiplies it (hill shading). */
uint32_t pv_elevation_rgb(double height_m, double top_m, double shade);
uint32_t pv_scale_rgb(uint32_t rgb, double shade);
uint32_t pv_palette_rgb(const ct_palette *pal, int index);
/* Region label colours: plains cyan, ridges green, broken yellow, basins red. */
uint32_t pv_region_rgb(int region);

typedef enum pv_mode { PV_SURFACE, PV_ELEVATION, PV_REGIONS } pv_mode;
/* Hill-shade gains (brightness per m/m of slope): maps of whole worlds with
 * relief and detail, and the smooth walk-only terrain, whose macro slopes are
 * a few metres per kilometre and need far more gain to show their texture. */
#define PV_GAIN_MAP 6.0
#define PV_GAIN_WALK 40.0

/* Equirectangular map of the whole planet into the panel at (x, y). */
void pv_map_equirect(pv_canvas *c, int x, int y, int w, int h, const ct_world *world,
                     const ct_palette *pal, pv_mode mode, double top_m, double gain);
/* Part of one cube face: face coordinates s0..s1 (right) and t0..t1 (down),
 * each in [0,1] as chunk addressing uses them. */
void pv_map_face(pv_canvas *c, int x, int y, int w, int h, const ct_world *world,
                 const ct_palette *pal, pv_mode mode, double top_m, double gain, int face,
                 double s0, double t0, double s1, double t1);
/* Orthographic globe of diameter d seen from direction eye (unit vector). */
void pv_map_globe(pv_canvas *c, int x, int y, int d, const ct_world *world, const ct_palette *pal,
                  const double eye[3]);
/* Screen pixel of a direction on that globe; 0 when it faces away. */
int pv_globe_project(int x, int y, int d, const double eye[3], const double dir[3], int *px, int *py);

/* Highest land height of a world over a coarse sphere grid (for ramps). */
double pv_world_top_m(const ct_world *world);

#endif
