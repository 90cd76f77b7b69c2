// types.test.mjs - This module keeps the .d.ts files true: tsc --noEmit
// type-checks tests/js/types/example.ts (and the worker example when
// worker/client.d.ts exists), and a deliberately wrong program must fail, so
// the check cannot pass by everything silently being `any`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const TYPES = path.join(ROOT, 'tests/js/types');

function tsc(args) {
  const r = spawnSync(process.execPath, [TSC, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A throw-away tsconfig in tests/js/types listing `files`. */
function withConfig(files, fn) {
  const dir = mkdtempSync(path.join(TYPES, '.tmp-'));
  try {
    const cfg = {
      extends: '../tsconfig.json',
      files: files.map((f) => path.relative(dir, f)),
    };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(cfg));
    return fn(path.join(dir, 'tsconfig.json'), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('example.ts type-checks against wasm/ct.d.ts', () => {
  const r = tsc(['--noEmit', '-p', path.join(TYPES, 'tsconfig.json')]);
  assert.is(r.code, 0, r.out);
});

test('worker example type-checks against worker/client.d.ts (when present)', () => {
  const dts = path.join(ROOT, 'worker/client.d.ts');
  const example = path.join(TYPES, 'example_worker.ts');
  if (!existsSync(dts) || !existsSync(example)) {
    console.log('  (worker/client.d.ts or example_worker.ts not present yet: skipped)');
    return;
  }
  withConfig([example], (cfg) => {
    const r = tsc(['--noEmit', '-p', cfg]);
    assert.is(r.code, 0, r.out);
  });
});

test('a renderer adapter over the streaming library type-checks against stream/index.d.ts', () => {
  withConfig([path.join(TYPES, 'example_stream.ts')], (cfg) => {
    const r = tsc(['--noEmit', '-p', cfg]);
    assert.is(r.code, 0, r.out);
  });
});

test('a program that misuses the API is rejected', () => {
  withConfig([], (cfg, dir) => {
    const bad = path.join(dir, 'bad.ts');
    writeFileSync(bad, [
      "import { loadCore } from '../../../../wasm/ct.mjs';",
      'const core = await loadCore();',
      'const world = core.buildWorld({ preset: "balanced" });',
      'const g: number = world.generation;',           // generation is a string
      'const k = world.chunk({ face: 0, lod: 1 });',    // x and y missing
      'export { g, k };',
    ].join('\n'));
    writeFileSync(cfg, JSON.stringify({ extends: '../tsconfig.json', files: ['bad.ts'] }));
    const r = tsc(['--noEmit', '-p', cfg]);
    assert.is.not(r.code, 0, 'tsc accepted a wrong program');
    assert.match(r.out, /TS2322/);   // string is not assignable to number
    assert.match(r.out, /TS2345/);   // key argument lacks x and y
  });
});

test.run();
