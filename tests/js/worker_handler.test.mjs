// Tests of worker/handler.js driven directly (no worker): every reply type,
// progress during builds, transfer lists, cancellation of queued requests, and
// error replies for malformed/unknown messages, bad keys and no world.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadCore } from '../../wasm/ct.mjs';
import { createHandler } from '../../worker/handler.js';
import { MSG, ERR } from '../../worker/protocol.js';

const SMALL = { preset: 'balanced', set: { macro_resolution: 16, surface_lod: 2, seed: 11 } };
const KEY = { face: 4, lod: 2, x: 1, y: 2 };

let core;
let h; // the handler under test, with the SMALL world once built
let nextId = 1;

/** Sends one message; returns every post (progress included) it caused. */
async function call(handler, msg) {
  const posts = [];
  await handler.handle(msg, (reply, transfer) => posts.push({ reply, transfer }));
  return posts;
}

/** Sends a request and returns its final reply and transfer list. */
async function ask(handler, type, args = {}) {
  const id = nextId++;
  const posts = await call(handler, { id, type, ...args });
  const finals = posts.filter((p) => p.reply.type !== MSG.PROGRESS);
  assert.is(finals.length, 1, `exactly one reply for ${type}`);
  assert.is(finals[0].reply.id, id, 'reply carries the request id');
  return { ...finals[0], progress: posts.filter((p) => p.reply.type === MSG.PROGRESS).map((p) => p.reply) };
}

function assertError(reply, code) {
  assert.is(reply.ok, false, `expected an error ${code}, got ${JSON.stringify(reply).slice(0, 200)}`);
  assert.is(reply.error.code, code);
  assert.type(reply.error.message, 'string');
  assert.ok(reply.error.message.length > 0);
}

/** Every typed array of a result has its buffer in the transfer list. */
function assertTransfersAll(result, transfer) {
  const views = Object.values(result).filter((v) => ArrayBuffer.isView(v));
  assert.ok(views.length > 0, 'result holds typed arrays');
  for (const v of views) assert.ok(transfer.includes(v.buffer), 'buffer is in the transfer list');
  // Posting with this list really moves them: the sender's views detach.
  structuredClone(result, { transfer });
  for (const v of views) assert.is(v.byteLength, 0, 'sender buffer detached after transfer');
}

test.before(async () => {
  core = await loadCore();
  h = createHandler(core);
});

test('before a world: world requests get CT_ERR_NO_WORLD, config answers', async () => {
  for (const [type, args] of [[MSG.CHUNK, { key: KEY }], [MSG.MESH, { key: KEY }], [MSG.SAMPLE, { dirs: new Float64Array([0, 0, 1]) }],
    [MSG.SNAPSHOT, {}], [MSG.STATS, {}]]) {
    assertError((await ask(h, type, args)).reply, ERR.NO_WORLD);
  }
  const { reply } = await ask(h, MSG.CONFIG);
  assert.ok(reply.ok);
  assert.is(reply.result.generation, null);
  assert.is(reply.result.knobs.length, core.knobs().length);
  assert.ok(reply.result.knobs.some((k) => k.name === 'macro_resolution'));
  assert.ok(reply.result.presets.includes('balanced'));
});

test('malformed and unknown messages are answered and the handler keeps serving', async () => {
  for (const bad of [null, 42, 'chunk', [1, 2], { type: MSG.STATS }, { id: {}, type: MSG.STATS }, { id: 7 }, { id: 8, type: 5 }]) {
    const posts = await call(h, bad);
    assert.is(posts.length, 1);
    assertError(posts[0].reply, ERR.MESSAGE);
    const wantId = bad && typeof bad === 'object' && !Array.isArray(bad) && bad.id !== undefined ? bad.id : null;
    assert.is(posts[0].reply.id, wantId);
  }
  assertError((await ask(h, 'frobnicate')).reply, ERR.UNKNOWN_TYPE);
  assertError((await ask(h, 'progress')).reply, ERR.UNKNOWN_TYPE);
  assertError((await ask(h, MSG.TEST_CRASH, { times: 1 })).reply, ERR.UNKNOWN_TYPE); // test hooks are off by default
  assertError((await ask(h, 'toString')).reply, ERR.UNKNOWN_TYPE); // no prototype lookups
  assert.ok((await ask(h, MSG.CONFIG)).reply.ok, 'still serving');
});

