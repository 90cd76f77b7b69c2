// Tests of stream/pose.js, the ground pose: straight walks round the planet
// over both poles, parallel transport round closed loops against the enclosed
// area, cube edge and corner crossings read in chunk axes, the chunk-heading
// round trip, the lat/lon conversions and every rejection.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  movePose, headingInKey, poseFromKeyHeading, groundPoseFromLatLon, latLonFromGroundPose, POSE_TOLERANCE,
} from '../../stream/pose.js';
import { keyAt, keyDirection, faceUvToDir, dot, cross, normalize, length, sub, scale, add, latLonToDir } from '../../stream/geo.js';
import { computeView } from '../../stream/camera.js';

const R = 6371000;
const TAU = 2 * Math.PI;
const gap = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));   // to [-pi, pi]
/** Signed angle from tangent a to tangent b at up d, counter-clockwise seen from above. */
const turn = (d, a, b) => Math.atan2(dot(d, cross(a, b)), dot(a, b));
const close = (a, b, eps, msg) => assert.ok(Math.abs(a - b) <= eps, `${msg}: ${a} vs ${b} (gap ${Math.abs(a - b)})`);

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** One move of a pose straight to direction q (the displacement split into forward and right). */
function moveTo(pose, q) {
  const d = pose.dir, f = pose.forward, right = cross(f, d);
  const w = sub(q, scale(d, dot(d, q)));
  const angle = Math.atan2(length(cross(d, q)), dot(d, q)), lw = length(w);
  if (lw === 0) return pose;
  return movePose(pose, (angle * R * dot(w, f)) / lw, (angle * R * dot(w, right)) / lw, R);
}

/** Walks a closed polygon of directions in `steps` moves per side. */
function walkLoop(pose, corners, steps) {
  let p = moveTo(pose, corners[0]);
  const start = p;
  for (let i = 1; i <= corners.length; i++) {
    const a = corners[i - 1], b = corners[i % corners.length];
    for (let s = 1; s <= steps; s++) {
      const t = s / steps, th = Math.acos(Math.min(1, dot(a, b)));
      // The slerp point is on the great circle a -> b, so every step stays on the side.
      const q = add(scale(a, Math.sin((1 - t) * th) / Math.sin(th)), scale(b, Math.sin(t * th) / Math.sin(th)));
      p = moveTo(p, normalize(q));
    }
  }
  return { start, end: p };
}

/** Signed spherical excess (area / R^2) of a polygon, counter-clockwise seen from outside positive. */
function excess(corners) {
  let e = 0;
  const a = corners[0];
  for (let i = 1; i + 1 < corners.length; i++) {
    const b = corners[i], c = corners[i + 1];
    e += 2 * Math.atan2(dot(a, cross(b, c)), 1 + dot(a, b) + dot(b, c) + dot(c, a));
  }
  return e;
}

/** A square of half-diagonal angle `size` around up p, corners counter-clockwise seen from above. */
function square(p, size) {
  const east = normalize(cross([0.3, 1, 0.2], p)), north = cross(p, east);
  return [45, 135, 225, 315].map((deg) => {
    const a = (deg * Math.PI) / 180;
    return normalize(add(p, scale(add(scale(east, Math.cos(a)), scale(north, Math.sin(a))), Math.tan(size))));
  });
}

