// mesh_reuse.test.mjs - A world keeps the chunk it generated last: meshes of
// another kind or stride, files and chunk arrays of that key reuse it (the
// generate counter does not rise) and are byte-identical to results from a
// fresh generation; the worker handler's `lakes` option adds the water mesh
// of the same chunk to a terrain reply, transferred, only where lakes are.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SMALL, freshCore, keysByWater, thrown } from './ct_fixture.mjs';
import { createHandler } from '../../worker/handler.js';
import { MSG } from '../../worker/protocol.js';

const core = await freshCore();
const world = core.buildWorld(SMALL);
const L = world.config.surface_lod;
// A second instance with the same world: every request there is made right
// after a different key, so it always generates afresh.
const fresh = (await freshCore()).loadWorld(world.snapshot());
const OTHER = { face: 0, lod: 0, x: 0, y: 0 };
const generatedFresh = (fn) => { fresh.chunk(OTHER); return fn(fresh); };

const kinds = keysByWater(fresh);

/** Every field of two results equal, typed arrays byte for byte. */
function assertSame(a, b, what) {
  assert.equal(Object.keys(a).sort(), Object.keys(b).sort(), `${what}: fields`);
  for (const k of Object.keys(a)) {
    if (ArrayBuffer.isView(a[k])) {
      assert.is(a[k].constructor, b[k].constructor, `${what}.${k} type`);
      assert.ok(Buffer.compare(Buffer.from(a[k].buffer, a[k].byteOffset, a[k].byteLength),
        Buffer.from(b[k].buffer, b[k].byteOffset, b[k].byteLength)) === 0, `${what}.${k} bytes`);
    } else {
      assert.equal(a[k], b[k], `${what}.${k}`);
    }
  }
}

test('the test world has lake, sea-only and dry chunks', () => {
  assert.ok(kinds.lake && kinds.sea && kinds.dry, JSON.stringify(kinds));
});

test('requests for the key generated last reuse its chunk: the generate count stays', () => {
  const key = kinds.lake, c0 = world.chunkCounters();
  world.mesh(key, { stride: 4, skirtDepthM: 200 });
  const c1 = world.chunkCounters();
  assert.is(c1.generated, c0.generated + 1, 'the first mesh of a key generates');
  world.mesh(key, { stride: 4, water: true });
  world.mesh(key, { stride: 2, skirtDepthM: 100 });
  world.mesh(key, { stride: 1 });
  world.chunkCtc(key);
  world.chunkU16le(key);
  world.chunk({ face: key.face, lod: key.lod, x: key.x, y: key.y });
  const c2 = world.chunkCounters();
  assert.is(c2.generated, c1.generated, 'water, other strides, files and arrays of the same key generate nothing');
  assert.is(c2.reused, c1.reused + 6);
  world.mesh(kinds.dry, { stride: 8 });
  world.mesh(key, { stride: 8 });
  assert.is(world.chunkCounters().generated, c2.generated + 2, 'only the last chunk is kept');
  // Face spellings are the same key.
  const named = { ...key, face: core.faceName(key.face) };
  world.mesh(named, { stride: 8, water: true });
  assert.is(world.chunkCounters().generated, c2.generated + 2);
});

test('reused results are byte-identical to a fresh generation', () => {
  const key = kinds.lake;
  const requests = [
    ['terrain stride 4', (w) => w.mesh(key, { stride: 4, skirtDepthM: 200 })],
    ['water stride 4', (w) => w.mesh(key, { stride: 4, water: true })],
    ['terrain stride 1', (w) => w.mesh(key, { stride: 1, skirtDepthM: 50, verticalExaggeration: 2 })],
    ['water stride 2', (w) => w.mesh(key, { stride: 2, water: true })],
    ['chunk', (w) => w.chunk(key)],
    ['ctc', (w) => ({ bytes: w.chunkCtc(key) })],
    ['u16le', (w) => ({ bytes: w.chunkU16le(key) })],
  ];
  world.chunk(OTHER);
  const before = world.chunkCounters();
  for (const [what, fn] of requests) assertSame(fn(world), generatedFresh(fn), what);
  const after = world.chunkCounters();
  assert.is(after.generated, before.generated + 1, 'one generation served all seven requests');
  assert.is(after.reused, before.reused + requests.length - 1);
});

