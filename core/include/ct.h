/* ct.h - cube-sphere planet terrain for games, the one public header.
 *
 * WHAT IT IS
 *   A pthread-free C99 generator. ct_world_build() turns a ct_config into one
 *   frozen planet field: a macro graph over all six cube faces carrying the
 *   land mask, water bodies (ocean and elevated lakes), shore-walk heights,
 *   relief and slope-limited macro heights. Everything a game reads afterwards
 *   (point samples for the space view, 257x257 chunks at any LOD, meshes,
 *   palette colours, multiplayer addresses) is a pure function of that field
 *   and a body-fixed direction, so every consumer agrees bit for bit.
 *
 * WHAT IT IS NOT
 *   Not a weather or vegetation simulator, and not a time-stepped erosion
 *   model: drainage and rivers are solved once on the macro graph at world
 *   load (a priority flood, flow accumulation, optional implicit stream-power
 *   steps) and then read point by point like every other layer. It does not stitch
 *   meshes of mixed LOD (skirts are provided), choose LODs, or render. The
 *   native threaded chunk cache (ct_cache_*) is the only part that uses threads;
 *   it is compiled only when CT_WITH_THREADS is defined and never in WASM.
 *
 * STEP BY STEP
 *   1. ct_config cfg; ct_config_preset(&cfg, "balanced", err, sizeof err);
 *   2. ct_config_set(&cfg, "seed", "7", err, sizeof err);   (optional)
 *   3. ct_world *w = ct_world_build(&cfg, NULL, NULL, err, sizeof err);
 *   4. ct_world_sample(w, dir, &s, ...)          space view, cursor queries
 *      ct_key_at(w, dir, lod, &key, &lx, &ly, ...) which chunk is here
 *      ct_chunk_generate(w, key, chunk, ...)     257x257 samples, caller-owned
 *      ct_mesh_build(...)                        triangles from a chunk
 *   5. ct_world_save / ct_world_load             CTWORLD2 snapshots
 *   6. ct_world_free(w)
 *
 * ADDRESSING
 *   Faces +X,-X,+Y,-Y,+Z,-Z (CT_FACE_PX..CT_FACE_NZ), Y up. Face UV in [-1,1],
 *   v increasing down the image (OpenGL cube-map convention):
 *     +X (1,-v,-u)  -X (-1,-v,u)  +Y (u,1,v)  -Y (u,-1,-v)  +Z (u,-v,1)  -Z (-u,-v,-1)
 *   The dominant axis owns a direction; exact ties go to X, then Y, then Z.
 *   LOD L has 2^L x 2^L chunks per face; sample (i,j) of chunk (x,y) sits at
 *   face coordinate ((x*256+i)/(256*2^L), (y*256+j)/(256*2^L)) in [0,1]. Chunk
 *   borders are therefore shared exactly and coarse vertices are a subset of
 *   fine ones. Logical address: planet_id/generation/face/lod/chunk_x/chunk_y.
 *
 * DETERMINISM
 *   A world is a pure function of its full config (and shape callback). Integer
 *   hashing only, named salts, no global RNG stream, no clock in the results,
 *   no libm transcendental functions in generation (only +,-,*,/,sqrt,floor),
 *   compiled with -ffp-contract=off and without fast-math, so native and
 *   WebAssembly builds produce identical generation IDs and chunk digests.
 *
 * ERRORS
 *   Functions return ct_result (CT_OK == 0) or NULL, and write a readable
 *   message into the caller's (err, errlen) buffer; err may be NULL. Codes and
 *   messages come from one table (CT_ERRORS below); tests compare codes. A
 *   failed call leaves earlier objects untouched and usable.
 *
 * MEMORY
 *   Allocation happens only in ct_world_build / ct_world_load and the create
 *   calls (ct_cache_create). Chunk, sample and mesh calls write into buffers
 *   the caller owns and never allocate. Two worlds never share state.
 */
#ifndef CT_H
#define CT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bump when published generation semantics change; it enters every
 * generation ID, so chunks from different versions never mix. */
#define CT_ALGORITHM_VERSION 8u

#define CT_CHUNK_CORE 256                  /* samples per chunk edge, owned */
#define CT_CHUNK_EDGE 257                  /* with the positive border */
#define CT_CHUNK_SAMPLES (257 * 257)
#define CT_MAX_LOD 16
#define CT_SEA_LEVEL_CODE 32768u           /* encoded height of 0 m */
#define CT_NO_WATER_CODE 0u                /* water code of a dry sample */
#define CT_CTC_HEADER_BYTES 60
#define CT_CTC_RECORD_BYTES 6
#define CT_CTC_FILE_BYTES (60 + 6 * 257 * 257)   /* 396,354 */
#define CT_U16LE_FILE_BYTES (2 * 256 * 256)      /* 131,072 */
#define CT_PALETTE_SIZE 40
#define CT_BIOME_COUNT 8
#define CT_SHADES_PER_BIOME 5
#define CT_REGION_COUNT 4

/* ------------------------------------------------------------------ errors */
#define CT_ERRORS(X) \
    X(CT_OK,              "ok") \
    X(CT_ERR_NULL,        "required argument is NULL") \
    X(CT_ERR_KNOB_UNKNOWN,"unknown knob") \
    X(CT_ERR_KNOB_VALUE,  "knob value is not a finite number") \
    X(CT_ERR_KNOB_RANGE,  "knob value out of range") \
    X(CT_ERR_PRESET,      "unknown preset") \
    X(CT_ERR_CONFIG,      "invalid configuration") \
    X(CT_ERR_DIRECTION,   "direction is zero, NaN or infinite") \
    X(CT_ERR_FACE,        "face out of range") \
    X(CT_ERR_LOD,         "LOD out of range") \
    X(CT_ERR_CHUNK_XY,    "chunk coordinates out of range") \
    X(CT_ERR_LOCAL,       "local position is NaN or infinite") \
    X(CT_ERR_SHAPE,       "shape callback returned NaN or infinity") \
    X(CT_ERR_MEMORY,      "out of memory") \
    X(CT_ERR_IO,          "file input/output failed") \
    X(CT_ERR_FORMAT,      "not a file of the expected format") \
    X(CT_ERR_VERSION,     "unsupported file version") \
    X(CT_ERR_TRUNCATED,   "file is truncated") \
    X(CT_ERR_CHECKSUM,    "checksum mismatch: file is corrupt") \
    X(CT_ERR_PALETTE,     "malformed palette") \
    X(CT_ERR_BUFFER,      "caller buffer too small") \
    X(CT_ERR_MESH,        "invalid mesh options") \
    X(CT_ERR_BUSY,        "cache is full of pinned chunks") \
    X(CT_ERR_CANCELLED,   "cancelled by the caller")

