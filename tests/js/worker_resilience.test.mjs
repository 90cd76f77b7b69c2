// worker_resilience.test.mjs - the pool against workers that stop answering
// and builds that must stop, on real Node worker_threads: a stuck
// worker is replaced and its requests retried once, then rejected with
// CT_ERR_TIMEOUT; a running build stops at its next progress tick when the
// pool cancels it or a newer build starts (the build held at a progress
// tick by the test hooks, so the cancel lands mid-build on any machine).
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
  const pool = await createPool({ workers: 1, testHooks: true, timeoutMs: 1500, pipeline: 2 });
  try {
    await pool.build(SMALL);
    // A stall of 10 s against a timeout of 1.5 s: a pool that waited for the
    // stall would get its answer and resolve, and the rejection check below
    // fails; how long the rejection took is no part of the check.
    const stuck = pool.request(MSG.TEST_STALL, { ms: 10000 });
    const victim = pool.chunk({ face: 4, lod: 1, x: 1, y: 0 });   // pipelined behind the stall on the same worker
    const e = await rejectsWith(stuck, ERR.TIMEOUT);
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
  // The timeout is a hundred times the stall: a loaded machine cannot make the answer late.
  const pool = await createPool({ workers: 1, testHooks: true, timeoutMs: 30000 });
  try {
    await pool.build(SMALL);
    const r = await pool.request(MSG.TEST_STALL, { ms: 300 });
    assert.is(r.stalledMs, 300);
    assert.is(pool.stats().timeouts, 0);
  } finally {
    await pool.terminate();
  }
});

/**
 * A build spec that waits, in the worker, after its first progress message
 * until release() (test hooks): what the test does on that message lands
 * mid-build whatever the machine's speed.
 */
function heldBuild(spec) {
  const hold = new SharedArrayBuffer(4);
  const release = () => { Atomics.store(new Int32Array(hold), 0, 1); Atomics.notify(new Int32Array(hold), 0); };
  return { spec: { ...spec, testHold: hold, testHoldAt: 1 }, release };
}

test('pool.cancel stops a running build at its next progress tick; the previous world keeps serving', async () => {
  const pool = await createPool({ workers: 1, testHooks: true });
  try {
    const first = await pool.build(SMALL);
    const held = heldBuild(BIG);
    let ticks = 0;
    const big = pool.build(held.spec, {
      onProgress: () => {
        ticks += 1;
        if (ticks === 1) {
          assert.is(pool.cancel(big.id), 1, 'one build cancelled');
          held.release();
        }
      },
    });
    assert.ok(big.id > 0, 'build promise carries its request id');
    await rejectsWith(big, ERR.CANCELLED);
    assert.is(ticks, 1, 'no progress after the cancel');
    // Had the build run to the end, the worker would now hold the big world
    // (the handler installs a finished build): it still holds the first one.
    const chunk = await pool.chunk({ face: 1, lod: 1, x: 0, y: 1 });
    assert.is(chunk.generation, first.generation, 'the worker never finished the cancelled build');
    const [ws] = await pool.workerStats();
    assert.is(ws.generation, first.generation);
    assert.is(pool.stats().buildsStopped, 1);
  } finally {
    await pool.terminate();
  }
});

test('a new build stops the running one instead of waiting behind it', async () => {
  const pool = await createPool({ workers: 1, testHooks: true });
  try {
    const held = heldBuild(BIG);
    let second = null;
    const big = pool.build(held.spec, {
      onProgress: () => {
        if (second) return;
        second = pool.build(SMALL);
        held.release();
      },
    });
    await rejectsWith(big, ERR.CANCELLED);
    assert.ok(second, 'the second build started while the first was running');
    const r = await second;
    assert.match(r.generation, /^[0-9a-f]{16}$/);
    const [ws] = await pool.workerStats();
    assert.is(ws.generation, r.generation, 'the worker holds the second world');
    assert.is(pool.stats().buildsStopped, 1, 'the running build was stopped, not waited for');
  } finally {
    await pool.terminate();
  }
});

test('a build holds at its test hold until released, and only with test hooks', async () => {
  const { loadCore } = await import('../../wasm/ct.mjs');
  const { createHandler } = await import('../../worker/handler.js');
  const core = await loadCore();
  // Without test hooks the hold is ignored: the build runs through.
  const plain = createHandler(core, { defer: (fn) => setTimeout(fn, 0) });
  const replies = [];
  await plain.handle({ id: 1, type: MSG.BUILD, ...SMALL, testHold: new SharedArrayBuffer(4) }, (r) => replies.push(r));
  assert.is(replies[replies.length - 1].ok, true);
  plain.dispose();
  // With them, a hold that is not shared memory is a clear error.
  const hooked = createHandler(core, { defer: (fn) => setTimeout(fn, 0), testHooks: true });
  const bad = [];
  await hooked.handle({ id: 2, type: MSG.BUILD, ...SMALL, testHold: 5 }, (r) => bad.push(r));
  assert.is(bad[bad.length - 1].ok, false);
  assert.match(bad[bad.length - 1].error.message, /testHold must be a SharedArrayBuffer/);
  hooked.dispose();
});

test('the handler stops a build whose shared cancel flag is set, answering CT_ERR_CANCELLED', async () => {
  const { loadCore } = await import('../../wasm/ct.mjs');
  const { createHandler } = await import('../../worker/handler.js');
  const handler = createHandler(await loadCore(), { defer: (fn) => setTimeout(fn, 0) });
  const flag = new SharedArrayBuffer(4);
  const replies = [];
  let progress = 0;
  await handler.handle({ id: 7, type: MSG.BUILD, ...BIG, cancelFlag: flag }, (r) => {
    replies.push(r);
    if (r.type === MSG.PROGRESS && ++progress === 2) Atomics.store(new Int32Array(flag), 0, 1);
  });
  const last = replies[replies.length - 1];
  assert.is(last.ok, false);
  assert.is(last.error.code, ERR.CANCELLED);
  assert.is(handler.world, null, 'no half-built world was installed');
  assert.ok(progress <= 3, `stopped within a tick of the flag (${progress} progress messages)`);
  handler.dispose();
});

test.run();
