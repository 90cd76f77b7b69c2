// compare_wasm.mjs - This module times chunk generation of two or more ct.wasm
// builds (say the code before a generation layer, today's, and a change) in
// ONE Node process, interleaved rep by rep, on land, sea and mixed (shore)
// keys of the default world, and prints per-class ratios to the first build
// A (min and median of per-rep ratios).
//
//   node bench/compare_wasm.mjs A.wasm B.wasm [C.wasm ...] [--loader-a X/ct.mjs] [--loader-b Y/ct.mjs]
//        [--keys 4] [--reps 5] [--preset balanced] [--scan 80] [--json out.json] [--mesh]
//        [--surface-lod N] [--rivers]
//
// --surface-lod builds every world at that surface_lod (default: the preset's);
// --rivers adds a river class: the chunks under the river nodes of largest
// drainage area (not mouths) that hold water, as bench/chunk_classes.mjs.
//
// --own-classes sorts keys into classes in EVERY build's own world (a key that
// was open sea before a terrain change may be a shore chunk after it) and
// compares class against class: per rep, each build's mean time over the keys
// of that class in its own world, and the ratio of those means to A's.
//
// --mesh also times world.mesh (strides 1, 2, 4, on the chunk each World
// holds, so mesh build plus the copy out of WebAssembly memory) on the land
// keys, interleaved the same way, and counts the reps where every build gave
// the same mesh digest (taken in a second, untimed call; builds of different
// terrain never agree).
//
// A is loaded through --loader-a, every other build through --loader-b
// (default for both: wasm/ct.mjs of this tree; name another tree's for a
// build whose exports differ). Keys come from benchKey() and are sorted by
// the fraction of dry samples in B's world: land >= 95% dry, sea <= 5%, mixed
// otherwise. Only the generation call is timed (the World's chunk cache is
// bypassed; nothing is copied out). Per rep and key, the builds run back to
// back, the starting build rotating, so load from other programs lands on
// all alike; each ratio X/A is of the same rep's timings, and a class's
// figure is the min and median of those ratios.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { benchKey, summarize, nowMs } from './common.mjs';
import { riverKeys } from './chunk_classes.mjs';

