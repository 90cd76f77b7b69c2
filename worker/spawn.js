// This module starts one protocol worker and gives the pool the same small
// surface in a browser (module Worker) and in Node (worker_threads, imported
// dynamically so pages never see a node: import): post, and callbacks for
// messages and for the worker dying.

const inNode = typeof process === 'object' && process !== null && !!(process.versions && process.versions.node) &&
  typeof window === 'undefined' && typeof WorkerGlobalScope === 'undefined';

/** Default location of the worker entry, next to this module. */
export const defaultWorkerUrl = new URL('./worker.js', import.meta.url);

/**
 * @typedef {object} WorkerHandle
 * @property {(msg: object, transfer?: Transferable[]) => void} post
 * @property {() => Promise<void>} terminate
 */

/**
 * Starts a worker running worker/worker.js.
 * @param {{workerUrl?: string|URL, wasmUrl?: string|URL, testHooks?: boolean}} options
 * @param {(data: any) => void} onMessage every message from the worker
 * @param {(reason: string) => void} onDeath the worker raised an uncaught error or exited
 * @returns {Promise<WorkerHandle>}
 */
export async function spawnWorker(options, onMessage, onDeath) {
  const workerUrl = options.workerUrl || defaultWorkerUrl;
  let dying = false;
  const die = (reason) => {
    if (dying) return;
    dying = true;
    onDeath(reason);
  };
  if (inNode) {
    const { Worker } = await import('node:worker_threads');
    const url = workerUrl instanceof URL ? workerUrl : toNodeUrl(workerUrl);
    const w = new Worker(url, {
      workerData: {
        wasmUrl: options.wasmUrl === undefined ? undefined : String(options.wasmUrl),
        testHooks: !!options.testHooks,
      },
    });
    w.on('message', onMessage);
    w.on('error', (e) => die(`worker error: ${e && e.message ? e.message : String(e)}`));
    w.on('messageerror', (e) => die(`worker message could not be decoded: ${String(e)}`));
    w.on('exit', (code) => die(`worker exited with code ${code}`));
    return {
      post: (msg, transfer) => w.postMessage(msg, transfer || []),
      terminate: async () => { dying = true; await w.terminate(); },
    };
  }
  const base = typeof location === 'object' && location ? location.href : undefined;
  const url = new URL(String(workerUrl), base);
  if (options.wasmUrl !== undefined) url.searchParams.set('wasm', new URL(String(options.wasmUrl), base).href);
  if (options.testHooks) url.searchParams.set('test', '1');
  const w = new Worker(url, { type: 'module' });
  w.onmessage = (event) => onMessage(event.data);
  w.onerror = (event) => {
    if (event && event.preventDefault) event.preventDefault();
    die(`worker error: ${(event && event.message) || 'uncaught error in worker'}`);
  };
  w.onmessageerror = () => die('worker message could not be decoded');
  return {
    post: (msg, transfer) => w.postMessage(msg, transfer || []),
    terminate: async () => { dying = true; w.terminate(); },
  };
}

/** A Node path or URL text as a URL the Worker constructor accepts. */
function toNodeUrl(text) {
  if (/^file:/i.test(text)) return new URL(text);
  // A plain path: resolve against the working directory like the CLI would.
  const cwd = process.cwd().replace(/\\/g, '/');
  return new URL(text, `file://${cwd.startsWith('/') ? '' : '/'}${cwd}/`);
}
