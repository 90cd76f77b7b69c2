// This module starts the demo page: WebGL2 and the worker pool, the world from the address bar, the frame loop (stream, draw, then the upkeep of ground height, cursor, HUD and address bar), display options (palette, vertical exaggeration, sun) and a rebuild that fades the old planet into the new one. window.ctDemo lives in api.js.
import { createPool } from '../worker/client.js';
import { MSG } from '../worker/protocol.js';
import { createContext, isSoftwareRenderer } from './gl.js';
import { Renderer } from './renderer.js';
import { TileStreamer } from '../stream/streamer.js';
import { computeView, defaultPose, autoTilt, EYE_HEIGHT_M } from '../stream/camera.js';
import { latLonToDir, keyAt, normalize, FACE_FILE_NAMES } from '../stream/geo.js';
import { attachControls } from './controls.js';
import { parseHash, pageWorld, formatHash, sameWorld, parseExaggeration, parseSun, formatSun, parseShadows, EXAGGERATION_RANGE } from './url.js';
import { colourToIndex, parsePalette } from '../stream/tiledata.js';
import { paletteNames, paletteRgb } from './palettes.js';
import { buildPanel, updateHud, showError, showWarning, showPanelFailure, download, hideError } from './ui.js';
import { FrameClock } from './frameclock.js';
import { sampleAround } from './probe.js';
import { createApi } from './api.js';
import { crossfade, reliefBoost } from './picture.js';
import { createWalkMode } from './walk_mode.js';
import { createMinimapView } from './minimap_view.js';
import { applyGroundSample, orbitFramePose } from './camera_ground.js';
import { parseWalk } from './walk.js';
import { attachPopulate } from './populate.js';
import { attachStreams } from './stream_layer.js';

/**
 * While only streaming changes the picture, draw at most this often and at most 1/STREAM_DRAW_SHARE
 * of the time: a software-GL frame of a million triangles costs seconds on a busy 2-core machine,
 * and drawing every arrival made a descent take 35 s instead of 8 s. On a GPU the floor decides.
 */
const STREAM_DRAW_MS = 250;
/**
 * Triangle budget per pixel of the view (stream/lod.js relaxes the tolerances past it). On a
 * CPU renderer every triangle costs setup time the pixels do not: from 3 km over the mountains
 * a frame of 1.5 M triangles took about 4 s with the plain shader on a 2-core machine, and each
 * wanted triangle is also a chunk to generate. The relief maps shade per pixel either way, so
 * the views look nearly the same (docs/web.md, "Triangle budget"); tpp= in the address overrides.
 */
const TRIANGLES_PER_PIXEL = 2.5;
const SOFTWARE_TRIANGLES_PER_PIXEL = 1;
const STREAM_DRAW_SHARE = 12;

const hint = parseHash(location.hash);
hint.world = pageWorld(hint.world);
/** The whole page state, grouped. */
const app = {
  /** Made once in main(). */
  services: { pool: null, renderer: null, panel: null, controls: null, walk: null },
  /** The world on screen; `previous` is the one fading out after a rebuild. */
  world: { spec: null, generation: null, config: null, radiusM: 6371000, streamer: null, building: false, errors: 0, previous: null },
  /** The camera: pose (lat, lon, alt, heading, tiltBias) and the ground under it. */
  camera: { pose: null, poseSeq: 0, groundM: 0, groundRealM: 0, groundSeq: -1 },
  /** Display options: they never change the world. */
  display: { palette: 'default', defaultRgb: null, colourToIndex: null, exaggeration: parseExaggeration(hint.options.exaggeration), sun: parseSun(hint.options.sun) },
  /** The frame loop. */
  frame: { dirty: true, lastDraw: 0, lastCached: 0, triangles: 0, clock: new FrameClock(), settledWaiters: [], lastSettled: false,
    /** ms from a drawn frame to the next animation frame: what a frame really costs (software GL: seconds) */
    cost: 0, drewAt: null },
  /** Cursor, HUD and address-bar upkeep. */
  upkeep: { cursor: null, cursorPx: null, sampling: false, lastSample: 0, lastUrl: 0, lastHud: 0, hint },
};

let resolveReady, rejectReady;
const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
ready.catch(() => {});

