// Real-browser test of the demo page: Debian's Chromium (SwiftShader WebGL2) driven by playwright-core loads web/ from scripts/serve.mjs, checks the globe and its night side, the HUD under the cursor, both downloads, a palette switch, the standard views (coast at 2 km, mountains at 3 km with cast shadows at a low sun on and off, a lake shore, the three timed descents ending at a cube corner), a rebuild, an exaggerated alpine coast set through the address bar, and the messages shown without WebGL2 or the WebAssembly core; screenshots go to tests/artifacts/.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { sharedChromium, testViewport } from './chromium.mjs';
import { installPixelPacking, readPixels, unpack } from './readback.mjs';
import { loadCore } from '../../wasm/ct.mjs';
import { sliderScale } from '../../web/sliders.js';
import { subSolarPoint } from '../../web/url.js';
import { MSG } from '../../worker/protocol.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const artifacts = path.join(root, 'tests', 'artifacts');
/** The world's default surface_lod: views near the ground must reach it. */
const SURFACE_LOD = 6;
const SPACE = '20,10,14000000,0,0';
const DESCENTS = [[10, 20, 3000], [-30, 100, 20000], [35.26, 45, 8000]];
/** The page's default sub-solar point (web/url.js DEFAULT_SUN). */
const DEFAULT_SUN = [15, 65];

/** Standard views light their place with an afternoon sun (south-west of it), whatever the default. */
const afternoonSun = (lat, lon) => page.evaluate(([a, b]) => window.ctDemo.setSun(a, b), [Math.max(-60, lat - 25), lon - 45]);
const defaultSun = () => page.evaluate(([a, b]) => window.ctDemo.setSun(a, b), DEFAULT_SUN);
const ADDRESS = /^\d+\/[0-9a-f]{16}\/(px|nx|py|ny|pz|nz)\/\d+\/\d+\/\d+$/;
const BIOMES = ['water', 'sand', 'grass', 'forest', 'rock', 'snow', 'desert', 'tundra'];
let server, context, page, closeBrowser;
const problems = [];

/**
 * Runs in the page before its scripts: while `window.ctBuildHold.on` is set,
 * a world build posted to a worker (protocol type 'build') waits in
 * `held` until release() posts it. The rebuild test holds the new world's
 * build so that its frames are certainly taken while the world is building,
 * however quick the build.
 */
function installBuildHold(buildType) {
  const post = Worker.prototype.postMessage;
  const hold = { on: false, held: [] };
  hold.release = () => {
    hold.on = false;
    for (const [w, args] of hold.held.splice(0)) post.apply(w, args);
  };
  window.ctBuildHold = hold;
  Worker.prototype.postMessage = function (...args) {
    if (hold.on && args[0] && args[0].type === buildType) hold.held.push([this, args]);
    else post.apply(this, args);
  };
}

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

/** A standard view's picture: the terrain and the HUD, not the panel. */
async function picture(name) {
  await page.evaluate(() => { document.getElementById('panel').style.visibility = 'hidden'; });
  await page.screenshot({ path: path.join(artifacts, name) });
  await page.evaluate(() => { document.getElementById('panel').style.visibility = ''; });
}

/**
 * Shares of pixels that are darker, and lighter, by more than 8 of 255 in
 * luminance in readback a than in readback b of the same view.
 */
function darkerShares(a, b) {
  const lum = (px, i) => 0.3 * px.rgb[3 * i] + 0.59 * px.rgb[3 * i + 1] + 0.11 * px.rgb[3 * i + 2];
  let darker = 0, lighter = 0;
  const n = a.width * a.height;
  for (let i = 0; i < n; i++) {
    const d = lum(a, i) - lum(b, i);
    if (d < -8) darker++;
    else if (d > 8) lighter++;
  }
  return { darker: darker / n, lighter: lighter / n };
}

/** Polls fn in the page (bounded) until it returns something truthy. */
async function waitFor(fn, arg, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Clicks a button that downloads a file; returns the file's name and bytes. */
async function downloadVia(selector) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), page.click(selector)]);
  const file = await dl.path();
  assert.ok(file, `download from ${selector} saved`);
  return { name: dl.suggestedFilename(), bytes: readFileSync(file) };
}

test.before(async () => {
  mkdirSync(artifacts, { recursive: true });
  server = await serve({ port: 0, quiet: true });
  ({ context, page, close: closeBrowser } = await sharedChromium(testViewport(), problems));
  await page.addInitScript(installBuildHold, MSG.BUILD);
  await installPixelPacking(page);
});

// Seconds per test on stderr: the suite runs minutes in software GL, and this says where.
test.before.each((ctx) => { ctx.t0 = Date.now(); });
test.after.each((ctx) => { process.stderr.write(`  [${((Date.now() - ctx.t0) / 1000).toFixed(1)} s] ${ctx.__test__}\n`); });

test.after(async () => {
  await server?.close();
  await closeBrowser?.();
});

