// This module is the worker pool's book of pending requests (worker/pool.js):
// each request is an entry with an id, a promise that settles exactly once
// and the timer that marks its worker stuck when no reply comes in time.
// Entries stay listed until they settle, so cancels, terminate and a pool
// whose workers all crashed can reach every request still waiting.
import { MSG } from './protocol.js';

/** A pending request as cancel() and reprioritize() callbacks see it (client.d.ts RequestView). */
export function publicView(e) {
  return { id: e.id, type: e.type, key: e.info && e.info.key, options: e.info && e.info.options, priority: e.priority, epoch: e.epoch, state: e.state };
}

export class PendingRequests {
  #byId = new Map();
  #nextId = 1;

  /** @param {number} timeoutMs how long a sent request may go unanswered (0: forever) */
  constructor(timeoutMs) {
    this.timeoutMs = timeoutMs;
    /** false while the pool starts: a cold worker compiling the core is slow, not stuck */
    this.timing = false;
  }

  /** A fresh id: entries and cancel messages share one sequence. */
  nextId() { return this.#nextId++; }

  /**
   * A new listed entry for a request of this type made in this epoch; make()
   * builds its message each time it is sent. Its promise carries the id and
   * never reports an unhandled rejection (callers may drop what they cancel).
   */
  create(type, make, epoch, extra = {}) {
    const entry = { id: this.nextId(), type, make, epoch, attempts: 0, settled: false, cancelled: false, ...extra };
    entry.promise = new Promise((resolve, reject) => { entry.resolve = resolve; entry.reject = reject; });
    entry.promise.id = entry.id;
    entry.promise.catch(() => {});
    this.#byId.set(entry.id, entry);
    return entry;
  }

  list(entry) { this.#byId.set(entry.id, entry); }
  unlist(entry) { this.#byId.delete(entry.id); }

  /** Every listed entry, as a copy (settling one unlists it). */
  all() { return [...this.#byId.values()]; }

  /** Resolves or rejects an entry once; later calls do nothing. */
  settle(entry, error, result) {
    if (entry.settled) return;
    entry.settled = true;
    this.disarm(entry);
    this.#byId.delete(entry.id);
    if (error) entry.reject(error); else entry.resolve(result);
  }

  /** A request was sent: fire() runs unless it is disarmed within timeoutMs. Builds have no timeout. */
  arm(entry, fire) {
    entry.timedOut = false;
    if (!this.timeoutMs || !this.timing || entry.type === MSG.BUILD) return;
    entry.timer = setTimeout(fire, this.timeoutMs);
    if (entry.timer.unref) entry.timer.unref();   // never keeps Node alive by itself
  }

  disarm(entry) {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
  }
}