const effectivePose = () => {
  const walk = app.services.walk, p = app.camera.pose;
  if (walk?.active()) {
    const w = walk.pose();
    app.camera.groundM = w.groundM;
    return w.pose;
  }
  // Near the ground the orbit camera too stays above the mesh drawn under it (this frame only).
  const meshM = walk && p.alt - app.camera.groundM < 2000 ? walk.ground(latLonToDir(Math.max(-90, Math.min(90, p.lat)), p.lon)).meshM : null;
  return orbitFramePose(p, { groundM: app.camera.groundM, meshM, radiusM: app.world.radiusM });
};

function setPoseFromView(v) {
  const cam = app.camera;
  cam.pose = { lat: v.lat, lon: v.lon, alt: v.alt, heading: v.heading ?? 0, tiltBias: 0 };
  if (v.tilt !== null && v.tilt !== undefined) {
    cam.pose.tiltBias = v.tilt - autoTilt(v.alt - cam.groundM);
    // The automatic tilt depends on the height above the ground, known only
    // after the next ground sample: keep the asked tilt exact through it.
    cam.pose.tiltTarget = v.tilt;
  }
  cam.poseSeq++;
  app.frame.dirty = true;
}

/** Ground under the camera in drawn metres (heights are exaggerated with the meshes). */
function setGround(realM) {
  const walking = !!app.services.walk?.active();
  if (applyGroundSample(app.camera, realM, { exaggeration: app.display.exaggeration, walking })) app.frame.dirty = true;
}

/** Vertical exaggeration of the meshes (1..10): the same world, new meshes. */
function setExaggeration(v) {
  const x = parseExaggeration(v);
  if (x === app.display.exaggeration) return;
  app.display.exaggeration = x;
  app.world.streamer?.setExaggeration(x);
  if (app.camera.pose) {
    // Keep the height above the ground: the ground moves with the factor.
    const above = app.camera.pose.alt - app.camera.groundM;
    setGround(app.camera.groundRealM);
    app.camera.pose.alt = app.camera.groundM + Math.max(EYE_HEIGHT_M, above);
  }
  app.services.panel?.setExaggeration(x);
  app.upkeep.cursor = null;
  app.frame.dirty = true;
}

/** The sub-solar point in degrees: the sun is fixed in the world, not to the camera. */
function setSun(lat, lon) {
  app.display.sun = parseSun(`${lat},${lon}`);
  app.services.panel?.setSun(app.display.sun);
  app.frame.dirty = true;
}

/** Cast shadows on or off (the address bar's shadows=0 is off); a map size asked for there is kept. */
function setShadows(on) {
  const o = app.upkeep.hint.options;
  if (parseShadows(o.shadows).on !== on) o.shadows = on ? undefined : '0';
  app.services.panel?.setShadows(on);
  app.frame.dirty = true;
}

function setPalette(name) {
  const d = app.display;
  d.palette = paletteNames().includes(name) ? name : 'default';
  app.services.renderer.setPalette(paletteRgb(d.palette, d.defaultRgb));
  app.services.panel?.setPalette(d.palette);
  app.frame.dirty = true;
}

function trianglesPerPixel(o) {
  return Number(o.tpp) || (isSoftwareRenderer(app.services.renderer.gl) ? SOFTWARE_TRIANGLES_PER_PIXEL : TRIANGLES_PER_PIXEL);
}

function makeStreamer(r) {
  const { pool, renderer } = app.services, o = app.upkeep.hint.options;
  return new TileStreamer({
    pool, renderer, radiusM: r.config.radius_m, surfaceLod: r.config.surface_lod,
    generation: r.generation, colourToIndex: app.display.colourToIndex,
    tau: Number(o.tau) || 10, tauGeo: Number(o.geopx) || 4, baseStride: Number(o.stride) || 4,
    budgetBytes: (Number(o.budget) || 384) * 1048576, exaggeration: app.display.exaggeration,
    // Enough queued in the pool to keep the workers busy while the main thread
    // spends most of a second on one software-GL frame.
    maxInFlight: Math.max(4, (pool.stats().workers || 1) * 4),
    trianglesPerPixel: trianglesPerPixel(o),
    onError: (e) => {
      app.world.errors++;
      console.warn('tile request failed:', e.message);
      if (app.world.errors > 30 && !app.world.streamer.cache.size) showError('Terrain requests keep failing', e.message);
    },
  });
}

