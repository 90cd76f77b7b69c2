// Tests of stream/lod.js: quadtree selection by screen-space error, frustum and horizon culling, fallbacks without holes, request priorities.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { heightRangeM } from '../../stream/tile_error.js';
import { drawnHeightRangeM } from '../../worker/maps/stride_errors.js';
import { selectTiles, beyondHorizon, tileChildren, tileId, surfaceStride, shellDistanceM, meshTriangles, NEAR_GROUND_ALT_M, NEAR_GROUND_M } from '../../stream/lod.js';
import { computeView, screenRay, raySphere, autoTilt } from '../../stream/camera.js';
import { keyAt, keyId, add, scale, normalize, latLonToDir, dirToLatLon, keyBounds, keyDirection, sampleSpacingM, length, sub } from '../../stream/geo.js';

const R = 6371000;
const view = (lat, lon, alt, tilt = autoTilt(alt)) =>
  computeView({ lat, lon, alt, heading: 20, tilt }, { radiusM: R, width: 640, height: 480 });
const all = () => true;

// Every visible ground point must lie in exactly one drawn tile.
function coverage(v, draw, n = 24) {
  let hits = 0;
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const ray = screenRay(v, (i / n) * v.width, (j / n) * v.height);
      const t = raySphere(v.eye, ray, R);
      if (t === null) continue;
      const d = normalize(add(v.eye, scale(ray, t)));
      const owners = draw.filter((tile) => keyId(keyAt(d, tile.key.lod).key) === keyId(tile.key));
      assert.is(owners.length, 1, `pixel ${i},${j} covered by ${owners.length} tiles`);
      hits++;
    }
  }
  return hits;
}

test('from far space the whole visible globe is a few coarse tiles', () => {
  const v = view(20, 10, 3 * R);
  const s = selectTiles({ view: v, radiusM: R, surfaceLod: 6, isReady: all });
  assert.ok(s.draw.length >= 3 && s.draw.length <= 40, `drew ${s.draw.length}`);
  assert.ok(s.maxLodDrawn <= 2, `max lod ${s.maxLodDrawn}`);
  assert.ok(s.culled >= 1, 'far side culled');
  assert.ok(coverage(v, s.draw) > 100);
  assert.is(s.want.length, 0);
});

test('near the ground the tile under the camera is at surface_lod with the finest stride', () => {
  for (const surfaceLod of [4, 6]) {
    const v = view(-33.9, 18.4, 1500);
    const s = selectTiles({ view: v, radiusM: R, surfaceLod, isReady: all });
    assert.is(s.maxLodDrawn, surfaceLod);
    const below = keyAt(latLonToDir(-33.9, 18.4), surfaceLod).key;
    const t = s.draw.find((x) => keyId(x.key) === keyId(below));
    assert.ok(t, 'tile below the camera drawn');
    assert.is(t.stride, 1);
    assert.ok(coverage(v, s.draw) > 100);
    // Horizon and frustum culling keep the count small.
    assert.ok(s.draw.length < 120, `drew ${s.draw.length}`);
  }
});

test('the quadtree stops at surface_lod: finer detail there comes from the mesh stride', () => {
  assert.is(tileChildren({ key: { face: 0, lod: 3, x: 1, y: 1 }, stride: 4 }, 6, 4).length, 4);
  assert.equal(tileChildren({ key: { face: 0, lod: 6, x: 1, y: 1 }, stride: 4 }, 6, 4), []);
});

test('surfaceStride: measured error decides; without it an ancestor\'s roughness, else the vertex spacing', () => {
  const key = { face: 0, lod: 6, x: 10, y: 20 };
  const o = { key, spacingM: 778, baseStride: 4, minStride: 1, tau: 10, tauGeo: 4 };
  // 100 m away at 520 px per metre of distance: 5.2 px per metre.
  const distPx = 520 / 100;
  const none = () => undefined;
  assert.is(surfaceStride({ ...o, distPx, info: none }), 1, 'nothing known: the spacing rule, finest near the eye');
  assert.is(surfaceStride({ ...o, distPx: 520 / 1e6, info: none }), 4, 'far away: coarsest');
  const flat = { errors: { 1: 0, 2: 0, 4: 0, 8: 0 }, k: 0 };
  assert.is(surfaceStride({ ...o, distPx, info: (k) => (k.lod === 6 ? flat : undefined) }), 4, 'a flat chunk stays coarse');
  assert.is(surfaceStride({ ...o, distPx, info: (k) => (k.lod === 3 ? flat : undefined) }), 4, 'a flat ancestor: coarse');
  const rough = { errors: { 1: 0, 2: 0.5, 4: 3, 8: 9 }, k: 0.002 };
  // 3 m of error at stride 4 is 15.6 px here, 0.5 m at stride 2 is 2.6 px <= 4.
  assert.is(surfaceStride({ ...o, distPx, info: (k) => (k.lod === 6 ? rough : undefined) }), 2);
  assert.is(surfaceStride({ ...o, distPx: 520 / 1000, info: (k) => (k.lod === 6 ? rough : undefined) }), 4);
});

