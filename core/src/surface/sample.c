/* sample.c - point samples of the frozen field, in four named steps:
 * cell lookup (ct__sample_cell: the macro cell under a direction), interpolation
 * (ct__sample_blend: the four corners with shoreline-aware triangle splits),
 * detail (ct__detail_amp / ct__detail_finish: globally addressed fine noise on
 * land) and classification (ct__sample_classify: water, moisture, biome,
 * palette). ct_world_sample (ct__sample_dir) and ct_chunk_generate (a
 * ct__sampler, four samples of a row at a time) run the same steps with the
 * same operations per sample, so the space view and every chunk at every LOD
 * agree bit for bit: the value at a direction never depends on who asked. */
#include "surface/ct_surface.h"
#include "layers/ct_coast.h"
#include "layers/ct_ranges.h"
#include "base/ct_v2.h"

#include <math.h>

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
/* Weight of the detail: |a| / (|a| + CT__DETAIL_FADE * amp). With 2 the
 * detail stays under |a| / 2, so it never reaches the shore reference. */
#define CT__DETAIL_FADE 2.0
/* Octaves of the detail loop that also give the shading jitter: the two
 * coarsest (about 50 and 25 km at the default frequency) are smooth inside a
 * chunk, so shades vary without salt-and-pepper pixels. */
#define CT__JITTER_OCTAVES 2
/* The jitter's spread: the normalised two-octave sum rarely leaves about
 * +-0.6, so 1.6 stretches it to roughly [-1,1], the unit biome.c scales its
 * shade offsets by (shades are clamped there). */
#define CT__JITTER_SPREAD 1.6
/* Moisture: 0.5 + CT__MOIST_FIELD * field + bias + a CT__MOIST_SHORE bonus
 * that fades over CT__MOIST_SHORE_HOPS macro hops from the water. The field
 * is normalised fBm, narrow around 0, so 0.9 spreads it over much of [0,1];
 * the shore bonus keeps coasts greener than dry interiors. */
#define CT__MOIST_FIELD 0.9
#define CT__MOIST_SHORE 0.15
#define CT__MOIST_SHORE_HOPS 3.0

/* The macro cell under a direction and its four corners. */
typedef struct ct__cell {
    double s, t;          /* position inside the cell, [0,1] along i and j */
    const ct__corners *k; /* the corners (cached per cell by the sampler) */
} ct__cell;

/* The cell's corners blended at (s,t). */
typedef struct ct__blend {
    double wt[4];         /* corner weights */
    double bed;           /* macro bed height (m) */
    double above;         /* bed minus the water level / shore reference (m) */
    double mask, shore, moist, wet_weight;
    double wet_depth;     /* the water corners' weighted depth below their levels (m) */
    int dom;              /* corner naming the water body, -1 if no water corner */
    double level;         /* that body's level (m) */
    /* For the coast layer (coast.c): the land corners' weight, weighted
     * height and height above their shore reference, and the weight of the
     * shore pins (land corners next to water). */
    double land_w, land_h, land_above, pin_w;
    double belt;          /* mountain-belt weight (ranges layer), 0 without it */
} ct__blend;

/* Everything about a macro cell that does not depend on where in the cell a
 * sample lies: its corners' indices, bodies, split and field values, read
 * (and widened to double, which is exact) once per cell instead of once per
 * sample. A chunk at surface_lod spans one or a few cells. */
static void ct__corners_load(const ct__field *w, int want_slope, int face, uint32_t i, uint32_t j, ct__corners *k)
{
    const double *dir[4];
    uint32_t n = w->n;
    int q, r;
    k->face = face;
    k->i = i;
    k->j = j;
    k->idx[0] = w->vertex_fij[CT__FIJ(n, face, i, j)];
    k->idx[1] = w->vertex_fij[CT__FIJ(n, face, i + 1u, j)];
    k->idx[2] = w->vertex_fij[CT__FIJ(n, face, i, j + 1u)];
    k->idx[3] = w->vertex_fij[CT__FIJ(n, face, i + 1u, j + 1u)];
    for (q = 0; q < 4; q++) {
        uint32_t v = k->idx[q];
        k->body[q] = w->body_v[v];
        k->h[q] = w->height_v[v];
        k->level[q] = w->water_level_v[v];
        k->own[q] = w->shore_ref_v ? w->shore_ref_v[v] : 0.0;
        k->mask[q] = (double)w->mask_v[v];
        k->shore[q] = (double)w->shore_v[v];
        k->pin[q] = w->shore_v[v] == 1.0f;
        k->moist[q] = w->moisture_v ? w->moisture_v[v] : 0.0;
        k->belt[q] = w->belt_v ? (double)w->belt_v[v] : 0.0;
        for (r = 0; r < CT_REGION_COUNT; r++) k->rw[q][r] = (double)w->region_w_v[4u * v + (uint32_t)r];
        dir[q] = &w->dir_v[3u * (size_t)v];
    }
    if (want_slope) ct__macro_gradient_prepare(dir, w->cfg.radius_m, &k->grad);
    k->split = ct__cell_split(k->body);
    k->river_cell = CT__RIVER_CELL(n, face, i, j);
    k->river = w->rivers && ct__river_cell_has(w->rivers, k->river_cell);
    k->any_wet = k->body[0] >= 0 || k->body[1] >= 0 || k->body[2] >= 0 || k->body[3] >= 0;
    k->sealed = 1;
    for (q = 0; q < 4; q++)
        if (!(k->body[q] >= 0 && k->h[q] - k->level[q] <= 0.0)) k->sealed = 0;
}

/* Cell lookup: the same face coordinate the chunk grid uses, scaled to n.
 * The corners come from the sampler's cache when the cell is the last one. */
