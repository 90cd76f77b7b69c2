// core.test.mjs - The WebAssembly core under Node: knob table, presets and
// config validation, addressing, world build (progress, cancel, determinism,
// stats), snapshots (round trip and every rejection), samples and errors.
// Chunk invariants are in core_chunk.test.mjs, meshes in mesh.test.mjs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SMALL, freshCore, thrown } from './ct_fixture.mjs';
import { PRESET_NAMES } from '../../wasm/ct_constants.mjs';

const core = await freshCore();
const world = core.buildWorld(SMALL);

/** The knob table parsed straight from ct_knobs.def, independently of C. */
function knobsFromDef() {
  const text = readFileSync(path.join(ROOT, 'core/include/ct_knobs.def'), 'utf8');
  const re = /^CT_KNOB_([UF])\(\s*(\w+),\s*([^,]+),\s*([^,]+),\s*([^,]+),\s*"((?:[^"\\]|\\.)*)"\s*\)/gm;
  return [...text.matchAll(re)].map((m) => ({
    name: m[2], kind: m[1] === 'U' ? 'uint' : 'real',
    def: Number(m[3].replace(/u$/i, '')), min: Number(m[4].replace(/u$/i, '')),
    max: Number(m[5].replace(/u$/i, '')), doc: m[6],
  }));
}

test('knobs() is the C table: same names, kinds, defaults, ranges and docs as ct_knobs.def', () => {
  const want = knobsFromDef();
  assert.ok(want.length > 40, 'parsed the def file');
  assert.equal(core.knobs(), want);
  for (const k of core.knobs()) assert.ok(k.min <= k.def && k.def <= k.max, k.name);
});

test('presets and the balanced defaults', () => {
  assert.equal(core.presets(), [...PRESET_NAMES]);
  const defaults = Object.fromEntries(core.knobs().map((k) => [k.name, k.def]));
  assert.equal(core.config({}), defaults);
  assert.equal(core.config({ preset: 'balanced' }), defaults);
  // From the behaviour spec: walk exposes the contour process, noise skips
  // walks and lakes, regional runs at macro resolution 128.
  assert.is(core.config({ preset: 'walk' }).mode, 1);
  assert.is(core.config({ preset: 'noise' }).mode, 2);
  assert.is(core.config({ preset: 'regional' }).macro_resolution, 128);
  for (const p of core.presets()) assert.type(core.config({ preset: p }).seed, 'number');
});

test('config: text then set, numbers exact, many spellings of set', () => {
  const c = core.config({ preset: 'alpine', text: '# comment\nseed=5\n\nradius_m=2000000\n', set: { seed: 7 } });
  assert.is(c.seed, 7);
  assert.is(c.radius_m, 2000000);
  assert.is(core.config({ set: { radius_m: 1234567.891 } }).radius_m, 1234567.891);
  assert.is(core.config({ set: { land_bias: -0.1 } }).land_bias, -0.1);
  assert.is(core.config({ set: ['seed=11'] }).seed, 11);
  assert.is(core.config({ set: [['seed', 12]] }).seed, 12);
  assert.is(core.config({ set: new Map([['seed', '13']]) }).seed, 13);
  assert.is(core.config({ set: { seed: 4294967295 } }).seed, 4294967295);
});

test('config errors carry the C code and name the knob', () => {
  const cases = [
    [{ set: { nope: 1 } }, 'CT_ERR_KNOB_UNKNOWN', /nope/],
    [{ set: { seed: -1 } }, 'CT_ERR_KNOB_RANGE', /seed/],
    [{ set: { seed: 4294967296 } }, 'CT_ERR_KNOB_RANGE', /seed/],
    [{ set: { seed: 1.5 } }, 'CT_ERR_KNOB_VALUE', /seed/],
    [{ set: { radius_m: NaN } }, 'CT_ERR_KNOB_VALUE', /radius_m/],
    [{ set: { radius_m: Infinity } }, 'CT_ERR_KNOB_VALUE', /radius_m/],
    [{ set: { radius_m: 'abc' } }, 'CT_ERR_KNOB_VALUE', /radius_m/],
    [{ set: { radius_m: 10 } }, 'CT_ERR_KNOB_RANGE', /radius_m/],
    [{ preset: 'nowhere' }, 'CT_ERR_PRESET', /nowhere/],
    [{ text: 'seed=3\nbogus line' }, 'CT_ERR_CONFIG', /line 2/],
    [{ set: { macro_resolution: 48 } }, null, /macro_resolution/],
    [{ set: { seed: {} } }, 'CT_ERR_KNOB_VALUE', /seed/],
  ];
  for (const [opts, code, re] of cases) {
    const e = thrown(() => core.config(opts));
    assert.instance(e, Error);
    if (code) assert.is(e.code, code, JSON.stringify(opts, (k, v) => (Number.isFinite(v) || typeof v !== 'number' ? v : String(v))));
    else assert.match(e.code, /^CT_ERR_/);
    assert.match(e.message, re);
  }
});

