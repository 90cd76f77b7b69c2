// stream_neighbourhood.test.mjs - GroundNeighbourhood (stream/neighbourhood.js)
// over a fake pool whose collider() wraps a WebAssembly world's
// world.collider and answers only when the test says so: the patches follow
// the player across a chunk seam and a cube edge, onAdd and onRemove pair up,
// patches keep the collider's vertices bit for bit and weld, groundAt and
// raycast agree with the world's within 1 mm where held and answer null
// elsewhere, the old ground stays until the new is whole, update() returns
// at once, the triangle budget holds, and bad input is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshCore, thrown } from './ct_fixture.mjs';
import { GroundNeighbourhood } from '../../stream/index.js';
import { keyDirection, keyId } from '../../stream/geo.js';

const core = await freshCore();
// LOD 10: chunks of 5 to 10 km whose float32 offsets are good to 0.5 mm.
const world = core.buildWorld({ preset: 'balanced', set: { macro_resolution: 32, surface_lod: 10, seed: 7 } });
const R = world.config.radius_m, L = world.config.surface_lod;
const RANGE_M = 2500;

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const len = (a) => Math.hypot(a[0], a[1], a[2]);
const at = (face, x, y, lx, ly) => keyDirection({ face, lod: L, x, y }, lx, ly);

/** A pool whose collider requests wait in a queue until flush() builds them with world.collider. */
function fakePool({ fail = () => false } = {}) {
  const queue = [];
  return {
    requests: [],
    queue,
    collider(key, opts, prio) {
      this.requests.push({ key, opts, prio });
      return new Promise((resolve, reject) => queue.push({ key, opts, resolve, reject }));
    },
    async flush() {
      for (const q of queue.splice(0)) {
        if (fail(q.key)) q.reject(new Error(`no collider for ${keyId(q.key)}`));
        else q.resolve(world.collider(q.key, q.opts));
      }
      await new Promise((r) => setTimeout(r, 0));   // the neighbourhood's then() callbacks run
    },
  };
}

/** A neighbourhood whose onAdd/onRemove keep a map and fail on an unbalanced call. */
function make(options = {}) {
  const pool = options.pool ?? fakePool();
  const live = new Map(), log = { adds: 0, removes: 0 };
  const nb = new GroundNeighbourhood({
    pool, radiusM: R, surfaceLod: L, rangeM: RANGE_M,
    onAdd: (k, c) => { assert.not.ok(live.has(k), `added twice: ${k}`); live.set(k, c); log.adds++; },
    onRemove: (k) => { assert.ok(live.has(k), `removed but not added: ${k}`); live.delete(k); log.removes++; },
    ...options, pool,
  });
  return { nb, pool, live, log };
}

/** Updates and flushes until the range round dir is whole. */
async function settle({ nb, pool }, dir) {
  for (let i = 0; i < 200; i++) {
    if (nb.update(dir).complete) { nb.update(dir); return; }
    await pool.flush();
  }
  throw new Error('never complete');
}

/** Points of the disc of radius r round dir. */
function disc(dir, r, n = 12) {
  const e = len([dir[1], -dir[0], 0]) > 0.1 ? [dir[1], -dir[0], 0] : [0, dir[2], -dir[1]];
  const el = len(e), E = e.map((v) => v / el);
  const N = [dir[1] * E[2] - dir[2] * E[1], dir[2] * E[0] - dir[0] * E[2], dir[0] * E[1] - dir[1] * E[0]];
  const out = [dir];
  for (let k = 0; k < n; k++) {
    for (const f of [0.5, 1]) {
      const a = (2 * Math.PI * k) / n, s = (f * r) / R;
      const p = dir.map((v, c) => v + s * (Math.cos(a) * E[c] + Math.sin(a) * N[c]));
      out.push(p.map((v) => v / len(p)));
    }
  }
  return out;
}

const chunksOf = (keys) => new Set(keys.map((k) => k.split('/').slice(0, -2).join('/')));

