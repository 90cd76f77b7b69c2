// neighbourhood.mjs - Is the physics ground always there? A player crosses
// the page's world (balanced, seed 42, surface_lod 12) at 10 m/s (a
// character) and 60 m/s (a vehicle) with a GroundNeighbourhood
// (stream/neighbourhood.js) feeding on colliders, and this reports the
// smallest margin seen (distance from the player to the nearest point round
// it that has no collider yet), the standing-start time to the first patch
// under the player and to the whole range, and what update() costs a frame.
//
// With the worker pool's collider() (worker/client.js, Node worker_threads)
// it runs in real time. Without it, or with --sim, it runs on a simulated
// clock: colliders are built for real with world.collider here, but each is
// "ready" only after the measured cost of world.collider has passed on one
// of --workers simulated workers, so the margins are those a pool of that
// size would give at that cost (--cost-scale 3 asks what a machine 3 times
// slower would see).
//
//   node bench/neighbourhood.mjs [--sim] [--workers 2] [--seconds 40] [--range 1500] [--patch 64]
//                                [--cost-scale 1]
import { loadCore } from '../wasm/ct.mjs';
import { createPool } from '../worker/client.js';
import { GroundNeighbourhood, movePose, groundPoseFromLatLon } from '../stream/index.js';
import { ensureWasm } from '../tests/js/ct_fixture.mjs';
import { nowMs, summarize, fmt } from './common.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(`--${name}`); return i >= 0 ? Number(args[i + 1]) : def; };
const WORKERS = opt('workers', 2), SECONDS = opt('seconds', 40), RANGE_M = opt('range', 1500), PATCH = opt('patch', 64);
const COST_SCALE = opt('cost-scale', 1);
const SPEC = { preset: 'balanced', set: { seed: 42, surface_lod: 12 } };
const FRAME_MS = 1000 / 60;
// Due east 1.6 km short of the +X/-Z cube edge (lon 45): chunk seams, and at 60 m/s the edge.
const START = { lat: 10, lon: 44.985, heading: 90 };

/** The smallest distance (25 m steps) at which some of 24 bearings round dir has no held patch. */
function margin(nb, pose, R, maxM) {
  for (let r = 0; r <= maxM; r += 25) {
    for (let k = 0; k < (r ? 24 : 1); k++) {
      const a = (2 * Math.PI * k) / 24, fwd = r * Math.cos(a), right = r * Math.sin(a);
      if (!nb.holds(movePose(pose, fwd, right, R).dir)) return r;
    }
  }
  return maxM;
}

/**
 * A pool on a simulated clock: world.collider for the data (built when due,
 * outside update()'s timing), its measured cost for the time.
 */
