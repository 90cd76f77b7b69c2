// Unit tests of web/camera_ground.js and web/cursor_pick.js: what a ground sample under the camera changes, in orbit and in walk mode; the orbit eye over the drawn mesh for one frame only; the cursor on the terrain raycast.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyGroundSample, orbitFramePose } from '../../web/camera_ground.js';
import { pickCursor, rayReachM } from '../../web/cursor_pick.js';
import { groundProbe } from '../../web/ground.js';
import { autoTilt, EYE_HEIGHT_M, computeView, screenRay, raySphere } from '../../stream/camera.js';
import { latLonToDir, scale, add, sub, length, normalize, angleBetween } from '../../stream/geo.js';
import { freshCore } from './ct_fixture.mjs';

const camera = (alt, groundM) => ({ pose: { lat: 0, lon: 0, alt, heading: 0 }, groundM, groundRealM: groundM });

test('in orbit a sample moves the ground, redraws, and keeps the camera above it', () => {
  const cam = camera(1000, 0);
  assert.is(applyGroundSample(cam, 400, { exaggeration: 2, walking: false }), true);
  assert.is(cam.groundM, 800);
  assert.is(cam.groundRealM, 400);
  assert.is(cam.pose.alt, 1000);
  // Under the new ground the camera is lifted to eye height over it.
  assert.is(applyGroundSample(cam, 600, { exaggeration: 2, walking: false }), true);
  assert.is(cam.pose.alt, 1200 + EYE_HEIGHT_M);
});

test('in orbit a change under a metre neither moves the ground nor redraws', () => {
  const cam = camera(5000, 100);
  assert.is(applyGroundSample(cam, 100.6, { exaggeration: 1, walking: false }), false);
  assert.is(cam.groundM, 100);
  assert.is(cam.groundRealM, 100.6);
});

test('a tilt asked for before the ground was known is re-based on it', () => {
  const cam = camera(3000, 0);
  cam.pose.tiltTarget = 60;
  applyGroundSample(cam, 1000, { exaggeration: 1, walking: false });
  assert.is(cam.pose.tiltTarget, undefined);
  assert.is(cam.pose.tiltBias, 60 - autoTilt(2000));
});

test('in walk mode samples only keep the fallback height: no redraw, the walk\'s ground untouched', () => {
  // The walk wrote its eye ground (the drawn mesh, 30 m above the core here) into groundM.
  const cam = camera(1531.7, 1530);
  let redraws = 0;
  for (let k = 0; k < 10; k++) {
    if (applyGroundSample(cam, 1500, { exaggeration: 1, walking: true })) redraws++;
    cam.groundM = 1530;   // what the page writes back every frame in walk mode
  }
  assert.is(redraws, 0);
  assert.is(cam.groundM, 1530);
  assert.is(cam.groundRealM, 1500);
  assert.is(cam.pose.alt, 1531.7);
});

test('the orbit eye rides over a coarse drawn mesh for that frame only, then comes back to the height asked', () => {
  // Asked: 30 m over a valley floor at 1000 m; a coarse tile drawn there for a moment stands at 1530 m.
  const pose = { lat: -30.55, lon: -119, alt: 1030, heading: 0, tiltBias: 4 };
  const lifted = orbitFramePose(pose, { groundM: 1000, meshM: 1530, radiusM: 6371000 });
  assert.is(lifted.alt, 1530 + EYE_HEIGHT_M, 'never under the drawn mesh');
  assert.is(pose.alt, 1030, 'the asked height is kept');
  assert.is(lifted.tilt, autoTilt(30) + 4, 'the tilt of the height asked');
  // The fine tiles arrive: the mesh is the ground again, and the eye is where it was asked to be.
  assert.is(orbitFramePose(pose, { groundM: 1000, meshM: 1000.2, radiusM: 6371000 }).alt, 1030);
  assert.is(orbitFramePose(pose, { groundM: 1000, meshM: null, radiusM: 6371000 }).alt, 1030);
});

