/* graph.c - the macro graph: one vertex per unique cube-surface grid point
 * (6n^2+2 of them, shared across face edges and corners), their directions,
 * and the four-neighbour adjacency with spherical edge lengths.
 *
 * Vertex ids are assigned face by face (+X..-Z), row by row, column by
 * column; a grid point lying on several faces belongs to the lowest face
 * index that contains it and the later faces look its id up through the
 * inverse face transform. No hashing, no pointer order: the numbering is a
 * pure function of n, which the snapshot reader relies on. */
#include "solve/ct_solve.h"

#include <stdlib.h>

/* (i, j) of the integer cube lattice point (X, Y, Z) in [0,n]^3 on face f.
 * Inverse of the face transforms in ct__face_uv_to_cube with i = (u+1)n/2,
 * j = (v+1)n/2. */
static void ct__lattice_to_fij(int f, uint32_t n, uint32_t X, uint32_t Y, uint32_t Z,
                               uint32_t *i, uint32_t *j)
{
    switch (f) {
    case CT_FACE_PX: *i = n - Z; *j = n - Y; break;   /* (1,-v,-u) */
    case CT_FACE_NX: *i = Z;     *j = n - Y; break;   /* (-1,-v,u) */
    case CT_FACE_PY: *i = X;     *j = Z;     break;   /* (u,1,v) */
    case CT_FACE_NY: *i = X;     *j = n - Z; break;   /* (u,-1,-v) */
    case CT_FACE_PZ: *i = X;     *j = n - Y; break;   /* (u,-v,1) */
    default:         *i = n - X; *j = n - Y; break;   /* (-u,-v,-1) */
    }
}

/* Lowest face index whose plane contains the lattice point. */
static int ct__owner_face(uint32_t n, uint32_t X, uint32_t Y, uint32_t Z)
{
    if (X == n) return CT_FACE_PX;
    if (X == 0) return CT_FACE_NX;
    if (Y == n) return CT_FACE_PY;
    if (Y == 0) return CT_FACE_NY;
    if (Z == n) return CT_FACE_PZ;
    return CT_FACE_NZ;
}

static uint32_t ct__lattice(double c, uint32_t n)
{
    /* c = 2k/n - 1 exactly for power-of-two n; rounding guards other n. */
    return (uint32_t)((c + 1.0) * 0.5 * (double)n + 0.5);
}

ct_result ct__field_alloc_graph(ct__field *w, uint32_t n, char *err, size_t errlen)
{
    size_t grid, V;
    uint32_t next = 0, f, i, j;
    if (!w) return ct__fail(err, errlen, CT_ERR_NULL, "world is NULL");
    if (n < 1u || n > 4096u)
        return ct__fail(err, errlen, CT_ERR_KNOB_RANGE, "knob macro_resolution: %lu is out of range",
                        (unsigned long)n);
    grid = 6u * (size_t)(n + 1u) * (size_t)(n + 1u);
    V = 6u * (size_t)n * n + 2u;
    free(w->vertex_fij);
    free(w->dir_v);
    w->vertex_fij = (uint32_t *)malloc(sizeof *w->vertex_fij * grid);
    w->dir_v = (double *)malloc(sizeof *w->dir_v * 3u * V);
    if (!w->vertex_fij || !w->dir_v) {
        free(w->vertex_fij);
        free(w->dir_v);
        w->vertex_fij = NULL;
        w->dir_v = NULL;
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for the macro graph (%lu vertices)",
                        (unsigned long)V);
    }
    for (f = 0; f < 6u; f++) {
        for (j = 0; j <= n; j++) {
            for (i = 0; i <= n; i++) {
                double u = 2.0 * ((double)i / (double)n) - 1.0;
                double v = 2.0 * ((double)j / (double)n) - 1.0;
                double c[3];
                uint32_t X, Y, Z, oi, oj;
                int owner;
                ct__face_uv_to_cube((int)f, u, v, c);
                X = ct__lattice(c[0], n);
                Y = ct__lattice(c[1], n);
                Z = ct__lattice(c[2], n);
                owner = ct__owner_face(n, X, Y, Z);
                if (owner == (int)f) {
                    w->vertex_fij[CT__FIJ(n, f, i, j)] = next;
                    ct__normalize_canonical(c);
                    /* + 0.0 turns the face transforms' -0 into +0: one
                     * spelling of every seam direction. */
                    w->dir_v[3u * (size_t)next + 0u] = c[0] + 0.0;
                    w->dir_v[3u * (size_t)next + 1u] = c[1] + 0.0;
                    w->dir_v[3u * (size_t)next + 2u] = c[2] + 0.0;
                    next++;
                } else {
                    /* An earlier face owns this seam point: reuse its id. */
                    ct__lattice_to_fij(owner, n, X, Y, Z, &oi, &oj);
                    w->vertex_fij[CT__FIJ(n, f, i, j)] = w->vertex_fij[CT__FIJ(n, owner, oi, oj)];
                }
            }
        }
    }
    if ((size_t)next != V) {
        free(w->vertex_fij);
        free(w->dir_v);
        w->vertex_fij = NULL;
        w->dir_v = NULL;
        return ct__fail(err, errlen, CT_ERR_CONFIG, "macro graph numbering found %lu vertices, expected %lu",
                        (unsigned long)next, (unsigned long)V);
    }
    w->n = n;
    w->vertex_count = (uint32_t)V;
    return CT_OK;
}

