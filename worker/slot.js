// This module is one place in the worker pool (worker/client.js): the
// lifecycle of the worker that fills it, as an explicit state machine, and
// the requests that worker owes answers for. The pool decides when a slot
// moves; the slot refuses a move its state does not allow, so a late death
// notice or a double restart shows up as an error instead of a slot that is
// counted twice.
//
//   starting --started(handle)--> live --died()--> starting   (a replacement is on its way)
//   starting --giveUp()---------> broken                      (the restart failed)
//   live ------died(), too often-> broken                     (MAX_CONSECUTIVE_CRASHES)
//
// A live slot serves the pool's world of one epoch (serve/serves); requests
// sent while it is starting wait in its backlog until the replacement runs.

/** Slot states. */
export const SLOT = Object.freeze({
  STARTING: 'starting', // no worker yet, or the last one died and its replacement is being spawned
  LIVE: 'live',         // a worker runs and answers
  BROKEN: 'broken',     // given up: never used again
});

/** Consecutive crashes after which a slot is given up. */
export const MAX_CONSECUTIVE_CRASHES = 3;

export class WorkerSlot {
  /** @param {number} index the slot's place in the pool (the scheduler's worker id) */
  constructor(index) {
    this.index = index;
    this.state = SLOT.STARTING;
    /** the worker's handle from spawn.js ({post, terminate}), or null before the first start */
    this.handle = null;
    /** id -> entry: requests posted to this worker and not yet answered */
    this.inflight = new Map();
    /** entries sent while starting, posted once the worker runs */
    this.backlog = [];
    /** deaths since the last answer */
    this.crashStreak = 0;
    /** generation of the world the worker holds (from its last build or load reply) */
    this.holds = null;
    /** the pool epoch whose world this worker serves; -1 for none */
    this.readyEpoch = -1;
  }

  /** True unless a worker runs in this slot. */
  get dead() { return this.state !== SLOT.LIVE; }
  get broken() { return this.state === SLOT.BROKEN; }

  _move(to, from) {
    if (this.state !== from) throw new Error(`worker slot ${this.index}: ${this.state} -> ${to} is not a lifecycle step`);
    this.state = to;
  }

  /** starting -> live: a fresh worker runs; it holds no world yet. */
  started(handle) {
    this._move(SLOT.LIVE, SLOT.STARTING);
    this.handle = handle;
    this.holds = null;
    this.readyEpoch = -1;
  }

  /**
   * live -> starting (or broken after too many deaths in a row): the worker
   * is terminated and every request it owed is returned for a retry.
   * @returns {object[]} the entries in flight and in the backlog
   */
  died() {
    this._move(SLOT.STARTING, SLOT.LIVE);
    this.crashStreak += 1;
    const lost = [...this.inflight.values(), ...this.backlog.splice(0)];
    this.inflight.clear();
    this.handle.terminate().catch(() => {});
    if (this.crashStreak > MAX_CONSECUTIVE_CRASHES) this.state = SLOT.BROKEN;
    return lost;
  }

  /** starting -> broken: the replacement could not be started. */
  giveUp() {
    this._move(SLOT.BROKEN, SLOT.STARTING);
  }

  /** The worker answered something: its crash streak is over. */
  answered() { this.crashStreak = 0; }

  /** The worker holds the world of this epoch. */
  serve(epoch) { this.readyEpoch = epoch; }

  /** Whether the slot can take requests for the world of this epoch. */
  serves(epoch) { return this.state === SLOT.LIVE && this.readyEpoch === epoch; }

  /**
   * Posts a request to the worker, or keeps it for the replacement while
   * starting (the message is made only when it is posted, so a transferred
   * buffer is never lost with a dead worker). Returns true when it was posted.
   * @param {{id: number}} entry
   * @param {() => {msg: object, transfer: ArrayBuffer[]}} message
   */
  post(entry, message) {
    if (this.state !== SLOT.LIVE) {
      this.backlog.push(entry);
      return false;
    }
    this.inflight.set(entry.id, entry);
    const { msg, transfer } = message();
    this.handle.post(msg, transfer);
    return true;
  }

  /** Terminates the worker (the pool is done); the slot is not used afterwards. */
  terminate() {
    return this.handle ? this.handle.terminate().catch(() => {}) : Promise.resolve();
  }
}
