// This module hides, in a coarse tile, the land samples whose biome no dry neighbour shares: crests of rock, snow and tundra 32 km apart, point-sampled 20 km apart on an LOD-1 tile, came out as a fine speckle of lone pale samples over every range seen from orbit (266 to 1268 in three LOD-1 chunks of balanced seed 42). Render-only, like thin_water.js, and in the same form: the chunk's data never changes, and a finer tile shows the feature at a size its samples resolve.
import { CHUNK_EDGE, SHADES_PER_BIOME } from '../../wasm/ct_constants.mjs';
import { NEAR } from './thin_water.js';

const E = CHUNK_EDGE;

/** NEAR as index steps within the 257-sample rows, in NEAR's order: the inside samples only are looked at. */
const STEP = Int32Array.from(NEAR, ([dx, dy]) => dy * E + dx);

/**
 * A lone sample needs at least this many dry neighbours: a shore sample with
 * one or two is not speckle, and its few neighbours say little about the
 * biome around it.
 */
const MIN_DRY = 5;

/**
 * Dry samples whose biome none of their dry 8-neighbours has, each with the
 * palette index (shade included) of a neighbour of the most common biome
 * among them. Border samples stay: the neighbouring tile shares them and
 * cannot see this tile's inside, so both draw the edge alike.
 * @param {{water: Uint16Array, palette: Uint8Array}} chunk as the core returns it
 * @param {Int16Array|null} [hide] thin_water.js's hidden samples (-1 where a
 *   sample stays), added to in place; a sample hidden there is not looked at
 * @returns {Int16Array|null} 257 x 257: -1 where the sample stays, else the palette index
 *   it takes (hide itself when given); null when nothing is hidden
 */
export function loneBiomes(chunk, hide = null) {
  const W = chunk.water, P = chunk.palette;
  const count = new Uint8Array(256);
  let out = hide;
  for (let y = 1; y < E - 1; y++) {
    for (let x = 1; x < E - 1; x++) {
      const i = y * E + x;
      if (W[i] !== 0 || (hide && hide[i] >= 0)) continue;
      const biome = (P[i] / SHADES_PER_BIOME) | 0;
      let dry = 0, shared = false;
      for (let n = 0; n < 8; n++) {
        const j = i + STEP[n];
        if (W[j] !== 0) continue;
        dry++;
        if (((P[j] / SHADES_PER_BIOME) | 0) === biome) { shared = true; break; }
      }
      if (shared || dry < MIN_DRY) continue;
      // The most common biome among the dry neighbours, as its first neighbour in NEAR (edges before corners).
      let best = -1, bestCount = 0;
      for (let n = 0; n < 8; n++) {
        const j = i + STEP[n];
        if (W[j] === 0) count[(P[j] / SHADES_PER_BIOME) | 0]++;
      }
      for (let n = 0; n < 8; n++) {
        const j = i + STEP[n];
        if (W[j] !== 0) continue;
        const b = (P[j] / SHADES_PER_BIOME) | 0;
        if (count[b] > bestCount) { bestCount = count[b]; best = P[j]; }
      }
      for (let n = 0; n < 8; n++) count[(P[i + STEP[n]] / SHADES_PER_BIOME) | 0] = 0;
      if (!out) out = new Int16Array(E * E).fill(-1);
      out[i] = best;
    }
  }
  return out;
}
