// types.test.mjs - This module keeps the .d.ts files true: tsc --noEmit
// type-checks tests/js/types/example.ts, the streaming example (and the
// worker example when worker/client.d.ts exists), and a deliberately wrong
// program must fail, so the check cannot pass by everything silently being
// `any`. One tsc program checks them all.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
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

// One tsc program holds the three examples and the wrong program (tsc's
// start-up and the .d.ts files' checks are most of its time, so four runs
// cost nearly four times one). Each test then reads the errors of its own
// files: a good example must have none, the wrong program its two.
const BAD = [
  "import { loadCore } from '../../../../wasm/ct.mjs';",
  'const core = await loadCore();',
  'const world = core.buildWorld({ preset: "balanced" });',
  'const g: number = world.generation;',           // generation is a string
  'const k = world.chunk({ face: 0, lod: 1 });',    // x and y missing
  'export { g, k };',
].join('\n');
const WORKER_DTS = path.join(ROOT, 'worker/client.d.ts'), WORKER_EXAMPLE = path.join(TYPES, 'example_worker.ts');
const haveWorker = existsSync(WORKER_DTS) && existsSync(WORKER_EXAMPLE);
const EXAMPLES = [path.join(TYPES, 'example.ts'), ...(haveWorker ? [WORKER_EXAMPLE] : []), path.join(TYPES, 'example_stream.ts')];
const checked = withConfig(EXAMPLES, (cfg, dir) => {
  writeFileSync(path.join(dir, 'bad.ts'), BAD);
  const files = JSON.parse(readFileSync(cfg, 'utf8')).files;
  writeFileSync(cfg, JSON.stringify({ extends: '../tsconfig.json', files: [...files, 'bad.ts'] }));
  const r = tsc(['--noEmit', '--pretty', 'false', '-p', cfg]);
  // "path(line,col): error TSnnnn: ..." lines, by the file they name (relative to ROOT).
  const errors = r.out.split('\n').filter((l) => / error TS\d+/.test(l));
  const of = (file) => errors.filter((l) => path.resolve(ROOT, l.slice(0, l.indexOf('('))) === file);
  return { r, errors, of, bad: path.join(dir, 'bad.ts') };
});

/** Errors tsc reported outside the wrong program (in an example or a .d.ts it reads). */
const stray = () => checked.errors.filter((l) => !checked.of(checked.bad).includes(l));

test('example.ts type-checks against wasm/ct.d.ts', () => {
  assert.equal(checked.of(EXAMPLES[0]), [], checked.r.out);
  assert.equal(stray(), [], checked.r.out);
});

test('worker example type-checks against worker/client.d.ts (when present)', () => {
  if (!haveWorker) {
    console.log('  (worker/client.d.ts or example_worker.ts not present yet: skipped)');
    return;
  }
  assert.equal(checked.of(WORKER_EXAMPLE), [], checked.r.out);
});

test('a renderer adapter over the streaming library type-checks against stream/index.d.ts', () => {
  assert.equal(checked.of(path.join(TYPES, 'example_stream.ts')), [], checked.r.out);
});

test('a program that misuses the API is rejected', () => {
  assert.is.not(checked.r.code, 0, 'tsc accepted a wrong program');
  const bad = checked.of(checked.bad).join('\n');
  assert.match(bad, /TS2322/);   // string is not assignable to number
  assert.match(bad, /TS2345/);   // key argument lacks x and y
});

test.run();
