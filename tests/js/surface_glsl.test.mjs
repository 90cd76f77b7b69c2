// Tests of the surface detail's CPU half (stream/surface_glsl.js: the eye's lattice anchors, emulated in float32 as the shader computes) and of the browser tests' detail metric (tests/browser/detail_metric.mjs).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { surfaceAnchors, SURFACE_ANCHOR_M, logDepthFactor, SURFACE_NOISE_GLSL, SURFACE_MATERIAL_GLSL, SURFACE_WATER_GLSL, SURFACE_BLEND_GLSL, PALETTE_SOFT_TAPS } from '../../stream/surface_glsl.js';
import { detailShare } from '../browser/detail_metric.mjs';
import { latLonToDir } from '../../stream/geo.js';

const R = 6371000;
const f32 = Math.fround;

/** The shader's lattice cell and fraction of world point p seen from eye e, frame k, m cells per anchor cell (float32 maths). */
function shaderLattice(p, e, k, m) {
  const a = surfaceAnchors(e);
  const rel = [f32(p[0] - e[0]), f32(p[1] - e[1]), f32(p[2] - e[2])];   // camera-relative, as the GPU gets it
  const cell = [], frac = [];
  for (let axis = 0; axis < 3; axis++) {
    let q = a.fine[3 * k + axis];
    for (let b = 0; b < 3; b++) q = f32(q + f32(a.rot[9 * k + 3 * b + axis] * rel[b]));
    const x = f32(q * f32(m / SURFACE_ANCHOR_M));
    const fl = Math.floor(x);
    cell.push(a.cell[3 * k + axis] * m + fl);
    frac.push(f32(x - fl));
  }
  return { cell, frac };
}

/** Lattice position (cells, fractional) of p from the same formula in float64: the truth. */
function trueLattice(p, e, k, m) {
  const a = surfaceAnchors(e), out = [];
  for (let axis = 0; axis < 3; axis++) {
    let q = 0;
    for (let b = 0; b < 3; b++) q += a.rot[9 * k + 3 * b + axis] * p[b];
    out.push(q * m / SURFACE_ANCHOR_M);
  }
  return out;
}

test('anchors: cell * SURFACE_ANCHOR_M + fine is the rotated eye, fine in [0, SURFACE_ANCHOR_M)', () => {
  for (const [la, lo] of [[0, 0], [35.36, 45], [-30.55, -119], [89.9, 10], [35.26, 45]]) {
    const e = latLonToDir(la, lo).map((x) => x * (R + 1234.5));
    const a = surfaceAnchors(e);
    for (let k = 0; k < 3; k++) {
      for (let axis = 0; axis < 3; axis++) {
        let q = 0;
        for (let b = 0; b < 3; b++) q += a.rot[9 * k + 3 * b + axis] * e[b];
        assert.ok(a.fine[3 * k + axis] >= 0 && a.fine[3 * k + axis] < SURFACE_ANCHOR_M, 'fine in range');
        assert.ok(Math.abs(a.cell[3 * k + axis] * SURFACE_ANCHOR_M + a.fine[3 * k + axis] - q) < 1e-3, 'reconstructs');
      }
    }
  }
});

test('a ground point 2 m from the eye gets the same noise from eyes in different anchor cells, to 1/1000 of a 3 cm cell, anywhere on the planet', () => {
  const m = 32768;   // 1024 / 32768 m = 3.1 cm cells, the finest octave at eye height
  let worst = 0;
  for (const [la, lo] of [[0.001, 0.001], [35.36, 45], [-30.55, -119], [60, -170], [35.2644, 45]]) {
    const up = latLonToDir(la, lo);
    const p = up.map((x) => x * R);
    // Eyes 1.7 m up and walked up to 3 km away: they straddle anchor cells.
    for (const d of [0, 0.37, 500, 1500, 3000]) {
      const e = latLonToDir(la + d / 111000, lo).map((x) => x * (R + 1.7));
      for (let k = 0; k < 3; k++) {
        const s = shaderLattice(p, e, k, m), t = trueLattice(p, e, k, m);
        for (let axis = 0; axis < 3; axis++) worst = Math.max(worst, Math.abs(s.cell[axis] + s.frac[axis] - t[axis]));
      }
    }
  }
  // Distances up to 3 km cost float32 steps of 3000 m * 6e-8 = 0.2 mm = 0.006 cells.
  assert.ok(worst < 0.01, `worst lattice error ${worst} cells`);
});

test('the trap the anchors avoid: float32 world coordinates put a 3 cm lattice off by whole cells', () => {
  const p = latLonToDir(35.36, 45).map((x) => x * R);
  const m = 32768, errs = p.map((x) => Math.abs(f32(x) * m / SURFACE_ANCHOR_M - x * m / SURFACE_ANCHOR_M));
  assert.ok(Math.max(...errs) > 1, `naive error ${Math.max(...errs)} cells`);
});

