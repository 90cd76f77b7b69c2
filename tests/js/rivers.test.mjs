// Tests of the river graph through the JS API (world.rivers()) and the worker
// handler's rivers message: typed arrays with one entry per node, downstream
// links inside the graph, surfaces that never rise downstream, the same graph
// after a snapshot round trip, and an empty graph with the layer off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadCore } from '../../wasm/ct.mjs';
import { createHandler } from '../../worker/handler.js';
import { MSG } from '../../worker/protocol.js';
import { native } from './cli_runs.mjs';

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

test.run();
