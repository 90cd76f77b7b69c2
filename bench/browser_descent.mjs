// browser_descent.mjs - This module times the way down in the real demo page:
// headless Chromium (the browser tests' launcher) loads web/ on the default
// world, and for each descent of tests/browser/globe.test.mjs the camera goes
// back to orbit, then down to the descent's altitude, then to eye height
// (walk mode, 1.7 m above the ground), each step awaited until the view is
// streamed. Per step: wall time, mesh requests sent (tiles generated) and the
// workers' busy time (the sum over the pool of the ms each spent answering
// requests, from their stats replies).
import { serve } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';

/** The globe test's space view and descents (lat, lon, altitude m). */
const SPACE = [20, 10, 14000000];
const DESCENTS = [[10, 20, 3000], [-30, 100, 20000], [35.26, 45, 8000]];
const STEP_TIMEOUT_MS = 240000;

function within(ms, p, what) {
  let timer;
  return Promise.race([p, new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}

/** Busy ms summed over workers and request types, and per type. */
async function workerBusy(page) {
  const list = await page.evaluate(() => window.ctDemo.workerStats());
  const byType = {};
  for (const w of list) for (const [t, ms] of Object.entries(w.busy?.ms || {})) byType[t] = (byType[t] || 0) + ms;
  return { total: Object.values(byType).reduce((a, b) => a + b, 0), byType };
}

/** One awaited camera step: wall ms, tiles requested, worker busy ms. */
async function step(page, what, fn, arg) {
  const before = await page.evaluate(() => window.ctDemo.stats());
  const busy0 = await workerBusy(page);
  const t0 = Date.now();
  const s = await within(STEP_TIMEOUT_MS, page.evaluate(fn, arg), what);
  const ms = Date.now() - t0;
  const busy1 = await workerBusy(page);
  const byType = {};
  for (const [t, v] of Object.entries(busy1.byType)) byType[t] = v - (busy0.byType[t] || 0);
  return { ms, tiles_requested: s.requested - before.requested, tiles_drawn: s.tilesDrawn, max_lod: s.maxLodDrawn,
    worker_busy_ms: busy1.total - busy0.total, worker_busy_ms_by_type: byType };
}

/**
 * The descents, in one browser session.
 * @param {{log: (s: string) => void, quick?: boolean}} o  quick: the first descent only
 */
export async function benchDescent({ log, quick = false }) {
  const problems = [];
  const server = await serve({ port: 0, quiet: true });
  let browser = null;
  try {
    browser = await launchChromium({ width: 960, height: 600 }, problems);
    const { page } = browser;
    await page.goto(`${server.url}web/#preset=balanced&view=${SPACE.join(',')},0,0`);
    const ready = await within(STEP_TIMEOUT_MS, page.evaluate(() => window.ctDemo.ready), 'ctDemo.ready');
    const descents = [];
    for (const [lat, lon, alt] of quick ? DESCENTS.slice(0, 1) : DESCENTS) {
      await within(STEP_TIMEOUT_MS, page.evaluate(([a, b, c]) => window.ctDemo.goTo(a, b, c, { heading: 0, tilt: 0 }), SPACE), 'back to orbit');
      const down = await step(page, `descent to ${lat},${lon},${alt}`, ([a, b, c]) => window.ctDemo.goTo(a, b, c), [lat, lon, alt]);
      const eye = await step(page, `eye height at ${lat},${lon}`, ([a, b]) => window.ctDemo.walk(a, b), [lat, lon]);
      await within(STEP_TIMEOUT_MS, page.evaluate(() => window.ctDemo.leaveWalk()), 'leave walk mode');
      const total = { ms: down.ms + eye.ms, tiles_requested: down.tiles_requested + eye.tiles_requested,
        worker_busy_ms: down.worker_busy_ms + eye.worker_busy_ms };
      descents.push({ to: [lat, lon, alt], to_altitude: down, to_eye_height: eye, total });
      log(`descent ${lat},${lon}: orbit -> ${alt} m ${(down.ms / 1000).toFixed(1)} s (${down.tiles_requested} tiles, ` +
        `workers busy ${(down.worker_busy_ms / 1000).toFixed(1)} s), -> eye height ${(eye.ms / 1000).toFixed(1)} s ` +
        `(${eye.tiles_requested} tiles, ${(eye.worker_busy_ms / 1000).toFixed(1)} s)`);
    }
    const workers = (await page.evaluate(() => window.ctDemo.workerStats())).length;
    return { generation: ready.generation, workers, descents, problems };
  } finally {
    await browser?.close();
    await server.close();
  }
}