test('the page loads, ctDemo.ready resolves and the globe is a lit planet disc against space', async () => {
  // Scatter has its own browser test (populate.test.mjs); software GL pays for every instance.
  const response = await page.goto(`${server.url}web/#preset=balanced&surface_lod=${SURFACE_LOD}&view=${SPACE}&scatter=0`);
  assert.is(response.status(), 200);
  const ready = await within(120000, page.evaluate(() => window.ctDemo.ready), 'ctDemo.ready');
  assert.match(ready.generation, /^[0-9a-f]{16}$/);
  // From space the selection draws the LOD-0 faces on this side (five at most), refining only where it must.
  assert.ok(ready.tilesDrawn >= 3, `tiles drawn ${ready.tilesDrawn}`);
  const stats = await page.evaluate(() => window.ctDemo.stats());
  for (const k of ['generation', 'tilesDrawn', 'inFlight', 'cached', 'maxLodDrawn', 'frameMs']) assert.ok(k in stats, `stats().${k}`);
  const px = pixelStats(await readPixels(page, 4));
  assert.ok(px.distinct >= 12, `distinct colours ${px.distinct}`);
  assert.ok(px.cornerLum < 60, `corners are space (${px.cornerLum})`);
  assert.ok(px.centreLum > 60, `the planet is at the centre (${px.centreLum})`);
  assert.ok(px.dark > 0.2 && px.dark < 0.9, `dark share ${px.dark}`);
  assert.ok(px.blue > 0.03, `sea share ${px.blue}`);
  assert.ok(px.land > 0.01, `land share ${px.land}`);
  await page.screenshot({ path: path.join(artifacts, 'space.png') });
  await picture('globe-terminator.png');
  assert.equal(problems, []);
});

test('the sun is fixed in the world: the antisolar point is night, the sub-solar point day', async () => {
  const { sun } = await page.evaluate(() => window.ctDemo.stats());
  const centre = async (lat, lon) => {
    await within(120000, page.evaluate(([a, b]) => window.ctDemo.goTo(a, b, 14000000, { heading: 0, tilt: 0 }), [lat, lon]), 'goTo');
    const px = await readPixels(page, 2);
    let sum = 0, n = 0;
    for (let y = Math.floor(px.height / 2) - 3; y <= Math.floor(px.height / 2) + 3; y++) {
      for (let x = Math.floor(px.width * 0.4) - 3; x <= Math.floor(px.width * 0.4) + 3; x++) {
        const i = 3 * (y * px.width + x);
        sum += px.rgb[i] + px.rgb[i + 1] + px.rgb[i + 2];
        n++;
      }
    }
    return sum / n;
  };
  // The panel covers the canvas's right side: 40% across is on the globe's disc, near its centre line.
  const night = await centre(-sun.lat, sun.lon > 0 ? sun.lon - 180 : sun.lon + 180);
  const day = await centre(sun.lat, sun.lon);
  assert.ok(night < 25, `antisolar point is dark (r+g+b ${night.toFixed(1)})`);
  assert.ok(day > 150, `sub-solar point is lit (r+g+b ${day.toFixed(1)})`);
  await page.evaluate(([a, b]) => window.ctDemo.setSun(a, b), [sun.lat, sun.lon + 90]);
  const moved = await centre(sun.lat, sun.lon);
  assert.ok(moved < day * 0.6, `moving the sun 90 degrees darkens the old noon (${moved.toFixed(1)} vs ${day.toFixed(1)})`);
  assert.match(await page.evaluate(() => location.hash), /sun=/);
  await page.evaluate(([a, b]) => window.ctDemo.setSun(a, b), [sun.lat, sun.lon]);
  // Back to the space view the next tests start from.
  const [lat, lon, alt] = SPACE.split(',').map(Number);
  await within(120000, page.evaluate(([a, b, c]) => window.ctDemo.goTo(a, b, c, { heading: 0, tilt: 0 }), [lat, lon, alt]), 'back to space');
  assert.equal(problems, []);
});

test('the HUD reads out what is under the cursor', async () => {
  // Looking straight down at 20N 10E: the canvas centre is that point. By the
  // addressing contract its direction (0.925, 0.342, -0.163) lies on +X with
  // u = -z/x = 0.176, v = -y/x = -0.370, so at LOD 6 it is chunk
  // x = floor((u + 1) / 2 * 64) = 37, y = floor((v + 1) / 2 * 64) = 20.
  // The camera first rests at exactly that pose (goTo resolves once settled).
  const [lat, lon, alt] = SPACE.split(',').map(Number);
  await within(120000, page.evaluate(([a, b, c]) => window.ctDemo.goTo(a, b, c, { heading: 0, tilt: 0 }), [lat, lon, alt]), 'goTo space');
  // The pointer reaches the canvas once, at its centre: from over the panel
  // (which covers the canvas, so the canvas sees no move there), never from
  // another canvas point. Every cursor readout of this page is then the
  // centre's; a readout of an earlier pointer position could otherwise land
  // after the move.
  const panel = await page.locator('#panel').boundingBox();
  await page.mouse.move(panel.x + panel.width / 2, panel.y + panel.height / 2);
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const hud = await waitFor(() => {
    const c = window.ctDemo.cursor();
    const text = document.getElementById('hud').textContent;
    return c && /\nheight /.test(text) && { c, text };
  }, null, 120000, 'HUD cursor readout');
  const lines = hud.text.split('\n');
  const pos = lines.find((l) => l.startsWith('cursor '));
  const m = /^cursor (\d+\.\d+)°([NS]) (\d+\.\d+)°([EW])$/.exec(pos);
  assert.ok(m, `position line: ${pos}`);
  assert.ok(Math.abs(Number(m[1]) - 20) < 0.01 && m[2] === 'N', pos);
  assert.ok(Math.abs(Number(m[3]) - 10) < 0.01 && m[4] === 'E', pos);
  const address = lines.find((l) => l.startsWith('chunk ')).slice(6);
  assert.match(address, ADDRESS);
  const [, gen, face, lod, x, y] = address.split('/');
  const stats = await page.evaluate(() => window.ctDemo.stats());
  assert.is(gen, stats.generation);
  assert.equal([face, lod, x, y], ['px', String(SURFACE_LOD), '37', '20']);
  // Height, water and biome are the world's at that point.
  const s = await page.evaluate(([la, lo]) => window.ctDemo.sample([[la, lo]]), [hud.c.lat, hud.c.lon]);
  const hm = /^height (-?\d+) m · (dry|sea, surface -?\d+ m|lake, surface -?\d+ m) · biome (\w+)$/.exec(lines.find((l) => l.startsWith('height ')));
  assert.ok(hm, `height line in ${JSON.stringify(hud.text)}`);
  assert.ok(Math.abs(Number(hm[1]) - s.heightM[0]) <= 1, `height ${hm[1]} vs sample ${s.heightM[0]}`);
  assert.is(hm[2] === 'dry', !s.hasWater[0], 'water');
  assert.is(hm[3], BIOMES[s.biome[0]]);
  assert.equal(problems, []);
});

