// bake.mjs - This module measures `terrain bake` natively: the per-tile cost
// of land, shore and sea tiles and the hours of LODs 8, 10 and 12 of the page
// world (build/native/bake_cost, CPU time), then the same tile set baked end
// to end (files written) by one shard on one core against two shards on two
// cores, alternating run by run, wall time, min and median.
//
//   node bench/bake.mjs [reps]        (make all first; default 5 reps)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
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

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** terrain bake ARGS: its stdout and CPU seconds (user + system, with /usr/bin/time; else null). */
function run(args) {
  const cpuFile = path.join(os.tmpdir(), `ct-bake-cpu-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const cmd = [path.join(root, 'terrain'), 'bake', ...args];
  const argv = TIME ? [TIME, '-f', '%U %S', '-o', cpuFile, ...cmd] : cmd;
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('close', (status) => {
      if (status !== 0) return reject(new Error(`terrain bake ${args.join(' ')}: exit ${status}`));
      let cpu = null;
      if (TIME) {
        cpu = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).reduce((a, b) => a + Number(b), 0);
        rmSync(cpuFile, { force: true });
      }
      return resolve({ out, cpu });
    });
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
  return { ms, tBake, split: outs.map((o) => Number(o.out.match(/: (\d+) tiles/)[1])), cpu: outs.map((o) => o.cpu) };
}

const load0 = os.loadavg();
const times = { 1: [], 2: [] };
let split = null;
const cpus = [];
for (let r = 0; r < reps; r++) {
  for (const n of r % 2 ? [2, 1] : [1, 2]) {
    const res = await bakeWith(n);
    times[n].push(res.ms);
    if (n === 2) { split = res.split; cpus.push(res.cpu); }
  }
}
const stat = (a) => { const s = [...a].sort((x, y) => x - y); return { min: s[0], med: s[s.length >> 1] }; };
const one = stat(times[1]), two = stat(times[2]);
const tiles = 2 * (1 + 4 + 16 + 64);
console.log(`end to end (+X,+Z LODs 0-3 of the page world, ${tiles} tiles, .ctt written, merge included), ${reps} runs each, alternating:`);
console.log(`  1 shard on 1 core: min ${(one.min / 1000).toFixed(2)} s, median ${(one.med / 1000).toFixed(2)} s (${(tiles / one.med * 1000).toFixed(1)} tiles/s)`);
console.log(`  2 shards on 2 cores: min ${(two.min / 1000).toFixed(2)} s, median ${(two.med / 1000).toFixed(2)} s (tiles per shard ${split.join(' + ')})`);
if (TIME) {
  const bound = cpus.map((c) => (c[0] + c[1]) / Math.max(c[0], c[1]));
  console.log(`  CPU per shard (user + system): ${cpus.map((c) => c.map((x) => x.toFixed(2)).join(' s + ')).join(' s; ')} s; the split allows ${Math.min(...bound).toFixed(2)}-${Math.max(...bound).toFixed(2)}x on two idle cores`);
}
console.log(`  load average before/after: ${load0.map((x) => x.toFixed(1)).join(' ')} / ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
console.log(`  speed-up: ${(one.min / two.min).toFixed(2)}x on the minima, ${(one.med / two.med).toFixed(2)}x on the medians`);
