// This module holds what the worker does for each request type: one named
// function per type in the JOBS table, each given the handler (for its core
// and its world) and the request, returning the reply's result or throwing a
// protocol error. worker/handler.js queues the requests and runs these; the
// mesh request lives in worker/mesh_job.js.
import { MSG, ERR, CHUNK_FORMATS, protocolError, parseKey } from './protocol.js';
import { meshReply } from './mesh_job.js';
import { withTile } from './tile_job.js';
import { editsJob } from './edits_job.js';
import { streamsJob } from './streams_job.js';

/** Build progress is posted at most this often per stage (fraction steps). */
const PROGRESS_STEP = 0.01;

/**
 * @typedef {object} JobHost what a job may use of the handler (worker/handler.js)
 * @property {object} core                   the loaded core (wasm/ct.mjs)
 * @property {object|null} world             the world, or null before the first build or load
 * @property {() => object} needWorld        the world, or a CT_ERR_NO_WORLD error
 * @property {(next: object) => void} replaceWorld  makes next the world and frees the old one
 * @property {() => object} workload         requests queued and the time spent answering each type
 * @property {boolean} testHooks             test hooks on (a build's testHold)
 */

function build(h, msg, post) {
  const built = h.core.buildWorld(worldSpec(msg), { onProgress: progressPoster(msg, post, h.testHooks ? testHoldOf(msg) : null) });
  h.replaceWorld(built);
  const result = worldSummary(built);
  if (msg.snapshot) result.snapshot = built.snapshot();
  return result;
}

function load(h, msg) {
  const bytes = msg.bytes instanceof ArrayBuffer ? new Uint8Array(msg.bytes) : msg.bytes;
  if (!(bytes instanceof Uint8Array)) throw protocolError(ERR.MESSAGE, 'load needs bytes: Uint8Array or ArrayBuffer');
  const loaded = h.core.loadWorld(bytes);
  h.replaceWorld(loaded);
  return worldSummary(loaded);
}

function snapshot(h) {
  const w = h.needWorld();
  return { generation: w.generation, bytes: w.snapshot() };
}

function sample(h, msg) {
  const w = h.needWorld();
  const dirs = checkDirs(msg.dirs);
  const count = ArrayBuffer.isView(dirs) ? dirs.length / 3 : dirs.length;
  return { generation: w.generation, count, ...w.sample(dirs) };
}

function chunk(h, msg) {
  const w = h.needWorld();
  const key = parseKey(msg.key);
  const format = msg.format === undefined ? 'arrays' : msg.format;
  if (!CHUNK_FORMATS.includes(format)) throw protocolError(ERR.MESSAGE, `unknown chunk format ${JSON.stringify(format)}`);
  if (format === 'ctc') return { key, generation: w.generation, format, bytes: w.chunkCtc(key) };
  if (format === 'u16le') return { key, generation: w.generation, format, bytes: w.chunkU16le(key) };
  // A baked tile (worker/tile_job.js) answers as the decoded chunk, marked source: 'tile'.
  return withTile(h, msg, (world, tile) => ({ ...(tile || world.chunk(key)), key, generation: world.generation, format }));
}

function mesh(h, msg) {
  return withTile(h, msg, (world, tile) => meshReply(world, msg, tile));
}

/** A physics collider (wasm/ct_ground.mjs): its arrays are the reply's own, transferred. */
function collider(h, msg) {
  const w = h.needWorld(), key = parseKey(msg.key), opts = msg.options;
  if (opts !== undefined && (opts === null || typeof opts !== 'object')) throw protocolError(ERR.MESSAGE, 'collider options must be an object');
  const { stride, ...rest } = opts || {};
  const unknown = Object.keys(rest);
  if (unknown.length) throw protocolError(ERR.MESSAGE, `unknown collider option ${unknown[0]}`);
  return withTile(h, msg, (world, tile) => ({ ...world.collider(tile || key, { stride }), key, generation: world.generation }));
}

/**
 * A chunk key's scatter (wasm/ct_scatter.mjs): its arrays are the reply's own, transferred.
 * A baked .ctt tile serves at surface_lod only (coarser keys take point queries; a
 * .ctc's code heights would move instances off the generated ground).
 */
function scatter(h, msg) {
  const w = h.needWorld(), key = parseKey(msg.key);
  const t = msg.tile, useTile = key.lod === w.config.surface_lod && !(t && t.format === 'ctc');
  return withTile(h, useTile ? msg : { ...msg, tile: undefined },
    (world, tile) => ({ ...world.scatter(tile || key), key, generation: world.generation }));
}

function address(h, msg) {
  const w = h.needWorld();
  return { generation: w.generation, address: w.address(parseKey(msg.key)) };
}

function stats(h) {
  const w = h.needWorld();
  return { generation: w.generation, stats: w.stats(), chunks: w.chunkCounters(), memoryBytes: h.core.memoryBytes(), ...h.workload() };
}

function rivers(h) {
  const w = h.needWorld();
  return { generation: w.generation, ...w.rivers(), curves: w.riverCurves() };
}

