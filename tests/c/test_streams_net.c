/* test_streams_net.c - the stream network inside a chunk (ct_chunk_streams)
 * on land keys of a surface_lod 12 world with streams on (knobs set here):
 * water never rises along a polyline, a tributary ends at its parent's first
 * point and level, the exact ground (ct_world_ground) lies at the water on
 * the floor of fed links, a coarser key holds a subset of the levels and of
 * the links, the bounds hold, streams off gives nothing, bad input is named.
 *
 * With --digest FACE LOD X Y it prints the digest of that key's streams in
 * the world below and exits (tests/js/rivers.test.mjs compares WebAssembly's). */
#include "ct.h"
#include "test.h"
#include "test_world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KNOBS "surface_lod=12\nseed=42\nstream_depth_m=16\nstream_level=4\nstream_fine_level=7\n" \
              "stream_from_lod=10\nstream_wall=0.03\nstream_floor_m=20\n"
#define FLOOR_TOL_M 3.0   /* ground against water on a fed link's floor */
#define BURIED_TOL_M 1.0  /* ground above water anywhere */

typedef struct streams_buf {
    ct_streams s;
    uint32_t start[CT_STREAMS_MAX_LINKS + 1];
    float pos[3 * CT_STREAMS_MAX_POINTS], water[CT_STREAMS_MAX_POINTS], width[CT_STREAMS_MAX_LINKS];
    uint8_t order[CT_STREAMS_MAX_LINKS], level[CT_STREAMS_MAX_LINKS];
} streams_buf;

static streams_buf A, B;

static ct_result get(ct_world *w, ct_key key, streams_buf *b)
{
    memset(&b->s, 0, sizeof b->s);
    b->s.link_capacity = CT_STREAMS_MAX_LINKS;
    b->s.point_capacity = CT_STREAMS_MAX_POINTS;
    b->s.point_start = b->start;
    b->s.positions = b->pos;
    b->s.water_m = b->water;
    b->s.width_m = b->width;
    b->s.order = b->order;
    b->s.level = b->level;
    return ct_chunk_streams(w, key, &b->s, NULL, 0);
}

/* The same bytes as wasm/ct_streams.mjs's digest: counts, center, then each array. */
static uint64_t digest(const streams_buf *b)
{
    uint32_t n = b->s.count, p = b->s.point_count, c[2];
    uint64_t h = 14695981039346656037ull;
    c[0] = n;
    c[1] = p;
    h = ct_fnv1a64(c, sizeof c, h);
    h = ct_fnv1a64(b->s.center_m, sizeof b->s.center_m, h);
    h = ct_fnv1a64(b->start, 4 * (size_t)(n + 1), h);
    h = ct_fnv1a64(b->pos, 12 * (size_t)p, h);
    h = ct_fnv1a64(b->water, 4 * (size_t)p, h);
    h = ct_fnv1a64(b->width, 4 * (size_t)n, h);
    h = ct_fnv1a64(b->order, n, h);
    return ct_fnv1a64(b->level, n, h);
}

static ct_world *build(const char *extra)
{
    ct_config cfg;
    char text[256];
    ct_config_preset(&cfg, "balanced", NULL, 0);
    snprintf(text, sizeof text, "%s%s", KNOBS, extra);
    return test_world_build(&cfg, text);
}

static void point_dir(const streams_buf *b, uint32_t i, double d[3])
{
    int a;
    for (a = 0; a < 3; a++) d[a] = b->s.center_m[a] + (double)b->pos[3 * i + a];
}

/* Whether point i of b and point j of c lie on one radial line (within a
 * centimetre), whatever their water levels. */
static int same_point(const streams_buf *b, uint32_t i, const streams_buf *c, uint32_t j)
{
    double p[3], q[3], lp, lq, e = 0.0;
    int a;
    point_dir(b, i, p);
    point_dir(c, j, q);
    lp = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    lq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    for (a = 0; a < 3; a++) e += fabs(p[a] / lp - q[a] / lq);
    return e * 6.4e6 < 0.01;
}

