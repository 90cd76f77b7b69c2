// pose_parity.test.mjs - One ground pose: stream/pose.js against the core's
// ct_pose_* (core/src/base/pose.c, here through the WebAssembly build) on
// many poses on every face, edge and corner: moves of every length and
// direction, headings in the owning key and in neighbours across edges, poses
// made from key headings, the rejections and the tolerance at its boundary.
// The comparison is first run on planted changes (right taken as up x forward,
// a heading measured clockwise), so it is known to fail when the two disagree.
//
// How closely: to PARITY_TOL per component and per angle. Both run the same
// IEEE operations in the same order, except that the core normalises key
// directions with its squares summed smallest first (geo_parity.test.mjs:
// one unit in the last place), and cos, sin and atan2 come from two libms
// (V8's and the WebAssembly build's musl), each within an ulp or so.
// Measured on 20,000 random LOD-10 key poses and moves of up to 500 km each
// way: moves differ by at most 2^-52 (99.8% bit-identical), headings not at
// all, poses from key headings by at most 2^-51. PARITY_TOL leaves room.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as pose from '../../stream/pose.js';
import { keyAt, cross, normalize, dot } from '../../stream/geo.js';
import { freshCore } from './ct_fixture.mjs';

const core = await freshCore();
const R = 6371000;
const PARITY_TOL = 1e-12;

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const gap = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
const angleGap = (a, b) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));

/** Directions on faces, along all 12 edges, at the 8 corners, near the poles and at random. */
function directions() {
  const r = rng(17), out = [];
  for (let n = 0; n < 300; n++) out.push(normalize([r() - 0.5, r() - 0.5, r() - 0.5]));
  for (const a of [1, -1]) for (const b of [1, -1]) {
    for (const t of [0, 0.4, -0.9]) out.push(normalize([a, b, t]), normalize([t, a, b]), normalize([a, t, b]));
    for (const c of [1, -1]) out.push(normalize([a, b, c]), normalize([a, b, c * (1 - 1e-9)]));
  }
  out.push([0, 1, 0], [0, -1, 0], normalize([1e-9, 1, 0]), normalize([0, -1, 1e-12]));
  return out;
}

/** Poses at those directions with headings all round. */
function poses() {
  const r = rng(23);
  return directions().map((d) => {
    const side = normalize(cross(d, Math.abs(d[0]) < 0.9 ? [1, 0, 0] : [0, 0, 1])), ahead = cross(side, d);
    const a = r() * 2 * Math.PI;
    return { dir: d, forward: normalize([0, 1, 2].map((k) => side[k] * Math.cos(a) + ahead[k] * Math.sin(a))) };
  });
}

const POSES = poses();
const MOVES = [[1, 0], [0, -1], [1500, 300], [-2e6, 5e5], [4e7, 0], [1e-3, 1e-3], [-7e6, -9e6]];
const KEY_POSITIONS = (() => {
  const out = [], r = rng(29);
  for (const lod of [0, 3, 9, 16]) {
    const last = 2 ** lod - 1;
    for (let face = 0; face < 6; face++) {
      for (const [x, y] of [[0, 0], [last, last], [0, last], [last >> 1, last >> 2]]) {
        for (const [lx, ly] of [[0, 0], [256, 256], [256, 0], [128, 64.25], [-10, 300], [r() * 256, r() * 256]]) {
          out.push({ key: { face, lod, x, y }, lx, ly, angle: r() * 7 - 3.5 });
        }
      }
    }
  }
  return out;
})();

/** Every disagreement between a pose implementation and the core (at most `cap` messages each). */
function compareWithCore(js, cap = 5) {
  const out = { movePose: [], headingInKey: [], poseFromKeyHeading: [] };
  const note = (list, msg) => { if (list.length < cap) list.push(msg); else list.more = (list.more ?? 0) + 1; };
  for (const p of POSES) {
    for (const [f, rt] of MOVES) {
      const a = js.movePose(p, f, rt, R), b = core.movePose(p, f, rt, R);
      const g = Math.max(gap(a.dir, b.dir), gap(a.forward, b.forward));
      if (!(g <= PARITY_TOL)) note(out.movePose, `movePose(${JSON.stringify(p)}, ${f}, ${rt}): gap ${g}`);
    }
    // The owner at two LODs, and the neighbours across edges and corners.
    for (const key of [keyAt(p.dir, 0).key, keyAt(p.dir, 12).key, ...core.keyNeighbourhood(keyAt(p.dir, 2).key, 128, 128)]) {
      let a, b;
      try { a = js.headingInKey(p, key); } catch (e) { a = e.code; }
      try { b = core.headingInKey(p, key); } catch (e) { b = e.code; }
      const bad = typeof a === 'string' || typeof b === 'string' ? a !== b : !(angleGap(a, b) <= PARITY_TOL);
      if (bad) note(out.headingInKey, `headingInKey(${JSON.stringify(p)}, ${JSON.stringify(key)}): ${a} vs ${b}`);
    }
  }
  for (const { key, lx, ly, angle } of KEY_POSITIONS) {
    const a = js.poseFromKeyHeading(key, lx, ly, angle), b = core.poseFromKeyHeading(key, lx, ly, angle);
    const g = Math.max(gap(a.dir, b.dir), gap(a.forward, b.forward));
    if (!(g <= PARITY_TOL)) note(out.poseFromKeyHeading, `poseFromKeyHeading(${JSON.stringify(key)}, ${lx}, ${ly}, ${angle}): gap ${g}`);
  }
  return out;
}

