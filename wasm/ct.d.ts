// ct.d.ts - Type declarations for wasm/ct.mjs, the JavaScript API of the
// WebAssembly terrain core (see docs/wasm.md).

/** Face index 0..5 (+X,-X,+Y,-Y,+Z,-Z) or its name ('+X' / 'px' spellings). */
export type FaceLike = 0 | 1 | 2 | 3 | 4 | 5 | number | '+X' | '-X' | '+Y' | '-Y' | '+Z' | '-Z'
  | 'px' | 'nx' | 'py' | 'ny' | 'pz' | 'nz' | string;

/** A chunk address: LOD L has 2^L x 2^L chunks per face. */
export interface ChunkKey { face: number; lod: number; x: number; y: number; }
/** A chunk address as accepted from callers (face may be a name). */
export interface ChunkKeyLike { face: FaceLike; lod: number; x: number; y: number; }

export type Vec3 = [number, number, number];
export type Vec3Like = ArrayLike<number>;

/** Error thrown by every call: `code` is the C result name, e.g. 'CT_ERR_LOD'. */
export interface CtError extends Error { code: string; index?: number; }

export interface KnobInfo {
  name: string;
  kind: 'uint' | 'real';
  def: number;
  min: number;
  max: number;
  doc: string;
}

/** Knob values by name (every knob of ct_knobs.def). */
export type Config = Record<string, number>;

export interface ConfigOptions {
  /** A name from presets(), the core's table (PRESET_NAMES in wasm/ct_constants.mjs); default balanced. */
  preset?: string;
  /** Overrides applied last: {seed: 7} or ['seed=7'] or [['seed', 7]]. */
  set?: Record<string, number | string> | Map<string, number | string>
    | Array<string | [string, number | string]>;
  /** Config-file text: name=value lines, '#' comments; applied before `set`. */
  text?: string;
  /**
   * Instead of preset/text/set: edits applied in this order, like the native
   * CLI's --preset/--set/--config (a failing edit's index is in error.step).
   */
  steps?: Array<['preset', string] | ['set', string, number | string] | ['text', string]>;
  /** false: skip the final cross-knob check (config() only; builds always validate). */
  validate?: boolean;
}

export interface BuildHooks {
  /** Called during the build; return true to cancel (CT_ERR_CANCELLED). */
  onProgress?: (stage: string, fraction: number) => unknown;
  /** Aborting cancels the build at its next progress point. */
  signal?: AbortSignal;
}

export interface KeyAtResult { key: ChunkKey; localX: number; localY: number; }

/** One row of the statistics table (core/include/ct_stats.def). */
export interface StatInfo {
  /** the C name, as the CLI prints it */
  name: string;
  /** its field in WorldStats (name in camelCase) */
  key: keyof WorldStats;
  /** printf conversion: 'u' for integers, 'f' or 'g' for reals */
  conv: 'u' | 'f' | 'g';
  /** printf precision of reals */
  digits: number;
  doc: string;
}

/** One field per row of core/include/ct_stats.def (tests/js/stats.test.mjs checks they agree). */
export interface WorldStats {
  macroResolution: number;
  vertexCount: number;
  edgeCount: number;
  passes: number;
  acceptedHops: number;
  collisions: number;
  junctionCells: number;
  waterBodies: number;
  /** lake-sized bodies (<= lake_max_vertices vertices), at any level */
  lakes: number;
  oceanFraction: number;
  landFraction: number;
  minHeightM: number;
  maxHeightM: number;
  maxMacroSlopeExcessM: number;
  buildMs: number;
  bytesHeld: number;
  /** lakes standing at least 5 m above sea level */
  elevatedLakes: number;
}

export interface SampleResult {
  heightM: Float64Array;
  waterM: Float64Array;
  hasWater: Uint8Array;
  /** -1 land, 0 ocean, > 0 lake or inland sea */
  waterBody: Int32Array;
  biome: Uint8Array;
  material: Uint8Array;
  /** palette index 0..39 (biome * 5 + shade) */
  palette: Uint8Array;
  moisture: Float32Array;
  /** signed land mask (> 0 land) */
  mask: Float64Array;
}

