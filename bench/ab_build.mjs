// ab_build.mjs - This module times world builds of two versions of the core
// against each other, rep by rep in one process: natively through two
// bench_native servers (CPU ms of each build, from the server) and in
// WebAssembly through two ct.wasm instances in this Node process (process CPU
// ms per build). Order alternates per rep; every WASM pair must give the same
// generation. Prints a markdown table: median [min] ms and the median of
// per-rep after/before ratios.
//
//   node bench/ab_build.mjs BEFORE_bench_native AFTER_bench_native BEFORE.wasm AFTER.wasm ['[[64,8],[128,4],[256,3],[512,2]]']
//
// Keep the two versions' binaries outside the tree (e.g. build the "before"
// commit from `git archive` into /tmp) so neither changes mid-run.
import { readFileSync } from 'node:fs';
import { loadCore } from '../wasm/ct.mjs';
import { startNative } from './native_client.mjs';

const [nativeBefore, nativeAfter, wasmBefore, wasmAfter, planArg] = process.argv.slice(2);
if (!wasmAfter) {
  console.error('usage: node bench/ab_build.mjs BEFORE_bench_native AFTER_bench_native BEFORE.wasm AFTER.wasm [plan]');
  process.exit(2);
}
const plan = JSON.parse(planArg || '[[64,8],[128,4],[256,3],[512,2]]');
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const load = async (path) => loadCore(await WebAssembly.compile(readFileSync(path)));

function wasmBuild(core, n) {
  const c0 = cpuMs();
  const world = core.buildWorld({ preset: 'balanced', set: { macro_resolution: n } });
  const cpu = cpuMs() - c0;
  const { generation } = world;
  world.free();
  return { cpu, generation };
}

const before = startNative(nativeBefore), after = startNative(nativeAfter);
try {
  console.log('| n | reps | native before ms | native after ms | after/before | WASM before ms | WASM after ms | after/before |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [n, reps] of plan) {
    const wb = await load(wasmBefore), wa = await load(wasmAfter);   // fresh memories per n
    if (n <= 128) {   // warm-up, untimed
      await before.send(`build balanced ${n}`); await after.send(`build balanced ${n}`);
      wasmBuild(wb, n); wasmBuild(wa, n);
    }
    const r = { nb: [], na: [], wb: [], wa: [], rn: [], rw: [] };
    for (let i = 0; i < reps; i++) {
      const got = {};
      for (const side of i % 2 ? ['na', 'nb', 'wa', 'wb'] : ['nb', 'na', 'wb', 'wa']) {
        if (side === 'nb') got.nb = (await before.send(`build balanced ${n}`)).cpu_ms;
        if (side === 'na') got.na = (await after.send(`build balanced ${n}`)).cpu_ms;
        if (side === 'wb') got.wb = wasmBuild(wb, n);
        if (side === 'wa') got.wa = wasmBuild(wa, n);
      }
      if (got.wb.generation !== got.wa.generation) throw new Error(`n=${n}: generation ${got.wb.generation} before, ${got.wa.generation} after`);
      r.nb.push(got.nb); r.na.push(got.na); r.wb.push(got.wb.cpu); r.wa.push(got.wa.cpu);
      r.rn.push(got.na / got.nb); r.rw.push(got.wa.cpu / got.wb.cpu);
    }
    const cell = (v) => `${fmt(median(v))} [${fmt(Math.min(...v))}]`;
    console.log(`| ${n} | ${reps} | ${cell(r.nb)} | ${cell(r.na)} | ${median(r.rn).toFixed(2)} | ` +
      `${cell(r.wb)} | ${cell(r.wa)} | ${median(r.rw).toFixed(2)} |`);
  }
} finally {
  await before.close();
  await after.close();
}