test('a straight walk goes round the planet over both poles and comes back with its heading', () => {
  // From the equator heading north: over the north pole, down the far side, over the south pole.
  const start = groundPoseFromLatLon(0, 10, 0), steps = 4000, stepM = (TAU * R) / steps;
  let p = start, worst = 0, poles = 0;
  for (let i = 1; i <= steps; i++) {
    p = movePose(p, stepM, 0, R);
    const a = (i * stepM) / R;
    // The great circle, exactly: d0 cos a + f0 sin a, and the heading along it.
    const want = add(scale(start.dir, Math.cos(a)), scale(start.forward, Math.sin(a)));
    const wantF = sub(scale(start.forward, Math.cos(a)), scale(start.dir, Math.sin(a)));
    worst = Math.max(worst, gap(p.dir, want), gap(p.forward, wantF));
    if (Math.abs(p.dir[1]) > 1 - 1e-6) poles++;
    if (i === steps / 2) {
      // Half way (20,015 km): the antipode, still heading "north" along the same circle.
      assert.ok(gap(p.dir, scale(start.dir, -1)) < 1e-9, `antipode ${p.dir}`);
      assert.ok(gap(p.forward, scale(start.forward, -1)) < 1e-9, `antipode heading ${p.forward}`);
    }
  }
  assert.ok(worst < 1e-9, `worst departure from the great circle ${worst}`);
  assert.ok(poles >= 2, 'the walk passed both poles');
  assert.ok(gap(p.dir, start.dir) < 1e-9 && gap(p.forward, start.forward) < 1e-9, `back at the start: ${JSON.stringify(p)}`);
  // 20,000 km in 1,000 steps of unequal lengths lands where one 20,000 km move does.
  const one = movePose(start, 20000e3, 0, R);
  let many = start;
  for (let i = 0; i < 1000; i++) many = movePose(many, 20000 + (i % 2 ? 7 : -7), 0, R);
  assert.ok(gap(one.dir, many.dir) < 1e-9 && gap(one.forward, many.forward) < 1e-9, 'many steps equal one move');
});

test('any straight walk, sideways too, is a great circle through edges and corners', () => {
  const r = rng(3);
  for (let n = 0; n < 20; n++) {
    const dir = normalize([r() - 0.5, r() - 0.5, r() - 0.5]);
    const start = poseFromKeyHeading(keyAt(dir, 3).key, keyAt(dir, 3).localX, keyAt(dir, 3).localY, r() * TAU);
    const fw = r() - 0.5, rt = r() - 0.5, len = Math.hypot(fw, rt);
    const t = normalize(add(scale(start.forward, fw), scale(cross(start.forward, start.dir), rt)));
    let p = start, faces = new Set();
    for (let i = 1; i <= 500; i++) {
      p = movePose(p, ((fw / len) * TAU * R) / 500, ((rt / len) * TAU * R) / 500, R);
      faces.add(keyAt(p.dir, 0).key.face);
      const a = (i * TAU) / 500;
      assert.ok(gap(p.dir, add(scale(start.dir, Math.cos(a)), scale(t, Math.sin(a)))) < 1e-9, `walk ${n} step ${i}`);
    }
    assert.ok(faces.size >= 4, `walk ${n} crossed ${faces.size} faces`);
    assert.ok(gap(p.forward, start.forward) < 1e-9, `walk ${n} heading came back`);
  }
});

test('right is right-handed seen from above: facing north, right is east', () => {
  const p = groundPoseFromLatLon(20, 30, 0);
  const r = latLonFromGroundPose(movePose(p, 0, 1000, R));
  assert.ok(r.lon > 30 && Math.abs(r.lat - 20) < 1e-4, JSON.stringify(r));
  const f = latLonFromGroundPose(movePose(p, 1000, 0, R));
  assert.ok(f.lat > 20 && Math.abs(f.lon - 30) < 1e-9, JSON.stringify(f));
  // A move with no length gives the pose back.
  assert.ok(gap(movePose(p, 0, 0, R).dir, p.dir) === 0);
});

test('closed loops turn the heading by the enclosed area / R^2 (parallel transport)', () => {
  const places = [
    ['a small square on a face', latLonToDir(10, 20), 0.01],
    ['a square round the north pole', [0, 1, 0], 0.02],
    ['a square round a cube corner', normalize([1, 1, 1]), 0.005],
    ['a large square round the south pole', [0, -1, 0], 0.5],
  ];
  for (const [name, centre, size] of places) {
    const corners = square(centre, size), e = excess(corners);
    assert.ok(e > 0, `${name}: counter-clockwise`);
    const { start, end } = walkLoop(poseFromCorner(corners[0]), corners, 40);
    assert.ok(gap(end.dir, start.dir) < 1e-12, `${name}: closed`);
    close(turn(start.dir, start.forward, end.forward), e, 1e-11 + 1e-9 * e, `${name}: holonomy`);
    // Round the other way, the other sign.
    const back = walkLoop(poseFromCorner(corners[0]), [...corners].reverse(), 40);
    close(turn(back.start.dir, back.start.forward, back.end.forward), -e, 1e-11 + 1e-9 * e, `${name}: reversed`);
  }
});