export interface PointSample {
  heightM: number;
  waterM: number;
  hasWater: number;
  waterBody: number;
  mask: number;
  moisture: number;
  biome: number;
  material: number;
  palette: number;
  biomeName: string;
}

export interface RegionInfo {
  /** plains, ridges, broken, basins; sum 1 */
  weights: [number, number, number, number];
  dominant: number;
  name: string;
  heightScale: number;
  roughness: number;
  ridgeScale: number;
  delayPasses: number;
}

/** 257x257 samples, row-major (index = localY * 257 + localX). */
export interface Chunk {
  key: ChunkKey;
  generation: string;
  /** FNV-1a 64 of key and payload, 16 hex digits */
  digest: string;
  clipped: number;
  heightQuantumM: number;
  /** (code - 32768) * heightQuantumM = metres */
  height: Uint16Array;
  /** the same heights unquantised (float32 metres): what meshes are built from */
  heightM: Float32Array;
  /** 0 dry, else encoded water level */
  water: Uint16Array;
  biome: Uint8Array;
  palette: Uint8Array;
}

export interface MeshOptions {
  /** 1, 2, 4 ... 256 samples between vertices (default 1) */
  stride?: number;
  /** skirt depth in metres along the four edges (default 0: none) */
  skirtDepthM?: number;
  /** height multiplier of the mesh only (default 1) */
  verticalExaggeration?: number;
  /** true: the water surface over cells with water instead of the terrain */
  water?: boolean;
  /** true: fill Mesh.digest (hashing costs about a third of a stride-1 mesh); default false */
  digest?: boolean;
  /**
   * false (default): the arrays are views into the World's mesh buffer in WebAssembly
   * memory, valid until the next mesh() of this World or free(); reading an array
   * property after that throws CT_ERR_MESH. true: one copy into a fresh ArrayBuffer
   * that every array shares (one entry in a transfer list). Not a worker option.
   */
  copy?: boolean;
}

/** world.mesh's result; see MeshOptions.copy for how long its arrays live. */
export interface Mesh {
  /** xyz per vertex, metres relative to `center` */
  positions: Float32Array;
  normals: Float32Array;
  /** RGBA per vertex from the palette */
  colors: Uint8Array;
  /** palette entry (0..39, biome * 5 + shade) per vertex: recolour without a new mesh */
  paletteIndex: Uint8Array;
  indices: Uint16Array | Uint32Array;
  /** body-fixed chunk centre on the sphere, metres */
  center: Vec3;
  /** bounding sphere radius around `center`, metres */
  radius: number;
  vertexCount: number;
  indexCount: number;
  /** FNV-1a 64 of positions, normals, colours and indices (16 hex digits)
   * when MeshOptions.digest was true, else null */
  digest: string | null;
}

export interface ChunkCounters {
  /** chunk generations (each about 40 ms at a full preset) */
  generated: number;
  /** chunk, file and mesh requests served from the chunk generated last */
  reused: number;
}

/** The river graph of a world: one entry per river node (land macro vertex). */
export interface RiverGraph {
  info: { nodeCount: number; segmentCount: number; lakesOpen: number; lakesClosed: number;
    landAreaM2: number; landToSeaM2: number };
  /** unit vectors, 3 per node */
  direction: Float64Array;
  /** index of the downstream node, -1 at a mouth into the sea or a lake */
  downstream: Int32Array;
  drainageAreaM2: Float64Array;
  widthM: Float64Array;
  /** length of the river curve from the node to the downstream one */
  lengthM: Float64Array;
  /** water surface at the node (metres) */
  surfaceM: Float64Array;
  /** 1 lake outlet, 2 mouth into the sea, 4 mouth into a lake */
  flags: Uint8Array;
  /** 1 where the node is the first one below an open lake */
  lakeOutlet: Uint8Array;
}

