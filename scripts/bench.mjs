// bench.mjs - `npm run bench [-- --quick]`: the native half (make bench, JSON
// output), then the WebAssembly, plain-JavaScript and worker halves in this
// same run, so the ratios compare figures taken minutes apart on one machine.
// Writes bench/results.json and prints the tables (docs/benchmarks.md explains
// every figure).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const log = (line) => console.log(`  ${line}`);

/** Hash of the core sources: both halves must measure the same code. */
function sourceFingerprint() {
  const h = createHash('sha256');
  for (const dir of ['core/include', 'core/src', 'wasm']) {
    for (const f of readdirSync(join(root, dir)).sort()) {
      if (/\.(c|h|def)$/.test(f)) h.update(f).update(readFileSync(join(root, dir, f)));
    }
  }
  return h.digest('hex').slice(0, 16);
}

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

async function main() {
  const t0 = performance.now();
  const results = {};
  const { machineInfo, derive, table } = await import('../bench/report.mjs');
  results.machine = machineInfo(root);
  results.quick = quick;

  // Build the WebAssembly core first, so both builds come from the same
  // sources even while others edit the tree; the fingerprint catches the rest.
  const fingerprint = sourceFingerprint();
  console.log('== make wasm');
  const wasmOk = run('make', ['--no-print-directory', 'wasm']);

  console.log('== native (make bench)');
  mkdirSync(join(root, 'build', 'bench'), { recursive: true });
  const nativeJson = join(root, 'build', 'bench', 'native.json');
  if (run('make', ['--no-print-directory', '-j2', 'bench'], { CT_BENCH_JSON: nativeJson, ...(quick ? { CT_BENCH_QUICK: '1' } : {}) })) {
    results.native = JSON.parse(readFileSync(nativeJson, 'utf8'));
  } else {
    console.error('bench: the native half failed');
    process.exitCode = 1;
  }

  console.log('== WebAssembly (wasm/ct.mjs under node)');
  if (wasmOk) {
    const { benchWasm } = await import('../bench/bench_wasm.mjs');
    results.wasm = await benchWasm({ quick, log });
  } else {
    console.error('bench: make wasm failed; no WebAssembly figures');
    process.exitCode = 1;
  }

  console.log('== plain JavaScript (simplex-noise fBm)');
  const { benchJs } = await import('../bench/bench_js.mjs');
  const lod = results.native?.chunk?.lod ?? results.wasm?.chunk?.lod ?? 6;
  results.js = benchJs({ lod });
  log(`fBm median ${results.js.ms.median.toFixed(2)} ms`);

  if (results.wasm) {
    console.log('== workers (worker/client.js pool of 1 and 2)');
    const { benchWorker } = await import('../bench/bench_worker.mjs');
    try {
      results.worker = await benchWorker({ log });
    } catch (e) {
      console.error(`bench: worker half failed: ${e.stack || e}`);
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
  console.log(table(results, results.derived));
  console.log(`\nbench/results.json written; whole run ${results.total_s.toFixed(0)} s`);
}

main().catch((e) => { console.error(e.stack || e); process.exit(1); });
