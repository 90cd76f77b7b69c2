// tiles_pool.test.mjs - A worker pool streaming baked tiles
// (createPool({tiles})) on real Node worker_threads, from a bake folder
// written by tests/js/tile_fixture.mjs: verified tiles give replies equal to
// generated ones (meshes with every map, colliders, chunks, scatter), from a file
// folder and over HTTP; a flipped byte, a missing tile and a tile that
// matches its index but does not decode are each generated locally instead,
// counted and reported once; keys outside the bake are generated silently;
// no tile enters a worker's buffer of the chunk it generated last;
// a manifest of another generation is refused for that world; broken
// manifests and index files stop createPool with a clear error. A bake by
// the native `terrain bake` holds the same tiles, index records and manifest
// as the JS baker's, and streams the same way.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPool } from '../../worker/client.js';
import { serve } from '../../scripts/serve.mjs';
import { SMALL, freshCore, ensureTerrain } from './ct_fixture.mjs';
import { bakeFolder } from './tile_fixture.mjs';

const OTHER = { ...SMALL, set: { ...SMALL.set, seed: 77 } };
const core = await freshCore();
const world = core.buildWorld(SMALL);
const L = world.config.surface_lod;

// Baked: LOD 1 and 2 of faces 0 and 4, and a few surface_lod keys.
const BAKED = [];
for (const face of [0, 4]) {
  for (const lod of [1, 2]) for (let y = 0; y < 2 ** lod; y++) for (let x = 0; x < 2 ** lod; x++) BAKED.push({ face, lod, x, y });
}
BAKED.push({ face: 4, lod: L, x: 9, y: 6 }, { face: 0, lod: L, x: 3, y: 12 });
const OUTSIDE = { face: 2, lod: 2, x: 1, y: 1 };
const MESH_OPTS = { stride: 2, skirtDepthM: 50, lakes: true, lakeLevels: true, relief: true, paletteMap: true, thinWater: true, loneBiomes: true };

const bake = bakeFolder(core, world, BAKED);
let plain;   // a pool without tiles: the generated replies

/** Every field of a reply equal to another's (typed arrays byte for byte), epoch and source aside. */
function sameReply(got, want, what) {
  for (const f of Object.keys(want)) {
    if (f === 'epoch' || f === 'source') continue;
    const a = got[f], b = want[f];
    if (ArrayBuffer.isView(b)) {
      assert.ok(ArrayBuffer.isView(a) && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength)), `${what}: ${f}`);
    } else if (b && typeof b === 'object' && !Array.isArray(b)) {
      sameReply(a, b, `${what}.${f}`);
    } else {
      assert.equal(a, b, `${what}: ${f}`);
    }
  }
}

/** A pool over a bake, collecting its fallback reports. */
async function tiledPool(manifest, spec = SMALL) {
  const reports = [];
  const pool = await createPool({ workers: 1, tiles: { manifest, onFallback: (info) => reports.push(info) } });
  if (spec) await pool.build(spec);
  return { pool, reports };
}

test.before(async () => {
  plain = await createPool({ workers: 1 });
  await plain.build(SMALL);
});

