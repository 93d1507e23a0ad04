import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CART_COOKIE,
  CURRENCY_COOKIE,
  PERSONAL_COOKIES,
  readCookie,
  SESSION_COOKIE,
  TOAST_COOKIE,
} from "~/lib/cookies.server";
import { pagePolicy } from "~/lib/security-headers";
import { isCacheablePageRequest, pageCacheSeconds, pageFromMemory, withPageCache } from "../workers/page-cache";
import { makeSignedInUser } from "./helpers";
import { builtWorkerFetch } from "./support/built-worker";

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
    expect(await ask(page(path, { headers: { Cookie: "__Host-session=abc" } }))).toEqual({
      text: "<p>render 3</p>",
      state: null,
    });
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
    const html =
      '<html><head><link rel="modulepreload" href="/a.js" nonce="rendered0nonce00000000"></head><body><p>Shop</p>' +
      '<script nonce="rendered0nonce00000000">window.__ctx = 1</script><script type="module" nonce="rendered0nonce00000000">import "/a.js"</script></body></html>';
    const render = async () =>
      new Response(html, { headers: { "Content-Type": "text/html", "Content-Security-Policy": policy } });
    const path = `/shop?nonce-test=${crypto.randomUUID()}`;
    const answers: { nonce: string; body: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const ctx = createExecutionContext();
      const res =
        i === 2 ? pageFromMemory(page(path), 10)! : await withPageCache(page(path), ctx, 10, render, { cache });
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
    await (
      await withPageCache(page(path), ctx, 10, async () => new Response("v1 page"), { cache, version: "v1" })
    ).text();
    await waitOnExecutionContext(ctx);
    expect(await (await cache.match(new Request(`https://tribe.test${path}?__build=v1`)))?.text()).toBe("v1 page");
    expect(await cache.match(new Request(`https://tribe.test${path}?__build=v2`))).toBeUndefined();
  });

  it("never stores an error page or a response that sets a cookie", async () => {
    const cache = await caches.open(`pages-${crypto.randomUUID()}`);
    for (const response of [
      new Response("gone", { status: 404 }),
      new Response("hi", { headers: { "Set-Cookie": "a=1" } }),
    ]) {
      const ctx = createExecutionContext();
      await (await withPageCache(page("/product/x"), ctx, 10, async () => response.clone(), { cache })).text();
      await waitOnExecutionContext(ctx);
      expect(await cache.match(new Request("https://tribe.test/product/x"))).toBeUndefined();
    }
  });
});

// --- Cookie headers the cache must never be fooled by (issue 27, decision 420) -----------------------------------

/** Spaces and tabs as browsers, proxies and attackers put them around names, `=` and values. */
const blank = fc.array(fc.constantFrom(" ", "\t"), { maxLength: 3 }).map((chars) => chars.join(""));
const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/);
/** A value as sent: plain, in double quotes, %-encoded, or not decodable at all. */
const value = fc.oneof(
  token,
  token.map((t) => `"${t}"`),
  token.map((t) => encodeURIComponent(`${t}+/=`)),
  fc.constantFrom("%", "%zz", "%E0%A4%A", "a%"),
);
/** Someone else's cookie (analytics, a theme); never one of ours. */
const otherCookie = fc
  .tuple(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,12}$/), blank, blank, value)
  .filter(([name]) => !PERSONAL_COOKIES.includes(name))
  .map(([name, before, after, v]) => `${name}${before}=${after}${v}`);
const personalCookie = fc
  .tuple(blank, fc.constantFrom(...PERSONAL_COOKIES), blank, blank, value, blank)
  .map(([lead, name, before, after, v, trail]) => `${lead}${name}${before}=${after}${v}${trail}`);
/** A Cookie header with 1-3 of our personal cookies (duplicates included) among others, in any order. */
const personalHeader = fc
  .tuple(
    fc.array(personalCookie, { minLength: 1, maxLength: 3 }),
    fc.array(otherCookie, { maxLength: 4 }),
    fc.array(blank, { minLength: 7, maxLength: 7 }),
  )
  .chain(([mine, others, gaps]) =>
    fc
      .shuffledSubarray([...mine, ...others], { minLength: mine.length + others.length })
      .map((all) => all.map((c, i) => `${c}${i < all.length - 1 ? `;${gaps[i % gaps.length]}` : ""}`).join("")),
  );
