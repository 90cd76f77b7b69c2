// ct_world.mjs - This module is the World object of the JS API: one built or
// loaded ct_world inside the WebAssembly instance, with sampling, chunks,
// files, meshes and snapshots. Buffers inside WebAssembly memory are made once
// per world and reused, so steady-state requests allocate nothing in C; every
// result handed to the caller is a copy with its own ArrayBuffer, except
// mesh(), whose arrays are views valid until the next mesh() unless asked to
// copy (a stride-1 copy costs as much as building the mesh). The chunk
// buffer remembers which key it holds: a mesh, file or chunk request for the
// key generated last (a water mesh after the terrain, another stride) reuses
// it instead of generating the same 257x257 samples again.
import { ctError } from './ct_heap.mjs';
import {
  CHUNK_CORE, CTC_FILE_BYTES as CTC_BYTES, U16LE_FILE_BYTES as U16LE_BYTES, REGION_NAMES,
} from './ct_constants.mjs';
import { parseKey } from './ct_key.mjs';
import { flattenDirs } from './ct_dirs.mjs';
import { copyParts, meshBuffers, viewGetters } from './ct_mesh.mjs';
import { freeGround, groundMethods } from './ct_ground.mjs';
import { readRivers, readRiverCurves } from './ct_rivers.mjs';
import { chunkSource, freeTileChunk, readChunk } from './ct_tiles.mjs';
import { freeScatter, scatterMethods } from './ct_scatter.mjs';
import { sitesMethods } from './ct_sites.mjs';
import { editMethods, freeEdited } from './ct_edits.mjs';

const SAMPLE_BATCH = 1024;          // directions per C call in world.sample
const STAT_TABLES = new WeakMap();  // heap -> the statistics table, read once

/**
 * The statistics table (core/include/ct_stats.def) as the core reports it:
 * the C name, its camelCase field in stats(), the printf conversion ('u' for
 * integers, 'f' or 'g') and digits the CLI prints it with, and the doc line.
 */
export function statTable(heap) {
  let table = STAT_TABLES.get(heap);
  if (!table) {
    const x = heap.x, out = heap.slot(6), list = [];
    for (let i = 0, n = x.ctw_stat_count(); i < n; i++) {
      x.ctw_stat_info(i, out);
      const f = heap.f64().subarray(out / 8, out / 8 + 3), name = heap.str(x.ctw_stat_name(i));
      list.push(Object.freeze({
        name, key: name.replace(/_([a-z0-9])/g, (m, c) => c.toUpperCase()),
        conv: String.fromCharCode(f[1]), digits: f[2], doc: heap.str(x.ctw_stat_doc(i)),
      }));
    }
    table = Object.freeze(list);
    STAT_TABLES.set(heap, table);
  }
  return table;
}

/** Copies a 3-vector into scratch memory at ptr (8-aligned) and returns ptr. */
export function readDir(heap, dir, ptr) {
  if (dir == null || typeof dir.length !== 'number' || dir.length < 3) {
    throw ctError('CT_ERR_DIRECTION', 'direction must be an array of 3 numbers');
  }
  const f = heap.f64(), i = ptr / 8;
  f[i] = +dir[0]; f[i + 1] = +dir[1]; f[i + 2] = +dir[2];
  return ptr;
}

/** A built or loaded world. Call free() when done (memory is not GC'd). */
export class World {
  /** @param {import('./ct.mjs').Core} core @param {number} ptr */
  constructor(core, ptr) {
    this.core = core;
    this.heap = core.heap;
    this.ptr = ptr;
    const x = this.heap.x, hex = this.heap.slot(5);
    x.ctw_world_generation_hex(ptr, hex);
    /** 16 lower-case hex digits, the same text as the native CLI */
    this.generation = this.heap.str(hex);
    /** every knob of the world's config */
    this.config = Object.freeze(core._readConfig(x.ctw_world_config(ptr)));
    this._chunk = 0;       // ct_chunk, once per world
    this._chunkKey = null; // 'face/lod/x/y' of the chunk in _chunk, null if none or unsure
    this._counts = { generated: 0, reused: 0 };
    this._file = 0;        // .ctc/.u16le encode buffer, once per world
    this._samples = 0;     // sample batch buffers, once per world
    this._pal = 0;         // palette used by mesh colours
    this._mesh = null;     // {ptr, bytes} grow-only mesh buffers
    this._meshSeq = 0;     // mesh() calls so far: a view answers only while it is the last
    this._palBytes = core.palette();
  }

