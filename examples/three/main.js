// This module is the three.js example page: a worker pool builds the world,
// the package's TileStreamer (the same LOD selection, request scheduling and
// mesh preparation as the WebGL2 demo) picks chunk meshes for the view, and
// three.js draws them camera-relative. Drag to orbit, wheel to go from space
// down to eye height (1.7 m over the core's ground under the camera). G (or
// ctThree.walk) puts a Rapier character on the ground under the camera: WASD
// or the arrows walk, Space jumps, dragging turns, V switches between first
// and third person, a click drops a marker where the terrain raycast hits;
// G again goes back to orbiting. The sun casts the terrain's shadows
// (sun_shadow.js; #shadows=0 turns them off).
// window.ctThree exposes ready/stats/goTo/walk/view/jump for tests.
import * as THREE from 'three';
import { createPool } from 'cubesphere-terrain/worker';
import { TileStreamer, computeView, clampPose, defaultPose, autoTilt, latLonToDir } from 'cubesphere-terrain/stream';
import { ThreeTiles } from './three_tiles.js';
import { WalkMode } from './walk_mode.js';
import { SunShadow } from './sun_shadow.js';

const hash = new URLSearchParams(location.hash.slice(1));
const spec = { preset: hash.get('preset') || 'balanced',
  set: { seed: Number(hash.get('seed') || 42), surface_lod: Number(hash.get('surface_lod') || 5) } };

const canvas = document.createElement('canvas');
document.body.prepend(canvas);
const hud = document.getElementById('hud');
// Logarithmic depth: eye height over ground with a horizon kilometres away
// needs more than a 24-bit hyperbolic depth buffer gives (the demo does the same).
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true, logarithmicDepthBuffer: true });
/** The lowest the camera goes: a standing person's eyes above the ground (metres). */
const EYE_M = 1.7;
renderer.setPixelRatio(Math.min(2, devicePixelRatio));
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x000000);
// Near the ground the background is a sky colour, fading to black by SKY_TOP_M
// above it: a flat colour, no atmosphere, but the horizon reads at eye height.
const SKY = new THREE.Color(0x8fb4dc), SKY_TOP_M = 60000;
const camera = new THREE.PerspectiveCamera();   // at the origin: the world moves, not the camera
// The sun, fixed in the world's frame (#sun=LAT,LON: the sub-solar point, as on
// the demo page); its shadow box follows the view.
const sunAt = (hash.get('sun') || '').split(',').map(Number);
const sun = new SunShadow(renderer, scene, { on: hash.get('shadows') !== '0',
  dir: sunAt.length === 2 && sunAt.every(Number.isFinite) ? latLonToDir(sunAt[0], sunAt[1]) : [0.6, 0.5, 0.62] });
scene.add(new THREE.AmbientLight(0xffffff, 0.45));
const group = new THREE.Group();
scene.add(group);
const tiles = new ThreeTiles(group);
const walk = new WalkMode(scene, hud);

const state = { pool: null, streamer: null, radiusM: 6371000, surfaceLod: 5, pose: null, last: null, frames: 0, errors: [],
  groundM: 0, groundAt: 0, groundBusy: false };
let resolveReady;
const ready = new Promise((r) => { resolveReady = r; });

function resize() {
  renderer.setSize(innerWidth, innerHeight, false);
}