/** The river curves the samples carve (segment k: node k's, then the lake outlet stubs). */
export interface RiverCurves {
  /** segment k's points are points[3 * offset[k]] .. points[3 * offset[k + 1]] (exclusive) */
  offset: Uint32Array;
  /** unit vectors, 3 per point */
  points: Float64Array;
  /** water surface at each point (metres) */
  surfaceM: Float64Array;
  /** channel width of each segment (metres) */
  widthM: Float64Array;
}

/** A built or loaded world inside one core instance. Call free() when done. */
export declare class World {
  readonly core: Core;
  /** generation ID: 16 lower-case hex digits, as printed by the native CLI */
  readonly generation: string;
  readonly config: Readonly<Config>;
  /** The config as "name=value" lines, as the native tools write it. */
  configText(): string;
  stats(): WorldStats;
  /** The statistics table, in the order of the CLI lines. */
  statTable(): readonly StatInfo[];
  sample(dirs: Float64Array | ArrayLike<number>[]): SampleResult;
  /** One sample with every field in double precision. */
  sampleAt(dir: Vec3Like): PointSample;
  keyAt(dir: Vec3Like, lod?: number): KeyAtResult;
  region(dir: Vec3Like): RegionInfo;
  /** The river graph solved at world load (empty when river_min_area_km2 is 0). */
  rivers(): RiverGraph;
  /** The polylines the samples carve, for drawing rivers as they run. */
  riverCurves(): RiverCurves;
  chunk(key: ChunkKeyLike): Chunk;
  /** .ctc file bytes (396,354) */
  chunkCtc(key: ChunkKeyLike): Uint8Array;
  /** .u16le file bytes (131,072) */
  chunkU16le(key: ChunkKeyLike): Uint8Array;
  /** CTWORLD2 snapshot bytes */
  snapshot(): Uint8Array;
  /** Reuses the chunk generated last when key matches it (see chunkCounters). */
  mesh(key: ChunkKeyLike, options?: MeshOptions): Mesh;
  /** Chunks generated so far, and requests that reused the chunk generated last. */
  chunkCounters(): ChunkCounters;
  /** 40 RGB colours (120 bytes) used for mesh colours */
  palette(): Uint8Array;
  /** Replaces the mesh palette from 40 RRGGBB lines; the world is unchanged. */
  setPalette(text: string): void;
  /** 'planet/generation/face/lod/x/y' */
  address(key: ChunkKeyLike): string;
  free(): void;
}

/** What a verified file vouches for (Core.verifyFile). */
export interface VerifiedFile {
  kind: 'ctc' | 'ctw';
  /** 16 hex digits */
  generation: string;
  /** the chunk's key; null for a world snapshot (every key) */
  key: ChunkKey | null;
  /** .ctc: the chunk digest; .ctw: the snapshot's trailing FNV-1a 64 checksum (16 hex digits) */
  digest: string;
  planetId: number;
}

