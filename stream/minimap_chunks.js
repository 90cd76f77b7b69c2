// This module keeps the chunks a minimap is drawn from (no DOM, no GL): the
// keys under a square of rangeM round the player at the world's surface_lod
// (the ground the player walks on, the GroundNeighbourhood's chunks) and at a
// few coarser LODs (a wider view, and cover while the fine chunks load), asked
// from the worker pool (pool.chunk), nearest first. update(dir) never waits;
// chunks() lists what is held, finest first, for renderMinimap. keysAround
// is the key set round a point, for other per-chunk data (scatter).
import { ctError } from '../wasm/ct_error.mjs';
import { keyAt, keyId, normalize, cross } from './geo.js';

/**
 * The keys of lod under a square of half-side rangeM round a direction (on
 * its tangent plane), each with its nearest sampled distance, nearest first.
 * The square is sampled at an eighth of its half-side, so every chunk at least
 * that wide that it touches is in.
 * @returns {{key: {face: number, lod: number, x: number, y: number}, distM: number}[]}
 */
export function keysAround(dir, radiusM, lod, rangeM) {
  const d = normalize(dir), side = Math.abs(d[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e = normalize(cross(side, d)), n = cross(d, e), out = new Map();
  for (let j = -8; j <= 8; j++) {
    for (let i = -8; i <= 8; i++) {
      const a = (i / 8) * rangeM, b = (j / 8) * rangeM, distM = Math.hypot(a, b);
      const { key } = keyAt(normalize([0, 1, 2].map((c) => d[c] + (a * e[c] + b * n[c]) / radiusM)), lod);
      const id = keyId(key), old = out.get(id);
      if (!old || old.distM > distM) out.set(id, { key, distM });
    }
  }
  return [...out.values()].sort((x, y) => x.distM - y.distM);
}

export class MinimapChunks {
  /**
   * @param {object} o
   * @param {{chunk: Function}} o.pool  pool.chunk(key, {priority}) -> Promise of a chunk (arrays)
   * @param {number} o.radiusM  the planet's radius
   * @param {number} o.surfaceLod  the finest LOD asked
   * @param {number} [o.rangeM]  metres from the player to the map's side (default 1000)
   * @param {number[]} [o.coarser]  LODs below surfaceLod also asked (default [2, 4]: 4 and 16 times wider chunks)
   * @param {number} [o.maxInFlight]  requests at once (default 4)
   * @param {number} [o.maxChunks]  chunks kept; the furthest go first (default 48)
   */
  constructor(o) {
    if (o == null || typeof o !== 'object') throw ctError('CT_ERR_NULL', 'MinimapChunks needs an options object');
    if (o.pool == null || typeof o.pool.chunk !== 'function') throw ctError('CT_ERR_NULL', 'MinimapChunks needs a pool with chunk()');
    const pos = (v, what) => {
      if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw ctError('CT_ERR_CONFIG', `MinimapChunks: ${what} must be a finite number > 0 (got ${v})`);
      return v;
    };
    this.pool = o.pool;
    this.radiusM = pos(o.radiusM, 'radiusM');
    if (!Number.isInteger(o.surfaceLod) || o.surfaceLod < 0 || o.surfaceLod > 30) {
      throw ctError('CT_ERR_LOD', `MinimapChunks: surfaceLod must be an integer in 0..30 (got ${o.surfaceLod})`);
    }
    this.rangeM = pos(o.rangeM ?? 1000, 'rangeM');
    this.lods = [o.surfaceLod, ...(o.coarser ?? [2, 4]).map((c) => o.surfaceLod - c)].filter((l, i, a) => l >= 0 && a.indexOf(l) === i);
    this.maxInFlight = o.maxInFlight ?? 4;
    this.maxChunks = o.maxChunks ?? 48;
    this._chunks = new Map();   // keyId -> {key, state, chunk, distM}
    this._order = [];
  }

  /** One frame: the player's direction (or a pose {dir}) moves the wanted set; requests go out. Never waits. */
  update(player) {
    const v = Array.isArray(player) ? player : player?.dir, dir = v?.length === 3 ? normalize(v) : [NaN];
    if (!dir.every(Number.isFinite)) throw ctError('CT_ERR_DIRECTION', 'MinimapChunks.update needs a direction or a pose {dir}');
    const want = new Map();
    for (const lod of this.lods) {
      // Coarse chunks come first: they cover the whole map at once.
      const bias = (lod - this.lods[this.lods.length - 1]) * 1e3;
      for (const { key, distM } of keysAround(dir, this.radiusM, lod, this.rangeM * Math.SQRT2)) {
        const id = keyId(key), prio = distM + bias, old = want.get(id);
        if (!old || old.prio > prio) want.set(id, { key, prio });
      }
    }
    this._order = [...want.entries()].sort((x, y) => x[1].prio - y[1].prio);
    let inFlight = 0;
    for (const c of this._chunks.values()) if (c.state === 'pending') inFlight++;
    for (const [id, w] of this._order) {
      if (inFlight >= this.maxInFlight) break;
      if (this._chunks.has(id)) continue;
      const entry = { key: w.key, state: 'pending', chunk: null };
      this._chunks.set(id, entry);
      inFlight++;
      let p;
      try { p = Promise.resolve(this.pool.chunk(w.key, { priority: w.prio })); } catch (err) { p = Promise.reject(err); }
      p.then((chunk) => { entry.chunk = chunk; entry.state = 'ready'; },
        () => { if (this._chunks.get(id) === entry) this._chunks.delete(id); });   // asked again next update
    }
    // Keep at most maxChunks: those not wanted go first.
    if (this._chunks.size > this.maxChunks) {
      for (const [id, c] of this._chunks) {
        if (this._chunks.size <= this.maxChunks) break;
        if (!want.has(id) && c.state !== 'pending') this._chunks.delete(id);
      }
    }
    return { wanted: want.size, held: this.chunks().length };
  }

  /** The held chunks, finest LOD first. */
  chunks() {
    const out = [];
    for (const c of this._chunks.values()) if (c.state === 'ready') out.push(c.chunk);
    return out.sort((a, b) => b.key.lod - a.key.lod);
  }
}