typedef enum ct_result {
#define CT__ENUM(code, msg) code,
    CT_ERRORS(CT__ENUM)
#undef CT__ENUM
    CT_RESULT_COUNT
} ct_result;

/* "CT_ERR_LOD" for CT_ERR_LOD; "?" for unknown values. */
const char *ct_result_name(ct_result r);
/* The generic one-line description of a code. */
const char *ct_result_message(ct_result r);

/* ------------------------------------------------------------------ config */
typedef struct ct_config {
#define CT_KNOB_U(name, def, lo, hi, doc) uint32_t name;
#define CT_KNOB_F(name, def, lo, hi, doc) double name;
#include "ct_knobs.def"
#undef CT_KNOB_U
#undef CT_KNOB_F
} ct_config;

typedef enum ct_knob_kind { CT_KNOB_UINT = 0, CT_KNOB_REAL = 1 } ct_knob_kind;

typedef struct ct_knob_info {
    const char *name;
    ct_knob_kind kind;
    double def, min, max;    /* uint knobs hold exact integers here */
    const char *doc;
    size_t offset;           /* offsetof(ct_config, name) */
} ct_knob_info;

enum { CT_MODE_HYBRID = 0, CT_MODE_WALK = 1, CT_MODE_NOISE = 2 };

size_t ct_knob_count(void);
const ct_knob_info *ct_knob_get(size_t index);        /* NULL past the end */
const ct_knob_info *ct_knob_find(const char *name);   /* NULL if unknown */
/* Value of a knob as a double (exact for uint knobs). */
double ct_config_get(const ct_config *cfg, const ct_knob_info *knob);

/* Every knob at its default (the "balanced" preset). */
void ct_config_default(ct_config *cfg);
/* Presets reset every knob to its default, then apply a few name=value
 * lines; ct_preset_name lists them (`terrain --help` prints each with its
 * ct_preset_doc line). An unknown name is CT_ERR_PRESET. */
ct_result ct_config_preset(ct_config *cfg, const char *preset, char *err, size_t errlen);
size_t ct_preset_count(void);
const char *ct_preset_name(size_t index);             /* NULL past the end */
const char *ct_preset_doc(size_t index);              /* one line; NULL past the end */
/* The off values of every post-reference generation layer, as "name=value"
 * lines (docs/generation.md lists them). ct_config_reference_layers applies
 * them to cfg: any preset then generates the reference model's payloads. */
const char *ct_reference_layers(void);
ct_result ct_config_reference_layers(ct_config *cfg, char *err, size_t errlen);
/* Parse one override. Unknown name, non-number, NaN/Inf, out of range or a
 * fractional value for an integer knob: error naming the knob and range, cfg
 * unchanged. */
ct_result ct_config_set(ct_config *cfg, const char *name, const char *value,
                        char *err, size_t errlen);
/* Apply "name=value" lines; '#' starts a comment; blank lines ignored. Errors
 * name the line. cfg is unchanged unless every line applies. */
ct_result ct_config_parse(ct_config *cfg, const char *text, char *err, size_t errlen);
/* The same for text_len bytes that need no terminating NUL (a file's
 * contents): a NUL byte inside them is CT_ERR_CONFIG naming its line, never
 * a silent end of the text. */
ct_result ct_config_parse_n(ct_config *cfg, const char *text, size_t text_len, char *err, size_t errlen);
/* Range-check every knob and cross-knob rule (e.g. macro_resolution is a
 * power of two). */
ct_result ct_config_validate(const ct_config *cfg, char *err, size_t errlen);
/* Writes "name=value\n" for every knob; returns the length needed (like
 * snprintf), writing at most buflen bytes including the terminator. */
size_t ct_config_format(const ct_config *cfg, char *buf, size_t buflen);

/* ------------------------------------------------------------- addressing */
typedef enum ct_face {
    CT_FACE_PX = 0, CT_FACE_NX, CT_FACE_PY, CT_FACE_NY, CT_FACE_PZ, CT_FACE_NZ
} ct_face;

typedef struct ct_key {
    int32_t face;      /* ct_face */
    int32_t lod;       /* 0..CT_MAX_LOD */
    uint32_t x, y;     /* chunk column and row, < 2^lod; y grows with v */
} ct_key;

/* "+X" style and "px" style names; parse accepts both. */
const char *ct_face_name(int face);        /* "+X" ... "-Z", "?" */
const char *ct_face_file_name(int face);   /* "px" ... "nz", "?" */
ct_result ct_face_parse(const char *text, int *face);

/* Direction -> owning face and uv in [-1,1]. */
ct_result ct_face_from_direction(const double dir[3], int *face, double *u, double *v,
                                 char *err, size_t errlen);
/* Face uv -> unit direction (uv may lie outside [-1,1]: the face plane is
 * extended, which continues smoothly across the cube edge). */
ct_result ct_face_to_direction(int face, double u, double v, double dir[3],
                               char *err, size_t errlen);

struct ct_world;
/* The chunk at lod owning dir and the local position inside it in samples,
 * in [0,256] (256 only on the face's positive edges). world may be NULL; if
 * given, lod must not exceed its surface_lod. */
ct_result ct_key_at(const struct ct_world *world, const double dir[3], int lod,
                    ct_key *key, double *local_x, double *local_y,
                    char *err, size_t errlen);
/* Unit direction of a local position of a key. Positions outside [0,256]
 * continue beyond the chunk and across cube edges. Integer positions give the
 * exact sample directions used by chunks. Any finite position works, however
 * far (very large ones are rescaled exactly before normalising). */
ct_result ct_key_direction(ct_key key, double local_x, double local_y, double dir[3],
                           char *err, size_t errlen);
