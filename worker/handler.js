// This module is the worker's brain without the worker: createHandler(core)
// holds one world and answers protocol requests through a post(reply,
// transfer) callback, so tests drive it directly and worker.js only binds it
// to a message port. Requests run one at a time, in arrival order, each in its
// own macrotask: a cancel message that arrives meanwhile still finds the
// requests queued behind the running one and removes them. The world keeps
// the chunk it generated last (wasm/ct_world.mjs), so a water mesh or another
// stride of the same key right after costs a mesh build, not a chunk; a mesh
// request with `lakes: true` relies on that to add the lake surface of the
// same chunk to the terrain reply.
import {
  MSG, ERR, CHUNK_FORMATS, SEA_LEVEL_CODE, protocolError, errorToWire, parseKey, transferablesOf,
} from './protocol.js';
import { reliefMap, paletteMap } from './maps/relief.js';
import { lakeLevelMap } from './maps/lake_map.js';
import { thinWater, withoutThinWater, recolourMesh, liftHidden } from './maps/thin_water.js';
import { loneBiomes } from './maps/lone_biomes.js';
import { strideErrorsM, drawnHeightRangeM } from './maps/stride_errors.js';

/** Runs fn in a later macrotask, letting incoming messages in between. */
function defaultDefer() {
  if (typeof setImmediate === 'function') return (fn) => setImmediate(fn);
  // Browsers: a MessageChannel task is not clamped like nested setTimeout(0).
  const channel = new MessageChannel();
  const pending = [];
  channel.port1.onmessage = () => { const fn = pending.shift(); if (fn) fn(); };
  return (fn) => { pending.push(fn); channel.port2.postMessage(0); };
}

/** Build progress is posted at most this often per stage (fraction steps). */
const PROGRESS_STEP = 0.01;

/**
 * Creates a protocol handler around a loaded core (the object of
 * wasm/ct.mjs loadCore()).
 * @param {object} core
 * @param {{defer?: (fn: () => void) => void, testHooks?: boolean}} [options]
 *   defer schedules the next queued request (default: setImmediate or a
 *   MessageChannel task); testHooks enables the test-crash/test-stall types.
 * @returns {{handle: (msg: any, post: (reply: object, transfer?: ArrayBuffer[]) => void) => Promise<void>,
 *            readonly world: object|null, readonly queued: number, dispose: () => void}}
 */
