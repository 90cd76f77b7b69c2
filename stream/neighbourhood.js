// This module keeps physics ground round a player: the surface_lod chunks
// within rangeM, as colliders from the worker pool (pool.collider), all at one
// LOD and stride so that they weld, cut into patches (64 x 64 cells: 8,192
// triangles at stride 1) so that handing one to a physics engine never stalls
// a frame. update(dir) runs each frame and never waits: it asks the pool for
// what is missing, hands ready patches to the game through onAdd within a
// triangle budget, nearest first, and removes patches that left the range
// through onRemove only once every patch in range is held (the old ground
// stays under the player until the new ground is there). groundAt and
// raycast answer synchronously from the held patches (no DOM, no GL).
import { ctError } from '../wasm/ct_error.mjs';
import { CHUNK_CORE, keyId, keyAt, keyDirection, normalize, cross, dot } from './geo.js';
import { colliderCells, cutPatch, patchEntry, rayCell, rayPatch } from './ground_patch.js';

/** A cube face's narrowest chunk (at a corner) is this fraction of the one at the face centre. */
const CORNER_SHRINK = 0.45;

function vec3(v, what) {
  if (v == null || typeof v.length !== 'number' || v.length < 3) throw ctError('CT_ERR_DIRECTION', `${what} must be an array of 3 numbers`);
  const a = [+v[0], +v[1], +v[2]];
  if (!a.every(Number.isFinite)) throw ctError('CT_ERR_DIRECTION', `${what} has a NaN or infinite component`);
  return a;
}

function unitDir(v, what) {
  const a = vec3(v, what);
  if (a[0] === 0 && a[1] === 0 && a[2] === 0) throw ctError('CT_ERR_DIRECTION', `${what} is the zero vector`);
  return normalize(a);
}

function positive(v, what) {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw ctError('CT_ERR_CONFIG', `${what} must be a finite number > 0 (got ${v})`);
  return v;
}

function count(v, what, max) {
  if (!Number.isInteger(v) || v < 1 || v > max) throw ctError('CT_ERR_CONFIG', `${what} must be an integer in 1..${max} (got ${v})`);
  return v;
}

export class GroundNeighbourhood {
  /**
   * @param {object} o
   * @param {{collider: Function}} o.pool  pool.collider(key, {stride}, {priority}) -> Promise of a collider
   * @param {number} o.radiusM  the planet's radius
   * @param {number} o.surfaceLod  the world's surface_lod: colliders are its chunks
   * @param {number} [o.rangeM]  patches within this distance of the player are kept (default 1500)
   * @param {number} [o.stride]  collider stride, a power of two up to 256 (default 1)
   * @param {number} [o.patch]  cells per patch side (default 64: 8,192 triangles)
   * @param {number} [o.budgetTriangles]  triangles handed to onAdd per update (at least one patch; default 16,384)
   * @param {number} [o.maxInFlight]  colliders requested at once (default 4)
   * @param {(key: string, collider: object) => void} o.onAdd
   * @param {(key: string) => void} o.onRemove
   * @param {(error: Error, key: object) => void} [o.onError]  a failed request (it is retried later)
   */
  constructor(o) {
    if (o == null || typeof o !== 'object') throw ctError('CT_ERR_NULL', 'GroundNeighbourhood needs an options object');
    if (o.pool == null || typeof o.pool.collider !== 'function') throw ctError('CT_ERR_NULL', 'GroundNeighbourhood needs a pool with collider()');
    if (typeof o.onAdd !== 'function' || typeof o.onRemove !== 'function') {
      throw ctError('CT_ERR_NULL', 'GroundNeighbourhood needs onAdd(key, collider) and onRemove(key) functions');
    }
    this.pool = o.pool;
    this.radiusM = positive(o.radiusM, 'radiusM');
    this.lod = count(o.surfaceLod, 'surfaceLod', 30);
    this.rangeM = positive(o.rangeM ?? 1500, 'rangeM');
    this.stride = count(o.stride ?? 1, 'stride', CHUNK_CORE);
    if (this.stride & (this.stride - 1)) throw ctError('CT_ERR_CONFIG', `stride must be a power of two (got ${this.stride})`);
    this.cells = CHUNK_CORE / this.stride;   // collider cells per chunk side
    this.patch = Math.min(count(o.patch ?? 64, 'patch', CHUNK_CORE), this.cells);
    this.perSide = Math.ceil(this.cells / this.patch);
    this.budget = positive(o.budgetTriangles ?? 16384, 'budgetTriangles');
    this.maxInFlight = count(o.maxInFlight ?? 4, 'maxInFlight', 1024);
    this.onAdd = o.onAdd;
    this.onRemove = o.onRemove;
    this.onError = o.onError ?? null;
    // The narrowest patch on the planet, in metres: the wanted set samples the disc at half of it.
    this.patchM = (((Math.PI / 2) * this.radiusM) / 2 ** this.lod) * (this.patch / this.cells) * CORNER_SHRINK;
    this._chunks = new Map();   // keyId -> {key, state: 'pending'|'ready'|'failed', collider, retryAt}
    this._held = new Map();     // patch key -> patch
    this._byNum = new Map();    // _patchNum -> patch: groundAt's lookup, with no key string to build
    this._wanted = new Map();   // patch key -> {id, key, px, py, distM}, nearest first
    this._order = [];
    this._at = null;            // the player's direction when _wanted was made
    this._frame = 0;
    this._stats = { requested: 0, failed: 0, added: 0, removed: 0 };
  }

