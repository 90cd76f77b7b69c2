// tile_fixture.mjs - A small baker in JavaScript for the tests of baked
// tiles: it writes a bake folder exactly as docs/bake.md lays it out
// (manifest.json, world.ctw, one index file, .ctt tiles by the URL template)
// for a list of keys, from core.encodeTile and node:crypto. Written from the
// format contract, not from the native baker's code, so the client's reader
// and the contract are checked against each other.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FACE_FILE_NAMES, FACE_NAMES } from '../../wasm/ct_constants.mjs';

// Read from the header, as the native baker writes it (JS has no constant of it).
const ALGORITHM_VERSION = Number(/#define CT_ALGORITHM_VERSION (\d+)u/.exec(
  readFileSync(new URL('../../core/include/ct.h', import.meta.url), 'utf8'))[1]);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The CTINDEX file of records [{key, bytes, sha256}] (sorted by lod, face, y, x). */
export function indexBytes(generation, records) {
  const sorted = [...records].sort((a, b) => a.key.lod - b.key.lod || a.key.face - b.key.face || a.key.y - b.key.y || a.key.x - b.key.x);
  const out = new Uint8Array(24 + 48 * sorted.length), v = new DataView(out.buffer);
  out.set([0x43, 0x54, 0x49, 0x4e, 0x44, 0x45, 0x58, 0x01]);
  v.setUint32(8, 1, true);
  v.setUint32(12, sorted.length, true);
  v.setBigUint64(16, BigInt(`0x${generation}`), true);
  sorted.forEach((r, i) => {
    const at = 24 + 48 * i;
    out[at] = r.key.face;
    out[at + 1] = r.key.lod;
    v.setUint32(at + 4, r.key.x, true);
    v.setUint32(at + 8, r.key.y, true);
    v.setUint32(at + 12, r.bytes, true);
    out.set(Buffer.from(r.sha256, 'hex'), at + 16);
  });
  return out;
}

/** The relative path of a key's tile by the manifest's URL template. */
export function tilePath(generation, key, ext = 'ctt') {
  return `${generation}/${FACE_FILE_NAMES[key.face]}/${key.lod}/${key.x}/${key.y}.${ext}`;
}

/**
 * Bakes keys of world into dir (a fresh temporary folder by default):
 * returns {dir, manifest, paths: Map 'face/lod/x/y' -> file path, cleanup()}.
 * tileBytes(key, bytes) may replace a tile before it is hashed (a tile that
 * matches its index but does not decode). from: an earlier bakeFolder of the
 * same world whose tile files are copied for the keys it holds (the same
 * bytes, without generating and encoding the chunks again).
 * @param {object} core the loaded core (wasm/ct.mjs)
 * @param {object} world a World of that core
 * @param {{face: number, lod: number, x: number, y: number}[]} keys
 */
export function bakeFolder(core, world, keys, { dir = mkdtempSync(path.join(tmpdir(), 'ct-bake-')), region = null, tileBytes = (k, b) => b, from = null } = {}) {
  const gen = world.generation, records = [], paths = new Map(), perLod = {};
  if (from && from.manifest.generation !== gen) throw new Error('bakeFolder: from is a bake of another world');
  const tile = (key) => {
    const earlier = from && from.paths.get(`${key.face}/${key.lod}/${key.x}/${key.y}`);
    return earlier ? new Uint8Array(readFileSync(earlier)) : core.encodeTile(world.chunk(key));
  };
  let total = 0;
  for (const key of keys) {
    const bytes = tileBytes(key, tile(key)), rel = tilePath(gen, key), file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    records.push({ key, bytes: bytes.length, sha256: sha256(bytes) });
    paths.set(`${key.face}/${key.lod}/${key.x}/${key.y}`, file);
    perLod[key.lod] = (perLod[key.lod] || 0) + 1;
    total += bytes.length;
  }
  const snapshot = world.snapshot(), index = indexBytes(gen, records);
  mkdirSync(path.join(dir, 'index'), { recursive: true });
  writeFileSync(path.join(dir, 'world.ctw'), snapshot);
  writeFileSync(path.join(dir, 'index/shard-0000-of-0001.idx'), index);
  const lods = keys.map((k) => k.lod);
  const manifest = {
    format: 'cubesphere-bake', version: 1, generation: gen, planetId: world.config.planet_id,
    algorithmVersion: ALGORITHM_VERSION, surfaceLod: world.config.surface_lod, config: world.configText(),
    world: { file: 'world.ctw', sha256: sha256(snapshot), bytes: snapshot.length },
    tileFormat: 'ctt', urlTemplate: '{generation}/{face}/{lod}/{x}/{y}.ctt',
    lods: [Math.min(...lods), Math.max(...lods)], faces: [...new Set(keys.map((k) => FACE_NAMES[k.face]))],
    region, counts: { tiles: records.length, bytes: total, perLod: Object.fromEntries(Object.entries(perLod).map(([k, v]) => [String(k), v])) },
    shards: 1,
    indices: [{ file: 'index/shard-0000-of-0001.idx', sha256: sha256(index), tiles: records.length }],
  };
  writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, manifest, paths, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
