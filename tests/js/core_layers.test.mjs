// Tests the direction of includes inside the C core: core/src holds one folder
// per layer, base -> solve -> layers -> surface -> world -> native, and a file
// may include a private header only from its own folder or a folder to its
// left, spelled with the folder ("solve/ct_solve.h"), so the direction shows
// at the include. The public header and tables of core/include may be
// included from anywhere. No source may sit directly in core/src. The checker
// is first run on made-up files, so it is known to fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './ct_fixture.mjs';

/** Layer folders in build order; a folder may include only from those before it (and itself). */
const LAYERS = ['base', 'solve', 'layers', 'surface', 'world', 'native'];
const RANK = Object.fromEntries(LAYERS.map((name, i) => [name, i]));
/** Headers of core/include: the public API, reachable from every layer. */
const PUBLIC = new Set(readdirSync(path.join(ROOT, 'core/include')));

/** Every quoted #include of a C text (angle-bracket system headers are not ours). */
export function includes(text) {
  return [...text.matchAll(/^[ \t]*#[ \t]*include[ \t]*"([^"]+)"/gm)].map((m) => m[1]);
}

/**
 * Wrong-way or unplaced includes among {path under core/src: text}; each as
 * "file -> include (why)". exists(name) says whether core/src/name is a file.
 */
export function violations(files, exists) {
  const out = [];
  for (const [file, text] of Object.entries(files)) {
    const parts = file.split('/');
    if (parts.length !== 2) {
      out.push(`${file} (a source must sit in one layer folder: ${LAYERS.join(', ')})`);
      continue;
    }
    const from = parts[0];
    if (!(from in RANK)) {
      out.push(`${file} (${from}/ is no layer)`);
      continue;
    }
    for (const inc of includes(text)) {
      if (PUBLIC.has(inc)) continue;
      const to = inc.split('/')[0];
      if (!inc.includes('/')) out.push(`${file} -> ${inc} (spell the folder: "layer/${inc}")`);
      else if (!(to in RANK)) out.push(`${file} -> ${inc} (${to}/ is no layer)`);
      else if (!exists(inc)) out.push(`${file} -> ${inc} (no such file)`);
      else if (RANK[to] > RANK[from]) out.push(`${file} -> ${inc} (${from}/ may not include ${to}/)`);
    }
  }
  return out;
}

/** {path under core/src: text} of every file below core/src, sources or not. */
function collect(dir = '', out = {}) {
  for (const name of readdirSync(path.join(ROOT, 'core/src', dir)).sort()) {
    const rel = dir ? `${dir}/${name}` : name;
    if (statSync(path.join(ROOT, 'core/src', rel)).isDirectory()) collect(rel, out);
    else if (/\.(c|h|def|inc)$/.test(name)) out[rel] = readFileSync(path.join(ROOT, 'core/src', rel), 'utf8');
  }
  return out;
}

const realFile = (name) => existsSync(path.join(ROOT, 'core/src', name));

test('the checker fails on planted wrong-way includes and stray files', () => {
  const known = new Set(['base/ct_base.h', 'solve/ct_solve.h', 'surface/ct_surface.h', 'world/ct_world.h']);
  const exists = (name) => known.has(name);
  const bad = violations({
    'solve/lakes.c': '#include "solve/ct_solve.h"\n#include "surface/ct_surface.h"\n',
    'base/noise.c': '  #  include "world/ct_world.h"\n',
    'surface/chunk.c': '#include "ct_solve.h"\n',
    'layers/coast.c': '#include "misc/ct_misc.h"\n#include "base/ct_nothing.h"\n',
    'stray.c': '#include "ct.h"\n',
    'misc/a.c': '#include "base/ct_base.h"\n',
  }, exists);
  assert.equal(bad.length, 7, bad.join('\n'));
  assert.ok(bad.some((v) => v.startsWith('solve/lakes.c -> surface/ct_surface.h (solve/ may not include surface/)')));
  assert.ok(bad.some((v) => v.startsWith('base/noise.c -> world/ct_world.h')));
  assert.ok(bad.some((v) => v.startsWith('surface/chunk.c -> ct_solve.h (spell the folder')));
  assert.ok(bad.some((v) => v.startsWith('layers/coast.c -> misc/ct_misc.h (misc/ is no layer)')));
  assert.ok(bad.some((v) => v.startsWith('layers/coast.c -> base/ct_nothing.h (no such file)')));
  assert.ok(bad.some((v) => v.startsWith('stray.c (a source must sit in one layer folder')));
  assert.ok(bad.some((v) => v.startsWith('misc/a.c (misc/ is no layer)')));
  const good = violations({
    'world/world.c': '#include "world/ct_world.h"\n#include "surface/ct_surface.h"\n#include "base/ct_base.h"\n' +
      '#include "ct.h"\n#include "ct_stats.def"\n#include <stdlib.h>\n/* #include "native/ct_cache.h" in prose */\n',
  }, exists);
  assert.equal(good, []);
});

test('every include in core/src points at its own layer or one below it', () => {
  const files = collect();
  assert.ok(Object.keys(files).length >= 40, 'the core sources are found');
  for (const layer of LAYERS) assert.ok(Object.keys(files).some((f) => f.startsWith(`${layer}/`)), `${layer}/ holds sources`);
  assert.equal(violations(files, realFile), []);
});

test.run();
