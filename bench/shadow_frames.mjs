// shadow_frames.mjs - This module times the terrain's cast shadows in the
// real demo page: headless Chromium loads web/ on the landing world, and over
// fixed views of a mountain range at a low sun (300 m and 30 km above the
// ground) draws frames with shadows off, on with the maps kept (a still
// camera) and on with every map redrawn each frame (a moving camera),
// alternating block by block in one page, and prints the min and median
// frame ms of each. Two clocks: the
// page's GPU timer (EXT_disjoint_timer_query_webgl2, ctDemo.stats().gpuMs;
// null where the browser has none, as on SwiftShader) and the wall time of a
// forced draw with its read-back (ctDemo.pixels: it waits for the frame, so
// it times the GPU's work too, plus a constant read-back).
//
//   node bench/shadow_frames.mjs                      # SwiftShader, 640x400
//   node bench/shadow_frames.mjs --size 1920x1080 --gpu --reps 9
//   node bench/shadow_frames.mjs --pictures out/      # screenshots on and off, no timing
//   --sun DEGREES, --bearing DEGREES: the sun's height over the range and where it shines from (10, 90: east);
//   with --pictures, a list of bearings gives a picture pair for each
//   --views 300m,30km: which views; --view NAME:ABOVE_M:HEADING:TILT adds one over the range
//
// --gpu drops --disable-gpu and adds CT_GPU_FLAGS (default: ANGLE on Vulkan,
// for a headless Linux machine with a GPU and no display).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';
import { subSolarPoint } from '../web/url.js';

/**
 * A range of the landing world (balanced, seed 42): 1.3 to 10 km high within
 * 50 km (tests/browser/globe_views.test.mjs's mountains), and a valley in it
 * at 2.5 km, west of ridges that shade 40% of the ground 0.5 to 4 km north of
 * it with the sun 10 degrees up in the east (found with point samples of the
 * world along east-west lines).
 */
const RANGE = [-30.55, -119], VALLEY = [-30.431, -119.29];
/** The sun's height over the range's horizon (degrees) and the bearing it shines from: early morning, from the east. */
const SUN_ELEVATION = 10, SUN_BEARING = 90;
/**
 * name, height above the ground (m), heading and tilt (degrees) and the spot
 * the middle of the view looks at; the views look north, across the sun.
 */
const VIEWS = [['300m', 300, 0, 80, VALLEY], ['30km', 30000, 0, 60, RANGE]];
const STEP_TIMEOUT_MS = 300000;

function args() {
  const a = process.argv.slice(2), o = { size: '640x400', reps: 5, frames: 5, pictures: null, gpu: false, sun: SUN_ELEVATION, bearings: [SUN_BEARING], views: null };
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--size') o.size = a[++i];
    else if (a[i] === '--reps') o.reps = Number(a[++i]);
    else if (a[i] === '--frames') o.frames = Number(a[++i]);
    else if (a[i] === '--pictures') o.pictures = a[++i];
    else if (a[i] === '--gpu') o.gpu = true;
    else if (a[i] === '--sun') o.sun = Number(a[++i]);
    else if (a[i] === '--bearing') o.bearings = a[++i].split(',').map(Number);
    else if (a[i] === '--views') o.views = a[++i].split(',');
    else if (a[i] === '--view') (o.extra ??= []).push([...a[++i].split(':').map((x, k) => (k ? Number(x) : x)), RANGE]);
    else throw new Error(`shadow_frames: unknown argument '${a[i]}' (--size WxH, --reps N, --frames N, --pictures DIR, --gpu, --sun DEGREES, --bearing DEGREES[,DEGREES...], --views 300m,30km)`);
  }
  const m = /^(\d+)x(\d+)$/.exec(o.size);
  if (!m) throw new Error(`shadow_frames: --size '${o.size}' is not WIDTHxHEIGHT`);
  o.viewport = { width: +m[1], height: +m[2] };
  return o;
}

const rad = (d) => (d * Math.PI) / 180, deg = (r) => (r * 180) / Math.PI;

/** lat/lon moved by metres along a heading (small distances). */
function offset([lat, lon], headingDeg, m) {
  const h = rad(headingDeg), R = 6371000;
  return [lat + deg((m * Math.cos(h)) / R), lon + deg((m * Math.sin(h)) / (R * Math.cos(rad(lat))))];
}

