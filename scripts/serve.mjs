// This module is a tiny static file server for the demo: it serves a folder
// (the repository root by default) on 127.0.0.1 with the right MIME types,
// including application/wasm, and redirects / to /web/. Run it directly
// (`node scripts/serve.mjs [folder]`, PORT overrides 8080) or import serve().
import http from 'node:http';
import { constants as FS, promises as fsp } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8', '.ctc': 'application/octet-stream', '.ctw': 'application/octet-stream',
  '.ico': 'image/x-icon', '.map': 'application/json; charset=utf-8',
};

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/** A status reply with a short text body (none for HEAD). */
function reply(req, res, status, body, headers = {}) {
  res.writeHead(status, { ...TEXT, ...headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** true when p is root or inside it (both already resolved). */
function inside(root, p) {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Maps a request to a regular file, or to a {status, ...} refusal. Checks in
 * the order an attack would try them: the URL path itself (dot folders,
 * escapes), then the real path (symlinks pointing out of the folder), then
 * the kind of file (FIFOs, sockets and devices would block a libuv thread on
 * open or read).
 */
async function resolveFile(root, realRoot, rel) {
  if (rel.includes('\0')) return { status: 400, body: 'bad request' };
  const file = path.join(root, path.normalize(rel));
  // Inside the root only, and never dot folders such as .git.
  if (!inside(root, file) || /(^|[\/])\./.test(rel)) return { status: 403, body: 'forbidden' };
  let real;
  try {
    real = await fsp.realpath(file);
  } catch {
    return { status: 404, body: `not found: ${rel}` };
  }
  if (!inside(realRoot, real)) return { status: 403, body: 'forbidden' };
  let st = await fsp.stat(real);
  if (st.isDirectory()) {
    // Redirect with the path rebuilt from the file system, so a request such
    // as /%2fweb can never produce "//web/" (a link to another host).
    const clean = path.relative(root, file).split(path.sep).filter(Boolean).join('/');
    if (!rel.endsWith('/') || rel.startsWith('//')) return { status: 301, location: encodeURI(`/${clean}${clean ? '/' : ''}`) };
    real = path.join(real, 'index.html');
    try {
      real = await fsp.realpath(real);
      st = await fsp.stat(real);
    } catch {
      return { status: 404, body: `not found: ${rel}` };
    }
    if (!inside(realRoot, real)) return { status: 403, body: 'forbidden' };
  }
  if (!st.isFile()) return { status: 403, body: 'not a regular file' };
  return { file: real };
}

/** Opens without blocking (a FIFO swapped in after the stat cannot stall a thread) and re-checks the kind. */
async function openRegular(file) {
  const handle = await fsp.open(file, FS.O_RDONLY | FS.O_NONBLOCK);
  const st = await handle.stat();
  if (!st.isFile()) {
    await handle.close();
    const e = new Error('not a regular file');
    e.code = 'ENOTREG';
    throw e;
  }
  return { handle, size: st.size };
}

// Baked tile folders (terrain bake, docs/bake.md): a tile's path names its
// generation, so its bytes never change and any cache may keep it a year;
// manifest.json, world.ctw and index/*.idx keep their names from bake to
// bake, so they are cached briefly. A tile's .gz twin (bake --gzip) is sent
// instead, with Content-Encoding: gzip, to clients that accept gzip.
const BAKED_TILE = /\/[0-9a-f]{16}\/[pn][xyz]\/\d+\/\d+\/\d+\.(ctt|ctc|glb)$/;
const BAKED_SHORT = /(^|\/)(manifest\.json|world\.ctw|index\/[^/]+\.idx)$/;
export const BAKE_CACHE = { tile: 'public, max-age=31536000, immutable', short: 'public, max-age=60, must-revalidate' };
/** {cache, tile, gzip}: the Cache-Control of a request path, and whether to look for its .gz twin. */
export function bakeCaching(rel, acceptEncoding = '') {
  if (BAKED_TILE.test(rel)) return { cache: BAKE_CACHE.tile, tile: true, gzip: /\bgzip\b/.test(acceptEncoding) };
  return { cache: BAKED_SHORT.test(rel) ? BAKE_CACHE.short : 'no-cache', tile: false, gzip: false };
}

async function answer(root, realRoot, req, res) {
  let rel;
  try {
    rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  } catch {
    return reply(req, res, 400, 'bad request');
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return reply(req, res, 405, 'method not allowed', { allow: 'GET, HEAD' });
  if (rel === '/') return reply(req, res, 302, '', { location: '/web/' });
  const found = await resolveFile(root, realRoot, rel);
  if (found.location) return reply(req, res, found.status, '', { location: found.location });
  if (!found.file) return reply(req, res, found.status, found.body);
  const baked = bakeCaching(rel, req.headers['accept-encoding']);
  const gz = baked.gzip ? await resolveFile(root, realRoot, `${rel}.gz`) : {};
  let opened;
  try {
    opened = await openRegular(gz.file ?? found.file);
  } catch (e) {
    const status = e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'ENOTREG' ? 403 : 404;
    return reply(req, res, status, status === 403 ? 'forbidden' : `not found: ${rel}`);
  }
  res.writeHead(200, {
    'content-type': MIME[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': opened.size,
    'cache-control': baked.cache,
    ...(baked.tile ? { vary: 'accept-encoding' } : {}),
    ...(gz.file ? { 'content-encoding': 'gzip' } : {}),
  });
  if (req.method === 'HEAD') {
    await opened.handle.close();
    res.end();
    return undefined;
  }
  const stream = opened.handle.createReadStream();   // closes the handle when done
  // A read error after the headers went out: cut the response short rather
  // than let an unhandled 'error' event take the whole server down.
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
  return undefined;
}

/**
 * Starts serving a folder.
 * @param {{root?: string, port?: number, host?: string, quiet?: boolean}} [o] port 0 picks a free port
 * @returns {Promise<{server: http.Server, url: string, port: number, close: () => Promise<void>}>}
 */
export async function serve(o = {}) {
  const root = path.resolve(o.root ?? path.join(here, '..'));
  const realRoot = await fsp.realpath(root);
  const host = o.host ?? '127.0.0.1';
  const server = http.createServer((req, res) => {
    answer(root, realRoot, req, res).catch(() => {
      if (!res.headersSent) reply(req, res, 500, 'internal error');
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 8080, host, () => {
      const port = server.address().port;
      const url = `http://${host}:${port}/`;
      if (!o.quiet) console.log(`serving ${root} at ${url} (the demo is ${url}web/)`);
      // close() also ends the connections a page still holds open: a page
      // left open (one that draws every frame, say) otherwise keeps the
      // server, and whoever awaits close(), alive until keep-alive lapses.
      const close = () => new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      resolve({ server, url, port, close });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT || 8080);
  serve({ root: process.argv[2], port }).catch((e) => {
    console.error(`serve: ${e.code === 'EADDRINUSE' ? `port ${port} is in use (set PORT=...)` : e.message}`);
    process.exit(1);
  });
}
