// This module is the pool's side of baked tiles (createPool({tiles})): it
// reads a bake's manifest once, checks every index file against the SHA-256
// the manifest gives, and keeps each tile's length and SHA-256 by key. A
// chunk, mesh, collider or scatter request for a baked key of the manifest's
// generation then carries {url, bytes, sha256, format}: the worker fetches
// the tile, checks it against that entry, decodes and meshes it
// (worker/tile_job.js; scatter reads surface_lod .ctt tiles only: worker/
// jobs.js), or generates the key itself when the tile is missing
// or bad. The pool counts what each reply says and reports each kind of
// fallback once. Keys the bake does not hold are generated as always,
// silently. The folder layout, index and manifest formats are in docs/bake.md.
import { ERR, FACE_FILE_NAMES, parseKey, keyId } from './protocol.js';
import { fetchBytes, fetchVerified, sha256Hex, tileError, toUrl } from './tile_fetch.js';

const INDEX_MAGIC = [0x43, 0x54, 0x49, 0x4e, 0x44, 0x45, 0x58, 0x01];   // 'CTINDEX' 0x01
const INDEX_HEADER = 24, INDEX_RECORD = 48;
const HEX16 = /^[0-9a-f]{16}$/, HEX64 = /^[0-9a-f]{64}$/;
const STREAMED = ['ctt', 'ctc'];   // glb tiles are for engines, not for meshing again
const FALLBACK_KINDS = ['missing', 'bad', 'decode', 'generation'];

function bad(url, why) { return tileError('bad', `tiles manifest ${url.href}: ${why}`); }

/** The manifest fields the pool relies on, checked; throws naming the first wrong one. */
function checkManifest(m, url) {
  if (!m || typeof m !== 'object') throw bad(url, 'not a JSON object');
  if (m.format !== 'cubesphere-bake') throw bad(url, `format ${JSON.stringify(m.format)} is not "cubesphere-bake"`);
  if (m.version !== 1) throw bad(url, `version ${JSON.stringify(m.version)} is not 1`);
  if (typeof m.generation !== 'string' || !HEX16.test(m.generation)) throw bad(url, 'generation must be 16 lower-case hex digits');
  if (!STREAMED.includes(m.tileFormat)) throw bad(url, `tileFormat ${JSON.stringify(m.tileFormat)}: the pool streams ${STREAMED.join(' or ')}`);
  if (typeof m.urlTemplate !== 'string' || !['{face}', '{lod}', '{x}', '{y}'].every((p) => m.urlTemplate.includes(p))) {
    throw bad(url, 'urlTemplate must hold {face}, {lod}, {x} and {y}');
  }
  if (!m.world || typeof m.world.file !== 'string' || !HEX64.test(m.world.sha256) || !Number.isInteger(m.world.bytes)) {
    throw bad(url, 'world must be {file, sha256, bytes}');
  }
  if (!Array.isArray(m.indices) || !m.indices.length) throw bad(url, 'indices must list at least one index file');
  for (const [i, ix] of m.indices.entries()) {
    if (!ix || typeof ix.file !== 'string' || !HEX64.test(ix.sha256) || !Number.isInteger(ix.tiles)) {
      throw bad(url, `indices[${i}] must be {file, sha256, tiles}`);
    }
  }
}

/** Adds the records of one verified index file to byKey (keyId -> {bytes, sha256}). */
function readIndex(bytes, where, generation, expect, byKey) {
  const fail = (why) => tileError('bad', `tile index ${where}: ${why}`);
  if (bytes.length < INDEX_HEADER || INDEX_MAGIC.some((b, i) => bytes[i] !== b)) throw fail('not a CTINDEX file (bad magic)');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(8, true) !== 1) throw fail(`version ${v.getUint32(8, true)} is not 1`);
  const count = v.getUint32(12, true);
  const gen = v.getBigUint64(16, true).toString(16).padStart(16, '0');
  if (gen !== generation) throw fail(`generation ${gen} is not the manifest's ${generation}`);
  if (count !== expect) throw fail(`${count} records, the manifest says ${expect}`);
  if (bytes.length !== INDEX_HEADER + INDEX_RECORD * count) throw fail(`${bytes.length} bytes for ${count} records`);
  for (let i = 0; i < count; i++) {
    const at = INDEX_HEADER + INDEX_RECORD * i;
    const key = parseKey({ face: bytes[at], lod: bytes[at + 1], x: v.getUint32(at + 4, true), y: v.getUint32(at + 8, true) });
    let sha = '';
    for (let j = 0; j < 32; j++) sha += bytes[at + 16 + j].toString(16).padStart(2, '0');
    byKey.set(keyId(key), { bytes: v.getUint32(at + 12, true), sha256: sha });
  }
}

/** The manifest URL of a tiles option: a URL or path, a folder (ending in /) meaning its manifest.json. */
async function manifestUrl(spec) {
  const where = spec && typeof spec === 'object' && !(spec instanceof URL) ? spec.manifest : spec;
  if (where === undefined || where === null || where === '') throw tileError('bad', 'tiles: give the manifest URL ({tiles: url} or {tiles: {manifest: url}})');
  const url = await toUrl(where);
  return url.pathname.endsWith('/') ? new URL('manifest.json', url) : url;
}