test('face names and parsing', () => {
  const names = ['+X', '-X', '+Y', '-Y', '+Z', '-Z'], files = ['px', 'nx', 'py', 'ny', 'pz', 'nz'];
  names.forEach((n, f) => {
    assert.is(core.faceName(f), n);
    assert.is(core.faceFileName(f), files[f]);
    assert.is(core.faceParse(n), f);
    assert.is(core.faceParse(files[f]), f);
  });
  assert.is(core.faceName(6), '?');
  assert.is(thrown(() => core.faceParse('qq')).code, 'CT_ERR_FACE');
});

test('keyDirection follows the cube-map face table at every face corner', () => {
  // +X (1,-v,-u) -X (-1,-v,u) +Y (u,1,v) -Y (u,-1,-v) +Z (u,-v,1) -Z (-u,-v,-1)
  const table = [
    (u, v) => [1, -v, -u], (u, v) => [-1, -v, u], (u, v) => [u, 1, v],
    (u, v) => [u, -1, -v], (u, v) => [u, -v, 1], (u, v) => [-u, -v, -1],
  ];
  const s = 1 / Math.sqrt(3);
  for (let face = 0; face < 6; face++) {
    for (const [lx, ly] of [[0, 0], [256, 0], [0, 256], [256, 256], [128, 128]]) {
      const u = 2 * lx / 256 - 1, v = 2 * ly / 256 - 1;
      const c = table[face](u, v), len = Math.hypot(...c);
      const got = core.keyDirection({ face, lod: 0, x: 0, y: 0 }, lx, ly);
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(got[k] - c[k] / len) < 1e-15, `face ${face} (${lx},${ly})`);
      if (lx !== 128) for (let k = 0; k < 3; k++) assert.ok(Math.abs(Math.abs(got[k]) - s) < 1e-15);
    }
  }
});

test('keyAt: axis directions, tie rules, and a round trip with keyDirection', () => {
  const axes = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
  axes.forEach((d, face) => {
    const r = core.keyAt(d, 2);
    assert.equal(r.key, { face, lod: 2, x: 2, y: 2 });
    assert.is(r.localX, 0);
    assert.is(r.localY, 0);
  });
  // Exact ties go to X, then Y, then Z.
  assert.is(core.keyAt([1, 1, 0], 0).key.face, 0);
  assert.is(core.keyAt([-1, 1, 1], 0).key.face, 1);
  assert.is(core.keyAt([0, 1, 1], 0).key.face, 2);
  assert.is(core.keyAt([0, -1, -1], 0).key.face, 3);
  let seed = 7;
  const rnd = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 2 ** 31 - 1; };
  for (let i = 0; i < 300; i++) {
    const d = [rnd(), rnd(), rnd()], len = Math.hypot(...d);
    const lod = i % 17;
    const r = core.keyAt(d, lod);
    assert.ok(r.localX >= 0 && r.localX <= 256 && r.localY >= 0 && r.localY <= 256);
    const back = core.keyDirection(r.key, r.localX, r.localY);
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(back[k] - d[k] / len) < 1e-9, `round trip ${i}`);
  }
});

test('addressing rejects bad input with codes', () => {
  assert.is(thrown(() => core.keyAt([0, 0, 0], 1)).code, 'CT_ERR_DIRECTION');
  assert.is(thrown(() => core.keyAt([NaN, 0, 1], 1)).code, 'CT_ERR_DIRECTION');
  assert.is(thrown(() => core.keyAt([0, 0, 1], 17)).code, 'CT_ERR_LOD');
  assert.is(thrown(() => core.keyAt([0, 0, 1], -1)).code, 'CT_ERR_LOD');
  assert.is(thrown(() => core.keyAt([0, 1], 1)).code, 'CT_ERR_DIRECTION');
  assert.is(thrown(() => core.keyDirection({ face: 6, lod: 1, x: 0, y: 0 }, 0, 0)).code, 'CT_ERR_FACE');
  assert.is(thrown(() => core.keyDirection({ face: 0, lod: 1, x: 2, y: 0 }, 0, 0)).code, 'CT_ERR_CHUNK_XY');
  assert.is(thrown(() => core.keyDirection({ face: 0, lod: 1, x: -1, y: 0 }, 0, 0)).code, 'CT_ERR_CHUNK_XY');
  assert.is(thrown(() => core.keyDirection({ face: 0, lod: 1.5, x: 0, y: 0 }, 0, 0)).code, 'CT_ERR_LOD');
  assert.is(thrown(() => core.keyDirection({ face: 0, lod: 1, x: 0, y: 0 }, NaN, 0)).code, 'CT_ERR_LOCAL');
  assert.is(thrown(() => core.keyDirection(null, 0, 0)).code, 'CT_ERR_NULL');
});