/* GROUND POSE: a body-fixed direction from the planet's centre (unit) and a
 * forward tangent (unit, perpendicular to dir), with no latitude or longitude
 * in it, so it crosses both poles and every cube edge and corner alike. An
 * altitude, where one is needed, travels beside it. Up is dir; right is
 * forward x up, so (right, forward, up) is right-handed seen from above.
 * Angles are radians, counter-clockwise seen from above. A pose whose dir or
 * forward is off unit length, or whose dir . forward is off zero, by more than
 * CT_POSE_TOLERANCE is CT_ERR_DIRECTION (as are NaN and zero vectors); within
 * it the pose is made exactly orthonormal before use. stream/pose.js is the
 * JavaScript twin. */
#define CT_POSE_TOLERANCE 1e-6
typedef struct ct_pose {
    double dir[3];       /* unit, body-fixed, from the planet's centre */
    double forward[3];   /* unit tangent: the heading */
} ct_pose;
/* Moves forward_m ahead and right_m to the right over the sphere of radius_m
 * (the world's radius_m), along the great circle of the combined
 * displacement, carrying forward by parallel transport along it. out may be
 * pose. radius_m not positive and finite: CT_ERR_CONFIG; distances not
 * finite: CT_ERR_LOCAL. */
ct_result ct_pose_move(const ct_pose *pose, double forward_m, double right_m, double radius_m,
                       ct_pose *out, char *err, size_t errlen);
/* The heading in radians, in [-pi, pi], counter-clockwise seen from above
 * from key's local +x axis at the pose's point: the tangent part of
 * d(position)/d(local_x), measured from +x alone (near cube corners the
 * chunk's x and y axes are not perpendicular). Any key whose face's plane
 * reaches the point works, the owner or a neighbour across an edge; a point
 * on the far side of the face is CT_ERR_LOCAL. */
ct_result ct_pose_heading_in_key(const ct_pose *pose, ct_key key, double *angle_rad,
                                 char *err, size_t errlen);
/* The inverse: the pose at (local_x, local_y) of key (ct_key_direction's
 * point) heading angle_rad from its local +x axis. A NaN or infinite angle is
 * CT_ERR_DIRECTION. */
ct_result ct_pose_from_key_heading(ct_key key, double local_x, double local_y, double angle_rad,
                                   ct_pose *out, char *err, size_t errlen);
/* Local tangent vectors (metres in body-fixed space per +1 local_x and +1
 * local_y sample) at a key position on a sphere of radius_m. */
ct_result ct_key_metric(ct_key key, double local_x, double local_y, double radius_m,
                        double dx_m[3], double dy_m[3], char *err, size_t errlen);
ct_result ct_key_validate(ct_key key, char *err, size_t errlen);
/* A key from its parts (no validation; see ct_key_validate). */
ct_key ct_key_make(int face, int lod, uint32_t x, uint32_t y);
/* Deduplicated keys of the 3x3 chunk neighbourhood around (local_x, local_y)
 * of key, at key.lod, across cube edges and corners. Returns the count (<= 9)
 * in *count; out must hold 9. */
ct_result ct_key_neighbourhood(ct_key key, double local_x, double local_y,
                               ct_key out[9], int *count, char *err, size_t errlen);

/* ------------------------------------------------------------------- world */
typedef struct ct_world ct_world;

/* Signed land mask supplied by the caller instead of the continent noise:
 * > 0 land, <= 0 water, at a unit direction. NaN/Inf rejects the build. */
typedef double (*ct_shape_fn)(const double dir[3], void *user);
/* Build progress: stage name and overall fraction in [0,1]. Return non-zero
 * to cancel the build (CT_ERR_CANCELLED). */
typedef int (*ct_progress_fn)(const char *stage, double fraction, void *user);

typedef struct ct_build_options {
    ct_shape_fn shape;          /* NULL: continent noise */
    void *shape_user;
    ct_progress_fn progress;    /* NULL: silent */
    void *progress_user;
} ct_build_options;

ct_world *ct_world_build(const ct_config *cfg, ct_shape_fn shape_or_null, void *user,
                         char *err, size_t errlen);
/* The same with progress reporting and a result code. *out is set on success. */
ct_result ct_world_build_ex(const ct_config *cfg, const ct_build_options *opts,
                            ct_world **out, char *err, size_t errlen);
void ct_world_free(ct_world *world);
const ct_config *ct_world_config(const ct_world *world);
uint64_t ct_world_generation(const ct_world *world);

/* World statistics: one field per row of ct_stats.def, in its order. */
typedef struct ct_world_stats {
#define CT_STAT_U(name, doc) uint32_t name;
#define CT_STAT_Z(name, doc) size_t name;
#define CT_STAT_F(name, conv, digits, doc) double name;
#include "ct_stats.def"
#undef CT_STAT_U
#undef CT_STAT_Z
#undef CT_STAT_F
} ct_world_stats;
/* A lake counts as elevated from this height up (metres above sea level). */
#define CT_ELEVATED_LAKE_M 5.0

ct_result ct_world_stats_get(const ct_world *world, ct_world_stats *out);

/* The statistics table (ct_stats.def) for printing and bindings. */
typedef enum ct_stat_kind { CT_STAT_UINT = 0, CT_STAT_SIZE = 1, CT_STAT_REAL = 2 } ct_stat_kind;
typedef struct ct_stat_info {
    const char *name;
    ct_stat_kind kind;
    char conv;               /* printf conversion: 'u' for integers, 'f' or 'g' for reals */
    int digits;              /* printf precision of reals (0 for integers) */
    const char *doc;
    size_t offset;           /* offsetof(ct_world_stats, name) */
} ct_stat_info;
size_t ct_stat_count(void);
const ct_stat_info *ct_stat_get(size_t index);        /* NULL past the end */
/* One statistic as a double (exact: every count stays below 2^53). */
double ct_world_stats_value(const ct_world_stats *stats, const ct_stat_info *stat);

