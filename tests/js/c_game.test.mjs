// Tests of examples/c-game: `make c-game` builds the game natively and with
// Emscripten against `make wasm-lib`; the Emscripten build runs under Node
// with its chunk worker in a worker thread (no pthreads). Its route log must
// equal the native build's byte for byte, and every line must agree with the
// core: the address and local offset from ct_key_at of the pose (Z-up turned
// Y-up), the 3x3 neighbourhood, the chunk vertex height and material against
// ct_world_sample, the cell size from ct_key_metric, and the route must cross
// cube edges and pass a corner where the neighbourhood dedupes to 8.
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
const fields = (line) => Object.fromEntries(line.split(' ').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

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

test('every step agrees with the core: address, neighbours, heights, materials, cell size', () => {
  const steps = native.split('\n').filter((l) => l.startsWith('step=')).map(fields);
  let corners = 0;
  for (const s of steps) {
    const zup = s.dir.split(',').map(Number);
    const at = world.keyAt([zup[0], zup[2], zup[1]]);   // Z-up -> Y-up
    const addr = s.addr.split('/');
    assert.is(addr[1], world.generation, 'address carries the generation');
    const key = parseKey(addr.slice(2).join('/'));
    assert.equal(key, at.key, `step ${s.step}: address`);
    const [lx, ly] = s.local.split(',').map(Number);
    assert.ok(Math.abs(lx - at.localX) < 5e-4 && Math.abs(ly - at.localY) < 5e-4, `step ${s.step}: local offset`);

    const [count, list] = s.nb.split(':');
    const mine = list.split(',').sort();
    assert.is(+count, mine.length);
    assert.equal(mine, core.keyNeighbourhood(at.key, at.localX, at.localY).map(keyText).sort(), `step ${s.step}: neighbours`);
    if (mine.length < 9) corners++;
    assert.is(s.nb_library, 'same');

    const [vi, vj] = s.vertex.split(',').map(Number);
    assert.ok(Math.abs(vi - lx) <= 0.5 && Math.abs(vj - ly) <= 0.5, 'nearest vertex');
    const smp = world.sampleAt(core.keyDirection(at.key, vi, vj));
    assert.ok(Math.abs(+s.vertex_m - smp.heightM) <= 0.5, `step ${s.step}: chunk vertex ${s.vertex_m} vs sample ${smp.heightM}`);
    assert.ok(Math.abs(+s.source_m - smp.heightM) < 1e-5, `step ${s.step}: height source ${s.source_m} vs sample ${smp.heightM}`);
    assert.is(s.source_material, MATERIALS[smp.material], `step ${s.step}: material`);
    assert.is(s.material, s.source_material);
    assert.is(s.agree, 'yes');
    assert.ok(Math.abs(+s.eye_m - +s.ground_m - 120) < 2e-3, 'eye at the route altitude above the ground');

    const m = core.keyMetric(at.key, at.localX, at.localY, 6371000);
    const [cx] = s.cell_m.split('x').map(Number);
    assert.ok(Math.abs(cx - Math.hypot(...m.dx)) < 0.06, `step ${s.step}: cell size from the metric`);
  }
  assert.ok(corners > 0, 'the route passes a cube corner (deduplicated neighbourhood)');
  const crossings = native.split('\n').filter((l) => l.startsWith('cross '));
  assert.ok(crossings.length >= 2, `crosses cube edges: ${crossings.join('; ')}`);
  assert.ok(new Set(steps.map((s) => s.material)).size >= 2, 'more than one material along the route');
});

test.run();
