#!/usr/bin/env node
// This module is `npm run figures`: it writes the one dated table of figures
// that README.md quotes, and the per-world terrain table of docs/generation.md,
// from two committed inputs:
//   docs/figures/terrain_stats.json  the JSON of `npm run terrain-stats` (plus `meta`)
//   docs/figures/bench.json          bench/results.json of `npm run bench` (plus `meta`)
// Each input records its date, git commit and CT_ALGORITHM_VERSION; the table
// says them, and refuses inputs of two algorithm versions.
//
//   npm run figures                 rewrite the marked sections from the inputs
//   npm run figures -- --check      exit 1 when a marked section differs from them
//   npm run figures -- --terrain    measure again (TERRAIN_ARGS below), store, rewrite
//   npm run figures -- --bench [--full] [--no-browser]
//                                   run `npm run bench` (--quick unless --full), store, rewrite
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMarkdown, EARTH } from '../tools/terrain_stats_report.mjs';
import { table as benchTables } from '../bench/report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const INPUTS = { terrain: 'docs/figures/terrain_stats.json', bench: 'docs/figures/bench.json' };
/** The worlds measured: several seeds, never one. */
export const TERRAIN_ARGS = ['--presets', 'balanced,alpine', '--seeds', '42,7,1234', '--json'];
/** Files with marked sections, and what goes between the markers. */
export const TARGETS = [
  { file: 'README.md', name: 'figures', from: 'docs/figures/*.json', render: (t, b) => readmeTable(t, b) },
  { file: 'docs/generation.md', name: 'terrain-stats', from: INPUTS.terrain, render: (t) => terrainSection(t) },
  { file: 'docs/benchmarks.md', name: 'bench-run', from: INPUTS.bench, render: (t, b) => benchSection(b) },
];