/* Water never rises along a polyline; joins: a link's last point is another
 * link's first with the same level. Returns the joins found. */
static int check_flow(const streams_buf *b)
{
    uint32_t k, j, i;
    int rises = 0, joins = 0, bad_join = 0;
    for (k = 0; k < b->s.count; k++) {
        uint32_t last = b->start[k + 1] - 1;
        for (i = b->start[k] + 1; i <= last; i++) rises += b->water[i] > b->water[i - 1];
        for (j = 0; j < b->s.count; j++)
            if (j != k && same_point(b, last, b, b->start[j])) {
                joins++;
                if (b->water[last] != b->water[b->start[j]]) bad_join++;
            }
    }
    CHECK(rises == 0, "%d points rise above the one before", rises);
    CHECK(bad_join == 0, "%d of %d tributaries end away from their parent's level", bad_join, joins);
    return joins;
}

/* The exact ground at each dry point against the water level: on the floor
 * of a fed link, and past the first half of a head's, the carve takes the
 * ground down to the bed, so the water is never buried. Where the ground
 * lay below the bed already (a dip of the fine relief, which the layer
 * never fills) the water stands above it: counted and reported. */
static void check_floor(ct_world *w, const streams_buf *b)
{
    uint32_t k, i, n = 0, fed = 0, buried = 0, close = 0;
    double worst_up = 0.0, worst_down = 0.0;
    for (k = 0; k < b->s.count; k++)
        for (i = b->start[k]; i < b->start[k + 1]; i++) {
            ct_ground g;
            double d[3], e;
            point_dir(b, i, d);
            if (ct_world_ground(w, d, &g, NULL, 0) != CT_OK || g.has_water) continue;
            e = g.height_m - b->water[i];
            n++;
            buried += e > BURIED_TOL_M;
            if (e > worst_up) worst_up = e;
            if (-e > worst_down) worst_down = -e;
            if (b->order[k] != 2 && b->order[k] != 4) continue;
            fed++;
            close += fabs(e) <= FLOOR_TOL_M;
        }
    printf("streams_net: %u dry points, ground above water by at most %.2f m, below by at most %.2f m; "
           "%u of %u fed points within %.1f m\n", n, worst_up, worst_down, close, fed, FLOOR_TOL_M);
    CHECK(fed > 50, "%u fed points checked", fed);
    CHECK(buried == 0, "%u of %u points lie more than %.1f m under the ground", buried, n, BURIED_TOL_M);
    CHECK(close * 2 > fed, "%u of %u fed points within %.1f m of the ground", close, fed, FLOOR_TOL_M);
}

/* Levels present, as a bit set. */
static unsigned levels_of(const streams_buf *b)
{
    unsigned m = 0;
    uint32_t k;
    for (k = 0; k < b->s.count; k++) m |= 1u << b->level[k];
    return m;
}

/* Every link of the finer key b (of a level a shows) is in the coarser key a:
 * the same first and last point. */
static void check_subset(const streams_buf *a, const streams_buf *b)
{
    uint32_t k, j;
    int missing = 0, shared = 0;
    unsigned la = levels_of(a);
    for (k = 0; k < b->s.count; k++) {
        int found = 0;
        if (!(la & (1u << b->level[k]))) continue;
        for (j = 0; j < a->s.count && !found; j++) {
            uint32_t i0 = b->start[k], i1 = b->start[k + 1] - 1, j0 = a->start[j], j1 = a->start[j + 1] - 1;
            found = same_point(b, i0, a, j0) && same_point(b, i1, a, j1) && b->water[i0] == a->water[j0] &&
                    b->water[i1] == a->water[j1];
        }
        missing += !found;
        shared += found;
    }
    CHECK(missing == 0, "%d links of the finer key are not in the coarser one (%d are)", missing, shared);
}

