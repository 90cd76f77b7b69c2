// Tests of stream/streamer.js with a fake worker pool and renderer: mesh requests carry the vertical exaggeration, a change re-requests every tile under new cache keys while the previous tiles stay drawn (no blank frames), stale replies are dropped and old meshes freed; lod.js reports incomplete cover.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TileStreamer, HEIGHT_RANGE_M } from '../../stream/streamer.js';
import { selectTiles } from '../../stream/lod.js';
import { computeView, autoTilt } from '../../stream/camera.js';
import { keyDirection, scale } from '../../stream/geo.js';

const R = 6371000;
const view = computeView({ lat: 20, lon: 10, alt: 3 * R, heading: 0, tilt: autoTilt(3 * R) }, { radiusM: R, width: 320, height: 240 });

/** A pool whose mesh replies wait until the test releases them. */
function fakePool({ cancelRejects = true } = {}) {
  let next = 1;
  const pool = {
    requests: [], cancelled: [],
    mesh(key, options, { priority }) {
      let resolve, reject;
      const p = new Promise((res, rej) => { resolve = res; reject = rej; });
      p.id = next++;
      pool.requests.push({ id: p.id, key, options, priority, resolve, reject, done: false });
      return p;
    },
    cancel(id) {
      pool.cancelled.push(id);
      const r = pool.requests.find((q) => q.id === id && !q.done);
      if (r && cancelRejects) {
        r.done = true;
        r.reject(Object.assign(new Error('cancelled'), { code: 'CT_ERR_CANCELLED' }));
      }
    },
    /** Answers every open request with a flat mesh of its stride. */
    answerAll(generation = 'g1') {
      for (const r of pool.requests.filter((q) => !q.done)) answer(r, generation);
    },
  };
  const answer = (r, generation) => {
    r.done = true;
    const n = 256 / r.options.stride, vc = (n + 1) * (n + 1);
    r.resolve({
      positions: new Float32Array(3 * vc), normals: new Float32Array(3 * vc), colors: new Uint8Array(4 * vc),
      paletteIndex: new Uint8Array(vc), indices: new Uint16Array([0, 1, 2]), vertexCount: vc,
      center: scale(keyDirection(r.key, 128, 128), R), generation, lakes: null, exaggeration: r.options.verticalExaggeration,
    });
  };
  pool.answer = answer;
  return pool;
}

function fakeRenderer() {
  let next = 1;
  const r = {
    live: new Set(), released: [],
    uploadTerrain(t) { const g = { id: next++, bytes: 1000, vertexCount: t.vertexCount }; r.live.add(g.id); return g; },
    uploadWater() { return { id: next++, bytes: 10 }; },
    release(g) { r.released.push(g.id); r.live.delete(g.id); },
  };
  return r;
}

const flush = () => new Promise((res) => setTimeout(res, 0));

/** Runs frames, answering every request, until the streamer settles. */
async function settle(s, pool, now = 0) {
  for (let k = 0; k < 50; k++) {
    const f = s.update(view, now + 100 * k); // 100 ms a frame: geomorphs finish
    if (f.settled) return f;
    pool.answerAll();
    await flush();
  }
  throw new Error('never settled');
}

const make = (o = {}, poolOptions = {}) => {
  const pool = fakePool(poolOptions), renderer = fakeRenderer();
  const s = new TileStreamer({ pool, renderer, radiusM: R, surfaceLod: 4, generation: 'g1', maxInFlight: 64, ...o });
  return { s, pool, renderer };
};

test('mesh requests carry the exaggeration, and skirts and the height range scale with it', async () => {
  const one = make();
  one.s.update(view, 0);
  assert.ok(one.pool.requests.length >= 3);
  for (const r of one.pool.requests) assert.is(r.options.verticalExaggeration, 1);
  const three = make({ exaggeration: 3 });
  three.s.update(view, 0);
  for (const r of three.pool.requests) assert.is(r.options.verticalExaggeration, 3);
  const a = one.pool.requests[0], b = three.pool.requests.find((r) => r.key.lod === a.key.lod && r.options.stride === a.options.stride);
  assert.ok(Math.abs(b.options.skirtDepthM - 3 * a.options.skirtDepthM) < 1e-9, 'skirts three times as deep');
  assert.equal(three.s.heightRange(), { hMinM: 3 * HEIGHT_RANGE_M[0], hMaxM: 3 * HEIGHT_RANGE_M[1] });
});

