/* terrain.c - the native command-line tool: resolve a config, build (or load)
 * a world, write its snapshot and chunk files, print digests, knobs, point
 * samples and chunk locations, and draw previews and diagnostics.
 *
 * Exit status: 0 success, 1 runtime failure (build, file I/O), 2 bad
 * arguments (usage, unknown knob, out-of-range value, malformed input file). */
#include "ct.h"
#include "image.h"
#include "verify.h"
#include "palette_bmp.h"
#include "bake.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* FNV-1a 64 of the chunk's float heights as little-endian float32 bits: the
 * parity tests compare it with the Node twin's (files carry only the codes). */
static uint64_t heights_m_digest(const ct_chunk *chunk)
{
    static uint8_t b[4 * CT_CHUNK_SAMPLES];
    size_t k;
    for (k = 0; k < CT_CHUNK_SAMPLES; k++) {
        uint32_t u;
        memcpy(&u, &chunk->height_m[k], sizeof u);
        b[4 * k] = (uint8_t)u;
        b[4 * k + 1] = (uint8_t)(u >> 8);
        b[4 * k + 2] = (uint8_t)(u >> 16);
        b[4 * k + 3] = (uint8_t)(u >> 24);
    }
    return ct_fnv1a64(b, sizeof b, CT_FNV1A64_INIT);
}
#include <sys/types.h>

#define MAX_CHUNKS 256
#define MAX_ECHO 256

static const char usage_text[] =
    "usage: terrain [options]\n"
    "  --preset NAME         reset every knob to a preset (listed below); default balanced\n"
    "  --set NAME=VALUE      override one knob (repeatable; applied in order)\n"
    "  --config FILE         apply name=value lines from FILE ('#' comments)\n"
    "  --load FILE           load a CTWORLD2 snapshot instead of building\n"
    "  --out DIR             write DIR/world.ctw and DIR/chunk_<face>_<lod>_<x>_<y>.ctc/.u16le\n"
    "  --chunk FACE LOD X Y  generate a chunk (repeatable); FACE as +Z or pz\n"
    "  --palette FILE        40 RRGGBB lines used for pictures (never changes terrain)\n"
    "  --palette-from-bmp F  read palette rows from a 24/32-bit BMP (row k = biome k) and\n"
    "  --palette-out FILE    write them as the 40-line --palette file; nothing else runs\n"
    "  --knobs               list every knob with default, range and description\n"
    "  --diagnostics         write regions_FACE.ppm and height_FACE.ppm (into --out or .)\n"
    "  --preview FILE        equirectangular colour picture (.ppm, or .png)\n"
    "  --preview-width N     preview width in pixels (height N/2; default 1024)\n"
    "  --locate X Y Z [LOD]  chunk key, local position and address of a direction\n"
    "  --sample X Y Z        every ct_sample field at a direction\n"
    "  --verify FILE         check a .ctc or .ctw file; print kind, generation, key, digest\n"
    "                        (exit 0), or one line saying why it is bad (exit 2)\n"
    "  --help                this text\n"
    "  bake ...              a static tile pyramid (terrain bake --help; docs/bake.md)\n";

typedef struct options {
    ct_config cfg;
    const char *load, *out, *palette, *preview;
    const char *palette_bmp, *palette_out;   /* --palette-from-bmp, --palette-out */
    int knobs, diagnostics, help, preview_width;
    ct_key chunks[MAX_CHUNKS];
    int chunk_count;
    double locate[3], sample[3];
    int has_locate, locate_lod, has_sample;
    const char *echo[MAX_ECHO];
    int echo_count, config_given;
} options;

/* The options, then every preset with its line from the core's table. */
static void print_usage(FILE *f)
{
    size_t i;
    fputs(usage_text, f);
    fputs("presets:\n", f);
    for (i = 0; i < ct_preset_count(); i++) fprintf(f, "  %-21s %s\n", ct_preset_name(i), ct_preset_doc(i));
}

