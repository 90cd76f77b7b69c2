// parity.test.mjs - Cross-target parity: the Node twin (wasm/cli.mjs on the
// WebAssembly core) and the native ./terrain, run with the same arguments,
// print the same generation IDs and digests and write byte-identical
// world.ctw, .ctc and .u16le files, for several presets and for chunks on
// several faces, along a cube edge and at a cube corner. Then addressing and
// point samples of faces, edges and corners, against native --locate/--sample.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshCore } from './ct_fixture.mjs';
import { native, node, both } from './cli_runs.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'ct-parity-'));
/** The summary without the two host-dependent lines (wall time, struct sizes). */
const strip = (s) => s.replace(/^build_ms .*$/m, '').replace(/^bytes_held .*$/m, '');
const core = await freshCore();

/** cmp: the first differing byte, or -1. */
function cmp(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

function sameTree(dirA, dirB) {
  const files = readdirSync(dirA).sort();
  assert.equal(readdirSync(dirB).sort(), files, 'same files written');
  for (const f of files) {
    const a = readFileSync(path.join(dirA, f)), b = readFileSync(path.join(dirB, f));
    const at = cmp(a, b);
    assert.is(at, -1, `${f}: differs at byte ${at} (${a.length} vs ${b.length} bytes)`);
  }
  return files;
}

// A cube edge (+X right column against -Z left column), the (1,1,1) corner
// from three faces, and chunks on every face at several LODs.
const CHUNKS = [
  ['+Z', 6, 22, 52], ['+X', 6, 63, 10], ['-Z', 6, 0, 10], ['+X', 6, 0, 0], ['+Y', 6, 63, 63],
  ['pz', 6, 63, 0], ['-X', 3, 7, 0], ['-Y', 0, 0, 0], ['py', 2, 1, 3],
];
const RUNS = [
  ['balanced', []],
  ['alpine', ['--set', 'seed=7', '--set', 'macro_resolution=32']],
  ['regional', ['--set', 'seed=11', '--set', 'surface_lod=6']],
  ['archipelago', ['--set', 'height_quantum_m=0.25', '--set', 'seed=3']],
];

for (const [preset, extra] of RUNS) {
  test(`${preset}: same stdout and byte-identical files`, async () => {
    const chunkArgs = CHUNKS.flatMap((c) => ['--chunk', ...c.map(String)]);
    const outN = path.join(work, `${preset}-native`), outJ = path.join(work, `${preset}-node`);
    const args = (out) => ['--preset', preset, ...extra, '--out', out, ...chunkArgs];
    const [n, j] = await both(args(outN), args(outJ));
    assert.is(n.status, 0, n.stderr);
    assert.is(j.status, 0, j.stderr);
    assert.is(j.stdout.replaceAll(outJ, 'OUT'), n.stdout.replaceAll(outN, 'OUT'));
    assert.match(n.stdout, /^generation [0-9a-f]{16}\n/);
    assert.is((n.stdout.match(/ digest [0-9a-f]{16} /g) || []).length, CHUNKS.length);
    const files = sameTree(outN, outJ);
    assert.is(files.length, 1 + 2 * CHUNKS.length);
  });
}

// Fine relief (layers/fine_relief.c) runs past LOD 6: a surface_lod 10 world, its LOD 6
// chunks and a LOD 10 one; the chunk lines carry the float heights' digest.
test('fine relief at surface_lod 10: same stdout (float heights too) and files', async () => {
  const chunks = [...CHUNKS, ['+Z', 10, 355, 838], ['+X', 10, 1023, 300]];
  const chunkArgs = chunks.flatMap((c) => ['--chunk', ...c.map(String)]);
  const outN = path.join(work, 'ground-native'), outJ = path.join(work, 'ground-node');
  const args = (out) => ['--preset', 'balanced', '--set', 'surface_lod=10', '--set', 'macro_resolution=32',
    '--out', out, ...chunkArgs];
  const [n, j] = await both(args(outN), args(outJ));
  assert.is(n.status, 0, n.stderr);
  assert.is(j.status, 0, j.stderr);
  assert.is(j.stdout.replaceAll(outJ, 'OUT'), n.stdout.replaceAll(outN, 'OUT'));
  assert.is((n.stdout.match(/ heights_m [0-9a-f]{16}\n/g) || []).length, chunks.length);
  sameTree(outN, outJ);
});

test('--config files and --load of the other side\'s snapshot', async () => {
  const cfg = path.join(work, 'world.cfg');
  writeFileSync(cfg, '# a config file\nseed = 5\nmacro_resolution=32\n\nsurface_lod=4  # comment\nland_bias=0.1\n');
  const outN = path.join(work, 'cfg-native'), outJ = path.join(work, 'cfg-node');
  const chunk = ['--chunk', 'nx', '4', '15', '8'];
  const [n, j] = await both(['--preset', 'dry', '--config', cfg, '--set', 'seed=6', '--out', outN, ...chunk],
    ['--preset', 'dry', '--config', cfg, '--set', 'seed=6', '--out', outJ, ...chunk]);
  assert.is(n.status, 0, n.stderr);
  assert.is(j.status, 0, j.stderr);
  sameTree(outN, outJ);
  // Each side loads the snapshot the other wrote.
  const [ln, lj] = await both(['--load', path.join(outJ, 'world.ctw'), ...chunk], ['--load', path.join(outN, 'world.ctw'), ...chunk]);
  assert.is(ln.status, 0, ln.stderr);
  assert.is(strip(lj.stdout).replace(outN, 'OUT'), strip(ln.stdout).replace(outJ, 'OUT'));
  const chunkLine = n.stdout.split('\n').find((l) => l.startsWith('chunk '));
  assert.ok(ln.stdout.includes(chunkLine) && lj.stdout.includes(chunkLine), 'loaded worlds give the built chunk digest');
});

test('the config summary (no --out) matches except wall time and host struct sizes', async () => {
  const args = ['--preset', 'walk', '--set', 'macro_resolution=16', '--set', 'seed=8'];
  const [n, j] = await both(args);
  assert.is(strip(j.stdout), strip(n.stdout));
  assert.match(n.stdout, /^# --preset walk\n/);
  assert.ok(n.stdout.split('\n').length > 70);
});

test('rejections: same exit status and message', async () => {
  const cases = [
    ['--set', 'seed=-1'], ['--set', 'macro_resolution=48'], ['--preset', 'nowhere'], ['--bogus'],
    ['--chunk', '+Q', '1', '0', '0'], ['--chunk', '+Z', '2', '4', '0'], ['--set', 'surface_lod=2', '--chunk', '+Z', '3', '0', '0'],
    ['--load', path.join(work, 'missing.ctw')], ['--config', path.join(work, 'missing.cfg')], ['--set', 'seed'],
    ['--config', work], ['--config', path.join(work, 'nul.cfg')],
  ];
  writeFileSync(path.join(work, 'nul.cfg'), 'seed=5\u0000junk\nplanet_id=2\n');
  for (const args of cases) {
    const [n, j] = await both(args);
    assert.is(j.status, n.status, args.join(' '));
    assert.is(j.stderr.split('\n')[0], n.stderr.split('\n')[0], args.join(' '));
  }
});

/** Directions on faces, cube edges and corners, and just beside them. */
function addressingDirections() {
  const dirs = [];
  const e = 2 ** -40;
  for (let a = 0; a < 3; a++) for (const s of [1, -1]) { const d = [0, 0, 0]; d[a] = s; dirs.push(d); }
  for (const x of [1, -1]) for (const y of [1, -1]) for (const z of [1, -1]) {
    dirs.push([x, y, z], [x * (1 - e), y, z], [x, y * (1 - e), z], [x, y, z * (1 - e)]);
  }
  for (let a = 0; a < 3; a++) {
    for (const s of [1, -1]) for (const t of [1, -1]) {
      const d = [0.3, 0.3, 0.3];
      d[a] = 0.3 * (a === 0 ? 0.5 : 1); d[(a + 1) % 3] = s; d[(a + 2) % 3] = t;
      dirs.push(d, d.map((v, k) => (k === (a + 1) % 3 ? v * (1 - e) : v)));
    }
  }
  // Exact chunk-corner and border sample directions from every face.
  for (let face = 0; face < 6; face++) {
    for (const [lod, x, y, lx, ly] of [[6, 0, 0, 0, 0], [6, 63, 63, 256, 256], [6, 63, 0, 256, 17], [3, 2, 5, 0, 256], [6, 22, 52, 100, 3]]) {
      dirs.push(core.keyDirection({ face, lod, x, y }, lx, ly));
    }
  }
  return dirs;
}

test('addressing and samples at faces, edges and corners agree with native --locate/--sample', async () => {
  const outN = path.join(work, 'addr-native');
  // The coarsest macro grid: each of the ~180 runs per side loads this world, and
  // a 16-vertex grid loads in a third of the time of 32 (addressing is the same).
  assert.is(native(['--set', 'macro_resolution=16', '--out', outN]).status, 0);
  const world = core.loadWorld(readFileSync(path.join(outN, 'world.ctw')));
  const dirs = addressingDirections();
  let checked = 0;
  for (const d of dirs) {
    for (const lod of [2, 6]) {
      const args = ['--load', path.join(outN, 'world.ctw'), '--locate', ...d.map(String), String(lod), '--sample', ...d.map(String)];
      const [n, j] = await both(args);
      assert.is(n.status, 0, n.stderr);
      assert.is(j.stdout, n.stdout, `direction ${d} lod ${lod}`);
      // The JS API agrees with what the twin printed.
      const r = world.keyAt(d, lod), m = n.stdout.match(/locate face (\S+) lod (\d+) x (\d+) y (\d+)/);
      assert.equal([core.faceName(r.key.face), r.key.lod, r.key.x, r.key.y], [m[1], +m[2], +m[3], +m[4]]);
      checked++;
    }
  }
  assert.ok(checked >= 2 * 80, `${checked} direction/LOD pairs checked`);
  world.free();
});

test('cleanup', () => {
  rmSync(work, { recursive: true, force: true });
});

test.run();
