// scatter.test.mjs - Scatter and sites on the WebAssembly build
// (wasm/ct_scatter.mjs, wasm/ct_sites.mjs): the digests of
// tests/golden/scatter.txt, which the native build wrote, so native ==
// WASM; the catalogue; the chunk reused at surface_lod; pool.scatter equal to
// world.scatter with its arrays transferred; and bad input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { freshCore, thrown } from './ct_fixture.mjs';
import { createPool } from '../../worker/client.js';

const golden = readFileSync(new URL('../golden/scatter.txt', import.meta.url), 'utf8').split('\n');
const [, , seed, lod] = golden.find((l) => l.startsWith('world ')).split(' ');
const SPEC = { preset: 'balanced', set: { seed: Number(seed), surface_lod: Number(lod) } };
const core = await freshCore();
const world = core.buildWorld(SPEC);

/** FNV-1a 64 over little-endian bytes, as tests/c/scatter_digest.h. */
function fnv(h, bytes) {
  const P = 0x100000001b3n, M = (1n << 64n) - 1n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * P) & M;
  return h;
}
const bytesOf = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
const INIT = 0xcbf29ce484222325n;

function scatterDigest(s) {
  let h = fnv(INIT, bytesOf(s.center));
  for (let i = 0; i < s.count; i++) {
    for (const [a, per] of [[s.id, 1], [s.kind, 1], [s.positions, 3], [s.heightM, 1], [s.yaw, 1], [s.scale, 1]]) {
      h = fnv(h, bytesOf(a.subarray(per * i, per * i + per)));
    }
  }
  return h.toString(16).padStart(16, '0');
}

function sitesDigest(sites) {
  let h = INIT;
  for (const s of sites) {
    h = fnv(h, bytesOf(new Float64Array([...s.dir, s.heightM, s.reliefM, s.slopeDeg, s.freshWaterM, s.coastM, s.biome, s.score])));
  }
  return h.toString(16).padStart(16, '0');
}

test('the golden world is the one the native build scattered on', () => {
  assert.is(world.generation, golden.find((l) => l.startsWith('world ')).split(' ')[5]);
});

test('scatter: native == WebAssembly for every golden key (surface_lod from the chunk, coarser from points)', () => {
  const lines = golden.filter((l) => l.startsWith('scatter '));
  assert.ok(lines.length >= 3);
  for (const line of lines) {
    const [, face, l, x, y, , count, , hex] = line.split(' ');
    const s = world.scatter({ face: Number(face), lod: Number(l), x: Number(x), y: Number(y) });
    assert.is(s.count, Number(count), line);
    assert.is(scatterDigest(s), hex, line);
    assert.ok(s.id instanceof BigUint64Array && s.id.length === s.count && s.positions.length === 3 * s.count);
  }
});

test('sites: native == WebAssembly for each kind', () => {
  for (const line of golden.filter((l) => l.startsWith('sites '))) {
    const [, kind, count, spacing, , n, , hex] = line.split(' ');
    const sites = world.sites({ kind, count: Number(count), minSpacingM: Number(spacing) });
    assert.is(sites.length, Number(n), line);
    assert.is(sitesDigest(sites), hex, line);
  }
});

test('the catalogue comes from ct_scatter.def, and kinds index it', () => {
  const kinds = core.scatterKinds();
  assert.ok(kinds.length >= 9);
  for (const name of ['conifer', 'broadleaf', 'palm', 'shrub', 'cactus', 'reed', 'grass_tuft', 'boulder', 'rock']) {
    assert.ok(kinds.some((k) => k.name === name), name);
  }
  assert.ok(kinds.every((k) => k.densityKm2.length === 8 && Object.isFrozen(k)));
  const s = world.scatter({ face: 2, lod: 12, x: 3224, y: 1378 });
  assert.ok(s.kind.every((k) => k < kinds.length));
});

test('docs/populate.md shows the catalogue as ct_scatter.def has it', () => {
  const doc = readFileSync(new URL('../../docs/populate.md', import.meta.url), 'utf8');
  const kinds = core.scatterKinds();
  for (const k of kinds) {
    const row = doc.split('\n').find((l) => l.startsWith(`| ${k.name} |`) && l.split('|').length > 14);
    assert.ok(row, `docs row for ${k.name}`);
    const c = row.split('|').map((x) => x.trim());
    assert.is(Number(c[2]), k.level, `${k.name} level`);
    assert.is(Number(c[3]), k.spacingM, `${k.name} spacing`);
    assert.is(Number(c[4]), k.maxSlopeDeg, `${k.name} slope`);
    assert.is(c[5], `${k.minHeightM}-${k.maxHeightM}`, `${k.name} heights`);
    assert.is(c[7], `${k.minSizeM}-${k.maxSizeM}`, `${k.name} sizes`);
    assert.is(Number(c[8]), k.collisionPerM, `${k.name} collision`);
    assert.equal(c.slice(9, 16).map(Number), k.densityKm2.slice(1), `${k.name} densities`);
  }
});

test('at surface_lod scatter reuses the chunk generated last', () => {
  const key = { face: 2, lod: 12, x: 3225, y: 1378 };
  world.chunk(key);
  const before = world.chunkCounters();
  world.scatter(key);
  world.mesh(key, { stride: 64 });
  const after = world.chunkCounters();
  assert.is(after.generated, before.generated);
  assert.is(after.reused, before.reused + 2);
});

test('pool.scatter: the same instances from a worker, arrays transferred', async () => {
  const pool = await createPool({ workers: 1 });
  try {
    await pool.build(SPEC);
    const key = { face: 2, lod: 12, x: 3224, y: 1378 };
    const got = await pool.scatter(key), want = world.scatter(key);
    assert.is(got.generation, world.generation);
    assert.is(got.count, want.count);
    assert.is(scatterDigest(got), scatterDigest(want));
    assert.ok(got.id instanceof BigUint64Array && got.positions.buffer instanceof ArrayBuffer);
    const bad = await pool.scatter({ face: 2, lod: 13, x: 0, y: 0 }).catch((e) => e);
    assert.is(bad.code, 'CT_ERR_LOD');
    assert.is((await pool.scatter({ face: 2, lod: 4, x: 3, y: 3 })).count >= 0, true, 'the worker still answers');
  } finally {
    await pool.terminate();
  }
});

test('bad input gets clear errors', () => {
  assert.is(thrown(() => world.scatter({ face: 2, lod: 13, x: 0, y: 0 })).code, 'CT_ERR_LOD');
  assert.is(thrown(() => world.scatter({ face: 9, lod: 3, x: 0, y: 0 })).code, 'CT_ERR_FACE');
  assert.is(thrown(() => world.sites({ kind: 'castle' })).code, 'CT_ERR_CONFIG');
  assert.is(thrown(() => world.sites({ count: 0 })).code, 'CT_ERR_CONFIG');
  assert.is(thrown(() => world.sites({ minSpacingM: NaN })).code, 'CT_ERR_CONFIG');
  assert.is(thrown(() => world.sites({ near: [0, 0, 1] })).code, 'CT_ERR_CONFIG');
  assert.is(thrown(() => world.sites({ near: [0, 0, 0], radiusM: 100 })).code, 'CT_ERR_DIRECTION');
  assert.ok(world.sites({ kind: 'spawn', count: 2 }).length === 2, 'the world still answers');
});

test.run();
