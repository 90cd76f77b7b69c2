// This module decides which tile mesh requests the streamer sends to the worker pool and when: best priority first under an in-flight cap, cancelling requests the view stopped wanting, with a back-off for failures (no DOM, no GL, no pool: the caller starts and cancels; which worker runs a request is the pool's worker/request_queue.js).

/**
 * The queue of tile requests. Each frame the caller passes the wanted tiles (sorted or
 * not); plan() answers which to start now and which in-flight ones to cancel.
 */
export class TileRequestQueue {
  /**
   * @param {object} [o]
   * @param {number} [o.maxInFlight=4] requests handed to the pool at once
   * @param {number} [o.staleMs=600]   an in-flight request unwanted this long is cancelled
   * @param {number} [o.retryMs=2000]  wait after a failure before asking again
   * @param {number} [o.maxFailures=3] give up on a tile after this many failures
   */
  constructor(o = {}) {
    this.maxInFlight = o.maxInFlight ?? 4;
    this.staleMs = o.staleMs ?? 600;
    this.retryMs = o.retryMs ?? 2000;
    this.maxFailures = o.maxFailures ?? 3;
    /** id -> {startedAt, lastWanted, priority} */
    this.inFlight = new Map();
    /** id -> {count, until} */
    this.failures = new Map();
  }

  /**
   * Plans one frame.
   * @param {{id:string, priority:number}[]} wants tiles the view needs and does not have
   * @param {number} now milliseconds
   * @returns {{start: object[], cancel: string[]}} start: wants to send (best first);
   *   cancel: in-flight ids to cancel (already forgotten here).
   */
  plan(wants, now) {
    const wantedNow = new Set();
    for (const w of wants) {
      wantedNow.add(w.id);
      const f = this.inFlight.get(w.id);
      if (f) {
        f.lastWanted = now;
        f.priority = w.priority;
      }
    }
    const cancel = [];
    for (const [id, f] of this.inFlight) {
      if (!wantedNow.has(id) && now - f.lastWanted > this.staleMs) cancel.push(id);
    }
    // A full pipeline of requests that are no longer wanted this frame is
    // worse than losing their work: when better work waits, cancel the
    // unwanted ones at once (worst priority first).
    const waiting = wants.filter((w) => !this.inFlight.has(w.id) && this.canAsk(w.id, now));
    const free = this.maxInFlight - (this.inFlight.size - cancel.length);
    if (waiting.length > free) {
      const idle = [...this.inFlight.entries()]
        .filter(([id]) => !wantedNow.has(id) && !cancel.includes(id))
        .sort((a, b) => b[1].priority - a[1].priority);
      for (let i = 0; i < idle.length && waiting.length > free + i; i++) cancel.push(idle[i][0]);
    }
    for (const id of cancel) this.inFlight.delete(id);
    waiting.sort((a, b) => a.priority - b.priority);
    const slots = Math.max(0, this.maxInFlight - this.inFlight.size);
    const start = waiting.slice(0, slots);
    for (const w of start) this.inFlight.set(w.id, { startedAt: now, lastWanted: now, priority: w.priority });
    return { start, cancel };
  }

  /** False while a failed tile waits for its retry, or after too many failures. */
  canAsk(id, now) {
    const f = this.failures.get(id);
    if (!f) return true;
    return f.count < this.maxFailures && now >= f.until;
  }

  /** A started request finished successfully (or its result was dropped as stale). */
  finished(id) {
    this.inFlight.delete(id);
    this.failures.delete(id);
  }

  /** A started request failed; it may be asked again after retryMs. */
  failed(id, now) {
    this.inFlight.delete(id);
    const f = this.failures.get(id) ?? { count: 0, until: 0 };
    f.count += 1;
    f.until = now + this.retryMs * f.count;
    this.failures.set(id, f);
  }

  /** Forgets everything (new world): returns the ids that were in flight. */
  reset() {
    const ids = [...this.inFlight.keys()];
    this.inFlight.clear();
    this.failures.clear();
    return ids;
  }

  /** Number of requests handed out and not finished. */
  get size() {
    return this.inFlight.size;
  }
}