test('at surface_lod a finer ready stride is drawn instead of asking for a coarser one', () => {
  // Over 2 km above flat ground at 0..10 m: past the exact ground round a low eye.
  const v = view(-33.9, 18.4, 2500);
  const below = keyAt(latLonToDir(-33.9, 18.4), 6).key;
  const flat = { errors: { 1: 0, 2: 0, 4: 0, 8: 0 }, k: 0, heightsM: [0, 10] };
  const fine = tileId(below, 1);
  const s = selectTiles({ view: v, radiusM: R, surfaceLod: 6, isReady: all, tileInfo: () => flat });
  const t = s.draw.find((x) => keyId(x.key) === keyId(below));
  assert.is(t.stride, 4, 'flat ground: coarsest stride');
  const s2 = selectTiles({ view: v, radiusM: R, surfaceLod: 6, tileInfo: () => flat,
    isReady: (id) => (id.startsWith(`${keyId(below)}/`) ? id === fine : true) });
  assert.is(s2.draw.find((x) => keyId(x.key) === keyId(below)).id, fine);
  assert.not.ok(s2.want.some((w) => keyId(w.key) === keyId(below)), 'no request for the coarser copy');
  // Nothing of the chunk ready: its parent covers it, and it is asked for at stride 4.
  const s3 = selectTiles({ view: v, radiusM: R, surfaceLod: 6, tileInfo: () => flat,
    isReady: (id) => !id.startsWith(`${keyId(below)}/`) });
  assert.ok(s3.want.some((w) => w.id === tileId(below, 4)));
  coverage(v, s3.draw);
});

test('nothing ready: nothing drawn, the visible LOD-0 faces are wanted first', () => {
  const v = view(0, 0, 1000);
  const s = selectTiles({ view: v, radiusM: R, surfaceLod: 5, isReady: () => false });
  assert.is(s.draw.length, 0);
  assert.ok(s.want.length > 0);
  assert.is(s.want[0].key.lod, 0, 'coarsest first');
  assert.ok(s.want.some((w) => w.key.lod === 5), 'the surface tiles are asked for too');
  for (let i = 1; i < s.want.length; i++) assert.ok(s.want[i - 1].priority <= s.want[i].priority);
});

test('only LOD 0 ready: it stays drawn (no holes) while finer tiles are requested level by level', () => {
  const v = view(40, -100, 800);
  const ready = (id) => id.split('/')[1] === '0';
  const s = selectTiles({ view: v, radiusM: R, surfaceLod: 6, isReady: ready });
  assert.ok(s.draw.length >= 1 && s.draw.every((t) => t.key.lod === 0));
  coverage(v, s.draw);
  const lods = new Set(s.want.map((w) => w.key.lod));
  assert.ok(lods.has(2) && lods.has(6), `levels wanted: ${[...lods]}`);
  assert.not.ok(lods.has(1), 'a level right below ready cover waits');
  assert.ok(s.keep.every(ready));
});

test('partly ready children: the parent covers until all visible siblings are ready', () => {
  const v = view(0, 0, 3e5, 0);
  const base = selectTiles({ view: v, radiusM: R, surfaceLod: 6, isReady: all });
  const deepest = base.draw.reduce((a, t) => (t.key.lod > a.key.lod ? t : a));
  const hidden = tileId(deepest.key, deepest.stride);
  // No stride of that chunk is ready (another stride of the same chunk would cover it).
  const s = selectTiles({ view: v, radiusM: R, surfaceLod: 6, isReady: (id) => !id.startsWith(`${keyId(deepest.key)}/`) });
  assert.not.ok(s.draw.some((t) => keyId(t.key) === keyId(deepest.key)));
  assert.ok(s.want.some((w) => w.id === hidden));
  coverage(v, s.draw);
  assert.ok(s.draw.length <= base.draw.length);
  assert.ok(s.draw.some((t) => t.key.lod <= deepest.key.lod && keyId(keyAt(deepest.bounds.centerDir, t.key.lod).key) === keyId(t.key)), "an ancestor covers it");
});

