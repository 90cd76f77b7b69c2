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

/** Default for the queue's affinitySkips. */
export const AFFINITY_SKIPS = 4;

/** At most this many entries wait for their busy workers per assign() call. */
const MAX_HELD = 64;

/** Heap order: lower priority first, then arrival. */
const less = (a, b) => a.priority < b.priority || (a.priority === b.priority && a.seq < b.seq);

/** A heap node is stale once its entry left the queue or got another priority (a newer node stands for it). */
const live = (node) => node.entry.state === 'queued' && node.priority === node.entry.priority;

/** A binary min-heap of {entry, priority, seq} nodes; stale nodes stay until popped or filtered. */
class EntryHeap {
  constructor() { this.nodes = []; }

  get size() { return this.nodes.length; }

  push(entry) {
    const heap = this.nodes;
    heap.push({ entry, priority: entry.priority, seq: entry.seq });
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i], heap[p])) break;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  }

  pop() {
    const heap = this.nodes;
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

  /** Entries of the live nodes, in heap order. */
  liveEntries() { return this.nodes.filter(live).map((n) => n.entry); }

  /** Drops the stale nodes (the rest keep heap order). */
  prune() { this.nodes = this.nodes.filter(live); }

  clear() { this.nodes = []; }
}

/**
 * The scheduler: a priority queue of entries with collapse keys, the running
 * set, and per worker the chunk it holds (its tail) for the affinity rule.
 */
export class RequestQueue {
  #useAffinity;
  #maxSkips;
  #heap = new EntryHeap();
  #byKey = new Map();
  #running = new Set();
  #tails = new Map();  // worker id -> affinity of the last entry sent there
  #wanted = new Map(); // affinity -> number of queued entries with it
  #counts = { affine: 0, held: 0, moved: 0 };
  #queued = 0;
  #seq = 0;

  /**
   * @param {{affinity?: boolean, affinitySkips?: number}} [options]
   *   affinity: send a request to the worker holding its chunk (default true);
   *   affinitySkips: how many later requests may overtake one that waits for
   *   its busy worker before it goes elsewhere (default AFFINITY_SKIPS; 0: never wait).
   */
  constructor(options = {}) {
    this.#useAffinity = options.affinity !== false;
    this.#maxSkips = Math.max(0, Math.floor(options.affinitySkips ?? AFFINITY_SKIPS));
  }

  /**
   * Queues an entry, or returns the queued/running entry with the same key
   * (whose priority drops to the smaller of the two).
   * @template {SchedEntry} T
   * @param {T} entry
   * @returns {{entry: T, collapsed: boolean}}
   */
  add(entry) {
    const same = entry.key !== undefined ? this.#byKey.get(entry.key) : undefined;
    if (same) {
      if (same.state === 'queued' && entry.priority < same.priority) {
        same.priority = entry.priority;
        this.#heap.push(same);
      } else if (entry.priority < same.priority) {
        same.priority = entry.priority;
      }
      return { entry: same, collapsed: true };
    }
    entry.seq = this.#seq++;
    entry.state = undefined;
    this.#setState(entry, 'queued');
    if (entry.key !== undefined) this.#byKey.set(entry.key, entry);
    this.#heap.push(entry);
    return { entry, collapsed: false };
  }