test('a bad build is an error reply with the C code, and no world appears', async () => {
  assertError((await ask(h, MSG.BUILD, { preset: 'balanced', set: { macro_resolution: 3 } })).reply, 'CT_ERR_KNOB_RANGE');
  assertError((await ask(h, MSG.BUILD, { preset: 'nope' })).reply, 'CT_ERR_PRESET');
  assertError((await ask(h, MSG.BUILD, { set: { no_such_knob: 1 } })).reply, 'CT_ERR_KNOB_UNKNOWN');
  assertError((await ask(h, MSG.BUILD, { preset: 7 })).reply, ERR.MESSAGE);
  assert.is(h.world, null);
  const { reply } = await ask(h, MSG.CONFIG, { preset: 'balanced', set: { macro_resolution: 16 } });
  assert.is(reply.result.resolved.macro_resolution, 16, 'config resolves a spec without building');
});

test('build: progress messages, then the world summary and snapshot', async () => {
  const { reply, transfer, progress } = await ask(h, MSG.BUILD, { ...SMALL, snapshot: true });
  assert.ok(reply.ok, JSON.stringify(reply.error));
  const r = reply.result;
  assert.match(r.generation, /^[0-9a-f]{16}$/);
  assert.is(r.config.macro_resolution, 16);
  assert.is(r.config.surface_lod, 2);
  assert.is(r.stats.vertexCount, 6 * 16 * 16 + 2);
  assert.ok(progress.length >= 1, 'at least one progress message');
  for (const p of progress) {
    assert.is(p.id, reply.id);
    assert.type(p.stage, 'string');
    assert.ok(p.fraction >= 0 && p.fraction <= 1);
  }
  assert.ok(r.snapshot instanceof Uint8Array && r.snapshot.length > 0);
  assert.ok(transfer.includes(r.snapshot.buffer));
  // Independent check: the same spec built straight through the core.
  const direct = core.buildWorld(SMALL);
  assert.is(r.generation, direct.generation);
  direct.free();
});

test('chunk (arrays): the core chunk, own buffers in the transfer list', async () => {
  const { reply, transfer } = await ask(h, MSG.CHUNK, { key: { ...KEY, face: '+Z' } });
  assert.ok(reply.ok, JSON.stringify(reply.error));
  const c = reply.result;
  assert.equal(c.key, KEY, 'face name normalised to its number');
  assert.is(c.generation, h.world.generation);
  assert.match(c.digest, /^[0-9a-f]{16}$/);
  for (const f of ['height', 'water', 'biome', 'palette']) assert.is(c[f].length, 257 * 257);
  const direct = h.world.chunk(KEY);
  assert.is(c.digest, direct.digest);
  assert.equal(Array.from(c.height.subarray(0, 300)), Array.from(direct.height.subarray(0, 300)));
  assertTransfersAll(c, transfer);
});

test('chunk (ctc, u16le): file bytes; unknown format rejected', async () => {
  const ctc = await ask(h, MSG.CHUNK, { key: KEY, format: 'ctc' });
  assert.is(ctc.reply.result.bytes.length, 396354);
  assert.ok(ctc.transfer.includes(ctc.reply.result.bytes.buffer));
  const u16 = await ask(h, MSG.CHUNK, { key: KEY, format: 'u16le' });
  assert.is(u16.reply.result.bytes.length, 131072);
  assertError((await ask(h, MSG.CHUNK, { key: KEY, format: 'png' })).reply, ERR.MESSAGE);
});

test('bad keys get the C error codes', async () => {
  const cases = [
    [{ ...KEY, face: 6 }, 'CT_ERR_FACE'], [{ ...KEY, face: 'up' }, 'CT_ERR_FACE'], [{ ...KEY, face: -1 }, 'CT_ERR_FACE'],
    [{ ...KEY, lod: -1 }, 'CT_ERR_LOD'], [{ ...KEY, lod: 1.5 }, 'CT_ERR_LOD'], [{ ...KEY, lod: 17 }, 'CT_ERR_LOD'],
    [{ ...KEY, lod: 3, x: 0, y: 0 }, 'CT_ERR_LOD'], // finer than this world's surface_lod 2: the core's check
    [{ ...KEY, x: 4 }, 'CT_ERR_CHUNK_XY'], [{ ...KEY, y: -1 }, 'CT_ERR_CHUNK_XY'], [{ ...KEY, x: NaN }, 'CT_ERR_CHUNK_XY'],
    [undefined, "CT_ERR_NULL"], ["px/2/1", "CT_ERR_NULL"], [42, "CT_ERR_NULL"],
  ];
  for (const [key, code] of cases) {
    assertError((await ask(h, MSG.CHUNK, { key })).reply, code);
    assertError((await ask(h, MSG.MESH, { key })).reply, code);
  }
  assert.ok((await ask(h, MSG.CHUNK, { key: KEY })).reply.ok, 'still serving');
});

