// This module is the three.js example page: a worker pool builds the world,
// the package's TileStreamer (the same LOD selection, request scheduling and
// mesh preparation as the WebGL2 demo) picks chunk meshes for the view, and
// three.js draws them camera-relative. Drag to orbit, wheel to go from space
// down to the ground. window.ctThree exposes ready/stats/goTo for tests.
import * as THREE from 'three';
import { createPool } from 'cubesphere-terrain/worker';
import { TileStreamer, computeView, clampPose, defaultPose, autoTilt } from 'cubesphere-terrain/stream';
import { ThreeTiles } from './three_tiles.js';

const hash = new URLSearchParams(location.hash.slice(1));
const spec = { preset: hash.get('preset') || 'balanced',
  set: { seed: Number(hash.get('seed') || 42), surface_lod: Number(hash.get('surface_lod') || 5) } };

const canvas = document.createElement('canvas');
document.body.prepend(canvas);
const hud = document.getElementById('hud');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(Math.min(2, devicePixelRatio));
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x000000);
const camera = new THREE.PerspectiveCamera();   // at the origin: the world moves, not the camera
const sun = new THREE.DirectionalLight(0xffffff, 2.2);
sun.position.set(0.6, 0.5, 0.62);
scene.add(sun, new THREE.AmbientLight(0xffffff, 0.45));
const group = new THREE.Group();
scene.add(group);
const tiles = new ThreeTiles(group);

const state = { pool: null, streamer: null, radiusM: 6371000, pose: null, last: null, frames: 0, errors: [] };
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
  const view = computeView(state.pose, { radiusM: state.radiusM, width, height, ...range });
  const res = state.streamer.update(view, now);
  state.last = res;
  // Camera-relative: the camera stays at the origin looking along the view;
  // tiles are placed at (centre - eye) in show().
  camera.up.fromArray(view.up);
  camera.lookAt(view.forward[0], view.forward[1], view.forward[2]);
  camera.projectionMatrix.fromArray(view.proj);
  camera.projectionMatrixInverse.copy(camera.projectionMatrix).invert();
  tiles.show(res.tiles, view.eye);
  renderer.render(scene, camera);
  state.frames++;
  hud.textContent = `alt ${(state.pose.alt / 1000).toFixed(1)} km  tiles ${res.tiles.length}  finest LOD ${res.maxLodDrawn}  ` +
    `triangles ${tiles.triangles}  in flight ${state.streamer.stats().inFlight}`;
  if (res.tiles.length >= 6 && res.settled) resolveReady(stats());
}

function stats() {
  const s = state.streamer ? state.streamer.stats() : {};
  return { ...s, tilesDrawn: state.last ? state.last.tiles.length : 0, settled: !!(state.last && state.last.settled),
    maxLodDrawn: state.last ? state.last.maxLodDrawn : -1, triangles: tiles.triangles, frames: state.frames,
    pose: { ...state.pose }, errors: state.errors.slice() };
}

function controls() {
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointerup', () => { drag = null; });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    // Degrees per pixel shrink with altitude, so the ground moves with the pointer.
    const k = (state.pose.alt / state.radiusM) * 0.08 + 0.0005;
    state.pose.lat += (e.clientY - drag.y) * k;
    state.pose.lon -= (e.clientX - drag.x) * k;
    drag = { x: e.clientX, y: e.clientY };
    state.pose = clampPose(state.pose, state.radiusM);
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    state.pose.alt *= Math.exp(e.deltaY * 0.0015);
    state.pose.tilt = autoTilt(state.pose.alt);
    state.pose = clampPose(state.pose, state.radiusM);
  }, { passive: false });
}

async function start() {
  resize();
  addEventListener('resize', resize);
  state.pool = await createPool();
  const info = await state.pool.build(spec);
  state.radiusM = info.config.radius_m;
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
  /** Jumps the orbit camera; resolves once the view's tiles are drawn and settled. */
  goTo(lat, lon, alt) {
    state.pose = clampPose({ ...state.pose, lat, lon, alt, tilt: autoTilt(alt) }, state.radiusM);
    const since = state.frames;
    return new Promise((resolve) => {
      const poll = () => (state.frames > since + 2 && state.last && state.last.settled ? resolve(stats()) : setTimeout(poll, 50));
      poll();
    });
  },
};

start().catch((e) => {
  hud.textContent = `failed: ${e.message}`;
  console.error(e);
});
