// Tests of worker/request_queue.js, the pool's pure request queue: priority order,
// collapse of repeated keys, removal by predicate, requeue and reprioritising,
// and assign(): requests go back to the worker holding their chunk, a request
// waiting for its busy worker is overtaken at most affinitySkips times.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequestQueue, AFFINITY_SKIPS } from '../../worker/request_queue.js';

const drain = (s) => {
  const out = [];
  for (let e = s.next(); e; e = s.next()) out.push(e.name);
  return out;
};

test('lowest priority number first, ties in arrival order', () => {
  const s = createRequestQueue();
  const spec = [['a', 5], ['b', 1], ['c', 3], ['d', 1], ['e', -2], ['f', 3], ['g', 0]];
  for (const [name, priority] of spec) s.add({ name, priority });
  assert.is(s.queued, spec.length);
  assert.equal(drain(s), ['e', 'g', 'b', 'd', 'c', 'f', 'a']);
  assert.is(s.queued, 0);
  assert.is(s.running, spec.length);
  assert.is(s.next(), undefined);
});

test('a large random set comes out sorted by (priority, arrival)', () => {
  const s = createRequestQueue();
  let x = 12345;
  const rand = () => { x = (x * 1103515245 + 12345) >>> 0; return x % 17; };
  const want = [];
  for (let i = 0; i < 500; i++) {
    const p = rand();
    s.add({ name: i, priority: p });
    want.push({ i, p });
  }
  want.sort((a, b) => a.p - b.p || a.i - b.i);
  assert.equal(drain(s), want.map((w) => w.i));
});

test('repeats of a queued key collapse and keep the more urgent priority', () => {
  const s = createRequestQueue();
  const first = s.add({ name: 'k1', key: 'chunk:px/3/1/1', priority: 9 });
  s.add({ name: 'other', key: 'chunk:px/3/0/0', priority: 5 });
  const again = s.add({ name: 'k1-again', key: 'chunk:px/3/1/1', priority: 2 });
  assert.not.ok(first.collapsed);
  assert.ok(again.collapsed);
  assert.is(again.entry, first.entry, 'the repeat returns the original entry');
  assert.is(first.entry.priority, 2);
  const later = s.add({ name: 'k1-late', key: 'chunk:px/3/1/1', priority: 50 });
  assert.is(later.entry.priority, 2, 'a less urgent repeat does not demote it');
  assert.is(s.queued, 2);
  assert.equal(drain(s), ['k1', 'other'], 'collapsed entry runs once, at its raised priority');
});

test('one in flight per key: a running key collapses until finished, then starts afresh', () => {
  const s = createRequestQueue();
  s.add({ name: 'a', key: 'k', priority: 0 });
  const running = s.next();
  assert.is(running.name, 'a');
  const repeat = s.add({ name: 'a2', key: 'k', priority: 0 });
  assert.ok(repeat.collapsed);
  assert.is(repeat.entry, running);
  assert.is(s.queued, 0);
  s.finish(running);
  assert.is(running.state, 'done');
  const fresh = s.add({ name: 'a3', key: 'k', priority: 0 });
  assert.not.ok(fresh.collapsed);
  assert.is(s.next().name, 'a3');
});

test('entries without a key never collapse', () => {
  const s = createRequestQueue();
  s.add({ name: 'x', priority: 0 });
  const r = s.add({ name: 'y', priority: 0 });
  assert.not.ok(r.collapsed);
  assert.is(s.queued, 2);
});

test('remove by predicate takes queued and running entries and frees their keys', () => {
  const s = createRequestQueue();
  for (let i = 0; i < 6; i++) s.add({ name: `n${i}`, key: `k${i}`, lod: i % 3, priority: i });
  const r0 = s.next(); // n0, lod 0, running
  const r1 = s.next(); // n1, lod 1, running
  const removed = s.remove((e) => e.lod === 1 || e.name === 'n0');
  assert.equal(removed.running.map((e) => e.name).sort(), ['n0', 'n1']);
  assert.equal(removed.queued.map((e) => e.name), ['n4']);
  assert.is(r0.state, 'cancelled');
  assert.is(r1.state, 'cancelled');
  assert.is(s.queued, 3);
  assert.is(s.running, 0);
  assert.equal(drain(s), ['n2', 'n3', 'n5']);
  // The cancelled keys are free: a new request is a new entry.
  assert.not.ok(s.add({ name: 'again', key: 'k1', priority: 0 }).collapsed);
  // finish() on a cancelled entry must not release the new entry's key.
  s.finish(r1);
  assert.ok(s.add({ name: 'again2', key: 'k1', priority: 0 }).collapsed);
});

