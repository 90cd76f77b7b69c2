/* test_scatter_edits.c - scatter keeps off what a game built: no instance
 * stands on a pad's footprint (its radius and blend) in an edited world, and
 * every instance of the base world outside it is still there, with the same
 * id. The key is the LOD 11 forest key test_scatter.c uses (point queries). */
#include "ct.h"
#include "test.h"
#include "scatter_digest.h"
#include "scatter_golden_read.h"

#include <math.h>
#include <stdlib.h>

static sd_buffers base_buf, edit_buf;

static void foot_dir(const ct_scatter *s, uint32_t i, double d[3])
{
    int k;
    double l = 0.0;
    for (k = 0; k < 3; k++) {
        d[k] = s->center_m[k] + (double)s->positions[3 * i + k];
        l += d[k] * d[k];
    }
    l = sqrt(l);
    for (k = 0; k < 3; k++) d[k] /= l;
}

/* Chord distance in metres between two unit directions on a sphere of radius r. */
static double chord_m(const double a[3], const double b[3], double r)
{
    double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return sqrt(x * x + y * y + z * z) * r;
}

static int has_id(const ct_scatter *s, uint64_t id)
{
    uint32_t i;
    for (i = 0; i < s->count; i++)
        if (s->id[i] == id) return 1;
    return 0;
}

static void test_pad_excludes(ct_world *base)
{
    const ct_key key = ct_key_make(2, 11, 1612, 689);
    const double radius = 150.0, blend = 60.0;
    ct_scatter b = sd_out(&base_buf), e = sd_out(&edit_buf);
    ct_edit pad;
    ct_world *w = NULL;
    uint8_t *bytes;
    size_t len;
    double c[3], d[3], r;
    uint32_t i, inside = 0, kept = 0, outside = 0;
    char err[256];
    CHECK(ct_chunk_scatter(base, NULL, key, &b, err, sizeof err) == CT_OK && b.count > 100, "base scatter: %s", err);
    if (b.count <= 100) return;
    r = sqrt(b.center_m[0] * b.center_m[0] + b.center_m[1] * b.center_m[1] + b.center_m[2] * b.center_m[2]);
    foot_dir(&b, b.count / 2, c);
    memset(&pad, 0, sizeof pad);
    pad.kind = CT_EDIT_FLATTEN;
    memcpy(pad.center, c, sizeof c);
    pad.radius_m = radius;
    pad.blend_m = blend;
    len = ct_edits_encoded_size(&pad, 1);
    bytes = (uint8_t *)malloc(len);
    CHECK(ct_edits_encode(&pad, 1, bytes, len, err, sizeof err) == CT_OK, "encode: %s", err);
    CHECK(ct_world_with_edits(base, bytes, len, &w, err, sizeof err) == CT_OK, "with_edits: %s", err);
    free(bytes);
    if (!w) return;
    CHECK(ct_chunk_scatter(w, NULL, key, &e, err, sizeof err) == CT_OK, "edited scatter: %s", err);
    for (i = 0; i < b.count; i++) {
        foot_dir(&b, i, d);
        if (chord_m(c, d, r) < radius + blend) inside++;
        else if (chord_m(c, d, r) > radius + blend + 1.0) {
            outside++;
            kept += (uint32_t)has_id(&e, b.id[i]);
        }
    }
    CHECK(inside > 0, "the base world has instances on the pad's footprint (%u)", inside);
    CHECK(kept == outside, "instances off the pad stay: %u of %u", kept, outside);
    for (i = 0; i < e.count; i++) {
        foot_dir(&e, i, d);
        CHECK(chord_m(c, d, r) >= radius + blend - 0.01, "instance %u stands on the pad, %.2f m from its centre", i,
              chord_m(c, d, r));
        if (chord_m(c, d, r) < radius + blend - 0.01) break;
    }
    CHECK(e.count + inside <= b.count + 0u && e.count < b.count, "the pad removed instances (%u -> %u)", b.count, e.count);
    ct_world_free(w);
}

int main(void)
{
    ct_world *world = sg_world();
    if (!world) return test_summary("scatter_edits");
    test_pad_excludes(world);
    ct_world_free(world);
    return test_summary("scatter_edits");
}
