import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { products, userProfiles } from "~/db/schema";
import { shouldHydrate, STATIC_FOR_VISITORS } from "~/lib/hydration";
import { addContribution, openPool } from "~/lib/pools.server";
import { MAX_LIVE_POOLS, poolsApi, type MultiplexedPoolMessage } from "../workers/pools-api";
import { db, get, makeUser, postForm, signIn } from "./helpers";

// Pages a visitor only reads are sent fully rendered without React's client bundle (app/lib/hydration.ts); one
// WebSocket per page keeps their pool figures live (/api/pools/live).

const moduleScripts = (page: string) => [...page.matchAll(/<script[^>]*type="module"[^>]*>/g)].map((m) => m[0]);
const usesReact = (page: string) =>
  page.includes("window.__reactRouterContext") || /entry\.client-[\w-]+\.js/.test(page);

let host: { id: string; email: string };
let poolId: string;
let productId: string;

beforeAll(async () => {
  host = await makeUser({ name: `Hydra${crypto.randomUUID().slice(0, 6)} Host` });
  await db().update(userProfiles).set({ followersCount: 1_000_000 }).where(eq(userProfiles.userId, host.id));
  poolId = (await openPool(env, { hostId: host.id, targetCents: 100_000 })).id;
  const [row] = await db()
    .insert(products)
    .values({ hostId: host.id, name: "Hydration Lamp", basePriceCents: 2_500, currency: "USD", status: "active" })
    .returning({ id: products.id });
  productId = row!.id;
});

describe("which pages hydrate", () => {
  it("the rule: visitors' static pages do not; signed-in users, flash messages and other pages do", () => {
    const root = undefined;
    expect(shouldHydrate({ signedIn: false, flashToast: false, handles: [root, STATIC_FOR_VISITORS] })).toBe(false);
    expect(shouldHydrate({ signedIn: true, flashToast: false, handles: [root, STATIC_FOR_VISITORS] })).toBe(true);
    expect(shouldHydrate({ signedIn: false, flashToast: true, handles: [root, STATIC_FOR_VISITORS] })).toBe(true);
    expect(shouldHydrate({ signedIn: false, flashToast: false, handles: [root, undefined] })).toBe(true);
    expect(shouldHydrate({ signedIn: false, flashToast: false, handles: [root] })).toBe(true);
  });

  it("a visitor's home, shop, product, buy-now and profile come without module scripts or loader data", async () => {
    for (const path of ["/", "/shop", `/product/${productId}`, `/buy-now/${productId}`, `/profile/${host.id}`]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const page = await res.text();
      expect(usesReact(page), path).toBe(false);
      // Only the small scripts of public/ (page.js: live pools and a static page's few behaviours; the service
      // worker's registration) are loaded, none of the built client.
      const scripts = moduleScripts(page);
      expect(scripts, path).toContainEqual(expect.stringContaining('src="/page.js"'));
      for (const script of scripts) expect(script, path).toMatch(/src="\/[\w-]+\.js"/);
      expect(page, path).toContain('<script type="speculationrules"');
      expect(page, path).not.toContain("data-hydrate");
    }
  });

  it("a signed-in fan's home hydrates with React Router's scripts", async () => {
    const fan = await makeUser({ name: "Hydrated Fan" });
    const cookie = await signIn(fan.email);
    for (const path of ["/", "/shop", `/buy-now/${productId}`]) {
      const page = await (await get(path, { cookie })).text();
      expect(usesReact(page), path).toBe(true);
      expect(moduleScripts(page).length, path).toBeGreaterThan(1);
      expect(page, path).toContain("data-hydrate");
      expect(page, path).not.toContain("speculationrules");
    }
  });

  it("pages with in-browser work hydrate for visitors too", async () => {
    for (const path of ["/signin", "/guess-win", "/winner-selection"]) {
      expect(usesReact(await (await get(path)).text()), path).toBe(true);
    }
  });

  it("a visitor's native form post still gets its answer rendered", async () => {
    const res = await postForm(`/buy-now/${productId}`, { size: "", quantity: "1" });
    expect(res.status).toBe(401);
    const page = await res.text();
    expect(page).toContain("Please sign in");
    expect(usesReact(page)).toBe(false);
  });

  it("the pool figures on the home page and shop cards are marked to follow their pool", async () => {
    const home = await (await get("/")).text();
    expect(home).toContain(`data-pool="${poolId}" data-pool-show="amount" data-pool-currency="MYR"`);
    const shop = await (await get(`/shop?q=${encodeURIComponent("Hydration Lamp")}&currency=MYR`)).text();
    expect(shop).toContain('data-pool-currency="MYR"');
    expect(shop).toMatch(new RegExp(`data-pool="${poolId}"><span>Prize Pool<b data-pool-show="amount">`));
    const buyNow = await (await get(`/buy-now/${productId}`)).text();
    expect(buyNow).toContain(`data-pool="${poolId}" data-pool-show="mainPrize" data-pool-currency="MYR"`);
  });
});

describe("one live socket for every pool on a page", () => {
  const live = (query: string, headers: Record<string, string> = { Upgrade: "websocket" }) =>
    poolsApi.request(`/live?${query}`, { headers }, env);

  it("refuses bad requests with a message", async () => {
    expect((await live(`ids=${poolId}`, {})).status).toBe(400);
    const none = await live("ids=");
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ error: "ids is required" });
    const many = Array.from({ length: MAX_LIVE_POOLS + 1 }, () => crypto.randomUUID()).join(",");
    expect((await live(`ids=${many}`)).status).toBe(400);
    expect(await (await live(`ids=${poolId}&currency=XXX`)).json()).toEqual({ error: "Unknown currency" });
    expect((await live(`ids=${crypto.randomUUID()}`)).status).toBe(404);
  });

  it("forwards every pool's messages over one socket, with the figures formatted for the page", async () => {
    const other = await makeUser({ name: "Second Live Host" });
    const otherPool = (await openPool(env, { hostId: other.id, targetCents: 50_000 })).id;
    const res = await live(`ids=${poolId},${otherPool},${poolId}&currency=USD`);
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const messages: (MultiplexedPoolMessage | string)[] = [];
    ws.addEventListener("message", (event) => {
      const text = String(event.data);
      messages.push(text === "pong" ? text : JSON.parse(text));
    });
    ws.accept();
    const waitFor = (count: number) =>
      vi.waitFor(() => {
        if (messages.length < count) throw new Error(`${messages.length} messages so far`);
      });
    await waitFor(2);
    expect(new Set(messages.map((m) => (typeof m === "string" ? m : m.poolId)))).toEqual(new Set([poolId, otherPool]));

    const fan = await makeUser({ name: "Live Multiplex Fan" });
    await addContribution(env, {
      hostId: other.id,
      sourceType: "product_purchase",
      sourceKey: `pi_multiplex_${other.id}`,
      amountCents: 12_345,
      currency: "USD",
      userId: fan.id,
      earnsEntry: true,
    });
    await waitFor(3);
    expect(messages[2]).toMatchObject({
      type: "pool",
      poolId: otherPool,
      amountCents: 12_345,
      entries: 1,
      display: { amount: "USD 123.45", target: "USD 500.00", mainPrize: "USD 74.07", percent: 25 },
    });
    ws.send("ping");
    await waitFor(4);
    expect(messages[3]).toBe("pong");
    ws.close(1000, "done");
  });
});
