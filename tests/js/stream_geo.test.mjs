// Tests of stream/geo.js: cube-face transforms, key addressing, lat/lon and chunk bounds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  faceUvToDir, dirToFaceUv, keyAt, keyDirection, childKeys, parentKey, keyId, parseKey,
  latLonToDir, dirToLatLon, enuFrame, keyBounds, cross, dot, length, scale, sub, angleBetween,
} from '../../stream/geo.js';

// Small deterministic generator so failures reproduce.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}
const close = (a, b, eps, msg) => assert.ok(Math.abs(a - b) <= eps, `${msg}: ${a} vs ${b}`);

test('face centres follow the cube-map convention', () => {
  const want = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
  for (let f = 0; f < 6; f++) {
    const d = faceUvToDir(f, 0, 0);
    for (let i = 0; i < 3; i++) close(d[i], want[f][i], 1e-15, `face ${f} axis ${i}`);
  }
  // +Z: u grows to +x, v grows down (-y).
  const d = faceUvToDir(4, 0.5, 0.5);
  assert.ok(d[0] > 0 && d[1] < 0 && d[2] > 0);
  // -X (-1,-v,u): u grows towards +z.
  assert.ok(faceUvToDir(1, 0.5, 0)[2] > 0);
});

test('direction -> face uv -> direction round trips on every face', () => {
  const r = rng(1);
  for (let f = 0; f < 6; f++) {
    for (let n = 0; n < 200; n++) {
      const u = r() * 1.98 - 0.99, v = r() * 1.98 - 0.99;
      const back = dirToFaceUv(faceUvToDir(f, u, v));
      assert.is(back.face, f);
      close(back.u, u, 1e-12, 'u');
      close(back.v, v, 1e-12, 'v');
    }
  }
});

test('exact ties go to X, then Y, then Z', () => {
  assert.is(dirToFaceUv([1, 1, 1]).face, 0);
  assert.is(dirToFaceUv([0, -1, 1]).face, 3);
  assert.is(dirToFaceUv([-1, 0, -1]).face, 1);
});

test('keyAt inverts keyDirection at several LODs', () => {
  const r = rng(2);
  for (let n = 0; n < 300; n++) {
    const lod = Math.floor(r() * 9);
    const size = 2 ** lod;
    const key = { face: Math.floor(r() * 6), lod, x: Math.floor(r() * size), y: Math.floor(r() * size) };
    const lx = 1 + r() * 254, ly = 1 + r() * 254;
    const hit = keyAt(keyDirection(key, lx, ly), lod);
    assert.equal(hit.key, key);
    close(hit.localX, lx, 1e-6, 'localX');
    close(hit.localY, ly, 1e-6, 'localY');
  }
});

test('children tile their parent and parentKey inverts childKeys', () => {
  const key = { face: 3, lod: 4, x: 5, y: 11 };
  const kids = childKeys(key);
  assert.is(kids.length, 4);
  for (const k of kids) {
    assert.equal(parentKey(k), key);
    const centre = keyDirection(k, 128, 128);
    assert.equal(keyAt(centre, 4).key, key);
  }
  assert.is(new Set(kids.map(keyId)).size, 4);
  assert.is(parentKey({ face: 0, lod: 0, x: 0, y: 0 }), null);
});

test('keyId is the address tail; parseKey reads it back, takes every face spelling and names what is wrong', () => {
  assert.is(keyId({ face: 4, lod: 6, x: 22, y: 52 }), 'pz/6/22/52');
  assert.equal(parseKey('pz/6/22/52'), { face: 4, lod: 6, x: 22, y: 52 });
  assert.equal(parseKey('4/6/22/52'), { face: 4, lod: 6, x: 22, y: 52 });
  assert.equal(parseKey('+Z/6/22/52'), { face: 4, lod: 6, x: 22, y: 52 });
  assert.equal(parseKey({ face: 'NZ', lod: 1, x: 1, y: 0 }), { face: 5, lod: 1, x: 1, y: 0 });
  const code = (k) => { try { parseKey(k); } catch (e) { return e.code; } return 'ok'; };
  assert.is(code('4/2/4/0'), 'CT_ERR_CHUNK_XY');
  assert.is(code('7/2/0/0'), 'CT_ERR_FACE');
  assert.is(code('4/17/0/0'), 'CT_ERR_LOD');
  assert.is(code('4/2/0'), 'CT_ERR_NULL');
  assert.is(code('4/2/0/x'), 'CT_ERR_CHUNK_XY');
  assert.is(code(undefined), 'CT_ERR_NULL');
  assert.is(code([4, 2, 0, 0]), 'CT_ERR_NULL');
});

test('lat/lon round trip and a right-handed east-north-up frame', () => {
  const r = rng(3);
  for (let n = 0; n < 200; n++) {
    const lat = r() * 178 - 89, lon = r() * 359.8 - 179.9;
    const ll = dirToLatLon(latLonToDir(lat, lon));
    close(ll.lat, lat, 1e-9, 'lat');
    close(ll.lon, lon, 1e-9, 'lon');
    const { east, north, up } = enuFrame(latLonToDir(lat, lon));
    const c = cross(east, north);
    for (let i = 0; i < 3; i++) close(c[i], up[i], 1e-12, 'east x north = up');
    // East is the direction of growing longitude.
    const step = sub(latLonToDir(lat, lon + 0.01), latLonToDir(lat, lon));
    assert.ok(dot(step, east) > 0);
  }
  assert.equal(latLonToDir(90, 0).map((x) => Math.round(x * 1e12) / 1e12), [0, 1, -0]);
});

test('keyBounds holds every point of the chunk between the two radii', () => {
  const r = rng(4);
  const R = 6371000, rMin = R - 11000, rMax = R + 9000;
  for (const key of [{ face: 0, lod: 0, x: 0, y: 0 }, { face: 2, lod: 1, x: 1, y: 0 }, { face: 5, lod: 6, x: 40, y: 3 }]) {
    const b = keyBounds(key, rMin, rMax);
    for (let n = 0; n < 400; n++) {
      const d = keyDirection(key, r() * 256, r() * 256);
      const rad = rMin + r() * (rMax - rMin);
      assert.ok(length(sub(scale(d, rad), b.center)) <= b.radius, `point outside sphere of ${keyId(key)}`);
      assert.ok(angleBetween(d, b.centerDir) <= b.angle + 1e-12, 'angle bound');
    }
    // Not absurdly loose: a LOD-6 chunk spans ~200 km.
    if (key.lod === 6) assert.ok(b.radius < 250e3, `radius ${b.radius}`);
  }
});

test.run();