test('the patches follow the player across a chunk seam and a cube edge', async () => {
  const h = make();
  // Across seams on +Z (chunks about 12 km wide): from 1.2 km before the seam between x 500 and
  // 501 to chunk 502.
  const a = at(4, 500, 500, 230, 128), b = at(4, 500, 500, 512 + 128, 128);
  await settle(h, a);
  for (const d of disc(a, RANGE_M * 0.99)) assert.ok(h.nb.holds(d), 'every point in range is held');
  const before = chunksOf(h.nb.keys());
  assert.ok(before.has(keyId({ face: 4, lod: L, x: 501, y: 500 })), 'the chunk past the seam is in range');
  await settle(h, b);
  for (const d of disc(b, RANGE_M * 0.99)) assert.ok(h.nb.holds(d), 'every point in range is held after the move');
  const after = chunksOf(h.nb.keys());
  assert.not.ok(after.has(keyId({ face: 4, lod: L, x: 500, y: 500 })), 'the chunk left behind is gone');
  assert.equal([...after], [keyId({ face: 4, lod: L, x: 502, y: 500 })], 'only the chunk round the player');
  // Every held patch touches the range: its nearest vertex is within it.
  for (const [k, p] of h.live) {
    let best = Infinity;
    for (let v = 0; v < p.vertexCount; v++) {
      const q = [p.center[0] + p.positions[3 * v], p.center[1] + p.positions[3 * v + 1], p.center[2] + p.positions[3 * v + 2]];
      best = Math.min(best, Math.acos(Math.min(1, (q[0] * b[0] + q[1] * b[1] + q[2] * b[2]) / len(q))) * R);
    }
    assert.ok(best < RANGE_M, `${k} is ${best.toFixed(0)} m away`);
  }
  // Over the +X/+Y cube edge: +X's last column (local x past 256 lies on +Y).
  const last = 2 ** L - 1, e1 = at(0, last, 300, 200, 128), e2 = at(0, last, 300, 256 + 300, 128);
  await settle(h, e1);
  const faces1 = new Set(h.nb.keys().map((k) => k.split('/')[0]));
  await settle(h, e2);
  const faces2 = new Set(h.nb.keys().map((k) => k.split('/')[0]));
  assert.ok(faces1.size === 2, `two faces at the edge: ${[...faces1]}`);
  assert.not.ok(faces2.has([...faces1].find((f) => f !== h.nb.patchKeyAt(e2).split('/')[0])), 'the face left behind is gone');
  for (const d of disc(e2, RANGE_M * 0.99)) assert.ok(h.nb.holds(d), 'every point in range is held past the edge');
});

test('onAdd and onRemove pair up, clear() removes everything, the budget holds', async () => {
  const h = make({ budgetTriangles: 10000 });
  const d = at(2, 300, 300, 10, 10);
  h.nb.update(d);
  await h.pool.flush();
  const addsBefore = h.log.adds;
  h.nb.update(d);
  assert.is(h.log.adds - addsBefore, 2, '8,192-triangle patches: two fit a 10,000 budget (the second starts under it)');
  await settle(h, d);
  await settle(h, at(2, 302, 300, 10, 10));
  assert.ok(h.log.removes > 0);
  assert.is(h.log.adds - h.log.removes, h.live.size);
  assert.is(h.nb.keys().length, h.live.size);
  h.nb.clear();
  assert.is(h.live.size, 0);
  assert.is(h.log.adds, h.log.removes);
  assert.is(h.nb.groundAt(d), null);
});