const f = (x, d = 2) => (x == null || Number.isNaN(x) ? '-' : x.toFixed(d));
const pct = (x) => (x == null ? '-' : `${(100 * x).toFixed(1)}%`);
/** Milliseconds as bench/report.mjs prints them: 3 significant digits. */
const ms = (x) => (x == null ? '-' : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
const med = (s) => (s && s.median != null ? s.median : null);

/** "a-b" over the values (one value when they print alike). */
function span(xs, d = 2, unit = '') {
  const v = xs.filter((x) => x != null && !Number.isNaN(x));
  if (!v.length) return '-';
  const lo = f(Math.min(...v), d), hi = f(Math.max(...v), d);
  return `${lo === hi ? lo : `${lo}-${hi}`}${unit}`;
}

/** CT_ALGORITHM_VERSION of the tree, from the public header. */
export function algorithmVersion() {
  const m = readFileSync(path.join(root, 'core/include/ct.h'), 'utf8').match(/#define CT_ALGORITHM_VERSION (\d+)u/);
  if (!m) throw new Error('CT_ALGORITHM_VERSION not found in core/include/ct.h');
  return Number(m[1]);
}

function gitHead() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

const presetOf = (m) => m.label.split(' ')[0];
const slopeAt = (m, lod) => (m.slopes || []).find((s) => s.lod === lod)?.slope_deg;

/** The README's table: terrain rows from the sweep, benchmark rows from one run. */
export function readmeTable(t, b) {
  if (t.meta.algorithm_version !== b.meta.algorithm_version) {
    throw new Error(`terrain figures are of algorithm version ${t.meta.algorithm_version}, ` +
      `benchmarks of ${b.meta.algorithm_version}: measure both on one version`);
  }
  const bal = t.worlds.filter((m) => presetOf(m) === 'balanced');
  const alp = t.worlds.filter((m) => presetOf(m) === 'alpine');
  const seeds = (ws) => ws.map((m) => m.label.split('seed=')[1]).join('/');
  const all = (ws, g, d, unit) => span(ws.map(g), d, unit);
  const km = (ws, g) => all(ws, (m) => g(m) / 1000, 2, ' km');
  const h = (m) => m.chunks.height_m;
  const lakes = bal.reduce((a, m) => [a[0] + m.lakes.elevated, a[1] + m.lakes.lakes], [0, 0]);
  const E = EARTH.heightM;
  const rows = [
    ['coast length per land area', `${all(bal, (m) => m.coast.vs_earth.coast_per_land_area)}x Earth's`, 'same grid, Natural Earth land-10m'],
    ['box-counting dimension of the coasts', all(bal, (m) => m.coast.dimension, 3), `Earth ${f(t.earth.dimension, 3)}`],
    ['lakes at least 5 m above the sea', `${lakes[0]} of ${lakes[1]}`, ''],
    ['land height median / p90 / p99', `${km(bal, (m) => h(m).p50)} / ${km(bal, (m) => h(m).p90)} / ${km(bal, (m) => h(m).p99)}`,
      `Earth ${E.p50 / 1000} / ${E.p90 / 1000} / ${E.p99 / 1000} km`],
    ['highest land sampled', km(bal, (m) => h(m).max), `Earth ${E.max / 1000} km`],
    ['land slope median, `surface_lod` 6 / 11 / 14', `${all(bal, (m) => m.chunks.slope_deg.p50)} / ` +
      `${all(bal, (m) => slopeAt(m, 11)?.p50)} / ${all(bal, (m) => slopeAt(m, 14)?.p50)} deg`, 'Earth about 5.5 deg at 30 m'],
    ["Hack's exponent, full drainage tree", all(bal, (m) => m.river_tree?.hack, 3), `Earth ${EARTH.hack}`],
    ['Horton bifurcation, top-order basins', all(bal, (m) => m.river_tree?.bifurcation_top), `Earth ${EARTH.bifurcation}`],
    ['land draining to the sea', span(bal.map((m) => m.rivers?.sea_share * 100), 1, '%'), `the rest to closed lakes; Earth ~${pct(EARTH.seaShare)}`],
    ['alpine: land height median / highest', `${km(alp, (m) => h(m).p50)} / ${km(alp, (m) => h(m).max)}`, `seeds ${seeds(alp)}`],
  ];
  const js = b.derived?.js_fbm_ms;
  const build = b.builds?.find((x) => x.n === 64);
  const lod = (l) => (b.chunk_lods || []).find((c) => c.lod === l)?.classes || {};
  const cls = (l, names) => [names.map((n) => ms(med(lod(l)[n]?.wasm_ms))).join(' / ') + ' ms',
    names.map((n) => f(med(lod(l)[n]?.wasm_over_js))).join(' / ')];
  const c6 = cls(6, ['land', 'sea', 'shore', 'river']);
  const c10 = cls(10, ['land', 'shore']);
  const c14 = cls(14, ['land', 'shore']);
  const mesh = b.mesh?.find((m) => m.stride === 1);
  const d = b.descent?.descents?.[0];
  const brows = [
    ['default world build (24,578 vertices), WASM', `${ms(med(build?.wasm_ms))} ms`,
      `${f(js ? med(build?.wasm_ms) / js : null)}x the JS fBm; WASM/native ${f(med(build?.wasm_over_native))}`],
    ['land / sea / shore / river chunk, `surface_lod` 6, WASM', c6[0], `${c6[1]}x the JS fBm`],
    ['land / shore chunk, `surface_lod` 10, WASM', c10[0], `${c10[1]}x the JS fBm`],
    ['land / shore chunk, `surface_lod` 14, WASM', c14[0], `${c14[1]}x the JS fBm`],
    ['`world.mesh`, stride 1, WASM', `${ms(med(mesh?.wasm_ms))} ms`, 'views into WebAssembly memory'],
    ['chunks/s, pool of 2 workers over pool of 1', f(b.derived?.worker_scaling), `machine ceiling ${f(b.derived?.worker_ceiling)}`],
  ];
  if (d) {
    brows.push([`demo page: orbit to ${d.to[2] / 1000} km, then to eye height`, `${f(d.to_altitude.ms / 1000, 1)} s + ${f(d.to_eye_height.ms / 1000, 1)} s`,
      `${d.total.tiles_requested} tiles, workers busy ${f(d.total.worker_busy_ms / 1000, 1)} s (${b.descent.workers} worker, software GL)`]);
  }
  const mc = b.machine;
  const L = [
    `Algorithm version ${t.meta.algorithm_version}. Terrain: \`npm run terrain-stats -- ${t.meta.args.join(' ')}\`, ` +
      `balanced seeds ${seeds(bal)}, ${t.grid.width}x${t.grid.height} grid, on ${t.meta.date.slice(0, 10)} (git ${t.meta.git}). ` +
      `Benchmarks: \`npm run bench${b.quick ? ' -- --quick' : ''}\` on ${mc.date.slice(0, 10)} (git ${mc.git}; ${mc.cpu} x${mc.cpus}, ` +
      `load ${mc.load_average[0].toFixed(1)} at the start; ` +
      `ratios are medians of per-rep ratios to a plain-JS fBm on the same grid in the same process, ${ms(js)} ms here).`,
    '',
    '| figure | measured | reference |',
    '| --- | ---: | --- |',
    ...[...rows, ...brows].map((r) => `| ${r.join(' | ')} |`),
  ];
  return L.join('\n');
}

/** docs/generation.md's per-world table. */
export function terrainSection(t) {
  return `\`npm run terrain-stats -- ${t.meta.args.join(' ')}\` on algorithm version ${t.meta.algorithm_version}, ` +
    `${t.meta.date.slice(0, 10)} (git ${t.meta.git}; full grid, 64 land chunks at LOD 6, 48 at each of LOD 11 and 14):\n\n` +
    formatMarkdown(t);
}

/** docs/benchmarks.md's run: the tables `npm run bench` printed. */
export function benchSection(b) {
  return `\`npm run bench${b.meta.args.length ? ` -- ${b.meta.args.join(' ')}` : ''}\` on algorithm version ${b.meta.algorithm_version}, ` +
    `${b.machine.date.slice(0, 10)}, ${b.total_s.toFixed(0)} s:\n\n${benchTables(b)}`;
}

const marks = (x) => [`<!-- ${x.name}: written by scripts/figures.mjs from ${x.from}; do not edit -->`, `<!-- ${x.name} end -->`];

/** `text` with the section between the markers of target `x` replaced by `body`. */
export function replaceSection(text, x, body) {
  const [a, z] = marks(x);
  const i = text.indexOf(a), j = text.indexOf(z);
  if (i < 0 || j < i) throw new Error(`markers of "${x.name}" not found in ${x.file}`);
  return `${text.slice(0, i + a.length)}\n${body}\n${text.slice(j)}`;
}

export function readInputs(dir = root) {
  const read = (p) => JSON.parse(readFileSync(path.join(dir, p), 'utf8'));
  return { terrain: read(INPUTS.terrain), bench: read(INPUTS.bench) };
}

/** Every target file as the inputs would write it: [{file, now, want}]. */
export function render(dir = root) {
  const { terrain, bench } = readInputs(dir);
  return TARGETS.map((x) => {
    const now = readFileSync(path.join(dir, x.file), 'utf8');
    return { file: x.file, now, want: replaceSection(now, x, x.render(terrain, bench)) };
  });
}

/** Writes a committed input; paths under the tree are stored relative to it, so no machine's layout lands in the repo. */
function store(file, data) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  const json = JSON.stringify(data, (k, v) => (k === 'path' && typeof v === 'string' && v.startsWith(`${root}${path.sep}`) ? path.relative(root, v) : v), 1);
  writeFileSync(path.join(root, file), `${json}\n`);
}

function measureTerrain() {
  const t0 = Date.now();
  const r = spawnSync('node', ['tools/terrain_stats.mjs', ...TERRAIN_ARGS], { cwd: root, encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error('npm run terrain-stats failed');
  const out = JSON.parse(r.stdout);
  store(INPUTS.terrain, { meta: { date: new Date().toISOString(), git: gitHead(), algorithm_version: algorithmVersion(),
    args: TERRAIN_ARGS.filter((a) => a !== '--json'), wall_s: Math.round((Date.now() - t0) / 1000) }, ...out });
}

function measureBench(argv) {
  const args = [argv.includes('--full') ? null : '--quick', argv.includes('--no-browser') ? '--no-browser' : null].filter(Boolean);
  if (spawnSync('node', ['scripts/bench.mjs', ...args], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('npm run bench failed');
  const results = JSON.parse(readFileSync(path.join(root, 'bench/results.json'), 'utf8'));
  store(INPUTS.bench, { meta: { algorithm_version: algorithmVersion(), args }, ...results });
}

export function main(argv) {
  if (argv.includes('--terrain')) measureTerrain();
  if (argv.includes('--bench')) measureBench(argv);
  const stale = render().filter((x) => x.now !== x.want);
  if (argv.includes('--check')) {
    for (const x of stale) console.error(`figures: ${x.file} differs from what scripts/figures.mjs writes`);
    return stale.length ? 1 : 0;
  }
  for (const x of stale) writeFileSync(path.join(root, x.file), x.want);
  console.log(stale.length ? `figures: rewrote ${stale.map((x) => x.file).join(', ')}` : 'figures: up to date');
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    console.error(`figures: ${e.message}`);
    process.exitCode = 1;
  }
}
