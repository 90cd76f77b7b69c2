/* mesh.c - triangle meshes from a chunk: terrain grids at a stride, skirts,
 * water surfaces, normals and palette colours, into caller-owned buffers.
 *
 * Positions are float32 metres relative to the chunk centre on the sphere
 * (center_m), so a renderer can draw camera-relative without float jitter
 * even at the finest LOD. Everything is computed in double and rounded to
 * float only when written. Nothing here allocates: the water mesh compacts
 * its vertices with two row buffers on the stack instead of a remap table.
 *
 * Vertex order of a terrain mesh: the (n+1)^2 grid row-major (row = local y),
 * n = 256 / stride, then, with skirts, 4 * (n+1) skirt vertices: the top edge
 * (local y 0), the bottom edge (y 256), the left edge (x 0), the right edge
 * (x 256), each in increasing x or y. Triangles wind counter-clockwise seen
 * from outside the planet, whatever the face's uv orientation. */
#include "surface/ct_surface.h"
#include "base/ct_v2.h"

#include <math.h>
#include <string.h>

#define CT__MESH_MAX_EXAGGERATION 1000.0
#define CT__MESH_MAX_SKIRT_M 1.0e6
#define CT__NO_VERTEX 0xffffffffu

/* Validated options with the zero defaults applied. */
typedef struct ct__mesh_opts {
    int stride, n, water;          /* n: grid cells per edge */
    double skirt_m, exaggeration;
} ct__mesh_opts;

static ct_result ct__mesh_check(const ct_mesh_options *o, ct__mesh_opts *out,
                                char *err, size_t errlen)
{
    int s;
    if (!o) return ct__fail(err, errlen, CT_ERR_NULL, "mesh options are NULL");
    s = o->stride ? o->stride : 1;
    if (s < 1 || s > CT_CHUNK_CORE || (s & (s - 1)) != 0)
        return ct__fail(err, errlen, CT_ERR_MESH,
                        "mesh stride %d is not a power of two from 1 to 256", o->stride);
    if (!ct__is_finite(o->skirt_depth_m) || o->skirt_depth_m < 0.0 ||
        o->skirt_depth_m > CT__MESH_MAX_SKIRT_M)
        return ct__fail(err, errlen, CT_ERR_MESH,
                        "skirt depth must be a finite number of metres in [0, 1e6]");
    if (!ct__is_finite(o->vertical_exaggeration) || o->vertical_exaggeration < 0.0 ||
        o->vertical_exaggeration > CT__MESH_MAX_EXAGGERATION)
        return ct__fail(err, errlen, CT_ERR_MESH,
                        "vertical exaggeration must be finite, in (0, 1000] (0 means 1)");
    if (o->water != 0 && o->water != 1)
        return ct__fail(err, errlen, CT_ERR_MESH, "water must be 0 (terrain) or 1 (water)");
    out->stride = s;
    out->n = CT_CHUNK_CORE / s;
    out->water = o->water;
    /* Skirts hide cracks between terrain LODs; a water surface has none. */
    out->skirt_m = o->water ? 0.0 : o->skirt_depth_m;
    out->exaggeration = o->vertical_exaggeration == 0.0 ? 1.0 : o->vertical_exaggeration;
    return CT_OK;
}

static void ct__mesh_counts(const ct__mesh_opts *m, ct_mesh_layout *l)
{
    uint32_t n = (uint32_t)m->n, skirts = m->skirt_m > 0.0;
    l->vertex_count = (n + 1) * (n + 1) + (skirts ? 4 * (n + 1) : 0);
    l->index_count = 6 * n * n + (skirts ? 24 * n : 0);
    l->index_bytes = l->vertex_count <= 65536u ? 2 : 4;
}

ct_result ct_mesh_layout_get(const ct_mesh_options *opts, ct_mesh_layout *out,
                             char *err, size_t errlen)
{
    ct__mesh_opts m;
    ct_result r;
    if (!out) return ct__fail(err, errlen, CT_ERR_NULL, "mesh layout output is NULL");
    r = ct__mesh_check(opts, &m, err, errlen);
    if (r != CT_OK) return r;
    ct__mesh_counts(&m, out);
    return CT_OK;
}

