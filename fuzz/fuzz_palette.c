/* fuzz_palette.c - libFuzzer harness: ct_palette_parse on any text (the
 * bytes up to the first NUL, as a C caller would pass them). */
#include "ct.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ct_palette pal;
    char err[256];
    char *text = (char *)malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ct_palette_parse(text, &pal, err, sizeof err);
    free(text);
    return 0;
}
