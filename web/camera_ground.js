// This module holds the rules for the ground under the camera (no DOM, no GL): what a sampled ground height changes (the orbit camera takes it as its ground, kept above it, its tilt re-based, while walk mode owns the ground itself), and the orbit camera's pose for a frame over the drawn mesh.
import { autoTilt, clampPose, EYE_HEIGHT_M } from '../stream/camera.js';

/** Changes under 1 drawn metre are not worth a redraw. */
const GROUND_REDRAW_M = 1;

/**
 * Applies the ground height sampled under the camera (realM, metres of the
 * world) to cam {pose, groundM, groundRealM}. Walk mode owns groundM: the page
 * writes the eye's ground (the higher of the core's and the drawn mesh's) into
 * it every frame, so here the sample is only kept (the walk's fallback when
 * the page has no world of its own). Writing it as well made the two alternate
 * wherever the coarse mesh stood more than a metre off the core, and each
 * sample (a few a second) flagged a redraw: a whole frame in software GL, 2 s
 * at eye height, so a walk stalled for 20-30 s while its tiles streamed.
 * @returns {boolean} true when the picture must be redrawn
 */
export function applyGroundSample(cam, realM, { exaggeration, walking }) {
  cam.groundRealM = realM;
  if (walking) return false;
  const g = realM * exaggeration;
  let redraw = false;
  if (Math.abs(g - cam.groundM) > GROUND_REDRAW_M) { cam.groundM = g; redraw = true; }
  if (cam.pose.alt < g + EYE_HEIGHT_M) cam.pose.alt = g + EYE_HEIGHT_M;
  if (cam.pose.tiltTarget !== undefined) {
    cam.pose.tiltBias = cam.pose.tiltTarget - autoTilt(cam.pose.alt - g);
    delete cam.pose.tiltTarget;
  }
  return redraw;
}

/**
 * The orbit camera's pose for one frame: the asked pose, its tilt from the
 * height above the ground, and its eye lifted to eye height over the mesh
 * drawn under it (meshM, drawn metres; null when none). The lift is for this
 * frame only: written back into the pose, a coarse tile drawn for a moment
 * after a jump (hundreds of metres over a mountain valley) kept the camera
 * up there after the fine tiles came, far over the height asked for.
 * @param {{lat: number, lon: number, alt: number, heading: number, tiltBias?: number}} pose the asked pose (not changed)
 * @param {{groundM: number, meshM: number|null, radiusM: number}} o
 */
export function orbitFramePose(pose, { groundM, meshM, radiusM }) {
  const alt = meshM === null || meshM === undefined ? pose.alt : Math.max(pose.alt, meshM + EYE_HEIGHT_M);
  const tilt = autoTilt(pose.alt - groundM) + (pose.tiltBias || 0);
  return clampPose({ lat: pose.lat, lon: pose.lon, alt, heading: pose.heading, tilt }, radiusM);
}