static void ct__sample_cell(ct__sampler *sp, ct__corners *slot, const double dir[3], ct__cell *c)
{
    const ct__field *w = sp->w;
    uint32_t n = w->n, i, j;
    int face;
    double u, v, gx, gy;
    ct__cube_from_dir(dir, &face, &u, &v);
    gx = (u + 1.0) * 0.5 * (double)n;
    gy = (v + 1.0) * 0.5 * (double)n;
    i = (uint32_t)floor(gx);
    j = (uint32_t)floor(gy);
    if (i >= n) i = n - 1u;
    if (j >= n) j = n - 1u;
    c->s = gx - (double)i;
    c->t = gy - (double)j;
    if (slot->face != face || slot->i != i || slot->j != j) ct__corners_load(w, sp->want_grad, face, i, j, slot);
    c->k = slot;
}

/* The blend's start: every field zero, the weights, and the water body:
 * the strongest water corner names the body and its level; all water
 * corners of one triangle belong to one body (the saddle split guarantees
 * it), so lakes stay exactly flat. */
static void ct__blend_start(const ct__cell *c, ct__blend *b)
{
    const ct__corners *kc = c->k;
    const double *wt = b->wt;
    int k;
    b->bed = b->above = b->mask = b->shore = b->moist = b->wet_weight = b->belt = 0.0;
    b->land_w = b->land_h = b->land_above = b->pin_w = 0.0;
    b->dom = -1;
    b->level = 0.0;
    b->wet_depth = 0.0;
    ct__cell_weights(kc->split, c->s, c->t, b->wt);
    if (kc->any_wet) {
        for (k = 0; k < 4; k++) {
            if (wt[k] == 0.0 || kc->body[k] < 0) continue;
            b->wet_weight += wt[k];
            b->wet_depth += wt[k] * (kc->level[k] - kc->h[k]);
            if (b->dom < 0 || wt[k] > wt[b->dom]) b->dom = k;
        }
        if (b->dom >= 0) b->level = kc->level[b->dom];
    }
}

/* Interpolation: the corners weighted by the shoreline-aware split. The
 * region weights are not blended here: only the coast layer and region
 * profiles at non-zero strength read them (ct__blend_regions). */
static void ct__sample_blend(const ct__sampler *sp, const ct__cell *c, ct__blend *b)
{
    const ct__corners *kc = c->k;
    const double *wt = b->wt;
    int k;
    ct__blend_start(c, b);
    for (k = 0; k < 4; k++) {
        double h = kc->h[k], ref;
        if (wt[k] == 0.0) continue;
        if (kc->body[k] >= 0) {
            ref = kc->level[k];
        } else if (b->dom >= 0 && sp->own_levels) {
            /* Land next to this triangle's water measures itself against
             * that water: a dam between two lakes (at the higher level) is
             * above the lower one, so the shore runs between them. With
             * tied levels (the reference rule) this equals shore_ref_v. */
            ref = b->level;
        } else {
            ref = kc->own[k];
        }
        if (kc->body[k] < 0) {
            b->land_w += wt[k];
            b->land_h += wt[k] * h;
            b->land_above += wt[k] * (h - kc->own[k]);
            if (kc->pin[k]) b->pin_w += wt[k];
        }
        b->bed += wt[k] * h;
        b->above += wt[k] * (h - ref);
        if (sp->want_mask) b->mask += wt[k] * kc->mask[k];
        b->shore += wt[k] * kc->shore[k];
        b->moist += wt[k] * kc->moist[k];
        b->belt += wt[k] * kc->belt[k];
    }
}

/* ct__sample_blend in a sealed cell, water fields only: bed and above take
 * the same terms in the same order (ref is the corner's own level, every
 * corner being water); the land, shore, moisture and belt blends stay 0
 * (ct__sampler_sealed4 says why nothing reads them). */
static void ct__sample_blend_sealed(const ct__cell *c, ct__blend *b)
{
    const ct__corners *kc = c->k;
    const double *wt = b->wt;
    int k;
    ct__blend_start(c, b);
    for (k = 0; k < 4; k++) {
        if (wt[k] == 0.0) continue;
        b->bed += wt[k] * kc->h[k];
        b->above += wt[k] * (kc->h[k] - kc->level[k]);
    }
}

/* The region weights at the sample, blended like the other fields. */
static void ct__blend_regions(const ct__cell *c, const ct__blend *b, double rw[CT_REGION_COUNT])
{
    int k, r;
    for (r = 0; r < CT_REGION_COUNT; r++) rw[r] = 0.0;
    for (k = 0; k < 4; k++) {
        if (b->wt[k] == 0.0) continue;
        for (r = 0; r < CT_REGION_COUNT; r++) rw[r] += b->wt[k] * c->k->rw[k][r];
    }
}

/* Detail: fine noise, globally addressed by the direction, on land only.
 * Its weight |a| / (|a| + 2 amp) keeps |detail| < |a| / 2, where a is the
 * height above the shore reference: the sign of a (land or water) never
 * flips, so the noise cannot invent a coastline, and it fades to zero at the
 * shore. In two halves around the fBm, so that a row runs it four samples at
 * a time: ct__detail_amp gives the amplitude and the octaves to run,
 * ct__detail_finish the detail from the fBm, and *jitter the shading jitter
 * from the loop's first octaves. */
