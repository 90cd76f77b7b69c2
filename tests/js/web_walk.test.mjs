// Tests of walk mode's pure parts (web/walk.js, web/ground.js) and the page's landing world (web/url.js): the walk option, speeds, the look range, the eye pose, a walk over a pole, the drawn-mesh height on the mesh's own triangles, and the exact ground the eye stands on.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseWalk, walkPose, walkStep, walkLook, walkerAt, EYE_HEIGHT_M, WALK_SPEED_MS, RUN_SPEED_MS, LOOK_TILT_RANGE } from '../../web/walk.js';
import { cellHeight, meshHeightAt, groundProbe, standingHeightM } from '../../web/ground.js';
import { freshCore } from './ct_fixture.mjs';
import { pageWorld, parseHash, sameWorld, formatHash, PAGE_SURFACE_LOD } from '../../web/url.js';
import { latLonToDir, keyAt, keyDirection, angleBetween } from '../../stream/geo.js';
import { clampPose } from '../../stream/camera.js';
import { prepareTerrain } from '../../stream/tiledata.js';
import { gridHeights } from '../../stream/streamer.js';

const R = 6371000;
const metresBetween = (a, b) => angleBetween(a.pose.dir, b.pose.dir) * R;
const copy = (w) => ({ pose: { dir: [...w.pose.dir], forward: [...w.pose.forward] }, tilt: w.tilt });
const headingOf = (w) => walkPose(w, 0).heading;

test('the walk option: 1 walks, 0 or none orbits, anything else is a clear error', () => {
  assert.is(parseWalk('1'), true);
  assert.is(parseWalk('0'), false);
  assert.is(parseWalk(undefined), false);
  for (const bad of ['yes', '2', 'run', '']) {
    assert.throws(() => parseWalk(bad), (e) => e instanceof Error && e.code === 'CT_ERR_RANGE' && e.message.includes(`'${bad}'`) && /walk/.test(e.message), bad);
  }
  // walk is a page option, not a knob for the core.
  const h = parseHash('#preset=balanced&walk=1&view=10,20,0,45,90');
  assert.is(h.options.walk, '1');
  assert.equal(h.world.set, {});
});

test('walking is 1.4 m/s, running 6 m/s, diagonals no faster, turning with Q/E', () => {
  const w = walkerAt(35, 45, 30, 90);
  const start = copy(w);
  for (let i = 0; i < 60; i++) walkStep(w, new Set(['w']), 1000 / 60, R);
  assert.ok(Math.abs(metresBetween(start, w) - WALK_SPEED_MS) < 0.01, `walked ${metresBetween(start, w)} m in 1 s`);
  const r = copy(start);
  for (let i = 0; i < 60; i++) walkStep(r, new Set(['w', 'shift']), 1000 / 60, R);
  assert.ok(Math.abs(metresBetween(start, r) - RUN_SPEED_MS) < 0.02, `ran ${metresBetween(start, r)} m in 1 s`);
  const d = copy(start);
  for (let i = 0; i < 60; i++) walkStep(d, new Set(['w', 'd']), 1000 / 60, R);
  assert.ok(Math.abs(metresBetween(start, d) - WALK_SPEED_MS) < 0.01, 'diagonal at walking speed');
  assert.is(walkStep(copy(start), new Set(), 16, R), false, 'no keys: no move');
  const t = copy(start);
  walkStep(t, new Set(['e']), 250, R);
  assert.ok(Math.abs(headingOf(t) - 45) < 1e-9 && metresBetween(start, t) === 0, 'E turns in place');
  // A stalled frame (a second of software GL) does not teleport: at most a quarter second.
  const s = copy(start);
  walkStep(s, new Set(['w']), 3000, R);
  assert.ok(metresBetween(start, s) <= WALK_SPEED_MS * 0.25 + 1e-6);
});

test('the eye stands 1.7 m above the ground it is given and looks within its range', () => {
  const p = walkPose({ ...walkerAt(10, 190, -30), tilt: 200 }, 812.5);
  assert.is(p.alt, 812.5 + EYE_HEIGHT_M);
  assert.ok(Math.abs(p.lat - 10) < 1e-9 && Math.abs(p.lon + 170) < 1e-9 && Math.abs(p.heading - 330) < 1e-9, JSON.stringify(p));
  assert.is(p.tilt, LOOK_TILT_RANGE[1]);
  const w = walkerAt(0, 0, 0, 90);
  walkLook(w, 50, 100);
  assert.ok(Math.abs(headingOf(w) - 10) < 1e-9, 'dragging right turns right');
  assert.is(w.tilt, 70, 'dragging down looks down');
  // The orbit camera's floor is the eye height over the sea.
  assert.is(clampPose({ lat: 0, lon: 0, alt: 0, heading: 0, tilt: 0 }, R).alt, EYE_HEIGHT_M);
});