test('mesh: geometry with key and generation, buffers transferred', async () => {
  const { reply, transfer } = await ask(h, MSG.MESH, { key: KEY, options: { stride: 8, skirtDepthM: 50 } });
  assert.ok(reply.ok, JSON.stringify(reply.error));
  const m = reply.result;
  assert.equal(m.key, KEY);
  assert.is(m.generation, h.world.generation);
  assert.is(m.positions.length, 3 * m.vertexCount);
  assert.is(m.normals.length, 3 * m.vertexCount);
  assert.is(m.colors.length, 4 * m.vertexCount);
  assert.is(m.indices.length, m.indexCount);
  assert.ok(m.vertexCount >= 33 * 33, '257 samples at stride 8 give at least 33x33 vertices');
  let maxIndex = 0;
  for (const i of m.indices) maxIndex = Math.max(maxIndex, i);
  assert.ok(maxIndex < m.vertexCount);
  assertTransfersAll(m, transfer);
  assertError((await ask(h, MSG.MESH, { key: KEY, options: { stride: 3 } })).reply, 'CT_ERR_MESH');
  assertError((await ask(h, MSG.MESH, { key: KEY, options: 'fine' })).reply, ERR.MESSAGE);
});

test('sample: one value per direction, buffers transferred, bad input rejected', async () => {
  const dirs = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, -1, 0.3, -0.2, 0.9]);
  const { reply, transfer } = await ask(h, MSG.SAMPLE, { dirs });
  assert.ok(reply.ok, JSON.stringify(reply.error));
  const s = reply.result;
  assert.is(s.count, 4);
  for (const f of ['heightM', 'waterM', 'hasWater', 'waterBody', 'biome', 'material', 'palette', 'moisture']) assert.is(s[f].length, 4, f);
  const direct = h.world.sample(dirs);
  assert.equal(Array.from(s.heightM), Array.from(direct.heightM));
  assertTransfersAll(s, transfer);
  const nested = await ask(h, MSG.SAMPLE, { dirs: [[0, 0, 1]] });
  assert.is(nested.reply.result.count, 1);
  assertError((await ask(h, MSG.SAMPLE, { dirs: new Float64Array(4) })).reply, ERR.MESSAGE);
  assertError((await ask(h, MSG.SAMPLE, { dirs: 'north' })).reply, ERR.MESSAGE);
  assertError((await ask(h, MSG.SAMPLE, { dirs: new Float64Array([0, 0, 0]) })).reply, 'CT_ERR_DIRECTION');
});

test('stats: world stats, generation and memory', async () => {
  const { reply } = await ask(h, MSG.STATS);
  assert.ok(reply.ok);
  assert.is(reply.result.generation, h.world.generation);
  assert.is(reply.result.stats.vertexCount, 6 * 16 * 16 + 2);
  assert.ok(reply.result.memoryBytes >= 65536);
  assert.is((await ask(h, MSG.CONFIG)).reply.result.world.macro_resolution, 16);
});

test('snapshot and load: a second handler serves the same world', async () => {
  const snap = await ask(h, MSG.SNAPSHOT);
  assert.ok(snap.reply.ok);
  const bytes = snap.reply.result.bytes;
  assert.ok(snap.transfer.includes(bytes.buffer));
  const other = createHandler(core);
  const loaded = await ask(other, MSG.LOAD, { bytes: bytes.buffer }); // an ArrayBuffer is accepted too
  assert.ok(loaded.reply.ok, JSON.stringify(loaded.reply.error));
  assert.is(loaded.reply.result.generation, h.world.generation);
  const a = (await ask(h, MSG.CHUNK, { key: { face: 1, lod: 1, x: 1, y: 0 } })).reply.result.digest;
  const b = (await ask(other, MSG.CHUNK, { key: { face: 1, lod: 1, x: 1, y: 0 } })).reply.result.digest;
  assert.is(a, b);
  // A corrupt snapshot is rejected and the loaded world stays.
  const bad = bytes.slice();
  bad[bad.length - 1] ^= 0xff;
  const rejected = (await ask(other, MSG.LOAD, { bytes: bad })).reply;
  assert.is(rejected.ok, false);
  assert.match(rejected.error.code, /^CT_ERR_(CHECKSUM|FORMAT|TRUNCATED)$/);
  assertError((await ask(other, MSG.LOAD, { bytes: 'CTWORLD2' })).reply, ERR.MESSAGE);
  assert.is((await ask(other, MSG.STATS)).reply.result.generation, h.world.generation);
  other.dispose();
  assert.is(other.world, null);
});