/** Any pose at a direction. */
function poseFromCorner(d) {
  const { key, localX, localY } = keyAt(d, 6);
  return poseFromKeyHeading(key, localX, localY, 0.3);
}

/** Local +x of a key at direction d, by finite differences through geo.keyDirection (independent of pose.js). */
function xAxisByDifference(key, d) {
  const n = faceUvToDir(key.face, 0, 0);
  const p = scale(d, 1 / dot(d, n));
  const du = normalize(sub(faceUvToDir(key.face, 1, 0), faceUvToDir(key.face, -1, 0)));
  const dv = normalize(sub(faceUvToDir(key.face, 0, 1), faceUvToDir(key.face, 0, -1)));
  const span = 256 * 2 ** key.lod;
  const lx = ((dot(p, du) + 1) / 2) * span - key.x * 256, ly = ((dot(p, dv) + 1) / 2) * span - key.y * 256;
  const h = 1e-4;
  const ex = sub(keyDirection(key, lx + h, ly), keyDirection(key, lx - h, ly));
  assert.ok(gap(keyDirection(key, lx, ly), d) < 1e-12, 'local position found');
  return normalize(sub(ex, scale(d, dot(d, ex))));
}

/** The 12 edges as (face A, face B) pairs, both ways round. */
function edgePairs() {
  const out = [];
  for (let a = 0; a < 6; a++) {
    for (let b = 0; b < 6; b++) {
      if (a !== b && Math.abs(dot(faceUvToDir(a, 0, 0), faceUvToDir(b, 0, 0))) < 0.5) out.push([a, b]);
    }
  }
  return out;
}

/**
 * Walks a pose across from face a to face b in small steps, through the point
 * along the edge at t (-1..1 from corner to corner); returns the headings in
 * the owning key at every step and the turn at the crossing.
 */
function crossEdge(a, b, t, lod = 4) {
  const na = faceUvToDir(a, 0, 0), nb = faceUvToDir(b, 0, 0), along = cross(na, nb);
  const target = normalize(add(add(na, nb), scale(along, t)));
  const before = normalize(add(target, scale(sub(na, nb), 0.02)));
  let p = { dir: before, forward: normalize(sub(sub(target, before), scale(before, dot(before, sub(target, before))))) };
  const keyA = keyAt(before, lod).key;
  const out = { steps: [], jumps: [] };
  let last = null;
  for (let i = 0; i < 120; i++) {
    const owner = keyAt(p.dir, lod).key, h = headingInKey(p, owner), hA = headingInKey(p, keyA);
    if (last && owner.face !== last.owner.face) {
      out.jumps.push({ from: last.owner, to: owner, inFrom: headingInKey(p, last.owner), inTo: h, pose: p });
    }
    out.steps.push({ owner, h, hA, pose: p });
    last = { owner };
    p = movePose(p, 2000, 0, R);
  }
  return out;
}

test('crossing every cube edge: headings read in chunk axes turn by the turn between the two faces\' axes', () => {
  const pairs = edgePairs();
  assert.is(pairs.length, 24, '12 edges, both ways');
  for (const [a, b] of pairs) {
    for (const t of [-0.6, 0, 0.3]) {
      const { steps, jumps } = crossEdge(a, b, t);
      assert.is(jumps.length, 1, `edge ${a}->${b} at ${t}: one face change`);
      const j = jumps[0];
      assert.is(j.from.face, a);
      assert.is(j.to.face, b);
      // Continuous in the first key's axes all the way (they extend past its face).
      for (let i = 1; i < steps.length; i++) {
        assert.ok(Math.abs(wrap(steps[i].hA - steps[i - 1].hA)) < 0.01, `edge ${a}->${b}: heading in face ${a}'s axes jumps`);
      }
      // The jump is exactly the turn from face b's +x to face a's +x, found independently.
      const d = j.pose.dir, xa = xAxisByDifference(j.from, d), xb = xAxisByDifference(j.to, d);
      close(wrap(j.inTo - j.inFrom - turn(d, xb, xa)), 0, 1e-6, `edge ${a}->${b} at ${t}: turn`);
      close(wrap(j.inFrom - turn(d, xa, j.pose.forward)), 0, 1e-6, `edge ${a}->${b}: heading in ${a}`);
      // Away from corners the faces' axes meet at right angles across an edge.
      const q = wrap(j.inTo - j.inFrom) / (Math.PI / 2);
      if (t === 0) assert.ok(Math.abs(q - Math.round(q)) < 0.02, `edge ${a}->${b}: turn ${q} quarter turns`);
    }
  }
});