/* Whether b holds link j of a (the same first and last point and levels). */
static int holds(const streams_buf *b, const streams_buf *a, uint32_t j)
{
    uint32_t k, j0 = a->start[j], j1 = a->start[j + 1] - 1;
    for (k = 0; k < b->s.count; k++) {
        uint32_t i0 = b->start[k], i1 = b->start[k + 1] - 1;
        if (b->water[i0] == a->water[j0] && b->water[i1] == a->water[j1] && same_point(b, i0, a, j0) &&
            same_point(b, i1, a, j1))
            return 1;
    }
    return 0;
}

static streams_buf kids[4];

/* The four keys inside a (one LOD finer): each link of a of the levels they
 * show is in every one of them that holds one of its points, so a link that
 * crosses a border is on both sides; and each of theirs is in a. */
static void check_union(ct_world *w, ct_key key, const streams_buf *a)
{
    uint32_t j, i;
    int q, lost = 0;
    unsigned shown = 0;
    for (q = 0; q < 4; q++) {
        ct_key c = ct_key_make(key.face, key.lod + 1, 2 * key.x + (uint32_t)(q & 1), 2 * key.y + (uint32_t)(q >> 1));
        CHECK(get(w, c, &kids[q]) == CT_OK, "streams of a finer key");
        shown |= levels_of(&kids[q]);
        check_subset(a, &kids[q]);
    }
    for (j = 0; j < a->s.count; j++) {
        unsigned in = 0;
        if (!(shown & (1u << a->level[j]))) continue;
        for (i = a->start[j]; i < a->start[j + 1]; i++) {
            double d[3], lx, ly;
            ct_key c;
            point_dir(a, i, d);
            if (ct_key_at(w, d, key.lod + 1, &c, &lx, &ly, NULL, 0) != CT_OK || c.face != key.face ||
                (c.x >> 1) != key.x || (c.y >> 1) != key.y || lx <= 0.01 || ly <= 0.01 || lx >= 255.99 || ly >= 255.99)
                continue;
            in |= 1u << ((c.x & 1u) + 2 * (c.y & 1u));
        }
        for (q = 0; q < 4; q++) lost += (in >> q & 1u) && !holds(&kids[q], a, j);
    }
    CHECK(lost == 0, "%d times a link of LOD %d f%d %u %u is missing from a key inside it that holds its points",
          lost, key.lod, key.face, key.x, key.y);
}

static int land_key(ct_world *w, uint32_t *s, int lod, ct_key *key)
{
    int tries;
    for (tries = 0; tries < 400; tries++) {
        double d[3], len, lx, ly;
        ct_sample sm;
        int k;
        for (k = 0; k < 3; k++) {
            *s = *s * 1103515245u + 12345u;
            d[k] = (double)((*s >> 8) & 0xffffu) / 32768.0 - 1.0;
        }
        len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(len > 0.1)) continue;
        for (k = 0; k < 3; k++) d[k] /= len;
        if (ct_world_sample(w, d, &sm, NULL, 0) != CT_OK || sm.has_water || sm.height_m < 100.0) continue;
        if (ct_key_at(w, d, lod, key, &lx, &ly, NULL, 0) == CT_OK) return 1;
    }
    return 0;
}

static void check_errors(ct_world *w, ct_key key)
{
    ct_streams s;
    char err[256];
    memset(&s, 0, sizeof s);
    CHECK(ct_chunk_streams(NULL, key, &s, err, sizeof err) == CT_ERR_NULL, "NULL world");
    CHECK(ct_chunk_streams(w, key, NULL, err, sizeof err) == CT_ERR_NULL, "NULL output");
    CHECK(ct_chunk_streams(w, ct_key_make(6, 3, 0, 0), &s, err, sizeof err) == CT_ERR_FACE, "face 6");
    CHECK(ct_chunk_streams(w, ct_key_make(0, 3, 8, 0), &s, err, sizeof err) == CT_ERR_CHUNK_XY, "x past the LOD");
    CHECK(ct_chunk_streams(w, ct_key_make(0, 13, 0, 0), &s, err, sizeof err) == CT_ERR_LOD, "LOD past surface_lod");
    CHECK(strstr(err, "surface_lod") != NULL, "the message names surface_lod: %s", err);
    /* no arrays: counts only */
    CHECK(ct_chunk_streams(w, key, &s, err, sizeof err) == CT_OK && s.count > 0, "counts without arrays: %s", err);
    s.width_m = B.width;
    s.link_capacity = s.count - 1;
    CHECK(ct_chunk_streams(w, key, &s, err, sizeof err) == CT_ERR_BUFFER, "a short width array");
    CHECK(s.count == s.link_capacity + 1, "the count says how many (%u)", (unsigned)s.count);
}

