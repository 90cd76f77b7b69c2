#!/usr/bin/env node
// This module is `npm run landforms` (and `make landforms`): it measures
// land the way hydrologists measure a DEM (fill depressions, route D8, count)
// on whole land chunks of the demo page's world, for several seeds, after
// measuring a stream-power landscape the same way as a calibration. The
// native half (build/native/landforms, from tools/landforms*.c) builds each
// world and measures; this half runs it per seed and prints a table or JSON.
// Definitions: docs/generation.md, "Landforms".
//
//   npm run landforms -- [--seeds 42,7,1234] [--preset NAME] [--set name=value]...
//                        [--lods 9,10] [--chunks 8] [--channel-km2 1]
//                        [--fit-min 4] [--fit-max 512] [--json]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binary = path.join(root, 'build', 'native', 'landforms');

/** Parses argv into options; throws an Error with a usage hint on bad input. */
export function parseArgs(argv) {
  const o = { seeds: ['42', '7', '1234'], preset: 'balanced', sets: [], lods: '9,10', chunks: 8,
    channelKm2: null, fitMin: null, fitMax: null, json: false };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    const v = () => {
      if (k + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++k];
    };
    if (a === '--json') o.json = true;
    else if (a === '--seeds') {
      o.seeds = v().split(',');
      if (!o.seeds.every((s) => /^\d+$/.test(s))) throw new Error(`--seeds wants whole numbers, got "${argv[k]}"`);
    } else if (a === '--preset') o.preset = v();
    else if (a === '--set') o.sets.push(v());
    else if (a === '--lods') o.lods = v();
    else if (a === '--chunks') o.chunks = Number(v());
    else if (a === '--channel-km2') o.channelKm2 = v();
    else if (a === '--fit-min') o.fitMin = v();
    else if (a === '--fit-max') o.fitMax = v();
    else throw new Error(`unknown option ${a} (see the header of tools/landforms.mjs)`);
  }
  if (!Number.isInteger(o.chunks) || o.chunks < 1) throw new Error('--chunks wants a positive whole number');
  return o;
}

function buildNative() {
  const r = spawnSync('make', ['--no-print-directory', 'build/native/landforms'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the native tool failed:\n${r.stdout}${r.stderr}`);
}

/** Runs the native tool with args and returns its JSON. */
export function runNative(args) {
  const r = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`landforms ${args.join(' ')} failed: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout);
}

function commonArgs(o) {
  const out = [];
  if (o.channelKm2 !== null) out.push('--channel-km2', o.channelKm2);
  if (o.fitMin !== null) out.push('--fit-min', o.fitMin);
  if (o.fitMax !== null) out.push('--fit-max', o.fitMax);
  return out;
}

const fix = (v, d) => (v === null || v === undefined ? '-' : v.toFixed(d));
const range = (xs, d) => {
  const v = xs.filter((x) => x !== null);
  return v.length ? `${Math.min(...v).toFixed(d)}-${Math.max(...v).toFixed(d)}` : '-';
};

/** A markdown table: one row per world and LOD, pooled figures and the range over chunks. */
export function formatTable(out) {
  const rows = ['| world | LOD | chunks | pits > 2 m per 1,000 km2 | ponded share | beta | drainage density km/km2 |',
    '| --- | --- | --- | --- | --- | --- | --- |'];
  const s = out.sim;
  if (s) rows.push(`| stream-power ${s.n}x${s.n} | - | 1 | ${fix(s.pits_per_1000km2, 0)} | ${fix(s.ponded_share * 100, 2)}% | ${fix(s.beta, 3)} | ${fix(s.drainage_density_km_per_km2, 2)} |`);
  for (const w of out.worlds) {
    for (const l of w.lods) {
      const e = l.each;
      rows.push(`| ${w.world.preset} seed=${w.world.seed} | ${l.lod} | ${l.chunks} | ${fix(l.pits_per_1000km2, 0)} (${range(e.map((c) => c.pits_per_1000km2), 0)}) | ` +
        `${fix(l.ponded_share * 100, 2)}% (${range(e.map((c) => c.ponded_share * 100), 1)}) | ${fix(l.beta, 3)} (${range(e.map((c) => c.beta), 2)}) | ` +
        `${fix(l.drainage_density_km_per_km2, 2)} (${range(e.map((c) => c.drainage_density_km_per_km2), 2)}) |`);
    }
  }
  return rows.join('\n');
}

export function main(argv) {
  const o = parseArgs(argv);
  buildNative();
  const sim = runNative(['--sim', '--no-world', ...commonArgs(o)]);
  const out = { fit_sample_areas: sim.fit_sample_areas, channel_km2: sim.channel_km2, pit_depth_m: sim.pit_depth_m,
    ponded_m: sim.ponded_m, sim: sim.sim, worlds: [] };
  for (const seed of o.seeds) {
    const args = ['--preset', o.preset, ...o.sets.flatMap((x) => ['--set', x]), '--set', `seed=${seed}`,
      '--lods', o.lods, '--chunks', String(o.chunks), ...commonArgs(o)];
    const t0 = Date.now();
    const r = runNative(args);
    process.stderr.write(`landforms: seed ${seed} measured in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    out.worlds.push({ world: r.world, lods: r.lods });
  }
  if (o.json) console.log(JSON.stringify(out, null, 1));
  else {
    console.log(formatTable(out));
    console.log(`\nPooled over the chunks (range over single chunks in brackets). beta fitted over ` +
      `${out.fit_sample_areas[0]}-${out.fit_sample_areas[1]} sample areas; channels drain >= ${out.channel_km2} km2.`);
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(`landforms: ${e.message}`);
    process.exit(1);
  }
}