  _live() {
    if (!this.ptr) throw ctError('CT_ERR_NULL', 'world has been freed');
    return this.heap;
  }

  /** The config as "name=value" lines, exactly as the native tools write it. */
  configText() {
    const heap = this._live(), x = heap.x, cfg = x.ctw_world_config(this.ptr);
    const n = x.ctw_config_format(cfg, 0, 0) >>> 0, buf = heap.malloc(n + 1);
    try {
      x.ctw_config_format(cfg, buf, n + 1);
      return heap.str(buf);
    } finally {
      heap.free(buf);
    }
  }

  /** Build and size statistics: one field per row of statTable(). */
  stats() {
    const heap = this._live(), table = statTable(heap), bytes = 8 * table.length;
    const out = bytes <= 256 ? heap.slot(6) : heap.malloc(bytes);   // a slot holds 32 doubles
    try {
      heap.check(heap.x.ctw_world_stats(this.ptr, out, ...heap.errArgs()));
      const f = heap.f64(), s = {};
      table.forEach((st, i) => { s[st.key] = f[out / 8 + i]; });
      return s;
    } finally {
      if (bytes > 256) heap.free(out);
    }
  }

  /** The statistics table (ct_stats.def): [{name, key, conv, digits, doc}]. */
  statTable() {
    return statTable(this._live());
  }

  /**
   * The river graph solved at world load (empty with river_min_area_km2=0),
   * copied out of WebAssembly memory (wasm/ct_rivers.mjs).
   */
  rivers() {
    return readRivers(this._live(), this.ptr);
  }

  /** The curves the samples carve, for drawing (wasm/ct_rivers.mjs). */
  riverCurves() {
    return readRiverCurves(this._live(), this.ptr);
  }

  /** As core.keyAt; lod defaults to the world's surface_lod and may not exceed it. */
  keyAt(dir, lod = this.config.surface_lod) {
    this._live();
    return this.core._keyAt(this.ptr, dir, lod);
  }

  /** Region weights and effective profile settings at a direction. */
  region(dir) {
    const heap = this._live(), d = readDir(heap, dir, heap.slot(1)), out = heap.slot(6);
    heap.check(heap.x.ctw_world_region(this.ptr, d, out, ...heap.errArgs()));
    const f = heap.f64().slice(out / 8, out / 8 + 9);
    return {
      weights: [f[0], f[1], f[2], f[3]], dominant: f[4], name: REGION_NAMES[f[4]] ?? '?',
      heightScale: f[5], roughness: f[6], ridgeScale: f[7], delayPasses: f[8],
    };
  }

