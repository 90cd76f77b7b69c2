// Real-browser test of the rivers on the globe: the river graph of the test world (solved again here by the core) gives a river mouth and places upstream; the page draws the graph as lines from orbit (checked against the same frame with debug=norivers), looks at the mouth from 30 km and into a wide and a narrow river valley from 3 km (the chunks' own river water, the lines faded out); the pictures go to tests/artifacts/ (with CT_DOCS_PICTURES=1, two of them to docs/img/, drawn at CT_BROWSER_SIZE). Last, on a world with streams, the page draws the streams (world.streams) as thin blue lines where the core has them (checked against the same frame with the stream layer off).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { sharedChromium, testViewport } from './chromium.mjs';
import { loadCore } from '../../wasm/ct.mjs';
import { dirToLatLon } from '../../stream/geo.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const artifacts = path.join(root, 'tests', 'artifacts');
/** The README's river pictures are redrawn only when asked: a test run leaves docs/ as it found it. */
const img = process.env.CT_DOCS_PICTURES === '1' ? path.join(root, 'docs', 'img') : artifacts;
/** The world's surface_lod (CT_RIVERS_LOD overrides it, to see narrow rivers at a finer spacing). */
const SURFACE_LOD = Number(process.env.CT_RIVERS_LOD) || 6;
let server, page, closeBrowser, graph, radiusM;
const problems = [];