const count = (list) => list.length + (list.more ?? 0);

test('the comparison catches a planted right = up x forward', () => {
  const flipped = { ...pose, movePose: (p, f, rt, r) => pose.movePose(p, f, -rt, r) };
  const bad = compareWithCore(flipped);
  assert.ok(count(bad.movePose) > 0, 'a mirrored right went unnoticed');
});

test('the comparison catches a planted clockwise heading', () => {
  const cw = {
    ...pose,
    headingInKey: (p, k) => -pose.headingInKey(p, k),
    poseFromKeyHeading: (k, x, y, a) => pose.poseFromKeyHeading(k, x, y, -a),
  };
  const bad = compareWithCore(cw);
  assert.ok(count(bad.headingInKey) > 0 && count(bad.poseFromKeyHeading) > 0, 'clockwise headings went unnoticed');
});

test('stream/pose.js agrees with the core on moves, headings in keys and poses from key headings', () => {
  const bad = compareWithCore(pose);
  for (const [fn, list] of Object.entries(bad)) assert.is(count(list), 0, `${fn}: ${count(list)} disagreements\n${list.join('\n')}`);
  assert.ok(POSES.length * MOVES.length > 2000, 'moves compared');
  // Some neighbours across edges are on the far side of their face: both refuse them alike.
  let refused = 0;
  for (const p of POSES) {
    for (const key of core.keyNeighbourhood(keyAt(p.dir, 0).key, 128, 128)) {
      try { pose.headingInKey(p, key); } catch (e) { refused += e.code === 'CT_ERR_LOCAL'; }
    }
  }
  assert.ok(refused > 0, 'far-side keys refused');
});

test('the same rejections, with the same codes and messages', () => {
  const good = pose.groundPoseFromLatLon(10, 10, 10), key = { face: 0, lod: 2, x: 1, y: 1 };
  const calls = [
    ['movePose', [{ dir: [NaN, 0, 0], forward: [0, 1, 0] }, 1, 0, R]],
    ['movePose', [{ dir: [0, 0, 0], forward: [0, 1, 0] }, 1, 0, R]],
    ['movePose', [{ dir: [1.01, 0, 0], forward: [0, 1, 0] }, 1, 0, R]],
    ['movePose', [{ dir: [1, 0, 0], forward: [0, 0.5, 0] }, 1, 0, R]],
    ['movePose', [{ dir: [1, 0, 0], forward: normalize([0.01, 1, 0]) }, 1, 0, R]],
    ['movePose', [good, NaN, 0, R]],
    ['movePose', [good, 1e308, 1e308, R]],
    ['movePose', [good, 1, 0, 0]],
    ['movePose', [good, 1, 0, Infinity]],
    ['headingInKey', [good, { face: 0, lod: 2, x: 4, y: 0 }]],
    ['headingInKey', [good, { face: 1, lod: 0, x: 0, y: 0 }]],
    ['headingInKey', [{ dir: [1, 0, 0], forward: [0, 0, -Infinity] }, key]],
    ['poseFromKeyHeading', [key, 0, NaN, 0]],
    ['poseFromKeyHeading', [key, 0, 0, NaN]],
    ['poseFromKeyHeading', [key, -1e12, 0, 0]],
  ];
  for (const [fn, args] of calls) {
    const err = (f) => { try { f(); return null; } catch (e) { return { code: e.code, message: e.message }; } };
    const a = err(() => pose[fn](...args)), b = err(() => core[fn](...args));
    assert.ok(a && b, `${fn}(${JSON.stringify(args)}) refused by both`);
    assert.is(a.code, b.code, `${fn}: ${a.message} / ${b.message}`);
    // Numbers print differently (%.17g and JS); the words agree.
    const words = (m) => m.replace(/[-+0-9.e]+/g, '#');
    assert.is(words(a.message), words(b.message), `${fn} messages`);
  }
});

test('both accept a pose just inside POSE_TOLERANCE and refuse one just outside', () => {
  for (const scale of [0.9, 1.1]) {
    const e = scale * pose.POSE_TOLERANCE;
    for (const p of [
      { dir: [1 + e, 0, 0], forward: [0, 1, 0] },
      { dir: [1, 0, 0], forward: [0, 1 - e, 0] },
      { dir: [1, 0, 0], forward: [e, Math.sqrt(1 - e * e), 0] },
    ]) {
      const ok = (f) => { try { f(); return true; } catch { return false; } };
      const a = ok(() => pose.movePose(p, 1, 0, R)), b = ok(() => core.movePose(p, 1, 0, R));
      assert.is(a, scale < 1, `${JSON.stringify(p)} in JS`);
      assert.is(b, a, `${JSON.stringify(p)}: JS and the core agree`);
    }
  }
  assert.ok(dot([1, 0, 0], [0, 1, 0]) === 0);
});

test.run();
