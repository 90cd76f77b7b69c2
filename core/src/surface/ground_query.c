/* ground_query.c - the exact ground: where the radial line through a
 * direction meets the stride-1 mesh of a chunk (mesh.c), and that
 * triangle's normal.
 *
 * The mesh's vertex k sits at (radius + h_k) * dir_k, dir_k the exact sample
 * direction (ct__sample_direction), so a cell's triangle is planar and its
 * radial shadow on the sphere is the gnomonic image of the same triangle on
 * the cube face: the half of the cell that the point's face coordinates fall
 * in is the triangle the line meets. The meeting point is computed in double
 * from those vertices; the mesh writes them as float32 offsets from its
 * centre, which differ by well under a millimetre.
 *
 * A world query samples only the cell's corners, with the chunk's sampler
 * path (ct__sampler_run4 without a pyramid gives ct__sample_dir's bits, which
 * equal the chunk's: tests/c/test_ground.c), and the 12 samples around a
 * water cell that the water mesh's shore levels read. */
#include "surface/ct_ground_query.h"
#include "base/ct_math.h"

#include <math.h>
#include <string.h>

#define CT__GQ_DEG 57.295779513082320876798   /* degrees per radian */

void ct__gq_cell_fill(ct__gq_cell *c, ct_key key, int ci, int cj, double quantum_m, ct__gq_fetch fetch, void *ctx)
{
    int k, dx, dy;
    c->key = key;
    c->ci = ci;
    c->cj = cj;
    c->quantum_m = quantum_m;
    c->wet = 0;
    for (k = 0; k < 4; k++) {
        fetch(ctx, ci + (k & 1), cj + (k >> 1), &c->corner[k]);
        if (c->corner[k].water != CT_NO_WATER_CODE) c->wet = 1;
    }
    if (!c->wet) return;
    for (dy = -1; dy <= 2; dy++) {
        for (dx = -1; dx <= 2; dx++) {
            int x = ci + dx, y = cj + dy;
            ct__gq_sample s;
            if (x < 0 || y < 0 || x > CT_CHUNK_CORE || y > CT_CHUNK_CORE) {
                c->water[dy + 1][dx + 1] = CT_NO_WATER_CODE;
                continue;
            }
            if (dx >= 0 && dx <= 1 && dy >= 0 && dy <= 1) s = c->corner[dy * 2 + dx];
            else fetch(ctx, x, y, &s);
            c->water[dy + 1][dx + 1] = s.water;
        }
    }
}

/* mesh.c's ct__water_level at corner (a, b): its own level, or for a dry
 * corner the mean of its wet neighbours, summed in the same order. */
static double ct__gq_water_level(const ct__gq_cell *c, int a, int b)
{
    double sum = 0.0;
    int cnt = 0, di, dj;
    uint16_t own = c->water[b + 1][a + 1];
    if (own != CT_NO_WATER_CODE) return ct_height_decode(own, c->quantum_m);
    for (dj = -1; dj <= 1; dj++) {
        for (di = -1; di <= 1; di++) {
            uint16_t w = c->water[b + 1 + dj][a + 1 + di];
            if (w == CT_NO_WATER_CODE) continue;
            sum += ct_height_decode(w, c->quantum_m);
            cnt++;
        }
    }
    return cnt ? sum / cnt : 0.0;
}

void ct__gq_cell_points(const ct__gq_cell *c, double radius_m, int water, double p[4][3])
{
    int64_t gx0 = (int64_t)c->key.x * CT_CHUNK_CORE + c->ci, gy0 = (int64_t)c->key.y * CT_CHUNK_CORE + c->cj;
    int k, q;
    for (k = 0; k < 4; k++) {
        double dir[3], r;
        ct__sample_direction(c->key.face, c->key.lod, gx0 + (k & 1), gy0 + (k >> 1), dir);
        r = radius_m + (water ? ct__gq_water_level(c, k & 1, k >> 1) : (double)c->corner[k].height_m);
        for (q = 0; q < 3; q++) p[k][q] = dir[q] * r;
    }
}

int ct__gq_half(double s, double t)
{
    return s + t > 1.0;
}

void ct__gq_tri(int h, int idx[3])
{
    idx[0] = h ? 1 : 0;
    idx[1] = h ? 3 : 1;
    idx[2] = 2;
}