static int usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "terrain: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    print_usage(stderr);
    return 2;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;
    if (!s || !*s) return 0;
    v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    double v;
    if (!s || !*s) return 0;
    v = strtod(s, &end);
    if (*end || !(v - v == 0.0)) return 0;
    *out = v;
    return 1;
}

/* Reads a whole text file (NUL-terminated, length in *len_out); NULL with a
 * message on failure, a read error included (a directory opens but does not
 * read). */
static char *read_text(const char *path, size_t *len_out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    if (!f) { snprintf(err, errlen, "cannot open '%s'", path); return NULL; }
    do {
        if (cap - len < 4096) {
            char *nb = (char *)realloc(buf, cap + 65536);
            if (!nb) { free(buf); fclose(f); snprintf(err, errlen, "out of memory"); return NULL; }
            buf = nb;
            cap += 65536;
        }
        got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
    } while (got > 0);
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[len] = '\0';
    if (len_out) *len_out = len;
    return buf;
}

/* One "name value" line per row of ct_stats.def, after the generation. */
static void print_stats(const ct_world *w)
{
    ct_world_stats st;
    uint64_t g = ct_world_generation(w);
    size_t k;
    ct_world_stats_get(w, &st);
    printf("generation %08lx%08lx\n", (unsigned long)(uint32_t)(g >> 32), (unsigned long)(uint32_t)g);
    for (k = 0; k < ct_stat_count(); k++) {
        const ct_stat_info *s = ct_stat_get(k);
        double v = ct_world_stats_value(&st, s);
        if (s->kind != CT_STAT_REAL) printf("%s %.0f\n", s->name, v);
        else if (s->conv == 'g') printf("%s %.*g\n", s->name, s->digits, v);
        else printf("%s %.*f\n", s->name, s->digits, v);
    }
}

static void print_knobs(void)
{
    size_t k;
    for (k = 0; k < ct_knob_count(); k++) {
        const ct_knob_info *kn = ct_knob_get(k);
        if (kn->kind == CT_KNOB_UINT)
            printf("%-22s uint default %.0f range %.0f..%.0f  %s\n", kn->name, kn->def, kn->min,
                   kn->max, kn->doc);
        else
            printf("%-22s real default %.10g range %.10g..%.10g  %s\n", kn->name, kn->def, kn->min,
                   kn->max, kn->doc);
    }
}

/* Face pixel (px, py) of a size x size image -> direction at its centre. */
static void face_pixel_dir(int face, int px, int py, int size, double dir[3])
{
    double u = 2.0 * ((px + 0.5) / size) - 1.0, v = 2.0 * ((py + 0.5) / size) - 1.0;
    ct_face_to_direction(face, u, v, dir, NULL, 0);
}

/* Purple -> blue -> cyan -> green -> yellow -> red over t in [0,1]. */
static void ramp(double t, uint8_t *rgb)
{
    static const double stops[6][3] = {
        {90, 0, 140}, {0, 40, 220}, {0, 200, 220}, {40, 200, 40}, {240, 230, 0}, {220, 20, 0}
    };
    double x = (t < 0 ? 0 : t > 1 ? 1 : t) * 5.0;
    int i = (int)x, c;
    double f;
    if (i > 4) i = 4;
    f = x - i;
    for (c = 0; c < 3; c++) rgb[c] = (uint8_t)(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f + 0.5);
}