static double ct__detail_amp(const ct__sampler *sp, const ct__cell *c, const ct__blend *b, int *octaves_run)
{
    const ct_config *cfg = &sp->w->cfg;
    double amp, roughness = 1.0;
    /* At region_strength 0 the effective roughness is 1 + 0 (r - 1) = 1
     * exactly, so the region weights are not needed. */
    if (cfg->region_strength != 0.0) {
        ct_region_info region;
        double rw[CT_REGION_COUNT];
        ct__blend_regions(c, b, rw);
        ct__region_effective(cfg, rw, &region);
        roughness = region.roughness;
    }
    /* High ground is rougher: the amplitude grows with the height above the
     * shore, which the weight below still keeps under |a| / 2. */
    amp = (cfg->detail_amplitude_m + (b->above > 0.0 ? cfg->detail_height_gain * b->above : 0.0)) * roughness;
    if (cfg->mode == CT_MODE_WALK) amp = 0.0;   /* walk mode shows the contour process alone */
    /* Detail is land relief (the knob's contract): the sea and lake beds
     * keep the macro field. One loop gives the detail octaves and, from its
     * first two, the shading jitter; elsewhere only those two run. */
    *octaves_run = (amp > 0.0 && b->above > 0.0) ? (int)cfg->detail_octaves : 0;
    return amp;
}

static double ct__detail_finish(const ct__blend *b, double amp, int octaves_run, double nz, double coarse,
                                double *jitter)
{
    double detail = 0.0;
    if (octaves_run > 0) {
        double a = fabs(b->above);
        nz = ct__clamp(CT__DETAIL_SPREAD * nz, -1.0, 1.0);
        detail = amp * nz * (a / (a + CT__DETAIL_FADE * amp));
    }
    *jitter = coarse * CT__JITTER_SPREAD;
    return detail;
}

/* Ranges (ranges.c): ridges and valleys on land, added to the detail, and,
 * when the biome rules use the slope, the ranges' part of its gradient in
 * g[3] (ct__sample_slope adds the macro part). Both are exactly 0 with the
 * layer off. */
static double ct__sample_ranges(const ct__sampler *sp, const ct__blend *b, const double dir[3], double g[3])
{
    const ct_config *cfg = &sp->w->cfg;
    return ct__ranges_at(cfg, dir, b->belt, b->above, sp->want_grad ? g : NULL);
}

/* Fine relief (fine_relief.c, relief_pyramid.c) on the land height after detail
 * and ranges; its gullies follow the slope of macro + ranges. Not called with
 * the layer off. */
static void ct__ground_coarse_of(const ct__sampler *sp, const ct__cell *c, const ct__blend *b, const double g[3],
                                 ct__gcoarse *gc)
{
    int k;
    ct__macro_gradient_at(&c->k->grad, c->k->h, c->s, c->t, gc->grad);
    for (k = 0; k < 3; k++) gc->grad[k] += g[k];
    gc->moisture = 0.5 + CT__MOIST_FIELD * b->moist + sp->w->cfg.moisture_bias;
}

static void ct__sample_coast(const ct__sampler *sp, const ct__cell *c, const double dir[3], ct__blend *b);

void ct__sampler_coarse(void *ctx, const double dir[3], ct__gcoarse *out)
{
    ct__sampler *sp = (ct__sampler *)ctx;
    ct__cell c;
    ct__blend b;
    double g[3] = {0.0, 0.0, 0.0};
    ct__sample_cell(sp, &sp->cell[CT__SLOT_COARSE], dir, &c);
    ct__sample_blend(sp, &c, &b);
    if (sp->coast_on) ct__sample_coast(sp, &c, dir, &b);
    if (sp->ranges_on) (void)ct__sample_ranges(sp, &b, dir, g);
    ct__ground_coarse_of(sp, &c, &b, g, out);
}

/* A chunk sample on a cube edge that another face owns takes that face's
 * value (ct__ground_point), as every chunk holding it does. */
static int ct__foreign_edge(const ct__sampler *sp, int lane, const double dir[3])
{
    int64_t last = (int64_t)CT_CHUNK_CORE << sp->chunk_lod, x = sp->lane_gx[lane], y = sp->lane_gy;
    int face;
    double u, v;
    if (x != 0 && x != last && y != 0 && y != last) return 0;
    ct__cube_from_dir(dir, &face, &u, &v);
    return face != sp->chunk_face;
}

/* How a sample's relief is found: from the chunk's pyramid, from a chain of
 * every octave at the sample (a chunk at or above the first octave's
 * level, whose samples are nodes of all of them), or as any direction. */
enum { CT__RELIEF_POINT = 0, CT__RELIEF_PYRAMID, CT__RELIEF_CHAIN };
static int ct__relief_way(const ct__sampler *sp, int lane, const double dir[3])
{
    if (!sp->pyr && !sp->chunk_chain) return CT__RELIEF_POINT;
    if (ct__foreign_edge(sp, lane, dir)) return CT__RELIEF_POINT;
    return sp->pyr ? CT__RELIEF_PYRAMID : CT__RELIEF_CHAIN;
}

/* The relief (before ct__ground_finish) of one lane found its way. */
static double ct__relief_one(ct__sampler *sp, int lane, int way, const double dir[3], const ct__gcoarse *gc)
{
    if (way == CT__RELIEF_PYRAMID) return ct__gpyr_at(sp->pyr, sp->lane_gx[lane], sp->lane_gy);
    if (way == CT__RELIEF_CHAIN)
        return ct__ground_chain(&sp->ground, sp->chunk_face, sp->chunk_lod, sp->lane_gx[lane], sp->lane_gy, gc);
    return ct__ground_point(&sp->ground, dir, gc, ct__sampler_coarse, sp);
}

static double ct__sample_ground(ct__sampler *sp, int lane, const ct__cell *c, const ct__blend *b, const double dir[3],
                                double detail, const double g[3])
{
    double above = b->above + detail;
    ct__gcoarse gc;
    int way;
    if (!(above > 0.0)) return 0.0;   /* sea and lake beds keep their field */
    way = ct__relief_way(sp, lane, dir);
    if (way != CT__RELIEF_PYRAMID) ct__ground_coarse_of(sp, c, b, g, &gc);
    return ct__ground_finish(&sp->ground, ct__relief_one(sp, lane, way, dir, &gc), above);
}

