// index.d.ts - Type declarations for stream/index.js, the package's "./stream"
// entry: the renderer-independent streaming library (tile selection, the tile
// request queue, the GPU-budget cache, mesh preparation, camera maths and
// geometry) that a renderer adapter plugs into.
import type { ChunkKey, ChunkKeyLike } from '../wasm/ct.mjs';
import type { Pool, PoolMesh, StrideErrorsM } from '../worker/client.js';

export type Vec3 = [number, number, number] | number[];

/** An orbit camera: degrees and metres above sea level. */
export interface Pose { lat: number; lon: number; alt: number; heading: number; tilt: number; }

/** Everything a frame needs from a pose; viewProj maps (world - eye) to clip space. */
export interface View {
  eye: number[]; right: number[]; up: number[]; forward: number[]; rows: number[][];
  view: Float32Array; proj: Float32Array; viewProj: Float64Array;
  near: number; far: number; fovy: number; aspect: number; pixelScale: number; width: number; height: number;
}

export interface ViewOptions {
  radiusM: number; width: number; height: number;
  fovyDeg?: number; groundM?: number; hMinM?: number; hMaxM?: number;
}

export declare function computeView(pose: Pose, options: ViewOptions): View;
export declare function defaultPose(radiusM: number): Pose;
export declare function clampPose(pose: Pose, radiusM: number, minAltM?: number): Pose;
/** Moves a lat/lon pose in place along its heading (and to its right) over the sphere, by parallel transport: over a pole it comes down the other side. */
export declare function moveLatLonPose(pose: Pose, aheadM: number, rightM: number, radiusM: number): Pose;
export declare function autoTilt(altM: number): number;
export declare function perspective(fovy: number, aspect: number, near: number, far: number): Float32Array;
/** World-space unit ray through a pixel (device pixels, origin top left). */
export declare function screenRay(view: View, px: number, py: number): number[];
/** Distance along a ray to a sphere around the origin, or null when it misses. */
export declare function raySphere(origin: Vec3, dir: Vec3, radius: number): number | null;

/** Vertex data of a terrain tile, as prepareTerrain makes it for uploadTerrain. */
export interface PreparedTerrain {
  /** x, y, z (metres from center) and the height above sea level, per vertex */
  posH: Float32Array;
  /** the same on the coarser grid: geomorph targets */
  morphH: Float32Array;
  normals: Float32Array;
  /** palette index per vertex, or null when unknown (draw colors) */
  pal: Uint8Array | null;
  colors: Uint8Array;
  indices: Uint16Array | Uint32Array;
  center: number[];
  vertexCount: number;
  morphs: boolean;
  minH: number;
  maxH: number;
  /** the per-sample maps, only when the adapter's needs asked for them */
  relief: Float32Array | null;
  paletteMap: Uint8Array | null;
  lakeLevels: Float32Array | null;
}

/** A lake surface for uploadWater. */
export interface PreparedWater {
  posH: Float32Array; normals: Float32Array; indices: Uint16Array | Uint32Array; center: number[]; vertexCount: number;
}

/** What a renderer adapter draws beyond the mesh; the worker builds only these. */
export interface RendererNeeds {
  /** 257 x 257 relief maps (normals and heights) for per-pixel shading */
  reliefMaps?: boolean;
  /** 257 x 257 palette indices for colour per pixel */
  paletteMaps?: boolean;
  /** lakes as 257 x 257 level maps on the terrain instead of water meshes through uploadWater */
  lakeLevels?: boolean;
}

/** The renderer side of TileStreamer: handles are whatever the renderer likes, with a byte size. */
export interface RendererAdapter<H extends { bytes: number } = { bytes: number }> {
  uploadTerrain(tile: PreparedTerrain): H;
  uploadWater(water: PreparedWater): H;
  release(handle: H | null): void;
  /** absent: nothing beyond the mesh (stride errors always come) */
  needs?: RendererNeeds;
}