  /**
   * One frame: the player (a direction from the planet's centre, any
   * length, or a ground pose {dir}) moves the wanted set; requests go out,
   * ready patches come in within the budget, patches out of range go once
   * the range is whole. Never waits. Returns stats().
   */
  update(player) {
    const dir = unitDir(player != null && !Array.isArray(player) && player.dir ? player.dir : player, 'player direction');
    this._frame++;
    if (!this._at || Math.acos(Math.min(1, dot(dir, this._at))) * this.radiusM > this.patchM / 8) this._want(dir);
    this._request();
    this._add();
    if (this._order.every((w) => this._held.has(w.pk))) this._drop();
    return this.stats();
  }

  /** {wanted, held, missing, chunksHeld, inFlight, complete, requested, failed, added, removed, triangles}. */
  stats() {
    let inFlight = 0, chunksHeld = 0, triangles = 0;
    for (const c of this._chunks.values()) { if (c.state === 'pending') inFlight++; else if (c.state === 'ready') chunksHeld++; }
    for (const p of this._held.values()) triangles += p.triangleCount;
    const missing = this._order.filter((w) => !this._held.has(w.pk)).length;
    return { wanted: this._order.length, held: this._held.size, missing, chunksHeld, inFlight, complete: missing === 0,
      triangles, ...this._stats };
  }

  /** The held patch keys. */
  keys() { return [...this._held.keys()]; }

  /** The patch key `${keyId}/px/py` that holds direction dir, held or not. */
  patchKeyAt(dir) {
    const u = unitDir(dir, 'direction'), at = keyAt(u, this.lod);
    return this._patchKey(at.key, at.localX, at.localY);
  }

  /** Whether a patch is held under direction dir. */
  holds(dir) { return this._held.has(this.patchKeyAt(dir)); }

  /**
   * The held ground under a direction: {heightM (above radiusM), normal
   * (unit, outward), key (the chunk), patchKey}, or null where the patch
   * under it is not held. The radial line meets the patch's triangles in
   * float64, as world.groundAt meets the stride-1 mesh.
   */
  groundAt(dir) {
    const u = unitDir(dir, 'direction'), at = keyAt(u, this.lod), s = this.stride;
    const origin = [0, 0, 0];
    let pn = this._patchNum(at.key, at.localX, at.localY), hit = this._hitNear(this._byNum.get(pn), at.localX / s, at.localY / s, origin, u);
    // On a patch or chunk border the line may pass just inside the neighbour's triangles.
    for (let dy = -1; !hit && dy <= 1; dy++) {
      for (let dx = -1; !hit && dx <= 1; dx++) {
        const near = keyAt(keyDirection(at.key, at.localX + dx * s, at.localY + dy * s), this.lod);
        const nn = this._patchNum(near.key, near.localX, near.localY);
        if (nn !== pn) { hit = this._hitNear(this._byNum.get(nn), near.localX / s, near.localY / s, origin, u); if (hit) pn = nn; }
      }
    }
    if (!hit) return null;
    const p = this._byNum.get(pn);
    return { heightM: hit.t - this.radiusM, normal: hit.normal, key: p.key, patchKey: p.pk };
  }

