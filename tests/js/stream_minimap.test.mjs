// stream_minimap.test.mjs - renderMinimap and MinimapChunks (stream/minimap.js,
// stream/minimap_chunks.js) on real chunks of a WebAssembly world: water is
// blue exactly where the chunk holds water, land is not; pixels no chunk covers
// are the unknown colour; the player marker sits at the centre with the
// heading arrow; heading-up turns a known feature (a site marker) about the
// centre; near a pole the map is heading-up whatever was asked; scatter
// darkens only where instances stand; an edit's outline is drawn; the bytes
// are the same from the same input; bad input is refused with named fields.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshCore, thrown } from './ct_fixture.mjs';
import { renderMinimap, MinimapChunks, movePose, groundPoseFromLatLon, keyAt, keyId } from '../../stream/index.js';
import { normalize, cross, dot } from '../../stream/geo.js';

const core = await freshCore();
const world = core.buildWorld({ preset: 'balanced', set: { macro_resolution: 32, surface_lod: 10, seed: 7 } });
const R = world.config.radius_m, L = world.config.surface_lod;
const palette = world.palette();
// A port stands on a coast: its chunk holds land and water.
const port = world.sites({ kind: 'port', count: 1 })[0];
const LOD = L - 2, key = keyAt(port.dir, LOD).key, chunk = world.chunk(key);
const SIZE = 128, RANGE = 5000;
const north = (d) => normalize([-d[1] * d[0], 1 - d[1] * d[1], -d[1] * d[2]]);
const atPort = { dir: port.dir, forward: north(port.dir) };
const rgbAt = (m, x, y) => [...m.pixels.subarray(4 * (y * m.width + x), 4 * (y * m.width + x) + 3)];
const isBlue = ([r, g, b]) => b > r + 20 && b > g;
const same = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
const WHITE = [255, 255, 255], SITE = [214, 48, 48], UNKNOWN = [34, 38, 46];

/** Pixel centroid of an exact colour. */
function centroid(m, c) {
  let sx = 0, sy = 0, n = 0;
  for (let y = 0; y < m.height; y++) for (let x = 0; x < m.width; x++) if (same(rgbAt(m, x, y), c)) { sx += x; sy += y; n++; }
  return n ? [sx / n, sy / n, n] : null;
}

test('water is blue where the chunk has water, land is not; uncovered pixels are unknown', () => {
  const m = renderMinimap({ pose: atPort, radiusM: R, chunks: [chunk], palette, size: SIZE, rangeM: RANGE });
  assert.is(m.width, SIZE);
  assert.is(m.pixels.length, SIZE * SIZE * 4);
  assert.is(m.headingUp, false);
  // The same map by hand: each pixel's direction, its sample in the chunk.
  const d = port.dir, y = north(d), x = cross(y, d), mpp = (2 * RANGE) / SIZE;
  let wet = 0, dry = 0, unknown = 0;
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      if (Math.abs(px - SIZE / 2) < 12 && Math.abs(py - SIZE / 2) < 12) continue;   // the player marker
      const mx = (px + 0.5 - SIZE / 2) * mpp, my = (SIZE / 2 - py - 0.5) * mpp;
      const at = keyAt(normalize([0, 1, 2].map((k) => d[k] * R + x[k] * mx + y[k] * my)), LOD), c = rgbAt(m, px, py);
      if (keyId(at.key) !== keyId(key)) { assert.equal(c, UNKNOWN, `pixel ${px},${py} outside the chunk`); unknown++; continue; }
      const s = Math.min(256, Math.round(at.localY)) * 257 + Math.min(256, Math.round(at.localX));
      if (chunk.water[s] !== 0) { assert.ok(isBlue(c), `water pixel ${px},${py} is ${c}`); wet++; }
      else { assert.not.ok(isBlue(c), `land pixel ${px},${py} is ${c}`); dry++; }
    }
  }
  assert.ok(wet > 500 && dry > 500, `both water (${wet}) and land (${dry}) on the map`);
  assert.ok(m.covered >= wet + dry && m.covered <= SIZE * SIZE - unknown, `covered ${m.covered}`);
});

