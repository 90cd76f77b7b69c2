// This module streams chunk meshes for the view: it runs LOD selection each frame, sends the tile request queue's picks to the worker pool (asking for the per-sample maps the renderer adapter declares it needs, and nothing else), uploads arrivals into the GPU tile cache, keeps each chunk's stride errors for LOD selection, times geomorphs, and swaps meshes when the vertical exaggeration changes.
import { selectTiles, tileId } from './lod.js';
import { TileRequestQueue } from './tile_requests.js';
import { TileCache } from './cache.js';
import { prepareTerrain, prepareWater } from './tiledata.js';
import { sampleSpacingM, parentKey, keyId, CHUNK_CORE } from './geo.js';
import { roughness, heightRangeM } from './tile_error.js';

/** Terrain height range in metres (before exaggeration) that bounds and culling allow for. */
export const HEIGHT_RANGE_M = [-11000, 9000];

const MORPH_MS = 450;

/** Finest LOD whose tiles hide lone biome samples (LOD 5: samples about 1.2 km apart on an Earth-sized planet). */
const LONE_BIOMES_MAX_LOD = 5;

/** Ids of every coarser tile that a drawn tile refines (its ancestors and coarser strides). */
function coarserIds(tile, baseStride) {
  const ids = [];
  for (let s = tile.stride * 2; s <= baseStride; s *= 2) ids.push(tileId(tile.key, s));
  for (let k = parentKey(tile.key); k; k = parentKey(k)) ids.push(tileId(k, baseStride));
  return ids;
}

/** Drawn height (metres) of each grid vertex of a prepared tile, row-major, without the skirts (web/ground.js meshHeightAt reads them). */
export function gridHeights(prep) {
  const row = CHUNK_CORE / prep.stride + 1, n = Math.min(row * row, prep.vertexCount);
  const h = new Float32Array(n);
  for (let v = 0; v < n; v++) h[v] = prep.posH[4 * v + 3];
  return h;
}

export class TileStreamer {
  /**
   * @param {object} o {pool, renderer, radiusM, surfaceLod, colourToIndex (colour -> palette index
   *   Map from tiledata.js, or null; only for meshes without paletteIndex), budgetBytes=256MB,
   *   maxInFlight, baseStride=4, minStride=1, tau=6, tauGeo=4 (geometric error in pixels that a
   *   surface_lod chunk may show, lod.js), lakeMinLod=2 (tiles from this LOD on ask for lakes),
   *   exaggeration=1 (vertical exaggeration of the meshes: a display option, part of every mesh
   *   request and cache key), trianglesPerPixel=2.5 (triangle budget per pixel of the view: past
   *   it the selection meshes far rough ground coarser, lod.js), onError?}
   *   The renderer adapter: uploadTerrain(prepared), uploadWater(prepared) and release(handle),
   *   and `needs` = {reliefMaps, paletteMaps, lakeLevels} (each false when absent): the
   *   per-sample maps it draws, which the worker then builds. reliefMaps: each tile's 257 x 257
   *   relief map (normals and heights for per-pixel shading); paletteMaps: its palette indices
   *   (colour per pixel); lakeLevels: lakes as level maps on the terrain (shores per pixel)
   *   instead of water meshes through uploadWater. Every mesh carries its stride errors anyway.
   */
  constructor(o) {
    this.pool = o.pool;
    this.renderer = o.renderer;
    this.radiusM = o.radiusM;
    this.surfaceLod = o.surfaceLod;
    this.colourToIndex = o.colourToIndex ?? null;
    const needs = o.renderer.needs ?? {};
    this.needs = { reliefMaps: !!needs.reliefMaps, paletteMaps: !!needs.paletteMaps, lakeLevels: !!needs.lakeLevels };
    this.baseStride = o.baseStride ?? 4;
    this.minStride = o.minStride ?? 1;
    this.tau = o.tau ?? 6;
    this.tauGeo = o.tauGeo ?? 4;
    this.trianglesPerPixel = o.trianglesPerPixel ?? 2.5;
    // keyId -> {errors (metres per stride), k (roughness)} of every chunk that
    // has arrived: small, kept while the world and factor last.
    this.tileInfo = new Map();
    this.lakeMinLod = o.lakeMinLod ?? 2;
    this.generation = o.generation;
    this.exaggeration = o.exaggeration ?? 1;
    this.fallback = null; // tiles of the previous exaggeration, drawn until the new ones cover the view
    this.onError = o.onError ?? (() => {});
    this.tileRequests = new TileRequestQueue({ maxInFlight: o.maxInFlight ?? 6 });
    this.cache = new TileCache({ budgetBytes: o.budgetBytes ?? 256 * 1048576, release: (t) => this._release(t) });
    this.pending = new Map(); // tile id -> pool request id
    this.boundsCache = new Map();
    this.prevDrawn = new Set();
    this.prevCoarser = new Set();
    this.morphStart = new Map();
    this.frame = 0;
    this.requested = 0; // mesh requests sent, for tests of cache reuse
    this.dead = false;
    this.last = { draw: [], want: [], maxLodDrawn: -1 };
    this.refreshing = new Set(); // tile ids asked again after invalidate(), drawn meanwhile
  }

