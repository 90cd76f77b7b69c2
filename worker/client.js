// This module is the promise-based worker pool that pages and Node programs
// use: it builds the world once in one worker, hands the snapshot to the
// others, schedules chunk/mesh/sample requests by caller priority (one in
// flight per key, repeats collapse), sends a chunk's requests back to the
// worker that holds it (affinity, see scheduler.js), cancels, drops late
// replies after a rebuild (epochs), replaces crashed workers and retries their
// requests once.
import { MSG, ERR, protocolError, wireToError, normalizeKey, keyString } from './protocol.js';
import { createScheduler } from './scheduler.js';
import { spawnWorker } from './spawn.js';
import { defaultWorkerCount, stableJson, toDirs } from './pool_util.js';

export { MSG, ERR, normalizeKey, keyString };

/** Consecutive crashes after which a worker slot is given up. */
const MAX_CONSECUTIVE_CRASHES = 3;
/** Default milliseconds a request may go unanswered before its worker is replaced. */
const DEFAULT_TIMEOUT_MS = 60000;

/**
 * Starts a pool of protocol workers and waits until each has loaded the core.
 * @param {{workers?: number, wasmUrl?: string|URL, workerUrl?: string|URL,
 *          pipeline?: number, affinity?: boolean, testHooks?: boolean, timeoutMs?: number}} [options]
 *   workers: default min(4, max(1, hardwareConcurrency - 1)); pipeline:
 *   requests in flight per worker (default 2, so a cancel can still catch the
 *   second one before it runs); affinity: false sends every request to the
 *   freest worker, ignoring which one holds its chunk (default true);
 *   testHooks: enables test-crash/test-stall; timeoutMs: a request other than
 *   build left unanswered this long marks its worker stuck: the worker is
 *   replaced and its requests retried once, then rejected with CT_ERR_TIMEOUT
 *   (default 60000; 0 = never). Builds have no timeout: cancel them instead.
 * @returns {Promise<import('./client').Pool>}
 */