test('world: generation, config, stats', () => {
  assert.match(world.generation, /^[0-9a-f]{16}$/);
  assert.equal(world.config, core.config(SMALL));
  const s = world.stats(), n = 32;
  assert.is(s.macroResolution, n);
  assert.is(s.vertexCount, 6 * n * n + 2);
  assert.is(s.edgeCount, 12 * n * n);
  assert.ok(s.oceanFraction + s.landFraction <= 1 + 1e-12, "lakes are neither ocean nor land");
  assert.ok(s.oceanFraction > 0 && s.landFraction > 0);
  assert.ok(s.bytesHeld > 0 && s.buildMs >= 0 && s.passes > 0);
  assert.ok(s.minHeightM < 0 && s.maxHeightM > 0);
});

test('same config in a second instance: same generation; another seed differs', async () => {
  const other = await freshCore();
  const w2 = other.buildWorld(SMALL);
  assert.is(w2.generation, world.generation);
  const w3 = other.buildWorld({ ...SMALL, set: { ...SMALL.set, seed: 43 } });
  assert.is.not(w3.generation, world.generation);
  w2.free();
  w3.free();
});

test('build progress: stages in order, fractions in [0,1] rising to 1', () => {
  const seen = [];
  const w = core.buildWorld(SMALL, { onProgress: (stage, f) => { seen.push([stage, f]); } });
  assert.ok(seen.length >= 3, `only ${seen.length} progress calls`);
  for (let i = 0; i < seen.length; i++) {
    const f = seen[i][1];
    assert.ok(f >= 0 && f <= 1, `fraction ${f}`);
    if (i) assert.ok(f >= seen[i - 1][1], 'fractions never go back');
    assert.type(seen[i][0], 'string');
    assert.ok(seen[i][0].length > 0);
  }
  assert.is(seen[seen.length - 1][1], 1);
  assert.is(w.generation, world.generation, 'progress does not change the world');
  w.free();
});

test('build cancel: by return value, by AbortSignal, by a throwing callback; no leak', () => {
  const before = core.memoryBytes();
  for (let i = 0; i < 3; i++) {
    let calls = 0;
    const e = thrown(() => core.buildWorld(SMALL, { onProgress: () => ++calls >= 2 }));
    assert.is(e.code, 'CT_ERR_CANCELLED');
    assert.is(calls, 2);
  }
  const ac = new AbortController();
  ac.abort();
  assert.is(thrown(() => core.buildWorld(SMALL, { signal: ac.signal })).code, 'CT_ERR_CANCELLED');
  const boom = new Error('boom');
  assert.is(thrown(() => core.buildWorld(SMALL, { onProgress: () => { throw boom; } })), boom);
  assert.is(core.memoryBytes(), before);
  assert.match(world.generation, /^[0-9a-f]{16}$/);
  assert.ok(world.sample([[0, 0, 1]]).heightM.length === 1, 'the earlier world still works');
});

test('snapshot round trip: same generation, config and chunk digests', () => {
  const bytes = world.snapshot();
  assert.instance(bytes, Uint8Array);
  assert.is(new TextDecoder().decode(bytes.subarray(0, 8)), 'CTWORLD2');
  const loaded = core.loadWorld(bytes);
  assert.is(loaded.generation, world.generation);
  assert.equal(loaded.config, world.config);
  for (const key of [{ face: 0, lod: 4, x: 3, y: 9 }, { face: 5, lod: 2, x: 1, y: 0 }]) {
    assert.is(loaded.chunk(key).digest, world.chunk(key).digest);
  }
  assert.equal(loaded.snapshot(), bytes, 'a loaded world writes the same bytes');
  assert.is(core.loadWorld(bytes.buffer.slice(0)).generation, world.generation, 'ArrayBuffer accepted');
  loaded.free();
});

test('snapshot rejection: truncated, corrupt, wrong magic, version 1', () => {
  const bytes = world.snapshot();
  const codeOf = (b) => thrown(() => core.loadWorld(b)).code;
  assert.is(codeOf(bytes.subarray(0, 4)), 'CT_ERR_TRUNCATED');
  assert.is(codeOf(bytes.subarray(0, bytes.length - 1)), 'CT_ERR_TRUNCATED');
  const flip = bytes.slice();
  flip[Math.floor(flip.length / 2)] ^= 0x40;
  assert.is(codeOf(flip), 'CT_ERR_CHECKSUM');
  const magic = bytes.slice();
  magic[0] = 0x58;
  assert.is(codeOf(magic), 'CT_ERR_FORMAT');
  const v1 = bytes.slice();
  v1[7] = 0x31;   // "CTWORLD1"
  assert.is(codeOf(v1), 'CT_ERR_VERSION');
  assert.is(codeOf(new Uint8Array(0)), 'CT_ERR_TRUNCATED');
  assert.is(thrown(() => core.loadWorld('not bytes')).code, 'CT_ERR_NULL');
  assert.is(world.chunk({ face: 0, lod: 1, x: 0, y: 0 }).key.face, 0, 'world untouched');
});

