// This script runs the demo's standard views in the two other engines players use: Firefox (Debian's firefox-esr, driven by puppeteer-core over WebDriver BiDi) and WebKit, Safari's engine (WebKitGTK's MiniBrowser --automation behind webkit2gtk-driver's WebKitWebDriver, driven by selenium-webdriver), both under xvfb-run because headless Gecko has no WebGL here. It installs the Debian packages when missing (as root), writes tests/artifacts/engines/<engine>-<view>.png and engines.json, and exits non-zero if an engine that ran failed a view.
//   node scripts/engines.mjs [firefox] [webkit] [--views=space,plain-eye] [--hash=surface_lod=6]   (npm run engines)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { root, aptInstall } from './setup.mjs';
import { serve } from './serve.mjs';

const out = path.join(root, 'tests', 'artifacts', 'engines');
const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
/** How long one view may take before it counts as a failure (software GL, a shared machine). */
const VIEW_MS = 240000;
/**
 * The standard views: the globe, the mountains from 3 km, the coast from
 * 300 m and the plain at eye height, in the page's default world (balanced,
 * seed 42, surface_lod 12); the same places as tests/browser/globe_views.test.mjs.
 */
const VIEWS = [
  { name: 'space', go: [20, 10, 14000000, 0, 0] },
  { name: 'mountains-3km', go: [-30.78, -119, 3000, 0, 76], aboveGround: true },
  { name: 'coast-300m', go: [-44.5, -177.2, 300, 270, 80], aboveGround: true },
  { name: 'plain-eye', walk: [35.36, 45, 30, 88] },
];

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

function minibrowser() {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  const r = spawnSync('sh', ['-c', 'dpkg -L libwebkit2gtk-4.1-0 2>/dev/null | grep /MiniBrowser$'], { encoding: 'utf8' });
  return r.stdout.trim().split('\n')[0] || null;
}

/** Debian packages the engines need; installed via apt-get when missing and root. */
function ensurePackages(engines) {
  if (!has('xvfb-run')) aptInstall('xvfb', 'xvfb-run (a virtual X display: headless Gecko has no WebGL)');
  if (engines.includes('firefox') && !existsSync(FIREFOX)) aptInstall('firefox-esr', 'Firefox ESR for the views in Gecko');
  if (engines.includes('webkit') && (!existsSync(WEBKIT_DRIVER) || !minibrowser())) aptInstall('webkit2gtk-driver', 'WebKitWebDriver and MiniBrowser for the views in WebKit');
}

/** One view in a driven page: evaluate(source, arg) runs an async function in the page. */
async function runViews(engine, evaluate, screenshot, views) {
  const results = [];
  // The page's module may still be loading when the driver hands the page over.
  const started = await evaluate(`async () => {
    for (let i = 0; i < 600 && !window.ctDemo; i++) await new Promise((r) => setTimeout(r, 100));
    if (!window.ctDemo) return 'no window.ctDemo after 60 s: ' + (document.getElementById('error')?.textContent || document.getElementById('panel')?.textContent || 'no message');
    await window.ctDemo.ready;
    return 'ok';
  }`);
  if (started !== 'ok') throw new Error(started);
  for (const v of views) {
    const t0 = Date.now();
    try {
      let s;
      // Lit like the browser test's standard views: an afternoon sun south-west of the place.
      const [la, lo] = v.walk ?? v.go;
      await evaluate('async ([a, b]) => window.ctDemo.setSun(a, b)', v.name === 'space' ? [15, 65] : [Math.max(-60, la - 25), lo - 45]);
      if (v.walk) {
        s = await evaluate('async ([a, b, h, t]) => window.ctDemo.walk(a, b, { heading: h, tilt: t })', v.walk);
      } else {
        s = await evaluate(`async ([a, b, c, h, t]) => {
          const g = ${v.aboveGround ? 'Math.max(0, (await window.ctDemo.sample([[a, b]])).heightM[0])' : '0'};
          return window.ctDemo.goTo(a, b, g + c, { heading: h, tilt: t });
        }`, v.go);
      }
      const lit = await evaluate(`async () => {
        const p = window.ctDemo.pixels(4);
        let n = 0;
        for (let i = 0; i < p.rgb.length; i += 3) if (p.rgb[i] + p.rgb[i + 1] + p.rgb[i + 2] > 40) n++;
        return n / (p.rgb.length / 3);
      }`);
      await screenshot(path.join(out, `${engine}-${v.name}.png`));
      const ok = s.tilesDrawn > 0 && s.inFlight === 0 && lit > 0.05;
      results.push({ view: v.name, ok, ms: Date.now() - t0, tiles: s.tilesDrawn, maxLod: s.maxLodDrawn, triangles: s.triangles, lit: Math.round(lit * 1000) / 1000, walking: s.walking });
    } catch (e) {
      results.push({ view: v.name, ok: false, ms: Date.now() - t0, error: e.message.split('\n')[0] });
    }
    const r = results[results.length - 1];
    console.log(`engines: ${engine} ${v.name}: ${r.ok ? 'ok' : 'FAILED'} in ${(r.ms / 1000).toFixed(1)} s${r.error ? ` (${r.error})` : `, ${r.tiles} tiles, LOD ${r.maxLod}, ${r.lit} lit`}`);
  }
  return results;
}

