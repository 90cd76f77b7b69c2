// client.d.ts - Type declarations for worker/client.js, the promise-based pool
// of terrain workers used by pages and Node programs (see docs/worker.md).
import type {
  ChunkCounters, ChunkKey, ChunkKeyLike, Chunk, Collider, ColliderOptions, Config, ConfigOptions, KnobInfo, Mesh, MeshOptions, RiverGraph, RiverCurves,
  SampleResult,
  WorldStats,
} from '../wasm/ct.mjs';
import type { ChunkFormat, MessageType, ProtocolError } from './protocol.js';

export { MSG, ERR, parseKey, keyId } from './protocol.js';

export interface PoolOptions {
  /** number of workers; default min(4, max(1, hardwareConcurrency - 1)) */
  workers?: number;
  /**
   * the installed package folder as served (e.g. '/assets/cubesphere-terrain/'): the worker
   * script is baseUrl + 'worker/worker.js' and ct.wasm baseUrl + 'build/wasm/ct.wasm'. The one
   * option that moves both defaults; workerUrl and wasmUrl still override one each.
   */
  baseUrl?: string | URL;
  /** where the workers load ct.wasm from; default build/wasm/ct.wasm beside wasm/ct.mjs */
  wasmUrl?: string | URL;
  /** the worker entry; default worker/worker.js next to client.js */
  workerUrl?: string | URL;
  /** requests in flight per worker (default 2) */
  pipeline?: number;
  /** enable the test-crash / test-stall request types (tests only) */
  testHooks?: boolean;
  /** send chunk/mesh requests to the worker holding that key's chunk (default true) */
  affinity?: boolean;
  /** ms a request other than build may go unanswered before its worker is replaced and the
   *  request retried once; a second timeout rejects with CT_ERR_TIMEOUT (default 60000, 0 = never) */
  timeoutMs?: number;
  /**
   * a bake's manifest URL (a folder URL ending in / means its manifest.json; under Node a path),
   * or {manifest, onFallback}: chunk, mesh and collider requests of baked keys are answered from
   * the bake's verified tiles while the pool's world has the manifest's generation (docs/worker.md)
   */
  tiles?: string | URL | TilesOptions;
}

/** What happened when a baked tile could not be used; the key was generated instead. */
export interface TileFallback {
  /** missing: not found or network; bad: length or SHA-256 not the index's; decode: refused by the decoder;
   *  generation: the pool's world is not the manifest's */
  kind: 'missing' | 'bad' | 'decode' | 'generation';
  message: string;
}

export interface TilesOptions {
  manifest: string | URL;
  /** called for every fallback (first: the first of its kind); without it the first of each kind goes to console.warn */
  onFallback?: (info: TileFallback & { key: ChunkKey; first: boolean }) => void;
}

/** pool.stats().tiles of a pool with baked tiles. */
export interface TileStats {
  /** replies answered from a verified tile */
  used: number;
  /** replies generated (keys outside the bake, and fallbacks) */
  generated: number;
  fallback: { missing: number; bad: number; decode: number; generation: number };
  /** tiles the index lists */
  tiles: number;
  generation: string | null;
  lods: [number, number] | null;
}

/** Where a reply's chunk came from, on pools with baked tiles. */
export interface TileSourced {
  source?: 'tile' | 'generated';
  tileFallback?: TileFallback;
}

/** A pending request: a promise with the id pool.cancel() accepts. */
export interface PoolPromise<T> extends Promise<T> { readonly id: number; }

export interface PriorityOptions {
  /** lower runs sooner (e.g. distance to the camera); default 0 */
  priority?: number;
}

/** What the pool adds to every world result. */
export interface Epoched {
  /** the pool epoch the request was made in (bumped by build and load) */
  epoch: number;
}

export interface WorldInfo {
  generation: string;
  epoch: number;
  config: Config;
  stats: WorldStats;
}