test('the player marker is at the centre with the heading arrow', () => {
  const m = renderMinimap({ pose: atPort, radiusM: R, chunks: [chunk], palette, size: SIZE, rangeM: RANGE });
  assert.equal(rgbAt(m, SIZE / 2, SIZE / 2), WHITE);
  // Heading north, north up: the arrow runs up from the centre.
  for (let k = 4; k <= 8; k++) assert.equal(rgbAt(m, SIZE / 2, SIZE / 2 - k), WHITE, `arrow ${k} px up`);
  assert.not.equal(rgbAt(m, SIZE / 2, SIZE / 2 + 6), WHITE);
  // Heading east: the arrow runs right.
  const east = { dir: port.dir, forward: cross(north(port.dir), port.dir) };
  const e = renderMinimap({ pose: east, radiusM: R, chunks: [chunk], palette, size: SIZE, rangeM: RANGE });
  for (let k = 4; k <= 8; k++) assert.equal(rgbAt(e, SIZE / 2 + k, SIZE / 2), WHITE, `arrow ${k} px right`);
});

test('heading-up turns a known feature about the centre', () => {
  const east = { dir: port.dir, forward: cross(north(port.dir), port.dir) };
  const site = movePose({ dir: port.dir, forward: north(port.dir) }, 2000, 0, R).dir;   // 2 km north
  const o = { radiusM: R, chunks: [chunk], palette, size: SIZE, rangeM: RANGE, sites: [{ dir: site }] };
  const up = renderMinimap({ ...o, pose: east }), hu = renderMinimap({ ...o, pose: east, headingUp: true });
  const px = 2000 / ((2 * RANGE) / SIZE), c = SIZE / 2 - 0.5;
  const a = centroid(up, SITE), b = centroid(hu, SITE);
  // North-up: above the centre. Heading east up: north is to the left.
  assert.ok(Math.abs(a[0] - c) < 1 && Math.abs(a[1] - (c - px)) < 1, `north-up marker at ${a}`);
  assert.ok(Math.abs(b[0] - (c - px)) < 1 && Math.abs(b[1] - c) < 1, `heading-up marker at ${b}`);
  assert.is(hu.headingUp, true);
  // And the ground turned with it: the heading-up map is the north-up one turned a quarter.
  let match = 0, total = 0;
  for (let y = 20; y < SIZE - 20; y += 3) {
    for (let x = 20; x < SIZE - 20; x += 3) {
      if (Math.abs(x - c) < 14 && Math.abs(y - c) < 14) continue;
      // A point at (dx, dy) from the centre north-up lies at (dy, -dx) heading-east-up.
      const dx = x - c, dy = y - c;
      total++;
      if (isBlue(rgbAt(up, x, y)) === isBlue(rgbAt(hu, Math.round(c + dy), Math.round(c - dx)))) match++;
    }
  }
  assert.ok(match / total > 0.97, `water turned with the map (${match}/${total})`);
});

test('near a pole the map is heading-up whatever was asked', () => {
  for (const lat of [89.5, -89.9]) {
    const pose = groundPoseFromLatLon(lat, 30, 70);
    const ahead = movePose(pose, 400, 0, R).dir;
    const m = renderMinimap({ pose, radiusM: R, chunks: [], palette, size: 64, rangeM: 1000, sites: [{ dir: ahead }] });
    assert.is(m.headingUp, true, `lat ${lat}`);
    const at = centroid(m, SITE), c = 31.5;
    assert.ok(Math.abs(at[0] - c) < 1 && at[1] < c - 10, `site ahead is above the centre (${at})`);
  }
  const far = groundPoseFromLatLon(85, 30, 90);
  assert.is(renderMinimap({ pose: far, radiusM: R, chunks: [], palette, size: 64 }).headingUp, false);
  assert.is(renderMinimap({ pose: far, radiusM: R, chunks: [], palette, size: 64, poleDeg: 6 }).headingUp, true);
});

