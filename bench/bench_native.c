/* bench_native.c - the native half of the benchmarks (`make bench`).
 *
 * Measures world build time and peak memory per preset and macro resolution,
 * chunk generation at surface_lod, mesh build per stride and the byte sizes a
 * cache or renderer holds. Prints a table; with CT_BENCH_JSON=path (or
 * --json path) also writes the figures as JSON for scripts/bench.mjs, which
 * runs the WASM, plain-JS and worker halves in the same run. CT_BENCH_QUICK=1
 * (or --quick) cuts repetitions for a smoke run.
 *
 * Peak memory: each build series runs in a forked child (Linux), which reads
 * VmHWM (peak resident set) from /proc/self/status and subtracts the resident
 * set it started with, so every figure starts from the same clean process
 * state and freed memory kept by malloc cannot hide a later peak. Elsewhere
 * the peak is reported as null. Timings are wall clock (CLOCK_MONOTONIC).
 */
#include "ct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_REPS 16
#define CHUNK_KEYS 24       /* timed chunks */
#define CHUNK_WARMUP 2      /* untimed chunks before them */
#define MESH_REPS 12

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

/* CPU time of the calling thread: steadier than wall time when other work
 * shares the machine (recorded beside it, never instead of it). */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1.0e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct summary { int n; double min, median, p95, max; } summary;

/* Nearest-rank percentiles, the same rule as bench/common.mjs. */
static summary summarize(const double *xs, int n)
{
    double s[256];
    summary r;
    int i;
    memset(&r, 0, sizeof r);
    if (n <= 0 || n > 256) return r;
    for (i = 0; i < n; i++) s[i] = xs[i];
    qsort(s, (size_t)n, sizeof s[0], cmp_double);
    r.n = n;
    r.min = s[0];
    r.max = s[n - 1];
    i = (int)(0.5 * n + 0.999999) - 1; r.median = s[i < 0 ? 0 : i];
    i = (int)(0.95 * n + 0.999999) - 1; r.p95 = s[i < 0 ? 0 : (i >= n ? n - 1 : i)];
    return r;
}

static void json_summary(FILE *f, const char *name, summary s, const double *raw)
{
    int i;
    fprintf(f, "\"%s\": {\"n\": %d, \"min\": %.4f, \"median\": %.4f, \"p95\": %.4f, \"max\": %.4f, \"raw\": [",
            name, s.n, s.min, s.median, s.p95, s.max);
    for (i = 0; i < s.n; i++) fprintf(f, "%s%.4f", i ? ", " : "", raw[i]);
    fprintf(f, "]}");
}

/* Resident set figures from /proc/self/status in bytes, -1 if unavailable. */
static long long proc_status_kb(const char *field)
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

/* ------------------------------------------------------------ world builds */
typedef struct build_result {
    char preset[32];
    unsigned res, vertex_count, passes;
    int reps;
    double ms[MAX_REPS];
    double cpu[MAX_REPS];
    long long peak_bytes;      /* -1 unknown */
    long long bytes_held;
    long long snapshot_bytes;
    int ok;
    char err[200];
} build_result;

static int make_config(ct_config *cfg, const char *preset, unsigned res, char *err, size_t errlen)
{
    char v[32];
    if (ct_config_preset(cfg, preset, err, errlen) != CT_OK) return 0;
    sprintf(v, "%u", res);
    return ct_config_set(cfg, "macro_resolution", v, err, errlen) == CT_OK;
}

/* Runs reps builds in this process; fills r. */
static void build_series(build_result *r)
{
    ct_config cfg;
    int i;
    r->ok = 0;
    if (!make_config(&cfg, r->preset, r->res, r->err, sizeof r->err)) return;
    for (i = 0; i < r->reps; i++) {
        double c0 = cpu_ms(), t0 = now_ms();
        ct_world *w = ct_world_build(&cfg, NULL, NULL, r->err, sizeof r->err);
        double t1 = now_ms(), c1 = cpu_ms();
        ct_world_stats st;
        if (!w) return;
        r->ms[i] = t1 - t0;
        r->cpu[i] = c1 - c0;
        if (i == 0 && ct_world_stats_get(w, &st) == CT_OK) {
            r->vertex_count = st.vertex_count;
            r->passes = st.passes;
            r->bytes_held = (long long)st.bytes_held;
            r->snapshot_bytes = (long long)ct_world_snapshot_size(w);
        }
        ct_world_free(w);
    }
    r->ok = 1;
}

