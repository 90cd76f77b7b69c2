// This module turns the stride errors every mesh reply carries (worker/stride_errors.js: how far a chunk's coarser meshes lie from its full-resolution surface) into the roughness LOD selection extrapolates from, so flat tiles stay coarse and rough ones refine (no DOM, no GL).
import { ERROR_STRIDES } from '../worker/stride_errors.js';

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
