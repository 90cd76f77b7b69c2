// This module measures how far a chunk's coarser meshes lie from its full-resolution surface (the geometric error of each mesh stride), from the chunk's own encoded heights, so every mesh reply can carry the figures tile selection needs (stream/tile_error.js) without a stride-1 mesh or a relief map.
import { CHUNK_EDGE, SEA_LEVEL_CODE } from '../../wasm/ct_constants.mjs';

/** Mesh strides whose error is measured (stride 1 is the full-resolution surface: error 0). */
export const ERROR_STRIDES = Object.freeze([2, 4, 8]);

/**
 * Geometric error of each stride of one chunk, in drawn metres: the largest
 * distance between a full-resolution sample and the bilinear surface through
 * the stride's vertices. The drawn surface is used: heights below sea level
 * count as 0 m (renderers lay the sea at 0 m), times the exaggeration.
 * Bilinear is not the core's two-triangle split, but the two differ by less
 * than the error they are measured against.
 * @param {{height: Uint16Array, heightQuantumM: number}} chunk as the core returns it (257 x 257 codes)
 * @param {number} [exaggeration=1]
 * @returns {{1: number, 2: number, 4: number, 8: number}} metres per stride
 */
export function strideErrorsM(chunk, exaggeration = 1) {
  const E = CHUNK_EDGE, H = chunk.height, q = chunk.heightQuantumM;
  if (!(H && H.length >= E * E)) throw new RangeError('stride errors need a chunk of 257 x 257 heights');
  const h = new Float64Array(E * E);
  let flat = true;
  for (let i = 0; i < E * E; i++) {
    h[i] = Math.max(0, (H[i] - SEA_LEVEL_CODE) * q) * exaggeration;
    flat = flat && h[i] === h[0];
  }
  // A flat drawn surface (a tile of open sea) lies exactly on every stride's
  // bilinear surface: a + (a - a) * f is a. Nothing to measure.
  if (flat) return { 1: 0, 2: 0, 4: 0, 8: 0 };
  const out = { 1: 0 };
  for (const s of ERROR_STRIDES) {
    let worst = 0;
    for (let j0 = 0; j0 < E - 1; j0 += s) {
      for (let i0 = 0; i0 < E - 1; i0 += s) {
        const a = h[j0 * E + i0], b = h[j0 * E + i0 + s], c = h[(j0 + s) * E + i0], d = h[(j0 + s) * E + i0 + s];
        for (let dj = 0; dj <= s; dj++) {
          const fy = dj / s, row = (j0 + dj) * E;
          const l = a + (c - a) * fy, r = b + (d - b) * fy;
          for (let di = 0; di <= s; di++) {
            const e = Math.abs(h[row + i0 + di] - (l + (r - l) * (di / s)));
            if (e > worst) worst = e;
          }
        }
      }
    }
    out[s] = worst;
  }
  return out;
}

/**
 * Drawn height range [lo, hi] (metres) of a chunk's full-resolution samples:
 * heights below sea level count as 0 m (the sea is drawn there), times the
 * exaggeration. Float heights when the chunk has them (the meshes are built
 * from those), else the encoded ones.
 * @param {{height: Uint16Array, heightM?: Float32Array, heightQuantumM: number}} chunk
 * @param {number} [exaggeration=1]
 * @returns {[number, number]}
 */
export function drawnHeightRangeM(chunk, exaggeration = 1) {
  const E = CHUNK_EDGE, F = chunk.heightM, H = chunk.height, q = chunk.heightQuantumM;
  // The extremes of the heights, then those below sea level as 0 m: the
  // same figures as clamping each sample first, with the branch out of the loop.
  let lo = Infinity, hi = -Infinity;
  if (F) {
    for (let i = 0; i < E * E; i++) {
      const m = F[i];
      if (m < lo) lo = m;
      if (m > hi) hi = m;
    }
  } else {
    for (let i = 0; i < E * E; i++) {
      const m = (H[i] - SEA_LEVEL_CODE) * q;
      if (m < lo) lo = m;
      if (m > hi) hi = m;
    }
  }
  lo = lo > 0 ? lo : 0;
  hi = hi > 0 ? hi : 0;
  return [lo * exaggeration, hi * exaggeration];
}
