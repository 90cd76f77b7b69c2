// This module turns the stride errors every mesh reply carries (worker/maps/stride_errors.js: how far a chunk's coarser meshes lie from its full-resolution surface) into the roughness LOD selection extrapolates from, so flat tiles stay coarse and rough ones refine (no DOM, no GL).
import { ERROR_STRIDES } from '../worker/maps/stride_errors.js';

export { ERROR_STRIDES };

/**
 * Roughness of a chunk: geometric error per metre of vertex spacing, the
 * largest over the measured strides. A descendant without data of its own
 * guesses its error as roughness x its vertex spacing (terrain detail shrinks
 * roughly with the scale it is looked at).
 * @param {{[stride: number]: number}} errors a mesh reply's strideErrorsM
 * @param {number} spacingM sample spacing of the chunk
 */
export function roughness(errors, spacingM) {
  let k = 0;
  for (const s of ERROR_STRIDES) k = Math.max(k, errors[s] / (s * spacingM));
  return k;
}

/**
 * Height range [lo, hi] (drawn metres) that bounds a chunk and everything
 * finer below it: a mesh reply's heightRangeM (its samples, sea at 0 m, times
 * the exaggeration) widened by half a sample spacing of relief per side for
 * detail between the samples (a 45-degree slope across half a cell). LOD
 * selection measures refinement distances to it; culling never uses it.
 * @param {[number, number]} drawnM the mesh reply's heightRangeM
 * @param {number} spacingM sample spacing of the chunk
 * @param {number} [exaggeration=1]
 */
export function heightRangeM(drawnM, spacingM, exaggeration = 1) {
  const m = 0.5 * spacingM * exaggeration;
  return [drawnM[0] - m, drawnM[1] + m];
}