test('walking straight north from 89.5 N crosses the pole and comes down the other side, turned round', () => {
  const w = walkerAt(89.5, 30, 0, 90);
  const keys = new Set(['w', 'shift']);
  // 1 degree of arc at a run, in quarter-second steps (the longest walkStep takes).
  const arcM = (Math.PI / 180) * R, steps = Math.round(arcM / (RUN_SPEED_MS * 0.25));
  let maxLat = -90;
  for (let i = 0; i < steps; i++) {
    walkStep(w, keys, 250, R);
    maxLat = Math.max(maxLat, walkPose(w, 0).lat);
  }
  const p = walkPose(w, 0);
  assert.ok(maxLat > 89.999, `reached the pole (${maxLat})`);
  const walked = steps * RUN_SPEED_MS * 0.25, downLat = 90 - (walked / R - (0.5 * Math.PI) / 180) * (180 / Math.PI);
  assert.ok(Math.abs(p.lat - downLat) < 1e-6, `lat ${p.lat} vs ${downLat}`);
  assert.ok(Math.abs(p.lon - -150) < 1e-6, `down meridian 30 + 180: lon ${p.lon}`);
  assert.ok(Math.abs(p.heading - 180) < 1e-6, `now heading south: ${p.heading}`);
  // Turned round and walked back over the pole, it is at the start, facing away from the pole.
  walkLook(w, 180 / 0.2, 0);
  for (let i = 0; i < steps; i++) walkStep(w, keys, 250, R);
  const back = walkPose(w, 0);
  assert.ok(Math.abs(back.lat - 89.5) < 1e-6 && Math.abs(back.lon - 30) < 1e-6, JSON.stringify(back));
  assert.ok(Math.abs(back.heading - 180) < 1e-6, `heading ${back.heading}`);
});

test('a walker at a pole: the address-bar view there gives a working walker and eye pose', () => {
  const h = parseHash(formatHash({ world: { preset: 'balanced', set: {} }, view: { lat: 90, lon: 0, alt: 3, heading: 45, tilt: 90 } }));
  const w = walkerAt(h.view.lat, h.view.lon, h.view.heading, h.view.tilt);
  const p = walkPose(w, 10);
  assert.is(p.lat, 90);
  assert.ok(Math.abs(p.heading - 45) < 1e-9, `heading ${p.heading}`);
  walkStep(w, new Set(['w']), 250, R);
  const q = walkPose(w, 10);
  // Heading 45 at the pole is 45 degrees east of meridian 0's far side (lon 180): down meridian 135, going south.
  assert.ok(q.lat < 90 && Math.abs(q.lon - 135) < 1e-6 && Math.abs(q.heading - 180) < 1e-6, `left the pole along meridian 135: ${JSON.stringify(q)}`);
});

test('the eye stands on the exact ground: groundAt, the water surface, never the sea floor', async () => {
  const core = await freshCore();
  const world = core.buildWorld({ preset: 'balanced', set: { macro_resolution: 32, surface_lod: 8, seed: 7 } });
  try {
    const probe = groundProbe(world);
    let land = 0, wet = 0, fieldDiffers = 0;
    for (let i = 0; i < 200 && (land < 3 || wet < 3); i++) {
      const dir = latLonToDir(-60 + (i * 37) % 120, -180 + (i * 71) % 360);
      const g = world.groundAt(dir), s = world.sample([dir]);
      const h = probe.heightM(dir);
      assert.is(h, standingHeightM(g));
      if (g.hasWater) { wet++; assert.ok(h >= g.waterM && h >= 0, 'on the water surface'); }
      else if (g.heightM > 0) {
        land++;
        assert.is(h, g.heightM, 'dry land: the mesh ground, to the bit');
        if (h !== s.heightM[0]) fieldDiffers++;
      }
    }
    assert.ok(land >= 3 && wet >= 3, `${land} land, ${wet} water points`);
    // The sample field is not the drawn surface between samples: the walker no longer stands on it.
    assert.ok(fieldDiffers > 0, 'groundAt, not world.sample');
    assert.is(standingHeightM({ heightM: -300, waterM: 0, hasWater: false }), 0, 'never under the sea surface');
    assert.is(standingHeightM({ heightM: 120, waterM: 118, hasWater: true }), 120, 'a shore: the ground over the water');
  } finally { world.free(); }
});

