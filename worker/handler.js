// This module is the worker's brain without the worker: a Handler
// (createHandler(core)) holds one world and answers protocol requests
// through a post(reply, transfer) callback, so tests drive it directly and
// worker.js only binds it to a message port. It checks, queues, runs and
// answers requests; what each type does is in worker/jobs.js. Requests run
// one at a time, in arrival order, each in its own macrotask: a cancel
// message that arrives meanwhile still finds the requests queued behind the
// running one and removes them. The world keeps the chunk it generated last
// (wasm/ct_world.mjs), so a water mesh or another stride of the same key
// right after costs a mesh build, not a chunk; a mesh request with `lakes:
// true` relies on that to add the lake surface of the same chunk to the
// terrain reply (worker/mesh_job.js).
import { MSG, ERR, protocolError, errorToWire, transferablesOf } from './protocol.js';
import { JOBS } from './jobs.js';

/** Runs fn in a later macrotask, letting incoming messages in between. */
function defaultDefer() {
  if (typeof setImmediate === 'function') return (fn) => setImmediate(fn);
  // Browsers: a MessageChannel task is not clamped like nested setTimeout(0).
  const channel = new MessageChannel();
  const pending = [];
  channel.port1.onmessage = () => { const fn = pending.shift(); if (fn) fn(); };
  return (fn) => { pending.push(fn); channel.port2.postMessage(0); };
}

function reply(post, id, result) {
  post({ id, ok: true, result }, transferablesOf(result));
}

function fail(post, id, e) {
  post({ id, ok: false, error: errorToWire(e) }, []);
}

/**
 * Why a message cannot be queued (a protocol error), or null when it can:
 * an object with an id and a type this handler serves.
 */
function badRequest(msg, testHooks) {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return protocolError(ERR.MESSAGE, 'a request must be an object {id, type, ...}');
  const id = msg.id;
  if (!(typeof id === 'number' && Number.isFinite(id)) && typeof id !== 'string') {
    return protocolError(ERR.MESSAGE, 'a request needs an id (number or string)');
  }
  if (typeof msg.type !== 'string') return protocolError(ERR.MESSAGE, 'a request needs a type (string)');
  if (msg.type === MSG.CANCEL) return null;
  const hook = msg.type === MSG.TEST_CRASH || msg.type === MSG.TEST_STALL;
  if (!Object.hasOwn(JOBS, msg.type) || (hook && !testHooks)) {
    return protocolError(ERR.UNKNOWN_TYPE, `unknown request type ${JSON.stringify(msg.type)}`);
  }
  return null;
}

/** One world and the queue of requests for it; the JobHost of worker/jobs.js. */
export class Handler {
  #defer;
  #testHooks;
  #world = null;
  #queue = []; // {msg, post, done}
  // Time spent answering each request type (ms, and how many), for stats replies.
  #busy = { ms: {}, count: {} };
  #scheduled = false;

  /**
   * @param {object} core the object of wasm/ct.mjs loadCore()
   * @param {{defer?: (fn: () => void) => void, testHooks?: boolean}} [options] as createHandler's
   */
  constructor(core, options = {}) {
    /** the loaded core */
    this.core = core;
    this.#defer = options.defer || defaultDefer();
    this.#testHooks = !!options.testHooks;
  }