typedef struct ct_region_info {
    double weight[CT_REGION_COUNT];   /* plains, ridges, broken, basins; sum 1 */
    int dominant;                     /* index of the largest weight */
    double height_scale, roughness, ridge_scale, delay_passes;  /* effective */
} ct_region_info;
const char *ct_region_name(int region);   /* "plains" ... "basins", "?" */
ct_result ct_world_region(const ct_world *world, const double dir[3], ct_region_info *out,
                          char *err, size_t errlen);

/* ------------------------------------------------------------------ rivers */
/* The river graph solved at world load (empty with river_min_area_km2 = 0):
 * a node per land macro vertex whose precipitation-weighted drainage area
 * passes the threshold, in vertex order, each with the segment to its
 * downstream node (-1 at a mouth into the sea or a lake). For minimaps,
 * navigation and placing towns; the channels themselves are in the samples
 * (water_body CT_WATER_RIVER) and chunks (water code = river surface). */
#define CT_WATER_RIVER (-2)          /* ct_sample.water_body of river water */
#define CT_RIVER_LAKE_OUTLET 1u      /* node flags */
#define CT_RIVER_MOUTH_SEA 2u
#define CT_RIVER_MOUTH_LAKE 4u
typedef struct ct_rivers_info {
    uint32_t node_count, segment_count;   /* segments: one per node, plus a stub per lake outlet */
    uint32_t lakes_open, lakes_closed;    /* lakes with an outlet; endorheic lakes */
    double land_area_m2, land_to_sea_m2;  /* land, and the part of it that drains to the sea */
} ct_rivers_info;
ct_result ct_world_rivers_info(const ct_world *world, ct_rivers_info *out, char *err, size_t errlen);
/* Fills caller arrays of capacity >= node_count (any may be NULL):
 * direction 3 per node (unit), downstream index or -1, drainage area (m2),
 * channel width (m), length of the curve to the downstream node (m), water
 * surface at the node (m), flags (CT_RIVER_*). CT_ERR_BUFFER if too small. */
ct_result ct_world_rivers(const ct_world *world, uint32_t capacity, double *direction, int32_t *downstream,
                          double *drainage_area_m2, double *width_m, double *length_m, double *surface_m,
                          uint8_t *flags, char *err, size_t errlen);
/* The curves the samples carve, for drawing: one polyline per segment (node
 * i's to its downstream vertex is segment i; the lake outlet stubs follow),
 * its points at points[3 * offset[k] ..] up to offset[k + 1] (unit
 * directions) with the water surface at each (m) in surface_m, and the
 * channel width (m) in width_m[k]. *segment_count and *point_count (either
 * may be NULL) say how many; call with NULL arrays to size them. Capacities:
 * segments (segment_count + 1 with offset), points. CT_ERR_BUFFER if short. */
ct_result ct_world_river_curves(const ct_world *world, uint32_t segment_capacity, uint32_t point_capacity,
                                uint32_t *offset, double *points, double *surface_m, double *width_m,
                                uint32_t *segment_count, uint32_t *point_count, char *err, size_t errlen);

/* ---------------------------------------------------------------- sampling */
typedef enum ct_biome {
    CT_BIOME_WATER = 0, CT_BIOME_SAND, CT_BIOME_GRASS, CT_BIOME_FOREST,
    CT_BIOME_ROCK, CT_BIOME_SNOW, CT_BIOME_DESERT, CT_BIOME_TUNDRA
} ct_biome;
/* Materials of the legacy renderer; biome -> material is fixed. */
typedef enum ct_material {
    CT_MAT_SEA = 0, CT_MAT_SHORE, CT_MAT_GRASS, CT_MAT_FOREST, CT_MAT_ROCK, CT_MAT_SNOW
} ct_material;
const char *ct_biome_name(int biome);

typedef struct ct_sample {
    double height_m;      /* terrain bed (with fine noise), metres from sea level */
    double water_m;       /* water surface, metres; meaningful when has_water */
    int has_water;        /* 1 sea or lake covers the bed here */
    int water_body;       /* -1 land, 0 ocean, >0 lake or inland sea id, CT_WATER_RIVER */
    double mask;          /* signed land mask (> 0 land) interpolated */
    double moisture;      /* 0 dry .. 1 wet */
    int biome;            /* ct_biome */
    int material;         /* ct_material */
    int palette_index;    /* biome * 5 + shade, 0..39 */
} ct_sample;

ct_result ct_world_sample(const ct_world *world, const double dir[3], ct_sample *out,
                          char *err, size_t errlen);

/* ------------------------------------------------------------------ chunks */
typedef struct ct_chunk {
    ct_key key;
    uint32_t planet_id;
    uint64_t generation;
    uint64_t digest;              /* FNV-1a 64 over the records, then .ctc header bytes 0..51 */
    uint32_t clipped;             /* samples whose height or water clipped */
    double height_quantum_m;
    /* row-major: index = local_y * 257 + local_x */
    uint16_t height[CT_CHUNK_SAMPLES];   /* (code - 32768) * quantum = metres */
    uint16_t water[CT_CHUNK_SAMPLES];    /* 0 = dry, else encoded water level */
    uint8_t biome[CT_CHUNK_SAMPLES];
    uint8_t palette[CT_CHUNK_SAMPLES];
    /* The same heights unquantised, metres: float32 of the double the code is
     * made from (it resolves under 1 mm at 9 km), so meshes and collision see
     * no 1 m terraces. Meshes are built from these. A chunk read from a .ctc
     * file carries the decoded codes here: files stay the quantised exchange
     * format. Not covered by the digest (the records are). */
    float height_m[CT_CHUNK_SAMPLES];
    /* The edit set ID of a chunk an edit reaches (its header and digest carry
     * it; .ctc version 3), 0 for every other chunk. */
    uint64_t edit_set;
} ct_chunk;

/* Fills a caller-owned chunk (about 660 KB; allocate it once). Any LOD from 0
 * to surface_lod. Never allocates. */
ct_result ct_chunk_generate(const ct_world *world, ct_key key, ct_chunk *chunk,
                            char *err, size_t errlen);
/* Height encoding shared by chunks and files. *clipped set to 1 if clamped. */
uint16_t ct_height_encode(double height_m, double quantum_m, int *clipped);
double ct_height_decode(uint16_t code, double quantum_m);