/** One bake as the pool streams it (createPool's `tiles` option). */
export class PoolTiles {
  #spec;
  #byKey = new Map();
  #reported = new Set();
  #counts = { used: 0, generated: 0, fallback: { missing: 0, bad: 0, decode: 0, generation: 0 } };

  /** @param {string|URL|{manifest: string|URL, onFallback?: (info: object) => void}} spec */
  constructor(spec) {
    this.#spec = spec;
    /** the manifest URL, once open() has run */
    this.url = null;
    /** the checked manifest */
    this.manifest = null;
  }

  /** Reads the manifest and every index file; throws a clear error on anything wrong. */
  async open() {
    const url = this.url = await manifestUrl(this.#spec);
    let m;
    try {
      m = JSON.parse(new TextDecoder().decode(await fetchBytes(url)));
    } catch (e) {
      throw e.code === ERR.TILES ? e : bad(url, `not JSON (${e.message})`);
    }
    checkManifest(m, url);
    for (const ix of m.indices) {
      const where = new URL(ix.file, url), bytes = await fetchBytes(where), sha = await sha256Hex(bytes);
      if (sha !== ix.sha256) throw tileError('bad', `tile index ${where.href}: SHA-256 ${sha} is not the manifest's ${ix.sha256}`);
      readIndex(bytes, where.href, m.generation, ix.tiles, this.#byKey);
    }
    this.manifest = m;
    return this;
  }

  /** The bake's world snapshot (CTWORLD2 bytes), checked against the manifest. */
  worldBytes() {
    const w = this.manifest.world;
    return fetchVerified(new URL(w.file, this.url), w.bytes, w.sha256, 'world snapshot');
  }

  /**
   * What a request for key adds to its message in a world of `generation`:
   * {tile: {url, bytes, sha256, format}} for a baked key of the manifest's
   * generation, else {} (and a world of another generation is reported).
   */
  tileFor(key, generation) {
    const entry = this.#byKey.get(keyId(key));
    if (!entry) return {};
    if (generation !== this.manifest.generation) {
      if (generation !== null) {
        this.#fallback('generation', key, `tiles manifest ${this.url.href} is for generation ${this.manifest.generation}, ` +
          `the pool's world is ${generation}: refused, every key is generated locally`);
      }
      return {};
    }
    const path = this.manifest.urlTemplate.replaceAll('{generation}', this.manifest.generation)
      .replaceAll('{face}', FACE_FILE_NAMES[key.face]).replaceAll('{lod}', String(key.lod))
      .replaceAll('{x}', String(key.x)).replaceAll('{y}', String(key.y)).replaceAll('{ext}', this.manifest.tileFormat);
    return { tile: { url: new URL(path, this.url).href, bytes: entry.bytes, sha256: entry.sha256, format: this.manifest.tileFormat } };
  }

  /** Counts a reply (its source, and a fallback the worker took) and passes it on. */
  noteReply(result, key) {
    if (result && result.source === 'tile') this.#counts.used += 1;
    else this.#counts.generated += 1;
    if (result && result.tileFallback) this.#fallback(result.tileFallback.kind, key, result.tileFallback.message);
    return result;
  }

  /** Counts a fallback; the first of each kind is reported (console.warn, or onFallback for every one). */
  #fallback(kind, key, message) {
    const k = FALLBACK_KINDS.includes(kind) ? kind : 'bad';
    this.#counts.fallback[k] += 1;
    const onFallback = this.#spec && typeof this.#spec === 'object' && !(this.#spec instanceof URL) ? this.#spec.onFallback : null;
    if (typeof onFallback === 'function') onFallback({ kind: k, key, message, first: !this.#reported.has(k) });
    else if (!this.#reported.has(k)) console.warn(`baked tiles: ${message} (further "${k}" fallbacks are counted in pool.stats().tiles, not reported)`);
    this.#reported.add(k);
  }

  /** {used, generated, fallback: {missing, bad, decode, generation}, tiles, generation, lods}. */
  stats() {
    const c = this.#counts;
    return { used: c.used, generated: c.generated, fallback: { ...c.fallback }, tiles: this.#byKey.size,
      generation: this.manifest ? this.manifest.generation : null, lods: this.manifest ? this.manifest.lods : null };
  }
}

/**
 * The pool's chunk, mesh, collider and scatter requests over baked tiles: each
 * request's message gets its tile entry when sent (the world may change
 * while it waits), and its reply is counted. The promise keeps its id
 * (pool.cancel). base: the pool's requests (worker/pool_requests.js).
 */
export function tiledRequests(tiles, base, generationOf) {
  const wrap = (call) => (key, ...rest) => {
    let k;
    try { k = parseKey(key); } catch (e) { return Promise.reject(e); }
    const p = call(k, rest, () => tiles.tileFor(k, generationOf()));
    const counted = p.then((r) => tiles.noteReply(r, k));
    counted.id = p.id;
    counted.catch(() => {});
    return counted;
  };
  return {
    mesh: wrap((k, [opts, sched], extra) => base.mesh(k, opts, sched, extra)),
    collider: wrap((k, [opts, sched], extra) => base.collider(k, opts, sched, extra)),
    chunk: wrap((k, [opts], extra) => base.chunk(k, opts, extra)),
    scatter: wrap((k, [sched], extra) => base.scatter(k, sched, extra)),
  };
}
