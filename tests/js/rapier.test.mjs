// rapier.test.mjs - A real physics engine (Rapier, under Node) judges the
// terrain's colliders where they are hardest to weld: round a cube corner of
// the page's world (balanced, seed 42, surface_lod 12), whose LOD-12 chunks
// are 1.47 km across there. Every chunk the route touches becomes one Rapier
// trimesh in one common frame (body-fixed axes, a float64 origin at the
// corner), and then: a kinematic character controller with radial up walks
// 7.7 km across chunk seams, two cube edges and through the corner; balls
// dropped on seams, an edge and the corner come to rest on the ground; and
// Rapier's rays agree with the exact ground and with world.raycast.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import RAPIER from '@dimforge/rapier3d-compat';
import { freshCore } from './ct_fixture.mjs';
import { keyId } from '../../wasm/ct_key.mjs';

await RAPIER.init();
const core = await freshCore();
const world = core.buildWorld({ preset: 'balanced', set: { seed: 42, surface_lod: 12 } });
const R = world.config.radius_m;
const LOD = world.config.surface_lod;

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a) => { const l = Math.hypot(...a); return [a[0] / l, a[1] / l, a[2] / l]; };
const vec = (a) => ({ x: a[0], y: a[1], z: a[2] });
const keyOf = (dir) => keyId(world.keyAt(dir, LOD).key);

// The cube corner (1,1,-1)/sqrt(3): hills with slopes up to about 50 degrees
// (the corner (1,1,1) has cliffs the controller may not climb, and the other
// land corners are plains). Faces +X, -Z and +Y meet there.
const CORNER = unit([1, 1, -1]);
// Polar coordinates round the corner on the sphere: bearing 0 points along
// +X's diagonal, away from the corner; the face edges are at 60, 180 and 300
// degrees and the chunk seams come closest (1.27 km) at 30 + 60k degrees.
const E1 = unit(((d) => d.map((v, i) => v - dot(d, CORNER) * CORNER[i]))(core.keyDirection(world.keyAt(unit([1, 1 - 1e-4, -1 + 1e-4])).key, 128, 128)));
const E2 = cross(CORNER, E1);
function polar(bearingDeg, distM) {
  const a = distM / R, b = (bearingDeg * Math.PI) / 180;
  return unit([0, 1, 2].map((i) => Math.cos(a) * CORNER[i] + Math.sin(a) * (Math.cos(b) * E1[i] + Math.sin(b) * E2[i])));
}

// The route, in (bearing, distance) legs every 10 m: an arc at 1.32 km from
// bearing 0 to 110 (two seams, the +X/-Z edge, two seams), in to the corner
// and straight through it onto bearing 250 (from -Z to +Y), out, and the
// arc on to 360 (two seams, the +Y/+X edge, two seams) to close the loop.
const ARC_M = 1320;
function routePoints() {
  const pts = [];
  const arc = (from, to) => { for (let b = from; b <= to; b += (10 / ARC_M) * (180 / Math.PI)) pts.push(polar(b, ARC_M)); };
  const spoke = (bearing, from, to) => { for (let i = 0; i <= 132; i++) pts.push(polar(bearing, from + ((to - from) * i) / 132)); };
  arc(0, 110);
  spoke(110, ARC_M, 0);
  spoke(250, 0, ARC_M);
  arc(250, 360);
  return pts;
}
const ROUTE = routePoints();

// Where 3 or 4 chunks meet, and points on seams: the corner, the 4-chunk
// corner on the +X/-Z edge (bearing 60, 1.47 km), a point on the -Z/+Y edge,
// points on the seams the route crosses.
const SPOTS = { corner: CORNER, edgeCorner: polar(60, 1467), edge: polar(180, 700), seamX: polar(30, 1274.5), seamZ: polar(90, 1274.5), seamY: polar(270, 1274.5) };

// Only the chunks the route and the spots touch (7), stride 1, like the page draws.
const keys = new Map();
for (const d of [...ROUTE, ...Object.values(SPOTS)]) keys.set(keyOf(d), world.keyAt(d, LOD).key);

// The common frame: body-fixed axes, origin at the corner on the sphere.
// Each vertex is center + offset - ORIGIN summed in float64, then float32:
// within 2 km of the origin that is good to 0.1 mm, so seams stay welded.
const ORIGIN = CORNER.map((v) => v * R);
const physics = new RAPIER.World(vec([0, 0, 0]));
for (const key of keys.values()) {
  const c = world.collider(key, { stride: 1 });
  const v = new Float32Array(3 * c.vertexCount);
  for (let i = 0; i < v.length; i++) v[i] = c.center[i % 3] + c.positions[i] - ORIGIN[i % 3];
  physics.createCollider(RAPIER.ColliderDesc.trimesh(v, c.indices));
}
physics.step();   // puts the terrain colliders into the broad phase for queries

