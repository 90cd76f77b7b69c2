// This module is the worker pool itself (worker/client.js's createPool starts
// one): a class over its worker slots (slot.js: each worker's lifecycle and
// the requests it owes) and its request queue (request_queue.js: priorities,
// collapsing, affinity). The pool owns what spans them: the world every
// worker must hold (epochs, the snapshot that replacements load), replies and
// their promises, request timeouts, and the recovery of crashed or stuck
// workers, which are replaced and their requests retried once.
import { MSG, ERR, protocolError, wireToError } from './protocol.js';
import { RequestQueue } from './request_queue.js';
import { spawnWorker } from './spawn.js';
import { worldRequests } from './pool_requests.js';
import { WorkerSlot } from './slot.js';
import { PendingRequests, publicView } from './pool_entries.js';
import { PoolTiles, tiledRequests } from './tiles.js';
import { encodeEdits } from '../wasm/ct_edits.mjs';

/** Default milliseconds a request may go unanswered before its worker is replaced. */
export const DEFAULT_TIMEOUT_MS = 60000;

const terminatedError = () => protocolError(ERR.TERMINATED, 'the pool was terminated');
const emptyMessage = () => ({ msg: {}, transfer: [] });

/** @implements {import('./client').Pool} */
export class WorkerPool {
  #options;
  #pipeline;
  #sched;
  #pending;               // every request not yet settled (scheduled or control), with its timer
  #slots = [];
  #epoch = 0;
  #confirmedEpoch = -1;   // epoch whose world all live slots hold or are loading
  #generation = null;     // generation of the confirmed world
  #snapshot = null;       // its CTWORLD2 bytes, for replacements
  #worldError = null;     // why there is no world (after a failed first build)
  #terminated = false;
  #building = false;      // a build or load is on its way to becoming the world
  #counters = { crashes: 0, restarts: 0, dropped: 0, retried: 0, timeouts: 0, buildsStopped: 0 };
  #tiles = null;          // the baked tiles of options.tiles (worker/tiles.js), or null

