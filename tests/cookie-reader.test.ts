import { describe, expect, it } from "vitest";
import { carriesPersonalCookie, clearUndecodableCookies, parseCookieHeader, readCookie } from "~/lib/cookies.server";
import { cookieFrom, makeSignedInUser, ORIGIN, SESSION } from "./helpers";
import { builtWorkerFetch } from "./support/built-worker";

// The one reader of the Cookie header (app/lib/cookies.server.ts, decision 420): the app, the page cache's lookup and
// its store all ask it. These are the reproductions of issue 27 it fixes; tests/page-cache.test.ts has the property.

const withCookie = (cookie: string) => new Request(`${ORIGIN}/`, { headers: { Cookie: cookie } });
const CACHE_ON = { PAGE_CACHE_SECONDS: "10" };

describe("the cookie reader", () => {
  it("reads names and values with spaces and tabs around them, quoted and %-encoded values, the first of duplicates", () => {
    expect(readCookie(withCookie("__Host-session =abc"), SESSION)).toBe("abc");
    expect(readCookie(withCookie("a=1;\t__Host-session\t=\t abc \t; b=2"), SESSION)).toBe("abc");
    expect(readCookie(withCookie('__Host-session="abc"'), SESSION)).toBe("abc");
    expect(readCookie(withCookie("__Host-session=a%2Bb"), SESSION)).toBe("a+b");
    expect(readCookie(withCookie("__Host-session=first; __Host-session=second"), SESSION)).toBe("first");
    expect(readCookie(withCookie("x__Host-session=abc; __Host-sessionx=abc"), SESSION)).toBeNull();
    expect(readCookie(new Request(ORIGIN), SESSION)).toBeNull();
  });

  it("treats a value that cannot be decoded as absent, and says which of the site's cookies to clear", () => {
    expect(readCookie(withCookie("__Host-session=%"), SESSION)).toBeNull();
    expect(readCookie(withCookie("__Host-cart=%E0%A4%A; theme=dark"), "theme")).toBe("dark");
    expect(parseCookieHeader("a=%zz; b=1")).toEqual(
      new Map([
        ["a", undefined],
        ["b", "1"],
      ]),
    );
    // Still a personal cookie to the page cache: such a request is never answered from it.
    expect(carriesPersonalCookie(withCookie("__Host-toast=%"))).toBe(true);
    expect(carriesPersonalCookie(withCookie("theme=%"))).toBe(false);
    expect(clearUndecodableCookies(withCookie("__Host-session=%; theme=%; __Host-d1-bookmark=ok"))).toEqual([
      "__Host-session=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0",
    ]);
  });
});

describe("the Cookie header", () => {
  const sources = {
    ...import.meta.glob<string>("/app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }),
    ...import.meta.glob<string>("/workers/**/*.ts", { query: "?raw", import: "default", eager: true }),
  };

  it("is read by the one reader and nowhere else in the app or the Worker", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    const readers = Object.entries(sources)
      .filter(([, text]) =>
        /\.get\(\s*["'`]cookie["'`]\s*\)|\[\s*["'`]cookie["'`]\s*\]|parse\w*Cookie\w*\(/i.test(text),
      )
      .map(([file]) => file);
    expect(readers).toEqual(["/app/lib/cookies.server.ts"]);
  });
});

describe("a malformed cookie", () => {
  it("answers every page normally and clears the cookie, instead of a 500", async () => {
    for (const path of ["/", "/shop", "/signin", "/my-orders", "/shop.data"]) {
      const res = await builtWorkerFetch(new Request(`${ORIGIN}${path}`, { headers: { Cookie: "__Host-session=%" } }));
      expect(res.status, path).toBeLessThan(500);
      expect(cookieFrom(res, SESSION), path).toBe(`${SESSION}=`);
    }
  });

  it("is cleared even when the page comes from the cache", async () => {
    const path = `/terms?bookmark=${crypto.randomUUID()}`;
    expect((await builtWorkerFetch(new Request(`${ORIGIN}${path}`), CACHE_ON)).headers.get("X-Page-Cache")).toBe(
      "miss",
    );
    const res = await builtWorkerFetch(
      new Request(`${ORIGIN}${path}`, { headers: { Cookie: "__Host-d1-bookmark=%" } }),
      CACHE_ON,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Page-Cache")).toBe("hit");
    expect(cookieFrom(res, "__Host-d1-bookmark")).toBe("__Host-d1-bookmark=");
  });

  it("answers the API without an error or a stack trace", async () => {
    for (const path of ["/api/health", "/api/chat/x/live", "/api/downloads/x", "/api/no-such-route"]) {
      const res = await builtWorkerFetch(
        new Request(`${ORIGIN}${path}`, {
          headers: { Cookie: "__Host-session=%; __Host-d1-bookmark=%", Upgrade: "websocket" },
        }),
      );
      const body = await res.text();
      expect(res.status, path).toBeLessThan(500);
      expect(body, path).not.toMatch(/at .*\.(js|ts):\d+|URIError|stack/i);
    }
  });
});

describe("the page cache and a signed-in visitor", () => {
  it("never stores a signed-in render sent as `__Host-session =<token>` (a space before `=`)", async () => {
    const fan = await makeSignedInUser({ name: "Spaced Cookie" });
    const token = fan.cookie.slice(`${SESSION}=`.length);
    const path = `/shop?poison=${crypto.randomUUID()}`;
    const signedIn = await builtWorkerFetch(
      new Request(`${ORIGIN}${path}`, { headers: { Cookie: `${SESSION} =${token}` } }),
      CACHE_ON,
    );
    expect(await signedIn.text()).toContain("Account menu for");
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
    // The next visitor gets a visitor's page, not the fan's.
    const visitor = await builtWorkerFetch(new Request(`${ORIGIN}${path}`), CACHE_ON);
    expect(visitor.status).toBe(200);
    expect(await visitor.text()).not.toContain("Account menu for");
    expect(visitor.headers.get("X-Page-Cache")).toBe("miss");
  });
});
