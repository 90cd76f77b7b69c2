// This module turns a full-resolution (stride 1) chunk mesh into the page's per-pixel maps: the relief map (for each of the 257x257 samples, how far the core's terrain normal leans away from the sphere's up (x, y, z) and the real height in metres (w)) and the palette map (each sample's palette index, the colour its vertex has at stride 1, read from the chunk itself), so a renderer can shade, colour and find shorelines per pixel on tiles of any mesh stride.

import { CHUNK_EDGE } from '../../wasm/ct_constants.mjs';

/** Samples per edge of a relief or palette map: a chunk's, core plus positive border. */
export const RELIEF_EDGE = CHUNK_EDGE;

/**
 * Relief map of one chunk.
 * @param {{positions: Float32Array, normals: Float32Array, center: number[]}} mesh the chunk meshed at
 *   stride 1 (the first 257 x 257 vertices are the grid, row-major, as the core writes them)
 * @param {number} radiusM sea-level radius
 * @param {number} [exaggeration=1] vertical exaggeration the mesh was built with
 * @returns {Float32Array} 257 x 257 x 4 floats: normal minus up (the lean stays small, so a
 *   half-float texture keeps it precise) and the height above sea level in real metres
 */
export function reliefMap(mesh, radiusM, exaggeration = 1) {
  const n = RELIEF_EDGE * RELIEF_EDGE;
  if (!(mesh.positions.length >= 3 * n)) throw new RangeError('relief needs a stride-1 mesh of 257 x 257 vertices');
  const P = mesh.positions, N = mesh.normals, c = mesh.center;
  const out = new Float32Array(4 * n);
  for (let v = 0; v < n; v++) {
    const x = c[0] + P[3 * v], y = c[1] + P[3 * v + 1], z = c[2] + P[3 * v + 2];
    const r = Math.sqrt(x * x + y * y + z * z);
    out[4 * v] = N[3 * v] - x / r;
    out[4 * v + 1] = N[3 * v + 1] - y / r;
    out[4 * v + 2] = N[3 * v + 2] - z / r;
    out[4 * v + 3] = (r - radiusM) / exaggeration;
  }
  return out;
}

/**
 * Palette map of one chunk: the palette index of each of the 257 x 257 samples, the
 * same byte the stride-1 mesh gives that vertex (so the colour is the mesh's colour):
 * the mesh takes each vertex's index from the chunk's palette, so the map is read
 * from the chunk, and no stride-1 mesh is built for it.
 * One byte per sample rather than RGB: the page looks colours up in its palette
 * texture per pixel, so a palette switch still needs no new tiles.
 * @param {{palette: Uint8Array}} chunk as the core returns it (257 x 257, row-major)
 * @param {Int16Array|null} [hide] thin_water.js's hidden samples: their palette indices
 * @returns {Uint8Array} 257 x 257 palette indices, row-major
 */
export function paletteMap(chunk, hide = null) {
  const n = RELIEF_EDGE * RELIEF_EDGE;
  if (!(chunk.palette?.length >= n)) throw new RangeError('palette map needs a chunk of 257 x 257 palette indices');
  const map = chunk.palette.slice(0, n);
  if (hide) for (let i = 0; i < n; i++) if (hide[i] >= 0) map[i] = hide[i];
  return map;
}
