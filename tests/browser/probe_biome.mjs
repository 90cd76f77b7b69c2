// probe_biome.mjs - ad-hoc: the biome and ground-colour views of the landing world (balanced, seed 42), each at noon and at a low sun, to tests/artifacts/biome/<tag>/. Usage: node tests/browser/probe_biome.mjs TAG [name ...] (CT_BROWSER_SIZE=960x600 by default).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [tag = 'now', ...only] = process.argv.slice(2);
const out = path.join(root, 'tests', 'artifacts', 'biome', tag);
mkdirSync(out, { recursive: true });
/** name, lat, lon, metres above the ground ('eye' walks), heading, tilt (degrees from straight down). */
const VIEWS = [
  ['coast2000km', -44.5, -176, 2000000, 0, 0],
  ['continent500km', 44, 60, 500000, 0, 0],
  ['range100km', 45.5, 58.5, 100000, 0, 35],
  ['range20km', 45.2, 58.2, 20000, 0, 55],
  ['plain3km', 35.25, 45, 3000, 30, 76],
  ['plain300m', 35.25, 45, 300, 30, 80],
  ['shore3km', -44.5, -178.22, 3000, 270, 76],
  ['shore300m', -44.5, -178.22, 300, 270, 80],
  ['eye', 35.25, 45, 'eye', 30, 88],
];
const SUNS = [['noon', 0, 0], ['low', 0, 80]];   // sub-solar point offset from the view (degrees)
const problems = [];
const server = await serve({ port: 0, quiet: true });
const [w, h] = (process.env.CT_BROWSER_SIZE ?? '960x600').split('x').map(Number);
const { page, close } = await launchChromium({ width: w, height: h }, problems);
await page.goto(`${server.url}web/#seed=42&view=20,10,14000000,0,0${process.env.PROBE_HASH ?? ""}`);
await page.evaluate(() => window.ctDemo.ready);
for (const [name, lat, lon, above, heading, tilt] of VIEWS) {
  if (only.length && !only.includes(name)) continue;
  for (const [sun, dLat, dLon] of SUNS) {
    await page.evaluate(([a, b]) => window.ctDemo.setSun(a, b), [lat + dLat, lon + dLon]);
    if (above === 'eye') await page.evaluate(([a, b, hd, t]) => window.ctDemo.walk(a, b, { heading: hd, tilt: t }), [lat, lon, heading, tilt]);
    else {
      const g = Math.max(0, (await page.evaluate((p) => window.ctDemo.sample(p), [[lat, lon]])).heightM[0]);
      await page.evaluate(([a, b, c, hd, t]) => window.ctDemo.goTo(a, b, c, { heading: hd, tilt: t }), [lat, lon, g + above, heading, tilt]);
    }
    await page.evaluate(() => { document.getElementById('panel').style.visibility = 'hidden'; });
    await page.screenshot({ path: path.join(out, `${name}_${sun}.png`) });
    console.log(`${name}_${sun}`);
    if (above === 'eye') await page.evaluate(() => window.ctDemo.leaveWalk());
  }
}
if (problems.length) console.log(problems);
await close();
await server.close();