  /**
   * The first hit of a ray (body-fixed metres, dir any non-zero length)
   * with the held patches within maxM: {distanceM, point, normal, key,
   * patchKey}, or null. Ground that is not held does not stop the ray.
   */
  raycast(originM, dir, maxM) {
    const o = vec3(originM, 'ray origin'), d = unitDir(dir, 'ray direction');
    if (typeof maxM !== 'number' || !Number.isFinite(maxM) || maxM <= 0) {
      throw ctError('CT_ERR_DIRECTION', `ray length maxM must be a finite number > 0 (got ${maxM})`);
    }
    // Nearest patch box first: once a hit is nearer than the next box's
    // entry, no patch further on can hold a nearer one.
    const order = [];
    for (const [pk, p] of this._held) {
      const t = patchEntry(p, o, d, maxM);
      if (t !== Infinity) order.push({ t, pk, p });
    }
    order.sort((a, b) => a.t - b.t);
    let best = null, bestKey = null;
    for (const { t, pk, p } of order) {
      if (best && t > best.t) break;
      const hit = rayPatch(p, o, d, best ? best.t : maxM);
      if (hit && (!best || hit.t < best.t)) { best = hit; bestKey = pk; }
    }
    if (!best) return null;
    return { distanceM: best.t, point: [o[0] + best.t * d[0], o[1] + best.t * d[1], o[2] + best.t * d[2]], normal: best.normal,
      key: this._held.get(bestKey).key, patchKey: bestKey };
  }

  /** Removes every patch (onRemove each) and forgets every collider; requests in flight are ignored. */
  clear() {
    for (const pk of [...this._held.keys()]) this._remove(pk);
    this._chunks.clear();
    this._wanted.clear();
    this._order = [];
    this._at = null;
  }

  _patchKey(key, localX, localY) {
    const n = this.perSide, p = this.patch * this.stride;
    const px = Math.min(n - 1, Math.max(0, Math.floor(localX / p))), py = Math.min(n - 1, Math.max(0, Math.floor(localY / p)));
    return `${keyId(key)}/${px}/${py}`;
  }

  /** A number naming the patch that holds (localX, localY) of key: face, chunk x and y, patch x and y. */
  _patchNum(key, localX, localY) {
    const n = this.perSide, p = this.patch * this.stride, side = 2 ** key.lod;
    const px = Math.min(n - 1, Math.max(0, Math.floor(localX / p))), py = Math.min(n - 1, Math.max(0, Math.floor(localY / p)));
    return (((key.face * side + key.y) * side + key.x) * n + py) * n + px;
  }

  /** The hit of the radial line with cell (ci, cj) (collider cells) of patch p (held, or undefined) and its neighbours in that patch. */
  _hitNear(p, cx, cy, origin, u) {
    if (!p) return null;
    const [x0, y0, w, h] = p.cells, o = [origin[0] - p.center[0], origin[1] - p.center[1], origin[2] - p.center[2]];
    const ci = Math.min(w - 1, Math.max(0, Math.floor(cx) - x0)), cj = Math.min(h - 1, Math.max(0, Math.floor(cy) - y0));
    // The cell the local coordinates name holds the hit but for a hair at its
    // diagonal and edges (the triangles are flat, the coordinates are not).
    for (let ring = 0; ring <= 1; ring++) {
      for (let j = cj - ring; j <= cj + ring; j++) {
        for (let i = ci - ring; i <= ci + ring; i++) {
          if (i < 0 || j < 0 || i >= w || j >= h || Math.max(Math.abs(i - ci), Math.abs(j - cj)) < ring) continue;
          const hit = rayCell(p, i, j, o, u);
          if (hit) return hit;
        }
      }
    }
    return null;
  }

