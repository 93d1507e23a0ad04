import { env } from "cloudflare:test";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listCartLines } from "~/db/queries/cart.server";
import {
  cartItems,
  checkoutSessions,
  earningsLedger,
  orders,
  prizeEntries,
  prizePoolContributions,
  productColors,
  products,
  productSizes,
  userProfiles,
  userShippingCountries,
  vouchers,
} from "~/db/schema";
import { CART_MESSAGES } from "~/domain/cart";
import {
  fulfilCheckoutSession,
  recordedSessionObject,
  resumeUnfinishedFulfilments,
} from "~/lib/payments/fulfil/fulfil.server";
import { cartContributionKey } from "~/lib/payments/shared/payment-records";
import { requestRefund } from "~/lib/payments/refunds/refund-request.server";
import { CHECKOUT_MESSAGES } from "~/lib/payments/checkout/quote.server";
import { cookieFrom, db, decodedHtml, envWithPoolsDown, get, makeUser, postForm, signIn } from "./helpers";
import { BUYER_ADDRESS, checkoutSessionEvent, deliverWebhook } from "./support/webhooks";

// The cart: a visitor's in a signed cookie, a fan's in D1, merged at sign-in; Add to Cart and /cart check stock,
// limits and shipping on the server; one checkout pays a cart across hosts, each host's pool gets its share once
// with one entry for the buyer, and a replayed webhook changes nothing.

const CART = "__Host-cart";

async function host(name: string, opts: { country?: string; shipsTo?: string[] } = {}) {
  const h = await makeUser({ name });
  await db()
    .update(userProfiles)
    .set({ country: opts.country ?? "MY" })
    .where(eq(userProfiles.userId, h.id));
  if (opts.shipsTo?.length)
    await db()
      .insert(userShippingCountries)
      .values(opts.shipsTo.map((countryCode) => ({ hostId: h.id, countryCode })));
  return h;
}

async function product(
  hostId: string,
  name: string,
  opts: { priceCents?: number; units?: number; colour?: string; category?: "physical" | "digital" | "voucher" } = {},
) {
  const [p] = await db()
    .insert(products)
    .values({
      hostId,
      name,
      category: opts.category ?? "physical",
      voucherValueCents: opts.category === "voucher" ? 5_000 : null,
    })
    .returning();
  await db()
    .insert(productSizes)
    .values({
      productId: p!.id,
      name: "One Size",
      priceCents: opts.priceCents ?? 2_000,
      availableUnits: opts.units ?? 10,
      position: 0,
    });
  if (opts.colour)
    await db()
      .insert(productColors)
      .values({ productId: p!.id, name: opts.colour, availableUnits: opts.units ?? 10 });
  return p!;
}

function add(productId: string, fields: Record<string, string> = {}, cookie?: string | null) {
  return postForm("/cart", { intent: "add", productId, ...fields }, { cookie });
}

/** The provider's `checkout.session.completed` for a checkout row, signed like Stripe's, to the webhook. */
const deliverPaid = (row: typeof checkoutSessions.$inferSelect, eventId: string) =>
  deliverWebhook(checkoutSessionEvent(row, { eventId, buyerName: "Cart Buyer", address: BUYER_ADDRESS }));