  /**
   * Starts `count` workers, waits until each has loaded the core and answered
   * a config request, and returns the pool; on failure every worker is
   * terminated and the error thrown. Options as createPool's.
   * @param {object} options
   * @param {number} count
   */
  static async start(options, count) {
    const pool = new WorkerPool(options, count);
    let hello;
    try {
      if (pool.#tiles) await pool.#tiles.open();
      await Promise.all(pool.#slots.map((s) => pool.#startSlot(s)));
      hello = (await Promise.all(pool.#slots.map((s) => pool.#control(s, MSG.CONFIG, emptyMessage))))[0];
    } catch (e) {
      pool.#terminated = true;
      await Promise.all(pool.#slots.map((s) => s.terminate()));
      throw e;
    }
    pool.knobs = hello.knobs;
    pool.presets = hello.presets;
    pool.#pending.timing = true;   // from now on a request left unanswered marks its worker stuck
    return pool;
  }

  /** Use WorkerPool.start (createPool): a pool is only usable once its workers run. */
  constructor(options, count) {
    this.#options = options;
    this.#pipeline = Math.max(1, Math.floor(options.pipeline || 2));
    this.#pending = new PendingRequests(options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : Math.max(0, Number(options.timeoutMs) || 0));
    this.#sched = new RequestQueue({ affinity: options.affinity !== false });
    for (let i = 0; i < count; i++) this.#slots.push(new WorkerSlot(i));
    /** the knob table and the preset names, read from the core in a worker once the pool runs */
    this.knobs = null;
    this.presets = null;
    // chunk, mesh, sample, rivers, snapshot, request, address: scheduled world requests.
    Object.assign(this, worldRequests((type, make, o) => this.#request(type, make, o)));
    // Baked tiles: chunk, mesh, collider and scatter requests of baked keys carry their tile's entry.
    if (options.tiles) {
      this.#tiles = new PoolTiles(options.tiles);
      const base = { mesh: this.mesh, collider: this.collider, chunk: this.chunk, scatter: this.scatter };
      Object.assign(this, tiledRequests(this.#tiles, base, () => this.#generation));
    }
  }

  /** Loads the world snapshot of the pool's bake (createPool({tiles})), checked against its manifest. */
  async loadBake() {
    if (!this.#tiles) throw protocolError(ERR.MESSAGE, 'loadBake needs a pool created with the tiles option');
    return this.load(await this.#tiles.worldBytes());
  }

  /* ---- the public face (worker/client.d.ts Pool) ---- */

  build(spec = {}, { onProgress } = {}) {
    // Shared memory lets a cancel reach the build mid-run (Node; browsers
    // when cross-origin isolated); without it a stopped build's worker is replaced.
    const cancelFlag = typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(4) : null;
    let buildId = 0;
    const done = this.#establish((lead) => {
      const p = this.#control(lead, MSG.BUILD, () => ({ msg: { ...spec, snapshot: true, ...(cancelFlag ? { cancelFlag } : {}) }, transfer: [] }),
        { onProgress, cancelFlag });
      buildId = p.id;
      return p;
    }, 'a new build started');
    done.id = buildId;   // pool.cancel(id) stops it at its next progress tick
    return done;
  }

  load(bytes) {
    const u8 = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
    if (!(u8 instanceof Uint8Array)) return Promise.reject(protocolError(ERR.MESSAGE, 'load needs a Uint8Array or ArrayBuffer'));
    const own = u8.slice();
    return this.#establish((lead) => this.#control(lead, MSG.LOAD, () => { const c = own.slice(); return { msg: { bytes: c }, transfer: [c.buffer] }; })
      .then((r) => ({ ...r, snapshot: own })), 'a world was loaded');
  }

  /**
   * Applies an edit set (edit objects or CTEDITS bytes) over the base world
   * in every worker: the first applies it, the others load its snapshot
   * (the base world plus the set). A new epoch, like a build: requests made
   * before are cancelled and the workers' chunk affinity forgotten, so
   * chunks and meshes asked after it resolves come from the edited world.
   */
  withEdits(edits) {
    let bytes;
    try {
      bytes = edits instanceof Uint8Array ? edits.slice() : encodeEdits(edits);
    } catch (e) {
      return Promise.reject(e);
    }
    let editSetId = null;
    return this.#establish((lead) => this.#control(lead, MSG.EDITS, () => { const c = bytes.slice(); return { msg: { bytes: c, snapshot: true }, transfer: [c.buffer] }; })
      .then((r) => { editSetId = r.editSetId; return r; }), 'an edit set was applied').then((r) => ({ ...r, editSetId }));
  }

  cancel(target) {
    const test = typeof target === 'function' ? target : (e) => e.id === target;
    return this.#cancelWhere(test, ERR.CANCELLED, (e) => `request ${e.id} cancelled by the caller`);
  }

  reprioritize(fn) {
    this.#sched.reprioritize((e) => fn(publicView(e)));
  }

  async workerStats() {
    return Promise.all(this.#live().filter((s) => !s.dead).map((s) => this.#control(s, MSG.STATS, emptyMessage)
      .then((r) => ({ worker: s.index, ...r }))));
  }

  stats() {
    let inFlight = 0;
    for (const s of this.#slots) for (const e of s.inflight.values()) if (!e.cancelled) inFlight += 1;
    return { workers: this.#live().length, inFlight, queued: this.#sched.queued, epoch: this.#epoch, generation: this.#generation,
      ...this.#counters, affinity: this.#sched.affinityStats, ...(this.#tiles ? { tiles: this.#tiles.stats() } : {}) };
  }

  async terminate() {
    if (this.#terminated) return;
    this.#cancelWhere(() => true, ERR.TERMINATED, () => 'the pool was terminated');
    this.#terminated = true;
    for (const e of this.#pending.all()) this.#pending.settle(e, terminatedError());
    this.#snapshot = null;
    await Promise.all(this.#slots.map((s) => s.terminate()));
  }

  /* ---- requests: sent to one worker, or scheduled ---- */

  #live() { return this.#slots.filter((s) => !s.broken); }

  #ready(s) { return s.serves(this.#epoch) && this.#confirmedEpoch === this.#epoch; }

  #send(entry, slot) {
    entry.slot = slot;
    const posted = slot.post(entry, () => {
      const { msg, transfer } = entry.make();
      return { msg: { ...msg, id: entry.id, type: entry.type, attempt: entry.attempts }, transfer };
    });
    if (!posted) return; // in the slot's backlog until its replacement runs
    entry.attempts += 1;
    this.#pending.arm(entry, () => this.#onTimeout(slot, entry));
  }

  /** A request addressed to one worker (build, load, stats...), not scheduled. */
  #control(slot, type, make, extra) {
    const entry = this.#pending.create(type, make, this.#epoch, { control: true, ...extra });
    this.#send(entry, slot);
    return entry.promise;
  }

  /** A world request, scheduled by priority. */
  #request(type, make, { key, priority = 0, info, affinity } = {}) {
    if (this.#terminated) return Promise.reject(terminatedError());
    if (!this.#building && this.#confirmedEpoch !== this.#epoch) {
      const why = this.#worldError ? `no world: ${this.#worldError.message}` : 'no world yet: call pool.build() or pool.load() first';
      return Promise.reject(protocolError(ERR.NO_WORLD, why));
    }
    const entry = this.#pending.create(type, make, this.#epoch, { key, priority, info, affinity });
    this.#pending.unlist(entry);
    const added = this.#sched.add(entry);
    if (added.collapsed) return added.entry.promise;
    this.#pending.list(entry);
    this.#pump();
    return entry.promise;
  }

  /** Sends queued requests to workers with room; request_queue.js picks which goes where. */
  #pump() {
    if (this.#terminated || this.#sched.queued === 0) return;
    const workers = this.#slots.filter((s) => this.#ready(s)).map((s) => ({ id: s.index, free: this.#pipeline - s.inflight.size }));
    for (const { entry, worker } of this.#sched.assign(workers)) this.#send(entry, this.#slots[worker]);
  }

  #onMessage(slot, handle, data) {
    if (handle !== slot.handle || !data || typeof data !== 'object') return;
    const entry = slot.inflight.get(data.id);
    if (data.type === MSG.PROGRESS) {
      if (entry && !entry.cancelled && entry.onProgress) entry.onProgress(data.stage, data.fraction);
      return;
    }
    slot.answered();
    if (!entry) { this.#pump(); return; } // a cancel acknowledgement
    slot.inflight.delete(data.id);
    this.#pending.disarm(entry);
    if (!entry.control) this.#sched.finish(entry);
    if (data.ok && data.result && (entry.type === MSG.BUILD || entry.type === MSG.LOAD)) slot.holds = data.result.generation;
    if (entry.cancelled || entry.settled || entry.epoch !== this.#epoch) {
      this.#counters.dropped += 1; // a late reply from an older world or a cancelled request
    } else if (data.ok) {
      const result = data.result;
      if (!entry.control && result && typeof result === 'object' && !ArrayBuffer.isView(result)) result.epoch = entry.epoch;
      this.#pending.settle(entry, null, result);
    } else {
      this.#pending.settle(entry, wireToError(data.error));
    }
    this.#pump();
  }

  /* ---- request timeouts (pool_entries.js): a worker that stops answering is replaced ---- */

  #onTimeout(slot, entry) {
    entry.timer = null;
    if (entry.settled || entry.slot !== slot || !slot.inflight.has(entry.id)) return;
    this.#counters.timeouts += 1;
    entry.timedOut = true;
    this.#onDeath(slot, slot.handle, `request ${entry.id} (${entry.type}) got no reply within ${this.#pending.timeoutMs} ms`, entry);
  }

  /* ---- workers: start, load the world, replace after a death ---- */

  async #startSlot(slot) {
    const handle = await spawnWorker(this.#options, (d) => this.#onMessage(slot, handle, d), (reason) => this.#onDeath(slot, handle, reason));
    slot.started(handle);
    return handle;
  }

  #loadInto(slot) {
    const bytes = this.#snapshot;
    this.#sched.forgetWorker(slot.index);
    return this.#control(slot, MSG.LOAD, () => { const copy = bytes.slice(); return { msg: { bytes: copy }, transfer: [copy.buffer] }; })
      .then((r) => {
        if (r.generation !== this.#generation) throw protocolError(ERR.GENERATION, `worker ${slot.index} loaded ${r.generation}, expected ${this.#generation}`);
        slot.serve(this.#epoch);
        this.#pump();
        return r;
      });
  }

  /** A worker died or (stuck set) stopped answering: replace it, retry its requests once. */
  async #onDeath(slot, handle, reason, stuck = null) {
    if (handle !== slot.handle || this.#terminated || slot.dead) return;
    this.#sched.forgetWorker(slot.index); // a replacement starts with an empty world
    this.#counters.crashes += 1;
    const retry = this.#sortLost(slot, slot.died(), reason, stuck);
    if (slot.broken) {
      for (const e of retry) this.#pending.settle(e, protocolError(ERR.WORKER, `worker ${slot.index} crashed ${slot.crashStreak} times in a row: ${reason}`));
      this.#failIfNoWorkers(reason);
      this.#pump();
      return;
    }
    try {
      await this.#startSlot(slot);
      this.#counters.restarts += 1;
    } catch (err) {
      slot.giveUp();
      for (const e of [...retry, ...slot.backlog.splice(0)]) this.#pending.settle(e, protocolError(ERR.WORKER, `worker ${slot.index} could not be restarted: ${err.message}`));
      this.#failIfNoWorkers(reason);
      return;
    }
    this.#resume(slot, retry);
  }

  /**
   * What a dead worker owed: requests that no longer matter are finished,
   * those on their second failure rejected, scheduled ones requeued; returns
   * the control requests to send again to the replacement.
   */
  #sortLost(slot, lost, reason, stuck) {
    for (const e of lost) this.#pending.disarm(e);
    const retry = [];
    for (const e of lost) {
      if (e.cancelled || e.settled || e.epoch !== this.#epoch) { if (!e.control) this.#sched.finish(e); continue; }
      if (stuck && e !== stuck) e.attempts -= 1;   // a bystander: the worker was stuck on another request
      if (e.attempts >= 2) {
        if (!e.control) this.#sched.finish(e);
        this.#pending.settle(e, e.timedOut
          ? protocolError(ERR.TIMEOUT, `request ${e.id} (${e.type}) timed out twice (last: worker ${slot.index}): ${reason}`)
          : protocolError(ERR.WORKER, `request ${e.id} (${e.type}) crashed its worker twice (last: worker ${slot.index}): ${reason}`));
        continue;
      }
      this.#counters.retried += 1;
      if (e.control) retry.push(e); else this.#sched.requeue(e);
    }
    return retry;
  }

  /** A replacement runs: it loads the world, then gets the retried and backlogged requests. */
  #resume(slot, retry) {
    const reload = this.#confirmedEpoch === this.#epoch && this.#snapshot ? this.#loadInto(slot) : null;
    if (reload) reload.catch(() => {});
    for (const e of retry) {
      if (e.type === MSG.LOAD && reload) reload.then((r) => this.#pending.settle(e, null, r), (err) => this.#pending.settle(e, err));
      else this.#send(e, slot);
    }
    for (const e of slot.backlog.splice(0)) this.#send(e, slot);
    this.#pump();
  }

  #failIfNoWorkers(reason) {
    if (this.#live().length) return;
    const err = () => protocolError(ERR.WORKER, `every worker has crashed repeatedly: ${reason}`);
    for (const e of this.#sched.remove(() => true).queued) this.#pending.settle(e, err());
    for (const e of this.#pending.all()) this.#pending.settle(e, err());
  }

  /* ---- cancelling: by the caller, by a new world, by terminate ---- */

  /** Stops a running build (pool.cancel or a newer build). */
  #stopBuild(entry) {
    if (entry.type !== MSG.BUILD || entry.stopped) return;
    entry.stopped = true;
    this.#counters.buildsStopped += 1;
    // The worker is inside a synchronous build; only shared memory reaches
    // it, read at each progress tick. Without it, replace the worker.
    if (entry.cancelFlag) Atomics.store(new Int32Array(entry.cancelFlag), 0, 1);
    else if (entry.slot && !entry.slot.dead && entry.slot.inflight.has(entry.id)) this.#onDeath(entry.slot, entry.slot.handle, 'build stopped');
  }

  /** Cancels pending requests the test accepts; returns how many. */
  #cancelWhere(test, code, reason) {
    const removed = this.#sched.remove((e) => test(publicView(e)));
    for (const e of removed.queued) this.#pending.settle(e, protocolError(code, reason(e)));
    for (const e of removed.running) {
      e.cancelled = true;
      this.#pending.settle(e, protocolError(code, reason(e)));
      if (e.slot && !e.slot.dead && e.slot.inflight.has(e.id)) e.slot.handle.post({ id: this.#pending.nextId(), type: MSG.CANCEL, target: e.id }, []);
    }
    let builds = 0;
    for (const e of this.#pending.all()) {
      if (e.type !== MSG.BUILD || e.settled || !test(publicView(e))) continue;
      e.cancelled = true;
      this.#stopBuild(e);
      this.#pending.settle(e, protocolError(code, reason(e)));
      builds += 1;
    }
    return removed.queued.length + removed.running.length + builds;
  }

  /* ---- the world: epochs, build and load ---- */

  /** Starts a new epoch: everything pending for the old world is cancelled. */
  #bump(reason) {
    this.#epoch += 1;
    this.#sched.forgetAll(); // chunks kept by workers belong to the old world
    this.#cancelWhere(() => true, ERR.CANCELLED, (e) => `request ${e.id} cancelled: ${reason}`);
    for (const e of this.#pending.all()) {
      if (e.control && e.epoch < this.#epoch) {
        e.cancelled = true;
        this.#stopBuild(e);
        this.#pending.settle(e, protocolError(ERR.CANCELLED, `${e.type} cancelled: ${reason}`));
      }
    }
    return this.#epoch;
  }

  /** Runs first() on one worker, then loads its snapshot everywhere else. */
  async #establish(first, reason) {
    if (this.#terminated) throw terminatedError();
    const my = this.#bump(reason);
    this.#building = true;
    const lead = this.#live().find((s) => !s.dead) || this.#live()[0];
    if (!lead) throw protocolError(ERR.WORKER, 'no live workers');
    let r;
    try {
      r = await first(lead);
    } catch (e) {
      if (my === this.#epoch) this.#buildFailed(e);
      throw e;
    }
    const superseded = () => protocolError(ERR.CANCELLED, `${reason}: superseded by a newer build or load`);
    if (my !== this.#epoch) throw superseded();
    this.#generation = r.generation;
    this.#snapshot = r.snapshot;
    this.#worldError = null;
    this.#confirmedEpoch = this.#epoch;
    this.#building = false;
    lead.serve(this.#epoch);
    this.#pump();
    const loads = await Promise.all(this.#live().filter((s) => s !== lead && !s.dead).map((s) => this.#loadInto(s)));
    if (my !== this.#epoch) throw superseded();
    const generation = this.#generation;
    for (const l of loads) if (l.generation !== generation) throw protocolError(ERR.GENERATION, `workers disagree: ${l.generation} vs ${generation}`);
    return { generation, epoch: my, config: r.config, stats: r.stats };
  }

  /** The newest build or load failed: serve the previous world again, or say there is none. */
  #buildFailed(e) {
    this.#building = false;
    if (this.#generation !== null) {
      // The workers keep the previous world after a failed build: serve it again.
      this.#confirmedEpoch = this.#epoch;
      for (const s of this.#live()) if (s.holds === this.#generation) s.serve(this.#epoch); else if (!s.dead) this.#loadInto(s).catch(() => {});
      this.#pump();
    } else {
      this.#worldError = e;
      this.#cancelWhere(() => true, ERR.NO_WORLD, () => `no world: ${e.message}`);
    }
  }
}
