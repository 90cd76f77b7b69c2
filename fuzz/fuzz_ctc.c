/* fuzz_ctc.c - libFuzzer harness: ct_chunk_decode_ctc on any bytes. A chunk
 * it accepts must encode back to the very same bytes. */
#include "ct.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ct_chunk chunk;
    static uint8_t again[CT_CTC_FILE_BYTES];
    char err[256];
    if (ct_chunk_decode_ctc(data, size, &chunk, err, sizeof err) == CT_OK) {
        if (ct_chunk_encode_ctc(&chunk, again, sizeof again, err, sizeof err) != CT_OK) abort();
        if (memcmp(again, data, CT_CTC_FILE_BYTES) != 0) abort();   /* decode is exact */
    }
    return 0;
}
