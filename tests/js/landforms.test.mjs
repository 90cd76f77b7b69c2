// Tests of the Node half of `npm run landforms` (tools/landforms.mjs): its
// options, and the tables and summary it makes from the native half's JSON.
// The measures themselves are tested natively (tests/c/test_landforms.c).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseArgs, formatTable, formatCoast, summary } from '../../tools/landforms.mjs';

const chunk = (pits, ponded, beta, dd) => ({ pits_per_1000km2: pits, ponded_share: ponded, beta, drainage_density_km_per_km2: dd });
const OUT = {
  sim: { n: 257, pits_per_1000km2: 0, ponded_share: 0, beta: 0.514, drainage_density_km_per_km2: 0.62 },
  coast: { grid: { width: 2048, height: 1024, lat_max_deg: 60 }, earth: { dimension: 1.128, fit_px: [2, 32], source: 'Earth' } },
  worlds: [{
    world: { preset: 'balanced', seed: 42 },
    lods: [{ lod: 9, chunks: 2, ...chunk(300, 0.05, 0.55, 0.9), each: [chunk(100, 0.01, 0.5, 0.8), chunk(500, 0.09, 0.6, 1.0)] }],
    coast: { all: { dimension: 1.164 }, sea: { dimension: 1.193 } },
  }],
};

test('options: defaults, values and refusals', () => {
  const o = parseArgs([]);
  assert.equal(o.seeds, ['42', '7', '1234']);
  assert.is(o.chunks, 24);
  assert.is(o.lods, '9,10');
  const p = parseArgs(['--seeds', '5', '--chunks', '3', '--coast', '--coast-width', '2048', '--json', '--set', 'a=1']);
  assert.equal([p.seeds, p.chunks, p.coast, p.coastWidth, p.json, p.sets], [['5'], 3, true, 2048, true, ['a=1']]);
  assert.throws(() => parseArgs(['--seeds', '4x']), /--seeds/);
  assert.throws(() => parseArgs(['--chunks', '0']), /--chunks/);
  assert.throws(() => parseArgs(['--coast-width', '100.5']), /--coast-width/);
  assert.throws(() => parseArgs(['--lat-max', '91']), /--lat-max/);
  assert.throws(() => parseArgs(['--frobnicate']), /unknown option --frobnicate/);
  assert.throws(() => parseArgs(['--seeds']), /needs a value/);
});

test('the table: calibration row, pooled figures and ranges over chunks', () => {
  const t = formatTable(OUT).split('\n');
  assert.is(t.length, 4);
  assert.ok(t[2].startsWith('| stream-power 257x257 | - | 1 | 0 | 0.00% | 0.514 | 0.62 |'), t[2]);
  assert.is(t[3], '| balanced seed=42 | 9 | 2 | 300 (100-500) | 5.00% (1.0-9.0) | 0.550 (0.50-0.60) | 0.90 (0.80-1.00) |');
  assert.match(formatCoast(OUT), /\| balanced seed=42 \| 1\.164 \| 1\.193 \| 1\.128 \| 0\.036 \|/);
});

test('the summary: one flat row per world and LOD', () => {
  assert.equal(summary(OUT), [{ preset: 'balanced', seed: 42, lod: 9, chunks: 2, pits_per_1000km2: 300, ponded_share: 0.05,
    beta: 0.55, drainage_density_km_per_km2: 0.9, coast_dimension: 1.164, coast_dimension_sea: 1.193 }]);
});

test.run();
