// report.mjs - This module turns a benchmark run into derived figures, the
// checks against the performance targets (docs/benchmarks.md), and the Markdown tables printed by
// `npm run bench` and copied into docs/benchmarks.md.
import os from 'node:os';
import { execSync } from 'node:child_process';
import { fmt } from './common.mjs';

const MiB = 1048576;

function firstLine(cmd) {
  try {
    return execSync(cmd, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], shell: '/bin/sh' })
      .split('\n').find((l) => l.trim()) ?? null;
  } catch { return null; }
}

/** Machine and toolchain versions, recorded with every run. */
export function machineInfo(repoDir) {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    cpu: cpus[0] ? cpus[0].model : null, cpus: cpus.length,
    memory_bytes: os.totalmem(), platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.versions.node, v8: process.versions.v8,
    cc: firstLine('cc --version'),
    emcc: firstLine(`cd '${repoDir}' && . ./emsdk.env >/dev/null 2>&1 && emcc --version`),
    git: firstLine(`cd '${repoDir}' && git rev-parse --short HEAD`),
    load_average: os.loadavg(),
  };
}

const med = (s) => (s && s.median != null ? s.median : null);

/**
 * Checks of the performance targets. A target is met (true), missed (false) or not
 * measured (null).
 * @param {object} r  the results record
 */
export function derive(r) {
  const b64 = r.builds?.find((b) => b.n === 64), b256 = r.builds?.find((b) => b.n === 256);
  const land = r.chunks?.classes?.land, sea = r.chunks?.classes?.sea, shore = r.chunks?.classes?.shore;
  const land14 = r.chunk_lods?.find((c) => c.lod === 14)?.classes?.land;
  const js = med(r.js_anchor?.ms);
  const m1 = r.mesh?.find((m) => m.stride === 1);
  const p1 = r.worker?.pools?.find((p) => p.workers === 1), p2 = r.worker?.pools?.find((p) => p.workers === 2);
  // Median of per-rep ratios (pools alternated rep by rep); older results: ratio of the two single runs.
  const scaling = r.worker?.scaling ? r.worker.scaling.median
    : p1 && p2 ? p2.throughput.chunks_per_s / p1.throughput.chunks_per_s : null;
  const ceiling = r.worker?.ceiling ? r.worker.ceiling.median : null;
  const worstBuild = r.builds?.length ? Math.max(...r.builds.map((b) => med(b.wasm_over_native))) : null;
  const chunkRatio = med(r.chunks?.all?.wasm_over_native);
  const digests = (r.chunk_lods || [r.chunks]).flatMap((l) => Object.values(l?.classes || {})).map((c) => c.digests_equal);
  const t = (target, value, unit, limit) => ({ target, value, unit, met: value == null ? null : value <= limit });
  const targets = [
    t('WASM land chunk <= 0.5x JS fBm (same grid, same process)', med(land?.wasm_over_js), 'median per-rep ratio', 0.5),
    t('WASM sea chunk <= 0.3x JS fBm', med(sea?.wasm_over_js), 'median per-rep ratio', 0.3),
    t('WASM shore chunk <= 0.6x JS fBm', med(shore?.wasm_over_js), 'median per-rep ratio', 0.6),
    t('WASM surface_lod 14 land chunk <= 0.8x JS fBm', med(land14?.wasm_over_js), 'median per-rep ratio', 0.8),
    t('default world build (n=64) <= 1.5x one JS fBm grid', b64 && js ? med(b64.wasm_ms) / js : null,
      `WASM build median / JS fBm median (${fmt(med(b64?.wasm_ms))} / ${fmt(js)} ms)`, 1.5),
    t('n=256 world build under 700 ms in WASM', med(b256?.wasm_ms), 'ms median', 700),
    t('world.mesh at stride 1 under 3 ms (WASM, views, chunk already generated)', med(m1?.wasm_ms), 'ms median', 3),
    { target: 'two workers >= 1.7x the chunks/s of one', value: scaling,
      unit: `median per-rep ratio (cores used ${fmt(p2?.throughput?.cores_used)}; machine ceiling, 2 native processes / 1: ${fmt(ceiling)})`,
      met: scaling == null ? null : scaling >= 1.7 },
    t('WASM/native <= 1.1 for chunks', chunkRatio, 'median per-rep ratio, all classes', 1.1),
    t('WASM/native <= 1.1 for builds', worstBuild, 'worst median per-rep ratio over n', 1.1),
    { target: 'native and WASM chunk digests identical', value: null, unit: digests.join(', '),
      met: digests.length ? digests.every((d) => { const [a, b] = d.split('/'); return a === b; }) : null },
  ];
  return { js_fbm_ms: js, worker_scaling: scaling, worker_ceiling: ceiling, targets };
}

const cell = (s) => `${fmt(med(s))} [${fmt(s?.min)}]`;