/** Builds (or rebuilds) the world in the pool; the old planet stays drawn until the new one covers the view. */
async function buildWorld(spec) {
  const { pool, panel } = app.services, world = app.world;
  world.building = true;
  panel?.setBusy(true);
  let r;
  try {
    r = await pool.build({ preset: spec.preset, set: spec.set }, { onProgress: (s, f) => panel?.setProgress(s, f) });
  } catch (e) {
    world.building = false;
    panel?.setBusy(false);
    panel?.setProgress('', 0);
    showError('The world build failed', `${e.message}${world.generation ? ' (the previous world is still shown)' : ''}`);
    if (!world.generation) rejectReady(e);
    throw e;
  }
  hideError();
  const first = !world.generation;
  if (world.streamer) {
    // The old world's tiles as last drawn; its streamer asks for nothing more.
    world.previous?.streamer.dispose();
    const old = world.streamer;
    old.cancelAll?.();
    world.previous = { streamer: old, tiles: old.lastTiles ?? [], exaggeration: old.exaggeration, builtAt: performance.now(), fadeStart: null };
  }
  Object.assign(world, { spec, generation: r.generation, config: r.config, radiusM: r.config.radius_m, streamer: makeStreamer(r) });
  app.services.populate?.newWorld();
  app.services.renderer.rivers.setGraph(null);
  pool.rivers().then((g) => { if (world.generation === g.generation) { app.services.renderer.rivers.setGraph(g, world.radiusM); app.frame.dirty = true; } }).catch(() => {});
  if (!app.camera.pose) setPoseFromView(app.upkeep.hint.view ?? defaultPose(world.radiusM));
  app.camera.groundM = app.camera.groundRealM = 0;
  app.camera.poseSeq++;
  if (first && app.upkeep.hint.gen && app.upkeep.hint.gen !== r.generation) {
    showWarning(`This link was made for world generation ${app.upkeep.hint.gen}, but these settings built ${r.generation} here: the planet is not the same one (different version or settings).`);
  }
  panel?.setConfig(r.config, spec);
  panel?.setBusy(false);
  panel?.setProgress('', 0);
  world.building = false;
  app.frame.dirty = true;
  app.upkeep.cursor = null;
  return r;
}

function resize(canvas) {
  const dpr = Math.min(2, window.devicePixelRatio || 1);
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
    app.frame.dirty = true;
  }
  return dpr;
}

/** Draws one frame of what the streamer has (and an old planet fading out); nothing else. */
function render(view, s, now) {
  const { renderer } = app.services, canvas = renderer.gl.canvas, debug = app.upkeep.hint.options.debug;
  const pic = crossfade(app, s, now);
  const shadows = parseShadows(app.upkeep.hint.options.shadows);
  if (shadows.size) renderer.shadows.setSize(shadows.size);
  const t0 = performance.now();
  app.frame.triangles = renderer.draw({
    view, radiusM: app.world.radiusM, sun: latLonToDir(app.display.sun.lat, app.display.sun.lon), tiles: pic.tiles,
    width: canvas.width, height: canvas.height, exaggeration: pic.exaggeration, fade: pic.fade,
    relief: reliefBoost(view.altitudeM), holes: debug === 'holes', paletteMaps: debug !== 'vertexcolours',
    rivers: debug !== 'norivers', shadows: shadows.on, shadowRedraw: debug === 'shadowredraw',
    surfaceLod: app.world.config?.surface_lod,
  }).triangles;
  app.frame.clock.drew(now, performance.now() - t0, renderer.gpuMs());
}