test('verified tiles give the replies of generated chunks', async () => {
  const { pool, reports } = await tiledPool(path.join(bake.dir, 'manifest.json'));
  try {
    for (const key of [BAKED[0], BAKED[7], BAKED[BAKED.length - 2], BAKED[BAKED.length - 1]]) {
      const got = await pool.mesh(key, MESH_OPTS), want = await plain.mesh(key, MESH_OPTS);
      assert.is(got.source, 'tile', 'the reply says it came from a tile');
      sameReply(got, want, `mesh ${JSON.stringify(key)}`);
      const gotC = await pool.collider(key, { stride: 4 }), wantC = await plain.collider(key, { stride: 4 });
      assert.is(gotC.source, 'tile');
      sameReply(gotC, wantC, 'collider');
      const gotK = await pool.chunk(key), wantK = await plain.chunk(key);
      assert.is(gotK.source, 'tile');
      sameReply(gotK, wantK, 'chunk');
      // Scatter stands on a surface_lod tile's float heights; coarser keys take point queries.
      const gotS = await pool.scatter(key), wantS = await plain.scatter(key);
      assert.is(gotS.source, key.lod === L ? 'tile' : undefined, 'scatter source');
      sameReply(gotS, wantS, 'scatter');
    }
    assert.ok((await plain.scatter(BAKED[BAKED.length - 2])).count > 0, 'a baked key with instances');
    const outside = await pool.mesh(OUTSIDE, { stride: 4 });
    assert.is(outside.source, undefined, 'a key outside the bake is generated as always');
    sameReply(outside, await plain.mesh(OUTSIDE, { stride: 4 }), 'outside');
    const s = pool.stats().tiles;
    assert.is(s.used, 14);
    assert.is(s.generated, 3);
    assert.equal(s.fallback, { missing: 0, bad: 0, decode: 0, generation: 0 });
    assert.is(s.tiles, BAKED.length);
    assert.is(reports.length, 0, 'nothing reported');
    // The worker generated only the key outside the bake, and no tile entered its buffer of the
    // chunk generated last: a .ctc of the last tiled key (never served from tiles) is generated.
    const before = (await pool.workerStats())[0].chunks;
    assert.is(before.generated, 1);
    const last = BAKED[BAKED.length - 1];
    await pool.mesh(last, { stride: 8 });
    const ctc = await pool.chunk(last, { format: 'ctc' });
    assert.ok(Buffer.from(ctc.bytes).equals(Buffer.from((await plain.chunk(last, { format: 'ctc' })).bytes)));
    assert.equal((await pool.workerStats())[0].chunks, { generated: 2, reused: before.reused });
  } finally {
    await pool.terminate();
  }
});

test('with an edit set, keys it reaches are generated in the edited world; the rest still come from tiles', async () => {
  // A crater on the centre of one baked surface_lod key: that key's tile
  // (of the base world) no longer holds the world's chunk.
  const hit = BAKED[BAKED.length - 2], miss = BAKED[BAKED.length - 1];
  const center = Array.from(core.keyDirection(hit, 128, 128));
  const edits = [{ kind: 'crater', center, radiusM: 300, depthM: 40, rimM: 5 }];
  const edited = world.withEdits(edits);
  const { pool, reports } = await tiledPool(path.join(bake.dir, 'manifest.json'));
  try {
    const touched = edited.editedKeys(hit.lod).map((k) => `${k.face}/${k.x}/${k.y}`);
    assert.ok(touched.includes(`${hit.face}/${hit.x}/${hit.y}`) && !touched.includes(`${miss.face}/${miss.x}/${miss.y}`), 'the crater reaches one baked key only');
    await pool.withEdits(edits);
    const gotHit = await pool.chunk(hit), gotMiss = await pool.chunk(miss);
    assert.is(gotHit.source, undefined, 'a key the edits reach is generated, as a key outside the bake');
    assert.is(gotHit.digest, edited.chunk(hit).digest, 'as the edited world has it');
    assert.is.not(gotHit.digest, world.chunk(hit).digest, 'which is not the base tile');
    assert.is(gotMiss.source, 'tile', 'an untouched key still comes from its tile');
    assert.is(gotMiss.digest, world.chunk(miss).digest);
    const mesh = await pool.mesh(hit, MESH_OPTS);
    assert.is(mesh.source, undefined, 'its mesh too');
    assert.equal(reports, [], 'an edited key is no tile failure');
  } finally {
    edited.free();
    await pool.terminate();
  }
});

