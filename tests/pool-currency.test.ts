import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { guessWinGames, products, productSizes, userProfiles } from "~/db/schema";
import { formatCents } from "~/domain/money";
import { formatIn, type SupportedCurrency } from "~/domain/currency";
import { shownPurchaseCents } from "~/domain/payments";
import { addContribution, closePool, openPool } from "~/lib/pools.server";
import { poolsApi, type MultiplexedPoolMessage } from "../workers/pools-api";
import { cookieFrom, db, decodedHtml, get, makeUser, PASSWORD, postForm, SESSION, signIn } from "./helpers";

// One rule for the currency a pool and a price are shown in, on every page that shows one (displayCurrency in
// app/domain/currency.ts, decisions 310 and 620): a currency the address names (?currency=), else the one the viewer
// chose and the site remembers (a fan's profile, a visitor's cookie), else the signed-in viewer's local currency
// (their profile country), else MYR.

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

/** The currency select's chosen option. */
const selectedOption = (code: string) => new RegExp(`<option selected(?:="")? value="${code}"`);

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
}, 30_000);

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
    expect(feed).toMatch(selectedOption("MYR"));
    expect(feed).not.toContain(usd);
  });

  it("?currency=USD on /guess-win shows USD, for a visitor and over a signed-in viewer's own currency", async () => {
    for (const cookie of [undefined, sgCookie]) {
      const feed = await page("/guess-win?currency=USD", cookie);
      expect(feed).toContain(`data-pool="${poolId}" data-pool-show="amount" data-pool-currency="USD">${usd}<`);
      expect(feed).toMatch(selectedOption("USD"));
      expect(feed).not.toContain(rm);
      expect(feed).not.toContain(sgd);
    }
    // Any chosen currency, not only the one the select used to start on.
    const yen = await page("/guess-win?currency=JPY", sgCookie);
    expect(yen).toContain(`data-pool-currency="JPY">${formatIn(POOL_CENTS, "USD", "JPY")}<`);
    expect(yen).toMatch(selectedOption("JPY"));
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

// --- the viewer's choice, remembered (decision 620) ------------------------------------------------------------

const CURRENCY_COOKIE = "__Host-currency";
const price = (currency: SupportedCurrency) => formatIn(2_500, "USD", currency); // the mug's USD 25.00

async function storedChoice(userId: string): Promise<string | null> {
  const [row] = await db()
    .select({ currency: userProfiles.displayCurrency })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId));
  return row!.currency;
}

