// ct_fixture.mjs - This module is shared set-up for the tests of the
// WebAssembly core: it makes sure build/wasm/ct.wasm (and, on request, the
// native ./terrain) exist, and holds the small worlds the tests build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { loadCore } from '../../wasm/ct.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const WASM = path.join(ROOT, 'build/wasm/ct.wasm');
export const TERRAIN = path.join(ROOT, 'terrain');

/** Small but complete worlds: a few hundred milliseconds to build. */
// Rivers off in the small world: the mesh and chunk tests classify chunks as
// dry, sea or lake by their water codes, and rivers wet nearly every land chunk.
// Rivers have their own tests (rivers.test.mjs, tests/c/test_rivers.c).
export const SMALL = { preset: 'balanced', set: { macro_resolution: 32, surface_lod: 4, river_min_area_km2: 0 } };
export const SMALL_REGIONAL = { preset: 'regional', set: { macro_resolution: 32, surface_lod: 3, seed: 9 } };

function make(target) {
  const r = spawnSync('make', ['--no-print-directory', '-j2', target], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`make ${target} failed:\n${r.stdout}${r.stderr}`);
}

/** Builds the module if it is missing (npm test builds it before the suites). */
export function ensureWasm() {
  if (!existsSync(WASM)) make('wasm');
  return WASM;
}

/** Builds ./terrain (make is a no-op when it is up to date). */
export function ensureTerrain() {
  make('terrain');
  return TERRAIN;
}

/** A fresh core instance from build/wasm/ct.wasm. */
export async function freshCore() {
  return loadCore(ensureWasm());
}

/** Metres of an encoded height or water level. */
export function decode(code, quantum) {
  return (code - 32768) * quantum;
}

/** The error a function throws (fails the test if it does not throw). */
export function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an exception');
}

/** Lower-case hex of a byte array (for messages). */
export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Keys at LOD 2 of world whose chunk holds lake water, only sea water, and
 * no water: {lake, sea, dry} (a kind the world lacks is absent).
 */
export function keysByWater(world) {
  const SEA = 32768, out = {};
  for (let face = 0; face < 6; face++) {
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 4; x++) {
        const key = { face, lod: 2, x, y }, water = world.chunk(key).water;
        let wet = 0, lake = 0;
        for (const c of water) { wet += c !== 0; lake += c !== 0 && c !== SEA; }
        const kind = lake ? 'lake' : wet ? 'sea' : 'dry';
        if (!out[kind]) out[kind] = key;
      }
    }
  }
  return out;
}

/** FNV-1a 64 over the bytes of each view in turn, as 16 hex digits (BigInt). */
export function fnv1a64(views) {
  const P = 0x100000001b3n, M = (1n << 64n) - 1n;
  let h = 0xcbf29ce484222325n;
  for (const v of views) {
    for (const b of new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) h = ((h ^ BigInt(b)) * P) & M;
  }
  return h.toString(16).padStart(16, '0');
}
