// geo_parity.test.mjs - One addressing contract: stream/geo.js, the streaming
// library's own copy of the cube addressing, against the core's (cube.c, here
// through the WebAssembly build) on every face, edge and corner, beyond the
// face, on exact ties and at LODs 0 to MAX_LOD. The comparison is first run
// on planted addressing changes (one face's v sign flipped, ties given to Z
// first), so it is known to fail when the two disagree.
//
// What must agree, and how closely:
// - keyAt(d, lod) (key and local position) and dirToFaceUv(d) (face, and u, v
//   as the local position at LOD 0): exactly. Both divide the components by
//   the largest magnitude and scale by powers of two, the same IEEE operations
//   in the same order, so every bit agrees for the same input direction.
// - keyDirection(key, lx, ly) and faceUvToDir(face, u, v): to DIR_TOL per
//   component. The face point is the same, but geo.js normalises with
//   x*x + y*y + z*z in axis order while the core adds the squares smallest
//   first (so a point shared by two faces normalises to the same bits), so
//   the length may differ in its last bit. Measured on 200,000 random key
//   positions at LODs 0-16, on and beyond the face: 94% agree to the bit and
//   the largest gap is 2^-52 (one unit in the last place of a component in
//   [0.5, 1)); DIR_TOL is twice that.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as geo from '../../stream/geo.js';
import { CHUNK_CORE, MAX_LOD } from '../../wasm/ct_constants.mjs';
import { freshCore } from './ct_fixture.mjs';

const core = await freshCore();
const LODS = [0, 1, 2, 5, 8, 12, MAX_LOD];
/** Two units in the last place of a component in [0.5, 1). */
const DIR_TOL = 2 ** -51;

/** Small deterministic generator so failures reproduce. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const SIGNS = [1, -1];
const AXES = [[0, 1, 2], [1, 2, 0], [2, 0, 1]];
/** [a, b, c] placed on axes (i, j, k) with every sign pattern. */
function signed(a, b, c, [i, j, k]) {
  const out = [];
  for (const si of SIGNS) for (const sj of SIGNS) for (const sk of SIGNS) {
    const d = [0, 0, 0];
    d[i] = si * a; d[j] = sj * b; d[k] = sk * c;
    out.push(d);
  }
  return out;
}

/**
 * Directions to compare: face centres, the 8 corners (three-way ties), points
 * along all 12 edges (two-way ties, also at unequal lengths), near-ties one
 * ulp off, negative zeros, chunk-border sample directions at several LODs,
 * directions reached from beyond a face, and random ones.
 */
function directions() {
  const dirs = [];
  for (const ax of AXES) dirs.push(...signed(1, 0, 0, ax), ...signed(1, -0, 0, ax), ...signed(3, 0, -0, ax));
  dirs.push(...signed(1, 1, 1, AXES[0]), ...signed(0.5, 0.5, 0.5, AXES[0]), ...signed(7, 7, 7, AXES[0]));
  const along = [0, 1e-300, 2 ** -30, 0.125, 0.3, 0.5, 0.7, 0.999, 1 - 2 ** -53];
  for (const ax of AXES) {
    for (const t of along) dirs.push(...signed(1, 1, t, ax), ...signed(3, 3, 3 * t, ax), ...signed(1, t, 1, ax));
    // One ulp off a tie: the larger component owns the direction.
    dirs.push(...signed(1, 1 - 2 ** -53, 0.25, ax), ...signed(1 - 2 ** -53, 1, 0.25, ax));
    dirs.push(...signed(1, 1, 1 - 2 ** -53, ax), ...signed(1 + 2 ** -52, 1, 1, ax));
  }
  const r = rng(31);
  for (let n = 0; n < 600; n++) {
    const d = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
    if (d[0] || d[1] || d[2]) dirs.push(d);
  }
  // Exact ties of random magnitude (the two largest equal), on every axis pair.
  for (let n = 0; n < 60; n++) {
    const a = 0.1 + r(), b = a * r();
    dirs.push(...signed(a, a, b, AXES[n % 3]).slice(0, 2 + (n % 6)));
  }
  // The core's own sample directions on chunk borders, face edges and corners,
  // and past them (local positions beyond [0, 256] continue across edges).
  for (const lod of [0, 1, 4, 9]) {
    const last = 2 ** lod - 1;
    for (let face = 0; face < 6; face++) {
      for (const [x, y] of [[0, 0], [last, 0], [0, last], [last, last], [last >> 1, last >> 1]]) {
        for (const lx of [0, 1, 128, 255.5, 256, -1, 257, -CHUNK_CORE * 2 ** lod, 3 * CHUNK_CORE * 2 ** lod]) {
          for (const ly of [0, 128, 256, -0.25, 300]) dirs.push(core.keyDirection({ face, lod, x, y }, lx, ly));
        }
      }
    }
  }
  return dirs;
}

