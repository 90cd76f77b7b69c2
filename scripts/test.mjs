// This module is `npm test`: set-up, one parallel build of everything the
// suites run (native library, CLIs and test binaries, the WebAssembly core,
// the noise check and the C game compiled to WebAssembly, the libFuzzer
// harnesses when clang is present), one `npm pack` for the suites that
// install the package, then lanes at once: the real-browser test files, each
// in its own process, three at a time (most of their CPU is software GL
// shading pixels, which is why their pages are small: tests/browser/
// chromium.mjs testViewport; their waits for workers and frames leave room
// beside them), the native tests (two at a time) followed by a short fuzz
// run of every harness, and the uvu suites (core under Node, worker, pure
// page modules).
// Each step prints its output and time when it ends; the last line is one
// "N passed, M failed" over everything.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, run, ensureNpm, ensureEmcc, ensureChromium, ensureCc } from './setup.mjs';

let passed = 0;
let failed = 0;
const failures = [];
const t0 = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a command to the end, its output kept: {out, status, ms}. */
function capture(cmd, args, env) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('error', (e) => resolve({ out: `${out}${cmd}: ${e.message}\n`, status: -1, ms: Date.now() - started }));
    child.on('close', (status) => resolve({ out, status, ms: Date.now() - started }));
  });
}

/** Runs a step, prints its output and time, and adds its counts from the summary line it prints. */
async function step(name, cmd, args, parse, env = {}) {
  const r = await capture(cmd, args, env);
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')} (${seconds(r.ms)}, ended at ${seconds(Date.now() - t0)})`);
  process.stdout.write(r.out);
  const counts = parse(r.out);
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
/** Parallel jobs for the build and the native tests: the reference machine has two cores. */
const JOBS = String(Math.max(2, Math.min(4, os.cpus().length)));
/** Browser test files running at once (CT_BROWSER_LANES), beside the native and Node lane. */
const BROWSER_LANES = Math.max(1, Number(process.env.CT_BROWSER_LANES) || 3);
/** The browser files that take longest start first (order of start only). */
const BROWSER_LONG = ['rivers.test.mjs', 'globe_views.test.mjs', 'globe.test.mjs'];

function haveClangFuzzer() {
  const r = spawnSync('clang', ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

function testFiles(dir) {
  return existsSync(path.join(root, dir)) ? readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.test.mjs')).sort() : [];
}
const jsSuite = (dir) => testFiles(dir).length > 0;

/** Runs jobs (functions returning promises) at most n at a time. */
async function pool(jobs, n) {
  const next = async () => { for (let job = jobs.shift(); job; job = jobs.shift()) await job(); };
  await Promise.all(Array.from({ length: n }, next));
}

const uvu = path.join('node_modules', 'uvu', 'bin.js');
let packDir = null;
try {
  ensureCc();
  ensureNpm();
  ensureEmcc();
  const wantBrowser = jsSuite('tests/browser') && !process.env.CT_SKIP_BROWSER;
  if (wantBrowser) process.env.CHROMIUM_PATH = ensureChromium();
  const fuzz = haveClangFuzzer();

  // Everything the suites run, built once with both cores: the suites' own
  // `make` calls then find it up to date (and never race each other).
  const goals = ['all', 'test-bins', 'wasm', 'build/wasm/test_noise_exact.cjs', 'c-game', ...(fuzz ? ['fuzz-build'] : [])];
  const built = Date.now();
  run('make', ['--no-print-directory', `-j${JOBS}`, ...goals]);
  console.log(`=== build: make -j${JOBS} ${goals.join(' ')} (${seconds(Date.now() - built)})`);
  // One tarball for both suites that install the package (tests/pack_fixture.mjs).
  packDir = mkdtempSync(path.join(os.tmpdir(), 'ct-pack-'));
  const packed = Date.now();
  const { pack } = await import('../tests/pack_fixture.mjs');
  pack(packDir);
  process.env.CT_PACK_DIR = packDir;
  console.log(`=== npm pack (${seconds(Date.now() - packed)})`);

  const browserFiles = wantBrowser ? testFiles('tests/browser') : [];
  const rank = (f) => (BROWSER_LONG.includes(f) ? BROWSER_LONG.indexOf(f) : BROWSER_LONG.length);
  const browserJobs = [...browserFiles].sort((a, b) => rank(a) - rank(b)).map((f) => () =>
    step(`uvu: real browser, ${f}`, 'node', [uvu, 'tests/browser', `^${f.replaceAll('.', '\\.')}$`], parseUvu));
  const nativeLane = async () => {
    await step('native tests', 'make', ['--no-print-directory', 'check'], parseNative, { CT_TEST_JOBS: JOBS });
    if (fuzz) {
      await step(`fuzz (${FUZZ_TEST_SECONDS} s per harness)`, 'make', ['--no-print-directory', 'fuzz', `FUZZ_SECONDS=${FUZZ_TEST_SECONDS}`], parseFuzz);
    } else {
      console.log('\n=== fuzz: skipped: clang not found (make fuzz needs clang with libFuzzer)');
    }
  };
  const nodeLane = async () => {
    if (jsSuite('tests/js')) await step('uvu: core, worker and page modules', 'node', [uvu, 'tests/js', '\\.test\\.mjs$'], parseUvu);
  };
  // The Node suite has a lane of its own: after the native tests it ran
  // alone on one core for the last minute of the run.
  await Promise.all([pool(browserJobs, BROWSER_LANES), nativeLane(), nodeLane()]);
} catch (e) {
  failed += 1;
  failures.push(e.message);
} finally {
  if (packDir) rmSync(packDir, { recursive: true, force: true });
}

console.log('');
for (const f of failures) console.log(`FAILED ${f}`);
console.log(`npm test: ${passed} passed, ${failed} failed (${seconds(Date.now() - t0)})`);
process.exit(failed ? 1 : 0);