/* ----------------------------------------------------------------- palette */
typedef struct ct_palette { uint8_t rgb[CT_PALETTE_SIZE][3]; } ct_palette;
void ct_palette_default(ct_palette *out);
/* Exactly 40 RRGGBB lines ('#' comments and blank lines allowed); errors
 * name the line. */
ct_result ct_palette_parse(const char *text, ct_palette *out, char *err, size_t errlen);

/* -------------------------------------------------------------------- files */
/* .ctc: 60-byte header then 257x257 records (height u16, water u16, biome u8,
 * palette u8), little endian. buf must hold CT_CTC_FILE_BYTES. */
ct_result ct_chunk_encode_ctc(const ct_chunk *chunk, uint8_t *buf, size_t buflen,
                              char *err, size_t errlen);
ct_result ct_chunk_decode_ctc(const uint8_t *buf, size_t len, ct_chunk *out,
                              char *err, size_t errlen);
/* .u16le: the 256x256 core heights. buf must hold CT_U16LE_FILE_BYTES. */
ct_result ct_chunk_encode_u16le(const ct_chunk *chunk, uint8_t *buf, size_t buflen,
                                char *err, size_t errlen);
/* .ctt tile (version 1): what a generated chunk carries, float heights
 * included, so a decoded tile meshes, collides and answers ground queries
 * exactly like the chunk it was made from (a .ctc keeps only the codes).
 * 72-byte header (magic, version, generation, digest, edit set ID, planet,
 * key, quantum, clipped), the .ctc records, then 257x257 float32 heights.
 * Decoding checks every header field, that each float height rounds to its
 * record's code and that the digest matches. docs/chunks.md has the table. */
#define CT_TILE_HEADER_BYTES 72
#define CT_TILE_FILE_BYTES (72 + 6 * 257 * 257 + 4 * 257 * 257)   /* 660,562 */
ct_result ct_chunk_encode_tile(const ct_chunk *chunk, uint8_t *buf, size_t buflen,
                               char *err, size_t errlen);
ct_result ct_chunk_decode_tile(const uint8_t *buf, size_t len, ct_chunk *out,
                               char *err, size_t errlen);

/* CTWORLD2 snapshot (format 3). ct_world_snapshot_size gives the exact byte
 * count. It holds only what the generation ID covers (knobs, heights, water
 * levels, bodies, mask); everything else is recomputed on read, so a snapshot
 * that reads back with a given generation samples exactly like the world that
 * wrote it. Older formats, corrupt or forged files are refused with a reason. */
size_t ct_world_snapshot_size(const ct_world *world);
ct_result ct_world_snapshot_write(const ct_world *world, uint8_t *buf, size_t buflen,
                                  char *err, size_t errlen);
ct_result ct_world_snapshot_read(const uint8_t *buf, size_t len, ct_world **out,
                                 char *err, size_t errlen);
/* File helpers (native CLI, tools). Saving writes a temporary file and
 * renames it, so a failed save leaves nothing half-written. */
ct_result ct_world_save(const ct_world *world, const char *path, char *err, size_t errlen);
ct_world *ct_world_load(const char *path, char *err, size_t errlen);
ct_result ct_file_write_atomic(const char *path, const void *data, size_t len,
                               char *err, size_t errlen);

/* ------------------------------------------------------------------ edits */
/* Deterministic terrain modifiers applied over a world's frozen field: pads,
 * craters, paths and brushes. An edit set is data: ct_edits_encode gives its
 * canonical bytes (little endian, doubles exact), ct_world_with_edits checks
 * them and returns a world with the set applied, with no rebuild. Edits
 * change land samples only (water stays where it is), in order, and reach
 * everything that reads samples: ct_world_sample, chunks, meshes, the ground
 * and raycasts. A chunk no edit's footprint reaches keeps its bytes and
 * digest; a chunk one reaches carries the set's ID (ct_chunk.edit_set) in
 * its header and digest. docs/edits.md has the kinds, limits and formats. */
typedef enum ct_edit_kind {
    CT_EDIT_FLATTEN = 1,   /* a pad: flat at height_m within radius_m, blended over blend_m */
    CT_EDIT_CRATER = 2,    /* a bowl depth_m deep at the centre, a rim rim_m high at radius_m */
    CT_EDIT_PATH = 3,      /* a graded road along points, width_m wide, with shoulders */
    CT_EDIT_BRUSH = 4      /* a smooth bump of delta_m at the centre, 0 at radius_m */
} ct_edit_kind;
#define CT_EDITS_MAX 4096            /* edits in one set */
#define CT_EDIT_PATH_POINTS_MAX 1024 /* points of one path */
typedef struct ct_edit {
    int kind;                  /* ct_edit_kind */
    double center[3];          /* flatten, crater, brush: a direction (any length, finite, non-zero) */
    double radius_m;           /* flatten 1..20000, crater 1..50000, brush 1..20000 */
    int has_height;            /* flatten: 0 -> the base ground at the centre */
    double height_m;           /* flatten: pad height, |h| <= 20000 */
    double blend_m;            /* flatten: 0..20000 */
    double depth_m, rim_m;     /* crater: 0..10000, 0..5000 */
    double delta_m;            /* brush: -5000..5000 */
    const double *points;      /* path: point_count directions, 3 doubles each */
    uint32_t point_count;      /* path: 2..CT_EDIT_PATH_POINTS_MAX, segments <= 20 km */
    double width_m;            /* path: 0.5..1000 */
    double max_grade_deg;      /* path: 0.1..60 along the centre line */
    double shoulder_m;         /* path: 0..5000 beside the width; 0 -> width_m */
} ct_edit;
/* Bytes ct_edits_encode writes for these edits (0 if count > CT_EDITS_MAX). */
size_t ct_edits_encoded_size(const ct_edit *edits, size_t count);
/* The canonical bytes of an edit set (not range-checked: ct_world_with_edits
 * checks, naming the edit's index and field). */
ct_result ct_edits_encode(const ct_edit *edits, size_t count, uint8_t *buf, size_t buflen, char *err,
                          size_t errlen);
