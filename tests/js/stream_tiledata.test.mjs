// Tests of stream/tiledata.js: heights above sea level, geomorph targets on the coarse grid, palette indices (the mesh's or from colours); stride errors (worker/maps/stride_errors.js, stream/tile_error.js) and lake level maps (worker/maps/lake_map.js).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { prepareTerrain, morphTargets, prepareWater, parsePalette, colourToIndex } from '../../stream/tiledata.js';
import { roughness } from '../../stream/tile_error.js';
import { strideErrorsM } from '../../worker/maps/stride_errors.js';
import { lakeLevelMap, NO_LAKE_M } from '../../worker/maps/lake_map.js';
import { SEA_LEVEL_CODE } from '../../worker/protocol.js';

const R = 1000;
// A synthetic n x n grid (stride 256/n) on the +X side of a sphere: vertex
// (i, j) at height f(i, j); positions relative to a centre at radius R.
function grid(n, f, skirts = true) {
  const row = n + 1, vc = row * row + (skirts ? 4 * row : 0);
  const positions = new Float32Array(vc * 3);
  const center = [R, 0, 0];
  const put = (v, i, j, h) => {
    const y = (i / n - 0.5) * 10, z = (j / n - 0.5) * 10;
    const len = Math.hypot(R, y, z), s = (R + h) / len;
    positions.set([R * s - R, y * s, z * s], 3 * v);
  };
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) put(j * row + i, i, j, f(i, j));
  if (skirts) {
    const edge = (e, k) => (e === 0 ? [k, 0] : e === 1 ? [k, n] : e === 2 ? [0, k] : [n, k]);
    for (let e = 0; e < 4; e++) for (let k = 0; k <= n; k++) { const [i, j] = edge(e, k); put(row * row + e * row + k, i, j, f(i, j) - 5); }
  }
  const colors = new Uint8Array(vc * 4);
  return { positions, normals: new Float32Array(vc * 3), colors, indices: new Uint16Array([0, 1, row]), center, vertexCount: vc };
}

test('heights above sea level come from float64 centre + position', () => {
  const m = grid(4, (i, j) => i * 10 - j);
  const t = prepareTerrain(m, { radiusM: R, stride: 64 });
  for (let j = 0; j <= 4; j++) for (let i = 0; i <= 4; i++) {
    assert.ok(Math.abs(t.posH[4 * (j * 5 + i) + 3] - (i * 10 - j)) < 1e-3, `h at ${i},${j}`);
  }
  assert.ok(Math.abs(t.minH - -4) < 1e-3 && Math.abs(t.maxH - 40) < 1e-3, 'range over the grid, skirts excluded');
  assert.ok(t.morphs);
});

test('the per-sample maps of a mesh reply pass through to the tile (null without them)', () => {
  const m = grid(4, () => 0);
  const bare = prepareTerrain(m, { radiusM: R, stride: 64 });
  assert.is(bare.paletteMap, null);
  assert.is(bare.relief, null);
  const paletteMap = new Uint8Array(257 * 257).fill(17), relief = new Float32Array(4 * 257 * 257);
  const t = prepareTerrain({ ...m, paletteMap, relief }, { radiusM: R, stride: 64 });
  assert.is(t.paletteMap, paletteMap);
  assert.is(t.relief, relief);
});

test('geomorph targets: even vertices stay, odd ones sit on the coarse edge or diagonal', () => {
  const n = 4, row = n + 1;
  const f = (i, j) => (i * 7 + j * 13) % 11;
  const m = grid(n, f);
  const t = prepareTerrain(m, { radiusM: R, stride: 64 });
  const h = (arr, i, j) => arr[4 * (j * row + i) + 3];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) {
    const got = h(t.morphH, i, j);
    let want;
    if (!(i & 1) && !(j & 1)) want = f(i, j);
    else if (i & 1 && !(j & 1)) want = (f(i - 1, j) + f(i + 1, j)) / 2;
    else if (!(i & 1)) want = (f(i, j - 1) + f(i, j + 1)) / 2;
    else want = (f(i + 1, j - 1) + f(i - 1, j + 1)) / 2;
    assert.ok(Math.abs(got - want) < 1e-3, `morph h at ${i},${j}: ${got} vs ${want}`);
  }
  // A skirt vertex carries its edge vertex's height (the page lays the sea by
  // height), before and after the morph (top edge k=1 is odd), while its
  // position still hangs 5 m below the edge.
  const skirt = 4 * (row * row + 1) + 3, edge = 4 * 1 + 3;
  assert.ok(Math.abs(t.posH[skirt] - t.posH[edge]) < 1e-3);
  assert.ok(Math.abs(t.morphH[skirt] - t.morphH[edge]) < 1e-3);
  const dist = (a, v) => Math.hypot(a[4 * v] + m.center[0], a[4 * v + 1] + m.center[1], a[4 * v + 2] + m.center[2]);
  assert.ok(Math.abs(dist(t.posH, 1) - dist(t.posH, row * row + 1) - 5) < 1e-2, 'skirt drop');
  // A flat tile does not move at all.
  const flat = prepareTerrain(grid(4, () => 3), { radiusM: R, stride: 64 });
  for (let k = 0; k < flat.posH.length; k += 4) assert.ok(Math.abs(flat.morphH[k + 3] - flat.posH[k + 3]) < 1e-3);
});