test('the download buttons give the .ctc under the cursor and the world snapshot', async () => {
  const address = await page.evaluate(() => window.ctDemo.cursor().address);
  const [, gen, face, lod, x, y] = address.split('/');
  const ctc = await downloadVia('#dl-chunk');
  assert.is(ctc.bytes.length, 396354, 'a .ctc is 60 + 6 * 257 * 257 bytes');
  assert.is(ctc.bytes.subarray(0, 8).toString('latin1'), 'CTCHUNK\0');
  // Header: face, lod, x, y at 12..27 and the generation at 32 (little endian).
  const faces = ['px', 'nx', 'py', 'ny', 'pz', 'nz'];
  assert.equal([12, 16, 20, 24].map((o) => ctc.bytes.readUInt32LE(o)), [faces.indexOf(face), Number(lod), Number(x), Number(y)]);
  assert.is(ctc.bytes.readBigUInt64LE(32).toString(16).padStart(16, '0'), gen);
  assert.is(ctc.name, `${face}_${lod}_${x}_${y}.ctc`);
  const world = await downloadVia('#dl-world');
  assert.is(world.bytes.subarray(0, 8).toString('latin1'), 'CTWORLD2');
  assert.ok(world.bytes.length > 1000, `snapshot of ${world.bytes.length} bytes`);
  assert.is(world.name, `world-${gen}.ctw`);
  assert.equal(problems, []);
});

test('a palette switch recolours the globe without a rebuild or new meshes', async () => {
  const before = await page.evaluate(() => ({ s: window.ctDemo.stats(), px: window.ctPack(window.ctDemo.pixels(4)) }));
  before.px = unpack(before.px);
  await page.selectOption('#palette', 'mars');
  const mars = await page.evaluate(() => ({ s: window.ctDemo.stats(), px: window.ctPack(window.ctDemo.pixels(4)), hash: location.hash }));
  mars.px = unpack(mars.px);
  const changed = differingFraction(before.px, mars.px);
  assert.ok(changed > 0.1, `palette changed ${changed} of the pixels`);
  assert.is(mars.s.generation, before.s.generation);
  assert.is(mars.s.cached, before.s.cached, 'no new tiles');
  assert.is(mars.s.inFlight, 0, 'nothing requested');
  await waitFor(() => /palette=mars/.test(location.hash), null, 120000, 'palette in the address bar');
  await page.screenshot({ path: path.join(artifacts, 'space-mars.png') });
  await page.selectOption('#palette', 'default');
  const back = await readPixels(page, 4);
  assert.ok(differingFraction(before.px, back) < 0.01, 'the default palette gives the same picture back');
  assert.equal(problems, []);
});

/** Share of water-coloured and land-coloured pixels in the lower part of a frame (the ground near the camera). */
function groundShares(px, fromFrac = 0.35) {
  let water = 0, land = 0, n = 0;
  for (let y = Math.floor(px.height * fromFrac); y < px.height; y++) {
    for (let x = 0; x < px.width; x++) {
      const i = 3 * (y * px.width + x), r = px.rgb[i], g = px.rgb[i + 1], b = px.rgb[i + 2];
      n++;
      if (b > r + 25 && b + 10 >= g) water++;
      else if (r >= b || g > b + 12) land++;
    }
  }
  return { water: water / n, land: land / n };
}

/**
 * Walks from a sea (or lake) sample towards a land sample in fine steps and
 * returns the first dry point: the shoreline, to ~1 km.
 */
const findShore = (from, to, steps) => page.evaluate(async ([a, b, n]) => {
  const pts = [];
  for (let k = 0; k <= n; k++) pts.push([a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n]);
  const r = await window.ctDemo.sample(pts);
  for (let k = 1; k <= n; k++) if (!r.hasWater[k] && r.hasWater[k - 1]) return { at: pts[k], ground: r.heightM[k] };
  return null;
}, [from, to, steps]);

/** The world sampled on a 1-degree grid from 60S to 60N: {pts, heightM, waterM, hasWater, waterBody}. */
const worldGrid = () => page.evaluate(async () => {
  const pts = [];
  for (let la = -60; la <= 60; la += 1) for (let lo = -180; lo < 180; lo += 1) pts.push([la, lo]);
  return { pts, ...(await window.ctDemo.sample(pts)) };
});

const groundAt = async (lat, lon) => (await page.evaluate(([a, b]) => window.ctDemo.sample([[a, b]]), [lat, lon])).heightM[0];

