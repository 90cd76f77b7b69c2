// Tests of worker/scheduler.js, the pool's pure request queue: priority order,
// collapse of repeated keys, removal by predicate, requeue and reprioritising.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createScheduler } from '../../worker/scheduler.js';

const drain = (s) => {
  const out = [];
  for (let e = s.next(); e; e = s.next()) out.push(e.name);
  return out;
};

test('lowest priority number first, ties in arrival order', () => {
  const s = createScheduler();
  const spec = [['a', 5], ['b', 1], ['c', 3], ['d', 1], ['e', -2], ['f', 3], ['g', 0]];
  for (const [name, priority] of spec) s.add({ name, priority });
  assert.is(s.queued, spec.length);
  assert.equal(drain(s), ['e', 'g', 'b', 'd', 'c', 'f', 'a']);
  assert.is(s.queued, 0);
  assert.is(s.running, spec.length);
  assert.is(s.next(), undefined);
});

test('a large random set comes out sorted by (priority, arrival)', () => {
  const s = createScheduler();
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
  const s = createScheduler();
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
  const s = createScheduler();
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
  const s = createScheduler();
  s.add({ name: 'x', priority: 0 });
  const r = s.add({ name: 'y', priority: 0 });
  assert.not.ok(r.collapsed);
  assert.is(s.queued, 2);
});

test('remove by predicate takes queued and running entries and frees their keys', () => {
  const s = createScheduler();
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
  const s = createScheduler();
  s.add({ name: 'a', key: 'a', priority: 9 });
  s.add({ name: 'a', key: 'a', priority: 1 }); // pushes a second heap node
  s.add({ name: 'b', key: 'b', priority: 5 });
  s.remove((e) => e.name === 'a');
  assert.is(s.queued, 1);
  assert.equal(drain(s), ['b']);
});

test('requeue puts a running entry back ahead of later arrivals of equal priority', () => {
  const s = createScheduler();
  s.add({ name: 'first', priority: 1 });
  const e = s.next();
  s.add({ name: 'second', priority: 1 });
  s.requeue(e);
  assert.is(e.state, 'queued');
  assert.equal(drain(s), ['first', 'second']);
});

test('reprioritize reorders the queue', () => {
  const s = createScheduler();
  for (const [name, d] of [['near', 1], ['mid', 5], ['far', 9]]) s.add({ name, d, priority: d });
  // The camera moved: distance is now measured from the other end.
  s.reprioritize((e) => 10 - e.d);
  assert.equal(s.queuedEntries().map((e) => e.name), ['far', 'mid', 'near']);
  s.reprioritize((e) => (e.name === 'mid' ? -1 : undefined));
  assert.equal(drain(s), ['mid', 'far', 'near']);
});

test.run();
