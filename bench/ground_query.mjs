// ground_query.mjs - This module measures the exact ground, the terrain raycast
// and colliders in WebAssembly on the page world (balanced, seed 42,
// surface_lod 12), interleaved rep by rep in one process: groundAt against
// sampleAt (one point sample) at the same random land points, level rays over
// 1 km of ground, rays from 100 km up at 45 degrees, and world.collider against world.mesh at stride 1 on the
// same chunk (generated once, so both time the mesh build). Prints min and
// median of each.
//   node bench/ground_query.mjs [reps] [points]
import { loadCore } from '../wasm/ct.mjs';
import { nowMs, summarize } from './common.mjs';

const reps = Number(process.argv[2] || 5);
const points = Number(process.argv[3] || 200);
const core = await loadCore(new URL('../build/wasm/ct.wasm', import.meta.url));
let t0 = nowMs();
const world = core.buildWorld({ preset: 'balanced', set: { seed: 42, surface_lod: 12 } });
console.log(`page world built in ${(nowMs() - t0).toFixed(0)} ms (surface_lod ${world.config.surface_lod})`);
const R = world.config.radius_m;

let seed = 7;
const rnd = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32; };
const land = [];
while (land.length < points) {
  const d = [rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1], l = Math.hypot(...d);
  if (l > 1 || l < 0.1) continue;
  if (!world.sampleAt(d).hasWater) land.push(d.map((x) => x / l));
}

/** A level ray 200 m over the ground at d, 1 km long, heading along a tangent. */
function levelRay(d) {
  const g = world.groundAt(d), up = d, any = Math.abs(up[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  const t = [up[1] * any[2] - up[2] * any[1], up[2] * any[0] - up[0] * any[2], up[0] * any[1] - up[1] * any[0]];
  const tl = Math.hypot(...t), r = R + g.heightM + 200;
  return { o: up.map((x) => x * r), dir: t.map((x) => x / tl) };
}
const rays = land.slice(0, 40).map(levelRay);
/** A ray from 100 km up, 45 degrees off the vertical, aimed at the ground at d. */
function orbitRay(d) {
  const { dir: t } = levelRay(d), g = world.groundAt(d), p = d.map((x) => x * (R + g.heightM));
  const o = p.map((x, i) => x + 100e3 * d[i] + 100e3 * t[i]);
  const dir = p.map((x, i) => x - o[i]), l = Math.hypot(...dir);
  return { o, dir: dir.map((x) => x / l), maxM: 2 * l };
}
const orbit = land.slice(40, 60).map(orbitRay);
const meshKey = world.keyAt(land[0]).key;

const times = { groundAt: [], sampleAt: [], raycast: [], orbit: [], collider: [], mesh: [], meshCopy: [] };
let hits = 0;
const parts = [
  () => { for (const d of land) { const t = nowMs(); world.groundAt(d); times.groundAt.push(1000 * (nowMs() - t)); } },
  () => { for (const d of land) { const t = nowMs(); world.sampleAt(d); times.sampleAt.push(1000 * (nowMs() - t)); } },
  () => {
    for (const r of rays) {
      const t = nowMs(), h = world.raycast(r.o, r.dir, 1000);
      times.raycast.push(nowMs() - t);
      hits += h ? 1 : 0;
    }
  },
  () => { for (const r of orbit) { const t = nowMs(); world.raycast(r.o, r.dir, r.maxM); times.orbit.push(nowMs() - t); } },
  () => { const t = nowMs(); world.collider(meshKey); times.collider.push(nowMs() - t); },
  () => { const t = nowMs(); world.mesh(meshKey); times.mesh.push(nowMs() - t); },
  () => { const t = nowMs(); world.mesh(meshKey, { copy: true }); times.meshCopy.push(nowMs() - t); },
];
parts.forEach((p) => p());   // warm-up (and the chunk generated once)
for (const k of Object.keys(times)) times[k].length = 0;
hits = 0;
for (let r = 0; r < reps; r++) {
  for (let i = 0; i < parts.length; i++) parts[(i + r) % parts.length]();
}
const line = (name, unit, s) => console.log(`${name.padEnd(24)} min ${s.min.toFixed(unit === 'us' ? 1 : 2)} ${unit}, ` +
  `median ${s.median.toFixed(unit === 'us' ? 1 : 2)} ${unit} (n ${s.n})`);
line('groundAt (land)', 'us', summarize(times.groundAt));
line('sampleAt (same points)', 'us', summarize(times.sampleAt));
line('raycast 1 km level', 'ms', summarize(times.raycast));
console.log(`  (${hits} of ${times.raycast.length} level rays hit rising ground within 1 km)`);
line('raycast from orbit 45deg', 'ms', summarize(times.orbit));
line('collider stride 1', 'ms', summarize(times.collider));
line('mesh stride 1 (views)', 'ms', summarize(times.mesh));
line('mesh stride 1 (copy)', 'ms', summarize(times.meshCopy));
world.free();
