// bench_tiles.mjs - This module times the CPU a client spends per descent on
// the page's world (balanced, surface_lod 12) when it generates every tile
// against when it streams baked tiles: the same worker job (worker/handler.js)
// answers the same mesh requests, once from the key alone (chunk generation,
// mesh, maps) and once from a baked .ctt tile (read, SHA-256 check against
// the index entry, decode, mesh, maps). A descent is the keys of the 3x3
// neighbourhood around a standard descent's point (the three of
// tests/browser/globe.test.mjs) at every LOD, meshed as the page's streamer
// asks: stride 4 above surface_lod, stride 1 (the finest) at it, with the
// relief, palette and lake maps the page draws.
// CPU is this process's user + system time (crypto.subtle hashes on the libuv
// pool, which counts). One process, the two paths alternated rep by rep;
// min and median per descent.
//
//   node bench/bench_tiles.mjs [--quick] [--json]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { loadCore } from '../wasm/ct.mjs';
import { createHandler } from '../worker/handler.js';
import { MSG } from '../worker/protocol.js';
import { bakeFolder } from '../tests/js/tile_fixture.mjs';
import { cpuMs, nowMs, summarize, fmt } from './common.mjs';

const QUICK = process.argv.includes('--quick');
const JSON_OUT = process.argv.includes('--json');
const REPS = QUICK ? 2 : 4;
const POINTS = [[10, 20], [-30, 100], [35.26, 45]];   // degrees: the standard descents (tests/browser/globe.test.mjs)
const BASE_STRIDE = 4;                                 // stream/lod.js: tiles coarser than surface_lod
const PAGE_WORLD = { preset: 'balanced', set: { surface_lod: 12 } };
const LONE_BIOMES_MAX_LOD = 5;   // stream/streamer.js

function dirOf(latDeg, lonDeg) {
  const la = (latDeg * Math.PI) / 180, lo = (lonDeg * Math.PI) / 180;
  return [Math.cos(la) * Math.cos(lo), Math.cos(la) * Math.sin(lo), Math.sin(la)];
}

/** A descent's keys: the neighbourhood of the point at every LOD (QUICK: every other LOD). */
function descentKeys(core, L, point) {
  const keys = [], dir = dirOf(...point);
  for (let lod = 0; lod <= L; lod += QUICK ? 2 : 1) {
    const at = core.keyAt(dir, lod);
    keys.push(...core.keyNeighbourhood(at.key, at.localX, at.localY));
  }
  return keys;
}

/** The mesh options the page's streamer asks for at a key (stream/streamer.js). */
function pageOptions(key, L) {
  return { stride: key.lod < L ? BASE_STRIDE : 1, skirtDepthM: 50, lakeLevels: true, relief: true, paletteMap: true,
    thinWater: key.lod < L, loneBiomes: key.lod < L && key.lod <= LONE_BIOMES_MAX_LOD };
}

/** One descent's keys, baked, and its two paths timed alternately: {tiles, generated, baked} (CPU ms per rep). */
async function timeDescent(core, world, handler, point, log) {
  const L = world.config.surface_lod, keys = descentKeys(core, L, point);
  const dir = mkdtempSync(path.join(tmpdir(), 'ct-bench-tiles-'));
  try {
    const bake = bakeFolder(core, world, keys, { dir });
    const tiles = keys.map((k) => {
      const file = bake.paths.get(`${k.face}/${k.lod}/${k.x}/${k.y}`), bytes = readFileSync(file);
      return { url: pathToFileURL(file).href, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), format: 'ctt' };
    });
    let id = 1;
    const run = async (baked) => {
      const c0 = cpuMs();
      for (let i = 0; i < keys.length; i++) {
        const msg = { id: id++, type: MSG.MESH, key: keys[i], options: pageOptions(keys[i], L), ...(baked ? { tile: tiles[i] } : {}) };
        let reply;
        await handler.handle(msg, (r) => { reply = r; });
        if (!reply.ok) throw new Error(reply.error.message);
        if ((reply.result.source === 'tile') !== baked) throw new Error(`key ${i}: answered from ${reply.result.source}`);
      }
      return cpuMs() - c0;
    };
    const generated = [], baked = [];
    await run(true);   // untimed: warms the tile buffer and the file cache
    for (let r = 0; r < REPS; r++) {
      generated.push(await run(false));
      baked.push(await run(true));
    }
    log(`descent to ${point.join(', ')}: ${keys.length} tiles, generating ${generated.map((x) => fmt(x, 0)).join(' ')} ms CPU, ` +
      `baked ${baked.map((x) => fmt(x, 0)).join(' ')} ms CPU`);
    return { point, tiles: keys.length, generated, baked };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const core = await loadCore();
  const t0 = nowMs();
  const world = core.buildWorld(PAGE_WORLD);
  const log = (s) => { if (!JSON_OUT) console.log(s); };
  log(`page world ${world.generation} built in ${fmt(nowMs() - t0, 0)} ms`);
  const handler = createHandler(core);
  await handler.handle({ id: 0, type: MSG.LOAD, bytes: world.snapshot() }, () => {});
  const descents = [];
  for (const point of QUICK ? POINTS.slice(0, 1) : POINTS) descents.push(await timeDescent(core, world, handler, point, log));
  // Per rep, the three descents together; min and median over reps.
  const sum = (name) => Array.from({ length: REPS }, (_, r) => descents.reduce((a, d) => a + d[name][r], 0));
  const g = summarize(sum('generated')), b = summarize(sum('baked'));
  const tiles = descents.reduce((a, d) => a + d.tiles, 0), n = descents.length;
  const ratios = descents.map((d) => summarize(d.baked).median / summarize(d.generated).median);
  const result = { descents: descents.map((d, i) => ({ ...d, ratio_median: ratios[i] })), tiles, reps: REPS,
    generated_cpu_ms_per_descent: g.median / n, baked_cpu_ms_per_descent: b.median / n, ratio_median: b.median / g.median };
  if (JSON_OUT) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(`Baked tiles: ${n} descent(s) of the page world (${tiles} tiles, LOD 0-${world.config.surface_lod}, the page's strides and maps) ` +
      `cost ${fmt(b.median / n, 0)} ms CPU per descent from verified tiles against ${fmt(g.median / n, 0)} ms generating ` +
      `(min ${fmt(b.min / n, 0)} / ${fmt(g.min / n, 0)}): ${(100 * result.ratio_median).toFixed(1)}% ` +
      `(per descent ${ratios.map((r) => `${(100 * r).toFixed(1)}%`).join(', ')}), ${REPS} reps alternated`);
  }
  world.free();
}

await main();