test('patches keep the collider\'s vertices bit for bit and weld across patches and chunks', async () => {
  const h = make({ rangeM: 1500 });
  const d = at(4, 600, 600, 250, 64);   // near the seam between x 600 and 601, on a patch border (y 64)
  await settle(h, d);
  const key = { face: 4, lod: L, x: 600, y: 600 }, col = world.collider(key);
  const id = keyId(key), p = h.live.get(`${id}/3/0`), q = h.live.get(`${id}/3/1`);
  assert.ok(p && q, 'both patches held');
  assert.equal([...p.center], [...col.center]);
  // Patch (3, 0): cells x 192..256, y 0..64; its vertex (i, j) is the collider's (192 + i, j).
  for (let j = 0; j <= 64; j += 8) {
    for (let i = 0; i <= 64; i += 8) {
      const v = j * 65 + i, w = j * 257 + 192 + i;
      assert.equal([...p.positions.subarray(3 * v, 3 * v + 3)], [...col.positions.subarray(3 * w, 3 * w + 3)]);
    }
  }
  // Its last row is (3, 1)'s first, the same floats.
  assert.equal([...p.positions.subarray(3 * 64 * 65)], [...q.positions.subarray(0, 3 * 65)]);
  // Across the seam: (3, 0)'s last column and the next chunk's (0, 0) first column, within the float step.
  const r = h.live.get(`${keyId({ face: 4, lod: L, x: 601, y: 600 })}/0/0`);
  assert.ok(r, 'the patch past the seam is held');
  let worst = 0;
  for (let j = 0; j <= 64; j++) {
    const a = [0, 1, 2].map((c) => p.center[c] + p.positions[3 * (j * 65 + 64) + c]);
    const b = [0, 1, 2].map((c) => r.center[c] + r.positions[3 * (j * 65) + c]);
    worst = Math.max(worst, len(sub(a, b)));
  }
  assert.ok(worst < 1e-3, `seam vertices ${worst} m apart`);
  // Every patch is a collider: 8,192 triangles on 65 x 65 vertices, indices in range.
  for (const c of h.live.values()) {
    assert.is(c.triangleCount, 8192);
    assert.is(c.vertexCount, 65 * 65);
    assert.ok(c.indices.every((v) => v < c.vertexCount));
  }
});

test('groundAt and raycast agree with the world within 1 mm where held and are null elsewhere', async () => {
  const h = make();
  const centre = at(0, 1023, 1023, 250, 250);   // by the cube corner of +X, +Y and +Z
  await settle(h, centre);
  let worstG = 0, worstR = 0, n = 0;
  for (const d of disc(centre, RANGE_M * 0.98, 40)) {
    const mine = h.nb.groundAt(d), theirs = world.groundAt(d);
    assert.ok(mine, 'held ground');
    worstG = Math.max(worstG, Math.abs(mine.heightM - theirs.heightM));
    assert.ok(mine.normal[0] * theirs.normal[0] + mine.normal[1] * theirs.normal[1] + mine.normal[2] * theirs.normal[2] > 0.999, 'normal');
    // A slanted ray from 300 m above.
    const o = d.map((v) => v * (R + theirs.heightM + 300));
    const ray = [-d[0] + 0.3 * d[1], -d[1] - 0.3 * d[0], -d[2]];
    const a = h.nb.raycast(o, ray, 2000), b = world.raycast(o, ray, 2000);
    if (!b) continue;
    assert.ok(a, 'the held ray hits');
    worstR = Math.max(worstR, Math.abs(a.distanceM - b.distanceM), len(sub(a.point, b.point)));
    n++;
  }
  assert.ok(worstG < 1e-3, `groundAt ${worstG} m from the world's`);
  assert.ok(n > 40 && worstR < 1e-3, `raycast ${worstR} m from the world's over ${n} rays`);
  const far = at(0, 700, 700, 128, 128);
  assert.is(h.nb.groundAt(far), null);
  assert.is(h.nb.raycast(far.map((v) => v * (R + 9000)), far.map((v) => -v), 20000), null);
  assert.is(h.nb.raycast(centre.map((v) => v * (R + 9000)), centre, 20000), null, 'a ray going up hits nothing');
});

