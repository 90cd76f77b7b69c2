// scatter.mjs - The Populate figures of docs/benchmarks.md: scatter of a
// surface_lod 12 land chunk with the chunk already generated (goal: at most
// 3 ms in WebAssembly), and sites for 20 settlements over the whole world,
// native (bench/scatter_cost.c, kept running beside this process) and
// WebAssembly, rep by rep, rotating which goes first; min and median.
//
//   node bench/scatter.mjs [reps]     (compiles bench/scatter_cost.c first)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../wasm/ct.mjs';
import { summarize, nowMs } from './common.mjs';
import { startNative } from './native_client.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const reps = Number(process.argv[2] ?? 15);
const binary = `${root}build/native/scatter_cost`;
execFileSync('make', ['--no-print-directory', 'build/native/libct.a'], { cwd: root, stdio: 'inherit' });
execFileSync('cc', ['-std=c99', '-O2', '-ffp-contract=off', '-Icore/include', '-Itests/c', 'bench/scatter_cost.c',
  'build/native/libct.a', '-lm', '-pthread', '-o', binary], { cwd: root, stdio: 'inherit' });

// A forest chunk of the bench world (the golden file's first key).
const KEY = { face: 2, lod: 12, x: 3224, y: 1378 };
const COARSE = { face: 2, lod: 11, x: 1612, y: 689 };   // its parent: point queries
const SITES = { kind: 'settlement', count: 20, minSpacingM: 200000 };
const core = await loadCore();
const world = core.buildWorld({ preset: 'balanced', set: { seed: 42, surface_lod: 12 } });
const native = startNative(binary);
world.chunk(KEY);

const t = { scatterWasm: [], scatterNative: [], coarseWasm: [], coarseNative: [], sitesWasm: [], sitesNative: [] };
let count = 0, coarseCount = 0, siteCount = 0;
const parts = [
  async () => { const a = nowMs(); count = world.scatter(KEY).count; t.scatterWasm.push(nowMs() - a); },
  async () => { t.scatterNative.push((await native.send(`scatter ${KEY.face} ${KEY.lod} ${KEY.x} ${KEY.y}`)).ms); },
];
const coarseParts = [
  async () => { const a = nowMs(); coarseCount = world.scatter(COARSE).count; t.coarseWasm.push(nowMs() - a); },
  async () => { t.coarseNative.push((await native.send(`scatter ${COARSE.face} ${COARSE.lod} ${COARSE.x} ${COARSE.y}`)).ms); },
];
const siteParts = [
  async () => { const a = nowMs(); siteCount = world.sites(SITES).length; t.sitesWasm.push(nowMs() - a); },
  async () => { t.sitesNative.push((await native.send(`sites ${SITES.kind} ${SITES.count} ${SITES.minSpacingM}`)).ms); },
];
for (let rep = 0; rep < reps; rep++) {
  for (let i = 0; i < parts.length; i++) await parts[(i + rep) % parts.length]();
}
for (let rep = 0; rep < Math.max(3, Math.ceil(reps / 3)); rep++) {
  for (let i = 0; i < siteParts.length; i++) await siteParts[(i + rep) % siteParts.length]();
  for (let i = 0; i < coarseParts.length; i++) await coarseParts[(i + rep) % coarseParts.length]();
}
await native.close();
world.free();

const row = (name, xs) => {
  const s = summarize(xs);
  return `| ${name} | ${s.n} | ${s.min.toFixed(2)} | ${s.median.toFixed(2)} |`;
};
console.log(`Populate (node ${process.version}, ${reps} reps interleaved; ms)\n`);
console.log('| measurement | reps | min | median |');
console.log('|---|---:|---:|---:|');
console.log(row(`scatter, surface_lod 12 forest chunk held (${count} instances), WASM`, t.scatterWasm));
console.log(row('the same, native', t.scatterNative));
console.log(row(`scatter, its LOD 11 parent from point queries (${coarseCount} instances), WASM`, t.coarseWasm));
console.log(row('the same, native', t.coarseNative));
console.log(row(`sites, ${siteCount} settlements, whole world, WASM`, t.sitesWasm));
console.log(row('the same, native', t.sitesNative));
