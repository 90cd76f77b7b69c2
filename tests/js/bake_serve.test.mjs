// bake_serve.test.mjs - a baked folder served by scripts/serve.mjs as any
// static host would: tiles immutable for a year, the manifest, snapshot and
// index briefly cached, a tile's .gz twin sent to clients that take gzip and
// the plain tile to those that do not, byte for byte the same tile.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { serve, BAKE_CACHE } from '../../scripts/serve.mjs';
import { bake } from './bake_fixture.mjs';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ct-bake-serve-'));
let server, gen;

test.before(async () => {
  const r = await bake(['--faces', '+X', '--lods', '0-0', '--gzip', '--out', tmp, '--quiet']);
  assert.is(r.status, 0, r.stderr);
  gen = JSON.parse(readFileSync(path.join(tmp, 'manifest.json'), 'utf8')).generation;
  server = await serve({ root: tmp, port: 0, quiet: true });
});
test.after(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http.get(server.url + url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test('tiles are immutable; the .gz twin goes to clients that accept gzip', async () => {
  const tile = readFileSync(path.join(tmp, gen, 'px/0/0/0.ctt'));
  const plain = await get(`${gen}/px/0/0/0.ctt`);
  assert.is(plain.status, 200);
  assert.is(plain.headers['cache-control'], BAKE_CACHE.tile);
  assert.is(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.is(plain.headers['content-encoding'], undefined);
  assert.is(plain.headers.vary, 'accept-encoding');
  assert.ok(plain.body.equals(tile));
  const zipped = await get(`${gen}/px/0/0/0.ctt`, { 'accept-encoding': 'br, gzip' });
  assert.is(zipped.headers['content-encoding'], 'gzip');
  assert.is(zipped.headers['cache-control'], BAKE_CACHE.tile);
  assert.ok(zipped.body.length < tile.length, 'the .gz is not smaller');
  assert.ok(gunzipSync(zipped.body).equals(tile));
});

test('manifest, snapshot and index are cached briefly; other files as before', async () => {
  for (const f of ['manifest.json', 'world.ctw', 'index/all.idx']) {
    const r = await get(f, { 'accept-encoding': 'gzip' });
    assert.is(r.status, 200, f);
    assert.is(r.headers['cache-control'], BAKE_CACHE.short, f);
    assert.is(r.headers['content-encoding'], undefined, f);
    assert.ok(r.body.equals(readFileSync(path.join(tmp, f))), f);
  }
  const gz = await get(`${gen}/px/0/0/0.ctt.gz`);
  assert.is(gz.headers['cache-control'], 'no-cache');
});

test.run();
