/* sample.c - point samples of the frozen field. A direction finds its macro
 * cell on the cube grid, the cell's four corners are interpolated (with
 * shoreline-aware triangle splits), and globally addressed fine noise is
 * added. ct_world_sample and ct_chunk_generate both end in ct__sample_dir, so
 * the space view and every chunk at every LOD agree bit for bit: the value at
 * a direction never depends on who asked. */
#include "ct_surface.h"

#include <math.h>
#include <stdlib.h>

/* How a macro cell is interpolated. Corners: 0 (i,j), 1 (i+1,j), 2 (i,j+1),
 * 3 (i+1,j+1); s runs along i, t along j. */
enum { CT__CELL_BILINEAR = 0, CT__CELL_SPLIT_12, CT__CELL_SPLIT_03 };

/* Corner weights of (s,t) in [0,1]^2. The triangle splits keep each cell
 * edge linear between its two corners, exactly like bilinear interpolation on
 * that edge, so neighbouring cells still meet without a step. */
static void ct__cell_weights(int split, double s, double t, double w[4])
{
    if (split == CT__CELL_SPLIT_12) {
        if (s + t <= 1.0) {
            w[0] = 1.0 - s - t; w[1] = s; w[2] = t; w[3] = 0.0;
        } else {
            w[0] = 0.0; w[1] = 1.0 - t; w[2] = 1.0 - s; w[3] = s + t - 1.0;
        }
    } else if (split == CT__CELL_SPLIT_03) {
        if (s >= t) {
            w[0] = 1.0 - s; w[1] = s - t; w[2] = 0.0; w[3] = t;
        } else {
            w[0] = 1.0 - t; w[1] = 0.0; w[2] = t - s; w[3] = s;
        }
    } else {
        w[0] = (1.0 - s) * (1.0 - t);
        w[1] = s * (1.0 - t);
        w[2] = (1.0 - s) * t;
        w[3] = s * t;
    }
}

/* Chooses the split from which corners are water. A lone land or water
 * corner gets the diagonal that cuts it off, so the shoreline runs straight
 * from the lone corner's pin to its two neighbours instead of bulging
 * bilinearly through the cell. Two diagonal corners of different water bodies
 * (a saddle) are split along the land diagonal so the bodies never touch. */
static int ct__cell_split(const int32_t body[4])
{
    int wet = 0, count = 0, k, lone = -1;
    for (k = 0; k < 4; k++)
        if (body[k] >= 0) { wet |= 1 << k; count++; }
    if (count == 1 || count == 3) {
        for (k = 0; k < 4; k++)
            if (((wet >> k) & 1) == (count == 1)) lone = k;
        return (lone == 0 || lone == 3) ? CT__CELL_SPLIT_12 : CT__CELL_SPLIT_03;
    }
    if (wet == 0x9 && body[0] != body[3]) return CT__CELL_SPLIT_12;
    if (wet == 0x6 && body[1] != body[2]) return CT__CELL_SPLIT_03;
    return CT__CELL_BILINEAR;
}

/* Normalised fBm has a standard deviation of only about 0.15 (octaves average
 * out), so it is spread before the clamp to [-1,1] to let the amplitude knobs
 * mean roughly what they say. */
#define CT__DETAIL_SPREAD 3.0

static double ct__clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

