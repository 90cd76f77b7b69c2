// This module is walk mode: a first-person camera at eye height that walks (WASD, 1.4 m/s) or runs (Shift, 6 m/s) over the ground and looks with the mouse; the pose maths is pure, the input binding small, and the page (main.js) supplies the ground height under the eye each frame.
//
// The walker is a ground pose (stream/pose.js: a direction and a forward
// tangent) moved by movePose, so it walks over the poles and across cube
// edges like anywhere else; latitude and longitude are read from it only for
// the frame (walkPose) and the address bar.
import { EYE_HEIGHT_M } from '../stream/camera.js';
import { movePose, groundPoseFromLatLon, latLonFromGroundPose } from '../stream/pose.js';
import { cross, normalize } from '../stream/geo.js';

export { EYE_HEIGHT_M };
/** Walking and running speeds (metres per second over the ground). */
export const WALK_SPEED_MS = 1.4;
export const RUN_SPEED_MS = 6;
/** Look range: tilt is degrees from straight down, so 90 is the horizon; the eye looks up to 80 above it. */
export const LOOK_TILT_RANGE = [5, 170];
/** Mouse look: degrees per pixel of drag or pointer-lock movement. */
const LOOK_DEG_PER_PX = 0.2;

/**
 * The walk option of the address bar: '1' (walk at the view's place) or '0'
 * (orbit; the same as no option). Anything else is an Error whose message
 * has the shape of the core's knob errors, for the same error banner.
 * @param {string|undefined} text
 * @returns {boolean}
 */
export function parseWalk(text) {
  if (text === undefined || text === null || text === '0') return false;
  if (text === '1') return true;
  const e = new Error(`option walk: value '${text}' is not one of 0, 1 (walk=1 walks at the view's place)`);
  e.code = 'CT_ERR_RANGE';
  throw e;
}

/**
 * A walker standing at lat/lon (degrees), facing headingDeg (clockwise from
 * north; at a pole, from north along meridian lon) and looking tiltDeg from
 * straight down: {pose: {dir, forward}, tilt}.
 */
export function walkerAt(latDeg, lonDeg, headingDeg = 0, tiltDeg = 90) {
  const [lo, hi] = LOOK_TILT_RANGE;
  const lat = Math.max(-90, Math.min(90, latDeg));
  return { pose: groundPoseFromLatLon(lat, lonDeg, headingDeg), tilt: Math.max(lo, Math.min(hi, tiltDeg)) };
}

/**
 * Pose of the eye in walk mode: on the ground plus the eye height, heading
 * and look tilt as walked; the same {lat, lon, alt, heading, tilt} as the orbit
 * camera's, so the rest of the page draws it unchanged.
 * @param {{pose: {dir: number[], forward: number[]}, tilt: number}} w
 * @param {number} groundM drawn ground height under the eye (metres)
 */
export function walkPose(w, groundM) {
  const [lo, hi] = LOOK_TILT_RANGE;
  const { lat, lon, heading } = latLonFromGroundPose(w.pose);
  return { lat, lon, alt: groundM + EYE_HEIGHT_M, heading, tilt: Math.max(lo, Math.min(hi, w.tilt)) };
}

/** Turns the walker's forward by deg clockwise seen from above (the heading's sense), in place. */
export function turnWalker(w, deg) {
  const a = (deg * Math.PI) / 180, d = w.pose.dir, f = w.pose.forward;
  const right = cross(f, d);   // forward x up, as movePose's right
  w.pose = { dir: d, forward: normalize([0, 1, 2].map((k) => f[k] * Math.cos(a) + right[k] * Math.sin(a))) };
}

/**
 * Moves a walker by held keys over dtMs (in place): W/S ahead and back, A/D
 * sideways, Q/E turn, Shift runs; diagonal steps are not faster.
 * @param {{pose: {dir: number[], forward: number[]}, tilt: number}} w
 * @param {Set<string>} keys lower-case key names held
 * @returns {boolean} true if it moved or turned
 */
export function walkStep(w, keys, dtMs, radiusM) {
  const s = Math.min(0.25, dtMs / 1000);
  let ahead = 0, right = 0;
  if (keys.has('w') || keys.has('arrowup')) ahead += 1;
  if (keys.has('s') || keys.has('arrowdown')) ahead -= 1;
  if (keys.has('d') || keys.has('arrowright')) right += 1;
  if (keys.has('a') || keys.has('arrowleft')) right -= 1;
  let turned = false;
  if (keys.has('q')) { turnWalker(w, -60 * s); turned = true; }
  if (keys.has('e')) { turnWalker(w, 60 * s); turned = true; }
  const len = Math.hypot(ahead, right);
  if (!len) return turned;
  const step = ((keys.has('shift') ? RUN_SPEED_MS : WALK_SPEED_MS) * s) / len;
  w.pose = movePose(w.pose, ahead * step, right * step, radiusM);
  return true;
}

/** Turns the walker's look by a pointer movement in pixels (right and down positive). */
export function walkLook(w, dx, dy) {
  const [lo, hi] = LOOK_TILT_RANGE;
  if (dx) turnWalker(w, dx * LOOK_DEG_PER_PX);
  w.tilt = Math.max(lo, Math.min(hi, w.tilt - dy * LOOK_DEG_PER_PX));
}

/**
 * Binds walk input to the canvas while walk mode is on: held keys for
 * walkStep, drag (or pointer-lock movement after a click) to look, Escape or
 * F (the toggle key, handled by the page) to leave.
 * @param {HTMLElement} el
 * @param {{active(): boolean, walker(): object, changed(): void}} o
 * @returns {{keys: Set<string>, detach(): void}}
 */
export function attachWalkInput(el, o) {
  const keys = new Set();
  let drag = null;
  const onKey = (e) => {
    if (!o.active() || (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName))) return;
    const k = e.key.toLowerCase();
    if (e.type === 'keydown') {
      if ('wasdqe'.includes(k) || k.startsWith('arrow') || k === 'shift') { keys.add(k); e.preventDefault(); }
    } else {
      keys.delete(k);
    }
    if (k !== 'shift') {
      if (e.shiftKey) keys.add('shift');
      else keys.delete('shift');
    }
  };
  const onDown = (e) => { if (o.active()) drag = { x: e.clientX, y: e.clientY }; };
  const onMove = (e) => {
    if (!o.active()) return;
    const locked = document.pointerLockElement === el;
    if (!locked && !drag) return;
    const dx = locked ? e.movementX : e.clientX - drag.x, dy = locked ? e.movementY : e.clientY - drag.y;
    if (drag) drag = { x: e.clientX, y: e.clientY };
    walkLook(o.walker(), dx, dy);
    o.changed();
  };
  const onUp = () => { drag = null; };
  const onBlur = () => keys.clear();
  window.addEventListener('keydown', onKey);
  window.addEventListener('keyup', onKey);
  window.addEventListener('blur', onBlur);
  el.addEventListener('pointerdown', onDown);
  el.addEventListener('pointermove', onMove);
  window.addEventListener('pointerup', onUp);
  return {
    keys,
    detach() {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKey);
      window.removeEventListener('blur', onBlur);
      el.removeEventListener('pointerdown', onDown);
      el.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
    },
  };
}