  _release(tile) {
    this.renderer.release(tile.gpu);
    if (tile.water) this.renderer.release(tile.water);
    tile.gpu = tile.water = null;
  }

  /** Cache key of a tile id: meshes differ by exaggeration, so the key includes it. */
  cacheId(id, exaggeration = this.exaggeration) {
    return `${id}|x${exaggeration}`;
  }

  isReady = (id) => this.cache.has(this.cacheId(id));

  _info = (key) => this.tileInfo.get(keyId(key));

  /** Height range of the drawn (exaggerated) terrain, for bounds, culling and the far plane. */
  heightRange() {
    return { hMinM: HEIGHT_RANGE_M[0] * this.exaggeration, hMaxM: HEIGHT_RANGE_M[1] * this.exaggeration };
  }

  /**
   * Switches the vertical exaggeration: pending requests are cancelled and
   * every tile is asked again with the new factor. The tiles drawn last stay
   * on screen until the new ones cover the view (no blank frames), then the
   * old meshes are freed.
   */
  setExaggeration(v) {
    if (!(v > 0) || v === this.exaggeration) return;
    this._cancelAll();
    if (!this.fallback) this.fallback = { tiles: (this.lastTiles ?? []).map((t) => ({ ...t, morph: 1 })), exaggeration: this.exaggeration };
    this.exaggeration = v;
    this.boundsCache.clear();
    this.tileInfo.clear();
    this.prevDrawn = new Set();
    this.prevCoarser = new Set();
    this.morphStart.clear();
  }

  _dropFallback() {
    this.fallback = null;
    // Meshes of every other exaggeration (the old one and any passed on the way) go.
    const suffix = `|x${this.exaggeration}`;
    for (const id of [...this.cache.entries.keys()]) if (!id.endsWith(suffix)) this.cache.remove(id);
  }

  /** Cancels every pending request (the world was replaced; the tiles stay until dispose). */
  cancelAll() {
    this._cancelAll();
    this.dead = true;
  }

  _cancelAll() {
    for (const rid of this.pending.values()) this.pool.cancel(rid);
    this.pending.clear();
    this.tileRequests.reset();
  }

  /**
   * Chunk keys whose content changed (an edit set; the pool's new epoch
   * cancelled its requests, so everything in flight is cancelled here too):
   * their drawn tiles are asked again at once and stay drawn until the new
   * meshes replace them (no coarser fallback, which could ask for tiles the
   * edits never touched); their other cached strides are dropped, to be asked
   * again when wanted.
   */
  invalidate(keys) {
    this._cancelAll();
    // The stride errors stay until the new meshes bring theirs: without them
    // the selection would refine the tiles into children nobody edited.
    const ids = new Set(keys.map(keyId));
    const drawn = new Set();
    for (const t of this.lastTiles ?? []) {
      if (!ids.has(keyId(t.key))) continue;
      const id = tileId(t.key, t.stride);
      drawn.add(this.cacheId(id));
      this.refreshing.add(id);
      this._request({ id, key: t.key, stride: t.stride, priority: 1e9 }, () => this.refreshing.delete(id));
    }
    for (const id of [...this.cache.entries.keys()]) if (ids.has(id.slice(0, id.indexOf('/s'))) && !drawn.has(id)) this.cache.remove(id);
  }

  /** Skirts deep enough to hide the largest step between neighbouring LODs here. */
  skirtM(lod, stride) {
    return Math.min(4000, Math.max(20, sampleSpacingM(this.radiusM, lod) * stride * 0.15)) * this.exaggeration;
  }