test('a coast at 2 km: sea in front, the shoreline and land behind it (a standard view)', async () => {
  // On a 1-degree grid, a land point above 150 m with ocean 2-3 degrees east or west.
  const coast = await page.evaluate(async () => {
    const pts = [];
    for (let k = 0; k <= 50; k += 1) for (const la of k ? [k, -k] : [0]) for (let lo = -180; lo < 180; lo += 1) pts.push([la, lo]);
    const r = await window.ctDemo.sample(pts);
    for (let i = 3; i < pts.length - 3; i++) {
      if (r.hasWater[i] || r.heightM[i] < 150) continue;
      for (const d of [-2, 2, -3, 3]) {
        const j = i + d;
        if (pts[j][0] === pts[i][0] && r.hasWater[j] && r.waterBody[j] === 0) return { land: pts[i], sea: pts[j] };
      }
    }
    return null;
  });
  assert.ok(coast, 'found a coast');
  // The shoreline between them, then the camera 8 km out to sea looking at it.
  const shore = await findShore(coast.sea, coast.land, 300);
  assert.ok(shore, 'found the shoreline');
  const east = coast.land[1] > coast.sea[1];
  const heading = east ? 90 : 270;
  const [lat, lon] = [shore.at[0], shore.at[1] + (east ? -0.072 : 0.072)];
  await afternoonSun(lat, lon);
  const s = await within(150000, page.evaluate(([a, b, h]) => window.ctDemo.goTo(a, b, 2000, { heading: h, tilt: 76 }), [lat, lon, heading]), 'goTo');
  assert.is(s.maxLodDrawn, SURFACE_LOD);
  assert.is(s.surfaceLod, SURFACE_LOD);
  assert.ok(s.tilesDrawn >= 1 && s.inFlight === 0, JSON.stringify(s));
  const all = await readPixels(page, 4);
  const px = pixelStats(all);
  assert.ok(px.distinct >= 12, `distinct colours near the ground ${px.distinct}`);
  assert.ok(px.dark < 0.05, `no black holes near the ground (${px.dark})`);
  const g = groundShares(all);
  assert.ok(g.water > 0.1 && g.land > 0.05, `both sea and land in the frame: ${JSON.stringify(g)}`);
  await picture('coast-2km.png');
  // Colours per pixel: every drawn surface_lod tile has its palette map, and the
  // same view coloured by the mesh vertices (debug=vertexcolours) differs along
  // the biome boundaries, where the vertex colours follow the triangles.
  const st = await page.evaluate(() => window.ctDemo.stats());
  assert.ok(st.surfaceTilesDrawn > 0 && st.paletteMapped === st.surfaceTilesDrawn, `palette maps on every surface tile: ${st.paletteMapped} of ${st.surfaceTilesDrawn}`);
  const coastHash = (await page.evaluate(() => location.hash)).replace(/&debug=[^&]*/g, '');
  const shown = async (h) => {
    await page.evaluate((x) => new Promise((res) => { addEventListener('hashchange', () => res(), { once: true }); location.hash = x; }), h);
    await within(120000, page.evaluate(() => window.ctDemo.settled()), 'redrawn');
    return readPixels(page, 2);
  };
  const byVertex = await shown(`${coastHash}&debug=vertexcolours`);
  await picture('coast-2km-vertexcolours.png');
  const byPixel = await shown(coastHash);
  let differ = 0;
  for (let i = 0; i < byPixel.rgb.length; i += 3) {
    if (Math.max(...[0, 1, 2].map((c) => Math.abs(byPixel.rgb[i + c] - byVertex.rgb[i + c]))) > 3) differ++;
  }
  const share = differ / (byPixel.rgb.length / 3);
  process.stderr.write(`  palette maps change ${(100 * share).toFixed(2)}% of the coast view's pixels\n`);
  assert.ok(share > 0.004, `per-pixel colours change the coast view (${share})`);
  await defaultSun();
  assert.equal(problems, []);
});

