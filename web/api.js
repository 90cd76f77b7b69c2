// This module is window.ctDemo, the page's automation surface: stats, camera jumps that resolve when the view is streamed, walk mode, rebuilds, samples, the cursor readout, display options (exaggeration, palette, sun) and pixel readback for tests.
import { paletteNames } from './palettes.js';
import { latLonToDir } from '../stream/geo.js';

/**
 * @param {object} o {app, ready, effectivePose, setPoseFromView, setExaggeration, setSun, setPalette,
 *   buildWorld, step} from main.js
 */
export function createApi(o) {
  const { app } = o;
  const api = {
    ready: o.ready,
    /** Frame and streaming numbers. */
    stats() {
      return pageStats(o);
    },
    /** Moves the camera (jump) and resolves with stats once nothing it wants is missing. */
    goTo(latDeg, lonDeg, altitudeM, { heading, tilt } = {}) {
      o.setPoseFromView({ lat: latDeg, lon: lonDeg, alt: altitudeM, heading: heading ?? app.camera.pose?.heading ?? 0, tilt: tilt ?? null });
      return api.settled();
    },
    /**
     * Walk mode at a place (first person, eye 1.7 m above the ground, tilt 90
     * looks at the horizon); resolves with stats() once the view is streamed.
     */
    walk(latDeg, lonDeg, { heading = 0, tilt = 90 } = {}) {
      if (![latDeg, lonDeg, heading, tilt].every(Number.isFinite)) throw new Error('walk: lat, lon, heading and tilt must be finite numbers');
      o.setPoseFromView({ lat: latDeg, lon: lonDeg, alt: 1000, heading, tilt: 85 });
      app.services.walk.enter({ lat: latDeg, lon: lonDeg, heading, tilt });
      return api.settled();
    },
    /** Each worker's stats reply (worker/handler.js): its world, memory, and busy ms per request type. */
    workerStats() {
      return app.services.pool.workerStats();
    },
    /** Leaves walk mode for the orbit camera where the eye stands; resolves like settled(). */
    leaveWalk() {
      app.services.walk.leave();
      return api.settled();
    },
    /**
     * The ground under the eye as walk mode sees it, in drawn metres: {coreM
     * (the core's height), meshM (the drawn mesh there, null if none), eyeGroundM
     * (the higher, the sea at 0), eyeM (the eye's altitude), fromPage (the core
     * height came from the page's own WebAssembly world)}.
     */
    ground() {
      const w = app.services.walk, pose = o.effectivePose();
      const g = w.active() ? w.ground() : w.ground(latLonToDir(pose.lat, pose.lon));
      return { ...g, eyeM: pose.alt };
    },
    /** Resolves at the next frame with nothing left to stream. */
    settled() {
      app.frame.dirty = true;
      return new Promise((res) => { app.frame.settledWaiters.push(res); });
    },
    /** Rebuilds with a world spec ({preset, set}); resolves with the new generation once drawn. */
    async rebuild(world) {
      await o.buildWorld({ preset: world.preset ?? app.world.spec.preset, set: { ...(world.set ?? {}) } });
      await api.settled();
      return app.world.generation;
    },
    /** Samples the world at [[latDeg, lonDeg], ...]: {heightM, waterM, hasWater, waterBody, biome} arrays. */
    async sample(latLons) {
      const r = await app.services.pool.sample(latLons.map(([la, lo]) => latLonToDir(la, lo)));
      return { heightM: [...r.heightM], waterM: [...r.waterM], hasWater: [...r.hasWater], waterBody: [...(r.waterBody ?? [])], biome: [...r.biome] };
    },
    /**
     * What the HUD shows under the cursor ({lat, lon, address, heightM, waterM, hasWater, biome, by
     * ('raycast': the terrain ray on the page's world; 'sphere': before it loads), distanceM}), or null.
     */
    cursor() {
      const c = app.upkeep.cursor;
      return c && { ...c, key: { ...c.key } };
    },
    /** Vertical exaggeration (1..10) of the meshes; resolves with stats once the new meshes are drawn. */
    setExaggeration(v) {
      o.setExaggeration(v);
      return api.settled();
    },
    /** Puts the sun over latDeg, lonDeg (the sub-solar point); lighting follows at the next frame. */
    setSun(latDeg, lonDeg) {
      o.setSun(latDeg, lonDeg);
      return { ...app.display.sun };
    },
    /**
     * Draws a frame now and reads it back (every step-th pixel, RGB), for
     * automated checks: {width, height, step, rgb: number[]}.
     */
    pixels(step = 4) {
      o.step(performance.now(), true);
      return readPixels(app.services.renderer.gl, step);
    },
    setPalette: (name) => o.setPalette(name),
    paletteNames,
  };
  return api;
}

/** What ctDemo.stats() reports: the streamer's numbers, the frame clock's, and the page's state. */
function pageStats(o) {
  const { app } = o;
  const st = app.world.streamer;
  const s = st ? st.stats() : { tilesDrawn: 0, inFlight: 0, cached: 0, cachedBytes: 0, maxLodDrawn: -1 };
  const f = app.frame.clock.stats();
  return {
    generation: app.world.generation, ...s, exaggeration: app.display.exaggeration,
    frameMs: f.intervalMs, drawMs: f.drawMs, gpuMs: f.gpuMs, framesDrawn: f.count, triangles: app.frame.triangles,
    surfaceLod: app.world.config?.surface_lod, building: app.world.building, sun: { ...app.display.sun },
    requested: st ? st.requested : 0, pose: app.camera.pose && o.effectivePose(),
    walking: !!app.services.walk?.active(),
  };
}

/** Every step-th pixel of the drawing buffer, top row first, as RGB. */
function readPixels(gl, step) {
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
}
