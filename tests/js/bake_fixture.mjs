// bake_fixture.mjs - This module runs `terrain bake` for the bake suites: one
// child process at a time or several at once (shards), and compares folders
// file by file.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureTerrain } from './ct_fixture.mjs';

export const TERRAIN = ensureTerrain();

/** ./terrain bake ARGS: resolves {status, stdout, stderr}. */
export function bake(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(TERRAIN, ['bake', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '', stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Every file under dir, relative, sorted. */
export function files(dir, rel = '') {
  const out = [];
  for (const f of readdirSync(path.join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${f}` : f;
    if (statSync(path.join(dir, r)).isDirectory()) out.push(...files(dir, r));
    else out.push(r);
  }
  return out;
}

/** The first difference between two folders ('' when they hold the same files with the same bytes). */
export function treeDiff(a, b) {
  const fa = files(a), fb = files(b);
  if (fa.join('\n') !== fb.join('\n')) {
    const only = fa.filter((f) => !fb.includes(f)).concat(fb.filter((f) => !fa.includes(f)));
    return `file lists differ (${fa.length} vs ${fb.length}): ${only.slice(0, 5).join(', ')}`;
  }
  for (const f of fa) if (!readFileSync(path.join(a, f)).equals(readFileSync(path.join(b, f)))) return `${f} differs`;
  return '';
}