test('changing the exaggeration re-requests every tile while the old ones stay drawn, then frees them', async () => {
  const { s, pool, renderer } = make();
  const before = await settle(s, pool);
  assert.ok(before.tiles.length >= 3);
  assert.is(before.exaggeration, 1);
  const oldGpu = new Set(before.tiles.map((t) => t.gpu.id));
  const cachedBefore = s.cache.size;
  const nBefore = pool.requests.length;

  s.setExaggeration(3);
  const f = s.update(view, 100);
  // The same picture until the new meshes cover the view.
  assert.equal(f.tiles.map((t) => t.gpu.id).sort(), [...oldGpu].sort());
  assert.is(f.exaggeration, 1);
  assert.is(f.settled, false);
  const fresh = pool.requests.slice(nBefore);
  assert.ok(fresh.length >= 3, `${fresh.length} new requests (the visible roots at least)`);
  assert.ok(fresh.some((r) => r.key.lod === 0), "from the roots again");
  for (const r of fresh) assert.is(r.options.verticalExaggeration, 3);
  assert.is(s.stats().exaggeration, 3);

  const after = await settle(s, pool, 10000);
  assert.is(after.exaggeration, 3);
  for (const t of after.tiles) assert.not.ok(oldGpu.has(t.gpu.id), 'drawn from new meshes');
  for (const id of oldGpu) assert.ok(renderer.released.includes(id), `old mesh ${id} freed`);
  for (const id of s.cache.entries.keys()) assert.match(id, /\|x3$/);
  assert.is(s.cache.size, cachedBefore, 'one set of tiles cached, not two');
});

test('in-flight requests of the old exaggeration are cancelled and late replies are dropped', async () => {
  // This pool's cancel does not reject: the replies race the cancel and arrive anyway.
  const { s, pool, renderer } = make({}, { cancelRejects: false });
  s.update(view, 0);
  const old = pool.requests.slice();
  assert.ok(old.length > 0);
  s.setExaggeration(2);
  for (const r of old) assert.ok(pool.cancelled.includes(r.id), `request ${r.id} cancelled`);
  for (const r of old) pool.answer(r, 'g1');
  await flush();
  assert.is(s.cache.size, 0, 'late replies of the old exaggeration are not cached');
  assert.is(renderer.live.size, 0, 'nor uploaded');
  // Setting the same value again changes nothing.
  const n = pool.requests.length;
  s.setExaggeration(2);
  assert.is(pool.requests.length, n);
});

test('new tiles geomorph at fast frames and appear at once when a frame costs a geomorph or more', async () => {
  const runs = {};
  for (const frameMs of [16, 450, 2000]) {
    const { s, pool } = make();
    let partial = 0, frames = 0;
    for (let k = 0; k < 80; k++) {
      const f = s.update(view, 100 * k, { frameMs });
      frames++;
      partial += f.tiles.filter((t) => t.morph < 1).length;
      if (f.settled) break;
      pool.answerAll();
      await flush();
    }
    runs[frameMs] = { partial, frames };
  }
  assert.ok(runs[16].partial > 0, 'tiles that refine coarser ones grow out of them at 60 fps');
  assert.is(runs[450].partial, 0);
  assert.is(runs[2000].partial, 0);
  assert.ok(runs[2000].frames < runs[16].frames, `settles in fewer frames: ${JSON.stringify(runs)}`);
});

test('selectTiles reports whether every visible face is covered by ready tiles', () => {
  const none = selectTiles({ view, radiusM: R, surfaceLod: 4, isReady: () => false });
  assert.is(none.complete, false);
  assert.is(none.draw.length, 0);
  const all = selectTiles({ view, radiusM: R, surfaceLod: 4, isReady: () => true });
  assert.is(all.complete, true);
  // Only the roots ready: still complete (the coarse cover is drawn), with finer tiles wanted.
  const roots = selectTiles({ view, radiusM: R, surfaceLod: 4, isReady: (id) => /^[pn][xyz]\/0\//.test(id) });
  assert.is(roots.complete, true);
});

test('invalidate asks again for exactly the drawn tiles of the keys, which stay drawn until replaced', async () => {
  const { s, pool, renderer } = make();
  const before = await settle(s, pool);
  const target = before.tiles[0];
  const oldGpu = target.gpu.id;
  const n0 = pool.requests.length;
  // A key that is not drawn (another face's root child) is only dropped from the cache, never asked.
  s.invalidate([target.key, { face: (target.key.face + 3) % 6, lod: 1, x: 0, y: 0 }]);
  const fresh = pool.requests.slice(n0);
  assert.equal(fresh.map((r) => [r.key, r.options.stride]), [[target.key, target.stride]]);
  const f = s.update(view, 20000);
  assert.is(f.settled, false, 'not settled while the tile is asked again');
  assert.ok(f.tiles.some((t) => t.gpu.id === oldGpu), 'the old mesh stays drawn meanwhile');
  assert.is(pool.requests.length, n0 + 1, 'nothing else asked');
  const after = await settle(s, pool, 30000);
  assert.is(pool.requests.length, n0 + 1, 'no other tile asked again');
  assert.ok(renderer.released.includes(oldGpu), 'the old mesh freed');
  assert.not.ok(after.tiles.some((t) => t.gpu.id === oldGpu));
});

test.run();
