// This module turns a chunk's water codes into the page's per-sample lake level map: the level of the lake over each of the 257x257 samples, spread a few samples onto the dry shore so a filtered lookup stays at the lake's level up to the shoreline, and a "no lake" value elsewhere (the sea has its own level, 0 m, in the shader).
import { SEA_LEVEL_CODE, CHUNK_EDGE } from '../../wasm/ct_constants.mjs';

/** Level written where no lake is near: far below any ground, so "ground below the level" never holds. */
export const NO_LAKE_M = -30000;

/** Samples the levels spread onto dry ground: the shoreline (first dry sample) lies within them. */
const SPREAD = 2;

/**
 * Lake level map of one chunk.
 * @param {{water: Uint16Array, heightQuantumM: number}} chunk as the core returns it (0 dry, else
 *   the encoded level, SEA_LEVEL_CODE for the sea)
 * @returns {Float32Array|null} 257 x 257 levels in real metres, or null when the chunk has no lake
 */
export function lakeLevelMap(chunk) {
  const E = CHUNK_EDGE, W = chunk.water, q = chunk.heightQuantumM;
  // Most chunks hold no lake: look for one before making the map.
  let first = -1;
  for (let i = 0; i < E * E && first < 0; i++) if (W[i] !== 0 && W[i] !== SEA_LEVEL_CODE) first = i;
  if (first < 0) return null;
  let level = new Float32Array(E * E).fill(NO_LAKE_M);
  for (let i = first; i < E * E; i++) {
    if (W[i] !== 0 && W[i] !== SEA_LEVEL_CODE) level[i] = (W[i] - SEA_LEVEL_CODE) * q;
  }
  // Spread onto dry neighbours, one ring per pass (the highest
  // neighbour wins where two lakes meet; a shore between lakes is dry anyway).
  for (let pass = 0; pass < SPREAD; pass++) {
    const next = level.slice();
    for (let y = 0; y < E; y++) {
      for (let x = 0; x < E; x++) {
        const i = y * E + x;
        // Only onto dry ground: a sea sample keeps the sea's own level (0 m in
        // the shader), or a lake beside the sea would lift the sea bed to its level.
        if (level[i] !== NO_LAKE_M || W[i] === SEA_LEVEL_CODE) continue;
        let best = NO_LAKE_M;
        for (let dy = -1; dy <= 1; dy++) {
          const yy = y + dy;
          if (yy < 0 || yy >= E) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            if (xx >= 0 && xx < E && level[yy * E + xx] > best) best = level[yy * E + xx];
          }
        }
        next[i] = best;
      }
    }
    level = next;
  }
  return level;
}