/* Adds b to a's slots unless present; 0 if a already has four others. */
static int ct__link(ct__graph *g, uint32_t a, uint32_t b, double len_m)
{
    uint32_t k;
    for (k = 0; k < 4u; k++) {
        uint32_t s = g->nbr[4u * (size_t)a + k];
        if (s == b) return 1;
        if (s == CT__NONE) {
            g->nbr[4u * (size_t)a + k] = b;
            g->len_m[4u * (size_t)a + k] = len_m;
            return 1;
        }
    }
    return 0;
}

static int ct__has_link(const ct__graph *g, uint32_t a, uint32_t b)
{
    uint32_t k;
    for (k = 0; k < 4u; k++)
        if (g->nbr[4u * (size_t)a + k] == b) return 1;
    return 0;
}

ct_result ct__graph_build(const ct__field *w, double radius_m, ct__graph *g, char *err, size_t errlen)
{
    uint32_t n = w->n, f, i, j, V = w->vertex_count;
    size_t k;
    double arc_sum = 0.0;
    g->V = V;
    g->edge_count = 0;
    g->nbr = (uint32_t *)malloc(sizeof *g->nbr * 4u * (size_t)V);
    g->len_m = (double *)malloc(sizeof *g->len_m * 4u * (size_t)V);
    if (!g->nbr || !g->len_m) {
        ct__graph_free(g);
        return ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory for the graph adjacency");
    }
    for (k = 0; k < 4u * (size_t)V; k++) {
        g->nbr[k] = CT__NONE;
        g->len_m[k] = 0.0;
    }
    for (f = 0; f < 6u; f++) {
        for (j = 0; j <= n; j++) {
            for (i = 0; i <= n; i++) {
                uint32_t a = w->vertex_fij[CT__FIJ(n, f, i, j)], t;
                for (t = 0; t < 2u; t++) {
                    uint32_t b;
                    double arc;
                    if (t == 0 && i == n) continue;
                    if (t == 1 && j == n) continue;
                    b = t == 0 ? w->vertex_fij[CT__FIJ(n, f, i + 1u, j)]
                               : w->vertex_fij[CT__FIJ(n, f, i, j + 1u)];
                    /* Seam edges appear on two faces: one length, computed once. */
                    if (ct__has_link(g, a, b)) continue;
                    arc = ct__arc(w->dir_v + 3u * (size_t)a, w->dir_v + 3u * (size_t)b);
                    if (!ct__link(g, a, b, arc * radius_m) || !ct__link(g, b, a, arc * radius_m)) {
                        ct__graph_free(g);
                        return ct__fail(err, errlen, CT_ERR_CONFIG,
                                        "macro graph vertex has more than four neighbours");
                    }
                    arc_sum += arc;
                    g->edge_count++;
                }
            }
        }
    }
    g->cell_arc = g->edge_count ? arc_sum / (double)g->edge_count : 1.0;
    return CT_OK;
}

void ct__graph_free(ct__graph *g)
{
    if (!g) return;
    free(g->nbr);
    free(g->len_m);
    g->nbr = NULL;
    g->len_m = NULL;
}
