// core_chunk.test.mjs - Chunk invariants on the WebAssembly build: shared
// borders within a face, across a cube edge and at a cube corner, LOD subsets,
// space sample == chunk vertex, request-order independence, the .ctc and
// .u16le encodings, palettes, and key rejection.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SMALL, freshCore, thrown, decode } from './ct_fixture.mjs';

const E = 257;
const core = await freshCore();
const world = core.buildWorld(SMALL);
const L = world.config.surface_lod;
const last = (1 << L) - 1;

const col = (c, x) => Array.from({ length: E }, (_, j) => c.height[j * E + x]);
const row = (c, y) => Array.from(c.height.subarray(y * E, y * E + E));

test('chunk shape, copies and digest', () => {
  const c = world.chunk({ face: 'pz', lod: L, x: 3, y: 5 });
  assert.equal(c.key, { face: 4, lod: L, x: 3, y: 5 });
  assert.is(c.generation, world.generation);
  assert.match(c.digest, /^[0-9a-f]{16}$/);
  for (const a of ['height', 'water', 'biome', 'palette']) {
    assert.is(c[a].length, E * E);
    assert.is(c[a].byteOffset, 0, 'own buffer');
    assert.is(c[a].buffer.byteLength, c[a].byteLength, 'own buffer');
  }
  assert.instance(c.height, Uint16Array);
  assert.is(c.heightQuantumM, world.config.height_quantum_m);
  const again = world.chunk({ face: 4, lod: L, x: 3, y: 5 });
  assert.is(again.digest, c.digest);
  assert.equal(again.height, c.height);
  world.chunk({ face: 0, lod: L, x: 0, y: 0 });
  assert.equal(c.height, again.height, 'earlier results are not overwritten by later requests');
  assert.is.not(world.chunk({ face: 4, lod: L, x: 3, y: 6 }).digest, c.digest);
});

test('neighbours within a face share their border samples', () => {
  const a = world.chunk({ face: 2, lod: L, x: 5, y: 7 });
  const right = world.chunk({ face: 2, lod: L, x: 6, y: 7 });
  const below = world.chunk({ face: 2, lod: L, x: 5, y: 8 });
  assert.equal(col(a, 256), col(right, 0));
  assert.equal(row(a, 256), row(below, 0));
  for (let j = 0; j < E; j++) {
    assert.is(a.water[j * E + 256], right.water[j * E]);
    assert.is(a.palette[j * E + 256], right.palette[j * E]);
  }
});

test('across the +X/-Z cube edge the border samples are identical', () => {
  // +X (1,-v,-u) at u = +1 is z = -1; -Z (-u,-v,-1) at u = -1 is x = +1: the
  // right column of +X meets the left column of -Z, rows in the same order.
  for (const y of [0, 3, last]) {
    const px = world.chunk({ face: 0, lod: L, x: last, y });
    const nz = world.chunk({ face: 5, lod: L, x: 0, y });
    assert.equal(col(px, 256), col(nz, 0), `row block ${y}`);
    for (let j = 0; j < E; j++) {
      const dx = core.keyDirection(px.key, 256, j), dz = core.keyDirection(nz.key, 0, j);
      assert.equal(dx, dz, 'same direction bits');
    }
  }
});

test('the (1,1,1) cube corner has one height on its three faces', () => {
  // +X local (0,0) is (u,v) = (-1,-1) -> (1,1,1); +Y (u,1,v) needs u = v = 1
  // -> chunk (last,last) local (256,256); +Z (u,-v,1) needs u = 1, v = -1.
  const px = world.chunk({ face: 0, lod: L, x: 0, y: 0 });
  const py = world.chunk({ face: 2, lod: L, x: last, y: last });
  const pz = world.chunk({ face: 4, lod: L, x: last, y: 0 });
  const h = [px.height[0], py.height[E * E - 1], pz.height[256]];
  assert.is(h[1], h[0]);
  assert.is(h[2], h[0]);
  const s = world.sample([[1, 1, 1]]);
  const code = Math.round(s.heightM[0] / world.config.height_quantum_m) + 32768;
  assert.ok(Math.abs(code - h[0]) <= 1, `sample ${s.heightM[0]} vs chunk code ${h[0]}`);
});

test('coarse LOD samples are a subset of the fine ones', () => {
  for (const face of [1, 4]) {
    const coarse = world.chunk({ face, lod: L - 1, x: 2, y: 5 });
    for (const [fx, fy] of [[4, 10], [5, 10], [4, 11], [5, 11]]) {
      const fine = world.chunk({ face, lod: L, x: fx, y: fy });
      const ox = (fx - 4) * 128, oy = (fy - 10) * 128;
      for (let j = 0; j <= 128; j += 4) {
        for (let i = 0; i <= 128; i += 4) {
          const a = coarse.height[(oy + j) * E + ox + i], b = fine.height[2 * j * E + 2 * i];
          if (a !== b) assert.unreachable(`face ${face} fine ${fx},${fy} (${2 * i},${2 * j}): ${b} vs ${a}`);
        }
      }
    }
  }
});