export interface TileStreamerOptions<H extends { bytes: number } = { bytes: number }> {
  pool: Pool;
  renderer: RendererAdapter<H>;
  radiusM: number;
  surfaceLod: number;
  generation: string;
  /** colourToIndex(palette), only for meshes without paletteIndex */
  colourToIndex?: Map<number, number> | null;
  budgetBytes?: number;
  maxInFlight?: number;
  baseStride?: number;
  minStride?: number;
  tau?: number;
  tauGeo?: number;
  /** triangle budget per pixel of the view (default 2.5): past it far rough ground is meshed coarser */
  trianglesPerPixel?: number;
  lakeMinLod?: number;
  exaggeration?: number;
  onError?: (error: Error & { code?: string }, want: { id: string; key: ChunkKey; stride: number }) => void;
}

/** A tile to draw this frame. */
export interface DrawnTile<H = unknown> {
  gpu: H; water: H | null; center: number[]; morph: number; key: ChunkKey; stride: number; cacheId: string;
}

export interface StreamFrame<H = unknown> {
  tiles: DrawnTile<H>[]; settled: boolean; complete: boolean; maxLodDrawn: number; want: number; exaggeration: number;
}

export declare class TileStreamer<H extends { bytes: number } = { bytes: number }> {
  constructor(options: TileStreamerOptions<H>);
  /** One frame: select, request, evict; the tiles to draw. */
  update(view: View, nowMs: number): StreamFrame<H>;
  heightRange(): { hMinM: number; hMaxM: number };
  setExaggeration(v: number): void;
  cancelAll(): void;
  dispose(): void;
  stats(): { tilesDrawn: number; surfaceTilesDrawn: number; paletteMapped: number; exaggeration: number;
    inFlight: number; cached: number; cachedBytes: number; maxLodDrawn: number; plannedTriangles: number; budgetFactor: number; trianglesPerPixel: number };
}

/** Terrain height range in metres (before exaggeration) that bounds and culling allow for. */
export declare const HEIGHT_RANGE_M: [number, number];

export interface SelectedTile { id: string; key: ChunkKey; stride: number; bounds?: object; priority?: number; }
export declare function selectTiles(p: {
  view: View; radiusM: number; surfaceLod: number; isReady: (id: string) => boolean;
  tau?: number; tauGeo?: number; tileInfo?: (key: ChunkKey) => { errors: StrideErrorsM; k: number } | undefined;
  baseStride?: number; minStride?: number; hMinM?: number; hMaxM?: number; boundsCache?: Map<string, object>; maxVisits?: number;
  /** triangle budget: past it every tolerance is relaxed 1.5x at a time (up to 64x) */
  maxTriangles?: number;
}): { draw: SelectedTile[]; want: SelectedTile[]; keep: string[]; maxLodDrawn: number; visits: number; culled: number; complete: boolean;
  /** triangles of the wanted tiles once all are here */ plannedTriangles: number; /** the relaxation used */ budgetFactor: number };
/** Triangles of a chunk mesh at a stride (grid and skirts). */
export declare function meshTriangles(stride: number): number;
/** A tile id: keyId(key) + '/s' + stride. */
export declare function tileId(key: ChunkKey, stride: number): string;

export declare function prepareTerrain(mesh: PoolMesh, o: { radiusM: number; stride: number; colourToIndex?: Map<number, number> | null }): PreparedTerrain;
export declare function prepareWater(mesh: PoolMesh['lakes'], radiusM: number): PreparedWater | null;
/** 40 RRGGBB lines -> 120 RGB bytes; throws naming the bad line. */
export declare function parsePalette(text: string): Uint8Array;
/** Packed 0xRRGGBB -> palette index, for meshes without paletteIndex. */
export declare function colourToIndex(rgb: Uint8Array): Map<number, number>;

export declare const FACE_NAMES: readonly string[];
export declare const FACE_FILE_NAMES: readonly string[];
export declare const CHUNK_CORE: number;
/** The one key check: an object or a key id 'pz/6/22/52'; throws CT_ERR_NULL, _FACE, _LOD or _CHUNK_XY. */
export declare function parseKey(key: ChunkKeyLike | string): ChunkKey;
/** 'pz/6/22/52' */
export declare function keyId(key: ChunkKey): string;
export declare function keyAt(dir: Vec3, lod: number): { key: ChunkKey; localX: number; localY: number };
export declare function keyDirection(key: ChunkKey, localX: number, localY: number): number[];
export declare function keyBounds(key: ChunkKey, rMin: number, rMax: number): { centerDir: number[]; angle: number; center: number[]; radius: number };
export declare function latLonToDir(latDeg: number, lonDeg: number): number[];
export declare function dirToLatLon(dir: Vec3): { lat: number; lon: number };
export declare function enuFrame(dir: Vec3): { east: number[]; north: number[]; up: number[] };
export declare function sampleSpacingM(radiusM: number, lod: number): number;

