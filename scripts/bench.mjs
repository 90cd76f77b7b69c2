// bench.mjs - `npm run bench [-- --quick] [-- --no-browser]`: builds the
// WebAssembly core and the native bench server, then times native,
// WebAssembly and plain-JS work rep by rep in one run (bench/interleaved.mjs),
// then the worker pool with 1 and 2 workers, then (unless --no-browser) the
// demo page's descents from orbit to eye height in headless Chromium
// (bench/browser_descent.mjs). Writes bench/results.json (fields:
// docs/benchmarks.md) and prints the tables.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const browser = !process.argv.includes('--no-browser');
const log = (line) => console.log(`  ${line}`);

/** Hash of the core sources: both halves must measure the same code. */
function sourceFingerprint() {
  const h = createHash('sha256');
  const layers = readdirSync(join(root, 'core/src')).sort().map((d) => `core/src/${d}`);
  for (const dir of ['core/include', ...layers, 'wasm']) {
    for (const f of readdirSync(join(root, dir)).sort()) {
      if (/\.(c|h|def)$/.test(f)) h.update(f).update(readFileSync(join(root, dir, f)));
    }
  }
  return h.digest('hex').slice(0, 16);
}

function run(cmd, args) {
  return spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status === 0;
}

async function main() {
  const t0 = performance.now();
  const { machineInfo, derive, table } = await import('../bench/report.mjs');
  const results = { machine: machineInfo(root), quick, browser };
  const fingerprint = sourceFingerprint();
  console.log('== make wasm, native bench server');
  if (!run('make', ['--no-print-directory', 'wasm']) ||
      !run('make', ['--no-print-directory', '-j2', 'build/native/bench_native'])) {
    console.error('bench: build failed');
    process.exit(1);
  }
  const { startNative } = await import('../bench/native_client.mjs');
  const native = startNative(join(root, 'build', 'native', 'bench_native'));
  try {
    results.native_info = await native.send('info');
    console.log('== native, WebAssembly and plain JS, interleaved rep by rep');
    const { benchInterleaved } = await import('../bench/interleaved.mjs');
    Object.assign(results, await benchInterleaved({ native, quick, log }));
  } finally {
    await native.close();
  }
  console.log('== workers (worker/client.js pool of 1 and 2)');
  const { benchWorker } = await import('../bench/bench_worker.mjs');
  try {
    results.worker = await benchWorker({ log, quick, nativeBinary: join(root, 'build', 'native', 'bench_native') });
  } catch (e) {
    console.error(`bench: worker half failed: ${e.stack || e}`);
    process.exitCode = 1;
  }
  if (browser) {
    console.log('== browser: orbit to eye height in the demo page (skip with --no-browser)');
    const { benchDescent } = await import('../bench/browser_descent.mjs');
    try {
      results.descent = await benchDescent({ log, quick });
    } catch (e) {
      console.error(`bench: browser half failed: ${e.stack || e}`);
      process.exitCode = 1;
    }
  }
  results.sources = { fingerprint, changed_during_run: sourceFingerprint() !== fingerprint };
  if (results.sources.changed_during_run) {
    console.error('bench: core sources changed during the run; native and WASM figures may describe different code');
  }
  results.derived = derive(results);
  results.total_s = (performance.now() - t0) / 1000;
  writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify(results, null, 1)}\n`);
  console.log('');
  console.log(table(results));
  console.log(`\nbench/results.json written; whole run ${results.total_s.toFixed(0)} s`);
}

main().catch((e) => { console.error(e.stack || e); process.exit(1); });