int ct__gq_radial_hit(const double a[3], const double b[3], const double c[3], const double d[3], double *r,
                      double normal[3])
{
    double e1[3], e2[3], n[3], nd, len;
    int k;
    for (k = 0; k < 3; k++) {
        e1[k] = b[k] - a[k];
        e2[k] = c[k] - a[k];
    }
    ct__cross3(e1, e2, n);
    len = sqrt(ct__dot3(n, n));
    if (!(len > 0.0)) return 0;
    for (k = 0; k < 3; k++) n[k] /= len;
    /* Outward: the vertices lie around the radial direction. */
    if (ct__dot3(n, a) < 0.0)
        for (k = 0; k < 3; k++) n[k] = -n[k];
    nd = ct__dot3(n, d);
    if (!(nd > 0.0)) return 0;
    *r = ct__dot3(n, a) / nd;
    for (k = 0; k < 3; k++) normal[k] = n[k];
    return 1;
}

void ct__gq_ground(const ct__gq_cell *c, double radius_m, const double d[3], double s, double t, ct_ground *out,
                   double local_x, double local_y)
{
    double p[4][3], r = radius_m, cosv;
    int idx[3], h = ct__gq_half(s, t), near = (s >= 0.5 ? 1 : 0) + (t >= 0.5 ? 2 : 0), k;
    memset(out, 0, sizeof *out);
    ct__gq_tri(h, idx);
    ct__gq_cell_points(c, radius_m, 0, p);
    if (!ct__gq_radial_hit(p[idx[0]], p[idx[1]], p[idx[2]], d, &r, out->normal))
        for (k = 0; k < 3; k++) out->normal[k] = d[k];
    out->height_m = r - radius_m;
    cosv = ct__dot3(out->normal, d);
    out->slope_deg = cosv >= 1.0 ? 0.0 : acos(cosv) * CT__GQ_DEG;
    if (c->wet) {
        double n[3];
        r = radius_m;
        ct__gq_cell_points(c, radius_m, 1, p);
        ct__gq_radial_hit(p[idx[0]], p[idx[1]], p[idx[2]], d, &r, n);
        out->water_m = r - radius_m;
        out->has_water = 1;
    }
    out->biome = c->corner[near].biome;
    out->material = ct__biome_material(out->biome);
    out->palette_index = c->corner[near].palette;
    out->key = c->key;
    out->local_x = local_x;
    out->local_y = local_y;
}

/* --------------------------------------------------------- from a chunk */
void ct__gq_fetch_chunk(void *ctx, int lx, int ly, ct__gq_sample *out)
{
    const ct_chunk *ch = (const ct_chunk *)ctx;
    size_t at = (size_t)ly * CT_CHUNK_EDGE + (size_t)lx;
    out->height_m = ch->height_m[at];
    out->water = ch->water[at];
    out->biome = ch->biome[at];
    out->palette = ch->palette[at];
}

/* The cell index of a local coordinate in [0, 256]: the last cell holds 256. */
static int ct__gq_cell_of(double l)
{
    int i = (int)floor(l);
    return i > CT_CHUNK_CORE - 1 ? CT_CHUNK_CORE - 1 : i;
}

ct_result ct__chunk_ground(const ct__field *f, const ct_chunk *chunk, double local_x, double local_y, ct_ground *out,
                           char *err, size_t errlen)
{
    ct__gq_cell c;
    double d[3];
    int ci, cj;
    ct_result r;
    if (!f || !chunk || !out) return ct__fail(err, errlen, CT_ERR_NULL, "world, chunk and output are required");
    r = ct_key_validate(chunk->key, err, errlen);
    if (r != CT_OK) return r;
    if (chunk->generation != f->generation)
        return ct__fail(err, errlen, CT_ERR_MESH, "chunk was generated by a different world");
    if (!ct__is_finite(local_x) || !ct__is_finite(local_y))
        return ct__fail(err, errlen, CT_ERR_LOCAL, "local position must be finite");
    if (local_x < 0.0 || local_y < 0.0 || local_x > CT_CHUNK_CORE || local_y > CT_CHUNK_CORE)
        return ct__fail(err, errlen, CT_ERR_LOCAL, "local position (%g, %g) is outside the chunk's [0, 256]",
                        local_x, local_y);
    if (!ct__is_finite(chunk->height_quantum_m) || !(chunk->height_quantum_m > 0.0))
        return ct__fail(err, errlen, CT_ERR_MESH, "chunk height quantum is not positive");
    r = ct_key_direction(chunk->key, local_x, local_y, d, err, errlen);
    if (r != CT_OK) return r;
    ci = ct__gq_cell_of(local_x);
    cj = ct__gq_cell_of(local_y);
    ct__gq_cell_fill(&c, chunk->key, ci, cj, chunk->height_quantum_m, ct__gq_fetch_chunk, (void *)chunk);
    ct__gq_ground(&c, f->cfg.radius_m, d, local_x - ci, local_y - cj, out, local_x, local_y);
    return CT_OK;
}