static int write_diagnostics(const ct_world *w, const char *dir)
{
    static const uint8_t region_rgb[CT_REGION_COUNT][3] = {
        {0, 210, 220}, {40, 190, 60}, {235, 215, 40}, {220, 50, 40}   /* plains ridges broken basins */
    };
    const int size = 256;
    const double q = ct_world_config(w)->height_quantum_m;
    uint8_t *reg = (uint8_t *)malloc((size_t)size * size * 3), *hgt = (uint8_t *)malloc((size_t)size * size * 3);
    char path[4096], err[256];
    int face, px, py, rc = 0;
    if (!reg || !hgt) { free(reg); free(hgt); fprintf(stderr, "terrain: out of memory\n"); return 1; }
    for (face = 0; face < 6 && rc == 0; face++) {
        for (py = 0; py < size; py++) {
            for (px = 0; px < size; px++) {
                double d[3];
                ct_sample s;
                ct_region_info ri;
                uint8_t *r = reg + 3 * ((size_t)py * size + px), *h = hgt + 3 * ((size_t)py * size + px);
                int c;
                face_pixel_dir(face, px, py, size, d);
                ct_world_sample(w, d, &s, NULL, 0);
                ct_world_region(w, d, &ri, NULL, 0);
                for (c = 0; c < 3; c++)
                    r[c] = (uint8_t)(s.has_water ? region_rgb[ri.dominant & 3][c] * 0.3
                                                 : region_rgb[ri.dominant & 3][c]);
                ramp(ct_height_encode(s.height_m, q, NULL) / 65535.0, h);
            }
        }
        snprintf(path, sizeof path, "%s/regions_%s.ppm", dir, ct_face_file_name(face));
        if (cli_image_write(path, size, size, reg, err, sizeof err)) rc = 1;
        else printf("diagnostics %s\n", path);
        snprintf(path, sizeof path, "%s/height_%s.ppm", dir, ct_face_file_name(face));
        if (rc == 0 && cli_image_write(path, size, size, hgt, err, sizeof err)) rc = 1;
        else if (rc == 0) printf("diagnostics %s\n", path);
    }
    if (rc) fprintf(stderr, "terrain: %s\n", err);
    free(reg);
    free(hgt);
    return rc;
}

