import { DEFAULT_CURRENCY } from "~/domain/currency";
import { carriesPersonalCookie, recordCookieReads } from "~/lib/cookies.server";
import { cookieCurrency } from "~/lib/currency.server";
import { newNonce, withNonce } from "~/lib/security-headers";

/**
 * A short edge cache for the public pages a visitor (no session) sees. Every visitor gets the same HTML for the
 * same URL and display currency (the currency cookie, decision 620), so rendering it once per few seconds and
 * serving it from the colo's cache keeps busy pages fast; the live parts (pool amounts, entries) update over the
 * pool's WebSocket after load. Signed-in users, and anyone
 * carrying a flash message or a cart, always get a fresh render: whether a request carries one, and whether a render
 * read any cookie at all, is asked of the one cookie reader the app reads with (app/lib/cookies.server.ts, decision
 * 420), so the cache can never disagree with the page about who is asking.
 */
const PUBLIC_PAGES = [
  /^\/$/,
  /^\/shop$/,
  /^\/explore$/,
  /^\/guess-win$/,
  /^\/winner-selection$/,
  /^\/official-rules$/,
  /^\/transparency$/,
  /^\/terms$/,
  /^\/privacy$/,
  /^\/product\/[^/]+$/,
  /^\/buy-now\/[^/]+$/,
  /^\/profile\/[^/]+$/,
  /^\/profile\/[^/]+\/shop$/,
];

/** A public page's path (its visitor's render may be shared). */
export function isPublicPagePath(pathname: string): boolean {
  return PUBLIC_PAGES.some((page) => page.test(pathname));
}

/** A GET of a public page without a session, toast or cart cookie (a visitor with a cart sees its count). */
export function isCacheablePageRequest(request: Request): boolean {
  if (request.method !== "GET") return false;
  if (carriesPersonalCookie(request)) return false;
  return isPublicPagePath(new URL(request.url).pathname);
}

/**
 * The copy a visitor's request is answered with: one per URL and display currency (decision 620). The currency
 * cookie is read by the one reader, as the page reads it; without one, or with one naming no currency of the table,
 * the visitor gets the default copy, the page's own default. The build is named when known: the shared cache outlives
 * a deploy, and old pages name old asset files.
 */
function pageKey(request: Request, version?: string): string {
  const key = new URL(request.url);
  const currency = cookieCurrency(request);
  if (currency && currency !== DEFAULT_CURRENCY) key.searchParams.set("__currency", currency);
  if (version) key.searchParams.set("__build", version);
  return key.toString();
}

/** Seconds a public page may be served from the cache (PAGE_CACHE_SECONDS; 0 turns the cache off). */
export function pageCacheSeconds(env: { PAGE_CACHE_SECONDS?: string }): number {
  const seconds = Number(env.PAGE_CACHE_SECONDS ?? "0");
  return Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds, 300) : 0;
}

/**
 * A rendered page as kept: its body cut at every occurrence of the nonce it was rendered with (a random 128-bit
 * token, so it occurs only where the render put it: the `nonce` attributes of its inline scripts), so an answer
 * can join the pieces with a fresh nonce instead of parsing the page again.
 */
type Stored = { pieces: string[]; size: number; headers: [string, string][]; expiresAt: number };

/** The nonce a page's policy names, if any. */
function renderedNonce(headers: [string, string][]): string | null {
  const policy = headers.find(([name]) => name.toLowerCase() === "content-security-policy")?.[1];
  return policy ? (/'nonce-([A-Za-z0-9_-]{16,})'/.exec(policy)?.[1] ?? null) : null;
}

function toStored(body: string, headers: [string, string][], expiresAt: number): Stored {
  const nonce = renderedNonce(headers);
  return { pieces: nonce ? body.split(nonce) : [body], size: body.length, headers, expiresAt };
}

/**
 * The first level: rendered pages kept in this isolate's memory, so a hit costs no I/O at all. Bounded in entries
 * and bytes; the oldest entry goes first. The second level is the colo's Cache API, shared by all isolates.
 */
const memory = new Map<string, Stored>();
const MEMORY_MAX_ENTRIES = 500;
const MEMORY_MAX_BYTES = 16 * 1024 * 1024;
let memoryBytes = 0;