export function createHandler(core, options = {}) {
  const defer = options.defer || defaultDefer();
  const testHooks = !!options.testHooks;
  let world = null;
  const queue = []; // {msg, post, done}
  // Time spent answering each request type (ms, and how many), for stats replies.
  const busy = { ms: {}, count: {} };
  let scheduled = false;

  const needWorld = () => {
    if (!world) throw protocolError(ERR.NO_WORLD, 'no world yet: send build or load first');
    return world;
  };

  const jobs = {
    [MSG.BUILD](msg, post) {
      const spec = worldSpec(msg);
      const cancelled = cancelFlagOf(msg);
      let lastStage = '';
      let lastFraction = -1;
      const onProgress = (stage, fraction) => {
        // The build runs synchronously, so no cancel message can arrive
        // meanwhile; a flag in shared memory can. true stops the build.
        if (cancelled()) return true;
        // Thin out progress: a build may report thousands of steps.
        if (stage === lastStage && fraction < 1 && fraction - lastFraction < PROGRESS_STEP) return false;
        lastStage = stage;
        lastFraction = fraction;
        post({ id: msg.id, type: MSG.PROGRESS, stage, fraction });
        return false;
      };
      const built = core.buildWorld(spec, { onProgress });
      replaceWorld(built);
      const result = worldSummary(built);
      if (msg.snapshot) result.snapshot = built.snapshot();
      return result;
    },
    [MSG.LOAD](msg) {
      const bytes = msg.bytes instanceof ArrayBuffer ? new Uint8Array(msg.bytes) : msg.bytes;
      if (!(bytes instanceof Uint8Array)) throw protocolError(ERR.MESSAGE, 'load needs bytes: Uint8Array or ArrayBuffer');
      const loaded = core.loadWorld(bytes);
      replaceWorld(loaded);
      return worldSummary(loaded);
    },
    [MSG.SNAPSHOT]() {
      const w = needWorld();
      return { generation: w.generation, bytes: w.snapshot() };
    },
    [MSG.SAMPLE](msg) {
      const w = needWorld();
      const dirs = checkDirs(msg.dirs);
      const count = ArrayBuffer.isView(dirs) ? dirs.length / 3 : dirs.length;
      return { generation: w.generation, count, ...w.sample(dirs) };
    },
    [MSG.CHUNK](msg) {
      const w = needWorld();
      const key = parseKey(msg.key);
      const format = msg.format === undefined ? 'arrays' : msg.format;
      if (!CHUNK_FORMATS.includes(format)) throw protocolError(ERR.MESSAGE, `unknown chunk format ${JSON.stringify(format)}`);
      if (format === 'ctc') return { key, generation: w.generation, format, bytes: w.chunkCtc(key) };
      if (format === 'u16le') return { key, generation: w.generation, format, bytes: w.chunkU16le(key) };
      return { ...w.chunk(key), key, generation: w.generation, format };
    },
    [MSG.MESH](msg) {
      const w = needWorld();
      const key = parseKey(msg.key);
      if (msg.options !== undefined && (msg.options === null || typeof msg.options !== 'object')) {
        throw protocolError(ERR.MESSAGE, 'mesh options must be an object');
      }
      const { lakes, lakeLevels, relief, paletteMap: palMap, thinWater: thin, loneBiomes: lone, ...options } = msg.options || {};
      if (lakes !== undefined && typeof lakes !== 'boolean') throw protocolError(ERR.MESSAGE, 'mesh option lakes must be a boolean');
      if (lakeLevels !== undefined && typeof lakeLevels !== 'boolean') throw protocolError(ERR.MESSAGE, 'mesh option lakeLevels must be a boolean');
      if (relief !== undefined && typeof relief !== 'boolean') throw protocolError(ERR.MESSAGE, 'mesh option relief must be a boolean');
      if (palMap !== undefined && typeof palMap !== 'boolean') throw protocolError(ERR.MESSAGE, 'mesh option paletteMap must be a boolean');
      if (thin !== undefined && typeof thin !== 'boolean') throw protocolError(ERR.MESSAGE, 'mesh option thinWater must be a boolean');
      if (lone !== undefined && typeof lone !== 'boolean') throw protocolError(ERR.MESSAGE, 'mesh option loneBiomes must be a boolean');
      if (options.copy !== undefined) throw protocolError(ERR.MESSAGE, 'mesh option copy is not for the worker: replies always own their arrays');
      // One copy out of WebAssembly memory into one ArrayBuffer, which the reply transfers.
      const result = { ...w.mesh(key, { ...options, copy: true }), key, generation: w.generation };
      // Inland water narrower than the samples drawn as land (thin_water.js), and land samples of a
      // biome no neighbour has in a neighbour's colour (lone_biomes.js), in the mesh and the maps alike.
      // The chunk the mesh was built from (still in the world's buffer): every map below reads it.
      const chunk = options.water ? null : w.chunk(key);
      let hide = thin && chunk ? thinWater(chunk) : null;
      if (lone && chunk) hide = loneBiomes(chunk, hide);
      if (hide) recolourMesh(result, options.stride ?? 1, hide, w.palette());
      // Every terrain mesh says how far its coarser strides lie from the full surface:
      // tile selection needs that whatever the renderer draws. From the chunk's own
      // heights (still in the world's buffer), so no stride-1 mesh is built for it.
      if (!options.water) {
        const vex = options.verticalExaggeration ?? 1;
        result.strideErrorsM = strideErrorsM(chunk, vex);
        // The drawn height range bounds the tile for refinement distances (stream/lod.js).
        result.heightRangeM = drawnHeightRangeM(chunk, vex);
      }
      if (lakes && !options.water) result.lakes = lakeMesh(w, key, options);
      // Per-sample lake levels of the same chunk, for shores decided per pixel (null without a lake).
      if (lakeLevels && !options.water) result.lakeLevels = lakeLevelMap(withoutThinWater(chunk, hide));
      // The same chunk (still in the world's buffer) meshed at full resolution:
      // its normals match the neighbours' at the edges, so per-pixel shading is seamless.
      // The palette map comes from the same stride-1 mesh: colours per pixel, whatever the tile's stride.
      if ((relief || palMap) && !options.water) {
        const vex = options.verticalExaggeration ?? 1;
        // Views, not a copy: both maps are read out before the next mesh() call.
        const full = w.mesh(key, { stride: 1, verticalExaggeration: vex });
        if (relief) result.relief = reliefMap(full, w.config.radius_m, vex);
        if (relief && hide) liftHidden(result.relief, hide, chunk);
        if (palMap) result.paletteMap = paletteMap(full, hide);
      }
      return result;
    },
    [MSG.ADDRESS](msg) {
      const w = needWorld();
      return { generation: w.generation, address: w.address(parseKey(msg.key)) };
    },
    [MSG.STATS]() {
      const w = needWorld();
      return {
        generation: w.generation, stats: w.stats(), chunks: w.chunkCounters(),
        memoryBytes: core.memoryBytes(), queued: queue.length,
        busy: { ms: { ...busy.ms }, count: { ...busy.count } },
      };
    },
    [MSG.RIVERS]() {
      const w = needWorld();
      return { generation: w.generation, ...w.rivers(), curves: w.riverCurves() };
    },
    [MSG.CONFIG](msg) {
      const result = {
        knobs: core.knobs(),
        presets: core.presets(),
        generation: world ? world.generation : null,
        world: world ? world.config : null,
      };
      if (msg.preset !== undefined || msg.set !== undefined || msg.text !== undefined) {
        result.resolved = core.config(worldSpec(msg));
      }
      return result;
    },
    [MSG.TEST_STALL](msg) {
      const until = Date.now() + Math.min(Number(msg.ms) || 0, 10000);
      while (Date.now() < until) { /* hold the thread, as a long chunk would */ }
      return { stalledMs: Number(msg.ms) || 0 };
    },
    [MSG.TEST_CRASH]() {
      return { survived: true };
    },
  };

  function replaceWorld(next) {
    const old = world;
    world = next;
    if (old && old !== next) old.free();
  }

  function reply(post, id, result) {
    post({ id, ok: true, result }, transferablesOf(result));
  }

  function fail(post, id, e) {
    post({ id, ok: false, error: errorToWire(e) }, []);
  }

  function cancel(msg, post) {
    const target = msg.target;
    const i = queue.findIndex((q) => q.msg.id === target);
    if (i >= 0) {
      const [q] = queue.splice(i, 1);
      fail(q.post, target, protocolError(ERR.CANCELLED, `request ${String(target)} cancelled before it ran`));
      q.done();
    }
    reply(post, msg.id, { target, cancelled: i >= 0 });
  }

  function runOne() {
    scheduled = false;
    const q = queue.shift();
    if (!q) return;
    if (queue.length) schedule();
    const { msg, post } = q;
    if (msg.type === MSG.TEST_CRASH && (Number(msg.attempt) || 0) < (Number(msg.times) || 0)) {
      q.done();
      // Thrown outside any try, from a macrotask: the worker dies the way a
      // real bug would kill it (Node: 'error' then 'exit'; browser: 'error').
      throw new Error(`test-crash: attempt ${Number(msg.attempt) || 0}`);
    }
    const t0 = performance.now();
    try {
      reply(post, msg.id, jobs[msg.type](msg, post));
    } catch (e) {
      fail(post, msg.id, e);
    }
    busy.ms[msg.type] = (busy.ms[msg.type] || 0) + (performance.now() - t0);
    busy.count[msg.type] = (busy.count[msg.type] || 0) + 1;
    q.done();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    defer(runOne);
  }

  /**
   * Answers one message. Every message gets exactly one reply (plus progress
   * messages for builds); the promise resolves once that reply is posted.
   */
  function handle(msg, post) {
    return new Promise((done) => {
      const id = msg && typeof msg === 'object' ? msg.id : undefined;
      try {
        if (!msg || typeof msg !== 'object' || Array.isArray(msg)) throw protocolError(ERR.MESSAGE, 'a request must be an object {id, type, ...}');
        if (!(typeof id === 'number' && Number.isFinite(id)) && typeof id !== 'string') {
          throw protocolError(ERR.MESSAGE, 'a request needs an id (number or string)');
        }
        if (typeof msg.type !== 'string') throw protocolError(ERR.MESSAGE, 'a request needs a type (string)');
        const hook = msg.type === MSG.TEST_CRASH || msg.type === MSG.TEST_STALL;
        if (msg.type === MSG.CANCEL) {
          cancel(msg, post);
          done();
          return;
        }
        if (!Object.hasOwn(jobs, msg.type) || (hook && !testHooks)) {
          throw protocolError(ERR.UNKNOWN_TYPE, `unknown request type ${JSON.stringify(msg.type)}`);
        }
      } catch (e) {
        fail(post, id === undefined ? null : id, e);
        done();
        return;
      }
      queue.push({ msg, post, done });
      schedule();
    });
  }

  return {
    handle,
    get world() { return world; },
    get queued() { return queue.length; },
    /** Frees the world; queued requests are answered as cancelled. */
    dispose() {
      for (const q of queue.splice(0)) {
        fail(q.post, q.msg.id, protocolError(ERR.CANCELLED, 'handler disposed'));
        q.done();
      }
      replaceWorld(null);
    },
  };
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

/**
 * The water mesh of the chunk just meshed (still in the world's chunk buffer,
 * so nothing is generated), or null when none of its water lies off sea level:
 * the sea is drawn on its own, so only lakes make the water mesh worth sending.
 */
function lakeMesh(w, key, terrain) {
  const water = w.chunk(key).water;
  let lake = false;
  for (let i = 0; i < water.length && !lake; i++) lake = water[i] !== 0 && water[i] !== SEA_LEVEL_CODE;
  if (!lake) return null;
  const m = w.mesh(key, { stride: terrain.stride, verticalExaggeration: terrain.verticalExaggeration, water: true, copy: true });
  return m.indexCount ? m : null;
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
