// This module is `make site`: it writes ./site/, a static copy of the demo
// that works from any static host (no special headers, no SharedArrayBuffer):
// web/, stream/, worker/, wasm/*.mjs, core/palette.txt and build/wasm/ct.wasm keep
// their relative places, and site/index.html forwards to web/.
import { mkdirSync, rmSync, cpSync, existsSync, readdirSync, writeFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { root } from './setup.mjs';

const out = path.join(root, process.argv[2] || 'site');
const need = ['web', 'stream', 'worker', 'build/wasm/ct.wasm', 'core/palette.txt'];
for (const n of need) {
  if (!existsSync(path.join(root, n))) {
    console.error(`site: ${n} is missing${n.endsWith('.wasm') ? ' (run make wasm)' : ''}`);
    process.exit(1);
  }
}
rmSync(out, { recursive: true, force: true });
const copy = (rel) => {
  mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
  cpSync(path.join(root, rel), path.join(out, rel), { recursive: true });
};
copy('web');
copy('stream');
copy('worker');
for (const f of readdirSync(path.join(root, 'wasm'))) if (f.endsWith('.mjs')) copy(`wasm/${f}`);
copy('build/wasm/ct.wasm');
copy('core/palette.txt');
writeFileSync(path.join(out, 'index.html'),
  '<!doctype html>\n<meta charset="utf-8">\n<title>Cube-sphere planet</title>\n' +
  '<meta http-equiv="refresh" content="0; url=web/">\n<a href="web/">Open the planet demo</a>\n');
writeFileSync(path.join(out, '.nojekyll'), '');
let files = 0, bytes = 0;
const walk = (d) => {
  for (const f of readdirSync(d)) {
    const p = path.join(d, f), st = statSync(p);
    if (st.isDirectory()) walk(p);
    else { files++; bytes += st.size; }
  }
};
walk(out);
console.log(`site: ${path.relative(root, out) || out}/ written (${files} files, ${(bytes / 1048576).toFixed(1)} MB); publish the folder as is, open index.html through http(s)`);
