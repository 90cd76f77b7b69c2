// Real-browser test of the populated planet on the demo page (surface_lod 12, seed 42): scatter drawn as instances over a forest from 300 m (instances counted, the frame differs without them), site pins near the camera, and a crater dropped in edit mode: only the tiles editedKeys lists are asked again, and the page world's ground at the crater's centre is lower; the walk-mode minimap darkens the forest with scatter density, and not with scatter off. CT_POPULATE_PICTURES=1 also writes the README's three pictures to docs/img/ (draw them at CT_BROWSER_SIZE=960x600).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { sharedChromium, testViewport } from './chromium.mjs';
import { keyId } from '../../stream/geo.js';
import { installPixelPacking, readPixels } from './readback.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const artifacts = path.join(root, 'tests', 'artifacts');
const pictures = process.env.CT_POPULATE_PICTURES === '1';
/** A forest (conifers and broadleaf, 12,700 instances in its LOD 11 key) and the best settlement site near it. */
const FOREST = [6.0, -96.0], TOWN = [5.998, -96.1808];
let server, page, closeBrowser;
const problems = [];

function within(ms, p, what) {
  let timer;
  return Promise.race([p, new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}

const demo = (fn, arg) => page.evaluate(fn, arg);

/** Goes aboveM over the ground at (lat, lon) and waits until the view and its scatter are drawn. */
async function view([lat, lon], aboveM, heading, tilt) {
  const g = await demo(([a, b]) => window.ctDemo.sample([[a, b]]), [lat, lon]);
  await demo(([a, b]) => window.ctDemo.setSun(a - 20, b - 50), [lat, lon]);
  await within(300000, demo(([a, b, h, hd, t]) => window.ctDemo.goTo(a, b, h, { heading: hd, tilt: t }), [lat, lon, Math.max(0, g.heightM[0]) + aboveM, heading, tilt]), 'goTo');
  // Scatter arrives after the tiles; settle again until nothing is pending.
  for (let i = 0; i < 60; i++) {
    const s = await demo(() => window.ctDemo.scatter());
    if (s.pending === 0 && (s.keys > 0 || !s.enabled)) break;
    await within(120000, demo(() => window.ctDemo.settled()), 'settled');
  }
  await within(120000, demo(() => window.ctDemo.settled()), 'settled');
}

async function shoot(name) {
  await demo(() => { document.getElementById('panel').style.visibility = 'hidden'; });
  await page.screenshot({ path: path.join(artifacts, name) });
  if (pictures) await page.screenshot({ path: path.join(root, 'docs', 'img', name) });
  await demo(() => { document.getElementById('panel').style.visibility = ''; });
}

test.before(async () => {
  mkdirSync(artifacts, { recursive: true });
  server = await serve({ port: 0, quiet: true });
  ({ page, close: closeBrowser } = await sharedChromium(testViewport(), problems));
  await installPixelPacking(page);
  // Shadows have their own checks (globe.test.mjs); software GL pays for every shadow map.
  await page.goto(`${server.url}web/#seed=42&view=${FOREST[0]},${FOREST[1]},3000,0,70&shadows=0`);
  await within(300000, demo(() => window.ctDemo.ready), 'ctDemo.ready');
});

test.after(async () => {
  await server?.close();
  await closeBrowser?.();
});

test('scatter is drawn over a forest and changes the frame', async () => {
  await view(FOREST, 300, 30, 72);
  const s = await demo(() => window.ctDemo.scatter());
  assert.ok(s.drawn.instances > 1000, `instances drawn: ${JSON.stringify(s)}`);
  writeFileSync(path.join(artifacts, 'populate.json'), `${JSON.stringify({ forest300m: s }, null, 1)}\n`);
  const withTrees = await readPixels(page, 2);
  await shoot('forest-edge-300m.png');
  const off = await demo(() => window.ctDemo.setScatter(false));
  assert.is(off.drawn.instances, 0);
  const bare = await readPixels(page, 2);
  let differ = 0;
  for (let i = 0; i < bare.rgb.length; i += 3) {
    if (Math.abs(bare.rgb[i] - withTrees.rgb[i]) + Math.abs(bare.rgb[i + 1] - withTrees.rgb[i + 1]) + Math.abs(bare.rgb[i + 2] - withTrees.rgb[i + 2]) > 30) differ++;
  }
  assert.ok(differ > bare.rgb.length / 3 * 0.005, `pixels changed by the scatter: ${differ} of ${bare.rgb.length / 3}`);
  await demo(() => window.ctDemo.setScatter(true));
  assert.equal(problems, []);
});

test('site pins near the camera', async () => {
  const sites = await demo(() => window.ctDemo.sites());
  assert.ok(sites.length > 0, 'sites shown');
  assert.ok(sites.some((s) => s.kind === 'settlement'), 'a settlement among them');
});

test('a crater asks again for exactly the tiles it touches and lowers the ground', async () => {
  // From 5 km south, looking north: the ground under the camera stays as it was, so the view
  // itself does not change (a lower ground under the eye would move the camera and its tiles).
  await view([TOWN[0] - 0.045, TOWN[1]], 3000, 0, 60);
  const before = await demo(([a, b]) => window.ctDemo.groundAt(a, b), TOWN);
  assert.ok(before && !before.hasWater, `dry ground at the crater: ${JSON.stringify(before)}`);
  const r = await within(300000, demo(([a, b]) => window.ctDemo.drop(a, b, { kind: 'crater', radiusM: 400, depthM: 60, rimM: 15 }), TOWN), 'drop');
  const listed = new Set(r.editedKeys.map(keyId));
  assert.ok(r.refreshed.length > 0, 'the touched tiles came again');
  for (const k of r.refreshed) assert.ok(listed.has(keyId(k)), `asked again: ${keyId(k)} is in editedKeys (${[...listed].join(' ')})`);
  // Later requests only refine edited tiles (the crater adds relief): each lies inside a listed key.
  const inside = (k) => r.editedKeys.some((e) => e.face === k.face && e.lod <= k.lod && (k.x >> (k.lod - e.lod)) === e.x && (k.y >> (k.lod - e.lod)) === e.y);
  for (const k of r.later) assert.ok(inside(k), `later request ${keyId(k)} lies inside an edited key`);
  const after = await demo(([a, b]) => window.ctDemo.groundAt(a, b), TOWN);
  assert.ok(after.heightM < before.heightM - 40, `ground at the centre ${before.heightM.toFixed(1)} -> ${after.heightM.toFixed(1)} m`);
  await shoot('crater-3km.png');
  assert.equal(problems, []);
});

/** The minimap corner's RGBA, once it has been redrawn twice over the same chunks and the scatter is settled. */
async function settledMinimap() {
  let last = null;
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const m = await demo(() => ({ map: window.ctDemo.minimap.stats(), scatter: window.ctDemo.scatter() }));
    const same = last && m.map.chunks === last.map.chunks && m.map.covered === last.map.covered && m.map.drawn >= last.map.drawn + 2;
    if (same && m.scatter.pending === 0 && !m.map.error) {
      const rgba = await demo(() => { const c = document.getElementById('minimap'); return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data); });
      return { ...m, rgba };
    }
    if (!last || m.map.chunks !== last.map.chunks || m.map.covered !== last.map.covered || m.scatter.pending) last = m;
  }
  throw new Error('the minimap never settled');
}