const otherHeader = fc.array(otherCookie, { minLength: 1, maxLength: 4 }).map((all) => all.join("; "));

describe("the page cache and any Cookie header", () => {
  // A render as the app's: the nav bar and flash message read the session, toast and cart through the one reader.
  const render = (request: Request) => async () => {
    const seen = [SESSION_COOKIE, TOAST_COOKIE, CART_COOKIE]
      .map((name) => readCookie(request, name))
      .filter((v) => v !== null);
    return new Response(seen.length ? `<p>personal ${seen.join(",")}</p>` : "<p>anonymous</p>", {
      headers: { "Content-Type": "text/html" },
    });
  };
  const ask = async (cache: Cache, request: Request) => {
    const ctx = createExecutionContext();
    const res = await withPageCache(request, ctx, 10, render(request), { cache });
    const text = await res.text();
    await waitOnExecutionContext(ctx);
    return { text, state: res.headers.get("X-Page-Cache") };
  };

  it("never answers a request carrying a session, toast or cart cookie from the cache, and never stores its render", async () => {
    const cache = await caches.open(`pages-${crypto.randomUUID()}`);
    await fc.assert(
      fc.asyncProperty(personalHeader, fc.boolean(), async (cookie, visitorFirst) => {
        const path = `/product/${crypto.randomUUID()}`;
        const personal = () => page(path, { headers: { Cookie: cookie } });
        if (visitorFirst) {
          // A visitor's copy is stored; the personal request still gets its own render.
          expect(await ask(cache, page(path))).toEqual({ text: "<p>anonymous</p>", state: "miss" });
          expect((await ask(cache, personal())).state).toBeNull();
          expect(pageFromMemory(personal(), 10)).toBeNull();
        } else {
          const own = await ask(cache, personal());
          expect(own.state).toBeNull();
          // Nothing was stored: the next visitor gets a fresh render of their own.
          expect(pageFromMemory(page(path), 10)).toBeNull();
          expect(await cache.match(new Request(`https://tribe.test${path}`))).toBeUndefined();
          expect(await ask(cache, page(path))).toEqual({ text: "<p>anonymous</p>", state: "miss" });
        }
      }),
      { numRuns: 150 },
    );
  });

  it("reads the first decodable occurrence as the app does: what the cache calls personal is what the page shows", async () => {
    await fc.assert(
      fc.property(blank, blank, blank, token, (before, after, lead, t) => {
        const request = page("/", {
          headers: { Cookie: `theme=dark;${lead}${SESSION_COOKIE}${before}=${after}"${t}"; ${SESSION_COOKIE}=other` },
        });
        expect(readCookie(request, SESSION_COOKIE)).toBe(t);
        expect(isCacheablePageRequest(request)).toBe(false);
      }),
    );
  });

  it("still serves visitors carrying only other cookies from the cache, unless their render read one", async () => {
    const cache = await caches.open(`pages-${crypto.randomUUID()}`);
    await fc.assert(
      fc.asyncProperty(otherHeader, async (cookie) => {
        const path = `/shop?other=${crypto.randomUUID()}`;
        const request = page(path, { headers: { Cookie: cookie } });
        expect(isCacheablePageRequest(request)).toBe(true);
        expect(await ask(cache, request)).toEqual({ text: "<p>anonymous</p>", state: "miss" });
        expect((await ask(cache, page(path))).state).toBe("hit");
      }),
      { numRuns: 40 },
    );
    // A render that read any cookie at all (here a theme) is its reader's own: not stored.
    const path = `/shop?theme=${crypto.randomUUID()}`;
    const themed = page(path, { headers: { Cookie: "theme=dark" } });
    const ctx = createExecutionContext();
    const res = await withPageCache(
      themed,
      ctx,
      10,
      async () => new Response(`<p>${readCookie(themed, "theme")}</p>`),
      { cache },
    );
    expect(await res.text()).toBe("<p>dark</p>");
    await waitOnExecutionContext(ctx);
    expect(pageFromMemory(page(path), 10)).toBeNull();
    expect(await cache.match(new Request(`https://tribe.test${path}`))).toBeUndefined();
  });
});

