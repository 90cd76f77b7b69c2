/* previews_maps.c - map panels of a world for the preview program: the whole
 * planet in equirectangular projection, a window of one cube face, and an
 * orthographic globe. Every pixel is one ct_world_sample (point sampled, like
 * the reference's previews), lit by a small hill shade from the sample one
 * pixel further south-east, so heights read without a legend. */
#include "previews.h"

#include <math.h>

#define PV_PI 3.14159265358979323846
/* Hill shade: brightness change per unit of slope (m/m) towards the light
 * (the caller's gain), clamped so shading never hides the colour. */
#define PV_SHADE_MIN 0.55
#define PV_SHADE_MAX 1.35

static double pv__shade(double h, double h_next, double spacing_m, double gain)
{
    double s = 1.0 + gain * (h - h_next) / (spacing_m > 1.0 ? spacing_m : 1.0);
    return s < PV_SHADE_MIN ? PV_SHADE_MIN : s > PV_SHADE_MAX ? PV_SHADE_MAX : s;
}

/* Colour of direction d; dn is the neighbour one pixel down-right, spacing_m
 * the distance between them. */
static uint32_t pv__colour(const ct_world *w, const ct_palette *pal, pv_mode mode, double top_m,
                           double gain, const double d[3], const double dn[3], double spacing_m)
{
    ct_sample s, sn;
    ct_region_info ri;
    double shade;
    ct_world_sample(w, d, &s, NULL, 0);
    ct_world_sample(w, dn, &sn, NULL, 0);
    shade = s.has_water && mode != PV_ELEVATION ? 1.0 : pv__shade(s.height_m, sn.height_m, spacing_m, gain);
    if (mode == PV_SURFACE) return pv_scale_rgb(pv_palette_rgb(pal, s.palette_index), shade);
    if (mode == PV_REGIONS) {
        ct_world_region(w, d, &ri, NULL, 0);
        return pv_scale_rgb(pv_region_rgb(ri.dominant), s.has_water ? 0.3 : shade);
    }
    /* Elevation of the bed; lakes (water above their bed, not the ocean) get a
     * flat lake blue so elevated water stays visible. */
    if (s.has_water && s.water_body > 0) return pv_scale_rgb(0x3a7bd5, 1.0);
    return pv_elevation_rgb(s.height_m, top_m, shade);
}

static void pv__lonlat(double lon, double lat, double d[3])
{
    d[0] = cos(lat) * sin(lon);
    d[1] = sin(lat);
    d[2] = cos(lat) * cos(lon);
}

void pv_map_equirect(pv_canvas *c, int x, int y, int w, int h, const ct_world *world,
                     const ct_palette *pal, pv_mode mode, double top_m, double gain)
{
    double radius = ct_world_config(world)->radius_m, step = 2.0 * PV_PI / w;
    int px, py;
    for (py = 0; py < h; py++) {
        double lat = PV_PI / 2 - (py + 0.5) / h * PV_PI;
        for (px = 0; px < w; px++) {
            double lon = (px + 0.5) * step - PV_PI, d[3], dn[3];
            pv__lonlat(lon, lat, d);
            pv__lonlat(lon + step, lat - PV_PI / h, dn);
            pv_pixel(c, x + px, y + py, pv__colour(world, pal, mode, top_m, gain, d, dn, radius * step * cos(lat) + 1.0));
        }
    }
}

static void pv__face_dir(int face, double s, double t, double d[3])
{
    ct_face_to_direction(face, 2.0 * s - 1.0, 2.0 * t - 1.0, d, NULL, 0);
}

