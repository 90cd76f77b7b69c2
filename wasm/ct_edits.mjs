// ct_edits.mjs - This module is the JS side of edit sets (core/include/ct.h,
// "edits"): encodeEdits / decodeEdits between edit objects and the canonical
// CTEDITS bytes (the same bytes ct_edits_encode writes, doubles exact), and
// the World methods withEdits, editSet, editSetId, editedKeys and
// pathCrossings over wasm/ct_wasm_edits.c. The core checks every value and
// names the edit's index and field; this module checks only what it needs to
// write the bytes (kinds, numbers, directions).
import { ctError } from './ct_error.mjs';
import { vec3 } from './ct_dirs.mjs';

const KINDS = Object.freeze({ flatten: 1, crater: 2, path: 3, brush: 4 });
const KIND_NAMES = Object.freeze(['', 'flatten', 'crater', 'path', 'brush']);
const HEAD = 16, RECORD = 64;
const MAGIC = [0x43, 0x54, 0x45, 0x44, 0x49, 0x54, 0x53, 0];   // "CTEDITS\0"
// The params each kind writes, in order (ct_edits_encode's layout); [name, default] (undefined: required).
const PARAMS = Object.freeze({
  flatten: [['radiusM'], ['heightM', 0], ['blendM', 0]],
  crater: [['radiusM'], ['depthM'], ['rimM', 0]],
  path: [['widthM'], ['maxGradeDeg'], ['shoulderM', 0]],
  brush: [['radiusM'], ['deltaM']],
});

function bad(i, kind, msg) {
  return ctError('CT_ERR_CONFIG', `edit ${i}${kind ? ` (${kind})` : ''}: ${msg}`);
}

function param(e, i, name, dflt) {
  const v = e[name];
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== 'number') throw bad(i, e.kind, `${name} must be a number`);
  return v;
}

function points(e, i) {
  if (!Array.isArray(e.points) && !(e.points instanceof Float64Array)) throw bad(i, 'path', 'points must be an array of directions');
  if (e.points instanceof Float64Array) {
    if (e.points.length % 3) throw bad(i, 'path', 'points: Float64Array length must be a multiple of 3');
    return e.points;
  }
  const flat = new Float64Array(3 * e.points.length);
  e.points.forEach((p, k) => {
    try { flat.set(vec3(p, `points[${k}]`), 3 * k); } catch (err) { throw bad(i, 'path', err.message); }
  });
  return flat;
}

/**
 * The canonical bytes of an edit set (Uint8Array), from an array of
 * { kind: 'flatten', center, radiusM, heightM?, blendM }, { kind: 'crater',
 * center, radiusM, depthM, rimM }, { kind: 'path', points, widthM,
 * maxGradeDeg, shoulderM? }, { kind: 'brush', center, radiusM, deltaM }.
 */
export function encodeEdits(edits) {
  if (!Array.isArray(edits)) throw ctError('CT_ERR_CONFIG', 'edits must be an array of edit objects');
  const parts = edits.map((e, i) => {
    if (e == null || typeof e !== 'object') throw bad(i, '', 'is not an object');
    const kind = KINDS[e.kind];
    if (!kind) throw bad(i, '', `kind ${JSON.stringify(e.kind)} is not flatten, crater, path or brush`);
    const p = PARAMS[e.kind].map(([name, dflt]) => param(e, i, name, dflt));
    const hasHeight = e.kind === 'flatten' && e.heightM !== undefined && e.heightM !== null;
    if (e.kind === 'flatten' && !hasHeight) p[1] = 0;
    let pts;
    if (kind === KINDS.path) pts = points(e, i);
    else {
      try { pts = new Float64Array(vec3(e.center, 'center')); } catch (err) { throw bad(i, e.kind, err.message); }
    }
    return { kind, flags: hasHeight ? 1 : 0, p, pts };
  });
  const total = parts.reduce((n, r) => n + RECORD + 8 * r.pts.length, HEAD);
  const out = new Uint8Array(total), dv = new DataView(out.buffer);
  out.set(MAGIC, 0);
  dv.setUint32(8, 1, true);
  dv.setUint32(12, parts.length, true);
  let at = HEAD;
  for (const r of parts) {
    dv.setUint32(at, r.kind, true);
    dv.setUint32(at + 4, r.flags, true);
    dv.setUint32(at + 8, r.pts.length / 3, true);
    r.p.forEach((v, k) => dv.setFloat64(at + 16 + 8 * k, v, true));
    at += RECORD;
    for (const v of r.pts) { dv.setFloat64(at, v, true); at += 8; }
  }
  return out;
}