/* The series in a child process, so its peak memory is its own. */
static void build_measured(build_result *r)
{
#if defined(__linux__)
    int fd[2];
    pid_t pid;
    if (pipe(fd) == 0 && (pid = fork()) >= 0) {
        if (pid == 0) {
            long long base;
            close(fd[0]);
            base = proc_status_kb("VmRSS");
            build_series(r);
            r->peak_bytes = -1;
            if (base >= 0) {
                long long hwm = proc_status_kb("VmHWM");
                if (hwm >= 0) r->peak_bytes = hwm - base;
            }
            if (write(fd[1], r, sizeof *r) != (ssize_t)sizeof *r) _exit(1);
            _exit(0);
        } else {
            size_t got = 0;
            close(fd[1]);
            while (got < sizeof *r) {
                ssize_t k = read(fd[0], (char *)r + got, sizeof *r - got);
                if (k <= 0) break;
                got += (size_t)k;
            }
            close(fd[0]);
            waitpid(pid, NULL, 0);
            if (got != sizeof *r) { r->ok = 0; strcpy(r->err, "benchmark child failed"); }
            return;
        }
    }
#endif
    build_series(r);
    r->peak_bytes = -1;
}

/* ------------------------------------------------------------------ chunks */
/* The i-th benchmark key: must match benchKey() in bench/common.mjs. */
static ct_key bench_key(int i, int lod)
{
    ct_key k;
    uint32_t side = 1u << lod;
    k.face = i % 6;
    k.lod = lod;
    k.x = (uint32_t)(i * 37 + 11) % side;
    k.y = (uint32_t)(i * 53 + 5) % side;
    return k;
}

static const int g_strides[] = {1, 2, 4, 8, 16};
#define NSTRIDES ((int)(sizeof g_strides / sizeof g_strides[0]))