/* Everything the per-vertex helpers need, fixed for one build. */
typedef struct ct__mesher {
    const ct__field *field;
    const ct_chunk *chunk;
    const ct_palette *pal;
    ct_mesh *mesh;
    ct__mesh_opts o;
    double radius_m;       /* planet radius */
    double center[3];      /* chunk centre on the sphere, metres */
    int64_t gx0, gy0;      /* global sample coordinates of local (0,0) */
    int ccw;               /* 1 if (0,0),(1,0),(0,1) winds CCW from outside */
    int wide;              /* 32-bit indices */
    double bound2;         /* largest squared distance from the centre */
} ct__mesher;

static void ct__mesh_dir(const ct__mesher *m, int64_t lx, int64_t ly, double dir[3])
{
    ct__sample_direction(m->chunk->key.face, m->chunk->key.lod, m->gx0 + lx, m->gy0 + ly, dir);
}

/* Position relative to the centre of a point elevation_m above sea level. */
static void ct__mesh_point(const ct__mesher *m, const double dir[3], double elevation_m,
                           double out[3])
{
    double r = m->radius_m + elevation_m * m->o.exaggeration;
    int k;
    for (k = 0; k < 3; k++) out[k] = dir[k] * r - m->center[k];
}

static void ct__mesh_put(ct__mesher *m, uint32_t v, const double p[3], const double nrm[3],
                         int palette_index)
{
    float *pos = m->mesh->positions + 3 * (size_t)v;
    float *nor = m->mesh->normals + 3 * (size_t)v;
    double d2;
    int k;
    for (k = 0; k < 3; k++) {
        pos[k] = (float)p[k];
        nor[k] = (float)nrm[k];
    }
    /* Bound the float positions actually written, so the sphere holds them. */
    d2 = (double)pos[0] * pos[0] + (double)pos[1] * pos[1] + (double)pos[2] * pos[2];
    if (d2 > m->bound2) m->bound2 = d2;
    if (m->mesh->colors) {
        uint8_t *c = m->mesh->colors + 4 * (size_t)v;
        c[0] = m->pal->rgb[palette_index][0];
        c[1] = m->pal->rgb[palette_index][1];
        c[2] = m->pal->rgb[palette_index][2];
        c[3] = 255;
    }
    if (m->mesh->palette_index) m->mesh->palette_index[v] = (uint8_t)palette_index;
}

static void ct__mesh_tri(ct__mesher *m, uint32_t *ic, uint32_t a, uint32_t b, uint32_t c,
                         int flip)
{
    uint32_t t[3];
    int k;
    t[0] = a;
    t[1] = flip ? c : b;
    t[2] = flip ? b : c;
    for (k = 0; k < 3; k++) {
        if (m->wide) ((uint32_t *)m->mesh->indices)[*ic + (uint32_t)k] = t[k];
        else ((uint16_t *)m->mesh->indices)[*ic + (uint32_t)k] = (uint16_t)t[k];
    }
    *ic += 3;
}

/* Terrain position of local sample (lx, ly), which may lie one stride outside
 * the chunk: those come from ct_world_sample, rounded to float32 like a chunk
 * height, so edge normals match the neighbouring chunk's. */
static void ct__mesh_terrain_point(const ct__mesher *m, int64_t lx, int64_t ly, double out[3])
{
    double dir[3], h;
    ct__mesh_dir(m, lx, ly, dir);
    if (lx >= 0 && ly >= 0 && lx <= CT_CHUNK_CORE && ly <= CT_CHUNK_CORE) {
        h = (double)m->chunk->height_m[ly * CT_CHUNK_EDGE + lx];
    } else {
        ct_sample s;
        h = 0.0;
        if (ct__field_sample(m->field, dir, &s, NULL, 0) == CT_OK) h = (double)(float)s.height_m;
    }
    ct__mesh_point(m, dir, h, out);
}

/* One row of terrain points for the normals: local x from -stride to
 * 256 + stride (index gi + 1), with their directions, one array per
 * coordinate so two neighbouring vertices fill one vector. One slot of
 * padding: the last pair of an odd count runs one vertex past the end. */
typedef struct ct__mesh_row {
    double px[CT_CHUNK_EDGE + 3], py[CT_CHUNK_EDGE + 3], pz[CT_CHUNK_EDGE + 3];
    double dx[CT_CHUNK_EDGE + 3], dy[CT_CHUNK_EDGE + 3], dz[CT_CHUNK_EDGE + 3];
} ct__mesh_row;

