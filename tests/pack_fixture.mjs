// This module packs the repository the way `npm pack` would publish it
// (prepack builds ct.wasm and dist/browser/) and installs the tarball into a
// fresh temporary project, offline, as a game developer would. Shared by the
// Node package test and the browser test of a bundled page.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });

/**
 * Runs `npm pack` into dir; returns the tarball's path and the files it holds.
 * npm test packs once (CT_PACK_DIR) for every suite that installs the package.
 */
export function pack(dir) {
  // prepack prints to the same stdout as --json: the JSON is the last part.
  const text = npm(['pack', '--json', '--pack-destination', dir], root);
  const packed = JSON.parse(text.slice(text.lastIndexOf('\n[\n') + 1));
  const made = { tarball: path.join(dir, packed[0].filename), files: packed[0].files.map((f) => f.path) };
  writeFileSync(path.join(dir, 'packed.json'), JSON.stringify(made));
  return made;
}

/**
 * Packs and installs. Returns the temp project folder, the tarball path and
 * the list of files the tarball holds. With CT_PACK_DIR set (npm test), the
 * tarball `pack` left there is installed instead of packing again.
 * @param {Record<string, string>} [projectFiles] extra files written into the project
 */
export function packAndInstall(projectFiles = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ct-pack-'));
  const packed = process.env.CT_PACK_DIR
    ? JSON.parse(readFileSync(path.join(process.env.CT_PACK_DIR, 'packed.json'), 'utf8'))
    : pack(dir);
  const tarball = packed.tarball;
  const project = path.join(dir, 'game');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'game', private: true, type: 'module' }));
  for (const [name, text] of Object.entries(projectFiles)) writeFileSync(path.join(project, name), text);
  // --offline: everything must come from the tarball (it has no dependencies).
  npm(['install', '--offline', '--ignore-scripts', tarball], project);
  return { dir, project, tarball, files: packed.files, installed: path.join(project, 'node_modules', pkg.name) };
}