void ct__sample_dir(const ct_world *w, const double dir_in[3], int need_moisture, ct_sample *out)
{
    const ct_config *cfg = &w->cfg;
    uint32_t n = w->n, i, j, idx[4];
    int face, k, split, dom = -1;
    int32_t body[4];
    double u, v, gx, gy, s, t, wt[4], rw[4] = {0, 0, 0, 0};
    double bed = 0.0, above = 0.0, mask = 0.0, shore = 0.0, wet_weight = 0.0, moist = 0.0;
    double nz, coarse;
    int octaves_run;
    double detail = 0.0, level = 0.0, amp;
    ct_region_info region;
    ct__biome_in bi;
    int shade;
    double dir[3], m;

    /* One canonical unit vector whatever the caller's scale: divide by the
     * largest component, then the order-independent normalisation. Chunks
     * and ct_world_sample both pass through here, so an exact chunk sample
     * direction gives the same bits either way, and a direction on a cube
     * seam reached from two faces stays one value. */
    m = fabs(dir_in[0]);
    if (fabs(dir_in[1]) > m) m = fabs(dir_in[1]);
    if (fabs(dir_in[2]) > m) m = fabs(dir_in[2]);
    dir[0] = dir_in[0] / m;
    dir[1] = dir_in[1] / m;
    dir[2] = dir_in[2] / m;
    ct__normalize_canonical(dir);

    /* Macro cell: the same face coordinate the chunk grid uses, scaled to n. */
    ct__cube_from_dir(dir, &face, &u, &v);
    gx = (u + 1.0) * 0.5 * (double)n;
    gy = (v + 1.0) * 0.5 * (double)n;
    i = (uint32_t)floor(gx);
    j = (uint32_t)floor(gy);
    if (i >= n) i = n - 1u;
    if (j >= n) j = n - 1u;
    s = gx - (double)i;
    t = gy - (double)j;
    idx[0] = w->vertex_fij[CT__FIJ(n, face, i, j)];
    idx[1] = w->vertex_fij[CT__FIJ(n, face, i + 1u, j)];
    idx[2] = w->vertex_fij[CT__FIJ(n, face, i, j + 1u)];
    idx[3] = w->vertex_fij[CT__FIJ(n, face, i + 1u, j + 1u)];
    for (k = 0; k < 4; k++) body[k] = w->body_v[idx[k]];
    split = ct__cell_split(body);
    ct__cell_weights(split, s, t, wt);

    for (k = 0; k < 4; k++) {
        uint32_t c = idx[k];
        double h = w->height_v[c], ref;
        int r;
        if (wt[k] == 0.0) continue;
        if (body[k] >= 0) {
            ref = w->water_level_v[c];
            wet_weight += wt[k];
            /* The strongest water corner names the body and its level; all
             * water corners of one triangle belong to one body (the saddle
             * split guarantees it), so lakes stay exactly flat. */
            if (dom < 0 || wt[k] > wt[dom]) dom = k;
        } else {
            ref = w->shore_ref_v ? w->shore_ref_v[c] : 0.0;
        }
        bed += wt[k] * h;
        above += wt[k] * (h - ref);
        mask += wt[k] * (double)w->mask_v[c];
        shore += wt[k] * (double)w->shore_v[c];
        if (w->moisture_v) moist += wt[k] * w->moisture_v[c];
        for (r = 0; r < CT_REGION_COUNT; r++) rw[r] += wt[k] * (double)w->region_w_v[4u * c + (uint32_t)r];
    }
    if (dom >= 0) level = w->water_level_v[idx[dom]];

    /* Fine noise, globally addressed by the direction. Its weight
     * |a| / (|a| + 2 amp) keeps |detail| < |a| / 2, where a is the height above
     * the shore reference: the sign of a (land or water) never flips, so the
     * noise cannot invent a coastline, and it fades to zero at the shore. */
    ct__region_effective(cfg, rw, &region);
    /* High ground is rougher: the amplitude grows with the height above the
     * shore, which the weight below still keeps under |a| / 2. */
    amp = (cfg->detail_amplitude_m + (above > 0.0 ? cfg->detail_height_gain * above : 0.0)) * region.roughness;
    if (cfg->mode == CT_MODE_WALK) amp = 0.0;   /* walk mode shows the contour process alone */
    /* Detail is land relief (the knob's contract): the sea and lake beds
     * keep the macro field. One loop gives the detail octaves and, from its
     * first two, the shading jitter; elsewhere only those two run. */
    octaves_run = (amp > 0.0 && above > 0.0) ? (int)cfg->detail_octaves : 0;
    nz = ct__fbm3_fast(ct__subseed(cfg->seed, CT_SALT_DETAIL), dir, cfg->detail_frequency,
                       octaves_run, 2.0, cfg->detail_gain, 2, &coarse);
    if (octaves_run > 0) {
        double a = fabs(above);
        nz = ct__clamp(CT__DETAIL_SPREAD * nz, -1.0, 1.0);
        detail = amp * nz * (a / (a + 2.0 * amp));
    }

    out->height_m = bed + detail;
    out->has_water = (wet_weight > 0.0 && above + detail <= 0.0) ? 1 : 0;
    out->water_m = out->has_water ? level : 0.0;
    out->water_body = out->has_water ? (int)body[dom] : -1;
    out->mask = mask;

    if (need_moisture || !out->has_water) {
        /* Wetter next to water, drier far inland; moisture_bias shifts all. */
        double mo = 0.5 + 0.9 * moist + cfg->moisture_bias + 0.15 * (1.0 - ct__smoothstep(0.0, 3.0, shore));
        out->moisture = ct__clamp(mo, 0.0, 1.0);
    } else {
        out->moisture = 0.0;
    }

    bi.has_water = out->has_water;
    bi.height_m = out->height_m;
    bi.above_shore_m = above + detail;
    bi.depth_m = out->has_water ? level - out->height_m : 0.0;
    bi.shore_hops = shore;
    bi.moisture = out->moisture;
    bi.latitude2 = dir[1] * dir[1];
    /* Shading jitter: the two coarsest detail octaves, a smooth field, so
     * shades vary within a chunk without salt-and-pepper pixels. */
    bi.jitter = coarse * 1.6;
    out->biome = ct__biome_classify(cfg, &bi, &shade);
    out->material = ct__biome_material(out->biome);
    out->palette_index = out->biome * CT_SHADES_PER_BIOME + shade;
}

