/* bake_io.c - the bake's files: every write goes to a temporary beside its
 * target (named by process, so shards sharing a folder never share one) and
 * is renamed over it, so a reader on a local or shared file system sees the
 * old file or the whole new one. A failed write removes its temporary.
 *
 * Test hook: CT_BAKE_FAIL_AFTER_BYTES=N lets the process write N bytes in
 * all, then makes the write that crosses it fail part-way, as a full disk
 * would (CI cannot fill a disk). Tests only; never set it in production. */
#include "bake.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static long long hook_left = -2;     /* -2 not read yet, -1 no hook */

static long long hook_budget(void)
{
    if (hook_left == -2) {
        const char *s = getenv("CT_BAKE_FAIL_AFTER_BYTES");
        hook_left = (s && *s) ? atoll(s) : -1;
        if (hook_left < -1) hook_left = 0;
    }
    return hook_left;
}

/* fwrite with the hook's budget: writes part of a crossing write, then fails. */
static int hooked_write(FILE *f, const void *data, size_t len)
{
    long long left = hook_budget();
    if (left >= 0 && (unsigned long long)left < (unsigned long long)len) {
        if (left > 0 && fwrite(data, 1, (size_t)left, f) != (size_t)left) return 0;
        hook_left = 0;
        errno = ENOSPC;
        return 0;
    }
    if (left >= 0) hook_left = left - (long long)len;
    return len == 0 || fwrite(data, 1, len, f) == len;
}

int bake_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    char tmp[BAKE_PATH + 32];
    FILE *f;
    int ok, e = 0;
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.%ld.tmp~", path, (long)getpid()) >= sizeof tmp) {
        snprintf(err, errlen, "path too long: '%s'", path);
        return 1;
    }
    f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot create '%s': %s", tmp, strerror(errno));
        return 1;
    }
    ok = hooked_write(f, data, len);
    if (!ok) e = errno;
    if (fflush(f) != 0 && ok) { ok = 0; e = errno; }
    if (fclose(f) != 0 && ok) { ok = 0; e = errno; }
    if (!ok) {
        remove(tmp);
        snprintf(err, errlen, "writing '%s' failed: %s%s", path, strerror(e ? e : EIO),
                 hook_left == 0 && getenv("CT_BAKE_FAIL_AFTER_BYTES") ? " (CT_BAKE_FAIL_AFTER_BYTES test hook)" : "");
        return 1;
    }
    if (rename(tmp, path) != 0) {
        e = errno;
        remove(tmp);
        snprintf(err, errlen, "cannot rename to '%s': %s", path, strerror(e));
        return 1;
    }
    return 0;
}

uint8_t *bake_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    uint8_t *buf;
    *len = 0;
    if (!f) { snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno)); return NULL; }
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "'%s' is not a regular file", path);
        fclose(f);
        return NULL;
    }
    buf = (uint8_t *)malloc((size_t)st.st_size + 1);
    if (!buf) { snprintf(err, errlen, "out of memory reading '%s'", path); fclose(f); return NULL; }
    *len = fread(buf, 1, (size_t)st.st_size, f);
    if (ferror(f) || *len != (size_t)st.st_size) {
        snprintf(err, errlen, "cannot read '%s'", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[*len] = 0;   /* text files read as C strings */
    return buf;
}

int bake_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* mkdir -p: each missing folder of dir, in order. */
int bake_mkdirs(const char *dir, char *err, size_t errlen)
{
    char p[BAKE_PATH];
    size_t k, n = strlen(dir);
    struct stat st;
    if (n >= sizeof p) { snprintf(err, errlen, "path too long: '%s'", dir); return 1; }
    memcpy(p, dir, n + 1);
    for (k = 1; k <= n; k++) {
        if (p[k] != '/' && p[k] != '\0') continue;
        p[k] = '\0';
        if (stat(p, &st) != 0) {
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                snprintf(err, errlen, "cannot create folder '%s': %s", p, strerror(errno));
                return 1;
            }
        } else if (!S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "'%s' is not a folder", p);
            return 1;
        }
        if (k < n) p[k] = '/';
    }
    return 0;
}

void bake_hex64(uint64_t v, char hex[17])
{
    snprintf(hex, 17, "%08lx%08lx", (unsigned long)(uint32_t)(v >> 32), (unsigned long)(uint32_t)v);
}

/* OUT/<generation>/<face>/<lod>/<x>/<y>.<ext>: the URL template's path. */
void bake_tile_path(char *buf, size_t buflen, const char *out, uint64_t generation, ct_key key, int format)
{
    char g[17];
    bake_hex64(generation, g);
    snprintf(buf, buflen, "%s/%s/%s/%d/%lu/%lu.%s", out, g, ct_face_file_name(key.face), (int)key.lod,
             (unsigned long)key.x, (unsigned long)key.y, bake_format_ext(format));
}