test('rayReachM: to the sphere under all ground, else out of the one over it, else nothing', () => {
  const R = 6371000, eye = [0, R + 1000, 0];
  assert.is(rayReachM(eye, [0, -1, 0], R), 12000, 'straight down: to 11 km under sea level');
  assert.is(rayReachM(eye, [0, 1, 0], R), 8000, 'straight up: out of the 9 km shell');
  assert.is(rayReachM([0, R + 20000, 0], [0, 1, 0], R), 0, 'from above the shell, away: nothing to hit');
});

test('the cursor picks the terrain the ray meets (page world), else the sphere at the last height', async () => {
  const core = await freshCore();
  const world = core.buildWorld({ preset: 'balanced', set: { macro_resolution: 32, surface_lod: 8, seed: 7 } });
  try {
    const R = world.config.radius_m, probe = groundProbe(world);
    // A land point, seen from 3 km over it at a slant: the ray meets the terrain, and the
    // point it reports lies on the exact ground, not on a sphere at some height.
    let dir = null;
    for (let i = 0; i < 400 && !dir; i++) {
      const d = latLonToDir(-50 + (i * 13) % 100, -180 + (i * 47) % 360), g = world.groundAt(d);
      if (!g.hasWater && g.heightM > 800) dir = d;
    }
    assert.ok(dir, 'found high land');
    const ground = world.groundAt(dir).heightM;
    const v = computeView({ ...dirPose(dir), alt: ground + 3000, heading: 30, tilt: 50 }, { radiusM: R, width: 800, height: 600 });
    let hits = 0;
    for (const [px, py] of [[400, 300], [200, 400], [600, 500], [400, 120]]) {
      const ray = screenRay(v, px, py);
      const p = pickCursor({ eye: v.eye, ray, radiusM: R, exaggeration: 1, pageWorld: probe, lastHeightM: 0 });
      if (!p) continue;
      hits++;
      assert.is(p.by, 'raycast');
      const point = add(v.eye, scale(ray, p.distanceM));
      assert.ok(angleBetween(normalize(point), p.dir) < 1e-12, 'dir is the hit point');
      const g = world.groundAt(p.dir);
      const surface = p.water ? g.waterM : g.heightM;
      assert.ok(Math.abs(length(point) - (R + surface)) < 0.01, `on the exact ground: ${length(point) - R} vs ${surface}`);
      // The old pick (a sphere at the sea surface) lands somewhere else on this slanting ray over high land.
      const t = raySphere(v.eye, ray, R);
      if (t !== null) assert.ok(t - p.distanceM > 10, `the sphere pick is ${t - p.distanceM} m further`);
    }
    assert.ok(hits >= 3, `${hits} rays hit`);
    // No page world yet, or exaggerated heights: the sphere at the last height, as before.
    const ray = screenRay(v, 400, 300);
    for (const o of [{ pageWorld: null, exaggeration: 1 }, { pageWorld: probe, exaggeration: 2 }]) {
      const p = pickCursor({ eye: v.eye, ray, radiusM: R, lastHeightM: 500, ...o });
      assert.is(p.by, 'sphere');
      assert.ok(Math.abs(length(add(v.eye, scale(ray, p.distanceM))) - (R + 500 * o.exaggeration)) < 1e-3);
    }
    // The sky: nothing.
    const up = normalize(sub(scale(v.eye, 2), v.eye));
    assert.is(pickCursor({ eye: v.eye, ray: up, radiusM: R, exaggeration: 1, pageWorld: probe, lastHeightM: 0 }), null);
  } finally { world.free(); }
});

/** lat/lon of a direction (the orbit pose's). */
function dirPose(d) {
  return { lat: (Math.asin(d[1]) * 180) / Math.PI, lon: (Math.atan2(-d[2], d[0]) * 180) / Math.PI };
}

test.run();
