import { Hono } from "hono";

/** Serves uploaded files from R2 with caching headers, conditional requests and byte ranges (video seeks). */
export const media = new Hono<{ Bindings: Env }>();

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._\-/]{0,300}$/;

media.on(["GET", "HEAD"], "/*", async (c) => {
  const key = decodeURIComponent(c.req.path.replace(/^\/media\//, ""));
  if (!KEY_PATTERN.test(key) || key.includes("..") || key.startsWith("private/")) {
    return c.text("Not found", 404);
  }
  const headers = c.req.raw.headers;
  const object = await c.env.MEDIA.get(key, { range: headers, onlyIf: headers });
  if (object === null) return c.text("Not found", 404);

  const out = new Headers();
  object.writeHttpMetadata(out);
  out.set("ETag", object.httpEtag);
  out.set("Accept-Ranges", "bytes");
  out.set("Cache-Control", "public, max-age=31536000, immutable");
  out.set("X-Content-Type-Options", "nosniff");
  // Stored files are never run as documents (an SVG cannot script this origin).
  out.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");

  if (!("body" in object)) {
    // Preconditions failed: the browser's copy is current.
    return new Response(null, { status: headers.has("If-None-Match") ? 304 : 412, headers: out });
  }
  const range = object.range as { offset?: number; length?: number; suffix?: number } | undefined;
  if (range && headers.has("Range")) {
    const offset = range.offset ?? (range.suffix !== undefined ? object.size - range.suffix : 0);
    const length = range.length ?? object.size - offset;
    out.set("Content-Range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
    out.set("Content-Length", String(length));
    return new Response(c.req.method === "HEAD" ? null : object.body, { status: 206, headers: out });
  }
  out.set("Content-Length", String(object.size));
  return new Response(c.req.method === "HEAD" ? null : object.body, { status: 200, headers: out });
});
