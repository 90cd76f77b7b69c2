// serve.test.mjs - scripts/serve.mjs (the server behind `npm start`) against
// hostile requests, each sent to a real server process on a free port: an
// unreadable file, FIFOs, symlinks out of the folder, `//host` redirects and
// methods other than GET and HEAD. Run as root, the server drops to `nobody`
// so that an unreadable file really is unreadable.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, chmodSync, symlinkSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './ct_fixture.mjs';

const SCRIPT = process.env.SERVE_SCRIPT || path.join(ROOT, 'scripts/serve.mjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'ct-serve-'));
const site = path.join(dir, 'site');
mkdirSync(path.join(site, 'web'), { recursive: true });
writeFileSync(path.join(site, 'web/index.html'), '<!doctype html><title>demo</title>');
writeFileSync(path.join(site, 'ok.txt'), 'fine');
writeFileSync(path.join(site, 'locked.txt'), 'secret');
chmodSync(path.join(site, 'locked.txt'), 0o000);
writeFileSync(path.join(dir, 'outside.txt'), 'outside the folder');
symlinkSync(path.join(dir, 'outside.txt'), path.join(site, 'escape.txt'));
symlinkSync(path.join(site, 'ok.txt'), path.join(site, 'alias.txt'));
const fifos = [0, 1, 2, 3, 4, 5].map((i) => path.join(site, `pipe${i}`));
const haveFifo = fifos.every((f) => spawnSync('mkfifo', [f]).status === 0);
for (const p of [dir, site, path.join(site, 'web')]) chmodSync(p, 0o755);

let child;
let base;

/**
 * One request; resolves {status, headers, body} or {error} (timeouts included).
 * The timeout only tells a jammed server from a slow one, so it is generous.
 */
function request(method, url, timeoutMs = 60000) {
  return new Promise((resolve) => {
    const req = http.request(base + url, { method }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', (error) => resolve({ error }));
    });
    req.setTimeout(timeoutMs, () => { req.destroy(new Error('timeout')); });
    req.on('error', (error) => resolve({ error }));
    req.end();
  });
}

test.before(async () => {
  const opts = { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] };
  if (process.getuid && process.getuid() === 0) Object.assign(opts, { uid: 65534, gid: 65534 });
  child = spawn(process.execPath, [SCRIPT, site], opts);
  base = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/at (http:\/\/[\d.]+:\d+)\//);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60000).unref();
  });
});

test.after(() => {
  if (child && child.exitCode === null) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

const alive = async () => {
  const r = await request('GET', '/ok.txt');
  return r.status === 200 && r.body === 'fine';
};

test('a file it cannot read is refused and the server stays up', async () => {
  const r = await request('GET', '/locked.txt');
  assert.ok(!r.error && (r.status === 403 || r.status === 404), `answer ${r.status ?? r.error}`);
  assert.ok(await alive(), 'server still answers');
  assert.is(child.exitCode, null, 'server process still running');
});

test('FIFOs are not served and cannot jam the file threads', async () => {
  if (!haveFifo) { console.log('  (mkfifo unavailable: skipped)'); return; }
  const answers = await Promise.all(fifos.map((f) => request('GET', `/${path.basename(f)}`)));
  for (const r of answers) assert.ok(!r.error && r.status === 403, `fifo answer ${r.status ?? r.error}`);
  assert.ok(await alive(), 'later requests are still served');
});

test('symlinks out of the folder are refused; links inside it still work', async () => {
  const out = await request('GET', '/escape.txt');
  assert.is(out.status, 403);
  assert.not.match(out.body, /outside the folder/);
  const alias = await request('GET', '/alias.txt');
  assert.is(alias.status, 200);
  assert.is(alias.body, 'fine');
});

test('no redirect ever points at another host', async () => {
  for (const url of ['/%2fweb', '//web', '/%2f%2fweb', '/web', '/%5cweb']) {
    const r = await request('GET', url);
    const loc = r.headers ? r.headers.location : undefined;
    if (loc !== undefined) {
      assert.ok(loc.startsWith('/') && !loc.startsWith('//') && !loc.startsWith('/\\'), `${url} -> ${loc}`);
    }
  }
  const r = await request('GET', '/web');
  assert.is(r.status, 301);
  assert.is(r.headers.location, '/web/');
  const page = await request('GET', '/web/');
  assert.is(page.status, 200);
  assert.match(page.body, /demo/);
});

test('methods other than GET and HEAD get 405 with Allow', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const r = await request(method, '/ok.txt');
    assert.is(r.status, 405, method);
    assert.is(r.headers.allow, 'GET, HEAD');
  }
  const head = await request('HEAD', '/ok.txt');
  assert.is(head.status, 200);
  assert.is(head.headers['content-length'], '4');
  assert.is(head.body, '');
});

test('dot folders and escapes stay forbidden', async () => {
  for (const url of ['/../outside.txt', '/%2e%2e/outside.txt', '/.git/config', '/web/%00x']) {
    const r = await request('GET', url);
    assert.ok(r.status === 400 || r.status === 403 || r.status === 404, `${url} -> ${r.status}`);
    assert.not.match(r.body || '', /outside the folder/);
  }
  assert.ok(await alive());
});

test.run();