function memoryGet(key: string, now: number): Stored | null {
  const entry = memory.get(key);
  if (!entry) return null;
  if (entry.expiresAt <= now) {
    memoryDelete(key);
    return null;
  }
  return entry;
}

function memoryDelete(key: string) {
  const entry = memory.get(key);
  if (!entry) return;
  memoryBytes -= entry.size;
  memory.delete(key);
}

function memoryPut(key: string, entry: Stored) {
  memoryDelete(key);
  if (entry.size > MEMORY_MAX_BYTES / 4) return;
  while (memory.size >= MEMORY_MAX_ENTRIES || memoryBytes + entry.size > MEMORY_MAX_BYTES) {
    const oldest = memory.keys().next().value;
    if (oldest === undefined) break;
    memoryDelete(oldest);
  }
  memory.set(key, entry);
  memoryBytes += entry.size;
}

/**
 * A stored page answered again. Its Content-Security-Policy nonce must not repeat (anyone who saw the page knows
 * it), so each answer gets a fresh one: in the policy header and in every place the render put its own (see Stored).
 */
function served(entry: Stored, state: "hit" | "miss"): Response {
  const nonce = entry.pieces.length > 1 ? newNonce() : null;
  const response = new Response(nonce ? entry.pieces.join(nonce) : entry.pieces[0], {
    status: 200,
    headers: entry.headers,
  });
  response.headers.set("X-Page-Cache", state);
  response.headers.set("Cache-Control", "no-cache");
  const policy = response.headers.get("Content-Security-Policy");
  if (nonce && policy) response.headers.set("Content-Security-Policy", withNonce(policy, nonce));
  return response;
}

/** A visitor's page straight from this isolate's memory, or null: the cheapest answer the Worker can give. */
export function pageFromMemory(request: Request, seconds: number): Response | null {
  if (seconds <= 0 || !isCacheablePageRequest(request)) return null;
  const entry = memoryGet(pageKey(request), Date.now());
  return entry ? served(entry, "hit") : null;
}

export async function withPageCache(
  request: Request,
  ctx: Pick<ExecutionContext, "waitUntil">,
  seconds: number,
  render: () => Promise<Response>,
  options: {
    /** The build's version: the shared cache outlives a deploy, and old pages name old asset files. */
    version?: string;
    // (The DOM lib in this tsconfig hides workerd's `caches.default`.)
    cache?: Cache;
  } = {},
): Promise<Response> {
  const cache = options.cache ?? (caches as unknown as { default: Cache }).default;
  if (seconds <= 0 || !isCacheablePageRequest(request)) return render();
  // One copy per URL and display currency, whatever else the visitor's headers say. (Memory dies with the
  // isolate, so with the build.)
  const url = pageKey(request);
  const now = Date.now();
  const local = memoryGet(url, now);
  if (local) return served(local, "hit");

  const key = new Request(pageKey(request, options.version), { method: "GET" });
  const shared = await cache.match(key);
  if (shared) {
    const entry = toStored(await shared.text(), [...shared.headers], now + seconds * 1000);
    memoryPut(url, entry);
    return served(entry, "hit");
  }

  // Only a render that read no cookie at all is anonymous (the reader records every cookie it finds for it, but the
  // currency cookie this copy is keyed by).
  const [rendered, cookiesRead] = recordCookieReads(render);
  const response = await rendered;
  if (response.status !== 200 || response.headers.has("Set-Cookie") || !response.body || cookiesRead.size > 0)
    return response;
  const [forVisitor, forCache] = response.body.tee();
  const headers = [...response.headers].filter(([name]) => name.toLowerCase() !== "cache-control");
  ctx.waitUntil(
    (async () => {
      const body = await new Response(forCache).text();
      // Streamed parts finish after the headers: a cookie read by them keeps the page out too.
      if (cookiesRead.size > 0) return;
      memoryPut(url, toStored(body, headers, Date.now() + seconds * 1000));
      const shared = new Response(body, { status: 200, headers });
      shared.headers.set("Cache-Control", `public, max-age=${seconds}`);
      await cache.put(key, shared);
    })(),
  );
  const out = new Response(forVisitor, response);
  out.headers.set("X-Page-Cache", "miss");
  out.headers.set("Cache-Control", "no-cache");
  return out;
}
