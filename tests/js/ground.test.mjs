// ground.test.mjs - The exact ground, raycasts and colliders on the
// WebAssembly build (wasm/ct_ground.mjs): groundAt against the stride-1
// mesh's float triangles (random points, a chunk border, a cube edge and a
// corner), ground() and groundInChunk() against groundAt, raycasts against a
// brute-force ray over every triangle of a chunk's mesh, an origin under the
// ground, colliders equal to world.mesh and welded across a seam, a cube
// edge and a cube corner at LOD 10 and LOD 2, and bad input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshCore, thrown } from './ct_fixture.mjs';

const core = await freshCore();
const world = core.buildWorld({ preset: 'balanced', set: { macro_resolution: 32, surface_lod: 10, seed: 7 } });
const R = world.config.radius_m;
const L = world.config.surface_lod;

const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a) => Math.sqrt(dot(a, a));
const unit = (a) => scale(a, 1 / len(a));

let seed = 99;
const rnd = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32; };

/** A mesh's triangle t as three body-fixed double points. */
function triangle(m, t) {
  return [0, 1, 2].map((c) => {
    const v = m.indices[3 * t + c];
    return add(m.center, [m.positions[3 * v], m.positions[3 * v + 1], m.positions[3 * v + 2]]);
  });
}

/** Ray against a triangle (slack for the float vertices); distance or -1. */
function rayTri(o, d, [a, b, c]) {
  const e1 = sub(b, a), e2 = sub(c, a), p = cross(d, e2), det = dot(e1, p);
  if (det === 0) return -1;
  const s = sub(o, a), u = dot(s, p) / det;
  if (u < -1e-5 || u > 1 + 1e-5) return -1;
  const q = cross(s, e1), v = dot(d, q) / det;
  if (v < -1e-5 || u + v > 1 + 1e-5) return -1;
  return dot(e2, q) / det;
}

/** Height where the radial line through d meets the 3x3 cells around (lx, ly) of a stride-1 mesh. */
function meshHeight(m, lx, ly, d) {
  const ci = Math.floor(lx), cj = Math.floor(ly);
  for (let y = cj - 1; y <= cj + 1; y++) {
    for (let x = ci - 1; x <= ci + 1; x++) {
      if (x < 0 || y < 0 || x > 255 || y > 255) continue;
      for (let h = 0; h < 2; h++) {
        const r = rayTri([0, 0, 0], d, triangle(m, 2 * (y * 256 + x) + h));
        if (r > 0) return r - R;
      }
    }
  }
  return NaN;
}

/** A land chunk at surface_lod. */
function landKey() {
  for (;;) {
    const d = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5], s = world.sampleAt(d);
    if (!s.hasWater && s.heightM > 200) return world.keyAt(d).key;
  }
}
const LAND = landKey();

test('groundAt lies on the stride-1 mesh within 1 mm, with its triangle normal', () => {
  const m = world.mesh(LAND, { copy: true });
  let worst = 0, badNormal = 0;
  for (let k = 0; k < 150; k++) {
    const lx = k < 4 ? 256 * (k & 1) : 256 * rnd(), ly = k < 4 ? 256 * (k >> 1) : 256 * rnd();
    const d = core.keyDirection(LAND, lx, ly), g = world.groundAt(d);
    worst = Math.max(worst, Math.abs(meshHeight(m, lx, ly, d) - g.heightM) || 1e9);
    const cell = 2 * (Math.min(Math.floor(ly), 255) * 256 + Math.min(Math.floor(lx), 255));
    const n = [cell, cell + 1].map((t) => { const [a, b, c] = triangle(m, t); return unit(cross(sub(b, a), sub(c, a))); });
    if (k >= 4 && !n.some((v) => Math.abs(dot(v, g.normal)) > 1 - 1e-6)) badNormal++;
    assert.ok(Math.abs(len(g.normal) - 1) < 1e-12 && dot(g.normal, d) > 0, 'unit, outward');
    assert.ok(Math.abs(g.slopeDeg - Math.acos(Math.min(1, dot(g.normal, unit(d)))) * 180 / Math.PI) < 1e-9);
  }
  assert.ok(worst < 1e-3, `groundAt is ${worst} m from the mesh`);
  assert.is(badNormal, 0);
});