export type PoolChunk = Chunk & Epoched & { format: 'arrays' } & TileSourced;
export interface PoolChunkBytes extends Epoched {
  key: ChunkKey;
  generation: string;
  format: 'ctc' | 'u16le';
  /** .ctc (396,354 bytes) or .u16le (131,072 bytes) file contents */
  bytes: Uint8Array;
}
/** World mesh options plus what the worker adds. */
export interface PoolMeshOptions extends MeshOptions {
  /**
   * With a terrain mesh: also send the water mesh of the same chunk and stride
   * as `lakes` when the chunk holds water off sea level (built from the chunk
   * the worker just generated, so it costs a mesh build, not a chunk).
   */
  lakes?: boolean;
  /**
   * With a terrain mesh: also send `relief`, 257 x 257 x 4 floats per chunk
   * sample (the core's normal minus the sphere's up, then the real height in
   * metres), from the same chunk meshed at stride 1 (worker/maps/relief.js).
   */
  relief?: boolean;
  /**
   * With a terrain mesh: also send `paletteMap`, 257 x 257 bytes, the palette
   * index of each chunk sample (the colour its vertex has at stride 1), from
   * the same stride-1 mesh as `relief` (one mesh for both). The page colours
   * tiles per pixel from it, whatever their stride.
   */
  paletteMap?: boolean;
  /**
   * With a terrain mesh: also send `lakeLevels`, 257 x 257 floats, the level
   * in metres of the lake over each sample, spread two samples onto the dry
   * shore, -30000 elsewhere (worker/maps/lake_map.js); null when the chunk has no
   * lake. The page decides lake shores per pixel from it.
   */
  lakeLevels?: boolean;
  /**
   * With a terrain mesh: inland water in no 2 x 2 block of wet samples (a
   * river narrower than the samples), and sea-level water with no wet neighbour (a river
   * node carved below 0 m), comes back as land, coloured like a dry
   * neighbour, in the mesh, `paletteMap` and `lakeLevels` (worker/maps/thin_water.js).
   * For tiles coarser than the finest level, where river lines draw such rivers.
   */
  thinWater?: boolean;
  /**
   * With a terrain mesh: a land sample whose biome none of its dry
   * neighbours has (and that has at least five) takes the colour of the
   * most common biome among them, in the mesh and `paletteMap`
   * (worker/maps/lone_biomes.js); tile border samples stay. For tiles far coarser
   * than the ridges they sample, where lone crest samples speckle the ranges.
   */
  loneBiomes?: boolean;
}

/** Geometric error in drawn metres of each mesh stride of a chunk (worker/maps/stride_errors.js); stride 1 is 0. */
export interface StrideErrorsM { 1: number; 2: number; 4: number; 8: number; }
/**
 * A mesh from the pool: `paletteIndex` (one byte per vertex) and the arrays
 * arrive in transferred buffers; every terrain mesh carries `strideErrorsM`
 * (what tile selection needs); `lakes`, `relief`, `paletteMap` and
 * `lakeLevels` only when asked for.
 */
export type PoolMesh = Mesh & Epoched & TileSourced & { key: ChunkKey; generation: string; strideErrorsM?: StrideErrorsM; lakes?: Mesh | null; relief?: Float32Array; paletteMap?: Uint8Array; lakeLevels?: Float32Array | null };
export type PoolSample = SampleResult & Epoched & { generation: string; count: number };
export type PoolRivers = RiverGraph & Epoched & { generation: string; curves: RiverCurves };

/** A pending request as shown to cancel() and reprioritize() callbacks. */
export interface RequestView {
  id: number;
  type: MessageType | string;
  key?: ChunkKey;
  options?: PoolMeshOptions;
  priority: number;
  epoch: number;
  state: 'queued' | 'running';
}

export interface PoolStats {
  /** live workers */
  workers: number;
  inFlight: number;
  queued: number;
  epoch: number;
  /** generation of the current world, or null */
  generation: string | null;
  crashes: number;
  restarts: number;
  /** late replies dropped (cancelled requests, older epochs) */
  dropped: number;
  /** requests re-sent after a crash */
  retried: number;
  /** requests that got no reply within timeoutMs (each replaced its worker) */
  timeouts: number;
  /** running builds stopped by pool.cancel or a newer build */
  buildsStopped: number;
  /** chunk affinity: requests sent to their chunk's worker, waiting for it, sent elsewhere, keys remembered */
  affinity: { affine: number; held: number; moved: number; remembered: number };
  /** baked tiles used and fallbacks, on a pool created with the tiles option */
  tiles?: TileStats;
}

export interface WorkerStats {
  worker: number;
  generation: string;
  stats: WorldStats;
  /** chunks this worker generated, and requests served from the one it generated last */
  chunks: ChunkCounters;
  memoryBytes: number;
  queued: number;
  /** time this worker spent answering each request type since it started (ms), and how many */
  busy: { ms: Record<string, number>; count: Record<string, number> };
}

