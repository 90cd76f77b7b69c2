// mesh.test.mjs - Meshes built in C from chunks, on the WebAssembly build:
// counts per stride, index width and range, positions against the chunk's
// samples and bounding sphere, skirts, normals, winding on all six faces,
// exaggeration as a mesh-only option, colours and palette indices, and water
// only where water is.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SMALL, freshCore, thrown, decode, fnv1a64 } from './ct_fixture.mjs';

const E = 257;
const core = await freshCore();
const world = core.buildWorld(SMALL);
const R = world.config.radius_m;
const L = world.config.surface_lod;

const v3 = (a, i) => [a[3 * i], a[3 * i + 1], a[3 * i + 2]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a) => Math.sqrt(dot(a, a));
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a) => { const l = len(a); return [a[0] / l, a[1] / l, a[2] / l]; };

/** Radial height above the sphere of mesh vertex i. */
const heightOf = (m, i) => len(add(m.center, v3(m.positions, i))) - R;

/** Chunks at LOD 2 classified by a coarse look at their water (then verified). */
function findChunks() {
  const found = {};
  for (let face = 0; face < 6 && Object.keys(found).length < 3; face++) {
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 4; x++) {
        const key = { face, lod: 2, x, y };
        const dirs = [];
        for (let j = 0; j <= 256; j += 64) for (let i = 0; i <= 256; i += 64) dirs.push(core.keyDirection(key, i, j));
        const wet = world.sample(dirs).hasWater.reduce((a, b) => a + b, 0);
        const kind = wet === 0 ? 'dry' : wet === dirs.length ? 'ocean' : 'mixed';
        if (found[kind]) continue;
        const c = world.chunk(key);
        const n = c.water.reduce((a, w) => a + (w !== 0), 0);
        if ((kind === 'dry' && n === 0) || (kind === 'ocean' && n === E * E) || (kind === 'mixed' && n > 0 && n < E * E)) {
          found[kind] = key;
        }
      }
    }
  }
  return found;
}
const kinds = findChunks();

test('the test world offers dry, ocean and mixed chunks', () => {
  assert.ok(kinds.dry && kinds.ocean && kinds.mixed, JSON.stringify(kinds));
});

test('vertex and index counts for every stride, with and without skirts', () => {
  const key = kinds.mixed;
  for (let stride = 1; stride <= 256; stride *= 2) {
    const n = 256 / stride;
    const plain = world.mesh(key, { stride, copy: true });
    assert.is(plain.vertexCount, (n + 1) ** 2);
    assert.is(plain.indexCount, 6 * n * n);
    const sk = world.mesh(key, { stride, skirtDepthM: 300, copy: true });
    assert.is(sk.vertexCount, (n + 1) ** 2 + 4 * (n + 1));
    assert.is(sk.indexCount, 6 * n * n + 24 * n);
    for (const m of [plain, sk]) {
      assert.is(m.positions.length, 3 * m.vertexCount);
      assert.is(m.normals.length, 3 * m.vertexCount);
      assert.is(m.colors.length, 4 * m.vertexCount);
      assert.is(m.indices.length, m.indexCount);
      assert.instance(m.indices, m.vertexCount > 65536 ? Uint32Array : Uint16Array);
      let max = 0;
      for (const i of m.indices) max = Math.max(max, i);
      assert.ok(max < m.vertexCount, `index ${max} out of range at stride ${stride}`);
    }
  }
  assert.instance(world.mesh(key, { stride: 1 }).indices, Uint32Array, '257^2 vertices need 32-bit indices');
  assert.instance(world.mesh(key, { stride: 2, skirtDepthM: 10 }).indices, Uint16Array);
});