/** One instantiated core. */
export declare class Core {
  /** milliseconds loadCore spent reading, compiling and instantiating */
  loadMs: number;
  knobs(): KnobInfo[];
  presets(): string[];
  /** Off values of every post-reference layer, "name=value" lines for a text step. */
  referenceLayers(): string;
  /** Validated config: preset, then text, then set. Throws CtError. */
  config(options?: ConfigOptions): Config;
  buildWorld(options?: ConfigOptions, hooks?: BuildHooks): World;
  loadWorld(bytes: Uint8Array | ArrayBuffer): World;
  /** Checks a .ctc or CTWORLD2 file as the core reads it; throws CtError with a one-line reason. */
  verifyFile(bytes: Uint8Array | ArrayBuffer): VerifiedFile;
  /** verifyFile for .ctc bytes only. */
  verifyCtc(bytes: Uint8Array | ArrayBuffer): VerifiedFile;
  keyAt(dir: Vec3Like, lod: number): KeyAtResult;
  keyDirection(key: ChunkKeyLike, localX: number, localY: number): Vec3;
  keyMetric(key: ChunkKeyLike, localX: number, localY: number, radiusM: number): { dx: number[]; dy: number[] };
  keyNeighbourhood(key: ChunkKeyLike, localX?: number, localY?: number): ChunkKey[];
  /** The ground pose in C (ct_pose_*, wasm/ct_pose.mjs): stream/pose.js's twins. */
  movePose(pose: { dir: Vec3Like; forward: Vec3Like }, forwardM: number, rightM: number, radiusM: number): { dir: Vec3; forward: Vec3 };
  headingInKey(pose: { dir: Vec3Like; forward: Vec3Like }, key: ChunkKeyLike | string): number;
  poseFromKeyHeading(key: ChunkKeyLike | string, localX: number, localY: number, angle: number): { dir: Vec3; forward: Vec3 };
  faceName(face: number): string;
  faceFileName(face: number): string;
  faceParse(face: FaceLike): number;
  memoryBytes(): number;
  /** Bytes currently allocated by the core's malloc (for leak checks). */
  heapInUse(): number;
  /** Default palette, or the given 40-line palette text parsed (120 RGB bytes). */
  palette(text?: string): Uint8Array;
}

export type CoreSource = URL | string | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

/** Loads and instantiates the core (default: build/wasm/ct.wasm). */
export declare function loadCore(source?: CoreSource): Promise<Core>;
/** Compiles the module once, e.g. to hand the same Module to several workers. */
export declare function compileCore(source: CoreSource | Response): Promise<WebAssembly.Module>;
/** Makes an Error with a `code` like those thrown by the API. */
export declare function ctError(code: string, message: string): CtError;

// ------------------------------------------------ ground, rays, colliders
// (wasm/ct_ground.mjs; the World methods merge into the class above.)

/** The exact ground: the surface of the stride-1 mesh of the surface_lod chunk. */
export interface Ground {
  /** where the radial line meets the terrain mesh, metres from sea level */
  heightM: number;
  /** the drawn water surface there (world.mesh water: true), meaningful when hasWater */
  waterM: number;
  /** the water mesh covers the point (at a shore its surface may lie under the ground) */
  hasWater: boolean;
  /** the terrain triangle's outward unit normal, body-fixed */
  normal: [number, number, number];
  /** angle between the normal and the radial up, degrees */
  slopeDeg: number;
  /** biome, material and palette entry of the cell corner nearest the point */
  biome: number;
  material: number;
  paletteIndex: number;
  /** the surface_lod chunk (for groundInChunk: that chunk) and the position in it */
  key: ChunkKey;
  localX: number;
  localY: number;
}

/** world.ground(dirs): one entry per direction; normal holds 3 per direction. */
export interface GroundResult {
  heightM: Float64Array; waterM: Float64Array; hasWater: Uint8Array; normal: Float64Array; slopeDeg: Float64Array;
  biome: Uint8Array; material: Uint8Array; paletteIndex: Uint8Array;
  /** the surface_lod key of each point (lod is the world's surface_lod) */
  face: Uint8Array; x: Uint32Array; y: Uint32Array;
  localX: Float64Array; localY: Float64Array;
}

export interface RayHit {
  /** along the ray from its origin; 0 when inside */
  distanceM: number;
  point: [number, number, number];
  normal: [number, number, number];
  key: ChunkKey;
  /** a water surface was hit (only with { water: true }) */
  water: boolean;
  /** the origin is under the ground (or the water, with { water: true }) */
  inside: boolean;
}

export interface ColliderOptions {
  /** 1, 2, 4 ... 256 (default 1) */
  stride?: number;
}

/** world.mesh's positions and triangles for a key and stride, without skirts, in arrays of their own. */
export interface Collider {
  key: ChunkKey;
  center: Float64Array;
  /** float32 metres relative to center, body-fixed */
  positions: Float32Array;
  indices: Uint32Array;
  vertexCount: number;
  triangleCount: number;
}

