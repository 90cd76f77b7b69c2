/* bench_native.c - the native half of the benchmarks, as a command server.
 *
 * scripts/bench.mjs starts this program once and sends it one command per
 * line on stdin; each reply is one JSON line on stdout. The script alternates
 * native and WebAssembly repetitions of the same operation, so both halves
 * see the same machine load (a shared machine drifts by tens of percent over
 * a minute, which would otherwise land entirely on one half). `make bench` feeds it
 * bench/native_plan.txt for a native-only run.
 *
 *   info                      machine, compiler
 *   build PRESET RES          one world build in a forked child (peak memory
 *                             is then that build's own); ms, cpu_ms, peak
 *   world PRESET RES [LOD]    build and keep the world that chunk/mesh use
 *                             (LOD: its surface_lod, else the preset's)
 *   chunk FACE LOD X Y        one ct_chunk_generate; ms, cpu_ms, digest, dry
 *   mesh STRIDE [SKIRT WATER] ct_mesh_build on the last chunk (skirt depth in
 *                             m, water 0/1; default 0 0); ms, counts and
 *                             the FNV-1a digest of the output arrays
 *   quit
 *
 * Timings are wall clock (CLOCK_MONOTONIC) with the thread's CPU time beside
 * them. Every error is a JSON line with "ok": false. */
#include "ct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

/* CPU time of the calling thread: steadier than wall time on a busy machine. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

/* Resident set figures from /proc/self/status in bytes, -1 if unavailable. */
static long long proc_status_bytes(const char *field)
{
    char line[256];
    long long kb = -1;
    size_t len = strlen(field);
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, len) && line[len] == ':') { kb = atoll(line + len + 1); break; }
    fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

static int make_config(ct_config *cfg, const char *preset, unsigned res, char *err, size_t errlen)
{
    char v[32];
    if (ct_config_preset(cfg, preset, err, errlen) != CT_OK) return 0;
    sprintf(v, "%u", res);
    return ct_config_set(cfg, "macro_resolution", v, err, errlen) == CT_OK;
}

static void reply_error(const char *msg)
{
    /* Messages come from CT_ERRORS and this file: no quotes or backslashes. */
    printf("{\"ok\": false, \"error\": \"%s\"}\n", msg);
}

typedef struct build_reply {
    int ok;
    double ms, cpu;
    unsigned vertex_count, passes;
    long long bytes_held, snapshot_bytes, peak_bytes;
    char err[200];
} build_reply;

static void build_once(const char *preset, unsigned res, build_reply *r)
{
    ct_config cfg;
    ct_world *w;
    ct_world_stats st;
    double c0, t0;
    long long base = proc_status_bytes("VmRSS");
    memset(r, 0, sizeof *r);
    r->peak_bytes = -1;
    if (!make_config(&cfg, preset, res, r->err, sizeof r->err)) return;
    c0 = cpu_ms();
    t0 = now_ms();
    w = ct_world_build(&cfg, NULL, NULL, r->err, sizeof r->err);
    r->ms = now_ms() - t0;
    r->cpu = cpu_ms() - c0;
    if (!w) return;
    if (base >= 0) {
        long long hwm = proc_status_bytes("VmHWM");
        if (hwm >= 0) r->peak_bytes = hwm - base;
    }
    if (ct_world_stats_get(w, &st) == CT_OK) {
        r->vertex_count = st.vertex_count;
        r->passes = st.passes;
        r->bytes_held = (long long)st.bytes_held;
    }
    r->snapshot_bytes = (long long)ct_world_snapshot_size(w);
    ct_world_free(w);
    r->ok = 1;
}

/* One build in a forked child (Linux): its VmHWM is then this build's peak,
 * not the largest of everything this server did before. */
