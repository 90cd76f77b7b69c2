// ranges_folds.test.mjs - This module checks what the range_folds knob is
// for: inside mountain belts, crests run parallel (a grain along the belt)
// instead of forming the closed cells of isotropic ridged noise. Measured as
// the coherence of the structure tensor of band-passed chunk heights (features
// between about 6 and 60 km), with folds on and off, on three seeds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshCore } from './ct_fixture.mjs';

/** h minus its box mean over (2r+1)^2 samples, via a summed-area table. */
function highPass(h, n, r) {
  const I = new Float64Array((n + 1) * (n + 1)), out = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      I[(y + 1) * (n + 1) + x + 1] = h[y * n + x] + I[y * (n + 1) + x + 1] + I[(y + 1) * (n + 1) + x] - I[y * (n + 1) + x];
    }
  }
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const x0 = Math.max(0, x - r), x1 = Math.min(n, x + r + 1), y0 = Math.max(0, y - r), y1 = Math.min(n, y + r + 1);
      const s = I[y1 * (n + 1) + x1] - I[y0 * (n + 1) + x1] - I[y1 * (n + 1) + x0] + I[y0 * (n + 1) + x0];
      out[y * n + x] = h[y * n + x] - s / ((x1 - x0) * (y1 - y0));
    }
  }
  return out;
}

/** 0 for no preferred direction, 1 for perfectly parallel features. */
function coherence(height, n) {
  const fine = highPass(height, n, 8);
  const band = highPass(height.map((v, i) => v - fine[i]), n, 40);
  let a = 0, b = 0, c = 0;
  for (let y = 1; y < n - 1; y++) {
    for (let x = 1; x < n - 1; x++) {
      const gx = band[y * n + x + 1] - band[y * n + x - 1], gy = band[(y + 1) * n + x] - band[(y - 1) * n + x];
      a += gx * gx; b += gx * gy; c += gy * gy;
    }
  }
  return Math.sqrt((a - c) ** 2 + 4 * b * b) / (a + c);
}

// Directions near the highest ground of alpine at each seed (found by a
// coarse global height scan), inside a mountain belt.
const CASES = [[42, [-0.449, -0.411, 0.793]], [7, [0.430, 0.901, 0.061]], [1234, [0.66, -0.696, -0.284]]];

test('folds give belt relief a grain: coherence rises on every seed', async () => {
  const core = await freshCore();
  for (const [seed, dir] of CASES) {
    const got = [];
    for (const folds of [0, 0.85]) {
      const w = core.buildWorld({ preset: 'alpine', text: `seed=${seed}\nrange_folds=${folds}` });
      const chunk = w.chunk(w.keyAt(dir).key);
      got.push(coherence(Float64Array.from(chunk.height), 257));
      w.free();
    }
    assert.ok(got[1] > 1.25 * got[0], `seed ${seed}: coherence ${got[0].toFixed(3)} without folds, ${got[1].toFixed(3)} with`);
  }
});

test.run();
