// bench_worker.mjs - This module times the worker path a page uses: the pool
// from worker/client.js (node worker_threads here, Web Workers in a page)
// with 1 and 2 workers. Round trip = pool.mesh() called to promise settled,
// i.e. message, chunk generation, mesh build, copy out of WASM memory and the
// transfer back; throughput = many distinct chunk requests in flight at once.
import { createPool } from '../worker/client.js';
import { benchKey, summarize, nowMs, cpuMs } from './common.mjs';

const ROUND_TRIPS = 12;       // sequential, after 2 untimed (4 with --quick)
const THROUGHPUT_CHUNKS = 24; // requested together, after 2 untimed

/**
 * @param {{workers: number, log: (line: string) => void, trips: number}} opts
 */
async function benchPool({ workers, log, trips }) {
  let t = nowMs();
  const pool = await createPool({ workers });
  const startMs = nowMs() - t;
  try {
    t = nowMs();
    const built = await pool.build({ preset: 'balanced' });
    const buildMs = nowMs() - t;
    const lod = 6;   // balanced surface_lod; keys are only addresses here
    let k = 1000;    // fresh keys: nothing collapses or hits a cache
    const next = () => benchKey(k++, lod);

    const roundTrip = {};
    for (const stride of [1, 4]) {
      await pool.mesh(next(), { stride });
      await pool.mesh(next(), { stride });
      const ms = [];
      for (let i = 0; i < trips; i++) {
        const key = next();
        const t0 = nowMs();
        const m = await pool.mesh(key, { stride });
        ms.push(nowMs() - t0);
        if (!m.positions || !m.positions.length) throw new Error('empty mesh');
      }
      roundTrip[`stride${stride}`] = { ...summarize(ms), raw: ms };
    }
    const chunkMs = [];
    await Promise.all([pool.chunk(next()), pool.chunk(next())]);
    for (let i = 0; i < trips; i++) {
      const t0 = nowMs();
      await pool.chunk(next());
      chunkMs.push(nowMs() - t0);
    }

    const keys = Array.from({ length: THROUGHPUT_CHUNKS }, next);
    const c0 = cpuMs();
    t = nowMs();
    await Promise.all(keys.map((key) => pool.chunk(key)));
    const allMs = nowMs() - t;
    // Cores this process actually got meanwhile (workers included): a pool of
    // 2 can only beat a pool of 1 if this approaches 2.
    const coresUsed = (cpuMs() - c0) / allMs;
    log(`pool of ${workers}: mesh round trip median ${summarize(roundTrip.stride1.raw).median.toFixed(1)} ms, ` +
      `${(THROUGHPUT_CHUNKS / allMs * 1000).toFixed(1)} chunks/s`);
    return {
      workers, start_ms: startMs, build_ms: buildMs, generation: built.generation,
      mesh_round_trip_ms: roundTrip,
      chunk_round_trip_ms: { ...summarize(chunkMs), raw: chunkMs },
      throughput: { chunks: THROUGHPUT_CHUNKS, ms: allMs, chunks_per_s: THROUGHPUT_CHUNKS / allMs * 1000,
        cores_used: coresUsed },
    };
  } finally {
    await pool.terminate();
  }
}

/**
 * Runs the worker half with pools of 1 and 2.
 * @param {{log?: (line: string) => void, quick?: boolean}} [opts]
 */
export async function benchWorker({ log = () => {}, quick = false } = {}) {
  const pools = [];
  const trips = quick ? 4 : ROUND_TRIPS;
  for (const workers of [1, 2]) pools.push(await benchPool({ workers, log, trips }));
  return {
    warmup: '2 untimed requests per measurement',
    note: 'round trip = pool call to settled promise (message, generation, mesh, copy, transfer)',
    pools,
  };
}
