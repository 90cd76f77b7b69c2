// Tests of the worker entry and the client pool on real Node worker_threads:
// every reply type, transfer (sender buffers detach), priority order,
// collapse, cancellation, epoch drop after a rebuild, 1 vs 2 workers giving
// the same digests, chunk affinity (a key refined 4 -> 2 -> 1 and downloaded
// is generated once per pool), crashed workers replaced and their requests
// retried once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Worker } from 'node:worker_threads';
import { loadCore } from '../../wasm/ct.mjs';
import { createPool } from '../../worker/client.js';
import { MSG, ERR } from '../../worker/protocol.js';

const SMALL = { preset: 'balanced', set: { macro_resolution: 16, surface_lod: 2, seed: 5 } };
const OTHER = { preset: 'balanced', set: { macro_resolution: 16, surface_lod: 2, seed: 6 } };
// One chunk per face, plus chunks on a cube edge and at a corner.
const KEYS = [0, 1, 2, 3, 4, 5].map((face) => ({ face, lod: 2, x: face % 4, y: (face * 3) % 4 }))
  .concat([{ face: 0, lod: 2, x: 3, y: 1 }, { face: 4, lod: 1, x: 1, y: 1 }, { face: 2, lod: 0, x: 0, y: 0 }]);

let one; // 1 worker
let two; // 2 workers
let reference; // digests from the core in this thread

async function rejectsWith(promise, code) {
  try {
    await promise;
  } catch (e) {
    assert.is(e.code, code, `expected ${code}, got ${e.code}: ${e.message}`);
    assert.instance(e, Error);
    return e;
  }
  assert.unreachable(`expected a rejection with ${code}`);
}