test('scatter darkens where instances stand; an edit is outlined; rivers draw', () => {
  // A surface_lod chunk at the port, and a map over it.
  const fine = keyAt(port.dir, L).key, fc = world.chunk(fine), scatter = world.scatter(fine);
  assert.ok(scatter.count > 0, 'the coast has plants');
  const o = { pose: atPort, radiusM: R, chunks: [fc, chunk], palette, size: SIZE, rangeM: 1500 };
  const plain = renderMinimap(o), dense = renderMinimap({ ...o, scatter: [scatter] });
  let darker = 0, lighter = 0;
  for (let p = 0; p < SIZE * SIZE * 4; p += 4) {
    const a = plain.pixels[p] + plain.pixels[p + 1] + plain.pixels[p + 2], b = dense.pixels[p] + dense.pixels[p + 1] + dense.pixels[p + 2];
    if (b < a) darker++;
    if (b > a) lighter++;
  }
  assert.ok(darker > 50, `${darker} pixels darkened`);
  assert.is(lighter, 0);
  // One instance darkens its 4 x 4 pixel block at most: the one nearest the
  // player, so it lies on the map whatever the chunk's scatter holds.
  let near = 0, best = Infinity;
  for (let i = 0; i < scatter.count; i++) {
    let d = 0;
    for (let k = 0; k < 3; k++) d += (scatter.center[k] + scatter.positions[3 * i + k] - atPort.dir[k] * R) ** 2;
    if (d < best) { best = d; near = i; }
  }
  const only = { count: 1, center: scatter.center, positions: scatter.positions.slice(3 * near, 3 * near + 3) };
  const one = renderMinimap({ ...o, scatter: [only] });
  let changed = 0;
  for (let p = 0; p < SIZE * SIZE * 4; p++) changed += one.pixels[p] !== plain.pixels[p];
  assert.ok(changed > 0 && changed <= 16 * 3, `one instance changed ${changed} bytes`);
  const pad = movePose(atPort, 0, 600, R).dir;   // 600 m east
  const edited = renderMinimap({ ...o, edits: [{ kind: 'flatten', center: pad, radiusM: 120 }] });
  const ring = centroid(edited, [250, 214, 70]);
  const mpp = 3000 / SIZE, c = SIZE / 2 - 0.5;
  assert.ok(ring && Math.abs(ring[0] - (c + 600 / mpp)) < 1 && Math.abs(ring[1] - c) < 1 && ring[2] > 20, `pad outline at ${ring}`);
  // Standing on a river curve's first point, the curve is drawn through the map.
  const rivers = world.riverCurves(), p0 = [...rivers.points.subarray(0, 3)];
  const onRiver = { dir: p0, forward: north(p0) };
  const drawn = centroid(renderMinimap({ ...o, pose: onRiver, chunks: [], rangeM: 20000, rivers }), [58, 128, 210]);
  assert.ok(drawn && drawn[2] >= 10, `river pixels ${drawn}`);
  assert.is(centroid(renderMinimap({ ...o, pose: onRiver, chunks: [], rangeM: 20000 }), [58, 128, 210]), null);
});

test('the same input gives the same bytes', () => {
  const fine = keyAt(port.dir, L).key;
  const o = () => ({ pose: atPort, radiusM: R, chunks: [world.chunk(fine), world.chunk(key)], palette: world.palette(), size: 96, rangeM: 2000,
    scatter: [world.scatter(fine)], sites: world.sites({ kind: 'settlement', count: 3, near: port.dir, radiusM: 5000 }),
    edits: [{ kind: 'crater', center: movePose(atPort, 300, 0, R).dir, radiusM: 80, depthM: 10 }], rivers: world.riverCurves(), headingUp: true });
  const a = renderMinimap(o()), b = renderMinimap(o());
  assert.ok(Buffer.from(a.pixels).equals(Buffer.from(b.pixels)));
});

