import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getViewerPlace, isTribeMember, listUserEntryNumbers } from "~/db/queries/profiles.server";
import { buyerOrderStats, listBuyerOrders } from "~/db/queries/orders.server";
import { isProductLiked, listShopProducts } from "~/db/queries/products.server";
import {
  orders,
  prizeEntries,
  prizePools,
  productLikes,
  products,
  productSizes,
  sessions,
  tribeMembers,
  userProfiles,
} from "~/db/schema";
import { sha256Hex } from "~/lib/crypto.server";
import { SESSION_COOKIE } from "~/lib/session.server";
import { countingEnv, db, decodedHtml, makeUser, ORIGIN, signIn } from "./helpers";
import { testedWorker } from "./support/built-worker";

// A signed-in fan's page reads the session and the fan's own rows (likes, membership, entries, country) in the same
// D1 batch as the rest of the page: the reads name the fan by the session, resolved to the account in SQL
// (app/lib/auth.server.ts, ViewerKey in app/db/queries/sessions.server.ts).

const token = crypto.randomUUID().slice(0, 6);
let host: { id: string; email: string };
let fan: { id: string; email: string };
let fanCookie: string;
let productId: string;

/** The session id (the token's hash) behind a Cookie header's session. */
async function sessionIdOf(cookie: string): Promise<string> {
  return sha256Hex(new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(cookie)![1]!);
}

/** A page from the Worker under test with a DB that counts its D1 calls. */
async function countedPage(path: string, cookie: string) {
  const worker = await testedWorker();
  const { env, counter } = countingEnv();
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie } }) as Request<
    unknown,
    IncomingRequestCfProperties
  >;
  const res = await worker.fetch!(request, env, ctx);
  const html = await decodedHtml(res);
  await waitOnExecutionContext(ctx);
  return { status: res.status, location: res.headers.get("Location"), html, calls: counter.calls };
}

beforeAll(async () => {
  host = await makeUser({ name: `Ondrea${token} Goods` });
  fan = await makeUser({ name: `Fenwick${token} Fan` });
  fanCookie = await signIn(fan.email);
  const d = db();
  await d.update(userProfiles).set({ country: "SG" }).where(eq(userProfiles.userId, fan.id));
  const [product] = await d
    .insert(products)
    .values({
      hostId: host.id,
      name: `Quartzine ${token} Lamp`,
      basePriceCents: 2500,
      priceMinCents: 2500,
      priceMaxCents: 2500,
    })
    .returning({ id: products.id });
  productId = product!.id;
  await d.insert(productSizes).values({ productId, name: "One", priceCents: 2500, availableUnits: 5 });
  await d.insert(productLikes).values({ productId, userId: fan.id });
  await d.insert(tribeMembers).values({ hostId: host.id, userId: fan.id });
  const [pool] = await d
    .insert(prizePools)
    .values({
      hostId: host.id,
      targetCents: 100_000,
      amountCents: 500,
      currency: "USD",
      entriesCount: 2,
      endAt: new Date(Date.now() + 86_400_000),
    })
    .returning({ id: prizePools.id });
  // One order placed signed in (the fan's), one that only names the fan's e-mail (not the fan's: orders are an
  // account's by id, decision 410), one somebody else's.
  const order = (userId: string | null, email: string | null, name: string) => {
    const id = crypto.randomUUID();
    return {
      id,
      orderNumber: `ORD-${id.slice(-8).toUpperCase()}`,
      userId,
      customerEmail: email,
      hostId: host.id,
      productId,
      status: "paid" as const,
      amountCents: 2500,
      unitPriceCents: 2500,
      quantity: 1,
      currency: "USD",
      productName: name,
      productCategory: "physical" as const,
    };
  };
  await d
    .insert(orders)
    .values([
      order(fan.id, null, `Signed-in order ${token}`),
      order(null, fan.email, `E-mail order ${token}`),
      order(host.id, host.email, `Not the fan's ${token}`),
    ]);
  await d.insert(prizeEntries).values([
    { poolId: pool!.id, entryNumber: 0, userId: host.id, sourceKey: `sir-${token}-0`, sourceType: "product_purchase" },
    { poolId: pool!.id, entryNumber: 1, userId: fan.id, sourceKey: `sir-${token}-1`, sourceType: "product_purchase" },
  ]);
});