describe("a visitor's cart", () => {
  it("Add to Cart from a /shop card (no choice) adds a product's only size and colour; the nav bar counts it from the cookie", async () => {
    const h = await host("Cookie Host");
    const mug = await product(h.id, "Visitor Mug", { colour: "Blue" });
    const res = await add(mug.id);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/cart");
    const cart = cookieFrom(res, CART);
    expect(cart).toBeTruthy();
    const again = await add(mug.id, { size: "One Size", color: "Blue", quantity: "2" }, cart);
    const cookie = cookieFrom(again, CART);
    const page = await (await get("/cart", { cookie })).text();
    expect(page).toContain("Visitor Mug");
    expect(page).toContain("Size One Size · Colour Blue");
    expect(page).toContain('value="3"');
    expect(page).toContain("Sign in to check out");
    const shop = await (await get("/shop", { cookie })).text();
    expect(shop).toMatch(/data-testid="cart-count"[^>]*>3<span class="sr-only"> items<\/span>/);
  });

  it("a forged or tampered cookie is an empty cart", async () => {
    const h = await host("Forge Host");
    const mug = await product(h.id, "Forged Mug");
    const real = cookieFrom(await add(mug.id), CART)!;
    const [name, value] = real.split("=") as [string, string];
    const [payload] = value.split(".");
    const forged = `${name}=${Buffer.from(JSON.stringify([[mug.id, "One Size", "", 50]])).toString("base64url")}.${value.split(".")[1]}`;
    const page = await (await get("/cart", { cookie: forged })).text();
    expect(page).toContain(CART_MESSAGES.empty);
    const unsigned = await (await get("/cart", { cookie: `${name}=${payload}` })).text();
    expect(unsigned).toContain(CART_MESSAGES.empty);
  });

  it("is merged into the account's cart at sign-in: the same line adds up, the cookie is cleared", async () => {
    const h = await host("Merge Host");
    const mug = await product(h.id, "Merge Mug");
    const apron = await product(h.id, "Merge Apron");
    const fan = await makeUser({ name: "Merging Fan" });
    const session = await signIn(fan.email);
    expect((await add(mug.id, { size: "One Size", quantity: "2" }, session)).status).toBe(303);

    const first = cookieFrom(await add(mug.id, { size: "One Size", quantity: "1" }), CART);
    const visitorCart = cookieFrom(await add(apron.id, { size: "One Size", quantity: "4" }, first), CART);
    const signin = await postForm(
      "/signin",
      { email: fan.email, password: "correct-horse-battery" },
      { cookie: visitorCart },
    );
    expect(signin.status).toBe(302);
    expect(signin.headers.getSetCookie().some((c) => c.startsWith(`${CART}=;`) && c.includes("Max-Age=0"))).toBe(true);
    const lines = await listCartLines(db(), fan.id);
    expect(lines.map((l) => [l.productId, l.quantity])).toEqual([
      [mug.id, 3],
      [apron.id, 4],
    ]);
    const page = await (await get("/cart", { cookie: cookieFrom(signin, "__Host-session") })).text();
    expect(page).toMatch(/data-testid="cart-count"[^>]*>7<span class="sr-only"> items<\/span>/);
  });
});

