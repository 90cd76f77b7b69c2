/* landforms_map.c - a picture of measured chunks, to see what the figures
 * count (npm run landforms -- --png PREFIX): shaded relief lit from the
 * upper left, ponded samples (raised more than 0.5 m by the fill) in blue,
 * samples raised more than 2 m (the floors of pits) in red, darker the
 * deeper, and channels (draining at least the channel-initiation area) in
 * dark blue. Each chunk is one cell of a LF_MAP_COLS x LF_MAP_ROWS sheet,
 * one pixel a sample, written by the command-line tools' PNG writer. */
#include "landforms.h"
#include "image.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lf_map_alloc(lf_map *m, int nx, int ny)
{
    m->width = LF_MAP_COLS * nx;
    m->height = LF_MAP_ROWS * ny;
    m->rgb = (unsigned char *)calloc((size_t)m->width * (size_t)m->height, 3);
    return m->rgb != NULL;
}

void lf_map_free(lf_map *m)
{
    free(m->rgb);
    m->rgb = NULL;
}

static double lf_len3(const double *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

void lf_map_draw(lf_map *m, int col, int row, const lf_grid *g, const double *fill, const double *area,
                 double channel_m2)
{
    int i, j;
    for (j = 0; j < g->ny; j++) {
        for (i = 0; i < g->nx; i++) {
            int c = j * g->nx + i, i1 = i + 1 < g->nx ? i + 1 : i - 1, j1 = j + 1 < g->ny ? j + 1 : j - 1;
            double sx = (g->h[j * g->nx + i1] - g->h[c]) / ((i1 - i) * lf_len3(g->a + 3 * (size_t)c));
            double sy = (g->h[j1 * g->nx + i] - g->h[c]) / ((j1 - j) * lf_len3(g->b + 3 * (size_t)c));
            /* Lambert shading of the normal (-sx, -sy, 1) under light from
             * (-1, -1, 1.5), sample rows growing downwards. */
            double shade = (sx + sy + 1.5) / (sqrt(sx * sx + sy * sy + 1.0) * sqrt(4.25));
            double raise = fill[c] - g->h[c], v, rgb[3];
            unsigned char *px = m->rgb + 3 * ((size_t)(row * g->ny + j) * (size_t)m->width + (size_t)(col * g->nx + i));
            int k;
            if (shade < 0.0) shade = 0.0;
            v = 40.0 + 200.0 * shade;
            rgb[0] = rgb[1] = rgb[2] = v;
            if (raise > LF_PIT_DEPTH_M) {
                double t = raise > 50.0 ? 1.0 : raise / 50.0;
                rgb[0] = 230.0 - 100.0 * t; rgb[1] = 60.0 - 40.0 * t; rgb[2] = 50.0 - 30.0 * t;
            } else if (raise > LF_PONDED_M) {
                rgb[0] = 0.4 * v; rgb[1] = 0.6 * v + 40.0; rgb[2] = 230.0;
            } else if (area[c] >= channel_m2) {
                rgb[0] = 20.0; rgb[1] = 40.0; rgb[2] = 140.0;
            }
            for (k = 0; k < 3; k++) px[k] = (unsigned char)(rgb[k] < 0.0 ? 0.0 : rgb[k] > 255.0 ? 255.0 : rgb[k]);
        }
    }
}

int lf_map_write(const lf_map *m, const char *path)
{
    char err[256];
    if (cli_image_write(path, m->width, m->height, m->rgb, err, sizeof err) != 0) {
        fprintf(stderr, "landforms: %s\n", err);
        return 0;
    }
    return 1;
}
