/* landforms_fit.c - the drainage-area exponent from exceedance counts.
 *
 * P(A >= a) is the share of samples whose drainage area is at least a; on
 * river networks it falls as a^-beta over the range where the grid neither
 * digitises (a few samples) nor truncates (basins near the grid's size).
 * beta is minus the least-squares slope of ln P against ln a over the
 * thresholds 2^(k/2) sample areas inside the fit range. */
#include "landforms.h"

#include <math.h>

double lf_beta(const lf_result *r, double lo, double hi)
{
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    int k, m = 0;
    if (r->samples <= 0.0) return NAN;
    for (k = 0; k < LF_BINS; k++) {
        double a = lf_bin_area(k), x, y;
        if (a < lo || a > hi || r->exceed[k] <= 0.0) continue;
        x = log(a);
        y = log(r->exceed[k] / r->samples);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        m++;
    }
    if (m < 3) return NAN;
    return -(m * sxy - sx * sy) / (m * sxx - sx * sx);
}
