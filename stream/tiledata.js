// This module turns a worker mesh into a renderer's vertex data: heights above sea level in float64, geomorph targets from the coarser grid, the mesh's palette indices, and lake-only water surfaces for renderers that draw lakes as meshes (no DOM, no GL).
import { CHUNK_CORE } from '../wasm/ct_constants.mjs';

/**
 * colourToIndex: a Map packed 0xRRGGBB -> palette index for 40 RGB entries, to recover the
 * indices of meshes without paletteIndex. (A palette map is something else: the worker's
 * 257 x 257 palette indices of a chunk, one per sample, mesh option paletteMap.)
 */
export function colourToIndex(rgb) {
  const m = new Map();
  for (let i = 0; 3 * i + 2 < rgb.length; i++) {
    const k = (rgb[3 * i] << 16) | (rgb[3 * i + 1] << 8) | rgb[3 * i + 2];
    if (!m.has(k)) m.set(k, i);
  }
  return m;
}

/** Parses 40 RRGGBB lines ('#' comments, blank lines) into 120 RGB bytes; throws naming the line. */
export function parsePalette(text) {
  const out = [];
  String(text).split(/\r?\n/).forEach((line, i) => {
    const s = line.replace(/#.*$/, '').trim();
    if (!s) return;
    if (!/^[0-9a-fA-F]{6}$/.test(s)) throw new Error(`palette line ${i + 1}: expected RRGGBB, got "${s}"`);
    out.push(parseInt(s.slice(0, 2), 16), parseInt(s.slice(2, 4), 16), parseInt(s.slice(4, 6), 16));
  });
  if (out.length !== 120) throw new Error(`palette needs exactly 40 colours, found ${out.length / 3}`);
  return Uint8Array.from(out);
}

/**
 * Vertex data of a terrain tile.
 * @param {object} mesh       worker mesh {positions, normals, colors, paletteIndex, indices, center, vertexCount}
 * @param {object} o
 * @param {number} o.radiusM  planet radius (sea level)
 * @param {number} o.stride   mesh stride (grid has 256/stride + 1 vertices per row)
 * @param {Map} [o.colourToIndex] colourToIndex(the worker's palette): only for meshes without
 *   paletteIndex, whose indices are then recovered from the colours
 * @returns {{posH: Float32Array, morphH: Float32Array, normals: Float32Array, pal: Uint8Array|null,
 *   colors: Uint8Array, indices: Uint16Array|Uint32Array, center: number[], vertexCount: number,
 *   morphs: boolean, minH: number, maxH: number, relief: Float32Array|null,
 *   paletteMap: Uint8Array|null, lakeLevels: Float32Array|null}}
 *   posH/morphH hold x, y, z (metres from the centre) and the height above sea level per vertex;
 *   pal is null when indices are unknown (the renderer then draws the colours); relief,
 *   paletteMap and lakeLevels pass through from the mesh reply (257 x 257 per-sample maps).
 */
export function prepareTerrain(mesh, o) {
  const R = o.radiusM;
  const n = CHUNK_CORE / o.stride, row = n + 1, grid = row * row;
  const vc = mesh.vertexCount ?? mesh.positions.length / 3;
  const P = mesh.positions, c = mesh.center;
  const posH = new Float32Array(vc * 4);
  let minH = Infinity, maxH = -Infinity;
  for (let v = 0; v < vc; v++) {
    const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2];
    const X = c[0] + x, Y = c[1] + y, Z = c[2] + z;
    const h = Math.sqrt(X * X + Y * Y + Z * Z) - R;
    posH[4 * v] = x; posH[4 * v + 1] = y; posH[4 * v + 2] = z; posH[4 * v + 3] = h;
    if (v < grid) {
      if (h < minH) minH = h;
      if (h > maxH) maxH = h;
    }
  }
  // Skirt vertices carry their edge vertex's height: the page lays the sea
  // surface at 0 m by height, and a skirt must stay that far below its edge.
  for (let e = 0; e < 4; e++) {
    for (let k = 0; k <= n; k++) {
      const s = grid + e * row + k;
      if (s >= vc) break;
      posH[4 * s + 3] = posH[4 * edgeVertex(n, e, k) + 3];
    }
  }
  const morphs = vc >= grid && n >= 2;
  const morphH = morphs ? morphTargets(posH, n, vc) : posH.slice();

  const cols = mesh.colors;
  const pal = mesh.paletteIndex && mesh.paletteIndex.length === vc ? mesh.paletteIndex : palFromColors(cols, vc, o.colourToIndex);
  return { posH, morphH, normals: mesh.normals, pal, colors: cols, indices: mesh.indices, center: c,
    vertexCount: vc, morphs, minH, maxH, stride: o.stride, relief: mesh.relief ?? null,
    paletteMap: mesh.paletteMap ?? null, lakeLevels: mesh.lakeLevels ?? null };
}