export interface World {
  groundAt(dir: Vec3Like): Ground;
  ground(dirs: Float64Array | Vec3Like[]): GroundResult;
  groundInChunk(chunk: Chunk, localX: number, localY: number): Ground;
  raycast(originM: Vec3Like, dir: Vec3Like, maxM: number, options?: { water?: boolean }): RayHit | null;
  collider(key: ChunkKeyLike, options?: ColliderOptions): Collider;
}

// ---- Tile files (wasm/ct_tiles.mjs): a chunk from a .ctt or .ctc file, meshed as generated.

export interface Chunk {
  /** the planet_id of the world the chunk belongs to (core.encodeTile needs it) */
  planetId?: number;
  /** 'tile' from core.decodeTile, 'ctc' from core.decodeCtc; absent from world.chunk, 'generated' in a tiled pool's replies */
  source?: 'tile' | 'ctc' | 'generated';
}

export interface Core {
  /** A .ctt tile file as a chunk object (source: 'tile'); every field the generated chunk's. Throws the core's reason on bad bytes. */
  decodeTile(bytes: Uint8Array | ArrayBuffer): Chunk;
  /** A .ctc chunk file as a chunk object (source: 'ctc'); heightM are the decoded 16-bit codes. */
  decodeCtc(bytes: Uint8Array | ArrayBuffer): Chunk;
  /** A chunk object (planetId required) as .ctt tile bytes. */
  encodeTile(chunk: Chunk): Uint8Array;
  /** Bytes of a .ctt tile file (CT_TILE_FILE_BYTES). */
  tileFileBytes(): number;
}

export interface World {
  /** A mesh of a key, or of a chunk object of this world (a decoded tile): never taken for the generated chunk of its key. */
  mesh(keyOrChunk: ChunkKeyLike | Chunk, options?: MeshOptions): Mesh;
  /** A collider of a key, or of a chunk object of this world. */
  collider(keyOrChunk: ChunkKeyLike | Chunk, options?: ColliderOptions): Collider;
  /** The scatter of a chunk object of this world: at surface_lod on its own float heights (a .ctt tile gives the generated bytes). */
  scatter(chunk: Chunk): Scatter;
}

/** One kind of the scatter catalogue (core/include/ct_scatter.def). */
export interface ScatterKind {
  name: string;
  /** the kind appears in keys of LOD >= surface_lod - level */
  level: number;
  spacingM: number;
  maxSlopeDeg: number;
  minHeightM: number;
  maxHeightM: number;
  minMoisture: number;
  maxMoisture: number;
  /** only within one sample of water */
  nearWater: boolean;
  minSizeM: number;
  maxSizeM: number;
  /** collision radius per metre of size (0: none) */
  collisionPerM: number;
  /** target instances per km2 in each biome (BIOME_NAMES order) */
  densityKm2: readonly number[];
  doc: string;
}

/** world.scatter: a chunk key's instances, each array a copy of its own. */
export interface Scatter {
  count: number;
  /** body-fixed metres: the key's centre on the sphere */
  center: Float64Array;
  /** 3 per instance: the foot, float32 metres relative to center */
  positions: Float32Array;
  /** index into core.scatterKinds() */
  kind: Uint8Array;
  /** ground height at the foot, metres from sea level */
  heightM: Float32Array;
  /** radians about local up from local north (from the chunk's +x within a degree of a pole) */
  yaw: Float32Array;
  /** size in metres (plant height, rock diameter) */
  scale: Float32Array;
  /** stable 64-bit ids */
  id: BigUint64Array;
}

export interface SiteOptions {
  kind?: 'settlement' | 'port' | 'spawn';
  /** 1..1024, default 10 */
  count?: number;
  minSpacingM?: number;
  /** a direction; omitted: the whole world */
  near?: Vec3Like;
  /** with near: the search radius, metres */
  radiusM?: number;
}

/** A ranked site, best first. */
export interface Site {
  dir: Vec3;
  heightM: number;
  reliefM: number;
  slopeDeg: number;
  freshWaterM: number;
  coastM: number;
  biome: number;
  score: number;
}