// --- One cached copy per display currency (decision 620) ----------------------------------------------------------

describe("the page cache and the currency cookie", () => {
  const CACHE_ON = { PAGE_CACHE_SECONDS: "10" };
  const visit = async (path: string, cookie?: string) => {
    const res = await builtWorkerFetch(
      new Request(`https://tribe.test${path}`, { headers: cookie ? { Cookie: cookie } : {} }),
      CACHE_ON,
    );
    const html = await res.text();
    return {
      status: res.status,
      state: res.headers.get("X-Page-Cache"),
      cacheControl: res.headers.get("Cache-Control"),
      currency: /<option selected(?:="")? value="([A-Z]{3})"/.exec(html)?.[1] ?? null,
      setCookies: res.headers.getSetCookie(),
    };
  };

  it("is not a personal cookie: its carrier may be answered from the cache", () => {
    expect(PERSONAL_COOKIES).not.toContain(CURRENCY_COOKIE);
    expect(isCacheablePageRequest(page("/shop", { headers: { Cookie: `${CURRENCY_COOKIE}=USD` } }))).toBe(true);
  });

  it("gives visitors with different currency cookies different copies, each served from the cache", async () => {
    const path = `/shop?currency-copies=${crypto.randomUUID()}`;
    const usd = `${CURRENCY_COOKIE}=USD`;
    const jpy = `theme=dark; ${CURRENCY_COOKIE}=JPY`;
    expect(await visit(path, usd)).toMatchObject({ status: 200, state: "miss", currency: "USD" });
    expect(await visit(path, usd)).toMatchObject({
      status: 200,
      state: "hit",
      currency: "USD",
      cacheControl: "no-cache",
    });
    expect(await visit(path, jpy)).toMatchObject({ status: 200, state: "miss", currency: "JPY" });
    expect(await visit(path, jpy)).toMatchObject({ status: 200, state: "hit", currency: "JPY" });
    expect(await visit(path)).toMatchObject({ status: 200, state: "miss", currency: "MYR" });
    expect(await visit(path)).toMatchObject({ state: "hit", currency: "MYR" });
    expect(await visit(path, usd)).toMatchObject({ state: "hit", currency: "USD" });
  });

  it("answers a junk currency cookie with the default copy, without an error", async () => {
    const path = `/shop?currency-junk=${crypto.randomUUID()}`;
    expect(await visit(path, `${CURRENCY_COOKIE}=MYR`)).toMatchObject({ status: 200, state: "miss", currency: "MYR" });
    for (const junk of ["XYZ", "usd", "", '"USD', "%", "%E0%A4%A"]) {
      const answer = await visit(path, `${CURRENCY_COOKIE}=${junk}`);
      expect(answer, junk).toMatchObject({ status: 200, state: "hit", currency: "MYR" });
      // One that cannot even be decoded is cleared, as every cookie of ours is.
      if (junk.startsWith("%")) expect(answer.setCookies.join(), junk).toContain(`${CURRENCY_COOKIE}=;`);
    }
  });

  it("never keys a signed-in render by it: a fan's page is never cached", async () => {
    const fan = await makeSignedInUser({ name: "Currency Cookie Fan" });
    const path = `/shop?currency-fan=${crypto.randomUUID()}`;
    const answer = await visit(path, `${CURRENCY_COOKIE}=USD; ${fan.cookie}`);
    expect(answer).toMatchObject({ status: 200, state: null, cacheControl: "private, no-store" });
    expect(await visit(path, `${CURRENCY_COOKIE}=USD`)).toMatchObject({ state: "miss", currency: "USD" });
  });
});
