import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pagePolicy } from "~/lib/security-headers";
import { isCacheablePageRequest, pageCacheSeconds, pageFromMemory, withPageCache } from "../workers/page-cache";

const page = (path: string, init: RequestInit = {}) => new Request(`https://tribe.test${path}`, init);

describe("the public page cache", () => {
  it("caches only public pages for visitors without a session", () => {
    expect(isCacheablePageRequest(page("/shop?q=lamp"))).toBe(true);
    expect(isCacheablePageRequest(page("/profile/nadia-home"))).toBe(true);
    expect(isCacheablePageRequest(page("/dashboard"))).toBe(false);
    expect(isCacheablePageRequest(page("/my-orders"))).toBe(false);
    expect(isCacheablePageRequest(page("/shop", { method: "POST" }))).toBe(false);
    expect(isCacheablePageRequest(page("/shop", { headers: { Cookie: "a=1; __Host-session=abc" } }))).toBe(false);
    expect(isCacheablePageRequest(page("/", { headers: { Cookie: "__Host-toast=x" } }))).toBe(false);
    // A visitor with a cart sees its count in the nav bar.
    expect(isCacheablePageRequest(page("/shop", { headers: { Cookie: "__Host-cart=x.y" } }))).toBe(false);
    expect(isCacheablePageRequest(page("/", { headers: { Cookie: "theme=dark" } }))).toBe(true);
  });

  it("reads its lifetime from PAGE_CACHE_SECONDS, off when unset or invalid", () => {
    expect(pageCacheSeconds({ PAGE_CACHE_SECONDS: "10" })).toBe(10);
    expect(pageCacheSeconds({})).toBe(0);
    expect(pageCacheSeconds({ PAGE_CACHE_SECONDS: "soon" })).toBe(0);
    expect(pageCacheSeconds({ PAGE_CACHE_SECONDS: "99999" })).toBe(300);
  });

  it("renders a visitor's page once and serves the copy until it expires; a signed-in user always gets a render", async () => {
    const cache = await caches.open(`pages-${crypto.randomUUID()}`);
    let renders = 0;
    const render = async () => new Response(`<p>render ${++renders}</p>`, { headers: { "Content-Type": "text/html" } });
    const ask = async (request: Request) => {
      const ctx = createExecutionContext();
      const res = await withPageCache(request, ctx, 10, render, { cache });
      const text = await res.text();
      await waitOnExecutionContext(ctx);
      return { text, state: res.headers.get("X-Page-Cache") };
    };
    const path = `/profile/${crypto.randomUUID()}`;
    expect(await ask(page(path))).toEqual({ text: "<p>render 1</p>", state: "miss" });
    expect(await ask(page(path))).toEqual({ text: "<p>render 1</p>", state: "hit" });
    expect(await ask(page(`${path}?tab=winner`))).toEqual({ text: "<p>render 2</p>", state: "miss" });
    expect(await ask(page(path, { headers: { Cookie: "__Host-session=abc" } }))).toEqual({ text: "<p>render 3</p>", state: null });
    // The Worker's fast path answers from memory before any routing; never for a session or with the cache off.
    expect(await pageFromMemory(page(path), 10)?.text()).toBe("<p>render 1</p>");
    expect(pageFromMemory(page(path, { headers: { Cookie: "__Host-session=abc" } }), 10)).toBeNull();
    expect(pageFromMemory(page(path), 0)).toBeNull();
    // The shared cache holds the page too, for other isolates (keyed by build when the build is known).
    expect(await (await cache.match(new Request(`https://tribe.test${path}`)))?.text()).toBe("<p>render 1</p>");
  });

  it("stamps a fresh CSP nonce into every answer of a stored page, in the header and in every nonce attribute", async () => {
    const cache = await caches.open(`pages-${crypto.randomUUID()}`);
    const policy = pagePolicy("rendered0nonce00000000");
    const html = '<html><head><link rel="modulepreload" href="/a.js" nonce="rendered0nonce00000000"></head><body><p>Shop</p>' +
      '<script nonce="rendered0nonce00000000">window.__ctx = 1</script><script type="module" nonce="rendered0nonce00000000">import "/a.js"</script></body></html>';
    const render = async () => new Response(html, { headers: { "Content-Type": "text/html", "Content-Security-Policy": policy } });
    const path = `/shop?nonce-test=${crypto.randomUUID()}`;
    const answers: { nonce: string; body: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const ctx = createExecutionContext();
      const res = i === 2 ? pageFromMemory(page(path), 10)! : await withPageCache(page(path), ctx, 10, render, { cache });
      const body = await res.text();
      await waitOnExecutionContext(ctx);
      const header = res.headers.get("Content-Security-Policy")!;
      const nonce = header.match(/'nonce-([^']+)'/)![1];
      expect(header).toBe(pagePolicy(nonce));
      answers.push({ nonce, body });
    }
    // The render's own answer keeps its nonce; each cached answer has a new one, used by every attribute.
    expect(answers[0]!.nonce).toBe("rendered0nonce00000000");
    expect(new Set(answers.map((a) => a.nonce)).size).toBe(3);
    for (const { nonce, body } of answers) {
      expect(body.match(/nonce="([^"]*)"/g)).toEqual([`nonce="${nonce}"`, `nonce="${nonce}"`, `nonce="${nonce}"`]);
      expect(body).toContain("<p>Shop</p>");
    }
  });

  it("keys the shared cache by build, so a deploy never serves pages that name old asset files", async () => {
    const cache = await caches.open(`pages-${crypto.randomUUID()}`);
    const path = `/product/${crypto.randomUUID()}`;
    const ctx = createExecutionContext();
    await (await withPageCache(page(path), ctx, 10, async () => new Response("v1 page"), { cache, version: "v1" })).text();
    await waitOnExecutionContext(ctx);
    expect(await (await cache.match(new Request(`https://tribe.test${path}?__build=v1`)))?.text()).toBe("v1 page");
    expect(await cache.match(new Request(`https://tribe.test${path}?__build=v2`))).toBeUndefined();
  });

  it("never stores an error page or a response that sets a cookie", async () => {
    const cache = await caches.open(`pages-${crypto.randomUUID()}`);
    for (const response of [new Response("gone", { status: 404 }), new Response("hi", { headers: { "Set-Cookie": "a=1" } })]) {
      const ctx = createExecutionContext();
      await (await withPageCache(page("/product/x"), ctx, 10, async () => response.clone(), { cache })).text();
      await waitOnExecutionContext(ctx);
      expect(await cache.match(new Request("https://tribe.test/product/x"))).toBeUndefined();
    }
  });
});
