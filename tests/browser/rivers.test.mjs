// Real-browser test of the rivers on the globe: the river graph of the test world (solved again here by the core) gives a river mouth and a place upstream; the page looks at the mouth from 30 km (river lines) and down into the valley from 3 km (the chunks' own river water), the pictures go to docs/img/, and the river pixels are checked along the line projected with the page's own camera.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { loadCore } from '../../wasm/ct.mjs';
import { computeView } from '../../stream/camera.js';
import { dirToLatLon } from '../../stream/geo.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const img = path.join(root, 'docs', 'img');
const SURFACE_LOD = 6;
const W = 960, H = 600;
let server, page, closeBrowser, graph, radiusM;
const problems = [];

function within(ms, p, what) {
  let timer;
  return Promise.race([p, new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}

const dirOf = (i) => [graph.direction[3 * i], graph.direction[3 * i + 1], graph.direction[3 * i + 2]];
const blueish = (r, g, b) => b > r + 25 && b > g + 5;
const waterish = (r, g, b) => b > r + 15 && b >= g - 10;

/** Full-resolution readback of the page's canvas. */
const readback = () => page.evaluate(() => window.ctDemo.pixels(1));

/** Screen position (pixels, y down) of a world point for the page's current pose, or null behind the eye. */
async function projector() {
  const s = await page.evaluate(() => window.ctDemo.stats());
  const v = computeView(s.pose, { radiusM, width: W, height: H });
  return (p) => {
    const q = [p[0] - v.eye[0], p[1] - v.eye[1], p[2] - v.eye[2]], m = v.viewProj;
    const x = m[0] * q[0] + m[4] * q[1] + m[8] * q[2] + m[12], y = m[1] * q[0] + m[5] * q[1] + m[9] * q[2] + m[13];
    const w = m[3] * q[0] + m[7] * q[1] + m[11] * q[2] + m[15];
    return w > 0 ? [(x / w * 0.5 + 0.5) * W, (0.5 - y / w * 0.5) * H] : null;
  };
}

/** Share of points on the segment a-b (world, unit directions at radius) whose pixel neighbourhood (+-r) has a pixel passing pred. */
function alongLine(px, project, a, b, pred, r = 2) {
  let on = 0, n = 0;
  for (let k = 1; k < 200; k++) {
    const t = k / 200, d = a.map((x, i) => x + (b[i] - x) * t), l = Math.hypot(...d);
    const s = project(d.map((x) => (x / l) * radiusM));
    if (!s || s[0] < r || s[1] < r || s[0] >= W - r || s[1] >= H - r) continue;
    n++;
    let hit = false;
    for (let dy = -r; dy <= r && !hit; dy++) {
      for (let dx = -r; dx <= r && !hit; dx++) {
        const i = 3 * ((Math.round(s[1]) + dy) * px.width + Math.round(s[0]) + dx);
        hit = pred(px.rgb[i], px.rgb[i + 1], px.rgb[i + 2]);
      }
    }
    if (hit) on++;
  }
  return { n, share: n ? on / n : 0 };
}

test.before(async () => {
  mkdirSync(img, { recursive: true });
  const core = await loadCore();
  const w = core.buildWorld({ preset: 'balanced', set: { surface_lod: SURFACE_LOD } });
  graph = w.rivers();
  radiusM = w.config.radius_m;
  w.free();
  server = await serve({ port: 0, quiet: true });
  ({ page, close: closeBrowser } = await launchChromium({ width: W, height: H }, problems));
  await page.goto(`${server.url}web/#preset=balanced&surface_lod=${SURFACE_LOD}&view=20,10,14000000,0,0`);
  await within(120000, page.evaluate(() => window.ctDemo.ready), 'ctDemo.ready');
});

test.after(async () => {
  await closeBrowser?.();
  await server?.close();
});

/** The largest river's mouth into the sea and its main tributary node (largest drainage area upstream). */
function mouthAndUpstream() {
  const g = graph, n = g.downstream.length;
  let mouth = -1;
  for (let i = 0; i < n; i++) if (g.downstream[i] < 0 && (g.flags[i] & 2) && (mouth < 0 || g.drainageAreaM2[i] > g.drainageAreaM2[mouth])) mouth = i;
  const up = (j) => {
    let best = -1;
    for (let i = 0; i < n; i++) if (g.downstream[i] === j && (best < 0 || g.drainageAreaM2[i] > g.drainageAreaM2[best])) best = i;
    return best;
  };
  return { mouth, up };
}

async function look(dir, altM, name) {
  const { lat, lon } = dirToLatLon(dir);
  await page.evaluate(([a, b]) => window.ctDemo.setSun(a, b), [Math.max(-60, lat - 25), lon - 45]);
  await within(200000, page.evaluate(([a, b, h]) => window.ctDemo.goTo(a, b, h, { heading: 0, tilt: 0 }), [lat, lon, altM]), `goTo ${name}`);
  await page.evaluate(() => document.getElementById('panel').style.visibility = 'hidden');
  await page.screenshot({ path: path.join(img, name) });
  await page.evaluate(() => document.getElementById('panel').style.visibility = '');
  return { px: await readback(), project: await projector() };
}

test('a river mouth from 30 km: the river line is drawn, blue along its projection', async () => {
  const { mouth, up } = mouthAndUpstream();
  assert.ok(mouth >= 0, 'the test world has a river mouth');
  const u = up(mouth);
  assert.ok(u >= 0, 'the mouth has an upstream node');
  const { px, project } = await look(dirOf(mouth), 30000, 'river-mouth-30km.png');
  const on = alongLine(px, project, dirOf(u), dirOf(mouth), blueish);
  // The same test 40 px to the side of the line: land, not river.
  const side = (p) => { const s = project(p); return s && [s[0] + 40, s[1]]; };
  const off = alongLine(px, side, dirOf(u), dirOf(mouth), blueish);
  process.stderr.write(`  mouth ${mouth} width ${graph.widthM[mouth].toFixed(0)} m: on line ${on.share.toFixed(2)} of ${on.n}, beside ${off.share.toFixed(2)}\n`);
  assert.ok(on.n > 20, `the line crosses the frame (${on.n} points)`);
  assert.ok(on.share > 0.6, `blue along the river line (${on.share})`);
  assert.ok(on.share > off.share + 0.3, `bluer on the line than beside it (${on.share} vs ${off.share})`);
  assert.equal(problems, []);
});

test('a river valley from 3 km: the chunks draw the river as water', async () => {
  const { mouth, up } = mouthAndUpstream();
  // A few nodes up the main stem: a valley above the sea, still a large river.
  let a = up(mouth);
  for (let k = 0; k < 3 && up(a) >= 0 && graph.surfaceM[a] < 150; k++) a = up(a);
  const b = graph.downstream[a];
  const ground = graph.surfaceM[a];
  const { px, project } = await look(dirOf(a), ground + 3000, 'river-valley-3km.png');
  // The channel is a curve through the nodes: water near the node at the centre.
  let water = 0, n = 0;
  for (let y = H / 2 - 40; y < H / 2 + 40; y++) {
    for (let x = W / 2 - 40; x < W / 2 + 40; x++) {
      const i = 3 * (y * px.width + x);
      n++;
      if (waterish(px.rgb[i], px.rgb[i + 1], px.rgb[i + 2])) water++;
    }
  }
  const along = alongLine(px, project, dirOf(a), dirOf(b), waterish, 30);
  process.stderr.write(`  node ${a} surface ${ground.toFixed(0)} m width ${graph.widthM[a].toFixed(0)} m: water ${(water / n).toFixed(3)} of the centre, near the line ${along.share.toFixed(2)} of ${along.n}\n`);
  assert.ok(water / n > 0.02, `river water at the centre (${water / n})`);
  assert.equal(problems, []);
});

test.run();
