// worker_resilience.test.mjs - the pool against workers that stop answering
// and builds that must stop (issue 14), on real Node worker_threads: a stuck
// worker is replaced and its requests retried once, then rejected with
// CT_ERR_TIMEOUT; a running build stops at its next progress tick when the
// pool cancels it or a newer build starts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPool } from '../../worker/client.js';
import { MSG, ERR } from '../../worker/protocol.js';

const SMALL = { preset: 'balanced', set: { macro_resolution: 16, surface_lod: 2, seed: 5 } };
// Takes seconds to build on this machine: long enough to be caught mid-run.
const BIG = { preset: 'balanced', set: { macro_resolution: 256, surface_lod: 8, seed: 8 } };

async function rejectsWith(promise, code) {
  try {
    await promise;
  } catch (e) {
    assert.is(e.code, code, `expected ${code}, got ${e.code}: ${e.message}`);
    return e;
  }
  assert.unreachable(`expected a rejection with ${code}`);
}

test('a stuck worker is replaced, its other requests retried, the stuck one rejected with CT_ERR_TIMEOUT', async () => {
  const pool = await createPool({ workers: 1, testHooks: true, timeoutMs: 400, pipeline: 2 });
  try {
    await pool.build(SMALL);
    const t0 = Date.now();
    const stuck = pool.request(MSG.TEST_STALL, { ms: 10000 });
    const victim = pool.chunk({ face: 4, lod: 1, x: 1, y: 0 });   // pipelined behind the stall on the same worker
    const e = await rejectsWith(stuck, ERR.TIMEOUT);
    const took = Date.now() - t0;
    assert.ok(took < 5000, `rejected after ${took} ms, well before the 10 s stall would end`);
    assert.match(e.message, /timed out twice/);
    const chunk = await victim;
    assert.ok(chunk.digest, 'the request stuck behind it was retried on the replacement');
    const st = pool.stats();
    assert.ok(st.timeouts >= 2 && st.restarts >= 2, `timeouts ${st.timeouts}, restarts ${st.restarts}`);
    const again = await pool.chunk({ face: 0, lod: 0, x: 0, y: 0 });
    assert.is(again.generation, chunk.generation, 'the replacement holds the same world');
  } finally {
    await pool.terminate();
  }
});

test('a slow but answering request is not timed out', async () => {
  const pool = await createPool({ workers: 1, testHooks: true, timeoutMs: 2000 });
  try {
    await pool.build(SMALL);
    const r = await pool.request(MSG.TEST_STALL, { ms: 300 });
    assert.is(r.stalledMs, 300);
    assert.is(pool.stats().timeouts, 0);
  } finally {
    await pool.terminate();
  }
});

test('pool.cancel stops a running build at its next progress tick; the previous world keeps serving', async () => {
  const pool = await createPool({ workers: 1 });
  try {
    const first = await pool.build(SMALL);
    let ticks = 0;
    let cancelledAt = 0;
    const big = pool.build(BIG, {
      onProgress: () => {
        ticks += 1;
        if (ticks === 2) { cancelledAt = Date.now(); assert.is(pool.cancel(big.id), 1, 'one build cancelled'); }
      },
    });
    assert.ok(big.id > 0, 'build promise carries its request id');
    await rejectsWith(big, ERR.CANCELLED);
    // The worker must be free again soon: a chunk of the previous world answers.
    const chunk = await pool.chunk({ face: 1, lod: 1, x: 0, y: 1 });
    const waited = Date.now() - cancelledAt;
    assert.is(chunk.generation, first.generation);
    assert.ok(waited < 2500, `the worker answered ${waited} ms after the cancel (the build stopped)`);
    assert.is(pool.stats().buildsStopped, 1);
  } finally {
    await pool.terminate();
  }
});

test('a new build stops the running one instead of waiting behind it', async () => {
  const pool = await createPool({ workers: 1 });
  try {
    let started = 0;
    let t0 = 0;
    let second = null;
    const big = pool.build(BIG, {
      onProgress: () => {
        started += 1;
        if (started === 2) { t0 = Date.now(); second = pool.build(SMALL); }
      },
    });
    await rejectsWith(big, ERR.CANCELLED);
    while (!second) await new Promise((r) => setTimeout(r, 5));
    const r = await second;
    const took = Date.now() - t0;
    assert.match(r.generation, /^[0-9a-f]{16}$/);
    assert.ok(took < 2500, `the new build finished ${took} ms after it started`);
  } finally {
    await pool.terminate();
  }
});

test.run();