ct_result ct_world_sample(const ct_world *world, const double dir[3], ct_sample *out,
                          char *err, size_t errlen)
{
    if (!world || !dir || !out)
        return ct__fail(err, errlen, CT_ERR_NULL, "world, direction or output is NULL");
    if (!ct__is_finite(dir[0]) || !ct__is_finite(dir[1]) || !ct__is_finite(dir[2]))
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "direction has a NaN or infinite component");
    if (dir[0] == 0.0 && dir[1] == 0.0 && dir[2] == 0.0)
        return ct__fail(err, errlen, CT_ERR_DIRECTION, "direction is the zero vector");
    ct__sample_dir(world, dir, 1, out);
    return CT_OK;
}

/* ------------------------------------------------------ derived shore reference */

/* Adds b to a's neighbour list unless present. Edges along cube seams are
 * seen from both faces; the check removes the duplicate. */
static int ct__adj_add(uint32_t *nbr, uint8_t *cnt, uint32_t a, uint32_t b)
{
    int k;
    for (k = 0; k < cnt[a]; k++)
        if (nbr[4u * a + (uint32_t)k] == b) return 1;
    if (cnt[a] >= 4) return 0;
    nbr[4u * a + cnt[a]] = b;
    cnt[a]++;
    return 1;
}

size_t ct__world_bytes(const ct_world *w)
{
    /* Graph tables, the frozen field and the derived arrays (dir_v 3 doubles,
     * height and water level, body, mask + 4 region weights + shore floats,
     * shore reference and moisture). */
    size_t V = w->vertex_count, n1 = (size_t)w->n + 1u;
    return sizeof *w + sizeof(uint32_t) * 6u * n1 * n1 +
           V * (3u * sizeof(double) + 2u * sizeof(double) + sizeof(int32_t) + 6u * sizeof(float) +
                2u * sizeof(double));
}

