/* fuzz_snapshot.c - libFuzzer harness: ct_world_snapshot_read on any bytes.
 * A snapshot it accepts must also sample and re-serialise without trouble. */
#include "ct.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ct_world *w = NULL;
    char err[256];
    if (ct_world_snapshot_read(data, size, &w, err, sizeof err) == CT_OK) {
        static const double dir[3] = {0.3, -0.5, 0.81};
        ct_sample s;
        size_t n = ct_world_snapshot_size(w);
        uint8_t *again = (uint8_t *)malloc(n);
        ct_world_sample(w, dir, &s, err, sizeof err);
        if (again && ct_world_snapshot_write(w, again, n, err, sizeof err) != CT_OK) abort();
        free(again);
        ct_world_free(w);
    }
    return 0;
}
