// This module is the example's walk mode: it loads Rapier when first asked
// (4 MB of inlined WebAssembly the orbit view never needs), runs the Walker
// (walk.js) each frame from the keys held, puts the camera's pose at the
// character's eyes (first person) or behind it (third person, drawing the
// character: character.js), and drops a marker where a click's terrain
// raycast hits the ground the walker holds. Trees and rocks round the
// character are drawn (scatter_layer.js) and block it (scatter_colliders.js).
// Markers are float64 points
// placed relative to the eye each frame, like the tiles.
import * as THREE from 'three';
import { dirToLatLon, latLonToDir, screenRay } from 'cubesphere-terrain/stream';
import { Walker, EYE_M } from './walk.js';
import { CharacterMesh, thirdPersonPose } from './character.js';
import { ScatterLayer } from './scatter_layer.js';
import { ScatterColliders } from './scatter_colliders.js';

const WALK_MPS = 5, RUN_MPS = 12, TURN_DEG_PER_PX = 0.25, TILT_DEG = 80;

let rapier = null;
/** @dimforge/rapier3d-compat through the page's import map, initialised once. */
async function loadRapier() {
  if (!rapier) {
    rapier = import('@dimforge/rapier3d-compat').then(async (m) => { const R = m.default ?? m; await R.init(); return R; });
  }
  return rapier;
}

export class WalkMode {
  constructor(scene, hud) {
    this.scene = scene;
    this.hud0 = hud;
    this.walker = null;
    this.keys = new Set();
    this.tilt = TILT_DEG;
    this.last = 0;
    this.markers = [];   // {mesh, point}
    this.markerGeometry = new THREE.SphereGeometry(0.6, 16, 8);
    this.markerMaterial = new THREE.MeshBasicMaterial({ color: 0xff3020 });
    this.lastClick = null;
    this.view = 'first';   // or 'third'
    this.character = new CharacterMesh(scene);
    this.jumping = null;   // a jump() promise's watch: {standM, topM, jumped, left, resolve}
    this.scatter = new ScatterLayer(scene);
    this.obstacles = new ScatterColliders();
  }

  get active() { return this.walker !== null; }

  /** Starts on the ground at lat/lon; resolves once the character stands there. */
  async start(state, lat, lon, headingDeg = 0) {
    if (typeof state.pool.collider !== 'function') throw new Error('walk: this worker pool has no collider()');
    const RAPIER = await loadRapier();
    this.walker = new Walker({ RAPIER, pool: state.pool, radiusM: state.radiusM, surfaceLod: state.surfaceLod, dir: latLonToDir(lat, lon) });
    this.walker.heading = headingDeg;
    this.tilt = TILT_DEG;
    this.last = performance.now();
    return new Promise((resolve, reject) => {
      const poll = () => {
        if (!this.walker) reject(new Error('walk: stopped'));
        else if (this.walker.errors.length) reject(new Error(`walk: ${this.walker.errors[0]}`));
        else if (this.walker.p && this.walker.grounded) resolve(this.stats());
        else setTimeout(poll, 50);
      };
      poll();
    });
  }

  stop(state) {
    if (!this.walker) return;
    this.jumping?.resolve(null);
    state.pose.alt = Math.max(state.pose.alt, state.groundM + 50);   // the orbit camera starts a little above
    state.pose.tilt = 72;
    this.walker.dispose();
    this.walker = null;
    this.scatter.clear();
    this.obstacles.clear();
  }

  key(code, down) {
    if (down) this.keys.add(code); else this.keys.delete(code);
    if (down && code === 'Space' && this.walker) this.walker.jump();
    if (down && code === 'KeyV') this.setView(this.view === 'first' ? 'third' : 'first');
  }

  /** 'first' (from the eyes) or 'third' (behind and above, the character drawn). */
  setView(view) {
    if (view !== 'first' && view !== 'third') throw new Error(`walk: view must be 'first' or 'third', not '${view}'`);
    this.view = view;
  }

  /**
   * Jumps (as soon as the character stands) and resolves once it has left
   * the ground and landed again: {standM, topM, landed: stats}, the feet's
   * heights before and at the top; rejects after hangMs.
   */
  jump(hangMs = 10000) {
    if (!this.walker) return Promise.reject(new Error('jump: not walking'));
    if (this.jumping) return Promise.reject(new Error('jump: already jumping'));
    return new Promise((resolve, reject) => {
      const standM = this.walker.eye().heightM;
      const timer = setTimeout(() => { this.jumping = null; reject(new Error(`jump: not landed after ${hangMs} ms`)); }, hangMs);
      this.jumping = { standM, topM: standM, jumped: false, left: false,
        resolve: (v) => { clearTimeout(timer); this.jumping = null; resolve(v); } };
    });
  }

