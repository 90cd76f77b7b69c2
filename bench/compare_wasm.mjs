// compare_wasm.mjs - This module times chunk generation of two ct.wasm builds
// (say the code before the issue-11 layers and today's) in ONE Node process,
// interleaved rep by rep, on land, sea and mixed (shore) keys of the default
// world, and prints per-class B/A ratios (min and median of per-rep ratios).
//
//   node bench/compare_wasm.mjs A.wasm B.wasm [--loader-a X/ct.mjs] [--loader-b Y/ct.mjs]
//        [--keys 4] [--reps 5] [--preset balanced] [--scan 80] [--json out.json] [--mesh]
//
// --mesh also times world.mesh (strides 1, 2, 4, on the chunk each World
// holds, so mesh build plus the copy out of WebAssembly memory) on the land
// keys, interleaved the same way, and checks that both give the same digest.
//
// Each build is loaded through a loader (wasm/ct.mjs of this tree unless
// --loader-* names another tree's, for a build whose exports differ). Keys
// come from benchKey() and are sorted by the fraction of dry samples in B's
// world: land >= 95% dry, sea <= 5%, mixed otherwise. Only the generation
// call is timed (the World's chunk cache is bypassed; nothing is copied out).
// Per rep and key, A and B run back to back, the order alternating, so load
// from other programs lands on both alike; the ratio of each adjacent pair is
// B/A, and a class's figure is the min and median of those ratios.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { benchKey, summarize, nowMs } from './common.mjs';

function parseArgs(argv) {
  const o = { files: [], keys: 4, reps: 5, preset: 'balanced', scan: 80, loaderA: null, loaderB: null, json: null,
    mesh: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--keys') o.keys = Number(argv[++i]);
    else if (a === '--reps') o.reps = Number(argv[++i]);
    else if (a === '--preset') o.preset = argv[++i];
    else if (a === '--scan') o.scan = Number(argv[++i]);
    else if (a === '--loader-a') o.loaderA = argv[++i];
    else if (a === '--loader-b') o.loaderB = argv[++i];
    else if (a === '--json') o.json = argv[++i];
    else if (a === '--mesh') o.mesh = true;
    else o.files.push(a);
  }
  if (o.files.length !== 2) {
    console.error('usage: node bench/compare_wasm.mjs A.wasm B.wasm [--loader-a X/ct.mjs] [--loader-b Y/ct.mjs] ' +
      '[--keys N] [--reps N] [--preset P] [--scan N] [--json out.json]');
    process.exit(2);
  }
  return o;
}

async function load(wasmPath, loaderPath) {
  const url = pathToFileURL(resolve(loaderPath ?? new URL('../wasm/ct.mjs', import.meta.url).pathname)).href;
  const { loadCore } = await import(url);
  return loadCore(readFileSync(wasmPath));
}

/** Generation only: forget the cached key so the World regenerates. */
function generate(world, key) {
  world._chunkKey = null;
  const t = nowMs();
  world._generate(key);
  return nowMs() - t;
}

const dryFraction = (c) => { let d = 0; for (const w of c.water) d += w === 0; return d / c.water.length; };
const classify = (f) => (f >= 0.95 ? 'land' : f <= 0.05 ? 'sea' : 'mixed');

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const [coreA, coreB] = [await load(o.files[0], o.loaderA), await load(o.files[1], o.loaderB)];
  const worldA = coreA.buildWorld({ preset: o.preset }), worldB = coreB.buildWorld({ preset: o.preset });
  const lod = worldB.config.surface_lod;
  const want = { land: [], sea: [], mixed: [] };
  let scanned = 0;
  for (let i = 0; i < o.scan && Object.values(want).some((l) => l.length < o.keys); i++, scanned++) {
    const key = benchKey(i, lod), cls = classify(dryFraction(worldB.chunk(key)));
    if (want[cls].length < o.keys) want[cls].push(key);
  }
  // Warm both (JIT of the loaders, first-touch of chunk buffers).
  for (const k of Object.values(want).flat().slice(0, 3)) { generate(worldA, k); generate(worldB, k); }
  const order = Object.entries(want).flatMap(([cls, keys]) => keys.map((key) => ({ cls, key })));
  const per = { land: { a: [], b: [], r: [] }, sea: { a: [], b: [], r: [] }, mixed: { a: [], b: [], r: [] } };
  for (let r = 0; r < o.reps; r++) {
    order.forEach(({ cls, key }, k) => {
      let a, b;
      if ((r + k) % 2 === 0) { a = generate(worldA, key); b = generate(worldB, key); }
      else { b = generate(worldB, key); a = generate(worldA, key); }
      per[cls].a.push(a); per[cls].b.push(b); per[cls].r.push(b / a);
    });
  }
  const out = { a: o.files[0], b: o.files[1], preset: o.preset, lod, scanned, reps: o.reps, classes: {} };
  const f = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
  console.log(`A = ${o.files[0]}\nB = ${o.files[1]}\n${o.preset}, LOD ${lod}, keys among the first ${scanned} bench keys, ` +
    `${o.reps} reps, interleaved (order alternating)\n`);
  console.log('| class | keys x reps | A ms median [min] | B ms median [min] | B/A min | B/A median |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const cls of ['land', 'sea', 'mixed']) {
    const p = per[cls], n = want[cls].length;
    if (!n) { console.log(`| ${cls} | 0 | - | - | - | - |`); continue; }
    const sa = summarize(p.a), sb = summarize(p.b), sr = summarize(p.r);
    out.classes[cls] = { keys: want[cls], a_ms: sa, b_ms: sb, b_over_a: sr, b_over_a_of_minima: sb.min / sa.min };
    console.log(`| ${cls} | ${n} x ${o.reps} | ${f(sa.median)} [${f(sa.min)}] | ${f(sb.median)} [${f(sb.min)}] | ` +
      `${sr.min.toFixed(2)} | ${sr.median.toFixed(2)} |`);
  }
  if (o.mesh) {
    console.log('\n| mesh stride | reps | A ms median [min] | B ms median [min] | B/A min | B/A median | digests equal |');
    console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    out.mesh = [];
    const keys = want.land.length ? want.land : Object.values(want).flat();
    for (const stride of [1, 2, 4]) {
      const a = [], b = [], r = [];
      let same = 0;
      for (let i = 0; i < 3 * o.reps; i++) {
        const key = keys[i % keys.length];
        worldA.chunk(key); worldB.chunk(key);
        const run = (w) => { const t = nowMs(); const m = w.mesh(key, { stride, digest: true }); return [nowMs() - t, m.digest]; };
        let x, y;
        if (i % 2 === 0) { x = run(worldA); y = run(worldB); } else { y = run(worldB); x = run(worldA); }
        a.push(x[0]); b.push(y[0]); r.push(y[0] / x[0]); same += x[1] === y[1];
      }
      const sa = summarize(a), sb = summarize(b), sr = summarize(r);
      out.mesh.push({ stride, a_ms: sa, b_ms: sb, b_over_a: sr, digests_equal: `${same}/${a.length}` });
      console.log(`| ${stride} | ${a.length} | ${f(sa.median)} [${f(sa.min)}] | ${f(sb.median)} [${f(sb.min)}] | ` +
        `${sr.min.toFixed(2)} | ${sr.median.toFixed(2)} | ${same}/${a.length} |`);
    }
  }
  if (o.json) writeFileSync(o.json, JSON.stringify(out, null, 1));
  worldA.free(); worldB.free();
}

main().catch((e) => { console.error(e); process.exit(1); });
