// This module chooses which chunk meshes to draw and which to request: a quadtree per cube face refined by screen-space error, with frustum and horizon culling, drawing only ready tiles and never leaving holes (no DOM, no GL).
import { keyBounds, keyId, keyAt, childKeys, parentKey, sampleSpacingM, angleBetween, sub, length, normalize, CHUNK_CORE } from './geo.js';
import { frustumPlanes, sphereInFrustum } from './camera.js';

/** Text id of a tile: key plus mesh stride. */
export function tileId(key, stride) {
  return `${keyId(key)}/s${stride}`;
}

/**
 * Children of a tile in the quadtree: below surface_lod its four child keys;
 * a tile at surface_lod has none (it gains detail through its mesh stride,
 * chosen by surfaceStride, not through children).
 */
export function tileChildren(tile, surfaceLod, baseStride) {
  if (tile.key.lod < surfaceLod) return childKeys(tile.key).map((key) => ({ key, stride: baseStride }));
  return [];
}

/**
 * Mesh stride for a chunk at surface_lod: the coarsest stride whose
 * projected geometric error is within tolerance. With the chunk's own
 * measured errors (tile_error.js) the test is error <= tauGeo pixels; without
 * them the error is guessed as roughness x vertex spacing, where roughness
 * comes from the nearest measured ancestor (flat sea: 0, so the coarsest
 * stride) or is 1 when nothing is known (the vertex spacing itself, against
 * tau: the rule used below surface_lod).
 * @param {object} o {key, distPx (pixels per metre at the tile's nearest point), spacingM,
 *   baseStride, minStride, tau, tauGeo, info: (key) => ({errors, k}|undefined)}
 */
export function surfaceStride(o) {
  const own = o.info(o.key);
  let k = 1, tol = o.tau;
  if (!own) {
    for (let a = parentKey(o.key); a; a = parentKey(a)) {
      const i = o.info(a);
      // Detail finer than the ancestor's samples is missing from its measure: a margin.
      if (i) { k = Math.min(1, i.k * ROUGHNESS_MARGIN); tol = o.tauGeo; break; }
    }
  }
  for (let s = o.baseStride; s > o.minStride; s >>= 1) {
    const errM = own ? own.errors[s] : k * s * o.spacingM;
    if (errM * o.distPx <= (own ? o.tauGeo : tol)) return s;
  }
  return o.minStride;
}

/** An ancestor's roughness misses detail below its own samples. */
const ROUGHNESS_MARGIN = 1.5;

/** Roughness of a tile: its own measure, else the nearest measured ancestor's with the margin, else undefined. */
function roughnessOf(key, info) {
  const own = info(key);
  if (own) return own.k;
  for (let a = parentKey(key); a; a = parentKey(a)) {
    const i = info(a);
    if (i) return i.k * ROUGHNESS_MARGIN;
  }
  return undefined;
}

/**
 * True when a bounding region is behind the planet's horizon: every point of
 * the tile up to radius rTop is hidden by the occluding sphere rOcc as seen
 * from the eye (angular form, conservative).
 */
export function beyondHorizon(eye, centerDir, angularRadius, rOcc, rTop) {
  const d = length(eye);
  if (d <= rOcc) return false;
  const theta = Math.max(0, angleBetween(normalize(eye), centerDir) - angularRadius);
  const reach = Math.acos(Math.min(1, rOcc / d)) + Math.acos(Math.min(1, rOcc / rTop));
  return theta > reach;
}

/**
 * Lower bound of the distance from the eye to a tile: the nearest point of
 * the shell between radii rLo and rHi over the tile's angular disc. The
 * bounding sphere of a small tile spans the planet's whole height range
 * (20 km), so near the ground every tile within ~10 km looked 1 m away and
 * refined to surface_lod: 33 M triangles in one view at surface_lod 12. The
 * shell with the tile's own height range keeps the distance honest.
 */
