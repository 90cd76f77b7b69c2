// Tests of the installable package: `npm pack` (prepack builds ct.wasm and
// the browser bundles), an offline install of the tarball into an empty
// project, and, in that project under plain Node, `loadCore` from the package
// name and `createPool` from '<name>/worker' (worker_threads) giving the same
// generation and chunk digest as the repository's own core; the default
// ct.wasm and worker script resolve inside node_modules, and `baseUrl`
// really moves both.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packAndInstall, pkg, root } from '../pack_fixture.mjs';
import { loadCore } from '../../wasm/ct.mjs';

const SMALL = { preset: 'balanced', set: { macro_resolution: 16, surface_lod: 2, seed: 5 } };
const KEY = { face: 4, lod: 2, x: 1, y: 2 };

// The game's own script: nothing but the package name.
const gameScript = (name) => `
import { loadCore } from '${name}';
import { createPool } from '${name}/worker';
const spec = ${JSON.stringify(SMALL)}, key = ${JSON.stringify(KEY)};
const core = await loadCore();
const world = core.buildWorld(spec);
const out = { generation: world.generation, digest: world.chunk(key).digest,
  wasm: import.meta.resolve('${name}/ct.wasm'), worker: import.meta.resolve('${name}/worker') };
const opts = process.argv[2] ? { workers: 1, baseUrl: process.argv[2] } : { workers: 1 };
try {
  const pool = await createPool(opts);
  out.poolGeneration = (await pool.build(spec)).generation;
  out.poolDigest = (await pool.chunk(key)).digest;
  await pool.terminate();
} catch (e) { out.poolError = e.message; }
console.log(JSON.stringify(out));
`;

/** Repository-relative JS modules (.js, .mjs) in these folders and their subfolders. */
function modulesUnder(dirs) {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (/\.m?js$/.test(e.name)) out.push(rel);
    }
  };
  dirs.forEach(walk);
  return out;
}

let fx;
let reference;

test.before(() => {
  fx = packAndInstall({ 'game.mjs': gameScript(pkg.name) });
  const w = loadCore().then((core) => {
    const world = core.buildWorld(SMALL);
    reference = { generation: world.generation, digest: world.chunk(KEY).digest };
  });
  return w;
});

const runGame = (...args) => JSON.parse(execFileSync('node', ['game.mjs', ...args], { cwd: fx.project, encoding: 'utf8' }));

test('the package is publishable, the tarball carries ct.wasm, the browser bundles and typed entries, and no web/ file', () => {
  assert.not.ok(pkg.private, 'not private');
  for (const field of ['version', 'license', 'types', 'exports', 'files']) assert.ok(pkg[field], field);
  for (const f of ['build/wasm/ct.wasm', 'dist/browser/core.js', 'dist/browser/worker.js', 'wasm/ct.mjs',
    'wasm/ct.d.ts', 'wasm/ct_constants.mjs', 'worker/client.js', 'worker/worker.js', 'worker/client.d.ts', 'stream/index.js',
    'stream/index.d.ts', 'core/include/ct.h',
    'core/include/ct_legacy.h']) {
    assert.ok(fx.files.includes(f), `tarball holds ${f}`);
  }
  // Every module of the public entries' folders, subfolders included (worker/maps/), ships.
  for (const f of modulesUnder(['wasm', 'worker', 'stream'])) assert.ok(fx.files.includes(f), `tarball holds ${f}`);
  assert.not.ok(fx.files.some((f) => f.startsWith('tests/') || f.startsWith('core/src/')), 'no tests or C sources');
  // The demo page is not the library: no web/ file ships, and every public entry has types.
  assert.equal(fx.files.filter((f) => f.startsWith('web/')), [], 'no web/ file in the tarball');
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (entry === './ct.wasm' || entry === './package.json') continue;
    assert.type(target, 'object', `${entry} names its types`);
    assert.ok(target.types && fx.files.includes(target.types.replace(/^\.\//, '')), `${entry} types ${target.types} are in the tarball`);
  }
  assert.ok(existsSync(path.join(fx.installed, 'build', 'wasm', 'ct.wasm')), 'installed ct.wasm');
});

test('an empty project imports loadCore and createPool by name and gets the same world', () => {
  const out = runGame();
  assert.is(out.poolError, undefined, out.poolError);
  const inside = pathToFileURL(realpathSync(fx.installed)).href + '/';
  assert.ok(out.wasm.startsWith(inside) && out.wasm.endsWith('/build/wasm/ct.wasm'), `ct.wasm resolves inside the package: ${out.wasm}`);
  assert.ok(out.worker.startsWith(inside), `worker entry inside the package: ${out.worker}`);
  assert.is(out.generation, reference.generation, 'loadCore: same generation as the repository core');
  assert.is(out.digest, reference.digest, 'loadCore: same chunk digest');
  assert.is(out.poolGeneration, reference.generation, 'createPool: same generation');
  assert.is(out.poolDigest, reference.digest, 'createPool: same chunk digest');
});

test('baseUrl points the worker script and ct.wasm somewhere else in one option', () => {
  const good = runGame(pathToFileURL(fx.installed).href);
  assert.is(good.poolError, undefined, good.poolError);
  assert.is(good.poolDigest, reference.digest, 'baseUrl at the installed package works');
  const bad = runGame(pathToFileURL(path.join(fx.dir, 'nowhere')).href);
  assert.ok(bad.poolError, 'baseUrl at an empty folder fails, so the option is honoured');
});

test.after(() => {
  if (fx && fx.dir && fx.dir.includes('ct-pack-')) execFileSync('rm', ['-rf', fx.dir]);
});

test.run();
