/* ct_drainage.h - private interface of the drainage solve (drainage.c): flow
 * directions and accumulated flow on the macro graph, derived from the frozen
 * field at build and at snapshot load alike (never stored). */
#ifndef CT_DRAINAGE_H
#define CT_DRAINAGE_H

#include "solve/ct_solve.h"

/* Per-vertex drainage of a world. Sinks are the vertices of the sea (the
 * ocean and every inland sea at sea level) and of closed lakes; every other
 * vertex, land and open lake alike, has a downstream neighbour, and following
 * down_v from any vertex reaches a sink (drainage.c says why). */
typedef struct ct__drainage {
    uint32_t V;
    uint32_t *down_v;        /* [V] downstream neighbour, CT__NONE at a sink */
    uint32_t *order;         /* [V] sinks first, then every vertex after its downstream */
    uint32_t *sink_v;        /* [V] the sink vertex its water ends in (itself at a sink) */
    double *fill_v;          /* [V] depression-filled height (water: its level), m */
    double *cell_m2;         /* [V] area a vertex stands for, m2 (sums to the sphere) */
    double *area_m2;         /* [V] drainage area: own cell plus everything upstream, m2 */
    double *flow_m2;         /* [V] the same weighted by the precipitation proxy, m2 */
    uint8_t *closed_v;       /* [V] 1 on the vertices of a closed (endorheic) lake */
    uint8_t *lake_v;         /* [V] 1 on the vertices of any lake, open or closed */
    uint32_t lakes_open, lakes_closed;
} ct__drainage;

/* The precipitation proxy at a vertex, 0.05..1: the moisture rule of the
 * samples without the shore bonus (moisture_v must be derived). */
double ct__drainage_precip(const ct__field *w, uint32_t v);
/* Solves the drainage of w (heights, bodies, levels and moisture_v final).
 * A lake is a body > 0 the build let rise (walk modes, at most
 * lake_max_vertices: the rule of world_derive.c); it is closed when its mean
 * precipitation proxy is below river_closed_moisture. */
ct_result ct__drainage_solve(const ct__field *w, const ct__graph *g, ct__drainage *out, char *err, size_t errlen);
void ct__drainage_free(ct__drainage *d);

/* Stream-power erosion of w->height_v (Braun and Willett 2013, n = 1, m =
 * 0.5), erosion_iterations implicit steps: each solves the drainage on the
 * current heights, then downstream first sets every land vertex that is not
 * pinned to (h + F h_down) / (1 + F), F = erosion_k sqrt(A) / edge length,
 * never below its downstream neighbour. Water and pins stay, so the lakes and
 * shores the slope projection keeps still hold. */
ct_result ct__erode(ct__field *w, const ct__graph *g, const uint8_t *is_pin_v, char *err, size_t errlen);

#endif
