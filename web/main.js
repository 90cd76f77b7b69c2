// This module starts the demo page: WebGL2 and the worker pool, the world from the address bar, the frame loop, display options (palette, vertical exaggeration), the HUD and cursor queries, downloads, and window.ctDemo for automation.
import { createPool } from '../worker/client.js';
import { createContext } from './gl.js';
import { Renderer } from './renderer.js';
import { TileStreamer } from './streamer.js';
import { computeView, defaultPose, clampPose, autoTilt, screenRay, raySphere } from './camera.js';
import { latLonToDir, dirToLatLon, enuFrame, keyAt, add, scale, normalize, FACE_FILES } from './geo.js';
import { attachControls } from './controls.js';
import { parseHash, formatHash, sameWorld, parseExaggeration, EXAGGERATION_RANGE } from './url.js';
import { paletteLookup, parsePalette } from './tiledata.js';
import { paletteNames, paletteRgb, BIOMES } from './palettes.js';
import { buildPanel, updateHud, showError, showWarning, showPanelFailure, download, hideError } from './ui.js';

let resolveReady, rejectReady;
const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
ready.catch(() => {});
const app = {
  pool: null, renderer: null, streamer: null, panel: null, controls: null,
  world: null, generation: null, config: null, radiusM: 6371000,
  pose: null, groundM: 0, groundRealM: 0, poseSeq: 0, cursor: null, cursorPx: null, hint: parseHash(location.hash),
  frameMs: 0, triangles: 0, lastFrame: 0, dirty: true, settledWaiters: [], busy: false,
  paletteName: 'default', defaultRgb: null, lastUrl: 0, lastSample: 0, sampling: false, errors: 0,
  exaggeration: 1,
};
app.exaggeration = parseExaggeration(app.hint.options.exaggeration);

const effectivePose = () => {
  const p = app.pose;
  return clampPose({ lat: p.lat, lon: p.lon, alt: p.alt, heading: p.heading, tilt: autoTilt(p.alt - app.groundM) + (p.tiltBias || 0) }, app.radiusM);
};

function setPoseFromView(v) {
  app.pose = { lat: v.lat, lon: v.lon, alt: v.alt, heading: v.heading ?? 0, tiltBias: 0 };
  if (v.tilt !== null && v.tilt !== undefined) {
    app.pose.tiltBias = v.tilt - autoTilt(v.alt - app.groundM);
    // The automatic tilt depends on the height above the ground, known only
    // after the next ground sample: keep the asked tilt exact through it.
    app.pose.tiltTarget = v.tilt;
  }
  app.poseSeq++;
  app.dirty = true;
}

/** Ground under the camera in drawn metres (heights are exaggerated with the meshes). */
function setGround(realM) {
  app.groundRealM = realM;
  const g = realM * app.exaggeration;
  if (Math.abs(g - app.groundM) > 1) { app.groundM = g; app.dirty = true; }
  if (app.pose.alt < g + 30) app.pose.alt = g + 30;
  if (app.pose.tiltTarget !== undefined) {
    app.pose.tiltBias = app.pose.tiltTarget - autoTilt(app.pose.alt - g);
    delete app.pose.tiltTarget;
  }
}

/** Vertical exaggeration of the meshes (1..10): the same world, new meshes. */
function setExaggeration(v) {
  const x = parseExaggeration(v);
  if (x === app.exaggeration) return;
  app.exaggeration = x;
  app.streamer?.setExaggeration(x);
  if (app.pose) {
    // Keep the height above the ground: the ground moves with the factor.
    const above = app.pose.alt - app.groundM;
    setGround(app.groundRealM);
    app.pose.alt = app.groundM + Math.max(30, above);
  }
  app.panel?.setExaggeration(x);
  app.cursor = null;
  app.dirty = true;
}