/* The slope (m per m) of macro + ranges: the ranges' gradient g plus the
 * bilinear gradient of the cell, even in split cells (a pure function of the
 * direction either way). Only land samples read it (biome.c). When pole is
 * not NULL it receives the part of the slope that falls towards the nearer
 * pole (biome_edges.c's aspect; 0 on the equator). */
static double ct__sample_slope(const ct__cell *c, const double g[3], const double dir[3], double *pole)
{
    double gm[3], t[3], y = dir[1], across;
    int k;
    ct__macro_gradient_at(&c->k->grad, c->k->h, c->s, c->t, gm);
    for (k = 0; k < 3; k++) t[k] = g[k] + gm[k];
    if (pole) {
        /* The pole axis Y less its part along dir, |.| = sqrt(1 - y^2);
         * the uphill gradient pointing away from the pole is ground that
         * faces it. */
        across = 1.0 - y * y;
        *pole = (y == 0.0 || !(across > 1e-12)) ? 0.0
                : -(y > 0.0 ? 1.0 : -1.0) * (t[1] - y * ct__dot3(t, dir)) / sqrt(across);
    }
    return sqrt(ct__dot3(t, t));
}

/* Rivers (rivers.c): on land in a cell with a river within reach, the
 * channel and valley carved into the land after fine relief (returned to be
 * added to the detail) and the river water and bank moisture in *rh, which
 * classification reads. 0 and no river elsewhere, so the layer off (or far
 * from rivers) leaves every sample as it was. */
static double ct__sample_river(ct__sampler *sp, int lane, const ct__cell *c, const ct__blend *b, const double dir[3],
                               double detail, ct__river_hit *rh)
{
    rh->wet = 0;
    rh->moisture = 0.0;
    if (!sp->rivers || !c->k->river || !(b->above + detail > 0.0)) return 0.0;
    ct__river_at(sp->rivers, c->k->river_cell, dir, b->bed + detail, sp->skips ? &sp->river_memo[lane] : NULL, rh);
    return rh->carve_m;
}

/* Classification: water or land, moisture, biome and palette entry. */
static void ct__sample_classify(const ct__sampler *sp, const ct__cell *c, const ct__blend *b, const double dir[3],
                                double detail, double jitter, const double g[3], int need_moisture,
                                const ct__river_hit *rh, const double *edge, ct_sample *out)
{
    const ct_config *cfg = &sp->w->cfg;
    ct__biome_in bi;
    int shade;
    out->height_m = b->bed + detail;
    out->has_water = (b->wet_weight > 0.0 && b->above + detail <= 0.0) ? 1 : 0;
    if (sp->edits && !out->has_water && !rh->wet) {
        /* Edits move land only, measured against the shore reference the
         * sampler measures heights above (layers/edits.c). */
        double h = ct__edits_height(sp->edits, sp->edit_ids, sp->edit_n, dir, out->height_m, b->bed - b->above);
        detail += h - out->height_m;
        out->height_m = h;
    }
    out->water_m = out->has_water ? b->level : 0.0;
    out->water_body = out->has_water ? (int)c->k->body[b->dom] : -1;
    out->mask = b->mask;
    if (!out->has_water && rh->wet) {
        out->has_water = 1;
        out->water_m = rh->surface_m;
        out->water_body = CT_WATER_RIVER;
    }

    if (need_moisture || !out->has_water) {
        /* Wetter next to water, drier far inland; moisture_bias shifts all. */
        double mo = 0.5 + CT__MOIST_FIELD * b->moist + cfg->moisture_bias +
                    CT__MOIST_SHORE * (1.0 - ct__smoothstep(0.0, CT__MOIST_SHORE_HOPS, b->shore)) + rh->moisture;
        out->moisture = ct__clamp(mo, 0.0, 1.0);
    } else {
        out->moisture = 0.0;
    }

    bi.has_water = out->has_water;
    bi.height_m = out->height_m;
    bi.above_shore_m = b->above + detail;
    bi.depth_m = out->has_water ? b->level - out->height_m : 0.0;
    bi.shore_hops = b->shore;
    bi.moisture = out->moisture;
    bi.latitude2 = dir[1] * dir[1];
    bi.jitter = jitter;
    bi.pole_slope = 0.0;
    bi.slope = sp->want_slope && !out->has_water
                   ? ct__sample_slope(c, g, dir, sp->edge_octaves > 0 ? &bi.pole_slope : NULL) : 0.0;
    /* The edge noise: from the caller's four lanes (edge), or here. */
    bi.edge = 0.0;
    if (sp->edge_octaves > 0 && !out->has_water)
        bi.edge = edge ? *edge : ct__biome_edge_noise(sp->edge_seed, sp->edge_octaves, dir);
    out->biome = ct__biome_classify(cfg, &bi, &shade);
    out->material = ct__biome_material(out->biome);
    out->palette_index = out->biome * CT_SHADES_PER_BIOME + shade;
}

/* The coast layer (coast.c) turns the blend into what it means on the refined
 * shore, then detail and classification run as usual on that:
 *   - a triangle with land and water corners is split by the refined shore
 *     coordinate S'. Water keeps the interpolated bed, capped at the level
 *     (a dam corner may stand above it). Land stands on its land corners'
 *     height plus the ramp, and the detail sees the ramp as height above the
 *     shore, so land is never below the water next to it;
 *   - a dry triangle gets the ramp through its pins' weight, which equals
 *     the mixed triangle's full ramp on their shared land-land edge;
 *   - an all-water triangle is left as it is. */
/* A triangle with land and water corners: its refined shore decides. */
static int ct__coast_mixed(const ct__blend *b)
{
    return b->wet_weight > 0.0 && b->land_w > 0.0;
}