/* *out: a world with the edit set applied over base's frozen field (free it
 * with ct_world_free); on an error *out is NULL and base untouched. The new world SHARES base's field
 * read-only instead of copying it: the field is tens of MB and applying a
 * set must cost milliseconds, and a game keeps one base and swaps edit sets.
 * So base must outlive the edited world (free the edited world first). An
 * edited base stands for its own base: the new set replaces its set. Applying
 * samples the base ground once per pad without a height and per path
 * station. len 0 or an empty set gives a world that equals base. */
ct_result ct_world_with_edits(const ct_world *base, const uint8_t *bytes, size_t len, ct_world **out, char *err,
                              size_t errlen);
/* The edit set's 64-bit ID (0: no edits). */
uint64_t ct_world_edit_set_id(const ct_world *world);
/* The canonical bytes of the world's edit set (length; *bytes NULL and 0
 * when none). They stay valid while the world does. */
size_t ct_world_edit_bytes(const ct_world *world, const uint8_t **bytes);
/* The chunk keys of lod that an edit footprint reaches, sorted by face, y,
 * x: exactly the chunks whose bytes may differ from the base world's. *count
 * is the total; the first min(total, cap) go to keys (keys may be NULL with
 * cap 0). Allocates scratch for the call. */
ct_result ct_world_edited_keys(const ct_world *world, int lod, ct_key *keys, size_t cap, size_t *count,
                               char *err, size_t errlen);
/* Where path edit `index` crosses water (sea, lake or river in the base
 * world): intervals along the path, metres from its first point, in order.
 * The path leaves the water as it is; a game bridges these. */
typedef struct ct_path_crossing {
    double from_m, to_m;       /* along the path; the first and last wet profile stations */
    double from_dir[3], to_dir[3];
    double water_m;            /* highest water surface over the interval */
    int water_body;            /* ct_sample.water_body at the first wet station */
} ct_path_crossing;
ct_result ct_world_path_crossings(const ct_world *world, size_t index, ct_path_crossing *out, size_t cap,
                                  size_t *count, char *err, size_t errlen);
/* Edited chunk files: a chunk with edit_set != 0 is written as .ctc version
 * 3, whose header carries the ID (CT_CTC_EDITED_FILE_BYTES); others stay
 * version 2 and CT_CTC_FILE_BYTES. */
#define CT_CTC_EDITED_HEADER_BYTES 68
#define CT_CTC_EDITED_FILE_BYTES (68 + 6 * 257 * 257)   /* 396,362 */
size_t ct_chunk_ctc_size(const ct_chunk *chunk);

/* -------------------------------------------------------------------- mesh */
typedef struct ct_mesh_options {
    int stride;                     /* 1,2,4..256 samples between vertices; 0 -> 1 */
    double skirt_depth_m;           /* 0 -> no skirts */
    double vertical_exaggeration;   /* 0 -> 1 */
    int water;                      /* 0 terrain mesh, 1 water surface mesh */
} ct_mesh_options;

typedef struct ct_mesh_layout {
    uint32_t vertex_count;          /* grid + skirt vertices */
    uint32_t index_count;           /* triangles * 3 */
    uint32_t index_bytes;           /* 2 if vertex_count <= 65536, else 4 */
} ct_mesh_layout;

typedef struct ct_mesh {
    /* caller-owned outputs sized from ct_mesh_layout */
    float *positions;               /* 3 per vertex, metres relative to center_m */
    float *normals;                 /* 3 per vertex, unit */
    uint8_t *colors;                /* 4 per vertex RGBA from the palette, or NULL */
    uint8_t *palette_index;         /* 1 per vertex, or NULL */
    void *indices;                  /* uint16_t or uint32_t per layout */
    double center_m[3];             /* body-fixed chunk centre on the sphere */
    double radius_m;                /* bounding sphere radius around center_m */
    uint32_t vertex_count, index_count;   /* written */
} ct_mesh;

ct_result ct_mesh_layout_get(const ct_mesh_options *opts, ct_mesh_layout *out,
                             char *err, size_t errlen);
/* palette may be NULL (default palette). For water meshes, only cells with
 * water get triangles (index_count may be 0). */
ct_result ct_mesh_build(const ct_world *world, const ct_chunk *chunk,
                        const ct_mesh_options *opts, const ct_palette *palette,
                        ct_mesh *mesh, char *err, size_t errlen);

/* ------------------------------------------------------- ground and rays */
/* The exact ground: the surface the stride-1 mesh of the surface_lod chunk
 * draws (ct_mesh_build, exaggeration 1), not the sample field. Each grid
 * cell is two triangles, (x,y) (x+1,y) (x,y+1) and (x+1,y) (x+1,y+1)
 * (x,y+1), with vertices at (radius + height_m) times the sample's exact
 * direction; the radial line through a direction meets exactly one of them.
 * Agrees with the mesh's float32 positions plus center_m to well under 1 mm,
 * on chunk borders, cube edges and corners too. */
typedef struct ct_ground {
    double height_m;      /* where the radial line meets the terrain mesh, metres from sea level */
    double water_m;       /* the drawn water surface there (ct_mesh_build water 1), when has_water */
    int has_water;        /* 1: the water mesh covers the point (a shore cell's water may lie
                             under the terrain: standing in water is water_m > height_m) */
    double normal[3];     /* the terrain triangle's outward unit normal, body-fixed */
    double slope_deg;     /* angle between that normal and the radial up, 0..90 */
    int biome;            /* ct_biome of the cell corner nearest the point */
    int material;         /* ct_material of that biome */
    int palette_index;    /* that corner's palette entry (the mesh's vertex colour), 0..39 */
    ct_key key;           /* the surface_lod chunk (for a chunk query: that chunk) */
    double local_x, local_y;   /* position in it, samples, 0..256 */
} ct_ground;

/* The ground under a direction (any length, finite, non-zero). Samples only
 * the cell's 4 corners (16 samples in a cell with water), bit-identical to
 * the chunk's samples; a point on a chunk border gets the same height from
 * either side. */
ct_result ct_world_ground(const ct_world *world, const double dir[3], ct_ground *out,
                          char *err, size_t errlen);
/* The same from a chunk the caller holds, at (local_x, local_y) in [0, 256],
 * with no sampling: the chunk's float heights and water codes (a water cell's
 * levels read the chunk's 4x4 samples around the cell, as its water mesh
 * does). Any LOD: the cells are that chunk's stride-1 mesh. */
