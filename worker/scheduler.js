// This module is the pool's request queue, kept free of workers and promises
// so tests can drive it directly: lowest priority number first (ties in
// arrival order), one entry per key while it is queued or running (repeats
// collapse into it and may raise its priority), removal by predicate, and
// re-prioritising when the caller's view moves.

/**
 * @typedef {object} SchedEntry
 * @property {string|undefined} key  collapse key; undefined never collapses
 * @property {number} priority       lower runs sooner
 * @property {number} seq            arrival order, set by add()
 * @property {'queued'|'running'|'done'|'cancelled'} state
 */

/** Creates an empty scheduler. */
export function createScheduler() {
  let heap = []; // {entry, priority, seq}; stale nodes are skipped on pop
  const byKey = new Map();
  const running = new Set();
  let queued = 0;
  let seq = 0;

  const less = (a, b) => a.priority < b.priority || (a.priority === b.priority && a.seq < b.seq);

  function push(entry) {
    const node = { entry, priority: entry.priority, seq: entry.seq };
    heap.push(node);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i], heap[p])) break;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  }

  function pop() {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l], heap[m])) m = l;
        if (r < heap.length && less(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
    return top;
  }

  const live = (node) => node.entry.state === 'queued' && node.priority === node.entry.priority;

  function release(entry) {
    if (entry.key !== undefined && byKey.get(entry.key) === entry) byKey.delete(entry.key);
    running.delete(entry);
  }

  return {
    /**
     * Queues an entry, or returns the queued/running entry with the same key
     * (whose priority drops to the smaller of the two).
     * @template {SchedEntry} T
     * @param {T} entry
     * @returns {{entry: T, collapsed: boolean}}
     */
    add(entry) {
      const same = entry.key !== undefined ? byKey.get(entry.key) : undefined;
      if (same) {
        if (same.state === 'queued' && entry.priority < same.priority) {
          same.priority = entry.priority;
          push(same);
        } else if (entry.priority < same.priority) {
          same.priority = entry.priority;
        }
        return { entry: same, collapsed: true };
      }
      entry.seq = seq++;
      entry.state = 'queued';
      if (entry.key !== undefined) byKey.set(entry.key, entry);
      queued += 1;
      push(entry);
      return { entry, collapsed: false };
    },

    /** Takes the most urgent queued entry and marks it running; undefined if none. */
    next() {
      while (heap.length) {
        const node = pop();
        if (!live(node)) continue;
        node.entry.state = 'running';
        queued -= 1;
        running.add(node.entry);
        return node.entry;
      }
      return undefined;
    },

    /** Puts a running entry back in the queue (a retry), keeping its place. */
    requeue(entry) {
      if (entry.state !== 'running') return;
      running.delete(entry);
      entry.state = 'queued';
      queued += 1;
      push(entry);
    },

    /** A running entry finished: its key is free again. */
    finish(entry) {
      if (entry.state === 'queued') queued -= 1;
      release(entry);
      entry.state = 'done';
    },

    /**
     * Removes every queued or running entry the predicate accepts, marking
     * them 'cancelled' and freeing their keys (a new request for the key
     * starts afresh). Returns what was removed, by former state.
     * @param {(entry: SchedEntry) => boolean} pred
     */
    remove(pred) {
      const out = { queued: [], running: [] };
      for (const entry of [...byKey.values(), ...running, ...heap.map((n) => n.entry)]) {
        if (entry.state !== 'queued' && entry.state !== 'running') continue;
        if (!pred(entry)) continue;
        if (entry.state === 'queued') { queued -= 1; out.queued.push(entry); } else out.running.push(entry);
        release(entry);
        entry.state = 'cancelled';
      }
      if (out.queued.length) heap = heap.filter(live);
      return out;
    },

    /**
     * Sets new priorities for queued entries: fn(entry) returns a number, or
     * undefined to keep the current one.
     * @param {(entry: SchedEntry) => number|undefined} fn
     */
    reprioritize(fn) {
      const entries = heap.filter(live).map((n) => n.entry);
      heap = [];
      for (const e of entries) {
        const p = fn(e);
        if (typeof p === 'number' && !Number.isNaN(p)) e.priority = p;
        push(e);
      }
    },

    /** Queued entries, most urgent first (a copy, for inspection). */
    queuedEntries() {
      return heap.filter(live).sort((a, b) => (less(a, b) ? -1 : 1)).map((n) => n.entry);
    },

    get queued() { return queued; },
    get running() { return running.size; },
  };
}