  /** The world, or null before the first build or load. */
  get world() { return this.#world; }

  /** Whether the test hooks are on (test-crash, test-stall, a build's testHold). */
  get testHooks() { return this.#testHooks; }

  /** Requests waiting behind the running one. */
  get queued() { return this.#queue.length; }

  /**
   * Answers one message. Every message gets exactly one reply (plus progress
   * messages for builds); the promise resolves once that reply is posted.
   */
  handle(msg, post) {
    return new Promise((done) => {
      const bad = badRequest(msg, this.#testHooks);
      if (bad) {
        const id = msg && typeof msg === 'object' ? msg.id : undefined;
        fail(post, id === undefined ? null : id, bad);
        done();
      } else if (msg.type === MSG.CANCEL) {
        this.#cancel(msg, post);
        done();
      } else {
        this.#queue.push({ msg, post, done });
        this.#schedule();
      }
    });
  }

  /** Frees the world; queued requests are answered as cancelled. */
  dispose() {
    for (const q of this.#queue.splice(0)) {
      fail(q.post, q.msg.id, protocolError(ERR.CANCELLED, 'handler disposed'));
      q.done();
    }
    this.replaceWorld(null);
  }

  /** The world, or a CT_ERR_NO_WORLD error (for jobs). */
  needWorld() {
    if (!this.#world) throw protocolError(ERR.NO_WORLD, 'no world yet: send build or load first');
    return this.#world;
  }

  /** Makes next the world and frees the one it replaces (for jobs). */
  replaceWorld(next) {
    const old = this.#world;
    this.#world = next;
    if (!old || old === next) return;
    // An edited world shares its base's field: a new edit set over the same
    // base frees only the old edited world; anything else frees the base,
    // which frees the worlds edited from it.
    const oldRoot = old.base ?? old, nextRoot = next ? next.base ?? next : null;
    if (oldRoot !== nextRoot) oldRoot.free();
    else if (old !== oldRoot) old.free();
  }

  /** Requests queued and the time spent answering each type so far (for the stats job). */
  workload() {
    return { queued: this.#queue.length, busy: { ms: { ...this.#busy.ms }, count: { ...this.#busy.count } } };
  }

  #cancel(msg, post) {
    const target = msg.target;
    const i = this.#queue.findIndex((q) => q.msg.id === target);
    if (i >= 0) {
      const [q] = this.#queue.splice(i, 1);
      fail(q.post, target, protocolError(ERR.CANCELLED, `request ${String(target)} cancelled before it ran`));
      q.done();
    }
    reply(post, msg.id, { target, cancelled: i >= 0 });
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#defer(() => this.#runOne());
  }

  #runOne() {
    this.#scheduled = false;
    const q = this.#queue.shift();
    if (!q) return;
    if (this.#queue.length) this.#schedule();
    const { msg, post } = q;
    if (msg.type === MSG.TEST_CRASH && (Number(msg.attempt) || 0) < (Number(msg.times) || 0)) {
      q.done();
      // Thrown outside any try, from a macrotask: the worker dies the way a
      // real bug would kill it (Node: 'error' then 'exit'; browser: 'error').
      throw new Error(`test-crash: attempt ${Number(msg.attempt) || 0}`);
    }
    const t0 = performance.now();
    const finish = () => {
      this.#busy.ms[msg.type] = (this.#busy.ms[msg.type] || 0) + (performance.now() - t0);
      this.#busy.count[msg.type] = (this.#busy.count[msg.type] || 0) + 1;
      q.done();
    };
    let result;
    try {
      result = JOBS[msg.type](this, msg, post);
      if (!(result instanceof Promise)) reply(post, msg.id, result);
    } catch (e) {
      fail(post, msg.id, e);
    }
    // A job that waits for a fetch (a baked tile: worker/tile_job.js) answers
    // when it is done; the queue goes on meanwhile (its busy time is wall time).
    if (result instanceof Promise) result.then((r) => reply(post, msg.id, r)).catch((e) => fail(post, msg.id, e)).then(finish);
    else finish();
  }
}

/**
 * Creates a protocol handler around a loaded core (the object of
 * wasm/ct.mjs loadCore()).
 * @param {object} core
 * @param {{defer?: (fn: () => void) => void, testHooks?: boolean}} [options]
 *   defer schedules the next queued request (default: setImmediate or a
 *   MessageChannel task); testHooks enables the test-crash/test-stall types.
 * @returns {Handler} handle(msg, post), world, queued, dispose()
 */
export function createHandler(core, options = {}) {
  return new Handler(core, options);
}
