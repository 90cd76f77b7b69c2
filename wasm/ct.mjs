// ct.mjs - This module is the JavaScript API of the terrain core: it loads
// build/wasm/ct.wasm (Node, pages and module workers alike) and exposes knobs,
// presets, configs, addressing and worlds. See wasm/ct.d.ts for the types and
// docs/wasm.md for a tour. Every result is copied out of WebAssembly memory.
import { instantiate, ctError, compileCore } from './ct_heap.mjs';
import { World, readDir } from './ct_world.mjs';
import { parseKey } from './ct_key.mjs';
import { verifyFile } from './ct_verify.mjs';
import { defaultWasmSource } from './ct_location.mjs';
import { POSE_METHODS } from './ct_pose.mjs';
import { tileMethods } from './ct_tiles.mjs';
import { scatterCoreMethods } from './ct_scatter.mjs';
import { coreEditMethods } from './ct_edits.mjs';

export { ctError, compileCore, World };

const KNOB_KINDS = ['uint', 'real'];

/**
 * Loads and instantiates the core. Each call gives an independent instance.
 * @param {URL|string|ArrayBuffer|ArrayBufferView|WebAssembly.Module} [source]
 *   default: the package's own build/wasm/ct.wasm (wasm/ct_location.mjs)
 * @returns {Promise<Core>}
 */
export async function loadCore(source) {
  const t0 = nowMs();
  const heap = await instantiate(source ?? defaultWasmSource());
  const core = new Core(heap);
  core.loadMs = nowMs() - t0;
  return core;
}

function nowMs() {
  return globalThis.performance ? performance.now() : Date.now();
}

/** The loaded core: tables, configs, addressing and world construction. */
export class Core {
  /** @param {import('./ct_heap.mjs').Heap} heap */
  constructor(heap) {
    this.heap = heap;
    /** milliseconds spent in loadCore (fetch/read, compile, instantiate) */
    this.loadMs = 0;
    this._knobs = null;
  }

  /**
   * The knob table, read from the C table (ct_knobs.def), never retyped.
   * @returns {{name: string, kind: 'uint'|'real', def: number, min: number, max: number, doc: string}[]}
   */
  knobs() {
    if (!this._knobs) {
      const { heap } = this, x = heap.x, out = heap.slot(0), list = [];
      const n = x.ctw_knob_count();
      for (let i = 0; i < n; i++) {
        x.ctw_knob_info(i, out);
        const f = heap.f64().subarray(out / 8, out / 8 + 4);
        list.push(Object.freeze({
          name: heap.str(x.ctw_knob_name(i)), kind: KNOB_KINDS[f[0]] ?? 'real',
          def: f[1], min: f[2], max: f[3], doc: heap.str(x.ctw_knob_doc(i)),
        }));
      }
      this._knobs = Object.freeze(list);
    }
    return this._knobs.map((k) => ({ ...k }));
  }

  /** @returns {string[]} preset names in the core's table order (the same list as PRESET_NAMES in ct_constants.mjs) */
  presets() {
    const x = this.heap.x, out = [];
    for (let i = 0, n = x.ctw_preset_count(); i < n; i++) out.push(this.heap.str(x.ctw_preset_name(i)));
    return out;
  }

  /**
   * The off values of every layer added after the reference model, as
   * "name=value" lines: apply them as a `text` step after any preset.
   * @returns {string}
   */
  referenceLayers() {
    return this.heap.str(this.heap.x.ctw_reference_layers());
  }

  /**
   * A validated configuration: preset, then `text` (name=value lines), then
   * `set`; or `steps` applied in order. validate: false skips the cross-knob
   * check (each edit is still range-checked).
   * @param {{preset?: string, set?: Record<string, number|string>|Array<string|[string, number|string]>, text?: string,
   *   steps?: Array<Array<string|number>>, validate?: boolean}} [opts]
   * @returns {Record<string, number>}
   */
  config(opts = {}) {
    const cfg = this._configPtr(opts);
    try { return this._readConfig(cfg); } finally { this.heap.x.ctw_config_free(cfg); }
  }