test('nearer tiles of the same size get better priority', () => {
  const v = view(0, 0, 5000, 70);
  const s = selectTiles({ view: v, radiusM: R, surfaceLod: 7, isReady: (id) => Number(id.split('/')[1]) < 7 });
  const leaves = s.want.filter((w) => w.key.lod === 7 && w.stride === 4);
  assert.ok(leaves.length >= 2);
  const dist = (w) => {
    const c = keyAt(v.eye, 7);
    return Math.hypot(w.key.x - c.key.x, w.key.y - c.key.y);
  };
  const sorted = [...leaves].sort((a, b) => a.priority - b.priority);
  assert.ok(dist(sorted[0]) <= dist(sorted[sorted.length - 1]));
});

test('beyondHorizon: visible in front, hidden on the far side, mountains peek over', () => {
  const eye = [R + 1000, 0, 0];
  assert.not.ok(beyondHorizon(eye, [1, 0, 0], 0.001, R, R + 9000));
  assert.ok(beyondHorizon(eye, [-1, 0, 0], 0.1, R, R + 9000));
  // Horizon of 1 km altitude is ~113 km (0.0177 rad); a 9 km peak is seen ~339 km further.
  const a = 0.0177 + 0.04;
  const d = [Math.cos(a), Math.sin(a), 0];
  assert.not.ok(beyondHorizon(eye, d, 0, R, R + 9000));
  assert.ok(beyondHorizon(eye, d, 0, R, R + 10));
});

test('shellDistanceM: a lower bound of the distance to the tile, tight where the bounding sphere is not', () => {
  const key = keyAt(latLonToDir(10, 20), 11).key;
  const b = keyBounds(key, R - 11000, R + 9000);
  const c = keyDirection(key, 128, 128);
  for (const [lat, lon, alt] of [[10, 20, 300], [10.05, 20, 3000], [10.3, 20.2, 2], [9, 21, 30000]]) {
    const eye = scale(latLonToDir(lat, lon), R + alt);
    const d = shellDistanceM(eye, b, R - 50, R + 400);
    // Never more than the distance to any point of the tile in that height range.
    for (const [lx, ly] of [[0, 0], [128, 128], [256, 0], [64, 200], [256, 256]]) {
      for (const h of [-50, 0, 400]) assert.ok(d <= length(sub(scale(keyDirection(key, lx, ly), R + h), eye)) + 1e-6, `${lat},${lon},${alt}`);
    }
    assert.ok(d >= length(sub(b.center, eye)) - b.radius - 1e-6, 'at least the sphere bound');
  }
  // 10 km past the tile's disc at 300 m: the sphere (20 km of height range) says under 5 km, the shell over 10 km.
  const eye = scale(latLonToDir(10, 20 + (b.angle + 10000 / R) * 180 / Math.PI / Math.cos(10 * Math.PI / 180)), R + 300);
  assert.ok(shellDistanceM(eye, b, R, R + 200) > 10000, `${shellDistanceM(eye, b, R, R + 200)}`);
  assert.ok(length(sub(b.center, eye)) - b.radius < 5000);
  assert.ok(shellDistanceM(c.map((x) => x * (R + 100)), b, R, R + 200) === 0, 'inside the shell: 0');
});

