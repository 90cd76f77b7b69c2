// This module answers "how high is the ground here" for the camera: the core's authoritative height from a WebAssembly world on the page (loaded from the pool's snapshot, so it is the same frozen field the chunks come from), and the height of the mesh actually drawn, so the eye never dips under terrain that is still coarse while finer tiles load.
import { keyAt, CHUNK_CORE } from '../stream/geo.js';

/**
 * Height of the drawn mesh under a direction, in drawn metres (the mesh's own
 * exaggerated heights), or null when no drawn tile with kept heights holds it.
 * Interpolates on the mesh's own two triangles per cell (core/src/surface/mesh.c:
 * (v00, v10, v01) and (v10, v11, v01)), so it is the surface the GPU draws.
 * @param {{key: object, stride: number, heights?: Float32Array}[]} tiles drawn tiles
 * @param {number[]} dir unit direction
 */
export function meshHeightAt(tiles, dir) {
  let best = null;
  for (const t of tiles) {
    if (!t.heights) continue;
    const at = keyAt(dir, t.key.lod);
    if (at.key.face !== t.key.face || at.key.x !== t.key.x || at.key.y !== t.key.y) continue;
    // The finest drawn tile wins (a fallback ancestor may be drawn beside it).
    if (best && best.lod >= t.key.lod) continue;
    best = { lod: t.key.lod, h: cellHeight(t.heights, CHUNK_CORE / t.stride, at.localX / t.stride, at.localY / t.stride) };
  }
  return best ? best.h : null;
}

/** Height at grid position (gx, gy) of an (n+1) x (n+1) vertex grid, on the mesh's triangles. */
export function cellHeight(h, n, gx, gy) {
  const row = n + 1;
  const i = Math.min(n - 1, Math.max(0, Math.floor(gx))), j = Math.min(n - 1, Math.max(0, Math.floor(gy)));
  const fx = Math.min(1, Math.max(0, gx - i)), fy = Math.min(1, Math.max(0, gy - j));
  const h00 = h[j * row + i], h10 = h[j * row + i + 1], h01 = h[(j + 1) * row + i], h11 = h[(j + 1) * row + i + 1];
  if (fx + fy <= 1) return h00 + fx * (h10 - h00) + fy * (h01 - h00);
  return h11 + (1 - fx) * (h01 - h11) + (1 - fy) * (h10 - h11);
}

/**
 * The height a walker stands on from a world's exact ground (world.groundAt:
 * the stride-1 mesh of the surface_lod chunk, the surface a collider has): the
 * ground, or the drawn water surface over it, never under the sea surface.
 * @param {{heightM: number, waterM: number, hasWater: boolean}} g
 */
export function standingHeightM(g) {
  return Math.max(g.heightM, g.hasWater ? g.waterM : -Infinity, 0);
}

/**
 * A WebAssembly world on the page for synchronous ground heights and rays:
 * walk mode asks every frame, which the worker round trip (a fifth of a
 * second or more on a busy machine) cannot answer. Loaded from the pool's
 * snapshot.
 * @param {{snapshot(): Promise<Uint8Array>}} pool
 * @returns {Promise<{generation: string, heightM(dir: number[]): number,
 *   raycast(originM: number[], dir: number[], maxM: number): object|null, free(): void}>}
 *   heightM: standingHeightM of the exact ground in real metres; raycast:
 *   world.raycast with water surfaces
 */
export async function createGroundProbe(pool) {
  const [{ loadCore }, bytes] = await Promise.all([import('../wasm/ct.mjs'), pool.snapshot()]);
  const core = await loadCore();
  return groundProbe(core.loadWorld(bytes));
}

/** The probe over a loaded world (createGroundProbe's, and the tests'). */
export function groundProbe(world) {
  return {
    generation: world.generation,
    world,
    heightM: (dir) => standingHeightM(world.groundAt(dir)),
    raycast: (originM, dir, maxM) => world.raycast(originM, dir, maxM, { water: true }),
    free() { world.free(); },
  };
}
