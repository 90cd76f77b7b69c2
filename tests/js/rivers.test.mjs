// Tests of the river graph through the JS API (world.rivers()) and the worker
// handler's rivers message: typed arrays with one entry per node, downstream
// links inside the graph, surfaces that never rise downstream, the same graph
// after a snapshot round trip, and an empty graph with the layer off. And
// the finer network below it, world.streams(key) (wasm/ct_streams.mjs): water
// that never rises downstream, fewer levels on coarser keys, the native
// bytes, nothing with streams off, and the worker's streams message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadCore } from '../../wasm/ct.mjs';
import { createHandler } from '../../worker/handler.js';
import { createPool } from '../../worker/client.js';
import { MSG } from '../../worker/protocol.js';
import { native } from './cli_runs.mjs';
import { spawnSync } from 'node:child_process';
import { ROOT, fnv1a64 } from './ct_fixture.mjs';

let core;
let world;

test.before(async () => {
  core = await loadCore();
  world = core.buildWorld({ preset: 'balanced', set: { seed: 7 } });
});

test.after(() => { world.free(); });

test('world.rivers() returns the graph as typed arrays', () => {
  const r = world.rivers();
  const n = r.info.nodeCount;
  assert.ok(n > 100, `${n} river nodes`);
  assert.instance(r.direction, Float64Array);
  assert.is(r.direction.length, 3 * n);
  assert.instance(r.downstream, Int32Array);
  for (const k of ['drainageAreaM2', 'widthM', 'lengthM', 'surfaceM']) {
    assert.instance(r[k], Float64Array);
    assert.is(r[k].length, n, k);
  }
  let mouths = 0, outlets = 0;
  for (let i = 0; i < n; i++) {
    const d = r.direction.subarray(3 * i, 3 * i + 3);
    assert.ok(Math.abs(Math.hypot(d[0], d[1], d[2]) - 1) < 1e-12, 'unit direction');
    assert.ok(r.widthM[i] > 0 && r.lengthM[i] > 0);
    const j = r.downstream[i];
    if (j < 0) { mouths++; assert.ok(r.flags[i] & 6, 'a mouth says what it enters'); continue; }
    assert.ok(j < n);
    assert.ok(r.drainageAreaM2[j] >= r.drainageAreaM2[i], 'area grows downstream');
    assert.ok(r.surfaceM[j] <= r.surfaceM[i], 'the surface never rises downstream');
    outlets += r.lakeOutlet[i];
  }
  assert.ok(mouths > 0);
  assert.ok(outlets > 0 && outlets <= r.info.lakesOpen, `${outlets} outlets, ${r.info.lakesOpen} open lakes`);
  assert.ok(r.info.landToSeaM2 > 0.8 * r.info.landAreaM2);
});

test('world.riverCurves(): each node\'s curve starts at the node, falls along its length, and the mouths reach the sea', () => {
  const r = world.rivers(), c = world.riverCurves(), n = r.info.nodeCount;
  assert.is(c.widthM.length, r.info.segmentCount);
  assert.is(c.offset.length, r.info.segmentCount + 1);
  assert.is(c.points.length, 3 * c.offset[c.offset.length - 1]);
  let seaEnds = 0, mouths = 0;
  for (let k = 0; k < c.widthM.length; k++) {
    const a = c.offset[k], b = c.offset[k + 1];
    assert.ok(b - a >= 2, `segment ${k}: ${b - a} points`);
    for (let p = a + 1; p < b; p++) assert.ok(c.surfaceM[p] <= c.surfaceM[p - 1], `segment ${k} rises`);
    if (k >= n) continue;
    for (let q = 0; q < 3; q++) assert.ok(Math.abs(c.points[3 * a + q] - r.direction[3 * k + q]) < 1e-12, `node ${k}: curve start`);
    assert.is(c.widthM[k], r.widthM[k]);
    if (!(r.flags[k] & 2)) continue;
    mouths++;
    const end = world.sampleAt(c.points.subarray(3 * (b - 1), 3 * b));
    if (end.hasWater && end.waterBody >= 0 && Math.abs(end.waterM) < 0.5) seaEnds++;
  }
  assert.ok(mouths > 50, `${mouths} sea mouths`);
  assert.is(seaEnds, mouths, 'every sea mouth\'s curve ends in the sea');
});