/* The coast roughness at the sample: region weights at full strength. */
static double ct__sample_coast_roughness(const ct__sampler *sp, const ct__cell *c, const ct__blend *b)
{
    double rw[CT_REGION_COUNT];
    ct__blend_regions(c, b, rw);
    return ct__coast_roughness(&sp->w->cfg, rw);
}

/* Applies the refined shore coordinate (read only in a mixed triangle). */
static void ct__coast_apply(const ct__sampler *sp, double shore, ct__blend *b)
{
    double ramp_m = sp->w->cfg.shore_ramp_m;
    if (ct__coast_mixed(b)) {
        if (shore <= 0.0) {
            /* The bed falls away from the shore as the land rises from it
             * (the ramp mirrored), at most to the water corners' own depth so
             * it meets the all-water triangles beside it without a step.
             * Capped at the level alone, the water between the refined shore
             * and the interpolated bed's zero line lay 0-25 m deep across
             * whole macro triangles, flat shelves drawn as bright wedges. */
            double sink = ramp_m * ct__coast_ramp(-shore), deep = b->wet_depth / b->wet_weight;
            if (sink > deep) sink = deep;
            if (!(sink > 0.0)) sink = 0.0;
            if (b->bed > b->level - sink) b->bed = b->level - sink;
            b->above = b->bed - b->level;
        } else {
            double lift = ramp_m * ct__coast_ramp(shore);
            b->bed = b->land_h / b->land_w + lift;
            b->above = b->land_above / b->land_w + lift;
            b->wet_weight = 0.0;
        }
    } else if (b->wet_weight == 0.0) {
        b->bed += ramp_m * b->pin_w;
        b->above += ramp_m * b->pin_w;
    }
}

static void ct__sample_coast(const ct__sampler *sp, const ct__cell *c, const double dir[3], ct__blend *b)
{
    double shore = 0.0;
    if (ct__coast_mixed(b))
        shore = ct__coast_shore_at(&sp->coast, dir, b->wet_weight, ct__sample_coast_roughness(sp, c, b));
    ct__coast_apply(sp, shore, b);
}

void ct__sampler_init(ct__sampler *sp, const ct__field *w, int want_mask)
{
    const ct_config *cfg = &w->cfg;
    int k;
    sp->w = w;
    for (k = 0; k < CT__SAMPLER_SLOTS; k++) sp->cell[k].face = -1;   /* no cell cached yet */
    sp->want_mask = want_mask;
    sp->own_levels = cfg->lake_own_levels != 0;
    sp->coast_on = ct__coast_on(cfg);
    sp->want_slope = cfg->rock_slope > 0.0;
    ct__ground_prepare(cfg, &sp->ground);
    sp->want_grad = sp->want_slope || sp->ground.octaves > 0;
    sp->ranges_on = ct__ranges_on(cfg) || sp->want_grad;
    sp->detail_seed = ct__subseed(cfg->seed, CT_SALT_DETAIL);
    sp->edge_seed = ct__subseed(cfg->seed, CT_SALT_BIOME_EDGE);
    sp->edge_octaves = ct__biome_edge_octaves(cfg);
    sp->rivers = w->rivers;
    for (k = 0; k < CT__RANGES_MEMO; k++) sp->ranges_memo[k].valid = 0;
    for (k = 0; k < CT__FAST_MEMO; k++) sp->detail_memo[k].valid = 0;
    for (k = 0; k < CT__COAST_MAX_OCTAVES; k++) sp->coast_memo[k].valid = 0;
    for (k = 0; k < CT__FAST_MEMO; k++) sp->edge_memo[k].valid = 0;
    if (sp->coast_on) ct__coast_prepare(cfg, &sp->coast);
    sp->skips = 1;
    sp->skip_counts = NULL;
    sp->sealed_groups = 0;
    for (k = 0; k < CT__SAMPLER_SLOTS; k++) ct__river_memo_reset(&sp->river_memo[k]);
    sp->pyr = NULL;
    ct__streams_prepare(cfg, &sp->streams);
    sp->streams_memo = NULL;
    sp->streams_no_heap = 0;
    sp->chunk_chain = 0;
    sp->chunk_face = sp->chunk_lod = 0;
    for (k = 0; k < CT__SAMPLER_SLOTS; k++) sp->lane_gx[k] = 0;
    sp->lane_gy = 0;
    sp->edits = w->edits;   /* NULL for an unedited world */
    sp->edit_ids = NULL;
    sp->edit_n = 0;
}

void ct__sampler_release(ct__sampler *sp)
{
    ct__streams_memo_free(sp->streams_memo);
    sp->streams_memo = NULL;
}

void ct__sampler_finish(ct__sampler *sp)
{
    int k;
    if (!sp->skip_counts) return;
    sp->skip_counts[CT__SKIP_SEALED] += sp->sealed_groups;
    for (k = 0; k < CT__SAMPLER_SLOTS; k++) sp->skip_counts[CT__SKIP_RIVER] += sp->river_memo[k].skipped;
}

/* One sample between the stages before and after the detail fBm. */
typedef struct ct__pending {
    double dir[3];
    ct__cell cell;
    ct__blend blend;
    double amp;
    int octaves;
} ct__pending;

/* ct__sample_ground for four lanes: land lanes that go the same way in
 * pairs (their octaves in vector lanes), the rest one by one; the same bits
 * per lane. */