test('one edge by hand: +X to +Y heading up, +x of +X is -Z and +x of +Y is +X', () => {
  const start = poseFromKeyHeading({ face: 0, lod: 0, x: 0, y: 0 }, 128, 128, Math.PI / 2);
  assert.ok(gap(start.dir, [1, 0, 0]) < 1e-15 && gap(start.forward, [0, 1, 0]) < 1e-15, JSON.stringify(start));
  const over = movePose(start, (R * Math.PI) / 2 * 0.6, 0, R);   // past the edge at 45 degrees
  assert.is(keyAt(over.dir, 0).key.face, 2);
  // On +Y it heads towards -X: opposite +Y's +x.
  close(Math.abs(headingInKey(over, { face: 2, lod: 0, x: 0, y: 0 })), Math.PI, 1e-12, 'heading on +Y');
  close(headingInKey(over, { face: 0, lod: 0, x: 0, y: 0 }), Math.PI / 2, 1e-12, 'still a quarter turn in +X axes');
});

test('near all 8 corners: crossings turn by the skewed angle between the axes', () => {
  let skewed = 0, corners = 0;
  for (const sx of [1, -1]) for (const sy of [1, -1]) for (const sz of [1, -1]) {
    const c = normalize([sx, sy, sz]);
    corners++;
    for (const heading of [0.4, 2.1, 4]) {
      // Start 3 km from the corner, walk straight past it 300 m to its side.
      const aim = poseFromCorner(c);
      const turned = { dir: aim.dir, forward: add(scale(aim.forward, Math.cos(heading)), scale(cross(aim.dir, aim.forward), Math.sin(heading))) };
      let p = movePose(turned, -3000, 300, R);
      let last = keyAt(p.dir, 8).key;
      for (let i = 0; i < 60; i++) {
        p = movePose(p, 100, 0, R);
        const owner = keyAt(p.dir, 8).key;
        if (owner.face !== last.face) {
          const d = p.dir, jump = wrap(headingInKey(p, owner) - headingInKey(p, last));
          close(wrap(jump - turn(d, xAxisByDifference(owner, d), xAxisByDifference(last, d))), 0, 1e-6, `corner ${c} turn`);
          const q = jump / (Math.PI / 2);
          if (Math.abs(q - Math.round(q)) > 0.2) skewed++;
        }
        last = owner;
      }
    }
  }
  assert.is(corners, 8);
  assert.ok(skewed > 8, `turns off a quarter near corners: ${skewed}`);
});

test('poseFromKeyHeading and headingInKey are inverses on every face, edge and corner', () => {
  const r = rng(5);
  let n = 0;
  for (const lod of [0, 1, 5, 12, 16]) {
    const last = 2 ** lod - 1;
    for (let face = 0; face < 6; face++) {
      for (const [x, y] of [[0, 0], [last, 0], [0, last], [last, last], [last >> 1, (last + 1) >> 1]]) {
        for (const [lx, ly] of [[0, 0], [256, 0], [0, 256], [256, 256], [128, 0], [0, 77.5], [r() * 256, r() * 256], [-3, 259]]) {
          for (const angle of [0, 1, -2.5, Math.PI, r() * TAU - Math.PI]) {
            const key = { face, lod, x, y }, p = poseFromKeyHeading(key, lx, ly, angle);
            assert.ok(gap(p.dir, keyDirection(key, lx, ly)) === 0, 'at the key position');
            close(Math.abs(length(p.forward) - 1) + Math.abs(dot(p.dir, p.forward)), 0, 1e-15, 'unit and tangent');
            close(wrap(headingInKey(p, key) - angle), 0, 1e-12, `heading ${angle} at ${face}/${lod}/${x}/${y} (${lx}, ${ly})`);
            // And the other way: the owning key's heading gives the pose back.
            const own = keyAt(p.dir, lod), back = poseFromKeyHeading(own.key, own.localX, own.localY, headingInKey(p, own.key));
            assert.ok(gap(back.dir, p.dir) < 1e-15 && gap(back.forward, p.forward) < 1e-12, 'pose back');
            n++;
          }
        }
      }
    }
  }
  assert.ok(n > 5000, `${n} round trips`);
});