function frame(now) {
  requestAnimationFrame(frame);
  if (!state.streamer) return;
  const { width, height } = renderer.getDrawingBufferSize(new THREE.Vector2());
  const range = state.streamer.heightRange();
  if (walk.active) walk.frame(now, state);
  else keepAboveGround(now);
  scene.background.copy(SKY).multiplyScalar(Math.max(0, 1 - (state.pose.alt - state.groundM) / SKY_TOP_M));
  const view = state.view = computeView(state.pose, { radiusM: state.radiusM, width, height, groundM: state.groundM, ...range });
  const res = state.streamer.update(view, now);
  state.last = res;
  // Camera-relative: the camera stays at the origin looking along the view;
  // tiles are placed at (centre - eye) in show().
  camera.up.fromArray(view.up);
  camera.lookAt(view.forward[0], view.forward[1], view.forward[2]);
  camera.projectionMatrix.fromArray(view.proj);
  camera.near = view.near; camera.far = view.far;   // the logarithmic depth reads far
  camera.projectionMatrixInverse.copy(camera.projectionMatrix).invert();
  tiles.show(res.tiles, view.eye, state.radiusM, state.surfaceLod);
  sun.update(view, Math.max(EYE_M, state.pose.alt - state.groundM));
  walk.show(view.eye);
  renderer.render(scene, camera);
  state.frames++;
  hud.textContent = `alt ${(state.pose.alt / 1000).toFixed(1)} km  tiles ${res.tiles.length}  finest LOD ${res.maxLodDrawn}  ` +
    `triangles ${tiles.triangles}  in flight ${state.streamer.stats().inFlight}${walk.hud()}`;
  // Ready once the first view has settled: from space that is the five LOD-0 faces on this side at most.
  if (res.tiles.length > 0 && res.settled) resolveReady(stats());
}

/** Samples the core's height under the camera (a few times a second) and keeps the eye EYE_M above it. */
function keepAboveGround(now) {
  if (!state.groundBusy && now - state.groundAt > 200) {
    state.groundBusy = true;
    state.groundAt = now;
    state.pool.sample([latLonToDir(state.pose.lat, state.pose.lon)])
      .then((r) => { state.groundM = Math.max(0, r.heightM[0]); })
      .catch((e) => state.errors.push(e.message))
      .finally(() => { state.groundBusy = false; });
  }
  clampPose(state.pose, state.radiusM, state.groundM + EYE_M);
}

function stats() {
  const s = state.streamer ? state.streamer.stats() : {};
  return { ...s, tilesDrawn: state.last ? state.last.tiles.length : 0, settled: !!(state.last && state.last.settled),
    maxLodDrawn: state.last ? state.last.maxLodDrawn : -1, triangles: tiles.triangles, frames: state.frames,
    pose: { ...state.pose }, errors: state.errors.slice(), walk: walk.stats() };
}

function controls() {
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY, moved: 0 }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointerup', (e) => {
    // A click (not a drag) drops a marker where the terrain raycast hits.
    if (drag && drag.moved < 4 && state.view) walk.click(state.view, e.offsetX * devicePixelRatio, e.offsetY * devicePixelRatio);
    drag = null;
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    drag.moved += Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y);
    if (walk.active) { walk.turn(e.clientX - drag.x, e.clientY - drag.y); drag = { ...drag, x: e.clientX, y: e.clientY }; return; }
    // Degrees per pixel shrink with altitude, so the ground moves with the pointer.
    const k = ((state.pose.alt - state.groundM) / state.radiusM) * 0.08 + 0.000005;
    state.pose.lat += (e.clientY - drag.y) * k;
    state.pose.lon -= (e.clientX - drag.x) * k;
    drag = { ...drag, x: e.clientX, y: e.clientY };
    state.pose = clampPose(state.pose, state.radiusM, state.groundM + EYE_M);
  });
  addEventListener('keydown', (e) => {
    if (e.code === 'KeyG') walkHere().catch((err) => state.errors.push(err.message));
    else walk.key(e.code, true);
  });
  addEventListener('keyup', (e) => walk.key(e.code, false));
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (walk.active) return;
    // Height above the ground scales with the wheel, so it slows down near the ground.
    const above = Math.max(EYE_M, state.pose.alt - state.groundM) * Math.exp(e.deltaY * 0.0015);
    state.pose.alt = state.groundM + above;
    state.pose.tilt = autoTilt(above);
    state.pose = clampPose(state.pose, state.radiusM, state.groundM + EYE_M);
  }, { passive: false });
}

