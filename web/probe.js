// This module asks the workers, a few times a second, for the ground height under the camera and what lies under the cursor (height, water, biome and the core's chunk address), for the camera's floor and the HUD; the point under the cursor is the terrain raycast's (web/cursor_pick.js).
import { screenRay } from '../stream/camera.js';
import { dirToLatLon, keyAt, normalize } from '../stream/geo.js';
import { pickCursor } from './cursor_pick.js';
import { BIOMES } from './palettes.js';

/** Ground height under the camera and what lies under the cursor, from the workers (throttled). */
export function sampleAround(app, view, now, dpr, setGround) {
  const up = app.upkeep, world = app.world;
  if (up.sampling || now - up.lastSample < 200) return;
  const dirs = [normalize(view.eye)];
  let pick = null;
  if (up.cursorPx) {
    const c = up.cursor;
    pick = pickCursor({
      eye: view.eye, ray: screenRay(view, up.cursorPx.x * dpr, up.cursorPx.y * dpr), radiusM: world.radiusM,
      exaggeration: app.display.exaggeration, pageWorld: app.services.walk?.pageWorld() ?? null,
      lastHeightM: c ? Math.max(0, c.heightM, c.hasWater ? c.waterM : 0) : 0,
    });
  }
  const cursorDir = pick && pick.dir;
  if (cursorDir) dirs.push(cursorDir);
  up.sampling = true;
  up.lastSample = now;
  const gen = world.generation, seq = app.camera.poseSeq;
  // The cursor's chunk address is the core's own spelling (ct_address_format), asked alongside the sample.
  const key = cursorDir ? keyAt(cursorDir, world.config.surface_lod).key : null;
  const address = key ? app.services.pool.address(key, { priority: -1 }) : null;
  Promise.all([app.services.pool.sample(dirs, { priority: -1 }), address]).then(([s, addr]) => {
    up.sampling = false;
    if (gen !== world.generation) return;
    // A jump since the request makes this ground height someone else's.
    if (seq === app.camera.poseSeq) {
      setGround(Math.max(0, s.hasWater[0] ? s.waterM[0] : 0, s.heightM[0]));
      app.camera.groundSeq = seq;
    }
    up.cursor = cursorDir ? { ...cursorInfo(cursorDir, key, s, addr), by: pick.by, distanceM: pick.distanceM } : null;
  }, () => { up.sampling = false; });
}

function cursorInfo(dir, k, s, address) {
  const { lat, lon } = dirToLatLon(dir);
  return {
    lat, lon, key: k, heightM: s.heightM[1], waterM: s.waterM[1], hasWater: !!s.hasWater[1], waterBody: s.waterBody?.[1],
    biome: BIOMES[s.biome[1]] ?? `biome ${s.biome[1]}`,
    address,
  };
}