/** Builds (or rebuilds) the world in the pool and restarts streaming. */
async function buildWorld(world) {
  app.busy = true;
  app.panel?.setBusy(true);
  let r;
  try {
    r = await app.pool.build({ preset: world.preset, set: world.set }, { onProgress: (s, f) => app.panel?.setProgress(s, f) });
  } catch (e) {
    app.busy = false;
    app.panel?.setBusy(false);
    app.panel?.setProgress('', 0);
    showError('The world build failed', `${e.message}${app.generation ? ' (the previous world is still shown)' : ''}`);
    if (!app.generation) rejectReady(e);
    throw e;
  }
  hideError();
  const first = !app.generation;
  app.world = world;
  app.generation = r.generation;
  app.config = r.config;
  app.radiusM = r.config.radius_m;
  app.streamer?.dispose();
  app.streamer = new TileStreamer({
    pool: app.pool, renderer: app.renderer, radiusM: app.radiusM, surfaceLod: r.config.surface_lod,
    generation: r.generation, palette: app.paletteMap,
    tau: Number(app.hint.options.tau) || 6, baseStride: Number(app.hint.options.stride) || 4,
    budgetBytes: (Number(app.hint.options.budget) || 256) * 1048576, exaggeration: app.exaggeration,
    maxInFlight: Math.max(2, (app.pool.stats().workers || 1) * 2),
    onError: (e) => {
      app.errors++;
      console.warn('tile request failed:', e.message);
      if (app.errors > 30 && !app.streamer.cache.size) showError('Terrain requests keep failing', e.message);
    },
  });
  if (!app.pose) setPoseFromView(app.hint.view ?? defaultPose(app.radiusM));
  app.groundM = app.groundRealM = 0;
  app.poseSeq++;
  if (first && app.hint.gen && app.hint.gen !== r.generation) {
    showWarning(`This link was made for world generation ${app.hint.gen}, but these settings built ${r.generation} here: the planet is not the same one (different version or settings).`);
  }
  app.panel?.setConfig(r.config, world);
  app.panel?.setBusy(false);
  app.panel?.setProgress('', 0);
  app.busy = false;
  app.dirty = true;
  app.cursor = null;
  return r;
}

function resize(canvas) {
  const dpr = Math.min(2, window.devicePixelRatio || 1);
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
    app.dirty = true;
  }
  return dpr;
}

/** Ground height under the camera and what lies under the cursor, from the workers (throttled). */
function sampleAround(view, now, dpr) {
  if (app.sampling || now - app.lastSample < 200 || !app.streamer) return;
  const dirs = [normalize(view.eye)];
  let cursorDir = null;
  if (app.cursorPx) {
    const ray = screenRay(view, app.cursorPx.x * dpr, app.cursorPx.y * dpr);
    const h = app.cursor ? Math.max(0, app.cursor.heightM, app.cursor.hasWater ? app.cursor.waterM : 0) : 0;
    const t = raySphere(view.eye, ray, app.radiusM + h * app.exaggeration);
    if (t !== null) cursorDir = normalize(add(view.eye, scale(ray, t)));
  }
  if (cursorDir) dirs.push(cursorDir);
  app.sampling = true;
  app.lastSample = now;
  const gen = app.generation, seq = app.poseSeq;
  app.pool.sample(dirs, { priority: -1 }).then((s) => {
    app.sampling = false;
    if (gen !== app.generation) return;
    // A jump since the request makes this ground height someone else's.
    if (seq === app.poseSeq) {
      setGround(Math.max(0, s.hasWater[0] ? s.waterM[0] : 0, s.heightM[0]));
      app.groundSeq = seq;
    }
    if (cursorDir) {
      const { lat, lon } = dirToLatLon(cursorDir);
      const k = keyAt(cursorDir, app.config.surface_lod).key;
      app.cursor = {
        lat, lon, key: k, heightM: s.heightM[1], waterM: s.waterM[1], hasWater: !!s.hasWater[1], waterBody: s.waterBody?.[1],
        biome: BIOMES[s.biome[1]] ?? `biome ${s.biome[1]}`,
        address: `${app.config.planet_id}/${gen}/${FACE_FILES[k.face]}/${k.lod}/${k.x}/${k.y}`,
      };
    } else {
      app.cursor = null;
    }
  }, () => { app.sampling = false; });
}

