/* ct_ground_query.h - private declarations of the exact ground (ground_query.c)
 * and the terrain raycast (ground_ray.c): the surface of the stride-1 mesh of
 * a surface_lod chunk (mesh.c's triangles, diagonal and vertex positions),
 * found from the few samples of one cell instead of a whole chunk. */
#ifndef CT_GROUND_QUERY_H
#define CT_GROUND_QUERY_H

#include "surface/ct_surface.h"

/* One grid sample as a chunk stores it: float height, water code, biome and
 * palette entry. */
typedef struct ct__gq_sample {
    float height_m;
    uint16_t water;           /* CT_NO_WATER_CODE: dry */
    uint8_t biome, palette;
} ct__gq_sample;

/* Gives the sample at local (lx, ly) of the chunk (lx, ly in [0, 256]). */
typedef void (*ct__gq_fetch)(void *ctx, int lx, int ly, ct__gq_sample *out);
/* The fetch that reads a held chunk (ctx: the const ct_chunk). */
void ct__gq_fetch_chunk(void *ctx, int lx, int ly, ct__gq_sample *out);

/* The cell (ci, cj) (0..255) of a chunk with what its triangles need: the
 * four corners and, when any corner is wet, the water codes of the 4x4
 * samples around it that the water mesh's levels read (-1 .. +2, those
 * outside the chunk dry, as the water mesh sees them). */
typedef struct ct__gq_cell {
    ct_key key;
    int ci, cj;
    double quantum_m;
    ct__gq_sample corner[4];  /* (ci,cj) (ci+1,cj) (ci,cj+1) (ci+1,cj+1) */
    int wet;                  /* any corner has water: the water mesh covers the cell */
    uint16_t water[4][4];     /* [dy + 1][dx + 1]; filled only when wet */
} ct__gq_cell;

/* Fills a cell from fetch (the 12 outer samples only when wet). */
void ct__gq_cell_fill(ct__gq_cell *c, ct_key key, int ci, int cj, double quantum_m, ct__gq_fetch fetch, void *ctx);

/* The absolute positions (metres, double) of a cell's terrain corners, or of
 * its water surface corners (the water mesh's levels), in corner order. */
void ct__gq_cell_points(const ct__gq_cell *c, double radius_m, int water, double p[4][3]);

/* The triangle of the cell that a point at fractions (s, t) in [0,1]^2 of the
 * cell lies over: 0 is (00, 10, 01), 1 is (10, 11, 01), as mesh.c splits it. */
int ct__gq_half(double s, double t);
/* Corner indices of half h. */
void ct__gq_tri(int h, int idx[3]);

/* The radial line through the unit direction d meets the plane of the
 * triangle (a, b, c): its distance from the centre, and the outward unit
 * normal of the triangle. Returns 0 when the line runs in the plane. */
int ct__gq_radial_hit(const double a[3], const double b[3], const double c[3], const double d[3], double *r,
                      double normal[3]);

/* The ground over direction d (unit) in cell c at cell fractions (s, t). */
void ct__gq_ground(const ct__gq_cell *c, double radius_m, const double d[3], double s, double t, ct_ground *out,
                   double local_x, double local_y);

/* The cell of the surface_lod chunk under dir, sampled as ct_world_ground
 * samples it, with the position in that chunk. */
ct_result ct__field_ground_cell(const ct__field *f, const double dir[3], ct__gq_cell *c, double *local_x,
                               double *local_y, char *err, size_t errlen);
/* Samples taken as chunk.c takes them (the same sampler set-up, the fine
 * relief from a pyramid over the box of the positions asked for, whose
 * values are functions of face, level and node alone), kept in a table. */
#define CT__GQ_TABLE 16
typedef struct ct__gq_world {
    ct__sampler sp;
    ct__gpyr pyr;
    ct_key key;               /* the chunk whose local positions are sampled */
    double q;
    int lx[CT__GQ_TABLE], ly[CT__GQ_TABLE], have;
    ct__gq_sample got[CT__GQ_TABLE];
} ct__gq_world;
void ct__gq_world_init(ct__gq_world *g, const ct__field *f);
/* Samples n local positions of g->key, in row-major order, into the table. */
void ct__gq_world_sample(ct__gq_world *g, const int lx[], const int ly[], int n);
void ct__gq_world_put(ct__gq_world *g, int lx, int ly, const ct__gq_sample *s);
int ct__gq_world_find(const ct__gq_world *g, int lx, int ly, ct__gq_sample *out);
/* The 12 positions around cell (ci, cj) inside the chunk, row-major; the count. */
int ct__gq_world_ring(int ci, int cj, int lx[12], int ly[12]);
/* Fills a cell from the table. */
void ct__gq_cell_from_table(ct__gq_cell *c, ct__gq_world *g, int ci, int cj);

/* ct_world_ground of a field. */
ct_result ct__field_ground(const ct__field *f, const double dir[3], ct_ground *out, char *err, size_t errlen);
/* ct_chunk_ground of a field. */
ct_result ct__chunk_ground(const ct__field *f, const ct_chunk *chunk, double local_x, double local_y, ct_ground *out,
                           char *err, size_t errlen);
/* ct_world_raycast of a field whose terrain and water stay below top_m
 * metres above sea level. */
ct_result ct__field_raycast(const ct__field *f, double top_m, const double origin_m[3], const double dir[3],
                            double max_m, unsigned flags, ct_ray_hit *out, int *hit, char *err, size_t errlen);

#endif
