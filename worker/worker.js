// This module is the worker entry: it loads the WebAssembly core once and binds
// incoming messages to the pure handler (worker/handler.js). It runs as a
// browser module worker (self.onmessage) and under Node worker_threads
// (parentPort). Settings: in Node from workerData {wasmUrl, testHooks}, in a
// browser from the script URL's query (?wasm=<url>&test=1).
import { loadCore } from '../wasm/ct.mjs';
import { createHandler } from './handler.js';
import { ERR, errorToWire } from './protocol.js';

const inBrowser = typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope;

/** Finds the port to listen on and the settings the pool passed. */
async function environment() {
  if (inBrowser) {
    const params = new URL(self.location.href).searchParams;
    return {
      settings: { wasmUrl: params.get('wasm') || undefined, testHooks: params.get('test') === '1' },
      listen: (fn) => { self.onmessage = (event) => fn(event.data); },
      post: (reply, transfer) => self.postMessage(reply, transfer || []),
    };
  }
  const { parentPort, workerData } = await import('node:worker_threads');
  if (!parentPort) throw new Error('worker/worker.js must run as a worker');
  return {
    settings: workerData || {},
    listen: (fn) => parentPort.on('message', fn),
    post: (reply, transfer) => parentPort.postMessage(reply, transfer || []),
  };
}

/** A string wasm location becomes a URL when it is one (file:, http:, blob:...). */
function wasmSource(location) {
  if (typeof location !== 'string' || !location) return undefined;
  return /^[a-z][a-z0-9+.-]*:/i.test(location) && !/^[a-z]:[\\/]/i.test(location) ? new URL(location) : location;
}

const env = await environment();
// Messages that arrive while the core compiles wait for it; if it never
// loads, each of them still gets an error reply instead of silence.
const ready = loadCore(wasmSource(env.settings.wasmUrl))
  .then((core) => createHandler(core, { testHooks: !!env.settings.testHooks }));
ready.catch(() => {});

env.listen((msg) => {
  ready.then(
    (handler) => handler.handle(msg, env.post),
    (e) => env.post({
      id: msg && typeof msg === 'object' && msg.id !== undefined ? msg.id : null,
      ok: false,
      error: { code: ERR.CORE, message: `WebAssembly core failed to load: ${errorToWire(e).message}` },
    }, []),
  );
});
