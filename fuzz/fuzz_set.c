/* fuzz_set.c - libFuzzer harness: `name=value` overrides (ct_config_set and
 * ct_config_preset), split the way the CLIs split --set arguments. */
#include "ct.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ct_config cfg;
    char err[256];
    char *text = (char *)malloc(size + 1), *eq;
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ct_config_default(&cfg);
    eq = strchr(text, '=');
    if (eq) {
        *eq = '\0';
        if (ct_config_set(&cfg, text, eq + 1, err, sizeof err) == CT_OK &&
            ct_config_validate(&cfg, err, sizeof err) != CT_OK && err[0] == '\0')
            abort();   /* every refusal carries a message */
    } else {
        ct_config_preset(&cfg, text, err, sizeof err);
    }
    free(text);
    return 0;
}