test('headingInKey measures from +x alone: at a corner the +y axis is not a quarter turn away', () => {
  const key = { face: 4, lod: 0, x: 0, y: 0 }, p = poseFromKeyHeading(key, 256, 256, 0);
  const yAxis = normalize(sub(keyDirection(key, 256, 256.001), keyDirection(key, 256, 255.999)));
  const facing = { dir: p.dir, forward: normalize(sub(yAxis, scale(p.dir, dot(p.dir, yAxis)))) };
  const h = headingInKey(facing, key);
  assert.ok(Math.abs(Math.abs(h) - Math.PI / 2) > 0.3, `+y at a corner is ${h} rad from +x`);
  close(Math.abs(h), (2 * Math.PI) / 3, 1e-5, 'the cube corner splits the plane in thirds');
});

test('lat/lon conversions: heading 0 north, 90 east, the camera\'s convention, round trips and the poles', () => {
  for (const [lat, lon, h] of [[0, 0, 0], [45, 100, 90], [-30, -170, 200], [89.999, 5, 10], [-60, 180, 359.5], [10, -179.9, 45]]) {
    const p = groundPoseFromLatLon(lat, lon, h), back = latLonFromGroundPose(p);
    close(back.lat, lat, 1e-9, 'lat');
    close(wrap(((back.lon - lon) * Math.PI) / 180), 0, 1e-9, 'lon');
    close(wrap(((back.heading - h) * Math.PI) / 180), 0, 1e-9, 'heading');
    // computeView with tilt 90 looks along the pose's heading.
    const v = computeView({ lat, lon, alt: 2, heading: h, tilt: 90 }, { radiusM: R, width: 10, height: 10 });
    assert.ok(gap(v.forward, p.forward) < 1e-9, `camera forward ${v.forward} vs ${p.forward}`);
    assert.ok(gap(p.dir, latLonToDir(lat, lon)) < 1e-15);
  }
  const north = latLonFromGroundPose(movePose(groundPoseFromLatLon(10, 20, 0), 1000, 0, R));
  assert.ok(north.lat > 10, 'heading 0 is north');
  const east = latLonFromGroundPose(movePose(groundPoseFromLatLon(10, 20, 90), 1000, 0, R));
  assert.ok(east.lon > 20, 'heading 90 is east');
  // At the poles: lon comes back as 0, and the pose comes back from it.
  for (const lat of [90, -90]) {
    for (const [lon, h] of [[0, 0], [37, 90], [-120, 300]]) {
      const p = groundPoseFromLatLon(lat, lon, h), back = latLonFromGroundPose({ dir: [0, Math.sign(lat), 0], forward: p.forward });
      assert.is(back.lon, 0);
      assert.is(back.lat, lat);
      const again = groundPoseFromLatLon(back.lat, back.lon, back.heading);
      assert.ok(gap(again.forward, p.forward) < 1e-12, `pole ${lat} lon ${lon}`);
    }
  }
  // Walking north up meridian 30 over the pole keeps heading 0 until the pole, then 180 on meridian -150.
  let p = groundPoseFromLatLon(89.99, 30, 0);
  p = movePose(p, 2000, 0, R);
  const over = latLonFromGroundPose(p);
  close(over.lon, -150, 1e-6, 'over the pole');
  close(over.heading, 180, 1e-6, 'heading south');
});

