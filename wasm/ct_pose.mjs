// ct_pose.mjs - This module binds the core's ground pose (ct_pose_move,
// ct_pose_heading_in_key, ct_pose_from_key_heading) as methods of the loaded
// Core: core.movePose, core.headingInKey, core.poseFromKeyHeading. They are
// the C twins of stream/pose.js (same conventions, agreeing to 1e-12), for
// code that wants the core's answer, and for the parity tests.
import { ctError } from './ct_error.mjs';
import { parseKey } from './ct_key.mjs';

/** Writes a pose {dir, forward} as 6 doubles at ptr (the checks on their values are the core's). */
function writePose(heap, pose, ptr) {
  if (pose === null || typeof pose !== 'object') throw ctError('CT_ERR_NULL', 'pose must be an object {dir, forward}');
  const f = heap.f64(), i = ptr / 8;
  for (const [name, v, at] of [['dir', pose.dir, 0], ['forward', pose.forward, 3]]) {
    if (v == null || typeof v.length !== 'number' || v.length !== 3) {
      throw ctError('CT_ERR_DIRECTION', `pose ${name} must be an array of 3 numbers`);
    }
    for (let k = 0; k < 3; k++) f[i + at + k] = +v[k];
  }
  return ptr;
}

function readPose(heap, ptr) {
  const f = heap.f64(), i = ptr / 8;
  return { dir: [f[i], f[i + 1], f[i + 2]], forward: [f[i + 3], f[i + 4], f[i + 5]] };
}

/** Methods for Core.prototype; `this` is the Core. */
export const POSE_METHODS = {
  /**
   * ct_pose_move: forwardM ahead and rightM right over the sphere of radiusM, by parallel transport.
   * @returns {{dir: number[], forward: number[]}}
   */
  movePose(pose, forwardM, rightM, radiusM) {
    const { heap } = this, p = writePose(heap, pose, heap.slot(1)), out = heap.slot(2);
    heap.check(heap.x.ctw_pose_move(p, +forwardM, +rightM, +radiusM, out, ...heap.errArgs()));
    return readPose(heap, out);
  },

  /** ct_pose_heading_in_key: radians counter-clockwise from the key's local +x. @returns {number} */
  headingInKey(pose, key) {
    const { heap } = this, p = writePose(heap, pose, heap.slot(1)), k = parseKey(key), out = heap.slot(2);
    heap.check(heap.x.ctw_pose_heading_in_key(p, k.face, k.lod, k.x, k.y, out, ...heap.errArgs()));
    return heap.f64()[out / 8];
  },

  /** ct_pose_from_key_heading: the pose at a key position heading angle from local +x. */
  poseFromKeyHeading(key, localX, localY, angle) {
    const { heap } = this, k = parseKey(key), out = heap.slot(2);
    heap.check(heap.x.ctw_pose_from_key_heading(k.face, k.lod, k.x, k.y, +localX, +localY, +angle, out, ...heap.errArgs()));
    return readPose(heap, out);
  },
};
