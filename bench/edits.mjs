// edits.mjs - This module measures edit sets in WebAssembly (docs/edits.md) on
// the page world (balanced, seed 42, surface_lod 12), interleaved rep by rep
// in one process, min and median of each:
//   - withEdits with 1,000 edits spread over the land (400 pads with a height,
//     300 craters, 290 brushes, 10 paths of 500 m, whose profiles sample the
//     ground at 51 stations each), goal 20 ms; the same set with brushes for
//     its paths (nothing sampled); and with its 400 pads at the ground's
//     height (each samples the ground at its centre);
//   - a land chunk no edit reaches, on the edited world against the base
//     (goal at most 1.05x);
//   - a land chunk that 10 edits of every kind reach (goal at most 1.3x).
// Each chunk is generated afresh (the World's reuse of the last key is
// forgotten before every call). Times are this process's CPU time, steadier
// than wall time on a shared machine (common.mjs cpuMs).
//   node bench/edits.mjs [reps]
import { loadCore } from '../wasm/ct.mjs';
import { nowMs, cpuMs, summarize } from './common.mjs';

const reps = Number(process.argv[2] || 7);
const core = await loadCore(new URL('../build/wasm/ct.wasm', import.meta.url));
let t0 = nowMs();
const world = core.buildWorld({ preset: 'balanced', set: { seed: 42, surface_lod: 12 } });
console.log(`page world built in ${(nowMs() - t0).toFixed(0)} ms (surface_lod ${world.config.surface_lod})`);
const R = world.config.radius_m;

let seed = 11;
const rnd = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32; };
const unit = (a) => { const l = Math.hypot(a[0], a[1], a[2]); return [a[0] / l, a[1] / l, a[2] / l]; };
const tangent = (c) => unit([c[1] * 0.3 - c[2] * 0.8, c[2] * 0.5 - c[0] * 0.3, c[0] * 0.8 - c[1] * 0.5]);
const along = (c, t, m) => unit([c[0] + t[0] * m / R, c[1] + t[1] * m / R, c[2] + t[2] * m / R]);

const land = [];
while (land.length < 1000) {
  const d = [rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1], l = Math.hypot(...d);
  if (l > 1 || l < 0.1) continue;
  if (!world.sampleAt(d).hasWater) land.push(d.map((x) => x / l));
}
const big = land.map((c, i) => {
  if (i < 400) return { kind: 'flatten', center: c, radiusM: 80, blendM: 60, heightM: 120 };
  if (i < 700) return { kind: 'crater', center: c, radiusM: 150, depthM: 20, rimM: 5 };
  if (i < 990) return { kind: 'brush', center: c, radiusM: 100, deltaM: 4 };
  return { kind: 'path', points: [c, along(c, tangent(c), 500)], widthM: 10, maxGradeDeg: 8 };
});

// A land chunk for the 10 edits, and one no edit of either set reaches.
const lod = world.config.surface_lod;
const { key: touchedKey } = world.keyAt(land[0], lod);
const mid = core.keyDirection(touchedKey, 128, 128), t = tangent(mid), n = unit([
  mid[1] * t[2] - mid[2] * t[1], mid[2] * t[0] - mid[0] * t[2], mid[0] * t[1] - mid[1] * t[0]]);
