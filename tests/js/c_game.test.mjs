// Tests of examples/c-game: `make c-game` builds the game natively and with
// Emscripten against `make wasm-lib`; the Emscripten build runs under Node
// with its chunk worker in a worker thread (no pthreads). Its route log must
// equal the native build's byte for byte, and every line must agree with the
// core: the address and local offset from ct_key_at of the pose (Z-up turned
// Y-up), the walk from ct_pose_move and the heading from
// ct_pose_heading_in_key, the feet on world.groundAt's exact ground (never
// under it), the 3x3 neighbourhood, the chunk vertex height and material
// against ct_world_sample, the cell size from ct_key_metric. The route must
// cross cube edges with the world-space heading continuous (turned in chunk
// axes) and pass a corner where the neighbourhood dedupes to 8.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../../wasm/ct.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = path.join(root, 'build', 'examples', 'c-game');
const FACES = ['+X', '-X', '+Y', '-Y', '+Z', '-Z'];
const MATERIALS = ['sea', 'shore', 'grass', 'forest', 'rock', 'snow'];

let native, wasm, world, core;

const parseKey = (t) => {
  const [f, lod, x, y] = t.split('/');
  return { face: FACES.indexOf(f), lod: +lod, x: +x, y: +y };
};
const keyText = (k) => `${FACES[k.face]}/${k.lod}/${k.x}/${k.y}`;
const ROUTE = { stepM: 36000, eyeM: 1.7, radiusM: 6371000 };   // game_example_route, the world's radius
const fields = (line) => Object.fromEntries(line.split(' ').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

const vec = (t) => t.split(',').map(Number);
const yUp = (z) => [z[0], z[2], z[1]];   // the log's Z-up -> the core's Y-up
const poseOf = (s) => ({ dir: yUp(vec(s.dir)), forward: yUp(vec(s.forward)) });
const angle = (a, b) => Math.acos(Math.min(1, (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) /
  (Math.hypot(...a) * Math.hypot(...b))));
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const steps = () => native.split('\n').filter((l) => l.startsWith('step=')).map(fields);
// "cross +Z -> +Y at step 2 from=... to=... heading_from=... ..." -> { step, from, to, ... }
const crossings = () => native.split('\n').filter((l) => l.startsWith('cross ')).map((l) => ({
  ...fields(l.replace(/^cross \S+ -> \S+ at step /, 'step=')), line: l }));

test.before(async () => {
  execFileSync('make', ['--no-print-directory', 'c-game'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  native = execFileSync(path.join(out, 'game_native'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  wasm = execFileSync('node', [path.join(out, 'cgame.js')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  core = await loadCore();
  world = core.buildWorld({ preset: 'balanced', set: { seed: 42, macro_resolution: 32, surface_lod: 4 } });
});

test('the Emscripten build with its worker prints exactly what the native build prints', () => {
  assert.ok(native.split('\n').filter((l) => l.startsWith('step=')).length > 40, 'a full route');
  assert.is(wasm, native);
});

test('the world line: same generation as the core, the renderer unit reported', () => {
  const head = fields(native.split('\n')[0].replace(/^world /, ''));
  assert.is(head.generation, world.generation);
  assert.is(head.unit_m, '1000');
  assert.is(+head.surface_lod, 4);
});

test('every step agrees with the core: address, neighbours, vertex, materials, cell size', () => {
  let corners = 0;
  for (const s of steps()) {
    const at = world.keyAt(yUp(vec(s.dir)));
    const addr = s.addr.split('/');
    assert.is(addr[1], world.generation, 'address carries the generation');
    const key = parseKey(addr.slice(2).join('/'));
    assert.equal(key, at.key, `step ${s.step}: address`);
    const [lx, ly] = vec(s.local);
    assert.ok(Math.abs(lx - at.localX) < 5e-4 && Math.abs(ly - at.localY) < 5e-4, `step ${s.step}: local offset`);

    const [count, list] = s.nb.split(':');
    const mine = list.split(',').sort();
    assert.is(+count, mine.length);
    assert.equal(mine, core.keyNeighbourhood(at.key, at.localX, at.localY).map(keyText).sort(), `step ${s.step}: neighbours`);
    if (mine.length < 9) corners++;
    assert.is(s.nb_library, 'same');

    const [vi, vj] = vec(s.vertex);
    assert.ok(Math.abs(vi - lx) <= 0.5 && Math.abs(vj - ly) <= 0.5, 'nearest vertex');
    const smp = world.sampleAt(core.keyDirection(at.key, vi, vj));
    assert.ok(Math.abs(+s.vertex_m - smp.heightM) <= 0.5, `step ${s.step}: chunk vertex ${s.vertex_m} vs sample ${smp.heightM}`);
    assert.ok(Math.abs(+s.source_m - smp.heightM) < 1e-5, `step ${s.step}: height source ${s.source_m} vs sample ${smp.heightM}`);
    assert.is(s.source_material, MATERIALS[smp.material], `step ${s.step}: material`);
    assert.is(s.material, s.source_material);
    assert.is(s.agree, 'yes');

    const m = core.keyMetric(at.key, at.localX, at.localY, ROUTE.radiusM);
    const [cx] = s.cell_m.split('x').map(Number);
    assert.ok(Math.abs(cx - Math.hypot(...m.dx)) < 0.06, `step ${s.step}: cell size from the metric`);
  }
  assert.ok(corners > 0, 'the route passes a cube corner (deduplicated neighbourhood)');
  assert.ok(new Set(steps().map((s) => s.material)).size >= 2, 'more than one material along the route');
});

test('the player stands on the exact ground: world.groundAt within 1 mm, never under it', () => {
  let slopes = 0;
  for (const s of steps()) {
    const g = world.groundAt(yUp(vec(s.dir)));
    const feet = +s.feet_m;
    assert.ok(Math.abs(feet - g.heightM) < 1e-3, `step ${s.step}: feet ${feet} vs ground ${g.heightM}`);
    assert.ok(feet >= g.heightM - 1e-4, `step ${s.step}: feet ${feet} under the ground ${g.heightM}`);
    assert.ok(Math.abs(+s.eye_m - feet - ROUTE.eyeM) < 2e-4, `step ${s.step}: eyes above the feet`);
    assert.ok(Math.abs(+s.slope_deg - g.slopeDeg) < 0.006, `step ${s.step}: slope ${s.slope_deg} vs ${g.slopeDeg}`);
    assert.is(s.water_m === 'none', !g.hasWater, `step ${s.step}: water`);
    if (g.hasWater) assert.ok(Math.abs(+s.water_m - g.waterM) < 1e-3, `step ${s.step}: water level`);
    if (g.slopeDeg > 5) slopes++;
  }
  // Slopes are where the exact ground differs from a bilinear or vertex one.
  assert.ok(slopes >= 5, `the walk goes over slopes (${slopes})`);
});

test('the walk is ct_pose_move, its heading read in each chunk with ct_pose_heading_in_key', () => {
  const all = steps();
  for (let i = 0; i < all.length; i++) {
    const s = all[i], pose = poseOf(s), key = parseKey(s.addr.split('/').slice(2).join('/'));
    assert.ok(Math.abs(core.headingInKey(pose, key) - +s.heading) < 2e-6, `step ${s.step}: heading in ${keyText(key)}`);
    if (i === 0) continue;
    const moved = core.movePose(poseOf(all[i - 1]), ROUTE.stepM, 0, ROUTE.radiusM);
    // The log rounds dir to 1e-12 and forward to 1e-9.
    assert.ok(dist(moved.dir, pose.dir) < 1e-11 && dist(moved.forward, pose.forward) < 4e-9, `step ${s.step}: ct_pose_move`);
  }
});

test('cube edges are crossed with the heading kept in world space and turned in chunk axes', () => {
  const all = steps(), cross = crossings();
  assert.ok(cross.length >= 2, `crosses cube edges: ${cross.map((c) => c.line).join('; ')}`);
  let turned = 0;
  for (const c of cross) {
    const k = all.findIndex((s) => s.step === c.step);
    assert.ok(k > 0, `step ${c.step} follows the crossing`);
    const before = all[k - 1], after = all[k], pose = poseOf(after);
    assert.is(c.from, before.addr.split('/').slice(2).join('/'), 'from: the chunk before');
    assert.is(c.to, after.addr.split('/').slice(2).join('/'), 'to: the chunk after');
    assert.is.not(parseKey(c.from).face, parseKey(c.to).face, 'a face change');
    // The same pose read in both chunks' axes.
    assert.ok(Math.abs(core.headingInKey(pose, parseKey(c.from)) - +c.heading_from) < 2e-6, `${c.line}: heading_from`);
    assert.is(c.heading_to, after.heading, 'heading_to is the step heading');
    // World space: the forward before and after are the steps' own, and agree
    // to within the step's turn along its great circle (0.32 degrees).
    assert.is(c.forward_before, before.forward);
    assert.is(c.forward_after, after.forward);
    const turn = angle(yUp(vec(c.forward_before)), yUp(vec(c.forward_after)));
    assert.ok(turn < 1.5 * ROUTE.stepM / ROUTE.radiusM, `${c.line}: world heading turned ${turn} rad`);
    // Keeping the old chunk's angle in the new chunk would send the player off sideways.
    const kept = core.poseFromKeyHeading(parseKey(c.to), ...vec(after.local), +c.heading_from);
    if (Math.abs(+c.heading_from - +c.heading_to) > 0.5) {
      turned++;
      assert.ok(angle(kept.forward, pose.forward) > 0.5, `${c.line}: a kept angle would be off`);
    }
  }
  assert.ok(turned >= 1, 'at least one crossing turns the heading in chunk axes');
});

test.run();