test('bad input: clear errors with the core\'s codes', () => {
  const good = groundPoseFromLatLon(10, 10, 10), key = { face: 0, lod: 2, x: 1, y: 1 };
  const cases = [
    [() => movePose(null, 1, 0, R), 'CT_ERR_NULL', /pose must be an object/],
    [() => movePose({ dir: [1, 0], forward: [0, 1, 0] }, 1, 0, R), 'CT_ERR_DIRECTION', /dir must be an array of 3/],
    [() => movePose({ dir: [NaN, 0, 0], forward: [0, 1, 0] }, 1, 0, R), 'CT_ERR_DIRECTION', /dir has a NaN/],
    [() => movePose({ dir: [0, 0, 0], forward: [0, 1, 0] }, 1, 0, R), 'CT_ERR_DIRECTION', /dir is the zero vector/],
    [() => movePose({ dir: [1, 0, 0], forward: [0, 0, 0] }, 1, 0, R), 'CT_ERR_DIRECTION', /forward is the zero vector/],
    [() => movePose({ dir: [1.01, 0, 0], forward: [0, 1, 0] }, 1, 0, R), 'CT_ERR_DIRECTION', /dir is not unit length/],
    [() => movePose({ dir: [1, 0, 0], forward: [0, 2, 0] }, 1, 0, R), 'CT_ERR_DIRECTION', /forward is not unit length/],
    [() => movePose({ dir: [1, 0, 0], forward: normalize([0.01, 1, 0]) }, 1, 0, R), 'CT_ERR_DIRECTION', /not tangent/],
    [() => movePose({ dir: [1, 0, 0], forward: [0, 1, Infinity] }, 1, 0, R), 'CT_ERR_DIRECTION', /forward has a NaN/],
    [() => movePose(good, NaN, 0, R), 'CT_ERR_LOCAL', /finite/],
    [() => movePose(good, 0, Infinity, R), 'CT_ERR_LOCAL', /finite/],
    [() => movePose(good, 1e308, 1e308, R), 'CT_ERR_LOCAL', /too long/],
    [() => movePose(good, 1, 0, 0), 'CT_ERR_CONFIG', /radius_m/],
    [() => movePose(good, 1, 0, -5), 'CT_ERR_CONFIG', /radius_m/],
    [() => headingInKey(good, { face: 6, lod: 0, x: 0, y: 0 }), 'CT_ERR_FACE', /face 6/],
    [() => headingInKey(good, { face: 0, lod: 2, x: 4, y: 0 }), 'CT_ERR_CHUNK_XY', /out of range/],
    [() => headingInKey(good, { face: 0, lod: 17, x: 0, y: 0 }), 'CT_ERR_LOD', /LOD 17/],
    [() => headingInKey(good, { face: 1, lod: 0, x: 0, y: 0 }), 'CT_ERR_LOCAL', /not on face -X's side/],
    [() => headingInKey({ dir: [1, 0, 0], forward: [0, NaN, 0] }, key), 'CT_ERR_DIRECTION', /NaN/],
    [() => poseFromKeyHeading(key, NaN, 0, 0), 'CT_ERR_LOCAL', /finite/],
    [() => poseFromKeyHeading(key, 0, 0, Infinity), 'CT_ERR_DIRECTION', /angle/],
    [() => poseFromKeyHeading('pz/3/9/0', 0, 0, 0), 'CT_ERR_CHUNK_XY', /out of range/],
    [() => poseFromKeyHeading(key, 1e12, 0, 0), 'CT_ERR_LOCAL', /side of the planet/],
    [() => groundPoseFromLatLon(91, 0, 0), 'CT_ERR_DIRECTION', /latitude 91/],
    [() => groundPoseFromLatLon(0, NaN, 0), 'CT_ERR_DIRECTION', /longitude/],
    [() => groundPoseFromLatLon(0, 0, undefined), 'CT_ERR_DIRECTION', /heading/],
    [() => latLonFromGroundPose({ dir: [0, 1, 0], forward: [0, 1, 0] }), 'CT_ERR_DIRECTION', /not tangent/],
  ];
  for (const [fn, code, re] of cases) {
    try {
      fn();
      assert.unreachable(`no error for ${fn}`);
    } catch (e) {
      assert.is(e.code, code, `${fn}: ${e.message}`);
      assert.ok(re.test(e.message), `${fn}: ${e.message}`);
    }
  }
  // Within the tolerance a pose is accepted and made exact.
  const off = 0.5 * POSE_TOLERANCE;
  const fixed = movePose({ dir: [1 + off, 0, 0], forward: [off, 1 - off, 0] }, 0, 0, R);
  assert.equal(fixed.dir, [1, 0, 0]);
  assert.ok(Math.abs(fixed.forward[0]) < 1e-15 && fixed.forward[1] === 1);
});

test.run();