/** Streams and (when something changed) draws one frame; returns true if it drew. */
function render(now, force = false) {
  const canvas = app.renderer.gl.canvas;
  const dpr = resize(canvas);
  if (!app.streamer) return false;
  const t0 = performance.now();
  const pose = effectivePose();
  const view = computeView(pose, { radiusM: app.radiusM, width: canvas.width, height: canvas.height, groundM: app.groundM, ...app.streamer.heightRange() });
  const s = app.streamer.update(view, now);
  let drew = false;
  if (force || app.dirty || !s.settled || app.streamer.cache.size !== app.lastCached) {
    const { east, north, up } = enuFrame(latLonToDir(pose.lat, pose.lon));
    const sun = normalize(add(add(scale(up, 0.55), scale(east, -0.6)), scale(north, 0.5)));
    app.triangles = app.renderer.draw({ view, radiusM: app.radiusM, sun, tiles: s.tiles, width: canvas.width, height: canvas.height, exaggeration: s.exaggeration }).triangles;
    app.frameMs = app.frameMs * 0.8 + (performance.now() - t0) * 0.2;
    app.dirty = false;
    app.lastCached = app.streamer.cache.size;
    drew = true;
  }
  // Settled also needs the ground under this pose (it sets the near plane and the tilt).
  app.lastSettled = s.settled && !app.busy && s.tiles.length > 0 && app.groundSeq === app.poseSeq;
  if (app.lastSettled) {
    resolveReady(api.stats());
    for (const w of app.settledWaiters.splice(0)) w(api.stats());
  }
  sampleAround(view, now, dpr);
  if (now - app.lastUrl > 500) {
    app.lastUrl = now;
    const hash = formatHash({ world: app.world, gen: app.generation, view: { lat: pose.lat, lon: pose.lon, alt: pose.alt, heading: pose.heading, tilt: pose.tilt }, options: hashOptions() });
    if (hash !== location.hash) history.replaceState(null, '', hash);
  }
  if (now - (app.lastHud || 0) > 250) {
    app.lastHud = now;
    updateHud({ ...api.stats(), altitudeM: pose.alt }, app.cursor);
  }
  return drew;
}

/** Display options for the address bar (defaults left out). */
function hashOptions() {
  return { ...app.hint.options, palette: app.paletteName === 'default' ? undefined : app.paletteName,
    exaggeration: app.exaggeration === 1 ? undefined : String(app.exaggeration) };
}

function frame(now) {
  const dt = app.lastFrame ? now - app.lastFrame : 16;
  app.lastFrame = now;
  if (app.controls.tick(dt)) app.dirty = true;
  render(now);
  requestAnimationFrame(frame);
}

function setPalette(name) {
  app.paletteName = paletteNames().includes(name) ? name : 'default';
  app.renderer.setPalette(paletteRgb(app.paletteName, app.defaultRgb));
  app.panel?.setPalette(app.paletteName);
  app.dirty = true;
}

const api = {
  ready,
  /** Frame and streaming numbers. */
  stats() {
    const s = app.streamer ? app.streamer.stats() : { tilesDrawn: 0, inFlight: 0, cached: 0, cachedBytes: 0, maxLodDrawn: -1 };
    return { generation: app.generation, ...s, exaggeration: app.exaggeration, frameMs: app.frameMs, triangles: app.triangles, surfaceLod: app.config?.surface_lod, building: app.busy, pose: app.pose && effectivePose() };
  },
  /** Moves the camera (jump) and resolves with stats once its chunks are drawn and settled. */
  goTo(latDeg, lonDeg, altitudeM, { heading, tilt } = {}) {
    setPoseFromView({ lat: latDeg, lon: lonDeg, alt: altitudeM, heading: heading ?? app.pose?.heading ?? 0, tilt: tilt ?? null });
    return api.settled();
  },
  /** Resolves at the next frame with nothing left to stream. */
  settled() {
    app.dirty = true;
    return new Promise((res) => { app.settledWaiters.push(res); });
  },
  /** Rebuilds with a world card ({preset, set}); resolves with the new generation once drawn. */
  async rebuild(world) {
    await buildWorld({ preset: world.preset ?? app.world.preset, set: { ...(world.set ?? {}) } });
    await api.settled();
    return app.generation;
  },
  /** Samples the world at [[latDeg, lonDeg], ...]: {heightM, waterM, hasWater, waterBody, biome} arrays. */
  async sample(latLons) {
    const r = await app.pool.sample(latLons.map(([la, lo]) => latLonToDir(la, lo)));
    return { heightM: [...r.heightM], waterM: [...r.waterM], hasWater: [...r.hasWater], waterBody: [...(r.waterBody ?? [])], biome: [...r.biome] };
  },
  /** What the HUD shows under the cursor ({lat, lon, address, heightM, waterM, hasWater, biome}), or null. */
  cursor() {
    return app.cursor && { ...app.cursor, key: { ...app.cursor.key } };
  },
  /** Vertical exaggeration (1..10) of the meshes; resolves with stats once the new meshes are drawn. */
  setExaggeration(v) {
    setExaggeration(v);
    return api.settled();
  },
  /**
   * Draws a frame now and reads it back (every step-th pixel, RGB), for
   * automated checks: {width, height, step, rgb: number[]}.
   */
  pixels(step = 4) {
    const gl = app.renderer.gl;
    render(performance.now(), true);
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const all = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, all);
    const rgb = [];
    for (let y = h - 1; y >= 0; y -= step) {
      for (let x = 0; x < w; x += step) {
        const i = 4 * (y * w + x);
        rgb.push(all[i], all[i + 1], all[i + 2]);
      }
    }
    return { width: Math.ceil(w / step), height: Math.ceil(h / step), step, rgb };
  },
  setPalette,
  paletteNames,
};
window.ctDemo = api;

