// This module holds the worker pool's small pure helpers (worker count,
// option keys, direction arrays), kept apart so client.js stays about the pool.
import { ERR, protocolError } from './protocol.js';

export async function defaultWorkerCount() {
  let hw = typeof navigator === 'object' && navigator ? navigator.hardwareConcurrency : 0;
  if (!hw && typeof process === 'object' && process && process.versions && process.versions.node) {
    const os = await import('node:os'); // Node 20 has no navigator
    hw = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  }
  return Math.min(4, Math.max(1, (hw || 2) - 1));
}

/** JSON with sorted object keys, so equal mesh options collapse. */
export function stableJson(v) {
  if (!v || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`).join(',')}}`;
}

export function toDirs(dirs) {
  if (ArrayBuffer.isView(dirs)) return Float64Array.from(dirs);
  if (Array.isArray(dirs)) return Float64Array.from(dirs.flat());
  throw protocolError(ERR.MESSAGE, 'dirs must be a typed array (3 numbers per direction) or an array of [x, y, z]');
}

