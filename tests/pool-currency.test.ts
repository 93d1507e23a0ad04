import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { guessWinGames, products, productSizes, userProfiles } from "~/db/schema";
import { formatIn, type SupportedCurrency } from "~/domain/currency";
import { addContribution, closePool, openPool } from "~/lib/pools.server";
import { poolsApi, type MultiplexedPoolMessage } from "../workers/pools-api";
import { db, decodedHtml, get, makeUser, signIn } from "./helpers";

// One rule for the currency a pool is shown in, on every page that shows one (displayCurrency in
// app/domain/currency.ts): the currency chosen (?currency=, where the page has a select), else the signed-in
// viewer's local currency (their profile country), else MYR.

const token = crypto.randomUUID().slice(0, 6);
const POOL_CENTS = 12_345; // USD 123.45
let host: { id: string };
let poolId: string;
let productId: string;
let myCookie: string;
let sgCookie: string;

const usd = formatIn(POOL_CENTS, "USD", "USD"); // "USD 123.45"
const rm = formatIn(POOL_CENTS, "USD", "MYR"); // "RM 561.14"
const sgd = formatIn(POOL_CENTS, "USD", "SGD"); // "SGD 166.82"

/** The five pages that show the host's pool amount. */
const poolPages = () => ({
  home: "/",
  guessWin: "/guess-win",
  shop: `/shop?q=${encodeURIComponent(`Pelican${token}`)}`,
  buyNow: `/buy-now/${productId}`,
  profile: `/profile/${host.id}`,
});

async function page(path: string, cookie?: string): Promise<string> {
  const res = await get(path, cookie ? { cookie } : {});
  expect(res.status, path).toBe(200);
  return decodedHtml(res);
}

beforeAll(async () => {
  host = await makeUser({ name: `Pelican${token} Host` });
  // Featured on / (the most tribe members), with an open pool held in USD.
  await db()
    .update(userProfiles)
    .set({ country: "MY", followersCount: 1_900_000_000 })
    .where(eq(userProfiles.userId, host.id));
  const pool = await openPool(env, { hostId: host.id, targetCents: 100_000 });
  expect(pool.currency).toBe("USD");
  poolId = pool.id;
  const buyer = await makeUser({ name: `Pelican${token} Buyer` });
  await addContribution(env, {
    hostId: host.id,
    sourceType: "product_purchase",
    sourceKey: `pi_pool_currency_${token}`,
    amountCents: POOL_CENTS,
    currency: "USD",
    userId: buyer.id,
    earnsEntry: false,
  });
  const [product] = await db()
    .insert(products)
    .values({
      hostId: host.id,
      name: `Pelican${token} Mug`,
      basePriceCents: 2_500,
      priceMinCents: 2_500,
      priceMaxCents: 2_500,
      currency: "USD",
      status: "active",
    })
    .returning({ id: products.id });
  productId = product!.id;
  await db().insert(productSizes).values({ productId, name: "One", priceCents: 2_500, availableUnits: 5 });
  await db()
    .insert(guessWinGames)
    .values({
      hostId: host.id,
      question: `Which bird is on Pelican${token}'s mug?`,
      options: ["Pelican", "Heron"],
      correctAnswer: "Pelican",
      entryFeeCents: 300,
    });

  const my = await makeUser({ name: `Malaysian${token} Fan` });
  const sg = await makeUser({ name: `Singaporean${token} Fan` });
  await db().update(userProfiles).set({ country: "MY" }).where(eq(userProfiles.userId, my.id));
  await db().update(userProfiles).set({ country: "SG" }).where(eq(userProfiles.userId, sg.id));
  myCookie = await signIn(my.email);
  sgCookie = await signIn(sg.email);
});

