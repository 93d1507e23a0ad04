import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  checkoutSessions,
  productColors,
  productImages,
  productLikes,
  products,
  productSizes,
  prizePools,
  userProfiles,
  userShippingCountries,
} from "~/db/schema";
import { formatIn } from "~/domain/currency";
import { db, decodedHtml, get, makeUser, ORIGIN, postForm, signIn } from "./helpers";

// /shop, /product/{id} (and its like action) and /buy-now/{id}, against the built worker.

/** Text of a page with the few entities React escapes turned back. */
/** The value of the option marked selected in the page's select named `name` (null: none marked, the first shows). */
function selectedOption(page: string, name: string): string | null {
  const select = page.match(new RegExp(`<select[^>]* name="${name}"[^>]*>([\\s\\S]*?)</select>`))?.[1];
  if (select === undefined) throw new Error(`no select named ${name}`);
  const chosen = [...select.matchAll(/<option([^>]*)>/g)]
    .map((m) => m[1]!)
    .filter((attributes) => /\sselected(\s|=|$)/.test(attributes));
  if (chosen.length > 1) throw new Error(`${chosen.length} options selected in ${name}`);
  return chosen[0] ? chosen[0].match(/value="([^"]*)"/)![1]! : null;
}

/** The product ids of the cards on a page, in order. */
function cardIds(page: string): string[] {
  return [...page.matchAll(/data-product-card="([^"]+)"/g)].map((m) => m[1]!);
}

const token = crypto.randomUUID().slice(0, 6);
const pageToken = crypto.randomUUID().slice(0, 6);
/** A word in both the teapot's and the headset's description: a search finds words by their start (decision 590). */
const shared = `Shared${token}`;
const names = {
  hostA: `Zephyr${token} Crafts`,
  hostB: `Quillon${token} Studio`,
  teapot: `Aurelian${token} Teapot`,
  headset: `Borealis${token} Headset`,
  pageItem: `Pagitest${pageToken}`,
};

let hostA: { id: string; email: string };
let hostB: { id: string; email: string };
let teapotId: string;
let headsetId: string;
let bareId: string;

async function addProduct(values: Partial<typeof products.$inferInsert> & { hostId: string; name: string }) {
  const [row] = await db().insert(products).values(values).returning({ id: products.id });
  return row!.id;
}

beforeAll(async () => {
  hostA = await makeUser({ name: names.hostA });
  hostB = await makeUser({ name: names.hostB });
  const d = db();
  await d.update(userProfiles).set({ country: "MY" }).where(eq(userProfiles.userId, hostA.id));
  await d.update(userProfiles).set({ country: "JP" }).where(eq(userProfiles.userId, hostB.id));
  await d.insert(userShippingCountries).values([
    { hostId: hostA.id, countryCode: "SG" },
    { hostId: hostA.id, countryCode: "MY" },
    { hostId: hostB.id, countryCode: "JP" },
  ]);
  await d.insert(prizePools).values({
    hostId: hostA.id,
    targetCents: 500_000,
    amountCents: 12_345,
    currency: "USD",
    endAt: new Date(Date.now() + 3 * 86_400_000 + 3_600_000),
  });

  teapotId = await addProduct({
    hostId: hostA.id,
    name: names.teapot,
    shopCategory: "Home & Lifestyle",
    basePriceCents: 1000,
    priceMinCents: 1000,
    priceMaxCents: 1000,
    description: `A teapot. ${shared}`,
  });
  headsetId = await addProduct({
    hostId: hostB.id,
    name: names.headset,
    shopCategory: "Tech & Gaming",
    basePriceCents: 2000,
    priceMinCents: 2000,
    priceMaxCents: 3000,
    description: shared,
  });
  await d.insert(productSizes).values([
    { productId: teapotId, name: "Small", priceCents: 1000, availableUnits: 5, position: 0 },
    { productId: teapotId, name: "Giant", priceCents: 5000, availableUnits: 0, position: 1 },
    { productId: headsetId, name: "Standard", priceCents: 2000, availableUnits: 3, position: 0 },
    { productId: headsetId, name: "Pro", priceCents: 3000, availableUnits: 3, position: 1 },
  ]);
  await d
    .insert(productColors)
    .values({ productId: teapotId, name: "Jade", hex: "#0a0", availableUnits: 5, position: 0 });
  bareId = await addProduct({ hostId: hostA.id, name: "", description: "" });

  // 30 products for the pagination checks, one second apart so the order is fixed.
  const base = Date.now() - 60_000;
  // D1 binds at most 100 values per statement: a few rows per insert.
  for (let start = 0; start < 30; start += 5) {
    await d.insert(products).values(
      Array.from({ length: 5 }, (_, k) => ({
        hostId: hostB.id,
        name: `${names.pageItem} item ${start + k}`,
        basePriceCents: 500,
        createdAt: new Date(base + (start + k) * 1000),
      })),
    );
  }
});

