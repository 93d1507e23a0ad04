// A reverse proxy that compresses like Cloudflare's edge: text responses (HTML, JS, CSS, JSON, SVG) in brotli or
// gzip as the browser's Accept-Encoding allows, everything else passed through. Local workerd (Miniflare) sends
// assets and pages uncompressed, which is not what a visitor's browser gets in production; Lighthouse runs against
// this proxy. WebSocket upgrades are piped through untouched.
import http from "node:http";
import net from "node:net";
import zlib from "node:zlib";

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;

/** Starts the proxy on a free port in front of `target` (http://host:port); resolves with its URL and a close(). */
export function startCompressProxy(target) {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const proxied = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "accept-encoding": "identity" },
      },
      (answer) => {
        const type = String(answer.headers["content-type"] ?? "");
        const accepts = String(req.headers["accept-encoding"] ?? "");
        const encoding =
          !COMPRESSIBLE.test(type) || answer.headers["content-encoding"]
            ? null
            : /\bbr\b/.test(accepts)
              ? "br"
              : /\bgzip\b/.test(accepts)
                ? "gzip"
                : null;
        const headers = { ...answer.headers };
        if (!encoding) {
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
          return;
        }
        delete headers["content-length"];
        headers["content-encoding"] = encoding;
        headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
        res.writeHead(answer.statusCode ?? 502, headers);
        const compressor =
          encoding === "br"
            ? zlib.createBrotliCompress({
                params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
                flush: zlib.constants.BROTLI_OPERATION_FLUSH,
              })
            : zlib.createGzip({ level: 6, flush: zlib.constants.Z_SYNC_FLUSH });
        answer.pipe(compressor).pipe(res);
      },
    );
    proxied.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(proxied);
  });
  server.on("upgrade", (req, socket, head) => {
    const connection = net.connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [
        `${req.method} ${req.url} HTTP/1.1`,
        ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`),
        "",
        "",
      ];
      connection.write(lines.join("\r\n"));
      if (head.length) connection.write(head);
      connection.pipe(socket).pipe(connection);
    });
    connection.on("error", () => socket.destroy());
    socket.on("error", () => connection.destroy());
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}