test('a flipped byte and a missing tile are generated locally, counted and reported once per kind', async () => {
  const spoilt = bakeFolder(core, world, BAKED, { from: bake });
  try {
    const id = (k) => `${k.face}/${k.lod}/${k.x}/${k.y}`;
    for (const k of [BAKED[1], BAKED[2]]) {
      const file = spoilt.paths.get(id(k)), bytes = readFileSync(file);
      bytes[5000] ^= 0x01;
      writeFileSync(file, bytes);
    }
    rmSync(spoilt.paths.get(id(BAKED[3])));
    const { pool, reports } = await tiledPool(spoilt.dir + path.sep);
    try {
      for (const k of [BAKED[1], BAKED[2], BAKED[3]]) {
        const got = await pool.mesh(k, MESH_OPTS);
        assert.is(got.source, 'generated');
        sameReply(got, await plain.mesh(k, MESH_OPTS), `fallback ${id(k)}`);
      }
      assert.is((await pool.mesh(BAKED[4], { stride: 4 })).source, 'tile', 'the other tiles still serve');
      const s = pool.stats().tiles;
      assert.equal(s.fallback, { missing: 1, bad: 2, decode: 0, generation: 0 });
      assert.is(s.used, 1);
      assert.equal(reports.map((r) => [r.kind, r.first]), [['bad', true], ['bad', false], ['missing', true]]);
      assert.match(reports[0].message, /SHA-256/);
      assert.match(reports[2].message, /no such file|HTTP 404/);
      // A flipped byte in a surface_lod tile: its scatter is generated, never placed on the tile.
      const fine = BAKED[BAKED.length - 2], file = spoilt.paths.get(id(fine)), bytes = readFileSync(file);
      bytes[72 + 6 * 66049 + 4 * 30000 + 1] ^= 0x01;
      writeFileSync(file, bytes);
      const gotS = await pool.scatter(fine);
      assert.is(gotS.source, 'generated');
      sameReply(gotS, await plain.scatter(fine), 'scatter fallback');
      assert.is(pool.stats().tiles.fallback.bad, 3);
    } finally {
      await pool.terminate();
    }
  } finally {
    spoilt.cleanup();
  }
});

test('a tile that matches its index but does not decode is generated locally', async () => {
  const target = BAKED[5];
  const odd = bakeFolder(core, world, BAKED, {
    from: bake,
    tileBytes: (k, b) => {
      if (k !== target) return b;
      b[72 + 6 * 4000] ^= 0x40;   // a record byte: the tile's own digest no longer matches
      return b;
    },
  });
  try {
    const { pool, reports } = await tiledPool(path.join(odd.dir, 'manifest.json'));
    try {
      const got = await pool.mesh(target, MESH_OPTS);
      assert.is(got.source, 'generated');
      sameReply(got, await plain.mesh(target, MESH_OPTS), 'decode fallback');
      assert.is(pool.stats().tiles.fallback.decode, 1);
      assert.is(reports.length, 1);
      assert.is(reports[0].kind, 'decode');
      assert.match(reports[0].message, /digest/);
    } finally {
      await pool.terminate();
    }
  } finally {
    odd.cleanup();
  }
});

test('a manifest of another generation is refused for that world; console.warn reports it once', async () => {
  const warned = [], warn = console.warn;
  console.warn = (m) => warned.push(String(m));
  const pool = await createPool({ workers: 1, tiles: path.join(bake.dir, 'manifest.json') });
  try {
    const info = await pool.build(OTHER);
    assert.is.not(info.generation, bake.manifest.generation);
    for (const k of [BAKED[0], BAKED[1]]) assert.is((await pool.mesh(k, { stride: 8 })).source, undefined);
    assert.is(pool.stats().tiles.fallback.generation, 2);
    assert.is(pool.stats().tiles.used, 0);
    assert.is(warned.length, 1, 'reported once');
    assert.match(warned[0], new RegExp(`generation ${bake.manifest.generation}.*${info.generation}`));
    // Back to the bake's own world (its snapshot, checked against the manifest): tiles serve again.
    const back = await pool.loadBake();
    assert.is(back.generation, bake.manifest.generation);
    assert.is((await pool.mesh(BAKED[0], { stride: 8 })).source, 'tile');
  } finally {
    console.warn = warn;
    await pool.terminate();
  }
});

