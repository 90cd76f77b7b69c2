// Tests of walk mode's pure parts (web/walk.js, web/ground.js) and the page's landing world (web/url.js): the walk option, speeds, the look range, the eye pose, and the drawn-mesh height on the mesh's own triangles.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseWalk, walkPose, walkStep, walkLook, EYE_HEIGHT_M, WALK_SPEED_MS, RUN_SPEED_MS, LOOK_TILT_RANGE } from '../../web/walk.js';
import { cellHeight, meshHeightAt } from '../../web/ground.js';
import { pageWorld, parseHash, sameWorld, formatHash, PAGE_SURFACE_LOD } from '../../web/url.js';
import { latLonToDir, keyAt, keyDirection, angleBetween } from '../../stream/geo.js';
import { clampPose } from '../../stream/camera.js';

const R = 6371000;
const metresBetween = (a, b) => angleBetween(latLonToDir(a.lat, a.lon), latLonToDir(b.lat, b.lon)) * R;

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
  const w = { lat: 35, lon: 45, heading: 30, tilt: 90 };
  const start = { ...w };
  for (let i = 0; i < 60; i++) walkStep(w, new Set(['w']), 1000 / 60, R);
  assert.ok(Math.abs(metresBetween(start, w) - WALK_SPEED_MS) < 0.01, `walked ${metresBetween(start, w)} m in 1 s`);
  const r = { ...start };
  for (let i = 0; i < 60; i++) walkStep(r, new Set(['w', 'shift']), 1000 / 60, R);
  assert.ok(Math.abs(metresBetween(start, r) - RUN_SPEED_MS) < 0.02, `ran ${metresBetween(start, r)} m in 1 s`);
  const d = { ...start };
  for (let i = 0; i < 60; i++) walkStep(d, new Set(['w', 'd']), 1000 / 60, R);
  assert.ok(Math.abs(metresBetween(start, d) - WALK_SPEED_MS) < 0.01, 'diagonal at walking speed');
  assert.is(walkStep({ ...start }, new Set(), 16, R), false, 'no keys: no move');
  const t = { ...start };
  walkStep(t, new Set(['e']), 250, R);
  assert.ok(Math.abs(t.heading - 45) < 1e-9 && metresBetween(start, t) === 0, 'E turns in place');
  // A stalled frame (a second of software GL) does not teleport: at most a quarter second.
  const s = { ...start };
  walkStep(s, new Set(['w']), 3000, R);
  assert.ok(metresBetween(start, s) <= WALK_SPEED_MS * 0.25 + 1e-6);
});

test('the eye stands 1.7 m above the ground it is given and looks within its range', () => {
  const p = walkPose({ lat: 10, lon: 190, heading: -30, tilt: 200 }, 812.5);
  assert.is(p.alt, 812.5 + EYE_HEIGHT_M);
  assert.is(p.lon, -170);
  assert.is(p.heading, 330);
  assert.is(p.tilt, LOOK_TILT_RANGE[1]);
  const w = { lat: 0, lon: 0, heading: 0, tilt: 90 };
  walkLook(w, 50, 100);
  assert.is(w.heading, 10);
  assert.is(w.tilt, 70, 'dragging down looks down');
  // The orbit camera's floor is the eye height over the sea.
  assert.is(clampPose({ lat: 0, lon: 0, alt: 0, heading: 0, tilt: 0 }, R).alt, EYE_HEIGHT_M);
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