/** Palette indices recovered from RGBA colours, or null if a colour is not in the lookup. */
function palFromColors(cols, vc, lookup) {
  if (!lookup || !cols) return null;
  const pal = new Uint8Array(vc);
  for (let v = 0; v < vc; v++) {
    const i = lookup.get((cols[4 * v] << 16) | (cols[4 * v + 1] << 8) | cols[4 * v + 2]);
    if (i === undefined) return null;
    pal[v] = i;
  }
  return pal;
}

/** Grid vertex under skirt vertex k of edge e (top, bottom, left, right) of an n x n grid. */
function edgeVertex(n, e, k) {
  const row = n + 1;
  return e === 0 ? k : e === 1 ? n * row + k : e === 2 ? k * row : k * row + n;
}

/**
 * Geomorph targets: where each vertex of an n x n grid sat on the grid of
 * half the resolution (the coarser tile this one replaces). Even vertices are
 * shared with the coarse grid; odd ones sit on a coarse edge or on the coarse
 * cell's diagonal, which the core's triangulation draws from (i+1, j-1) to
 * (i-1, j+1). Skirt vertices follow their edge vertex.
 */
export function morphTargets(posH, n, vc) {
  const row = n + 1, grid = row * row;
  const out = new Float32Array(posH.length);
  const avg = (v, a, b) => {
    for (let k = 0; k < 4; k++) out[4 * v + k] = (posH[4 * a + k] + posH[4 * b + k]) / 2;
  };
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const v = j * row + i;
      const oi = i & 1, oj = j & 1;
      if (!oi && !oj) out.set(posH.subarray(4 * v, 4 * v + 4), 4 * v);
      else if (oi && !oj) avg(v, v - 1, v + 1);
      else if (!oi && oj) avg(v, v - row, v + row);
      else avg(v, (j - 1) * row + i + 1, (j + 1) * row + i - 1);
    }
  }
  // Skirts: 4 edges of n+1 vertices (top, bottom, left, right), each hanging
  // below its edge vertex; keep the same offset under the morphed edge.
  for (let e = 0; e < 4; e++) {
    for (let k = 0; k <= n; k++) {
      const s = grid + e * row + k;
      if (s >= vc) break;
      const g = edgeVertex(n, e, k);
      for (let q = 0; q < 4; q++) out[4 * s + q] = posH[4 * s + q] + out[4 * g + q] - posH[4 * g + q];
    }
  }
  for (let v = grid + 4 * row; v < vc; v++) out.set(posH.subarray(4 * v, 4 * v + 4), 4 * v);
  return out;
}

/**
 * The lake part of a water mesh: triangles at sea level are dropped (the sea
 * is drawn as its own surface), the rest kept with heights. Null when empty.
 * For renderers that draw lakes as meshes (examples/three); the demo page draws
 * them on the terrain from lake level maps instead.
 */
export function prepareWater(mesh, radiusM, seaEpsM = 0.25) {
  if (!mesh || !mesh.indexCount) return null;
  const vc = mesh.vertexCount ?? mesh.positions.length / 3;
  const P = mesh.positions, c = mesh.center;
  const posH = new Float32Array(vc * 4);
  const lake = new Uint8Array(vc);
  for (let v = 0; v < vc; v++) {
    const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2];
    const X = c[0] + x, Y = c[1] + y, Z = c[2] + z;
    const h = Math.sqrt(X * X + Y * Y + Z * Z) - radiusM;
    posH[4 * v] = x; posH[4 * v + 1] = y; posH[4 * v + 2] = z; posH[4 * v + 3] = h;
    lake[v] = Math.abs(h) > seaEpsM ? 1 : 0;
  }
  const I = mesh.indices;
  const kept = new (I instanceof Uint32Array ? Uint32Array : Uint16Array)(I.length);
  let m = 0;
  for (let t = 0; t + 2 < I.length; t += 3) {
    if (!(lake[I[t]] || lake[I[t + 1]] || lake[I[t + 2]])) continue;
    kept[m++] = I[t]; kept[m++] = I[t + 1]; kept[m++] = I[t + 2];
  }
  if (m === 0) return null;
  return { posH, normals: mesh.normals, indices: kept.slice(0, m), center: c, vertexCount: vc };
}
