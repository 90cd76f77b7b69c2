// Real-browser test of the demo page: Debian's Chromium (SwiftShader WebGL2) driven by playwright-core loads web/ from scripts/serve.mjs, checks the globe, a coastal close-up at surface_lod and a rebuild, and saves screenshots under tests/artifacts/.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const artifacts = path.join(root, 'tests', 'artifacts');
const SURFACE_LOD = 4;
const SPACE = '20,10,14000000,0,0';
let server, context, page, profile;
const problems = [];

/** Rejects when p takes longer than ms (the browser must never hang the suite). */
function within(ms, p, what) {
  let timer;
  return Promise.race([p, new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}

/** Colour statistics of a ctDemo.pixels() readback. */
function pixelStats(px) {
  const { width, height, rgb } = px;
  const colours = new Set();
  let dark = 0, blue = 0, land = 0;
  const at = (x, y) => { const i = 3 * (y * width + x); return [rgb[i], rgb[i + 1], rgb[i + 2]]; };
  for (let i = 0; i < rgb.length; i += 3) {
    const [r, g, b] = [rgb[i], rgb[i + 1], rgb[i + 2]];
    colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
    if (r + g + b < 40) dark++;
    else if (b > r + 20 && b > g) blue++;
    else if (g >= b || r >= b) land++;
  }
  const n = rgb.length / 3;
  const lum = ([r, g, b]) => r + g + b;
  const corners = [at(1, 1), at(width - 2, 1), at(1, height - 2), at(width - 2, height - 2)];
  const centre = at(Math.floor(width * 0.35), Math.floor(height / 2));
  return { distinct: colours.size, dark: dark / n, blue: blue / n, land: land / n, cornerLum: Math.max(...corners.map(lum)), centreLum: lum(centre) };
}

function differingFraction(a, b) {
  let diff = 0;
  for (let i = 0; i < a.rgb.length; i += 3) {
    const d = Math.abs(a.rgb[i] - b.rgb[i]) + Math.abs(a.rgb[i + 1] - b.rgb[i + 1]) + Math.abs(a.rgb[i + 2] - b.rgb[i + 2]);
    if (d > 30) diff++;
  }
  return diff / (a.rgb.length / 3);
}

test.before(async () => {
  mkdirSync(artifacts, { recursive: true });
  server = await serve({ port: 0, quiet: true });
  profile = mkdtempSync(path.join(os.tmpdir(), 'ct-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
    viewport: { width: 960, height: 600 },
    timeout: 60000,
  });
  page = context.pages()[0] || await context.newPage();
  page.setDefaultTimeout(120000);
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
});

test.after(async () => {
  await context?.close().catch(() => {});
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test('the page loads, ctDemo.ready resolves and the globe is a lit planet disc against space', async () => {
  const response = await page.goto(`${server.url}web/#preset=balanced&surface_lod=${SURFACE_LOD}&view=${SPACE}`);
  assert.is(response.status(), 200);
  const ready = await within(120000, page.evaluate(() => window.ctDemo.ready), 'ctDemo.ready');
  assert.match(ready.generation, /^[0-9a-f]{16}$/);
  assert.ok(ready.tilesDrawn >= 6, `tiles drawn ${ready.tilesDrawn}`);
  const stats = await page.evaluate(() => window.ctDemo.stats());
  for (const k of ['generation', 'tilesDrawn', 'inFlight', 'cached', 'maxLodDrawn', 'frameMs']) assert.ok(k in stats, `stats().${k}`);
  const px = pixelStats(await page.evaluate(() => window.ctDemo.pixels(4)));
  assert.ok(px.distinct >= 12, `distinct colours ${px.distinct}`);
  assert.ok(px.cornerLum < 60, `corners are space (${px.cornerLum})`);
  assert.ok(px.centreLum > 60, `the planet is at the centre (${px.centreLum})`);
  assert.ok(px.dark > 0.2 && px.dark < 0.9, `dark share ${px.dark}`);
  assert.ok(px.blue > 0.03, `sea share ${px.blue}`);
  assert.ok(px.land > 0.01, `land share ${px.land}`);
  await page.screenshot({ path: path.join(artifacts, 'space.png') });
  assert.equal(problems, []);
});

test('goTo a coastal point at low altitude draws chunks at surface_lod', async () => {
  // A land point above 150 m with sea a few degrees east or west of it.
  const coast = await page.evaluate(async () => {
    const pts = [];
    for (let k = 0; k <= 50; k += 1) for (const la of k ? [k, -k] : [0]) for (let lo = -180; lo < 180; lo += 1) pts.push([la, lo]);
    const r = await window.ctDemo.sample(pts);
    for (let i = 3; i < pts.length - 3; i++) {
      if (r.hasWater[i] || r.heightM[i] < 150) continue;
      for (const d of [-2, 2, -3, 3]) {
        const j = i + d;
        if (pts[j][0] === pts[i][0] && r.hasWater[j] && r.waterM[j] === 0) return { land: pts[i], sea: pts[j] };
      }
    }
    return null;
  });
  assert.ok(coast, 'found a coast');
  const [lat, lon] = coast.sea;
  const heading = coast.land[1] > lon ? 90 : 270;
  const s = await within(150000, page.evaluate(([a, b, h]) => window.ctDemo.goTo(a, b, 2500, { heading: h }), [lat, lon + (heading === 90 ? 0.6 : -0.6), heading]), 'goTo');
  assert.is(s.maxLodDrawn, SURFACE_LOD);
  assert.is(s.surfaceLod, SURFACE_LOD);
  assert.ok(s.tilesDrawn >= 1 && s.inFlight === 0, JSON.stringify(s));
  const px = pixelStats(await page.evaluate(() => window.ctDemo.pixels(4)));
  assert.ok(px.distinct >= 12, `distinct colours near the ground ${px.distinct}`);
  assert.ok(px.dark < 0.05, `no black holes near the ground (${px.dark})`);
  await page.screenshot({ path: path.join(artifacts, 'surface.png') });
  assert.equal(problems, []);
});

test('a rebuild with another seed changes the generation and the picture', async () => {
  const [lat, lon, alt] = SPACE.split(',').map(Number);
  const before = await within(120000, page.evaluate(([a, b, c]) => window.ctDemo.goTo(a, b, c, { heading: 0, tilt: 0 }), [lat, lon, alt]), 'goTo space');
  const pxBefore = await page.evaluate(() => window.ctDemo.pixels(4));
  // Through the panel, as a person would.
  await page.fill('#seed', '7');
  await page.click('#rebuild');
  // Poll from Node (bounded) until the new world is built.
  let state;
  for (let t = 0; t < 600; t++) {
    state = await page.evaluate(() => ({ s: window.ctDemo.stats(), error: document.getElementById('error')?.textContent || null }));
    if (state.error || (state.s.generation !== before.generation && !state.s.building)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.is(state.error, null, 'no error banner');
  assert.is.not(state.s.generation, before.generation, `rebuilt: ${JSON.stringify(state.s)}`);
  const after = await within(120000, page.evaluate(() => window.ctDemo.settled()), 'settled after rebuild');
  assert.match(after.generation, /^[0-9a-f]{16}$/);
  assert.is.not(after.generation, before.generation);
  assert.match(await page.evaluate(() => location.hash), /seed=7/);
  const pxAfter = await page.evaluate(() => window.ctDemo.pixels(4));
  const changed = differingFraction(pxBefore, pxAfter);
  assert.ok(changed > 0.05, `changed pixels ${changed}`);
  const stats = pixelStats(pxAfter);
  assert.ok(stats.distinct >= 12 && stats.centreLum > 60, 'still a planet');
  await page.screenshot({ path: path.join(artifacts, 'space-seed7.png') });
  assert.equal(problems, []);
});

test.run();
