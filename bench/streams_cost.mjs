// streams_cost.mjs - This module times page-world chunks (balanced, seed 42,
// surface_lod 12) of three WebAssembly builds in ONE Node process: another
// tree's build A (say main's, from `git archive main`), this tree's with
// the streams on (stream_depth_m, default 16) and this tree's with them off,
// interleaved rep by rep (the starting build rotating), on a land, a sea and
// a shore chunk at LOD 12, 10, 8, 6 and 3, and prints per chunk the min and
// median of the per-rep ratios to A. Times are the process's CPU time
// (process.cpuUsage), steadier than wall time on a shared machine.
//
//   node bench/streams_cost.mjs OTHER_TREE [--reps 7] [--depth 16]
//
// OTHER_TREE must hold build/wasm/ct.wasm (make wasm) and wasm/ct.mjs. The
// keys were sorted into classes by their dry share in seed 42's page world
// (land >= 95% dry, sea <= 5%, else shore), as bench/chunk_classes.mjs does.
import { pathToFileURL, fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const KEYS = [
  [12, 'land', 2, 3558, 554], [12, 'sea', 0, 0, 1080], [12, 'shore', 0, 1986, 288],
  [10, 'land', 0, 0, 56], [10, 'sea', 1, 755, 817], [10, 'shore', 0, 496, 72],
  [8, 'land', 1, 243, 49], [8, 'sea', 0, 0, 56], [8, 'shore', 0, 124, 18],
  [6, 'land', 0, 0, 56], [6, 'sea', 1, 51, 49], [6, 'shore', 0, 31, 4],
  [3, 'land', 4, 2, 2], [3, 'sea', 3, 2, 3], [3, 'shore', 0, 3, 0],
];

function parseArgs(argv) {
  const o = { other: null, reps: 7, depth: 16 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--reps') o.reps = Number(argv[++i]);
    else if (argv[i] === '--depth') o.depth = Number(argv[++i]);
    else o.other = argv[i];
  }
  if (!o.other || !(o.reps > 0) || !(o.depth > 0)) {
    console.error('usage: node bench/streams_cost.mjs OTHER_TREE [--reps 7] [--depth 16]');
    process.exit(2);
  }
  return o;
}

async function load(tree) {
  const { loadCore } = await import(pathToFileURL(path.join(tree, 'wasm/ct.mjs')).href);
  return loadCore(readFileSync(path.join(tree, 'build/wasm/ct.wasm')));
}

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

/** Generation only: forget the cached key so the World regenerates. */
function generate(world, key) {
  world._chunkKey = null;
  const t = cpuMs();
  world._generate(key);
  return cpuMs() - t;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const [other, ours] = [await load(path.resolve(o.other)), await load(here)];
  const page = { surface_lod: 12 };
  const worlds = [other.buildWorld({ preset: 'balanced', set: page }),
    ours.buildWorld({ preset: 'balanced', set: { ...page, stream_depth_m: o.depth } }),
    ours.buildWorld({ preset: 'balanced', set: page })];
  try {
    for (const w of worlds) generate(w, { face: 2, lod: 12, x: 3558, y: 554 });   // warm
    console.log(`page world, seed 42, ${o.reps} reps; ratios to A, min / median of per-rep ratios`);
    for (const [lod, cls, face, x, y] of KEYS) {
      const key = { face, lod, x, y }, t = [[], [], []];
      for (let r = 0; r < o.reps; r++) {
        for (let j = 0; j < 3; j++) { const b = (j + r) % 3; t[b].push(generate(worlds[b], key)); }
      }
      const ratio = (b) => {
        const q = t[b].map((v, i) => v / t[0][i]);
        return `${Math.min(...q).toFixed(2)} / ${median(q).toFixed(2)}`;
      };
      const where = `LOD ${String(lod).padStart(2)} ${cls.padEnd(5)} ${face}/${x}/${y}`;
      console.log(`${where}: A ${median(t[0]).toFixed(1)} ms, streams on ${ratio(1)}, off ${ratio(2)}`);
    }
  } finally {
    for (const w of worlds) w.free();
  }
}

main();