test('the drawn surface_lod stride-1 mesh is the exact ground: meshHeightAt and groundAt agree to 1 mm', async () => {
  const core = await freshCore();
  const world = core.buildWorld({ preset: 'balanced', set: { macro_resolution: 32, surface_lod: 10, seed: 7 } });
  try {
    const R = world.config.radius_m;
    let land = 0, worst = 0;
    for (let i = 0; i < 40 && land < 3; i++) {
      const at = keyAt(latLonToDir(-50 + (i * 37) % 100, -180 + (i * 71) % 360), 10);
      // The tile the streamer keeps for the chunk at stride 1 (skirts as the page asks for them).
      const mesh = world.mesh(at.key, { stride: 1, skirtDepthM: 20 });
      const tile = { key: at.key, stride: 1, heights: gridHeights(prepareTerrain(mesh, { radiusM: R, stride: 1 })) };
      if (world.groundAt(keyDirection(at.key, 128, 128)).heightM <= 0) continue;
      land++;
      for (let j = 0; j < 50; j++) {
        const dir = keyDirection(at.key, 3.3 + j * 5.01, 250.7 - j * 4.93);
        const g = world.groundAt(dir);
        if (g.heightM <= 0) continue;
        worst = Math.max(worst, Math.abs(meshHeightAt([tile], dir) - g.heightM));
      }
    }
    assert.ok(land >= 3, `${land} land chunks`);
    assert.ok(worst < 1e-3, `drawn and exact ground differ by ${worst} m`);
  } finally { world.free(); }
});

test('cellHeight follows the mesh triangles (v00, v10, v01) and (v10, v11, v01)', () => {
  // One cell with a ridge along the other diagonal: bilinear would give 0.5 in the middle.
  const h = new Float32Array([0, 1, 1, 0]);
  assert.is(cellHeight(h, 1, 0.5, 0.5), 1, 'on the v10-v01 diagonal');
  assert.is(cellHeight(h, 1, 0, 0), 0);
  assert.is(cellHeight(h, 1, 1, 1), 0);
  assert.ok(Math.abs(cellHeight(h, 1, 0.25, 0.25) - 0.5) < 1e-9);
  assert.ok(Math.abs(cellHeight(h, 1, 0.75, 0.75) - 0.5) < 1e-9);
});

test('meshHeightAt: the finest drawn tile under the direction, at its stride', () => {
  const dir = latLonToDir(20.3, 10.7);
  const grid = (stride, f) => {
    const n = 256 / stride, h = new Float32Array((n + 1) ** 2);
    for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) h[j * (n + 1) + i] = f(i * stride, j * stride);
    return h;
  };
  const fine = keyAt(dir, 9), coarse = keyAt(dir, 7);
  const plane = (lx, ly) => 100 + 0.5 * lx + 0.25 * ly;
  const tiles = [
    { key: coarse.key, stride: 4, heights: grid(4, () => 50) },
    { key: fine.key, stride: 2, heights: grid(2, plane) },
    { key: { ...fine.key, x: fine.key.x + 1 }, stride: 1, heights: grid(1, () => 999) },
  ];
  const h = meshHeightAt(tiles, dir);
  assert.ok(Math.abs(h - plane(fine.localX, fine.localY)) < 1e-3, `${h} vs ${plane(fine.localX, fine.localY)}`);
  assert.is(meshHeightAt(tiles.slice(0, 1), dir), 50);
  assert.is(meshHeightAt([], dir), null);
  // A sample position of the tile itself gives that vertex's height.
  const v = keyDirection(fine.key, 128, 64);
  assert.ok(Math.abs(meshHeightAt(tiles, v) - plane(128, 64)) < 1e-3);
});

test('the page opens a world to land on: surface_lod 12 unless the address names one', () => {
  assert.is(PAGE_SURFACE_LOD, '12');
  assert.equal(pageWorld(parseHash('').world), { preset: 'balanced', set: { surface_lod: '12' } });
  assert.equal(pageWorld(parseHash('#preset=alpine&surface_lod=6&seed=3').world), { preset: 'alpine', set: { surface_lod: '6', seed: '3' } });
  // The address the page writes back names it, and reads back as the same world.
  const w = pageWorld(parseHash('#seed=42').world);
  assert.match(formatHash({ world: w }), /surface_lod=12/);
  assert.ok(sameWorld(pageWorld(parseHash(formatHash({ world: w })).world), w));
});

test.run();