static void ct__mesh_row_set(ct__mesh_row *r, int at, const double p[3])
{
    r->px[at] = p[0]; r->py[at] = p[1]; r->pz[at] = p[2];
}

/* Grid points of a row inside the chunk, two at a time. Bit-exact with
 * ct__sample_direction then ct__mesh_point: inside a face |u|, |v| <= 1, so
 * the squared component 1 is the largest, and ct__normalize_canonical's
 * smallest-first sum is (u*u + v*v) + 1 whatever the order of u*u and v*v;
 * each component is then +-1, +-u or +-v over the same length (negating
 * after the division gives the same bits as before it). */
static void ct__mesh_fill_inside(const ct__mesher *m, int64_t ly, ct__mesh_row *r)
{
    const ct_chunk *c = m->chunk;
    const float *h = c->height_m + ly * CT_CHUNK_EDGE;
    int n = m->o.n, s = m->o.stride, gi;
    double scale = (double)((int64_t)CT_CHUNK_CORE << c->key.lod);
    double v = 2.0 * ((double)(m->gy0 + ly) / scale) - 1.0;
    ct__v2 one = CT__V2(1.0, 1.0), two = CT__V2(2.0, 2.0), neg = CT__V2(-1.0, -1.0);
    ct__v2 nv = CT__V2(scale, scale), vv = CT__V2(v, v), v2 = CT__V2(v * v, v * v);
    ct__v2 rad = CT__V2(m->radius_m, m->radius_m), ex = CT__V2(m->o.exaggeration, m->o.exaggeration);
    ct__v2 cx = CT__V2(m->center[0], m->center[0]), cy = CT__V2(m->center[1], m->center[1]);
    ct__v2 cz = CT__V2(m->center[2], m->center[2]);
    for (gi = 0; gi <= n; gi += 2) {
        int64_t lx = (int64_t)gi * s;
        /* The second lane of the last pair of an odd count lies one stride
         * outside; its slot is overwritten by the row's end point. */
        ct__v2 gx = CT__V2((double)(m->gx0 + lx), (double)(m->gx0 + lx + s));
        ct__v2 hh = CT__V2((double)h[lx], gi + 1 <= n ? (double)h[lx + s] : 0.0);
        ct__v2 u = CT__V2_SUB(CT__V2_MUL(two, CT__V2_DIV(gx, nv)), one);
        ct__v2 len = CT__V2_SQRT(CT__V2_ADD(CT__V2_ADD(CT__V2_MUL(u, u), v2), one));
        ct__v2 a = CT__V2_DIV(one, len), bu = CT__V2_DIV(u, len), bv = CT__V2_DIV(vv, len);
        ct__v2 x, y, z, rr;
        switch (c->key.face) {
        case CT_FACE_PX: x = a; y = CT__V2_MUL(bv, neg); z = CT__V2_MUL(bu, neg); break;
        case CT_FACE_NX: x = CT__V2_MUL(a, neg); y = CT__V2_MUL(bv, neg); z = bu; break;
        case CT_FACE_PY: x = bu; y = a; z = bv; break;
        case CT_FACE_NY: x = bu; y = CT__V2_MUL(a, neg); z = CT__V2_MUL(bv, neg); break;
        case CT_FACE_PZ: x = bu; y = CT__V2_MUL(bv, neg); z = a; break;
        default: x = CT__V2_MUL(bu, neg); y = CT__V2_MUL(bv, neg); z = CT__V2_MUL(a, neg); break;
        }
        rr = CT__V2_ADD(rad, CT__V2_MUL(hh, ex));
        CT__V2_STORE(r->dx + gi + 1, x);
        CT__V2_STORE(r->dy + gi + 1, y);
        CT__V2_STORE(r->dz + gi + 1, z);
        CT__V2_STORE(r->px + gi + 1, CT__V2_SUB(CT__V2_MUL(x, rr), cx));
        CT__V2_STORE(r->py + gi + 1, CT__V2_SUB(CT__V2_MUL(y, rr), cy));
        CT__V2_STORE(r->pz + gi + 1, CT__V2_SUB(CT__V2_MUL(z, rr), cz));
    }
}

/* Fills row gj (local y = gj * stride) with ct__mesh_terrain_point's values:
 * every grid vertex's point is computed once and shared by the five normals
 * that read it, instead of once per reader. with_ends adds the points one
 * stride outside the chunk (from ct_world_sample); rows above and below the
 * chunk need none. */
