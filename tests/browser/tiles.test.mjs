// Real-browser test of baked tiles in the demo page: one view of a coast
// is drawn from generated chunks while the page's mesh requests are
// recorded; exactly those keys (the region that view needs) are baked into a
// folder under the served root (tests/js/tile_fixture.mjs); the page then
// loads the same view with tiles=URL, its workers stream and verify the
// baked tiles, and the two pictures must match pixel for pixel.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { sharedChromium, testViewport } from './chromium.mjs';
import { loadCore } from '../../wasm/ct.mjs';
import { MSG } from '../../worker/protocol.js';
import { bakeFolder } from '../js/tile_fixture.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const artifacts = path.join(root, 'tests', 'artifacts');
const bakeDir = path.join(artifacts, 'tiles-bake');
const WORLD = { preset: 'balanced', set: { surface_lod: 6 } };
let server, page, closeBrowser;
const problems = [];

/**
 * Runs in the page before its scripts: records the key of every mesh request
 * posted to a worker (and whether it carried a baked tile), and the source
 * and any tile fallback of every reply, in window.ctTileLog.
 */
function installTileLog(meshType) {
  const log = { keys: new Set(), withTile: 0, sources: {}, fallbacks: [] };
  window.ctTileLog = log;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (...args) {
    const m = args[0];
    if (m && m.type === meshType && m.key) {
      log.keys.add(`${m.key.face}/${m.key.lod}/${m.key.x}/${m.key.y}`);
      if (m.tile) log.withTile += 1;
    }
    return post.apply(this, args);
  };
  const Native = window.Worker;
  window.Worker = function (...args) {
    const w = new Native(...args);
    w.addEventListener('message', (e) => {
      const r = e.data && e.data.result;
      if (r && r.source) log.sources[r.source] = (log.sources[r.source] || 0) + 1;
      if (r && r.tileFallback) log.fallbacks.push(r.tileFallback.message);
    });
    return w;
  };
  window.Worker.prototype = Native.prototype;
}

/**
 * A view looking straight down on a coast from 150 km: the first land point
 * (above 150 m) on a 1-degree grid with open sea one degree east, camera
 * half-way between them, so the picture holds land, shore and sea.
 */
function coastView(world) {
  const rad = Math.PI / 180, dir = (la, lo) => [Math.cos(la * rad) * Math.cos(lo * rad), Math.cos(la * rad) * Math.sin(lo * rad), Math.sin(la * rad)];
  for (let la = 0; la <= 50; la++) {
    for (let lo = -180; lo < 179; lo++) {
      const s = world.sample([dir(la, lo), dir(la, lo + 1)]);
      if (!s.hasWater[0] && s.heightM[0] > 150 && s.hasWater[1] && s.waterBody[1] === 0) return [la, lo + 0.5, 150000];
    }
  }
  throw new Error('no coast found');
}

/** Loads the page at the view and returns its settled picture, generation and tile log. */
async function drawView(hash, view) {
  await page.goto('about:blank');   // a hash change alone would not reload the page
  // Shadows and scatter have their own checks (globe's mountains view, populate.test.mjs);
  // software GL pays for every shadow map and instance, so pages that test other things go without.
  await page.goto(`${server.url}web/#${hash}&shadows=0&scatter=0`);
  const ready = await page.evaluate(() => window.ctDemo.ready);
  await page.evaluate(([a, b, c]) => window.ctDemo.goTo(a, b, c, { heading: 0, tilt: 0 }), view);
  const px = await page.evaluate(() => { const p = window.ctDemo.pixels(1); return { width: p.width, height: p.height, rgb: Array.from(p.rgb) }; });
  const log = await page.evaluate(() => ({ ...window.ctTileLog, keys: [...window.ctTileLog.keys] }));
  await page.screenshot({ path: path.join(artifacts, hash.includes('tiles=') ? 'tiles-baked.png' : 'tiles-generated.png') });
  return { generation: ready.generation, px, log };
}

test.before(async () => {
  mkdirSync(artifacts, { recursive: true });
  rmSync(bakeDir, { recursive: true, force: true });
  server = await serve({ port: 0, quiet: true });
  ({ page, close: closeBrowser } = await sharedChromium(testViewport(), problems));
  await page.addInitScript(installTileLog, MSG.MESH);
});

test.after(async () => {
  rmSync(bakeDir, { recursive: true, force: true });
  await server?.close();
  await closeBrowser?.();
});

test('a view streamed from baked tiles is the generated view, pixel for pixel', async () => {
  const core = await loadCore(path.join(root, 'build/wasm/ct.wasm'));
  const world = core.buildWorld(WORLD);
  const view = coastView(world), HASH = `preset=balanced&surface_lod=6&view=${view.join(',')},0,0&sun=${view[0] - 20},${view[1] - 30}`;
  const generated = await drawView(HASH, view);
  assert.ok(generated.log.keys.length > 0, 'the view requested meshes');
  assert.is(generated.log.withTile, 0, 'no tiles without tiles=');
  // Bake exactly the keys the view asked for, from the same world built here.
  assert.is(world.generation, generated.generation, 'the page built the world baked here');
  const keys = generated.log.keys.map((id) => { const [face, lod, x, y] = id.split('/').map(Number); return { face, lod, x, y }; });
  mkdirSync(bakeDir, { recursive: true });
  bakeFolder(core, world, keys, { dir: bakeDir });
  world.free();

  const baked = await drawView(`${HASH}&tiles=${encodeURIComponent('/tests/artifacts/tiles-bake/')}`, view);
  assert.is(baked.generation, generated.generation);
  assert.equal(baked.log.fallbacks, [], 'no tile fell back');
  // Every reply to a request that carried a tile came from it (a request the streamer cancelled gets none).
  assert.ok(baked.log.sources.tile > 0 && !baked.log.sources.generated && baked.log.sources.tile <= baked.log.withTile,
    `replies from tiles (${JSON.stringify(baked.log)})`);
  // How many of the baked keys the second descent asks for depends on how fast tiles arrive (the
  // streamer skips levels it no longer needs), so no share is asserted: the settled pictures are.
  assert.is(baked.px.width, generated.px.width);
  let differ = 0;
  for (let i = 0; i < generated.px.rgb.length; i++) differ += baked.px.rgb[i] !== generated.px.rgb[i];
  assert.is(differ, 0, `${differ} of ${generated.px.rgb.length} colour bytes differ`);
  process.stderr.write(`  tiles: ${keys.length} baked keys, ${baked.log.sources.tile} served from tiles, ${generated.px.width}x${generated.px.height} pictures equal\n`);
  assert.equal(problems, []);
});

test.run();
