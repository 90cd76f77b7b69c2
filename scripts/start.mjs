// This module is `npm start`: it installs what is missing (npm packages,
// Emscripten), builds the native tools and the WebAssembly core when absent
// or stale (make decides), then serves the demo on http://127.0.0.1:8080/
// (PORT overrides) until interrupted.
import { ensureNpm, ensureEmcc, ensureCc, run } from './setup.mjs';
import { serve } from './serve.mjs';

try {
  ensureCc();
  ensureNpm();
  ensureEmcc();
  run('make', ['--no-print-directory', '-j2']);
  run('make', ['--no-print-directory', 'wasm']);
} catch (e) {
  console.error(`npm start: ${e.message}`);
  process.exit(1);
}
const port = Number(process.env.PORT || 8080);
serve({ port }).then(({ url }) => {
  console.log(`open ${url} in a browser (Ctrl+C stops the server)`);
}, (e) => {
  console.error(`npm start: ${e.code === 'EADDRINUSE' ? `port ${port} is in use; try PORT=8081 npm start` : e.message}`);
  process.exit(1);
});