test('ground() and groundInChunk() equal groundAt', () => {
  const chunk = world.chunk(LAND), dirs = [], pts = [];
  for (let k = 0; k < 40; k++) {
    const lx = 256 * rnd(), ly = 256 * rnd();
    pts.push([lx, ly]);
    dirs.push(core.keyDirection(LAND, lx, ly));
  }
  const many = world.ground(dirs);
  dirs.forEach((d, i) => {
    const g = world.groundAt(d), c = world.groundInChunk(chunk, pts[i][0], pts[i][1]);
    assert.is(many.heightM[i], g.heightM);
    assert.is(many.normal[3 * i + 2], g.normal[2]);
    assert.is(many.paletteIndex[i], g.paletteIndex);
    assert.equal([many.face[i], many.x[i], many.y[i]], [g.key.face, g.key.x, g.key.y]);
    assert.ok(Math.abs(c.heightM - g.heightM) < 1e-6, `twin ${c.heightM} vs ${g.heightM}`);
    assert.equal([c.biome, c.material, c.hasWater], [g.biome, g.material, g.hasWater]);
    assert.equal(c.key, { face: LAND.face, lod: L, x: LAND.x, y: LAND.y });
  });
});

/** Every neighbour chunk holding direction d on its border, with its local position there. */
function holders(key, lx, ly, d) {
  const out = [], seen = new Map();
  for (const k of [key, ...core.keyNeighbourhood(key, lx, ly), ...core.keyNeighbourhood(key, 128, 128)]) {
    seen.set(`${k.face}/${k.x}/${k.y}`, k);
  }
  for (const nb of seen.values()) {
    for (let t = 0; t <= 256; t++) {
      for (const [x, y] of [[t, 0], [t, 256], [0, t], [256, t]]) {
        const q = core.keyDirection(nb, x, y);
        if (q[0] === d[0] && q[1] === d[1] && q[2] === d[2]) { out.push({ key: nb, x, y }); t = 257; break; }
      }
    }
  }
  return out;
}

test('a chunk border, a cube edge and a cube corner: every holder agrees with groundAt within 1 mm', () => {
  const last = 2 ** L - 1;
  const cases = [[LAND, 256, 77, 2], [{ face: 0, lod: L, x: last, y: 300 }, 256, 140, 2], [{ face: 0, lod: L, x: last, y: last }, 256, 256, 3]];
  for (const [key, lx, ly, want] of cases) {
    const d = core.keyDirection(key, lx, ly), g = world.groundAt(d), hs = holders(key, lx, ly, d);
    assert.is(hs.length, want, `${JSON.stringify(key)} held by ${hs.length}`);
    for (const h of hs) {
      const c = world.groundInChunk(world.chunk(h.key), h.x, h.y);
      assert.ok(Math.abs(c.heightM - g.heightM) < 1e-6, 'chunk twin on the seam');
      const m = world.mesh(h.key, { copy: true });
      assert.ok(Math.abs(meshHeight(m, h.x, h.y, d) - g.heightM) < 1e-3, `mesh of ${JSON.stringify(h.key)} on the seam`);
    }
  }
});