  /** After a step: the jump watch's top, and its end on landing. */
  _watchJump() {
    const j = this.jumping, w = this.walker;
    if (!j || !j.jumped) return;
    j.topM = Math.max(j.topM, w.eye().heightM);
    if (!w.grounded) j.left = true;
    else if (j.left) j.resolve({ standM: j.standM, topM: j.topM, landed: this.stats() });
  }

  turn(dx, dy) {
    if (!this.walker) return;
    this.walker.heading = (this.walker.heading + dx * TURN_DEG_PER_PX + 360) % 360;
    this.tilt = Math.max(20, Math.min(85, this.tilt - dy * TURN_DEG_PER_PX));
  }

  /** One frame: move from the keys held, then the camera's pose at the eyes. */
  frame(now, state) {
    const dt = Math.min(0.1, (now - this.last) / 1000);
    this.last = now;
    const k = this.keys, speed = k.has('ShiftLeft') || k.has('ShiftRight') ? RUN_MPS : WALK_MPS;
    const fwd = ((k.has('KeyW') || k.has('ArrowUp')) - (k.has('KeyS') || k.has('ArrowDown'))) * speed;
    const right = (k.has('KeyD') - k.has('KeyA')) * speed;
    if (k.has('ArrowLeft')) this.walker.heading -= 90 * dt;
    if (k.has('ArrowRight')) this.walker.heading += 90 * dt;
    if (this.jumping && !this.jumping.jumped) this.jumping.jumped = this.walker.jump();
    this._scatter(state);
    if (dt > 0) this.walker.step(dt, fwd, right);
    this._watchJump();
    if (this.view === 'third' && this.walker.p) {
      const t = thirdPersonPose(this.walker, state.radiusM);
      state.groundM = t.groundM;
      state.pose = t.pose;
      return;
    }
    const e = this.walker.eye(), ll = dirToLatLon(e.dir);
    state.groundM = e.heightM;
    state.pose = { lat: ll.lat, lon: ll.lon, alt: e.heightM + EYE_M, heading: (this.walker.heading + 360) % 360, tilt: this.tilt };
  }

  /** The scatter round the character (drawn) and the colliders of the trees and rocks near it. */
  _scatter(state) {
    if (typeof state.pool.scatter !== 'function') return;
    this.scatter.update(state.pool, state.radiusM, state.surfaceLod, this.walker.dir);
    this.obstacles.update(this.walker, this.scatter);
  }

  /**
   * Steps the walker seconds ahead at forwardMps along its heading, in
   * 1/60 s steps without drawing (tests: a walk that does not hang on the
   * frame rate); returns walk stats and the character's direction after
   * each step (`trace`).
   */
  advance(state, seconds, forwardMps) {
    const trace = [];
    for (let t = 0; t < seconds; t += 1 / 60) {
      this._scatter(state);
      this.walker.step(1 / 60, forwardMps, 0);
      trace.push(this.walker.dir.slice());
    }
    return { ...this.stats(), trace };
  }

  /** A click at device pixel (px, py): a marker where the ray meets the held ground. */
  click(view, px, py) {
    if (!this.walker) { this.lastClick = { hit: false, why: 'not walking (G walks)' }; return; }
    const ray = screenRay(view, px, py), hit = this.walker.raycast(view.eye, ray, 20000);
    this.lastClick = hit ? { hit: true, point: hit.point, distanceM: hit.distanceM, origin: view.eye.slice(), dir: ray }
      : { hit: false, why: 'no collider there yet' };
    if (!hit) return;
    const mesh = new THREE.Mesh(this.markerGeometry, this.markerMaterial);
    mesh.frustumCulled = false;
    this.scene.add(mesh);
    this.markers.push({ mesh, point: hit.point });
  }

  /** Markers relative to the eye (float64 subtraction). */
  show(eye) {
    this.character.show(this.walker, eye, this.view === 'third');
    this.scatter.show(eye, this.active);
    for (const m of this.markers) m.mesh.position.set(m.point[0] - eye[0], m.point[1] - eye[1], m.point[2] - eye[2]);
  }

  hud() {
    if (!this.walker) return '';
    const s = this.walker.stats();
    return `\nwalking: ${s.placed ? `feet ${s.heightM.toFixed(1)} m${s.grounded ? '' : ' (in the air)'}` : 'waiting for ground'}  ` +
      `colliders ${s.colliders} (${s.ground.triangles} triangles)  markers ${this.markers.length}` +
      `  scatter ${this.scatter.drawn} drawn, ${this.obstacles.held.size} solid` +
      (this.lastClick && !this.lastClick.hit ? `  click: ${this.lastClick.why}` : '');
  }

  stats() {
    return this.walker ? { active: true, ...this.walker.stats(), heading: this.walker.heading, view: this.view, markers: this.markers.length,
      lastClick: this.lastClick, scatter: { ...this.scatter.stats(), obstacles: this.obstacles.list() } } : { active: false, markers: this.markers.length, lastClick: this.lastClick };
  }
}
