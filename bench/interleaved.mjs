// interleaved.mjs - This module runs the native, WebAssembly and plain-JS
// measurements rep by rep: each repetition times the native server
// (bench_native.c), the WASM core in this process and, for chunks, the JS
// simplex fBm on the same grid, one right after the other, rotating which goes
// first. Load changes on a shared machine then hit all of them alike, and the
// per-repetition ratios (wasm/native, wasm/js) are taken from adjacent runs.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCore, compileCore } from '../wasm/ct.mjs';
import { benchKey, chunkDirections, summarize, nowMs, cpuMs } from './common.mjs';
import { benchChunkClasses } from './chunk_classes.mjs';
import { makeFbm } from './bench_js.mjs';

/** Repetitions of each part; --quick keeps a whole run near a minute. */
export function plan(quick) {
  return {
    builds: quick ? [[64, 3], [128, 2], [256, 1], [512, 1]] : [[64, 7], [128, 5], [256, 3], [512, 2]],
    chunkLods: [6, 10, 14],        // surface_lod of the worlds whose chunks are timed; 6 is the default's
    chunkKeys: quick ? 2 : 4,      // per class (land, sea, shore, river) and LOD
    chunkReps: quick ? 2 : 3,      // each key this many times
    scanKeys: 200,                 // candidates classified (untimed) to find the keys
    strides: [1, 2, 4],
    meshReps: quick ? 3 : 8,
  };
}

const keyCmd = (k) => `${k.face} ${k.lod} ${k.x} ${k.y}`;
const stat = (xs) => ({ ...summarize(xs), raw: xs });

/** Runs the parts in order list, rotated by rep, awaiting each. */
async function rotate(rep, parts) {
  for (let i = 0; i < parts.length; i++) await parts[(i + rep) % parts.length]();
}

/**
 * The interleaved native / WASM / JS part of `npm run bench`.
 * @param {{native: {send: Function}, quick: boolean, log: (s: string) => void}} o
 */
export async function benchInterleaved({ native, quick, log }) {
  const P = plan(quick);
  const wasmUrl = new URL('../build/wasm/ct.wasm', import.meta.url);
  let t0 = nowMs();
  const module = await compileCore(wasmUrl);
  const compileMs = nowMs() - t0;
  t0 = nowMs();
  const probe = await loadCore(module);
  const instantiateMs = nowMs() - t0;
  const wasmInfo = { module_bytes: statSync(fileURLToPath(wasmUrl)).size, compile_ms: compileMs,
    instantiate_ms: instantiateMs, initial_memory_bytes: probe.memoryBytes() };
  const fbm = makeFbm();
  const jsAnchor = [];   // every JS fBm grid timed in this run
  const timeJs = (dirs) => { const t = nowMs(); fbm(dirs); const ms = nowMs() - t; jsAnchor.push(ms); return ms; };

  // Untimed warm-up of all three.
  probe.buildWorld({ preset: 'balanced', set: { macro_resolution: 64 } }).free();
  await native.send('build balanced 64');
  fbm(chunkDirections(benchKey(0, 6)));

  // ---- world builds of the default preset at every resolution
  const builds = [];
  for (const [n, reps] of P.builds) {
    const core = await loadCore(module);   // fresh memory: its size afterwards is this series' peak
    const nat = [], natCpu = [], was = [], wasCpu = [], ratios = [];
    let info = null, stats = null;
    for (let r = 0; r < reps; r++) {
      let a = 0, b = 0;
      await rotate(r, [
        async () => { info = await native.send(`build balanced ${n}`); a = info.ms; nat.push(a); natCpu.push(info.cpu_ms); },
        async () => {
          const c = cpuMs(), t = nowMs();
          const world = core.buildWorld({ preset: 'balanced', set: { macro_resolution: n } });
          b = nowMs() - t; was.push(b); wasCpu.push(cpuMs() - c);
          if (!stats) stats = world.stats();
          world.free();
        },
      ]);
      ratios.push(b / a);
    }
    const v = info.vertex_count;
    builds.push({ preset: 'balanced', n, vertex_count: v, reps,
      native_ms: stat(nat), wasm_ms: stat(was), native_cpu_ms: stat(natCpu), wasm_cpu_ms: stat(wasCpu),
      wasm_over_native: stat(ratios),
      us_per_vertex: { native: summarize(nat).median * 1000 / v, wasm: summarize(was).median * 1000 / v },
      native_peak_bytes: info.peak_bytes, wasm_memory_bytes: core.memoryBytes(), bytes_held: info.bytes_held,
      snapshot_bytes: info.snapshot_bytes, vertex_count_match: stats ? stats.vertexCount === v : null });
    log(`build n=${n}: native ${summarize(nat).median.toFixed(1)} ms, wasm ${summarize(was).median.toFixed(1)} ms`);
  }

  // ---- chunks per class at several surface_lod values (bench/chunk_classes.mjs)
  const core = await loadCore(module);
  const chunkLods = await benchChunkClasses({ native, core, quick, lods: P.chunkLods, perKey: P.chunkKeys,
    reps: P.chunkReps, scan: P.scanKeys, timeJs, rotate, log });
  // The default world's LOD first: the targets and the mesh keys use it.
  const chunks = chunkLods[0];
  const all = (f) => Object.values(chunks.classes).flatMap((c) => c[f].raw);
  chunks.all = { native_ms: stat(all('native_ms')), wasm_ms: stat(all('wasm_ms')), js_fbm_ms: stat(all('js_fbm_ms')),
    wasm_over_native: stat(all('wasm_over_native')), wasm_over_js: stat(all('wasm_over_js')) };
  const world = core.buildWorld({ preset: 'balanced' });
  const nw = await native.send(`world balanced ${world.config.macro_resolution}`);
  const want = Object.fromEntries(Object.entries(chunks.classes).map(([c, v]) => [c, v.keys]));

  // ---- meshes: mesh build only, on a chunk each side already holds
  const mesh = [];
  const meshKeys = [...want.land, ...want.shore, ...want.sea];
  for (const stride of P.strides) {
    const nat = [], was = [], wasCopy = [];
    let last = null;
    for (let r = 0; r < P.meshReps; r++) {
      const key = meshKeys[r % meshKeys.length];
      await native.send(`chunk ${keyCmd(key)}`);
      world.chunk(key);   // World keeps the last chunk; mesh() of the same key reuses it
      await rotate(r, [
        async () => { last = await native.send(`mesh ${stride}`); nat.push(last.ms); },
        async () => { const t = nowMs(); world.mesh(key, { stride }); was.push(nowMs() - t); },
        async () => { const t = nowMs(); world.mesh(key, { stride, copy: true }); wasCopy.push(nowMs() - t); },
      ]);
    }
    // wasm_ms: world.mesh() as it returns views; wasm_copy_ms: with {copy: true} (what a worker reply costs).
    mesh.push({ stride, vertex_count: last.vertex_count, index_count: last.index_count, bytes: last.bytes,
      native_ms: stat(nat), wasm_ms: stat(was), wasm_copy_ms: stat(wasCopy) });
  }
  const bytes = { world_held: nw.bytes_held, snapshot: nw.snapshot_bytes,
    wasm_memory_after_default_build_and_chunks: core.memoryBytes() };
  world.free();
  return { wasm: wasmInfo, builds, chunks, chunk_lods: chunkLods, mesh, bytes,
    js_anchor: { what: fbm.what, ms: stat(jsAnchor) } };
}