test('tiles stream over HTTP (scripts/serve.mjs)', async () => {
  const server = await serve({ root: bake.dir, port: 0, quiet: true });
  try {
    const { pool } = await tiledPool(`${server.url}manifest.json`, null);
    try {
      await pool.loadBake();
      const key = BAKED[BAKED.length - 1], got = await pool.mesh(key, MESH_OPTS);
      assert.is(got.source, 'tile');
      sameReply(got, await plain.mesh(key, MESH_OPTS), 'http');
    } finally {
      await pool.terminate();
    }
  } finally {
    await server.close();
  }
});

test('broken manifests and index files stop createPool with a clear error', async () => {
  const manifestFile = path.join(bake.dir, 'manifest.json'), text = readFileSync(manifestFile, 'utf8');
  const m = JSON.parse(text), broken = path.join(bake.dir, 'broken.json');
  const cases = [
    [{ ...m, format: 'other' }, /format/],
    [{ ...m, generation: 'xyz' }, /generation/],
    [{ ...m, tileFormat: 'glb' }, /tileFormat/],
    [{ ...m, indices: [{ ...m.indices[0], sha256: '0'.repeat(64) }] }, /SHA-256/],
    [{ ...m, indices: [{ ...m.indices[0], tiles: 3 }] }, /records/],
  ];
  try {
    for (const [bad, re] of cases) {
      writeFileSync(broken, JSON.stringify(bad));
      try {
        await createPool({ workers: 1, tiles: broken });
        assert.unreachable('createPool should refuse');
      } catch (e) {
        assert.is(e.code, 'CT_ERR_TILES', e.message);
        assert.match(e.message, re);
      }
    }
    try {
      await createPool({ workers: 1, tiles: path.join(bake.dir, 'nowhere.json') });
      assert.unreachable('createPool should refuse');
    } catch (e) {
      assert.match(e.message, /nowhere\.json/);
    }
  } finally {
    rmSync(broken, { force: true });
  }
});

test('a native terrain bake matches the JS baker and streams the same way', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ct-native-bake-'));
  const keys = [];   // faces +X and -Y, LODs 1-2: what the native run below bakes
  for (const face of [0, 3]) for (const lod of [1, 2]) for (let y = 0; y < 2 ** lod; y++) for (let x = 0; x < 2 ** lod; x++) keys.push({ face, lod, x, y });
  const js = bakeFolder(core, world, keys, { from: bake });
  try {
    const sets = Object.entries(SMALL.set).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
    const r = spawnSync(ensureTerrain(), ['bake', '--preset', SMALL.preset, ...sets, '--faces', '+X,-Y', '--lods', '1-2', '--out', dir], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    const native = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    assert.equal({ ...native, indices: null }, { ...js.manifest, indices: null }, 'the manifests agree but for their index files');
    for (const [id, file] of js.paths) {
      const rel = path.relative(js.dir, file);
      assert.ok(readFileSync(path.join(dir, rel)).equals(readFileSync(file)), `tile ${id}: native and JS bytes`);
    }
    const recs = (m, root) => readFileSync(path.join(root, m.indices[0].file)).subarray(24);
    assert.is(native.indices.length, 1);
    assert.ok(recs(native, dir).equals(recs(js.manifest, js.dir)), 'index records');
    const { pool, reports } = await tiledPool(path.join(dir, 'manifest.json'), null);
    try {
      assert.is((await pool.loadBake()).generation, world.generation);
      for (const key of [keys[0], keys[keys.length - 1]]) {
        const got = await pool.mesh(key, MESH_OPTS);
        assert.is(got.source, 'tile');
        sameReply(got, await plain.mesh(key, MESH_OPTS), `native ${JSON.stringify(key)}`);
      }
      assert.is(reports.length, 0);
    } finally {
      await pool.terminate();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    js.cleanup();
  }
});

test.after(async () => {
  await plain.terminate();
  bake.cleanup();
  world.free();
});
test.run();
