// Request body caps, enforced while the body streams in: a body is never buffered past its cap, whether or not it
// declares a Content-Length. workers/app.ts applies `limitRequestBody` to every request before any route runs; the
// upload routes (images, digital product files, video parts) read their body with `readBodyWithin` themselves,
// against their own caps and size messages, so those bodies are not held twice.

import { concatBytes } from "~/lib/bytes";

/** Forms and JSON: far above any real form (a 5,000-character description is 15 KB encoded). */
export const FORM_MAX_BYTES = 512 * 1024;
/** Stripe's events (checkout, refunds, Connect) are a few KB; 256 KB leaves room and nothing more. */
export const WEBHOOK_MAX_BYTES = 256 * 1024;
/** A multipart upload carries a little framing beyond the file itself. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export const BODY_TOO_LARGE_MESSAGE = "This request is too large to be accepted.";

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(BODY_TOO_LARGE_MESSAGE);
  }
}

/** How a request's body is capped: by the entry (`maxBytes`), or by its route, which reads large files itself. */
export type BodyRule = { readByRoute: false; maxBytes: number } | { readByRoute: true };

/**
 * The cap of a request's body, by where it goes. The upload routes read their body with `readBodyWithin` against
 * their own cap (5 MB images, 50 MB files, 95 MB video parts) and answer 413 with the form's size message.
 */
export function bodyRuleFor(pathname: string, search = ""): BodyRule {
  if (pathname.startsWith("/api/webhooks/")) return { readByRoute: false, maxBytes: WEBHOOK_MAX_BYTES };
  if (
    pathname === "/api/uploads/image" ||
    pathname === "/api/uploads/file" ||
    /^\/api\/uploads\/video\/[^/]+\/parts\/[^/]+$/.test(pathname) ||
    (pathname === "/settings" && /(?:^|[?&])upload=/.test(search))
  ) {
    return { readByRoute: true };
  }
  return { readByRoute: false, maxBytes: FORM_MAX_BYTES };
}

/** The Content-Length a request declares, or null when it has none (a chunked body) or an unreadable one. */
export function declaredLength(request: Request): number | null {
  const raw = request.headers.get("Content-Length");
  if (raw === null || !/^\d{1,16}$/.test(raw.trim())) return null;
  return Number(raw);
}

/**
 * Reads a request's whole body, stopping (and cancelling the rest of the stream) as soon as it passes `maxBytes`:
 * throws BodyTooLargeError then, having held at most `maxBytes` plus one chunk.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = declaredLength(request);
  if (declared !== null && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    throw new BodyTooLargeError(maxBytes);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array<ArrayBuffer>;
  return concatBytes(chunks);
}

/** The 413 answer: JSON for the API, plain text for pages and forms. */
export function bodyTooLargeResponse(pathname: string): Response {
  if (pathname.startsWith("/api/")) {
    return Response.json({ error: BODY_TOO_LARGE_MESSAGE }, { status: 413, headers: { Connection: "close" } });
  }
  return new Response(BODY_TOO_LARGE_MESSAGE, {
    status: 413,
    headers: { "Content-Type": "text/plain; charset=utf-8", Connection: "close" },
  });
}

/**
 * Caps the request's body before any route sees it: a 413 answer when it is (or declares to be) larger than its
 * route's cap, else the request with its body read into memory (at most the cap), or, for the upload routes, the
 * request as it came (they read it with `readBodyWithin`).
 */
export async function limitRequestBody(request: Request): Promise<Request | Response> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return request;
  const url = new URL(request.url);
  const rule = bodyRuleFor(url.pathname, url.search);
  if (rule.readByRoute) return request;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readBodyWithin(request, rule.maxBytes);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return bodyTooLargeResponse(url.pathname);
    throw err;
  }
  const headers = new Headers(request.headers);
  headers.delete("Transfer-Encoding");
  headers.set("Content-Length", String(bytes.byteLength));
  return new Request(request, { headers, body: bytes });
}

export const FORM_UNREADABLE_MESSAGE = "This form could not be read. Please send it again from the page.";

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * A page's POST (an action) carries a form, as the page's own forms send it: anything else gets a 4xx with a
 * message before any action reads it, where `request.formData()` would have thrown (a 500). A body without a
 * Content-Type is read as a URL-encoded form, so an empty POST reaches the action as an empty form and gets the
 * action's own message. The upload routes, which read their body themselves, are left to them.
 */
export async function requireFormBody(request: Request): Promise<Request | Response> {
  if (request.method === "GET" || request.method === "HEAD") return request;
  const url = new URL(request.url);
  if (bodyRuleFor(url.pathname, url.search).readByRoute) return request;
  const type = request.headers.get("Content-Type");
  if (type === null) {
    const headers = new Headers(request.headers);
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    return new Request(request, { headers });
  }
  const unreadable = (status: 400 | 415) =>
    new Response(FORM_UNREADABLE_MESSAGE, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!FORM_TYPES.test(type)) return unreadable(415);
  try {
    await request.clone().formData();
    return request;
  } catch {
    return unreadable(400);
  }
}