/**
 * Key positions for keyDirection: every face, both ends and the middle of
 * the chunk range, local positions on borders, inside and far beyond the face.
 */
function keyPositions() {
  const out = [];
  const r = rng(7);
  for (const lod of LODS) {
    const side = 2 ** lod, span = CHUNK_CORE * side;
    for (let face = 0; face < 6; face++) {
      const xs = [...new Set([0, side >> 1, side - 1])];
      for (const x of xs) for (const y of xs) {
        for (const lx of [0, 128, 256, -1, 257, -span, 2 * span, 0.5 + r() * 255]) {
          for (const ly of [0, 256, 100.25, -3 * span, span + 1]) out.push({ key: { face, lod, x, y }, lx, ly });
        }
      }
      for (let n = 0; n < 10; n++) {
        const key = { face, lod, x: Math.floor(r() * side), y: Math.floor(r() * side) };
        out.push({ key, lx: (r() * 8 - 4) * span, ly: (r() * 8 - 4) * span });
        out.push({ key, lx: r() * 1e9 - 5e8, ly: -r() * 1e9 });
      }
    }
  }
  return out;
}

/** Face (u, v) pairs for faceUvToDir: dyadic (u + 1 exact), on and far beyond the face. */
function faceUvs() {
  const out = [];
  const r = rng(11);
  const us = [-1, -0.5, 0, 0.5, 1, -1.5, 3, -7.25, 2 ** 20, -(2 ** 20)];
  for (let face = 0; face < 6; face++) {
    for (const u of us) for (const v of us) out.push([face, u, v]);
    for (let n = 0; n < 40; n++) out.push([face, Math.round((r() * 6 - 3) * 2 ** 30) / 2 ** 30, Math.round((r() * 6 - 3) * 2 ** 30) / 2 ** 30]);
  }
  return out;
}

const DIRS = directions();
const POSITIONS = keyPositions();
const FACE_UVS = faceUvs();

/** The core's answers, computed once. */
const CORE = {
  keyAt: LODS.map((lod) => DIRS.map((d) => core.keyAt(d, lod))),
  keyDirection: POSITIONS.map(({ key, lx, ly }) => core.keyDirection(key, lx, ly)),
  faceUvToDir: FACE_UVS.map(([face, u, v]) => core.keyDirection({ face, lod: 0, x: 0, y: 0 }, (u + 1) * 128, (v + 1) * 128)),
};

const sameKey = (a, b) => a.face === b.face && a.lod === b.lod && a.x === b.x && a.y === b.y;
const fmt = (x) => JSON.stringify(x);
const gap = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));

/**
 * Every disagreement between an addressing implementation (geo.js or a
 * planted copy) and the core, by function; at most `cap` messages each.
 */