/** G: walks from the ground under the camera, or back to orbiting. */
async function walkHere() {
  if (walk.active) { walk.stop(state); return null; }
  return walk.start(state, state.pose.lat, state.pose.lon);
}

async function start() {
  resize();
  addEventListener('resize', resize);
  state.pool = await createPool();
  const info = await state.pool.build(spec);
  state.radiusM = info.config.radius_m;
  state.surfaceLod = info.config.surface_lod;
  state.pose = defaultPose(state.radiusM);
  state.streamer = new TileStreamer({
    pool: state.pool, renderer: tiles, radiusM: state.radiusM, surfaceLod: info.config.surface_lod,
    generation: info.generation, maxInFlight: Math.max(2, state.pool.stats().workers * 2),
    onError: (e) => { state.errors.push(e.message); console.error(`tile: ${e.message}`); },
  });
  controls();
  requestAnimationFrame(frame);
}

window.ctThree = {
  ready,
  stats,
  /**
   * Jumps the orbit camera to alt metres above sea level, or with {aboveGround: true}
   * that far above the core's ground (EYE_M at least); resolves once the view is settled.
   */
  async goTo(lat, lon, alt, { aboveGround = false, tilt } = {}) {
    if (aboveGround) {
      const r = await state.pool.sample([latLonToDir(lat, lon)]);
      state.groundM = Math.max(0, r.heightM[0]);
      state.groundAt = performance.now();
      alt = state.groundM + Math.max(EYE_M, alt);
    }
    const above = alt - state.groundM;
    state.pose = clampPose({ ...state.pose, lat, lon, alt, tilt: tilt ?? autoTilt(above) }, state.radiusM, aboveGround ? state.groundM + EYE_M : 0);
    return settled();
  },
  /**
   * Puts the character on the ground at lat/lon (degrees) facing headingDeg
   * and resolves with walk stats once it stands there; walk(null) goes back
   * to orbiting. Needs the pool's collider() (the worker builds colliders).
   * {view: 'third'} watches from behind (else the current view, first person
   * at first); with a view given it also waits for the tiles to settle.
   */
  async walk(lat, lon, headingDeg = 0, { view } = {}) {
    if (lat === null) { walk.stop(state); return walk.stats(); }
    if (walk.active) walk.stop(state);
    if (view) walk.setView(view);
    await walk.start(state, lat, lon, headingDeg);
    if (view) await settled();
    return walk.stats();
  },
  /** Walk mode's camera, 'first' or 'third' person (V on the keyboard); resolves once the view is settled. */
  async view(view) {
    walk.setView(view);
    await settled();
    return walk.stats();
  },
  /**
   * The character jumps; resolves once it has landed again with {standM,
   * topM, landed}: the feet's heights before and at the top, and walk stats.
   */
  jump: (hangMs) => walk.jump(hangMs),
  /** Walks seconds ahead at forwardMps without waiting for frames (trees and rocks block it); resolves with walk stats. */
  async advance(seconds, forwardMps = 5) { return walk.advance(state, seconds, forwardMps); },
  /** Resolves with walk stats once the trees and rocks within 60 m of the character are solid (at least one). */
  async scatterReady(hangMs = 60000) {
    const t0 = performance.now();
    while (!(walk.active && walk.obstacles.held.size > 0 && walk.scatter.drawn > 0)) {
      if (performance.now() - t0 > hangMs) throw new Error(`scatter: none near the character after ${hangMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return walk.stats();
  },
};

/** Resolves with stats a few frames on, once the streamer has what the view needs. */
function settled() {
  const since = state.frames;
  return new Promise((resolve) => {
    const poll = () => (state.frames > since + 2 && state.last && state.last.settled ? resolve(stats()) : setTimeout(poll, 50));
    poll();
  });
}

start().catch((e) => {
  hud.textContent = `failed: ${e.message}`;
  console.error(e);
});
