// This module is the pool's request queue, kept free of workers and promises
// so tests can drive it directly: lowest priority number first (ties in
// arrival order), one entry per key while it is queued or running (repeats
// collapse into it and may raise its priority), removal by predicate,
// re-prioritising when the caller's view moves, and the choice of worker
// (assign): a request goes back to the worker that holds its chunk.
//
// Affinity rule. A worker's world keeps only the chunk it generated last, so
// the scheduler remembers, per worker, the chunk key of the last request it
// sent there (its "tail"; at most one key per worker, which is all a worker
// can hold). assign() walks the queue in priority order and, for each entry:
//  1. affine worker (its tail is the entry's chunk) has room -> send it there;
//  2. affine worker is full -> hold the entry in its queue place while later
//     entries go to other workers, but only until `affinitySkips` of them have
//     overtaken it; after that it goes to any worker with room (never starved);
//  3. otherwise -> the worker with the most room; ties prefer a worker whose
//     tail no queued entry wants, then the lower id.
// The tail is a hint: a wrong guess costs one chunk generation, never a
// wrong result (the world checks the key it holds).

/**
 * @typedef {object} SchedEntry
 * @property {string|undefined} key  collapse key; undefined never collapses
 * @property {number} priority       lower runs sooner
 * @property {number} seq            arrival order, set by add()
 * @property {string|undefined} [affinity] chunk identity (e.g. 'px/3/1/1'); entries with the same
 *                                   one reuse a worker's kept chunk. undefined: no chunk
 * @property {'queued'|'running'|'done'|'cancelled'} state
 * @property {number} [skips]        how often later entries overtook it while it waited for its worker
 */

/** Default for createRequestQueue's affinitySkips. */
export const AFFINITY_SKIPS = 4;

/** At most this many entries wait for their busy workers per assign() call. */
const MAX_HELD = 64;

/**
 * Creates an empty scheduler.
 * @param {{affinity?: boolean, affinitySkips?: number}} [options]
 *   affinity: send a request to the worker holding its chunk (default true);
 *   affinitySkips: how many later requests may overtake one that waits for
 *   its busy worker before it goes elsewhere (default AFFINITY_SKIPS; 0: never wait).
 */
