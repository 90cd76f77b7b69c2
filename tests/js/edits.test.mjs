// edits.test.mjs - Edit sets on the WebAssembly build (wasm/ct_edits.mjs):
// encodeEdits/decodeEdits round trips (doubles exact), withEdits shaping
// samples, chunks, the ground, raycasts and colliders, untouched chunks equal
// to the base world's and touched ones marked, editedKeys, the address, the
// snapshot, a path's water crossings, bad edits named by index and field with
// the world unchanged, the native build's digest of an edited chunk, and
// pool.withEdits in workers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshCore, thrown, ROOT } from './ct_fixture.mjs';
import { createPool } from '../../worker/client.js';

const core = await freshCore();
// The world of tests/c/test_edits.c (its --digest mode builds the same one).
const SPEC = { preset: 'balanced', set: { macro_resolution: 32, seed: 7, surface_lod: 9, radius_m: 400000 } };
const base = core.buildWorld(SPEC);
const R = base.config.radius_m;

const unit = (a) => { const l = Math.hypot(a[0], a[1], a[2]); return [a[0] / l, a[1] / l, a[2] / l]; };
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
/** The direction m metres from c along tangent t (small angles). */
const along = (c, t, m) => unit([c[0] + t[0] * m / R, c[1] + t[1] * m / R, c[2] + t[2] * m / R]);

/** Dry land between 200 and 1500 m with dry ground 2 km around. */
function findLand() {
  for (let i = 0; i < 400; i++) {
    const c = unit([Math.cos(i * 0.37) * 0.8, Math.sin(i * 0.91) * 0.6, 0.3 + 0.01 * i]);
    const s = base.sampleAt(c);
    if (s.hasWater || s.heightM < 200 || s.heightM > 1500) continue;
    const t1 = unit(cross(c, [0, 1, 0])), t2 = cross(c, t1);
    const ring = [];
    for (let j = 0; j < 8; j++) {
      const t = [0, 1, 2].map((k) => t1[k] * Math.cos(j * 0.785) + t2[k] * Math.sin(j * 0.785));
      ring.push(along(c, t, 2000));
    }
    if (base.sample(ring).hasWater.every((w) => !w)) return { c, t1, t2 };
  }
  throw new Error('no land found');
}
const { c, t1, t2 } = findLand();
const h0 = base.sampleAt(c).heightM;

const SET = [
  { kind: 'flatten', center: c, radiusM: 300, blendM: 200 },
  { kind: 'crater', center: along(c, t1, 2500), radiusM: 600, depthM: 60, rimM: 15 },
  { kind: 'path', points: [along(c, t2, -1500), along(c, t2, -300), along(c, t1, 1200)], widthM: 8, maxGradeDeg: 6 },
  { kind: 'brush', center: along(c, t2, 2000), radiusM: 400, deltaM: 0.1 + 0.2 },
];

test('encodeEdits and decodeEdits round-trip every double', () => {
  const bytes = core.encodeEdits(SET), back = core.decodeEdits(bytes);
  assert.equal(back.length, 4);
  assert.is(back[3].deltaM, 0.1 + 0.2);
  assert.equal(back[0].center, c);
  assert.is(back[0].heightM, undefined);
  assert.equal(back[2].points[1], SET[2].points[1]);
  assert.equal(core.encodeEdits(back), bytes);
  assert.is(String.fromCharCode(...bytes.subarray(0, 7)), 'CTEDITS');
});

test('withEdits shapes samples, ground and raycasts; the base is untouched', () => {
  const w = base.withEdits(SET);
  try {
    assert.match(w.editSetId, /^[0-9a-f]{16}$/);
    assert.is.not(w.editSetId, '0000000000000000');
    assert.is(base.editSetId, '0000000000000000');
    assert.is(w.generation, base.generation);
    assert.ok(Math.abs(w.sampleAt(along(c, t1, 200)).heightM - h0) < 1e-6, 'pad flat at the centre height');
    const crater = SET[1].center;
    assert.ok(Math.abs(w.sampleAt(crater).heightM - (base.sampleAt(crater).heightM - 60)) < 1e-6, 'crater floor');
    assert.ok(Math.abs(w.sampleAt(SET[3].center).heightM - base.sampleAt(SET[3].center).heightM - 0.30000000000000004) < 1e-9);
    const g = w.groundAt(c);
    assert.ok(Math.abs(g.heightM - h0) < 1e-3 && g.slopeDeg < 0.01, `ground on the pad ${g.heightM} ${g.slopeDeg}`);
    const o = c.map((v) => v * (R + 5000)), hit = w.raycast(o, c.map((v) => -v), 10000);
    assert.ok(hit && Math.abs(hit.distanceM - (5000 - h0)) < 1e-2, 'the ray lands on the pad');
    const far = along(c, t1, -6000);
    assert.is(w.sampleAt(far).heightM, base.sampleAt(far).heightM, 'beyond every footprint');
    assert.equal(w.editSet, core.decodeEdits(core.encodeEdits(SET)));
  } finally {
    w.free();
  }
});

