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
//                        [--lods 9,10] [--chunks 24] [--channel-km2 1]
//                        [--fit-min 4] [--fit-max 512] [--json]
//                        [--coast [--coast-width 8192] [--lat-max 60]] [--png DIR]
//
// --png DIR writes DIR/landforms_seedS_lodL.png: the first eight chunks of
// each seed and LOD side by side, one pixel a sample (tools/landforms_map.c:
// shaded relief, ponded samples blue, samples raised over 2 m red, channels
// dark blue).
//
// --coast adds the coastline's box-counting dimension of each world and of
// Earth on one equirectangular grid (terrain-stats' raster and measure:
// tools/terrain_stats_raster.c, coast_measure.mjs, earth_raster.mjs), under
// both water rules: land is a sample with no water (lakes and rivers are
// water, as `npm run terrain-stats` reports it) and land is a sample with no
// sea (ocean coasts only), with the box counts N(s) behind both.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureCoast } from './coast_measure.mjs';
import { earthRaster } from './earth_raster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binary = path.join(root, 'build', 'native', 'landforms');
const cacheDir = path.join(root, 'build', 'terrain_stats');

/** Parses argv into options; throws an Error with a usage hint on bad input. */
export function parseArgs(argv) {
  const o = { seeds: ['42', '7', '1234'], preset: 'balanced', sets: [], lods: '9,10', chunks: 24,
    channelKm2: null, fitMin: null, fitMax: null, json: false, coast: false, coastWidth: 8192, latMax: 60, png: null };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    const v = () => {
      if (k + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++k];
    };
    if (a === '--json') o.json = true;
    else if (a === '--coast') o.coast = true;
    else if (a === '--png') o.png = v();
    else if (a === '--coast-width') o.coastWidth = Number(v());
    else if (a === '--lat-max') o.latMax = Number(v());
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
  if (!Number.isInteger(o.coastWidth) || o.coastWidth < 64 || o.coastWidth % 2) throw new Error('--coast-width wants an even whole number >= 64');
  if (!Number.isInteger(o.latMax) || o.latMax < 1 || o.latMax > 90) throw new Error('--lat-max wants whole degrees 1..90');
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

/** Box dimension and counts of one raster under one water rule. */
function coastFigures(raster, grid, radiusKm, inlandIsWater) {
  const m = measureCoast(raster, grid, { radiusKm, inlandIsWater });
  return { dimension: m.dimension, fit_px: m.fit, boxes: m.boxes.map((b) => [b.size, b.boxes]) };
}

/** A markdown table of the coast box dimensions against Earth's. */
export function formatCoast(out) {
  const c = out.coast;
  const rows = [`| world | box dimension, land = no water | land = no sea | Earth | world - Earth |`,
    '| --- | --- | --- | --- | --- |'];
  for (const w of out.worlds) {
    rows.push(`| ${w.world.preset} seed=${w.world.seed} | ${fix(w.coast.all.dimension, 3)} | ${fix(w.coast.sea.dimension, 3)} | ` +
      `${fix(c.earth.dimension, 3)} | ${fix(w.coast.all.dimension - c.earth.dimension, 3)} |`);
  }
  return `${rows.join('\n')}\n\nGrid ${c.grid.width}x${c.grid.height}, |lat| <= ${c.grid.lat_max_deg}, ` +
    `boxes of ${c.earth.fit_px[0]}-${c.earth.fit_px[1]} pixels; Earth: ${c.earth.source}.`;
}

/** One flat row per world and LOD, pooled figures only (for tables elsewhere, such as the README's). */
export function summary(out) {
  const rows = [];
  for (const w of out.worlds) {
    for (const l of w.lods) {
      rows.push({ preset: w.world.preset, seed: w.world.seed, lod: l.lod, chunks: l.chunks,
        pits_per_1000km2: l.pits_per_1000km2, ponded_share: l.ponded_share, beta: l.beta,
        drainage_density_km_per_km2: l.drainage_density_km_per_km2,
        coast_dimension: w.coast ? w.coast.all.dimension : null,
        coast_dimension_sea: w.coast ? w.coast.sea.dimension : null });
    }
  }
  return rows;
}

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
  const out = { meta: { algorithm_version: sim.algorithm_version, args: argv }, fit_sample_areas: sim.fit_sample_areas,
    channel_km2: sim.channel_km2, pit_depth_m: sim.pit_depth_m, ponded_m: sim.ponded_m, sim: sim.sim, worlds: [] };
  const grid = { width: o.coastWidth, height: o.coastWidth / 2, latMax: o.latMax };
  if (o.coast) {
    const e = earthRaster(grid, cacheDir);
    out.coast = { grid: { width: grid.width, height: grid.height, lat_max_deg: grid.latMax },
      earth: { source: 'world-atlas land-10m (Natural Earth 1:10m)', ...coastFigures(e.raster, grid, 6371, true) } };
  }
  for (const seed of o.seeds) {
    const args = ['--preset', o.preset, ...o.sets.flatMap((x) => ['--set', x]), '--set', `seed=${seed}`,
      '--lods', o.lods, '--chunks', String(o.chunks), ...commonArgs(o)];
    const rasterPath = path.join(cacheDir, `landforms_${process.pid}.bin`);
    if (o.png) {
      mkdirSync(o.png, { recursive: true });
      args.push('--png', path.join(o.png, `landforms_seed${seed}`));
    }
    if (o.coast) {
      mkdirSync(cacheDir, { recursive: true });
      args.push('--raster', rasterPath, '--width', String(grid.width), '--height', String(grid.height),
        '--lat-max', String(grid.latMax));
    }
    const t0 = Date.now();
    const r = runNative(args);
    const w = { world: r.world, lods: r.lods };
    if (o.coast) {
      const raster = new Uint8Array(readFileSync(rasterPath));
      rmSync(rasterPath, { force: true });
      const radiusKm = r.raster.radius_m / 1000;
      w.coast = { all: coastFigures(raster, grid, radiusKm, true), sea: coastFigures(raster, grid, radiusKm, false) };
    }
    process.stderr.write(`landforms: seed ${seed} measured in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    out.worlds.push(w);
  }
  out.summary = summary(out);
  if (o.json) console.log(JSON.stringify(out, null, 1));
  else {
    console.log(formatTable(out));
    console.log(`\nPooled over the chunks (range over single chunks in brackets). beta fitted over ` +
      `${out.fit_sample_areas[0]}-${out.fit_sample_areas[1]} sample areas; channels drain >= ${out.channel_km2} km2.`);
    if (o.coast) console.log(`\n${formatCoast(out)}`);
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
