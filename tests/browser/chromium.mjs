// chromium.mjs - This module starts the headless Debian Chromium the browser
// tests share (a fresh profile, the flags SwiftShader WebGL2 needs) and
// collects console errors, page errors, crashes and failed requests into
// `problems`. launchChromium starts a browser of its own (bench, ad-hoc
// probes); sharedChromium hands every test file of one process the same
// browser and page, so `uvu tests/browser` starts Chromium once.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The page size the browser tests draw at. Software GL shades every pixel on
 * the CPU, and a frame's cost grows with its pixels: 640x400 takes about 40%
 * less CPU than 960x600 over globe.test.mjs with every check passing.
 * CT_BROWSER_SIZE=960x600 draws the pictures larger, for looking at them.
 * @returns {{width: number, height: number}}
 */
export function testViewport() {
  const m = /^(\d+)x(\d+)$/.exec(process.env.CT_BROWSER_SIZE || '640x400');
  if (!m || +m[1] < 320 || +m[2] < 200) throw new Error(`CT_BROWSER_SIZE: '${process.env.CT_BROWSER_SIZE}' is not WIDTHxHEIGHT of at least 320x200`);
  return { width: +m[1], height: +m[2] };
}

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];

/** A persistent context on a fresh profile; its first page reports into sink.problems. */
async function start(viewport, sink) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'ct-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ARGS,
    viewport,
    timeout: 60000,
  });
  const page = context.pages()[0] || await context.newPage();
  page.setDefaultTimeout(120000);
  page.on('console', (m) => { if (m.type() === 'error') sink.problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => sink.problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => sink.problems.push(`request failed: ${r.url()}`));
  page.on('crash', () => sink.problems.push('page crashed'));
  const close = async () => {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, close };
}

/**
 * A browser of its own, closed by close().
 * @param {{width: number, height: number}} viewport
 * @param {string[]} problems receives every console error, page error, crash and failed request
 * @returns {Promise<{context: object, page: object, close: () => Promise<void>}>}
 */
export async function launchChromium(viewport, problems) {
  return start(viewport, { problems });
}

/** The one browser of this process: its start promise, who holds it, and where its page reports. */
const shared = { started: null, users: 0, closing: null, timer: null, sink: { problems: [] } };

/**
 * The browser and page every test file of this process shares. The page keeps
 * its init scripts between files; each file navigates it to its own address
 * first. close() hands it back: the browser closes once no file holds it
 * (after the event loop turns, so the next file of a `uvu tests/browser` run
 * takes it over instead of starting another).
 * @param {{width: number, height: number}} viewport set on the page for this file
 * @param {string[]} problems receives this file's console errors, page errors, crashes and failed requests
 * @returns {Promise<{context: object, page: object, close: () => Promise<void>}>}
 */
export async function sharedChromium(viewport, problems) {
  clearTimeout(shared.timer);
  shared.users += 1;
  if (shared.closing) await shared.closing;
  if (!shared.started) shared.started = start(viewport, shared.sink);
  const { context, page } = await shared.started;
  // Off the last file's page first: what its teardown reports (requests cut
  // short by the navigation) is not this file's problem.
  await page.goto('about:blank');
  shared.sink.problems = problems;
  await page.setViewportSize(viewport);
  let released = false;
  const close = async () => {
    if (released) return;
    released = true;
    shared.users -= 1;
    if (shared.users > 0) return;
    shared.timer = setTimeout(() => {
      if (shared.users > 0 || !shared.started) return;
      const done = shared.started;
      shared.started = null;
      shared.closing = done.then((b) => b.close()).finally(() => { shared.closing = null; });
    }, 0);
  };
  return { context, page, close };
}