ct_result ct__derive_sampling(ct_world *w, char *err, size_t errlen)
{
    uint32_t n, V, f, i, j, head = 0, tail = 0, q;
    uint32_t *nbr = NULL, *queue = NULL;
    int32_t *dist = NULL;
    uint8_t *cnt = NULL;
    double *ref = NULL, *moist;
    ct_result r = CT_OK;

    if (!w || !w->vertex_fij || !w->body_v || !w->water_level_v)
        return ct__fail(err, errlen, CT_ERR_NULL, "world field is missing");
    n = w->n;
    V = w->vertex_count;
    nbr = (uint32_t *)malloc(sizeof *nbr * 4u * (size_t)V);
    cnt = (uint8_t *)calloc((size_t)V, 1);
    dist = (int32_t *)malloc(sizeof *dist * (size_t)V);
    queue = (uint32_t *)malloc(sizeof *queue * (size_t)V);
    ref = (double *)malloc(sizeof *ref * (size_t)V);
    if (!nbr || !cnt || !dist || !queue || !ref) {
        r = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving the shore reference");
        goto done;
    }
    /* Graph edges are the grid edges of every face (shared seam vertices
     * already have one index in vertex_fij). */
    for (f = 0; f < 6; f++) {
        for (j = 0; j <= n; j++) {
            for (i = 0; i <= n; i++) {
                uint32_t a = w->vertex_fij[CT__FIJ(n, f, i, j)];
                uint32_t b;
                if (i < n) {
                    b = w->vertex_fij[CT__FIJ(n, f, i + 1u, j)];
                    if (!ct__adj_add(nbr, cnt, a, b) || !ct__adj_add(nbr, cnt, b, a)) goto bad;
                }
                if (j < n) {
                    b = w->vertex_fij[CT__FIJ(n, f, i, j + 1u)];
                    if (!ct__adj_add(nbr, cnt, a, b) || !ct__adj_add(nbr, cnt, b, a)) goto bad;
                }
            }
        }
    }
    /* Multi-source BFS from every water vertex (in index order). */
    for (q = 0; q < V; q++) {
        if (w->body_v[q] >= 0) {
            dist[q] = 0;
            ref[q] = w->water_level_v[q];
            queue[tail++] = q;
        } else {
            dist[q] = -1;
            ref[q] = 0.0;
        }
    }
    while (head < tail) {
        uint32_t a = queue[head++];
        int k;
        for (k = 0; k < cnt[a]; k++) {
            uint32_t b = nbr[4u * a + (uint32_t)k];
            if (dist[b] < 0) {
                dist[b] = dist[a] + 1;
                queue[tail++] = b;
            }
        }
    }
    /* Queue order has non-decreasing distance, so each land vertex can take
     * the highest reference among its neighbours one hop nearer the water:
     * independent of which of them the BFS happened to reach first. */
    for (q = 0; q < tail; q++) {
        uint32_t a = queue[q];
        int k, first = 1;
        if (dist[a] == 0) continue;
        for (k = 0; k < cnt[a]; k++) {
            uint32_t b = nbr[4u * a + (uint32_t)k];
            if (dist[b] == dist[a] - 1 && (first || ref[b] > ref[a])) {
                ref[a] = ref[b];
                first = 0;
            }
        }
    }
    free(w->shore_ref_v);
    w->shore_ref_v = ref;
    ref = NULL;
    /* Moisture is a low-frequency field: evaluate it once per vertex. */
    moist = (double *)malloc(sizeof *moist * (size_t)V);
    if (!moist) {
        r = ct__fail(err, errlen, CT_ERR_MEMORY, "out of memory deriving moisture");
        goto done;
    }
    for (q = 0; q < V; q++)
        moist[q] = ct__fbm3(ct__subseed(w->cfg.seed, CT_SALT_MOISTURE), &w->dir_v[3u * (size_t)q],
                            w->cfg.moisture_frequency, 4, 2.0, 0.5);
    free(w->moisture_v);
    w->moisture_v = moist;
    goto done;
bad:
    r = ct__fail(err, errlen, CT_ERR_CONFIG, "macro graph has a vertex with more than 4 neighbours");
done:
    free(nbr);
    free(cnt);
    free(dist);
    free(queue);
    free(ref);
    return r;
}
