// This module is the worker protocol: message types, error codes and the small
// helpers (the key check, transfer lists) that the handler, the entry and the
// client pool share, so none of them spells a type or a code on its own.

/** Request and message types. A request is `{id, type, ...args}`. */
export const MSG = Object.freeze({
  BUILD: 'build',         // {preset?, set?, text?, snapshot?: bool, cancelFlag?: SharedArrayBuffer}
                          //   -> {generation, config, stats, snapshot?}; a non-zero first Int32 of
                          //   cancelFlag stops the build at its next progress tick (CT_ERR_CANCELLED)
  LOAD: 'load',           // {bytes: Uint8Array|ArrayBuffer} -> {generation, config, stats}
  SNAPSHOT: 'snapshot',   // {} -> {generation, bytes: Uint8Array}
  SAMPLE: 'sample',       // {dirs: Float64Array(3n)|number[][]} -> {generation, count, heightM, ...}
  CHUNK: 'chunk',         // {key, format?: 'arrays'|'ctc'|'u16le'} -> chunk
  MESH: 'mesh',           // {key, options?} -> mesh
  COLLIDER: 'collider',   // {key, options?: {stride?}} -> {key, generation, center, positions, indices, ...}
  SCATTER: 'scatter',     // {key} -> {key, generation, count, center, positions, kind, heightM, yaw, scale, id}
  CANCEL: 'cancel',       // {target: id} -> {target, cancelled: bool}
  STATS: 'stats',         // {} -> {generation, stats, memoryBytes, queued, busy: {ms, count} per request type}
  CONFIG: 'config',       // {preset?, set?, text?} -> {knobs, presets, generation, world, resolved?}
  ADDRESS: 'address',     // {key} -> {generation, address}: the core's 'planet/generation/face/lod/x/y'
  RIVERS: 'rivers',       // {} -> {generation, info, direction, downstream, drainageAreaM2, widthM, ...}
  STREAMS: 'streams',     // {key} -> {key, generation, count, pointCount, center, positions, pointStart, waterM, ...}
  EDITS: 'edits',         // {bytes: Uint8Array (CTEDITS) | edits: object[], snapshot?: bool} -> {generation, config,
                          //   stats, editSetId, snapshot?}: the base world with that edit set (worker/edits_job.js)
  PROGRESS: 'progress',   // worker -> client only: {id, type, stage, fraction}
  // Test hooks: answered only by a handler created with {testHooks: true}.
  TEST_CRASH: 'test-crash', // {times}: the worker dies while msg.attempt < times
  TEST_STALL: 'test-stall', // {ms}: busy-waits, to hold a request in flight
  // (and BUILD's testHold/testHoldAt: the build waits after that progress message until released)
});

/** Types a client may send (progress only flows from the worker). */
export const REQUEST_TYPES = Object.freeze([
  MSG.BUILD, MSG.LOAD, MSG.SNAPSHOT, MSG.SAMPLE, MSG.CHUNK, MSG.MESH, MSG.COLLIDER, MSG.SCATTER,
  MSG.CANCEL, MSG.STATS, MSG.CONFIG, MSG.ADDRESS, MSG.RIVERS,
  MSG.EDITS,
  MSG.STREAMS,
]);

/**
 * Error codes of replies. The CT_ERR_* codes of the C table (CT_ERR_LOD,
 * CT_ERR_FACE, CT_ERR_KNOB_RANGE, ...) pass through unchanged; these are the
 * ones the worker layer adds.
 */
export const ERR = Object.freeze({
  MESSAGE: 'CT_ERR_MESSAGE',         // malformed request (not an object, no id, bad argument types)
  UNKNOWN_TYPE: 'CT_ERR_UNKNOWN_TYPE',
  NO_WORLD: 'CT_ERR_NO_WORLD',       // a world request before any build or load
  CANCELLED: 'CT_ERR_CANCELLED',     // same text as the C code: cancelled by the caller
  TIMEOUT: 'CT_ERR_TIMEOUT',         // no reply within the pool's timeout, twice (the worker was replaced each time)
  WORKER: 'CT_ERR_WORKER',           // the worker crashed and the retry failed too
  GENERATION: 'CT_ERR_GENERATION',   // workers disagree about the world
  TERMINATED: 'CT_ERR_TERMINATED',   // the pool was terminated
  INTERNAL: 'CT_ERR_INTERNAL',       // an exception without a code
  CORE: 'CT_ERR_CORE',               // the WebAssembly core failed to load in the worker
  FACE: 'CT_ERR_FACE',
  LOD: 'CT_ERR_LOD',
  CHUNK_XY: 'CT_ERR_CHUNK_XY',
  TILES: 'CT_ERR_TILES',             // a bake's manifest, index or world file refused (worker/tiles.js)
});

/** Chunk encodings a chunk request may ask for. */
export const CHUNK_FORMATS = Object.freeze(['arrays', 'ctc', 'u16le']);

/** Face and biome names, the sea's water code, the LOD limit and the key check: the core's own (wasm/ct_constants.mjs, wasm/ct_key.mjs). */
export { FACE_NAMES, FACE_FILE_NAMES, BIOME_NAMES, SEA_LEVEL_CODE, MAX_LOD } from '../wasm/ct_constants.mjs';
export { parseKey, keyId } from '../wasm/ct_key.mjs';

/**
 * Makes an Error carrying a protocol or C error code.
 * @param {string} code e.g. 'CT_ERR_MESSAGE'
 * @param {string} message readable reason
 * @returns {Error & {code: string}}
 */
export function protocolError(code, message) {
  const e = new Error(message);
  e.code = code;
  return e;
}

/**
 * Turns any thrown value into the `{code, message}` of an error reply.
 * @param {unknown} e
 * @returns {{code: string, message: string}}
 */
export function errorToWire(e) {
  if (e && typeof e === 'object') {
    const code = typeof e.code === 'string' && e.code ? e.code : ERR.INTERNAL;
    return { code, message: String(e.message || code) };
  }
  return { code: ERR.INTERNAL, message: String(e) };
}

/**
 * Turns an error reply back into an Error with `.code`.
 * @param {{code?: string, message?: string}} wire
 */
export function wireToError(wire) {
  return protocolError((wire && wire.code) || ERR.INTERNAL, (wire && wire.message) || 'worker error');
}

/**
 * Collects the distinct ArrayBuffers behind the typed arrays of a result
 * (top level and one level of nesting), for the transfer list. Shared memory
 * and WebAssembly memory must never be passed here: the core's API returns
 * copies, and SharedArrayBuffers are skipped.
 * @param {object} result
 * @returns {ArrayBuffer[]}
 */
export function transferablesOf(result) {
  const out = new Set();
  const visit = (v, depth) => {
    if (!v || typeof v !== 'object') return;
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) out.add(v.buffer);
      return;
    }
    if (v instanceof ArrayBuffer) { out.add(v); return; }
    if (depth > 1) return;
    for (const k of Object.keys(v)) visit(v[k], depth + 1);
  };
  visit(result, 0);
  return [...out];
}