  /** @internal Builds a C ct_config from opts; the caller frees it. */
  _configPtr(opts = {}) {
    const { heap } = this, x = heap.x;
    if (opts === null || typeof opts !== 'object') throw ctError('CT_ERR_CONFIG', 'config options must be an object');
    const cfg = x.ctw_config_new() >>> 0;
    if (!cfg) throw ctError('CT_ERR_MEMORY', 'out of WebAssembly memory for a config');
    const edit = {
      preset: (name) => heap.withStr(name, (p) => heap.check(x.ctw_config_preset(cfg, p, ...heap.errArgs())),
        'preset name', 'CT_ERR_PRESET'),
      text: (text) => {
        // Passed with its length: the C parser names the line of any NUL.
        const bytes = heap.encoder.encode(String(text)), p = heap.allocBytes(bytes);
        try { heap.check(x.ctw_config_parse(cfg, p, bytes.length, ...heap.errArgs())); } finally { heap.free(p); }
      },
      set: (name, value) => heap.withStr(name, (pn) => heap.withStr(knobText(name, value), (pv) =>
        heap.check(x.ctw_config_set(cfg, pn, pv, ...heap.errArgs())), `knob ${name}: value`, 'CT_ERR_KNOB_VALUE'),
      'knob name', 'CT_ERR_KNOB_UNKNOWN'),
    };
    try {
      if (Array.isArray(opts.steps)) {
        opts.steps.forEach((step, i) => {
          try {
            if (!Array.isArray(step) || !edit[step[0]]) throw ctError('CT_ERR_CONFIG', `config step ${i} is not [preset|set|text, ...]`);
            edit[step[0]](...step.slice(1));
          } catch (e) {
            e.step = i;
            throw e;
          }
        });
      } else {
        edit.preset(opts.preset ?? 'balanced');
        if (opts.text != null) edit.text(opts.text);
        for (const [name, value] of setEntries(opts.set)) edit.set(name, value);
      }
      if (opts.validate !== false) heap.check(x.ctw_config_validate(cfg, ...heap.errArgs()));
      return cfg;
    } catch (e) {
      x.ctw_config_free(cfg);
      throw e;
    }
  }

  /** @internal */
  _readConfig(cfg) {
    const out = {}, x = this.heap.x;
    this.knobs().forEach((k, i) => { out[k.name] = x.ctw_config_get(cfg, i); });
    return out;
  }

  /**
   * Builds a world (synchronous; run it in a worker for big configs).
   * onProgress(stage, fraction) is called during the build; returning true or
   * aborting `signal` cancels it (Error code CT_ERR_CANCELLED).
   * @param {{preset?: string, set?: object, text?: string}} [opts]
   * @param {{onProgress?: (stage: string, fraction: number) => unknown, signal?: AbortSignal}} [hooks]
   * @returns {World}
   */
  buildWorld(opts = {}, hooks = {}) {
    const { heap } = this, x = heap.x;
    const cfg = this._configPtr({ ...opts, validate: true });
    const outPtr = heap.slot(0);
    const { onProgress, signal } = hooks || {};
    let thrown = null;
    const saved = heap.progress;
    heap.progress = (stage, fraction) => {
      try {
        if (signal && signal.aborted) return true;
        return onProgress ? onProgress(stage, fraction) === true : false;
      } catch (e) {
        thrown = e;   // unwinding through C would leak the half-built world
        return true;
      }
    };
    let code;
    try {
      heap.u32()[outPtr / 4] = 0;
      code = x.ctw_world_build(cfg, onProgress || signal ? 1 : 0, outPtr, ...heap.errArgs());
    } finally {
      heap.progress = saved;
      x.ctw_config_free(cfg);
    }
    if (thrown) throw thrown;
    heap.check(code);
    return new World(this, heap.u32()[outPtr / 4]);
  }