export function shellDistanceM(eye, bounds, rLo, rHi) {
  const d = length(eye);
  const theta = Math.max(0, angleBetween(normalize(eye), bounds.centerDir) - bounds.angle);
  if (theta >= Math.PI / 2) return Math.max(d, rLo);
  const r = Math.min(rHi, Math.max(rLo, d * Math.cos(theta)));
  const s = Math.sin(theta / 2);
  // |eye - p|^2 for p at radius r, angle theta: (d - r)^2 + 4 d r sin^2(theta/2), no cancellation.
  return Math.sqrt((d - r) * (d - r) + 4 * d * r * s * s);
}

/**
 * Screen-space size in pixels of the distance between neighbouring mesh
 * vertices of a tile seen from the eye: at the nearest point of the shell of
 * its height range [rLo, rHi] when given, else of its bounding sphere.
 */
export function vertexSpacingPx(view, bounds, spacingM, rLo, rHi) {
  const near = rLo === undefined ? length(sub(bounds.center, view.eye)) - bounds.radius : shellDistanceM(view.eye, bounds, rLo, rHi);
  return (spacingM * view.pixelScale) / Math.max(1, near);
}

/**
 * Drawn height range [lo, hi] in metres that bounds a tile's surface: its
 * own measured one, else the nearest measured ancestor's (the streamer widens
 * those by what finer samples may add), else the planet's.
 */
function heightRangeOf(key, info, hMin, hMax) {
  for (let k = key; k; k = parentKey(k)) {
    const i = info(k);
    if (i && i.heightsM) return [Math.max(hMin, i.heightsM[0]), Math.min(hMax, i.heightsM[1])];
  }
  return [hMin, hMax];
}

/**
 * Selects tiles for one frame.
 * @param {object} p
 * @param {object} p.view        from computeView (eye, viewProj, pixelScale)
 * @param {number} p.radiusM     planet radius
 * @param {number} p.surfaceLod  finest chunk LOD of the world
 * @param {(id:string)=>boolean} p.isReady  tile mesh is on the GPU
 * @param {number} [p.tau=6]     below surface_lod, refine while a vertex spacing covers more pixels than this
 *   (the relief map's texels, a quarter of that at stride 4, keep shading and shores sharp)
 * @param {number} [p.tauGeo=4]  at surface_lod, mesh at the coarsest stride whose geometric error
 *   (p.tileInfo) covers at most this many pixels; below it, refine while the error covers more
 * @param {number} [p.tauTexel=6] below surface_lod, refine while a sample (relief-map texel) covers more
 *   pixels than this, whatever the error (shores and colours stay sharp on flat ground and sea)
 * @param {(key:object)=>({errors:object, k:number, heightsM?:number[]}|undefined)} [p.tileInfo] measured
 *   stride errors (metres), roughness and drawn height range [lo, hi] (metres, widened for the
 *   detail of its descendants) of a chunk whose mesh has arrived (any stride)
 * @param {number} [p.baseStride=4] mesh stride of tiles coarser than surface_lod
 * @param {number} [p.minStride=1]  finest stride at surface_lod
 * @param {number} [p.hMinM=-11000] [p.hMaxM=9000] terrain height range for bounds and culling
 * @param {Map} [p.boundsCache]  keyId -> bounds memo (reuse across frames with the same radius/range)
 * @param {number} [p.maxVisits=6000] traversal guard
 * @param {number} [p.maxTriangles=Infinity] triangle budget: while the tiles it would ask for hold more,
 *   every tolerance is relaxed by 1.5x (up to 64x), so rough ground far away is meshed coarser
 *   instead of drawing many triangles per pixel; coverage is the same (no holes). The ground next to
 *   a low eye (NEAR_GROUND_ALT_M, NEAR_GROUND_M) stays at surface_lod and the finest stride
 * @returns {{draw: object[], want: object[], keep: string[], maxLodDrawn: number, visits: number, culled: number, complete: boolean,
 *   plannedTriangles: number, budgetFactor: number, nearTiles: number}}
 *   nearTiles: surface_lod chunks held at the finest stride next to a low eye;
 *   plannedTriangles: what the wanted tiles hold once all are here; budgetFactor: the relaxation used;
 *   draw: tiles to render ({id, key, stride, bounds}); complete: false when a
 *   visible face has no ready tile yet (draw leaves a hole); want: tiles to request
 *   ({id, key, stride, priority}, lower priority = sooner); keep: ready tile ids
 *   in use (drawn or fallback ancestors) that the cache must not evict.
 */
