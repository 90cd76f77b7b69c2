// Tests of stream/camera.js: pose to eye and matrices, camera-relative projection, rays, frustum and clipping planes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  computeView, screenRay, raySphere, frustumPlanes, sphereInFrustum, projectToScreen,
  autoTilt, clampPose, transformPoint, moveLatLonPose,
} from '../../stream/camera.js';
import { parseHash, formatHash } from '../../web/url.js';
import { latLonToDir, scale, sub, dot, length, add, enuFrame } from '../../stream/geo.js';

const R = 6371000;
const close = (a, b, eps, msg) => assert.ok(Math.abs(a - b) <= eps, `${msg}: ${a} vs ${b}`);
const opt = { radiusM: R, width: 800, height: 600 };

test('looking straight down: the point below is the screen centre, at the altitude', () => {
  const pose = { lat: 35, lon: -120, alt: 5000, heading: 30, tilt: 0 };
  const v = computeView(pose, opt);
  close(length(v.eye), R + 5000, 1e-6, 'eye radius');
  const below = scale(latLonToDir(35, -120), R);
  const s = projectToScreen(v, below);
  close(s.x, 400, 1e-6, 'x');
  close(s.y, 300, 1e-6, 'y');
  assert.ok(s.depth > -1 && s.depth < 1, 'between near and far');
  const ray = screenRay(v, 400, 300);
  close(raySphere(v.eye, ray, R), 5000, 1e-6, 'ray hits the ground at the altitude');
});

test('heading turns the view: heading 90 puts north on the left when tilted', () => {
  const v = computeView({ lat: 10, lon: 10, alt: 2000, heading: 90, tilt: 60 }, opt);
  const { north, east } = enuFrame(latLonToDir(10, 10));
  assert.ok(dot(v.forward, east) > 0.8, 'looking east');
  assert.ok(dot(v.right, north) < -0.9, 'north to the left');
});

test('camera-relative projection keeps sub-metre precision at the surface', () => {
  const pose = { lat: 12.3456, lon: 45.6789, alt: 100, heading: 0, tilt: 70 };
  const v = computeView(pose, opt);
  // Two ground points 0.05 m apart straight ahead project to different pixels
  // when computed relative to the eye (world-space float32 could not tell them apart).
  const { north } = enuFrame(latLonToDir(pose.lat, pose.lon));
  const p0 = add(scale(latLonToDir(pose.lat, pose.lon), R), scale(north, 300));
  const p1 = add(p0, scale(north, 0.05));
  const rel0 = Float32Array.from(sub(p0, v.eye)), rel1 = Float32Array.from(sub(p1, v.eye));
  const c0 = transformPoint(v.viewProj, rel0), c1 = transformPoint(v.viewProj, rel1);
  const y0 = c0[1] / c0[3] * 300, y1 = c1[1] / c1[3] * 300;
  assert.ok(Math.abs(y1 - y0) > 0.01, `moved ${Math.abs(y1 - y0)} px`);
  // The same in absolute float32 coordinates loses it: the spacing of float32 at 6.4e6 m is 0.5 m.
  const a0 = Float32Array.from(p0), a1 = Float32Array.from(p1);
  assert.ok(length(sub(a1, a0)) === 0 || length(sub(a1, a0)) >= 0.25);
});

test('near and far bracket the visible ground from space and near the ground', () => {
  for (const alt of [300, 20000, 2e6, 2e7]) {
    const v = computeView({ lat: 0, lon: 0, alt, heading: 0, tilt: autoTilt(alt) }, opt);
    assert.ok(v.near > 0 && v.near < alt, `near ${v.near} at ${alt}`);
    const horizon = Math.sqrt((R + alt) ** 2 - R ** 2);
    assert.ok(v.far > horizon, `far ${v.far} beyond the horizon ${horizon}`);
    assert.ok(v.far / v.near < 1e6, 'depth range usable');
  }
});

test('frustum planes keep what is ahead and drop what is behind or aside', () => {
  const v = computeView({ lat: 0, lon: 0, alt: 1e6, heading: 0, tilt: 0 }, opt);
  const planes = frustumPlanes(v.viewProj);
  const ahead = scale(v.forward, 5e5);
  assert.ok(sphereInFrustum(planes, ahead, 1));
  assert.not.ok(sphereInFrustum(planes, scale(v.forward, -5e5), 1000));
  assert.not.ok(sphereInFrustum(planes, add(ahead, scale(v.right, 5e6)), 1000));
  assert.ok(sphereInFrustum(planes, add(ahead, scale(v.right, 5e6)), 5e6), 'a big sphere reaches in');
});

test('raySphere: misses, hits from outside and from inside', () => {
  assert.is(raySphere([0, 0, 10], [0, 1, 0], 5), null);
  close(raySphere([0, 0, 10], [0, 0, -1], 5), 5, 1e-12, 'outside');
  close(raySphere([0, 0, 0], [1, 0, 0], 5), 5, 1e-12, 'inside');
  assert.is(raySphere([0, 0, 10], [0, 0, 1], 5), null);
});