test('mountains 3 km above the ground, looking across the ranges into the haze (a standard view)', async () => {
  // The highest land on a 1-degree grid.
  const g = await worldGrid();
  let t = -1;
  for (let i = 0; i < g.pts.length; i++) if (!g.hasWater[i] && (t < 0 || g.heightM[i] > g.heightM[t])) t = i;
  const top = { at: g.pts[t], h: g.heightM[t] };
  assert.ok(top.h > 1500, `mountains found (${top.h} m)`);
  // 35 km south of the peak, 3 km above the ground there, looking north just below the horizon.
  const [la, lo] = [top.at[0] - 0.32, top.at[1]];
  const ground = Math.max(0, await groundAt(la, lo));
  await afternoonSun(top.at[0], top.at[1]);
  const s = await within(150000, page.evaluate(([a, b, h]) => window.ctDemo.goTo(a, b, h, { heading: 0, tilt: 80 }), [la, lo, ground + 3000]), 'goTo mountains');
  assert.is(s.maxLodDrawn, SURFACE_LOD);
  assert.ok(Math.abs(s.pose.alt - ground - 3000) < 1, `3 km above the ground (${s.pose.alt} m, ground ${ground} m)`);
  const all = await readPixels(page, 4);
  const px = pixelStats(all);
  assert.ok(px.distinct >= 12 && px.dark < 0.05, `mountain view has colours and no holes ${JSON.stringify(px)}`);
  // Sky at the top: blue-ish air, not space. Over the highest ranges the
  // camera is about 11 km up, where the air above is a deep blue (11,21,37);
  // space is black.
  const i = 3 * (2 * all.width + Math.floor(all.width / 3));
  assert.ok(all.rgb[i + 2] > 30 && all.rgb[i + 2] > all.rgb[i] + 15, `blue sky at the top (${all.rgb.slice(i, i + 3)})`);
  await picture('mountains-3km.png');
  // Cast shadows: a sun 8 degrees up in the east darkens the ranges' west
  // sides and the valleys beyond them. The panel's switch (shadows=0 in the
  // address) takes that away, and only that: nothing gets lighter.
  const low = subSolarPoint(top.at, 8, 90);
  await page.evaluate(([a, b]) => window.ctDemo.setSun(a, b), [low.lat, low.lon]);
  const on = await readPixels(page, 2);
  await picture('mountains-3km-low-sun.png');
  await page.evaluate(() => document.getElementById('shadows').click());
  await waitFor(() => /[#&]shadows=0(&|$)/.test(location.hash), null, 120000, 'shadows=0 in the address bar');
  const off = await readPixels(page, 2);
  await page.evaluate(() => document.getElementById('shadows').click());
  await waitFor(() => !/shadows=/.test(location.hash), null, 120000, 'shadows back on in the address bar');
  const shade = darkerShares(on, off);
  process.stderr.write(`  low sun over the mountains: shadows darken ${(100 * shade.darker).toFixed(1)}% of the pixels, lighten ${(100 * shade.lighter).toFixed(2)}%\n`);
  assert.ok(shade.darker >= 0.05, `shadows darken ${(100 * shade.darker).toFixed(1)}% of the view`);
  assert.ok(shade.lighter <= 0.002, `shadows lighten ${(100 * shade.lighter).toFixed(2)}% of the view`);
  await defaultSun();
  assert.equal(problems, []);
});

test('an elevated lake and its shore (a standard view)', async () => {
  // A lake at least 100 m above sea level with land next to it, on a 1-degree grid: the highest.
  const g = await worldGrid();
  let lake = null;
  for (let i = 0; i < g.pts.length; i++) {
    if (!(g.hasWater[i] && g.waterBody[i] > 0 && g.waterM[i] > 100)) continue;
    for (const j of [i + 1, i - 1]) {
      if (j >= 0 && j < g.pts.length && !g.hasWater[j] && g.pts[j][0] === g.pts[i][0] && (!lake || g.waterM[i] > lake.level)) lake = { lake: g.pts[i], land: g.pts[j], level: g.waterM[i] };
    }
  }
  assert.ok(lake, 'found an elevated lake next to land');
  const shore = await findShore(lake.lake, lake.land, 300);
  assert.ok(shore, 'found its shore');
  // Over the lake 4 km from the shore, 700 m above the water, looking at the shore.
  const east = lake.land[1] > lake.lake[1];
  const [lat, lon] = [shore.at[0], shore.at[1] + (east ? -0.036 : 0.036)];
  await afternoonSun(lat, lon);
  await within(150000, page.evaluate(([x, y, h, hd]) => window.ctDemo.goTo(x, y, h, { heading: hd, tilt: 72 }), [lat, lon, lake.level + 700, east ? 90 : 270]), 'goTo lake');
  const shares = groundShares(await readPixels(page, 4));
  assert.ok(shares.water > 0.1 && shares.land > 0.05, `lake and shore in the frame: ${JSON.stringify(shares)}`);
  await picture('lake-shore.png');
  await defaultSun();
  assert.equal(problems, []);
});

test('the three descents settle, and going back reuses the cache', async () => {
  const [lat, lon, alt] = SPACE.split(',').map(Number);
  const times = [];
  for (const [a, b, h] of DESCENTS) {
    await within(120000, page.evaluate(([x, y, z]) => window.ctDemo.goTo(x, y, z, { heading: 0, tilt: 0 }), [lat, lon, alt]), 'back to space');
    const asked = (await page.evaluate(() => window.ctDemo.stats())).requested;
    const t0 = Date.now();
    const s = await within(180000, page.evaluate(([x, y, z]) => window.ctDemo.goTo(x, y, z), [a, b, h]), `descent to ${a},${b},${h}`);
    const ms = Date.now() - t0;
    times.push({ to: [a, b, h], ms, tiles: s.tilesDrawn, maxLod: s.maxLodDrawn, triangles: s.triangles, requested: s.requested - asked });
    assert.is(s.inFlight, 0);
  }
  const px = pixelStats(await readPixels(page, 4));
  assert.ok(px.dark < 0.05, `no holes at the cube corner (${px.dark})`);
  // The picture with a low afternoon sun, which shows the relief (noon flattens it).
  await afternoonSun(...DESCENTS[2]);
  // A frame drawn now (its coarse readback is not sent back): the screenshot shows the new sun.
  await page.evaluate(() => { window.ctDemo.pixels(16); });
  await picture('corner-8km.png');
  // Every drawn surface_lod tile is coloured per pixel from its palette map.
  const st = await page.evaluate(() => window.ctDemo.stats());
  assert.ok(st.surfaceTilesDrawn > 0 && st.paletteMapped === st.surfaceTilesDrawn, `palette maps on every surface tile: ${st.paletteMapped} of ${st.surfaceTilesDrawn}`);
  await defaultSun();
  // Back to the first descent's place: its tiles are still cached.
  const before = (await page.evaluate(() => window.ctDemo.stats())).requested;
  const t0 = Date.now();
  await within(180000, page.evaluate(([x, y, z]) => window.ctDemo.goTo(x, y, z), DESCENTS[0]), 'going back');
  const back = { ms: Date.now() - t0, requested: (await page.evaluate(() => window.ctDemo.stats())).requested - before };
  const load = os.loadavg()[0];
  writeFileSync(path.join(artifacts, 'settle.json'), `${JSON.stringify({ times, back, loadavg: load, cpus: os.cpus().length }, null, 2)}\n`);
  console.log(`settle times (load ${load.toFixed(1)}): ${times.map((t) => `${t.to.join(',')} ${(t.ms / 1000).toFixed(1)} s`).join(' · ')}; back ${(back.ms / 1000).toFixed(1)} s with ${back.requested} new requests`);
  assert.ok(back.requested <= times[0].requested / 4, `going back asked for ${back.requested} tiles (first visit ${times[0].requested})`);
  assert.equal(problems, []);
});

test('a rebuild with another seed changes the generation and the picture', async () => {
  const [lat, lon, alt] = SPACE.split(',').map(Number);
  const before = await within(120000, page.evaluate(([a, b, c]) => window.ctDemo.goTo(a, b, c, { heading: 0, tilt: 0 }), [lat, lon, alt]), 'goTo space');
  const pxBefore = await readPixels(page, 4);
  // Through the panel, as a person would, with the new world's build held
  // at the worker's door (installBuildHold) until three frames are read back:
  // those are certainly frames of a world being built, however quick the build.
  await page.evaluate(() => { window.ctBuildHold.on = true; });
  await page.fill('#seed', '7');
  await page.click('#rebuild');
  await waitFor(() => window.ctBuildHold.held.length > 0, null, 120000, 'the rebuild posted to a worker');
  // Each readback draws a frame now: the old planet must stay on screen until
  // the new one covers the view (no blank frame, no space-only frame, no swirl).
  const frames = [];
  const readFrame = async () => {
    const st = await page.evaluate(() => ({ s: window.ctDemo.stats(), error: document.getElementById('error')?.textContent || null, px: window.ctPack(window.ctDemo.pixels(8)) }));
    st.px = unpack(st.px);
    frames.push({ ...pixelStats(st.px), generation: st.s.generation, building: st.s.building });
    return st;
  };
  try {
    for (let k = 0; k < 3; k++) {
      const st = await readFrame();
      assert.ok(st.s.building && st.s.generation === before.generation, `frame ${k} while the build is held: ${JSON.stringify(st.s)}`);
    }
  } finally {
    await page.evaluate(() => window.ctBuildHold.release());
  }
  // Then until the new world is built and streamed (bounded: a hang fails),
  // and ten frames more, through the crossfade.
  let state, doneAt = -1;
  for (let t = 0; t < 1200; t++) {
    state = await readFrame();
    if (state.error) break;
    if (doneAt < 0 && state.s.generation !== before.generation && !state.s.building && state.s.inFlight === 0) doneAt = t;
    if (doneAt >= 0 && t - doneAt >= 10) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const [i, f] of frames.entries()) {
    assert.ok(f.centreLum > 60 && f.distinct >= 12 && f.land > 0.01, `frame ${i} of the rebuild shows a planet: ${JSON.stringify(f)}`);
  }
  assert.is(state.error, null, 'no error banner');
  assert.ok(doneAt >= 0, `the new world was built and streamed: ${JSON.stringify(state.s)}`);
  assert.is.not(state.s.generation, before.generation, `rebuilt: ${JSON.stringify(state.s)}`);
  const after = await within(120000, page.evaluate(() => window.ctDemo.settled()), 'settled after rebuild');
  assert.match(after.generation, /^[0-9a-f]{16}$/);
  assert.is.not(after.generation, before.generation);
  assert.match(await page.evaluate(() => location.hash), /seed=7/);
  const pxAfter = await readPixels(page, 4);
  const changed = differingFraction(pxBefore, pxAfter);
  assert.ok(changed > 0.05, `changed pixels ${changed}`);
  const stats = pixelStats(pxAfter);
  assert.ok(stats.distinct >= 12 && stats.centreLum > 60, 'still a planet');
  await page.screenshot({ path: path.join(artifacts, 'space-seed7.png') });
  assert.equal(problems, []);
});

test('an alpine coast exaggerated 4x through the address bar streams down to surface_lod', async () => {
  // Another world through the address bar: alpine has taller land near its coasts.
  const old = (await page.evaluate(() => window.ctDemo.stats())).generation;
  await page.evaluate((h) => { location.hash = h; }, `preset=alpine&surface_lod=${SURFACE_LOD}&view=${SPACE}`);
  await waitFor((g) => { const s = window.ctDemo.stats(); return s.generation !== g && !s.building; }, old, 120000, 'alpine world built');
  await within(120000, page.evaluate(() => window.ctDemo.settled()), 'alpine globe drawn');
  // The coast with the highest land within 3 degrees east of the sea: looking
  // east, the sun (from the west-north-west) lights the land from behind the camera.
  const spot = await page.evaluate(async () => {
    const pts = [];
    for (let la = -50; la <= 50; la += 1) for (let lo = -180; lo < 180; lo += 0.5) pts.push([la, lo]);
    const r = await window.ctDemo.sample(pts);
    const W = 720, ocean = (i) => r.hasWater[i] && r.waterBody[i] === 0;
    let best = null;
    for (let i = 0; i < pts.length; i++) {
      if (!ocean(i) || i % W >= W - 8 || r.hasWater[i + 1]) continue;
      let ok = true, top = 0;
      for (let k = 1; k <= 6; k++) { if (r.hasWater[i + k]) ok = false; else top = Math.max(top, r.heightM[i + k]); }
      if (ok && (!best || top > best.top)) best = { sea: pts[i], top };
    }
    return best;
  });
  assert.ok(spot && spot.top > 200, `found a coast with high land behind it: ${JSON.stringify(spot)}`);
  const gen = (await page.evaluate(() => window.ctDemo.stats())).generation;
  const [lat, lon] = [spot.sea[0], spot.sea[1] - 0.5];
  await afternoonSun(lat, lon);
  const s = await within(180000, page.evaluate(async (h) => {
    await new Promise((res) => { window.addEventListener('hashchange', res, { once: true }); location.hash = h; });
    return window.ctDemo.settled();
  }, `preset=alpine&surface_lod=${SURFACE_LOD}&view=${lat},${lon},30000,85,70&exaggeration=4`), 'exaggerated view');
  assert.is(s.generation, gen, 'a display option: the world is the same');
  assert.is(s.exaggeration, 4);
  assert.is(s.maxLodDrawn, SURFACE_LOD);
  assert.ok(Math.abs(s.pose.alt - 30000) < 1 && Math.abs(s.pose.tilt - 70) < 0.5, JSON.stringify(s.pose));
  assert.is(await page.inputValue('#exaggeration-value'), '4');
  const all = await readPixels(page, 4);
  const px = pixelStats(all);
  assert.ok(px.blue > 0.03 && px.land > 0.2, `sea ${px.blue} and land ${px.land} in view`);
  // 30 km up the sky overhead is nearly black: holes are counted in the lower
  // 60% of the frame, which is ground.
  const from = Math.floor(all.height * 0.4);
  const ground = pixelStats({ ...all, height: all.height - from, rgb: all.rgb.slice(3 * from * all.width) });
  assert.ok(ground.dark < 0.02, `no holes (${ground.dark})`);
  await waitFor(() => /exaggeration=4/.test(location.hash), null, 120000, 'exaggeration in the address bar');
  // The picture shows the terrain and the HUD, not the panel.
  await page.evaluate(() => { document.getElementById('panel').style.visibility = 'hidden'; });
  await page.screenshot({ path: path.join(artifacts, 'surface.png') });
  await page.evaluate(() => { document.getElementById('panel').style.visibility = ''; });
  await defaultSun();
  assert.equal(problems, []);
});

test('no single-pixel holes between tiles at any altitude, across a cube edge and at a corner (debug=holes)', async () => {
  // With debug=holes the page draws no sky: rays that reach the ground sphere
  // are magenta (a colour nothing else uses), the rest black, and the terrain
  // is drawn over them. Any magenta pixel left is a hole between tiles.
  const hash = await page.evaluate(() => location.hash);
  // Same world, no exaggeration (the test before set 4x), the sky replaced by the check.
  await page.evaluate((h) => { location.hash = `${h.replace(/&(debug|exaggeration)=[^&]*/g, '')}&debug=holes`; }, hash);
  const views = [
    [20, 10, 14000000, 0, 0], [0, 45, 3000000, 0, 0], [0, 45, 150000, 90, 55], [0, 45, 20000, 90, 70],
    [35.26, 45, 8000, 30, 65], [44.9, 45.1, 900, 225, 80],
  ];
  const report = [];
  for (const [lat, lon, alt, heading, tilt] of views) {
    const t0 = Date.now();
    await within(150000, page.evaluate(([a, b, c, h, t]) => window.ctDemo.goTo(a, b, c, { heading: h, tilt: t }), [lat, lon, alt, heading, tilt]), `goTo ${lat},${lon},${alt}`);
    const ms = Date.now() - t0;
    // Every pixel, counted in the page (sending the whole frame to Node took seconds per view).
    const { holes, black } = await page.evaluate(() => {
      const { rgb } = window.ctDemo.pixels(1);
      let h = 0, b = 0;
      for (let i = 0; i < rgb.length; i += 3) {
        if (rgb[i] > 200 && rgb[i + 1] < 60 && rgb[i + 2] > 200) h++;
        else if (rgb[i] + rgb[i + 1] + rgb[i + 2] === 0) b++;
      }
      return { holes: h, black: b };
    });
    report.push({ at: [lat, lon, alt], holes, black, ms });
    if (holes) await page.screenshot({ path: path.join(artifacts, `holes-${lat}-${lon}-${alt}.png`) });
  }
  await page.evaluate((h) => { location.hash = h.replace(/&(debug|exaggeration)=[^&]*/g, ''); }, hash);
  process.stderr.write(`  hole check: ${report.map((r) => `${r.at.join(',')} ${r.holes} holes, ${(r.ms / 1000).toFixed(1)} s`).join(' · ')}\n`);
  // The check can see: from space the sky is black, not drawn.
  assert.ok(report[0].black > 1000, `space is black in the hole check: ${JSON.stringify(report[0])}`);
  for (const r of report) assert.is(r.holes, 0, `holes at ${r.at}: ${JSON.stringify(report)}`);
  assert.equal(problems, []);
});

/** Great-circle angle (radians) between two lat/lon points in degrees. */
function arc(a, b) {
  const r = Math.PI / 180, d = (p) => [Math.cos(p.lat * r) * Math.cos(p.lon * r), Math.cos(p.lat * r) * Math.sin(p.lon * r), Math.sin(p.lat * r)];
  const u = d(a), v = d(b);
  return Math.atan2(Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]), u[0] * v[0] + u[1] * v[1] + u[2] * v[2]);
}

