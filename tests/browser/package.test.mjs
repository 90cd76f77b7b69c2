// Real-browser tests of what a game developer installs: (1) a page bundled
// with esbuild from the packed and installed package, served alone (no
// node_modules, no copied ct.wasm or worker script), runs loadCore and a
// worker pool and gets the same generation and chunk digest as Node, and
// bundles the ./stream entry;
// (2) examples/three, served as plain ES modules, streams chunk meshes into
// a three.js scene from space and near the ground with no console errors,
// and walks a Rapier character on a slope: it stands, jumps and lands on the
// exact ground, and a click drops a marker on it; the trees round it are
// drawn as instances and walking into one stops the character at its trunk.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { sharedChromium } from './chromium.mjs';
import { packAndInstall, pkg, root } from '../pack_fixture.mjs';
import { loadCore } from '../../wasm/ct.mjs';
import { latLonToDir, enuFrame, dirToLatLon, groundPoseFromLatLon, movePose, keyAt, SCATTER_KINDS } from '../../stream/index.js';

const artifacts = path.join(root, 'tests', 'artifacts');
// A coast of the example's default world (balanced, seed 42): land here, sea 1.5 degrees south.
const COAST = [16, 34];
// 2 km north-east of it, ground sloping 13 degrees (the surface_lod mesh's
// triangles are about a kilometre across there): where the character walks.
const SLOPE = [15.986, 34.011];
const SMALL = { preset: 'balanced', set: { macro_resolution: 16, surface_lod: 2, seed: 5 } };
const KEY = { face: 1, lod: 2, x: 3, y: 0 };
let page, closeBrowser, fx;
const servers = [];
const problems = [];

const appSource = `
import { loadCore } from '${pkg.name}';
import { createPool } from '${pkg.name}/worker';
import { keyId, parseKey } from '${pkg.name}/stream';
const spec = ${JSON.stringify(SMALL)}, key = ${JSON.stringify(KEY)};
window.result = (async () => {
  const world = (await loadCore()).buildWorld(spec);
  const pool = await createPool({ workers: 2 });
  const info = await pool.build(spec);
  const chunk = await pool.chunk(key);
  const out = { generation: world.generation, digest: world.chunk(key).digest,
    poolGeneration: info.generation, poolDigest: chunk.digest, workers: pool.stats().workers,
    id: keyId(parseKey(key)), address: await pool.address(key) };
  await pool.terminate();
  return out;
})();
`;

test.before(async () => {
  mkdirSync(artifacts, { recursive: true });
  ({ page, close: closeBrowser } = await sharedChromium({ width: 800, height: 500 }, problems));
});

test.after(async () => {
  // Off examples/three first: it draws every frame, and software GL would
  // keep both cores busy for as long as the page stayed open.
  await page?.goto('about:blank').catch(() => {});
  for (const s of servers) await s.close();
  if (fx && fx.dir.includes('ct-pack-')) rmSync(fx.dir, { recursive: true, force: true });
  await closeBrowser?.();
});

test('a page bundled with esbuild from the installed package needs no copied files', async () => {
  fx = packAndInstall({ 'app.js': appSource });
  const site = path.join(fx.project, 'site');
  mkdirSync(site);
  // The game's own bundle step: nothing but the entry and the output.
  await build({ absWorkingDir: fx.project, entryPoints: ['app.js'], bundle: true, format: 'esm', platform: 'browser',
    outfile: path.join(site, 'app.js'), logLevel: 'error' });
  writeFileSync(path.join(site, 'index.html'), '<!doctype html><meta charset="utf-8"><title>game</title><link rel="icon" href="data:,"><script type="module" src="app.js"></script>');
  assert.equal(readdirSync(site).sort(), ['app.js', 'index.html'], 'the site holds only the page and its bundle');
  const server = await serve({ root: site, port: 0, quiet: true });
  servers.push(server);
  await page.goto(`${server.url}index.html`);
  const got = await page.evaluate(() => window.result);
  const world = (await loadCore()).buildWorld(SMALL);
  assert.is(got.generation, world.generation, 'loadCore in the page');
  assert.is(got.digest, world.chunk(KEY).digest, 'chunk in the page');
  assert.is(got.poolGeneration, world.generation, 'worker pool in the page');
  assert.is(got.poolDigest, got.digest, 'worker chunk');
  assert.is(got.workers, 2);
  assert.is(got.id, 'nx/2/3/0', 'the ./stream entry bundles from the installed package');
  assert.is(got.address, world.address(KEY), 'the address is the core\'s own');
  assert.equal(problems, []);
});