ct_result ct_chunk_ground(const ct_world *world, const ct_chunk *chunk, double local_x, double local_y,
                          ct_ground *out, char *err, size_t errlen);

#define CT_RAY_WATER 1u   /* ct_world_raycast flags: water surfaces stop the ray too */
typedef struct ct_ray_hit {
    double distance_m;    /* along the ray from its origin (0 when inside) */
    double point_m[3];    /* body-fixed metres */
    double normal[3];     /* the hit triangle's outward unit normal */
    ct_key key;           /* the surface_lod chunk hit */
    int water;            /* 1: a water surface was hit */
    int inside;           /* 1: the origin is under the ground (or the water, with CT_RAY_WATER) */
} ct_ray_hit;
/* The first hit of a ray with the terrain mesh of ct_world_ground (and the
 * water meshes with CT_RAY_WATER) within max_m metres (finite, > 0) of
 * origin_m (body-fixed metres). dir: finite, non-zero, any length. *hit is 1
 * with *out filled, or 0. An origin under the surface hits at distance 0
 * with inside 1. The ray is walked cell by cell where it is near the ground,
 * so its cost grows with the ground it passes over (about 100 cells per km
 * at surface_lod 12). */
ct_result ct_world_raycast(const ct_world *world, const double origin_m[3], const double dir[3], double max_m,
                           unsigned flags, ct_ray_hit *out, int *hit, char *err, size_t errlen);

/* ------------------------------------------------------ scatter and sites */
/* SCATTER: deterministic objects a game places on the ground (trees, shrubs,
 * cacti, reeds, tufts, boulders, rocks), one catalogue (ct_scatter.def).
 * Candidates sit on a world-anchored grid of cells in surface_lod sample
 * coordinates: a level-0 cell is 2^k samples (at least 2, about 16 m or
 * more), a level-L cell 2^L level-0 cells. Each cell proposes at most one
 * candidate by integer hashes (its kind drawn by the kinds' densities, its
 * place in one level-0 cell inside it), a candidate in a level-L cell gives
 * way to one proposed by a coarser cell holding it, and the ground decides
 * the rest (biome density, slope, height, moisture, water). So an instance
 * has the same id, place, size and yaw whichever LOD's key asks; a key of
 * LOD surface_lod - d returns exactly the instances of kinds of level >= d
 * in its area, at most one per level-d cell: never more than
 * (256 / 2)^2 = 16,384 <= CT_SCATTER_MAX per chunk at any LOD. */
#define CT_SCATTER_MAX 20000       /* instances per chunk, any LOD */
#define CT_SCATTER_LEVELS 3        /* kind levels 0..2 */
typedef enum ct_scatter_kind_id {
#define CT_SCATTER_KIND(NAME, name, lvl, spc, slope, h0, h1, m0, m1, wet, s0, s1, coll, b0, b1, b2, b3, b4, b5, b6, b7, doc) \
    CT_SCATTER_##NAME,
#include "ct_scatter.def"
#undef CT_SCATTER_KIND
    CT_SCATTER_KIND_COUNT
} ct_scatter_kind_id;
typedef struct ct_scatter_kind {
    const char *name, *doc;
    int level;                       /* coarsest LOD offset: appears at lod >= surface_lod - level */
    double spacing_m, max_slope_deg, min_height_m, max_height_m, min_moisture, max_moisture;
    int near_water;                  /* 1: only within one sample of water (shores, banks) */
    double min_size_m, max_size_m;   /* instance scale is its size, metres */
    double collision_per_m;          /* collision radius per metre of size (0: none) */
    double density_km2[CT_BIOME_COUNT];   /* target instances per km2 in each ct_biome */
} ct_scatter_kind;
size_t ct_scatter_kind_count(void);
const ct_scatter_kind *ct_scatter_kind_get(size_t index);   /* NULL past the end */

/* Caller-owned outputs, each of capacity entries (positions 3 each); any
 * array may be NULL when the caller does not want it. */
typedef struct ct_scatter {
    uint32_t capacity;     /* entries the arrays hold (CT_SCATTER_MAX always suffices) */
    float *positions;      /* 3 per instance: foot on the ground, metres relative to center_m */
    uint8_t *kind;         /* ct_scatter_kind_id */
    float *height_m;       /* ground height at the foot, metres from sea level */
    float *yaw;            /* radians about local up, counter-clockwise seen from above, from local
                              north (from the chunk's +x within a degree of a pole) */
    float *scale;          /* size in metres (plant height, rock diameter) */
    uint64_t *id;          /* stable: face, level and cell */
    double center_m[3];    /* written: the key's centre on the sphere, body-fixed metres */
    uint32_t count;        /* written */
} ct_scatter;
/* The instances of key (any LOD up to surface_lod) into out. chunk: the
 * surface_lod chunk of key already generated (its ground is read, nothing is
 * sampled), or NULL (ground from point queries, as ct_world_ground). None
 * stands in water, in a river channel or on a slope steeper than its kind
 * allows. CT_ERR_BUFFER if capacity is short (count then says how many). */
ct_result ct_chunk_scatter(const ct_world *world, const ct_chunk *chunk_or_null, ct_key key, ct_scatter *out,
                           char *err, size_t errlen);

/* SITES: ranked places for a settlement (flat, dry, near a river or lake,
 * mild biome), a port (dry land on a coast with deep water close by) or a
 * spawn (safe dry land). Candidates are the macro vertices (whole world) or
 * also a fixed grid around near (within radius_m), scored from the macro
 * field (distances to fresh water and the coast), refined with ground
 * queries and picked greedily by score at least min_spacing_m apart. */