test('remove of a collapsed, re-prioritised entry leaves no stale copy behind', () => {
  const s = createRequestQueue();
  s.add({ name: 'a', key: 'a', priority: 9 });
  s.add({ name: 'a', key: 'a', priority: 1 }); // pushes a second heap node
  s.add({ name: 'b', key: 'b', priority: 5 });
  s.remove((e) => e.name === 'a');
  assert.is(s.queued, 1);
  assert.equal(drain(s), ['b']);
});

test('requeue puts a running entry back ahead of later arrivals of equal priority', () => {
  const s = createRequestQueue();
  s.add({ name: 'first', priority: 1 });
  const e = s.next();
  s.add({ name: 'second', priority: 1 });
  s.requeue(e);
  assert.is(e.state, 'queued');
  assert.equal(drain(s), ['first', 'second']);
});

test('reprioritize reorders the queue', () => {
  const s = createRequestQueue();
  for (const [name, d] of [['near', 1], ['mid', 5], ['far', 9]]) s.add({ name, d, priority: d });
  // The camera moved: distance is now measured from the other end.
  s.reprioritize((e) => 10 - e.d);
  assert.equal(s.queuedEntries().map((e) => e.name), ['far', 'mid', 'near']);
  s.reprioritize((e) => (e.name === 'mid' ? -1 : undefined));
  assert.equal(drain(s), ['mid', 'far', 'near']);
});


// ---- assign(): worker choice and affinity ----

const W = (...free) => free.map((f, id) => ({ id, free: f }));
const names = (out) => out.map((o) => `${o.entry.name}@${o.worker}`);
/** Adds entries [name, priority, affinity?]; the affinity doubles as the collapse key's chunk. */
const addAll = (s, spec) => spec.map(([name, priority, affinity]) => s.add({ name, priority, affinity }).entry);

test('assign without affinity: priority order, most room first, ties to the lower id', () => {
  const s = createRequestQueue();
  addAll(s, [['c', 3], ['a', 1], ['b', 2], ['d', 4], ['e', 5]]);
  // Worker 1 has the most room, then both have 1 place left: ties go to worker 0.
  assert.equal(names(s.assign(W(1, 2))), ['a@1', 'b@0', 'c@1']);
  assert.is(s.queued, 2);
  assert.is(s.running, 3);
  assert.equal(names(s.assign(W(0, 0))), [], 'no room: nothing moves');
  assert.equal(names(s.assign(W(0, 5))), ['d@1', 'e@1']);
  assert.equal(s.assign(W(3)), [], 'an empty queue');
});

test('a chunk goes back to the worker that produced it, even when another has more room', () => {
  const s = createRequestQueue();
  addAll(s, [['a4', 0, 'A'], ['b4', 0, 'B']]);
  assert.equal(names(s.assign(W(2, 2))), ['a4@0', 'b4@1']);
  assert.equal(s.workersFor('A'), [0]);
  assert.equal(s.workersFor('B'), [1]);
  // The refinements arrive in the other order; without affinity b2 would take
  // worker 0 (the tie-break) and both chunks would be generated twice.
  addAll(s, [['b2', 0, 'B'], ['a2', 1, 'A']]);
  assert.equal(names(s.assign(W(2, 2))), ['b2@1', 'a2@0']);
  addAll(s, [['actc', 0, 'A'], ['bctc', 0, 'B'], ['x', 0, 'X']]);
  assert.equal(names(s.assign(W(2, 1))), ['actc@0', 'bctc@1', 'x@0']);
  assert.equal(s.workersFor('A'), [], 'worker 0 generates X after A: it holds one chunk only');
  assert.equal(s.workersFor('X'), [0]);
  assert.equal(s.affinityStats, { affine: 4, held: 0, moved: 0, remembered: 2 });
});

test('entries without a chunk never change what a worker holds', () => {
  const s = createRequestQueue();
  addAll(s, [['a', 0, 'A']]);
  s.assign(W(1));
  addAll(s, [['sample', 0], ['stats', 0]]);
  assert.equal(names(s.assign(W(2))), ['sample@0', 'stats@0']);
  assert.equal(s.workersFor('A'), [0]);
});

