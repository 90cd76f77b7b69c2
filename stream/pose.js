// This module is the ground pose: a body-fixed unit direction from the planet's centre plus a unit forward tangent, moved over the sphere by parallel transport and read in (or made from) a chunk's local axes; conversions to and from the orbit camera's lat/lon Pose (no DOM, no GL).
//
// No latitude or longitude is used to move it, so it walks over both poles
// and across every cube edge and corner like any other ground. The C core has
// the same functions (ct_pose_move, ct_pose_heading_in_key,
// ct_pose_from_key_heading in core/src/base/pose.c), written as the same
// operations in the same order; tests/js/pose_parity.test.mjs holds them to
// 1e-12. Conventions: up is dir; right is forward x up, so (right, forward,
// up) is right-handed seen from above; angles in radians are counter-clockwise
// seen from above. An altitude, where one is needed, travels beside the pose.
import { ctError } from '../wasm/ct_error.mjs';
import { parseKey } from '../wasm/ct_key.mjs';
import { FACE_NAMES, dot, cross, normalize, sub, faceUvToDir, keyDirection, latLonToDir } from './geo.js';

/** How far a pose may be off unit length or off tangent (CT_POSE_TOLERANCE); within it, it is made exact. */
export const POSE_TOLERANCE = 1e-6;
/** A key reads a pose only where its face's extended plane reaches the point (dir . normal above this). */
const FACE_MIN = 1e-9;
const DEG = Math.PI / 180;

/**
 * Each face's local +x axis (the face transform's u axis) and normal, read
 * from geo.js's one face table: the cube points at u = +1 and -1 differ by
 * twice the u axis, and both normalise by the same length, so the difference
 * normalises to the axis exactly.
 */
const FACE_U = [0, 1, 2, 3, 4, 5].map((f) => normalize(sub(faceUvToDir(f, 1, 0), faceUvToDir(f, -1, 0))));
const FACE_NORMAL = [0, 1, 2, 3, 4, 5].map((f) => faceUvToDir(f, 0, 0));

function checkVec(v, name) {
  if (v == null || typeof v.length !== 'number' || v.length !== 3) {
    throw ctError('CT_ERR_DIRECTION', `pose ${name} must be an array of 3 numbers`);
  }
  if (![0, 1, 2].every((k) => typeof v[k] === 'number' && Number.isFinite(v[k]))) {
    throw ctError('CT_ERR_DIRECTION', `pose ${name} has a NaN or infinite component`);
  }
  if (v[0] === 0 && v[1] === 0 && v[2] === 0) throw ctError('CT_ERR_DIRECTION', `pose ${name} is the zero vector`);
  const len = Math.sqrt(dot(v, v));
  if (Math.abs(len - 1) > POSE_TOLERANCE) {
    throw ctError('CT_ERR_DIRECTION', `pose ${name} is not unit length (|${name}| = ${len})`);
  }
}

/**
 * Checks a pose and returns its exact orthonormal form {d, f}: small drift
 * from a caller's arithmetic is forgiven here rather than let grow.
 */
function cleanPose(pose) {
  if (pose === null || typeof pose !== 'object') throw ctError('CT_ERR_NULL', 'pose must be an object {dir, forward}');
  checkVec(pose.dir, 'dir');
  checkVec(pose.forward, 'forward');
  const along = dot(pose.dir, pose.forward);
  if (Math.abs(along) > POSE_TOLERANCE) {
    throw ctError('CT_ERR_DIRECTION', `pose forward is not tangent to dir (dir . forward = ${along})`);
  }
  const d = normalize(pose.dir);
  const a = dot(d, pose.forward);
  const f = normalize([pose.forward[0] - d[0] * a, pose.forward[1] - d[1] * a, pose.forward[2] - d[2] * a]);
  return { d, f };
}

/** Rotates v about the unit axis n by the angle of cosine c, sine s (Rodrigues), as ct__pose_rotate. */
function rotate(n, c, s, v) {
  const nv = cross(n, v), along = dot(n, v);
  return [0, 1, 2].map((k) => v[k] * c + nv[k] * s + n[k] * (along * (1 - c)));
}

