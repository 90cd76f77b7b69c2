// reference.test.mjs - This module checks under WebAssembly what
// tests/c/test_reference.c checks natively: with every post-reference layer
// off (core.referenceLayers() applied after the preset), chunk payloads equal
// the frozen hashes in tests/golden/reference_payloads.txt.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, freshCore } from './ct_fixture.mjs';

const lines = readFileSync(path.join(ROOT, 'tests/golden/reference_payloads.txt'), 'utf8')
  .split('\n').filter((l) => l && !l.startsWith('#'));

/** FNV-1a 64 as lower-case hex, in two 32-bit halves (no BigInt per byte). */
function fnv1a64(bytes) {
  let hi = 0xcbf29ce4, lo = 0x84222325;
  for (let k = 0; k < bytes.length; k++) {
    lo = (lo ^ bytes[k]) >>> 0;
    // (hi:lo) * (2^40 + 0x1b3) mod 2^64
    const a = (lo & 0xffff) * 0x1b3;
    const b = (lo >>> 16) * 0x1b3 + (a >>> 16);
    const nlo = (((b & 0xffff) << 16) | (a & 0xffff)) >>> 0;
    hi = (Math.imul(hi, 0x1b3) + (lo << 8) + Math.floor(b / 65536)) >>> 0;
    lo = nlo;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** u16 array as little-endian bytes. */
function le16(arr) {
  const out = new Uint8Array(arr.length * 2);
  for (let k = 0; k < arr.length; k++) { out[2 * k] = arr[k] & 0xff; out[2 * k + 1] = arr[k] >>> 8; }
  return out;
}

test('FNV-1a 64 helper matches the published test vector', () => {
  assert.is(fnv1a64(new TextEncoder().encode('a')), 'af63dc4c8601ec8c');
});

test('WASM with the reference layer set reproduces the frozen reference payloads', async () => {
  const core = await freshCore();
  const off = core.referenceLayers();
  let world = null, payloads = 0;
  try {
    for (const line of lines) {
      const f = line.split(/\s+/);
      if (f[0] === 'world') {
        if (world) world.free();
        const steps = [['preset', f[2]]];
        if (f[3] !== '-') steps.push(['text', f[3].split(',').join('\n')]);
        steps.push(['text', off]);
        world = core.buildWorld({ steps });
      } else {
        const c = world.chunk({ face: f[2], lod: +f[3], x: +f[4], y: +f[5] });
        const got = [fnv1a64(le16(c.height)), fnv1a64(le16(c.water)), fnv1a64(c.biome), fnv1a64(c.palette)];
        assert.equal(got, f.slice(7, 11), `${f[1]} chunk ${f.slice(2, 6).join(' ')}`);
        payloads++;
      }
    }
  } finally {
    if (world) world.free();
  }
  assert.ok(payloads >= 30, `covers ${payloads} payloads`);
});

test.run();