test('MinimapChunks asks the pool for the fine and coarser keys round the player, nearest first', async () => {
  const asked = [];
  const pool = { chunk(k, opts) { asked.push({ k, opts }); return Promise.resolve(world.chunk(k)); } };
  const mc = new MinimapChunks({ pool, radiusM: R, surfaceLod: L, rangeM: 1500, maxInFlight: 64 });
  mc.update(atPort);
  const lods = new Set(asked.map((a) => a.k.lod));
  assert.equal([...lods].sort(), [L - 4, L - 2, L].sort());
  assert.ok(asked.some((a) => keyId(a.k) === keyId(keyAt(port.dir, L).key)), 'the chunk under the player');
  await new Promise((r) => setTimeout(r, 0));
  const held = mc.chunks();
  assert.is(held.length, asked.length);
  assert.is(held[0].key.lod, L);
  mc.update(atPort);
  assert.is(asked.length, held.length, 'held chunks are not asked again');
  const m = renderMinimap({ pose: atPort, radiusM: R, chunks: held, palette, size: 64, rangeM: 1500 });
  assert.is(m.covered, 64 * 64);
  assert.is(thrown(() => new MinimapChunks({ pool: {}, radiusM: R, surfaceLod: L })).code, 'CT_ERR_NULL');
  assert.is(thrown(() => new MinimapChunks({ pool, radiusM: R, surfaceLod: 40 })).code, 'CT_ERR_LOD');
});

test('bad input is refused, naming what is wrong', () => {
  const ok = { pose: atPort, radiusM: R, chunks: [chunk], palette };
  const cases = [
    [{ ...ok, pose: null }, 'CT_ERR_NULL', /pose/],
    [{ ...ok, pose: { dir: [0, 0, 0], forward: [1, 0, 0] } }, 'CT_ERR_DIRECTION', /pose\.dir is the zero vector/],
    [{ ...ok, pose: { dir: port.dir, forward: port.dir } }, 'CT_ERR_DIRECTION', /not tangent/],
    [{ ...ok, radiusM: NaN }, 'CT_ERR_CONFIG', /radiusM/],
    [{ ...ok, size: 4 }, 'CT_ERR_CONFIG', /size/],
    [{ ...ok, rangeM: -1 }, 'CT_ERR_CONFIG', /rangeM/],
    [{ ...ok, palette: new Uint8Array(3) }, 'CT_ERR_CONFIG', /palette/],
    [{ ...ok, chunks: null }, 'CT_ERR_NULL', /chunks/],
    [{ ...ok, chunks: [{ ...chunk, water: new Uint16Array(5) }] }, 'CT_ERR_BUFFER', /chunks\[0\]\.water/],
    [{ ...ok, chunks: [{ ...chunk, key: { face: 9, lod: 1, x: 0, y: 0 } }] }, 'CT_ERR_FACE', /chunks\[0\]\.key/],
    [{ ...ok, sites: [{ dir: [NaN, 0, 1] }] }, 'CT_ERR_DIRECTION', /sites\[0\]\.dir/],
    [{ ...ok, edits: [{ kind: 'nuke' }] }, 'CT_ERR_CONFIG', /edits\[0\]\.kind/],
    [{ ...ok, edits: [{ kind: 'flatten', center: port.dir, radiusM: -3 }] }, 'CT_ERR_CONFIG', /edits\[0\]\.radiusM/],
    [{ ...ok, scatter: [{ count: 2 }] }, 'CT_ERR_NULL', /scatter\[0\]/],
    [{ ...ok, rivers: {} }, 'CT_ERR_NULL', /rivers/],
  ];
  for (const [o, code, re] of cases) {
    const e = thrown(() => renderMinimap(o));
    assert.is(e.code, code, e.message);
    assert.match(e.message, re);
  }
});

test.run();