function parseArgs(argv) {
  const o = { files: [], keys: 4, reps: 5, preset: 'balanced', scan: 80, loaderA: null, loaderB: null, json: null,
    mesh: false, ownClasses: false, surfaceLod: null, rivers: false };
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
    else if (a === '--own-classes') o.ownClasses = true;
    else if (a === '--surface-lod') o.surfaceLod = Number(argv[++i]);
    else if (a === '--rivers') o.rivers = true;
    else o.files.push(a);
  }
  if (o.files.length < 2) {
    console.error('usage: node bench/compare_wasm.mjs A.wasm B.wasm [C.wasm ...] [--loader-a X/ct.mjs] [--loader-b Y/ct.mjs] ' +
      '[--keys N] [--reps N] [--preset P] [--scan N] [--json out.json] [--mesh] [--own-classes]');
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

/** --own-classes: keys classified in each build's own world, class means compared per rep. */
function ownClasses(o, worlds, names, lod) {
  const N = worlds.length, keys = [], cls = worlds.map(() => []), count = worlds.map(() => ({ land: 0, sea: 0, mixed: 0 }));
  for (let i = 0; i < o.scan && count.some((c) => Object.values(c).some((n) => n < o.keys)); i++) {
    const key = benchKey(i, lod), c = worlds.map((w) => classify(dryFraction(w.chunk(key))));
    if (!c.some((x, b) => count[b][x] < o.keys)) continue;
    keys.push(key);
    c.forEach((x, b) => { cls[b].push(x); count[b][x]++; });
  }
  for (const k of keys.slice(0, 3)) for (const w of worlds) generate(w, k);
  const t = worlds.map(() => keys.map(() => []));
  for (let r = 0; r < o.reps; r++) {
    keys.forEach((key, k) => { for (let j = 0; j < N; j++) { const b = (j + r + k) % N; t[b][k].push(generate(worlds[b], key)); } });
  }
  const f = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
  console.log(`${o.preset}, LOD ${lod}, ${keys.length} keys, ${o.reps} reps, classes in each build's own world\n`);
  console.log(`| class | ${names.map((n) => `${n} keys, mean ms median [min]`).join(' | ')} | ` +
    `${names.slice(1).map((n) => `${n}/A min | ${n}/A median`).join(' | ')} |`);
  console.log(`| --- | ${names.map(() => '---:').join(' | ')} | ${names.slice(1).map(() => '---: | ---:').join(' | ')} |`);
  const out = {};
  for (const c of ['land', 'sea', 'mixed']) {
    const mean = worlds.map((_, b) => {
      const ks = keys.map((_, k) => k).filter((k) => cls[b][k] === c);
      return { n: ks.length, perRep: Array.from({ length: o.reps }, (_, r) => ks.reduce((s, k) => s + t[b][k][r], 0) / (ks.length || 1)) };
    });
    if (mean.some((m) => !m.n)) { console.log(`| ${c} | (a build has no ${c} key) |`); continue; }
    const st = mean.map((m) => summarize(m.perRep));
    const sr = mean.map((m) => summarize(m.perRep.map((v, r) => v / mean[0].perRep[r])));
    out[c] = { keys: mean.map((m) => m.n), ms: st, over_a: sr };
    console.log(`| ${c} | ${mean.map((m, b) => `${m.n}: ${f(st[b].median)} [${f(st[b].min)}]`).join(' | ')} | ` +
      `${sr.slice(1).map((x) => `${x.min.toFixed(2)} | ${x.median.toFixed(2)}`).join(' | ')} |`);
  }
  if (o.json) writeFileSync(o.json, JSON.stringify({ files: o.files, preset: o.preset, lod, reps: o.reps, keys, classes: cls, own: out }, null, 1));
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const names = o.files.map((f, i) => String.fromCharCode(65 + i));
  const cores = [];
  for (const [i, f] of o.files.entries()) cores.push(await load(f, i === 0 ? o.loaderA : o.loaderB));
  const set = o.surfaceLod === null ? {} : { surface_lod: o.surfaceLod };
  const worlds = cores.map((c) => c.buildWorld({ preset: o.preset, set }));
  const N = worlds.length, lod = worlds[1].config.surface_lod;
  if (o.ownClasses) {
    ownClasses(o, worlds, names, lod);
    for (const w of worlds) w.free();
    return;
  }
  const want = { land: [], sea: [], mixed: [] };
  let scanned = 0;
  for (let i = 0; i < o.scan && Object.values(want).some((l) => l.length < o.keys); i++, scanned++) {
    const key = benchKey(i, lod), cls = classify(dryFraction(worlds[1].chunk(key)));
    if (want[cls].length < o.keys) want[cls].push(key);
  }
  if (o.rivers) want.river = riverKeys(worlds[1], o.keys);
  // Warm every build (JIT of the loaders, first touch of chunk buffers).
  for (const k of Object.values(want).flat().slice(0, 3)) for (const w of worlds) generate(w, k);
  const order = Object.entries(want).flatMap(([cls, keys]) => keys.map((key) => ({ cls, key })));
  const per = {};
  for (const cls of Object.keys(want)) per[cls] = { t: worlds.map(() => []), r: worlds.map(() => []) };
  for (let r = 0; r < o.reps; r++) {
    order.forEach(({ cls, key }, k) => {
      const t = new Array(N);
      for (let j = 0; j < N; j++) { const b = (j + r + k) % N; t[b] = generate(worlds[b], key); }
      for (let b = 0; b < N; b++) { per[cls].t[b].push(t[b]); per[cls].r[b].push(t[b] / t[0]); }
    });
  }
  const out = { files: o.files, preset: o.preset, lod, scanned, reps: o.reps, classes: {} };
  const f = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
  console.log(o.files.map((file, i) => `${names[i]} = ${file}`).join('\n'));
  console.log(`${o.preset}, LOD ${lod}, keys among the first ${scanned} bench keys, ${o.reps} reps, ` +
    'interleaved (starting build rotating)\n');
  const others = names.slice(1);
  console.log(`| class | keys x reps | ${names.map((n) => `${n} ms median [min]`).join(' | ')} | ` +
    `${others.map((n) => `${n}/A min | ${n}/A median`).join(' | ')} |`);
  console.log(`| --- | ---: | ${names.map(() => '---:').join(' | ')} | ${others.map(() => '---: | ---:').join(' | ')} |`);
  for (const cls of Object.keys(want)) {
    const p = per[cls], n = want[cls].length;
    if (!n) { console.log(`| ${cls} | 0 |`); continue; }
    const st = p.t.map(summarize), sr = p.r.map(summarize);
    out.classes[cls] = { keys: want[cls], ms: st, over_a: sr, raw_ms: p.t, raw_over_a: p.r };   // raw: rep-major, key-minor
    console.log(`| ${cls} | ${n} x ${o.reps} | ${st.map((s) => `${f(s.median)} [${f(s.min)}]`).join(' | ')} | ` +
      `${sr.slice(1).map((s) => `${s.min.toFixed(2)} | ${s.median.toFixed(2)}`).join(' | ')} |`);
  }
  if (o.mesh) {
    console.log(`\n| mesh stride | reps | ${names.map((n) => `${n} ms median [min]`).join(' | ')} | ` +
      `${others.map((n) => `${n}/A min | ${n}/A median`).join(' | ')} | digests equal |`);
    console.log(`| ---: | ---: | ${names.map(() => '---:').join(' | ')} | ${others.map(() => '---: | ---:').join(' | ')} | ---: |`);
    out.mesh = [];
    const keys = want.land.length ? want.land : Object.values(want).flat();
    for (const stride of [1, 2, 4]) {
      const t = worlds.map(() => []), r = worlds.map(() => []);
      let same = 0, reps = 0;
      for (let i = 0; i < 3 * o.reps; i++, reps++) {
        const key = keys[i % keys.length], d = new Array(N), x = new Array(N);
        for (const w of worlds) w.chunk(key);
        for (let j = 0; j < N; j++) {
          const b = (j + i) % N, t0 = nowMs();
          worlds[b].mesh(key, { stride });
          x[b] = nowMs() - t0;
          d[b] = worlds[b].mesh(key, { stride, digest: true }).digest;   // untimed: the digest hashes 3 MB
        }
        for (let b = 0; b < N; b++) { t[b].push(x[b]); r[b].push(x[b] / x[0]); }
        same += d.every((v) => v === d[0]);
      }
      const st = t.map(summarize), sr = r.map(summarize);
      out.mesh.push({ stride, ms: st, over_a: sr, digests_equal: `${same}/${reps}` });
      console.log(`| ${stride} | ${reps} | ${st.map((s) => `${f(s.median)} [${f(s.min)}]`).join(' | ')} | ` +
        `${sr.slice(1).map((s) => `${s.min.toFixed(2)} | ${s.median.toFixed(2)}`).join(' | ')} | ${same}/${reps} |`);
    }
  }
  if (o.json) writeFileSync(o.json, JSON.stringify(out, null, 1));
  for (const w of worlds) w.free();
}

main().catch((e) => { console.error(e); process.exit(1); });