/** Streams one frame and draws it when something changed; returns true if it drew. */
function step(now, force = false) {
  const { renderer } = app.services, world = app.world, frame = app.frame;
  const dpr = resize(renderer.gl.canvas);
  if (!world.streamer) return false;
  const pose = effectivePose();
  const canvas = renderer.gl.canvas;
  const view = computeView(pose, { radiusM: world.radiusM, width: canvas.width, height: canvas.height, groundM: app.camera.groundM, ...world.streamer.heightRange() });
  view.altitudeM = pose.alt - app.camera.groundM;
  const s = world.streamer.update(view, now, { frameMs: frame.cost });
  app.services.populate?.update(view);
  if (frame.drewAt !== null && !force) {
    frame.cost = now - frame.drewAt;
    frame.drewAt = null;
  }
  // New tiles alone redraw at most every STREAM_DRAW_MS (longer when frames are
  // expensive), and at once when streaming ends.
  const stale = !s.settled || world.streamer.cache.size !== frame.lastCached || !!world.previous;
  const streamGap = Math.max(STREAM_DRAW_MS, STREAM_DRAW_SHARE * frame.cost);
  const draw = force || frame.dirty || (stale && (s.settled || now - frame.lastDraw >= streamGap));
  if (draw) {
    render(view, s, now);
    frame.dirty = false;
    frame.lastDraw = now;
    frame.lastCached = world.streamer.cache.size;
    if (!force) frame.drewAt = now;
  }
  // Settled also needs the ground under this pose (it sets the near plane and the tilt).
  frame.lastSettled = s.settled && !frame.dirty && world.streamer.cache.size === frame.lastCached && !world.building && !world.previous && s.tiles.length > 0 && app.camera.groundSeq === app.camera.poseSeq;
  if (frame.lastSettled) {
    resolveReady(api.stats());
    for (const w of frame.settledWaiters.splice(0)) w(api.stats());
  }
  sampleAround(app, view, now, dpr, setGround);
  keepAddressBar(pose, now);
  if (now - app.upkeep.lastHud > 250) {
    app.upkeep.lastHud = now;
    updateHud({ ...api.stats(), altitudeM: pose.alt }, app.upkeep.cursor);
  }
  return draw;
}

/** Keeps the address bar on the current world, view and display options (twice a second). */
function keepAddressBar(pose, now) {
  if (now - app.upkeep.lastUrl < 500) return;
  app.upkeep.lastUrl = now;
  const d = app.display;
  const options = { ...app.upkeep.hint.options, walk: app.services.walk?.active() ? '1' : undefined, palette: d.palette === 'default' ? undefined : d.palette,
    exaggeration: d.exaggeration === 1 ? undefined : String(d.exaggeration), sun: formatSun(d.sun) };
  const hash = formatHash({ world: app.world.spec, gen: app.world.generation, view: { lat: pose.lat, lon: pose.lon, alt: pose.alt, heading: pose.heading, tilt: pose.tilt }, options });
  if (hash !== location.hash) history.replaceState(null, '', hash);
}

function loop(now) {
  const c = app.services.controls;
  const dt = now - (app.frame.lastTick || now - 16);
  if (c.tick(dt) | app.services.walk.tick(dt)) app.frame.dirty = true;
  app.frame.lastTick = now;
  step(now);
  app.services.minimap?.tick(now);
  requestAnimationFrame(loop);
}

const api = createApi({ app, ready, effectivePose, setPoseFromView, setExaggeration, setSun, setPalette, buildWorld, step });
window.ctDemo = api;

