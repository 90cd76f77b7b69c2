#!/usr/bin/env node
// This module is `npm run terrain-stats` (and `make terrain-stats`): it
// measures worlds the way a player sees them and compares their coasts with
// Earth on the same grid. The native half (build/native/terrain_stats, from
// tools/terrain_stats*.c) builds each world and surveys it through the public
// API; this half rasterises Earth, measures both rasters with the same code
// (coast_measure.mjs) and prints a table or JSON.
//
//   npm run terrain-stats -- [--preset NAME] [--set name=value]... [--world FILE.ctw]
//                            [--presets a,b|all] [--seeds 42,7,...] [--quick] [--json]
//                            [--markdown] [--width W --height H] [--lat-max DEG]
//                            [--land-chunks N] [--fit-min S] [--fit-max S]
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureCoast, FIT_MIN, FIT_MAX } from './coast_measure.mjs';
import { earthRaster } from './earth_raster.mjs';
import { formatWorld, formatSweep, formatMarkdown } from './terrain_stats_report.mjs';
import { PRESET_NAMES } from '../wasm/ct_constants.mjs';

/** `--presets all`: the core's presets (wasm/ct_constants.mjs) but `reference`,
 * the frozen model the golden tests pin, which no one plays. */
export const PRESETS = PRESET_NAMES.filter((name) => name !== 'reference');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, 'build', 'terrain_stats');
const binary = path.join(root, 'build', 'native', 'terrain_stats');

/** Parses argv into options; throws an Error with a usage hint on bad input. */
export function parseArgs(argv) {
  const o = { preset: 'balanced', sets: [], world: null, presets: null, seeds: null, quick: false,
    json: false, markdown: false, width: null, height: null, latMax: 60, landChunks: null,
    fitMin: FIT_MIN, fitMax: FIT_MAX };
  const num = (v, name) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} wants a positive whole number, got "${v}"`);
    return n;
  };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    const v = () => {
      if (k + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++k];
    };
    if (a === '--quick') o.quick = true;
    else if (a === '--json') o.json = true;
    else if (a === '--markdown') o.markdown = true;
    else if (a === '--preset') o.preset = v();
    else if (a === '--set') o.sets.push(v());
    else if (a === '--world') o.world = v();
    else if (a === '--presets') o.presets = v() === 'all' ? PRESETS.slice() : argv[k].split(',');
    else if (a === '--seeds') {
      o.seeds = v().split(',');
      if (!o.seeds.every((s) => /^\d+$/.test(s))) throw new Error(`--seeds wants whole numbers, got "${argv[k]}"`);
    }
    else if (a === '--width') o.width = num(v(), a);
    else if (a === '--height') o.height = num(v(), a);
    else if (a === '--lat-max') o.latMax = num(v(), a);
    else if (a === '--land-chunks') o.landChunks = num(v(), a);
    else if (a === '--fit-min') o.fitMin = num(v(), a);
    else if (a === '--fit-max') o.fitMax = num(v(), a);
    else throw new Error(`unknown option ${a} (see the header of tools/terrain_stats.mjs)`);
  }
  // --quick: a quarter of the resolution each way and fewer chunks, for
  // iterating on the generator; the 8192 x 4096 grid is the reference.
  o.width ??= o.quick ? 2048 : 8192;
  o.height ??= o.width / 2;
  o.landChunks ??= o.quick ? 24 : 64;
  return o;
}

/** The worlds to measure: one, or presets x seeds. */
export function worldList(o) {
  if (o.world) return [{ label: path.basename(o.world), args: ['--world', o.world] }];
  const presets = o.presets ?? [o.preset];
  const seeds = o.seeds ?? [null];
  const out = [];
  for (const p of presets) {
    for (const s of seeds) {
      const sets = s === null ? o.sets : [...o.sets, `seed=${s}`];
      out.push({ label: [p, ...sets].join(' '), args: ['--preset', p, ...sets.flatMap((x) => ['--set', x])] });
    }
  }
  return out;
}

function buildNative() {
  const r = spawnSync('make', ['--no-print-directory', 'build/native/terrain_stats'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the native tool failed:\n${r.stdout}${r.stderr}`);
}

