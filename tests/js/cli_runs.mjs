// cli_runs.mjs - This module runs the two command-line tools the parity tests
// compare with the same arguments: native ./terrain as a child process and its
// Node twin (wasm/cli.mjs) in process. Both answer {status, stdout, stderr};
// `both` runs the pair at once (the child on the other core).
import { spawn, spawnSync } from 'node:child_process';
import { ROOT, ensureTerrain, ensureWasm } from './ct_fixture.mjs';
import { main as twin } from '../../wasm/cli.mjs';

const TERRAIN = ensureTerrain();
ensureWasm();   // the twin loads the core before it parses its arguments

/** Native ./terrain: {status, stdout, stderr}. */
export function native(args) {
  const r = spawnSync(TERRAIN, args, { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Native ./terrain, started now, resolving when it ends: {status, stdout, stderr}. */
function nativeAsync(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(TERRAIN, args, { cwd: ROOT });
    let stdout = '', stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Native ./terrain with argsN and the Node twin with argsJ, run together: [native, node]. */
export async function both(argsN, argsJ = argsN) {
  const n = nativeAsync(argsN);
  const j = await node(argsJ);
  return [await n, j];
}

/** The Node twin, in process: {status, stdout, stderr}. */
export async function node(args) {
  let stdout = '', stderr = '';
  const status = await twin(args, (l) => { stdout += `${l}\n`; }, (l) => { stderr += `${l}\n`; });
  return { status, stdout, stderr };
}