async function firefox(url, views) {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: false, protocol: 'webDriverBiDi',
    defaultViewport: { width: 960, height: 600 }, extraPrefsFirefox: { 'webgl.force-enabled': true }, protocolTimeout: VIEW_MS });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    const evaluate = (src, arg) => page.evaluate(`(${src})(${JSON.stringify(arg ?? null)})`);
    return { version: await browser.version(), views: await runViews('firefox', evaluate, (p) => page.screenshot({ path: p }), views) };
  } finally {
    await browser.close();
  }
}

const freePort = () => new Promise((res) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => res(port)); }); });

async function webkit(url, views) {
  const { Builder } = await import('selenium-webdriver');
  const binary = minibrowser();
  const port = await freePort();
  const driverProc = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 1500));
  let driver;
  try {
    driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities({
      browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary, args: ['--automation'] },
    }).build();
    await driver.manage().setTimeouts({ script: VIEW_MS, pageLoad: VIEW_MS });
    await driver.manage().window().setRect({ width: 960, height: 600 });
    await driver.get(url);
    const evaluate = async (src, arg) => {
      const r = await driver.executeAsyncScript(`const done = arguments[arguments.length - 1];
        (${src})(arguments[0]).then((v) => done({ v }), (e) => done({ e: String(e && e.message || e) }));`, arg ?? null);
      if (r && r.e) throw new Error(r.e);
      return r.v;
    };
    const shot = async (p) => writeFileSync(p, Buffer.from(await driver.takeScreenshot(), 'base64'));
    const caps = await driver.getCapabilities();
    return { version: `${caps.get('browserName')} ${caps.get('browserVersion')}`, views: await runViews('webkit', evaluate, shot, views) };
  } finally {
    await driver?.quit().catch(() => {});
    driverProc.kill();
  }
}

async function main() {
  const asked = process.argv.slice(2).filter((a) => ['firefox', 'webkit'].includes(a));
  const engines = asked.length ? asked : ['firefox', 'webkit'];
  const opt = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const names = opt('views')?.split(',');
  const views = names ? VIEWS.filter((v) => names.includes(v.name)) : VIEWS;
  // Extra address-bar settings (another world for a quick run, e.g. surface_lod=6).
  const extra = opt('hash') ? `&${opt('hash')}` : '';
  ensurePackages(engines);
  if (!process.env.DISPLAY) {
    // Again inside a virtual display: Gecko and WebKitGTK need one for WebGL.
    const r = spawnSync('xvfb-run', ['-a', '-s', '-screen 0 1280x800x24', process.execPath, ...process.argv.slice(1)], { stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
  mkdirSync(out, { recursive: true });
  const server = await serve({ port: 0, quiet: true });
  const url = `${server.url}web/#seed=42&view=20,10,14000000,0,0${extra}`;
  const report = {};
  try {
    for (const e of engines) {
      try {
        report[e] = await (e === 'firefox' ? firefox(url, views) : webkit(url, views));
        report[e].url = url.replace(server.url, '/');
      } catch (err) {
        report[e] = { error: err.message.split('\n')[0] };
        console.log(`engines: ${e} did not run: ${report[e].error}`);
      }
    }
  } finally {
    await server.close();
  }
  writeFileSync(path.join(out, 'engines.json'), `${JSON.stringify(report, null, 1)}\n`);
  const failed = Object.values(report).some((r) => r.error || r.views.some((v) => !v.ok));
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(`engines: ${e.message}`); process.exit(1); });