test('a landing world (surface_lod 12) near the ground draws what the screen can show, not millions of triangles', () => {
  // Flat measured ground at 200 m everywhere: each arriving chunk gets its height range and roughness.
  const info = new Map();
  const measured = (k) => info.get(keyId(k));
  for (const [alt, tilt] of [[3000, 80], [300, 85], [1.7, 90]]) {
    const v = computeView({ lat: 35.36, lon: 45, alt: 200 + alt, heading: 30, tilt }, { radiusM: R, width: 960, height: 600, groundM: 200 });
    const ready = new Set();
    let s, rounds = 0, asked = 0;
    // Eight requests answered per round, nearest first, as the pool would.
    for (; rounds < 200; rounds++) {
      s = selectTiles({ view: v, radiusM: R, surfaceLod: 12, tau: 10, isReady: (id) => ready.has(id), tileInfo: measured });
      if (!s.want.length) break;
      for (const w of s.want.slice(0, 8)) {
        ready.add(w.id);
        asked++;
        const sp = sampleSpacingM(R, w.key.lod);
        info.set(keyId(w.key), { errors: { 1: 0, 2: 0.02 * sp, 4: 0.04 * sp, 8: 0.08 * sp }, k: 0.01, heightsM: [200 - sp / 2 - 20, 200 + sp / 2 + 20] });
      }
    }
    const triangles = s.draw.reduce((a, t) => a + 2 * (256 / t.stride) ** 2, 0);
    assert.is(s.want.length, 0, 'settles');
    // Flat ground from 3 km needs no 12 m samples yet; lower down it does.
    assert.is(s.maxLodDrawn, alt > 1000 ? 11 : 12, `${alt} m: the LOD under the camera`);
    assert.ok(triangles < 2e6 && s.draw.length < 200 && asked < 260, `${alt} m: ${s.draw.length} tiles, ${triangles} triangles, ${asked} requests`);
    coverage(v, s.draw);
  }
});

test('rough mountains at surface_lod 12: the triangle budget bounds what a descent draws, without holes, the ground under the eye at stride 1', () => {
  // Every chunk measured rough: a stride's error is 1.5 sample spacings per stride step.
  const descend = (maxTriangles) => {
    const info = new Map(), ready = new Set(), out = [];
    for (const [alt, tilt] of [[3000, 76], [300, 80], [1.7, 88]]) {
      const v = computeView({ lat: -30.55, lon: -119, alt: 2500 + alt, heading: 0, tilt }, { radiusM: R, width: 960, height: 600, groundM: 2500 });
      let s;
      for (let rounds = 0; rounds < 300; rounds++) {
        s = selectTiles({ view: v, radiusM: R, surfaceLod: 12, tau: 10, isReady: (id) => ready.has(id), tileInfo: (k) => info.get(keyId(k)), maxTriangles });
        if (!s.want.length) break;
        for (const w of s.want.slice(0, 8)) {
          ready.add(w.id);
          const sp = sampleSpacingM(R, w.key.lod);
          info.set(keyId(w.key), { errors: { 1: 0, 2: 1.5 * sp, 4: 3 * sp, 8: 6 * sp }, k: 1.5, heightsM: [2000 - sp, 3000 + sp] });
        }
      }
      assert.is(s.want.length, 0, 'settles');
      const under = s.draw.find((t) => keyId(t.key) === keyId(keyAt(latLonToDir(-30.55, -119), 12).key));
      out.push({ alt, s, v, under, triangles: s.draw.reduce((a, t) => a + meshTriangles(t.stride), 0) });
    }
    return out;
  };
  const free = descend(Infinity);
  assert.ok(free[1].triangles > 4e6, `without a budget the 300 m view draws ${free[1].triangles}`);
  const budget = 2.5 * 960 * 600;
  for (const { alt, s, v, under, triangles } of descend(budget)) {
    assert.ok(s.plannedTriangles <= budget, `${alt} m: ${s.plannedTriangles} planned`);
    // Finer copies left from a closer view may add a little, never past twice the budget.
    assert.ok(triangles <= 1.25 * budget, `${alt} m: ${triangles} drawn`);
    assert.ok(s.budgetFactor > 1, `${alt} m: relaxed ${s.budgetFactor}`);
    if (alt < 10) assert.is(under?.stride, 1, 'the chunk under the eye at its finest stride');
    coverage(v, s.draw);
  }
});

