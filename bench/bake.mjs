// bake.mjs - This module measures `terrain bake` natively: the per-tile cost
// of land, shore and sea tiles and the hours of LODs 8, 10 and 12 of the page
// world (build/native/bake_cost, CPU time), then the same tile set baked end
// to end (files written) by one shard on one core against two shards on two
// cores, alternating run by run, wall time, min and median.
//
//   node bench/bake.mjs [reps]        (make all first; default 5 reps)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const reps = Number(process.argv[2] || 5);
const TILES = ['--preset', 'balanced', '--set', 'surface_lod=12', '--faces', '+X,+Z', '--lods', '0-3', '--quiet'];

const mk = spawnSync('make', ['--no-print-directory', 'terrain', 'build/native/bake_cost'], { cwd: root, encoding: 'utf8' });
if (mk.status !== 0) { console.error(mk.stdout + mk.stderr); process.exit(1); }
const cost = spawnSync(path.join(root, 'build/native/bake_cost'), [String(Math.max(reps, 9))], { encoding: 'utf8' });
process.stdout.write(cost.stdout + cost.stderr);

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'terrain'), ['bake', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('close', (status) => (status === 0 ? resolve(out) : reject(new Error(`terrain bake ${args.join(' ')}: exit ${status}`))));
  });
}

/** One bake of the set in `shards` processes at once, then the merge: wall ms and tiles per shard. */
async function bakeWith(shards) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ct-bake-bench-'));
  const t0 = performance.now();
  const outs = await Promise.all(Array.from({ length: shards }, (_, i) => run([...TILES, '--out', dir, '--shard', `${i}/${shards}`])));
  const tBake = performance.now() - t0;
  await run(['--merge', dir, '--quiet']);
  const ms = performance.now() - t0;
  rmSync(dir, { recursive: true, force: true });
  return { ms, tBake, split: outs.map((o) => Number(o.match(/: (\d+) tiles/)[1])) };
}

const load0 = os.loadavg();
const times = { 1: [], 2: [] };
let split = null;
for (let r = 0; r < reps; r++) {
  for (const n of r % 2 ? [2, 1] : [1, 2]) {
    const res = await bakeWith(n);
    times[n].push(res.ms);
    if (n === 2) split = res.split;
  }
}
const stat = (a) => { const s = [...a].sort((x, y) => x - y); return { min: s[0], med: s[s.length >> 1] }; };
const one = stat(times[1]), two = stat(times[2]);
const tiles = 2 * (1 + 4 + 16 + 64);
console.log(`end to end (+X,+Z LODs 0-3 of the page world, ${tiles} tiles, .ctt written, merge included), ${reps} runs each, alternating:`);
console.log(`  1 shard on 1 core: min ${(one.min / 1000).toFixed(2)} s, median ${(one.med / 1000).toFixed(2)} s (${(tiles / one.med * 1000).toFixed(1)} tiles/s)`);
console.log(`  2 shards on 2 cores: min ${(two.min / 1000).toFixed(2)} s, median ${(two.med / 1000).toFixed(2)} s (tiles per shard ${split.join(' + ')})`);
console.log(`  load average before/after: ${load0.map((x) => x.toFixed(1)).join(' ')} / ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
console.log(`  speed-up: ${(one.min / two.min).toFixed(2)}x on the minima, ${(one.med / two.med).toFixed(2)}x on the medians`);
