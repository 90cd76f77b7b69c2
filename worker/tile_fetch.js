// This module fetches the files of a baked tile folder and hashes them, for
// the pool (the manifest, its index files and the world snapshot, in
// worker/tiles.js) and for the workers (each tile, in worker/tile_job.js).
// Browsers and Node alike use fetch and crypto.subtle; under Node a file:
// URL or a plain path is read from disk, so a server or a test can stream a
// local bake without a web server.

import { ERR } from './protocol.js';

const IS_NODE = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

/** A tile-folder error: kind 'missing' (not found, network) or 'bad' (refused), with a message. */
export function tileError(kind, message) {
  const e = new Error(message);
  e.code = ERR.TILES;
  e.kind = kind;
  return e;
}

/**
 * A URL for a location: URLs as they are; under Node a plain path becomes a
 * file: URL; in a page, a relative location is resolved against the page.
 * @param {string|URL} where
 */
export async function toUrl(where) {
  if (where instanceof URL) return where;
  const text = String(where);
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[a-z]:[\\/]/i.test(text)) return new URL(text);
  if (IS_NODE) {
    const { pathToFileURL } = await import('node:url');
    return pathToFileURL(text);
  }
  return new URL(text, globalThis.location ? globalThis.location.href : undefined);
}

/**
 * The bytes at url, or a tileError 'missing' (HTTP error, no such file,
 * network failure) naming the URL.
 * @param {URL} url
 * @returns {Promise<Uint8Array>}
 */
export async function fetchBytes(url) {
  try {
    if (IS_NODE && url.protocol === 'file:') {
      const fs = await import('node:fs/promises');
      return new Uint8Array(await fs.readFile(url));
    }
    const res = await fetch(url);
    if (!res.ok) throw tileError('missing', `${url.href}: HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    if (e.code === ERR.TILES) throw e;
    throw tileError('missing', `${url.href}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
}

/** Lower-case hex SHA-256 of bytes (crypto.subtle: pages, workers and Node 20). */
export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/**
 * The bytes at url, refused (tileError 'bad') unless they are exactly
 * `length` bytes with SHA-256 `sha256` (hex).
 */
export async function fetchVerified(url, length, sha256, what = 'file') {
  const bytes = await fetchBytes(url);
  if (bytes.length !== length) throw tileError('bad', `${what} ${url.href}: ${bytes.length} bytes, the index says ${length}`);
  const got = await sha256Hex(bytes);
  if (got !== sha256) throw tileError('bad', `${what} ${url.href}: SHA-256 ${got} is not the indexed ${sha256}`);
  return bytes;
}