test('untouched chunks equal the base world; editedKeys lists the rest', () => {
  const w = base.withEdits(SET), lod = 9;
  try {
    const keys = w.editedKeys(lod), listed = new Set(keys.map((k) => `${k.face}/${k.x}/${k.y}`));
    assert.ok(keys.length > 2 && keys.length < 40, `${keys.length} keys`);
    const sorted = [...keys].sort((a, b) => a.face - b.face || a.y - b.y || a.x - b.x);
    assert.equal(keys, sorted);
    const { key } = w.keyAt(c, lod);
    let touched = 0, same = 0;
    for (let dy = -3; dy <= 3; dy++) {
      for (let dx = -3; dx <= 3; dx++) {
        const k = { face: key.face, lod, x: key.x + dx, y: key.y + dy };
        const a = base.chunk(k), b = w.chunk(k);
        if (listed.has(`${k.face}/${k.x}/${k.y}`)) {
          assert.is(b.editSet, w.editSetId);
          assert.is.not(b.digest, a.digest);
          touched++;
        } else {
          assert.is(b.digest, a.digest);
          assert.is(b.editSet, '0000000000000000');
          assert.equal(b.heightM, a.heightM);
          assert.equal(w.chunkCtc(k), base.chunkCtc(k));
          same++;
        }
      }
    }
    assert.ok(touched > 0 && same > 0);
    const k = keys[0], ctc = w.chunkCtc(k);
    assert.is(ctc.length, 396362);
    assert.is(ctc[8], 3);
    assert.is(core.verifyCtc(ctc).digest, w.chunk(k).digest);
    const col = w.collider(keys.find((q) => q.x === key.x && q.y === key.y) || k), col0 = base.collider(keys.find((q) => q.x === key.x && q.y === key.y) || k);
    assert.not.equal(col.positions, col0.positions, 'the collider shows the edits');
    assert.match(w.address(k), new RegExp(`/${base.generation}~${w.editSetId}/`));
    assert.not.match(base.address(k), /~/);
  } finally {
    w.free();
  }
});

test('snapshots carry the edit set; the base snapshot is unchanged', () => {
  const before = base.snapshot(), w = base.withEdits(SET);
  try {
    assert.equal(base.snapshot(), before);
    const snap = w.snapshot();
    assert.equal(snap.subarray(0, before.length), before);
    const r = core.loadWorld(snap);
    try {
      assert.is(r.editSetId, w.editSetId);
      assert.equal(r.editBytes(), w.editBytes());
      const k = w.editedKeys(9)[0];
      assert.is(r.chunk(k).digest, w.chunk(k).digest);
    } finally {
      r.free();
    }
  } finally {
    w.free();
  }
});

test('a path reports where it crosses water', () => {
  // a land sample with sea within 3 km: the path runs from it into the sea
  let pts = null;
  for (let i = 0; i < 4000 && !pts; i++) {
    const l = unit([Math.cos(i * 0.13) * 0.9, Math.sin(i * 0.71) * 0.7, Math.sin(i * 0.29)]);
    if (base.sampleAt(l).hasWater) continue;
    const u1 = unit(cross(l, [0, 1, 0])), ring = [];
    for (let m = 500; m <= 3000; m += 500) ring.push(along(l, u1, m));
    const s = base.sample(ring), k = s.hasWater.findIndex((w, j) => w && s.waterBody[j] === 0);
    if (k >= 0) pts = [l, along(l, u1, 500 * (k + 1) + 500)];
  }
  assert.ok(pts, 'a coast');
  const w = base.withEdits([{ kind: 'path', points: pts, widthM: 6, maxGradeDeg: 5 }]);
  try {
    const cr = w.pathCrossings(0);
    assert.ok(cr.length >= 1, 'a crossing');
    assert.ok(cr[0].toM >= cr[0].fromM && cr[0].fromM > 0);
    assert.is(cr[0].waterBody, 0);
    assert.ok(Number.isFinite(cr[0].waterM) && cr[0].fromDir.length === 3);
    assert.is(thrown(() => w.pathCrossings(1)).code, 'CT_ERR_CONFIG');
  } finally {
    w.free();
  }
});