/* --------------------------------------------------------- from samples */
static void ct__gq_encode(const ct_sample *s, double q, ct__gq_sample *out)
{
    out->height_m = (float)s->height_m;
    out->water = CT_NO_WATER_CODE;
    /* As chunk.c stores it: code 0 means dry, so a surface that deep is 1. */
    if (s->has_water) {
        out->water = ct_height_encode(s->water_m, q, NULL);
        if (out->water == CT_NO_WATER_CODE) out->water = 1;
    }
    out->biome = (uint8_t)s->biome;
    out->palette = (uint8_t)s->palette_index;
}

void ct__gq_world_init(ct__gq_world *g, const ct__field *f)
{
    ct__sampler_init(&g->sp, f, 0);
    g->q = f->cfg.height_quantum_m;
    g->have = 0;
}

void ct__gq_world_put(ct__gq_world *g, int lx, int ly, const ct__gq_sample *s)
{
    if (g->have >= CT__GQ_TABLE) return;
    g->lx[g->have] = lx;
    g->ly[g->have] = ly;
    g->got[g->have++] = *s;
}

int ct__gq_world_find(const ct__gq_world *g, int lx, int ly, ct__gq_sample *out)
{
    int k;
    for (k = 0; k < g->have; k++) {
        if (g->lx[k] == lx && g->ly[k] == ly) {
            *out = g->got[k];
            return 1;
        }
    }
    return 0;
}

/* Samples up to four local positions of row ly: four at a time like a chunk
 * row, fewer one by one like a row's remainder. */
static void ct__gq_world_row(ct__gq_world *g, int ly, const int lx[], int n)
{
    int64_t gx0 = (int64_t)g->key.x * CT_CHUNK_CORE, gy = (int64_t)g->key.y * CT_CHUNK_CORE + ly;
    double dirs[12];
    ct_sample s[4];
    int k;
    for (k = 0; k < n; k++) {
        ct__sample_direction(g->key.face, g->key.lod, gx0 + lx[k], gy, dirs + 3 * k);
        g->sp.lane_gx[k] = gx0 + lx[k];
    }
    g->sp.lane_gy = gy;
    if (n == 4) {
        ct__sampler_run4(&g->sp, dirs, 0, s);
    } else {
        for (k = 0; k < n; k++) {
            g->sp.lane_gx[CT__SLOT_SCALAR] = gx0 + lx[k];
            ct__sampler_run(&g->sp, dirs + 3 * k, 0, &s[k]);
        }
    }
    for (k = 0; k < n; k++) {
        ct__gq_sample e;
        ct__gq_encode(&s[k], g->q, &e);
        ct__gq_world_put(g, lx[k], ly, &e);
    }
}