describe("a signed-in fan's page", () => {
  it("reads the session and everything else in one D1 call, and shows the fan's own state", async () => {
    const home = await countedPage("/", fanCookie);
    expect(home.status).toBe(200);
    expect(home.html).toContain(`Fenwick${token} Fan`);
    expect(home.calls).toBe(1);

    const shop = await countedPage(`/shop?q=Quartzine+${token}`, fanCookie);
    expect(shop.status).toBe(200);
    const card = shop.html.slice(shop.html.indexOf(`data-product-card="${productId}"`));
    expect(card).toContain('aria-pressed="true"');
    // The fan's own country (Singapore) sets the prices' currency.
    expect(shop.html).toContain("SGD");
    expect(shop.calls).toBe(1);

    const profile = await countedPage(`/profile/${host.id}`, fanCookie);
    expect(profile.status).toBe(200);
    expect(profile.html).toContain("Your entry numbers: 1");
    expect(profile.html).toMatch(/<button[^>]*>Tribe Member<\/button>/);
    expect(profile.calls).toBe(1);

    const buyNow = await countedPage(`/buy-now/${productId}`, fanCookie);
    expect(buyNow.status).toBe(200);
    expect(buyNow.html).toContain('aria-label="Unlike this product"');
    // The host (Malaysia, no list of its own) does not ship to the fan's Singapore: said in the same call.
    expect(buyNow.html).toContain("Does not ship to Singapore");
    expect(buyNow.calls).toBe(1);

    const myOrders = await countedPage("/my-orders", fanCookie);
    expect(myOrders.status).toBe(200);
    expect(myOrders.html).toContain(`Signed-in order ${token}`);
    expect(myOrders.html).not.toContain(`E-mail order ${token}`);
    expect(myOrders.html).not.toContain(`Not the fan's ${token}`);
    expect(myOrders.calls).toBe(1);

    // The fan's wishlist: the liked product as the shop shows it, read by the session in the same batch.
    const wishlist = await countedPage("/wishlist", fanCookie);
    expect(wishlist.status).toBe(200);
    expect(wishlist.html).toContain(`data-product-card="${productId}"`);
    expect(wishlist.html).toContain("SGD");
    expect(wishlist.calls).toBe(1);
  });

  it("/guess-win reads the fan's country (their currency) without another D1 call", async () => {
    // With a chosen currency the page does not read the country; without one it reads it in the session's batch.
    const chosen = await countedPage("/guess-win?currency=USD", fanCookie);
    const own = await countedPage("/guess-win", fanCookie);
    expect(chosen.status).toBe(200);
    expect(own.status).toBe(200);
    expect(own.html).toMatch(/<option selected(?:="")? value="SGD"/);
    expect(chosen.html).toMatch(/<option selected(?:="")? value="USD"/);
    expect(own.calls).toBe(chosen.calls);
    // The Saved tab reads the fan's saved games by the session, in the session's batch (the fan has saved none, so
    // there are no pools or game states to read after it): one call.
    const saved = await countedPage("/guess-win?tab=saved&currency=USD", fanCookie);
    expect(saved.status).toBe(200);
    expect(saved.html).toMatch(/<a[^>]*aria-current="page"[^>]*>Saved<\/a>/);
    expect(saved.html).toContain("No saved games yet");
    expect(saved.calls).toBe(1);
  });

  it("shows nothing of the account for a session that has expired", async () => {
    const cookie = await signIn(fan.email);
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, await sessionIdOf(cookie)));
    const profile = await countedPage(`/profile/${host.id}`, cookie);
    expect(profile.status).toBe(200);
    expect(profile.html).not.toContain(`Fenwick${token} Fan`);
    expect(profile.html).not.toContain("Your entry numbers");
    expect(profile.html).not.toContain("Tribe Member");
    const buyNow = await countedPage(`/buy-now/${productId}`, cookie);
    expect(buyNow.html).toContain('aria-label="Like this product"');
    // The fan's own orders page sends an expired session to sign in, as it does a visitor.
    const myOrders = await countedPage("/my-orders", cookie);
    expect(myOrders.status).toBe(302);
    expect(myOrders.location).toBe("/signin?redirectTo=%2Fmy-orders");
  });
});

describe("reads keyed by the viewer's session", () => {
  it("answer as the same reads by the account's id while the session is valid, and find nothing otherwise", async () => {
    const d = db();
    const cookie = await signIn(fan.email);
    const sessionId = await sessionIdOf(cookie);
    const valid = { sessionId, now: new Date() };
    const read = async (viewer: string | { sessionId: string; now: Date }) => ({
      place: await getViewerPlace(d, viewer),
      liked: await isProductLiked(d, viewer, productId),
      member: await isTribeMember(d, viewer, host.id),
      entries: await listUserEntryNumbers(d, { currentOf: { idOrSlug: host.id } }, viewer),
      shop: (await listShopProducts(d, { limit: 5, q: `Quartzine ${token}`, viewer })).map((row) => [
        row.id,
        row.liked,
      ]),
      orders: (
        await listBuyerOrders(d, { buyer: typeof viewer === "string" ? { userId: fan.id } : viewer, q: token })
      ).orders
        .map((o) => o.productName)
        .sort(),
      spent: (await buyerOrderStats(d, typeof viewer === "string" ? { userId: fan.id } : viewer)).spentCents,
    });
    const nothing = {
      place: undefined,
      liked: false,
      member: false,
      entries: [],
      shop: [[productId, false]],
      orders: [],
      spent: 0,
    };

    expect(await read(fan.id)).toEqual({
      place: { country: "SG", currency: null },
      liked: true,
      member: true,
      entries: [1],
      shop: [[productId, true]],
      orders: [`Signed-in order ${token}`],
      spent: 2500,
    });
    expect(await read(valid)).toEqual(await read(fan.id));
    // Unknown, and expired by the time asked.
    expect(await read({ sessionId: "0".repeat(64), now: new Date() })).toEqual(nothing);
    expect(await read({ sessionId, now: new Date(Date.now() + 31 * 86_400_000) })).toEqual(nothing);
    // A suspended account's sessions end at once.
    await d.update(userProfiles).set({ status: "suspended" }).where(eq(userProfiles.userId, fan.id));
    try {
      expect(await read(valid)).toEqual(nothing);
    } finally {
      await d.update(userProfiles).set({ status: "active" }).where(eq(userProfiles.userId, fan.id));
    }
  });
});