/**
 * Runs walk mode (Shift+W) from lat/lon on heading until the eye is past
 * `passM` metres from the start (bounded: a stuck walker fails); returns
 * the poses and grounds seen.
 */
async function runFrom(lat, lon, heading, passM) {
  await within(120000, page.evaluate(([a, b, h]) => window.ctDemo.walk(a, b, { heading: h, tilt: 88 }), [lat, lon, heading]), 'walk');
  const probe = () => page.evaluate(() => ({ ...window.ctDemo.ground(), pose: window.ctDemo.stats().pose }));
  const R = 6371000, trace = [await probe()];
  await page.keyboard.down('Shift');
  await page.keyboard.down('w');
  for (const end = Date.now() + 120000; arc(trace[0].pose, trace[trace.length - 1].pose) * R < passM && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 50));
    trace.push(await probe());
  }
  await page.keyboard.up('w');
  await page.keyboard.up('Shift');
  trace.minimap = await page.evaluate(() => window.ctDemo.minimap.stats());
  await page.evaluate(() => window.ctDemo.leaveWalk());
  return trace;
}

test('walk mode runs over the north pole and straight through a cube corner', async () => {
  // 1.1 m short of the pole, heading north: past it the walker comes down
  // the far meridian (lon + 180), now heading south, without a stop.
  const pole = await runFrom(90 - 1e-5, 10, 0, 4);
  const last = pole[pole.length - 1].pose;
  assert.ok(arc(pole[0].pose, last) * 6371000 >= 4, `ran ${(arc(pole[0].pose, last) * 6371000).toFixed(2)} m from the start`);
  assert.ok(Math.abs(Math.abs(last.lon - 10) - 180) < 1 && Math.abs(last.heading - 180) < 1, `over the pole: ${JSON.stringify(last)}`);
  // The minimap corner, asked north-up, is drawn heading-up there (north is undefined at the pole).
  const map = pole.minimap;
  assert.ok(map.shown && map.drawn > 0 && !map.error && map.headingUp === true && !map.headingUpAsked, `minimap at the pole: ${JSON.stringify(map)}`);
  // Through the +X+Y+Z cube corner (35.26 N 45 E), heading north-east along the diagonal.
  const corner = await runFrom(35.26439 - 1e-5, 45 - 1e-5, 45, 4);
  const end = corner[corner.length - 1].pose;
  assert.ok(arc(corner[0].pose, end) * 6371000 >= 4 && end.lat > 35.26439 && end.lon > 45, `through the corner: ${JSON.stringify(end)}`);
  for (const g of [...pole, ...corner]) {
    assert.ok(g.eyeM >= g.eyeGroundM + 1.7 - 1e-6, `the eye over the ground: ${JSON.stringify(g)}`);
  }
  process.stderr.write(`  over the pole: ${pole.length} samples, ended at ${last.lat.toFixed(6)} ${last.lon.toFixed(3)} heading ${last.heading.toFixed(1)}; corner: ${corner.length} samples\n`);
  assert.equal(problems, []);
});

