// build_ratio.mjs - This module times the default world build (balanced,
// macro_resolution 64) of one or more ct.wasm builds against the JS fBm
// anchor of `npm run bench` (bench_js.mjs on a land chunk's 257x257
// directions), rep by rep in one process with the order rotating, and prints
// each build's median and min CPU ms and the median of its per-rep ratio to the
// JS fBm (the bench target: <= 1.5).
//
//   node bench/build_ratio.mjs A.wasm [B.wasm ...] [--reps 15] [--n 64] [--versions]
//
// The builds must make the same world (same generation ID), unless
// --versions says they are different algorithm versions on purpose (the
// cost of an output change, such as version 6's default erosion).
import { readFileSync } from 'node:fs';
import { loadCore } from '../wasm/ct.mjs';
import { benchKey, chunkDirections } from './common.mjs';
import { makeFbm } from './bench_js.mjs';

// Process CPU ms, not wall time: on a shared machine preemption inflates wall
// time at random, CPU time far less.
const nowMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const args = process.argv.slice(2);
const opt = (name, d) => { const i = args.indexOf(name); return i < 0 ? d : Number(args.splice(i, 2)[1]); };
const reps = opt('--reps', 15), n = opt('--n', 64);
const vi = args.indexOf('--versions'), versions = vi >= 0;
if (versions) args.splice(vi, 1);
if (!args.length) { console.error('usage: node bench/build_ratio.mjs A.wasm [B.wasm ...] [--reps N] [--n N] [--versions]'); process.exit(2); }
const cores = [];
for (const f of args) cores.push(await loadCore(await WebAssembly.compile(readFileSync(f))));
const fbm = makeFbm(), dirs = chunkDirections(benchKey(0, 6));
const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const build = (core) => { const t = nowMs(); const w = core.buildWorld({ preset: 'balanced', set: { macro_resolution: n } }); const ms = nowMs() - t; const g = w.generation; w.free(); return { ms, g }; };
for (const c of cores) build(c);
fbm(dirs);
const ms = cores.map(() => []), ratio = cores.map(() => []), js = [];
for (let r = 0; r < reps; r++) {
  const order = [...cores.keys(), -1];
  for (let k = 0; k < r % order.length; k++) order.push(order.shift());
  const got = {}; let jsMs = 0, gen = null;
  for (const i of order) {
    if (i < 0) { const t = nowMs(); fbm(dirs); jsMs = nowMs() - t; continue; }
    const b = build(cores[i]); got[i] = b.ms;
    if (gen === null) gen = b.g; else if (gen !== b.g && !versions) throw new Error(`${args[i]}: generation ${b.g} differs from ${gen}`);
  }
  js.push(jsMs);
  cores.forEach((_, i) => { ms[i].push(got[i]); ratio[i].push(got[i] / jsMs); });
}
console.log(`n=${n}, ${reps} reps; JS fBm median ${median(js).toFixed(1)} ms [min ${Math.min(...js).toFixed(1)}]`);
console.log('| build | median ms | min ms | median ratio to JS fBm |');
console.log('| --- | ---: | ---: | ---: |');
args.forEach((f, i) => console.log(`| ${f} | ${median(ms[i]).toFixed(1)} | ${Math.min(...ms[i]).toFixed(1)} | ${median(ratio[i]).toFixed(2)} |`));