export function selectTiles(p) {
  const budget = p.maxTriangles ?? Infinity;
  let out;
  for (let f = 1; ; f *= 1.5) {
    out = selectOnce(p, f, budget);
    out.budgetFactor = f;
    if (out.plannedTriangles <= budget || f >= MAX_BUDGET_FACTOR) return out;
  }
}

/** The most the tolerances are relaxed for the triangle budget. */
const MAX_BUDGET_FACTOR = 64;

/**
 * The ground next to a low eye is drawn exactly: below NEAR_GROUND_ALT_M over
 * the highest drawn ground of the chunk under it, every surface_lod chunk
 * within NEAR_GROUND_M of the eye's ground point is selected at surface_lod
 * and the finest stride whatever the tolerances and the triangle budget,
 * which relax only the rest. That mesh is the exact ground (the stride-1
 * triangles a collider and world.groundAt use), so what is drawn under a
 * walker is what it stands on, and a camera held above the drawn mesh reaches
 * the height it is asked for. Under software GL's budget the tolerances were
 * relaxed up to 86x even under the eye, and the camera stayed metres to
 * hundreds of metres over the exact ground.
 * 300 m: the chunk under the eye and the neighbours whose bounding circles
 * come that close (3 chunks of 133 k triangles at surface_lod 12, 5 at 14 in
 * the tests), so software GL's budget of one triangle per pixel still has
 * room for the rest; a walker sees ground 300 m off within a third of a degree
 * of the horizon. 2 km: from there the chunk under the eye is still large on
 * screen; higher up the error rules choose its stride.
 */
export const NEAR_GROUND_ALT_M = 2000;
export const NEAR_GROUND_M = 300;

/** Triangles of a chunk mesh at a stride (grid and skirts). */
export function meshTriangles(stride) {
  const n = CHUNK_CORE / stride;
  return 2 * n * n + 8 * n;
}

/**
 * One selection with every tolerance (tau, tauGeo, tauTexel) times f;
 * plannedTriangles counts what it asks for (the wanted strides), not what
 * happens to be ready, so the factor does not swing as tiles arrive.
 */
function selectOnce(p, f, budget) {
  return new Selection(p, f, budget).run();
}

/** One pass over the six face quadtrees: the frame's settings and what it has chosen so far. */
class Selection {
  constructor(p, f, budget) {
    this.p = p;
    this.budget = budget;
    this.R = p.radiusM;
    this.tau = (p.tau ?? 6) * f;
    this.tauGeo = (p.tauGeo ?? 4) * f;
    this.tauTexel = (p.tauTexel ?? 6) * f;
    this.info = p.tileInfo ?? (() => undefined);
    this.baseStride = p.baseStride ?? 4;
    this.minStride = Math.min(this.baseStride, p.minStride ?? 1);
    this.hMin = p.hMinM ?? -11000;
    this.hMax = p.hMaxM ?? 9000;
    this.rMin = this.R + this.hMin;
    this.rMax = this.R + this.hMax;
    this.cache = p.boundsCache ?? new Map();
    this.maxVisits = p.maxVisits ?? 6000;
    this.view = p.view;
    this.planes = frustumPlanes(this.view.viewProj);
    this.out = { draw: [], want: [], keep: [], maxLodDrawn: -1, visits: 0, culled: 0, complete: true, plannedTriangles: 0, extraTriangles: 0, nearTiles: 0 };
    this.wanted = new Set();
    this.near = this.nearGround();
  }

