// A static file server for the example page, on 127.0.0.1 only: module scripts are not loaded from
// file:// (CORS), and .mjs must be served as JavaScript.
//   node serve.mjs FOLDER [PORT]    (PORT 0 or none: any free port; prints the address)
// tests/js/browser_test.js imports serve() from here.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8', '.ts': 'text/plain; charset=utf-8',
};

/** Serves the files under `root` (GET and HEAD, nothing outside it) on `port` (0: any free one);
 *  `onRequest(path)` sees each request's path. Resolves to the server and its address,
 *  http://127.0.0.1:PORT/. */
export function serve(root, { port = 0, onRequest } = {}) {
  const base = fs.realpathSync(root);
  const server = http.createServer((req, res) => {
    let file;
    try {
      const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (onRequest) onRequest(rel);
      file = path.join(base, rel.endsWith('/') ? rel + 'index.html' : rel);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405).end(); return; }
    if (file !== base && !file.startsWith(base + path.sep)) { res.writeHead(403).end(); return; }
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n'); return; }
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
        'content-length': st.size, 'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(file).pipe(res);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` }));
  });
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [folder, port] = process.argv.slice(2);
  if (!folder) {
    console.error('usage: node serve.mjs FOLDER [PORT]');
    process.exit(2);
  }
  const { url } = await serve(folder, { port: Number(port || 0) });
  console.log(`serving ${path.resolve(folder)} at ${url} (Ctrl-C stops)`);
}
