// bake.test.mjs - `terrain bake` end to end: four shards (through `make
// bake`, the path a cluster's Indexed Job takes) against one run, byte for
// byte; a shard that dies part-way (the full-disk test hook) and is rerun;
// --verify catching a flipped byte and a missing tile; a baked .ctc equal to
// a generated one; the manifest's fixed form; the .gz files; and bad input
// (shard out of range, unwritable folder, another world's folder or shard).
// Two faces of LODs 0-3 keep it to a few seconds of CPU.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, existsSync, cpSync, unlinkSync, mkdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './ct_fixture.mjs';
import { bake, files, treeDiff } from './bake_fixture.mjs';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ct-bake-'));
const WORLD = ['--faces', '+X,-Y', '--lods', '0-3'];
const TILES = 2 * (1 + 4 + 16 + 64);
const one = path.join(tmp, 'one');

test.after(() => rmSync(tmp, { recursive: true, force: true }));

/** The one-run bake every other bake is compared with. */
test('one run bakes, merges and verifies; progress on stderr', async () => {
  const r = await bake([...WORLD, '--out', one]);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stderr, /tiles\/s, \d+ s left/);
  const man = JSON.parse(readFileSync(path.join(one, 'manifest.json'), 'utf8'));
  assert.is(man.counts.tiles, TILES);
  assert.equal(man.counts.perLod, { 0: 2, 1: 8, 2: 32, 3: 128 });
  assert.equal(man.faces, ['+X', '-Y']);
  assert.is(man.urlTemplate, '{generation}/{face}/{lod}/{x}/{y}.ctt');
  assert.equal(man.indices.map((i) => i.file), ['index/all.idx']);
  const v = await bake(['--verify', one]);
  assert.is(v.status, 0, v.stdout + v.stderr);
  const tile = readFileSync(path.join(one, man.generation, 'px/3/5/2.ctt'));
  assert.is(tile.length, 660562);
  assert.is(tile.subarray(0, 6).toString(), 'CTTILE');
  assert.is(tile.readBigUInt64LE(16).toString(16).padStart(16, '0'), man.generation);
  assert.equal([tile[44], tile[45], tile.readUInt32LE(48), tile.readUInt32LE(52)], [0, 3, 5, 2]);
});

test('the manifest is JSON.stringify(value, null, 2) with a newline, and holds no time or host', () => {
  const text = readFileSync(path.join(one, 'manifest.json'), 'utf8');
  assert.is(JSON.stringify(JSON.parse(text), null, 2) + '\n', text);
  assert.not.match(text, new RegExp(os.hostname()));
  assert.not.match(text, /20\d\d-\d\d-\d\d/);
});

test('four shards through make bake equal one run, file for file', async () => {
  const four = path.join(tmp, 'four');
  const r = spawnSync('make', ['--no-print-directory', 'bake', `BAKE_OUT=${four}`, 'BAKE_SHARDS=4', 'BAKE_JOBS=2',
    'BAKE_LODS=0-3', 'BAKE_ARGS=--faces +X,-Y --quiet'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /all present and intact/);
  assert.is(treeDiff(one, four), '');
});

test('a shard that fails part-way (the full-disk hook) leaves no partial file; rerun, it completes', async () => {
  // One face of LODs 0-2 (21 tiles), against a clean bake of its own: what a
  // failed write leaves does not depend on the size of the bake.
  const small = ['--faces', '+X', '--lods', '0-2'], smallTiles = 1 + 4 + 16, clean = path.join(tmp, 'killed-clean');
  assert.is((await bake([...small, '--out', clean, '--quiet'])).status, 0);
  const dir = path.join(tmp, 'killed');
  const r = await bake([...small, '--out', dir, '--quiet'], { CT_BAKE_FAIL_AFTER_BYTES: String(600000 + 14 * 660562 + 1000) });
  assert.is.not(r.status, 0);
  assert.match(r.stderr, /CT_BAKE_FAIL_AFTER_BYTES test hook/);
  const left = files(dir);
  assert.ok(left.every((f) => !f.includes('tmp~')), 'a temporary is left');
  const tiles = left.filter((f) => f.endsWith('.ctt'));
  assert.ok(tiles.length > 10 && tiles.length < smallTiles, `${tiles.length} tiles before the failure`);
  assert.ok(tiles.every((f) => readFileSync(path.join(dir, f)).length === 660562), 'a partial tile is visible');
  assert.not.ok(existsSync(path.join(dir, 'manifest.json')));
  // A tile damaged since is baked again, not kept.
  const hurt = path.join(dir, tiles[3]);
  const bytes = readFileSync(hurt);
  bytes[1000] ^= 1;
  writeFileSync(hurt, bytes);
  const again = await bake([...small, '--out', dir]);
  assert.is(again.status, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`1 redone, ${tiles.length - 1} kept`));
  assert.match(again.stderr, /is not the tile this bake wrote: baking it again/);
  assert.is(treeDiff(clean, dir), '');
});

test('a rerun over a merged bake (no journal) regenerates to compare: a flipped float bit is baked again', async () => {
  const dir = path.join(tmp, 'float');
  const args = ['--faces', '+X', '--lods', '0-1', '--out', dir, '--quiet'];
  assert.is((await bake(args)).status, 0);
  const clean = path.join(tmp, 'float-clean');
  cpSync(dir, clean, { recursive: true });
  const gen = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).generation;
  const file = path.join(dir, gen, 'px/1/1/0.ctt');
  const bytes = readFileSync(file);
  bytes[396366 + 4 * 5000] ^= 1;   // the lowest mantissa bit of one float height: the codes still agree
  writeFileSync(file, bytes);
  const r = await bake(args);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /0 written, 1 redone, 4 kept/);
  assert.is(treeDiff(clean, dir), '');
});

