/* relief_view.c - a hill-shaded picture of one square of ground, to look at
 * ranges, ridges and valleys at any scale (not a test).
 *
 *   cc -std=c99 -O2 -ffp-contract=off -Icore/include -Icore/src -Icore/cli bench/relief_view.c \
 *      core/cli/image.c build/native/libct.a -lm -pthread -o build/relief_view
 *   build/relief_view OUT.png PRESET SEED LON_DEG LAT_DEG SPAN_KM [name=value ...]
 *
 * Pixels are ct_world_sample points on a local tangent grid (256x256) around
 * the centre; colour is the world palette, shaded by the light from the
 * north-west over the sampled heights (4x exaggerated for spans over 100 km). */
#include "ct.h"
#include "image.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256

int main(int argc, char **argv)
{
    static double h[N][N];
    static int pal[N][N], wet[N][N];
    static uint8_t rgb[N * N * 3];
    ct_config cfg;
    ct_world *w;
    char err[256];
    double lon, lat, span, c[3], e[3], nn[3], step, ex;
    int i, j, a;
    ct_palette pal_rgb;
    if (argc < 7) { fprintf(stderr, "usage: relief_view OUT PRESET SEED LON LAT SPAN_KM [k=v...]\n"); return 2; }
    if (ct_config_preset(&cfg, argv[2], err, sizeof err) || ct_config_set(&cfg, "seed", argv[3], err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (a = 7; a < argc; a++) {
        char name[128], *eq;
        strncpy(name, argv[a], sizeof name - 1);
        name[sizeof name - 1] = '\0';
        if (!(eq = strchr(name, '='))) return 2;
        *eq = '\0';
        if (ct_config_set(&cfg, name, eq + 1, err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    }
    lon = atof(argv[4]) * M_PI / 180.0;
    lat = atof(argv[5]) * M_PI / 180.0;
    span = atof(argv[6]) * 1000.0;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    if (!w) { fprintf(stderr, "%s\n", err); return 1; }
    /* Y up: centre, east and north unit vectors. */
    c[0] = cos(lat) * sin(lon); c[1] = sin(lat); c[2] = cos(lat) * cos(lon);
    e[0] = cos(lon); e[1] = 0.0; e[2] = -sin(lon);
    nn[0] = -sin(lat) * sin(lon); nn[1] = cos(lat); nn[2] = -sin(lat) * cos(lon);
    step = span / N;
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
            double x = (i - N / 2) * step / cfg.radius_m, y = (N / 2 - j) * step / cfg.radius_m, d[3];
            ct_sample s;
            int k;
            for (k = 0; k < 3; k++) d[k] = c[k] + x * e[k] + y * nn[k];
            ct_world_sample(w, d, &s, NULL, 0);
            h[j][i] = s.height_m;
            pal[j][i] = s.palette_index;
            wet[j][i] = s.has_water;
        }
    ct_palette_default(&pal_rgb);
    ex = span > 100e3 ? 4.0 : 1.0;
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
            int i1 = i < N - 1 ? i + 1 : i, j1 = j < N - 1 ? j + 1 : j, k;
            double dx = (h[j][i1] - h[j][i]) * ex / step, dy = (h[j1][i] - h[j][i]) * ex / step;
            /* Light from the north-west, 45 degrees up. */
            double lum = (1.0 + (-dx * -0.5 + -dy * 0.5) * 1.0) / sqrt(1.0 + dx * dx + dy * dy);
            const uint8_t *col = pal_rgb.rgb[pal[j][i]];
            if (wet[j][i]) lum = 1.0;
            lum = lum < 0.25 ? 0.25 : (lum > 1.5 ? 1.5 : lum);
            for (k = 0; k < 3; k++) {
                double v = (double)col[k] * lum;
                rgb[3 * (j * N + i) + k] = (uint8_t)(v > 255.0 ? 255.0 : v);
            }
        }
    {
        double lo = 1e9, hi = -1e9;
        for (j = 0; j < N; j++)
            for (i = 0; i < N; i++) {
                if (h[j][i] < lo) lo = h[j][i];
                if (h[j][i] > hi) hi = h[j][i];
            }
        printf("%s: heights %.0f..%.0f m, %.0f m per pixel\n", argv[1], lo, hi, step);
    }
    if (cli_image_write(argv[1], N, N, rgb, err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    ct_world_free(w);
    return 0;
}
