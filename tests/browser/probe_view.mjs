// probe_view.mjs - ad-hoc: one or more views of the landing world, settle time, triangles and detail share; pictures to tests/artifacts/probe/. Usage: node tests/browser/probe_view.mjs lat,lon,aboveM,heading,tilt[,name] ...
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';
import { detailShare } from './detail_metric.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.join(root, 'tests', 'artifacts', 'probe');
mkdirSync(out, { recursive: true });
const problems = [];
const server = await serve({ port: 0, quiet: true });
const { page, close } = await launchChromium({ width: 960, height: 600 }, problems);
await page.goto(`${server.url}web/#seed=42&view=20,10,14000000,0,0${process.env.PROBE_HASH ?? ''}`);
await page.evaluate(() => window.ctDemo.ready);
for (const arg of process.argv.slice(2)) {
  const [lat, lon, above, heading, tilt, name] = arg.split(',');
  await page.evaluate(([a, b]) => window.ctDemo.setSun(a, b), [Math.max(-60, +lat - 25), +lon - 45]);
  const t0 = Date.now();
  let s;
  if (above === 'eye') s = await page.evaluate(([a, b, h, t]) => window.ctDemo.walk(a, b, { heading: h, tilt: t }), [+lat, +lon, +heading, +tilt]);
  else {
    const g = Math.max(0, (await page.evaluate((p) => window.ctDemo.sample(p), [[+lat, +lon]])).heightM[0]);
    s = await page.evaluate(([a, b, c, h, t]) => window.ctDemo.goTo(a, b, c, { heading: h, tilt: t }), [+lat, +lon, g + +above, +heading, +tilt]);
  }
  const ms = Date.now() - t0;
  const d = detailShare(await page.evaluate(() => window.ctDemo.pixels(1)));
  await page.evaluate(() => { document.getElementById('panel').style.visibility = 'hidden'; });
  await page.screenshot({ path: path.join(out, `${name ?? arg}.png`) });
  console.log(`${name ?? arg}: ${(ms / 1000).toFixed(1)} s, ${s.tilesDrawn} tiles, L${s.maxLodDrawn}, ${(s.triangles / 1e6).toFixed(2)} M, asked ${s.requested}, detail ${(100 * d.share).toFixed(0)}% of ${d.blocks}`);
  if (above === 'eye') await page.evaluate(() => window.ctDemo.leaveWalk());
}
if (problems.length) console.log(problems);
await close();
await server.close();