test('--verify names a flipped byte and a missing tile, and exits non-zero', async () => {
  const dir = path.join(tmp, 'hurt');
  cpSync(one, dir, { recursive: true });
  const gen = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).generation;
  const flipped = path.join(dir, gen, 'ny/2/1/3.ctt');
  const bytes = readFileSync(flipped);
  bytes[400000] ^= 0x10;
  writeFileSync(flipped, bytes);
  unlinkSync(path.join(dir, gen, 'px/1/0/1.ctt'));
  const r = await bake(['--verify', dir]);
  assert.is(r.status, 1);
  assert.match(r.stdout, new RegExp(`altered .*${gen}/ny/2/1/3\\.ctt`));
  assert.match(r.stdout, new RegExp(`missing .*${gen}/px/1/0/1\\.ctt`));
  assert.match(r.stdout, /2 file\(s\) missing or altered/);
  // An altered index is caught too.
  const idx = path.join(dir, 'index/all.idx');
  const ib = readFileSync(idx);
  ib[40] ^= 1;
  writeFileSync(idx, ib);
  const r2 = await bake(['--verify', dir]);
  assert.is(r2.status, 1);
  assert.match(r2.stdout, /altered .*index\/all\.idx/);
});

test('--format ctc writes the files terrain --chunk writes; --gzip the same bytes gzipped', async () => {
  const dir = path.join(tmp, 'ctc');
  const r = await bake(['--faces', '+Z', '--lods', '1-1', '--format', 'ctc', '--gzip', '--out', dir, '--quiet']);
  assert.is(r.status, 0, r.stderr);
  const gen = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).generation;
  const chunkDir = path.join(tmp, 'chunk');
  mkdirSync(chunkDir);
  const c = spawnSync(path.join(ROOT, 'terrain'), ['--out', chunkDir, '--chunk', '+Z', '1', '1', '0'], { encoding: 'utf8' });
  assert.is(c.status, 0, c.stderr);
  const baked = readFileSync(path.join(dir, gen, 'pz/1/1/0.ctc'));
  assert.ok(baked.equals(readFileSync(path.join(chunkDir, 'chunk_pz_1_1_0.ctc'))), 'baked .ctc differs from a generated one');
  assert.ok(gunzipSync(readFileSync(path.join(dir, gen, 'pz/1/1/0.ctc.gz'))).equals(baked), '.gz is not the tile');
  assert.is((await bake(['--verify', dir])).status, 0);
});

test('--region bakes only the chunks near the cap, the one under its centre included', async () => {
  const dir = path.join(tmp, 'region');
  const r = await bake(['--region', '0.2,0.3,1,150000', '--lods', '2-4', '--out', dir, '--quiet']);
  assert.is(r.status, 0, r.stderr);
  const man = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  assert.equal(man.region, { center: [0.2, 0.3, 1], radiusM: 150000 });
  assert.ok(man.counts.tiles > 3 && man.counts.tiles < 40, `${man.counts.tiles} tiles`);
  const loc = spawnSync(path.join(ROOT, 'terrain'), ['--locate', '0.2', '0.3', '1', '4'], { encoding: 'utf8' }).stdout;
  const [, face, x, y] = loc.match(/face (\S+) lod 4 x (\d+) y (\d+)/);
  assert.is(face, '+Z');
  assert.ok(existsSync(path.join(dir, man.generation, `pz/4/${x}/${y}.ctt`)), 'the centre chunk is missing');
});

test('bad input: clear errors, non-zero exits, nothing half-written', async () => {
  const r1 = await bake([...WORLD, '--out', path.join(tmp, 'x'), '--shard', '4/4']);
  assert.is(r1.status, 2);
  assert.match(r1.stderr, /index out of range/);
  writeFileSync(path.join(tmp, 'afile'), 'x');
  const r2 = await bake([...WORLD, '--out', path.join(tmp, 'afile', 'sub')]);
  assert.is(r2.status, 1);
  assert.match(r2.stderr, /--out: .*not a folder/);
  // Another world into a folder holding a bake.
  const r3 = await bake([...WORLD, '--set', 'seed=7', '--out', one]);
  assert.is(r3.status, 2);
  assert.match(r3.stderr, /generation [0-9a-f]{16}, this world is [0-9a-f]{16}/);
  assert.is((await bake(['--verify', one])).status, 0, 'the refused bake touched the folder');
  // A shard of another world among the shards.
  const a = path.join(tmp, 'mixA'), b = path.join(tmp, 'mixB');
  assert.is((await bake(['--faces', '+X', '--lods', '0-0', '--shard', '0/2', '--out', a, '--quiet'])).status, 0);
  assert.is((await bake(['--faces', '+X', '--lods', '0-0', '--shard', '1/2', '--set', 'seed=7', '--out', b, '--quiet'])).status, 0);
  for (const ext of ['idx', 'json']) cpSync(path.join(b, `index/shard-0001-of-0002.${ext}`), path.join(a, `index/shard-0001-of-0002.${ext}`));
  const r4 = await bake(['--merge', a]);
  assert.is(r4.status, 2);
  assert.match(r4.stderr, /of another bake than shard 0/);
  assert.not.ok(existsSync(path.join(a, 'manifest.json')));
  const r5 = await bake(['--lods', '0-9', '--out', path.join(tmp, 'deep')]);
  assert.is(r5.status, 2);
  assert.match(r5.stderr, /surface_lod 6/);
  const r6 = await bake(['--verify', path.join(tmp, 'nowhere')]);
  assert.is(r6.status, 1);
  assert.match(r6.stderr, /cannot open/);
});

test.run();