/** Coast figures of a band raster under both water rules. */
function coastFigures(raster, grid, radiusKm, o) {
  const all = measureCoast(raster, grid, { radiusKm, fitMin: o.fitMin, fitMax: o.fitMax });
  const sea = measureCoast(raster, grid, { radiusKm, fitMin: o.fitMin, fitMax: o.fitMax, inlandIsWater: false });
  return { all, sea };
}

/** Runs the native survey of one world and measures its raster. */
function measureWorld(w, grid, o, earth) {
  mkdirSync(cacheDir, { recursive: true });
  const rasterPath = path.join(cacheDir, `world_${process.pid}.bin`);
  const args = [...w.args, '--width', String(grid.width), '--height', String(grid.height),
    '--lat-max', String(grid.latMax), '--raster', rasterPath, '--land-chunks', String(o.landChunks),
    // Land slopes at LOD 6, 11 (about 20 m, near the 30 m of ASTER GDEM) and
    // 14, each from a world of that surface_lod (fine relief grows with it),
    // 48 land chunks each: with 12 the LOD-11 median of one seed moved by up
    // to 4 deg with the chunks drawn (a chunk there is only 4.7 km across).
    ...(w.args[0] === '--world' ? [] : ['--slope-lods', '6,11,14', '--slope-chunks', o.quick ? '4' : '48'])];
  const r = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`terrain_stats ${args.join(' ')} failed: ${r.stderr.trim()}`);
  const native = JSON.parse(r.stdout);
  const raster = new Uint8Array(readFileSync(rasterPath));
  rmSync(rasterPath, { force: true });
  // Earth is measured on a sphere of the world's radius so that both are
  // lengths per area on the same globe (the ratio does not depend on it).
  const coast = coastFigures(raster, grid, native.world.radius_m / 1000, o);
  const ratio = (a, b) => (b ? a / b : null);
  return {
    label: w.label,
    ...native,
    coast: {
      ...pick(coast.all),
      sea: pick(coast.sea),
      vs_earth: {
        coast_per_land_area: ratio(coast.all.coastPerLandArea, earth.coastPerLandArea),
        sea_coast_per_land_area: ratio(coast.sea.coastPerLandArea, earth.coastPerLandArea),
        dimension_diff: coast.all.dimension - earth.dimension,
        coast_pixels_per_land_pixel: ratio(coast.all.coastPixelShare, earth.coastPixelShare),
      },
    },
  };
}

function pick(m) {
  return { coast_km: m.coastKm, land_km2: m.landKm2, coast_per_land_area_per_km: m.coastPerLandArea,
    dimension: m.dimension, fit_px: m.fit, coast_pixel_share: m.coastPixelShare,
    boxes: m.boxes.map((b) => [b.size, b.boxes]) };
}

export function main(argv) {
  const o = parseArgs(argv);
  const grid = { width: o.width, height: o.height, latMax: o.latMax };
  buildNative();
  const e = earthRaster(grid, cacheDir);
  const earth = measureCoast(e.raster, grid, { radiusKm: 6371, fitMin: o.fitMin, fitMax: o.fitMax });
  const results = [];
  for (const w of worldList(o)) {
    const t0 = Date.now();
    const m = measureWorld(w, grid, o, earth);
    m.total_ms = Date.now() - t0;
    results.push(m);
    if (!o.json && !o.markdown) console.log(formatWorld(m, earth, grid));
    else process.stderr.write(`terrain-stats: ${m.label} measured in ${(m.total_ms / 1000).toFixed(1)} s\n`);
  }
  const out = { grid: { width: grid.width, height: grid.height, lat_max_deg: grid.latMax },
    earth: { source: 'world-atlas land-10m (Natural Earth 1:10m)', ...pick(earth) }, worlds: results };
  if (o.json) console.log(JSON.stringify(out, null, 1));
  else if (o.markdown) console.log(formatMarkdown(out));
  else if (results.length > 1) console.log(formatSweep(out));
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(`terrain-stats: ${e.message}`);
    process.exit(1);
  }
}