  /**
   * Samples many directions. dirs: Float64Array of 3n values or an array of
   * [x, y, z]. Throws on the first bad direction (message names its index).
   */
  sample(dirs) {
    const heap = this._live(), x = heap.x;
    const flat = flattenDirs(dirs, 'sample'), n = flat.length / 3;
    const r = {
      heightM: new Float64Array(n), waterM: new Float64Array(n), hasWater: new Uint8Array(n),
      waterBody: new Int32Array(n), biome: new Uint8Array(n), material: new Uint8Array(n),
      palette: new Uint8Array(n), moisture: new Float32Array(n), mask: new Float64Array(n),
    };
    if (!this._samples) this._samples = heap.malloc(SAMPLE_BATCH * 60);
    const B = SAMPLE_BATCH, p = this._samples;
    const o = { dirs: p, h: p + 24 * B, w: p + 32 * B, mask: p + 40 * B, body: p + 48 * B,
      moist: p + 52 * B, has: p + 56 * B, biome: p + 57 * B, mat: p + 58 * B, pal: p + 59 * B };
    const bad = heap.slot(7);
    for (let start = 0; start < n; start += B) {
      const m = Math.min(B, n - start);
      heap.f64().set(flat.subarray(3 * start, 3 * (start + m)), o.dirs / 8);
      const code = x.ctw_world_sample_many(this.ptr, o.dirs, m, o.h, o.w, o.has, o.body, o.biome,
        o.mat, o.pal, o.moist, o.mask, bad, ...heap.errArgs());
      if (code) {
        const i = heap.i32()[bad / 4];
        try { heap.check(code); } catch (e) { e.message = `direction ${start + i}: ${e.message}`; e.index = start + i; throw e; }
      }
      const f64 = heap.f64(), f32 = heap.f32(), u8 = heap.u8(), i32 = heap.i32();
      r.heightM.set(f64.subarray(o.h / 8, o.h / 8 + m), start);
      r.waterM.set(f64.subarray(o.w / 8, o.w / 8 + m), start);
      r.waterBody.set(i32.subarray(o.body / 4, o.body / 4 + m), start);
      r.moisture.set(f32.subarray(o.moist / 4, o.moist / 4 + m), start);
      r.mask.set(f64.subarray(o.mask / 8, o.mask / 8 + m), start);
      r.hasWater.set(u8.subarray(o.has, o.has + m), start);
      r.biome.set(u8.subarray(o.biome, o.biome + m), start);
      r.material.set(u8.subarray(o.mat, o.mat + m), start);
      r.palette.set(u8.subarray(o.pal, o.pal + m), start);
    }
    return r;
  }

  /**
   * Every field of one sample in full double precision (cursor queries, the CLI).
   * @returns {{heightM: number, waterM: number, hasWater: number, waterBody: number, mask: number,
   *   moisture: number, biome: number, material: number, palette: number, biomeName: string}}
   */
  sampleAt(dir) {
    const heap = this._live(), d = readDir(heap, dir, heap.slot(1)), out = heap.slot(6);
    heap.check(heap.x.ctw_world_sample_one(this.ptr, d, out, ...heap.errArgs()));
    const f = heap.f64().slice(out / 8, out / 8 + 9);
    return {
      heightM: f[0], waterM: f[1], hasWater: f[2], waterBody: f[3], mask: f[4], moisture: f[5],
      biome: f[6], material: f[7], palette: f[8], biomeName: heap.str(heap.x.ctw_biome_name(f[6])),
    };
  }

  /**
   * Makes the world's chunk buffer hold key; returns the parsed key. A chunk
   * is a pure function of (world, key) and a World never changes, so the
   * buffer still holding key is as good as a fresh generation. Only this
   * method writes the buffer; a failed generation forgets what it held.
   */
  _generate(key) {
    const heap = this._live(), k = parseKey(key);
    const id = `${k.face}/${k.lod}/${k.x}/${k.y}`;
    if (this._chunkKey === id) {
      this._counts.reused++;
      return k;
    }
    if (!this._chunk) {
      this._chunk = heap.x.ctw_chunk_new() >>> 0;
      if (!this._chunk) throw ctError('CT_ERR_MEMORY', 'out of WebAssembly memory for a chunk');
    }
    this._chunkKey = null;
    heap.check(heap.x.ctw_chunk_generate(this.ptr, this._chunk, k.face, k.lod, k.x, k.y, ...heap.errArgs()));
    this._chunkKey = id;
    this._counts.generated++;
    return k;
  }

  /**
   * How often requests generated a chunk and how often they reused the one
   * generated last (for tests and worker stats).
   * @returns {{generated: number, reused: number}}
   */
  chunkCounters() { return { ...this._counts }; }

  /** A 257x257 chunk: typed-array copies plus digest, clipped count and planetId. */
  chunk(key) {
    this._generate(key);
    return readChunk(this.heap, this._chunk);
  }

