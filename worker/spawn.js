// This module starts one protocol worker and gives the pool the same small
// surface in a browser (module Worker) and in Node (worker_threads, imported
// dynamically so pages never see a node: import): post, and callbacks for
// messages and for the worker dying.
import { defaultWorkerUrl } from './location.js';

const inNode = typeof process === 'object' && process !== null && !!(process.versions && process.versions.node) &&
  typeof window === 'undefined' && typeof WorkerGlobalScope === 'undefined';

/**
 * Worker script and wasm locations. `baseUrl` (the installed package folder
 * as served, e.g. '/assets/cubesphere-terrain/') overrides both defaults at
 * once; `workerUrl` and `wasmUrl` override one each.
 */
function locations(options) {
  const base = options.baseUrl === undefined ? undefined : String(options.baseUrl).replace(/\/?$/, '/');
  const pageBase = typeof location === 'object' && location ? location.href : undefined;
  const rel = (p) => (inNode && !/^[a-z][a-z0-9+.-]*:/i.test(base) ? toNodeUrl(base + p) : new URL(base + p, pageBase));
  return {
    workerUrl: options.workerUrl || (base ? rel('worker/worker.js') : defaultWorkerUrl()),
    wasmUrl: options.wasmUrl !== undefined ? options.wasmUrl : (base ? rel('build/wasm/ct.wasm') : undefined),
  };
}

/**
 * @typedef {object} WorkerHandle
 * @property {(msg: object, transfer?: Transferable[]) => void} post
 * @property {() => Promise<void>} terminate
 */

/**
 * Starts a worker running worker/worker.js.
 * @param {{baseUrl?: string|URL, workerUrl?: string|URL, wasmUrl?: string|URL, testHooks?: boolean}} options
 * @param {(data: any) => void} onMessage every message from the worker
 * @param {(reason: string) => void} onDeath the worker raised an uncaught error or exited
 * @returns {Promise<WorkerHandle>}
 */
export async function spawnWorker(options, onMessage, onDeath) {
  const { workerUrl, wasmUrl } = locations(options);
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
        wasmUrl: wasmUrl === undefined ? undefined : String(wasmUrl),
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
  // Carried code (a blob: URL) cannot take a query: it loads its own wasm.
  if (url.protocol !== 'blob:') {
    if (wasmUrl !== undefined) url.searchParams.set('wasm', new URL(String(wasmUrl), base).href);
    if (options.testHooks) url.searchParams.set('test', '1');
  }
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
