// Tests of worker/slot.js, one worker slot's lifecycle: starting -> live ->
// starting (a death, its requests handed back) or broken (too many deaths in a
// row, or a failed restart), and the moves its state does not allow.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WorkerSlot, SLOT, MAX_CONSECUTIVE_CRASHES } from '../../worker/slot.js';

/** A stand-in for spawn.js's handle: records posts and terminations. */
function fakeHandle() {
  const h = { posted: [], terminated: 0 };
  h.post = (msg, transfer) => h.posted.push({ msg, transfer });
  h.terminate = () => { h.terminated++; return Promise.resolve(); };
  return h;
}

const message = (id) => () => ({ msg: { id }, transfer: [] });

test('a request sent while starting waits in the backlog; a live slot posts it and owes its answer', () => {
  const s = new WorkerSlot(3);
  assert.is(s.state, SLOT.STARTING);
  assert.ok(s.dead);
  let made = 0;
  assert.is(s.post({ id: 1 }, () => { made++; return { msg: {}, transfer: [] }; }), false);
  assert.is(made, 0, 'the message (and its transferred copy) is made only when posted');
  assert.is(s.backlog.length, 1);
  const h = fakeHandle();
  s.started(h);
  assert.is(s.state, SLOT.LIVE);
  assert.not.ok(s.serves(0), 'a fresh worker holds no world');
  s.serve(0);
  assert.ok(s.serves(0));
  assert.not.ok(s.serves(1), 'another epoch is another world');
  assert.is(s.post({ id: 2 }, message(2)), true);
  assert.equal(h.posted.map((p) => p.msg.id), [2]);
  assert.ok(s.inflight.has(2));
});

test('a death hands back what the worker owed, terminates it, and the replacement starts with no world', () => {
  const s = new WorkerSlot(0), h = fakeHandle();
  s.started(h);
  s.serve(4);
  s.post({ id: 7 }, message(7));
  const lost = s.died();
  assert.equal(lost.map((e) => e.id), [7]);
  assert.is(s.inflight.size, 0);
  assert.is(h.terminated, 1);
  assert.is(s.state, SLOT.STARTING);
  assert.not.ok(s.serves(4));
  s.started(fakeHandle());
  assert.not.ok(s.serves(4), 'the replacement must load the world again');
  assert.is(s.crashStreak, 1);
  s.answered();
  assert.is(s.crashStreak, 0, 'an answer ends the streak');
});

test('too many deaths in a row, or a failed restart, break the slot for good', () => {
  const s = new WorkerSlot(1);
  for (let i = 0; i <= MAX_CONSECUTIVE_CRASHES; i++) {
    s.started(fakeHandle());
    s.died();
  }
  assert.is(s.state, SLOT.BROKEN);
  assert.ok(s.broken && s.dead);
  assert.throws(() => s.started(fakeHandle()), /broken -> live/);
  const t = new WorkerSlot(2);
  t.started(fakeHandle());
  t.died();
  t.giveUp();
  assert.ok(t.broken);
});

test('moves the state does not allow are refused (a late death notice, a double start)', () => {
  const s = new WorkerSlot(0);
  assert.throws(() => s.died(), /starting -> starting/);
  s.started(fakeHandle());
  assert.throws(() => s.started(fakeHandle()), /live -> live/);
  assert.throws(() => s.giveUp(), /live -> broken/);
});

test.run();