static void ct__mesh_fill_row(const ct__mesher *m, int gj, int with_ends, ct__mesh_row *r)
{
    int n = m->o.n, s = m->o.stride, gi;
    int64_t ly = (int64_t)gj * s;
    double p[3];
    if (ly >= 0 && ly <= CT_CHUNK_CORE) {
        ct__mesh_fill_inside(m, ly, r);
    } else {
        for (gi = 0; gi <= n; gi++) {
            ct__mesh_terrain_point(m, (int64_t)gi * s, ly, p);
            ct__mesh_row_set(r, gi + 1, p);
        }
    }
    if (with_ends) {
        ct__mesh_terrain_point(m, -(int64_t)s, ly, p);
        ct__mesh_row_set(r, 0, p);
        ct__mesh_terrain_point(m, (int64_t)(n + 1) * s, ly, p);
        ct__mesh_row_set(r, n + 2, p);
    }
}

/* Normals of grid row gj, two vertices at a time, each lane the scalar
 * sequence: central differences, their cross product, turned outward
 * (along the direction), normalised or, without length, the direction. */
static void ct__mesh_normal_row(ct__mesher *m, int gj, const ct__mesh_row *up,
                                const ct__mesh_row *mid, const ct__mesh_row *down)
{
    const ct_chunk *c = m->chunk;
    int n = m->o.n, s = m->o.stride, gi, l, k;
    uint32_t row = (uint32_t)n + 1;
    for (gi = 0; gi <= n; gi += 2) {
        const int i = gi + 1;
        ct__v2 ax = CT__V2_SUB(CT__V2_LOAD(mid->px + i + 1), CT__V2_LOAD(mid->px + i - 1));
        ct__v2 ay = CT__V2_SUB(CT__V2_LOAD(mid->py + i + 1), CT__V2_LOAD(mid->py + i - 1));
        ct__v2 az = CT__V2_SUB(CT__V2_LOAD(mid->pz + i + 1), CT__V2_LOAD(mid->pz + i - 1));
        ct__v2 bx = CT__V2_SUB(CT__V2_LOAD(down->px + i), CT__V2_LOAD(up->px + i));
        ct__v2 by = CT__V2_SUB(CT__V2_LOAD(down->py + i), CT__V2_LOAD(up->py + i));
        ct__v2 bz = CT__V2_SUB(CT__V2_LOAD(down->pz + i), CT__V2_LOAD(up->pz + i));
        ct__v2 dx = CT__V2_LOAD(mid->dx + i), dy = CT__V2_LOAD(mid->dy + i), dz = CT__V2_LOAD(mid->dz + i);
        ct__v2 nx = CT__V2_SUB(CT__V2_MUL(ay, bz), CT__V2_MUL(az, by));
        ct__v2 ny = CT__V2_SUB(CT__V2_MUL(az, bx), CT__V2_MUL(ax, bz));
        ct__v2 nz = CT__V2_SUB(CT__V2_MUL(ax, by), CT__V2_MUL(ay, bx));
        ct__v2 dot = CT__V2_ADD(CT__V2_ADD(CT__V2_MUL(nx, dx), CT__V2_MUL(ny, dy)), CT__V2_MUL(nz, dz));
        ct__v2 len;
        double nrm[2][3], dir[2][3], lens[2];
        nx = CT__V2_NEG_WHERE_NEG(nx, dot);
        ny = CT__V2_NEG_WHERE_NEG(ny, dot);
        nz = CT__V2_NEG_WHERE_NEG(nz, dot);
        len = CT__V2_SQRT(CT__V2_ADD(CT__V2_ADD(CT__V2_MUL(nx, nx), CT__V2_MUL(ny, ny)), CT__V2_MUL(nz, nz)));
        if (CT__V2_BOTH_POS(len)) {
            nx = CT__V2_DIV(nx, len);
            ny = CT__V2_DIV(ny, len);
            nz = CT__V2_DIV(nz, len);
        }
        nrm[0][0] = CT__V2_LO(nx); nrm[0][1] = CT__V2_LO(ny); nrm[0][2] = CT__V2_LO(nz);
        nrm[1][0] = CT__V2_HI(nx); nrm[1][1] = CT__V2_HI(ny); nrm[1][2] = CT__V2_HI(nz);
        if (!CT__V2_BOTH_POS(len)) {
            /* Rare (a flat fold): redo both lanes the scalar way. */
            dir[0][0] = CT__V2_LO(dx); dir[0][1] = CT__V2_LO(dy); dir[0][2] = CT__V2_LO(dz);
            dir[1][0] = CT__V2_HI(dx); dir[1][1] = CT__V2_HI(dy); dir[1][2] = CT__V2_HI(dz);
            lens[0] = CT__V2_LO(len);
            lens[1] = CT__V2_HI(len);
            for (l = 0; l < 2; l++) {
                if (!(lens[l] > 0.0)) for (k = 0; k < 3; k++) nrm[l][k] = dir[l][k];
                else for (k = 0; k < 3; k++) nrm[l][k] /= lens[l];
            }
        }
        for (l = 0; l < 2 && gi + l <= n; l++) {
            double p[3];
            p[0] = mid->px[i + l]; p[1] = mid->py[i + l]; p[2] = mid->pz[i + l];
            ct__mesh_put(m, (uint32_t)gj * row + (uint32_t)(gi + l), p, nrm[l],
                         c->palette[gj * s * CT_CHUNK_EDGE + (gi + l) * s]);
        }
    }
}

