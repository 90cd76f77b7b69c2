// cli_runs.mjs - This module runs the two command-line tools the parity tests
// compare with the same arguments: native ./terrain as a child process and its
// Node twin (wasm/cli.mjs) in process. Both answer {status, stdout, stderr}.
import { spawnSync } from 'node:child_process';
import { ROOT, ensureTerrain, ensureWasm } from './ct_fixture.mjs';
import { main as twin } from '../../wasm/cli.mjs';

const TERRAIN = ensureTerrain();
ensureWasm();   // the twin loads the core before it parses its arguments

/** Native ./terrain: {status, stdout, stderr}. */
export function native(args) {
  const r = spawnSync(TERRAIN, args, { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The Node twin, in process: {status, stdout, stderr}. */
export async function node(args) {
  let stdout = '', stderr = '';
  const status = await twin(args, (l) => { stdout += `${l}\n`; }, (l) => { stderr += `${l}\n`; });
  return { status, stdout, stderr };
}