test('space sample == chunk vertex (height within half a quantum, water flag, palette)', () => {
  const q = world.config.height_quantum_m;
  for (const key of [{ face: 3, lod: L, x: 8, y: 8 }, { face: 0, lod: 1, x: 1, y: 0 }, { face: 5, lod: L, x: last, y: 0 }]) {
    const c = world.chunk(key), dirs = [], idx = [];
    for (let j = 0; j <= 256; j += 32) {
      for (let i = 0; i <= 256; i += 32) { dirs.push(core.keyDirection(key, i, j)); idx.push(j * E + i); }
    }
    const s = world.sample(dirs);
    idx.forEach((k, n) => {
      if (c.height[k] !== 0 && c.height[k] !== 65535) {
        assert.ok(Math.abs(decode(c.height[k], q) - s.heightM[n]) <= q / 2 + 1e-9, `height at ${k}`);
      }
      assert.is(c.water[k] !== 0 ? 1 : 0, s.hasWater[n], `water at ${k}`);
      assert.is(c.palette[k], s.palette[n], `palette at ${k}`);
      assert.is(c.biome[k], s.biome[n], `biome at ${k}`);
    });
  }
});

test('digests do not depend on request order or on the instance', async () => {
  const keys = [{ face: 0, lod: L, x: 1, y: 2 }, { face: 5, lod: 3, x: 7, y: 0 }, { face: 2, lod: 0, x: 0, y: 0 }];
  const forward = keys.map((k) => world.chunk(k).digest);
  const other = await freshCore();
  const w2 = other.loadWorld(world.snapshot());
  const backward = [...keys].reverse().map((k) => w2.chunk(k).digest).reverse();
  assert.equal(backward, forward);
  w2.free();
});

test('.ctc: 396,354 bytes, little-endian records of the chunk', () => {
  const key = { face: 1, lod: L, x: 9, y: 4 };
  const c = world.chunk(key), b = world.chunkCtc(key);
  assert.is(b.length, 60 + 6 * E * E);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (const i of [0, 1, 256, 257, 33024, E * E - 1]) {
    const o = 60 + 6 * i;
    assert.is(v.getUint16(o, true), c.height[i]);
    assert.is(v.getUint16(o + 2, true), c.water[i]);
    assert.is(b[o + 4], c.biome[i]);
    assert.is(b[o + 5], c.palette[i]);
  }
  const core2 = world.chunkU16le(key);
  assert.is(core2.length, 131072);
  const u = new DataView(core2.buffer);
  for (const [i, j] of [[0, 0], [255, 0], [0, 255], [255, 255], [100, 37]]) {
    assert.is(u.getUint16(2 * (j * 256 + i), true), c.height[j * E + i]);
  }
});

test('chunk keys are validated', () => {
  const codeOf = (key) => thrown(() => world.chunk(key)).code;
  assert.is(codeOf({ face: 0, lod: L + 1, x: 0, y: 0 }), 'CT_ERR_LOD');
  assert.is(codeOf({ face: 0, lod: -1, x: 0, y: 0 }), 'CT_ERR_LOD');
  assert.is(codeOf({ face: 0, lod: 2, x: 4, y: 0 }), 'CT_ERR_CHUNK_XY');
  assert.is(codeOf({ face: 0, lod: 2, x: 0, y: 2 ** 32 }), 'CT_ERR_CHUNK_XY');
  assert.is(codeOf({ face: 0, lod: 2, x: 0.5, y: 0 }), 'CT_ERR_CHUNK_XY');
  assert.is(codeOf({ face: 7, lod: 2, x: 0, y: 0 }), 'CT_ERR_FACE');
  assert.is(codeOf({ face: 'up', lod: 2, x: 0, y: 0 }), 'CT_ERR_FACE');
  assert.is(codeOf(undefined), 'CT_ERR_NULL');
  assert.is(thrown(() => world.chunkCtc({ face: 0, lod: 9, x: 0, y: 0 })).code, 'CT_ERR_LOD');
  assert.is(world.chunk({ face: 0, lod: 0, x: 0, y: 0 }).key.lod, 0, 'still serving');
});

test('palettes: default 120 bytes, setPalette validates and never changes chunks', () => {
  const key = { face: 4, lod: 2, x: 1, y: 1 };
  const before = world.chunk(key).digest;
  const pal = world.palette();
  assert.is(pal.length, 120);
  assert.equal(pal, core.palette());
  const lines = Array.from({ length: 40 }, (_, i) => (i * 6).toString(16).padStart(2, '0').repeat(3));
  world.setPalette(`# test palette\n${lines.join('\n')}\n`);
  assert.is(world.palette()[3], 6);
  assert.is(world.chunk(key).digest, before);
  const e = thrown(() => world.setPalette(lines.slice(0, 39).join('\n')));
  assert.is(e.code, 'CT_ERR_PALETTE');
  assert.is(world.palette()[3], 6, 'a rejected palette changes nothing');
  assert.is(thrown(() => world.setPalette(lines.join('\n').replace('00', 'zz'))).code, 'CT_ERR_PALETTE');
  world.setPalette(Array.from(pal.subarray(0, 120)).reduce((s, b, i) => s + b.toString(16).padStart(2, '0') + (i % 3 === 2 ? '\n' : ''), ''));
  assert.equal(world.palette(), pal);
});

test.run();