  _encode(key, fn, bytes) {
    this._generate(key);
    const heap = this.heap;
    // an edited chunk's .ctc (version 3) is 8 bytes longer: room for both
    if (!this._file) this._file = heap.malloc(CTC_BYTES + 8);
    if (bytes === CTC_BYTES) bytes = heap.x.ctw_chunk_ctc_size(this._chunk) >>> 0;
    heap.check(heap.x[fn](this._chunk, this._file, bytes, ...heap.errArgs()));
    return heap.u8().slice(this._file, this._file + bytes);
  }

  /** The chunk as a .ctc file (396,354 bytes; 396,362 for a chunk an edit reaches). */
  chunkCtc(key) { return this._encode(key, 'ctw_chunk_encode_ctc', CTC_BYTES); }
  /** The chunk's 256x256 core heights as a .u16le file (131,072 bytes). */
  chunkU16le(key) { return this._encode(key, 'ctw_chunk_encode_u16le', U16LE_BYTES); }

  /** CTWORLD2 snapshot bytes, loadable with core.loadWorld. */
  snapshot() {
    const heap = this._live(), x = heap.x, n = x.ctw_world_snapshot_size(this.ptr) >>> 0;
    const buf = heap.malloc(n);
    try {
      heap.check(x.ctw_world_snapshot_write(this.ptr, buf, n, ...heap.errArgs()));
      return heap.u8().slice(buf, buf + n);
    } finally {
      heap.free(buf);
    }
  }

  /** The 40-colour palette used for mesh colours, as 120 RGB bytes. */
  palette() { return this._palBytes.slice(); }

  /** Replaces the mesh palette from 40 RRGGBB lines (validated; the world is unchanged). */
  setPalette(text) {
    this._live();
    this._palBytes = this.core.palette(text);
    if (this._pal) this.heap.u8().set(this._palBytes, this._pal);
  }

  /** 'planet/generation/face/lod/x/y' */
  address(key) {
    const heap = this._live(), k = parseKey(key);
    heap.check(heap.x.ctw_key_validate(k.face, k.lod, k.x, k.y, ...heap.errArgs()));
    const buf = heap.slot(8);
    heap.x.ctw_address(this.ptr, k.face, k.lod, k.x, k.y, buf, 256);
    return heap.str(buf);
  }