async function main() {
  const canvas = document.getElementById('view');
  const sv = app.services;
  try {
    sv.renderer = new Renderer(createContext(canvas), { shadowSize: parseShadows(hint.options.shadows).size ?? undefined });
  } catch (e) {
    showError('This page needs WebGL2', e.message);
    showPanelFailure('Not running: this browser gives the page no WebGL2.');
    rejectReady(e);
    return;
  }
  try {
    const text = await fetch(new URL('../core/palette.txt', import.meta.url)).then((r) => (r.ok ? r.text() : Promise.reject(new Error(r.statusText))));
    app.display.defaultRgb = parsePalette(text);
    app.display.colourToIndex = colourToIndex(app.display.defaultRgb);
  } catch (e) {
    // Without the palette file tiles keep the worker's colours and palettes cannot switch.
    app.display.defaultRgb = new Uint8Array(120);
    app.display.colourToIndex = null;
  }
  setPalette(hint.options.palette || 'default');
  try {
    // tiles=URL streams a bake's verified tiles for its world's keys (docs/worker.md).
    sv.pool = await createPool(hint.options.tiles ? { tiles: hint.options.tiles } : {});
  } catch (e) {
    showError('The terrain workers could not start', `${e.message}. Build the WebAssembly core (make wasm; npm start does it) and serve the page over http from the repository root, or upload a folder made by make site.`);
    showPanelFailure('Not running: the terrain workers could not start.');
    rejectReady(e);
    return;
  }
  sv.panel = buildPanel({
    knobs: sv.pool.knobs, presets: sv.pool.presets, world: hint.world, palettes: paletteNames(), palette: app.display.palette,
    resolvePreset: (preset) => sv.pool.request(MSG.CONFIG, { preset }).then((r) => r.resolved),
    exaggeration: app.display.exaggeration, exaggerationRange: EXAGGERATION_RANGE, onExaggeration: setExaggeration,
    sun: app.display.sun, onSun: (s) => setSun(s.lat, s.lon),
    shadows: parseShadows(hint.options.shadows).on, onShadows: setShadows,
    onRebuild: (spec) => buildWorld(spec).catch(() => {}),
    onPalette: setPalette,
    onReset: () => { setPoseFromView(defaultPose(app.world.radiusM)); },
    onSnapshot: async () => download(await sv.pool.snapshot(), `world-${app.world.generation}.ctw`),
    onChunk: async () => {
      const k = app.upkeep.cursor?.key ?? keyAt(normalize(latLonToDir(app.camera.pose.lat, app.camera.pose.lon)), app.world.config.surface_lod).key;
      const c = await sv.pool.chunk(k, { format: 'ctc' });
      download(c.bytes, `${FACE_FILE_NAMES[k.face]}_${k.lod}_${k.x}_${k.y}.ctc`);
    },
  });
  sv.controls = attachControls(canvas, {
    pose: () => app.camera.pose, radiusM: () => app.world.radiusM, groundM: () => app.camera.groundM,
    pixelScale: () => canvas.clientHeight / (2 * Math.tan((45 * Math.PI) / 360)),
    changed: () => { app.frame.dirty = true; },
    reset: () => setPoseFromView(defaultPose(app.world.radiusM)),
    hover: (x, y) => { app.upkeep.cursorPx = { x, y }; app.upkeep.lastSample = 0; },
    paused: () => sv.walk.active(),
  });
  sv.walk = createWalkMode({ app, canvas, onLeave: (p) => setPoseFromView({ ...p, tilt: Math.min(85, p.tilt) }), setExaggeration });
  // Scatter, site pins and edit mode (web/populate.js); their ctDemo members join the page's.
  sv.populate = attachPopulate({ app, canvas, options: hint.options });
  Object.assign(api, sv.populate.api);
  // Streams drawn as water along the valley floors (web/stream_layer.js; streams=0 in the address: none); ctDemo.streams() says what it holds.
  sv.streams = attachStreams({ app, options: hint.options });
  Object.assign(api, sv.streams.api);
  // The minimap in a corner while walking (ctDemo.minimap: its stats and north-up / heading-up toggle).
  sv.minimap = createMinimapView({ app, walk: sv.walk, palette: () => paletteRgb(app.display.palette, app.display.defaultRgb) });
  api.minimap = { stats: () => sv.minimap.stats(), setHeadingUp: (on) => sv.minimap.setHeadingUp(on) };
  window.addEventListener('hashchange', (e) => {
    // The event's own URL: the address-bar upkeep may have rewritten
    // location.hash (replaceState) between the edit and this event.
    const h = parseHash(new URL(e.newURL).hash);
    h.world = pageWorld(h.world);
    app.upkeep.hint.options = h.options;
    setPalette(h.options.palette || 'default');
    setExaggeration(h.options.exaggeration);
    if (h.options.sun) setSun(...h.options.sun.split(','));
    setShadows(parseShadows(h.options.shadows).on);
    if (h.view) setPoseFromView(h.view);
    applyWalkOption(h);
    app.frame.dirty = true;
    if (!sameWorld(h.world, app.world.spec)) buildWorld(h.world).catch(() => {});
  });
  requestAnimationFrame(loop);
  try {
    await buildWorld(hint.world);
  } catch (e) {
    // shown by buildWorld
  }
  applyWalkOption(hint);
}

/** walk=1 in the address bar walks at the view's place; a bad value gets the banner bad knob values get. */
function applyWalkOption(h) {
  let on;
  try {
    on = parseWalk(h.options.walk);
  } catch (e) {
    showError('The address has a bad value', e.message);
    delete app.upkeep.hint.options.walk;
    return;
  }
  const walk = app.services.walk;
  if (on) walk.enter(h.view ? { lat: h.view.lat, lon: h.view.lon, heading: h.view.heading, tilt: h.view.tilt ?? 90 } : {});
  else walk.leave();
}

window.addEventListener('unhandledrejection', (e) => {
  showError('Something failed', e.reason?.message ?? String(e.reason));
});
main().catch((e) => {
  showError('The demo failed to start', e.message);
  rejectReady(e);
});
