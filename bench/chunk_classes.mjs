// chunk_classes.mjs - This module times chunk generation per class (land,
// sea, shore, river) on default worlds of several surface_lod values, native
// and WebAssembly, each against the plain-JS fBm on the same 257x257
// directions, rep by rep. Land and sea keys come from the bench key list;
// shore keys are found by descending from a LOD-6 shore chunk towards a
// coast sample pair, four LODs at a time; river keys are the chunks under the
// river graph's nodes (largest drainage first) that hold water.
import { benchKey, chunkDirections, faceDirection, summarize, nowMs, cpuMs } from './common.mjs';

export const CLASSES = ['land', 'sea', 'shore', 'river'];
const SAMPLES = 257 * 257;
const DESCENT_STEP = 4;   // LODs per step of the shore descent: a child is 16 samples of its parent

/** Land: at least 95% of the samples dry; sea: at most 5%; else shore. */
export function classifyWater(water) {
  let dry = 0;
  for (let s = 0; s < water.length; s++) dry += water[s] === 0;
  const f = dry / SAMPLES;
  return f >= 0.95 ? 'land' : f <= 0.05 ? 'sea' : 'shore';
}

const keyId = (k) => `${k.face}/${k.lod}/${k.x}/${k.y}`;
const keyCmd = (k) => `${k.face} ${k.lod} ${k.x} ${k.y}`;
const stat = (xs) => ({ ...summarize(xs), raw: xs });

/** Directions midway between dry/wet neighbours of a chunk, spread over it. */
function coastDirections(key, water, max) {
  const n = 256 * 2 ** key.lod, out = [];
  for (let j = 8; j <= 248 && out.length < max; j += 16) {
    for (let i = 0; i < 256; i++) {
      const a = water[j * 257 + i] === 0, b = water[j * 257 + i + 1] === 0;
      if (a !== b) { out.push(faceDirection(key.face, (key.x * 256 + i + 0.5) / n, (key.y * 256 + j) / n)); break; }
    }
  }
  return out;
}

/** Shore keys at the world's surface_lod, descending from LOD-6 shore chunks. */
function shoreKeys(world, want, scan) {
  const L = world.config.surface_lod, start = Math.min(6, L), found = new Map();
  for (let i = 0; i < scan && found.size < want; i++) {
    let frontier = [benchKey(i, start)];
    for (let lod = start; frontier.length && lod < L;) {
      const next = Math.min(L, lod + DESCENT_STEP), kids = [];
      for (const k of frontier) {
        const c = world.chunk(k);
        if (classifyWater(c.water) !== 'shore') continue;
        for (const d of coastDirections(k, c.water, 3)) kids.push(world.keyAt(d, next).key);
      }
      frontier = kids.slice(0, 3);
      lod = next;
    }
    for (const k of frontier) {
      if (found.size < want && !found.has(keyId(k)) && classifyWater(world.chunk(k).water) === 'shore') found.set(keyId(k), k);
    }
  }
  return [...found.values()];
}

/** Chunks under river nodes (not mouths), largest drainage area first, that hold water. */
export function riverKeys(world, want) {
  const r = world.rivers(), L = world.config.surface_lod, order = [], found = new Map();
  for (let i = 0; i < r.info.nodeCount; i++) if (r.flags[i] === 0) order.push(i);
  order.sort((a, b) => r.drainageAreaM2[b] - r.drainageAreaM2[a]);
  for (const i of order) {
    if (found.size >= want) break;
    const d = r.direction.subarray(3 * i, 3 * i + 3), k = world.keyAt([d[0], d[1], d[2]], L).key;
    if (found.has(keyId(k))) continue;
    const w = world.chunk(k).water;
    let wet = 0;
    for (let s = 0; s < w.length; s++) wet += w[s] !== 0;
    if (wet > 0 && wet < SAMPLES) found.set(keyId(k), k);
  }
  return [...found.values()];
}

/** Land and sea keys from the bench key list. */
function plainKeys(world, want, scan) {
  const L = world.config.surface_lod, got = { land: [], sea: [] };
  let scanned = 0;
  for (let i = 0; i < scan && (got.land.length < want || got.sea.length < want); i++, scanned++) {
    const key = benchKey(i, L), cls = classifyWater(world.chunk(key).water);
    if (got[cls] && got[cls].length < want) got[cls].push(key);
  }
  return { ...got, scanned };
}

/**
 * Chunk classes at each surface_lod in lods, interleaved native / WASM / JS.
 * @param {{native: {send: Function}, core: object, quick: boolean, lods: number[], perKey: number,
 *   reps: number, scan: number, timeJs: (dirs: Float64Array) => number, rotate: Function,
 *   log: (s: string) => void}} o
 */
export async function benchChunkClasses(o) {
  const out = [];
  for (const lod of o.lods) {
    const world = o.core.buildWorld({ preset: 'balanced', set: { surface_lod: lod } });
    try {
      await o.native.send(`world balanced ${world.config.macro_resolution} ${lod}`);
      const plain = plainKeys(world, o.perKey, o.scan);
      const keys = { land: plain.land, sea: plain.sea, shore: shoreKeys(world, o.perKey, o.scan), river: riverKeys(world, o.perKey) };
      const entry = { lod, scanned: plain.scanned, classes: {} };
      for (const cls of CLASSES) {
        entry.classes[cls] = await timeClass(o, world, keys[cls]);
        const c = entry.classes[cls];
        if (c.keys.length) {
          o.log(`LOD ${lod} ${cls} (${c.keys.length} keys): native ${c.native_ms.median.toFixed(2)}, ` +
            `wasm ${c.wasm_ms.median.toFixed(2)}, js fBm ${c.js_fbm_ms.median.toFixed(2)} ms`);
        } else {
          o.log(`LOD ${lod} ${cls}: no key found`);
        }
      }
      out.push(entry);
    } finally {
      world.free();
    }
  }
  return out;
}

async function timeClass(o, world, keys) {
  const dirs = keys.map(chunkDirections);
  const nat = [], was = [], js = [], natCpu = [], wasCpu = [], rNat = [], rJs = [];
  let same = 0, compared = 0;
  for (let r = 0; r < o.reps; r++) {
    for (let k = 0; k < keys.length; k++) {
      let a = 0, b = 0, j = 0, dn = null, dw = null;
      await o.rotate(r + k, [
        async () => { const x = await o.native.send(`chunk ${keyCmd(keys[k])}`); a = x.ms; natCpu.push(x.cpu_ms); dn = x.digest; },
        async () => {
          world._chunkKey = null;   // time a generation, not the World's reuse of its last chunk
          const c = cpuMs(), t = nowMs();
          dw = world.chunk(keys[k]).digest;
          b = nowMs() - t; wasCpu.push(cpuMs() - c);
        },
        async () => { j = o.timeJs(dirs[k]); },
      ]);
      nat.push(a); was.push(b); js.push(j); rNat.push(b / a); rJs.push(b / j);
      compared++; same += dn === dw;
    }
  }
  return { keys, reps: o.reps, native_ms: stat(nat), wasm_ms: stat(was), js_fbm_ms: stat(js),
    native_cpu_ms: stat(natCpu), wasm_cpu_ms: stat(wasCpu),
    wasm_over_native: stat(rNat), wasm_over_js: stat(rJs), digests_equal: `${same}/${compared}` };
}