  /**
   * The disc of exact ground round a low eye (NEAR_GROUND_ALT_M): its centre
   * direction and angular radius, or null when the eye is higher. The height
   * over the ground counts from the top of the drawn range known for the
   * chunk under the eye (its own, else an ancestor's, else the planet's), so
   * before anything is known a low eye counts as low.
   */
  nearGround() {
    const d = length(this.view.eye);
    if (!(d > 0) || this.p.surfaceLod === undefined) return null;
    const dir = normalize(this.view.eye);
    const under = keyAt(dir, this.p.surfaceLod).key;
    const [, hi] = heightRangeOf(under, this.info, this.hMin, this.hMax);
    if (d - this.R - hi >= NEAR_GROUND_ALT_M) return null;
    return { dir, angle: NEAR_GROUND_M / this.R };
  }

  /** True for a tile that holds part of the near-ground disc. */
  isNear(bounds) {
    return !!this.near && angleBetween(this.near.dir, bounds.centerDir) - bounds.angle <= this.near.angle;
  }

  run() {
    const out = this.out;
    for (let face = 0; face < 6; face++) {
      const root = { key: { face, lod: 0, x: 0, y: 0 }, stride: this.baseStride };
      const r = this.visit(root, -1);
      if (r) out.draw.push(...r);
      else out.complete = false;
    }
    for (const t of out.draw) out.maxLodDrawn = Math.max(out.maxLodDrawn, t.key.lod);
    out.want.sort((a, b) => a.priority - b.priority);
    return out;
  }

  boundsOf(key) {
    const k = keyId(key);
    let b = this.cache.get(k);
    if (!b) {
      b = keyBounds(key, this.rMin, this.rMax);
      this.cache.set(k, b);
    }
    return b;
  }

  /** Refinement measures distance to the tile's own height range; culling keeps the planet's (never a hole). */
  spacingPx(bounds, key, spacingM) {
    const [lo, hi] = heightRangeOf(key, this.info, this.hMin, this.hMax);
    return vertexSpacingPx(this.view, bounds, spacingM, this.R + lo, this.R + hi);
  }

  want(tile, bounds) {
    if (this.wanted.has(tile.id)) return;
    this.wanted.add(tile.id);
    const dist = Math.max(1, length(sub(bounds.center, this.view.eye)) - bounds.radius);
    // Nearest first and largest on screen first: distance over size. Finer
    // strides of one chunk come after coarser ones.
    const priority = dist / bounds.radius + (this.baseStride / tile.stride - 1) * 0.25;
    this.out.want.push({ id: tile.id, key: tile.key, stride: tile.stride, priority });
  }

  /**
   * Below surface_lod a tile refines while a mesh cell covers more than tau
   * pixels and either its relief-map texels (the samples) cover more than
   * tauTexel pixels or its geometric error (roughness x cell, measured or
   * inherited) more than tauGeo. Flat ground and sea stop at the texel rule,
   * rough ground at the error rule; with nothing known, the cell rule alone.
   */
  needsFiner(tile, cellPx) {
    if (cellPx <= this.tau) return false;
    if (cellPx / tile.stride > this.tauTexel) return true;
    const k = roughnessOf(tile.key, this.info);
    return k === undefined || k * cellPx > this.tauGeo;
  }

  /** The ready tile of this chunk at stride s, kept and drawn; null when it is not here. */
  use(tile, bounds, s) {
    const id = tileId(tile.key, s);
    if (!this.p.isReady(id)) return null;
    this.out.keep.push(id);
    return [{ key: tile.key, stride: s, id, bounds }];
  }