  /**
   * Loads a CTWORLD2 snapshot (as written by world.snapshot() or `terrain --out`).
   * @param {Uint8Array|ArrayBuffer} bytes
   * @returns {World}
   */
  loadWorld(bytes) {
    const { heap } = this, x = heap.x;
    if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
    if (!(bytes instanceof Uint8Array)) throw ctError('CT_ERR_NULL', 'loadWorld: bytes must be a Uint8Array');
    const buf = heap.allocBytes(bytes);
    const outPtr = heap.slot(0);
    try {
      heap.u32()[outPtr / 4] = 0;
      heap.check(x.ctw_world_load(buf, bytes.length, outPtr, ...heap.errArgs()));
    } finally {
      heap.free(buf);
    }
    return new World(this, heap.u32()[outPtr / 4]);
  }

  /**
   * Checks a .ctc chunk or a CTWORLD2 snapshot the way the core reads it
   * (digest or checksum, versions, sizes, recomputed generation) and returns
   * what it vouches for; throws an Error with a CT_ERR_* code and a one-line
   * reason otherwise. The kind comes from the magic bytes.
   * @param {Uint8Array|ArrayBuffer} bytes
   * @returns {{kind: 'ctc'|'ctw', generation: string, key: {face: number, lod: number, x: number, y: number}|null,
   *   digest: string, planetId: number}}
   */
  verifyFile(bytes) { return verifyFile(this, bytes); }

  /** verifyFile for .ctc bytes only (a snapshot is CT_ERR_FORMAT). */
  verifyCtc(bytes) {
    const r = verifyFile(this, bytes);
    if (r.kind !== 'ctc') throw ctError('CT_ERR_FORMAT', 'not a .ctc chunk (this is a CTWORLD2 snapshot)');
    return r;
  }

  /**
   * The chunk owning a direction at lod and the local position inside it.
   * @param {ArrayLike<number>} dir
   * @param {number} lod
   * @returns {{key: {face: number, lod: number, x: number, y: number}, localX: number, localY: number}}
   */
  keyAt(dir, lod) { return this._keyAt(0, dir, lod); }

  /** @internal world may be 0 */
  _keyAt(world, dir, lod) {
    const { heap } = this, x = heap.x;
    if (!Number.isInteger(lod) || lod < 0 || lod > 1 << 20) throw ctError('CT_ERR_LOD', `LOD ${lod} is not a valid level`);
    const d = readDir(heap, dir, heap.slot(1)), keyOut = heap.slot(2), localOut = heap.slot(3);
    heap.check(x.ctw_key_at(world, d, lod, keyOut, localOut, ...heap.errArgs()));
    const k = heap.u32().subarray(keyOut / 4, keyOut / 4 + 4), l = heap.f64();
    return { key: { face: k[0], lod: k[1], x: k[2], y: k[3] }, localX: l[localOut / 8], localY: l[localOut / 8 + 1] };
  }

  /**
   * Unit direction of a local position (in samples) of a key; positions
   * outside [0,256] continue across chunk and cube edges.
   * @returns {[number, number, number]}
   */
  keyDirection(key, localX, localY) {
    const { heap } = this, k = parseKey(key), out = heap.slot(1);
    heap.check(heap.x.ctw_key_direction(k.face, k.lod, k.x, k.y, +localX, +localY, out, ...heap.errArgs()));
    const f = heap.f64();
    return [f[out / 8], f[out / 8 + 1], f[out / 8 + 2]];
  }

  /**
   * Tangent vectors in metres per +1 local sample (x and y) at a key position.
   * @returns {{dx: number[], dy: number[]}}
   */
  keyMetric(key, localX, localY, radiusM) {
    const { heap } = this, k = parseKey(key), out = heap.slot(1);
    heap.check(heap.x.ctw_key_metric(k.face, k.lod, k.x, k.y, +localX, +localY, +radiusM, out, ...heap.errArgs()));
    const f = Array.from(heap.f64().subarray(out / 8, out / 8 + 6));
    return { dx: f.slice(0, 3), dy: f.slice(3) };
  }

