// This module is a tiny static file server for the demo: it serves a folder
// (the repository root by default) on 127.0.0.1 with the right MIME types,
// including application/wasm, and redirects / to /web/. Run it directly
// (`node scripts/serve.mjs [folder]`, PORT overrides 8080) or import serve().
import http from 'node:http';
import { createReadStream, statSync } from 'node:fs';
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

/**
 * Starts serving a folder.
 * @param {{root?: string, port?: number, host?: string, quiet?: boolean}} [o] port 0 picks a free port
 * @returns {Promise<{server: http.Server, url: string, port: number, close: () => Promise<void>}>}
 */
export function serve(o = {}) {
  const root = path.resolve(o.root ?? path.join(here, '..'));
  const host = o.host ?? '127.0.0.1';
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (rel === '/') {
      res.writeHead(302, { location: '/web/' }).end();
      return;
    }
    const file = path.join(root, path.normalize(rel));
    // Inside the root only, and never dot folders such as .git.
    if ((file !== root && !file.startsWith(root + path.sep)) || /(^|\/)\./.test(rel)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    let target = file, st;
    try {
      st = statSync(target);
      if (st.isDirectory()) {
        if (!rel.endsWith('/')) {
          res.writeHead(301, { location: `${rel}/` }).end();
          return;
        }
        target = path.join(target, 'index.html');
        st = statSync(target);
      }
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${rel}`);
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(target).toLowerCase()] ?? 'application/octet-stream',
      'content-length': st.size,
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(target).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 8080, host, () => {
      const port = server.address().port;
      const url = `http://${host}:${port}/`;
      if (!o.quiet) console.log(`serving ${root} at ${url} (the demo is ${url}web/)`);
      resolve({ server, url, port, close: () => new Promise((r) => server.close(() => r())) });
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