function within(ms, p, what) {
  let timer;
  return Promise.race([p, new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}

async function browser(o, problems) {
  if (!o.gpu) return launchChromium(o.viewport, problems);
  // A GPU-backed browser of its own (the tests' launcher always draws with SwiftShader).
  const flags = (process.env.CT_GPU_FLAGS ?? '--use-angle=vulkan --enable-features=Vulkan --ignore-gpu-blocklist').split(/\s+/).filter(Boolean);
  const b = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--no-first-run', ...flags] });
  const page = await b.newPage({ viewport: o.viewport });
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return { page, close: () => b.close() };
}

/**
 * Shadows 'off' (shadows=0), 'kept' (on: a still camera keeps its shadow maps
 * and pays for the lookups) or 'redrawn' (debug=shadowredraw: every cascade
 * redrawn each frame, what a moving camera pays), set through the address
 * bar without its view and sun (no jump; the sun stays as ctDemo.setSun put
 * it); resolves once the page has read it.
 */
const MODES = ['kept', 'redrawn', 'off'];
const setMode = (page, mode) => page.evaluate((m) => new Promise((resolve) => {
  const parts = location.hash.slice(1).split('&').filter((p) => !/^(view|sun|shadows|debug)=/.test(p));
  if (m === 'off') parts.push('shadows=0');
  if (m === 'redrawn') parts.push('debug=shadowredraw');
  const hash = `#${parts.join('&')}`;
  if (hash === location.hash) { resolve(); return; }
  addEventListener('hashchange', () => setTimeout(resolve, 0), { once: true });
  location.hash = hash;
}), mode);

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? { min: s[0], median: s[(s.length - 1) >> 1], n: s.length } : null;
};
const fmt = (x) => (x ? `min ${x.min.toFixed(2)} median ${x.median.toFixed(2)} ms (${x.n})` : 'n/a');

/** Frames of one block: wall ms of each forced draw with read-back, and the GPU timer's answers after the first two. */
async function block(page, frames) {
  return page.evaluate(async (n) => {
    const wall = [], gpu = [];
    for (let i = 0; i < n + 2; i++) {
      const t0 = performance.now();
      window.ctDemo.pixels(100000);
      const ms = performance.now() - t0;
      const g = window.ctDemo.stats().gpuMs;
      if (i >= 2) { wall.push(ms); if (g !== null) gpu.push(g); }
    }
    return { wall, gpu };
  }, frames);
}

async function main() {
  const o = args(), problems = [];
  const server = await serve({ port: 0, quiet: true });
  const b = await browser(o, problems);
  try {
    const { page } = b;
    const sun = subSolarPoint(RANGE, o.sun, o.bearings[0]);
    await page.goto(`${server.url}web/#preset=balanced&view=${RANGE.join(',')},14000000,0,0&sun=${sun.lat.toFixed(4)},${sun.lon.toFixed(4)}`);
    const ready = await within(STEP_TIMEOUT_MS, page.evaluate(() => window.ctDemo.ready), 'ctDemo.ready');
    const renderer = await page.evaluate(() => {
      const gl = document.getElementById('view').getContext('webgl2');
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      return String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    });
    console.log(`generation ${ready.generation}, ${o.viewport.width}x${o.viewport.height}, renderer: ${renderer}, sun ${o.sun} deg up from bearing ${o.bearings[0]}`);
    if (o.gpu && /swiftshader|llvmpipe/i.test(renderer)) {
      console.warn('--gpu: the page still draws on the CPU; try other CT_GPU_FLAGS (e.g. "--use-angle=gl-egl --ignore-gpu-blocklist")');
    }
    if (o.pictures) mkdirSync(o.pictures, { recursive: true });
    for (const [name, above, heading, tilt, spot] of [...VIEWS.filter((v) => !o.views || o.views.includes(v[0])), ...(o.extra ?? [])]) {
      // Stand back from the range so the middle of the view looks at it.
      const [lat, lon] = offset(spot, heading + 180, above * Math.tan(rad(tilt)) * 0.6);
      const ground = Math.max(0, (await page.evaluate((p) => window.ctDemo.sample(p), [[lat, lon]])).heightM[0]);
      const s = await within(STEP_TIMEOUT_MS, page.evaluate(([a, c, h, hd, t]) => window.ctDemo.goTo(a, c, h, { heading: hd, tilt: t }),
        [lat, lon, ground + above, heading, tilt]), `view ${name}`);
      console.log(`${name}: ${s.tilesDrawn} tiles, ${(s.triangles / 1e6).toFixed(2)} M triangles, finest LOD ${s.maxLodDrawn}`);
      if (o.pictures) {
        await page.evaluate(() => { document.getElementById('panel').style.visibility = 'hidden'; });
        for (const bearing of o.bearings) {
          const p = subSolarPoint(RANGE, o.sun, bearing);
          await page.evaluate(([a, c]) => window.ctDemo.setSun(a, c), [p.lat, p.lon]);
          const tail = `${name}${o.bearings.length > 1 ? `-sun${bearing}` : ''}`;
          for (const mode of ['kept', 'off']) {
            await setMode(page, mode);
            await page.evaluate(() => window.ctDemo.pixels(100000));
            await page.screenshot({ path: path.join(o.pictures, `shadows${mode === 'off' ? '-off' : ''}-${tail}.png`) });
          }
        }
        await page.evaluate(() => { document.getElementById('panel').style.visibility = ''; });
        await setMode(page, 'kept');
        continue;
      }
      const acc = Object.fromEntries(MODES.map((m) => [m, { wall: [], gpu: [] }]));
      for (let r = 0; r < o.reps; r++) {
        // Each rep runs the modes in another order (rotated), so none always follows another.
        for (let j = 0; j < MODES.length; j++) {
          const mode = MODES[(j + r) % MODES.length];
          await setMode(page, mode);
          const f = await block(page, o.frames);
          acc[mode].wall.push(...f.wall);
          acc[mode].gpu.push(...f.gpu);
        }
      }
      await setMode(page, 'kept');
      for (const m of MODES) console.log(`  shadows ${m.padEnd(7)}  gpu ${fmt(stats(acc[m].gpu))}  draw+readback ${fmt(stats(acc[m].wall))}`);
      for (const m of ['kept', 'redrawn']) {
        const d = (k) => (stats(acc[m][k]) && stats(acc.off[k]) ? (stats(acc[m][k]).median - stats(acc.off[k]).median).toFixed(2) : 'n/a');
        console.log(`  cost of shadows ${m} (median - off): gpu ${d('gpu')} ms, draw+readback ${d('wall')} ms`);
      }
    }
    if (problems.length) console.log(problems);
  } finally {
    await b.close();
    await server.close();
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
