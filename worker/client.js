// This module is the promise-based worker pool that pages and Node programs
// use: it builds the world once in one worker, hands the snapshot to the
// others, schedules chunk/mesh/sample requests by caller priority (one in
// flight per key, repeats collapse), sends a chunk's requests back to the
// worker that holds it (affinity, see request_queue.js), cancels, drops late
// replies after a rebuild (epochs), replaces crashed workers and retries their
// requests once. The pool is a WorkerPool (pool.js) over its worker slots
// (slot.js) and its request queue (request_queue.js).
import { MSG, ERR, parseKey, keyId } from './protocol.js';
import { defaultWorkerCount } from './pool_util.js';
import { WorkerPool } from './pool.js';

export { MSG, ERR, parseKey, keyId };

/**
 * Starts a pool of protocol workers and waits until each has loaded the core.
 * @param {{workers?: number, wasmUrl?: string|URL, workerUrl?: string|URL,
 *          pipeline?: number, affinity?: boolean, testHooks?: boolean, timeoutMs?: number}} [options]
 *   workers: default min(4, max(1, hardwareConcurrency - 1)); pipeline:
 *   requests in flight per worker (default 2, so a cancel can still catch the
 *   second one before it runs); affinity: false sends every request to the
 *   freest worker, ignoring which one holds its chunk (default true);
 *   testHooks: enables test-crash/test-stall; timeoutMs: a request other than
 *   build left unanswered this long marks its worker stuck: the worker is
 *   replaced and its requests retried once, then rejected with CT_ERR_TIMEOUT
 *   (default 60000; 0 = never). Builds have no timeout: cancel them instead.
 * @returns {Promise<import('./client').Pool>}
 */
export async function createPool(options = {}) {
  const count = Math.max(1, Math.floor(options.workers || (await defaultWorkerCount())));
  return WorkerPool.start(options, count);
}
