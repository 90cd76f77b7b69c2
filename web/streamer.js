// This module streams chunk meshes for the view: it runs LOD selection each frame, sends the scheduler's picks to the worker pool, uploads arrivals (with the lake surfaces the worker adds from the same chunk) into the GPU tile cache, and times geomorphs.
import { selectTiles, tileId } from './lod.js';
import { RequestScheduler } from './scheduler.js';
import { TileCache } from './cache.js';
import { prepareTerrain, prepareWater } from './tiledata.js';
import { sampleSpacingM, parentKey, keyId } from './geo.js';

const MORPH_MS = 450;

/** Ids of every coarser tile that a drawn tile refines (its ancestors and coarser strides). */
function coarserIds(tile, baseStride) {
  const ids = [];
  for (let s = tile.stride * 2; s <= baseStride; s *= 2) ids.push(tileId(tile.key, s));
  for (let k = parentKey(tile.key); k; k = parentKey(k)) ids.push(tileId(k, baseStride));
  return ids;
}

export class TileStreamer {
  /**
   * @param {object} o {pool, renderer, radiusM, surfaceLod, palette (lookup Map or null, only for
   *   meshes without paletteIndex), budgetBytes=256MB, maxInFlight, baseStride=4, minStride=1, tau=6,
   *   lakeMinLod=2 (tiles from this LOD on ask for lake surfaces), onError?}
   */
  constructor(o) {
    this.pool = o.pool;
    this.renderer = o.renderer;
    this.radiusM = o.radiusM;
    this.surfaceLod = o.surfaceLod;
    this.palette = o.palette;
    this.baseStride = o.baseStride ?? 4;
    this.minStride = o.minStride ?? 1;
    this.tau = o.tau ?? 6;
    this.lakeMinLod = o.lakeMinLod ?? 2;
    this.generation = o.generation;
    this.onError = o.onError ?? (() => {});
    this.scheduler = new RequestScheduler({ maxInFlight: o.maxInFlight ?? 6 });
    this.cache = new TileCache({ budgetBytes: o.budgetBytes ?? 256 * 1048576, release: (t) => this._release(t) });
    this.pending = new Map(); // tile id -> pool request id
    this.boundsCache = new Map();
    this.prevDrawn = new Set();
    this.prevCoarser = new Set();
    this.morphStart = new Map();
    this.frame = 0;
    this.dead = false;
    this.last = { draw: [], want: [], maxLodDrawn: -1 };
  }

  _release(tile) {
    this.renderer.release(tile.gpu);
    if (tile.water) this.renderer.release(tile.water);
    tile.gpu = tile.water = null;
  }

  isReady = (id) => this.cache.has(id);

  /** Skirts deep enough to hide the largest step between neighbouring LODs here. */
  skirtM(lod, stride) {
    return Math.min(4000, Math.max(20, sampleSpacingM(this.radiusM, lod) * stride * 0.15));
  }

