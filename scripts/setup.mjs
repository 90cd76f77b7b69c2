// This module does the set-up steps `npm start` and `npm test` share: npm
// packages from the lock file, Debian's emscripten and chromium when missing.
// It imports Node built-ins only, because it runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command in the repository root, inheriting stdio; throws on failure. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with status ${r.status}`);
  return r;
}

function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let aptUpdated = false;

export function aptInstall(pkg, why) {
  if (!isRoot) {
    throw new Error(`${why} is missing. Install Debian's package: sudo apt-get install ${pkg}`);
  }
  console.log(`setup: installing Debian package ${pkg} (${why})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) { run('apt-get', ['update', '-qq'], { env }); aptUpdated = true; }
  // With recommends, as verified on this Debian (Chromium's fonts, emscripten's tools).
  run('apt-get', ['install', '-y', '-qq', pkg], { env });
}

/** npm packages from package-lock.json, when node_modules is missing or older than the lock. */
export function ensureNpm() {
  const lock = path.join(root, 'package-lock.json');
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('setup: installing npm packages from package-lock.json');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** An Emscripten toolchain (emsdk or Debian's emscripten). */
export function ensureEmcc() {
  const probe = spawnSync('sh', ['-c', '. ./emsdk.env >/dev/null 2>&1; [ "$CT_EMCC_OK" = 1 ]'],
    { cwd: root, stdio: 'ignore' });
  if (probe.status === 0) return;
  aptInstall('emscripten', 'the Emscripten compiler (emcc)');
}

/** Debian's Chromium for the real-browser test; returns its path. */
export function ensureChromium() {
  const exe = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (existsSync(exe)) return exe;
  if (has('chromium')) return 'chromium';
  aptInstall('chromium', 'Chromium for the browser test');
  return '/usr/bin/chromium';
}

/** The C toolchain is a stated prerequisite; say so plainly if it is absent. */
export function ensureCc() {
  if (!has('make') || !(has('cc') || has('gcc'))) {
    throw new Error('gcc and make are required: sudo apt-get install gcc make');
  }
}