describe("a pool's amount is shown in one currency on every page", () => {
  it("a signed-in viewer from Malaysia sees the same amount (RM) on /, /guess-win, /shop, /buy-now and /profile", async () => {
    for (const [name, path] of Object.entries(poolPages())) {
      const html = await page(path, myCookie);
      expect(html, name).toContain(rm);
      expect(html, name).not.toContain(usd);
    }
  });

  it("a signed-in viewer from Singapore sees it in SGD on the same five pages (their local currency, not the default)", async () => {
    for (const [name, path] of Object.entries(poolPages())) {
      const html = await page(path, sgCookie);
      expect(html, name).toContain(sgd);
      expect(html, name).not.toContain(rm);
      expect(html, name).not.toContain(usd);
    }
  });

  it("a visitor sees RM on / and /guess-win, and the live figures follow the pool in RM", async () => {
    const home = await page("/");
    expect(home).toContain(`data-pool="${poolId}" data-pool-show="amount" data-pool-currency="MYR">${rm}<`);
    expect(home).not.toContain(usd);
    const feed = await page("/guess-win");
    expect(feed).toContain(`data-pool="${poolId}" data-pool-show="amount" data-pool-currency="MYR">${rm}<`);
    expect(feed).toMatch(/<option value="MYR" selected="">/);
    expect(feed).not.toContain(usd);
  });

  it("?currency=USD on /guess-win shows USD, for a visitor and over a signed-in viewer's own currency", async () => {
    for (const cookie of [undefined, sgCookie]) {
      const feed = await page("/guess-win?currency=USD", cookie);
      expect(feed).toContain(`data-pool="${poolId}" data-pool-show="amount" data-pool-currency="USD">${usd}<`);
      expect(feed).toMatch(/<option value="USD" selected="">/);
      expect(feed).not.toContain(rm);
      expect(feed).not.toContain(sgd);
    }
    // Any chosen currency, not only the one the select used to start on.
    const yen = await page("/guess-win?currency=JPY", sgCookie);
    expect(yen).toContain(`data-pool-currency="JPY">${formatIn(POOL_CENTS, "USD", "JPY")}<`);
    expect(yen).toMatch(/<option value="JPY" selected="">/);
  });

  it("the signed-in viewer's home and buy-now mark the live figures with the shown currency", async () => {
    const home = await page("/", sgCookie);
    expect(home).toContain(`data-pool="${poolId}" data-pool-show="amount" data-pool-currency="SGD">${sgd}<`);
    const buyNow = await page(`/buy-now/${productId}`, sgCookie);
    expect(buyNow).toContain(`data-pool="${poolId}" data-pool-show="amount" data-pool-currency="SGD">${sgd}<`);
  });
});

/** The pool's figures as /api/pools/live sends them to a page in `currency` (what /page.js writes into it). */
async function liveDisplay(currency: SupportedCurrency) {
  return (await liveMessage(poolId, currency)).display;
}

/** The first message /api/pools/live sends a page following `id`. */
async function liveMessage(id: string, currency: SupportedCurrency) {
  const res = await poolsApi.request(
    `/live?ids=${id}&currency=${currency}`,
    { headers: { Upgrade: "websocket" } },
    env,
  );
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const messages: MultiplexedPoolMessage[] = [];
  ws.addEventListener("message", (event) => {
    const text = String(event.data);
    if (text !== "pong") messages.push(JSON.parse(text));
  });
  ws.accept();
  await vi.waitFor(() => {
    if (messages.length === 0) throw new Error("no message yet");
  });
  ws.close(1000, "done");
  return messages[0]!;
}

describe("the live figures", () => {
  it("carry what the page's one live region says: nothing while the pool is open below its target, then its close", async () => {
    const other = await makeUser({ name: `Pelican${token} Closing Host` });
    const pool = await openPool(env, { hostId: other.id, targetCents: 100_000 });
    expect((await liveMessage(pool.id, "MYR")).announce).toBeNull();
    await closePool(env, pool.id, "closed_early");
    const closed = await liveMessage(pool.id, "MYR");
    expect(closed.status).toBe("closed");
    expect(closed.announce).toBe("The prize pool has closed.");
  });

  it("are sent in the currency the page shows, with the same text", async () => {
    const myr = await liveDisplay("MYR");
    expect(myr.amount).toBe(rm);
    const visitorHome = await page("/");
    expect(visitorHome).toContain(`data-pool-currency="MYR">${myr.amount}<`);
    expect(visitorHome).toContain(`data-pool-show="target" data-pool-currency="MYR">${myr.target}<`);

    const sg = await liveDisplay("SGD");
    expect(sg.amount).toBe(sgd);
    const fanHome = await page("/", sgCookie);
    expect(fanHome).toContain(`data-pool-currency="SGD">${sg.amount}<`);
    const buyNow = await page(`/buy-now/${productId}`, sgCookie);
    expect(buyNow).toContain(`data-pool-show="mainPrize" data-pool-currency="SGD">${sg.mainPrize}<`);
    const feed = await page("/guess-win", sgCookie);
    expect(feed).toContain(`data-pool-show="target" data-pool-currency="SGD">${sg.target}<`);
  });
});