export interface World {
  scatter(key: ChunkKeyLike): Scatter;
  sites(options?: SiteOptions): Site[];
}

export interface Core {
  scatterKinds(): readonly ScatterKind[];
}

// ------------------------------------------------------------------ edits
// (wasm/ct_edits.mjs; docs/edits.md. The members merge into the declarations above.)

/** A pad: flat at heightM (default: the base ground at the centre) within radiusM, blended over blendM. */
export interface FlattenEdit { kind: 'flatten'; center: Vec3Like; radiusM: number; heightM?: number; blendM?: number }
/** A bowl depthM deep at the centre with a rim rimM high at radiusM, falling off to 1.5 radiusM. */
export interface CraterEdit { kind: 'crater'; center: Vec3Like; radiusM: number; depthM: number; rimM?: number }
/** A road along points, widthM wide, graded to maxGradeDeg, with shoulders (default widthM) each side. */
export interface PathEdit { kind: 'path'; points: Vec3Like[] | Float64Array; widthM: number; maxGradeDeg: number; shoulderM?: number }
/** A smooth bump (or dent) of deltaM at the centre, 0 at radiusM. */
export interface BrushEdit { kind: 'brush'; center: Vec3Like; radiusM: number; deltaM: number }
export type Edit = FlattenEdit | CraterEdit | PathEdit | BrushEdit;

/** Where a path crosses water in the base world, metres along the path. */
export interface PathCrossing {
  fromM: number;
  toM: number;
  fromDir: Vec3;
  toDir: Vec3;
  /** the highest water surface over the interval */
  waterM: number;
  waterBody: number;
}

export interface Chunk {
  /** the edit set ID of a chunk an edit reaches (16 hex digits); '0000000000000000' otherwise */
  editSet: string;
}

export interface World {
  /** A world with the edit set applied, sharing this one's field: free it before this one (freeing this frees it). */
  withEdits(edits: Edit[] | Uint8Array): World;
  /** The edit set (decoded from its bytes; [] unedited). */
  readonly editSet: Edit[];
  /** The edit set's 64-bit ID, 16 hex digits ('0000000000000000' unedited). */
  readonly editSetId: string;
  /** The canonical CTEDITS bytes, or null unedited. */
  editBytes(): Uint8Array | null;
  /** The keys of lod an edit footprint reaches, sorted by face, y, x. */
  editedKeys(lod: number): ChunkKey[];
  /** Where path edit index crosses water. */
  pathCrossings(index: number): PathCrossing[];
}

export interface Core {
  /** The canonical CTEDITS bytes of an edit set (doubles exact). */
  encodeEdits(edits: Edit[]): Uint8Array;
  /** Edit objects from CTEDITS bytes. */
  decodeEdits(bytes: Uint8Array | ArrayBuffer): Edit[];
}

// ---------------------------------------------------------------- streams
// (wasm/ct_streams.mjs; docs/generation.md, "Stream network". The members merge into the declarations above.)

/** world.streams: the stream links crossing a chunk key, each array a copy of its own. */
export interface Streams {
  /** links (polylines) */
  count: number;
  pointCount: number;
  /** body-fixed metres: the key's centre on the sphere */
  center: Float64Array;
  /** 3 per point, on the water surface: float32 metres relative to center */
  positions: Float32Array;
  /** count + 1: link k's points are pointStart[k] .. pointStart[k + 1] - 1, downstream */
  pointStart: Uint32Array;
  /** per point: the water level (the bed), metres from sea level; never rises downstream */
  waterM: Float32Array;
  /** per link, metres: 0.4 sqrt(drainage area, km2) */
  width: Float32Array;
  /** per link: 1 fine-level head, 2 fine fed, 3 coarse head, 4 coarse fed */
  order: Uint8Array;
  /** per link: its lattice level (stream_level or stream_fine_level) */
  level: Uint8Array;
}

export interface World {
  /** The stream links crossing key (any LOD up to surface_lod; empty with streams off). */
  streams(key: ChunkKeyLike): Streams;
}