  /**
   * A chunk at surface_lod: drawn at the stride its error asks for, or at any
   * finer stride already here (it covers the same ground at least as well,
   * and asking for a coarser copy would only cost a request).
   */
  surfaceTile(tile, bounds) {
    const { out, baseStride, minStride } = this;
    const distPx = this.spacingPx(bounds, tile.key, 1);
    const spacingM = sampleSpacingM(this.R, tile.key.lod);
    const near = this.isNear(bounds);
    if (near) out.nearTiles++;
    const need = near ? minStride : surfaceStride({ key: tile.key, distPx, spacingM, baseStride, minStride, tau: this.tau, tauGeo: this.tauGeo, info: this.info });
    out.plannedTriangles += meshTriangles(need);
    const here = this.use(tile, bounds, need);
    if (here) return here;
    // A finer copy already here covers the same ground at least as well and
    // saves a request, while the triangles it adds leave room in the budget
    // (so what is drawn stays under twice the budget).
    for (let s = need >> 1; s >= minStride; s >>= 1) {
      const more = meshTriangles(s) - meshTriangles(need);
      if (this.p.isReady(tileId(tile.key, s)) && out.plannedTriangles + out.extraTriangles + more <= this.budget) {
        out.extraTriangles += more;
        return this.use(tile, bounds, s);
      }
    }
    this.want({ key: tile.key, stride: need, id: tileId(tile.key, need), bounds }, bounds);
    // Until it arrives, a coarser copy of the same chunk covers it, or a finer one.
    for (let s = need * 2; s <= baseStride; s *= 2) { const r = this.use(tile, bounds, s); if (r) return r; }
    for (let s = need >> 1; s >= minStride; s >>= 1) { const r = this.use(tile, bounds, s); if (r) return r; }
    return null;
  }

  /**
   * Returns the tiles that cover this node's visible area, or null if it
   * cannot be covered yet. readyDepth: LOD of the nearest ready ancestor (-1 none).
   */
  visit(tile, readyDepth) {
    const out = this.out, p = this.p;
    out.visits++;
    const bounds = this.boundsOf(tile.key);
    const rel = sub(bounds.center, this.view.eye);
    if (beyondHorizon(this.view.eye, bounds.centerDir, bounds.angle, this.rMin, this.rMax) ||
        !sphereInFrustum(this.planes, rel, bounds.radius)) {
      out.culled++;
      return [];
    }
    if (tile.key.lod >= p.surfaceLod) return this.surfaceTile(tile, bounds);
    tile.id = tile.id ?? tileId(tile.key, tile.stride);
    tile.bounds = bounds;
    const ready = p.isReady(tile.id);
    const spacing = sampleSpacingM(this.R, tile.key.lod) * tile.stride;
    // The near-ground disc refines to surface_lod whatever the tolerances and the visit guard (a few paths).
    const kids = this.isNear(bounds) || (out.visits < this.maxVisits && this.needsFiner(tile, this.spacingPx(bounds, tile.key, spacing)))
      ? tileChildren(tile, p.surfaceLod, this.baseStride) : [];
    if (kids.length === 0) {
      out.plannedTriangles += meshTriangles(tile.stride);
      if (ready) {
        out.keep.push(tile.id);
        return [tile];
      }
      this.want(tile, bounds);
      return null;
    }
    return this.refine(tile, bounds, ready, readyDepth, kids);
  }

  /**
   * A tile drawn through its children. It is asked for too when the nearest
   * ready cover is two or more levels up, so detail arrives level by level
   * instead of all at once; it covers its area itself while a child cannot.
   */
  refine(tile, bounds, ready, readyDepth, kids) {
    const level = tile.key.lod;
    if (!ready && (readyDepth < 0 || level - readyDepth >= 2)) this.want(tile, bounds);
    if (ready) this.out.keep.push(tile.id);
    const depth = ready ? level : readyDepth;
    const covered = [];
    let complete = true;
    for (const kid of kids) {
      const r = this.visit({ key: kid.key, stride: kid.stride }, depth);
      if (r === null) complete = false;
      else if (complete) covered.push(...r);
    }
    if (complete) return covered;
    if (ready) return [tile];
    return null;
  }
}
