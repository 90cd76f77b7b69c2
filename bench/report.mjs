// report.mjs - This module turns the four benchmark halves into one record
// (bench/results.json: machine, toolchain, every raw timing) and a Markdown
// table, and checks the targets of the benchmark issue against the figures.
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
    git: firstLine(`cd '${repoDir}' && git rev-parse --short HEAD && git status --porcelain | head -c 1`),
    load_average: os.loadavg(),
  };
}

const median = (s) => (s && s.median != null ? s.median : null);
const ratio = (a, b) => (a != null && b ? a / b : null);

/** Growth exponent k in time ~ vertices^k between the smallest and largest resolution. */
function growth(rows) {
  const ok = rows.filter((r) => r && r.ok).sort((a, b) => a.vertex_count - b.vertex_count);
  if (ok.length < 2) return null;
  const a = ok[0], b = ok[ok.length - 1];
  return Math.log(median(b.ms) / median(a.ms)) / Math.log(b.vertex_count / a.vertex_count);
}

/**
 * Derived figures and target checks.
 * @param {{native: object, wasm: object, js: object, worker: object}} r
 */
export function derive(r) {
  const { native, wasm, js, worker } = r;
  const find = (list, preset, res) => (list || []).find((b) => b.preset === preset && b.macro_resolution === res);
  const builds = [];
  for (const b of native?.builds || []) {
    const w = find(wasm?.builds, b.preset, b.macro_resolution);
    builds.push({ preset: b.preset, res: b.macro_resolution, vertices: b.vertex_count, reps: b.ms?.n,
      native: b.ms, wasm: w?.ms, ratio: ratio(median(w?.ms), median(b.ms)),
      cpu_ratio: ratio(median(w?.cpu_ms), median(b.cpu_ms)),
      native_peak: b.peak_bytes, wasm_memory: w?.peak_memory_bytes, held: b.bytes_held,
      ok: b.ok && !!w?.ok });
  }
  const presets = [...new Set(builds.map((b) => b.preset))];
  const growthRows = presets.map((p) => ({ preset: p,
    native: growth((native?.builds || []).filter((b) => b.preset === p)),
    wasm: growth((wasm?.builds || []).filter((b) => b.preset === p)) }));
  const chunkRatio = ratio(median(wasm?.chunk?.ms), median(native?.chunk?.ms));
  const chunkCpuRatio = ratio(median(wasm?.chunk?.cpu_ms), median(native?.chunk?.cpu_ms));
  const jsRatio = ratio(median(wasm?.chunk?.ms), median(js?.ms));
  let digestsMatch = null;
  if (native?.chunk?.digests && wasm?.chunk?.digests) {
    digestsMatch = native.chunk.digests.filter((d, i) => d === wasm.chunk.digests[i]).length;
  }
  const defaultBuild = builds.find((b) => b.preset === 'balanced' && b.res === 64);
  const buildRatios = builds.filter((b) => b.ratio != null).map((b) => b.ratio);
  const buildCpuRatios = builds.filter((b) => b.cpu_ratio != null).map((b) => b.cpu_ratio);
  const worst = (xs) => (xs.length ? Math.max(...xs) : null);
  const geomean = (xs) => (xs.length ? Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length) : null);
  // Per resolution: geometric mean over presets of the WASM/native ratio.
  const byRes = [...new Set(builds.map((b) => b.res))].map((res) => {
    const rows = builds.filter((b) => b.res === res && b.ratio != null);
    return { res, wall: geomean(rows.map((b) => b.ratio)), cpu: geomean(rows.map((b) => b.cpu_ratio).filter((x) => x != null)) };
  });
  const pool1 = worker?.pools?.find((p) => p.workers === 1);
  // What is left of a worker mesh request once the chunk exists: mesh build,
  // copy-out and transfer (an estimate: difference of two medians).
  const meshAfterChunk = pool1 && wasm?.chunk
    ? median(pool1.mesh_round_trip_ms.stride1) - median(wasm.chunk.ms) : null;
  const targets = [
    { target: 'WASM/native world build <= 1.3 (every preset and resolution)',
      value: worst(buildRatios),
      unit: `worst wall ratio (CPU time ${fmt(worst(buildCpuRatios))}; geometric mean per resolution ` +
        `${byRes.map((r) => `${r.res}: ${fmt(r.wall)}`).join(', ')})`,
      met: buildRatios.length ? worst(buildRatios) <= 1.3 : null },
    { target: 'WASM/native chunk generation <= 1.3 (median)', value: chunkRatio,
      unit: `wall ratio (CPU-time: ${fmt(chunkCpuRatio)})`,
      met: chunkRatio == null ? null : chunkRatio <= 1.3 },
    { target: 'WASM chunk faster than plain-JS 6-octave fBm alone', value: jsRatio, unit: 'WASM/JS',
      met: jsRatio == null ? null : jsRatio < 1 },
    { target: 'default world build under 1 s in WASM', value: median(defaultBuild?.wasm), unit: 'ms',
      met: defaultBuild?.wasm ? median(defaultBuild.wasm) < 1000 : null },
    { target: 'chunk to transferred mesh under 15 ms (pool of 1, stride 1, median)',
      value: median(pool1?.mesh_round_trip_ms?.stride1),
      unit: `ms key to mesh (minus the WASM chunk median: ${fmt(meshAfterChunk)} ms)`,
      met: pool1 ? median(pool1.mesh_round_trip_ms.stride1) < 15 : null },
  ];
  return { builds, build_ratio_by_res: byRes, growth: growthRows, mesh_after_chunk_ms: meshAfterChunk, chunk_ratio: chunkRatio, chunk_cpu_ratio: chunkCpuRatio, wasm_over_js: jsRatio,
    digests_match: digestsMatch, targets };
}