function config(h, msg) {
  const world = h.world;
  const result = {
    knobs: h.core.knobs(),
    presets: h.core.presets(),
    generation: world ? world.generation : null,
    world: world ? world.config : null,
  };
  if (msg.preset !== undefined || msg.set !== undefined || msg.text !== undefined) {
    result.resolved = h.core.config(worldSpec(msg));
  }
  return result;
}

function testStall(h, msg) {
  const until = Date.now() + Math.min(Number(msg.ms) || 0, 10000);
  while (Date.now() < until) { /* hold the thread, as a long chunk would */ }
  return { stalledMs: Number(msg.ms) || 0 };
}

/** A test-crash that did not crash (its attempt is past `times`: see handler.js). */
function testCrash() {
  return { survived: true };
}

/** Request type -> (host: JobHost, msg, post) => result. */
export const JOBS = Object.freeze({
  [MSG.BUILD]: build,
  [MSG.LOAD]: load,
  [MSG.SNAPSHOT]: snapshot,
  [MSG.SAMPLE]: sample,
  [MSG.CHUNK]: chunk,
  [MSG.MESH]: mesh,
  [MSG.COLLIDER]: collider,
  [MSG.SCATTER]: scatter,
  [MSG.ADDRESS]: address,
  [MSG.STATS]: stats,
  [MSG.RIVERS]: rivers,
  [MSG.STREAMS]: streamsJob,
  [MSG.EDITS]: editsJob,
  [MSG.CONFIG]: config,
  [MSG.TEST_STALL]: testStall,
  [MSG.TEST_CRASH]: testCrash,
});

/**
 * The build's progress callback: posts thinned-out progress messages and
 * returns true (stop the build) once the shared cancel flag is set. hold
 * (test hooks only) is called with the count of progress messages posted.
 */
function progressPoster(msg, post, hold) {
  const cancelled = cancelFlagOf(msg);
  let lastStage = '';
  let lastFraction = -1;
  let posted = 0;
  return (stage, fraction) => {
    // The build runs synchronously, so no cancel message can arrive
    // meanwhile; a flag in shared memory can. true stops the build.
    if (cancelled()) return true;
    // Thin out progress: a build may report thousands of steps.
    if (stage === lastStage && fraction < 1 && fraction - lastFraction < PROGRESS_STEP) return false;
    lastStage = stage;
    lastFraction = fraction;
    post({ id: msg.id, type: MSG.PROGRESS, stage, fraction });
    posted += 1;
    if (hold) hold(posted);
    return false;
  };
}

/**
 * A build's test hold (test hooks only): with testHold, a SharedArrayBuffer,
 * the build waits after its testHoldAt-th progress message (default 1) until
 * the test stores a non-zero value there. What a test does on that message
 * (cancel, start another build) then certainly happens mid-build, however
 * quickly the build would otherwise have ended.
 */
function testHoldOf(msg) {
  if (msg.testHold === undefined) return null;
  if (!(msg.testHold instanceof SharedArrayBuffer) || msg.testHold.byteLength < 4) {
    throw protocolError(ERR.MESSAGE, 'testHold must be a SharedArrayBuffer of at least 4 bytes');
  }
  const view = new Int32Array(msg.testHold, 0, 1), at = msg.testHoldAt ?? 1;
  return (posted) => { if (posted === at) Atomics.wait(view, 0, 0); };
}

/** () => true once the build's shared cancel flag is set (never without one). */
function cancelFlagOf(msg) {
  const flag = msg.cancelFlag;
  if (flag === undefined) return () => false;
  if (typeof SharedArrayBuffer === 'undefined' || !(flag instanceof SharedArrayBuffer) || flag.byteLength < 4) {
    throw protocolError(ERR.MESSAGE, 'cancelFlag must be a SharedArrayBuffer of at least 4 bytes');
  }
  const view = new Int32Array(flag, 0, 1);
  return () => Atomics.load(view, 0) !== 0;
}

function worldSpec(msg) {
  const spec = {};
  if (msg.preset !== undefined) {
    if (typeof msg.preset !== 'string') throw protocolError(ERR.MESSAGE, 'preset must be a string');
    spec.preset = msg.preset;
  }
  if (msg.set !== undefined) {
    if (!msg.set || typeof msg.set !== 'object') throw protocolError(ERR.MESSAGE, 'set must be an object {knob: value} or a list of "name=value"');
    spec.set = msg.set;
  }
  if (msg.text !== undefined) {
    if (typeof msg.text !== 'string') throw protocolError(ERR.MESSAGE, 'text must be a string');
    spec.text = msg.text;
  }
  return spec;
}

function worldSummary(w) {
  return { generation: w.generation, config: w.config, stats: w.stats() };
}

function checkDirs(dirs) {
  if (dirs instanceof Float64Array) {
    if (dirs.length === 0 || dirs.length % 3 !== 0) throw protocolError(ERR.MESSAGE, 'dirs must hold 3 numbers per direction');
    return dirs;
  }
  if (Array.isArray(dirs) && dirs.length > 0 && dirs.every((d) => Array.isArray(d) && d.length === 3)) return dirs;
  throw protocolError(ERR.MESSAGE, 'dirs must be a Float64Array(3n) or an array of [x, y, z]');
}
