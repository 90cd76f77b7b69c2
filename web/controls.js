// This module turns mouse, touch, wheel and keyboard input into camera pose changes: drag to orbit (grab the ground), right/shift-drag to turn and tilt, wheel or pinch to zoom, WASD/arrows to fly, Q/E turn, R/F climb, Z/X tilt, Home to reset; it stands aside while o.paused() (walk mode) says so.
import { EYE_HEIGHT_M, moveLatLonPose } from '../stream/camera.js';

/**
 * Moves a pose over the ground by metres along the view's ahead/right axes:
 * on a great circle with the heading carried along (stream/camera.js
 * moveLatLonPose), so a drag or a flight goes over a pole without a stop.
 * @param {object} pose {lat, lon, heading}
 */
export function moveOnGround(pose, aheadM, rightM, radiusM) {
  moveLatLonPose(pose, aheadM, rightM, radiusM);
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
  const c = new CameraControls(el, o);
  return {
    tick(dtMs) { return c.tick(dtMs); },
    detach() { c.detach(); },
  };
}

/** The input state (pointers down, keys held, a pinch) and one handler per kind of event. */
class CameraControls {
  constructor(el, o) {
    this.el = el;
    this.o = o;
    this.pointers = new Map();
    this.keys = new Set();
    this.pinch = null;
    const onKey = (e) => this.onKey(e);
    const onUp = (e) => this.onUp(e);
    /** [target, event type, listener, options] in the order they are added */
    this.listeners = [
      [el, 'pointerdown', (e) => this.onDown(e)],
      [el, 'pointermove', (e) => this.onMove(e)],
      [el, 'pointerup', onUp],
      [el, 'pointercancel', onUp],
      [el, 'wheel', (e) => this.onWheel(e), { passive: false }],
      [el, 'contextmenu', (e) => e.preventDefault()],
      [window, 'keydown', onKey],
      [window, 'keyup', onKey],
      [window, 'blur', () => this.keys.clear()],
    ];
    for (const [target, type, fn, options] of this.listeners) target.addEventListener(type, fn, options);
  }

  detach() {
    for (const [target, type, fn] of this.listeners) target.removeEventListener(type, fn);
  }

  paused() { return !!this.o.paused?.(); }

  /** Height of the eye above the ground, at least 1 m. */
  above() { return Math.max(1, this.o.pose().alt - this.o.groundM()); }

  zoom(factor) {
    const p = this.o.pose();
    const g = this.o.groundM();
    p.alt = g + Math.max(EYE_HEIGHT_M, this.above() * factor);
    this.o.changed();
  }

  onDown(e) {
    this.el.setPointerCapture?.(e.pointerId);
    if (this.paused()) { e.preventDefault(); return; }
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, button: e.button, shift: e.shiftKey });
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.pinch = { dist: Math.hypot(a.x - b.x, a.y - b.y), alt: this.above() };
    }
    e.preventDefault();
  }

  onMove(e) {
    const rect = this.el.getBoundingClientRect();
    this.o.hover?.(e.clientX - rect.left, e.clientY - rect.top);
    const prev = this.pointers.get(e.pointerId);
    if (!prev || this.paused()) return;
    const dx = e.clientX - prev.x, dy = e.clientY - prev.y;
    prev.x = e.clientX;
    prev.y = e.clientY;
    if (this.pointers.size >= 2 && this.pinch) this.pinchZoom();
    else this.drag(prev, dx, dy);
  }

  /** Two pointers: the altitude above the ground scales with their distance. */
  pinchZoom() {
    const [a, b] = [...this.pointers.values()];
    const d = Math.hypot(a.x - b.x, a.y - b.y);
    if (d > 0) {
      this.o.pose().alt = this.o.groundM() + Math.max(EYE_HEIGHT_M, this.pinch.alt * (this.pinch.dist / d));
      this.o.changed();
    }
  }

  /** One pointer: right button or shift turns and tilts, otherwise the ground follows it. */
  drag(prev, dx, dy) {
    const p = this.o.pose();
    if (prev.button === 2 || prev.shift) {
      p.heading -= dx * 0.25;
      p.tiltBias = (p.tiltBias || 0) - dy * 0.2;
    } else {
      // Grab the ground: one pixel moves by the ground distance it covers.
      const mpp = this.above() / this.o.pixelScale();
      moveOnGround(p, dy * mpp, -dx * mpp, this.o.radiusM());
    }
    this.o.changed();
  }

  onUp(e) {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
  }

  onWheel(e) {
    e.preventDefault();
    if (this.paused()) return;
    const dy = e.deltaMode === 1 ? e.deltaY * 33 : e.deltaY;
    this.zoom(Math.exp(Math.max(-300, Math.min(300, dy)) * 0.0015));
  }

  onKey(e) {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
    const k = e.key.toLowerCase();
    if (this.paused()) { this.keys.clear(); return; }
    if (e.type === 'keydown') {
      if (k === 'home' || k === '0') { this.o.reset(); return; }
      if (k === '+' || k === '=') { this.zoom(0.7); return; }
      if (k === '-' || k === '_') { this.zoom(1 / 0.7); return; }
      if ('wasdqerfzx'.includes(k) || k.startsWith('arrow')) { this.keys.add(k); e.preventDefault(); }
    } else {
      this.keys.delete(k);
    }
  }

  /** Applies the held keys for dtMs of flight; true if the pose moved. */
  tick(dtMs) {
    if (!this.keys.size || this.paused()) return false;
    const o = this.o, p = o.pose();
    const s = dtMs / 1000;
    const speed = this.above() * 0.8 * s; // metres per frame: cross the view in about a second
    const has = (...ks) => ks.some((k) => this.keys.has(k));
    let ahead = 0, right = 0;
    if (has('w', 'arrowup')) ahead += speed;
    if (has('s', 'arrowdown')) ahead -= speed;
    if (has('d', 'arrowright')) right += speed;
    if (has('a', 'arrowleft')) right -= speed;
    if (ahead || right) moveOnGround(p, ahead, right, o.radiusM());
    if (has('q')) p.heading -= 60 * s;
    if (has('e')) p.heading += 60 * s;
    if (has('r')) p.alt = o.groundM() + this.above() * Math.exp(1.2 * s);
    if (has('f')) p.alt = o.groundM() + Math.max(EYE_HEIGHT_M, this.above() * Math.exp(-1.2 * s));
    if (has('z')) p.tiltBias = (p.tiltBias || 0) + 30 * s;
    if (has('x')) p.tiltBias = (p.tiltBias || 0) - 30 * s;
    o.changed();
    return true;
  }
}