test('grid vertices sit at their chunk samples, inside the bounding sphere', () => {
  for (const key of [kinds.mixed, { face: 1, lod: 0, x: 0, y: 0 }, { face: 3, lod: L, x: 15, y: 0 }]) {
    const c = world.chunk(key), stride = 8, n = 32;
    const m = world.mesh(key, { stride, skirtDepthM: 500 });
    assert.ok(Math.abs(len(m.center) - R) < 1e-6 * R);
    const cdir = core.keyDirection(key, 128, 128);
    assert.ok(len(sub(unit(m.center), cdir)) < 1e-12, 'centre is the chunk centre on the sphere');
    const tol = m.radius * 2e-7 + 1e-3;   // float32 positions
    for (let gj = 0; gj <= n; gj++) {
      for (let gi = 0; gi <= n; gi++) {
        const v = gj * (n + 1) + gi, s = gj * stride * E + gi * stride;
        const want = c.heightM[s];   // meshes are built from the float heights
        assert.ok(Math.abs(decode(c.height[s], c.heightQuantumM) - want) <= 0.5 * c.heightQuantumM + 1e-3);
        assert.ok(Math.abs(heightOf(m, v) - want) <= tol, `height at (${gi},${gj}): ${heightOf(m, v)} vs ${want}`);
        const dir = unit(add(m.center, v3(m.positions, v)));
        assert.ok(len(sub(dir, core.keyDirection(key, gi * stride, gj * stride))) < 1e-6);
        const col = m.colors.subarray(4 * v, 4 * v + 4), pal = world.palette(), p = c.palette[s];
        assert.equal(Array.from(col), [pal[3 * p], pal[3 * p + 1], pal[3 * p + 2], 255]);
      }
    }
    let far = 0;
    for (let i = 0; i < m.vertexCount; i++) {
      const p = v3(m.positions, i), d = Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
      assert.ok(d <= m.radius, `vertex ${i} outside the bounding sphere`);
      far = Math.max(far, d);
    }
    assert.ok(far >= m.radius * (1 - 1e-6), 'the bounding sphere is tight');
  }
});

test('paletteIndex: the chunk palette byte at every grid vertex, colours from that entry', () => {
  for (const key of [kinds.mixed, kinds.dry, { face: 5, lod: L, x: 3, y: 12 }]) {
    const c = world.chunk(key), pal = world.palette();
    for (const stride of [4, 32]) {
      const n = 256 / stride, row = n + 1, grid = row * row;
      const m = world.mesh(key, { stride, skirtDepthM: 100 });
      assert.instance(m.paletteIndex, Uint8Array);
      assert.is(m.paletteIndex.length, m.vertexCount);
      const seen = new Set();
      for (let gj = 0; gj <= n; gj++) {
        for (let gi = 0; gi <= n; gi++) {
          const v = gj * row + gi, p = m.paletteIndex[v];
          assert.is(p, c.palette[gj * stride * E + gi * stride], `vertex (${gi},${gj}) at stride ${stride}`);
          seen.add(p);
        }
      }
      // Skirt vertices repeat their edge vertex (top, bottom, left, right).
      const edges = [(k) => k, (k) => n * row + k, (k) => k * row, (k) => k * row + n];
      edges.forEach((edge, e) => {
        for (let k = 0; k <= n; k++) assert.is(m.paletteIndex[grid + e * row + k], m.paletteIndex[edge(k)]);
      });
      for (let v = 0; v < m.vertexCount; v++) {
        const p = m.paletteIndex[v];
        assert.ok(p < 40, `index ${p} is a palette entry`);
        assert.equal(Array.from(m.colors.subarray(4 * v, 4 * v + 3)), [pal[3 * p], pal[3 * p + 1], pal[3 * p + 2]]);
      }
      if (key === kinds.mixed) assert.ok(seen.size > 2, 'a coast shows several palette entries');
    }
  }
});

/** 40 RRGGBB lines from 120 RGB bytes. */
const paletteText = (rgb) => Array.from({ length: 40 }, (_, i) => Array.from(rgb.subarray(3 * i, 3 * i + 3),
  (b) => b.toString(16).padStart(2, '0')).join('')).join('\n');