  /** The patches under a disc of rangeM round dir, sampled at half the narrowest patch, nearest first. */
  _want(dir) {
    this._at = dir;
    const R = this.radiusM, range = this.rangeM, step = Math.min(this.patchM / 2, range / 2);
    const side = Math.abs(dir[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const e = normalize(cross(side, dir)), n = cross(dir, e);
    const wanted = new Map();
    const visit = (a, b) => {
      const distM = Math.hypot(a, b);
      const at = keyAt(normalize([0, 1, 2].map((c) => dir[c] + (a * e[c] + b * n[c]) / R)), this.lod);
      const pk = this._patchKey(at.key, at.localX, at.localY), old = wanted.get(pk);
      if (old) { old.distM = Math.min(old.distM, distM); return; }
      const parts = pk.split('/');
      wanted.set(pk, { pk, id: keyId(at.key), key: at.key, px: +parts[parts.length - 2], py: +parts[parts.length - 1], distM });
    };
    const m = Math.ceil(range / step);
    for (let j = -m; j <= m; j++) {
      for (let i = -m; i <= m; i++) if (Math.hypot(i, j) * step <= range) visit(i * step, j * step);
    }
    // The rim itself, so a patch the disc only grazes is in too.
    const rim = Math.max(8, Math.ceil((2 * Math.PI * range) / step));
    for (let k = 0; k < rim; k++) visit(range * Math.cos((2 * Math.PI * k) / rim), range * Math.sin((2 * Math.PI * k) / rim));
    this._wanted = wanted;
    this._order = [...wanted.values()].sort((a, b) => a.distM - b.distM);
    // Colliders no patch in range needs are let go (their patches stay until _drop).
    const need = new Set(this._order.map((w) => w.id));
    for (const [id, c] of this._chunks) if (!need.has(id) && c.state !== 'pending') this._chunks.delete(id);
  }

  /** Asks the pool for the nearest missing chunks, at most maxInFlight at once. */
  _request() {
    let inFlight = 0;
    for (const c of this._chunks.values()) if (c.state === 'pending') inFlight++;
    for (const w of this._order) {
      if (inFlight >= this.maxInFlight) break;
      if (this._held.has(w.pk)) continue;
      const c = this._chunks.get(w.id);
      if (c && (c.state !== 'failed' || this._frame < c.retryAt)) continue;
      const entry = { key: w.key, state: 'pending', collider: null, n: 0, retryAt: 0 };
      this._chunks.set(w.id, entry);
      inFlight++;
      this._stats.requested++;
      let promise;
      try { promise = Promise.resolve(this.pool.collider(w.key, { stride: this.stride }, { priority: w.distM })); } catch (e) { promise = Promise.reject(e); }
      promise.then((col) => {
        if (this._chunks.get(w.id) !== entry) return;   // let go meanwhile
        entry.n = colliderCells(col);
        if (entry.n !== this.cells) throw new RangeError(`collider of ${w.id} has ${entry.n} cells per side, not ${this.cells}`);
        entry.collider = col;
        entry.state = 'ready';
      }).catch((err) => {
        if (this._chunks.get(w.id) !== entry) return;
        entry.state = 'failed';
        entry.retryAt = this._frame + 30;
        this._stats.failed++;
        if (this.onError) this.onError(err, w.key);
      });
    }
  }

  /** Hands ready patches to onAdd, nearest first, within the triangle budget. */
  _add() {
    let spent = 0;
    for (const w of this._order) {
      if (spent >= this.budget) break;
      if (this._held.has(w.pk)) continue;
      const c = this._chunks.get(w.id);
      if (!c || c.state !== 'ready') continue;
      const p = cutPatch(c.collider, this.cells, this.patch, w.px, w.py);
      p.key = w.key;
      p.pk = w.pk;
      this._held.set(w.pk, p);
      this._byNum.set(this._patchNum(w.key, w.px * this.patch * this.stride, w.py * this.patch * this.stride), p);
      spent += p.triangleCount;
      this._stats.added++;
      this.onAdd(w.pk, p);
    }
  }

  /** The range is whole: patches outside it go (colliders go in _want, once no patch in range needs them). */
  _drop() {
    for (const pk of [...this._held.keys()]) if (!this._wanted.has(pk)) this._remove(pk);
  }

  _remove(pk) {
    const p = this._held.get(pk);
    this._byNum.delete(this._patchNum(p.key, p.cells[0] * this.stride, p.cells[1] * this.stride));
    this._held.delete(pk);
    this._stats.removed++;
    this.onRemove(pk);
  }
}