/** A collider reply: world.collider's result with the key and the world's generation. */
export type PoolCollider = Collider & Epoched & TileSourced & { key: ChunkKey; generation: string };

export interface Pool {
  /** the knob table, read from the core in a worker */
  readonly knobs: KnobInfo[];
  readonly presets: string[];
  /** Builds the world in one worker and loads its snapshot into the others. */
  /** The promise's id cancels the build (pool.cancel(id)) at its next progress tick. */
  build(spec?: ConfigOptions, hooks?: { onProgress?: (stage: string, fraction: number) => void }): PoolPromise<WorldInfo>;
  /** Loads the bake's world snapshot (checked against its manifest) into every worker: pools created with tiles only. */
  loadBake(): Promise<WorldInfo>;
  /** Loads CTWORLD2 snapshot bytes into every worker (the caller's bytes are copied). */
  load(bytes: Uint8Array | ArrayBuffer): Promise<WorldInfo>;
  chunk(key: ChunkKeyLike, options?: PriorityOptions & { format?: 'arrays' }): PoolPromise<PoolChunk>;
  chunk(key: ChunkKeyLike, options: PriorityOptions & { format: 'ctc' | 'u16le' }): PoolPromise<PoolChunkBytes>;
  chunk(key: ChunkKeyLike, options?: PriorityOptions & { format?: ChunkFormat }): PoolPromise<PoolChunk | PoolChunkBytes>;
  mesh(key: ChunkKeyLike, meshOptions?: PoolMeshOptions, options?: PriorityOptions): PoolPromise<PoolMesh>;
  /** A physics collider (world.collider) built in a worker, its arrays transferred. */
  collider(key: ChunkKeyLike, colliderOptions?: ColliderOptions, options?: PriorityOptions): PoolPromise<PoolCollider>;
  /** A chunk key's scatter (world.scatter) in a worker, its arrays transferred. */
  scatter(key: ChunkKeyLike, options?: PriorityOptions): PoolPromise<import('../wasm/ct.mjs').Scatter & TileSourced & { key: ChunkKey; generation: string }>;
  /** The stream links crossing a chunk key (world.streams) in a worker, its arrays transferred. */
  streams(key: ChunkKeyLike, options?: PriorityOptions): PoolPromise<import('../wasm/ct.mjs').Streams & { key: ChunkKey; generation: string }>;
  /** dirs are copied, never detached */
  sample(dirs: ArrayLike<number> | ArrayLike<number>[], options?: PriorityOptions): PoolPromise<PoolSample>;
  snapshot(options?: PriorityOptions): Promise<Uint8Array>;
  /** The core's address of a key in the pool's world: 'planet/generation/face/lod/x/y' (ct_address_format). */
  address(key: ChunkKeyLike | string, options?: PriorityOptions): Promise<string>;
  /** The river graph of the world (one worker answers; the arrays are transferred). */
  rivers(options?: PriorityOptions): PoolPromise<PoolRivers>;
  /** Any request type, scheduled like the others (key: collapse key). */
  request<T = unknown>(type: MessageType | string, args?: Record<string, unknown>,
    options?: PriorityOptions & { key?: string; transfer?: Transferable[] }): PoolPromise<T>;
  /** Cancels by id or predicate; returns how many were cancelled. Their promises reject with CT_ERR_CANCELLED. */
  cancel(target: number | ((request: RequestView) => boolean)): number;
  /** New priorities for queued requests: return a number, or undefined to keep one. */
  reprioritize(fn: (request: RequestView) => number | undefined): void;
  /** Asks every live worker for its world stats. */
  workerStats(): Promise<WorkerStats[]>;
  stats(): PoolStats;
  /** Rejects everything pending with CT_ERR_TERMINATED and stops the workers. */
  terminate(): Promise<void>;
}

export type PoolError = ProtocolError;

export declare function createPool(options?: PoolOptions): Promise<Pool>;

// ------------------------------------------------------------------ edits
// (pool.withEdits, worker/edits_job.js; docs/edits.md)
export interface Pool {
  /**
   * Applies an edit set over the base world in every worker (a new epoch:
   * requests made before are cancelled). Chunks and meshes asked after it
   * resolves come from the edited world; [] gives the base world back.
   */
  withEdits(edits: import('../wasm/ct.mjs').Edit[] | Uint8Array): Promise<WorldInfo & { editSetId: string }>;
}
