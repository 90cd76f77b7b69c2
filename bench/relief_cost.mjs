// relief_cost.mjs - This module measures what the ranges layer costs in
// WebAssembly: world build and chunk generation of balanced against the same
// world with the ranges layer off (the `reference` preset), interleaved rep by
// rep in one process; prints min and median of each and their ratios.
//   node bench/relief_cost.mjs [reps] ['{"knob": value}']
import { loadCore } from '../wasm/ct.mjs';
import { benchKey, nowMs } from './common.mjs';

const reps = Number(process.argv[2] || 5);
const set = JSON.parse(process.argv[3] || '{}');   // overrides for the 'on' world
const core = await loadCore(new URL('../build/wasm/ct.wasm', import.meta.url));
const stat = (a) => { const s = [...a].sort((x, y) => x - y); return { min: s[0], med: s[s.length >> 1] }; };
const t = { on: { build: [], chunk: [] }, off: { build: [], chunk: [] } };
for (let r = 0; r < reps + 1; r++) {
  for (const [name, preset] of [['on', 'balanced'], ['off', 'reference']]) {
    let t0 = nowMs();
    const world = core.buildWorld(name === 'on' ? { preset, set } : { preset });
    const build = nowMs() - t0;
    const lod = 6;
    t0 = nowMs();
    for (let i = 0; i < 12; i++) world.chunk(benchKey(i, lod));
    const chunk = (nowMs() - t0) / 12;
    world.free();
    if (r > 0) { t[name].build.push(build); t[name].chunk.push(chunk); }   // rep 0 warms up
  }
}
for (const k of ['build', 'chunk']) {
  const on = stat(t.on[k]), off = stat(t.off[k]);
  console.log(`${k}: ranges on min ${on.min.toFixed(1)} med ${on.med.toFixed(1)} ms; off min ${off.min.toFixed(1)} ` +
    `med ${off.med.toFixed(1)} ms; ratio min ${(on.min / off.min).toFixed(3)} med ${(on.med / off.med).toFixed(3)}`);
}