export async function createPool(options = {}) {
  const count = Math.max(1, Math.floor(options.workers || (await defaultWorkerCount())));
  const pipeline = Math.max(1, Math.floor(options.pipeline || 2));
  const timeoutMs = options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : Math.max(0, Number(options.timeoutMs) || 0);
  const sched = createScheduler({ affinity: options.affinity !== false });
  const entries = new Map(); // id -> pending entry (scheduled or control)
  const slots = [];
  let nextId = 1;
  let epoch = 0;
  let confirmedEpoch = -1;   // epoch whose world all live slots hold or are loading
  let generation = null;     // generation of the confirmed world
  let snapshot = null;       // its CTWORLD2 bytes, for replacements
  let worldError = null;     // why there is no world (after a failed first build)
  let terminated = false;
  let building = false;      // a build or load is on its way to becoming the world
  let started = false;       // createPool has returned: request timeouts apply
  const counters = { crashes: 0, restarts: 0, dropped: 0, retried: 0, timeouts: 0, buildsStopped: 0 };

  const live = () => slots.filter((s) => !s.broken);
  const ready = (s) => !s.broken && !s.dead && s.readyEpoch === epoch && confirmedEpoch === epoch;

  function settle(entry, error, result) {
    if (entry.settled) return;
    entry.settled = true;
    disarm(entry);
    entries.delete(entry.id);
    if (error) entry.reject(error); else entry.resolve(result);
  }

  function send(entry, slot) {
    entry.slot = slot;
    if (slot.dead) { slot.backlog.push(entry); return; } // sent once the replacement runs
    slot.inflight.set(entry.id, entry);
    const { msg, transfer } = entry.make();
    slot.handle.post({ ...msg, id: entry.id, type: entry.type, attempt: entry.attempts }, transfer);
    entry.attempts += 1;
    arm(entry, slot);
  }

  /* ---- request timeouts: a worker that stops answering is replaced ---- */
  function arm(entry, slot) {
    entry.timedOut = false;
    // Not while the pool starts (a cold worker compiling the core is slow, not stuck).
    if (!timeoutMs || !started || entry.type === MSG.BUILD) return;
    entry.timer = setTimeout(() => onTimeout(slot, entry), timeoutMs);
    if (entry.timer.unref) entry.timer.unref();   // never keeps Node alive by itself
  }

  function disarm(entry) {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
  }

  function onTimeout(slot, entry) {
    entry.timer = null;
    if (entry.settled || entry.slot !== slot || !slot.inflight.has(entry.id)) return;
    counters.timeouts += 1;
    entry.timedOut = true;
    onDeath(slot, slot.handle, `request ${entry.id} (${entry.type}) got no reply within ${timeoutMs} ms`, entry);
  }

  /* ---- stopping a running build (pool.cancel or a newer build) ---- */
  function stopBuild(entry) {
    if (entry.type !== MSG.BUILD || entry.stopped) return;
    entry.stopped = true;
    counters.buildsStopped += 1;
    // The worker is inside a synchronous build; only shared memory reaches
    // it, read at each progress tick. Without it, replace the worker.
    if (entry.cancelFlag) Atomics.store(new Int32Array(entry.cancelFlag), 0, 1);
    else if (entry.slot && !entry.slot.dead && entry.slot.inflight.has(entry.id)) onDeath(entry.slot, entry.slot.handle, 'build stopped');
  }

  function newEntry(type, make, extra = {}) {
    const entry = { id: nextId++, type, make, epoch, attempts: 0, settled: false, cancelled: false, ...extra };
    entry.promise = new Promise((resolve, reject) => { entry.resolve = resolve; entry.reject = reject; });
    entry.promise.id = entry.id;
    entry.promise.catch(() => {}); // callers may drop promises they cancelled
    entries.set(entry.id, entry);
    return entry;
  }

  /** A request addressed to one worker (build, load, stats...), not scheduled. */
  function control(slot, type, make, extra) {
    const entry = newEntry(type, make, { control: true, ...extra });
    send(entry, slot);
    return entry.promise;
  }

  /** A world request, scheduled by priority. */
  function request(type, make, { key, priority = 0, info, affinity } = {}) {
    if (terminated) return Promise.reject(protocolError(ERR.TERMINATED, 'the pool was terminated'));
    if (!building && confirmedEpoch !== epoch) {
      const why = worldError ? `no world: ${worldError.message}` : 'no world yet: call pool.build() or pool.load() first';
      return Promise.reject(protocolError(ERR.NO_WORLD, why));
    }
    const entry = newEntry(type, make, { key, priority, info, affinity });
    entries.delete(entry.id);
    const added = sched.add(entry);
    if (added.collapsed) return added.entry.promise;
    entries.set(entry.id, entry);
    pump();
    return entry.promise;
  }

  /** Sends queued requests to workers with room; scheduler.js picks which goes where. */
  function pump() {
    if (terminated || sched.queued === 0) return;
    const workers = slots.filter(ready).map((s) => ({ id: s.index, free: pipeline - s.inflight.size }));
    for (const { entry, worker } of sched.assign(workers)) send(entry, slots[worker]);
  }

  function onMessage(slot, handle, data) {
    if (handle !== slot.handle || !data || typeof data !== 'object') return;
    const entry = slot.inflight.get(data.id);
    if (data.type === MSG.PROGRESS) {
      if (entry && !entry.cancelled && entry.onProgress) entry.onProgress(data.stage, data.fraction);
      return;
    }
    slot.crashStreak = 0;
    if (!entry) { pump(); return; } // a cancel acknowledgement
    slot.inflight.delete(data.id);
    disarm(entry);
    if (!entry.control) sched.finish(entry);
    if (data.ok && data.result && (entry.type === MSG.BUILD || entry.type === MSG.LOAD)) slot.holds = data.result.generation;
    if (entry.cancelled || entry.settled || entry.epoch !== epoch) {
      counters.dropped += 1; // a late reply from an older world or a cancelled request
    } else if (data.ok) {
      const result = data.result;
      if (!entry.control && result && typeof result === 'object' && !ArrayBuffer.isView(result)) result.epoch = entry.epoch;
      settle(entry, null, result);
    } else {
      settle(entry, wireToError(data.error));
    }
    pump();
  }

  async function startSlot(slot) {
    const handle = await spawnWorker(options, (d) => onMessage(slot, handle, d), (reason) => onDeath(slot, handle, reason));
    slot.handle = handle;
    slot.dead = false;
    slot.holds = null;
    slot.readyEpoch = -1;
    return handle;
  }

  function loadInto(slot) {
    const bytes = snapshot;
    sched.forgetWorker(slot.index);
    return control(slot, MSG.LOAD, () => { const copy = bytes.slice(); return { msg: { bytes: copy }, transfer: [copy.buffer] }; })
      .then((r) => {
        if (r.generation !== generation) throw protocolError(ERR.GENERATION, `worker ${slot.index} loaded ${r.generation}, expected ${generation}`);
        slot.readyEpoch = epoch;
        pump();
        return r;
      });
  }

  /** A worker died or (stuck set) stopped answering: replace it, retry its requests once. */
  async function onDeath(slot, handle, reason, stuck = null) {
    if (handle !== slot.handle || terminated || slot.dead) return;
    slot.dead = true;
    sched.forgetWorker(slot.index); // a replacement starts with an empty world
    counters.crashes += 1;
    slot.crashStreak += 1;
    const lost = [...slot.inflight.values(), ...slot.backlog.splice(0)];
    for (const e of lost) disarm(e);
    slot.inflight.clear();
    handle.terminate().catch(() => {});
    if (slot.crashStreak > MAX_CONSECUTIVE_CRASHES) slot.broken = true;
    const retry = [];
    for (const e of lost) {
      if (e.cancelled || e.settled || e.epoch !== epoch) { if (!e.control) sched.finish(e); continue; }
      if (stuck && e !== stuck) e.attempts -= 1;   // a bystander: the worker was stuck on another request
      if (e.attempts >= 2) {
        if (!e.control) sched.finish(e);
        settle(e, e.timedOut
          ? protocolError(ERR.TIMEOUT, `request ${e.id} (${e.type}) timed out twice (last: worker ${slot.index}): ${reason}`)
          : protocolError(ERR.WORKER, `request ${e.id} (${e.type}) crashed its worker twice (last: worker ${slot.index}): ${reason}`));
        continue;
      }
      counters.retried += 1;
      if (e.control) retry.push(e); else sched.requeue(e);
    }
    if (slot.broken) {
      for (const e of retry) settle(e, protocolError(ERR.WORKER, `worker ${slot.index} crashed ${slot.crashStreak} times in a row: ${reason}`));
      failIfNoWorkers(reason);
      pump();
      return;
    }
    try {
      await startSlot(slot);
      counters.restarts += 1;
    } catch (err) {
      slot.broken = true;
      for (const e of [...retry, ...slot.backlog.splice(0)]) settle(e, protocolError(ERR.WORKER, `worker ${slot.index} could not be restarted: ${err.message}`));
      failIfNoWorkers(reason);
      return;
    }
    const reload = confirmedEpoch === epoch && snapshot ? loadInto(slot) : null;
    if (reload) reload.catch(() => {});
    for (const e of retry) {
      if (e.type === MSG.LOAD && reload) reload.then((r) => settle(e, null, r), (err) => settle(e, err));
      else send(e, slot);
    }
    for (const e of slot.backlog.splice(0)) send(e, slot);
    pump();
  }

  function failIfNoWorkers(reason) {
    if (live().length) return;
    const err = () => protocolError(ERR.WORKER, `every worker has crashed repeatedly: ${reason}`);
    for (const e of sched.remove(() => true).queued) settle(e, err());
    for (const e of [...entries.values()]) settle(e, err());
  }

  /** Cancels pending requests the test accepts; returns how many. */
  function cancelWhere(test, code, reason) {
    const removed = sched.remove((e) => test(publicView(e)));
    for (const e of removed.queued) settle(e, protocolError(code, reason(e)));
    for (const e of removed.running) {
      e.cancelled = true;
      settle(e, protocolError(code, reason(e)));
      if (e.slot && !e.slot.dead && e.slot.inflight.has(e.id)) e.slot.handle.post({ id: nextId++, type: MSG.CANCEL, target: e.id }, []);
    }
    let builds = 0;
    for (const e of [...entries.values()]) {
      if (e.type !== MSG.BUILD || e.settled || !test(publicView(e))) continue;
      e.cancelled = true;
      stopBuild(e);
      settle(e, protocolError(code, reason(e)));
      builds += 1;
    }
    return removed.queued.length + removed.running.length + builds;
  }

  function publicView(e) {
    return { id: e.id, type: e.type, key: e.info && e.info.key, options: e.info && e.info.options, priority: e.priority, epoch: e.epoch, state: e.state };
  }

  /** Starts a new epoch: everything pending for the old world is cancelled. */
  function bump(reason) {
    epoch += 1;
    sched.forgetAll(); // chunks kept by workers belong to the old world
    cancelWhere(() => true, ERR.CANCELLED, (e) => `request ${e.id} cancelled: ${reason}`);
    for (const e of [...entries.values()]) {
      if (e.control && e.epoch < epoch) {
        e.cancelled = true;
        stopBuild(e);
        settle(e, protocolError(ERR.CANCELLED, `${e.type} cancelled: ${reason}`));
      }
    }
    return epoch;
  }

  /** Runs first() on one worker, then loads its snapshot everywhere else. */
  async function establish(first, reason) {
    if (terminated) throw protocolError(ERR.TERMINATED, 'the pool was terminated');
    const my = bump(reason);
    building = true;
    const lead = live().find((s) => !s.dead) || live()[0];
    if (!lead) throw protocolError(ERR.WORKER, 'no live workers');
    let r;
    try {
      r = await first(lead);
    } catch (e) {
      if (my === epoch) {
        building = false;
        if (generation !== null) {
          // The workers keep the previous world after a failed build: serve it again.
          confirmedEpoch = epoch;
          for (const s of live()) if (s.holds === generation) s.readyEpoch = epoch; else if (!s.dead) loadInto(s).catch(() => {});
          pump();
        } else {
          worldError = e;
          cancelWhere(() => true, ERR.NO_WORLD, () => `no world: ${e.message}`);
        }
      }
      throw e;
    }
    if (my !== epoch) throw protocolError(ERR.CANCELLED, `${reason}: superseded by a newer build or load`);
    generation = r.generation;
    snapshot = r.snapshot;
    worldError = null;
    confirmedEpoch = epoch;
    building = false;
    lead.readyEpoch = epoch;
    pump();
    const loads = await Promise.all(live().filter((s) => s !== lead && !s.dead).map((s) => loadInto(s)));
    if (my !== epoch) throw protocolError(ERR.CANCELLED, `${reason}: superseded by a newer build or load`);
    for (const l of loads) if (l.generation !== generation) throw protocolError(ERR.GENERATION, `workers disagree: ${l.generation} vs ${generation}`);
    return { generation, epoch: my, config: r.config, stats: r.stats };
  }

  for (let i = 0; i < count; i++) slots.push({ index: i, inflight: new Map(), backlog: [], crashStreak: 0, broken: false, dead: true });
  let hello;
  try {
    await Promise.all(slots.map((s) => startSlot(s)));
    hello = (await Promise.all(slots.map((s) => control(s, MSG.CONFIG, () => ({ msg: {}, transfer: [] })))))[0];
  } catch (e) {
    terminated = true;
    await Promise.all(slots.map((s) => s.handle && s.handle.terminate().catch(() => {})));
    throw e;
  }

  /** @type {import('./client').Pool} */
  const pool = {
    knobs: hello.knobs,
    presets: hello.presets,

    build(spec = {}, { onProgress } = {}) {
      // Shared memory lets a cancel reach the build mid-run (Node; browsers
      // when cross-origin isolated); without it a stopped build's worker is replaced.
      const cancelFlag = typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(4) : null;
      let buildId = 0;
      const done = establish((lead) => {
        const p = control(lead, MSG.BUILD, () => ({ msg: { ...spec, snapshot: true, ...(cancelFlag ? { cancelFlag } : {}) }, transfer: [] }),
          { onProgress, cancelFlag });
        buildId = p.id;
        return p;
      }, 'a new build started');
      done.id = buildId;   // pool.cancel(id) stops it at its next progress tick
      return done;
    },

    load(bytes) {
      const u8 = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
      if (!(u8 instanceof Uint8Array)) return Promise.reject(protocolError(ERR.MESSAGE, 'load needs a Uint8Array or ArrayBuffer'));
      const own = u8.slice();
      return establish((lead) => control(lead, MSG.LOAD, () => { const c = own.slice(); return { msg: { bytes: c }, transfer: [c.buffer] }; })
        .then((r) => ({ ...r, snapshot: own })), 'a world was loaded');
    },

    chunk(key, { priority = 0, format = 'arrays' } = {}) {
      let k;
      try { k = normalizeKey(key); } catch (e) { return Promise.reject(e); }
      return request(MSG.CHUNK, () => ({ msg: { key: k, format }, transfer: [] }),
        { key: `chunk:${keyString(k)}:${format}`, priority, info: { key: k }, affinity: keyString(k) });
    },

    mesh(key, meshOptions = {}, { priority = 0 } = {}) {
      let k;
      try { k = normalizeKey(key); } catch (e) { return Promise.reject(e); }
      const opts = { ...meshOptions };
      return request(MSG.MESH, () => ({ msg: { key: k, options: opts }, transfer: [] }),
        { key: `mesh:${keyString(k)}:${stableJson(opts)}`, priority, info: { key: k, options: opts }, affinity: keyString(k) });
    },

    sample(dirs, { priority = 0 } = {}) {
      let own;
      try { own = toDirs(dirs); } catch (e) { return Promise.reject(e); }
      return request(MSG.SAMPLE, () => { const c = own.slice(); return { msg: { dirs: c }, transfer: [c.buffer] }; }, { priority });
    },

    /** The world's river graph (typed arrays, transferred). */
    rivers({ priority = 0 } = {}) {
      return request(MSG.RIVERS, () => ({ msg: {}, transfer: [] }), { key: 'rivers', priority });
    },

    snapshot({ priority = 0 } = {}) {
      return request(MSG.SNAPSHOT, () => ({ msg: {}, transfer: [] }), { key: 'snapshot', priority }).then((r) => r.bytes);
    },

    /** Any request type (e.g. a test hook), scheduled like the others. */
    request(type, args = {}, { priority = 0, key, transfer } = {}) {
      return request(type, () => ({ msg: { ...args }, transfer: transfer || [] }), { priority, key });
    },

    cancel(target) {
      const test = typeof target === 'function' ? target : (e) => e.id === target;
      return cancelWhere(test, ERR.CANCELLED, (e) => `request ${e.id} cancelled by the caller`);
    },

    reprioritize(fn) {
      sched.reprioritize((e) => fn(publicView(e)));
    },

    async workerStats() {
      return Promise.all(live().filter((s) => !s.dead).map((s) => control(s, MSG.STATS, () => ({ msg: {}, transfer: [] }))
        .then((r) => ({ worker: s.index, ...r }))));
    },

    stats() {
      let inFlight = 0;
      for (const s of slots) for (const e of s.inflight.values()) if (!e.cancelled) inFlight += 1;
      return { workers: live().length, inFlight, queued: sched.queued, epoch, generation, ...counters, affinity: sched.affinityStats };
    },

    async terminate() {
      if (terminated) return;
      cancelWhere(() => true, ERR.TERMINATED, () => 'the pool was terminated');
      terminated = true;
      for (const e of [...entries.values()]) settle(e, protocolError(ERR.TERMINATED, 'the pool was terminated'));
      snapshot = null;
      await Promise.all(slots.map((s) => s.handle && s.handle.terminate().catch(() => {})));
    },
  };
  started = true;
  return pool;
}