/** The exact ground's height above the planet's radius under a direction. */
const groundM = (dir) => world.groundAt(dir).heightM;
const toFrame = (dir, heightM) => dir.map((v, i) => v * (R + heightM) - ORIGIN[i]);
const fromFrame = (p) => p.map((v, i) => v + ORIGIN[i]);
/** Height above the planet's radius, and the unit up, of a point in the frame. */
function heightUp(p) {
  const abs = fromFrame(p), r = Math.hypot(...abs);
  return { heightM: r - R, up: abs.map((v) => v / r) };
}
/** The rotation that turns +y (a capsule's axis) onto up. */
function yTo(up) {
  const w = 1 + up[1], l = Math.hypot(w, up[2], up[0]);   // half-way quaternion from (0,1,0) to up
  return { x: up[2] / l, y: 0, z: -up[0] / l, w: w / l };
}

test('the route crosses seams, cube edges and the corner on at most 16 chunks', () => {
  let seams = 0, faces = 0;
  for (let i = 1; i < ROUTE.length; i++) {
    const a = world.keyAt(ROUTE[i - 1], LOD).key, b = world.keyAt(ROUTE[i], LOD).key;
    if (keyId(a) !== keyId(b)) seams++;
    if (a.face !== b.face) faces++;
  }
  assert.ok(keys.size <= 16, `${keys.size} chunks`);
  assert.ok(seams >= 8 && faces >= 3, `${seams} seams, ${faces} face changes`);
});

// Capsule 1.8 m tall; 1 m steps (30 m/s at 30 Hz) keep a 7.7 km walk quick.
const HALF_M = 0.6, RADIUS_M = 0.3, FOOT_M = HALF_M + RADIUS_M, STEP_M = 1, DT_S = 1 / 30, G = 9.81;

test('a character controller with radial up walks the route: never under the ground, never stuck', () => {
  const body = physics.createCollider(RAPIER.ColliderDesc.capsule(HALF_M, RADIUS_M));
  const ctl = physics.createCharacterController(0.02);
  ctl.enableSnapToGround(0.5);
  ctl.enableAutostep(0.4, 0.2, false);
  ctl.setMaxSlopeClimbAngle((60 * Math.PI) / 180);
  ctl.setMinSlopeSlideAngle((70 * Math.PI) / 180);
  let p = toFrame(ROUTE[0], groundM(ROUTE[0]) + FOOT_M + 0.05);
  let fallMps = 0, next = 1, worst = { dipM: -Infinity }, walkedM = 0, seams = 0, faces = 0, steps = 0;
  let key = world.keyAt(fromFrame(p), LOD).key, mark = p;
  while (next < ROUTE.length) {
    const { up } = heightUp(p);
    const aim = toFrame(ROUTE[next], heightUp(p).heightM);
    const to = aim.map((v, i) => v - p[i]), along = to.map((v, i) => v - dot(to, up) * up[i]);
    if (Math.hypot(...along) < 5) { next++; continue; }
    const fwd = unit(along);
    fallMps += G * DT_S;
    body.setTranslation(vec(p));
    body.setRotation(yTo(up));
    ctl.setUp(vec(up));
    ctl.computeColliderMovement(body, vec(fwd.map((v, i) => v * STEP_M - up[i] * fallMps * DT_S)));
    const m = ctl.computedMovement();
    if (ctl.computedGrounded()) fallMps = 0;
    const q = [p[0] + m.x, p[1] + m.y, p[2] + m.z];
    walkedM += Math.acos(Math.min(1, dot(unit(fromFrame(p)), unit(fromFrame(q))))) * R;
    p = q;
    steps++;
    const h = heightUp(p), feetM = h.heightM - FOOT_M, underM = groundM(h.up);
    if (underM - feetM > worst.dipM) worst = { dipM: underM - feetM, step: steps, at: keyOf(h.up) };
    assert.ok(worst.dipM < 0.25, `feet ${worst.dipM.toFixed(3)} m under the ground at step ${steps} in ${worst.at}`);
    const k = world.keyAt(h.up, LOD).key;
    if (keyId(k) !== keyId(key)) { seams++; if (k.face !== key.face) faces++; key = k; }
    // Never stuck: every 50 steps it gets at least 20 m further (on 50-degree
    // hills a 1 m step moves about 0.6 m over the ground).
    if (steps % 50 === 0) {
      const gone = Math.acos(Math.min(1, dot(unit(fromFrame(mark)), h.up))) * R;
      assert.ok(gone > 20, `stuck at step ${steps} in ${keyOf(h.up)}: ${gone.toFixed(1)} m in 50 steps`);
      mark = p;
    }
    assert.ok(steps < (30 * ROUTE.length) / STEP_M, 'the walk does not end');   // route points are 10 m apart
  }
  physics.removeCollider(body, false);
  process.stderr.write(`rapier walk: ${(walkedM / 1000).toFixed(2)} km in ${steps} steps, ${seams} seams (${faces} face changes), ` +
    `worst foot dip ${(100 * worst.dipM).toFixed(1)} cm at step ${worst.step} in ${worst.at}\n`);
  assert.ok(walkedM > 2000, `${walkedM} m`);
  assert.ok(seams >= 8 && faces >= 3, `${seams} seams, ${faces} face changes`);
});