test('the walk-mode minimap draws scatter density over the forest, and none with scatter off', async () => {
  await within(300000, demo(([a, b]) => window.ctDemo.walk(a, b, { heading: 0, tilt: 88 }), FOREST), 'walk');
  const on = await settledMinimap();
  assert.ok(on.map.shown && on.scatter.instancesHeld > 1000, `walking in the forest: ${JSON.stringify(on)}`.slice(0, 400));
  await page.locator('#minimap').screenshot({ path: path.join(artifacts, 'minimap-forest.png') });
  await demo(() => window.ctDemo.setScatter(false));
  const off = await settledMinimap();
  await page.locator('#minimap').screenshot({ path: path.join(artifacts, 'minimap-forest-scatter0.png') });
  assert.is(off.scatter.instancesHeld, 0);
  assert.is(off.map.chunks, on.map.chunks, 'the same chunks under both maps');
  // Density only darkens: every pixel of the map with scatter is at most the bare one, and a forest's worth darker.
  let darker = 0, lighter = 0;
  for (let i = 0; i < on.rgba.length; i += 4) {
    if (on.rgba[i + 1] < off.rgba[i + 1] - 2) darker++;
    if (on.rgba[i + 1] > off.rgba[i + 1] + 1) lighter++;
  }
  const n = on.rgba.length / 4;
  process.stderr.write(`  minimap: ${on.scatter.instancesHeld} instances held, ${darker} of ${n} pixels darker with scatter, ${lighter} lighter\n`);
  assert.is(lighter, 0, 'no pixel lighter with scatter');
  assert.ok(darker > 0.1 * n, `density pixels over the forest: ${darker} of ${n}`);
  await demo(() => window.ctDemo.setScatter(true));
  await within(120000, demo(() => window.ctDemo.leaveWalk()), 'leaveWalk');
  assert.equal(problems, []);
});

if (pictures) {
  test('a town pad from 300 m (picture)', async () => {
    // 1.3 km north of the crater, seen from 430 m south of it, looking north and down.
    const pad = [TOWN[0] + 0.012, TOWN[1]];
    await demo(([a, b]) => window.ctDemo.drop(a, b, { kind: 'flatten', radiusM: 200, blendM: 60 }), pad);
    await view([pad[0] - 0.0039, pad[1]], 300, 0, 55);
    await shoot('town-pad-300m.png');
  });
}

test.run();