function within(ms, p, what) {
  let timer;
  return Promise.race([p, new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}

const dirOf = (i) => [graph.direction[3 * i], graph.direction[3 * i + 1], graph.direction[3 * i + 2]];
const waterish = (r, g, b) => b > r + 15 && b >= g - 10;

/** Full-resolution readback of the page's canvas. */
const readback = () => page.evaluate(() => window.ctDemo.pixels(1));

test.before(async () => {
  mkdirSync(img, { recursive: true });
  mkdirSync(artifacts, { recursive: true });
  const core = await loadCore();
  const w = core.buildWorld({ preset: 'balanced', set: { surface_lod: SURFACE_LOD } });
  graph = w.rivers();
  radiusM = w.config.radius_m;
  w.free();
  server = await serve({ port: 0, quiet: true });
  ({ page, close: closeBrowser } = await sharedChromium(testViewport(), problems));
  // Shadows and scatter have their own checks (globe's mountains view, populate.test.mjs);
  // software GL pays for every shadow map and instance, so pages that test other things go without.
  await page.goto(`${server.url}web/#preset=balanced&surface_lod=${SURFACE_LOD}&view=20,10,14000000,0,0&shadows=0&scatter=0`);
  await within(120000, page.evaluate(() => window.ctDemo.ready), 'ctDemo.ready');
});

test.after(async () => {
  await server?.close();
  await closeBrowser?.();
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

async function look(dir, altM, name, dir2 = img) {
  const { lat, lon } = dirToLatLon(dir);
  await page.evaluate(([a, b]) => window.ctDemo.setSun(a, b), [Math.max(-60, lat - 25), lon - 45]);
  await within(200000, page.evaluate(([a, b, h]) => window.ctDemo.goTo(a, b, h, { heading: 0, tilt: 0 }), [lat, lon, altM]), `goTo ${name}`);
  await page.evaluate(() => document.getElementById('panel').style.visibility = 'hidden');
  await page.screenshot({ path: path.join(dir2, name) });
  await page.evaluate(() => document.getElementById('panel').style.visibility = '');
  return { px: await readback() };
}

/**
 * Sets the address's hash and resolves once the page has taken it (its own
 * hashchange listener, added first, runs before this one) and drawn
 * everything the view wants.
 */
const setHash = (h) => within(200000, page.evaluate((x) => new Promise((res) => {
  addEventListener('hashchange', () => res(window.ctDemo.settled()), { once: true });
  location.hash = x;
}), h), 'hashchange');

/** Readback with the river lines and without them (the page's debug=norivers). */
async function withAndWithout() {
  const on = await readback();
  const hash = await page.evaluate(() => location.hash);
  await setHash(`${hash}&debug=norivers`);
  const off = await readback();
  await setHash(hash.replace(/&debug=norivers/, ''));
  return frameChange(on, off);
}

/** Pixels that differ between two frames (by more than 24 over the channels), their share, and the share of those that turned bluer. */
function frameChange(on, off) {
  let diff = 0, bluer = 0;
  for (let i = 0; i < on.rgb.length; i += 3) {
    const d = Math.abs(on.rgb[i] - off.rgb[i]) + Math.abs(on.rgb[i + 1] - off.rgb[i + 1]) + Math.abs(on.rgb[i + 2] - off.rgb[i + 2]);
    if (d <= 24) continue;
    diff++;
    if (on.rgb[i + 2] - off.rgb[i + 2] > on.rgb[i] - off.rgb[i]) bluer++;
  }
  return { diff, share: diff / (on.rgb.length / 3), bluer: diff ? bluer / diff : 0 };
}

test('from orbit the river graph is drawn as thin blue lines', async () => {
  const { mouth } = mouthAndUpstream();
  await look(dirOf(mouth), 800000, 'rivers-orbit-800km.png', artifacts);
  const d = await withAndWithout();
  process.stderr.write(`  orbit 800 km: ${d.diff} pixels (${(100 * d.share).toFixed(2)} %) changed by the lines, ${(100 * d.bluer).toFixed(0)} % of them bluer\n`);
  assert.ok(d.diff > 300, `river lines drawn (${d.diff} pixels)`);
  assert.ok(d.share < 0.08, `thin lines, not areas (${d.share})`);
  assert.ok(d.bluer > 0.8, `the lines are blue (${d.bluer})`);
  assert.equal(problems, []);
});

test('a river mouth from 30 km: the chunks draw the river water, the lines have faded out', async () => {
  const { mouth } = mouthAndUpstream();
  assert.ok(mouth >= 0, 'the test world has a river mouth');
  const { px } = await look(dirOf(mouth), 30000, 'river-mouth-30km.png');
  const w = waterShare(px, 60);
  const d = await withAndWithout();
  process.stderr.write(`  mouth ${mouth} width ${graph.widthM[mouth].toFixed(0)} m: water ${w.toFixed(3)} of the centre, lines change ${d.diff} pixels\n`);
  assert.ok(w > 0.05, `river water at the mouth (${w})`);
  assert.ok(d.share < 0.002, `the lines are faded out this close (${d.diff} pixels)`);
  assert.equal(problems, []);
});

/**
 * Share of water-coloured pixels in the square around the centre whose
 * half-side is r pixels of a 600-pixel-high view (the same patch of ground at
 * any page height: the vertical field of view is fixed).
 */
function waterShare(px, r600) {
  const r = Math.round((r600 * px.height) / 600), cx = px.width >> 1, cy = px.height >> 1;
  let water = 0, n = 0;
  for (let y = cy - r; y < cy + r; y++) {
    for (let x = cx - r; x < cx + r; x++) {
      const i = 3 * (y * px.width + x);
      n++;
      if (waterish(px.rgb[i], px.rgb[i + 1], px.rgb[i + 2])) water++;
    }
  }
  return water / n;
}

test('a river valley from 3 km: the chunks draw the river as water, a wide and a narrow one', async () => {
  const { mouth, up } = mouthAndUpstream();
  // A few nodes up the main stem: a valley above the sea, still a large river.
  let a = up(mouth);
  for (let k = 0; k < 3 && up(a) >= 0 && graph.surfaceM[a] < 150; k++) a = up(a);
  // A typical narrow river (a quarter to a third of the sample spacing wide) above 100 m.
  let narrow = -1;
  for (let i = 0; i < graph.downstream.length && narrow < 0; i++) {
    if (graph.downstream[i] >= 0 && graph.widthM[i] > 230 && graph.widthM[i] < 300 && graph.surfaceM[i] > 100) narrow = i;
  }
  assert.ok(narrow >= 0, 'a narrow river found');
  const shares = [];
  for (const [i, name, dir] of [[a, 'river-valley-3km.png', img], [narrow, 'river-narrow-3km.png', artifacts]]) {
    const { px } = await look(dirOf(i), graph.surfaceM[i] + 3000, name, dir);
    const w = waterShare(px, 40);
    shares.push(w);
    process.stderr.write(`  ${name}: node ${i} surface ${graph.surfaceM[i].toFixed(0)} m width ${graph.widthM[i].toFixed(0)} m: water ${w.toFixed(3)} of the centre\n`);
  }
  assert.ok(shares[0] > 0.3, `wide river: water at the centre (${shares[0]})`);
  assert.ok(shares[1] > 0.02, `narrow river: water at the centre (${shares[1]})`);
  assert.equal(problems, []);
});

// ---- streams: the network below the rivers drawn as water (web/stream_layer.js) ----
// A world with streams that stays cheap: surface_lod 10 and the coarse lattice only.
const STREAM_WORLD = { preset: 'balanced', set: { surface_lod: 10, stream_depth_m: 16, stream_level: 4, stream_fine_level: 0, stream_from_lod: 10 } };

/** A LOD 8 key on dry land well crossed by streams, and its centre direction. */
function streamyKey() {
  return loadCore().then((core) => {
    const w = core.buildWorld(STREAM_WORLD);
    try {
      for (let i = 1; i < 400; i++) {
        const d = [Math.sin(i * 1.7), Math.cos(i * 2.3), Math.sin(i * 0.9 + 1)];
        const s = w.sample([d]);
        if (s.hasWater[0] || s.heightM[0] < 100) continue;
        const { key } = w.keyAt(d, 8), st = w.streams(key);
        if (st.count < 20) continue;
        const c = Array.from(st.center), len = Math.hypot(...c);
        return { key, dir: c.map((v) => v / len) };
      }
      throw new Error('no land key with streams');
    } finally {
      w.free();
    }
  });
}

// The globe of a streams world streams its coarse chunks at 4-15x their cost
// without streams (docs/generation.md, "Streams"): in software GL this check
// alone took about 6 minutes of a 10-minute suite, so it runs on demand
// (CT_BROWSER_STREAMS=1); tests/js covers world.streams, pool.streams and the
// layer's geometry on every run.
const streamsTest = process.env.CT_BROWSER_STREAMS === '1' ? test : test.skip;

streamsTest('streams: the page draws them as thin blue lines where the core has them', async () => {
  const { dir } = await streamyKey();
  const { lat, lon } = dirToLatLon(dir);
  await within(300000, page.evaluate((w) => window.ctDemo.rebuild(w), STREAM_WORLD), 'the streams world');
  const g = Math.max(0, (await page.evaluate((p) => window.ctDemo.sample(p), [[lat, lon]])).heightM[0]);
  await within(300000, page.evaluate(([a, b, h]) => window.ctDemo.goTo(a, b, h, { heading: 0, tilt: 0 }), [lat, lon, g + 25000]), 'goTo streams');
  let st;
  for (let i = 0; i < 300; i++) {
    st = await page.evaluate(() => window.ctDemo.setStreams(true));
    if (st.pending === 0 && st.keys > 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const on = await readback();
  await page.screenshot({ path: path.join(artifacts, 'streams-25km.png') });
  await page.evaluate(() => window.ctDemo.setStreams(false));
  const off = await readback();
  await page.evaluate(() => window.ctDemo.setStreams(true));
  const c = frameChange(on, off);
  process.stderr.write(`  streams 25 km: ${st.keys} keys, ${st.drawn.segments} segments drawn, ${c.diff} pixels (${(100 * c.share).toFixed(2)} %) changed, ${(100 * c.bluer).toFixed(0)} % bluer\n`);
  assert.ok(st.drawn.segments > 100, `stream segments drawn (${st.drawn.segments})`);
  assert.ok(c.diff > 300, `stream pixels drawn (${c.diff})`);
  assert.ok(c.share < 0.25, `lines, not areas (${c.share})`);
  assert.ok(c.bluer > 0.8, `the lines are water blue (${(100 * c.bluer).toFixed(0)} % of ${c.diff})`);
  assert.equal(problems, []);
});

test.run();