test('the old ground stays until the new set is whole; update() never waits', async () => {
  const h = make();
  const a = at(3, 100, 100, 128, 128), b = at(3, 104, 100, 128, 128);
  await settle(h, a);
  const old = h.nb.keys().sort(), g = h.nb.groundAt(a);
  const requested = h.pool.requests.length;
  const r = h.nb.update(b);
  assert.is(typeof r.then, 'undefined', 'update returns stats, not a promise');
  assert.not.ok(r.complete);
  assert.ok(h.pool.requests.length > requested, 'missing colliders requested at once');
  assert.equal(h.pool.requests.at(-1).opts, { stride: 1 });
  assert.ok(h.pool.queue.length > 0, 'and not waited for');
  for (let i = 0; i < 5; i++) h.nb.update(b);
  assert.equal(h.nb.keys().sort(), old, 'nothing removed while the new range is missing');
  assert.equal(h.nb.groundAt(a), g, 'the old ground still answers');
  assert.is(h.nb.groundAt(b), null, 'the new ground is not there yet');
  await settle(h, b);
  assert.ok(h.nb.groundAt(b));
  assert.is(h.nb.groundAt(a), null, 'the old ground went once the new was whole');
});

test('a failed collider request is reported and retried; the neighbourhood goes on', async () => {
  let failing = true;
  const errors = [];
  const pool = fakePool({ fail: () => failing });
  const h = make({ pool, onError: (e, key) => errors.push([e.message, keyId(key)]) });
  const d = at(1, 50, 50, 128, 128);
  h.nb.update(d);
  await pool.flush();
  assert.ok(errors.length > 0 && /no collider/.test(errors[0][0]));
  assert.is(h.nb.stats().failed, errors.length);
  failing = false;
  for (let i = 0; i < 40; i++) h.nb.update(d);   // retried after 30 updates
  await settle(h, d);
  assert.ok(h.nb.groundAt(d));
});

test('bad input is refused with clear errors', () => {
  const h = make();
  for (const bad of [[NaN, 0, 1], [0, 0, 0], null, [1, 2], 'x']) {
    assert.is(thrown(() => h.nb.update(bad)).code, 'CT_ERR_DIRECTION', String(bad));
    assert.is(thrown(() => h.nb.groundAt(bad)).code, 'CT_ERR_DIRECTION', String(bad));
  }
  const o = [R + 100, 0, 0], down = [-1, 0, 0];
  for (const maxM of [0, -1, NaN, Infinity, '5']) assert.match(thrown(() => h.nb.raycast(o, down, maxM)).message, /maxM/);
  assert.match(thrown(() => h.nb.raycast(o, [0, 0, 0], 10)).message, /zero vector/);
  assert.match(thrown(() => h.nb.raycast([Infinity, 0, 0], down, 10)).message, /NaN or infinite/);
  const ok = { pool: fakePool(), radiusM: R, surfaceLod: L, onAdd() {}, onRemove() {} };
  for (const [opts, re] of [
    [{ ...ok, pool: {} }, /collider/], [{ ...ok, onAdd: null }, /onAdd/], [{ ...ok, radiusM: -1 }, /radiusM/],
    [{ ...ok, surfaceLod: 1.5 }, /surfaceLod/], [{ ...ok, stride: 3 }, /power of two/], [{ ...ok, patch: 0 }, /patch/],
    [{ ...ok, rangeM: 0 }, /rangeM/], [{ ...ok, budgetTriangles: NaN }, /budgetTriangles/],
  ]) assert.match(thrown(() => new GroundNeighbourhood(opts)).message, re);
  assert.match(thrown(() => new GroundNeighbourhood()).message, /options/);
});

test('a collider of the wrong shape is refused through onError, not added', async () => {
  const errors = [];
  const pool = { collider: async (key) => ({ ...world.collider(key, { stride: 2 }) }) };
  const h = make({ pool, onError: (e) => errors.push(e.message) });
  h.nb.update(at(1, 10, 10, 128, 128));
  await new Promise((r) => setTimeout(r, 0));
  h.nb.update(at(1, 10, 10, 128, 128));
  assert.ok(errors.length > 0 && /128 cells per side, not 256/.test(errors[0]), errors[0]);
  assert.is(h.live.size, 0);
});

test.run();
