// stats.test.mjs - The world statistics are written once, in
// core/include/ct_stats.def: the table the WebAssembly core reports, the
// fields of World.stats(), the WorldStats type in wasm/ct.d.ts and the CLI's
// lines all follow that file, row for row.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SMALL, freshCore } from './ct_fixture.mjs';

const core = await freshCore();
const world = core.buildWorld(SMALL);
const camel = (s) => s.replace(/_([a-z0-9])/g, (m, c) => c.toUpperCase());

/** The rows of ct_stats.def parsed straight from the file, independently of C. */
function statsFromDef() {
  const text = readFileSync(path.join(ROOT, 'core/include/ct_stats.def'), 'utf8');
  const re = /^CT_STAT_([UZF])\(\s*(\w+),\s*(?:([fg]),\s*(\d+),\s*)?"((?:[^"\\]|\\.)*)"\s*\)/gm;
  return [...text.matchAll(re)].map((m) => ({
    name: m[2], key: camel(m[2]), conv: m[1] === 'F' ? m[3] : 'u', digits: m[1] === 'F' ? Number(m[4]) : 0, doc: m[5],
  }));
}

test('statTable() is ct_stats.def: names, formats and docs in its order', () => {
  const want = statsFromDef();
  assert.ok(want.length >= 17, 'parsed the def file');
  assert.equal(world.statTable().map((s) => ({ ...s })), want);
});

test('stats() has one field per row, and every count is an integer', () => {
  const s = world.stats(), table = world.statTable();
  assert.equal(Object.keys(s), table.map((st) => st.key));
  for (const st of table) {
    assert.type(s[st.key], 'number', st.name);
    if (st.conv === 'u') assert.ok(Number.isInteger(s[st.key]) && s[st.key] >= 0, st.name);
  }
  assert.is(s.vertexCount, 6 * 32 * 32 + 2);
});

test('the WorldStats type in wasm/ct.d.ts lists the same fields', () => {
  const dts = readFileSync(path.join(ROOT, 'wasm/ct.d.ts'), 'utf8');
  const body = dts.slice(dts.indexOf('export interface WorldStats {'));
  const fields = [...body.slice(0, body.indexOf('\n}')).matchAll(/^\s+(\w+): number;/gm)].map((m) => m[1]);
  assert.equal(fields.sort(), world.statTable().map((st) => st.key).sort());
});

test.run();