test('autoTilt leans towards the horizon as the camera comes down; clampPose bounds', () => {
  let last = -1;
  for (const alt of [1e7, 4e5, 1e5, 2e4, 5e3, 100]) {
    const t = autoTilt(alt);
    assert.ok(t >= last, `tilt ${t} at ${alt}`);
    last = t;
  }
  assert.is(autoTilt(1e7), 0);
  assert.ok(autoTilt(100) > 60);
  const p = clampPose({ lat: 95, lon: 190, alt: -5, heading: -10, tilt: 120 }, R);
  // 5 degrees past the north pole is 85 N on the far meridian, facing the other way.
  assert.equal([p.lat, p.lon, p.alt, p.heading, p.tilt], [85, 10, 1.7, 170, 85], 'the floor: the sea surface plus the eye height');
  const q = clampPose({ lat: -92, lon: 0, alt: 10, heading: 0, tilt: 0 }, R);
  assert.equal([q.lat, q.lon, q.heading], [-88, -180, 180], 'past the south pole too');
  assert.equal(clampPose({ lat: 90, lon: 20, alt: 10, heading: 0, tilt: 0 }, R).lat, 90, 'the pole itself is a place');
  for (const lat of [95, -92, 130]) {
    const a = clampPose({ lat, lon: 33, alt: 10, heading: 0, tilt: 0 }, R);
    close(angleBetweenDirs(latLonToDirUnclamped(lat, 33), latLonToDir(a.lat, a.lon)), 0, 1e-12, `lat ${lat} folds to the same place`);
  }
});

/** The direction of a latitude past a pole, by the same formula latLonToDir uses (it is periodic). */
function latLonToDirUnclamped(lat, lon) {
  const la = lat * Math.PI / 180, lo = lon * Math.PI / 180;
  return [Math.cos(la) * Math.cos(lo), Math.sin(la), -Math.cos(la) * Math.sin(lo)];
}
const angleBetweenDirs = (a, b) => Math.acos(Math.min(1, dot(a, b) / (length(a) * length(b))));

test('the view is defined at a pole: the eye over it, looking along the heading from meridian lon', () => {
  const v = computeView({ lat: 90, lon: 0, alt: 1000, heading: 0, tilt: 60 }, opt);
  close(length(sub(v.eye, [0, R + 1000, 0])), 0, 1e-6, 'eye over the north pole');
  assert.ok(v.forward.every(Number.isFinite) && v.right.every(Number.isFinite));
  // Heading 0 at the pole looks along meridian 0 past the pole: towards lon 180 (the -X axis).
  assert.ok(v.forward[0] < -0.8, `forward ${v.forward}`);
  // Just short of the pole the same pose looks the same way: no jump at 90.
  const w = computeView({ lat: 89.99999, lon: 0, alt: 1000, heading: 0, tilt: 60 }, opt);
  close(dot(v.forward, w.forward), 1, 1e-9, 'continuous at the pole');
});

test('the orbit camera dragged over a pole comes down the other side with its heading turned', () => {
  const p = { lat: 88, lon: 40, alt: 5000, heading: 0 };
  const arc = (Math.PI / 180) * R;
  // Drag in 100 steps of 4 km-ish: 4 degrees north in all.
  for (let i = 0; i < 100; i++) moveLatLonPose(p, (4 * arc) / 100, 0, R);
  close(p.lat, 88, 1e-9, 'two degrees past the pole');
  close(p.lon, -140, 1e-9, 'on the far meridian');
  close(p.heading, 180, 1e-9, 'facing away from the pole');
  assert.is(p.alt, 5000);
  // Sideways along the equator keeps the heading (a great circle, parallel transport).
  const e = { lat: 0, lon: 10, alt: 100, heading: 0 };
  moveLatLonPose(e, 0, 2 * arc, R);
  close(e.lat, 0, 1e-9, 'still on the equator');
  close(e.lon, 12, 1e-9, 'two degrees east');
  close(e.heading, 0, 1e-9, 'still north');
  // The address bar writes and reads the pose at the pole and past it.
  const h = parseHash(formatHash({ world: { preset: 'balanced', set: {} }, view: { ...p, tilt: 60 } }));
  close(h.view.lat, 88, 1e-5, 'lat');
  close(h.view.lon, -140, 1e-5, 'lon');
  close(h.view.heading, 180, 0.05, 'heading');
  const pole = parseHash(formatHash({ world: { preset: 'balanced', set: {} }, view: { lat: 90, lon: 0, alt: 300, heading: 10, tilt: 60 } })).view;
  assert.equal([pole.lat, pole.lon, pole.heading], [90, 0, 10]);
  assert.ok(computeView({ ...pole, tilt: 60 }, opt).eye.every(Number.isFinite));
});

test.run();
