// memory.test.mjs - No leak in the WebAssembly core: after a few warm-up
// requests, WebAssembly memory and the C heap's high-water mark stay flat
// across 320 chunk requests (mixed with .ctc/.u16le encodes, meshes,
// samples, snapshots, errors and cancelled builds).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshCore, thrown } from './ct_fixture.mjs';

// The probe counts malloc's bytes exactly, so one leaked block shows after
// the one request that leaks it. The request kinds repeat every 100 requests
// (i % 100) and the keys every 6 LODs, so any 300 requests in a row run
// every kind on every LOD (the least common multiple): 320 run each pair
// once after the 20 of the warm-up, and each kind three times. (600 and
// 2,000 took two and six times as long and saw nothing more.)
const REQUESTS = 320;
// A cheap world: memory behaviour does not depend on how detailed chunks are.
const CHEAP = { preset: 'walk', set: { macro_resolution: 16, surface_lod: 5, detail_octaves: 0 } };

/** Bytes malloc has handed out (mallinfo): sees leaks far below a memory page. */
const heapTop = (core) => core.heapInUse();

test(`memory flat across ${REQUESTS} chunk requests`, () => {
  const core = freshCoreSync();
  const world = core.buildWorld(CHEAP);
  const keyOf = (i) => ({ face: i % 6, lod: i % 6, x: (i * 7) % (1 << (i % 6)), y: (i * 13) % (1 << (i % 6)) });
  // Every request generates one chunk, handed back in one of its forms.
  const request = (i) => {
    const key = keyOf(i);
    if (i % 10 === 1) world.chunkCtc(key);
    else if (i % 10 === 2) world.chunkU16le(key);
    else if (i % 10 === 3) world.mesh(key, { stride: 1 << (i % 9), skirtDepthM: 50 * (i % 3) });
    else if (i % 10 === 4) world.mesh(key, { stride: 16, water: true });
    else if (world.chunk(key).height.length !== 257 * 257) throw new Error('bad chunk');
    if (i % 50 === 5) world.sample(new Float64Array(3 * 3000).fill(0.5));
    if (i % 100 === 6) world.snapshot();
    if (i % 100 === 7) thrown(() => world.chunk({ face: 0, lod: 9, x: 0, y: 0 }));
    if (i % 100 === 8) thrown(() => core.buildWorld(CHEAP, { onProgress: () => true }));
    if (i % 100 === 9) thrown(() => core.config({ set: { seed: -4 } }));
  };
  for (let i = 0; i < 20; i++) request(i);   // warm-up: per-world buffers, biggest mesh
  request(3);                                 // stride 8 mesh with skirts
  world.mesh(keyOf(0), { stride: 1, skirtDepthM: 10 });
  const bytes0 = core.memoryBytes(), top0 = heapTop(core);
  const t0 = performance.now();
  for (let i = 20; i < REQUESTS; i++) request(i);
  const ms = performance.now() - t0;
  const bytes1 = core.memoryBytes(), top1 = heapTop(core);
  console.log(`  ${REQUESTS - 20} requests in ${(ms / 1000).toFixed(1)} s; memory ${bytes0} -> ${bytes1} bytes, malloc in use ${top0} -> ${top1}`);
  assert.is(bytes1, bytes0, 'WebAssembly memory grew');
  assert.is(top1, top0, 'bytes allocated in C changed');
  world.free();
});

test('a leak would be seen: the probe notices even one forgotten block', () => {
  const core = freshCoreSync();
  const top0 = heapTop(core);
  const p = core.heap.malloc(24);
  assert.ok(heapTop(core) >= top0 + 24, 'the probe detects a 24-byte leak');
  core.heap.free(p);
  assert.is(heapTop(core), top0);
});

test('freeing worlds returns their memory for the next ones', () => {
  const core = freshCoreSync();
  const cycle = () => {
    const w = core.buildWorld(CHEAP);
    w.chunk({ face: 1, lod: 2, x: 1, y: 1 });
    w.mesh({ face: 1, lod: 2, x: 1, y: 1 }, { stride: 2 });
    core.loadWorld(w.snapshot()).free();
    w.free();
  };
  cycle();
  const bytes0 = core.memoryBytes(), top0 = heapTop(core);
  for (let i = 0; i < 15; i++) cycle();
  assert.is(core.memoryBytes(), bytes0);
  assert.is(heapTop(core), top0);
});

// One instance per test, loaded before the tests start.
const cores = await Promise.all([freshCore(), freshCore(), freshCore()]);
function freshCoreSync() {
  return cores.shift();
}

test.run();