describe("limits checked on the server", () => {
  it("refuses more than the stock, a bad quantity, a second unit of a voucher, and an unknown product, with their messages", async () => {
    const h = await host("Limit Host");
    const few = await product(h.id, "Few Left", { units: 3 });
    const voucher = await product(h.id, "Class Voucher", { category: "voucher" });
    const fan = await makeUser({ name: "Limit Fan" });
    const cookie = await signIn(fan.email);

    const tooMany = await add(few.id, { size: "One Size", quantity: "4" }, cookie);
    expect(tooMany.status).toBe(409);
    expect(await tooMany.text()).toContain("Only 3 left in stock");
    expect((await add(few.id, { size: "One Size", quantity: "2" }, cookie)).status).toBe(303);
    const past = await add(few.id, { size: "One Size", quantity: "2" }, cookie);
    expect(past.status).toBe(409);
    expect(await past.text()).toContain("you already have 2 in your cart");

    const huge = await add(few.id, { size: "One Size", quantity: "100" }, cookie);
    expect(huge.status).toBe(400);
    expect(await huge.text()).toContain(CHECKOUT_MESSAGES.quantity);
    const update = await postForm(
      "/cart",
      { intent: "update", productId: few.id, size: "One Size", quantity: "100" },
      { cookie },
    );
    expect(update.status).toBe(400);
    expect(await update.text()).toContain(CHECKOUT_MESSAGES.quantity);

    const twoVouchers = await add(voucher.id, { size: "One Size", quantity: "2" }, cookie);
    expect(twoVouchers.status).toBe(400);
    expect(await twoVouchers.text()).toContain(CHECKOUT_MESSAGES.singleUnit);
    const unknown = await add("no-such-product", {}, cookie);
    expect(unknown.status).toBe(404);
    const notInCart = await postForm(
      "/cart",
      { intent: "remove", productId: voucher.id, size: "One Size" },
      { cookie },
    );
    expect(notInCart.status).toBe(404);
    expect(await notInCart.text()).toContain(CART_MESSAGES.notInCart);

    expect((await listCartLines(db(), fan.id)).map((l) => l.quantity)).toEqual([2]);
  });

  it("stock that runs out after adding is marked on /cart and checkout is refused", async () => {
    const h = await host("Stock Host");
    const mug = await product(h.id, "Sold Out Later", { units: 5 });
    const fan = await makeUser({ name: "Stock Fan" });
    const cookie = await signIn(fan.email);
    await add(mug.id, { size: "One Size", quantity: "4" }, cookie);
    await db().update(productSizes).set({ availableUnits: 1 }).where(eq(productSizes.productId, mug.id));
    const page = await (await get("/cart?shipTo=MY", { cookie })).text();
    expect(page).toContain("Only 1 left in stock");
    expect(page).toContain(CART_MESSAGES.fixProblems);
    const checkout = await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie });
    expect(checkout.status).toBe(409);
    expect(await checkout.text()).toContain("Sold Out Later: Only 1 left in stock");
    expect(await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, fan.id))).toHaveLength(0);
  });

  it("a physical item whose host does not ship to the chosen country is marked and blocks checkout; a country is required", async () => {
    const h = await host("Ship Host", { country: "MY", shipsTo: ["MY", "SG"] });
    const mug = await product(h.id, "Local Mug");
    const fan = await makeUser({ name: "Ship Fan" });
    const cookie = await signIn(fan.email);
    await add(mug.id, { size: "One Size" }, cookie);
    const page = await (await get("/cart?shipTo=JP", { cookie })).text();
    expect(page).toContain("Does not ship to Japan");
    const refused = await postForm("/cart", { intent: "checkout", shipTo: "JP" }, { cookie });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Local Mug: Does not ship to Japan");
    const none = await postForm("/cart", { intent: "checkout", shipTo: "" }, { cookie });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain(CART_MESSAGES.chooseShipTo);
    expect(await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, fan.id))).toHaveLength(0);
    expect((await postForm("/cart", { intent: "checkout", shipTo: "SG" }, { cookie })).status).toBe(302);
  });

  it("self-dealing is refused per item: a host cannot add their own product, nor pay for one merged from a visitor cart", async () => {
    const h = await host("Self Host");
    const own = await product(h.id, "Own Mug");
    const other = await host("Other Host");
    const theirs = await product(other.id, "Their Mug");
    const cookie = await signIn(h.email);
    const refused = await add(own.id, { size: "One Size" }, cookie);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(CHECKOUT_MESSAGES.ownProduct);

    const visitor = cookieFrom(await add(own.id, { size: "One Size" }), CART);
    const signin = await postForm(
      "/signin",
      { email: h.email, password: "correct-horse-battery" },
      { cookie: visitor },
    );
    const session = cookieFrom(signin, "__Host-session");
    await add(theirs.id, { size: "One Size" }, session);
    const page = await (await get("/cart?shipTo=MY", { cookie: session })).text();
    expect(page).toContain(CHECKOUT_MESSAGES.ownProduct);
    const checkout = await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie: session });
    expect(checkout.status).toBe(403);
    expect(await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, h.id))).toHaveLength(0);
    // Removing the host's own item makes the rest payable.
    expect(
      (await postForm("/cart", { intent: "remove", productId: own.id, size: "One Size" }, { cookie: session })).status,
    ).toBe(303);
    expect((await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie: session })).status).toBe(302);
  });
});