function compareWithCore(js, cap = 5) {
  const out = { keyAt: [], dirToFaceUv: [], keyDirection: [], faceUvToDir: [] };
  const note = (list, msg) => { if (list.length < cap) list.push(msg); else list.more = (list.more ?? 0) + 1; };
  LODS.forEach((lod, li) => DIRS.forEach((d, i) => {
    const want = CORE.keyAt[li][i], got = js.keyAt(d, lod);
    if (!sameKey(got.key, want.key) || got.localX !== want.localX || got.localY !== want.localY) {
      note(out.keyAt, `keyAt(${fmt(d)}, ${lod}): ${fmt(got)}, core ${fmt(want)}`);
    }
  }));
  DIRS.forEach((d, i) => {
    // At LOD 0 the core's local position is (u + 1) * 0.5 * 256, exactly.
    const want = CORE.keyAt[0][i], got = js.dirToFaceUv(d);
    const lx = (got.u + 1) * 0.5 * CHUNK_CORE, ly = (got.v + 1) * 0.5 * CHUNK_CORE;
    if (got.face !== want.key.face || lx !== want.localX || ly !== want.localY) {
      note(out.dirToFaceUv, `dirToFaceUv(${fmt(d)}): ${fmt(got)}, core face ${want.key.face} local ${want.localX} ${want.localY}`);
    }
  });
  POSITIONS.forEach(({ key, lx, ly }, i) => {
    const want = CORE.keyDirection[i], got = js.keyDirection(key, lx, ly);
    if (!(gap(got, want) <= DIR_TOL)) note(out.keyDirection, `keyDirection(${fmt(key)}, ${lx}, ${ly}): ${fmt(got)}, core ${fmt(want)}`);
  });
  FACE_UVS.forEach(([face, u, v], i) => {
    const want = CORE.faceUvToDir[i], got = js.faceUvToDir(face, u, v);
    if (!(gap(got, want) <= DIR_TOL)) note(out.faceUvToDir, `faceUvToDir(${face}, ${u}, ${v}): ${fmt(got)}, core ${fmt(want)}`);
  });
  return out;
}

/** geo.js with face -Y's v mirrored everywhere: self-consistent, so geo.js's own round trips still pass. */
function flippedFace(face = 3) {
  const mirror = (r) => ({
    key: { ...r.key, y: 2 ** r.key.lod - 1 - r.key.y }, localX: r.localX, localY: CHUNK_CORE - r.localY,
  });
  return {
    keyAt: (d, lod) => { const r = geo.keyAt(d, lod); return r.key.face === face ? mirror(r) : r; },
    dirToFaceUv: (d) => { const r = geo.dirToFaceUv(d); return r.face === face ? { ...r, v: -r.v } : r; },
    keyDirection: (key, lx, ly) => (key.face === face
      ? geo.keyDirection({ ...key, y: 2 ** key.lod - 1 - key.y }, lx, CHUNK_CORE - ly) : geo.keyDirection(key, lx, ly)),
    faceUvToDir: (f, u, v) => geo.faceUvToDir(f, u, f === face ? -v : v),
  };
}

/** geo.js with an exact X-Z tie owned by Z instead of X (the x component nudged one ulp down). */
function tiesToZ() {
  const nudge = (d) => {
    const ax = Math.abs(d[0]), ay = Math.abs(d[1]), az = Math.abs(d[2]);
    return ax === az && ax >= ay && ax > 0 ? [d[0] * (1 - 2 ** -53), d[1], d[2]] : d;
  };
  return { ...geo, keyAt: (d, lod) => geo.keyAt(nudge(d), lod), dirToFaceUv: (d) => geo.dirToFaceUv(nudge(d)) };
}

const count = (list) => list.length + (list.more ?? 0);

test('the comparison catches a planted sign flip on one face', () => {
  const bad = compareWithCore(flippedFace(3));
  for (const fn of ['keyAt', 'dirToFaceUv', 'keyDirection', 'faceUvToDir']) {
    assert.ok(count(bad[fn]) > 0, `${fn}: the flipped -Y face went unnoticed`);
  }
  // Only -Y is wrong: every message names it.
  assert.ok(bad.keyAt.every((m) => /"face":3/.test(m)), bad.keyAt.join('\n'));
  // The plant keeps geo.js's own round trip, which is why a parity test is needed.
  const p = flippedFace(3), key = { face: 3, lod: 4, x: 3, y: 9 };
  assert.equal(p.keyAt(p.keyDirection(key, 100, 50), 4).key, key);
});

