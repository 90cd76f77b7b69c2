// Tests of the mesh option loneBiomes: in a coarse tile, a land sample whose biome no dry neighbour shares takes the colour of its neighbours' most common biome, in the mesh and the palette map, while pairs, shores, tile borders, water and the chunk itself stay as they were.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { handlerFixture } from './handler_fixture.mjs';
import { MSG } from '../../worker/protocol.js';
import { loneBiomes } from '../../worker/maps/lone_biomes.js';
import { thinWater } from '../../worker/maps/thin_water.js';
import { SEA_LEVEL_CODE, SHADES_PER_BIOME } from '../../wasm/ct_constants.mjs';

const E = 257;
let ask;

test.before(async () => {
  ({ ask } = await handlerFixture());
  const r = await ask(MSG.BUILD, { preset: 'balanced', set: { seed: 42 } });
  assert.ok(r.ok, JSON.stringify(r.error));
});

test('loneBiomes: a lone sample takes the common neighbour biome; pairs, shores, borders and water stay', () => {
  const grass = 2 * SHADES_PER_BIOME + 1, forest = 3 * SHADES_PER_BIOME + 2, snow = 7 * SHADES_PER_BIOME + 4;
  const water = new Uint16Array(E * E), palette = new Uint8Array(E * E).fill(grass);
  palette[10 * E + 10] = snow;                                   // lone among grass ...
  palette[11 * E + 11] = forest; palette[9 * E + 9] = forest;    // ... between two lone forest corners: grass (6 of 8) wins
  palette[40 * E + 40] = snow; palette[40 * E + 41] = snow;      // a pair stays
  palette[60 * E + 60] = snow - 1; palette[60 * E + 61] = snow;  // two shades of one biome stay
  palette[0 * E + 50] = snow;                                    // a border sample stays
  palette[80 * E + 80] = snow;                                   // a shore sample with four dry neighbours stays
  for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) water[(80 + dy) * E + 80 + dx] = SEA_LEVEL_CODE;
  palette[120 * E + 120] = snow;                                 // lone (below: hidden by the thin-water pass first)
  water[200 * E + 200] = SEA_LEVEL_CODE + 10; palette[200 * E + 200] = 1;   // water is never a lone biome
  const hide = loneBiomes({ water, palette });
  const hidden = [];
  for (let i = 0; i < E * E; i++) if (hide[i] >= 0) hidden.push(i);
  assert.equal(hidden, [9 * E + 9, 10 * E + 10, 11 * E + 11, 120 * E + 120]);
  for (const i of hidden) assert.is(hide[i], grass);
  assert.is(palette[10 * E + 10], snow, 'the input is untouched');
  // A sample the thin-water pass already hid is left as that pass set it.
  const before = new Int16Array(E * E).fill(-1);
  before[120 * E + 120] = forest;
  const both = loneBiomes({ water, palette }, before);
  assert.is(both, before, 'added to in place');
  assert.is(both[120 * E + 120], forest);
  assert.is(both[10 * E + 10], grass);
  assert.is(loneBiomes({ water, palette: new Uint8Array(E * E).fill(grass) }), null);
});

test('loneBiomes: the LOD-1 tiles of the default world lose their speckle, only dry lone samples change', async () => {
  let lone = 0, after = 0, changed = 0;
  const isLone = (w, p, i) => {
    if (w[i] !== 0) return false;
    let dry = 0;
    for (const d of [1, -1, E, -E, E + 1, E - 1, -E + 1, -E - 1]) {
      if (w[i + d] !== 0) continue;
      dry++;
      if (((p[i + d] / SHADES_PER_BIOME) | 0) === ((p[i] / SHADES_PER_BIOME) | 0)) return false;
    }
    return dry >= 5;
  };
  for (const key of [{ face: 4, lod: 1, x: 0, y: 0 }, { face: 0, lod: 1, x: 1, y: 1 }, { face: 1, lod: 1, x: 0, y: 1 }]) {
    const chunk = (await ask(MSG.CHUNK, { key, format: 'arrays' })).result;
    const opts = { stride: 1, skirtDepthM: 1000, paletteMap: true, thinWater: true };
    const plain = (await ask(MSG.MESH, { key, options: opts })).result;
    const clean = (await ask(MSG.MESH, { key, options: { ...opts, loneBiomes: true } })).result;
    assert.equal(clean.positions, plain.positions, 'heights stay');
    const thin = thinWater(chunk);
    for (let y = 1; y < E - 1; y++) {
      for (let x = 1; x < E - 1; x++) {
        const i = y * E + x;
        if (isLone(chunk.water, chunk.palette, i) && !(thin && thin[i] >= 0)) {
          lone++;
          if (clean.paletteMap[i] === chunk.palette[i]) after++;
        }
        if (clean.paletteMap[i] !== plain.paletteMap[i]) {
          changed++;
          assert.is(chunk.water[i], 0, 'only dry samples change');
          assert.ok(clean.paletteMap[i] >= SHADES_PER_BIOME, 'to a land colour');
        }
      }
    }
    for (let k = 0; k < E; k++) {
      for (const i of [k, 256 * E + k, k * E, k * E + 256]) assert.is(clean.paletteMap[i], plain.paletteMap[i], 'borders stay');
    }
    // The mesh's own colours follow the map (stride 1: one vertex per sample).
    for (let i = 0; i < E * E; i++) assert.is(clean.paletteIndex[i], clean.paletteMap[i]);
  }
  // Seed 42 on algorithm version 6: hundreds of lone crest samples per LOD-1 tile.
  assert.ok(lone > 300, `lone samples: ${lone}`);
  assert.is(after, 0, 'every lone sample is recoloured');
  assert.is(changed, lone);
});

test('loneBiomes must be a boolean', async () => {
  const r = await ask(MSG.MESH, { key: { face: 0, lod: 0, x: 0, y: 0 }, options: { loneBiomes: 'yes' } });
  assert.not.ok(r.ok);
  assert.match(r.error.message, /loneBiomes/);
});

test.run();