  /**
   * A triangle mesh of a chunk (see ct_mesh_build): positions in metres relative
   * to `center`, normals, RGBA colours, palette indices (0..39, one per vertex),
   * 16- or 32-bit indices. Reuses the chunk when key was generated last.
   * keyOrChunk may also be a chunk object of this world (world.chunk(key),
   * core.decodeTile(bytes)): it is meshed as it is, copied into a buffer of
   * its own, and never taken for the generated chunk of its key.
   * `digest` is an FNV-1a 64 hex string over positions, normals, colours and
   * indices when opts.digest is true (a test aid that costs about a third of
   * a stride-1 mesh), null otherwise.
   *
   * By default the arrays are views into this World's mesh buffer inside
   * WebAssembly memory: nothing is copied, and they hold until the next
   * mesh() of this World or free(). Reading an array property after that
   * throws CT_ERR_MESH; an array taken out before stays readable but then
   * shows the newer mesh, so upload or copy it first. With opts.copy true the
   * arrays are copied once into one fresh ArrayBuffer of their own (every
   * array's .buffer is the same one, ready for a transfer list).
   */
  mesh(keyOrChunk, opts = {}) {
    const heap = this._live(), x = heap.x;
    const stride = opts.stride ?? 1, skirt = opts.skirtDepthM ?? 0;
    const vex = opts.verticalExaggeration ?? 1, water = opts.water ? 1 : 0;
    const digest = opts.digest ?? false, copy = opts.copy ?? false;
    // Range-check before the C call narrows it to 32 bits (2**32 + 4 would be 4).
    if (!Number.isInteger(stride) || stride < 1 || stride > CHUNK_CORE) {
      throw ctError('CT_ERR_MESH', `mesh stride ${String(stride)} is not 1, 2, 4 ... ${CHUNK_CORE}`);
    }
    for (const [n, v] of [['stride', stride], ['skirtDepthM', skirt], ['verticalExaggeration', vex]]) {
      if (typeof v !== 'number') throw ctError('CT_ERR_MESH', `mesh option ${n} must be a number`);
    }
    for (const [n, v] of [['digest', digest], ['copy', copy]]) {
      if (typeof v !== 'boolean') throw ctError('CT_ERR_MESH', `mesh option ${n} must be a boolean`);
    }
    const lay = heap.slot(9), meta = heap.slot(10), counts = heap.slot(11), hex = heap.slot(5);
    heap.check(x.ctw_mesh_layout(stride, skirt, vex, water, lay, ...heap.errArgs()));
    const [vmax, imax, ib] = heap.u32().slice(lay / 4, lay / 4 + 3);
    const need = { pos: 12 * vmax, nrm: 12 * vmax, col: 4 * vmax, pal: vmax, idx: ib * imax };
    this._meshSeq++;   // views of the mesh before are stale from here, even if this call fails
    const old = this._mesh;
    this._mesh = null;   // meshBuffers may free old and then fail to allocate
    const m = this._mesh = meshBuffers(heap, old, need);
    const { c } = chunkSource(this, keyOrChunk);
    if (!this._pal) { this._pal = heap.malloc(this._palBytes.length); heap.u8().set(this._palBytes, this._pal); }
    heap.check(x.ctw_mesh_build(this.ptr, c, this._pal, stride, skirt, vex, water,
      m.pos, m.nrm, m.col, m.pal, m.idx, meta, counts, digest ? hex : 0, ...heap.errArgs()));
    const u32 = heap.u32(), vc = u32[counts / 4], ic = u32[counts / 4 + 1];
    const f = heap.f64(), at = meta / 8;
    const bytes = { pos: 12 * vc, nrm: 12 * vc, col: 4 * vc, pal: vc, idx: ib * ic };
    const out = { center: [f[at], f[at + 1], f[at + 2]], radius: f[at + 3],
      vertexCount: vc, indexCount: ic, digest: digest ? heap.str(hex) : null };
    if (copy) return Object.assign(out, copyParts(heap, m, bytes, ib));
    return Object.defineProperties(out, viewGetters(this, this._meshSeq, m, bytes, ib));
  }

  /** Releases the world and its buffers; later calls throw CT_ERR_NULL. */
  free() {
    if (!this.ptr) return;
    const heap = this.heap, x = heap.x;
    freeEdited(this);   // edited worlds share this one's field: they go first
    x.ctw_world_free(this.ptr);
    if (this._chunk) x.ctw_chunk_free(this._chunk);
    heap.free(this._file);
    heap.free(this._samples);
    heap.free(this._pal);
    if (this._mesh) heap.free(this._mesh.ptr);
    freeGround(this);
    freeTileChunk(this);
    freeScatter(this);
    this.ptr = this._chunk = this._file = this._samples = this._pal = 0;
    this._chunkKey = null;
    this._mesh = null;
  }
}

// groundAt, ground, groundInChunk, raycast, collider (wasm/ct_ground.mjs).
Object.assign(World.prototype, groundMethods);
// withEdits, editSet, editSetId, editBytes, editedKeys, pathCrossings (wasm/ct_edits.mjs).
Object.defineProperties(World.prototype, Object.getOwnPropertyDescriptors(editMethods));

// scatter (wasm/ct_scatter.mjs) and sites (wasm/ct_sites.mjs).
Object.assign(World.prototype, scatterMethods, sitesMethods);

// streams (wasm/ct_streams.mjs): world.streams(key); its buffer is freed with the world.
import { freeStreams, streamsMethods } from './ct_streams.mjs';
Object.assign(World.prototype, streamsMethods);
const freeWithoutStreams = World.prototype.free;
World.prototype.free = function free() { freeStreams(this); freeWithoutStreams.call(this); };