test('logDepthFactor: 1 / log2(1 + far)', () => {
  assert.ok(Math.abs(logDepthFactor(1023) - 0.1) < 1e-12);
});

test('the GLSL chunks define what the shaders call', () => {
  for (const fn of ['sfNoise', 'sfDetail', 'sfBump', 'sfOctaveWeight']) assert.match(SURFACE_NOISE_GLSL, new RegExp(`\\b${fn}\\(`));
  for (const fn of ['sfMaterial', 'sfRoughness', 'sfMaterialHeight', 'sfRipples']) assert.match(SURFACE_MATERIAL_GLSL, new RegExp(`\\b${fn}\\(`));
  for (const fn of ['sfWaveNormal', 'sfFoam', 'sfWaterReflect']) assert.match(SURFACE_WATER_GLSL, new RegExp(`\\b${fn}\\(`));
  assert.not.match(SURFACE_NOISE_GLSL + SURFACE_MATERIAL_GLSL + SURFACE_WATER_GLSL, /\b(patch|sample|filter|active|common)\b\s*[=;,)]/, 'no GLSL ES reserved words as names');
});

function image(w, h, fn) {
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rgb.set(fn(x, y), 3 * (y * w + x));
  return { width: w, height: h, rgb };
}

test('detailShare: a flat sheet scores 0, a textured one 1, black blocks do not count', () => {
  assert.is(detailShare(image(128, 128, () => [90, 120, 60])).share, 0);
  const noisy = image(128, 128, (x, y) => { const v = 100 + ((x * 7 + y * 13) % 11); return [v, v, v]; });
  assert.is(detailShare(noisy).share, 1);
  const half = image(128, 128, (x, y) => (x < 64 ? [0, 0, 0] : [100 + (x + y) % 9, 100 + (x + y) % 9, 100]));
  const r = detailShare(half);
  assert.is(r.blocks, 4);   // lower half, right half: 2 x 2 blocks of 32
  assert.is(r.share, 1);
  // A step of 1 grey level over half a block is under the 2/255 threshold.
  const faint = image(64, 64, (x) => [100 + (x % 32 < 16 ? 0 : 1), 100, 100]);
  assert.is(detailShare(faint).share, 0);
});

/** The shader's mapAt along one row: bilinear between samples (colour v[i] at t = i, clamped at the ends). */
const bilinear = (v, t) => {
  const i = Math.max(0, Math.min(v.length - 1, Math.floor(t))), j = Math.min(v.length - 1, i + 1), f = Math.max(0, Math.min(1, t - i));
  return v[i] + (v[j] - v[i]) * f;
};
/** sfMapSoft along x through the same taps as the GLSL. */
const soft = (v, t) => PALETTE_SOFT_TAPS.reduce((s, [dx, , w]) => s + w * bilinear(v, t + dx), 0);

test('palette softening: taps sum to 1, are symmetric, and the GLSL uses every one', () => {
  const sum = PALETTE_SOFT_TAPS.reduce((s, [, , w]) => s + w, 0);
  assert.ok(Math.abs(sum - 1) < 1e-12, `weights sum to ${sum}`);
  for (const [x, y, w] of PALETTE_SOFT_TAPS) {
    assert.ok(PALETTE_SOFT_TAPS.some(([a, b, u]) => a === -x && b === -y && u === w), `mirror of (${x}, ${y})`);
    assert.match(SURFACE_BLEND_GLSL, new RegExp(`vec2\\(${x.toFixed(4)}, ${y.toFixed(4)}\\)`));
  }
});

test('palette softening: a colour step between two samples becomes a monotone ramp at least two samples wide', () => {
  const v = Array.from({ length: 21 }, (_, i) => (i < 10 ? 0 : 1));   // a biome edge between samples 9 and 10
  let prev = -1, maxStep = 0, lo = null, hi = null;
  for (let t = 5; t <= 15; t += 0.05) {
    const c = soft(v, t);
    assert.ok(c >= prev - 1e-12, `monotone at ${t}`);
    if (prev >= 0) maxStep = Math.max(maxStep, c - prev);
    if (lo === null && c > 0.1) lo = t;
    if (hi === null && c > 0.9) hi = t;
    prev = c;
  }
  // Bilinear alone ramps over 0.8 samples (10-90%); the taps widen it.
  assert.ok(hi - lo >= 2.0, `10-90% ramp over ${(hi - lo).toFixed(2)} samples`);
  assert.ok(maxStep <= 0.05 * 0.55, `steepest change ${maxStep.toFixed(4)} per 0.05 sample`);
});

test.run();