void pv_map_face(pv_canvas *c, int x, int y, int w, int h, const ct_world *world,
                 const ct_palette *pal, pv_mode mode, double top_m, double gain, int face,
                 double s0, double t0, double s1, double t1)
{
    double ds = (s1 - s0) / w, dt = (t1 - t0) / h;
    double spacing = ct_world_config(world)->radius_m * 2.0 * ds * 1.2;   /* about, off face centre */
    int px, py;
    for (py = 0; py < h; py++) {
        for (px = 0; px < w; px++) {
            double s = s0 + (px + 0.5) * ds, t = t0 + (py + 0.5) * dt, d[3], dn[3];
            pv__face_dir(face, s, t, d);
            pv__face_dir(face, s + ds, t + dt, dn);
            pv_pixel(c, x + px, y + py, pv__colour(world, pal, mode, top_m, gain, d, dn, spacing));
        }
    }
}

/* Right and up vectors of a view from eye (y up unless looking along y). */
static void pv__basis(const double e[3], double right[3], double up[3])
{
    double a[3] = {0.0, 1.0, 0.0}, n;
    if (fabs(e[1]) > 0.99) { a[0] = 1.0; a[1] = 0.0; }
    right[0] = a[1] * e[2] - a[2] * e[1];
    right[1] = a[2] * e[0] - a[0] * e[2];
    right[2] = a[0] * e[1] - a[1] * e[0];
    n = sqrt(right[0] * right[0] + right[1] * right[1] + right[2] * right[2]);
    right[0] /= n; right[1] /= n; right[2] /= n;
    up[0] = e[1] * right[2] - e[2] * right[1];
    up[1] = e[2] * right[0] - e[0] * right[2];
    up[2] = e[0] * right[1] - e[1] * right[0];
}

void pv_map_globe(pv_canvas *c, int x, int y, int d, const ct_world *world, const ct_palette *pal,
                  const double eye[3])
{
    double right[3], up[3], light[3], n, radius = ct_world_config(world)->radius_m;
    int px, py, k;
    pv__basis(eye, right, up);
    for (k = 0; k < 3; k++) light[k] = eye[k] - 0.5 * right[k] + 0.6 * up[k];
    n = sqrt(light[0] * light[0] + light[1] * light[1] + light[2] * light[2]);
    for (k = 0; k < 3; k++) light[k] /= n;
    for (py = 0; py < d; py++) {
        for (px = 0; px < d; px++) {
            double sx = (px + 0.5) / d * 2.0 - 1.0, sy = 1.0 - (py + 0.5) / d * 2.0, r2 = sx * sx + sy * sy;
            double dir[3], dn[3], z, lambert;
            uint32_t base;
            if (r2 >= 1.0) continue;
            z = sqrt(1.0 - r2);
            for (k = 0; k < 3; k++) dir[k] = sx * right[k] + sy * up[k] + z * eye[k];
            for (k = 0; k < 3; k++) dn[k] = dir[k] + (right[k] - up[k]) * (2.0 / d);
            base = pv__colour(world, pal, PV_SURFACE, 0.0, PV_GAIN_MAP, dir, dn, radius * 2.0 / d * 1.41);
            lambert = dir[0] * light[0] + dir[1] * light[1] + dir[2] * light[2];
            pv_pixel(c, x + px, y + py, pv_scale_rgb(base, 0.3 + 0.8 * (lambert > 0.0 ? lambert : 0.0)));
        }
    }
}

int pv_globe_project(int x, int y, int d, const double eye[3], const double dir[3], int *px, int *py)
{
    double right[3], up[3], n = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    double a, b;
    pv__basis(eye, right, up);
    if ((dir[0] * eye[0] + dir[1] * eye[1] + dir[2] * eye[2]) / n <= 0.0) return 0;
    a = (dir[0] * right[0] + dir[1] * right[1] + dir[2] * right[2]) / n;
    b = (dir[0] * up[0] + dir[1] * up[1] + dir[2] * up[2]) / n;
    *px = x + (int)floor((a + 1.0) * 0.5 * d);
    *py = y + (int)floor((1.0 - b) * 0.5 * d);
    return 1;
}

double pv_world_top_m(const ct_world *world)
{
    ct_world_stats st;
    ct_world_stats_get(world, &st);
    return st.max_height_m > 100.0 ? st.max_height_m : 100.0;
}