/** Share of canvas pixels that are not near-black (the canvas keeps its drawing buffer). */
const litShare = () => page.evaluate(() => {
  const src = document.querySelector('canvas');
  const c = document.createElement('canvas');
  c.width = 200; c.height = 125;
  const g = c.getContext('2d');
  g.drawImage(src, 0, 0, c.width, c.height);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let lit = 0;
  const colours = new Set();
  for (let i = 0; i < d.length; i += 4) {
    if (d[i] + d[i + 1] + d[i + 2] > 40) lit++;
    colours.add(((d[i] >> 4) << 8) | ((d[i + 1] >> 4) << 4) | (d[i + 2] >> 4));
  }
  return { lit: lit / (d.length / 4), colours: colours.size };
});

test('examples/three streams chunk meshes into a three.js scene, from space to near a coast', async () => {
  problems.length = 0;
  const server = await serve({ port: 0, quiet: true });
  servers.push(server);
  // Shadows have their own checks (globe.test.mjs); software GL pays for every shadow map.
  const res = await page.goto(`${server.url}examples/three/#surface_lod=5&shadows=0`);
  assert.is(res.status(), 200);
  const space = await page.evaluate(() => window.ctThree.ready);
  assert.ok(space.tilesDrawn >= 3, `tiles drawn from space (at least the three faces in view): ${space.tilesDrawn}`);
  assert.ok(space.triangles > 10000, `triangles ${space.triangles}`);
  const px = await litShare();
  assert.ok(px.lit > 0.15 && px.lit < 0.9, `the planet covers part of the view: ${px.lit}`);
  assert.ok(px.colours >= 8, `terrain colours: ${px.colours}`);
  await page.screenshot({ path: path.join(artifacts, 'three-space.png') });

  const low = await page.evaluate((c) => window.ctThree.goTo(c[0], c[1], 25000), COAST);
  assert.ok(low.maxLodDrawn >= 5, `finest LOD near the ground: ${low.maxLodDrawn}`);
  assert.ok(low.triangles > space.triangles, `finer meshes near the ground: ${low.triangles} triangles`);
  const near = await litShare();
  assert.ok(near.lit > 0.3, `ground fills the view: ${near.lit}`);
  await page.screenshot({ path: path.join(artifacts, 'three-ground.png') });
  assert.equal(low.errors, []);

  // A Rapier character stands on the GroundNeighbourhood's colliders, on
  // a slope, watched from behind and facing across it: its feet on the
  // exact ground of the same world (Node's core), within what Rapier's
  // controller leaves between them (snap and skin, centimetres).
  const world = (await loadCore()).buildWorld({ preset: 'balanced', set: { seed: 42, surface_lod: 5 } });
  const R = world.config.radius_m;
  const spot = world.groundAt(latLonToDir(...SLOPE));
  assert.ok(spot.slopeDeg > 8 && !(spot.hasWater && spot.waterM > spot.heightM), `a dry slope: ${spot.slopeDeg} degrees`);
  const { east, north } = enuFrame(latLonToDir(...SLOPE)), dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const across = (Math.atan2(dot(spot.normal, east), dot(spot.normal, north)) * 180) / Math.PI + 90;   // downhill on the left
  const walk = await page.evaluate(([lat, lon, h]) => window.ctThree.walk(lat, lon, h, { view: 'third' }), [...SLOPE, across]);
  assert.ok(walk.active && walk.placed && walk.grounded && walk.view === 'third', `the character stands: ${JSON.stringify(walk)}`);
  const feet = (w) => {
    const g = world.groundAt(w.dir);
    assert.ok(Math.abs(w.heightM - g.heightM) < 0.25, `feet at ${w.heightM.toFixed(3)} m, exact ground ${g.heightM.toFixed(3)} m`);
  };
  feet(walk);
  assert.ok(walk.colliders >= 1 && walk.ground.triangles > 0, `colliders held: ${walk.colliders}`);

  // Space's jump: up with radial gravity and back down on the ground.
  // The physics steps with the frames, a capped time each, and software GL
  // under load draws a frame every second or more: the bound only catches a
  // hang (a jump that never lands), never a slow machine.
  const jump = await page.evaluate(() => window.ctThree.jump(110000));
  assert.ok(jump.topM - jump.standM > 0.3, `rose ${(jump.topM - jump.standM).toFixed(2)} m`);
  assert.ok(jump.landed.grounded, 'landed');
  feet(jump.landed);

  // A real click on the ground in front of the camera: a marker where the
  // neighbourhood's raycast hits, which is the exact ground and the core's
  // own raycast along the same ray.
  await page.mouse.click(540, 330);
  const { walk: clicked } = await page.evaluate(() => window.ctThree.stats());
  const c = clicked.lastClick;
  assert.ok(clicked.markers === 1 && c && c.hit, `a marker dropped: ${JSON.stringify(c)}`);
  const r = Math.hypot(...c.point), under = world.groundAt(c.point.map((v) => v / r));
  assert.ok(Math.abs(r - R - under.heightM) < 0.25, `marker ${(r - R).toFixed(3)} m, exact ground ${under.heightM.toFixed(3)} m`);
  const core = world.raycast(c.origin, c.dir, 20000);
  assert.ok(core && Math.hypot(...core.point.map((v, i) => v - c.point[i])) < 1, `the core's raycast hits ${core && core.distanceM} m, the page's ${c.distanceM} m`);
  await page.screenshot({ path: path.join(process.env.CT_DOCS_PICTURES === '1' ? path.join(root, 'docs', 'img') : artifacts, 'three-walk.png') });

  // Trees: the tallest trunk of the slope's chunk on flat dry ground (Node's
  // world.scatter), approached from 6 m south. Without its collider the walk
  // would take the character 14 m past it through the trunk.
  const s = world.scatter(keyAt(latLonToDir(...SLOPE), 5).key);
  let tree = null;
  for (let i = 0; i < s.count; i++) {
    const k = SCATTER_KINDS[s.kind[i]], r = k.collisionPerM * s.scale[i];
    if (!['conifer', 'broadleaf', 'palm'].includes(k.name) || r < 0.25) continue;
    const foot = [0, 1, 2].map((c) => s.center[c] + s.positions[3 * i + c]), up = foot.map((v) => v / Math.hypot(...foot)), g = world.groundAt(up);
    if (g.slopeDeg < 3 && !g.hasWater && (!tree || s.scale[i] > tree.scale)) tree = { up, r, scale: s.scale[i] };
  }
  assert.ok(tree, 'a tree on flat ground');
  const t = dirToLatLon(tree.up), start = dirToLatLon(movePose(groundPoseFromLatLon(t.lat, t.lon, 180), 6, 0, R).dir);
  await page.evaluate(([lat, lon]) => window.ctThree.walk(lat, lon, 0), [start.lat, start.lon]);
  const ready = await page.evaluate(() => window.ctThree.scatterReady());
  assert.ok(ready.scatter.drawn > 0 && ready.scatter.obstacles.some((o) => o.shape === 'cylinder'), `trees drawn and solid: ${ready.scatter.drawn}`);
  const walked = await page.evaluate(() => window.ctThree.advance(4, 5));
  // The character's distance from the trunk's axis, and how far north of the tree it is, at each step.
  const toN = enuFrame(tree.up).north, dotp = (p, q) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
  const axis = walked.trace.map((p) => ({ d: Math.sqrt(Math.max(0, 1 - dotp(p, tree.up) ** 2)) * R, north: dotp(p, toN) * R }));
  const closest = Math.min(...axis.map((a) => a.d)), last = axis[axis.length - 1];
  // It never enters the trunk (the capsule's 0.3 m radius stays outside the
  // tree's, less the controller's 2 cm skin); it reached it, and past it
  // (the controller slides round an obstacle) it went by at the trunk's side.
  assert.ok(closest >= tree.r + 0.25, `outside the trunk: ${closest.toFixed(2)} m from its axis at the closest (radius ${tree.r.toFixed(2)} m)`);
  assert.ok(closest < tree.r + 0.6, `walked up to it: ${closest.toFixed(2)} m`);
  process.stderr.write(`  tree: radius ${tree.r.toFixed(2)} m, closest ${closest.toFixed(2)} m from its axis, ended ${last.north.toFixed(2)} m north, ${ready.scatter.drawn} instances drawn\n`);
  const by = axis.find((a) => a.north > 0);
  assert.ok(!by || Math.sqrt(by.d ** 2 - by.north ** 2) >= tree.r + 0.25, `went round it: ${JSON.stringify(by)} (last ${JSON.stringify(last)})`);
  world.free();
  await page.evaluate(() => window.ctThree.view('third'));
  await page.screenshot({ path: path.join(artifacts, 'three-tree.png') });
  assert.equal(problems, []);
});

test.run();
