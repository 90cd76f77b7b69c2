// Tests of the figures table (scripts/figures.mjs): the marked sections of
// README.md, docs/generation.md and docs/benchmarks.md are exactly what the
// script writes from the committed inputs (docs/figures/*.json), both inputs
// are of the tree's algorithm version, and the script refuses inputs of two
// versions. Reads files only: no build, no measurement.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { render, readInputs, readmeTable, replaceSection, algorithmVersion, TARGETS } from '../../scripts/figures.mjs';

test('every marked section equals what npm run figures writes from docs/figures', () => {
  for (const x of render()) {
    assert.ok(x.now === x.want, `${x.file} differs from scripts/figures.mjs's output: run npm run figures`);
  }
});

test('the figures are of the algorithm version in ct.h, and dated', () => {
  const { terrain, bench } = readInputs();
  const v = algorithmVersion();
  assert.is(terrain.meta.algorithm_version, v, 'terrain-stats figures of another algorithm version');
  assert.is(bench.meta.algorithm_version, v, 'benchmarks of another algorithm version');
  const head = readmeTable(terrain, bench).split('\n')[0];
  assert.ok(head.startsWith(`Algorithm version ${v}.`), head);
  assert.match(head, /on \d{4}-\d\d-\d\d \(git /);
  assert.ok(terrain.worlds.filter((m) => m.label.startsWith('balanced ')).length >= 3, 'several seeds, never one');
});

test('inputs of two algorithm versions are refused', () => {
  const { terrain, bench } = readInputs();
  const old = { ...bench, meta: { ...bench.meta, algorithm_version: bench.meta.algorithm_version - 1 } };
  assert.throws(() => readmeTable(terrain, old), /algorithm version/);
});

test('a section is replaced between its markers only, and missing markers are an error', () => {
  const x = TARGETS[0];
  const text = render().find((r) => r.file === x.file).want;
  const again = replaceSection(text, x, 'BODY');
  assert.ok(again.includes(`-->\nBODY\n<!-- ${x.name} end -->`));
  assert.is(again.split('\n').length < text.split('\n').length + 1, true);
  assert.throws(() => replaceSection('no markers here', x, 'BODY'), /markers/);
});

test.run();
