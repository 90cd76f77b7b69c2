// Tests of the mesh option thinWater: inland water narrower than a coarse tile's samples (rivers through lone samples at the river nodes) comes back as land in the mesh and the per-sample maps, while lakes, the sea (all but one-sample sea-level ponds) and the chunk itself stay as they were.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { handlerFixture } from './handler_fixture.mjs';
import { MSG } from '../../worker/protocol.js';
import { thinWater, withoutThinWater } from '../../worker/maps/thin_water.js';
import { SEA_LEVEL_CODE } from '../../wasm/ct_constants.mjs';

const E = 257;
let ask;

test.before(async () => {
  ({ ask } = await handlerFixture());
  const r = await ask(MSG.BUILD, { preset: 'balanced', set: { seed: 42 } });
  assert.ok(r.ok, JSON.stringify(r.error));
});

test('thinWater: a lone wet sample, a one-sample line and a one-sample sea-level pond go; a 2-wide river, a lake and a sea strait stay', () => {
  const water = new Uint16Array(E * E), palette = new Uint8Array(E * E).fill(17);
  const lake = SEA_LEVEL_CODE + 300;
  water[10 * E + 10] = lake; palette[10 * E + 10] = 3; palette[10 * E + 11] = 22;   // lone sample
  for (let x = 30; x < 40; x++) { water[20 * E + x] = lake; palette[20 * E + x] = 3; }   // 1 wide
  for (let x = 30; x < 40; x++) for (let y = 50; y < 52; y++) water[y * E + x] = lake;   // 2 wide
  for (let x = 100; x < 104; x++) for (let y = 100; y < 104; y++) water[y * E + x] = lake;
  water[200 * E + 200] = SEA_LEVEL_CODE;   // a sea-level pond of one sample goes
  water[220 * E + 220] = SEA_LEVEL_CODE; water[221 * E + 221] = SEA_LEVEL_CODE;   // a diagonal strait stays
  water[256 * E + 256] = lake;   // a corner sample: no block inside the chunk
  const hide = thinWater({ water, palette });
  let hidden = 0;
  for (let i = 0; i < E * E; i++) if (hide[i] >= 0) hidden++;
  assert.is(hidden, 1 + 10 + 1 + 1);
  assert.is(hide[10 * E + 10], 22, 'the lone sample takes its dry +x neighbour\'s colour');
  assert.is(hide[20 * E + 35], 17);
  assert.is(hide[50 * E + 35], -1);
  assert.is(hide[101 * E + 101], -1);
  assert.is(hide[200 * E + 200], 17);
  assert.is(hide[220 * E + 220], -1);
  assert.is(hide[221 * E + 221], -1);
  const dry = withoutThinWater({ water, palette }, hide);
  assert.is(dry.water[10 * E + 10], 0);
  assert.is(dry.palette[10 * E + 10], 22);
  assert.is(water[10 * E + 10], lake, 'the input is untouched');
  assert.is(thinWater({ water: new Uint16Array(E * E), palette }), null);
});

/** A sea-level sample none of whose eight neighbours inside the chunk is wet. */
function seaPond(chunk, i) {
  if (chunk.water[i] !== SEA_LEVEL_CODE) return false;
  const x = i % E, y = (i - x) / E;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const X = x + dx, Y = y + dy;
      if ((dx || dy) && X >= 0 && Y >= 0 && X < E && Y < E && chunk.water[Y * E + X] !== 0) return false;
    }
  }
  return true;
}

test('thinWater: the LOD-0 tiles of a river world lose their river dots, nothing else changes', async () => {
  let before = 0, after = 0, changed = 0;
  for (let face = 0; face < 6; face++) {
    const key = { face, lod: 0, x: 0, y: 0 };
    const chunk = (await ask(MSG.CHUNK, { key, format: 'arrays' })).result;
    const opts = { stride: 4, skirtDepthM: 1000, paletteMap: true, lakeLevels: true };
    const plain = (await ask(MSG.MESH, { key, options: opts })).result;
    const thin = (await ask(MSG.MESH, { key, options: { ...opts, thinWater: true } })).result;
    assert.equal(thin.positions, plain.positions);
    for (let i = 0; i < E * E; i++) {
      const inland = chunk.water[i] !== 0 && chunk.water[i] !== SEA_LEVEL_CODE;
      if (inland && plain.paletteMap[i] < 5) before++;
      if (inland && thin.paletteMap[i] < 5) after++;
      if (thin.paletteMap[i] !== plain.paletteMap[i]) {
        changed++;
        assert.ok(inland || seaPond(chunk, i), 'only inland water and one-sample sea ponds change');
        assert.ok(thin.paletteMap[i] >= 5, 'as a land colour');
      }
    }
    // Grid and skirt vertices of the stride-4 mesh take the map's colours.
    for (let gy = 0; gy <= 64; gy++) {
      for (let gx = 0; gx <= 64; gx++) assert.is(thin.paletteIndex[gy * 65 + gx], thin.paletteMap[gy * 4 * E + gx * 4]);
    }
    for (let k = 0; k <= 64; k++) assert.is(thin.paletteIndex[65 * 65 + k], thin.paletteMap[k * 4]);
  }
  // Balanced seed 42 has thousands of river nodes on land: from orbit they
  // were about half of the inland water (1042 of 2374 wet samples at LOD 0
  // on algorithm version 6; the rest is lakes).
  assert.ok(before > 200, `inland wet samples at LOD 0: ${before}`);
  // What stays is lakes and rivers at least two samples wide.
  assert.ok(before - after > 400, `after ${after} of ${before}`);
  assert.ok(changed >= before - after);
});

test('thinWater: river nodes carved below 0 m (sea-coded ponds) leave the LOD-0 tiles of the landing world', async () => {
  // The page's world (the default one has them as well): river carving takes
  // lowland river nodes below sea level, where the core codes their water as
  // the sea's; from orbit each was a pale turquoise dot on a regular grid
  // (every 4 samples at LOD 0).
  const r = await ask(MSG.BUILD, { preset: 'balanced', set: { seed: 42, surface_lod: 12 } });
  assert.ok(r.ok, JSON.stringify(r.error));
  let ponds = 0, onNodes = 0, left = 0;
  for (let face = 0; face < 6; face++) {
    const key = { face, lod: 0, x: 0, y: 0 };
    const chunk = (await ask(MSG.CHUNK, { key, format: 'arrays' })).result;
    const thin = (await ask(MSG.MESH, { key, options: { stride: 4, paletteMap: true, thinWater: true } })).result;
    for (let i = 0; i < E * E; i++) {
      if (!seaPond(chunk, i)) continue;
      ponds++;
      if ((i % E) % 4 === 0 && Math.floor(i / E) % 4 === 0) onNodes++;
      if (thin.paletteMap[i] < 5) left++;
    }
  }
  assert.ok(ponds > 100, `sea-level ponds at LOD 0: ${ponds}`);
  assert.ok(onNodes > 0.9 * ponds, `${onNodes} of ${ponds} on the macro grid`);
  assert.is(left, 0, `${left} of ${ponds} ponds left`);
});

test('thinWater must be a boolean', async () => {
  const r = await ask(MSG.MESH, { key: { face: 0, lod: 0, x: 0, y: 0 }, options: { thinWater: 1 } });
  assert.not.ok(r.ok);
  assert.match(r.error.message, /thinWater/);
});

test.run();