static void ct__sample_ground4(ct__sampler *sp, const ct__pending q[4], const double g[12], double detail[4])
{
    ct__gcoarse gc[4];
    double relief[4];
    int way[4], land[4], k, w;
    for (k = 0; k < 4; k++) {
        land[k] = q[k].blend.above + detail[k] > 0.0;
        if (!land[k]) continue;
        way[k] = ct__relief_way(sp, k, q[k].dir);
        /* the pyramid's nodes have their own coarse inputs */
        if (way[k] != CT__RELIEF_PYRAMID) ct__ground_coarse_of(sp, &q[k].cell, &q[k].blend, g + 3 * k, &gc[k]);
    }
    for (w = CT__RELIEF_PYRAMID; w <= CT__RELIEF_CHAIN; w++) {
        int pick[4], n = 0, i;
        for (k = 0; k < 4; k++)
            if (land[k] && way[k] == w) pick[n++] = k;
        for (i = 0; i + 1 < n; i += 2) {
            int a = pick[i], b = pick[i + 1];
            int64_t x[2];
            double r[2];
            ct__gcoarse c2[2];
            x[0] = sp->lane_gx[a];
            x[1] = sp->lane_gx[b];
            if (w == CT__RELIEF_PYRAMID) {
                ct__gpyr_at2(sp->pyr, x, sp->lane_gy, r);
            } else {
                c2[0] = gc[a];
                c2[1] = gc[b];
                ct__ground_chain2(&sp->ground, sp->chunk_face, sp->chunk_lod, x, sp->lane_gy, c2, r);
            }
            relief[a] = r[0];
            relief[b] = r[1];
        }
        if (i < n) relief[pick[i]] = ct__relief_one(sp, pick[i], w, q[pick[i]].dir, &gc[pick[i]]);
    }
    for (k = 0; k < 4; k++) {
        if (!land[k]) {
            detail[k] += 0.0;   /* what ct__sample_ground returns there (a -0.0 detail becomes +0.0) */
            continue;
        }
        if (way[k] == CT__RELIEF_POINT) relief[k] = ct__relief_one(sp, k, CT__RELIEF_POINT, q[k].dir, &gc[k]);
        detail[k] += ct__ground_finish(&sp->ground, relief[k], q[k].blend.above + detail[k]);
    }
}

/* Up to the fBm: canonical direction, cell (cached in slot), blend, coast,
 * detail amplitude. */
static void ct__sample_front(ct__sampler *sp, ct__corners *slot, const double dir_in[3], ct__pending *q)
{
    ct__canonical_dir(dir_in, q->dir);
    ct__sample_cell(sp, slot, q->dir, &q->cell);
    ct__sample_blend(sp, &q->cell, &q->blend);
    if (sp->coast_on) ct__sample_coast(sp, &q->cell, q->dir, &q->blend);
    q->amp = ct__detail_amp(sp, &q->cell, &q->blend, &q->octaves);
}

/* Streams (streams.c): the ground their lattice links by, macro + detail +
 * ranges at a node (no fine relief), and the valleys carved after fine
 * relief. */
double ct__sampler_stream_height(void *ctx, const double dir[3], double *above_m)
{
    ct__sampler *sp = (ct__sampler *)ctx;
    const ct_config *cfg = &sp->w->cfg;
    ct__pending q;
    double nz, coarse, jitter, d;
    ct__sample_front(sp, &sp->cell[CT__SLOT_COARSE], dir, &q);
    nz = ct__fbm3_fast(sp->detail_seed, q.dir, cfg->detail_frequency, q.octaves, 2.0, cfg->detail_gain,
                       CT__JITTER_OCTAVES, &coarse);
    d = ct__detail_finish(&q.blend, q.amp, q.octaves, nz, coarse, &jitter);
    if (sp->ranges_on) d += ct__ranges_at(cfg, q.dir, q.blend.belt, q.blend.above, NULL);
    *above_m = q.blend.above + d;
    return q.blend.bed + d;
}

static double ct__sample_streams(ct__sampler *sp, const ct__pending *q, double detail)
{
    if (!sp->streams.on || !(q->blend.above + detail > 0.0)) return 0.0;   /* as ct__streams_at: water */
    if (!sp->streams_memo && !sp->streams_no_heap) {   /* the first land sample makes the memo */
        sp->streams_memo = ct__streams_memo_new();
        sp->streams_no_heap = sp->streams_memo == NULL;
    }
    return ct__streams_at(&sp->streams, sp->streams_memo, q->dir, q->blend.bed + detail, q->blend.above + detail,
                          ct__sampler_stream_height, sp);
}

/* After the fBm (nz, coarse): detail, ranges, classification. */
static void ct__sample_back(ct__sampler *sp, const ct__pending *q, double nz, double coarse, int need_moisture,
                            ct_sample *out)
{
    double detail, jitter, g[3] = {0.0, 0.0, 0.0};
    ct__river_hit rh;
    detail = ct__detail_finish(&q->blend, q->amp, q->octaves, nz, coarse, &jitter);
    if (sp->ranges_on) detail += ct__sample_ranges(sp, &q->blend, q->dir, g);
    if (sp->ground.octaves > 0) detail += ct__sample_ground(sp, CT__SLOT_SCALAR, &q->cell, &q->blend, q->dir, detail, g);
    detail += ct__sample_streams(sp, q, detail);
    detail += ct__sample_river(sp, CT__SLOT_SCALAR, &q->cell, &q->blend, q->dir, detail, &rh);
    ct__sample_classify(sp, &q->cell, &q->blend, q->dir, detail, jitter, g, need_moisture, &rh, NULL, out);
}

/* ct__sample_canonical of two directions, the divisions and the square root
 * in vector lanes (each correctly rounded per lane, so the same bits). */