test('a failed rebuild keeps the previous world', async () => {
  const before = h.world.generation;
  assertError((await ask(h, MSG.BUILD, { preset: 'balanced', set: { surface_lod: 99 } })).reply, 'CT_ERR_KNOB_RANGE');
  assert.is(h.world.generation, before);
  assert.ok((await ask(h, MSG.CHUNK, { key: KEY })).reply.ok);
});

test('builds and loads free the world they replace, and only that one', async () => {
  // Memory growth would not show a leak of worlds this small (32 MiB heap), so
  // watch the frees directly through a core whose worlds report them.
  const made = [];
  const freed = new Set();
  const watch = (w) => { const free = w.free.bind(w); w.free = () => { freed.add(w); free(); }; made.push(w); return w; };
  const spy = Object.create(core);
  spy.buildWorld = (...a) => watch(core.buildWorld(...a));
  spy.loadWorld = (...a) => watch(core.loadWorld(...a));
  const t = createHandler(spy);
  const spec = (seed) => ({ preset: 'balanced', set: { macro_resolution: 16, surface_lod: 2, seed } });
  for (let seed = 1; seed <= 4; seed++) assert.ok((await ask(t, MSG.BUILD, spec(seed))).reply.ok);
  assertError((await ask(t, MSG.BUILD, { set: { macro_resolution: 3 } })).reply, 'CT_ERR_KNOB_RANGE');
  const snap = (await ask(t, MSG.SNAPSHOT)).reply.result.bytes;
  assert.ok((await ask(t, MSG.LOAD, { bytes: snap })).reply.ok);
  assert.is(made.length, 5);
  assert.equal(made.map((w) => freed.has(w)), [true, true, true, true, false], 'every replaced world freed, the live one kept');
  assert.ok((await ask(t, MSG.CHUNK, { key: KEY })).reply.ok);
  const settled = core.memoryBytes();
  for (let seed = 5; seed < 8; seed++) {
    assert.ok((await ask(t, MSG.BUILD, spec(seed))).reply.ok);
    assert.ok((await ask(t, MSG.CHUNK, { key: KEY })).reply.ok);
  }
  assert.is(core.memoryBytes(), settled, 'rebuild + chunk rounds grew no memory');
  t.dispose();
  assert.ok(freed.has(made[made.length - 1]), 'dispose frees the last world');
});

test('cancel removes a queued request; replies keep arrival order', async () => {
  const posts = [];
  const post = (reply) => posts.push(reply);
  const a = h.handle({ id: 'a', type: MSG.CHUNK, key: KEY }, post);
  const b = h.handle({ id: 'b', type: MSG.CHUNK, key: { ...KEY, x: 0 } }, post);
  const c = h.handle({ id: 'c', type: MSG.STATS }, post);
  assert.is(h.queued, 3);
  const k = h.handle({ id: 'k', type: MSG.CANCEL, target: 'b' }, post);
  const k2 = h.handle({ id: 'k2', type: MSG.CANCEL, target: 'nobody' }, post);
  await Promise.all([a, b, c, k, k2]);
  assert.equal(posts.map((p) => p.id), ['b', 'k', 'k2', 'a', 'c'], 'cancel is answered at once, the rest in order');
  assertError(posts[0], ERR.CANCELLED);
  assert.equal(posts[1].result, { target: 'b', cancelled: true });
  assert.equal(posts[2].result, { target: 'nobody', cancelled: false });
  assert.ok(posts[3].ok && posts[4].ok);
});

test('test hooks: a crash is thrown outside the reply path, the next request is served', async () => {
  const thrown = [];
  const defer = (fn) => setImmediate(() => { try { fn(); } catch (e) { thrown.push(e); } });
  const t = createHandler(core, { testHooks: true, defer });
  const posts = [];
  const post = (reply) => posts.push(reply);
  const crash = t.handle({ id: 1, type: MSG.TEST_CRASH, times: 1, attempt: 0 }, post);
  const after = t.handle({ id: 2, type: MSG.TEST_CRASH, times: 1, attempt: 1 }, post);
  await Promise.all([crash, after]);
  assert.is(thrown.length, 1);
  assert.match(thrown[0].message, /test-crash/);
  assert.equal(posts.map((p) => p.id), [2], 'the crashing request got no reply (a real worker is dead by then)');
  assert.equal(posts[0].result, { survived: true });
  const stall = await ask(t, MSG.TEST_STALL, { ms: 20 });
  assert.is(stall.reply.result.stalledMs, 20);
});

test.after(() => { if (h) h.dispose(); });

test.run();