test('paletteIndex survives a palette switch; water meshes use water shades', () => {
  const key = kinds.mixed, before = world.mesh(key, { stride: 16, digest: true, copy: true });
  const odd = Uint8Array.from({ length: 120 }, (_, i) => (i * 37 + 11) & 255);
  world.setPalette(paletteText(odd));
  try {
    const after = world.mesh(key, { stride: 16, digest: true });
    assert.equal(after.paletteIndex, before.paletteIndex, 'indices depend on the chunk only');
    assert.is.not(after.digest, before.digest, 'the colours did change');
    for (let v = 0; v < after.vertexCount; v++) {
      const p = after.paletteIndex[v];
      assert.equal(Array.from(after.colors.subarray(4 * v, 4 * v + 3)), [odd[3 * p], odd[3 * p + 1], odd[3 * p + 2]]);
    }
  } finally {
    world.setPalette(paletteText(core.palette()));
  }
  assert.equal(world.mesh(key, { stride: 16 }).colors, before.colors, 'default palette back');
  const water = world.mesh(key, { stride: 8, water: true });
  assert.is(water.paletteIndex.length, water.vertexCount);
  assert.ok(water.vertexCount > 0);
  for (const p of water.paletteIndex) assert.ok(p < 5, `water vertex with palette entry ${p}`);
});

test('skirts hang skirtDepthM below all four edges and face outwards', () => {
  const key = kinds.mixed, stride = 16, n = 16, row = n + 1, depth = 750;
  const m = world.mesh(key, { stride, skirtDepthM: depth });
  const grid = row * row, tol = m.radius * 2e-7 + 1e-3;   // float32 positions
  const edges = [(k) => k, (k) => n * row + k, (k) => k * row, (k) => k * row + n];
  edges.forEach((edgeVertex, e) => {
    for (let k = 0; k <= n; k++) {
      const top = edgeVertex(k), skirt = grid + e * row + k;
      const dh = heightOf(m, top) - heightOf(m, skirt);
      assert.ok(Math.abs(dh - depth) < 2 * tol, `edge ${e} vertex ${k}: ${dh}`);
      assert.ok(len(sub(unit(add(m.center, v3(m.positions, top))), unit(add(m.center, v3(m.positions, skirt))))) < 1e-7);
    }
  });
  const up = unit(m.center);
  for (let t = 6 * n * n; t < m.indexCount; t += 3) {
    const [a, b, c] = [0, 1, 2].map((q) => v3(m.positions, m.indices[t + q]));
    const nrm = cross(sub(b, a), sub(c, a));
    const mid = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
    const outward = sub(mid, up.map((u) => u * dot(mid, up)));
    assert.ok(dot(nrm, outward) > 0, `skirt triangle ${t / 3} faces into the chunk`);
  }
});

test('triangles wind counter-clockwise seen from outside, normals point up, on every face', () => {
  for (let face = 0; face < 6; face++) {
    const key = { face, lod: 1, x: face % 2, y: (face >> 1) % 2 };
    const m = world.mesh(key, { stride: 32 });
    for (let t = 0; t < m.indexCount; t += 3) {
      const [a, b, c] = [0, 1, 2].map((q) => add(m.center, v3(m.positions, m.indices[t + q])));
      assert.ok(dot(cross(sub(b, a), sub(c, a)), a) > 0, `face ${face} triangle ${t / 3}`);
    }
    for (let i = 0; i < m.vertexCount; i++) {
      const nv = v3(m.normals, i);
      assert.ok(Math.abs(len(nv) - 1) < 1e-5, 'unit normal');
      assert.ok(dot(nv, unit(add(m.center, v3(m.positions, i)))) > 0, 'normal points away from the planet');
    }
  }
});

test('neighbouring chunks agree on the normals of their shared border', () => {
  const a = { face: 2, lod: L, x: 6, y: 7 }, b = { face: 2, lod: L, x: 7, y: 7 };
  const ma = world.mesh(a, { stride: 4, copy: true }), mb = world.mesh(b, { stride: 4 }), row = 65;
  for (let k = 0; k < row; k++) {
    const na = v3(ma.normals, k * row + 64), nb = v3(mb.normals, k * row);
    assert.ok(len(sub(na, nb)) < 1e-5, `row ${k}: ${na} vs ${nb}`);
  }
});

