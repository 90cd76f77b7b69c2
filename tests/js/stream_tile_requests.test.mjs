// Tests of stream/tile_requests.js, stream/cache.js and web/url.js: request ordering, cancellation, back-off, the GPU budget and the address-bar state (including the exaggeration option).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TileRequestQueue } from '../../stream/tile_requests.js';
import { TileCache } from '../../stream/cache.js';
import { parseHash, formatHash, sameWorld, parseExaggeration } from '../../web/url.js';

const wants = (...pairs) => pairs.map(([id, priority]) => ({ id, priority }));

test('best priority first, never more than maxInFlight', () => {
  const s = new TileRequestQueue({ maxInFlight: 2 });
  const p = s.plan(wants(['c', 3], ['a', 1], ['b', 2]), 0);
  assert.equal(p.start.map((w) => w.id), ['a', 'b']);
  assert.is(s.size, 2);
  // Still wanted: nothing new starts, nothing is cancelled.
  const q = s.plan(wants(['c', 3], ['a', 1], ['b', 2]), 10);
  assert.equal(q, { start: [], cancel: [] });
  s.finished('a');
  assert.equal(s.plan(wants(['c', 3], ['b', 2]), 20).start.map((w) => w.id), ['c']);
});

test('requests the view stopped wanting are cancelled after staleMs', () => {
  const s = new TileRequestQueue({ maxInFlight: 4, staleMs: 500 });
  s.plan(wants(['a', 1], ['b', 2]), 0);
  assert.equal(s.plan(wants(['b', 2]), 400).cancel, []);
  assert.equal(s.plan(wants(['b', 2]), 501).cancel, ['a']);
  assert.is(s.size, 1);
});

test('a full pipeline of unwanted requests yields at once to waiting work, worst first', () => {
  const s = new TileRequestQueue({ maxInFlight: 2, staleMs: 10000 });
  s.plan(wants(['old1', 5], ['old2', 9]), 0);
  const p = s.plan(wants(['new', 1]), 1);
  assert.equal(p.cancel, ['old2']);
  assert.equal(p.start.map((w) => w.id), ['new']);
  assert.is(s.size, 2);
});

test('failures back off and give up after maxFailures', () => {
  const s = new TileRequestQueue({ maxInFlight: 1, retryMs: 100, maxFailures: 2 });
  s.plan(wants(['x', 1]), 0);
  s.failed('x', 0);
  assert.equal(s.plan(wants(['x', 1]), 50).start, []);
  assert.equal(s.plan(wants(['x', 1]), 100).start.map((w) => w.id), ['x']);
  s.failed('x', 100);
  assert.equal(s.plan(wants(['x', 1]), 10000).start, [], 'gave up');
  assert.equal(s.reset(), []);
  assert.equal(s.plan(wants(['x', 1]), 10001).start.map((w) => w.id), ['x'], 'reset forgets failures');
});

test('tile cache evicts least recently used tiles over budget, never this frame\'s', () => {
  const released = [];
  const c = new TileCache({ budgetBytes: 100, release: (t) => released.push(t.name) });
  c.add('a', { name: 'a' }, 40, 1);
  c.add('b', { name: 'b' }, 40, 2);
  c.add('c', { name: 'c' }, 40, 3);
  c.touch(['a'], 3);
  assert.equal(c.evict(3), ['b']);
  assert.equal(released, ['b']);
  assert.is(c.bytes, 80);
  c.add('d', { name: 'd' }, 60, 4);
  c.touch(['a', 'c', 'd'], 4);
  assert.equal(c.evict(4), [], 'all in use: stays over budget rather than making holes');
  assert.equal(c.evict(5), ['a'], 'next frame: the oldest goes until the budget holds');
  assert.is(c.bytes, 100);
  c.clear();
  assert.is(c.bytes, 0);
  assert.is(c.size, 0);
  c.add('e', { name: 'e' }, 10, 6);
  c.add('e', { name: 'e2' }, 20, 6);
  assert.is(c.bytes, 20, 'replacing releases the old tile');
  assert.ok(released.includes('e'));
});

test('address bar: world card, generation, view and options round trip', () => {
  const s = parseHash('#preset=alpine&seed=7&surface_lod=4&gen=0123456789ABCDEF&view=-33.9,18.4,2500,45,60&palette=mars&bogus');
  assert.equal(s.world, { preset: 'alpine', set: { seed: '7', surface_lod: '4', bogus: '' } });
  assert.is(s.gen, '0123456789abcdef');
  assert.equal(s.view, { lat: -33.9, lon: 18.4, alt: 2500, heading: 45, tilt: 60 });
  assert.equal(s.options, { palette: 'mars' });
  const again = parseHash(formatHash(s));
  assert.equal(again.view, s.view);
  assert.is(again.gen, s.gen);
  assert.ok(sameWorld(again.world, { preset: 'alpine', set: { seed: '7', surface_lod: '4' } }));
  assert.not.ok(sameWorld(again.world, { preset: 'alpine', set: { seed: '8', surface_lod: '4' } }));
  assert.equal(parseHash('').world, { preset: 'balanced', set: {} });
  assert.is(parseHash('#view=1,2').view, null, 'a view needs lat, lon and altitude');
  assert.is(parseHash('#gen=xyz').gen, null);
});

test('address bar: the vertical exaggeration is a display option, not a knob, clamped to 1..10', () => {
  const s = parseHash('#preset=balanced&seed=3&exaggeration=3.5&view=1,2,3000,0,60');
  assert.is(s.options.exaggeration, '3.5');
  assert.not.ok('exaggeration' in s.world.set, 'never sent to the core as a knob');
  assert.ok(sameWorld(s.world, parseHash('#preset=balanced&seed=3').world), 'the same world');
  assert.match(formatHash(s), /&exaggeration=3\.5$/);
  assert.is(parseExaggeration(s.options.exaggeration), 3.5);
  assert.is(parseExaggeration('3x'), 3);
  assert.is(parseExaggeration('2.54'), 2.5);
  assert.is(parseExaggeration('0.2'), 1);
  assert.is(parseExaggeration('40'), 10);
  assert.is(parseExaggeration(undefined), 1);
  assert.is(parseExaggeration('tall'), 1);
});

test.run();
