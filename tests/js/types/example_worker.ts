// example_worker.ts - a page-side program using the worker pool, type-checked
// (never run) by tests/js/types.test.mjs against worker/client.d.ts.
import { createPool } from '../../../worker/client.js';
import type { ChunkKey, Mesh } from '../../../wasm/ct.mjs';

async function main(): Promise<void> {
  const pool = await createPool({ workers: 2, wasmUrl: new URL('../../../build/wasm/ct.wasm', import.meta.url) });
  const info = await pool.build({ preset: 'alpine', set: { seed: 3 } }, {
    onProgress: (stage: string, fraction: number) => { void stage; void fraction; },
  });
  const generation: string = info.generation;
  const key: ChunkKey = { face: 4, lod: 3, x: 1, y: 2 };
  const pending = pool.chunk(key, { priority: 1 });
  const id: number = pending.id;
  const chunk = await pending;
  const heights: Uint16Array = chunk.height;
  const file = await pool.chunk(key, { format: 'ctc' });
  const bytes: Uint8Array = file.bytes;
  const mesh: Mesh = await pool.mesh(key, { stride: 4, skirtDepthM: 200 }, { priority: 0 });
  const withLakes = await pool.mesh(key, { stride: 4, lakes: true });
  const lakeIndex: Uint8Array | undefined = withLakes.lakes?.paletteIndex;
  const collider = await pool.collider(key, { stride: 2 });
  const colliderCenter: Float64Array = collider.center;
  void colliderCenter;
  const reused: number = (await pool.workerStats())[0].chunks.reused;
  const samples = await pool.sample([[0, 1, 0]]);
  const height: number = samples.heightM[0];
  const rivers = await pool.rivers();
  const outlets: number = rivers.lakeOutlet.reduce((a, b) => a + b, 0) + rivers.info.lakesOpen;
  void [outlets, rivers.generation];
  pool.cancel((r) => r.priority > 10);
  const stats = pool.stats();
  const queued: number = stats.queued;
  await pool.terminate();
  void [generation, id, heights, bytes, mesh, lakeIndex, reused, height, queued];
  // Baked tiles: the manifest, its world, replies that say where they came from.
  const tiled = await createPool({ tiles: { manifest: '/bake/', onFallback: (f) => console.log(f.kind, f.key.lod, f.first) } });
  const bakeInfo = await tiled.loadBake();
  const fromTile: boolean = (await tiled.mesh({ face: 0, lod: 1, x: 0, y: 0 })).source === 'tile';
  const missing: number = tiled.stats().tiles?.fallback.missing ?? 0;
  void [bakeInfo.generation, fromTile, missing];
}

void main();