/**
 * The ground pose (stream/pose.js): a body-fixed unit direction from the planet's centre and a unit
 * forward tangent, with no latitude or longitude in it. Up is dir, right is forward x up; angles in
 * radians are counter-clockwise seen from above. An altitude, where needed, travels beside it.
 */
export interface GroundPose { dir: Vec3; forward: Vec3; }
/** How far a pose may be off unit length or off tangent before it is an error (CT_ERR_DIRECTION). */
export declare const POSE_TOLERANCE: number;
/** Moves forwardM ahead and rightM right along a great circle of radiusM, the heading carried by parallel transport. */
export declare function movePose(pose: GroundPose, forwardM: number, rightM: number, radiusM: number): { dir: number[]; forward: number[] };
/** Heading in radians in [-pi, pi], counter-clockwise from the key's local +x axis at the pose's point. */
export declare function headingInKey(pose: GroundPose, key: ChunkKeyLike | string): number;
/** The pose at a key's local position heading `angle` radians from its local +x axis. */
export declare function poseFromKeyHeading(key: ChunkKeyLike | string, localX: number, localY: number, angle: number): { dir: number[]; forward: number[] };
/** The ground pose at lat/lon (degrees) facing headingDeg clockwise from north (at a pole: north along meridian lon). */
export declare function groundPoseFromLatLon(latDeg: number, lonDeg: number, headingDeg: number): { dir: number[]; forward: number[] };
/** lat, lon (lon 0 exactly at a pole) and heading in [0, 360) clockwise from north. */
export declare function latLonFromGroundPose(pose: GroundPose): { lat: number; lon: number; heading: number };

/** Render-only surface detail (stream/surface_glsl.js): GLSL chunks and the float64 eye anchors they need. */
export declare const SURFACE_ANCHOR_M: number;
/** Splits a float64 eye (metres, planet-centred) into per-frame integer lattice cells, float32 remainders and the rotations. */
export declare function surfaceAnchors(eye: ArrayLike<number>): { cell: Int32Array; fine: Float32Array; rot: Float32Array };
/** uLogDepthF for a far plane distance in metres. */
export declare function logDepthFactor(farM: number): number;
export declare const SURFACE_NOISE_GLSL: string;
export declare const SURFACE_MATERIAL_GLSL: string;
export declare const SURFACE_WATER_GLSL: string;
export declare const LOG_DEPTH_VS: string;
export declare const LOG_DEPTH_FS: string;

/** A collider patch (stream/neighbourhood.js): the chunk collider's centre and its vertices bit for bit. */
export interface GroundPatch {
  key: ChunkKey; center: Float64Array; positions: Float32Array; indices: Uint32Array;
  vertexCount: number; triangleCount: number;
  /** first cell x, y and cells wide, high in the chunk's collider grid */
  cells: [number, number, number, number];
  /** ray-culling boxes: min and max corners per 8 x 8-cell block, then the patch's */
  boxes: Float64Array;
}
export interface GroundNeighbourhoodOptions {
  /** the worker pool, or anything with its collider(): a promise of world.collider's result */
  pool: { collider(key: ChunkKey, options: { stride: number }, priority: { priority: number }): PromiseLike<unknown> };
  radiusM: number; surfaceLod: number;
  /** default 1500 */ rangeM?: number;
  /** default 1 */ stride?: number;
  /** cells per patch side, default 64 */ patch?: number;
  /** triangles handed to onAdd per update (at least one patch), default 16384 */ budgetTriangles?: number;
  /** default 4 */ maxInFlight?: number;
  onAdd(patchKey: string, patch: GroundPatch): void;
  onRemove(patchKey: string): void;
  onError?(error: Error, key: ChunkKey): void;
}
export interface GroundNeighbourhoodStats {
  wanted: number; held: number; missing: number; chunksHeld: number; inFlight: number; complete: boolean;
  triangles: number; requested: number; failed: number; added: number; removed: number;
}
/** Physics ground round a player: surface_lod colliders within rangeM, in patches, added within a budget per update. */
export declare class GroundNeighbourhood {
  constructor(options: GroundNeighbourhoodOptions);
  /** Each frame; never waits. player: a direction from the planet's centre or a ground pose. */
  update(player: Vec3 | GroundPose): GroundNeighbourhoodStats;
  stats(): GroundNeighbourhoodStats;
  keys(): string[];
  patchKeyAt(dir: Vec3): string;
  holds(dir: Vec3): boolean;
  groundAt(dir: Vec3): { heightM: number; normal: number[]; key: ChunkKey; patchKey: string } | null;
  raycast(originM: Vec3, dir: Vec3, maxM: number):
    { distanceM: number; point: number[]; normal: number[]; key: ChunkKey; patchKey: string } | null;
  clear(): void;
}