test('a busy affine worker: the entry waits in place, the next ones go to idle workers, then it goes home', () => {
  const s = createRequestQueue({ affinitySkips: 4 });
  addAll(s, [['a', 0, 'A']]);
  s.assign(W(2, 2)); // A on worker 0
  addAll(s, [['a2', 0, 'A'], ['x', 1, 'X'], ['y', 2, 'Y']]);
  // Worker 0 is full: a2 waits, x and y (less urgent) overtake it on worker 1.
  assert.equal(names(s.assign(W(0, 2))), ['x@1', 'y@1']);
  assert.equal(s.queuedEntries().map((e) => e.name), ['a2']);
  assert.is(s.queuedEntries()[0].skips, 2);
  // Worker 0 frees a place: a2 is still first in line and goes home.
  addAll(s, [['z', 0, 'Z']]);
  assert.equal(names(s.assign(W(1, 1))), ['a2@0', 'z@1']);
  assert.equal(s.affinityStats, { affine: 1, held: 1, moved: 0, remembered: 2 });
});

test('no starvation: after affinitySkips overtakes the waiting entry goes to any worker with room', () => {
  for (const skips of [0, 1, 3]) {
    const s = createRequestQueue({ affinitySkips: skips });
    addAll(s, [['a', 0, 'A']]);
    s.assign(W(1, 0)); // A on worker 0
    addAll(s, [['a2', 0, 'A'], ...Array.from({ length: 6 }, (_, i) => [`n${i}`, 1 + i])]);
    const out = names(s.assign(W(0, 9)));
    // Exactly `skips` less urgent entries run before it, then it runs on worker 1.
    const want = [...Array.from({ length: skips }, (_, i) => `n${i}@1`), 'a2@1',
      ...Array.from({ length: 6 - skips }, (_, i) => `n${skips + i}@1`)];
    assert.equal(out, want, `affinitySkips ${skips}`);
    assert.is(s.affinityStats.moved, 1);
    assert.equal(s.workersFor('A'), [0, 1], 'worker 1 holds A now, worker 0 still does');
  }
  assert.is(AFFINITY_SKIPS, 4);
});

test('the overtake count carries across assign calls', () => {
  const s = createRequestQueue({ affinitySkips: 2 });
  addAll(s, [['a', 0, 'A']]);
  s.assign(W(1, 1));
  addAll(s, [['a2', 0, 'A'], ['n1', 1], ['n2', 2], ['n3', 3]]);
  assert.equal(names(s.assign(W(0, 1))), ['n1@1']);
  assert.equal(names(s.assign(W(0, 1))), ['n2@1']);
  assert.equal(names(s.assign(W(0, 1))), ['a2@1'], 'overtaken twice: it stops waiting');
  assert.equal(names(s.assign(W(0, 1))), ['n3@1']);
});

test('a waiting entry does not wait for a worker that is gone or forgotten', () => {
  const s = createRequestQueue();
  addAll(s, [['a', 0, 'A'], ['b', 0, 'B']]);
  s.assign(W(1, 1)); // A on 0, B on 1
  addAll(s, [['a2', 0, 'A']]);
  assert.equal(names(s.assign([{ id: 1, free: 1 }])), ['a2@1'], 'worker 0 is not listed (not ready)');
  addAll(s, [['b2', 0, 'B']]);
  s.forgetWorker(1);
  s.forgetWorker(1);
  assert.equal(names(s.assign(W(2, 1))), ['b2@0']);
  s.forgetAll();
  assert.is(s.affinityStats.remembered, 0);
  assert.equal(s.workersFor('B'), []);
});

test('unrelated work avoids a worker whose chunk a queued entry wants, when room is equal', () => {
  const s = createRequestQueue();
  addAll(s, [['a', 0, 'A']]);
  s.assign(W(2, 2));
  addAll(s, [['x', 0, 'X'], ['a2', 1, 'A']]);
  assert.equal(names(s.assign(W(2, 2))), ['x@1', 'a2@0']);
  // More room still wins over protection: priority and latency come first.
  addAll(s, [['y', 0, 'Y'], ['x2', 1, 'X']]);
  assert.equal(names(s.assign(W(2, 1))), ['y@0', 'x2@1']);
});

test('affinity: false ignores kept chunks', () => {
  const s = createRequestQueue({ affinity: false });
  addAll(s, [['a', 0, 'A'], ['b', 0, 'B']]);
  s.assign(W(2, 2));
  addAll(s, [['b2', 0, 'B'], ['a2', 0, 'A']]);
  assert.equal(names(s.assign(W(2, 2))), ['b2@0', 'a2@1']);
  assert.is(s.affinityStats.remembered, 0);
});

