// ct_dirs.mjs - This module checks and flattens the directions and points
// the World's calls take (sample, ground, raycast): one [x, y, z], or many
// as a Float64Array of 3n or an array of [x, y, z].
import { ctError } from './ct_error.mjs';

/** [x, y, z] as numbers, or CT_ERR_DIRECTION naming what. */
export function vec3(v, what) {
  if (v == null || typeof v.length !== 'number' || v.length < 3) {
    throw ctError('CT_ERR_DIRECTION', `${what} must be an array of 3 numbers`);
  }
  return [+v[0], +v[1], +v[2]];
}

/** Float64Array(3n) passes through; arrays of [x, y, z] are flattened. call names the caller in errors. */
export function flattenDirs(dirs, call) {
  if (dirs instanceof Float64Array) {
    if (dirs.length % 3) throw ctError('CT_ERR_DIRECTION', `${call}: Float64Array length must be a multiple of 3`);
    return dirs;
  }
  if (!Array.isArray(dirs)) throw ctError('CT_ERR_DIRECTION', `${call}: dirs must be a Float64Array or an array of [x, y, z]`);
  const flat = new Float64Array(3 * dirs.length);
  dirs.forEach((d, i) => flat.set(vec3(d, `direction ${i}`), 3 * i));
  return flat;
}