/** A chunk as renderMinimap reads it: world.chunk / pool.chunk's arrays (257 x 257 samples). */
export interface MinimapChunk {
  key: ChunkKey;
  heightM: ArrayLike<number>;
  water: ArrayLike<number>;
  palette: ArrayLike<number>;
}
export interface MinimapOptions {
  /** the player's ground pose */
  pose: GroundPose;
  radiusM: number;
  /** any LODs: the finest that holds a pixel colours it */
  chunks: MinimapChunk[];
  /** 120 bytes, 40 RGB colours (world.palette()) */
  palette: ArrayLike<number>;
  /** pixels per side, 8..1024, default 160 */ size?: number;
  /** metres from the centre to a side, default 1000 */ rangeM?: number;
  /** the heading up (default false: north up) */ headingUp?: boolean;
  /** heading-up within this many degrees of a pole, default 3 */ poleDeg?: number;
  /** heights read bilinearly for the hillshade, default true */ bilinear?: boolean;
  /** world.scatter / pool.scatter results: darker where instances are dense */
  scatter?: { count: number; center: ArrayLike<number>; positions: ArrayLike<number> }[];
  /** world.sites results (only dir is read): red markers */
  sites?: { dir: ArrayLike<number> }[];
  /** an edit set (world.editSet): footprints outlined, paths drawn */
  edits?: ({ kind: 'flatten' | 'crater' | 'brush'; center: ArrayLike<number>; radiusM: number }
    | { kind: 'path'; points: ArrayLike<number>[] | Float64Array })[];
  /** world.riverCurves(): drawn as lines */
  rivers?: { offset: ArrayLike<number>; points: ArrayLike<number> };
}
export interface Minimap {
  width: number; height: number;
  /** RGBA, row 0 at the top (ImageData's layout) */
  pixels: Uint8ClampedArray;
  /** whether the map was drawn heading-up (asked, or near a pole) */
  headingUp: boolean;
  metresPerPixel: number;
  /** pixels a held chunk covered */
  covered: number;
}
/** A top-down map round the player as RGBA pixels (no DOM, no GL). */
export declare function renderMinimap(options: MinimapOptions): Minimap;
export interface MinimapChunksOptions {
  /** the worker pool, or anything with its chunk(): a promise of world.chunk's result */
  pool: { chunk(key: ChunkKey, options: { priority: number }): PromiseLike<unknown> };
  radiusM: number; surfaceLod: number;
  /** default 1000 */ rangeM?: number;
  /** LODs below surfaceLod also asked, default [2, 4] */ coarser?: number[];
  /** default 4 */ maxInFlight?: number;
  /** default 48 */ maxChunks?: number;
}
/** The keys of lod under a square of half-side rangeM round dir, nearest first. */
export declare function keysAround(dir: Vec3, radiusM: number, lod: number, rangeM: number): { key: ChunkKey; distM: number }[];
/** The chunks a minimap is drawn from: surface_lod and coarser keys round the player, from the pool. */
export declare class MinimapChunks {
  constructor(options: MinimapChunksOptions);
  /** Each frame or a few times a second; never waits. */
  update(player: Vec3 | GroundPose): { wanted: number; held: number };
  /** held chunks, finest LOD first */
  chunks(): MinimapChunk[];
}
/** The scatter catalogue, core.scatterKinds()'s table (for pages that hold no core). */
export declare const SCATTER_KINDS: readonly import('../wasm/ct.mjs').ScatterKind[];
