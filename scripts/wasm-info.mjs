// This module reports what `make wasm` built: the module's size (raw and
// gzipped, as a web server would send it) and how long loading it takes
// (read, compile, instantiate) under this Node, cold and warm.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { loadCore } from '../wasm/ct.mjs';

const file = process.argv[2] || new URL('../build/wasm/ct.wasm', import.meta.url);
const bytes = readFileSync(file);
const times = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  await loadCore(new Uint8Array(bytes));
  times.push(performance.now() - t0);
}
console.log(`wasm: ${bytes.length} bytes (${gzipSync(bytes).length} gzipped); ` +
  `load ${times[0].toFixed(1)} ms cold, ${Math.min(...times.slice(1)).toFixed(1)} ms warm`);
