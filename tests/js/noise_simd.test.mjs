// noise_simd.test.mjs - This module runs tests/c/test_noise_exact.c compiled
// to WebAssembly with the module's code-generation flags (make wasm-check), so
// the simd128 vector noise is checked bit for bit against the scalar noise and
// the reference formulations under WebAssembly too, not only natively (SSE2).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { ROOT } from './ct_fixture.mjs';

test('vector and scalar noise agree bit for bit in WebAssembly (simd128)', () => {
  const r = spawnSync('make', ['--no-print-directory', 'wasm-check'], { cwd: ROOT, encoding: 'utf8' });
  const out = `${r.stdout}\n${r.stderr}`;
  assert.is(r.status, 0, out);
  const m = /noise_exact: (\d+) passed, (\d+) failed/.exec(out);
  assert.ok(m, `no summary line in:\n${out}`);
  assert.is(+m[2], 0, out);
  assert.ok(+m[1] >= 9, `only ${m[1]} checks ran`);
});

test.run();