test('cancel, collapse and requeue keep the wanted-chunk count straight', () => {
  const s = createRequestQueue();
  addAll(s, [['a', 0, 'A']]);
  s.assign(W(2, 2));
  const a2 = s.add({ name: 'a2', key: 'k-a2', priority: 1, affinity: 'A' }).entry;
  assert.ok(s.add({ name: 'a2-again', key: 'k-a2', priority: 1, affinity: 'A' }).collapsed);
  s.remove((e) => e === a2);
  // Nobody wants A any more: x may take worker 0 by the id tie-break.
  addAll(s, [['x', 0, 'X']]);
  assert.equal(names(s.assign(W(2, 2))), ['x@0']);
  // A running entry requeued after a crash wants its chunk again.
  const b = s.add({ name: 'b', priority: 0, affinity: 'B' }).entry;
  assert.equal(names(s.assign([{ id: 1, free: 2 }])), ['b@1']);
  s.forgetWorker(1);
  s.requeue(b);
  assert.equal(names(s.assign(W(1, 1))), ['b@0']);
  s.finish(b);
  assert.is(s.queued, 0);
});

/**
 * A random simulation: requests arrive with random priorities and chunk keys
 * (many repeats), workers finish random in-flight requests. Every entry is
 * eventually sent; none is overtaken by more than affinitySkips less urgent
 * entries; with affinity on, more requests land where their chunk is kept.
 */
function simulate({ affinity, seed, workers = 3, pipeline = 2, skips = 3 }) {
  let x = seed >>> 0;
  const rand = (n) => { // mulberry32
    x = (x + 0x6d2b79f5) >>> 0;
    let t = Math.imul(x ^ (x >>> 15), 1 | x);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const s = createRequestQueue({ affinity, affinitySkips: skips });
  const inflight = Array.from({ length: workers }, () => []);
  const holds = Array(workers).fill(undefined); // what each worker's world keeps (after its queue)
  const queued = new Set();
  let hits = 0;
  let sent = 0;
  let maxOvertaken = 0;
  const all = [];
  for (let step = 0; step < 3000; step++) {
    if (step < 2400 && rand(3) > 0) {
      const e = { name: step, priority: rand(8), affinity: rand(4) ? `K${rand(10)}` : undefined, overtaken: 0 };
      s.add(e);
      queued.add(e);
      all.push(e);
    }
    if (rand(2)) {
      const w = rand(workers);
      if (inflight[w].length) inflight[w].shift();
    }
    const out = s.assign(inflight.map((q, id) => ({ id, free: pipeline - q.length })));
    for (const { entry, worker } of out) {
      queued.delete(entry);
      for (const q of queued) {
        if (entry.priority > q.priority || (entry.priority === q.priority && entry.seq > q.seq)) q.overtaken += 1;
      }
      if (entry.affinity !== undefined) {
        if (holds[worker] === entry.affinity) hits += 1;
        holds[worker] = entry.affinity;
      }
      inflight[worker].push(entry);
      s.finish(entry);
      sent += 1;
    }
  }
  for (let guard = 0; s.queued > 0 && guard < 10000; guard++) {
    for (const q of inflight) q.shift();
    for (const { entry, worker } of s.assign(inflight.map((q, id) => ({ id, free: pipeline - q.length })))) {
      queued.delete(entry);
      inflight[worker].push(entry);
      sent += 1;
    }
  }
  for (const e of all) maxOvertaken = Math.max(maxOvertaken, e.overtaken);
  return { sent, total: all.length, hits, maxOvertaken, left: s.queued };
}

test('simulation: nothing starves, overtakes bounded by affinitySkips, affinity raises reuse', () => {
  for (const seed of [1, 2, 3]) {
    const on = simulate({ affinity: true, seed });
    const off = simulate({ affinity: false, seed });
    assert.is(on.left, 0);
    assert.is(on.sent, on.total, 'every request was sent');
    assert.ok(on.maxOvertaken <= 3, `overtaken ${on.maxOvertaken} times, limit 3`);
    assert.is(off.maxOvertaken, 0, 'without affinity the order is strict');
    assert.ok(on.hits > off.hits, `seed ${seed}: reuse with affinity ${on.hits}, without ${off.hits}`);
    if (process.env.CT_VERBOSE) console.log(`seed ${seed}: ${on.total} requests, reuse ${on.hits} vs ${off.hits}, max overtaken ${on.maxOvertaken}`);
  }
});

test.run();