  /**
   * One frame of streaming.
   * @param {object} view from computeView
   * @param {number} now ms
   * @returns {{tiles: object[], settled: boolean, maxLodDrawn: number, want: number}}
   */
  update(view, now) {
    this.frame++;
    const sel = selectTiles({
      view, radiusM: this.radiusM, surfaceLod: this.surfaceLod, isReady: this.isReady,
      tau: this.tau, baseStride: this.baseStride, minStride: this.minStride, boundsCache: this.boundsCache,
    });
    this.last = sel;
    this.cache.touch(sel.keep, this.frame);
    for (let f = 0; f < 6; f++) this.cache.touch([tileId({ face: f, lod: 0, x: 0, y: 0 }, this.baseStride)], this.frame);
    const plan = this.scheduler.plan(sel.want, now);
    for (const id of plan.cancel) {
      const rid = this.pending.get(id);
      this.pending.delete(id);
      if (rid !== undefined) this.pool.cancel(rid);
    }
    for (const w of plan.start) this._request(w);
    this.cache.evict(this.frame);

    // Geomorph: a tile that replaces coarser ones grows out of their surface;
    // one that replaces finer ones (zooming out) appears at once.
    const tiles = [];
    const drawn = new Set();
    const coarser = new Set();
    let morphing = false;
    for (const t of sel.draw) {
      const c = this.cache.get(t.id);
      if (!c) continue;
      drawn.add(t.id);
      for (const id of coarserIds(t, this.baseStride)) coarser.add(id);
      if (!this.prevDrawn.has(t.id)) {
        if (this.prevCoarser.has(t.id) || !c.morphs) this.morphStart.delete(t.id);
        else this.morphStart.set(t.id, now);
      }
      const start = this.morphStart.get(t.id);
      let morph = 1;
      if (start !== undefined) {
        morph = Math.min(1, (now - start) / MORPH_MS);
        if (morph >= 1) this.morphStart.delete(t.id);
        else morphing = true;
      }
      tiles.push({ gpu: c.gpu, water: c.water, center: c.center, morph, key: t.key, stride: t.stride });
    }
    for (const id of this.morphStart.keys()) if (!drawn.has(id)) this.morphStart.delete(id);
    this.prevDrawn = drawn;
    this.prevCoarser = coarser;
    const settled = sel.want.length === 0 && this.scheduler.size === 0 && !morphing;
    return { tiles, settled, maxLodDrawn: sel.maxLodDrawn, want: sel.want.length };
  }

  _request(w) {
    const gen = this.generation;
    const opts = { stride: w.stride, skirtDepthM: this.skirtM(w.key.lod, w.stride) };
    // The worker meshes the lakes from the chunk it just generated: a mesh
    // build, not a second chunk, and null where the chunk has no lake.
    if (w.key.lod >= this.lakeMinLod) opts.lakes = true;
    const p = this.pool.mesh(w.key, opts, { priority: w.priority });
    this.pending.set(w.id, p.id);
    p.then((mesh) => {
      if (this.pending.get(w.id) === p.id) this.pending.delete(w.id);
      if (this.dead || mesh.generation !== gen) return;
      this.scheduler.finished(w.id);
      const prep = prepareTerrain(mesh, { radiusM: this.radiusM, stride: w.stride, palette: this.palette });
      const gpu = this.renderer.uploadTerrain(prep);
      const lakes = prepareWater(mesh.lakes, this.radiusM);
      const water = lakes ? this.renderer.uploadWater(lakes) : null;
      const tile = { gpu, water, center: prep.center, morphs: prep.morphs, key: w.key, stride: w.stride, minH: prep.minH, maxH: prep.maxH };
      this.cache.add(w.id, tile, gpu.bytes + (water ? water.bytes : 0), this.frame);
    }, (err) => {
      if (this.pending.get(w.id) === p.id) this.pending.delete(w.id);
      if (this.dead || (err && err.code === 'CT_ERR_CANCELLED')) return;
      this.scheduler.failed(w.id, performance.now());
      this.onError(err, w);
    });
  }

  /** Numbers for the HUD and ctDemo.stats(). */
  stats() {
    return { tilesDrawn: this.prevDrawn.size, inFlight: this.scheduler.size, cached: this.cache.size, cachedBytes: this.cache.bytes, maxLodDrawn: this.last.maxLodDrawn };
  }

  /** The finest cached tile holding a key's area, for ground height estimates. */
  findCover(key) {
    for (let k = key; k; k = parentKey(k)) {
      for (let s = this.minStride; s <= this.baseStride; s *= 2) {
        const t = this.cache.get(tileId(k, s));
        if (t) return t;
      }
    }
    return null;
  }

  /** Stops streaming and frees every GPU buffer (world replaced). */
  dispose() {
    this.dead = true;
    for (const rid of this.pending.values()) this.pool.cancel(rid);
    this.pending.clear();
    this.scheduler.reset();
    this.cache.clear();
  }
}

export { keyId };