describe("one checkout for the whole cart", () => {
  it("pays several hosts at once: an order per item, each host's pool credited once with one entry per host, a replay counts once", async () => {
    const a = await host("Cart Host A");
    const b = await host("Cart Host B");
    const mug = await product(a.id, "A Mug", { priceCents: 2_000, units: 10, colour: "Blue" });
    const apron = await product(a.id, "A Apron", { priceCents: 3_500, units: 10 });
    const voucher = await product(b.id, "B Class", { priceCents: 5_000, category: "voucher" });
    const fan = await makeUser({ name: "Cart Payer" });
    const cookie = await signIn(fan.email);
    await add(mug.id, { size: "One Size", color: "Blue", quantity: "2" }, cookie);
    await add(apron.id, { size: "One Size", quantity: "1" }, cookie);
    await add(voucher.id, { size: "One Size" }, cookie);

    const page = await (await get("/cart?shipTo=MY&currency=USD", { cookie })).text();
    expect(page).toContain("Cart Host A");
    expect(page).toContain("Cart Host B");
    expect(page).toContain("USD 75.00"); // host A's subtotal: 2 x 20 + 35
    expect(page).toContain("USD 125.00");

    const start = await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie });
    expect(start.status).toBe(302);
    expect(start.headers.get("Location")).toContain("/api/local-checkout/");
    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, fan.id));
    expect(row).toMatchObject({ purpose: "cart", amountCents: 12_500, hostId: null });
    expect(row!.metadata.ship_to).toBe("MY");

    const event = `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;
    expect((await deliverPaid(row!, event)).status).toBe(200);
    expect((await deliverPaid(row!, event)).status).toBe(200);
    expect((await deliverPaid(row!, `evt_test_${crypto.randomUUID().replace(/-/g, "")}`)).status).toBe(200);

    const placed = await db().select().from(orders).where(eq(orders.checkoutSessionId, row!.id));
    expect(placed.map((o) => [o.hostId, o.productName, o.quantity, o.amountCents]).sort()).toEqual(
      [
        [a.id, "A Apron", 1, 3_500],
        [a.id, "A Mug", 2, 4_000],
        [b.id, "B Class", 1, 5_000],
      ].sort(),
    );
    expect(new Set(placed.map((o) => o.orderNumber)).size).toBe(3);

    const contributions = await db()
      .select()
      .from(prizePoolContributions)
      .where(like(prizePoolContributions.sourceKey, `checkout:${row!.id}%`));
    // 10% of each order, rounded per order: host A 400 + 350, host B 500.
    expect(contributions.map((c) => [c.hostId, c.amountCents]).sort()).toEqual(
      [
        [a.id, 750],
        [b.id, 500],
      ].sort(),
    );
    const entries = await db().select().from(prizeEntries).where(eq(prizeEntries.userId, fan.id));
    expect(entries).toHaveLength(2);
    expect(new Set(entries.map((e) => e.poolId)).size).toBe(2);

    const sales = await db().select().from(earningsLedger).where(eq(earningsLedger.kind, "shop_sale"));
    expect(sales.filter((s) => placed.some((o) => o.id === s.orderId))).toHaveLength(3);
    const [mugStock] = await db().select().from(productSizes).where(eq(productSizes.productId, mug.id));
    expect(mugStock!.availableUnits).toBe(8);
    const [blue] = await db().select().from(productColors).where(eq(productColors.productId, mug.id));
    expect(blue!.availableUnits).toBe(8);
    expect(await db().select().from(vouchers).where(eq(vouchers.buyerId, fan.id))).toHaveLength(1);
    // The paid lines left the cart, and the fan sees the orders.
    expect(await db().select().from(cartItems).where(eq(cartItems.userId, fan.id))).toHaveLength(0);
    const mine = await (await get("/my-orders", { cookie })).text();
    for (const o of placed) expect(mine).toContain(o.orderNumber);
    const [mugOrder] = placed.filter((o) => o.productId === mug.id);
    expect(mugOrder!.shippingAddress).toMatchObject({ country: "MY" });
    const [hostA] = await db()
      .select()
      .from(userProfiles)
      .where(and(eq(userProfiles.userId, a.id)));
    expect(hostA!.totalSales).toBe(3);
  });

  it("a fulfilment cut off before the pools (pool object down) is resumed by the cron: each host's pool credited once", async () => {
    const a = await host("Resume Host A");
    const b = await host("Resume Host B");
    const mug = await product(a.id, "Resume Mug", { priceCents: 2_000, category: "digital" });
    const cls = await product(b.id, "Resume Class", { priceCents: 3_000, category: "digital" });
    const fan = await makeUser({ name: "Resume Payer" });
    const cookie = await signIn(fan.email);
    await add(mug.id, { size: "One Size" }, cookie);
    await add(cls.id, { size: "One Size" }, cookie);
    expect((await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie })).status).toBe(302);
    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, fan.id));
    const broken = envWithPoolsDown();
    const session = recordedSessionObject(row!);
    await expect(fulfilCheckoutSession(broken, session)).rejects.toThrow("pool object unavailable");
    const cut = await db().select().from(orders).where(eq(orders.checkoutSessionId, row!.id));
    expect(cut).toHaveLength(2);
    expect(cut.every((o) => o.poolId === null)).toBe(true);

    // Too recent to resume (the fulfilment may still be under way); a minute later the cron resumes it, twice at once.
    expect((await resumeUnfinishedFulfilments(env, new Date())).resumed).not.toContain(row!.id);
    const later = new Date(Date.now() + 5 * 60_000);
    await Promise.all([resumeUnfinishedFulfilments(env, later), resumeUnfinishedFulfilments(env, later)]);
    const contributions = await db()
      .select()
      .from(prizePoolContributions)
      .where(like(prizePoolContributions.sourceKey, `checkout:${row!.id}%`));
    expect(contributions.map((c) => [c.hostId, c.amountCents]).sort()).toEqual(
      [
        [a.id, 200],
        [b.id, 300],
      ].sort(),
    );
    expect(await db().select().from(prizeEntries).where(eq(prizeEntries.userId, fan.id))).toHaveLength(2);
    const resumed = await db().select().from(orders).where(eq(orders.checkoutSessionId, row!.id));
    expect(resumed.every((o) => o.poolId !== null)).toBe(true);
    // Nothing left to resume.
    expect((await resumeUnfinishedFulfilments(env, later)).resumed).not.toContain(row!.id);
  });

  it("a refund of one host's item reverses that host's pool share only, and voids only that host's entry", async () => {
    const a = await host("Refund Host A");
    const b = await host("Refund Host B");
    const lamp = await product(a.id, "A Lamp", { priceCents: 3_000 });
    const vase = await product(b.id, "B Vase", { priceCents: 4_000 });
    const fan = await makeUser({ name: "Refunded Fan" });
    const cookie = await signIn(fan.email);
    await add(lamp.id, { size: "One Size" }, cookie);
    await add(vase.id, { size: "One Size" }, cookie);
    expect((await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie })).status).toBe(302);
    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, fan.id));
    expect((await deliverPaid(row!, `evt_test_${crypto.randomUUID().replace(/-/g, "")}`)).status).toBe(200);
    const [vaseOrder] = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.checkoutSessionId, row!.id), eq(orders.productId, vase.id)));

    const refund = await requestRefund(env, {
      checkoutSessionId: row!.id,
      orderId: vaseOrder!.id,
      amountCents: 4_000,
      origin: "host",
      reason: "Damaged in transit",
      idempotencyKey: `cart-refund-${vaseOrder!.id}`,
    });
    expect(refund.ok).toBe(true);
    const reversals = await db()
      .select()
      .from(prizePoolContributions)
      .where(like(prizePoolContributions.reversesKey, `checkout:${row!.id}%`));
    expect(reversals.map((r) => [r.hostId, r.reversesKey, r.amountCents])).toEqual([
      [b.id, cartContributionKey(row!.id, b.id), -400],
    ]);
    const entries = await db().select().from(prizeEntries).where(eq(prizeEntries.userId, fan.id));
    expect(entries).toHaveLength(2);
    const voided = entries.filter((e) => e.voidedAt !== null);
    expect(voided).toHaveLength(1);
    expect(voided[0]!.poolId).toBe(vaseOrder!.poolId);
  });

  it("a visitor cannot check out and an empty cart cannot be paid", async () => {
    const visitor = await postForm("/cart", { intent: "checkout", shipTo: "MY" });
    expect(visitor.status).toBe(401);
    expect(await visitor.text()).toContain(CART_MESSAGES.signIn);
    const fan = await makeUser({ name: "Empty Fan" });
    const empty = await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie: await signIn(fan.email) });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain(CART_MESSAGES.empty);
  });
});

// Decision 600: a size and colour are chosen, never guessed; a cart line's size, colour and quantity can be changed
// on /cart, checked on the server; and "Does not ship to {country}" is said before checkout.

/** A product with sizes S (`units.S` left), M and L, and colours Red and Blue (10 each unless given). */
async function variantProduct(hostId: string, name: string, units: Partial<Record<string, number>> = {}) {
  const [p] = await db().insert(products).values({ hostId, name, category: "physical" }).returning();
  await db()
    .insert(productSizes)
    .values(
      ["S", "M", "L"].map((size, position) => ({
        productId: p!.id,
        name: size,
        priceCents: 2_000 + position * 100,
        availableUnits: units[size] ?? 10,
        position,
      })),
    );
  await db()
    .insert(productColors)
    .values(
      ["Red", "Blue"].map((colour, position) => ({
        productId: p!.id,
        name: colour,
        availableUnits: units[colour] ?? 10,
        position,
      })),
    );
  return p!;
}

const change = (line: { productId: string; size: string; color: string }, fields: Record<string, string>) => ({
  intent: "update",
  ...line,
  ...fields,
});

const linesOf = async (userId: string) =>
  (await listCartLines(db(), userId)).map((l) => [l.sizeName, l.colorName, l.quantity]);

describe("variants are chosen, never guessed", () => {
  it("refuses a product with more than one size or colour posted without a valid choice, and changes nothing", async () => {
    const h = await host("Choice Host");
    const tee = await variantProduct(h.id, "Choice Tee");
    const fan = await makeUser({ name: "Choice Fan" });
    const cookie = await signIn(fan.email);
    for (const [fields, message] of [
      [{}, CHECKOUT_MESSAGES.chooseSize],
      [{ size: "M" }, CHECKOUT_MESSAGES.chooseColour],
      [{ color: "Red" }, CHECKOUT_MESSAGES.chooseSize],
      [{ size: "XXL", color: "Red" }, CHECKOUT_MESSAGES.chooseSize],
      [{ size: "M", color: "Green" }, CHECKOUT_MESSAGES.chooseColour],
    ] as const) {
      const res = await add(tee.id, fields, cookie);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(await res.text()).toContain(message);
      // A visitor's cookie cart is left as it was too: no cookie is set.
      const visitor = await add(tee.id, fields);
      expect(visitor.status).toBe(400);
      expect(cookieFrom(visitor, CART)).toBeFalsy();
    }
    expect(await listCartLines(db(), fan.id)).toEqual([]);
    expect((await add(tee.id, { size: "M", color: "Blue" }, cookie)).status).toBe(303);
    expect(await linesOf(fan.id)).toEqual([["M", "Blue", 1]]);
  });

  it("/shop offers 'Choose options' (a link to the product page) for a product with choices, one-click Add to Cart for one without", async () => {
    const h = await host("Grid Host");
    const token = `Gridly${crypto.randomUUID().slice(0, 6)}`;
    const tee = await variantProduct(h.id, `${token} Tee`);
    const mug = await product(h.id, `${token} Mug`, { colour: "White" });
    const card = (page: string, id: string) => {
      const start = page.indexOf(`data-product-card="${id}"`);
      return page.slice(start, page.indexOf("</li>", start));
    };
    const shop = await decodedHtml(await get(`/shop?q=${token}`));
    expect(card(shop, tee.id)).toMatch(new RegExp(`<a href="/product/${tee.id}"[^>]*>Choose options</a>`));
    expect(card(shop, tee.id)).not.toContain('form="cart-add"');
    expect(card(shop, mug.id)).toMatch(
      new RegExp(`<button form="cart-add" value="${mug.id}"[^>]*>Add to Cart</button>`),
    );
    expect(card(shop, mug.id)).not.toContain("Choose options");
    // The Ship-to choice travels to the product page.
    const chosen = await decodedHtml(await get(`/shop?q=${token}&shipTo=MY`));
    expect(card(chosen, tee.id)).toMatch(
      new RegExp(`<a href="/product/${tee.id}\\?shipTo=MY"[^>]*>Choose options</a>`),
    );
    // The product page asks for both, and adds what was chosen.
    const page = await decodedHtml(await get(`/product/${tee.id}`));
    expect(page).toMatch(/<input type="radio"[^>]*name="size"[^>]*value="S"/);
    expect(page).toMatch(/<input type="radio"[^>]*name="color"[^>]*value="Blue"/);
    const added = await add(tee.id, { size: "L", color: "Red", quantity: "2" });
    expect(added.status).toBe(303);
    const cart = await decodedHtml(await get("/cart", { cookie: cookieFrom(added, CART) }));
    expect(cart).toContain("Size L · Colour Red");
  });
});

describe("a cart line's size, colour and quantity are changed on /cart", () => {
  it("changes a fan's line, checks the stock, merges into the same size and colour, and refuses past the order maximum", async () => {
    const h = await host("Edit Host");
    const tee = await variantProduct(h.id, "Edit Tee", { S: 3, M: 99, L: 0, Blue: 99 });
    const fan = await makeUser({ name: "Edit Fan" });
    const cookie = await signIn(fan.email);
    await add(tee.id, { size: "M", color: "Red", quantity: "2" }, cookie);
    const line = { productId: tee.id, size: "M", color: "Red" };

    // /cart offers the line's sizes and colours (a sold-out one cannot be chosen) and posts them with Update.
    const page = await decodedHtml(await get("/cart?shipTo=MY", { cookie }));
    expect(page).toMatch(/<select name="newSize"[^>]*>.*<option value="L" disabled="">L \(sold out\)<\/option>/s);
    expect(page).toMatch(/<select name="newColor"/);

    const moved = await postForm("/cart", change(line, { newSize: "S", newColor: "Blue", quantity: "3" }), { cookie });
    expect(moved.status).toBe(303);
    expect(await linesOf(fan.id)).toEqual([["S", "Blue", 3]]);
    const s = { productId: tee.id, size: "S", color: "Blue" };

    // Out of stock, more than the stock, a size or colour the product does not have: refused, nothing changed.
    for (const [fields, status, message] of [
      [{ newSize: "L", quantity: "1" }, 409, CHECKOUT_MESSAGES.outOfStock],
      [{ quantity: "4" }, 409, "Only 3 left in stock"],
      [{ newSize: "XXL", quantity: "1" }, 400, CHECKOUT_MESSAGES.chooseSize],
      [{ newColor: "Green", quantity: "1" }, 400, CHECKOUT_MESSAGES.chooseColour],
      [{ quantity: "0" }, 400, CHECKOUT_MESSAGES.quantity],
    ] as const) {
      const res = await postForm("/cart", change(s, fields), { cookie });
      expect(res.status, JSON.stringify(fields)).toBe(status);
      expect(await res.text()).toContain(message);
    }
    expect(await linesOf(fan.id)).toEqual([["S", "Blue", 3]]);

    // Onto a size and colour already in the cart: the two lines become one, checked together.
    expect((await add(tee.id, { size: "M", color: "Blue", quantity: "97" }, cookie)).status).toBe(303);
    const tooMany = await postForm("/cart", change(s, { newSize: "M", quantity: "3" }), { cookie });
    expect(tooMany.status).toBe(409);
    expect(await tooMany.text()).toContain("already in your cart (97)");
    expect(await linesOf(fan.id)).toEqual([
      ["S", "Blue", 3],
      ["M", "Blue", 97],
    ]);
    const merged = await postForm("/cart", change(s, { newSize: "M", quantity: "2" }), { cookie });
    expect(merged.status).toBe(303);
    expect(await linesOf(fan.id)).toEqual([["M", "Blue", 99]]);
    const after = await decodedHtml(await get("/cart?shipTo=MY", { cookie }));
    expect(after).toContain("Size M · Colour Blue");
    expect(after).toMatch(/<input type="number"[^>]*name="quantity" value="99"/);
  });

  it("never reaches another fan's cart, and changes a visitor's cookie cart the same way", async () => {
    const h = await host("Other Edit Host");
    const tee = await variantProduct(h.id, "Other Edit Tee");
    const owner = await makeUser({ name: "Owner Fan" });
    const other = await makeUser({ name: "Prying Fan" });
    await add(tee.id, { size: "S", color: "Red" }, await signIn(owner.email));
    const line = { productId: tee.id, size: "S", color: "Red" };
    const prying = await postForm("/cart", change(line, { newSize: "M", quantity: "5" }), {
      cookie: await signIn(other.email),
    });
    expect(prying.status).toBe(404);
    expect(await prying.text()).toContain(CART_MESSAGES.notInCart);
    expect(await linesOf(owner.id)).toEqual([["S", "Red", 1]]);
    expect(await listCartLines(db(), other.id)).toEqual([]);

    const visitor = cookieFrom(await add(tee.id, { size: "S", color: "Red" }), CART);
    const withBlue = cookieFrom(await add(tee.id, { size: "S", color: "Blue", quantity: "2" }, visitor), CART);
    const merged = await postForm("/cart", change(line, { newColor: "Blue", quantity: "1" }), { cookie: withBlue });
    expect(merged.status).toBe(303);
    const page = await decodedHtml(await get("/cart", { cookie: cookieFrom(merged, CART) }));
    expect(page).toContain("Size S · Colour Blue");
    expect(page).not.toContain("Colour Red");
    expect(page).toMatch(/<input type="number"[^>]*name="quantity" value="3"/);
    // Without the cookie there is nothing to change.
    expect((await postForm("/cart", change(line, { quantity: "2" }))).status).toBe(404);
  });
});

describe("'Does not ship to {country}' before checkout", () => {
  it("is said on the product page, Buy Now and the cart for a fan whose country the host does not ship to", async () => {
    const h = await host("Local Only Host", { country: "MY" });
    const mug = await product(h.id, "Local Only Mug");
    const ebook = await product(h.id, "Local Only Ebook", { category: "digital" });
    const usFan = await makeUser({ name: "Faraway Fan" });
    await db().update(userProfiles).set({ country: "US" }).where(eq(userProfiles.userId, usFan.id));
    const usCookie = await signIn(usFan.email);
    const notice = "Does not ship to United States";

    for (const path of [`/product/${mug.id}`, `/buy-now/${mug.id}`]) {
      expect(await decodedHtml(await get(path, { cookie: usCookie })), path).toContain(notice);
      // A digital product ships nowhere; the Ship-to choice wins over the profile country.
      expect(await decodedHtml(await get(path.replace(mug.id, ebook.id), { cookie: usCookie })), path).not.toContain(
        "Does not ship",
      );
      expect(await decodedHtml(await get(`${path}?shipTo=MY`, { cookie: usCookie })), path).not.toContain(
        "Does not ship",
      );
      // A visitor: nothing without a choice, the message with one.
      expect(await decodedHtml(await get(path)), path).not.toContain("Does not ship");
      expect(await decodedHtml(await get(`${path}?shipTo=US`)), path).toContain(notice);
    }
    // The profile shop's Ship-to choice travels on its tiles' links, as /shop's does on its cards'.
    const tiles = await decodedHtml(await get(`/profile/${h.id}/shop?shipTo=MY`, { cookie: usCookie }));
    expect(tiles).toContain(`href="/buy-now/${mug.id}?shipTo=MY"`);
    expect((await add(mug.id, {}, usCookie)).status).toBe(303);
    const cart = await decodedHtml(await get("/cart", { cookie: usCookie }));
    expect(cart).toContain(notice);
    expect(cart).toContain(CART_MESSAGES.fixProblems);

    // The host ships to the fan's country: nothing is said.
    const myFan = await makeUser({ name: "Nearby Fan" });
    const myCookie = await signIn(myFan.email);
    for (const path of [`/product/${mug.id}`, `/buy-now/${mug.id}`]) {
      expect(await decodedHtml(await get(path, { cookie: myCookie })), path).not.toContain("Does not ship");
    }
    await add(mug.id, {}, myCookie);
    expect(await decodedHtml(await get("/cart", { cookie: myCookie }))).not.toContain("Does not ship");
  });
});