/** Waits for cond; ms only bounds a hang (generous: the machine may be loaded). */
const until = async (cond, ms = 120000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

test.before(async () => {
  [one, two] = await Promise.all([
    createPool({ workers: 1, testHooks: true }),
    createPool({ workers: 2, testHooks: true }),
  ]);
  const core = await loadCore();
  const w = core.buildWorld(SMALL);
  reference = { generation: w.generation, digests: KEYS.map((k) => w.chunk(k).digest) };
  w.free();
});

test.after(async () => {
  await Promise.all([one && one.terminate(), two && two.terminate()]);
});

test('the raw worker: transfer detaches the sender buffer, bad messages are answered', async () => {
  const core = await loadCore();
  const w = core.buildWorld(SMALL);
  const bytes = w.snapshot();
  w.free();
  const worker = new Worker(new URL('../../worker/worker.js', import.meta.url));
  const replies = new Map();
  const waiters = new Map();
  worker.on('message', (m) => {
    if (m.type === MSG.PROGRESS) return;
    if (waiters.has(m.id)) waiters.get(m.id)(m); else replies.set(m.id, m);
  });
  const reply = (id) => (replies.has(id) ? Promise.resolve(replies.get(id)) : new Promise((r) => waiters.set(id, r)));
  try {
    worker.postMessage({ id: 1, type: MSG.LOAD, bytes }, [bytes.buffer]);
    assert.is(bytes.byteLength, 0, 'the snapshot moved to the worker');
    const loaded = await reply(1);
    assert.ok(loaded.ok, JSON.stringify(loaded.error));
    assert.is(loaded.result.generation, reference.generation);
    worker.postMessage({ id: 2, type: MSG.CHUNK, key: KEYS[0] });
    const chunk = await reply(2);
    assert.ok(chunk.result.height instanceof Uint16Array);
    assert.is(chunk.result.height.length, 257 * 257);
    assert.is(chunk.result.digest, reference.digests[0]);
    worker.postMessage({ id: 3, type: 'nonsense' });
    worker.postMessage('not even an object');
    worker.postMessage({ id: 4, type: MSG.CHUNK, key: { face: 9, lod: 0, x: 0, y: 0 } });
    worker.postMessage({ id: 5, type: MSG.STATS });
    assert.is((await reply(3)).error.code, ERR.UNKNOWN_TYPE);
    assert.is((await reply(null)).error.code, ERR.MESSAGE);
    assert.is((await reply(4)).error.code, 'CT_ERR_FACE');
    assert.is((await reply(5)).result.generation, reference.generation, 'still serving');
  } finally {
    await worker.terminate();
  }
});

test('before a world: requests reject with CT_ERR_NO_WORLD; knobs are known', async () => {
  assert.ok(one.knobs.some((k) => k.name === 'surface_lod'));
  assert.ok(one.presets.includes('alpine'));
  await rejectsWith(one.chunk(KEYS[0]), ERR.NO_WORLD);
  await rejectsWith(one.chunk({ face: 7, lod: 0, x: 0, y: 0 }), 'CT_ERR_FACE');
  assert.is(one.stats().generation, null);
});

test('build: once, snapshot loaded by the others, all report the same generation', async () => {
  const stages = [];
  const [a, b] = await Promise.all([
    one.build(SMALL),
    two.build(SMALL, { onProgress: (stage, fraction) => stages.push([stage, fraction]) }),
  ]);
  assert.is(a.generation, reference.generation);
  assert.is(b.generation, reference.generation);
  assert.ok(stages.length > 0, 'progress reached the caller');
  const ws = await two.workerStats();
  assert.is(ws.length, 2);
  for (const s of ws) assert.is(s.generation, reference.generation);
  assert.is(ws[1].stats.passes, 0, 'worker 1 loaded the snapshot rather than building');
  assert.is(two.stats().workers, 2);
  assert.is(two.stats().generation, reference.generation);
});

test('every reply type through the pool; 2 workers give the digests of 1 and of the core', async () => {
  const [d1, d2] = await Promise.all([one, two].map((p) => Promise.all(KEYS.map((k) => p.chunk(k)))));
  assert.equal(d1.map((c) => c.digest), reference.digests);
  assert.equal(d2.map((c) => c.digest), reference.digests);
  for (const c of d2) {
    assert.is(c.generation, reference.generation);
    assert.is(c.epoch, two.stats().epoch);
  }
  const ctc = await two.chunk(KEYS[1], { format: 'ctc' });
  assert.is(ctc.bytes.length, 396354);
  const mesh = await two.mesh(KEYS[2], { stride: 16 });
  assert.equal(mesh.key, KEYS[2]);
  assert.is(mesh.generation, reference.generation);
  assert.is(mesh.positions.length, 3 * mesh.vertexCount);
  const sample = await two.sample([[0, 0, 1], [1, 1, 1]]);
  assert.is(sample.heightM.length, 2);
  const snap = await two.snapshot();
  assert.ok(snap instanceof Uint8Array && snap.length > 0);
  const input = new Float64Array([0, 1, 0]);
  await two.sample(input);
  assert.is(input.length, 3, "the caller's dirs are not detached (the pool sends a copy)");
  await rejectsWith(two.chunk({ face: 0, lod: 2, x: 4, y: 0 }), 'CT_ERR_CHUNK_XY');
  await rejectsWith(two.mesh(KEYS[0], { stride: 5 }), 'CT_ERR_MESH');
});

// Two keys no other test uses, so the workers' kept chunks start elsewhere.
const KA = { face: 1, lod: 2, x: 3, y: 3 };
const KB = { face: 5, lod: 1, x: 0, y: 1 };

/** What a page does: coarse meshes of two tiles, refinements in another order, then downloads. */
async function refine(pool) {
  const coarse = await Promise.all([pool.mesh(KA, { stride: 4 }), pool.mesh(KB, { stride: 4 })]);
  const finer = await Promise.all([pool.mesh(KB, { stride: 2 }), pool.mesh(KA, { stride: 2 })]);
  const last = await Promise.all([
    pool.chunk(KA, { format: 'ctc' }), pool.chunk(KB, { format: 'ctc' }),
    pool.mesh(KA, { stride: 1 }), pool.mesh(KB, { stride: 1 }),
  ]);
  return [...coarse, ...finer, ...last];
}

/** Sum of the workers' chunk counters. */
async function chunkCounts(pool) {
  const ws = await pool.workerStats();
  return {
    perWorker: ws.map((w) => w.chunks.generated),
    generated: ws.reduce((n, w) => n + w.chunks.generated, 0),
    reused: ws.reduce((n, w) => n + w.chunks.reused, 0),
  };
}

const delta = (a, b) => ({
  perWorker: b.perWorker.map((g, i) => g - a.perWorker[i]), generated: b.generated - a.generated, reused: b.reused - a.reused,
});

test('affinity: each key is generated once across 2 workers; results equal a 1-worker pool', async () => {
  const s0 = await chunkCounts(two);
  const a0 = two.stats().affinity;
  const got = await refine(two);
  const d = delta(s0, await chunkCounts(two));
  // 8 requests, 2 generations: 6 reuses, and each of the 6 meshes reads the chunk once more for its stride errors.
  assert.equal(d, { perWorker: [1, 1], generated: 2, reused: 12 }, 'one generation per key, on its own worker');
  assert.is(two.stats().affinity.affine - a0.affine, 6, 'six requests went to the worker holding their chunk');
  const want = await refine(one);
  assert.equal(got.map((r) => r.digest), want.map((r) => r.digest));
  for (let i = 0; i < got.length; i++) {
    for (const f of ['positions', 'indices', 'paletteIndex', 'bytes']) {
      if (want[i][f]) assert.ok(Buffer.from(got[i][f].buffer, got[i][f].byteOffset, got[i][f].byteLength)
        .equals(Buffer.from(want[i][f].buffer, want[i][f].byteOffset, want[i][f].byteLength)), `result ${i}: ${f}`);
    }
  }
  assert.is(got[4].bytes.length, 396354);
  // The same requests without affinity: the refinements land on the other worker.
  const plain = await createPool({ workers: 2, affinity: false });
  try {
    await plain.build(SMALL);
    const p0 = await chunkCounts(plain);
    const again = await refine(plain);
    const pd = delta(p0, await chunkCounts(plain));
    assert.ok(pd.generated > d.generated, `without affinity ${pd.generated} generations, with it ${d.generated}`);
    assert.equal(again.map((r) => r.digest), want.map((r) => r.digest));
    if (process.env.CT_VERBOSE) console.log('affinity on', d, 'off', pd);
  } finally {
    await plain.terminate();
  }
});

test('repeats collapse into the same promise; one request per key', async () => {
  const key = { face: 3, lod: 2, x: 2, y: 2 };
  const p = one.chunk(key, { priority: 4 });
  const q = one.chunk({ ...key, face: '-Y' }, { priority: 1 });
  assert.is(p, q);
  const u16 = one.chunk(key, { format: 'u16le' });
  assert.is.not(u16, p, 'another format is another request');
  const m8 = one.mesh(key, { stride: 8 });
  const m4 = one.mesh(key, { stride: 4 });
  assert.is.not(m8, m4);
  const m8w = one.mesh(key, { stride: 8, water: false });
  assert.is(m8w, one.mesh(key, { water: false, stride: 8 }));
  const [c, bytes, a8, a4] = await Promise.all([p, u16, m8, m4, m8w]);
  assert.is(c.digest, (await one.chunk(key)).digest);
  assert.is(bytes.bytes.length, 131072);
  assert.ok(a4.vertexCount > a8.vertexCount);
});

test('priority: lower numbers run sooner', async () => {
  const stalls = [one.request(MSG.TEST_STALL, { ms: 150 }), one.request(MSG.TEST_STALL, { ms: 10 })];
  const order = [];
  const jobs = [[7, KEYS[0]], [1, KEYS[1]], [4, KEYS[2]], [-3, KEYS[3]], [4, KEYS[4]]]
    .map(([priority, key]) => one.chunk(key, { priority }).then(() => order.push(priority)));
  assert.is(one.stats().queued, 5);
  await Promise.all([...stalls, ...jobs]);
  assert.equal(order, [-3, 1, 4, 4, 7]);
});

test('cancel by id and by predicate: queued, pipelined and running requests', async () => {
  const dropped0 = one.stats().dropped;
  const running = one.request(MSG.TEST_STALL, { ms: 200 });
  const pipelined = one.chunk(KEYS[5]); // sent to the worker, queued behind the stall there
  const queued = [KEYS[6], KEYS[7], KEYS[8]].map((k) => one.chunk(k, { priority: k.lod }));
  assert.is(one.stats().inFlight, 2);
  assert.is(one.stats().queued, 3);
  assert.is(one.cancel(pipelined.id), 1);
  assert.is(one.cancel((r) => r.type === MSG.CHUNK && r.key.lod < 2), 2);
  assert.is(one.cancel(running.id), 1);
  assert.is(one.cancel(12345678), 0);
  const e1 = await rejectsWith(pipelined, ERR.CANCELLED);
  assert.match(e1.message, /cancel/);
  await rejectsWith(queued[1], ERR.CANCELLED);
  await rejectsWith(queued[2], ERR.CANCELLED);
  await rejectsWith(running, ERR.CANCELLED);
  assert.is((await queued[0]).digest, reference.digests[6], 'the one left still runs');
  // The worker skipped the pipelined chunk and answered the stall late: both replies dropped.
  await until(() => one.stats().dropped >= dropped0 + 2);
  assert.is(one.stats().inFlight, 0);
  // A cancelled key is free again.
  assert.is((await one.chunk(KEYS[5])).digest, reference.digests[5]);
});

test('a rebuild bumps the epoch: old requests are cancelled, late replies dropped', async () => {
  const before = one.stats();
  const stall = one.request(MSG.TEST_STALL, { ms: 150 });
  const old = one.chunk(KEYS[0], { priority: 0 });
  const oldQueued = one.chunk(KEYS[1]);
  assert.is(one.stats().affinity.remembered, 1, 'the worker will hold KEYS[0]');
  const built = one.build(OTHER);
  assert.is(one.stats().affinity.remembered, 0, 'a new world: kept chunks are forgotten');
  const fresh = one.chunk(KEYS[0]); // made after build(): belongs to the new world
  assert.is.not(fresh, old);
  await rejectsWith(stall, ERR.CANCELLED);
  await rejectsWith(old, ERR.CANCELLED);
  await rejectsWith(oldQueued, ERR.CANCELLED);
  const r = await built;
  assert.is.not(r.generation, reference.generation);
  assert.is(r.epoch, before.epoch + 1);
  const c = await fresh;
  assert.is(c.generation, r.generation);
  assert.is(c.epoch, r.epoch);
  assert.is.not(c.digest, reference.digests[0]);
  assert.ok(one.stats().dropped >= before.dropped + 2, 'the stall and chunk replies of the old world were dropped');
  // Back to SMALL through load(): same world, new epoch.
  const snap = await two.snapshot();
  const loaded = await one.load(snap);
  assert.is(loaded.generation, reference.generation);
  assert.is(loaded.epoch, r.epoch + 1);
  assert.is((await one.chunk(KEYS[0])).digest, reference.digests[0]);
});

test('a failed build rejects with the C code and the previous world keeps serving', async () => {
  await rejectsWith(two.build({ preset: 'balanced', set: { macro_resolution: 2 } }), 'CT_ERR_KNOB_RANGE');
  await rejectsWith(two.load(new Uint8Array(64)), 'CT_ERR_FORMAT');
  assert.is(two.stats().generation, reference.generation);
  const digests = await Promise.all(KEYS.slice(0, 4).map((k) => two.chunk(k).then((c) => c.digest)));
  assert.equal(digests, reference.digests.slice(0, 4));
});

test('a crashed worker is replaced, reloaded, and its requests retried once', async () => {
  const s0 = two.stats();
  // The crash request and a chunk pipelined behind it die with the worker;
  // both run again on the replacement (the crash hook survives attempt 1).
  const survived = two.request(MSG.TEST_CRASH, { times: 1 }, { priority: -10 });
  const behind = KEYS.map((k) => two.chunk(k, { priority: 0 }));
  assert.equal(await survived, { survived: true, epoch: s0.epoch });
  assert.equal((await Promise.all(behind)).map((c) => c.digest), reference.digests);
  const s1 = two.stats();
  assert.is(s1.crashes, s0.crashes + 1);
  assert.is(s1.restarts, s0.restarts + 1);
  assert.ok(s1.retried >= s0.retried + 1);
  assert.is(s1.workers, 2);
  const ws = await two.workerStats();
  assert.equal(ws.map((w) => w.generation), [reference.generation, reference.generation]);
  // A request that kills every worker it touches fails with a reason after one retry.
  const e = await rejectsWith(two.request(MSG.TEST_CRASH, { times: 2 }), ERR.WORKER);
  assert.match(e.message, /crashed its worker twice/);
  assert.is(two.stats().crashes, s0.crashes + 3);
  assert.equal((await Promise.all(KEYS.slice(0, 3).map((k) => two.chunk(k)))).map((c) => c.digest), reference.digests.slice(0, 3));
});

test('a failed first build: requests say why there is no world; terminate rejects everything', async () => {
  const pool = await createPool({ workers: 1, testHooks: true });
  await rejectsWith(pool.build({ preset: 'nowhere' }), 'CT_ERR_PRESET');
  const e = await rejectsWith(pool.chunk(KEYS[0]), ERR.NO_WORLD);
  assert.match(e.message, /preset/);
  await pool.build(SMALL);
  const stall = pool.request(MSG.TEST_STALL, { ms: 100 });
  const pending = pool.chunk(KEYS[0]);
  await pool.terminate();
  await rejectsWith(stall, ERR.TERMINATED);
  await rejectsWith(pending, ERR.TERMINATED);
  await rejectsWith(pool.chunk(KEYS[0]), ERR.TERMINATED);
  await rejectsWith(pool.build(SMALL), ERR.TERMINATED);
});

test.run();