typedef enum ct_site_kind { CT_SITE_SETTLEMENT = 0, CT_SITE_PORT, CT_SITE_SPAWN, CT_SITE_KIND_COUNT } ct_site_kind;
#define CT_SITES_MAX 1024
typedef struct ct_site_query {
    int kind;               /* ct_site_kind */
    uint32_t count;         /* sites wanted, 1..CT_SITES_MAX */
    double min_spacing_m;   /* >= 0 */
    int has_near;           /* 0: whole world */
    double near[3];         /* a direction, when has_near */
    double radius_m;        /* > 0 when has_near: the search radius, metres over the sphere */
} ct_site_query;
typedef struct ct_site {
    double dir[3];          /* unit */
    double height_m;        /* exact ground */
    double relief_m;        /* highest minus lowest ground within the kind's footprint radius */
    double slope_deg;       /* exact ground's slope at dir */
    double fresh_water_m;   /* to the nearest river or lake (macro field) */
    double coast_m;         /* to the nearest sea coast (macro field; ports: from ground samples) */
    int biome;              /* ct_biome */
    double score;           /* 0..1, higher is better; the ranking */
} ct_site;
/* Footprint radius of each kind, metres: settlement 300, port 200, spawn 50. */
double ct_site_radius_m(int kind);
const char *ct_site_kind_name(int kind);    /* "settlement", "port", "spawn", "?" */
/* Up to q->count sites, best first, into out (capacity entries); *count set. */
ct_result ct_world_sites(const ct_world *world, const ct_site_query *q, ct_site *out, uint32_t capacity,
                         uint32_t *count, char *err, size_t errlen);

/* ------------------------------------------------------------------ streams */
/* STREAMS: the network below the macro rivers that the streams layer carves
 * as valleys (stream_depth_m > 0; docs/generation.md, "Stream network"), for
 * drawing and for games. Each lattice level whose links are at least
 * CT_STREAMS_MIN_SAMPLES samples of the key apart (so a coarser key returns
 * a subset of levels) gives every link whose straight segment passes through
 * the key's area: a polyline from the child node to its parent, a point
 * about every sample of the key (at most CT_STREAMS_LINK_SEGMENTS segments),
 * each with its water level, the bed: it never rises downstream and a
 * tributary's last point is its parent's first. A fed link starts at its
 * child; a head (no node drains into it) starts halfway down, where its
 * valley has its full depth. Links whose child is under the sea or a lake
 * are left out; one entering water runs on under its surface to the node.
 * Bounded by construction: a level of s = 2^(lod - level) >= 8 samples a
 * link holds (256 / s + 2)^2 children that can reach the key, each with at
 * most min(64, ceil(2.41 s)) segments, so two levels (s = 8 and 16) give at
 * most 1,480 links and 37,236 points. Empty when the world has streams off. */
#define CT_STREAMS_MIN_SAMPLES 8      /* a level shows where its links are this many key samples apart */
#define CT_STREAMS_LINK_SEGMENTS 64   /* most segments per link */
#define CT_STREAMS_MAX_LINKS 1536     /* links per key, any LOD */
#define CT_STREAMS_MAX_POINTS 40960   /* points per key, any LOD */
/* Caller-owned outputs; any array may be NULL (counts are written anyway). */
typedef struct ct_streams {
    uint32_t link_capacity;   /* entries of width_m, order, level (point_start: one more) */
    uint32_t point_capacity;  /* entries of water_m (positions: 3 each) */
    uint32_t *point_start;    /* link k's points are point_start[k] .. point_start[k + 1] - 1, downstream */
    float *positions;         /* 3 per point: on the water surface, metres relative to center_m */
    float *water_m;           /* per point: the water level (the bed), metres from sea level */
    float *width_m;           /* per link: 0.4 sqrt(drainage area, km2) (docs/generation.md) */
    uint8_t *order;           /* per link: 1 fine-level head, 2 fine fed, 3 coarse head, 4 coarse fed */
    uint8_t *level;           /* per link: its lattice level (stream_level or stream_fine_level) */
    double center_m[3];       /* written: the key's centre on the sphere, body-fixed metres */
    uint32_t count, point_count;   /* written: links and points there are */
} ct_streams;
/* The stream links of key (any LOD up to surface_lod) into out: counts and
 * center_m always, the arrays given; CT_ERR_BUFFER when a given array is
 * short (the counts then say how much is needed; CT_STREAMS_MAX_* always
 * suffice). */
ct_result ct_chunk_streams(const ct_world *world, ct_key key, ct_streams *out, char *err, size_t errlen);

/* ------------------------------------------- threaded chunk cache (native only) */
#ifdef CT_WITH_THREADS
typedef struct ct_cache ct_cache;
enum { CT_CACHE_QUEUED = 0, CT_CACHE_READY = 1, CT_CACHE_BUSY = -1 };
ct_cache *ct_cache_create(const ct_world *world, int slots, char *err, size_t errlen);
/* 1 ready, 0 queued, CT_CACHE_BUSY when every slot is pinned or queued,
 * < -1 on an invalid key: -1 - ct_result (e.g. -1 - CT_ERR_LOD), message in
 * err. Never blocks on generation, never allocates. */
int ct_cache_request(ct_cache *cache, ct_key key, char *err, size_t errlen);
/* Pins and returns a ready chunk, or NULL. Release every acquired chunk. */
const ct_chunk *ct_cache_acquire(ct_cache *cache, ct_key key);
void ct_cache_release(ct_cache *cache, const ct_chunk *chunk);
/* Blocks until key is ready or timeout_ms passes: 1 ready, 0 timeout (or
 * at once if key is neither queued, generating nor ready); timeout_ms < 0
 * waits without limit. Tools, tests and loading screens only. */
int ct_cache_wait(ct_cache *cache, ct_key key, int timeout_ms);
/* hits + misses + busy = valid requests (a miss is any 0 answer, including a
 * repeat for a chunk already in flight); generated counts finished chunks and
 * generate_ms_* their worker wall time (diagnostics, never in any result). */
typedef struct ct_cache_stats {
    uint64_t hits, misses, busy, generated;
    double generate_ms_total, generate_ms_max;
} ct_cache_stats;
void ct_cache_stats_get(const ct_cache *cache, ct_cache_stats *out);
void ct_cache_destroy(ct_cache *cache);
#endif

/* -------------------------------------------------------------- utilities */
uint64_t ct_fnv1a64(const void *data, size_t len, uint64_t state);
#define CT_FNV1A64_INIT 0xcbf29ce484222325ull
/* "planet/generation/face/lod/x/y" with generation in 16 hex digits. */
size_t ct_address_format(const ct_world *world, ct_key key, char *buf, size_t buflen);

#ifdef __cplusplus
}
#endif
#endif /* CT_H */
