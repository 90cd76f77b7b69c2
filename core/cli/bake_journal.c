/* bake_journal.c - a shard's journal: after each tile file is renamed into
 * place, its record (key, length, SHA-256 of the bytes written) is appended
 * with one write(), so a killed shard leaves whole records and at most one
 * torn one at the end, which the next run ignores. A rerun keeps a tile file
 * when it matches its record; a tile with no record (the journal was lost,
 * or the split changed) is generated again and compared instead. The merge
 * removes journals with the rest of the shard files. */
#include "bake.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bake_journal_path(char *buf, size_t buflen, const char *out, int shard, int shards)
{
    snprintf(buf, buflen, "%s/index/shard-%04d-of-%04d.journal", out, shard, shards);
}

int bake_journal_open(const char *out, int shard, int shards, bake_list *known, int *fd, char *err, size_t errlen)
{
    char path[BAKE_PATH];
    uint8_t *buf;
    size_t len, k;
    bake_journal_path(path, sizeof path, out, shard, shards);
    buf = bake_exists(path) ? bake_read_file(path, &len, err, errlen) : NULL;
    for (k = 0; buf && k + BAKE_INDEX_RECORD <= len; k += BAKE_INDEX_RECORD) {
        bake_tile t;
        if (!bake_record_get(buf + k, &t) && bake_list_push(known, &t)) {
            free(buf);
            snprintf(err, errlen, "out of memory reading '%s'", path);
            return 1;
        }
    }
    free(buf);
    /* Later records win: sort stably by key, then keep each key's last. */
    if (known->count > 1) {
        size_t w = 0;
        for (k = 0; k < known->count; k++) known->tiles[k].cost = (uint32_t)k;
        qsort(known->tiles, known->count, sizeof *known->tiles, bake_tile_order);
        for (k = 0; k < known->count; k++) {
            if (w > 0 && bake_tile_order(&known->tiles[w - 1], &known->tiles[k]) == 0) {
                if (known->tiles[k].cost > known->tiles[w - 1].cost) known->tiles[w - 1] = known->tiles[k];
                continue;
            }
            known->tiles[w++] = known->tiles[k];
        }
        known->count = w;
    }
    *fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0666);
    if (*fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return 1;
    }
    return 0;
}

void bake_journal_add(int fd, const bake_tile *t)
{
    uint8_t r[BAKE_INDEX_RECORD];
    bake_record_put(r, t);
    /* A record that fails to land only costs a regeneration on resume. */
    if (write(fd, r, sizeof r) != (ssize_t)sizeof r) return;
}