test('sample: batches, agreement with single samples, bad direction index', () => {
  const n = 2500, dirs = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const t = i * 0.7, z = 1 - 2 * (i + 0.5) / n, r = Math.sqrt(1 - z * z);
    dirs.set([r * Math.cos(t), z, r * Math.sin(t)], 3 * i);
  }
  const all = world.sample(dirs);
  for (const i of [0, 1023, 1024, 2048, n - 1]) {
    const one = world.sample([[dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]]]);
    for (const k of Object.keys(all)) assert.is(one[k][0], all[k][i], `${k}[${i}]`);
  }
  for (let i = 0; i < n; i++) {
    // water bodies 0.. and rivers (-2) are water, -1 is land
    assert.is(all.hasWater[i], all.waterBody[i] !== -1 ? 1 : 0, `water body and flag agree at ${i}`);
    assert.ok(all.palette[i] < 40 && all.biome[i] < 8 && all.palette[i] >= 5 * all.biome[i] && all.palette[i] < 5 * all.biome[i] + 5);
    assert.ok(all.moisture[i] >= 0 && all.moisture[i] <= 1);
  }
  assert.ok(all.hasWater.some((w) => w) && all.hasWater.some((w) => !w), 'land and water both sampled');
  dirs.fill(0, 3 * 1500, 3 * 1501);
  const e = thrown(() => world.sample(dirs));
  assert.is(e.code, 'CT_ERR_DIRECTION');
  assert.is(e.index, 1500);
  assert.match(e.message, /1500/);
  assert.is(thrown(() => world.sample(new Float64Array(4))).code, 'CT_ERR_DIRECTION');
  assert.is(world.sample([]).heightM.length, 0);
});

test('world.keyAt, region, address', () => {
  const r = world.keyAt([0.3, 0.2, 1]);
  assert.is(r.key.lod, 4);
  assert.equal(world.keyAt([0.3, 0.2, 1], 2).key, core.keyAt([0.3, 0.2, 1], 2).key);
  assert.is(thrown(() => world.keyAt([0, 0, 1], 5)).code, 'CT_ERR_LOD');
  const g = world.region([0, 1, 0]);
  assert.ok(Math.abs(g.weights.reduce((a, b) => a + b, 0) - 1) < 1e-6);
  assert.is(g.name, ['plains', 'ridges', 'broken', 'basins'][g.dominant]);
  const a = world.address({ face: '+Z', lod: 4, x: 3, y: 9 }).split('/');
  assert.is(a.length, 6);
  assert.is(a[0], String(world.config.planet_id));
  assert.is(a[1], world.generation);
  assert.equal(a.slice(3), ['4', '3', '9']);
  assert.is(thrown(() => world.address({ face: 0, lod: 4, x: 16, y: 0 })).code, 'CT_ERR_CHUNK_XY');
});

test('a freed world refuses every call', () => {
  const w = core.buildWorld(SMALL);
  w.free();
  w.free();
  for (const f of [() => w.stats(), () => w.chunk({ face: 0, lod: 0, x: 0, y: 0 }), () => w.sample([[1, 0, 0]]),
    () => w.snapshot(), () => w.mesh({ face: 0, lod: 0, x: 0, y: 0 }), () => w.keyAt([1, 0, 0])]) {
    assert.is(thrown(f).code, 'CT_ERR_NULL');
  }
});

test('loadCore sources: path, URL, bytes, compiled Module; load time', async () => {
  const { compileCore, loadCore } = await import('../../wasm/ct.mjs');
  const file = path.join(ROOT, 'build/wasm/ct.wasm');
  const bytes = readFileSync(file);
  const mod = await compileCore(bytes);
  for (const src of [file, new URL(`file://${file}`), bytes, new Uint8Array(bytes).buffer, mod, undefined]) {
    const c = await loadCore(src);
    assert.is(c.presets().length, 8);
    assert.ok(c.loadMs >= 0 && c.loadMs < 5000, `load took ${c.loadMs} ms`);
  }
  console.log(`  ct.wasm: ${bytes.length} bytes, instantiate from bytes ${(await loadCore(bytes)).loadMs.toFixed(1)} ms`);
});

test.run();