/** The Markdown tables printed by `npm run bench` and kept in docs/benchmarks.md. */
export function table(r, d) {
  const { native, wasm, js, worker, machine } = r;
  const L = [];
  L.push(`Machine: ${machine.cpu} x${machine.cpus}, ${(machine.memory_bytes / 2 ** 30).toFixed(1)} GiB, ` +
    `${machine.platform}; node ${machine.node}; ${machine.cc}; ${machine.emcc}; load ${machine.load_average.map((x) => x.toFixed(1)).join(' ')}.`);
  if (r.sources?.changed_during_run) L.push('WARNING: core sources changed during this run; rerun before trusting ratios.');
  L.push(`Warm-up excluded everywhere: ${native?.warmup ?? '-'}; worker: ${worker?.warmup ?? '-'}.`);
  L.push('');
  L.push('World build (ms, median of reps; min-max in brackets)');
  L.push('');
  L.push('| preset | res | vertices | reps | native ms | WASM ms | WASM/native | (CPU time) | native peak MiB | WASM memory MiB |');
  L.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const b of d.builds) {
    const span = (s) => (s ? `${fmt(s.median, 1)} [${fmt(s.min, 1)}-${fmt(s.max, 1)}]` : '-');
    L.push(`| ${b.preset} | ${b.res} | ${b.vertices ?? '-'} | ${b.reps ?? '-'} | ${span(b.native)} | ${span(b.wasm)} | ` +
      `${fmt(b.ratio)} | ${fmt(b.cpu_ratio)} | ${b.native_peak == null ? '-' : fmt(b.native_peak / MiB, 1)} | ` +
      `${b.wasm_memory == null ? '-' : fmt(b.wasm_memory / MiB, 1)} |`);
  }
  L.push('');
  L.push('Build time growth: exponent k in time ~ vertices^k from resolution 64 to 256');
  L.push('');
  L.push('| preset | native k | WASM k |');
  L.push('| --- | ---: | ---: |');
  for (const g of d.growth) L.push(`| ${g.preset} | ${fmt(g.native)} | ${fmt(g.wasm)} |`);
  L.push('');
  const nc = native?.chunk?.ms, wc = wasm?.chunk?.ms;
  L.push(`Chunk generation (257x257, every field, LOD ${native?.chunk?.lod ?? '-'}, ${nc?.n ?? '-'} distinct chunks)`);
  L.push('');
  L.push('| | median ms | p95 ms | min ms | max ms |');
  L.push('| --- | ---: | ---: | ---: | ---: |');
  const row = (name, s) => L.push(`| ${name} | ${fmt(s?.median)} | ${fmt(s?.p95)} | ${fmt(s?.min)} | ${fmt(s?.max)} |`);
  row('native', nc);
  row('WASM (world.chunk, incl. copy-out)', wc);
  row('plain JS: 6-octave simplex fBm only', js?.ms);
  L.push('');
  L.push(`WASM/native chunk: ${fmt(d.chunk_ratio)} (CPU time ${fmt(d.chunk_cpu_ratio)}); WASM chunk / JS fBm: ${fmt(d.wasm_over_js)}; ` +
    `native and WASM digests equal for ${d.digests_match ?? '-'} of ${native?.chunk?.digests?.length ?? '-'} chunks.`);
  L.push('');
  L.push('Mesh per stride');
  L.push('');
  L.push('| stride | vertices | indices | native mesh only ms | WASM mesh only ms | WASM chunk+mesh ms | bytes per mesh |');
  L.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const m of native?.mesh || []) {
    const w = (wasm?.mesh || []).find((x) => x.stride === m.stride);
    L.push(`| ${m.stride} | ${m.vertex_count} | ${m.index_count} | ${fmt(median(m.ms))} | ` +
      `${fmt(median(w?.mesh_only_ms))} | ${fmt(median(w?.chunk_plus_mesh_ms))} | ${w?.bytes ?? m.bytes} |`);
  }
  L.push('');
  L.push('Workers (node worker_threads; the same pool a page uses)');
  L.push('');
  L.push('| pool | build+snapshot ms | mesh round trip s1 median/p95 ms | s4 median/p95 ms | chunk round trip ms | chunks/s | cores used |');
  L.push('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const p of worker?.pools || []) {
    const a = p.mesh_round_trip_ms.stride1, b = p.mesh_round_trip_ms.stride4;
    L.push(`| ${p.workers} | ${fmt(p.build_ms, 0)} | ${fmt(a.median)} / ${fmt(a.p95)} | ${fmt(b.median)} / ${fmt(b.p95)} | ` +
      `${fmt(median(p.chunk_round_trip_ms))} | ${fmt(p.throughput.chunks_per_s, 1)} | ${fmt(p.throughput.cores_used)} |`);
  }
  L.push('');
  const nb = native?.bytes || {}, wb = wasm?.bytes || {};
  L.push('Bytes');
  L.push('');
  L.push('| what | bytes |');
  L.push('| --- | ---: |');
  L.push(`| WebAssembly module (ct.wasm) | ${wasm?.module_bytes ?? '-'} |`);
  L.push(`| WASM linear memory after the default build (initial ${wasm?.initial_memory_bytes ?? '-'}) | ${wb.memory_after_build ?? '-'} |`);
  L.push(`| WASM malloc heap in use after the default build | ${wb.heap_in_use_after_build ?? '-'} |`);
  L.push(`| WASM linear memory after chunks and meshes | ${wb.memory_after_chunks_and_meshes ?? '-'} |`);
  L.push(`| world held (default, native heap) | ${nb.world_held ?? '-'} |`);
  L.push(`| world snapshot (CTWORLD2) | ${nb.snapshot ?? wb.snapshot ?? '-'} |`);
  L.push(`| one cached chunk (ct_chunk in memory) | ${nb.chunk_struct ?? '-'} |`);
  L.push(`| one chunk as .ctc / as .u16le | ${nb.chunk_ctc ?? '-'} / ${nb.chunk_u16le ?? '-'} |`);
  const m1 = (wasm?.mesh || []).find((x) => x.stride === 1), m4 = (wasm?.mesh || []).find((x) => x.stride === 4);
  L.push(`| one mesh, stride 1 / stride 4 (positions, normals, RGBA, indices) | ${m1?.bytes ?? '-'} / ${m4?.bytes ?? '-'} |`);
  L.push('');
  L.push('Targets');
  L.push('');
  L.push('| target | measured | met |');
  L.push('| --- | ---: | :---: |');
  for (const t of d.targets) L.push(`| ${t.target} | ${fmt(t.value)} ${t.unit} | ${t.met == null ? '-' : t.met ? 'yes' : 'no'} |`);
  return L.join('\n');
}