/* The grid's triangles: two per cell, wound by m->ccw. The same for every
 * chunk of a face handedness and stride; written straight, per index width. */
static uint32_t ct__mesh_grid_indices(ct__mesher *m)
{
    uint32_t n = (uint32_t)m->o.n, row = n + 1, gi, gj, ic = 0;
    int flip = !m->ccw;
    for (gj = 0; gj < n; gj++) {
        uint32_t v00 = gj * row;
        if (m->wide) {
            uint32_t *o = (uint32_t *)m->mesh->indices + ic;
            for (gi = 0; gi < n; gi++, v00++, o += 6) {
                uint32_t v10 = v00 + 1, v01 = v00 + row, v11 = v01 + 1;
                o[0] = v00; o[1] = flip ? v01 : v10; o[2] = flip ? v10 : v01;
                o[3] = v10; o[4] = flip ? v01 : v11; o[5] = flip ? v11 : v01;
            }
        } else {
            uint16_t *o = (uint16_t *)m->mesh->indices + ic;
            for (gi = 0; gi < n; gi++, v00++, o += 6) {
                uint32_t v10 = v00 + 1, v01 = v00 + row, v11 = v01 + 1;
                o[0] = (uint16_t)v00; o[1] = (uint16_t)(flip ? v01 : v10); o[2] = (uint16_t)(flip ? v10 : v01);
                o[3] = (uint16_t)v10; o[4] = (uint16_t)(flip ? v01 : v11); o[5] = (uint16_t)(flip ? v11 : v01);
            }
        }
        ic += 6 * n;
    }
    return ic;
}