static int write_preview(const ct_world *w, const ct_palette *pal, const char *path, int width)
{
    int height = width / 2, x, y;
    uint8_t *img = (uint8_t *)malloc((size_t)width * height * 3);
    char err[256];
    const double pi = 3.14159265358979323846;
    if (!img) { fprintf(stderr, "terrain: out of memory\n"); return 1; }
    for (y = 0; y < height; y++) {
        double lat = pi / 2 - (y + 0.5) / height * pi;
        for (x = 0; x < width; x++) {
            double lon = (x + 0.5) / width * 2 * pi - pi, d[3], de[3], shade;
            ct_sample s, se;
            uint8_t *p = img + 3 * ((size_t)y * width + x);
            int c;
            d[0] = cos(lat) * sin(lon); d[1] = sin(lat); d[2] = cos(lat) * cos(lon);
            /* A little hillshade from the height one pixel east. */
            de[0] = cos(lat) * sin(lon + 2 * pi / width); de[1] = d[1];
            de[2] = cos(lat) * cos(lon + 2 * pi / width);
            ct_world_sample(w, d, &s, NULL, 0);
            ct_world_sample(w, de, &se, NULL, 0);
            shade = s.has_water ? 1.0 : 1.0 + (s.height_m - se.height_m) / 1500.0;
            if (shade < 0.6) shade = 0.6;
            if (shade > 1.3) shade = 1.3;
            for (c = 0; c < 3; c++) {
                double v = pal->rgb[s.palette_index][c] * shade;
                p[c] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
    }
    if (cli_image_write(path, width, height, img, err, sizeof err)) {
        fprintf(stderr, "terrain: %s\n", err);
        free(img);
        return 1;
    }
    printf("preview %s %dx%d\n", path, width, height);
    free(img);
    return 0;
}

static int write_chunks(const ct_world *w, const options *o)
{
    ct_chunk *chunk = (ct_chunk *)malloc(sizeof *chunk);
    uint8_t *ctc = (uint8_t *)malloc(CT_CTC_FILE_BYTES), *u16 = (uint8_t *)malloc(CT_U16LE_FILE_BYTES);
    char err[256], path[4096];
    int k, rc = 0;
    if (!chunk || !ctc || !u16) { fprintf(stderr, "terrain: out of memory\n"); rc = 1; goto done; }
    for (k = 0; k < o->chunk_count; k++) {
        ct_key key = o->chunks[k];
        ct_result r = ct_chunk_generate(w, key, chunk, err, sizeof err);
        if (r) {
            fprintf(stderr, "terrain: chunk %s %d %lu %lu: %s\n", ct_face_name(key.face), (int)key.lod,
                    (unsigned long)key.x, (unsigned long)key.y, err);
            rc = (r == CT_ERR_LOD || r == CT_ERR_CHUNK_XY || r == CT_ERR_FACE) ? 2 : 1;
            goto done;
        }
        {
            uint64_t hm = heights_m_digest(chunk);
            printf("chunk %s %d %lu %lu digest %08lx%08lx clipped %lu heights_m %08lx%08lx\n", ct_face_name(key.face),
                   (int)key.lod, (unsigned long)key.x, (unsigned long)key.y, (unsigned long)(uint32_t)(chunk->digest >> 32),
                   (unsigned long)(uint32_t)chunk->digest, (unsigned long)chunk->clipped,
                   (unsigned long)(uint32_t)(hm >> 32), (unsigned long)(uint32_t)hm);
        }
        if (!o->out) continue;
        snprintf(path, sizeof path, "%s/chunk_%s_%d_%lu_%lu.ctc", o->out, ct_face_file_name(key.face),
                 (int)key.lod, (unsigned long)key.x, (unsigned long)key.y);
        if (ct_chunk_encode_ctc(chunk, ctc, CT_CTC_FILE_BYTES, err, sizeof err) ||
            ct_file_write_atomic(path, ctc, CT_CTC_FILE_BYTES, err, sizeof err)) {
            fprintf(stderr, "terrain: %s\n", err);
            rc = 1;
            goto done;
        }
        snprintf(path + strlen(path) - 4, 8, ".u16le");
        if (ct_chunk_encode_u16le(chunk, u16, CT_U16LE_FILE_BYTES, err, sizeof err) ||
            ct_file_write_atomic(path, u16, CT_U16LE_FILE_BYTES, err, sizeof err)) {
            fprintf(stderr, "terrain: %s\n", err);
            rc = 1;
            goto done;
        }
    }
done:
    free(chunk);
    free(ctc);
    free(u16);
    return rc;
}

/* --preset NAME, --set NAME=VALUE or --config FILE: one config edit, in
 * command-line order. Returns 0 or an exit status. */
static int parse_config_edit(options *o, const char *arg, const char *value)
{
    char err[512];
    ct_result r;
    if (arg[2] == 'p') {
        r = ct_config_preset(&o->cfg, value, err, sizeof err);
    } else if (arg[2] == 's') {
        char name[128];
        const char *eq = strchr(value, '=');
        if (!eq || eq == value || (size_t)(eq - value) >= sizeof name)
            return usage("--set expects NAME=VALUE, got '%s'", value);
        memcpy(name, value, (size_t)(eq - value));
        name[eq - value] = '\0';
        r = ct_config_set(&o->cfg, name, eq + 1, err, sizeof err);
    } else {
        size_t len = 0;
        char *text = read_text(value, &len, err, sizeof err);
        if (!text) { fprintf(stderr, "terrain: --config: %s\n", err); return 2; }
        r = ct_config_parse_n(&o->cfg, text, len, err, sizeof err);
        free(text);
    }
    if (r) {
        fprintf(stderr, "terrain: %s %s: %s\n", arg, value, err);
        return 2;
    }
    o->config_given = 1;
    if (o->echo_count < MAX_ECHO - 1) {
        o->echo[o->echo_count++] = arg;
        o->echo[o->echo_count++] = value;
    }
    return 0;
}

/* --chunk FACE LOD X Y (v holds the four words). */
static int parse_chunk(options *o, char **v)
{
    long lod, x, y;
    int face;
    ct_key key;
    char err[512];
    if (ct_face_parse(v[0], &face) != CT_OK)
        return usage("--chunk: bad face '%s' (use +X -X +Y -Y +Z -Z or px nx py ny pz nz)", v[0]);
    if (!parse_long(v[1], 0, CT_MAX_LOD, &lod))
        return usage("--chunk: LOD '%s' is not an integer 0..16", v[1]);
    if (!parse_long(v[2], 0, 65535, &x) || !parse_long(v[3], 0, 65535, &y))
        return usage("--chunk: X and Y must be integers below 2^LOD%s", "");
    key.face = face;
    key.lod = (int32_t)lod;
    key.x = (uint32_t)x;
    key.y = (uint32_t)y;
    if (ct_key_validate(key, err, sizeof err) != CT_OK) return usage("--chunk: %s", err);
    if (o->chunk_count >= MAX_CHUNKS) return usage("too many --chunk options (max 256)%s", "");
    o->chunks[o->chunk_count++] = key;
    return 0;
}

/* --locate X Y Z [LOD] or --sample X Y Z at argv[*a]; advances *a past
 * the words it takes. */
static int parse_direction(options *o, int argc, char **argv, int *a)
{
    const char *arg = argv[*a];
    double *v = arg[2] == 'l' ? o->locate : o->sample;
    int c;
    if (argc - *a - 1 < 3) return usage("%s needs X Y Z", arg);
    for (c = 0; c < 3; c++)
        if (!parse_double(argv[*a + 1 + c], &v[c]))
            return usage("bad direction component '%s'", argv[*a + 1 + c]);
    *a += 3;
    if (arg[2] == 'l') {
        long lod;
        o->has_locate = 1;
        if (*a + 1 < argc && parse_long(argv[*a + 1], 0, CT_MAX_LOD, &lod)) {
            o->locate_lod = (int)lod;
            (*a)++;
        }
    } else {
        o->has_sample = 1;
    }
    return 0;
}

/* One option at argv[*a] (flags, config edits, files, chunks, directions);
 * advances *a past its arguments. Returns 0 or an exit status. */
static int parse_option(options *o, int argc, char **argv, int *a)
{
    const char *arg = argv[*a];
    int more = argc - *a - 1;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        o->help = 1;
    } else if (strcmp(arg, "--knobs") == 0) {
        o->knobs = 1;
    } else if (strcmp(arg, "--diagnostics") == 0) {
        o->diagnostics = 1;
    } else if (strcmp(arg, "--preset") == 0 || strcmp(arg, "--set") == 0 || strcmp(arg, "--config") == 0) {
        if (more < 1) return usage("%s needs an argument", arg);
        return parse_config_edit(o, arg, argv[++*a]);
    } else if (strcmp(arg, "--load") == 0 || strcmp(arg, "--out") == 0 ||
               strcmp(arg, "--palette") == 0 || strcmp(arg, "--preview") == 0) {
        if (more < 1) return usage("%s needs an argument", arg);
        ++*a;
        if (arg[2] == 'l') o->load = argv[*a];
        else if (arg[2] == 'o') o->out = argv[*a];
        else if (arg[4] == 'l') o->palette = argv[*a];
        else o->preview = argv[*a];
    } else if (strcmp(arg, "--palette-from-bmp") == 0 || strcmp(arg, "--palette-out") == 0) {
        if (more < 1) return usage("%s needs a file name", arg);
        if (arg[10] == 'f') o->palette_bmp = argv[++*a];
        else o->palette_out = argv[++*a];
    } else if (strcmp(arg, "--preview-width") == 0) {
        long v;
        if (more < 1 || !parse_long(argv[*a + 1], 8, 16384, &v))
            return usage("--preview-width needs a number 8..16384%s", "");
        o->preview_width = (int)v;
        ++*a;
    } else if (strcmp(arg, "--chunk") == 0) {
        if (more < 4) return usage("--chunk needs FACE LOD X Y%s", "");
        *a += 4;
        return parse_chunk(o, argv + *a - 3);
    } else if (strcmp(arg, "--locate") == 0 || strcmp(arg, "--sample") == 0) {
        return parse_direction(o, argc, argv, a);
    } else {
        return usage("unknown argument '%s'", arg);
    }
    return 0;
}

/* Requested LODs against the world's surface_lod (exit status 2 if finer). */
static int check_lods(const options *o, uint32_t surface_lod, int with_locate)
{
    int k;
    for (k = 0; k < o->chunk_count; k++)
        if ((uint32_t)o->chunks[k].lod > surface_lod) {
            fprintf(stderr, "terrain: --chunk LOD %d is finer than surface_lod %lu\n",
                    (int)o->chunks[k].lod, (unsigned long)surface_lod);
            return 2;
        }
    if (with_locate && o->has_locate && o->locate_lod > (int)surface_lod) {
        fprintf(stderr, "terrain: --locate LOD %d is finer than surface_lod %lu\n", o->locate_lod,
                (unsigned long)surface_lod);
        return 2;
    }
    return 0;
}

/* Parses argv into o; returns 0 or an exit status. Config edits apply in
 * command-line order, so --preset after --set resets the override. */
static int parse_args(int argc, char **argv, options *o)
{
    int a, rc;
    char err[512];
    ct_config_default(&o->cfg);
    o->preview_width = 1024;
    o->locate_lod = -1;
    for (a = 1; a < argc; a++)
        if ((rc = parse_option(o, argc, argv, &a)) != 0) return rc;
    if (o->load && o->config_given)
        return usage("--load takes its config from the snapshot; drop --preset/--set/--config%s", "");
    if (!o->load && o->config_given) {
        ct_result r = ct_config_validate(&o->cfg, err, sizeof err);
        if (r) { fprintf(stderr, "terrain: %s\n", err); return 2; }
    }
    return o->load ? 0 : check_lods(o, o->cfg.surface_lod, 1);
}

static int do_locate(const ct_world *w, const options *o)
{
    ct_key key;
    double lx, ly;
    char err[256], addr[128];
    int lod = o->locate_lod >= 0 ? o->locate_lod : (int)ct_world_config(w)->surface_lod;
    ct_result r = ct_key_at(w, o->locate, lod, &key, &lx, &ly, err, sizeof err);
    if (r) { fprintf(stderr, "terrain: --locate: %s\n", err); return 2; }
    ct_address_format(w, key, addr, sizeof addr);
    printf("locate face %s lod %d x %lu y %lu local_x %.17g local_y %.17g address %s\n",
           ct_face_name(key.face), (int)key.lod, (unsigned long)key.x, (unsigned long)key.y, lx, ly, addr);
    return 0;
}

static int do_sample(const ct_world *w, const options *o)
{
    ct_sample s;
    char err[256];
    ct_result r = ct_world_sample(w, o->sample, &s, err, sizeof err);
    if (r) { fprintf(stderr, "terrain: --sample: %s\n", err); return 2; }
    printf("sample height_m %.17g water_m %.17g has_water %d water_body %d mask %.17g moisture %.17g "
           "biome %d material %d palette_index %d biome_name %s\n",
           s.height_m, s.water_m, s.has_water, s.water_body, s.mask, s.moisture, s.biome, s.material,
           s.palette_index, ct_biome_name(s.biome));
    return 0;
}

/* The --palette file into pal (the default palette without one). */
static int load_palette(const options *o, ct_palette *pal)
{
    char err[512];
    char *text;
    ct_result r;
    ct_palette_default(pal);
    if (!o->palette) return 0;
    text = read_text(o->palette, NULL, err, sizeof err);
    if (!text) { fprintf(stderr, "terrain: --palette: %s\n", err); return 1; }
    r = ct_palette_parse(text, pal, err, sizeof err);
    free(text);
    if (r) { fprintf(stderr, "terrain: --palette %s: %s\n", o->palette, err); return 2; }
    return 0;
}

/* The world: loaded from --load (its chunk LODs checked against it) or built. */
static int open_world(const options *o, ct_world **out)
{
    char err[512];
    ct_world *w;
    int rc;
    *out = NULL;
    if (!o->load) {
        w = ct_world_build(&o->cfg, NULL, NULL, err, sizeof err);
        if (!w) { fprintf(stderr, "terrain: build failed: %s\n", err); return 1; }
        *out = w;
        return 0;
    }
    w = ct_world_load(o->load, err, sizeof err);
    if (!w) { fprintf(stderr, "terrain: --load %s: %s\n", o->load, err); return 1; }
    rc = check_lods(o, ct_world_config(w)->surface_lod, 0);
    if (rc) { ct_world_free(w); return rc; }
    *out = w;
    return 0;
}

/* With nothing else asked for: the edits, the resolved config and the
 * statistics. */
static void print_config(const ct_world *w, const options *o)
{
    char *text;
    size_t need = ct_config_format(ct_world_config(w), NULL, 0);
    int k;
    for (k = 0; k < o->echo_count; k += 2) printf("# %s %s\n", o->echo[k], o->echo[k + 1]);
    if (o->load) printf("# --load %s\n", o->load);
    text = (char *)malloc(need + 1);
    if (text) {
        ct_config_format(ct_world_config(w), text, need + 1);
        fputs(text, stdout);
        free(text);
    }
    print_stats(w);
}

/* The generation line, and --out's world.ctw. */
static int save_world(const ct_world *w, const options *o)
{
    uint64_t g = ct_world_generation(w);
    char path[4096], err[512];
    printf("generation %08lx%08lx\n", (unsigned long)(uint32_t)(g >> 32), (unsigned long)(uint32_t)g);
    if (!o->out) return 0;
    snprintf(path, sizeof path, "%s/world.ctw", o->out);
    if (ct_world_save(w, path, err, sizeof err)) {
        fprintf(stderr, "terrain: %s\n", err);
        return 1;
    }
    printf("world %s bytes %lu\n", path, (unsigned long)ct_world_snapshot_size(w));
    return 0;
}

int main(int argc, char **argv)
{
    static options o;
    ct_world *w = NULL;
    ct_palette pal;
    int rc;

    if (argc >= 2 && strcmp(argv[1], "bake") == 0) return terrain_bake(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "--verify") == 0) {
        if (argc != 3) return usage("--verify takes one FILE and no other options%s", "");
        return terrain_verify(argv[2]);
    }
    rc = parse_args(argc, argv, &o);
    if (rc) return rc;
    if (o.help) { print_usage(stdout); return 0; }
    if (o.knobs) { print_knobs(); return 0; }
    if (o.palette_bmp || o.palette_out) {
        if (!o.palette_bmp || !o.palette_out)
            return usage("--palette-from-bmp and --palette-out go together%s", "");
        return cli_palette_bmp_main(o.palette_bmp, o.palette_out);
    }
    if ((rc = load_palette(&o, &pal)) != 0) return rc;
    if (o.out) {
        struct stat st;
        if (stat(o.out, &st) != 0 && mkdir(o.out, 0777) != 0) {
            fprintf(stderr, "terrain: cannot create directory '%s'\n", o.out);
            return 1;
        }
    }
    if ((rc = open_world(&o, &w)) != 0) return rc;
    if (!o.out && !o.has_locate && !o.has_sample && !o.preview && !o.diagnostics) print_config(w, &o);
    else rc = save_world(w, &o);
    if (!rc) rc = write_chunks(w, &o);
    if (!rc && o.has_locate) rc = do_locate(w, &o);
    if (!rc && o.has_sample) rc = do_sample(w, &o);
    if (!rc && o.diagnostics) rc = write_diagnostics(w, o.out ? o.out : ".");
    if (!rc && o.preview) rc = write_preview(w, &pal, o.preview, o.preview_width);
    ct_world_free(w);
    return rc;
}