test('a failed generation forgets the buffer; bad mesh options do not', () => {
  const key = kinds.sea;
  const m0 = world.mesh(key, { stride: 8, digest: true });
  const g0 = world.chunkCounters().generated;
  assert.is(thrown(() => world.mesh(key, { stride: 3 })).code, 'CT_ERR_MESH');
  assert.is(world.mesh(key, { stride: 8, digest: true }).digest, m0.digest);
  assert.is(world.chunkCounters().generated, g0, 'rejected options never touched the chunk');
  assert.is(thrown(() => world.chunk({ face: key.face, lod: L + 1, x: 0, y: 0 })).code, 'CT_ERR_LOD');
  assert.is(world.mesh(key, { stride: 8, digest: true }).digest, m0.digest);
  assert.is(world.chunkCounters().generated, g0 + 1, 'regenerated after the failed request');
});

test('every world has its own chunk: another world never serves the old one', () => {
  const key = kinds.lake;
  const a = world.mesh(key, { stride: 8, digest: true });
  const other = core.buildWorld({ ...SMALL, set: { ...SMALL.set, seed: 99 } });
  try {
    const b = other.mesh(key, { stride: 8, digest: true });
    assert.is(other.chunkCounters().generated, 1);
    assert.is.not(b.digest, a.digest);
    assert.is(world.mesh(key, { stride: 8, digest: true }).digest, a.digest);
  } finally {
    other.free();
  }
});

// ------------------------------------------------------------ handler
let nextId = 1;
async function ask(h, type, args = {}) {
  const posts = [];
  await h.handle({ id: nextId++, type, ...args }, (reply, transfer) => posts.push({ reply, transfer }));
  return posts.filter((p) => p.reply.type !== MSG.PROGRESS).pop();
}

test('handler: mesh with lakes adds the water mesh of the same chunk, transferred', async () => {
  const h = createHandler(core);
  const built = await ask(h, MSG.BUILD, SMALL);
  assert.ok(built.reply.ok, JSON.stringify(built.reply.error));
  const stats0 = (await ask(h, MSG.STATS)).reply.result.chunks;
  assert.equal(stats0, { generated: 0, reused: 0 });

  const key = kinds.lake, opts = { stride: 4, skirtDepthM: 300, digest: true };
  const { reply, transfer } = await ask(h, MSG.MESH, { key, options: { ...opts, lakes: true } });
  assert.ok(reply.ok, JSON.stringify(reply.error));
  const m = reply.result, lakes = m.lakes;
  assert.is(m.digest, generatedFresh((w) => w.mesh(key, opts)).digest, 'the terrain mesh is unchanged by the option');
  assert.ok(lakes && lakes.indexCount > 0, 'a lake chunk gets its water mesh');
  assertSame(lakes, generatedFresh((w) => w.mesh(key, { stride: 4, water: true })), 'lakes');
  const chunks = (await ask(h, MSG.STATS)).reply.result.chunks;
  assert.is(chunks.generated, 1, 'terrain and lakes from one generation');

  // Every array, the nested lake mesh's included, travels in the transfer list.
  const views = [m.positions, m.normals, m.colors, m.paletteIndex, m.indices,
    lakes.positions, lakes.normals, lakes.colors, lakes.paletteIndex, lakes.indices];
  for (const v of views) assert.ok(transfer.includes(v.buffer));
  structuredClone(reply, { transfer });
  for (const v of views) assert.is(v.byteLength, 0, 'detached after the transfer');

  for (const k of [kinds.sea, kinds.dry]) {
    const r = (await ask(h, MSG.MESH, { key: k, options: { stride: 8, lakes: true } })).reply;
    assert.ok(r.ok);
    assert.is(r.result.lakes, null, `no lakes in ${JSON.stringify(k)}`);
  }
  const plain = (await ask(h, MSG.MESH, { key: kinds.lake, options: { stride: 8 } })).reply.result;
  assert.not.ok('lakes' in plain, 'only when asked for');
  const bad = (await ask(h, MSG.MESH, { key: kinds.lake, options: { stride: 8, lakes: 'yes' } })).reply;
  assert.is(bad.error.code, 'CT_ERR_MESSAGE');

  // A rebuild replaces the world and with it the kept chunk.
  await ask(h, MSG.BUILD, { ...SMALL, set: { ...SMALL.set, seed: 5 } });
  assert.equal((await ask(h, MSG.STATS)).reply.result.chunks, { generated: 0, reused: 0 });
  const after = (await ask(h, MSG.MESH, { key, options: opts })).reply.result;
  assert.is.not(after.digest, m.digest);
  assert.is((await ask(h, MSG.STATS)).reply.result.chunks.generated, 1);
  h.dispose();
});

test.run();
