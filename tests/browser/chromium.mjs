// chromium.mjs - This module starts the headless Debian Chromium the browser
// tests share (a fresh profile, the flags SwiftShader WebGL2 needs) and
// collects console errors, page errors and failed requests into `problems`.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * @param {{width: number, height: number}} viewport
 * @param {string[]} problems receives every console error, page error and failed request
 * @returns {Promise<{context: object, page: object, close: () => Promise<void>}>}
 */
export async function launchChromium(viewport, problems) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'ct-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
    viewport,
    timeout: 60000,
  });
  const page = context.pages()[0] || await context.newPage();
  page.setDefaultTimeout(120000);
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  const close = async () => {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, close };
}
