/* terrain_stats_math.c - the small numeric pieces of the measurement tool,
 * apart so that tests/c/test_terrain_stats.c can check them on inputs whose
 * answer is known. */
#include "terrain_stats.h"

#include <math.h>
#include <stdlib.h>

#define TS_PI 3.14159265358979323846

static int ts_cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

double ts_percentile(float *v, size_t n, double p)
{
    size_t k;
    if (n == 0) return 0.0;
    qsort(v, n, sizeof *v, ts_cmp_float);
    /* Nearest rank: the smallest value with at least p of the data at or below. */
    k = (size_t)ceil(p * (double)n);
    if (k < 1) k = 1;
    if (k > n) k = n;
    return (double)v[k - 1];
}

/* Point k of n on the Fibonacci sphere (equal-area spacing). */
void ts_fibonacci(int k, int n, double dir[3])
{
    double y = 1.0 - (2.0 * k + 1.0) / n, r = sqrt(1.0 - y * y);
    double a = k * TS_PI * (3.0 - sqrt(5.0));
    dir[0] = r * cos(a);
    dir[1] = y;
    dir[2] = r * sin(a);
}

/* Slope of the sample (i,j) from forward differences and the local metric:
 * with tangents a, b (metres per sample along x, y) and height steps dx, dy,
 * the gradient g in the tangent plane solves g.a = dx, g.b = dy, so
 * |g|^2 = [dx dy] G^-1 [dx dy]^T with the Gram matrix G of a and b. */
double ts_slope_deg(const double a[3], const double b[3], double dx, double dy)
{
    double aa = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    double bb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    double ab = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    double det = aa * bb - ab * ab;
    double g2 = (dx * dx * bb - 2.0 * dx * dy * ab + dy * dy * aa) / det;
    return atan(sqrt(g2 > 0.0 ? g2 : 0.0)) * 180.0 / TS_PI;
}

/* Golden-ratio stride through the candidates, coprime to their count. */
int ts_stride(int n)
{
    int s = (int)(n * 0.6180339887498949), a, b;
    for (;; s++) {
        a = s;
        b = n;
        while (b) { int t = a % b; a = b; b = t; }
        if (a == 1) return s;
    }
}