test('choosing a preset shows its values in every slider and number field, without a rebuild', async () => {
  const core = await loadCore();
  const knobs = new Map(core.knobs().map((k) => [k.name, k]));
  const before = await page.evaluate(() => window.ctDemo.stats());
  const original = await page.inputValue('#preset');
  const shown = async () => page.evaluate(() => [...document.querySelectorAll('input[type=range][id^="knob-"]')].map((s) => ({
    name: s.id.slice(5), pos: Number(s.value), field: Number(document.getElementById(`${s.id}-value`).value),
  })));
  const seen = {};
  for (const name of ['archipelago', 'dry', original]) {
    await page.selectOption('#preset', name);
    await waitFor((n) => document.getElementById('preset').dataset.shown === n, name, 120000, `preset ${name} shown`);
    const want = core.config({ preset: name });
    const controls = await shown();
    assert.ok(controls.length >= 8, `${controls.length} knob controls`);
    for (const c of controls) {
      // The seed and the finest LOD are the user's, kept across presets.
      if (c.name === 'surface_lod' || c.name === 'seed') continue;
      assert.is(c.field, want[c.name], `${name}: ${c.name} field shows the preset's value`);
      assert.is(c.pos, sliderScale(knobs.get(c.name), c.name === 'surface_lod' ? 10 : undefined).toPos(want[c.name]), `${name}: ${c.name} slider sits at that value`);
    }
    seen[name] = Object.fromEntries(controls.map((c) => [c.name, c.field]));
  }
  assert.not.equal(seen.dry, seen.archipelago, 'presets differ in the controls');
  const after = await page.evaluate(() => window.ctDemo.stats());
  assert.is(after.generation, before.generation, 'choosing a preset does not rebuild');
  assert.equal(problems, []);
});