static int digest_main(int argc, char **argv)
{
    ct_world *w;
    ct_key key;
    int face;
    if (argc != 6 || ct_face_parse(argv[2], &face) != CT_OK) {
        fprintf(stderr, "usage: test_streams_net --digest FACE LOD X Y\n");
        return 2;
    }
    key = ct_key_make(face, atoi(argv[3]), (uint32_t)strtoul(argv[4], NULL, 10), (uint32_t)strtoul(argv[5], NULL, 10));
    w = build("");
    if (!w || get(w, key, &A) != CT_OK) return 1;
    printf("%u %u %016llx\n", (unsigned)A.s.count, (unsigned)A.s.point_count, (unsigned long long)digest(&A));
    ct_world_free(w);
    return 0;
}

int main(int argc, char **argv)
{
    ct_world *on, *off;
    ct_key key, up;
    uint32_t seed = 11u;
    int found = 0, joins = 0, q;
    if (argc > 1 && strcmp(argv[1], "--digest") == 0) return digest_main(argc, argv);
    on = build("");
    off = build("stream_depth_m=0\n");
    CHECK(on && off, "worlds build");
    if (!on || !off) return test_summary("streams_net");
    while (found < 2 && land_key(on, &seed, 12, &key)) {
        uint64_t h;
        CHECK(get(on, key, &A) == CT_OK, "streams of f%d %u %u", key.face, key.x, key.y);
        if (A.s.count < 5) continue;
        found++;
        printf("streams_net: f%d 12 %u %u: %u links, %u points, levels %#x\n", key.face, key.x, key.y,
               (unsigned)A.s.count, (unsigned)A.s.point_count, levels_of(&A));
        CHECK(levels_of(&A) == ((1u << 4) | (1u << 7)), "both levels at LOD 12 (%#x)", levels_of(&A));
        joins += check_flow(&A);
        check_floor(on, &A);
        h = digest(&A);
        CHECK(get(on, key, &B) == CT_OK && digest(&B) == h, "the same key gives the same bytes");
        if (found == 1) check_errors(on, key);
        /* LOD 12 -> 6: the levels shrink to subsets, the links too */
        up = key;
        for (q = 11; q >= 6; q--) {
            up.lod = q;
            up.x >>= 1;
            up.y >>= 1;
            CHECK(get(on, up, &B) == CT_OK, "streams at LOD %d", q);
            if (q == 11 || q == 7) check_union(on, up, &B);
            CHECK((levels_of(&B) & ~levels_of(&A)) == 0, "LOD %d levels %#x within LOD %d's %#x", q, levels_of(&B),
                  q + 1, levels_of(&A));
            CHECK(B.s.count <= CT_STREAMS_MAX_LINKS && B.s.point_count <= CT_STREAMS_MAX_POINTS, "bounds at LOD %d", q);
            check_subset(&B, &A);
            check_flow(&B);
            printf("streams_net:   LOD %d: %u links, %u points, levels %#x\n", q, (unsigned)B.s.count,
                   (unsigned)B.s.point_count, levels_of(&B));
            memcpy(&A, &B, sizeof A);
        }
        CHECK(levels_of(&A) == 0, "no level is visible at LOD 6 (%#x)", levels_of(&A));
        CHECK(get(off, key, &B) == CT_OK && B.s.count == 0 && B.s.point_count == 0, "streams off: none");
    }
    CHECK(found == 2, "%d land keys with streams", found);
    CHECK(joins > 10, "%d joins checked", joins);
    ct_world_free(on);
    ct_world_free(off);
    return test_summary("streams_net");
}
