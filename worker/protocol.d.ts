// protocol.d.ts - Type declarations for worker/protocol.js, the message types,
// error codes and helpers shared by the worker entry, the handler and the pool.
import type { ChunkKey, ChunkKeyLike } from '../wasm/ct.mjs';

export declare const MSG: Readonly<{
  BUILD: 'build';
  LOAD: 'load';
  SNAPSHOT: 'snapshot';
  SAMPLE: 'sample';
  CHUNK: 'chunk';
  MESH: 'mesh';
  COLLIDER: 'collider';
  SCATTER: 'scatter';
  CANCEL: 'cancel';
  STATS: 'stats';
  CONFIG: 'config';
  ADDRESS: 'address';
  RIVERS: 'rivers';
  STREAMS: 'streams';
  PROGRESS: 'progress';
  TEST_CRASH: 'test-crash';
  TEST_STALL: 'test-stall';
}>;

export type MessageType = (typeof MSG)[keyof typeof MSG];
export declare const REQUEST_TYPES: readonly MessageType[];

export declare const ERR: Readonly<{
  MESSAGE: 'CT_ERR_MESSAGE';
  UNKNOWN_TYPE: 'CT_ERR_UNKNOWN_TYPE';
  NO_WORLD: 'CT_ERR_NO_WORLD';
  CANCELLED: 'CT_ERR_CANCELLED';
  WORKER: 'CT_ERR_WORKER';
  GENERATION: 'CT_ERR_GENERATION';
  TERMINATED: 'CT_ERR_TERMINATED';
  INTERNAL: 'CT_ERR_INTERNAL';
  CORE: 'CT_ERR_CORE';
  FACE: 'CT_ERR_FACE';
  LOD: 'CT_ERR_LOD';
  CHUNK_XY: 'CT_ERR_CHUNK_XY';
  /** a bake's manifest, index or world file refused (createPool's tiles option) */
  TILES: 'CT_ERR_TILES';
}>;

export type ChunkFormat = 'arrays' | 'ctc' | 'u16le';
export declare const CHUNK_FORMATS: readonly ChunkFormat[];
export declare const FACE_NAMES: readonly ['+X', '-X', '+Y', '-Y', '+Z', '-Z'];
export declare const FACE_FILE_NAMES: readonly ['px', 'nx', 'py', 'ny', 'pz', 'nz'];
/** Biome names in core order (ct_biome_name): a sample's biome is an index into this. */
export declare const BIOME_NAMES: readonly string[];
/** Water code of a sample at 0 m: the sea (CT_SEA_LEVEL_CODE in ct.h). */
export declare const SEA_LEVEL_CODE: number;
/** Finest LOD a key may name (CT_MAX_LOD). */
export declare const MAX_LOD: number;

/** A request: every one carries an id (number or string) and a type. */
export interface Request {
  id: number | string;
  type: MessageType | string;
  /** retry count, set by the pool (0 on the first attempt) */
  attempt?: number;
  [arg: string]: unknown;
}

/** Error part of a failed reply: a C code such as 'CT_ERR_LOD' or one of ERR. */
export interface WireError { code: string; message: string; }

export type Reply<T = unknown> =
  | { id: number | string | null; ok: true; result: T }
  | { id: number | string | null; ok: false; error: WireError };

/** Sent during a build, with the build request's id. */
export interface ProgressMessage { id: number | string; type: 'progress'; stage: string; fraction: number; }

export interface ProtocolError extends Error { code: string; }

export declare function protocolError(code: string, message: string): ProtocolError;
export declare function errorToWire(e: unknown): WireError;
export declare function wireToError(wire: Partial<WireError> | undefined): ProtocolError;
/**
 * The one key check (wasm/ct_key.mjs): an object or a key id 'pz/3/1/2' to a key with a numeric
 * face; throws CT_ERR_NULL (not a key), CT_ERR_FACE, CT_ERR_LOD or CT_ERR_CHUNK_XY.
 */
export declare function parseKey(key: ChunkKeyLike | string): ChunkKey;
/** The key's text id, 'pz/3/1/2' (face as addresses spell it). */
export declare function keyId(key: ChunkKey): string;
/** Distinct ArrayBuffers behind a result's typed arrays, for the transfer list. */
export declare function transferablesOf(result: object): ArrayBuffer[];
