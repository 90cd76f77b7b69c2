/* fuzz_config.c - libFuzzer harness: ct_config_parse_n (config text with its
 * length, NULs included), then ct_config_validate and ct_config_format. */
#include "ct.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ct_config cfg;
    char err[256], text[8192];
    ct_config_default(&cfg);
    if (ct_config_parse_n(&cfg, (const char *)data, size, err, sizeof err) == CT_OK) {
        ct_config_validate(&cfg, err, sizeof err);
        if (ct_config_format(&cfg, text, sizeof text) >= sizeof text) abort();
    }
    return 0;
}
