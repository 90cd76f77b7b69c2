// This module hides, in a coarse tile, the inland water narrower than the tile's samples: a river a few hundred metres wide that passes through a sample 40 km from the next is one wet sample among dry ones, and every river node (a macro vertex, which the river's curve passes through) landed on the coarse grid, so from orbit each continent showed a regular grid of water dots. Render-only: the chunk's data never changes, and the river lines draw those rivers instead.
import { SEA_LEVEL_CODE, CHUNK_CORE, CHUNK_EDGE } from '../../wasm/ct_constants.mjs';

const E = CHUNK_EDGE;

/** The eight neighbours, the four edges first: the order a hidden sample's colour is looked for in (lone_biomes.js too). */
export const NEAR = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, 1], [1, -1], [-1, -1]];

/**
 * Whether any of the eight neighbours of sample (x, y) inside the chunk is
 * wet. Plain loops: thinWater asks it for every sea sample of a tile, and the
 * open sea answers at the first neighbour.
 */
function wetNeighbour(W, x, y) {
  if (x > 0 && y > 0 && x < E - 1 && y < E - 1) {
    const i = y * E + x;
    return W[i - 1] !== 0 || W[i + 1] !== 0 || W[i - E] !== 0 || W[i + E] !== 0 ||
      W[i - E - 1] !== 0 || W[i - E + 1] !== 0 || W[i + E - 1] !== 0 || W[i + E + 1] !== 0;
  }
  const x0 = Math.max(0, x - 1), x1 = Math.min(E - 1, x + 1), y0 = Math.max(0, y - 1), y1 = Math.min(E - 1, y + 1);
  for (let yy = y0; yy <= y1; yy++) {
    for (let xx = x0; xx <= x1; xx++) if ((xx !== x || yy !== y) && W[yy * E + xx] !== 0) return true;
  }
  return false;
}

/**
 * Inland wet samples that belong to no 2 x 2 block of inland wet samples in
 * the chunk (water narrower than about one and a half sample spacings), and
 * sea-level samples with no wet neighbour at all, each with the palette index
 * of a dry neighbour. Sea with any wet neighbour is never hidden.
 * @param {{water: Uint16Array, palette: Uint8Array}} chunk as the core returns it
 * @returns {Int16Array|null} 257 x 257: -1 where the sample stays, else the palette index it
 *   takes; null when nothing is hidden
 */
export function thinWater(chunk) {
  const W = chunk.water, P = chunk.palette;
  const wet = (x, y) => x >= 0 && y >= 0 && x < E && y < E && W[y * E + x] !== 0;
  // A block counts inland water only: a river's last sample beside the sea
  // is as thin as the rest of it.
  const inland = (x, y) => wet(x, y) && W[y * E + x] !== SEA_LEVEL_CODE;
  let out = null;
  for (let y = 0; y < E; y++) {
    for (let x = 0; x < E; x++) {
      const w = W[y * E + x];
      if (w === 0) continue;
      let wide = false;
      if (w === SEA_LEVEL_CODE) {
        // Sea-level water goes only where it is a pond of one sample: a
        // strait or an inlet one sample wide still shows the coast, but a
        // river node carved below 0 m in a lowland is sea-coded too, and
        // those drew a grid of pale dots on every continent from orbit.
        wide = wetNeighbour(W, x, y);
      } else {
        for (let b = 0; b < 4 && !wide; b++) {
          const dx = b & 1 ? 1 : -1, dy = b & 2 ? 1 : -1;
          wide = inland(x + dx, y) && inland(x, y + dy) && inland(x + dx, y + dy);
        }
      }
      if (wide) continue;
      if (!out) out = new Int16Array(E * E).fill(-1);
      out[y * E + x] = P[y * E + x];
      for (const [dx, dy] of NEAR) {
        if (x + dx < 0 || y + dy < 0 || x + dx >= E || y + dy >= E || wet(x + dx, y + dy)) continue;
        out[y * E + x] = P[(y + dy) * E + x + dx];
        break;
      }
    }
  }
  return out;
}

/** The chunk with its hidden samples dry and in their neighbours' colours (a copy; the input is untouched). */
export function withoutThinWater(chunk, hide) {
  if (!hide) return chunk;
  const water = chunk.water.slice(), palette = chunk.palette.slice();
  for (let i = 0; i < E * E; i++) {
    if (hide[i] < 0) continue;
    water[i] = 0;
    palette[i] = hide[i];
  }
  return { ...chunk, water, palette };
}

/**
 * Recolours a terrain mesh's hidden vertices in place: the (n+1)^2 grid at the
 * stride, then the skirts (top, bottom, left, right edges), as mesh.c orders them.
 * @param {{paletteIndex: Uint8Array, colors: Uint8Array, vertexCount: number}} mesh
 * @param {number} stride the mesh's stride
 * @param {Int16Array} hide from thinWater
 * @param {Uint8Array} rgb the mesh palette, 3 bytes per index
 */
export function recolourMesh(mesh, stride, hide, rgb) {
  const n = CHUNK_CORE / stride, row = n + 1, grid = row * row;
  const put = (v, k) => {
    mesh.paletteIndex[v] = k;
    mesh.colors[4 * v] = rgb[3 * k]; mesh.colors[4 * v + 1] = rgb[3 * k + 1]; mesh.colors[4 * v + 2] = rgb[3 * k + 2];
  };
  for (let gy = 0; gy <= n; gy++) {
    for (let gx = 0; gx <= n; gx++) {
      const k = hide[gy * stride * E + gx * stride];
      if (k >= 0) put(gy * row + gx, k);
    }
  }
  if (mesh.vertexCount < grid + 4 * row) return;
  for (let e = 0; e < 4; e++) {
    for (let k = 0; k <= n; k++) {
      const gx = e < 2 ? k : (e === 2 ? 0 : n), gy = e < 2 ? (e === 0 ? 0 : n) : k;
      const h = hide[gy * stride * E + gx * stride];
      if (h >= 0) put(grid + e * row + k, h);
    }
  }
}

/**
 * Raises a relief map's heights at hidden samples to their water's surface: a
 * river bed carved below the sea beside its mouth would otherwise still read
 * as sea in a shader that compares heights with sea level.
 * @param {Float32Array} relief 257 x 257 x 4 (worker/maps/relief.js), height in w
 * @param {Int16Array} hide from thinWater
 * @param {{water: Uint16Array, heightQuantumM: number}} chunk the same chunk
 */
export function liftHidden(relief, hide, chunk) {
  for (let i = 0; i < E * E; i++) {
    // Dry samples (lone_biomes.js recolours them too) have no surface to lift to.
    if (hide[i] < 0 || chunk.water[i] === 0) continue;
    const level = (chunk.water[i] - SEA_LEVEL_CODE) * chunk.heightQuantumM;
    if (relief[4 * i + 3] < level) relief[4 * i + 3] = level;
  }
}