test('the comparison catches a planted tie rule (Z before X)', () => {
  const bad = compareWithCore(tiesToZ());
  assert.ok(count(bad.keyAt) > 0, 'keyAt ties went unnoticed');
  assert.ok(count(bad.dirToFaceUv) > 0, 'dirToFaceUv ties went unnoticed');
});

test('the inputs reach every face, edge, corner and beyond-face position', () => {
  const faces = new Set(CORE.keyAt[0].map((r) => r.key.face));
  assert.is(faces.size, 6, 'directions on all six faces');
  const ties = (d) => {
    const a = d.map(Math.abs), m = Math.max(...a);
    return a.filter((x) => x === m).length;
  };
  assert.ok(DIRS.filter((d) => ties(d) === 3).length >= 8, 'three-way ties (corners)');
  for (const [i, j] of [[0, 1], [1, 2], [0, 2]]) {
    const n = DIRS.filter((d) => ties(d) === 2 && Math.abs(d[i]) === Math.abs(d[j])).length;
    assert.ok(n >= 12 * 4, `two-way ties on the ${'XYZ'[i]}${'XYZ'[j]} edges: ${n}`);
  }
  const beyond = POSITIONS.filter(({ lx, ly, key }) => {
    const span = CHUNK_CORE * 2 ** key.lod;
    const gx = key.x * CHUNK_CORE + lx, gy = key.y * CHUNK_CORE + ly;
    return gx < 0 || gx > span || gy < 0 || gy > span;
  });
  assert.ok(beyond.length > POSITIONS.length / 4, 'many positions beyond the face');
  const crossed = beyond.filter((p) => core.keyAt(core.keyDirection(p.key, p.lx, p.ly), 0).key.face !== p.key.face);
  assert.ok(crossed.length > 0, 'beyond-face positions land on other faces');
  assert.ok(FACE_UVS.some(([, u, v]) => Math.abs(u) > 1 || Math.abs(v) > 1), 'face uv beyond [-1, 1]');
});

test('ties: X, then Y, then Z own a tie, in the core and in geo.js', () => {
  const owner = (d) => [core.keyAt(d, 0).key.face, geo.keyAt(d, 0).key.face];
  assert.equal(owner([1, 1, 1]), [0, 0]);
  assert.equal(owner([-1, 1, -1]), [1, 1]);
  assert.equal(owner([0, -1, 1]), [3, 3]);
  assert.equal(owner([0.5, 0, -0.5]), [0, 0]);
  assert.equal(owner([0, 1, -1]), [2, 2]);
});

test('stream/geo.js agrees with the core: keyAt and dirToFaceUv exactly, directions to DIR_TOL', () => {
  const bad = compareWithCore(geo);
  for (const [fn, list] of Object.entries(bad)) {
    assert.is(count(list), 0, `${fn}: ${count(list)} disagreements\n${list.join('\n')}`);
  }
  const checked = LODS.length * DIRS.length;
  assert.ok(checked > 10000, `keyAt compared at ${checked} direction-LOD pairs`);
});

test('directions: the largest gap is within DIR_TOL, and most agree to the bit', () => {
  let worst = 0, exact = 0;
  POSITIONS.forEach(({ key, lx, ly }, i) => {
    const g = gap(geo.keyDirection(key, lx, ly), CORE.keyDirection[i]);
    worst = Math.max(worst, g);
    exact += g === 0;
  });
  assert.ok(worst <= DIR_TOL, `worst ${worst}`);
  assert.ok(exact > POSITIONS.length / 2, `${exact} of ${POSITIONS.length} bit-identical`);
});

test.run();