describe("/shop", () => {
  it("searches by product name and by host name", async () => {
    const byProduct = await decodedHtml(await get(`/shop?q=${encodeURIComponent(`aurelian${token}`)}`));
    expect(cardIds(byProduct)).toEqual([teapotId]);
    expect(byProduct).toContain(names.teapot);

    const byHost = cardIds(await decodedHtml(await get(`/shop?q=${encodeURIComponent(`Quillon${token}`)}`)));
    expect(byHost).toContain(headsetId);
    expect(byHost).not.toContain(teapotId);
  });

  it("filters by category", async () => {
    const tech = cardIds(
      await decodedHtml(await get(`/shop?q=${shared}&category=${encodeURIComponent("Tech & Gaming")}`)),
    );
    expect(tech).toEqual([headsetId]);
    const home = cardIds(
      await decodedHtml(await get(`/shop?q=${shared}&category=${encodeURIComponent("Home & Lifestyle")}`)),
    );
    expect(home).toEqual([teapotId]);
    const all = cardIds(await decodedHtml(await get(`/shop?q=${shared}&category=All`)));
    expect(all).toEqual(expect.arrayContaining([teapotId, headsetId]));
  });

  it("filters by the countries a host ships to", async () => {
    const sg = cardIds(await decodedHtml(await get(`/shop?q=${shared}&shipTo=SG`)));
    expect(sg).toContain(teapotId);
    expect(sg).not.toContain(headsetId);
    const jp = cardIds(await decodedHtml(await get(`/shop?q=${shared}&shipTo=JP`)));
    expect(jp).toContain(headsetId);
    expect(jp).not.toContain(teapotId);
    const all = cardIds(await decodedHtml(await get(`/shop?q=${shared}&shipTo=`)));
    expect(all).toEqual(expect.arrayContaining([teapotId, headsetId]));
  });

  it("shows prices, the pool and its target in the chosen currency", async () => {
    const myr = await decodedHtml(await get(`/shop?q=aurelian${token}&currency=MYR`));
    expect(myr).toContain(formatIn(1000, "USD", "MYR"));
    expect(myr).toContain("RM 45.45");
    expect(myr).toContain(formatIn(12_345, "USD", "MYR"));
    expect(myr).toContain(formatIn(500_000, "USD", "MYR"));
    expect(myr).toMatch(/03D 0[01]H \d\dM/);

    const jpy = await decodedHtml(await get(`/shop?q=aurelian${token}&currency=JPY`));
    expect(jpy).toContain(formatIn(1000, "USD", "JPY"));
    const range = await decodedHtml(await get(`/shop?q=borealis${token}&currency=USD`));
    expect(range).toContain("USD 20.00 – USD 30.00");
    // A host without an open pool: the countdown reads Expired.
    expect(range).toContain("Expired");
  });

  it("says so when nothing matches", async () => {
    const page = await decodedHtml(await get(`/shop?q=nothing-like-this-${token}`));
    expect(page).toContain("No products found");
    expect(cardIds(page)).toHaveLength(0);
  });

  it("takes the longest search the box allows, wildcards and accents included, on /shop and /explore", async () => {
    // D1 refuses LIKE patterns over 50 bytes; the search box takes 100 characters.
    const longName = `Embroidered${token} 100% cotton_linen cushion cover for the living room, café edition`;
    const longId = await addProduct({ hostId: hostA.id, name: longName, basePriceCents: 900 });
    expect(longName.length).toBeGreaterThan(60);
    const found = await get(`/shop?q=${encodeURIComponent(longName)}`);
    expect(found.status).toBe(200);
    expect(cardIds(await decodedHtml(found))).toEqual([longId]);
    // A typed % or _ matches itself, not any text; case is ignored as before.
    expect(
      cardIds(await decodedHtml(await get(`/shop?q=${encodeURIComponent(`EMBROIDERED${token} 100% COTTON_LINEN`)}`))),
    ).toEqual([longId]);
    expect(cardIds(await decodedHtml(await get(`/shop?q=${encodeURIComponent(`Embroidered${token} 1%0`)}`)))).toEqual(
      [],
    );
    for (const q of ["%".repeat(100), "é".repeat(100), "_".repeat(100)]) {
      const res = await get(`/shop?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      expect(await decodedHtml(res)).toContain("No products found");
      expect((await get(`/explore?q=${encodeURIComponent(q)}`)).status).toBe(200);
    }
    const explore = await get(`/explore?q=${encodeURIComponent(longName)}`);
    expect(explore.status).toBe(200);
    expect(await decodedHtml(explore)).toContain(longName);
  });

  it("pages 24 at a time, each page different", async () => {
    const first = cardIds(await decodedHtml(await get(`/shop?q=${names.pageItem}`)));
    const second = cardIds(await decodedHtml(await get(`/shop?q=${names.pageItem}&page=2`)));
    expect(first).toHaveLength(24);
    expect(second).toHaveLength(6);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
    const everything = cardIds(await decodedHtml(await get("/shop")));
    expect(everything.length).toBeLessThanOrEqual(24);
  });

  it("sends a page past the last one to the last page (filters kept), not to 'No products found'", async () => {
    const past = await get(`/shop?q=${names.pageItem}&currency=USD&page=999`);
    expect(past.status).toBe(302);
    const location = new URL(past.headers.get("Location")!, "https://tribe.test");
    expect(location.pathname).toBe("/shop");
    expect(Object.fromEntries(location.searchParams)).toEqual({ q: names.pageItem, currency: "USD", page: "2" });
    const last = cardIds(await decodedHtml(await get(`${location.pathname}${location.search}`)));
    expect(last).toHaveLength(6);
    // One page of results: back to the first page, with no page number.
    const one = await get(`/shop?q=aurelian${token}&page=3`);
    expect(one.status).toBe(302);
    expect(one.headers.get("Location")).toBe(`/shop?q=aurelian${token}`);
    // Nothing matches at all: the first page, which says so.
    const none = await get(`/shop?q=nothing-like-this-${token}&page=2`);
    expect(none.status).toBe(302);
    expect(none.headers.get("Location")).toBe(`/shop?q=nothing-like-this-${token}`);
    expect(await decodedHtml(await get(none.headers.get("Location")!))).toContain("No products found");
  });

  it("shows the chosen filters selected, and the defaults when none or an unknown one is chosen", async () => {
    const chosen = await decodedHtml(
      await get(`/shop?q=${shared}&category=${encodeURIComponent("Tech & Gaming")}&shipTo=sg&currency=JPY`),
    );
    expect(selectedOption(chosen, "category")).toBe("Tech & Gaming");
    expect(selectedOption(chosen, "shipTo")).toBe("SG");
    expect(selectedOption(chosen, "currency")).toBe("JPY");
    expect(chosen).toContain(">JPY · Japanese Yen</option>");

    const defaults = await decodedHtml(await get(`/shop?q=${shared}&category=Nope&shipTo=XX`));
    expect(selectedOption(defaults, "category")).toBe("All");
    expect(selectedOption(defaults, "shipTo")).toBe("");
    expect(selectedOption(defaults, "currency")).toBe("MYR");
  });

  it("ignores filters it does not know", async () => {
    const res = await get(`/shop?q=${shared}&category=Nope&shipTo=XX&currency=ZZZ&page=abc`);
    expect(res.status).toBe(200);
    expect(cardIds(await decodedHtml(res)).length).toBeGreaterThan(0);
  });
});

describe("a sold-out product's card", () => {
  /** The markup of a product's card on a page (its <li>). */
  function card(page: string, id: string): string {
    const start = page.indexOf(`data-product-card="${id}"`);
    if (start < 0) throw new Error(`no card for ${id}`);
    return page.slice(start, page.indexOf("</li>", start));
  }

  it("shows a disabled 'Out of Stock' instead of Add to Cart (or Buy Now) on /shop and the host's profile and shop", async () => {
    const d = db();
    const soldOutToken = `Sold${crypto.randomUUID().slice(0, 6)}`;
    // A host of its own: the other tests count hostA's products (buy-now's More from strip).
    const host = await makeUser({ name: `${soldOutToken} Ceramics` });
    // Every size sold out; and sizes left but every colour sold out: neither can be added to a cart.
    const noSizes = await addProduct({ hostId: host.id, name: `${soldOutToken} Vase`, basePriceCents: 1200 });
    const noColours = await addProduct({ hostId: host.id, name: `${soldOutToken} Bowl`, basePriceCents: 1300 });
    const inStock = await addProduct({ hostId: host.id, name: `${soldOutToken} Cup`, basePriceCents: 1400 });
    await d.insert(productSizes).values([
      { productId: noSizes, name: "One", priceCents: 1200, availableUnits: 0, position: 0 },
      { productId: noSizes, name: "Two", priceCents: 1250, availableUnits: 0, position: 1 },
      { productId: noColours, name: "One", priceCents: 1300, availableUnits: 4, position: 0 },
      { productId: inStock, name: "One", priceCents: 1400, availableUnits: 0, position: 0 },
      { productId: inStock, name: "Two", priceCents: 1450, availableUnits: 2, position: 1 },
    ]);
    await d.insert(productColors).values([
      { productId: noSizes, name: "Red", availableUnits: 3, position: 0 },
      { productId: noColours, name: "Red", availableUnits: 0, position: 0 },
      { productId: inStock, name: "Red", availableUnits: 0, position: 0 },
      { productId: inStock, name: "Blue", availableUnits: 1, position: 1 },
    ]);

    const shop = await decodedHtml(await get(`/shop?q=${soldOutToken}`));
    for (const id of [noSizes, noColours]) {
      const markup = card(shop, id);
      expect(markup).toMatch(/<button type="button" disabled=""[^>]*>Out of Stock<\/button>/);
      expect(markup).not.toContain("Add to Cart");
      expect(markup).not.toContain('form="cart-add"');
    }
    // Two sizes and two colours to choose from: its Add to Cart is a link to the product page (decision 600).
    expect(card(shop, inStock)).toMatch(/<a href="\/product\/[^"]+"[^>]*>Choose options<\/a>/);
    expect(card(shop, inStock)).not.toContain("Out of Stock");

    // The host's profile (Shop tab) and shop page list the same products with Buy Now: not for a sold-out one.
    for (const path of [`/profile/${host.id}`, `/profile/${host.id}/shop`]) {
      const page = await decodedHtml(await get(path));
      for (const id of [noSizes, noColours]) {
        const markup = card(page, id);
        expect(markup, path).toMatch(/<button type="button" disabled=""[^>]*>Out of Stock<\/button>/);
        expect(markup, path).not.toContain(`/buy-now/${id}`);
        expect(markup, path).toContain(`/product/${id}`);
      }
      expect(card(page, inStock), path).toContain(`href="/buy-now/${inStock}"`);
      expect(card(page, inStock), path).not.toContain("Out of Stock");
    }

    // What the card would have sent is refused: the card's state and the cart's answer agree.
    const res = await postForm("/cart", { intent: "add", productId: noSizes, size: "One", color: "Red" });
    expect(res.status).toBe(409);
  });
});

describe("product likes", () => {
  async function likeCount(id: string) {
    const [row] = await db().select({ n: products.likeCount }).from(products).where(eq(products.id, id));
    return row!.n;
  }

  it("asks a visitor to sign in", async () => {
    const res = await postForm(`/product/${teapotId}`, { intent: "like", liked: "true" });
    expect(res.status).toBe(401);
    expect(await decodedHtml(res)).toContain("Please sign in to like this product");
    expect(await likeCount(teapotId)).toBe(0);
  });

  it("counts a like once, however often it is sent, and an unlike once", async () => {
    const fan = await makeUser({ name: "Liker" });
    const cookie = await signIn(fan.email);
    const productId = await addProduct({ hostId: hostA.id, name: `Likeable ${token}` });

    expect((await postForm(`/product/${productId}`, { intent: "like", liked: "true" }, { cookie })).status).toBe(200);
    expect(await likeCount(productId)).toBe(1);
    await postForm(`/product/${productId}`, { intent: "like", liked: "true" }, { cookie });
    expect(await likeCount(productId)).toBe(1);

    // The card shows the liked state to this fan.
    const card = await decodedHtml(await get(`/shop?q=${encodeURIComponent(`Likeable ${token}`)}`, { cookie }));
    expect(card).toContain('aria-pressed="true"');
    // Another fan's card for the same product is not liked.
    const other = await signIn((await makeUser({ name: "Not A Liker" })).email);
    const theirs = await decodedHtml(
      await get(`/shop?q=${encodeURIComponent(`Likeable ${token}`)}`, { cookie: other }),
    );
    expect(theirs).toContain('aria-pressed="false"');
    expect(theirs).not.toContain('aria-pressed="true"');

    await postForm(`/product/${productId}`, { intent: "like", liked: "false" }, { cookie });
    expect(await likeCount(productId)).toBe(0);
    await postForm(`/product/${productId}`, { intent: "like", liked: "false" }, { cookie });
    expect(await likeCount(productId)).toBe(0);
    const rows = await db().select().from(productLikes).where(eq(productLikes.productId, productId));
    expect(rows).toHaveLength(0);
  });

  it("answers 404 for an unknown product", async () => {
    const fan = await makeUser({ name: "Liker" });
    const cookie = await signIn(fan.email);
    const res = await postForm(
      "/product/00000000-0000-0000-0000-000000000000",
      { intent: "like", liked: "true" },
      { cookie },
    );
    expect(res.status).toBe(404);
  });
});

describe("/product/{id}", () => {
  it("shows 'Product not found' for an unknown id", async () => {
    const res = await get("/product/00000000-0000-0000-0000-000000000000");
    expect(res.status).toBe(404);
    expect(await decodedHtml(res)).toContain("Product not found");
  });

  it("shows the fallback texts", async () => {
    const page = await decodedHtml(await get(`/product/${bareId}`));
    expect(page).toContain("Unnamed Product");
    expect(page).toContain("No description available.");
    expect(page).toContain("Sizes not available.");
  });

  it("shows sizes, quantity and total, and links to buy now and back to the shop", async () => {
    const page = await decodedHtml(await get(`/product/${teapotId}?currency=USD`));
    expect(page).toContain("Small · USD 10.00");
    expect(page).toContain("Total");
    expect(page).toContain(`/buy-now/${teapotId}`);
    expect(page).toContain("BUY NOW");
    expect(page).toContain("BACK TO SHOP");
  });

  it("offers BUY NOW as a disabled button, not a link, when the chosen size is sold out (visitor and signed-in)", async () => {
    const d = db();
    const host = await makeUser({ name: `Gone${token} Goods` });
    const soldOut = await addProduct({ hostId: host.id, name: `Gone ${token}`, basePriceCents: 1000 });
    const partly = await addProduct({ hostId: host.id, name: `Half gone ${token}`, basePriceCents: 1000 });
    await d.insert(productSizes).values([
      { productId: soldOut, name: "Only", priceCents: 1000, availableUnits: 0, position: 0 },
      { productId: partly, name: "First", priceCents: 1000, availableUnits: 0, position: 0 },
      { productId: partly, name: "Second", priceCents: 1100, availableUnits: 2, position: 1 },
    ]);
    const fan = await makeUser({ name: "Sold-out Fan" });
    const cookie = await signIn(fan.email);
    for (const opts of [{}, { cookie }]) {
      const gone = await decodedHtml(await get(`/product/${soldOut}`, opts));
      expect(gone).toMatch(/<button type="button" disabled=""[^>]*>BUY NOW<\/button>/);
      expect(gone).not.toContain(`/buy-now/${soldOut}`);
      // A size left: BUY NOW stays a plain link to it, which /page.js re-points without JavaScript from React.
      const half = await decodedHtml(await get(`/product/${partly}`, opts));
      expect(half).toMatch(new RegExp(`<a [^>]*href="/buy-now/${partly}\\?size=Second&quantity=1"[^>]*>BUY NOW</a>`));
      expect(half).toContain(`data-buy-now="/buy-now/${partly}"`);
    }
  });

  it("counts each view", async () => {
    const id = await addProduct({ hostId: hostA.id, name: `Viewed ${token}` });
    await get(`/product/${id}`);
    await get(`/product/${id}`);
    let views = 0;
    for (let i = 0; i < 20 && views < 2; i++) {
      const [row] = await db().select({ n: products.viewCount }).from(products).where(eq(products.id, id));
      views = row!.n;
      if (views < 2) await new Promise((r) => setTimeout(r, 50));
    }
    expect(views).toBe(2);
  });
});

describe("/buy-now/{id}", () => {
  it("shows the host's pool, prices in RM and the key features", async () => {
    const res = await get(`/buy-now/${teapotId}`);
    expect(res.status).toBe(200);
    const page = await decodedHtml(res);
    expect(page).toContain(formatIn(12_345, "USD", "MYR"));
    expect(page).toContain("Main Prize (60%)");
    expect(page).toContain("RM 45.45");
    expect(page).toContain("checkout is processed in USD");
    for (const text of [
      "High-quality materials",
      "Fast shipping",
      "7-day return policy",
      "Money-back guarantee",
      "Add to Wishlist",
      "Back to Shop",
    ]) {
      expect(page).toContain(text);
    }
    // The sold-out size cannot be chosen.
    expect(page).toMatch(/<input[^>]*value="Giant"[^>]*disabled=""|<input[^>]*disabled=""[^>]*value="Giant"/);
    // Other products of the same host.
    expect(page).toContain(`/buy-now/${bareId}`);
  });

  it("shows the images of the host's other products in its More from strip", async () => {
    const url = `/media/products/${hostA.id}/more-from-${token}.webp`;
    await db()
      .insert(productImages)
      .values({ productId: teapotId, url, r2Key: url.slice("/media/".length), position: 0 });
    const page = await decodedHtml(await get(`/buy-now/${bareId}`));
    expect(page).toContain(`<a href="/buy-now/${teapotId}"><img src="${url}"`);
  });

  it("asks a visitor to sign in before paying", async () => {
    const res = await postForm(`/buy-now/${teapotId}`, { size: "Small", color: "Jade", quantity: "1" });
    expect(res.status).toBe(401);
    const page = await decodedHtml(res);
    expect(page).toContain("Please sign in to make a payment");
    // Signing in comes back to the same choice (the page preselects it).
    const back = `/buy-now/${teapotId}?size=Small&color=Jade&quantity=1`;
    expect(page).toContain(`/signin?redirectTo=${encodeURIComponent(back)}`);
  });

  it("shows as the total what checkout charges: RM 127.27 for two at USD 14.00 (not 2 x RM 63.64)", async () => {
    const host = await makeUser({ name: `Total${token} Host` });
    const id = await addProduct({ hostId: host.id, name: `Total ${token}`, basePriceCents: 1400 });
    await db()
      .insert(productSizes)
      .values({ productId: id, name: "One", priceCents: 1400, availableUnits: 5, position: 0 });
    const totalOf = (page: string) => page.match(/data-total=""[^>]*>([^<]*)</)?.[1];
    const page = await decodedHtml(await get(`/buy-now/${id}?size=One&quantity=2`));
    expect(totalOf(page)).toBe("RM 127.27");
    expect(page).toContain('data-unit-cents="1400"');
    expect(page).toContain('data-rate="10000/2200"');
    expect(page).toContain("One · RM 63.64");

    const fan = await makeUser({ name: "Total Buyer" });
    const res = await postForm(`/buy-now/${id}`, { size: "One", quantity: "2" }, { cookie: await signIn(fan.email) });
    expect(res.status).toBe(302);
    const sessionId = res.headers.get("Location")!.split("/").pop()!;
    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    expect(row).toMatchObject({ amountCents: 2800, currency: "USD" });
    expect(formatIn(row!.amountCents, "USD", "MYR")).toBe(totalOf(page));
  });

  it("sends a signed-in buyer to the checkout page", async () => {
    const fan = await makeUser({ name: "Buyer" });
    const cookie = await signIn(fan.email);
    const res = await postForm(`/buy-now/${teapotId}`, { size: "Small", color: "Jade", quantity: "2" }, { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(new RegExp(`^${ORIGIN}/api/local-checkout/`));
  });

  it("shows why checkout could not start", async () => {
    const fan = await makeUser({ name: "Buyer" });
    const cookie = await signIn(fan.email);
    const res = await postForm(`/buy-now/${teapotId}`, { size: "Giant", color: "Jade", quantity: "1" }, { cookie });
    expect(res.status).toBe(409);
    expect(await decodedHtml(res)).toContain("Unable to start checkout: Sorry, this item is out of stock");
  });
});

describe("/shop's size", () => {
  /**
   * The budget for a signed-in fan's /shop with a full page of cards: issue 12's target, half of the original
   * 104 KB. The page is 48.7 KB here (docs/decisions/120-shop-card-markup.md says where the bytes went).
   */
  const BUDGET_BYTES = 52 * 1024;

  it("sends a signed-in fan a page of 24 cards in at most 52 KB of HTML", async () => {
    // Cards as the bench's scaled shop has them: hosts with a slug and an open pool, a main image, a price range,
    // likes (some liked by the fan) and product names of a realistic length.
    const sizeToken = `Sz${crypto.randomUUID().slice(0, 6)}`;
    const d = db();
    const hosts = await Promise.all([1, 2, 3, 4].map((n) => makeUser({ name: `Priya ${sizeToken} (${n})` })));
    for (const [n, host] of hosts.entries()) {
      await d
        .update(userProfiles)
        .set({ slug: `${sizeToken.toLowerCase()}-host-${n}` })
        .where(eq(userProfiles.userId, host.id));
      await d.insert(prizePools).values({
        hostId: host.id,
        targetCents: 2_500_000,
        amountCents: 123_456 + n,
        currency: "USD",
        endAt: new Date(Date.now() + 12 * 86_400_000),
      });
    }
    const base = Date.now() - 120_000;
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const host = hosts[i % hosts.length]!;
      const id = await addProduct({
        hostId: host.id,
        name: `Hand-made Throw Blanket ${sizeToken} ${1000 + i}`,
        shopCategory: "Home & Lifestyle",
        basePriceCents: 2_499,
        priceMinCents: 2_499,
        priceMaxCents: 4_999,
        likeCount: 40 + i,
        viewCount: 900 + i,
        createdAt: new Date(base + i * 1000),
      });
      await d
        .insert(productImages)
        .values({ productId: id, url: `/media/products/${host.id}/${id}-1.svg`, position: 0 });
      ids.push(id);
    }
    const fan = await makeUser({ name: "Budget Fan" });
    await d.insert(productLikes).values(ids.slice(0, 6).map((productId) => ({ userId: fan.id, productId })));
    const cookie = await signIn(fan.email);

    const res = await get(`/shop?q=${sizeToken}`, { cookie });
    expect(res.status).toBe(200);
    const body = await res.text();
    // The fan's page hydrates (its loader data and scripts are in the budget) and shows a full page of cards.
    expect(body).toContain("window.__reactRouterContext");
    expect(cardIds(body)).toHaveLength(24);
    const bytes = new TextEncoder().encode(body).length;
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