static void cmd_build(const char *preset, unsigned res)
{
    build_reply r;
    int done = 0;
#if defined(__linux__)
    int fd[2];
    pid_t pid;
    fflush(stdout);
    if (pipe(fd) == 0 && (pid = fork()) >= 0) {
        if (pid == 0) {
            close(fd[0]);
            build_once(preset, res, &r);
            if (write(fd[1], &r, sizeof r) != (ssize_t)sizeof r) _exit(1);
            _exit(0);
        } else {
            size_t got = 0;
            close(fd[1]);
            while (got < sizeof r) {
                ssize_t k = read(fd[0], (char *)&r + got, sizeof r - got);
                if (k <= 0) break;
                got += (size_t)k;
            }
            close(fd[0]);
            waitpid(pid, NULL, 0);
            if (got != sizeof r) { memset(&r, 0, sizeof r); strcpy(r.err, "benchmark child failed"); }
            done = 1;
        }
    }
#endif
    if (!done) build_once(preset, res, &r);
    if (!r.ok) { reply_error(r.err); return; }
    printf("{\"ok\": true, \"ms\": %.4f, \"cpu_ms\": %.4f, \"vertex_count\": %u, \"passes\": %u, "
           "\"bytes_held\": %lld, \"snapshot_bytes\": %lld, \"peak_bytes\": ",
           r.ms, r.cpu, r.vertex_count, r.passes, r.bytes_held, r.snapshot_bytes);
    if (r.peak_bytes < 0) printf("null}\n"); else printf("%lld}\n", r.peak_bytes);
}

static void cmd_info(void)
{
    struct utsname un;
    uname(&un);
    printf("{\"ok\": true, \"os\": \"%s %s\", \"arch\": \"%s\", \"cpus_online\": %ld, \"compiler\": \"%s%s\", "
           "\"chunk_struct\": %lu, \"chunk_ctc\": %d, \"chunk_u16le\": %d}\n",
           un.sysname, un.release, un.machine, sysconf(_SC_NPROCESSORS_ONLN),
#if defined(__clang__)
           "clang ",
#elif defined(__GNUC__)
           "gcc ",
#else
           "",
#endif
#if defined(__VERSION__)
           __VERSION__,
#else
           "unknown",
#endif
           (unsigned long)sizeof(ct_chunk), CT_CTC_FILE_BYTES, CT_U16LE_FILE_BYTES);
}