  /**
   * Deduplicated keys of the 3x3 neighbourhood around a key position, across
   * cube edges and corners.
   */
  keyNeighbourhood(key, localX = 128, localY = 128) {
    const { heap } = this, k = parseKey(key), out = heap.slot(1), cnt = heap.slot(2);
    heap.check(heap.x.ctw_key_neighbourhood(k.face, k.lod, k.x, k.y, +localX, +localY, out, cnt, ...heap.errArgs()));
    const n = heap.i32()[cnt / 4], u = heap.u32(), keys = [];
    for (let i = 0; i < n; i++) {
      const b = out / 4 + 4 * i;
      keys.push({ face: u[b], lod: u[b + 1], x: u[b + 2], y: u[b + 3] });
    }
    return keys;
  }

  /** @param {number} face @returns {string} '+X' ... '-Z' */
  faceName(face) { return this.heap.str(this.heap.x.ctw_face_name(face | 0)); }
  /** @param {number} face @returns {string} 'px' ... 'nz' */
  faceFileName(face) { return this.heap.str(this.heap.x.ctw_face_file_name(face | 0)); }
  /** @param {string|number} face @returns {number} 0..5 */
  faceParse(face) { return parseKey({ face, lod: 0, x: 0, y: 0 }).face; }
  /** @returns {number} current WebAssembly memory size in bytes */
  memoryBytes() { return this.heap.bytes(); }
  /** @returns {number} bytes malloc has handed out and not had back (leak checks) */
  heapInUse() { return this.heap.x.ctw_heap_in_use() >>> 0; }

  /**
   * Default or parsed 40-colour palette as 120 RGB bytes (throws on bad text).
   * @param {string} [text]
   * @returns {Uint8Array}
   */
  palette(text) {
    const { heap } = this, x = heap.x, size = x.ctw_palette_bytes(), out = heap.slot(4);
    if (text == null) x.ctw_palette_default(out);
    else heap.withStr(text, (p) => heap.check(x.ctw_palette_parse(p, out, ...heap.errArgs())), 'palette text', 'CT_ERR_PALETTE');
    return heap.u8().slice(out, out + size);
  }
}

// The ground pose's core twins: core.movePose, core.headingInKey, core.poseFromKeyHeading.
Object.assign(Core.prototype, POSE_METHODS);
// Tile files to chunk objects and back: core.decodeTile, core.decodeCtc, core.encodeTile (wasm/ct_tiles.mjs).
Object.assign(Core.prototype, tileMethods);
// The scatter catalogue: core.scatterKinds().
Object.assign(Core.prototype, scatterCoreMethods);
// encodeEdits, decodeEdits (wasm/ct_edits.mjs).
Object.assign(Core.prototype, coreEditMethods);

/** Normalises `set` into [name, value] pairs. */
function setEntries(set) {
  if (set == null) return [];
  if (Array.isArray(set)) {
    return set.map((e) => {
      if (Array.isArray(e)) return [String(e[0]), e[1]];
      const s = String(e), eq = s.indexOf('=');
      if (eq < 0) throw ctError('CT_ERR_CONFIG', `override "${s}" is not name=value`);
      return [s.slice(0, eq).trim(), s.slice(eq + 1).trim()];
    });
  }
  if (set instanceof Map) return [...set.entries()].map(([k, v]) => [String(k), v]);
  if (typeof set === 'object') return Object.entries(set);
  throw ctError('CT_ERR_CONFIG', 'set must be an object, a Map or a list of name=value');
}

/** Number -> exact decimal text (shortest round trip); strings pass through. */
function knobText(name, value) {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return value;
  throw ctError('CT_ERR_KNOB_VALUE', `knob ${name}: value must be a number or a string`);
}