test('a loaded snapshot derives the same graph', () => {
  const again = core.loadWorld(world.snapshot());
  try {
    const a = world.rivers(), b = again.rivers();
    assert.equal(b.info, a.info);
    assert.equal(Array.from(b.direction), Array.from(a.direction));
    assert.equal(Array.from(b.downstream), Array.from(a.downstream));
    assert.equal(Array.from(b.widthM), Array.from(a.widthM));
  } finally {
    again.free();
  }
});

test('river samples are water at the river surface', () => {
  const r = world.rivers();
  let rivers = 0;
  for (let i = 0; i < r.info.nodeCount; i++) {
    const s = world.sampleAt(r.direction.subarray(3 * i, 3 * i + 3));
    if (s.waterBody !== -2) continue;
    rivers++;
    assert.is(s.hasWater, 1);
    assert.ok(s.waterM <= r.surfaceM[i] + 1e-9, 'a node stands at its own surface');
  }
  assert.ok(rivers > r.info.nodeCount / 2, `${rivers} of ${r.info.nodeCount} nodes sample as river water`);
});

test('river chunks: WebAssembly digests equal the native ones', () => {
  const r = world.rivers(), keys = [], seen = new Set();
  for (let i = 0; i < r.info.nodeCount && keys.length < 6; i += 97) {
    const { key } = world.keyAt(r.direction.subarray(3 * i, 3 * i + 3), 6);
    const id = `${key.face} ${key.lod} ${key.x} ${key.y}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const c = world.chunk(key);
    let river = 0;
    for (let k = 0; k < c.water.length; k++) if (c.water[k]) river++;
    keys.push({ key, digest: c.digest, river });
  }
  const faces = ['+X', '-X', '+Y', '-Y', '+Z', '-Z'];
  const args = ['--preset', 'balanced', '--set', 'seed=7',
    ...keys.flatMap(({ key }) => ['--chunk', faces[key.face], String(key.lod), String(key.x), String(key.y)])];
  const n = native(args);
  assert.is(n.status, 0, n.stderr);
  const digests = [...n.stdout.matchAll(/ digest ([0-9a-f]{16}) /g)].map((m) => m[1]);
  assert.equal(digests, keys.map((k) => k.digest));
  assert.ok(keys.some((k) => k.river > 0), 'the chunks hold water');
});

test('the layer off gives an empty graph', () => {
  const w = core.buildWorld({ preset: 'reference', set: { macro_resolution: 16 } });
  try {
    const r = w.rivers();
    assert.is(r.info.nodeCount, 0);
    assert.is(r.downstream.length, 0);
  } finally {
    w.free();
  }
});

test('the worker answers a rivers message with transferred arrays', async () => {
  const h = createHandler(core);
  const posts = [];
  const post = (reply, transfer) => posts.push({ reply, transfer });
  await h.handle({ id: 1, type: MSG.BUILD, preset: 'balanced', set: { macro_resolution: 32, seed: 3 } }, post);
  await h.handle({ id: 2, type: MSG.RIVERS }, post);
  const last = posts[posts.length - 1];
  assert.is(last.reply.id, 2);
  assert.is(last.reply.ok, true);
  const r = last.reply.result;
  assert.type(r.generation, 'string');
  assert.ok(r.info.nodeCount > 0);
  assert.is(r.downstream.length, r.info.nodeCount);
  assert.ok(last.transfer.includes(r.direction.buffer) && last.transfer.includes(r.widthM.buffer));
  assert.ok(r.curves.offset.length === r.info.segmentCount + 1 && last.transfer.includes(r.curves.points.buffer),
    'the curves come along, transferred');
});

// ---- streams: the network inside a chunk (world.streams, pool.streams) ----
// The knobs are set here so the checks hold whatever the defaults become;
// tests/c/test_streams_net.c builds the same world for the native digest.
const STREAM_KNOBS = { seed: 42, surface_lod: 12, stream_depth_m: 16, stream_level: 4, stream_fine_level: 7,
  stream_from_lod: 10, stream_wall: 0.03, stream_floor_m: 20 };
let streamWorld;
let landKey;

/** test_streams_net.c's digest: counts, center, then each array. */
function streamsDigest(s) {
  return fnv1a64([new Uint32Array([s.count, s.pointCount]), s.center, s.pointStart, s.positions, s.waterM, s.width,
    s.order, s.level]);
}

/** A LOD 12 key on dry land 100 m up, found from a fixed run of directions. */
function findLandKey(w) {
  for (let i = 1; i < 400; i++) {
    const d = [Math.sin(i * 1.7), Math.cos(i * 2.3), Math.sin(i * 0.9 + 1)];
    const s = w.sample([d]);
    if (s.hasWater[0] || s.heightM[0] < 100) continue;
    const { key } = w.keyAt(d, 12);
    if (w.streams(key).count >= 5) return key;
  }
  throw new Error('no land key with streams');
}

test('world.streams(key): polylines whose water never rises, tributaries ending at their parent\'s level', () => {
  streamWorld = core.buildWorld({ preset: 'balanced', set: STREAM_KNOBS });
  landKey = findLandKey(streamWorld);
  const s = streamWorld.streams(landKey), n = s.count;
  assert.instance(s.center, Float64Array);
  assert.instance(s.positions, Float32Array);
  assert.instance(s.pointStart, Uint32Array);
  assert.is(s.pointStart.length, n + 1);
  assert.is(s.pointStart[n], s.pointCount);
  assert.is(s.positions.length, 3 * s.pointCount);
  assert.is(s.waterM.length, s.pointCount);
  for (const k of ['width', 'order', 'level']) assert.is(s[k].length, n, k);
  const starts = new Map();
  for (let k = 0; k < n; k++) {
    const a = s.pointStart[k];
    starts.set(`${s.positions[3 * a]} ${s.positions[3 * a + 1]} ${s.positions[3 * a + 2]}`, s.waterM[a]);
  }
  let joins = 0;
  for (let k = 0; k < n; k++) {
    const a = s.pointStart[k], b = s.pointStart[k + 1];
    assert.ok(b - a >= 2, `link ${k}: ${b - a} points`);
    for (let p = a + 1; p < b; p++) assert.ok(s.waterM[p] <= s.waterM[p - 1], `link ${k} rises`);
    assert.ok([1, 2, 3, 4].includes(s.order[k]) && [4, 7].includes(s.level[k]), `order ${s.order[k]} level ${s.level[k]}`);
    assert.ok(s.width[k] > 0 && s.width[k] < 50, `width ${s.width[k]} m`);
    // a tributary's last point is on its parent's first, at the same level (up to the water's rise in metres)
    const end = b - 1, id = `${s.positions[3 * end]} ${s.positions[3 * end + 1]} ${s.positions[3 * end + 2]}`;
    if (starts.has(id)) { joins++; assert.is(starts.get(id), s.waterM[end]); }
  }
  assert.ok(joins > 5, `${joins} joins`);
  // the water lies on the ground it runs in: the exact ground at a link's last point
  const g = streamWorld.groundAt([...[0, 1, 2].map((c) => s.center[c] + s.positions[3 * (s.pointStart[1] - 1) + c])]);
  assert.ok(g.heightM <= s.waterM[s.pointStart[1] - 1] + 1, `ground ${g.heightM} against water ${s.waterM[s.pointStart[1] - 1]}`);
});

test('world.streams: coarser keys show fewer levels, none at LOD 6; WebAssembly equals native', () => {
  const shown = (s) => new Set(s.level);
  let prev = shown(streamWorld.streams(landKey));
  assert.equal([...prev].sort(), [4, 7]);
  for (let lod = 11; lod >= 6; lod--) {
    const d = 12 - lod, k = { face: landKey.face, lod, x: landKey.x >> d, y: landKey.y >> d };
    const now = shown(streamWorld.streams(k));
    for (const l of now) assert.ok(prev.has(l), `LOD ${lod} shows level ${l}`);
    prev = now;
  }
  assert.is(prev.size, 0, 'nothing at LOD 6');
  const r = spawnSync('make', ['--no-print-directory', 'build/native/tests/test_streams_net'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  for (const key of [landKey, { face: landKey.face, lod: 10, x: landKey.x >> 2, y: landKey.y >> 2 }]) {
    const faces = ['+X', '-X', '+Y', '-Y', '+Z', '-Z'];
    const n = spawnSync(`${ROOT}/build/native/tests/test_streams_net`,
      ['--digest', faces[key.face], String(key.lod), String(key.x), String(key.y)], { encoding: 'utf8' });
    assert.is(n.status, 0, n.stderr);
    const s = streamWorld.streams(key);
    assert.is(n.stdout.trim(), `${s.count} ${s.pointCount} ${streamsDigest(s)}`, `LOD ${key.lod}`);
  }
});

test('world.streams: empty with streams off; bad keys are named', () => {
  const off = core.buildWorld({ preset: 'balanced', set: { ...STREAM_KNOBS, stream_depth_m: 0 } });
  try {
    const s = off.streams(landKey);
    assert.is(s.count, 0);
    assert.is(s.positions.length, 0);
    assert.equal([...s.pointStart], [0]);
  } finally {
    off.free();
  }
  assert.is(thrownCode(() => streamWorld.streams({ face: 0, lod: 13, x: 0, y: 0 })), 'CT_ERR_LOD');
  assert.is(thrownCode(() => streamWorld.streams({ face: 7, lod: 3, x: 0, y: 0 })), 'CT_ERR_FACE');
  assert.is(thrownCode(() => streamWorld.streams({ face: 0, lod: 3, x: 9, y: 0 })), 'CT_ERR_CHUNK_XY');
});

function thrownCode(fn) {
  try { fn(); } catch (e) { return e.code; }
  return null;
}

test('pool.streams: the same network from a worker, arrays transferred; a bad key is named', async () => {
  const pool = await createPool({ workers: 1 });
  try {
    await pool.build({ preset: 'balanced', set: STREAM_KNOBS });
    const got = await pool.streams(landKey), want = streamWorld.streams(landKey);
    assert.is(got.generation, streamWorld.generation);
    assert.is(streamsDigest(got), streamsDigest(want));
    assert.ok(got.positions.buffer instanceof ArrayBuffer && got.waterM.buffer !== got.positions.buffer);
    assert.is((await pool.streams({ face: 0, lod: 13, x: 0, y: 0 }).catch((e) => e)).code, 'CT_ERR_LOD');
    assert.ok((await pool.streams({ face: 0, lod: 4, x: 3, y: 3 })).count >= 0, 'the worker still answers');
  } finally {
    await pool.terminate();
  }
});

test('the worker answers a streams message with transferred arrays, and an error for a bad key', async () => {
  const h = createHandler(core);
  const posts = [];
  const post = (reply, transfer) => posts.push({ reply, transfer });
  await h.handle({ id: 1, type: MSG.LOAD, bytes: streamWorld.snapshot() }, post);
  await h.handle({ id: 2, type: MSG.STREAMS, key: landKey }, post);
  const last = posts[posts.length - 1];
  assert.is(last.reply.ok, true, JSON.stringify(last.reply.error));
  const r = last.reply.result, s = streamWorld.streams(landKey);
  assert.is(r.generation, streamWorld.generation);
  assert.equal(r.key, landKey);
  assert.is(streamsDigest(r), streamsDigest(s));
  assert.ok(last.transfer.includes(r.positions.buffer) && last.transfer.includes(r.waterM.buffer));
  await h.handle({ id: 3, type: MSG.STREAMS, key: { face: 0, lod: 13, x: 0, y: 0 } }, post);
  assert.is(posts[posts.length - 1].reply.error.code, 'CT_ERR_LOD');
  h.dispose();
  streamWorld.free();
});

test.run();