test('bad edits name the index and field; the world is unchanged', () => {
  const at = base.sampleAt(c).heightM;
  let e = thrown(() => base.withEdits([SET[0], { ...SET[1], radiusM: NaN }]));
  assert.is(e.code, 'CT_ERR_CONFIG');
  assert.match(e.message, /edit 1 \(crater\): radiusM/);
  e = thrown(() => base.withEdits([SET[0], SET[1], { ...SET[1], radiusM: 1e6 }]));
  assert.match(e.message, /edit 2 \(crater\): radiusM .* out of range/);
  e = thrown(() => base.withEdits([{ kind: 'path', points: [c], widthM: 4, maxGradeDeg: 5 }]));
  assert.match(e.message, /edit 0 \(path\): points/);
  e = thrown(() => base.withEdits([{ kind: 'moat', center: c }]));
  assert.match(e.message, /edit 0: kind "moat"/);
  e = thrown(() => base.withEdits([{ kind: 'brush', center: c, radiusM: 10 }]));
  assert.match(e.message, /edit 0 \(brush\): deltaM must be a number/);
  e = thrown(() => base.withEdits(new Array(4097).fill(SET[3])));
  assert.match(e.message, /too many edits/);
  assert.is(base.sampleAt(c).heightM, at);
  assert.is(base.editSetId, '0000000000000000');
});

test('native and WebAssembly agree on an edited chunk', () => {
  const make = spawnSync('make', ['--no-print-directory', '-j2', 'build/native/tests/test_edits'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(make.status, 0, make.stderr);
  const w = base.withEdits(SET), dir = mkdtempSync(path.join(tmpdir(), 'edits-'));
  try {
    const file = path.join(dir, 'set.ctedits');
    writeFileSync(file, core.encodeEdits(SET));
    const k = w.editedKeys(9)[0];
    const r = spawnSync(path.join(ROOT, 'build/native/tests/test_edits'), ['--digest', file, k.face, k.lod, k.x, k.y], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    const chunk = w.chunk(k);
    assert.is(r.stdout.trim(), `${chunk.editSet} ${chunk.digest}`);
  } finally {
    w.free();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('freeing the base frees its edited worlds', () => {
  const b = core.buildWorld(SPEC), w = b.withEdits(SET);
  b.free();
  assert.is(thrown(() => w.sampleAt(c)).code, 'CT_ERR_NULL');
});

test('pool.withEdits applies the set in every worker', async () => {
  const pool = await createPool({ workers: 2 });
  try {
    await pool.load(base.snapshot());
    const w = base.withEdits(SET), k = w.editedKeys(9)[0];
    const before = await pool.chunk(k);
    const r = await pool.withEdits(SET);
    assert.is(r.editSetId, w.editSetId);
    // every listed key at once: both workers answer some of them
    const keys = w.editedKeys(9), chunks = await Promise.all(keys.map((q) => pool.chunk(q)));
    chunks.forEach((ch, i) => {
      assert.is(ch.digest, w.chunk(keys[i]).digest);
      assert.is(ch.editSet, w.editSetId);
    });
    assert.is.not(before.digest, chunks[0].digest);
    const bad = await pool.withEdits([{ kind: 'crater', center: c, radiusM: NaN, depthM: 1 }]).catch((e) => e);
    assert.is(bad.code, 'CT_ERR_CONFIG');
    assert.is((await pool.chunk(k)).digest, w.chunk(k).digest, 'the edited world stays after a bad set');
    await pool.withEdits([]);
    assert.is((await pool.chunk(k)).digest, base.chunk(k).digest, 'an empty set gives the base world back');
    w.free();
  } finally {
    await pool.terminate();
  }
});

test.run();
