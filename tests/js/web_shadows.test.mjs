// Tests of web/shadows.js's cascade fitting (splits, slice spheres, the sun's boxes with their texel snapping) and of the address bar's shadows option (web/url.js); the drawing itself is checked in a real browser (tests/browser/globe.test.mjs).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cascadeSplits, sliceSphere, sunFrame, cascadeBox, boxMatrix } from '../../web/shadows.js';
import { SHADOW_CASCADES } from '../../web/shadow_glsl.js';
import { parseShadows, subSolarPoint } from '../../web/url.js';
import { latLonToDir } from '../../stream/geo.js';

const view = { near: 105, far: 700000, fovy: (45 * Math.PI) / 180, aspect: 16 / 9, forward: [0, 0.6, -0.8], eye: [6371300, 1234.5, -987.25] };
const sub = (a, b) => a.map((x, i) => x - b[i]);
const add = (a, b) => a.map((x, i) => x + b[i]);
const scale = (a, s) => a.map((x) => x * s);
/** Column-major 4x4 matrix times (p, 1). */
const apply = (m, p) => [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);

test('splits grow geometrically from the first visible ground to 120 times the height above it', () => {
  const s = cascadeSplits(view, 300);
  assert.is(s.length, SHADOW_CASCADES + 1);
  assert.is(s[0], 150);
  assert.ok(Math.abs(s[SHADOW_CASCADES] - 36000) < 1e-6, `reach ${s[SHADOW_CASCADES]}`);
  for (let i = 1; i < s.length; i++) assert.ok(Math.abs(s[i] / s[i - 1] - s[1] / s[0]) < 1e-9);
  // From high up the reach stops at the far plane.
  assert.is(cascadeSplits(view, 30000)[SHADOW_CASCADES], view.far);
});

test('a slice sphere holds the slice of the frustum between its distances', () => {
  const v = { ...view, forward: [0, 0, -1] };
  const sph = sliceSphere(v, 400, 2000);
  const t = Math.tan(v.fovy / 2);
  for (const d of [400, 2000]) {
    for (const sx of [-1, 1]) {
      for (const sy of [-1, 1]) {
        const corner = [sx * d * t * v.aspect, sy * d * t, -d];
        assert.ok(Math.hypot(...sub(corner, sph.center)) <= sph.radius + 1e-6, `corner ${corner} outside`);
      }
    }
  }
  assert.ok(sph.radius < 2000 * 1.2, `radius ${sph.radius} is not loose`);
});

test('a cascade box: the sphere inside it, depth growing away from the sun, casters beyond its face flattened onto it', () => {
  const frame = sunFrame([0.3, 0.9, 0.1]);
  const sph = sliceSphere(view, 1000, 5000), size = 1024;
  const box = cascadeBox(frame, view.eye, sph, size);
  const matrix = boxMatrix(frame, box, view.eye);
  const c = apply(matrix, sph.center);
  assert.ok(Math.abs(c[0] - 0.5) <= 1 / size && Math.abs(c[1] - 0.5) <= 1 / size, `centre at ${c}`);
  assert.ok(Math.abs(c[2] - 2 / 3.25) <= 1 / 16 / 3.25 + 1e-6, `centre depth ${c[2]}`);
  for (const axis of [frame.R, frame.U, frame.L]) {
    for (const s of [-1, 1]) {
      const q = apply(matrix, add(sph.center, scale(axis, s * sph.radius * 0.99)));
      assert.ok(q.every((x) => x >= -1e-6 && x <= 1 + 1e-6), `sphere point ${q} outside the box`);
    }
  }
  const towardsSun = apply(matrix, add(sph.center, scale(frame.L, sph.radius)))[2];
  assert.ok(towardsSun < c[2], 'nearer the sun is smaller depth');
  assert.ok(apply(matrix, add(sph.center, scale(frame.L, 3 * sph.radius)))[2] < 0, 'past the sunward face: flattened there by the caster');
  assert.ok(box.radius >= sph.radius && box.radius < sph.radius * 1.19, `radius ${box.radius} for ${sph.radius}`);
  assert.ok(Math.abs(box.texelM - (2 * box.radius) / size) < 1e-9);
  // A slightly larger sphere (the camera a little higher) keeps the box's size.
  assert.is(cascadeBox(frame, view.eye, { ...sph, radius: sph.radius * 1.0001 }, size).radius, box.radius);
});

test('the box is snapped in the world: a fixed point moves by whole texels as the eye moves, and a small move keeps the box', () => {
  const frame = sunFrame([0.3, 0.9, 0.1]);
  const sph = sliceSphere(view, 1000, 5000), size = 1024;
  const world = add(view.eye, [400, -2500, 300]);
  const uv = (eye) => apply(boxMatrix(frame, cascadeBox(frame, eye, sph, size), eye), sub(world, eye));
  const a = uv(view.eye);
  for (const step of [[0.37, 0, 0], [0, 1.9, -0.4], [13.3, 7.1, 2.2]]) {
    const b = uv(add(view.eye, step));
    for (const k of [0, 1]) {
      const texels = (b[k] - a[k]) * size;
      assert.ok(Math.abs(texels - Math.round(texels)) < 1e-3, `moved ${texels} texels`);
    }
  }
  // The box is the same in the world for the eye and for the eye moved a millimetre (its map is kept).
  const b0 = cascadeBox(frame, view.eye, sph, size), b1 = cascadeBox(frame, add(view.eye, [0.001, 0, 0]), sph, size);
  assert.equal([b1.x, b1.y, b1.z], [b0.x, b0.y, b0.z]);
});

test('shadows=0 turns shadows off; a size asks for that many texels (a power of two in 256..4096)', () => {
  assert.equal(parseShadows(undefined), { on: true, size: null });
  assert.equal(parseShadows('0'), { on: false, size: null });
  assert.equal(parseShadows('off'), { on: false, size: null });
  assert.equal(parseShadows('1'), { on: true, size: null });
  assert.equal(parseShadows('2048'), { on: true, size: 2048 });
  assert.equal(parseShadows('3000'), { on: true, size: 4096 });
  assert.equal(parseShadows('100000'), { on: true, size: 4096 });
  assert.equal(parseShadows('300'), { on: true, size: 256 });
  assert.equal(parseShadows('sideways'), { on: true, size: null });
});

test('the sub-solar point for a sun at a height and bearing puts it there', () => {
  const at = [-30.55, -119];
  for (const [el, bearing] of [[8, 90], [12, 270], [30, 0], [5, 200]]) {
    const s = subSolarPoint(at, el, bearing);
    const up = latLonToDir(...at), sun = latLonToDir(s.lat, s.lon);
    const mu = up[0] * sun[0] + up[1] * sun[1] + up[2] * sun[2];
    assert.ok(Math.abs(Math.asin(mu) * 180 / Math.PI - el) < 1e-9, `elevation for ${el}, ${bearing}`);
  }
  // From the east: the sub-solar point lies east (same hemisphere, larger longitude).
  assert.ok(subSolarPoint(at, 8, 90).lon > at[1]);
});

test.run();