test('without WebGL2 or the WebAssembly core the page says so instead of a blank canvas', async () => {
  const cases = [
    { name: 'no-webgl2', title: /needs WebGL2/, detail: /WebGL2 is not available/,
      setup: (p) => p.addInitScript(() => {
        const get = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function (type, ...rest) { return type === 'webgl2' ? null : get.call(this, type, ...rest); };
      }) },
    { name: 'no-wasm', title: /workers could not start/, detail: /ct\.wasm.*404.*make wasm/s,
      setup: (p) => p.route('**/ct.wasm', (route) => route.fulfill({ status: 404, body: 'not here' })) },
  ];
  for (const c of cases) {
    const p = await context.newPage();
    try {
      await c.setup(p);
      await p.goto(`${server.url}web/`);
      const outcome = await within(120000, p.evaluate(() => window.ctDemo.ready.then(() => 'ready', (e) => `rejected: ${e.message}`)), `${c.name} outcome`);
      assert.match(outcome, /^rejected: /, c.name);
      await p.waitForSelector('#error', { state: 'visible', timeout: 120000 });
      assert.match(await p.textContent('#error h2'), c.title);
      assert.match(await p.textContent('#error p'), c.detail);
      assert.match(await p.textContent('#panel'), /Not running/);
      await p.screenshot({ path: path.join(artifacts, `${c.name}.png`) });
    } finally {
      await p.close();
    }
  }
});

test.run();