test('vertical exaggeration scales mesh heights only', () => {
  const key = kinds.mixed, before = world.chunk(key).digest;
  const m1 = world.mesh(key, { stride: 32, digest: true, copy: true });
  const m3 = world.mesh(key, { stride: 32, verticalExaggeration: 3, digest: true });
  const tol = m3.radius * 2e-7 + 1e-3;
  for (let i = 0; i < m1.vertexCount; i++) {
    assert.ok(Math.abs(heightOf(m3, i) - 3 * heightOf(m1, i)) < 4 * tol, `vertex ${i}`);
  }
  assert.is.not(m3.digest, m1.digest);
  assert.is(world.chunk(key).digest, before);
  assert.is(world.mesh(key, { stride: 32, digest: true }).digest, m1.digest);
});

test('water meshes: none on dry land, everything over open ocean, only wet cells on coasts', () => {
  const dry = world.mesh(kinds.dry, { stride: 4, water: true });
  assert.is(dry.vertexCount, 0);
  assert.is(dry.indexCount, 0);
  const ocean = world.mesh(kinds.ocean, { stride: 4, water: true });
  assert.is(ocean.indexCount, 6 * 64 * 64);
  assert.is(ocean.vertexCount, 65 * 65);
  for (const stride of [2, 8]) {
    const key = kinds.mixed, c = world.chunk(key), n = 256 / stride;
    const wet = (gi, gj) => c.water[gj * stride * E + gi * stride] !== 0;
    let cells = 0;
    for (let gj = 0; gj < n; gj++) {
      for (let gi = 0; gi < n; gi++) cells += wet(gi, gj) || wet(gi + 1, gj) || wet(gi, gj + 1) || wet(gi + 1, gj + 1) ? 1 : 0;
    }
    const m = world.mesh(key, { stride, water: true });
    assert.is(m.indexCount, 6 * cells);
    assert.ok(m.vertexCount < (n + 1) ** 2, 'vertices of dry cells are left out');
    for (let t = 0; t < m.indexCount; t += 3) {
      const ps = [0, 1, 2].map((q) => add(m.center, v3(m.positions, m.indices[t + q])));
      const mid = [0, 1, 2].map((k) => (ps[0][k] + ps[1][k] + ps[2][k]) / 3);
      const at = core.keyAt(mid, key.lod);
      assert.equal(at.key, key);
      const gi = Math.min(n - 1, Math.floor(at.localX / stride)), gj = Math.min(n - 1, Math.floor(at.localY / stride));
      assert.ok(wet(gi, gj) || wet(gi + 1, gj) || wet(gi, gj + 1) || wet(gi + 1, gj + 1), `triangle ${t / 3} over a dry cell`);
    }
  }
});

test('water surface height is the water level, normals radial', () => {
  const m = world.mesh(kinds.ocean, { stride: 64, water: true }), c = world.chunk(kinds.ocean);
  for (let gj = 0; gj <= 4; gj++) {
    for (let gi = 0; gi <= 4; gi++) {
      const v = gj * 5 + gi, want = decode(c.water[gj * 64 * E + gi * 64], c.heightQuantumM);
      assert.ok(Math.abs(heightOf(m, v) - want) < m.radius * 2e-7 + 1e-3, `water height ${heightOf(m, v)} vs ${want}`);
      const nv = v3(m.normals, v), dir = unit(add(m.center, v3(m.positions, v)));
      assert.ok(dot(nv, dir) > 0.99999);
    }
  }
});

test('mesh options are validated', () => {
  const key = kinds.mixed;
  for (const opts of [{ stride: 3 }, { stride: 512 }, { stride: -2 }, { stride: 1.5 }, { skirtDepthM: -1 }, { skirtDepthM: NaN },
    { verticalExaggeration: -1 }, { verticalExaggeration: Infinity }, { stride: '4' }]) {
    assert.is(thrown(() => world.mesh(key, opts)).code, 'CT_ERR_MESH', JSON.stringify(opts));
  }
  assert.is(thrown(() => world.mesh({ face: 0, lod: L + 1, x: 0, y: 0 })).code, 'CT_ERR_LOD');
  assert.is(world.mesh(key, { stride: 256 }).vertexCount, 4, 'still serving');
});

