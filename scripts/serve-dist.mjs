// Serves a built app's folder (dist/) on 127.0.0.1 at a free port, under `prefix` as a docs portal
// would host it, for the scripts that open it in Chromium (screenshots, cold share-link loads, edit
// traces). The end-to-end test has its own server: it adds pages and routes of its own.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };

/** Resolves to the listening server and the app's URL under it. */
export function serveDist(dist, prefix = "/") {
  const root = path.resolve(dist);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    if (!url.pathname.startsWith(prefix)) return res.writeHead(404).end();
    const rel = decodeURIComponent(url.pathname.slice(prefix.length)) || "index.html";
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, base: `http://127.0.0.1:${server.address().port}${prefix}` })),
  );
}