static void ct__sample_canonical_x2(const double a_in[3], const double b_in[3], double a[3], double b[3])
{
    double ma = fabs(a_in[0]), mb = fabs(b_in[0]), s[2][3], t;
    ct__v2 m, d[3], len;
    int k, l;
    if (fabs(a_in[1]) > ma) ma = fabs(a_in[1]);
    if (fabs(a_in[2]) > ma) ma = fabs(a_in[2]);
    if (fabs(b_in[1]) > mb) mb = fabs(b_in[1]);
    if (fabs(b_in[2]) > mb) mb = fabs(b_in[2]);
    m = CT__V2(ma, mb);
    for (k = 0; k < 3; k++) {
        d[k] = CT__V2_DIV(CT__V2(a_in[k], b_in[k]), m);
        t = CT__V2_LO(d[k]);
        s[0][k] = t * t;
        t = CT__V2_HI(d[k]);
        s[1][k] = t * t;
    }
    /* ct__normalize_canonical: squares summed smallest first */
    for (l = 0; l < 2; l++) {
        if (s[l][0] > s[l][1]) { t = s[l][0]; s[l][0] = s[l][1]; s[l][1] = t; }
        if (s[l][1] > s[l][2]) { t = s[l][1]; s[l][1] = s[l][2]; s[l][2] = t; }
        if (s[l][0] > s[l][1]) { t = s[l][0]; s[l][0] = s[l][1]; s[l][1] = t; }
    }
    len = CT__V2_SQRT(CT__V2((s[0][0] + s[0][1]) + s[0][2], (s[1][0] + s[1][1]) + s[1][2]));
    for (k = 0; k < 3; k++) {
        ct__v2 r = CT__V2_DIV(d[k], len);
        a[k] = CT__V2_LO(r);
        b[k] = CT__V2_HI(r);
    }
}

/* The first steps of four lanes (canonical direction, cell), with their
 * directions packed in p for the lane noise. */
static void ct__sample_lane_cells(ct__sampler *sp, const double dir_in[12], ct__pending q[4], double p[12])
{
    int k;
    ct__sample_canonical_x2(dir_in, dir_in + 3, q[0].dir, q[1].dir);
    ct__sample_canonical_x2(dir_in + 6, dir_in + 9, q[2].dir, q[3].dir);
    for (k = 0; k < 4; k++) {
        ct__sample_cell(sp, &sp->cell[k], q[k].dir, &q[k].cell);
        p[3 * k] = q[k].dir[0];
        p[3 * k + 1] = q[k].dir[1];
        p[3 * k + 2] = q[k].dir[2];
    }
}

/* ct__sample_lane_cells, then the blends. */
static void ct__sample_lanes(ct__sampler *sp, const double dir_in[12], ct__pending q[4], double p[12])
{
    int k;
    ct__sample_lane_cells(sp, dir_in, q, p);
    for (k = 0; k < 4; k++) ct__sample_blend(sp, &q[k].cell, &q[k].blend);
}

/* Sealed water: four lanes whose cells are all sealed (ct__corners_load:
 * every corner water, its bed h at or below its level). Proof that the
 * land work may be skipped with the same bits:
 *   - all four corners wet, so ct__cell_split picks bilinear weights,
 *     products of s, t, 1 - s, 1 - t in [0,1]: every weight >= 0, one >= 1/4;
 *   - so wet_weight > 0, land_w = 0, and above = sum of w (h - level), each
 *     term a non-negative times a non-positive double (h - level <= 0 is
 *     exact in sign, as is every IEEE product and sum of such terms): above
 *     <= 0 at every sample of the cell, whatever s and t;
 *   - then the coast changes nothing (no land corner: not a mixed triangle;
 *     wet: no ramp), ct__detail_amp runs no octave (above <= 0), so detail is
 *     +0.0 and amp is never read; the ranges' amplitude is 0
 *     (ct__ranges_amp: above <= 0), ground relief and rivers need above +
 *     detail > 0, so each adds +0.0 and the gradient g stays 0;
 *   - the sample is water (wet_weight > 0, above + 0.0 <= 0), and with
 *     need_moisture 0 its classification reads neither the slope nor the
 *     moisture, shore, belt or mask blends, nor the river hit.
 * What is left: the water half of the blend, the two jitter octaves (the
 * water's shade reads them) and classification. Counted per group. */
static int ct__lanes_sealed(const ct__sampler *sp, const ct__pending q[4], int need_moisture)
{
    return sp->skips && !need_moisture && !sp->want_mask && q[0].cell.k->sealed && q[1].cell.k->sealed &&
           q[2].cell.k->sealed && q[3].cell.k->sealed;
}

static void ct__sampler_sealed4(ct__sampler *sp, ct__pending q[4], const double p[12], ct_sample out[4])
{
    static const int no_octaves[4] = {0, 0, 0, 0};
    const ct_config *cfg = &sp->w->cfg;
    double nz[4], coarse[4], g[3] = {0.0, 0.0, 0.0};
    ct__river_hit rh;
    int k;
    rh.carve_m = rh.surface_m = rh.moisture = 0.0;
    rh.wet = 0;
    for (k = 0; k < 4; k++) ct__sample_blend_sealed(&q[k].cell, &q[k].blend);
    ct__fbm3_fast_x4n_memo(sp->detail_memo, sp->detail_seed, p, cfg->detail_frequency, no_octaves, 2.0,
                           cfg->detail_gain, CT__JITTER_OCTAVES, nz, coarse);
    for (k = 0; k < 4; k++)
        ct__sample_classify(sp, &q[k].cell, &q[k].blend, q[k].dir, 0.0, coarse[k] * CT__JITTER_SPREAD, g, 0, &rh,
                            NULL, &out[k]);
    sp->sealed_groups++;
}