/** dir normalised, forward made tangent to it and normalised. */
function orthonormal(d, f) {
  const dir = normalize(d), a = dot(dir, f);
  return { dir, forward: normalize([f[0] - dir[0] * a, f[1] - dir[1] * a, f[2] - dir[2] * a]) };
}

/**
 * Moves a ground pose forwardM ahead and rightM to the right over the sphere
 * of radiusM (the world's radius_m), along the great circle of the combined
 * displacement, carrying the heading by parallel transport. Valid across
 * every cube edge, corner and both poles.
 * @param {{dir: ArrayLike<number>, forward: ArrayLike<number>}} pose
 * @param {number} forwardM
 * @param {number} rightM
 * @param {number} radiusM
 * @returns {{dir: number[], forward: number[]}} a new pose
 */
export function movePose(pose, forwardM, rightM, radiusM) {
  const { d, f } = cleanPose(pose);
  if (typeof radiusM !== 'number' || !Number.isFinite(radiusM) || radiusM <= 0) {
    throw ctError('CT_ERR_CONFIG', 'radius_m must be a positive finite number');
  }
  if (typeof forwardM !== 'number' || typeof rightM !== 'number' || !Number.isFinite(forwardM) || !Number.isFinite(rightM)) {
    throw ctError('CT_ERR_LOCAL', 'forward_m and right_m must be finite');
  }
  const right = cross(f, d);   // forward x up: right-handed seen from above
  let t = [0, 1, 2].map((k) => f[k] * forwardM + right[k] * rightM);
  const len = Math.sqrt(dot(t, t));
  if (!Number.isFinite(len)) throw ctError('CT_ERR_LOCAL', `move of (${forwardM}, ${rightM}) m is too long`);
  if (len === 0) return { dir: d, forward: f };
  t = [t[0] / len, t[1] / len, t[2] / len];
  // The great circle through d along t turns about n = d x t; d and forward
  // both turn by the arc angle, which is parallel transport along it.
  const n = cross(d, t), c = Math.cos(len / radiusM), s = Math.sin(len / radiusM);
  return orthonormal(rotate(n, c, s, d), rotate(n, c, s, f));
}

/** The key (validated) and its face's u axis, after checking that the face's plane reaches d. */
function faceAxis(key, d) {
  const k = parseKey(key), normal = FACE_NORMAL[k.face], facing = dot(d, normal);
  if (!(facing > FACE_MIN)) {
    throw ctError('CT_ERR_LOCAL', `pose is not on face ${FACE_NAMES[k.face]}'s side of the planet (dir . face normal = ${facing})`);
  }
  return { k, du: FACE_U[k.face] };
}

/**
 * The heading in radians, in [-pi, pi], counter-clockwise seen from above,
 * from the key's local +x axis at the pose's point: the tangent part of
 * d(position)/d(localX), measured from +x alone (near cube corners a chunk's
 * x and y axes are not perpendicular). The key may be the owner of the point
 * or a neighbour across an edge: any key whose face's plane reaches it.
 * @param {{dir: ArrayLike<number>, forward: ArrayLike<number>}} pose
 * @param {{face: number|string, lod: number, x: number, y: number}|string} key
 * @returns {number}
 */
export function headingInKey(pose, key) {
  const { d, f } = cleanPose(pose);
  const { du } = faceAxis(key, d);
  // +x at d is du's tangent part, du - d (d . du); forward is tangent, so its
  // dot products with that and with d x (that) are those with du and d x du.
  return Math.atan2(dot(f, cross(d, du)), dot(f, du));
}

/**
 * The inverse of headingInKey: the pose at (localX, localY) of key (its
 * keyDirection point, which may lie beyond the chunk) heading angle radians
 * counter-clockwise from its local +x axis.
 * @returns {{dir: number[], forward: number[]}}
 */
