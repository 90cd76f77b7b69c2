// This module is the camera maths: an orbit pose (lat, lon, altitude, heading, tilt) to a float64 eye, a rotation-only view and a projection for camera-relative rendering, frustum planes, screen rays (no DOM, no GL).
import { scale, add, dot, sub, normalize, cross, length } from './geo.js';
import { movePose, groundPoseFromLatLon, latLonFromGroundPose } from './pose.js';

const DEG = Math.PI / 180;

/** A camera pose with defaults: the globe seen from 3.2 planet radii above lat/lon 20/10. */
export function defaultPose(radiusM) {
  return { lat: 20, lon: 10, alt: radiusM * 2.2, heading: 0, tilt: 0 };
}

/**
 * Tilt (degrees from looking straight down) chosen for an altitude: straight
 * down from space, leaning towards the horizon near the ground, so a zoom
 * ends in a landscape view instead of a map.
 */
export function autoTilt(altM) {
  const hi = 400e3, lo = 4e3;
  if (altM >= hi) return 0;
  if (altM <= lo) return 72;
  const t = Math.log(hi / altM) / Math.log(hi / lo);
  return 72 * t * t;
}

/** Eye height above the ground (metres): walk mode's eye, and the lowest the orbit camera goes. */
export const EYE_HEIGHT_M = 1.7;

/**
 * Clamps a pose into its valid ranges (in place) and returns it; alt is above
 * sea level, so the sea surface plus the eye height. A latitude past a pole
 * is the same place seen from the other side (lat 95 at lon 10 heading 0 is
 * lat 85 at lon -170 heading 180), so it folds back instead of stopping: the
 * camera crosses the poles.
 */
export function clampPose(pose, radiusM, minAltM = EYE_HEIGHT_M) {
  let lat = ((((pose.lat + 90) % 360) + 360) % 360) - 90;   // [-90, 270)
  if (lat > 90) {
    lat = 180 - lat;
    pose.lon += 180;
    pose.heading += 180;
  }
  pose.lat = lat;
  pose.lon = ((((pose.lon + 180) % 360) + 360) % 360) - 180;
  pose.alt = Math.max(minAltM, Math.min(radiusM * 12, pose.alt));
  pose.heading = ((pose.heading % 360) + 360) % 360;
  pose.tilt = Math.max(0, Math.min(85, pose.tilt));
  return pose;
}

/**
 * Moves a lat/lon pose (in place) aheadM along its heading and rightM to the
 * right over the sphere of radiusM, through the ground pose (stream/pose.js):
 * along a great circle, with the heading carried by parallel transport, so a
 * move over a pole comes down the other side facing away from it.
 * @param {{lat: number, lon: number, heading: number}} pose
 */
export function moveLatLonPose(pose, aheadM, rightM, radiusM) {
  const lat = Math.max(-90, Math.min(90, pose.lat));
  const g = movePose(groundPoseFromLatLon(lat, pose.lon, pose.heading), aheadM, rightM, radiusM);
  Object.assign(pose, latLonFromGroundPose(g));
  return pose;
}

/**
 * Everything a frame needs from a pose.
 * @param {object} pose {lat, lon, alt, heading, tilt} (degrees, metres above sea level)
 * @param {object} opt {radiusM, width, height, fovyDeg=45, groundM=0 (terrain height under the eye),
 *   hMinM, hMaxM (terrain height range for the far plane)}
 * @returns {{eye:number[], right:number[], up:number[], forward:number[], rows:number[][],
 *   view:Float32Array, proj:Float32Array, viewProj:Float64Array, near:number, far:number,
 *   fovy:number, aspect:number, pixelScale:number, width:number, height:number}}
 *   viewProj maps camera-relative world positions (world - eye) to clip space.
 */