describe("the currency a viewer chooses is remembered on every page", () => {
  it("a visitor who chooses USD on /shop sees USD on the next pages through a cookie, the host's shop included", async () => {
    const chose = await postForm("/currency", { currency: "USD", returnTo: poolPages().shop });
    expect(chose.status).toBe(303);
    expect(chose.headers.get("Location")).toBe(poolPages().shop);
    const cookie = cookieFrom(chose, CURRENCY_COOKIE);
    expect(cookie).toBe(`${CURRENCY_COOKIE}=USD`);
    for (const path of ["/", poolPages().guessWin, poolPages().profile, poolPages().buyNow]) {
      const html = await page(path, cookie!);
      expect(html, path).toContain(`data-pool-currency="USD">${usd}<`);
      expect(html, path).not.toContain(rm);
    }
    for (const path of [`/product/${productId}`, `/profile/${host.id}/shop`, poolPages().shop]) {
      const html = await page(path, cookie!);
      expect(html, path).toContain(price("USD"));
      expect(html, path).not.toContain(price("MYR"));
    }
    // The select on the next page starts on the choice.
    expect(await page(`/profile/${host.id}/shop`, cookie!)).toMatch(selectedOption("USD"));
  });

  it("goes back to the page it was made on, never elsewhere, and without a ?currency= that would outvote it", async () => {
    const back = async (returnTo: string) =>
      (await postForm("/currency", { currency: "JPY", returnTo })).headers.get("Location");
    expect(await back("/shop?currency=SGD&q=mug")).toBe("/shop?q=mug");
    expect(await back("//evil.example/shop")).toBe("/");
    expect(await back("https://evil.example/")).toBe("/");
  });

  it("refuses a currency outside the list with a 400 and stores nothing; a junk cookie shows the default", async () => {
    const fan = await makeUser({ name: `Refused${token} Fan` });
    const fanCookie = await signIn(fan.email);
    for (const currency of ["XYZ", "usd", "", "MYR<script>"]) {
      const visitor = await postForm("/currency", { currency, returnTo: "/shop" });
      expect(visitor.status, currency).toBe(400);
      expect(await visitor.text()).toContain("Choose one of the listed currencies.");
      expect(cookieFrom(visitor, CURRENCY_COOKIE)).toBeNull();
      expect((await postForm("/currency", { currency, returnTo: "/shop" }, { cookie: fanCookie })).status).toBe(400);
    }
    expect(await storedChoice(fan.id)).toBeNull();
    for (const junk of ["XYZ", "%", "usd"]) {
      const home = await page("/", `${CURRENCY_COOKIE}=${junk}`);
      expect(home, junk).toContain(`data-pool-currency="MYR">${rm}<`);
    }
  });

  it("a fan's choice is kept on their profile and shown on another device; Settings can set it back to their country's", async () => {
    const fan = await makeUser({ name: `Traveller${token} Fan` });
    await db().update(userProfiles).set({ country: "SG" }).where(eq(userProfiles.userId, fan.id));
    const laptop = await signIn(fan.email);
    const chose = await postForm("/currency", { currency: "JPY", returnTo: poolPages().shop }, { cookie: laptop });
    expect(chose.status).toBe(303);
    expect(cookieFrom(chose, CURRENCY_COOKIE)).toBeNull();
    expect(await storedChoice(fan.id)).toBe("JPY");

    const phone = await signIn(fan.email);
    const yen = formatIn(POOL_CENTS, "USD", "JPY");
    for (const path of ["/", poolPages().guessWin, poolPages().profile, poolPages().buyNow]) {
      expect(await page(path, phone), path).toContain(yen);
    }
    // The host's shop is in the viewer's currency, not the host's (Malaysia's RM).
    const hostShop = await page(`/profile/${host.id}/shop`, phone);
    expect(hostShop).toContain(price("JPY"));
    expect(hostShop).not.toContain(price("MYR"));

    expect((await postForm("/settings", { intent: "currency", currency: "XYZ" }, { cookie: phone })).status).toBe(400);
    expect(await storedChoice(fan.id)).toBe("JPY");
    expect((await postForm("/settings", { intent: "currency", currency: "" }, { cookie: phone })).status).toBe(200);
    expect(await storedChoice(fan.id)).toBeNull();
    expect(await page("/", laptop)).toContain(`data-pool-currency="SGD">${sgd}<`);
  });

  it("a visitor's choice goes with them into their account when they sign in, unless the account has its own", async () => {
    const visitorCookie = `${CURRENCY_COOKIE}=USD`;
    const fresh = await makeUser({ name: `Arriving${token} Fan` });
    const signedIn = await postForm("/signin", { email: fresh.email, password: PASSWORD }, { cookie: visitorCookie });
    expect(signedIn.status).toBe(302);
    expect(await storedChoice(fresh.id)).toBe("USD");
    expect(await page(poolPages().shop, cookieFrom(signedIn, SESSION)!)).toMatch(selectedOption("USD"));

    const settled = await makeUser({ name: `Settled${token} Fan` });
    await db().update(userProfiles).set({ displayCurrency: "JPY" }).where(eq(userProfiles.userId, settled.id));
    expect(
      (await postForm("/signin", { email: settled.email, password: PASSWORD }, { cookie: visitorCookie })).status,
    ).toBe(302);
    expect(await storedChoice(settled.id)).toBe("JPY");
  });

  it("/buy-now and /cart show totals converted from the USD charge; /payment shows the USD charge", async () => {
    const fan = await makeUser({ name: `Yen${token} Fan` });
    await db().update(userProfiles).set({ displayCurrency: "JPY" }).where(eq(userProfiles.userId, fan.id));
    const cookie = await signIn(fan.email);
    const buyNow = await page(`/buy-now/${productId}?quantity=3`, cookie);
    // Each size and the total: what checkout charges (USD 25.00 each) converted once.
    expect(buyNow).toContain(`One · ${formatCents(shownPurchaseCents(2_500, 1, "JPY"), "JPY")}`);
    expect(buyNow).toContain(formatCents(shownPurchaseCents(2_500, 3, "JPY"), "JPY"));
    expect(buyNow).not.toContain(price("MYR"));

    const added = await postForm("/cart", { intent: "add", productId, size: "One", quantity: "3" }, { cookie });
    expect(added.status).toBe(303);
    const cart = await page("/cart", cookie);
    expect(cart).toContain(formatIn(7_500, "USD", "JPY"));
    expect(cart).toContain("Checkout is processed in USD: USD 75.00");

    const payment = await page(`/payment?product=${productId}&size=One&qty=3`, cookie);
    expect(payment).toContain("USD 75.00");
    expect(payment).not.toContain(formatIn(7_500, "USD", "JPY"));
  });
});