export function poseFromKeyHeading(key, localX, localY, angle) {
  const k = parseKey(key);
  if (typeof localX !== 'number' || typeof localY !== 'number' || !Number.isFinite(localX) || !Number.isFinite(localY)) {
    throw ctError('CT_ERR_LOCAL', 'local position must be finite');
  }
  if (typeof angle !== 'number' || !Number.isFinite(angle)) throw ctError('CT_ERR_DIRECTION', 'heading angle must be finite');
  const d = keyDirection(k, localX, localY);
  if (!d.every(Number.isFinite)) throw ctError('CT_ERR_LOCAL', 'local position is too large');
  const { du } = faceAxis(k, d);
  const a = dot(d, du);
  const x = normalize([du[0] - d[0] * a, du[1] - d[1] * a, du[2] - d[2] * a]);
  const side = cross(d, x);   // +x turned a quarter counter-clockwise seen from above
  const c = Math.cos(angle), s = Math.sin(angle);
  return { dir: d, forward: normalize([0, 1, 2].map((i) => x[i] * c + side[i] * s)) };
}

/**
 * East and north at lat/lon along the meridian lon, written out so that they
 * stay defined at the poles (there, north is the meridian's direction past
 * the pole); away from the poles they are enuFrame's.
 */
function meridianFrame(latDeg, lonDeg) {
  const la = latDeg * DEG, lo = lonDeg * DEG;
  const sla = Math.sin(la), cla = Math.cos(la), slo = Math.sin(lo), clo = Math.cos(lo);
  return { east: [-slo, 0, -clo], north: [-sla * clo, cla, sla * slo] };
}

function checkDegrees(v, name) {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw ctError('CT_ERR_DIRECTION', `${name} must be a finite number of degrees`);
}

/**
 * The ground pose at latitude/longitude (degrees, latLonToDir's convention)
 * facing headingDeg clockwise from north (the orbit Pose's heading: 0 north,
 * 90 east). At a pole, north is taken along the meridian lon: the way a
 * walker coming up that meridian would keep going.
 * @returns {{dir: number[], forward: number[]}}
 */
export function groundPoseFromLatLon(latDeg, lonDeg, headingDeg) {
  checkDegrees(latDeg, 'latitude');
  checkDegrees(lonDeg, 'longitude');
  checkDegrees(headingDeg, 'heading');
  if (latDeg < -90 || latDeg > 90) throw ctError('CT_ERR_DIRECTION', `latitude ${latDeg} is outside [-90, 90]`);
  const { east, north } = meridianFrame(latDeg, lonDeg);
  const h = headingDeg * DEG, c = Math.cos(h), s = Math.sin(h);
  return orthonormal(latLonToDir(latDeg, lonDeg), [0, 1, 2].map((k) => north[k] * c + east[k] * s));
}

/**
 * The orbit camera's lat, lon and heading of a ground pose: lat in [-90, 90],
 * lon in (-180, 180], heading in [0, 360) degrees clockwise from north. Exactly
 * at a pole, where longitude and north are undefined, lon is 0 and the
 * heading is measured from meridian 0's north (the -X axis at the north pole,
 * +X at the south), so groundPoseFromLatLon gives the pose back.
 * @returns {{lat: number, lon: number, heading: number}}
 */
export function latLonFromGroundPose(pose) {
  const { d, f } = cleanPose(pose);
  const across = Math.hypot(d[0], d[2]);
  // atan2 keeps full precision near the poles, where asin(y) loses half the digits.
  const lat = Math.atan2(d[1], across) / DEG;
  let lon = across === 0 ? 0 : Math.atan2(-d[2], d[0]) / DEG;
  if (lon === -180) lon = 180;
  lon += 0;   // no -0
  const { east, north } = meridianFrame(lat, lon);
  let heading = Math.atan2(dot(f, east), dot(f, north)) / DEG;
  if (heading < 0) heading += 360;
  if (heading >= 360) heading -= 360;
  return { lat, lon, heading };
}
