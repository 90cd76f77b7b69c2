// Tests the direction of imports: core -> wasm -> worker -> stream -> web and
// examples. Every import, re-export and dynamic import() in the JS and HTML of
// wasm/ worker/ stream/ web/ examples/ is parsed (package names through
// package.json's exports, an HTML page's import map and module scripts), and
// each must point at its own folder or a folder to its left; web/ and
// examples/ reach worker/ and wasm/ only through the package's entry files.
// The checker is first run on made-up files, so it is known to fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './ct_fixture.mjs';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
/** Folders in data-flow order; a folder may import only from those before it (and itself). */
const RANK = { core: 0, wasm: 1, worker: 2, stream: 3, web: 4, examples: 4 };
const CHECKED = ['wasm', 'worker', 'stream', 'web', 'examples'];

/** Repository-relative files behind the package's public entries ("./worker" -> worker/client.js, ...). */
function entryFiles() {
  const out = new Map();
  for (const [name, target] of Object.entries(pkg.exports)) {
    const t = typeof target === 'string' ? target : target.default;
    out.set(`${pkg.name}${name.slice(1)}`, path.posix.normalize(t));
  }
  return out;
}
const ENTRIES = entryFiles();
const ENTRY_FILES = new Set(ENTRIES.values());

/** Every module specifier in a JS or HTML text (comments included: a type import is a dependency too). */
export function specifiers(text, isHtml) {
  const out = [];
  const js = isHtml ? [...text.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text;
  for (const m of js.matchAll(/(?:^|[\s;}])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g)) out.push(m[1]);
  for (const m of js.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g)) out.push(m[1]);
  for (const m of js.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]);
  if (isHtml) {
    for (const m of text.matchAll(/<script\b[^>]*type="module"[^>]*\bsrc="([^"]+)"/g)) out.push(m[1]);
    const map = text.match(/<script type="importmap">([\s\S]*?)<\/script>/);
    if (map) for (const v of Object.values(JSON.parse(map[1]).imports || {})) out.push(v);
  }
  return out;
}

/**
 * Where a specifier of `file` points: a repository-relative path, or null for
 * something outside the repository (node:, three, a URL).
 */
function resolve(file, spec) {
  if (ENTRIES.has(spec)) return ENTRIES.get(spec);
  if (spec.startsWith('/')) return spec.slice(1).startsWith('node_modules/') ? null : path.posix.normalize(spec.slice(1));
  if (spec.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  return null;
}

/** Wrong-way imports among {file: text}; each as "importer -> specifier (why)". */
export function violations(files) {
  const out = [];
  for (const [file, text] of Object.entries(files)) {
    const from = file.split('/')[0];
    for (const spec of specifiers(text, file.endsWith('.html'))) {
      const target = resolve(file, spec);
      if (target === null) continue;
      const to = target.split('/')[0];
      if (to === from) continue;
      if (!(to in RANK)) out.push(`${file} -> ${spec} (${to}/ is no layer)`);
      else if (RANK[to] >= RANK[from]) out.push(`${file} -> ${spec} (${from}/ may not import ${to}/)`);
      else if (RANK[from] === 4 && (to === 'worker' || to === 'wasm')) {
        // The demo and the examples use the worker and core as a game would: through the package's entries.
        const t = target.replace(/\.d\.ts$/, '.js');
        if (!ENTRY_FILES.has(t)) out.push(`${file} -> ${spec} (not a package entry)`);
      }
    }
  }
  return out;
}

function collect(dir, out = {}) {
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (name === 'node_modules') continue;
    if (statSync(path.join(ROOT, rel)).isDirectory()) collect(rel, out);
    else if (/\.(m?js|html)$/.test(name)) out[rel] = readFileSync(path.join(ROOT, rel), 'utf8');
  }
  return out;
}

test('the checker catches each kind of wrong-way import', () => {
  const bad = violations({
    'worker/a.js': "import { TileStreamer } from '../stream/streamer.js';",
    'wasm/b.mjs': "const m = await import('../worker/handler.js');",
    'stream/c.js': "export { x } from '../web/main.js';",
    'web/d.js': "import { createHandler } from '../worker/handler.js';",
    'examples/three/e.js': "import { x } from '../../web/ui.js';",
    'web/f.html': '<script type="module" src="../examples/three/main.js"></script>',
  });
  assert.is(bad.length, 6, bad.join('\n'));
  const good = violations({
    'stream/a.js': "import { SEA_LEVEL_CODE } from '../wasm/ct_constants.mjs';\nimport { x } from './b.js';",
    'web/b.js': "import { createPool } from '../worker/client.js';\nimport { MSG } from '../worker/protocol.js';\nimport { TileStreamer } from '../stream/index.js';",
    'examples/three/c.js': `import { createPool } from '${pkg.name}/worker';\nimport * as THREE from 'three';`,
  });
  assert.equal(good, []);
});

test('every import in wasm/ worker/ stream/ web/ examples/ runs core -> wasm -> worker -> stream -> web|examples', () => {
  const files = {};
  for (const d of CHECKED) collect(d, files);
  assert.ok(Object.keys(files).length > 40, `files parsed: ${Object.keys(files).length}`);
  const count = Object.entries(files).reduce((n, [f, t]) => n + specifiers(t, f.endsWith('.html')).length, 0);
  assert.ok(count > 80, `imports parsed: ${count}`);
  assert.equal(violations(files), []);
});

test('the package exports ./stream with types and ships no web/ file', () => {
  const s = pkg.exports['./stream'];
  assert.type(s, 'object');
  assert.ok(s.types && s.default, './stream has types and a default');
  assert.not.ok(pkg.files.some((f) => f.startsWith('web')), 'files lists no web/ entry');
});

test('./stream bundles for a page as it is: nothing in its import graph reaches a Node built-in', async () => {
  // The "./stream" entry has no browser variant, so a game's bundler takes it
  // as it is: a path to the core's loader (node:fs) would break its build.
  const r = await build({ entryPoints: [path.join(ROOT, 'stream/index.js')], bundle: true, format: 'esm',
    platform: 'browser', write: false, logLevel: 'silent', metafile: true });
  const inputs = Object.keys(r.metafile.inputs);
  assert.ok(inputs.some((f) => f.startsWith('wasm/')) && inputs.some((f) => f.startsWith('worker/')), inputs.join(' '));
  assert.not.ok(inputs.some((f) => /ct_heap|ct\.mjs|client\.js/.test(f)), `no loader or pool in ./stream: ${inputs.join(' ')}`);
});

test.run();