test('palette indices: the mesh paletteIndex as it is, else recovered from colours', () => {
  const rgb = new Uint8Array(120);
  for (let i = 0; i < 40; i++) rgb.set([i, 255 - i, i * 3], 3 * i);
  const lookup = colourToIndex(rgb);
  const m = grid(2, () => 10, false);
  for (let v = 0; v < m.vertexCount; v++) m.colors.set([v, 255 - v, v * 3, 255], 4 * v);
  // Without paletteIndex (older workers): from the colours, or null on an unknown colour.
  assert.equal([...prepareTerrain(m, { radiusM: R, stride: 128, colourToIndex: lookup }).pal], [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  assert.is(prepareTerrain(m, { radiusM: R, stride: 128 }).pal, null, 'no lookup, no indices');
  m.colors[0] = 77;
  assert.is(prepareTerrain(m, { radiusM: R, stride: 128, colourToIndex: lookup }).pal, null);
  // With paletteIndex: used directly (no copy), whatever the colours say.
  m.paletteIndex = Uint8Array.from([39, 38, 37, 36, 35, 34, 33, 32, 31]);
  for (const palette of [lookup, undefined]) {
    const t = prepareTerrain(m, { radiusM: R, stride: 128, palette });
    assert.is(t.pal, m.paletteIndex);
    assert.is(t.colors, m.colors, 'colours still passed on');
  }
  m.paletteIndex = new Uint8Array(4);
  assert.is(prepareTerrain(m, { radiusM: R, stride: 128 }).pal, null, 'a short paletteIndex is not trusted');
});

test('parsePalette reads 40 lines and names the bad one', () => {
  const good = Array.from({ length: 40 }, (_, i) => i.toString(16).padStart(6, '0')).join('\n');
  assert.is(parsePalette(`# header\n${good}\n`).length, 120);
  assert.throws(() => parsePalette(good.replace('000003', 'zz0003')), /line 4/);
  assert.throws(() => parsePalette('ffffff'), /40 colours/);
});

test('water meshes keep lakes and drop the sea', () => {
  const m = grid(2, (i) => (i === 2 ? 12 : 0), false);
  const row = 3;
  m.indices = new Uint16Array([0, 1, row, 1, row + 1, row, 1, 2, row + 1]);
  m.indexCount = 9;
  const w = prepareWater(m, R);
  assert.equal([...w.indices], [1, 2, row + 1], 'only the triangle touching the 12 m lake');
  const sea = grid(2, () => 0, false);
  sea.indexCount = 3;
  assert.is(prepareWater(sea, R), null);
  assert.is(prepareWater({ indexCount: 0 }, R), null);
  assert.is(prepareWater(undefined, R), null, 'a tile without lakes (mesh.lakes absent or null)');
  assert.is(prepareWater(null, R), null);
});

const E = 257;
/** A chunk's encoded heights (quantum 0.25 m) from a height function of the sample position. */
const reliefOf = (f) => {
  const height = new Uint16Array(E * E), q = 0.25;
  for (let y = 0; y < E; y++) for (let x = 0; x < E; x++) height[y * E + x] = 32768 + Math.round(f(x, y) / q);
  return { height, heightQuantumM: q };
};

test('stride errors: zero on a plane and under the sea, the bump at the finest stride that misses it', () => {
  const plane = strideErrorsM(reliefOf((x, y) => 1000 + 3 * x - 2 * y));
  for (const s of [1, 2, 4, 8]) assert.ok(plane[s] < 1e-3, `plane, stride ${s}: ${plane[s]}`);
  // A 50 m spike on an odd sample: stride 1 meshes it, every coarser stride misses all of it.
  const spike = strideErrorsM(reliefOf((x, y) => (x === 101 && y === 37 ? 50 : 0)));
  assert.equal([spike[1], spike[2], spike[4], spike[8]], [0, 50, 50, 50]);
  // The sea is drawn at 0 m: a deep bed counts as flat; exaggeration scales metres.
  assert.is(strideErrorsM(reliefOf((x) => -4000 + 17 * Math.sin(x)))[4], 0);
  assert.is(strideErrorsM(reliefOf((x, y) => (x === 101 && y === 37 ? 50 : 0)), 3)[2], 150);
  // A smooth ramp sampled coarsely has a small error; roughness is error per metre of vertex spacing.
  const hill = strideErrorsM(reliefOf((x) => 1000 * Math.sin(x / 40)));
  assert.ok(hill[2] < hill[4] && hill[4] < hill[8], JSON.stringify(hill));
  assert.ok(Math.abs(roughness(hill, 100) - Math.max(hill[2] / 200, hill[4] / 400, hill[8] / 800)) < 1e-12);
});

test('lake level map: lake samples carry their level, spread two samples onto the shore; null without a lake', () => {
  const q = 0.5;
  const water = new Uint16Array(E * E);
  const code = (m) => 32768 + Math.round(m / q);
  assert.is(lakeLevelMap({ water, heightQuantumM: q }), null, 'dry chunk');
  water.fill(SEA_LEVEL_CODE, 0, E * 10);
  assert.is(lakeLevelMap({ water, heightQuantumM: q }), null, 'sea only');
  // A lake at 312 m on samples x 100..110, y 100..110.
  for (let y = 100; y <= 110; y++) for (let x = 100; x <= 110; x++) water[y * E + x] = code(312);
  const m = lakeLevelMap({ water, heightQuantumM: q });
  assert.is(m[105 * E + 105], 312);
  assert.is(m[105 * E + 112], 312, 'two samples out: spread');
  assert.is(m[105 * E + 113], NO_LAKE_M, 'three out: no lake');
  assert.is(m[5 * E + 5], NO_LAKE_M, 'the sea has no lake level');
  // Sea right beside the lake: no level spreads onto it.
  water[105 * E + 99] = SEA_LEVEL_CODE;
  assert.is(lakeLevelMap({ water, heightQuantumM: q })[105 * E + 99], NO_LAKE_M, 'no lake level on the sea beside it');
});

test.run();
