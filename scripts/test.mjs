// This module is `npm test`: set-up, native tests, a short fuzz run of every
// libFuzzer harness when clang is present, WebAssembly build, the uvu
// suites (core under Node, worker, pure page modules) and the real-browser
// test, ending with one "N passed, M failed" line over everything.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { root, run, ensureNpm, ensureEmcc, ensureChromium, ensureCc } from './setup.mjs';

let passed = 0;
let failed = 0;
const failures = [];

/** Runs a step, echoes its output, and adds its counts from the line the step prints. */
function step(name, cmd, args, parse) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  process.stdout.write(r.stdout || '');
  process.stderr.write(r.stderr || '');
  const counts = parse((r.stdout || '') + (r.stderr || ''));
  if (!counts) {
    failed += 1;
    failures.push(`${name}: no test summary (exit ${r.status})`);
    return;
  }
  passed += counts.passed;
  failed += counts.failed;
  if (counts.failed || r.status !== 0) {
    if (!counts.failed) failed += 1;
    failures.push(`${name}: ${counts.failed} failed (exit ${r.status})`);
  }
}

function parseNative(out) {
  const m = [...out.matchAll(/native: (\d+) passed, (\d+) failed/g)].pop();
  return m && { passed: +m[1], failed: +m[2] };
}

function parseUvu(out) {
  // uvu ends with "Total: N", "Passed: N", "Skipped: N"
  const clean = out.replace(/\x1b\[[0-9;]*m/g, '');
  const total = clean.match(/Total:\s+(\d+)/);
  const ok = clean.match(/Passed:\s+(\d+)/);
  if (!total || !ok) return null;
  return { passed: +ok[1], failed: +total[1] - +ok[1] };
}

function parseFuzz(out) {
  const m = [...out.matchAll(/fuzz: (\d+) passed, (\d+) failed/g)].pop();
  return m && { passed: +m[1], failed: +m[2] };
}

/** Seconds each fuzz harness runs under npm test (make fuzz defaults to 60). */
const FUZZ_TEST_SECONDS = process.env.CT_FUZZ_SECONDS || '3';

function haveClangFuzzer() {
  const r = spawnSync('clang', ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

function jsSuite(dir) {
  return existsSync(path.join(root, dir)) &&
    readdirSync(path.join(root, dir)).some((f) => f.endsWith('.test.mjs'));
}

try {
  ensureCc();
  ensureNpm();
  ensureEmcc();
  const wantBrowser = jsSuite('tests/browser') && !process.env.CT_SKIP_BROWSER;
  if (wantBrowser) process.env.CHROMIUM_PATH = ensureChromium();

  step('native tests', 'make', ['--no-print-directory', 'test'], parseNative);
  if (haveClangFuzzer()) {
    step(`fuzz (${FUZZ_TEST_SECONDS} s per harness)`, 'make', ['--no-print-directory', 'fuzz', `FUZZ_SECONDS=${FUZZ_TEST_SECONDS}`], parseFuzz);
  } else {
    console.log('\n=== fuzz: skipped: clang not found (make fuzz needs clang with libFuzzer)');
  }
  run('make', ['--no-print-directory', 'wasm']);
  const uvu = path.join('node_modules', 'uvu', 'bin.js');
  if (jsSuite('tests/js')) step('uvu: core, worker and page modules', 'node', [uvu, 'tests/js', '\\.test\\.mjs$'], parseUvu);
  if (wantBrowser) step('uvu: real browser', 'node', [uvu, 'tests/browser', '\\.test\\.mjs$'], parseUvu);
} catch (e) {
  failed += 1;
  failures.push(e.message);
}

console.log('');
for (const f of failures) console.log(`FAILED ${f}`);
console.log(`npm test: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