test('balls dropped on seams, an edge and the corner come to rest on the ground', () => {
  const BALL_M = 0.5, errs = [];
  for (const [name, dir] of Object.entries(SPOTS)) {
    const g = world.groundAt(dir);
    physics.gravity = vec(dir.map((v) => -G * v));
    // Rotations locked and a grippy ball: it slides to rest on hills instead of rolling away.
    const ball = physics.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(...toFrame(dir, g.heightM + 5)).lockRotations());
    const col = physics.createCollider(RAPIER.ColliderDesc.ball(BALL_M).setFriction(2)
      .setFrictionCombineRule(RAPIER.CoefficientCombineRule.Max), ball);
    for (let i = 0; i < 240; i++) physics.step();
    const t = ball.translation(), h = heightUp([t.x, t.y, t.z]), under = world.groundAt(h.up);
    // A ball resting on a plane with slope s has its centre r / cos s above the plane, straight up.
    const wantM = under.heightM + BALL_M / dot(under.normal, h.up);
    errs.push(`${name} ${(100 * (h.heightM - wantM)).toFixed(1)} cm`);
    assert.ok(Math.abs(h.heightM - wantM) < 0.03, `${name}: ball centre ${(h.heightM - wantM).toFixed(3)} m from resting height`);
    assert.ok(Math.hypot(...Object.values(ball.linvel())) < 0.05, `${name}: still moving`);
    physics.removeCollider(col, false);
    physics.removeRigidBody(ball);
  }
  process.stderr.write(`rapier balls at rest, centre minus resting height: ${errs.join(', ')}\n`);
});

test("Rapier's rays hit the exact ground and agree with world.raycast within 1 cm near seams, edges and corners", () => {
  let seed = 1, worst = 0, worstRay = 0;
  const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) - 0.5;
  for (const [name, spot] of Object.entries(SPOTS)) {
    for (let i = 0; i < 40; i++) {
      // Within 20 m of the spot: round the seam, on every chunk that meets there.
      const dir = unit(spot.map((v) => v + (rnd() * 40) / R));
      const g = groundM(dir);
      const ray = new RAPIER.Ray(vec(toFrame(dir, g + 100)), vec(dir.map((v) => -v)));
      const hit = physics.castRay(ray, 1000, true);
      assert.ok(hit, `${name}: the ray fell through`);
      const errM = 100 - hit.timeOfImpact;   // Rapier's ground minus the exact one
      worst = Math.max(worst, Math.abs(errM));
      assert.ok(Math.abs(errM) < 0.01, `${name}: Rapier's ground ${errM.toFixed(4)} m from the exact one`);
      // The same ray, slanted 30 degrees, through Rapier and through world.raycast.
      const side = unit([dir[1] - dir[2], dir[2] - dir[0], dir[0] - dir[1]]);
      const slant = unit(dir.map((v, k) => -v + 0.577 * side[k]));
      const from = toFrame(dir, g + 100);
      const rHit = physics.castRay(new RAPIER.Ray(vec(from), vec(slant)), 1000, true);
      const ours = world.raycast(fromFrame(from), slant, 1000);
      assert.ok(rHit && ours, `${name}: a slanted ray hits in both`);
      const dRay = Math.abs(rHit.timeOfImpact - ours.distanceM);
      worstRay = Math.max(worstRay, dRay);
      assert.ok(dRay < 0.01, `${name}: Rapier's slanted hit ${rHit.timeOfImpact.toFixed(4)} m, world.raycast ${ours.distanceM.toFixed(4)} m`);
    }
  }
  process.stderr.write(`rapier rays: worst ${(1000 * worst).toFixed(2)} mm from the exact ground, slanted ${(1000 * worstRay).toFixed(2)} mm from world.raycast\n`);
});

test.run();
