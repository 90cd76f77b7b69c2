/* test_world.h - a world for a native test: name=value text applied over a
 * config the test has set up (a preset, knobs of its own), then built; a bad
 * config or a failed build is a failed check and NULL. Include after ct.h
 * and test.h. */
#ifndef CT_TEST_WORLD_H
#define CT_TEST_WORLD_H

static ct_world *test_world_build(ct_config *cfg, const char *text)
{
    char err[256];
    ct_world *w;
    if (ct_config_parse(cfg, text, err, sizeof err) != CT_OK) {
        CHECK(0, "config: %s", err);
        return NULL;
    }
    w = ct_world_build(cfg, NULL, NULL, err, sizeof err);
    CHECK(w != NULL, "build: %s", err);
    return w;
}

#endif