int main(int argc, char **argv)
{
    const char *json_path = getenv("CT_BENCH_JSON");
    int quick = getenv("CT_BENCH_QUICK") && atoi(getenv("CT_BENCH_QUICK")) > 0;
    static const unsigned resolutions[] = {64, 128, 256};
    build_result *builds;
    int nbuild = 0, npreset = (int)ct_preset_count(), i, j, lod;
    char err[256];
    ct_config cfg;
    ct_world *w;
    ct_chunk *chunk;
    double chunk_ms[CHUNK_KEYS], chunk_cpu[CHUNK_KEYS], mesh_ms[NSTRIDES][MESH_REPS], t_all = now_ms();
    uint64_t digests[CHUNK_KEYS];
    ct_mesh_layout lay[NSTRIDES];
    FILE *jf = NULL;
    struct utsname un;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && i + 1 < argc) json_path = argv[++i];
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else { fprintf(stderr, "usage: bench_native [--json PATH] [--quick]\n"); return 2; }
    }

    /* -------- world builds: every preset at 64, 128, 256 */
    builds = (build_result *)calloc((size_t)npreset * 3, sizeof *builds);
    chunk = (ct_chunk *)malloc(sizeof *chunk);
    if (!builds || !chunk) { fprintf(stderr, "bench_native: out of memory\n"); return 1; }
    {
        /* Untimed warm-up: page in code and let the allocator settle. */
        build_result warm;
        memset(&warm, 0, sizeof warm);
        strcpy(warm.preset, "balanced"); warm.res = 64; warm.reps = 1;
        build_series(&warm);
    }
    printf("native world builds (ms, min/median/max; peak = extra resident memory during the build)\n");
    printf("%-12s %5s %9s %5s %9s %9s %9s %10s %10s\n", "preset", "res", "vertices", "reps",
           "min", "median", "max", "peak MiB", "held MiB");
    for (j = 0; j < 3; j++) {
        for (i = 0; i < npreset; i++) {
            build_result *r = &builds[nbuild++];
            double s[MAX_REPS];
            summary sm;
            int k;
            strncpy(r->preset, ct_preset_name((size_t)i), sizeof r->preset - 1);
            r->res = resolutions[j];
            /* Cost grows with resolution; keep the whole run to minutes. */
            r->reps = quick ? 1 : (r->res == 64 ? 5 : 3);   /* = buildReps() in common.mjs */
            build_measured(r);
            if (!r->ok) {
                printf("%-12s %5u  failed: %s\n", r->preset, r->res, r->err);
                continue;
            }
            for (k = 0; k < r->reps; k++) s[k] = r->ms[k];
            sm = summarize(s, r->reps);
            printf("%-12s %5u %9u %5d %9.1f %9.1f %9.1f %10.1f %10.1f\n", r->preset, r->res,
                   r->vertex_count, r->reps, sm.min, sm.median, sm.max,
                   r->peak_bytes < 0 ? -1.0 : (double)r->peak_bytes / 1048576.0,
                   (double)r->bytes_held / 1048576.0);
            fflush(stdout);
        }
    }

    /* -------- chunks and meshes on the default world */
    ct_config_default(&cfg);
    w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
    if (!w) { fprintf(stderr, "bench_native: build: %s\n", err); return 1; }
    lod = (int)cfg.surface_lod;
    for (i = 0; i < CHUNK_WARMUP + CHUNK_KEYS; i++) {
        ct_key k = bench_key(i, lod);
        double c0 = cpu_ms(), t0 = now_ms();
        if (ct_chunk_generate(w, k, chunk, err, sizeof err) != CT_OK) {
            fprintf(stderr, "bench_native: chunk: %s\n", err);
            return 1;
        }
        if (i >= CHUNK_WARMUP) {
            chunk_ms[i - CHUNK_WARMUP] = now_ms() - t0;
            chunk_cpu[i - CHUNK_WARMUP] = cpu_ms() - c0;
            digests[i - CHUNK_WARMUP] = chunk->digest;
        }
    }
    {
        summary s = summarize(chunk_ms, CHUNK_KEYS);
        printf("\nnative chunk generation at LOD %d (257x257, every field; %d chunks after %d untimed): "
               "median %.2f ms, p95 %.2f ms, min %.2f, max %.2f\n",
               lod, CHUNK_KEYS, CHUNK_WARMUP, s.median, s.p95, s.min, s.max);
    }

    /* Mesh build only (the chunk is already generated), per stride. */
    printf("\nnative mesh build per stride (chunk already generated; %d reps after 1 untimed)\n", MESH_REPS);
    printf("%6s %9s %9s %9s %9s %11s\n", "stride", "vertices", "indices", "median", "max", "bytes");
    for (j = 0; j < NSTRIDES; j++) {
        ct_mesh_options mo;
        ct_mesh m;
        summary s;
        size_t vb;
        int rep;
        memset(&mo, 0, sizeof mo);
        memset(&m, 0, sizeof m);
        mo.stride = g_strides[j];
        if (ct_mesh_layout_get(&mo, &lay[j], err, sizeof err) != CT_OK) {
            fprintf(stderr, "bench_native: mesh layout: %s\n", err);
            return 1;
        }
        vb = lay[j].vertex_count;
        m.positions = (float *)malloc(vb * 3 * sizeof(float));
        m.normals = (float *)malloc(vb * 3 * sizeof(float));
        m.colors = (uint8_t *)malloc(vb * 4);
        m.indices = malloc((size_t)lay[j].index_count * lay[j].index_bytes);
        if (!m.positions || !m.normals || !m.colors || !m.indices) return 1;
        for (rep = -1; rep < MESH_REPS; rep++) {
            double t0 = now_ms();
            if (ct_mesh_build(w, chunk, &mo, NULL, &m, err, sizeof err) != CT_OK) {
                fprintf(stderr, "bench_native: mesh: %s\n", err);
                return 1;
            }
            if (rep >= 0) mesh_ms[j][rep] = now_ms() - t0;
        }
        lay[j].vertex_count = m.vertex_count;   /* what was written */
        lay[j].index_count = m.index_count;
        s = summarize(mesh_ms[j], MESH_REPS);
        printf("%6d %9u %9u %9.2f %9.2f %11lu\n", mo.stride, (unsigned)m.vertex_count,
               (unsigned)m.index_count, s.median, s.max,
               (unsigned long)((size_t)m.vertex_count * 28 + (size_t)m.index_count * lay[j].index_bytes));
        free(m.positions); free(m.normals); free(m.colors); free(m.indices);
    }
    {
        ct_world_stats st;
        memset(&st, 0, sizeof st);
        (void)ct_world_stats_get(w, &st);
        printf("\nbytes: ct_chunk %lu, .ctc file %d, world held %lu, snapshot %lu\n",
               (unsigned long)sizeof(ct_chunk), CT_CTC_FILE_BYTES,
               (unsigned long)st.bytes_held, (unsigned long)ct_world_snapshot_size(w));
        printf("native half done in %.1f s\n", (now_ms() - t_all) / 1000.0);

        if (json_path && !(jf = fopen(json_path, "w")))
            fprintf(stderr, "bench_native: cannot write %s\n", json_path);
        if (jf) {
            summary cs = summarize(chunk_ms, CHUNK_KEYS);
            uname(&un);
            fprintf(jf, "{\n\"machine\": {\"os\": \"%s %s\", \"arch\": \"%s\", \"cpus_online\": %ld},\n",
                    un.sysname, un.release, un.machine, sysconf(_SC_NPROCESSORS_ONLN));
#if defined(__VERSION__)
            fprintf(jf, "\"compiler\": \"%s%s\",\n",
#if defined(__clang__)
                    "clang ",
#elif defined(__GNUC__)
                    "gcc ",
#else
                    "",
#endif
                    __VERSION__);
#endif
            fprintf(jf, "\"quick\": %s,\n\"warmup\": \"one untimed balanced/64 build before the series; "
                        "%d untimed chunks; 1 untimed mesh per stride\",\n", quick ? "true" : "false", CHUNK_WARMUP);
            fprintf(jf, "\"builds\": [\n");
            for (i = 0; i < nbuild; i++) {
                build_result *r = &builds[i];
                fprintf(jf, "  {\"preset\": \"%s\", \"macro_resolution\": %u, \"ok\": %s",
                        r->preset, r->res, r->ok ? "true" : "false");
                if (r->ok) {
                    fprintf(jf, ", \"vertex_count\": %u, \"passes\": %u, \"bytes_held\": %lld, "
                                "\"snapshot_bytes\": %lld, \"peak_bytes\": ",
                            r->vertex_count, r->passes, r->bytes_held, r->snapshot_bytes);
                    if (r->peak_bytes < 0) fprintf(jf, "null, "); else fprintf(jf, "%lld, ", r->peak_bytes);
                    json_summary(jf, "ms", summarize(r->ms, r->reps), r->ms);
                    fprintf(jf, ", ");
                    json_summary(jf, "cpu_ms", summarize(r->cpu, r->reps), r->cpu);
                }
                fprintf(jf, "}%s\n", i + 1 < nbuild ? "," : "");
            }
            fprintf(jf, "],\n\"chunk\": {\"lod\": %d, \"keys\": %d, ", lod, CHUNK_KEYS);
            json_summary(jf, "ms", cs, chunk_ms);
            fprintf(jf, ", ");
            json_summary(jf, "cpu_ms", summarize(chunk_cpu, CHUNK_KEYS), chunk_cpu);
            fprintf(jf, ", \"digests\": [");
            for (i = 0; i < CHUNK_KEYS; i++)
                fprintf(jf, "%s\"%016llx\"", i ? ", " : "", (unsigned long long)digests[i]);
            fprintf(jf, "]},\n\"mesh\": [\n");
            for (j = 0; j < NSTRIDES; j++) {
                fprintf(jf, "  {\"stride\": %d, \"vertex_count\": %u, \"index_count\": %u, \"bytes\": %lu, ",
                        g_strides[j], (unsigned)lay[j].vertex_count, (unsigned)lay[j].index_count,
                        (unsigned long)((size_t)lay[j].vertex_count * 28 +
                                        (size_t)lay[j].index_count * lay[j].index_bytes));
                json_summary(jf, "ms", summarize(mesh_ms[j], MESH_REPS), mesh_ms[j]);
                fprintf(jf, "}%s\n", j + 1 < NSTRIDES ? "," : "");
            }
            fprintf(jf, "],\n\"bytes\": {\"chunk_struct\": %lu, \"chunk_ctc\": %d, \"chunk_u16le\": %d, "
                        "\"world_held\": %lu, \"snapshot\": %lu},\n",
                    (unsigned long)sizeof(ct_chunk), CT_CTC_FILE_BYTES, CT_U16LE_FILE_BYTES,
                    (unsigned long)st.bytes_held, (unsigned long)ct_world_snapshot_size(w));
            fprintf(jf, "\"total_s\": %.2f\n}\n", (now_ms() - t_all) / 1000.0);
            fclose(jf);
        }
    }
    ct_world_free(w);
    free(chunk);
    free(builds);
    return 0;
}
