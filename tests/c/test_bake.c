/* test_bake.c - the bake's building blocks: SHA-256 against the FIPS 180-4
 * examples, the index round trip and its refusals, the manifest's fixed
 * bytes, shard plans that cover every tile once with balanced cost, and the
 * failure hook leaving no temporary behind. The CLI end to end is
 * tests/js/bake.test.mjs. */
#include "bake.h"
#include "sha256.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sha_is(const void *data, size_t len, const char *hex)
{
    uint8_t d[32];
    char h[65];
    cli_sha256(data, len, d);
    cli_sha256_hex(d, h);
    return strcmp(h, hex) == 0;
}

static void test_sha256(void)
{
    static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    char *million = (char *)malloc(1000000);
    cli_sha256_ctx s;
    uint8_t d1[32], d2[32];
    size_t k;
    CHECK(sha_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "abc");
    CHECK(sha_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "empty");
    CHECK(sha_is(two_blocks, strlen(two_blocks), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
          "448-bit message");
    if (million) {
        memset(million, 'a', 1000000);
        CHECK(sha_is(million, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"), "a million a");
        /* Fed in uneven pieces, the same digest. */
        cli_sha256_init(&s);
        for (k = 0; k < 1000000; k += 777) cli_sha256_update(&s, million + k, k + 777 > 1000000 ? 1000000 - k : 777);
        cli_sha256_final(&s, d1);
        cli_sha256(million, 1000000, d2);
        CHECK(memcmp(d1, d2, 32) == 0, "streamed digest differs");
        free(million);
    }
}

static void test_index(void)
{
    bake_list l, back;
    bake_tile t;
    uint8_t *buf;
    size_t len;
    uint64_t gen = 0;
    char err[256];
    int k;
    memset(&l, 0, sizeof l);
    memset(&back, 0, sizeof back);
    for (k = 0; k < 5; k++) {
        memset(&t, 0, sizeof t);
        t.key = ct_key_make(k % 6, 2, (uint32_t)k % 4, 1);
        t.bytes = 100u + (uint32_t)k;
        t.sha[0] = (uint8_t)k;
        bake_list_push(&l, &t);
    }
    qsort(l.tiles, l.count, sizeof *l.tiles, bake_tile_order);
    buf = bake_index_encode(&l, 0x0123456789abcdefull, &len);
    CHECK(len == 24 + 5 * 48, "index length %lu", (unsigned long)len);
    CHECK(memcmp(buf, "CTINDEX\x01", 8) == 0, "magic");
    CHECK(bake_index_decode(buf, len, &gen, &back, err, sizeof err) == 0, "decode: %s", err);
    CHECK(gen == 0x0123456789abcdefull && back.count == 5, "generation or count");
    CHECK(back.count == 5 && memcmp(&back.tiles[4].key, &l.tiles[4].key, sizeof(ct_key)) == 0 &&
          back.tiles[4].bytes == l.tiles[4].bytes && back.tiles[4].sha[0] == l.tiles[4].sha[0], "records");
    bake_list_free(&back);
    CHECK(bake_index_decode(buf, len - 1, &gen, &back, err, sizeof err) != 0, "a truncated index decodes");
    bake_list_free(&back);
    buf[24 + 48 + 1] = 17;   /* record 1's LOD out of range */
    CHECK(bake_index_decode(buf, len, &gen, &back, err, sizeof err) != 0, "a bad key decodes");
    bake_list_free(&back);
    free(buf);
    bake_list_free(&l);
}

/* Every tile in exactly one shard, the shards' costs within one tile of
 * each other, the same plan twice. */
static void test_shards(const ct_world *w)
{
    bake_opts o;
    bake_list all, part[3];
    char err[256];
    size_t k, total = 0;
    uint64_t cost[3] = {0, 0, 0}, maxc = 0, hi, lo;
    int s, seen_sea = 0, seen_land = 0;
    memset(&o, 0, sizeof o);
    memset(&all, 0, sizeof all);
    memset(part, 0, sizeof part);
    o.lod_lo = 0;
    o.lod_hi = 3;
    o.faces = 0x3f;
    CHECK(bake_plan_all(w, &o, &all, err, sizeof err) == 0, "plan: %s", err);
    CHECK(all.count == 6 * (1 + 4 + 16 + 64), "tiles %lu", (unsigned long)all.count);
    for (k = 0; k < all.count; k++) {
        if (all.tiles[k].cost > maxc) maxc = all.tiles[k].cost;
        seen_sea |= all.tiles[k].cost == 5;
        seen_land |= all.tiles[k].cost == 20;
    }
    CHECK(seen_sea && seen_land, "costs tell sea from land");
    for (s = 0; s < 3; s++) {
        CHECK(bake_plan_shard(&all, s, 3, &part[s], err, sizeof err) == 0, "shard: %s", err);
        total += part[s].count;
        for (k = 0; k < part[s].count; k++) cost[s] += part[s].tiles[k].cost;
    }
    CHECK(total == all.count, "shards hold %lu of %lu tiles", (unsigned long)total, (unsigned long)all.count);
    for (k = 0; k < all.count; k++) {
        int owners = 0;
        for (s = 0; s < 3; s++)
            owners += part[s].count &&
                      bsearch(&all.tiles[k], part[s].tiles, part[s].count, sizeof(bake_tile), bake_tile_order) != NULL;
        if (owners != 1) { CHECK(owners == 1, "tile %lu in %d shards", (unsigned long)k, owners); break; }
    }
    hi = cost[0] > cost[1] ? cost[0] : cost[1];
    hi = hi > cost[2] ? hi : cost[2];
    lo = cost[0] < cost[1] ? cost[0] : cost[1];
    lo = lo < cost[2] ? lo : cost[2];
    CHECK(hi - lo <= maxc, "shard costs %lu %lu %lu", (unsigned long)cost[0], (unsigned long)cost[1], (unsigned long)cost[2]);
    for (s = 0; s < 3; s++) bake_list_free(&part[s]);
    bake_list_free(&all);
}

static void test_manifest(void)
{
    bake_meta m;
    bake_index_ref ref = {"index/all.idx", "00", 3};
    char *a, *b, v[64];
    memset(&m, 0, sizeof m);
    m.config = (char *)"seed=1\nname=\"x\"\n";
    m.lod_lo = 1;
    m.lod_hi = 2;
    m.faces = 0x11;
    m.has_region = 1;
    m.region_dir[0] = 0.1;
    m.region_dir[2] = 1;
    m.region_m = 2500;
    m.shards = 1;
    a = bake_manifest_text(&m, &ref, 1);
    b = bake_manifest_text(&m, &ref, 1);
    CHECK(a && b && strcmp(a, b) == 0, "same meta, same text");
    CHECK(a && strstr(a, "\"config\": \"seed=1\\nname=\\\"x\\\"\\n\""), "config escaped: %s", a ? a : "(none)");
    CHECK(a && strstr(a, "\"faces\": [\n    \"+X\",\n    \"+Z\"\n  ]"), "faces");
    CHECK(a && strstr(a, "\n      0.1,\n"), "shortest round-trip number");
    CHECK(a && bake_json_field(a, "config", v, sizeof v) == 0 && strcmp(v, "seed=1\nname=\"x\"\n") == 0, "field read back");
    free(a);
    free(b);
}

/* The hook: a write crossing the budget fails and leaves no file, no temporary. */
static void test_hook(void)
{
    char dir[] = "/tmp/ct_bake_hookXXXXXX", path[256], err[256];
    static uint8_t data[5000];
    if (!mkdtemp(dir)) { CHECK(0, "mkdtemp"); return; }
    setenv("CT_BAKE_FAIL_AFTER_BYTES", "7000", 1);
    snprintf(path, sizeof path, "%s/a.bin", dir);
    CHECK(bake_write_atomic(path, data, sizeof data, err, sizeof err) == 0, "first write: %s", err);
    snprintf(path, sizeof path, "%s/b.bin", dir);
    CHECK(bake_write_atomic(path, data, sizeof data, err, sizeof err) != 0, "second write passed the budget");
    CHECK(strstr(err, "CT_BAKE_FAIL_AFTER_BYTES") != NULL, "message names the hook: %s", err);
    CHECK(!bake_exists(path), "a failed write left its file");
    {
        char tmp[300];
        snprintf(tmp, sizeof tmp, "%s.%ld.tmp~", path, (long)getpid());
        CHECK(!bake_exists(tmp), "a failed write left its temporary");
        remove(tmp);
    }
    remove(path);
    snprintf(path, sizeof path, "%s/a.bin", dir);
    remove(path);
    rmdir(dir);
}

int main(void)
{
    char err[256];
    ct_config cfg;
    ct_world *w;
    test_sha256();
    test_index();
    test_manifest();
    ct_config_default(&cfg);
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    if (w) test_shards(w);
    ct_world_free(w);
    test_hook();
    return test_summary("bake");
}
