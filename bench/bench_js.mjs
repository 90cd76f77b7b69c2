// bench_js.mjs - This module is the plain-JavaScript yardstick: what a games
// programmer would write instead of our core, a 6-octave 3D simplex fBm (the
// simplex-noise npm package) over the same 257x257 sample directions as one
// chunk. One scalar per sample and nothing else (no water, biomes, palette,
// macro field or encoding), so it is a lower bound for a JS generator of
// comparable detail. bench/interleaved.mjs times it next to the WASM runs.
import { createNoise3D } from 'simplex-noise';

/** Deterministic PRNG for the permutation table (mulberry32). */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * fBm over precomputed points: octave k at frequency freq*2^k, amplitude 0.5^k,
 * normalised by the amplitude sum; written into out.
 * @param {(x: number, y: number, z: number) => number} noise3D
 * @param {Float64Array} pos   3 per sample, unit directions
 * @param {Float32Array} out
 * @param {number} freq
 * @param {number} [octaves=6]
 */
export function fbmGrid(noise3D, pos, out, freq, octaves = 6) {
  let norm = 0;
  for (let k = 0, a = 1; k < octaves; k++, a *= 0.5) norm += a;
  for (let s = 0, o = 0; s < out.length; s++, o += 3) {
    const x = pos[o], y = pos[o + 1], z = pos[o + 2];
    let sum = 0, f = freq, a = 1;
    for (let k = 0; k < octaves; k++) {
      sum += a * noise3D(x * f, y * f, z * f);
      f *= 2; a *= 0.5;
    }
    out[s] = sum / norm;
  }
}

/**
 * A function that runs the fBm over one chunk's directions (from
 * chunkDirections); its .what describes it for bench/results.json.
 * @param {{lod?: number, octaves?: number}} [opts]
 */
export function makeFbm({ lod = 6, octaves = 6 } = {}) {
  const noise3D = createNoise3D(mulberry32(42));
  const out = new Float32Array(257 * 257);
  const freq = 64 * 2 ** lod;
  let check = 0;
  const run = (dirs) => { fbmGrid(noise3D, dirs, out, freq, octaves); check += out[12345]; return check; };
  run.what = `${octaves}-octave 3D simplex fBm (simplex-noise 4.0.3) over the 257x257 unit directions ` +
    'of the same chunk, one Float32 per sample; directions precomputed outside the timer';
  return run;
}
