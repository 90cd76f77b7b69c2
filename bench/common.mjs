// common.mjs - This module holds what every benchmark part shares: the clock,
// min/median/p95/max summaries, the chunk key list and the sample directions
// of a chunk for the plain-JavaScript comparison.

/** Milliseconds from a monotonic clock. */
export const nowMs = () => performance.now();

/**
 * CPU milliseconds (user + system) of this process: steadier than wall time
 * when other work shares the machine. Includes V8's helper threads (GC,
 * compiler), so it is an upper bound for the main thread.
 */
export function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Summary of a list of timings (or other numbers).
 * @param {number[]} xs
 * @returns {{n: number, min: number, median: number, p95: number, max: number, mean: number}}
 */
export function summarize(xs) {
  const s = [...xs].sort((a, b) => a - b), n = s.length;
  if (!n) return { n: 0, min: null, median: null, p95: null, max: null, mean: null };
  // Nearest-rank percentiles: the same rule as bench_native.c.
  const rank = (p) => s[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))];
  return { n, min: s[0], median: rank(0.5), p95: rank(0.95), max: s[n - 1],
    mean: s.reduce((a, b) => a + b, 0) / n };
}

/**
 * The i-th benchmark chunk key at lod: spread over all faces and both halves
 * of each face.
 * @param {number} i
 * @param {number} lod
 */
export function benchKey(i, lod) {
  const side = 2 ** lod;
  return { face: i % 6, lod, x: (i * 37 + 11) % side, y: (i * 53 + 5) % side };
}

/**
 * Unit directions of the 257x257 samples of a chunk (row-major, 3 per sample),
 * by the cube-map transform of DESIGN.md. Float64 like the core; only used to
 * feed the plain-JavaScript noise on the very same points.
 * @param {{face: number, lod: number, x: number, y: number}} key
 */
export function chunkDirections(key) {
  const n = 256 * 2 ** key.lod, out = new Float64Array(3 * 257 * 257);
  let o = 0;
  for (let j = 0; j <= 256; j++) {
    for (let i = 0; i <= 256; i++) {
      const d = faceDirection(key.face, (key.x * 256 + i) / n, (key.y * 256 + j) / n);
      out[o++] = d[0]; out[o++] = d[1]; out[o++] = d[2];
    }
  }
  return out;
}

/**
 * Unit direction of face coordinate (s, t) in [0, 1] on a face, by the
 * cube-map transform of DESIGN.md.
 * @param {number} face @param {number} s @param {number} t
 * @returns {[number, number, number]}
 */
export function faceDirection(face, s, t) {
  const u = 2 * s - 1, v = 2 * t - 1;
  let x, y, z;
  switch (face) {
    case 0: x = 1; y = -v; z = -u; break;
    case 1: x = -1; y = -v; z = u; break;
    case 2: x = u; y = 1; z = v; break;
    case 3: x = u; y = -1; z = -v; break;
    case 4: x = u; y = -v; z = 1; break;
    default: x = -u; y = -v; z = -1; break;
  }
  const len = Math.sqrt(x * x + y * y + z * z);
  return [x / len, y / len, z / len];
}

/** Round for tables: 3 significant-ish digits. */
export function fmt(x, digits = 2) {
  if (x == null || Number.isNaN(x)) return '-';
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(Math.max(0, digits - 1));
  return x.toFixed(digits);
}