test('a low eye: the ground under it at surface_lod and stride 1 under any budget; higher up the budget decides', () => {
  // Rough mountains at 2000..3000 m, every chunk measured, all ready: the budget alone decides the strides.
  const rough = (k) => {
    const sp = sampleSpacingM(R, k.lod);
    return { errors: { 1: 0, 2: 1.5 * sp, 4: 3 * sp, 8: 6 * sp }, k: 1.5, heightsM: [2000 - sp, 3000 + sp] };
  };
  const select = (lat, lon, altM, tilt, surfaceLod, maxTriangles) => {
    const v = computeView({ lat, lon, alt: altM, heading: 40, tilt }, { radiusM: R, width: 960, height: 600, groundM: 2500 });
    const s = selectTiles({ view: v, radiusM: R, surfaceLod, tau: 10, isReady: all, tileInfo: rough, maxTriangles });
    const under = s.draw.find((t) => keyId(t.key) === keyId(keyAt(latLonToDir(lat, lon), surfaceLod).key));
    coverage(v, s.draw);
    return { s, under };
  };
  for (const surfaceLod of [12, 14]) {
    for (const [above, tilt] of [[1.7, 90], [30, 80], [1500, 70]]) {
      // The eye over the top of the range, so "above" is a lower bound of its height over the ground.
      const { s, under } = select(-30.55, -119, 3000 + above, tilt, surfaceLod, 1000);
      assert.ok(above < NEAR_GROUND_ALT_M);
      assert.ok(s.budgetFactor >= 64, `${surfaceLod}, ${above} m: the budget relaxes everything else`);
      assert.is(under?.key.lod, surfaceLod, `${surfaceLod}, ${above} m: the chunk under the eye at surface_lod`);
      assert.is(under.stride, 1, `${surfaceLod}, ${above} m: at stride 1`);
      assert.ok(s.nearTiles >= 1 && s.nearTiles <= 9, `${s.nearTiles} chunks held`);
      const loose = s.draw.filter((t) => t.key.lod === surfaceLod && t.stride > 1);
      assert.ok(loose.length > 0 || s.draw.length === s.nearTiles, 'the rest coarser');
    }
  }
  // An eye on a chunk corner holds the chunks round it within NEAR_GROUND_M.
  const k = keyAt(latLonToDir(-30.55, -119), 14).key;
  const corner = keyDirection(k, 0, 0);
  const { lat, lon } = dirToLatLon(corner);
  const c = select(lat, lon, 3001.7, 90, 14, 1000);
  assert.ok(c.s.nearTiles >= 3, `${c.s.nearTiles} chunks round a corner (some behind the eye)`);
  assert.ok(NEAR_GROUND_M < sampleSpacingM(R, 14) * 256, 'a chunk and its close neighbours, not a ring of them');
  // Over 2 km above the highest ground: the budget coarsens the chunk under the eye too.
  const high = select(-30.55, -119, 3000 + NEAR_GROUND_ALT_M + 100, 70, 14, 1000);
  assert.is(high.s.nearTiles, 0);
  const free = select(-30.55, -119, 3000 + NEAR_GROUND_ALT_M + 100, 70, 14, Infinity);
  // Vertex spacing of the tile drawn under the eye, in surface_lod samples.
  const coarseness = (p) => {
    const t = p.s.draw.find((d) => keyId(d.key) === keyId(keyAt(latLonToDir(-30.55, -119), d.key.lod).key));
    return t.stride * 2 ** (14 - t.key.lod);
  };
  assert.ok(coarseness(high) > coarseness(free), `far up: ${coarseness(high)} with the budget, ${coarseness(free)} without`);
});

test('heightRangeM: the drawn samples (sea at 0 m) times the exaggeration, widened by half a sample spacing', () => {
  const heightM = new Float32Array(257 * 257), height = new Uint16Array(257 * 257);
  for (let i = 0; i < 257 * 257; i++) heightM[i] = 100 + (i % 257);
  heightM[0] = -4000; // a sea bed: drawn at the sea surface
  const chunk = { height, heightM, heightQuantumM: 1 };
  assert.equal(drawnHeightRangeM(chunk, 1), [0, 356]);
  assert.equal(heightRangeM(drawnHeightRangeM(chunk, 1), 12, 1), [0 - 6, 356 + 6]);
  assert.equal(heightRangeM(drawnHeightRangeM(chunk, 2), 12, 2), [0 - 12, 712 + 12]);
  // Without float heights the encoded ones count (sea level code 32768).
  for (let i = 0; i < 257 * 257; i++) height[i] = 32768 + 100 + (i % 257);
  height[0] = 0;
  assert.equal(drawnHeightRangeM({ height, heightQuantumM: 1 }, 1), [0, 356]);
});

test.run();
