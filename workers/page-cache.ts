/**
 * A short edge cache for the public pages a visitor (no session) sees. Every visitor gets the same HTML for the
 * same URL, so rendering it once per few seconds and serving it from the colo's cache keeps busy pages fast; the
 * live parts (pool amounts, entries) update over the pool's WebSocket after load. Signed-in users, and anyone
 * carrying a flash message, always get a fresh render.
 */
const PUBLIC_PAGES = [
  /^\/$/,
  /^\/shop$/,
  /^\/explore$/,
  /^\/guess-win$/,
  /^\/winner-selection$/,
  /^\/official-rules$/,
  /^\/terms$/,
  /^\/privacy$/,
  /^\/product\/[^/]+$/,
  /^\/buy-now\/[^/]+$/,
  /^\/profile\/[^/]+$/,
  /^\/profile\/[^/]+\/shop$/,
];

const PERSONAL_COOKIE = /(?:^|;\s*)__Host-(?:session|toast)=/;

export function isCacheablePageRequest(request: Request): boolean {
  if (request.method !== "GET") return false;
  if (PERSONAL_COOKIE.test(request.headers.get("Cookie") ?? "")) return false;
  const { pathname } = new URL(request.url);
  return PUBLIC_PAGES.some((page) => page.test(pathname));
}

/** Seconds a public page may be served from the cache (PAGE_CACHE_SECONDS; 0 turns the cache off). */
export function pageCacheSeconds(env: { PAGE_CACHE_SECONDS?: string }): number {
  const seconds = Number(env.PAGE_CACHE_SECONDS ?? "0");
  return Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds, 300) : 0;
}

export async function withPageCache(
  request: Request,
  ctx: Pick<ExecutionContext, "waitUntil">,
  seconds: number,
  render: () => Promise<Response>,
  // (The DOM lib in this tsconfig hides workerd's `caches.default`.)
  cache: Cache = (caches as unknown as { default: Cache }).default,
): Promise<Response> {
  if (seconds <= 0 || !isCacheablePageRequest(request)) return render();
  // One key per URL, whatever the visitor's headers.
  const key = new Request(new URL(request.url).toString(), { method: "GET" });
  const hit = await cache.match(key);
  if (hit) {
    const response = new Response(hit.body, hit);
    response.headers.set("X-Page-Cache", "hit");
    response.headers.set("Cache-Control", "no-cache");
    return response;
  }
  const response = await render();
  if (response.status !== 200 || response.headers.has("Set-Cookie") || !response.body) return response;
  const [forVisitor, forCache] = response.body.tee();
  const stored = new Response(forCache, response);
  stored.headers.set("Cache-Control", `public, max-age=${seconds}`);
  ctx.waitUntil(cache.put(key, stored));
  const out = new Response(forVisitor, response);
  out.headers.set("X-Page-Cache", "miss");
  out.headers.set("Cache-Control", "no-cache");
  return out;
}
