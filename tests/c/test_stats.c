/* test_stats.c - the statistics table (ct_stats.def): ct_stat_get lists
 * every field of ct_world_stats once, in the file's order, and
 * ct_world_stats_value reads each one exactly. */
#include "ct.h"
#include "test.h"

#include <stddef.h>
#include <string.h>

int main(void)
{
    ct_config cfg;
    ct_world *w;
    ct_world_stats st;
    char err[256];
    size_t i = 0, seen = 0;
    ct_config_preset(&cfg, "balanced", err, sizeof err);
    cfg.macro_resolution = 16;
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    if (!w) return test_summary("stats");
    CHECK(ct_world_stats_get(w, &st) == CT_OK, "stats");
    /* Every row, in order, with its kind, offset and exact value. */
#define CT__ROW(nm, kd) do { \
        const ct_stat_info *s = ct_stat_get(i++); \
        CHECK(s && strcmp(s->name, #nm) == 0, "row %lu is %s", (unsigned long)(i - 1u), #nm); \
        if (s) { \
            CHECK(s->kind == kd && s->offset == offsetof(ct_world_stats, nm), "%s kind/offset", #nm); \
            CHECK(ct_world_stats_value(&st, s) == (double)st.nm, "%s value", #nm); \
            CHECK(s->doc && s->doc[0], "%s doc", #nm); \
        } \
        seen++; \
    } while (0)
#define CT_STAT_U(name, doc) CT__ROW(name, CT_STAT_UINT);
#define CT_STAT_Z(name, doc) CT__ROW(name, CT_STAT_SIZE);
#define CT_STAT_F(name, conv, digits, doc) CT__ROW(name, CT_STAT_REAL);
#include "ct_stats.def"
#undef CT_STAT_U
#undef CT_STAT_Z
#undef CT_STAT_F
    CHECK(ct_stat_count() == seen && ct_stat_get(seen) == NULL, "%lu rows", (unsigned long)ct_stat_count());
    for (i = 0; i < ct_stat_count(); i++) {
        const ct_stat_info *s = ct_stat_get(i);
        CHECK(s->kind == CT_STAT_REAL ? (s->conv == 'f' || s->conv == 'g') && s->digits > 0
                                      : s->conv == 'u' && s->digits == 0, "%s format", s->name);
    }
    CHECK(st.vertex_count == 6u * 16u * 16u + 2u && ct_world_stats_value(&st, ct_stat_get(1)) == 1538.0,
          "vertex_count through the table");
    CHECK(ct_world_stats_value(NULL, ct_stat_get(0)) == 0.0 && ct_world_stats_value(&st, NULL) == 0.0,
          "NULL arguments read as 0");
    ct_world_free(w);
    return test_summary("stats");
}
