// This module measures how far a chunk's coarser meshes lie from its full-resolution surface (the geometric error of each mesh stride), from the relief map's heights, so LOD selection can keep flat tiles coarse and refine rough ones (no DOM, no GL).
import { RELIEF_EDGE } from '../worker/relief.js';

/** Mesh strides whose error is measured (stride 1 is the full-resolution surface: error 0). */
export const ERROR_STRIDES = [2, 4, 8];

/**
 * Geometric error of each stride of one chunk, in drawn metres: the largest
 * distance between a full-resolution sample and the bilinear surface through
 * the stride's vertices. The drawn surface is used: heights below sea level
 * count as 0 m (the page lays the sea at 0 m), times the exaggeration.
 * Bilinear is not the core's two-triangle split, but the two differ by less
 * than the error they are measured against.
 * @param {Float32Array} relief 257 x 257 x 4 floats (worker/relief.js; w = real height in metres)
 * @param {number} [exaggeration=1]
 * @returns {{1: number, 2: number, 4: number, 8: number}} metres per stride
 */
export function strideErrorsM(relief, exaggeration = 1) {
  const E = RELIEF_EDGE;
  const h = new Float32Array(E * E);
  for (let i = 0; i < E * E; i++) h[i] = Math.max(0, relief[4 * i + 3]) * exaggeration;
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
 * Roughness of a chunk: geometric error per metre of vertex spacing, the
 * largest over the measured strides. A descendant without data of its own
 * guesses its error as roughness x its vertex spacing (terrain detail shrinks
 * roughly with the scale it is looked at).
 * @param {{[stride: number]: number}} errors from strideErrorsM
 * @param {number} spacingM sample spacing of the chunk
 */
export function roughness(errors, spacingM) {
  let k = 0;
  for (const s of ERROR_STRIDES) k = Math.max(k, errors[s] / (s * spacingM));
  return k;
}

/**
 * Drawn height range [lo, hi] (metres) that bounds a chunk and everything
 * finer below it: its full-resolution samples (sea at 0 m, times the
 * exaggeration), widened by half a sample spacing of relief per side for
 * detail between the samples (a 45-degree slope across half a cell). LOD
 * selection measures refinement distances to it; culling never uses it.
 * @param {Float32Array} relief 257 x 257 x 4 floats (w = real height in metres)
 * @param {number} spacingM sample spacing of the chunk
 * @param {number} [exaggeration=1]
 */
export function heightRangeM(relief, spacingM, exaggeration = 1) {
  let lo = Infinity, hi = -Infinity;
  for (let i = 3; i < relief.length; i += 4) {
    const h = relief[i] > 0 ? relief[i] : 0;
    if (h < lo) lo = h;
    if (h > hi) hi = h;
  }
  const m = 0.5 * spacingM * exaggeration;
  return [lo * exaggeration - m, hi * exaggeration + m];
}
