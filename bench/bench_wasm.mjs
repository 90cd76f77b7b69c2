// bench_wasm.mjs - This module is the WebAssembly half of the benchmarks: the
// same world builds, chunks and meshes as bench_native.c, through the public
// JS API (wasm/ct.mjs) under Node, so every figure includes what an embedder
// pays (argument marshalling and copying results out of WebAssembly memory).
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCore, compileCore } from '../wasm/ct.mjs';
import { benchKey, buildReps, summarize, nowMs, cpuMs, RESOLUTIONS, CHUNK_KEYS, CHUNK_WARMUP,
  MESH_REPS, STRIDES } from './common.mjs';

/**
 * Runs the WASM half.
 * @param {{quick?: boolean, log?: (line: string) => void}} [opts]
 */
export async function benchWasm({ quick = false, log = () => {} } = {}) {
  const wasmUrl = new URL('../build/wasm/ct.wasm', import.meta.url);
  const wasmBytes = statSync(fileURLToPath(wasmUrl)).size;
  let t0 = nowMs();
  const module = await compileCore(wasmUrl);
  const compileMs = nowMs() - t0;
  t0 = nowMs();
  const probe = await loadCore(module);
  const instantiateMs = nowMs() - t0;
  const initialMemory = probe.memoryBytes();
  const presets = probe.presets();
  // Untimed warm-up: lets V8 tier the module up before anything is timed.
  probe.buildWorld({ preset: 'balanced', set: { macro_resolution: 64 } }).free();

  // ---- world builds: a fresh instance per series, so the linear-memory size
  // after the series is that series' peak (WebAssembly memory never shrinks).
  const builds = [];
  for (const res of RESOLUTIONS) {
    for (const preset of presets) {
      const core = await loadCore(module);
      const reps = buildReps(res, quick), ms = [], cpu = [];
      let stats = null, afterFirst = 0;
      try {
        for (let i = 0; i < reps; i++) {
          const c = cpuMs(), t = nowMs();
          const world = core.buildWorld({ preset, set: { macro_resolution: res } });
          ms.push(nowMs() - t);
          cpu.push(cpuMs() - c);
          if (!stats) { stats = world.stats(); afterFirst = core.memoryBytes(); }
          world.free();
        }
        builds.push({ preset, macro_resolution: res, ok: true, vertex_count: stats.vertexCount,
          memory_after_build_bytes: afterFirst, peak_memory_bytes: core.memoryBytes(),
          bytes_held: stats.bytesHeld, ms: { ...summarize(ms), raw: ms }, cpu_ms: { ...summarize(cpu), raw: cpu } });
        log(`wasm build ${preset}/${res}: median ${summarize(ms).median.toFixed(1)} ms`);
      } catch (e) {
        builds.push({ preset, macro_resolution: res, ok: false, error: String(e.message || e) });
        log(`wasm build ${preset}/${res} failed: ${e.message}`);
      }
    }
  }

  // ---- chunks and meshes on the default world, in a fresh instance
  const core = await loadCore(module);
  const world = core.buildWorld({ preset: 'balanced' });
  const memoryAfterBuild = core.memoryBytes();
  const heapAfterBuild = typeof core.heapInUse === 'function' ? core.heapInUse() : null;
  const snapshotBytes = world.snapshot().length;
  const lod = world.config.surface_lod;
  const chunkMs = [], chunkCpu = [], digests = [];
  for (let i = 0; i < CHUNK_WARMUP + CHUNK_KEYS; i++) {
    const c0 = cpuMs(), t = nowMs();
    const c = world.chunk(benchKey(i, lod));
    const dt = nowMs() - t, dc = cpuMs() - c0;
    if (i >= CHUNK_WARMUP) { chunkMs.push(dt); chunkCpu.push(dc); digests.push(c.digest); }
  }
  log(`wasm chunk median ${summarize(chunkMs).median.toFixed(2)} ms`);

  // world.mesh(key) generates the chunk and builds the mesh (what a worker
  // does per request), so these figures include one chunk generation.
  // Meshes. chunk+mesh: world.mesh() on a fresh key each time (generation,
  // mesh, copy-out: what a worker does per request). Mesh only: world.mesh()
  // right after world.chunk() of the same key, which reuses the chunk still
  // in the buffer (World keeps the last one). Where a World lacks that reuse
  // (chunkCounters() missing), the mesh-only figure is (mesh - generation)
  // of paired calls instead.
  const reuse = typeof world.chunkCounters === 'function';
  const mesh = [];
  let fresh = 5000;
  for (const stride of STRIDES) {
    let m = world.mesh(benchKey(fresh++, lod), { stride });   // untimed
    const ms = [], only = [];
    for (let r = 0; r < MESH_REPS; r++) {
      const key = benchKey(fresh++, lod);
      let t = nowMs();
      m = world.mesh(key, { stride });
      ms.push(nowMs() - t);
      const key2 = benchKey(fresh++, lod);
      t = nowMs();
      world.chunk(key2);
      const gen = nowMs() - t;
      t = nowMs();
      m = world.mesh(key2, { stride });
      only.push(reuse ? nowMs() - t : nowMs() - t - gen);
    }
    const bytes = m.positions.byteLength + m.normals.byteLength + m.colors.byteLength + m.indices.byteLength;
    mesh.push({ stride, vertex_count: m.vertexCount, index_count: m.indexCount, bytes,
      chunk_plus_mesh_ms: { ...summarize(ms), raw: ms }, mesh_only_ms: { ...summarize(only), raw: only } });
  }
  const memoryAfterChunks = core.memoryBytes();
  world.free();
  return {
    module_bytes: wasmBytes, compile_ms: compileMs, instantiate_ms: instantiateMs,
    initial_memory_bytes: initialMemory,
    warmup: 'one untimed balanced/64 build before the series; ' +
      `${CHUNK_WARMUP} untimed chunks; 1 untimed mesh per stride`,
    builds,
    chunk: { lod, keys: CHUNK_KEYS, ms: { ...summarize(chunkMs), raw: chunkMs },
      cpu_ms: { ...summarize(chunkCpu), raw: chunkCpu }, digests,
      note: 'world.chunk(key): generation plus copying four typed arrays out of WASM memory' },
    mesh,
    bytes: { module: wasmBytes, memory_after_build: memoryAfterBuild, heap_in_use_after_build: heapAfterBuild,
      memory_after_chunks_and_meshes: memoryAfterChunks, snapshot: snapshotBytes },
  };
}