test('raycast agrees with a brute-force ray over every triangle of the chunk', () => {
  const m = world.mesh(LAND, { copy: true }), tris = m.indices.length / 3;
  for (let k = 0; k < 6; k++) {
    const a = core.keyDirection(LAND, 30 + 196 * rnd(), 30 + 196 * rnd());
    const b = core.keyDirection(LAND, 30 + 196 * rnd(), 30 + 196 * rnd());
    const o = scale(a, R + world.groundAt(a).heightM + 10 + 200 * rnd());
    const end = scale(b, R + world.groundAt(b).heightM - 2), dir = unit(sub(end, o)), maxM = len(sub(end, o));
    let best = Infinity;
    for (let t = 0; t < tris; t++) {
      const h = rayTri(o, dir, triangle(m, t));
      if (h >= 0 && h <= maxM && h < best) best = h;
    }
    const hit = world.raycast(o, dir, maxM);
    assert.ok(hit && !hit.inside && !hit.water, 'a hit');
    // Within 1 mm of the brute-force triangle's plane (along a shallow ray
    // the float vertices' rounding slides the hit a little further).
    const gap = Math.abs(dot(hit.normal, sub(hit.point, add(o, scale(dir, best)))));
    assert.ok(gap < 1e-3 && Math.abs(hit.distanceM - best) < 0.05, `ray ${k}: ${hit.distanceM} vs brute force ${best}`);
    assert.ok(len(sub(hit.point, add(o, scale(dir, hit.distanceM)))) < 1e-6);
    assert.equal(hit.key, { face: LAND.face, lod: L, x: LAND.x, y: LAND.y });
  }
  // Straight down from orbit lands on groundAt.
  const d = core.keyDirection(LAND, 99.5, 42.25), g = world.groundAt(d);
  const hit = world.raycast(scale(d, 2 * R), scale(d, -1), 2 * R);
  assert.ok(Math.abs(hit.distanceM - (R - g.heightM)) < 1e-3, 'from orbit');
  assert.is(world.raycast(scale(d, 2 * R), d, 1e6), null, 'pointing away: no hit');
});

test('an origin under the ground hits at 0, inside', () => {
  const d = core.keyDirection(LAND, 12.5, 200.25), g = world.groundAt(d);
  const hit = world.raycast(scale(d, R + g.heightM - 5), [1, 0, 0], 10);
  assert.equal([hit.distanceM, hit.inside, hit.water], [0, true, false]);
  assert.ok(dot(hit.normal, g.normal) > 1 - 1e-12);
});

/** Border vertices of a collider in body-fixed doubles. */
function borderPoints(c, n) {
  const out = [];
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      if (i && j && i < n && j < n) continue;
      const v = j * (n + 1) + i;
      out.push(add(c.center, [c.positions[3 * v], c.positions[3 * v + 1], c.positions[3 * v + 2]]));
    }
  }
  return out;
}

/** Shared border vertices of two colliders: how many of a's have one of b's within tol. */
function shared(a, b, n, tol) {
  const pb = borderPoints(b, n);
  return borderPoints(a, n).filter((p) => pb.some((q) => len(sub(p, q)) <= tol)).length;
}

test('collider: world.mesh\'s positions and triangles, no skirts, own buffers', () => {
  const c = world.collider(LAND, { stride: 4 });
  const m = world.mesh(LAND, { stride: 4, skirtDepthM: 50, copy: true });
  assert.is(c.vertexCount, 65 * 65);
  assert.is(c.triangleCount, 2 * 64 * 64);
  assert.ok(c.indices instanceof Uint32Array && c.positions instanceof Float32Array && c.center instanceof Float64Array);
  assert.equal(Array.from(c.positions), Array.from(m.positions.subarray(0, 3 * 65 * 65)));
  assert.equal(Array.from(c.indices), Array.from(m.indices.subarray(0, 6 * 64 * 64)));
  assert.equal(Array.from(c.center), m.center);
  const c1 = world.collider(LAND), m1 = world.mesh(LAND, { copy: true });
  assert.equal(c1.positions, m1.positions);
  assert.equal(c1.indices, m1.indices);
  assert.is.not(c1.positions.buffer, c1.indices.buffer);
});