function simPool(world, costMs, workers, clock) {
  const free = new Array(workers).fill(0), due = [];
  return {
    due,
    collider(key, opts) {
      const w = free.indexOf(Math.min(...free)), start = Math.max(clock.now, free[w]);
      free[w] = start + costMs;
      return new Promise((resolve) => due.push({ at: free[w], resolve: () => resolve(world.collider(key, opts)) }));
    },
    /** Resolves what is done by now; the neighbourhood's then() runs before the next frame. */
    async settle() {
      for (let i = due.length - 1; i >= 0; i--) if (due[i].at <= clock.now) due.splice(i, 1)[0].resolve();
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

/**
 * groundAt and 1 km raycasts from the held neighbourhood against the same
 * calls on the world, alternated rep by rep: per-call microseconds, min and
 * median over reps of 1,000 points (100 rays): a block of 100 sub-microsecond
 * calls lasts less than one garbage collection of the world calls beside it,
 * which then decides its mean. Points lie within 600 m of the player; rays
 * start 2 m over the ground and run 1 km level along the heading.
 */
function queryTimes(nb, world, pose, R, reps = 15) {
  const pts = [], rays = [];
  let seed = 7;
  const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  for (let i = 0; i < 1000; i++) {
    const p = movePose(pose, (rnd() - 0.5) * 1200, (rnd() - 0.5) * 1200, R);
    pts.push(p.dir);
    if (i >= 100) continue;   // 100 rays (a ray costs a hundred ground queries)
    const g = world.groundAt(p.dir).heightM;
    rays.push({ o: p.dir.map((v) => v * (R + g + 2)), d: p.forward });
  }
  const out = { nbGround: [], worldGround: [], nbRay: [], worldRay: [] };
  const time = (fn, list) => { const t = nowMs(); for (const x of list) fn(x); return (1000 * (nowMs() - t)) / list.length; };
  // Three reps first, not kept: the JIT compiles the query paths on them.
  for (let r = -3; r < reps; r++) {
    const order = r % 2 ? ['world', 'nb'] : ['nb', 'world'];
    for (const who of order) {
      const keep = (list, v) => { if (r >= 0) list.push(v); };
      if (who === 'nb') {
        keep(out.nbGround, time((d) => nb.groundAt(d), pts));
        keep(out.nbRay, time((y) => nb.raycast(y.o, y.d, 1000), rays));
      } else {
        keep(out.worldGround, time((d) => world.groundAt(d), pts));
        keep(out.worldRay, time((y) => world.raycast(y.o, y.d, 1000), rays));
      }
    }
  }
  // The same 100 points again and again, nothing between: a game asking
  // under its player every frame, with the patch it stands on in cache.
  out.nbGroundWarm = [];
  for (let r = -3; r < reps; r++) {
    let t = 0;
    for (let k = 0; k < 10; k++) t += time((d) => nb.groundAt(d), pts);
    if (r >= 0) out.nbGroundWarm.push(t / 10);
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, summarize(v)]));
}

async function run(speedMps, makePool, R, clock, world) {
  const pool = await makePool();
  let adds = 0, addTris = 0;
  const nb = new GroundNeighbourhood({ pool, radiusM: R, surfaceLod: SPEC.set.surface_lod, rangeM: RANGE_M, patch: PATCH,
    onAdd: (k, c) => { adds++; addTris += c.triangleCount; }, onRemove() {}, onError: (e) => { throw e; } });
  let pose = groundPoseFromLatLon(START.lat, START.lon, START.heading);
  const t0 = clock.now, updMs = [];
  let firstUnder = null, whole = null, worst = { m: Infinity }, movedM = 0;
  while (clock.now - t0 < SECONDS * 1000) {
    // Standing start: still until the range is whole, then on.
    if (whole !== null) { pose = movePose(pose, (speedMps * FRAME_MS) / 1000, 0, R); movedM += (speedMps * FRAME_MS) / 1000; }
    const u0 = nowMs(), s = nb.update(pose);
    updMs.push(nowMs() - u0);
    if (firstUnder === null && nb.holds(pose.dir)) firstUnder = clock.now - t0;
    if (whole === null && s.complete) whole = clock.now - t0;
    if (whole !== null) {
      const m = margin(nb, pose, R, RANGE_M + 1000);
      if (m < worst.m) worst = { m, atM: movedM };
    }
    await clock.tick(pool);
  }
  const queries = queryTimes(nb, world, pose, R);
  nb.clear();
  if (pool.terminate) await pool.terminate();
  const u = summarize(updMs);
  return { speedMps, firstUnder, whole, worst, movedM, adds, addTris, update: u, requested: nb.stats().requested, queries };
}

async function main() {
  ensureWasm();
  const core = await loadCore(ensureWasm());
  let t = nowMs();
  const world = core.buildWorld(SPEC);
  const R = world.config.radius_m;
  console.log(`world ${SPEC.preset} seed ${SPEC.set.seed} surface_lod ${SPEC.set.surface_lod}: built in ${fmt(nowMs() - t, 0)} ms`);
  // The cost of one collider, as a worker pays it: a fresh chunk generated and meshed.
  const costs = [];
  for (let i = 0; i < 6; i++) {
    t = nowMs();
    world.collider({ face: 0, lod: 12, x: 1000 + 3 * i, y: 2000 });
    costs.push(nowMs() - t);
  }
  const cost = summarize(costs.slice(1)).median * COST_SCALE;
  console.log(`world.collider (stride 1, 131,072 triangles): median ${fmt(cost / COST_SCALE, 1)} ms` +
    (COST_SCALE !== 1 ? `, simulated at ${fmt(cost, 1)} ms` : ''));

  let probe = null;
  if (!args.includes('--sim')) {
    probe = await createPool({ workers: WORKERS });
    if (typeof probe.collider !== 'function') { await probe.terminate(); probe = null; }
  }
  const real = probe !== null;
  if (probe) await probe.terminate();
  console.log(real ? `real worker pool, ${WORKERS} workers, real time` : `simulated pool: ${WORKERS} workers at ${fmt(cost, 1)} ms a collider, 60 Hz frames`);
  console.log(`range ${RANGE_M} m, patches ${PATCH} x ${PATCH} cells (${2 * PATCH * PATCH} triangles), ${SECONDS} s per run\n`);

  for (const speed of [10, 60]) {
    let r;
    if (real) {
      const clock = { now: nowMs(), async tick() { await new Promise((res) => setTimeout(res, FRAME_MS)); clock.now = nowMs(); } };
      r = await run(speed, async () => { const p = await createPool({ workers: WORKERS }); await p.build(SPEC); return p; }, R, clock, world);
    } else {
      const clock = { now: 0, async tick(pool) { clock.now += FRAME_MS; await pool.settle(); } };
      r = await run(speed, async () => simPool(world, cost, WORKERS, clock), R, clock, world);
    }
    console.log(`${speed} m/s: standing start ${fmt(r.firstUnder, 0)} ms to a patch under the player, ` +
      `${fmt(r.whole, 0)} ms to the whole range; then ${fmt(r.movedM / 1000, 2)} km with the smallest margin ` +
      `${r.worst.m} m (at ${fmt(r.worst.atM, 0)} m); ${r.requested} colliders, ${r.adds} patches added; ` +
      `update() median ${fmt(r.update.median, 2)} ms, p95 ${fmt(r.update.p95, 2)} ms, max ${fmt(r.update.max, 2)} ms`);
    const q = r.queries, us = (x) => `${fmt(x.median, 1)} [${fmt(x.min, 1)}] us`;
    console.log(`  groundAt: held ${us(q.nbGround)} (warm, the same points on end: ${us(q.nbGroundWarm)}), world ${us(q.worldGround)}; ` +
      `raycast 1 km: held ${us(q.nbRay)}, world ${us(q.worldRay)} (median [min] per call, held and world alternated)`);
  }
  world.free();
}

await main();