/** The Markdown tables printed by `npm run bench`. */
export function table(r) {
  const { machine } = r, L = [];
  L.push(`Machine: ${machine.cpu} x${machine.cpus}, ${(machine.memory_bytes / 2 ** 30).toFixed(1)} GiB, ` +
    `${machine.platform}; node ${machine.node}; ${machine.cc}; ${machine.emcc}; ` +
    `load ${machine.load_average.map((x) => x.toFixed(1)).join(' ')}; git ${machine.git}${r.quick ? '; --quick' : ''}.`);
  if (r.sources?.changed_during_run) L.push('WARNING: core sources changed during this run; rerun before trusting ratios.');
  L.push('');
  L.push('World builds, default preset (median [min] ms; ratio = median of per-rep WASM/native)');
  L.push('');
  L.push('| n | vertices | reps | native ms | WASM ms | WASM/native | native µs/vertex | WASM µs/vertex | native peak MiB | WASM memory MiB |');
  L.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const b of r.builds || []) {
    L.push(`| ${b.n} | ${b.vertex_count} | ${b.reps} | ${cell(b.native_ms)} | ${cell(b.wasm_ms)} | ` +
      `${fmt(med(b.wasm_over_native))} | ${fmt(b.us_per_vertex.native)} | ${fmt(b.us_per_vertex.wasm)} | ` +
      `${b.native_peak_bytes == null ? '-' : fmt(b.native_peak_bytes / MiB, 1)} | ${fmt(b.wasm_memory_bytes / MiB, 0)} |`);
  }
  L.push('');
  for (const lc of r.chunk_lods || [r.chunks]) {
    if (!lc) continue;
    L.push(`Chunks of the default world at surface_lod ${lc.lod} (257x257, every field; median [min] ms; ratios = median of ` +
      `per-rep ratios; land and sea among the first ${lc.scanned} bench keys, shore by descent to a coast, river under river nodes)`);
    L.push('');
    L.push('| class | keys x reps | native | WASM | JS fBm | WASM/native | WASM/JS | digests equal |');
    L.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [cls, c] of Object.entries(lc.classes || {})) {
      if (!c.keys.length) { L.push(`| ${cls} | 0 (none found) | | | | | | |`); continue; }
      L.push(`| ${cls} | ${c.keys.length} x ${c.reps} | ${cell(c.native_ms)} | ${cell(c.wasm_ms)} | ${cell(c.js_fbm_ms)} | ` +
        `${fmt(med(c.wasm_over_native))} | ${fmt(med(c.wasm_over_js))} | ${c.digests_equal} |`);
    }
    const a = lc.all;
    if (a) {
      L.push(`| all | | ${cell(a.native_ms)} | ${cell(a.wasm_ms)} | ${cell(a.js_fbm_ms)} | ` +
        `${fmt(med(a.wasm_over_native))} | ${fmt(med(a.wasm_over_js))} | |`);
    }
    L.push('');
  }
  L.push('Mesh build only (chunk already generated; median [min] ms; WASM = world.mesh() returning views, copy = with {copy: true})');
  L.push('');
  L.push('| stride | vertices | indices | native | WASM | WASM copy | bytes |');
  L.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const m of r.mesh || []) {
    L.push(`| ${m.stride} | ${m.vertex_count} | ${m.index_count} | ${cell(m.native_ms)} | ${cell(m.wasm_ms)} | ` +
      `${cell(m.wasm_copy_ms)} | ${m.bytes} |`);
  }
  L.push('');
  L.push('Workers (node worker_threads, the pool a page uses)');
  L.push('');
  L.push('| pool | mesh s1 round trip ms | chunk round trip ms | chunks/s | cores used | main thread busy |');
  L.push('| ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const p of r.worker?.pools || []) {
    L.push(`| ${p.workers} | ${fmt(med(p.mesh_round_trip_ms.stride1))} | ${fmt(med(p.chunk_round_trip_ms))} | ` +
      `${fmt(p.throughput.chunks_per_s, 1)} | ${fmt(p.throughput.cores_used)} | ${fmt(p.throughput.main_elu)} |`);
  }
  if (r.worker?.scaling) {
    const c = r.worker.ceiling;
    L.push('');
    L.push(`Pool of 2 / pool of 1: ${fmt(r.worker.scaling.median)} (median of ${r.worker.scaling.raw.length} alternated reps: ` +
      `${r.worker.scaling.raw.map((x) => fmt(x)).join(', ')})` +
      (c ? `; machine ceiling in the same reps, two native processes / one: ${fmt(c.median)} ` +
        `(${c.raw.map((x) => fmt(x)).join(', ')}; ${fmt(c.native1_chunks_per_s, 1)} -> ${fmt(c.native2_chunks_per_s, 1)} chunks/s)` : '') + '.');
  }
  if (r.descent) {
    L.push('');
    L.push(`Demo page in headless Chromium (software GL, workers: ${r.descent.workers}): orbit (14,000 km) -> the altitude -> eye height ` +
      '(walk mode), each step awaited until streamed (s; tiles = mesh requests; worker busy = summed over workers)');
    L.push('');
    L.push('| descent to | to altitude s | tiles | worker busy s | to eye height s | tiles | worker busy s | total s | total tiles | total worker s |');
    L.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    const s = (ms) => fmt(ms / 1000, 1);
    for (const d of r.descent.descents) {
      const a = d.to_altitude, e = d.to_eye_height, t = d.total;
      L.push(`| ${d.to.join(', ')} | ${s(a.ms)} | ${a.tiles_requested} | ${s(a.worker_busy_ms)} | ${s(e.ms)} | ${e.tiles_requested} | ` +
        `${s(e.worker_busy_ms)} | ${s(t.ms)} | ${t.tiles_requested} | ${s(t.worker_busy_ms)} |`);
    }
  } else if (r.browser === false) {
    L.push('');
    L.push('Browser descent skipped (--no-browser).');
  }
  L.push('');
  L.push('Targets');
  L.push('');
  L.push('| target | measured | met |');
  L.push('| --- | ---: | :---: |');
  for (const x of r.derived.targets) {
    L.push(`| ${x.target} | ${x.value == null ? '' : fmt(x.value)} ${x.unit} | ${x.met == null ? '-' : x.met ? 'yes' : 'no'} |`);
  }
  return L.join('\n');
}