static void ct__mesh_terrain(ct__mesher *m)
{
    const ct_chunk *c = m->chunk;
    int n = m->o.n, s = m->o.stride, gj, e, k;
    uint32_t row = (uint32_t)n + 1, ic = 0, grid = row * row;
    /* Three rolling rows (y - stride, y, y + stride): about 37 KB of stack,
     * zeroed so the padding a last odd lane reads is defined. */
    ct__mesh_row rows[3];
    ct__mesh_row *up = &rows[0], *mid = &rows[1], *down = &rows[2], *t;
    memset(rows, 0, sizeof rows);
    /* Pass 1: grid vertices with central-difference normals (one stride
     * outside the chunk at its edges, see ct__mesh_terrain_point). */
    ct__mesh_fill_row(m, -1, 0, up);
    ct__mesh_fill_row(m, 0, 1, mid);
    for (gj = 0; gj <= n; gj++) {
        ct__mesh_fill_row(m, gj + 1, gj + 1 <= n, down);
        ct__mesh_normal_row(m, gj, up, mid, down);
        t = up; up = mid; mid = down; down = t;
    }
    ic = ct__mesh_grid_indices(m);
    m->mesh->vertex_count = grid;
    if (m->o.skirt_m > 0.0) {
        /* Each skirt vertex hangs skirt_m below its edge vertex, with the same
         * normal and colour; quads face away from the chunk. */
        for (e = 0; e < 4; e++) {
            uint32_t base = grid + (uint32_t)e * row;
            int flip;
            for (k = 0; k <= n; k++) {
                int gx = e < 2 ? k : (e == 2 ? 0 : n), gy = e < 2 ? (e == 0 ? 0 : n) : k;
                uint32_t src = (uint32_t)gy * row + (uint32_t)gx;
                double dir[3], p[3], nrm[3], h;
                int si = gy * s * CT_CHUNK_EDGE + gx * s, q;
                ct__mesh_dir(m, (int64_t)gx * s, (int64_t)gy * s, dir);
                h = (double)c->height_m[si];
                ct__mesh_point(m, dir, h - m->o.skirt_m / m->o.exaggeration, p);
                for (q = 0; q < 3; q++) nrm[q] = m->mesh->normals[3 * (size_t)src + q];
                ct__mesh_put(m, base + (uint32_t)k, p, nrm, c->palette[si]);
            }
            /* With CCW interior triangles, (edge k, edge k+1, skirt k) faces
             * +local y along an x edge and -local x along a y edge: outward on
             * the bottom and left edges, inward on the top and right ones. */
            flip = (e == 0 || e == 3) ? m->ccw : !m->ccw;
            for (k = 0; k < n; k++) {
                int gx0 = e < 2 ? k : (e == 2 ? 0 : n), gy0 = e < 2 ? (e == 0 ? 0 : n) : k;
                int gx1 = e < 2 ? k + 1 : gx0, gy1 = e < 2 ? gy0 : k + 1;
                uint32_t a = (uint32_t)gy0 * row + (uint32_t)gx0;
                uint32_t b = (uint32_t)gy1 * row + (uint32_t)gx1;
                uint32_t sa = base + (uint32_t)k, sb = sa + 1;
                ct__mesh_tri(m, &ic, a, b, sa, flip);
                ct__mesh_tri(m, &ic, b, sb, sa, flip);
            }
        }
        m->mesh->vertex_count = grid + 4 * row;
    }
    m->mesh->index_count = ic;
}

static int ct__wet(const ct_chunk *c, int s, int gi, int gj)
{
    return c->water[gj * s * CT_CHUNK_EDGE + gi * s] != CT_NO_WATER_CODE;
}

/* A cell is drawn when any corner has water: the surface then reaches under
 * the shore, where the terrain hides it, instead of stopping short of it. */
static int ct__wet_cell(const ct_chunk *c, int s, int n, int gi, int gj)
{
    if (gi < 0 || gj < 0 || gi >= n || gj >= n) return 0;
    return ct__wet(c, s, gi, gj) || ct__wet(c, s, gi + 1, gj) ||
           ct__wet(c, s, gi, gj + 1) || ct__wet(c, s, gi + 1, gj + 1);
}

/* Water level at a grid vertex: its own, or for a dry vertex of a wet cell
 * the mean of its wet grid neighbours (so the surface stays flat). */
static double ct__water_level(const ct_chunk *c, int s, int n, int gi, int gj)
{
    double sum = 0.0;
    int cnt = 0, di, dj;
    if (ct__wet(c, s, gi, gj))
        return ct_height_decode(c->water[gj * s * CT_CHUNK_EDGE + gi * s], c->height_quantum_m);
    for (dj = -1; dj <= 1; dj++) {
        for (di = -1; di <= 1; di++) {
            int x = gi + di, y = gj + dj;
            if (x < 0 || y < 0 || x > n || y > n || !ct__wet(c, s, x, y)) continue;
            sum += ct_height_decode(c->water[y * s * CT_CHUNK_EDGE + x * s], c->height_quantum_m);
            cnt++;
        }
    }
    return cnt ? sum / cnt : 0.0;
}

