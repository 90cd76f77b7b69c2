// Tests of wasm/ct_constants.mjs, the header's constants generated for the JS
// side by tools/gen_constants.c: every value agrees with what the WebAssembly
// core itself answers (names, presets, buffer and file sizes, the sea's water
// code, the LOD limit), and the committed file is what a fresh generation
// writes now.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as C from '../../wasm/ct_constants.mjs';
import { ROOT, SMALL, freshCore } from './ct_fixture.mjs';

let core, world;

test.before(async () => {
  core = await freshCore();
  world = core.buildWorld(SMALL);
});

test.after(() => world?.free());

test('face, biome and region names are the core\'s own', () => {
  const x = core.heap.x, str = (p) => core.heap.str(p);
  assert.equal([...C.FACE_NAMES], [0, 1, 2, 3, 4, 5].map((f) => core.faceName(f)));
  assert.equal([...C.FACE_FILE_NAMES], [0, 1, 2, 3, 4, 5].map((f) => core.faceFileName(f)));
  assert.equal(core.faceName(6), '?', 'six faces, no more');
  C.BIOME_NAMES.forEach((name, i) => assert.is(str(x.ctw_biome_name(i)), name));
  assert.is(str(x.ctw_biome_name(C.BIOME_NAMES.length)), '?', 'no biome past the list');
  C.REGION_NAMES.forEach((name, i) => assert.is(str(x.ctw_region_name(i)), name));
  assert.is(str(x.ctw_region_name(C.REGION_NAMES.length)), '?', 'no region past the list');
  assert.is(world.region([0, 0, 1]).name, C.REGION_NAMES[world.region([0, 0, 1]).dominant]);
});

test('preset names are the core\'s table, each with its line, and each one builds a config', () => {
  assert.equal([...C.PRESET_NAMES], core.presets());
  assert.ok(C.PRESET_NAMES.includes('balanced'), 'the default preset is listed');
  assert.is(C.PRESET_DOCS.length, C.PRESET_NAMES.length);
  for (const [i, name] of C.PRESET_NAMES.entries()) {
    assert.ok(C.PRESET_DOCS[i].length > 0, `${name} has a line`);
    assert.type(core.config({ preset: name }).seed, 'number');
  }
});

test('chunk and file sizes match what the core hands out', () => {
  const key = { face: 4, lod: 2, x: 1, y: 1 };
  const c = world.chunk(key);
  assert.is(c.height.length, C.CHUNK_SAMPLES);
  assert.is(C.CHUNK_EDGE * C.CHUNK_EDGE, C.CHUNK_SAMPLES);
  assert.is(C.CHUNK_EDGE, C.CHUNK_CORE + 1);
  assert.is(world.chunkCtc(key).length, C.CTC_FILE_BYTES);
  assert.is(C.CTC_FILE_BYTES, C.CTC_HEADER_BYTES + 6 * C.CHUNK_SAMPLES);
  assert.is(world.chunkU16le(key).length, C.U16LE_FILE_BYTES);
  assert.is(C.U16LE_FILE_BYTES, 2 * C.CHUNK_CORE * C.CHUNK_CORE);
  assert.is(core.palette().length, 3 * C.PALETTE_SIZE);
  assert.is(C.PALETTE_SIZE, C.SHADES_PER_BIOME * C.BIOME_NAMES.length);
});

test('the sea\'s water code, the dry code and the LOD limit are the core\'s', () => {
  // A whole face at LOD 0 holds sea and dry land in a balanced world.
  const c = world.chunk({ face: 4, lod: 0, x: 0, y: 0 });
  const sea = [...c.water.keys()].filter((i) => c.biome[i] === 0 && c.water[i] !== 0);
  assert.ok(sea.length > 0, 'some sea');
  assert.ok(sea.some((i) => c.water[i] === C.SEA_LEVEL_CODE), 'sea samples carry SEA_LEVEL_CODE');
  assert.ok(c.water.some((w) => w === C.NO_WATER_CODE), 'dry samples carry NO_WATER_CODE');
  const x = core.heap.x, [err, len] = core.heap.errArgs();
  assert.is(x.ctw_key_validate(0, C.MAX_LOD, 0, 0, err, len), 0, 'MAX_LOD is a valid level');
  assert.is.not(x.ctw_key_validate(0, C.MAX_LOD + 1, 0, 0, err, len), 0, 'MAX_LOD + 1 is not');
});

test('the committed module is what tools/gen_constants.c writes now (not stale)', () => {
  const r = spawnSync('make', ['--no-print-directory', 'build/native/gen_constants'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 0, `make build/native/gen_constants: ${r.stdout}${r.stderr}`);
  const fresh = spawnSync(path.join(ROOT, 'build/native/gen_constants'), { encoding: 'utf8' });
  assert.is(fresh.status, 0);
  const committed = readFileSync(path.join(ROOT, 'wasm/ct_constants.mjs'), 'utf8');
  assert.ok(fresh.stdout === committed, 'wasm/ct_constants.mjs is stale: run make constants and commit it');
});

test.run();