  /**
   * One frame of streaming.
   * @param {object} view from computeView
   * @param {number} now ms
   * @param {{frameMs?: number}} [o] frameMs: what one drawn frame costs the page (ms); at
   *   MORPH_MS or more a geomorph would show as one frame half-way and one at the end, so new
   *   tiles appear at once instead (and the view settles a frame sooner)
   * @returns {{tiles: object[], settled: boolean, maxLodDrawn: number, want: number}}
   */
  update(view, now, o = {}) {
    this.frame++;
    const sel = selectTiles({
      view, radiusM: this.radiusM, surfaceLod: this.surfaceLod, isReady: this.isReady,
      tau: this.tau, tauGeo: this.tauGeo, maxTriangles: this.trianglesPerPixel * view.width * view.height, tileInfo: this._info, baseStride: this.baseStride, minStride: this.minStride, boundsCache: this.boundsCache,
      ...this.heightRange(),
    });
    this.last = sel;
    this.cache.touch(sel.keep.map((id) => this.cacheId(id)), this.frame);
    for (let f = 0; f < 6; f++) this.cache.touch([this.cacheId(tileId({ face: f, lod: 0, x: 0, y: 0 }, this.baseStride))], this.frame);
    if (this.fallback && sel.complete) this._dropFallback();
    if (this.fallback) this.cache.touch(this.fallback.tiles.map((t) => t.cacheId), this.frame);
    this._plan(sel.want, now);
    this.cache.evict(this.frame);

    // Geomorph: a tile that replaces coarser ones grows out of their surface;
    // one that replaces finer ones (zooming out) appears at once.
    const tiles = [];
    const slowFrames = (o.frameMs ?? 0) >= MORPH_MS;
    const drawn = new Set();
    const coarser = new Set();
    let morphing = false;
    for (const t of sel.draw) {
      const c = this.cache.get(this.cacheId(t.id));
      if (!c) continue;
      drawn.add(t.id);
      for (const id of coarserIds(t, this.baseStride)) coarser.add(id);
      if (!this.prevDrawn.has(t.id)) {
        if (this.prevCoarser.has(t.id) || !c.morphs || slowFrames) this.morphStart.delete(t.id);
        else this.morphStart.set(t.id, now);
      }
      const start = this.morphStart.get(t.id);
      let morph = 1;
      if (start !== undefined) {
        morph = Math.min(1, (now - start) / MORPH_MS);
        if (morph >= 1) this.morphStart.delete(t.id);
        else morphing = true;
      }
      tiles.push({ gpu: c.gpu, water: c.water, center: c.center, morph, key: t.key, stride: t.stride, cacheId: this.cacheId(t.id), heights: c.heights });
    }
    for (const id of this.morphStart.keys()) if (!drawn.has(id)) this.morphStart.delete(id);
    this.prevDrawn = drawn;
    this.prevCoarser = coarser;
    const settled = sel.want.length === 0 && this.tileRequests.size === 0 && this.refreshing.size === 0 && !morphing && !this.fallback;
    this.lastTiles = tiles;
    // Until the new exaggeration covers the view, the previous picture stays.
    if (this.fallback) return { tiles: this.fallback.tiles, settled: false, complete: false, maxLodDrawn: -1, want: sel.want.length, exaggeration: this.fallback.exaggeration };
    return { tiles, settled, complete: sel.complete, maxLodDrawn: sel.maxLodDrawn, want: sel.want.length, exaggeration: this.exaggeration };
  }

  /** Starts the best wanted requests under the in-flight cap and cancels the unwanted ones. */
  _plan(wants, now) {
    const plan = this.tileRequests.plan(wants, now);
    for (const id of plan.cancel) {
      const rid = this.pending.get(id);
      this.pending.delete(id);
      if (rid !== undefined) this.pool.cancel(rid);
    }
    for (const w of plan.start) this._request(w);
  }

  /**
   * A reply arrived: hand the next wanted tile to the pool now, from the last
   * frame's wants, instead of at the next frame. In software GL a frame takes
   * most of a second, and requests sent only from frames left the workers idle
   * for most of a descent.
   */
  _topUp() {
    if (this.dead || this.fallback) return;
    this._plan(this.last.want.filter((w) => !this.isReady(w.id)), performance.now());
  }