/** Edit objects from CTEDITS bytes (the inverse of encodeEdits; values exact). */
export function decodeEdits(bytes) {
  if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) throw ctError('CT_ERR_NULL', 'decodeEdits: bytes must be a Uint8Array');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < HEAD || MAGIC.some((b, k) => bytes[k] !== b)) throw ctError('CT_ERR_FORMAT', 'not an edit set (bad magic)');
  if (dv.getUint32(8, true) !== 1) throw ctError('CT_ERR_VERSION', `edit set format version ${dv.getUint32(8, true)} is not supported`);
  const n = dv.getUint32(12, true), edits = [];
  let at = HEAD;
  for (let i = 0; i < n; i++) {
    if (at + RECORD > bytes.length) throw ctError('CT_ERR_TRUNCATED', `edit set is truncated in edit ${i}`);
    const kind = KIND_NAMES[dv.getUint32(at, true)], flags = dv.getUint32(at + 4, true), np = dv.getUint32(at + 8, true);
    if (!kind) throw ctError('CT_ERR_FORMAT', `edit ${i}: unknown kind ${dv.getUint32(at, true)}`);
    if (at + RECORD + 24 * np > bytes.length) throw ctError('CT_ERR_TRUNCATED', `edit set is truncated in edit ${i}'s points`);
    const e = { kind };
    PARAMS[kind].forEach(([name], k) => { e[name] = dv.getFloat64(at + 16 + 8 * k, true); });
    if (kind === 'flatten' && !(flags & 1)) delete e.heightM;
    at += RECORD;
    const pts = [];
    for (let k = 0; k < np; k++, at += 24) pts.push([dv.getFloat64(at, true), dv.getFloat64(at + 8, true), dv.getFloat64(at + 16, true)]);
    if (kind === 'path') e.points = pts;
    else e.center = pts[0];
    edits.push(e);
  }
  if (at !== bytes.length) throw ctError('CT_ERR_FORMAT', `edit set has ${bytes.length - at} bytes after its last edit`);
  return edits;
}

/** Core methods: encodeEdits, decodeEdits. */
export const coreEditMethods = { encodeEdits, decodeEdits };

/** Frees the edited worlds made from world (they share its field). */
export function freeEdited(world) {
  world.base?._edited?.delete(world);
  if (!world._edited) return;
  for (const w of world._edited) w.free();
  world._edited = null;
}

export const editMethods = {
  /**
   * A world with the edit set applied (an array of edits or CTEDITS bytes):
   * a new World that shares this world's frozen field, so it costs
   * milliseconds and no copy. This world must outlive it: freeing this world
   * frees its edited worlds too. Bad edits throw CT_ERR_CONFIG naming the
   * edit's index and field; this world is unchanged.
   */
  withEdits(edits) {
    const heap = this._live(), x = heap.x, base = this.base ?? this;
    const bytes = edits instanceof Uint8Array ? edits : encodeEdits(edits);
    const buf = heap.allocBytes(bytes), out = heap.slot(0);
    try {
      heap.u32()[out / 4] = 0;
      heap.check(x.ctw_world_with_edits(base.ptr, buf, bytes.length, out, ...heap.errArgs()));
    } finally {
      heap.free(buf);
    }
    const w = new this.constructor(this.core, heap.u32()[out / 4]);
    w.base = base;
    (base._edited ??= new Set()).add(w);
    return w;
  },

  /** The edit set as edit objects ([] for an unedited world). */
  get editSet() {
    const bytes = this.editBytes();
    return bytes ? decodeEdits(bytes) : [];
  },

  /** The edit set's canonical bytes (null for an unedited world). */
  editBytes() {
    const heap = this._live(), at = heap.slot(1);
    const n = heap.x.ctw_world_edit_bytes(this.ptr, at) >>> 0;
    if (!n) return null;
    const p = heap.u32()[at / 4];
    return heap.u8().slice(p, p + n);
  },

  /** The edit set's 64-bit ID as 16 hex digits ('0000000000000000' unedited). */
  get editSetId() {
    const heap = this._live(), hex = heap.slot(5);
    heap.x.ctw_world_edit_set_hex(this.ptr, hex);
    return heap.str(hex);
  },

  /** The keys of lod an edit footprint reaches, sorted by face, y, x: every chunk that may differ from the base's. */
  editedKeys(lod) {
    const heap = this._live(), x = heap.x, count = heap.slot(2);
    if (!Number.isInteger(lod)) throw ctError('CT_ERR_LOD', `LOD ${lod} is not an integer`);
    heap.check(x.ctw_world_edited_keys(this.ptr, lod, 0, 0, count, ...heap.errArgs()));
    const n = heap.u32()[count / 4];
    if (!n) return [];
    const buf = heap.malloc(16 * n);
    try {
      heap.check(x.ctw_world_edited_keys(this.ptr, lod, buf, n, count, ...heap.errArgs()));
      const u = heap.u32().slice(buf / 4, buf / 4 + 4 * n), keys = [];
      for (let i = 0; i < n; i++) keys.push({ face: u[4 * i], lod: u[4 * i + 1], x: u[4 * i + 2], y: u[4 * i + 3] });
      return keys;
    } finally {
      heap.free(buf);
    }
  },

  /**
   * Where path edit i crosses water in the base world: [{ fromM, toM,
   * fromDir, toDir, waterM, waterBody }], metres along the path.
   */
  pathCrossings(i) {
    if (!Number.isInteger(i) || i < 0) throw ctError('CT_ERR_CONFIG', `edit index ${i} is not an integer >= 0`);
    const heap = this._live(), x = heap.x, count = heap.slot(2), cap = 32, buf = heap.malloc(80 * cap);
    try {
      heap.check(x.ctw_world_path_crossings(this.ptr, i >>> 0, buf, cap, count, ...heap.errArgs()));
      const n = Math.min(heap.u32()[count / 4], cap), f = heap.f64().slice(buf / 8, buf / 8 + 10 * n), out = [];
      for (let k = 0; k < n; k++) {
        const o = f.subarray(10 * k, 10 * k + 10);
        out.push({ fromM: o[0], toM: o[1], fromDir: [o[2], o[3], o[4]], toDir: [o[5], o[6], o[7]], waterM: o[8], waterBody: o[9] });
      }
      return out;
    } finally {
      heap.free(buf);
    }
  },
};