  /** Takes the most urgent queued entry and marks it running; undefined if none. */
  next() {
    while (this.#heap.size) {
      const node = this.#heap.pop();
      if (!live(node)) continue;
      this.#setState(node.entry, 'running');
      this.#running.add(node.entry);
      return node.entry;
    }
    return undefined;
  }

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
      const pick = this.#pick(room, held);
      if (pick === null) break;
      const { entry } = pick;
      this.#setState(entry, 'running');
      const worker = pick.worker === undefined ? this.#roomiest(room) : pick.worker;
      this.#running.add(entry);
      room.set(worker, room.get(worker) - 1);
      total -= 1;
      if (this.#useAffinity && entry.affinity !== undefined) this.#tails.set(worker, entry.affinity);
      for (const h of held) h.skips = (h.skips || 0) + 1;
      out.push({ entry, worker });
    }
    for (const h of held) this.#heap.push(h); // same priority and seq: back in its place
    return out;
  }

  /**
   * The next entry assign() sends and the worker it goes to (undefined: the
   * roomiest), or null when nothing is left. Entries whose affine worker is
   * full join `held` on the way, unless they have waited long enough.
   */
  #pick(room, held) {
    const due = held.findIndex((h) => h.skips >= this.#maxSkips);
    if (due >= 0) {
      // Overtaken often enough: it goes now, wherever there is room.
      const [entry] = held.splice(due, 1);
      this.#counts.moved += 1;
      return { entry, worker: undefined };
    }
    while (this.#heap.size) {
      const node = this.#heap.pop();
      if (!live(node)) continue;
      const entry = node.entry;
      const worker = this.#affineWorker(entry, room);
      if (worker === undefined) return { entry, worker };
      if (room.get(worker) !== 0) {
        this.#counts.affine += 1;
        return { entry, worker };
      }
      if ((entry.skips || 0) < this.#maxSkips && held.length < MAX_HELD) {
        if (!entry.held) { entry.held = true; this.#counts.held += 1; }
        held.push(entry);
        continue;
      }
      this.#counts.moved += 1;
      return { entry, worker: undefined };
    }
    return null;
  }

  /** A worker died, was replaced or got another world: it holds no chunk. */
  forgetWorker(id) {
    this.#tails.delete(id);
  }

  /** A new world everywhere (build, load): no worker holds a chunk of it. */
  forgetAll() {
    this.#tails.clear();
  }

  /** Ids of the workers whose kept chunk is this affinity, ascending (for tests and inspection). */
  workersFor(affinity) {
    return [...this.#tails].filter(([, tail]) => tail === affinity).map(([id]) => id).sort((a, b) => a - b);
  }

  /**
   * Entries assign() sent to their affine worker, entries that waited for a
   * busy one, entries that stopped waiting; and how many workers have a tail.
   */
  get affinityStats() { return { ...this.#counts, remembered: this.#tails.size }; }

  /** Puts a running entry back in the queue (a retry), keeping its place. */
  requeue(entry) {
    if (entry.state !== 'running') return;
    this.#running.delete(entry);
    this.#setState(entry, 'queued');
    this.#heap.push(entry);
  }

  /** A running entry finished: its key is free again. */
  finish(entry) {
    this.#release(entry);
    this.#setState(entry, 'done');
  }

  /**
   * Removes every queued or running entry the predicate accepts, marking
   * them 'cancelled' and freeing their keys (a new request for the key
   * starts afresh). Returns what was removed, by former state.
   * @param {(entry: SchedEntry) => boolean} pred
   */
  remove(pred) {
    const out = { queued: [], running: [] };
    for (const entry of [...this.#byKey.values(), ...this.#running, ...this.#heap.nodes.map((n) => n.entry)]) {
      if (entry.state !== 'queued' && entry.state !== 'running') continue;
      if (!pred(entry)) continue;
      if (entry.state === 'queued') out.queued.push(entry); else out.running.push(entry);
      this.#release(entry);
      this.#setState(entry, 'cancelled');
    }
    if (out.queued.length) this.#heap.prune();
    return out;
  }

  /**
   * Sets new priorities for queued entries: fn(entry) returns a number, or
   * undefined to keep the current one.
   * @param {(entry: SchedEntry) => number|undefined} fn
   */
  reprioritize(fn) {
    const entries = this.#heap.liveEntries();
    this.#heap.clear();
    for (const e of entries) {
      const p = fn(e);
      if (typeof p === 'number' && !Number.isNaN(p)) e.priority = p;
      this.#heap.push(e);
    }
  }

  /** Queued entries, most urgent first (a copy, for inspection). */
  queuedEntries() {
    return this.#heap.nodes.filter(live).sort((a, b) => (less(a, b) ? -1 : 1)).map((n) => n.entry);
  }

  get queued() { return this.#queued; }
  get running() { return this.#running.size; }

  /** Every change of an entry's state goes through here (queued count, wanted keys). */
  #setState(entry, state) {
    const a = entry.affinity;
    const wanted = this.#wanted;
    if (entry.state === 'queued') {
      this.#queued -= 1;
      if (a !== undefined) { const n = wanted.get(a) - 1; if (n > 0) wanted.set(a, n); else wanted.delete(a); }
    }
    if (state === 'queued') {
      this.#queued += 1;
      if (a !== undefined) wanted.set(a, (wanted.get(a) || 0) + 1);
    }
    entry.state = state;
  }

  /** The worker (among room, a Map id -> free places) whose tail is the entry's chunk. */
  #affineWorker(entry, room) {
    if (!this.#useAffinity || entry.affinity === undefined) return undefined;
    let found;
    for (const [id, tail] of this.#tails) {
      if (tail !== entry.affinity || !room.has(id)) continue;
      if (found === undefined || room.get(id) > room.get(found)) found = id;
    }
    return found;
  }

  /** The worker with the most room; ties: one whose kept chunk nobody waits for, then order given. */
  #roomiest(room) {
    let best;
    let bestScore = -Infinity;
    for (const [id, free] of room) {
      if (free <= 0) continue;
      const t = this.#tails.get(id);
      const score = 2 * free + (t !== undefined && this.#wanted.has(t) ? 0 : 1);
      if (score > bestScore) { best = id; bestScore = score; }
    }
    return best;
  }

  #release(entry) {
    if (entry.key !== undefined && this.#byKey.get(entry.key) === entry) this.#byKey.delete(entry.key);
    this.#running.delete(entry);
  }
}

/**
 * Creates an empty scheduler (a RequestQueue).
 * @param {{affinity?: boolean, affinitySkips?: number}} [options] as RequestQueue's constructor
 */
export function createRequestQueue(options = {}) {
  return new RequestQueue(options);
}
