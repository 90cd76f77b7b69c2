/* test.h - the tiny check framework of the native tests.
 * CHECK(cond, ...) counts one check; failures print file:line and a message.
 * Each test file ends main() with `return test_summary("name");`, which prints
 * "name: N passed, M failed" (tests/c/run.sh adds those lines up). */
#ifndef CT_TEST_H
#define CT_TEST_H
#include <stdio.h>

static int test__passed, test__failed;

#define CHECK(cond, ...) do { \
    if (cond) { test__passed++; } else { \
        test__failed++; \
        fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); \
    } } while (0)

static int test_summary(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, test__passed, test__failed);
    return test__failed ? 1 : 0;
}
#endif
