// This module turns mouse, touch, wheel and keyboard input into camera pose changes: drag to orbit (grab the ground), right/shift-drag to turn and tilt, wheel or pinch to zoom, WASD/arrows to fly, Q/E turn, R/F climb, Z/X tilt, Home to reset; it stands aside while o.paused() (walk mode) says so.
import { EYE_HEIGHT_M } from '../stream/camera.js';

const DEG = 180 / Math.PI;

/**
 * Moves a pose over the ground by metres along the view's ahead/right axes.
 * @param {object} pose {lat, lon, heading}
 */
export function moveOnGround(pose, aheadM, rightM, radiusM) {
  const h = pose.heading / DEG;
  const north = aheadM * Math.cos(h) - rightM * Math.sin(h);
  const east = aheadM * Math.sin(h) + rightM * Math.cos(h);
  pose.lat += (north / radiusM) * DEG;
  pose.lon += (east / (radiusM * Math.max(0.05, Math.cos(pose.lat / DEG)))) * DEG;
}

/**
 * Attaches input handlers to an element.
 * @param {HTMLElement} el
 * @param {object} o
 * @param {() => object} o.pose        the live pose {lat, lon, alt, heading, tiltBias}
 * @param {() => number} o.radiusM
 * @param {() => number} o.groundM     terrain height under the camera (m)
 * @param {() => number} o.pixelScale  pixels per radian-ish (height / (2 tan(fovy/2)))
 * @param {() => void} o.changed       called after every change
 * @param {() => void} o.reset
 * @param {(x:number, y:number) => void} [o.hover] pointer position for the HUD
 * @param {() => boolean} [o.paused] true while another mode (walking) owns the input
 * @returns {{tick(dtMs:number): boolean, detach(): void}} tick applies held keys; true if it moved.
 */
export function attachControls(el, o) {
  const pointers = new Map();
  const keys = new Set();
  const paused = () => !!o.paused?.();
  let pinch = null;
  const above = () => Math.max(1, o.pose().alt - o.groundM());
  const zoom = (factor) => {
    const p = o.pose();
    const g = o.groundM();
    p.alt = g + Math.max(EYE_HEIGHT_M, above() * factor);
    o.changed();
  };

  const onDown = (e) => {
    el.setPointerCapture?.(e.pointerId);
    if (paused()) { e.preventDefault(); return; }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, button: e.button, shift: e.shiftKey });
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { dist: Math.hypot(a.x - b.x, a.y - b.y), alt: above() };
    }
    e.preventDefault();
  };
  const onMove = (e) => {
    const rect = el.getBoundingClientRect();
    o.hover?.(e.clientX - rect.left, e.clientY - rect.top);
    const prev = pointers.get(e.pointerId);
    if (!prev || paused()) return;
    const dx = e.clientX - prev.x, dy = e.clientY - prev.y;
    prev.x = e.clientX;
    prev.y = e.clientY;
    const p = o.pose();
    if (pointers.size >= 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (d > 0) {
        p.alt = o.groundM() + Math.max(EYE_HEIGHT_M, pinch.alt * (pinch.dist / d));
        o.changed();
      }
      return;
    }
    if (prev.button === 2 || prev.shift) {
      p.heading -= dx * 0.25;
      p.tiltBias = (p.tiltBias || 0) - dy * 0.2;
    } else {
      // Grab the ground: one pixel moves by the ground distance it covers.
      const mpp = above() / o.pixelScale();
      moveOnGround(p, dy * mpp, -dx * mpp, o.radiusM());
    }
    o.changed();
  };
  const onUp = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
  };
  const onWheel = (e) => {
    e.preventDefault();
    if (paused()) return;
    const dy = e.deltaMode === 1 ? e.deltaY * 33 : e.deltaY;
    zoom(Math.exp(Math.max(-300, Math.min(300, dy)) * 0.0015));
  };
  const onKey = (e) => {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
    const k = e.key.toLowerCase();
    if (paused()) { keys.clear(); return; }
    if (e.type === 'keydown') {
      if (k === 'home' || k === '0') { o.reset(); return; }
      if (k === '+' || k === '=') { zoom(0.7); return; }
      if (k === '-' || k === '_') { zoom(1 / 0.7); return; }
      if ('wasdqerfzx'.includes(k) || k.startsWith('arrow')) { keys.add(k); e.preventDefault(); }
    } else {
      keys.delete(k);
    }
  };
  const onContext = (e) => e.preventDefault();
  const onBlur = () => keys.clear();

  el.addEventListener('pointerdown', onDown);
  el.addEventListener('pointermove', onMove);
  el.addEventListener('pointerup', onUp);
  el.addEventListener('pointercancel', onUp);
  el.addEventListener('wheel', onWheel, { passive: false });
  el.addEventListener('contextmenu', onContext);
  window.addEventListener('keydown', onKey);
  window.addEventListener('keyup', onKey);
  window.addEventListener('blur', onBlur);

  return {
    tick(dtMs) {
      if (!keys.size || paused()) return false;
      const p = o.pose();
      const s = dtMs / 1000;
      const speed = above() * 0.8 * s; // metres per frame: cross the view in about a second
      const has = (...ks) => ks.some((k) => keys.has(k));
      let ahead = 0, right = 0;
      if (has('w', 'arrowup')) ahead += speed;
      if (has('s', 'arrowdown')) ahead -= speed;
      if (has('d', 'arrowright')) right += speed;
      if (has('a', 'arrowleft')) right -= speed;
      if (ahead || right) moveOnGround(p, ahead, right, o.radiusM());
      if (has('q')) p.heading -= 60 * s;
      if (has('e')) p.heading += 60 * s;
      if (has('r')) p.alt = o.groundM() + above() * Math.exp(1.2 * s);
      if (has('f')) p.alt = o.groundM() + Math.max(EYE_HEIGHT_M, above() * Math.exp(-1.2 * s));
      if (has('z')) p.tiltBias = (p.tiltBias || 0) + 30 * s;
      if (has('x')) p.tiltBias = (p.tiltBias || 0) - 30 * s;
      o.changed();
      return true;
    },
    detach() {
      el.removeEventListener('pointerdown', onDown);
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerup', onUp);
      el.removeEventListener('pointercancel', onUp);
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('contextmenu', onContext);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKey);
      window.removeEventListener('blur', onBlur);
    },
  };
}