test('colliders weld across a seam, a cube edge and a cube corner (LOD 10 to 1 mm, LOD 2 to the float step)', () => {
  for (const [lod, stride] of [[L, 8], [2, 16]]) {
    const n = 256 / stride, last = 2 ** lod - 1;
    const col = (face, x, y) => world.collider({ face, lod, x, y }, { stride });
    // The float32 step of the offsets: about 1.5e6 m at LOD 2.
    const tolOf = (c) => lod >= 10 ? 1e-3 : 2 * Math.sqrt(3) * 2 ** (Math.floor(Math.log2(Math.max(...c.positions.map(Math.abs)))) - 23);
    const a = col(2, 1, 1), b = col(2, 2, 1);
    assert.is(shared(a, b, n, tolOf(a)), n + 1, `LOD ${lod}: seam`);
    // +X's last column meets another face: find the neighbour through the key neighbourhood.
    const e = { face: 0, lod, x: last, y: 1 }, ce = world.collider(e, { stride });
    const across = core.keyNeighbourhood(e, 256, 128).filter((k) => k.face !== 0);
    const counts = across.map((k) => shared(ce, world.collider(k, { stride }), n, tolOf(ce)));
    assert.ok(counts.includes(n + 1), `LOD ${lod}: cube edge shares ${counts}`);
    // The corner where +X meets two other faces.
    const corner = { face: 0, lod, x: last, y: last }, d = core.keyDirection(corner, 256, 256);
    const hs = holders(corner, 256, 256, d);
    assert.is(hs.length, 3, 'three faces meet');
    const pts = hs.map((h) => {
      const c = world.collider(h.key, { stride }), v = (h.y / stride) * (n + 1) + h.x / stride;
      return add(c.center, [c.positions[3 * v], c.positions[3 * v + 1], c.positions[3 * v + 2]]);
    });
    const tol = tolOf(world.collider(hs[0].key, { stride }));
    assert.ok(len(sub(pts[0], pts[1])) <= tol && len(sub(pts[0], pts[2])) <= tol, `LOD ${lod}: corner vertex`);
  }
});

test('bad input gets clear errors', () => {
  const chunk = world.chunk(LAND);
  assert.is(thrown(() => world.groundAt([0, 0, 0])).code, 'CT_ERR_DIRECTION');
  assert.is(thrown(() => world.groundAt([NaN, 0, 1])).code, 'CT_ERR_DIRECTION');
  assert.is(thrown(() => world.groundAt([1, 2])).code, 'CT_ERR_DIRECTION');
  const e = thrown(() => world.ground([[1, 0, 0], [0, 0, 0]]));
  assert.ok(e.code === 'CT_ERR_DIRECTION' && e.index === 1 && /direction 1/.test(e.message));
  const o = [2 * R, 0, 0];
  assert.is(thrown(() => world.raycast(o, [0, 0, 0], 10)).code, 'CT_ERR_DIRECTION');
  assert.match(thrown(() => world.raycast(o, [-1, 0, 0], 0)).message, /max_m/);
  assert.is(thrown(() => world.raycast(o, [-1, 0, 0], -5)).code, 'CT_ERR_DIRECTION');
  assert.is(thrown(() => world.raycast([NaN, 0, 0], [-1, 0, 0], 5)).code, 'CT_ERR_DIRECTION');
  assert.is(thrown(() => world.raycast(o, [-1, 0, 0], '5')).code, 'CT_ERR_DIRECTION');
  assert.is(thrown(() => world.collider({ face: 0, lod: L, x: 2 ** L, y: 0 })).code, 'CT_ERR_CHUNK_XY');
  assert.is(thrown(() => world.collider(LAND, { stride: 3 })).code, 'CT_ERR_MESH');
  assert.is(thrown(() => world.groundInChunk(chunk, 256.5, 1)).code, 'CT_ERR_LOCAL');
  assert.is(thrown(() => world.groundInChunk(chunk, NaN, 1)).code, 'CT_ERR_LOCAL');
  assert.is(thrown(() => world.groundInChunk({ ...chunk, generation: '0' }, 1, 1)).code, 'CT_ERR_MESH');
  assert.is(thrown(() => world.groundInChunk({ ...chunk, key: { ...LAND, x: 2 ** L } }, 1, 1)).code, 'CT_ERR_CHUNK_XY');
  assert.ok(world.groundAt([1, 0, 0]).heightM > -20000, 'still answers');
});

test.run();