int main(void)
{
    char line[512], err[256], preset[64];
    ct_world *w = NULL;
    ct_chunk *chunk = (ct_chunk *)malloc(sizeof *chunk);
    int have_chunk = 0;
    if (!chunk) { fprintf(stderr, "bench_native: out of memory\n"); return 1; }
    while (fgets(line, sizeof line, stdin)) {
        unsigned res, face, lod, x, y;
        int stride, water = 0;
        double skirt = 0.0;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (!strncmp(line, "quit", 4)) break;
        if (!strncmp(line, "info", 4)) {
            cmd_info();
        } else if (sscanf(line, "build %63s %u", preset, &res) == 2) {
            cmd_build(preset, res);
        } else if (sscanf(line, "world %63s %u", preset, &res) == 2) {
            ct_config cfg;
            ct_world_stats st;
            unsigned lod;
            char lodtext[16];
            int ok;
            if (w) ct_world_free(w);
            have_chunk = 0;
            ok = make_config(&cfg, preset, res, err, sizeof err);
            if (ok && sscanf(line, "world %63s %u %u", preset, &res, &lod) == 3) {
                sprintf(lodtext, "%u", lod);
                ok = ct_config_set(&cfg, "surface_lod", lodtext, err, sizeof err) == CT_OK;
            }
            w = ok ? ct_world_build(&cfg, NULL, NULL, err, sizeof err) : NULL;
            if (!w || ct_world_stats_get(w, &st) != CT_OK) reply_error(err);
            else printf("{\"ok\": true, \"surface_lod\": %u, \"bytes_held\": %lu, \"snapshot_bytes\": %lu}\n",
                        cfg.surface_lod, (unsigned long)st.bytes_held, (unsigned long)ct_world_snapshot_size(w));
        } else if (sscanf(line, "chunk %u %u %u %u", &face, &lod, &x, &y) == 4) {
            ct_key k;
            double c0, t0, ms, cpu;
            unsigned i, dry = 0;
            k.face = face; k.lod = lod; k.x = x; k.y = y;
            if (!w) { reply_error("no world (send: world PRESET RES)"); fflush(stdout); continue; }
            c0 = cpu_ms();
            t0 = now_ms();
            if (ct_chunk_generate(w, k, chunk, err, sizeof err) != CT_OK) { reply_error(err); fflush(stdout); continue; }
            ms = now_ms() - t0;
            cpu = cpu_ms() - c0;
            have_chunk = 1;
            for (i = 0; i < CT_CHUNK_SAMPLES; i++) dry += chunk->water[i] == 0;
            printf("{\"ok\": true, \"ms\": %.4f, \"cpu_ms\": %.4f, \"digest\": \"%016llx\", \"dry\": %u}\n",
                   ms, cpu, (unsigned long long)chunk->digest, dry);
        } else if (sscanf(line, "mesh %d", &stride) == 1) {
            ct_mesh_options mo;
            ct_mesh_layout lay;
            ct_mesh m;
            double t0, ms;
            memset(&mo, 0, sizeof mo);
            memset(&m, 0, sizeof m);
            mo.stride = stride;
            if (sscanf(line, "mesh %d %lf %d", &stride, &skirt, &water) == 3) {
                mo.skirt_depth_m = skirt;
                mo.water = water;
            }
            if (!have_chunk) { reply_error("no chunk yet"); fflush(stdout); continue; }
            if (ct_mesh_layout_get(&mo, &lay, err, sizeof err) != CT_OK) { reply_error(err); fflush(stdout); continue; }
            m.positions = (float *)malloc(lay.vertex_count * 3 * sizeof(float));
            m.normals = (float *)malloc(lay.vertex_count * 3 * sizeof(float));
            m.colors = (uint8_t *)malloc(lay.vertex_count * 4);
            m.indices = malloc((size_t)lay.index_count * lay.index_bytes);
            if (!m.positions || !m.normals || !m.colors || !m.indices) {
                reply_error("out of memory");
            } else {
                t0 = now_ms();
                if (ct_mesh_build(w, chunk, &mo, NULL, &m, err, sizeof err) != CT_OK) reply_error(err);
                else {
                    uint64_t d = CT_FNV1A64_INIT;
                    ms = now_ms() - t0;
                    d = ct_fnv1a64(m.positions, (size_t)m.vertex_count * 3 * sizeof(float), d);
                    d = ct_fnv1a64(m.normals, (size_t)m.vertex_count * 3 * sizeof(float), d);
                    d = ct_fnv1a64(m.colors, (size_t)m.vertex_count * 4, d);
                    d = ct_fnv1a64(m.indices, (size_t)m.index_count * lay.index_bytes, d);
                    d = ct_fnv1a64(m.center_m, sizeof m.center_m, d);
                    d = ct_fnv1a64(&m.radius_m, sizeof m.radius_m, d);
                    printf("{\"ok\": true, \"ms\": %.4f, \"vertex_count\": %u, \"index_count\": %u, \"bytes\": %lu, "
                           "\"digest\": \"%016llx\"}\n",
                           ms, (unsigned)m.vertex_count, (unsigned)m.index_count,
                           (unsigned long)((size_t)m.vertex_count * 28 + (size_t)m.index_count * lay.index_bytes),
                           (unsigned long long)d);
                }
            }
            free(m.positions); free(m.normals); free(m.colors); free(m.indices);
        } else {
            reply_error("unknown command");
        }
        fflush(stdout);
    }
    if (w) ct_world_free(w);
    free(chunk);
    return 0;
}