void ct__gq_world_sample(ct__gq_world *g, const int lx[], const int ly[], int n)
{
    int64_t gx0 = (int64_t)g->key.x * CT_CHUNK_CORE, gy0 = (int64_t)g->key.y * CT_CHUNK_CORE;
    int x0 = CT_CHUNK_CORE, x1 = 0, y0 = CT_CHUNK_CORE, y1 = 0, k, at = 0;
    if (n <= 0) return;
    for (k = 0; k < n; k++) {
        if (lx[k] < x0) x0 = lx[k];
        if (lx[k] > x1) x1 = lx[k];
        if (ly[k] < y0) y0 = ly[k];
        if (ly[k] > y1) y1 = ly[k];
    }
    /* chunk.c's fine-relief set-up, over the box of the positions. */
    g->sp.pyr = NULL;
    g->sp.chunk_chain = 0;
    g->sp.chunk_face = g->key.face;
    g->sp.chunk_lod = g->key.lod;
    if (g->sp.ground.octaves > 0 && g->key.lod > g->sp.ground.base) {
        ct__gpyr_init(&g->pyr, &g->sp.ground, g->key.face, g->key.lod, gx0 + x0, gx0 + x1, gy0 + y0, gy0 + y1,
                      ct__sampler_coarse, &g->sp);
        g->sp.pyr = &g->pyr;
    } else if (g->sp.ground.octaves > 0) {
        g->sp.chunk_chain = 1;
    }
    /* Row by row (the positions come row-major), as the pyramid wants. */
    while (at < n) {
        int row[4], m = 0, y = ly[at];
        while (at < n && m < 4 && ly[at] == y) row[m++] = lx[at++];
        ct__gq_world_row(g, y, row, m);
    }
}

static void ct__gq_fetch_world(void *ctx, int lx, int ly, ct__gq_sample *out)
{
    if (!ct__gq_world_find((const ct__gq_world *)ctx, lx, ly, out))
        memset(out, 0, sizeof *out);   /* never: every sample asked for was taken */
}

void ct__gq_cell_from_table(ct__gq_cell *c, ct__gq_world *g, int ci, int cj)
{
    ct__gq_cell_fill(c, g->key, ci, cj, g->q, ct__gq_fetch_world, g);
}

int ct__gq_world_ring(int ci, int cj, int lx[12], int ly[12])
{
    int n = 0, dx, dy;
    for (dy = -1; dy <= 2; dy++) {
        for (dx = -1; dx <= 2; dx++) {
            int x = ci + dx, y = cj + dy;
            if ((dx == 0 || dx == 1) && (dy == 0 || dy == 1)) continue;
            if (x < 0 || y < 0 || x > CT_CHUNK_CORE || y > CT_CHUNK_CORE) continue;
            lx[n] = x;
            ly[n++] = y;
        }
    }
    return n;
}

ct_result ct__field_ground_cell(const ct__field *f, const double dir[3], ct__gq_cell *c, double *local_x,
                               double *local_y, char *err, size_t errlen)
{
    ct__gq_world g;
    int ci, cj, k, lx[12], ly[12], n;
    ct_result r;
    if (!f || !c) return ct__fail(err, errlen, CT_ERR_NULL, "world and output are required");
    r = ct__key_at(&f->cfg, dir, (int)f->cfg.surface_lod, &g.key, local_x, local_y, err, errlen);
    if (r != CT_OK) return r;
    ci = ct__gq_cell_of(*local_x);
    cj = ct__gq_cell_of(*local_y);
    ct__gq_world_init(&g, f);
    for (k = 0; k < 4; k++) {
        lx[k] = ci + (k & 1);
        ly[k] = cj + (k >> 1);
    }
    ct__gq_world_sample(&g, lx, ly, 4);
    for (k = 0; k < 4; k++)
        if (g.got[k].water != CT_NO_WATER_CODE) break;
    if (k < 4) {
        n = ct__gq_world_ring(ci, cj, lx, ly);
        ct__gq_world_sample(&g, lx, ly, n);
    }
    ct__gq_cell_from_table(c, &g, ci, cj);
    ct__sampler_finish(&g.sp);
    ct__sampler_release(&g.sp);
    return CT_OK;
}

ct_result ct__field_ground(const ct__field *f, const double dir[3], ct_ground *out, char *err, size_t errlen)
{
    ct__gq_cell c;
    double lx, ly, d[3], len;
    int k;
    ct_result r;
    if (!out) return ct__fail(err, errlen, CT_ERR_NULL, "ground output is NULL");
    r = ct__field_ground_cell(f, dir, &c, &lx, &ly, err, errlen);
    if (r != CT_OK) return r;
    len = sqrt(ct__dot3(dir, dir));
    if (!(len > 0.0) || !ct__is_finite(len)) {
        /* Tiny or huge but finite: the canonical direction has a length. */
        ct__canonical_dir(dir, d);
    } else {
        for (k = 0; k < 3; k++) d[k] = dir[k] / len;
    }
    ct__gq_ground(&c, f->cfg.radius_m, d, lx - c.ci, ly - c.cj, out, lx, ly);
    return CT_OK;
}