void ct__sampler_water4(ct__sampler *sp, const double dir_in[12], double level_m[4], int wet_out[4])
{
    ct__pending q[4];
    double p[12], wet[4], rough[4], shore[4];
    int mixed[4], any = 0, k;
    ct__sample_lanes(sp, dir_in, q, p);
    for (k = 0; k < 4; k++) {
        mixed[k] = sp->coast_on && ct__coast_mixed(&q[k].blend);
        wet[k] = q[k].blend.wet_weight;
        rough[k] = mixed[k] ? ct__sample_coast_roughness(sp, &q[k].cell, &q[k].blend) : 0.0;
        any |= mixed[k];
    }
    if (any) ct__coast_shore_x4(&sp->coast, sp->coast_memo, p, wet, rough, mixed, shore);
    for (k = 0; k < 4; k++) {
        if (sp->coast_on) ct__coast_apply(sp, mixed[k] ? shore[k] : 0.0, &q[k].blend);
        level_m[k] = q[k].blend.level;
        wet_out[k] = q[k].blend.wet_weight > 0.0 && q[k].blend.above <= 0.0;
    }
}

void ct__sampler_run(ct__sampler *sp, const double dir_in[3], int need_moisture, ct_sample *out)
{
    const ct_config *cfg = &sp->w->cfg;
    ct__pending q;
    double nz, coarse;
    ct__sample_front(sp, &sp->cell[CT__SLOT_SCALAR], dir_in, &q);
    nz = ct__fbm3_fast(sp->detail_seed, q.dir, cfg->detail_frequency, q.octaves, 2.0, cfg->detail_gain,
                       CT__JITTER_OCTAVES, &coarse);
    ct__sample_back(sp, &q, nz, coarse, need_moisture, out);
}

void ct__sampler_run4(ct__sampler *sp, const double dir_in[12], int need_moisture, ct_sample out[4])
{
    const ct_config *cfg = &sp->w->cfg;
    ct__pending q[4];
    double p[12], nz[4], coarse[4], detail[4], jitter[4], belt[4], above[4], ranges[4], g[12] = {0.0};
    double edge[4] = {0.0, 0.0, 0.0, 0.0};
    ct__river_hit hits[4];
    int octaves[4], dry[4], k;
    ct__sample_lane_cells(sp, dir_in, q, p);
    if (ct__lanes_sealed(sp, q, need_moisture)) {
        ct__sampler_sealed4(sp, q, p, out);
        return;
    }
    for (k = 0; k < 4; k++) ct__sample_blend(sp, &q[k].cell, &q[k].blend);
    if (sp->coast_on) {
        /* ct__sample_coast for the four lanes, the shore noise of the lanes
         * in shore triangles four at a time. */
        double wet[4], rough[4], shore[4];
        int mixed[4], any = 0;
        for (k = 0; k < 4; k++) {
            mixed[k] = ct__coast_mixed(&q[k].blend);
            wet[k] = q[k].blend.wet_weight;
            rough[k] = mixed[k] ? ct__sample_coast_roughness(sp, &q[k].cell, &q[k].blend) : 0.0;
            any |= mixed[k];
        }
        if (any) ct__coast_shore_x4(&sp->coast, sp->coast_memo, p, wet, rough, mixed, shore);
        for (k = 0; k < 4; k++) ct__coast_apply(sp, mixed[k] ? shore[k] : 0.0, &q[k].blend);
    }
    for (k = 0; k < 4; k++) q[k].amp = ct__detail_amp(sp, &q[k].cell, &q[k].blend, &octaves[k]);
    for (k = 0; k < 4; k++) q[k].octaves = octaves[k];
    ct__fbm3_fast_x4n_memo(sp->detail_memo, sp->detail_seed, p, cfg->detail_frequency, octaves, 2.0,
                           cfg->detail_gain, CT__JITTER_OCTAVES, nz, coarse);
    for (k = 0; k < 4; k++) {
        detail[k] = ct__detail_finish(&q[k].blend, q[k].amp, q[k].octaves, nz[k], coarse[k], &jitter[k]);
        belt[k] = q[k].blend.belt;
        above[k] = q[k].blend.above;
    }
    /* ct__sample_ranges for the four lanes, the ridged noise two at a time. */
    if (sp->ranges_on) ct__ranges_at_x4(cfg, sp->ranges_memo, p, belt, above, ranges, sp->want_grad ? g : NULL);
    if (sp->ranges_on)
        for (k = 0; k < 4; k++) detail[k] += ranges[k];
    if (sp->ground.octaves > 0) ct__sample_ground4(sp, q, g, detail);
    for (k = 0; k < 4; k++) {
        ct__river_hit rh;
        detail[k] += ct__sample_streams(sp, &q[k], detail[k]);
        detail[k] += ct__sample_river(sp, k, &q[k].cell, &q[k].blend, q[k].dir, detail[k], &rh);
        /* the biome edge noise where the lane may be land (river water reads none) */
        dry[k] = !(q[k].blend.wet_weight > 0.0 && q[k].blend.above + detail[k] <= 0.0);
        hits[k] = rh;
    }
    if (sp->edge_octaves > 0) ct__biome_edge_noise4(sp->edge_seed, sp->edge_octaves, sp->edge_memo, p, dry, edge);
    for (k = 0; k < 4; k++)
        ct__sample_classify(sp, &q[k].cell, &q[k].blend, q[k].dir, detail[k], jitter[k], g + 3 * k, need_moisture,
                            &hits[k], &edge[k], &out[k]);
}

void ct__sample_dir_with(const ct__field *w, const double dir_in[3], int need_moisture, int skips, uint64_t *counts,
                         ct_sample *out)
{
    ct__sampler sp;
    ct__sampler_init(&sp, w, 1);
    sp.skips = skips;
    sp.skip_counts = counts;
    ct__sampler_run(&sp, dir_in, need_moisture, out);
    ct__sampler_finish(&sp);
    ct__sampler_release(&sp);
}

void ct__sample_dir(const ct__field *w, const double dir_in[3], int need_moisture, ct_sample *out)
{
    ct__sample_dir_with(w, dir_in, need_moisture, 1, NULL, out);
}

ct_result ct__field_sample(const ct__field *world, const double dir[3], ct_sample *out, char *err, size_t errlen)
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