  _request(w, done = () => {}) {
    const gen = this.generation, vex = this.exaggeration;
    const opts = { stride: w.stride, skirtDepthM: this.skirtM(w.key.lod, w.stride), verticalExaggeration: vex };
    // Lakes from the chunk the worker has just generated (null where it has
    // none): level maps for a renderer that draws them on the terrain with
    // shores per pixel, like the sea, else the water mesh.
    if (w.key.lod >= this.lakeMinLod) opts[this.needs.lakeLevels ? 'lakeLevels' : 'lakes'] = true;
    // The per-sample maps cost the worker a stride-1 mesh: only when they are drawn.
    if (this.needs.reliefMaps) opts.relief = true;
    if (this.needs.paletteMaps) opts.paletteMap = true;
    // Coarser than the finest level, rivers narrower than the samples are
    // drawn as land (the river lines show them): a lone wet sample per river
    // node put a grid of dots on every continent from orbit.
    if (this.surfaceLod !== undefined && w.key.lod < this.surfaceLod) opts.thinWater = true;
    // Samples over a kilometre apart point-sample ridge crests 32 km apart:
    // each crest's rock or snow came out as lone samples, a speckle over the
    // ranges from orbit. There a sample takes its neighbours' biome when none
    // of them shares its own (lone_biomes.js).
    if (this.surfaceLod !== undefined && w.key.lod < this.surfaceLod && w.key.lod <= LONE_BIOMES_MAX_LOD) opts.loneBiomes = true;
    const p = this.pool.mesh(w.key, opts, { priority: w.priority });
    this.requested++;
    this.pending.set(w.id, p.id);
    p.then((mesh) => {
      if (this.pending.get(w.id) === p.id) this.pending.delete(w.id);
      if (this.dead || mesh.generation !== gen || vex !== this.exaggeration) return;
      this.tileRequests.finished(w.id);
      const prep = prepareTerrain(mesh, { radiusM: this.radiusM, stride: w.stride, colourToIndex: this.colourToIndex });
      const gpu = this.renderer.uploadTerrain(prep);
      if (mesh.strideErrorsM && (!this.tileInfo.has(keyId(w.key)) || this.refreshing.has(w.id))) {
        const errors = mesh.strideErrorsM, spacing = sampleSpacingM(this.radiusM, w.key.lod);
        this.tileInfo.set(keyId(w.key), {
          errors, k: roughness(errors, spacing), heightsM: mesh.heightRangeM ? heightRangeM(mesh.heightRangeM, spacing, vex) : null,
        });
      }
      const lakes = prepareWater(mesh.lakes, this.radiusM);
      const water = lakes ? this.renderer.uploadWater(lakes) : null;
      // The grid's drawn heights stay on the CPU: the camera is held above the mesh under it (web/ground.js).
      const tile = { gpu, water, center: prep.center, morphs: prep.morphs, key: w.key, stride: w.stride, minH: prep.minH, maxH: prep.maxH, heights: gridHeights(prep) };
      // The budget counts the kept heights too: at surface_lod 12 a cache of ~470 tiles held ~120 MB of them uncounted.
      this.cache.add(this.cacheId(w.id), tile, gpu.bytes + (water ? water.bytes : 0) + tile.heights.byteLength, this.frame);
      this._topUp();
    }, (err) => {
      if (this.pending.get(w.id) === p.id) this.pending.delete(w.id);
      if (this.dead || vex !== this.exaggeration || (err && err.code === 'CT_ERR_CANCELLED')) return;
      this.tileRequests.failed(w.id, performance.now());
      this.onError(err, w);
    });
    // After the reply's own handler (which reads refreshing).
    p.finally(done).catch(() => {});
  }

  /** Numbers for the HUD and ctDemo.stats(). */
  stats() {
    // Tiles drawn at surface_lod, and how many of them are coloured per pixel (palette map).
    const surface = (this.lastTiles ?? []).filter((t) => t.key.lod === this.surfaceLod);
    return { tilesDrawn: this.fallback ? this.fallback.tiles.length : this.prevDrawn.size,
      surfaceTilesDrawn: surface.length, paletteMapped: surface.filter((t) => t.gpu.palMap).length, exaggeration: this.exaggeration, inFlight: this.tileRequests.size, cached: this.cache.size, cachedBytes: this.cache.bytes, maxLodDrawn: this.last.maxLodDrawn,
      plannedTriangles: this.last.plannedTriangles, budgetFactor: this.last.budgetFactor, trianglesPerPixel: this.trianglesPerPixel };
  }

  /** Stops streaming and frees every GPU buffer (world replaced). */
  dispose() {
    this.dead = true;
    this._cancelAll();
    this.fallback = null;
    this.cache.clear();
  }
}

export { keyId };