async function main() {
  const canvas = document.getElementById('view');
  try {
    app.renderer = new Renderer(createContext(canvas));
  } catch (e) {
    showError('This page needs WebGL2', e.message);
    showPanelFailure('Not running: this browser gives the page no WebGL2.');
    rejectReady(e);
    return;
  }
  try {
    const text = await fetch(new URL('../core/palette.txt', import.meta.url)).then((r) => (r.ok ? r.text() : Promise.reject(new Error(r.statusText))));
    app.defaultRgb = parsePalette(text);
    app.paletteMap = paletteLookup(app.defaultRgb);
  } catch (e) {
    // Without the palette file tiles keep the worker's colours and palettes cannot switch.
    app.defaultRgb = new Uint8Array(120);
    app.paletteMap = null;
  }
  setPalette(app.hint.options.palette || 'default');
  try {
    app.pool = await createPool({});
  } catch (e) {
    showError('The terrain workers could not start', `${e.message}. Build the WebAssembly core (make wasm; npm start does it) and serve the page over http from the repository root, or upload a folder made by make site.`);
    showPanelFailure('Not running: the terrain workers could not start.');
    rejectReady(e);
    return;
  }
  app.panel = buildPanel({
    knobs: app.pool.knobs, presets: app.pool.presets, world: app.hint.world, palettes: paletteNames(), palette: app.paletteName,
    exaggeration: app.exaggeration, exaggerationRange: EXAGGERATION_RANGE, onExaggeration: setExaggeration,
    onRebuild: (world) => buildWorld(world).catch(() => {}),
    onPalette: setPalette,
    onReset: () => { setPoseFromView(defaultPose(app.radiusM)); },
    onSnapshot: async () => download(await app.pool.snapshot(), `world-${app.generation}.ctw`),
    onChunk: async () => {
      const k = app.cursor?.key ?? keyAt(normalize(latLonToDir(app.pose.lat, app.pose.lon)), app.config.surface_lod).key;
      const c = await app.pool.chunk(k, { format: 'ctc' });
      download(c.bytes, `${FACE_FILES[k.face]}_${k.lod}_${k.x}_${k.y}.ctc`);
    },
  });
  app.controls = attachControls(canvas, {
    pose: () => app.pose, radiusM: () => app.radiusM, groundM: () => app.groundM,
    pixelScale: () => canvas.clientHeight / (2 * Math.tan((45 * Math.PI) / 360)),
    changed: () => { app.dirty = true; },
    reset: () => setPoseFromView(defaultPose(app.radiusM)),
    hover: (x, y) => { app.cursorPx = { x, y }; app.lastSample = 0; },
  });
  window.addEventListener('hashchange', () => {
    const h = parseHash(location.hash);
    app.hint.options = h.options;
    setPalette(h.options.palette || 'default');
    setExaggeration(h.options.exaggeration);
    if (h.view) setPoseFromView(h.view);
    if (!sameWorld(h.world, app.world)) buildWorld(h.world).catch(() => {});
  });
  requestAnimationFrame(frame);
  try {
    await buildWorld(app.hint.world);
  } catch (e) {
    // shown by buildWorld
  }
}

window.addEventListener('unhandledrejection', (e) => {
  showError('Something failed', e.reason?.message ?? String(e.reason));
});
main().catch((e) => {
  showError('The demo failed to start', e.message);
  rejectReady(e);
});