const at = (x, y) => unit([0, 1, 2].map((k) => mid[k] + (t[k] * x + n[k] * y) / R));
const ten = [
  { kind: 'flatten', center: at(-400, -300), radiusM: 150, blendM: 100 },
  { kind: 'flatten', center: at(300, 400), radiusM: 100, blendM: 80, heightM: 200 },
  { kind: 'flatten', center: at(600, -500), radiusM: 60, blendM: 60 },
  { kind: 'crater', center: at(0, 0), radiusM: 250, depthM: 30, rimM: 8 },
  { kind: 'crater', center: at(-700, 600), radiusM: 120, depthM: 15, rimM: 4 },
  { kind: 'brush', center: at(500, 100), radiusM: 200, deltaM: 12 },
  { kind: 'brush', center: at(-200, 700), radiusM: 150, deltaM: -8 },
  { kind: 'brush', center: at(800, 800), radiusM: 100, deltaM: 5 },
  { kind: 'path', points: [at(-1000, -900), at(0, -200), at(900, 300)], widthM: 8, maxGradeDeg: 6 },
  { kind: 'path', points: [at(-900, 900), at(900, -900)], widthM: 6, maxGradeDeg: 10 },
];
const sampled = big.map((e) => (e.kind === 'flatten' ? { ...e, heightM: undefined } : e));
const noPaths = big.map((e, i) => (e.kind === 'path' ? { kind: 'brush', center: land[i], radiusM: 100, deltaM: 4 } : e));
const edited = world.withEdits(big), tenWorld = world.withEdits(ten);
const listed = new Set([...edited.editedKeys(lod), ...tenWorld.editedKeys(lod)].map((k) => `${k.face}/${k.x}/${k.y}`));
let untouchedKey = null;
while (!untouchedKey) {
  const d = unit([rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1]), { key } = world.keyAt(d, lod);
  if (!world.sampleAt(d).hasWater && !listed.has(`${key.face}/${key.x}/${key.y}`)) untouchedKey = key;
}
console.log(`1,000-edit set: ${edited.editedKeys(lod).length} edited keys at LOD ${lod}; ` +
  `10-edit chunk ${JSON.stringify(touchedKey)} (${tenWorld.editedKeys(lod).length} keys); untouched ${JSON.stringify(untouchedKey)}`);

/** ms to generate key on w, fresh. */
function chunkMs(w, key) {
  w._chunkKey = null;   // forget the reuse of the last key: generate again
  const s = cpuMs();
  w.chunk(key);
  return cpuMs() - s;
}

const times = { applyNoPaths: [], applySampled: [], apply: [], baseFree: [], untouchedBase: [], untouchedEdited: [], tenBase: [], tenEdited: [], ratioFree: [], ratioTen: [] };
// warm-up
chunkMs(world, untouchedKey); chunkMs(edited, untouchedKey); chunkMs(tenWorld, touchedKey);
const bytes = core.encodeEdits(big), bytesSampled = core.encodeEdits(sampled), bytesNoPaths = core.encodeEdits(noPaths);
for (let r = 0; r < reps; r++) {
  let s = cpuMs();
  const w = world.withEdits(bytes);
  times.apply.push(cpuMs() - s);
  w.free();
  s = cpuMs();
  const ws = world.withEdits(bytesSampled);
  times.applySampled.push(cpuMs() - s);
  ws.free();
  s = cpuMs();
  const wn = world.withEdits(bytesNoPaths);
  times.applyNoPaths.push(cpuMs() - s);
  wn.free();
  const pair = (a, b, key, ra, rb, ratio) => {
    const first = r % 2 ? [a, ra] : [b, rb], second = r % 2 ? [b, rb] : [a, ra];
    const x = chunkMs(first[0], key), y = chunkMs(second[0], key);
    times[first[1]].push(x);
    times[second[1]].push(y);
    times[ratio].push(times[rb].at(-1) / times[ra].at(-1));
  };
  pair(world, edited, untouchedKey, 'untouchedBase', 'untouchedEdited', 'ratioFree');
  pair(world, tenWorld, touchedKey, 'tenBase', 'tenEdited', 'ratioTen');
}
const fmt = (xs, d = 2) => { const s = summarize(xs); return `min ${s.min.toFixed(d)}, median ${s.median.toFixed(d)}`; };
console.log(`withEdits, 1,000 edits that sample no ground (400 pads with heights, 300 craters, 300 brushes): ${fmt(times.applyNoPaths)} ms`);
console.log(`withEdits, 1,000 edits with 10 paths (goal 20 ms): ${fmt(times.apply)} ms`);
console.log(`withEdits, the same with 400 pads at the ground's height: ${fmt(times.applySampled)} ms`);
console.log(`untouched land chunk: base ${fmt(times.untouchedBase, 1)} ms, edited ${fmt(times.untouchedEdited, 1)} ms, ratio ${fmt(times.ratioFree, 3)} (goal <= 1.05)`);
console.log(`chunk with 10 edits: base ${fmt(times.tenBase, 1)} ms, edited ${fmt(times.tenEdited, 1)} ms, ratio ${fmt(times.ratioTen, 3)} (goal <= 1.3)`);
tenWorld.free();
edited.free();
world.free();