test('mesh digests agree across instances', async () => {
  const other = await freshCore();
  const w2 = other.loadWorld(world.snapshot());
  for (const opts of [{ stride: 4, skirtDepthM: 100, digest: true }, { stride: 8, water: true, digest: true }]) {
    assert.is(w2.mesh(kinds.mixed, opts).digest, world.mesh(kinds.mixed, opts).digest);
  }
  w2.free();
});

test('mesh digest only when asked: FNV-1a 64 of positions, normals, colours, indices', () => {
  const key = kinds.mixed;
  for (const opts of [{ stride: 32, skirtDepthM: 100 }, { stride: 64, water: true }]) {
    const plain = world.mesh(key, { ...opts, copy: true }), hashed = world.mesh(key, { ...opts, digest: true, copy: true });
    assert.is(plain.digest, null, 'off by default');
    assert.is(world.mesh(key, { ...opts, digest: false }).digest, null);
    assert.equal(hashed.positions, plain.positions, 'the option changes nothing else');
    assert.equal(hashed.indices, plain.indices);
    assert.is(hashed.digest, fnv1a64([hashed.positions, hashed.normals, hashed.colors, hashed.indices]),
      JSON.stringify(opts));
  }
  for (const digest of ['yes', 1]) {
    assert.is(thrown(() => world.mesh(key, { stride: 32, digest })).code, 'CT_ERR_MESH', String(digest));
    assert.is(thrown(() => world.mesh(key, { stride: 32, copy: digest })).code, 'CT_ERR_MESH', `copy ${digest}`);
  }
});


test('mesh views: no copy, stale after the next mesh() or free(), {copy: true} owns one buffer', () => {
  const key = kinds.mixed, w2 = core.buildWorld({ preset: 'balanced', set: { macro_resolution: 64 } });
  try {
    const view = w2.mesh(key, { stride: 8, skirtDepthM: 50, digest: true });
    const pos = view.positions;
    assert.is(pos.buffer, core.heap.u8().buffer, 'a view into WebAssembly memory');
    assert.is(view.normals.buffer, pos.buffer);
    const copy = w2.mesh(key, { stride: 8, skirtDepthM: 50, digest: true, copy: true });
    assert.is(copy.digest, view.digest, 'the same mesh');
    assert.is(thrown(() => view.positions).code, 'CT_ERR_MESH', 'stale after the next mesh()');
    assert.is(thrown(() => view.indices).code, 'CT_ERR_MESH');
    assert.ok(copy.positions.buffer !== core.heap.u8().buffer, 'a copy owns its memory');
    for (const f of ['normals', 'colors', 'paletteIndex', 'indices']) assert.is(copy[f].buffer, copy.positions.buffer, f);
    assert.is(fnv1a64([copy.positions, copy.normals, copy.colors, copy.indices]), copy.digest, 'packed parts intact');
    const fresh = w2.mesh(key, { stride: 8, skirtDepthM: 50 });
    assert.equal(Array.from(fresh.positions), Array.from(copy.positions), 'a view reads the mesh it names');
    assert.equal(Object.keys({ ...fresh }).filter((k) => ArrayBuffer.isView(fresh[k])).sort(),
      ['colors', 'indices', 'normals', 'paletteIndex', 'positions'], 'the arrays are enumerable');
    const before = core.heap.u8().buffer, big = core.heap.malloc(64 << 20);   // grows memory: older views detach
    core.heap.free(big);
    assert.ok(before !== core.heap.u8().buffer && before.byteLength === 0, 'memory grew');
    assert.is(fresh.positions.length, 3 * fresh.vertexCount, 'views are remade after memory growth');
    w2.free();
    assert.is(thrown(() => fresh.normals).code, 'CT_ERR_MESH', 'stale after free()');
  } finally {
    w2.free();
  }
});

test.run();