export function computeView(pose, opt) {
  const R = opt.radiusM;
  const fovy = (opt.fovyDeg ?? 45) * DEG;
  const width = opt.width, height = opt.height;
  const aspect = width / height;
  // The ground pose's frame stays defined at the poles, where east and north
  // are not (there north is along the meridian lon, as the pose module says).
  const g = groundPoseFromLatLon(Math.max(-90, Math.min(90, pose.lat)), pose.lon, pose.heading);
  const up = g.dir, ahead = g.forward;
  const eye = scale(up, R + pose.alt);
  const t = pose.tilt * DEG;
  const forward = normalize(add(scale(up, -Math.cos(t)), scale(ahead, Math.sin(t))));
  const camUp = normalize(add(scale(up, Math.sin(t)), scale(ahead, Math.cos(t))));
  const right = normalize(cross(forward, camUp));
  const rows = [right, camUp, scale(forward, -1)];

  // Near/far from the height above the ground and the horizon distance, so
  // the 24-bit depth buffer spans only what can be seen.
  const hMin = opt.hMinM ?? -11000, hMax = opt.hMaxM ?? 9000;
  const above = Math.max(1, pose.alt - (opt.groundM ?? 0));
  const dist = R + pose.alt;
  const rOcc = Math.min(R + hMin, dist - 1);
  const rTop = R + hMax;
  const far = (Math.sqrt(Math.max(0, dist * dist - rOcc * rOcc)) + Math.sqrt(Math.max(0, rTop * rTop - rOcc * rOcc))) * 1.05 + above;
  const near = Math.max(0.5, Math.min(above * 0.35, far / 50));

  const f = 1 / Math.tan(fovy / 2);
  const proj = perspective(f, aspect, near, far);
  const view64 = new Float64Array([
    right[0], camUp[0], -forward[0], 0,
    right[1], camUp[1], -forward[1], 0,
    right[2], camUp[2], -forward[2], 0,
    0, 0, 0, 1,
  ]);
  const view = Float32Array.from(view64);
  const viewProj = mat4Mul(proj, view64);
  return {
    eye, right, up: camUp, forward, rows, view, proj: Float32Array.from(proj), viewProj,
    near, far, fovy, aspect, width, height, surfaceUp: up,
    pixelScale: height / (2 * Math.tan(fovy / 2)),
  };
}

/** Column-major perspective matrix for f = 1/tan(fovy/2). */
export function perspective(f, aspect, near, far) {
  const m = new Float64Array(16);
  m[0] = f / aspect;
  m[5] = f;
  m[10] = (far + near) / (near - far);
  m[11] = -1;
  m[14] = (2 * far * near) / (near - far);
  return m;
}

/** Column-major 4x4 product a*b. */
export function mat4Mul(a, b) {
  const o = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = s;
    }
  }
  return o;
}

/** Clip coordinates of a camera-relative point under a column-major matrix. */
export function transformPoint(m, p) {
  return [
    m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
    m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
    m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
    m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15],
  ];
}

/** Six normalised planes [a,b,c,d] (inside: a*x+b*y+c*z+d >= 0) from a column-major view-projection. */
export function frustumPlanes(m) {
  const row = (r) => [m[r], m[4 + r], m[8 + r], m[12 + r]];
  const r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
  const planes = [];
  for (const [s, rr] of [[1, r0], [-1, r0], [1, r1], [-1, r1], [1, r2], [-1, r2]]) {
    const p = [r3[0] + s * rr[0], r3[1] + s * rr[1], r3[2] + s * rr[2], r3[3] + s * rr[3]];
    const l = Math.hypot(p[0], p[1], p[2]);
    planes.push([p[0] / l, p[1] / l, p[2] / l, p[3] / l]);
  }
  return planes;
}

/** True when a sphere (camera-relative centre, radius) touches the frustum. */
export function sphereInFrustum(planes, c, r) {
  for (const p of planes) {
    if (p[0] * c[0] + p[1] * c[1] + p[2] * c[2] + p[3] < -r) return false;
  }
  return true;
}

/** World-space unit ray direction through a pixel (x right, y down, in CSS pixels of the view). */
export function screenRay(view, px, py) {
  const nx = (2 * px) / view.width - 1;
  const ny = 1 - (2 * py) / view.height;
  const t = Math.tan(view.fovy / 2);
  const v = [nx * t * view.aspect, ny * t, -1];
  const r = view.rows;
  // rows are orthonormal: the inverse rotation is the transpose.
  return normalize([
    r[0][0] * v[0] + r[1][0] * v[1] + r[2][0] * v[2],
    r[0][1] * v[0] + r[1][1] * v[1] + r[2][1] * v[2],
    r[0][2] * v[0] + r[1][2] * v[1] + r[2][2] * v[2],
  ]);
}

/** Nearest positive hit distance of a ray with a centred sphere, or null. Stable near the surface. */
export function raySphere(origin, dir, radius) {
  const b = dot(origin, dir);
  // c = |o|^2 - r^2 computed as (|o|-r)(|o|+r) to keep precision near the surface.
  const lo = length(origin);
  const c = (lo - radius) * (lo + radius);
  const disc = b * b - c;
  if (disc < 0) return null;
  const s = Math.sqrt(disc);
  // Citardauq form avoids cancellation when b is large and c small.
  const q = b > 0 ? -(b + s) : -(b - s);
  let t0 = q !== 0 ? c / q : -b - s, t1 = q;
  if (t0 > t1) [t0, t1] = [t1, t0];
  if (t0 > 0) return t0;
  if (t1 > 0) return t1;
  return null;
}

/** Pixel position of a world point, or null when it is behind the camera. */
export function projectToScreen(view, p) {
  const c = transformPoint(view.viewProj, sub(p, view.eye));
  if (c[3] <= 0) return null;
  return { x: ((c[0] / c[3] + 1) / 2) * view.width, y: ((1 - c[1] / c[3]) / 2) * view.height, depth: c[2] / c[3] };
}