export function createRequestQueue(options = {}) {
  const useAffinity = options.affinity !== false;
  const maxSkips = Math.max(0, Math.floor(options.affinitySkips ?? AFFINITY_SKIPS));
  let heap = []; // {entry, priority, seq}; stale nodes are skipped on pop
  const byKey = new Map();
  const running = new Set();
  const tails = new Map();  // worker id -> affinity of the last entry sent there
  const wanted = new Map(); // affinity -> number of queued entries with it
  const counts = { affine: 0, held: 0, moved: 0 };
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

  /** Every change of an entry's state goes through here (queued count, wanted keys). */
  function setState(entry, state) {
    const a = entry.affinity;
    if (entry.state === 'queued') {
      queued -= 1;
      if (a !== undefined) { const n = wanted.get(a) - 1; if (n > 0) wanted.set(a, n); else wanted.delete(a); }
    }
    if (state === 'queued') {
      queued += 1;
      if (a !== undefined) wanted.set(a, (wanted.get(a) || 0) + 1);
    }
    entry.state = state;
  }

  /** The worker (among room, a Map id -> free places) whose tail is the entry's chunk. */
  function affineWorker(entry, room) {
    if (!useAffinity || entry.affinity === undefined) return undefined;
    let found;
    for (const [id, tail] of tails) {
      if (tail !== entry.affinity || !room.has(id)) continue;
      if (found === undefined || room.get(id) > room.get(found)) found = id;
    }
    return found;
  }

  /** The worker with the most room; ties: one whose kept chunk nobody waits for, then order given. */
  function roomiest(room) {
    let best;
    let bestScore = -Infinity;
    for (const [id, free] of room) {
      if (free <= 0) continue;
      const t = tails.get(id);
      const score = 2 * free + (t !== undefined && wanted.has(t) ? 0 : 1);
      if (score > bestScore) { best = id; bestScore = score; }
    }
    return best;
  }

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
      entry.state = undefined;
      setState(entry, 'queued');
      if (entry.key !== undefined) byKey.set(entry.key, entry);
      push(entry);
      return { entry, collapsed: false };
    },

    /** Takes the most urgent queued entry and marks it running; undefined if none. */
    next() {
      while (heap.length) {
        const node = pop();
        if (!live(node)) continue;
        setState(node.entry, 'running');
        running.add(node.entry);
        return node.entry;
      }
      return undefined;
    },

    /**
     * Chooses what to send where, by the affinity rule above: takes queued
     * entries (most urgent first) while some worker has room, marks them
     * running and remembers each worker's new tail.
     * @param {{id: number, free: number}[]} workers every worker able to take
     *   work now, with how many more requests it may hold (0 when full: a full
     *   worker is still listed, so requests can wait for it)
     * @returns {{entry: SchedEntry, worker: number}[]} in priority order
     */
    assign(workers) {
      const out = [];
      const room = new Map();
      let total = 0;
      for (const w of workers) {
        const free = Math.max(0, Math.floor(w.free) || 0);
        room.set(w.id, free);
        total += free;
      }
      const held = []; // waiting for a full worker, out of the heap until the end
      while (total > 0) {
        let entry;
        let worker;
        const due = held.findIndex((h) => h.skips >= maxSkips);
        if (due >= 0) {
          // Overtaken often enough: it goes now, wherever there is room.
          [entry] = held.splice(due, 1);
          counts.moved += 1;
        } else {
          if (!heap.length) break;
          const node = pop();
          if (!live(node)) continue;
          entry = node.entry;
          worker = affineWorker(entry, room);
          if (worker !== undefined && room.get(worker) === 0) {
            if ((entry.skips || 0) < maxSkips && held.length < MAX_HELD) {
              if (!entry.held) { entry.held = true; counts.held += 1; }
              held.push(entry);
              continue;
            }
            counts.moved += 1;
            worker = undefined;
          } else if (worker !== undefined) {
            counts.affine += 1;
          }
        }
        setState(entry, 'running');
        if (worker === undefined) worker = roomiest(room);
        running.add(entry);
        room.set(worker, room.get(worker) - 1);
        total -= 1;
        if (useAffinity && entry.affinity !== undefined) tails.set(worker, entry.affinity);
        for (const h of held) h.skips = (h.skips || 0) + 1;
        out.push({ entry, worker });
      }
      for (const h of held) push(h); // same priority and seq: back in its place
      return out;
    },

    /** A worker died, was replaced or got another world: it holds no chunk. */
    forgetWorker(id) {
      tails.delete(id);
    },

    /** A new world everywhere (build, load): no worker holds a chunk of it. */
    forgetAll() {
      tails.clear();
    },

    /** Ids of the workers whose kept chunk is this affinity, ascending (for tests and inspection). */
    workersFor(affinity) {
      return [...tails].filter(([, tail]) => tail === affinity).map(([id]) => id).sort((a, b) => a - b);
    },

    /**
     * Entries assign() sent to their affine worker, entries that waited for a
     * busy one, entries that stopped waiting; and how many workers have a tail.
     */
    get affinityStats() { return { ...counts, remembered: tails.size }; },

    /** Puts a running entry back in the queue (a retry), keeping its place. */
    requeue(entry) {
      if (entry.state !== 'running') return;
      running.delete(entry);
      setState(entry, 'queued');
      push(entry);
    },

    /** A running entry finished: its key is free again. */
    finish(entry) {
      release(entry);
      setState(entry, 'done');
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
        if (entry.state === 'queued') out.queued.push(entry); else out.running.push(entry);
        release(entry);
        setState(entry, 'cancelled');
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