static void ct__mesh_water(ct__mesher *m)
{
    const ct_chunk *c = m->chunk;
    int n = m->o.n, s = m->o.stride, gi, gj;
    uint32_t prev[CT_CHUNK_EDGE], cur[CT_CHUNK_EDGE], vc = 0, ic = 0;
    for (gj = 0; gj <= n; gj++) {
        for (gi = 0; gi <= n; gi++) {
            double dir[3], p[3];
            int si = gj * s * CT_CHUNK_EDGE + gi * s, pal;
            cur[gi] = CT__NO_VERTEX;
            if (!ct__wet_cell(c, s, n, gi - 1, gj - 1) && !ct__wet_cell(c, s, n, gi, gj - 1) &&
                !ct__wet_cell(c, s, n, gi - 1, gj) && !ct__wet_cell(c, s, n, gi, gj))
                continue;
            ct__mesh_dir(m, (int64_t)gi * s, (int64_t)gj * s, dir);
            ct__mesh_point(m, dir, ct__water_level(c, s, n, gi, gj), p);
            pal = c->biome[si] == CT_BIOME_WATER ? c->palette[si]
                                                 : CT_BIOME_WATER * CT_SHADES_PER_BIOME + 2;
            ct__mesh_put(m, vc, p, dir, pal);
            cur[gi] = vc++;
        }
        if (gj > 0) {
            for (gi = 0; gi < n; gi++) {
                if (!ct__wet_cell(c, s, n, gi, gj - 1)) continue;
                ct__mesh_tri(m, &ic, prev[gi], prev[gi + 1], cur[gi], !m->ccw);
                ct__mesh_tri(m, &ic, prev[gi + 1], cur[gi + 1], cur[gi], !m->ccw);
            }
        }
        memcpy(prev, cur, sizeof prev);
    }
    m->mesh->vertex_count = vc;
    m->mesh->index_count = ic;
}

ct_result ct__mesh_build(const ct__field *world, const ct_chunk *chunk, const ct_mesh_options *opts,
                         const ct_palette *palette, ct_mesh *mesh, char *err, size_t errlen)
{
    ct__mesher m;
    ct_palette def;
    ct_mesh_layout lay;
    double du[3], dv[3], o[3], a[3], b[3], nrm[3], cdir[3];
    ct_result r;
    int k;
    if (!world || !chunk || !mesh)
        return ct__fail(err, errlen, CT_ERR_NULL, "world, chunk and mesh are required");
    r = ct__mesh_check(opts, &m.o, err, errlen);
    if (r != CT_OK) return r;
    if (!mesh->positions || !mesh->normals || !mesh->indices)
        return ct__fail(err, errlen, CT_ERR_NULL, "mesh positions, normals and indices are required");
    r = ct_key_validate(chunk->key, err, errlen);
    if (r != CT_OK) return r;
    if (chunk->generation != world->generation)
        return ct__fail(err, errlen, CT_ERR_MESH, "chunk was generated by a different world");
    if (!ct__is_finite(chunk->height_quantum_m) || !(chunk->height_quantum_m > 0.0))
        return ct__fail(err, errlen, CT_ERR_MESH, "chunk height quantum is not positive");
    ct__mesh_counts(&m.o, &lay);
    if (!palette) {
        ct_palette_default(&def);
        palette = &def;
    }
    m.field = world;
    m.chunk = chunk;
    m.pal = palette;
    m.mesh = mesh;
    m.radius_m = world->cfg.radius_m;
    m.gx0 = (int64_t)chunk->key.x * CT_CHUNK_CORE;
    m.gy0 = (int64_t)chunk->key.y * CT_CHUNK_CORE;
    m.wide = lay.index_bytes == 4;
    m.bound2 = 0.0;
    ct__mesh_dir(&m, CT_CHUNK_CORE / 2, CT_CHUNK_CORE / 2, cdir);
    for (k = 0; k < 3; k++) m.center[k] = cdir[k] * m.radius_m;
    /* Winding: +local x and +local y map to the face's u and v axes, whose
     * handedness differs between faces. */
    ct__face_uv_to_cube(chunk->key.face, 0.0, 0.0, o);
    ct__face_uv_to_cube(chunk->key.face, 1.0, 0.0, a);
    ct__face_uv_to_cube(chunk->key.face, 0.0, 1.0, b);
    for (k = 0; k < 3; k++) { du[k] = a[k] - o[k]; dv[k] = b[k] - o[k]; }
    ct__cross3(du, dv, nrm);
    m.ccw = ct__dot3(nrm, o) > 0.0;
    for (k = 0; k < 3; k++) mesh->center_m[k] = m.center[k];
    if (m.o.water) ct__mesh_water(&m);
    else ct__mesh_terrain(&m);
    /* A hair of slack so float rounding of the caller's own length test
     * never puts a vertex outside. */
    mesh->radius_m = sqrt(m.bound2) * (1.0 + 1e-9);
    return CT_OK;
}
