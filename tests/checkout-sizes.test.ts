import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  cartItems,
  checkoutSessions,
  groupBuyProducts,
  groupBuys,
  groupBuyTiers,
  orders,
  paymentEvents,
  products,
  productSizes,
  userProfiles,
} from "~/db/schema";
import { CART_MESSAGES, MAX_CART_LINES } from "~/domain/cart";
import { GROUP_BUY_ACTION_MESSAGES, MAX_GROUP_BUY_LINES } from "~/domain/group-buy";
import { MAX_ORDER_QUANTITY } from "~/domain/orders";
import {
  CHECKOUT_LINE_CHUNKS,
  CHECKOUT_OPTION_NAME_CHARS,
  MAX_CHECKOUT_LINES,
  STRIPE_MAX_LINE_ITEMS,
  STRIPE_MAX_METADATA_KEYS,
  STRIPE_MAX_METADATA_VALUE_CHARS,
} from "~/domain/payments";
import {
  decodeCheckoutLines,
  encodeCheckoutLines,
  type CheckoutLine,
} from "~/lib/payments/shared/checkout-lines.server";
import { createGroupBuyCheckout } from "~/lib/payments/checkout/group-buy-checkout.server";
import { db, get, makeUser, ORIGIN, pageText, postForm, randomIp, sessionUserOf, signIn } from "./helpers";
import { BUYER_ADDRESS, checkoutSessionEvent, deliverWebhook } from "./support/webhooks";

// Issue 26, item 1: every cart and group-buy join a fan can build is paid and fulfilled, up to the largest the domain
// states (MAX_CHECKOUT_LINES, the tightest of D1's 100 parameters, Stripe's 100 line items and its metadata); one
// past it is refused when adding and again when the checkout is created. Paid through the signed webhook.

const SIZES = [1, 3, 4, 10, MAX_CHECKOUT_LINES];
const DAY = 24 * 60 * 60 * 1000;

async function host(name: string) {
  const h = await makeUser({ name });
  await db().update(userProfiles).set({ country: "MY" }).where(eq(userProfiles.userId, h.id));
  return h;
}

async function makeProducts(hostIds: readonly string[], count: number, label: string) {
  const made = [];
  for (let i = 0; i < count; i++) {
    const [p] = await db()
      .insert(products)
      .values({ hostId: hostIds[i % hostIds.length]!, name: `${label} ${i + 1}`, category: "physical" })
      .returning();
    await db()
      .insert(productSizes)
      .values({ productId: p!.id, name: "One Size", priceCents: 100 + i, availableUnits: 200, position: 0 });
    made.push(p!);
  }
  return made;
}

/** Pays a checkout row through the webhook, as the provider does; the delivery must be applied, not failed. */
async function pay(row: typeof checkoutSessions.$inferSelect) {
  const event = checkoutSessionEvent(row, { buyerName: "Size Buyer", address: BUYER_ADDRESS });
  const res = await deliverWebhook(event);
  expect(res.status).toBe(200);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.failed).toBeUndefined();
  const [recorded] = await db().select().from(paymentEvents).where(eq(paymentEvents.id, event.id));
  expect(recorded?.status).toBe("processed");
  return event;
}

async function checkoutOf(userId: string) {
  const rows = await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, userId));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** The group-buy selection form as the browser posts it: one productId/sizeName/colorName/quantity per product. */
function postSelection(groupBuyId: string, lines: { productId: string; quantity: number }[], cookie: string) {
  const body = new URLSearchParams();
  for (const l of lines) {
    body.append("productId", l.productId);
    body.append("sizeName", "One Size");
    body.append("colorName", "");
    body.append("quantity", String(l.quantity));
  }
  return SELF.fetch(`${ORIGIN}/group-buy-product-selection/${groupBuyId}`, {
    method: "POST",
    headers: {
      Cookie: cookie,
      Origin: ORIGIN,
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": randomIp(),
    },
    body: body.toString(),
    redirect: "manual",
  });
}

async function groupBuyWith(hostId: string, offered: readonly { id: string }[]) {
  const [g] = await db()
    .insert(groupBuys)
    .values({
      hostId,
      name: "Size Group Buy",
      status: "active",
      targetCents: 10_000_000,
      currency: "MYR",
      endAt: new Date(Date.now() + DAY),
    })
    .returning();
  await db()
    .insert(groupBuyTiers)
    .values([
      { groupBuyId: g!.id, salesThresholdCents: 0, discountPercent: 5, position: 0 },
      { groupBuyId: g!.id, salesThresholdCents: 10_000_000, discountPercent: 10, position: 1 },
    ]);
  await db()
    .insert(groupBuyProducts)
    .values(offered.map((p) => ({ groupBuyId: g!.id, productId: p.id })));
  return g!;
}

describe("the largest checkout, as the domain states it", () => {
  it("is the tightest of D1, Stripe's line items and the metadata, and the worst-case lines of that size fit the metadata", () => {
    expect(MAX_CHECKOUT_LINES).toBe(40);
    expect(MAX_CHECKOUT_LINES).toBeLessThanOrEqual(STRIPE_MAX_LINE_ITEMS);
    expect(MAX_CART_LINES).toBe(MAX_CHECKOUT_LINES);
    expect(MAX_GROUP_BUY_LINES).toBe(MAX_CHECKOUT_LINES);
    // Lines whose size and colour names are as long as the product form allows, every character needing escaping.
    const worst = '"'.repeat(CHECKOUT_OPTION_NAME_CHARS);
    const lines: CheckoutLine[] = Array.from({ length: MAX_CHECKOUT_LINES }, () => [
      crypto.randomUUID(),
      worst,
      worst,
      MAX_ORDER_QUANTITY,
      99_999_999,
    ]);
    const encoded = encodeCheckoutLines(lines);
    expect(encoded).not.toBeNull();
    expect(Object.keys(encoded!).length).toBeLessThanOrEqual(CHECKOUT_LINE_CHUNKS);
    expect(CHECKOUT_LINE_CHUNKS).toBeLessThan(STRIPE_MAX_METADATA_KEYS);
    expect(Object.values(encoded!).every((v) => v.length <= STRIPE_MAX_METADATA_VALUE_CHARS)).toBe(true);
    expect(decodeCheckoutLines(encoded!)).toEqual(lines);
  });
});

describe("a cart of every size up to the largest", () => {
  for (const size of SIZES) {
    it(`${size} line${size === 1 ? "" : "s"}: added, checked out, paid and fulfilled as ${size} order${size === 1 ? "" : "s"}`, async () => {
      const hosts = [await host(`Size Host A${size}`), await host(`Size Host B${size}`)];
      const made = await makeProducts(
        hosts.map((h) => h.id),
        size,
        `Cart ${size} item`,
      );
      const fan = await makeUser({ name: `Cart ${size} Fan` });
      const cookie = await signIn(fan.email);
      // The largest cart in units too: every line at the order maximum.
      const quantity = size === MAX_CHECKOUT_LINES ? MAX_ORDER_QUANTITY : 2;
      for (const p of made) {
        const added = await postForm(
          "/cart",
          { intent: "add", productId: p.id, size: "One Size", quantity: String(quantity) },
          { cookie },
        );
        expect(added.status).toBe(303);
      }
      const start = await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie });
      expect(start.status).toBe(302);
      const row = await checkoutOf(fan.id);
      const expected = made.reduce((sum, _p, i) => sum + (100 + i) * quantity, 0);
      expect(row.amountCents).toBe(expected);

      await pay(row);
      await pay(row); // a second delivery (another event id) creates nothing more
      const placed = await db().select().from(orders).where(eq(orders.checkoutSessionId, row.id));
      expect(placed).toHaveLength(size);
      expect(placed.every((o) => o.status === "processing" && o.refundState === "none")).toBe(true);
      expect(placed.reduce((sum, o) => sum + o.quantity, 0)).toBe(size * quantity);
      expect(new Set(placed.map((o) => o.productId))).toEqual(new Set(made.map((p) => p.id)));
      const [checkout] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, row.id));
      expect(checkout?.paymentStatus).toBe("paid");
      // Stock taken once per line, and the paid lines left the cart.
      const [stock] = await db()
        .select()
        .from(productSizes)
        .where(eq(productSizes.productId, made[size - 1]!.id));
      expect(stock?.availableUnits).toBe(200 - quantity);
      expect(await db().select().from(cartItems).where(eq(cartItems.userId, fan.id))).toHaveLength(0);
      // The buyer sees every order on /my-orders (counted; the list itself is paged by 20).
      const mine = await pageText(await get("/my-orders", { cookie }));
      expect(mine).toContain(`Orders ${size} Total spent`);
      expect(mine).toContain(`Cart ${size} item`);
    });
  }

  it("six digital products from two hosts, paid on the local checkout page (the issue's reproduction): six orders", async () => {
    const hosts = [await host("Local Page Host A"), await host("Local Page Host B")];
    const made = [];
    for (let i = 0; i < 6; i++) {
      const [p] = await db()
        .insert(products)
        .values({ hostId: hosts[i % 2]!.id, name: `Local digital ${i + 1}`, category: "digital" })
        .returning();
      await db()
        .insert(productSizes)
        .values({ productId: p!.id, name: "One Size", priceCents: 500, availableUnits: 100, position: 0 });
      made.push(p!);
    }
    const fan = await makeUser({ name: "Local Page Fan" });
    const cookie = await signIn(fan.email);
    for (const p of made)
      expect((await postForm("/cart", { intent: "add", productId: p.id, size: "One Size" }, { cookie })).status).toBe(
        303,
      );
    const start = await postForm("/cart", { intent: "checkout" }, { cookie });
    expect(start.status).toBe(302);
    const paid = await postForm(`${new URL(start.headers.get("Location")!).pathname}/pay`, {}, { cookie });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("Location")).toContain("/payment/success");
    const row = await checkoutOf(fan.id);
    const placed = await db().select().from(orders).where(eq(orders.checkoutSessionId, row.id));
    expect(placed).toHaveLength(6);
    expect(placed.every((o) => o.status === "paid")).toBe(true);
  });

  it("one past the largest is refused when adding, and again at checkout (a cart that outgrew the limit in a race)", async () => {
    const h = await host("Past Host");
    const made = await makeProducts([h.id], MAX_CART_LINES + 1, "Past item");
    const fan = await makeUser({ name: "Past Fan" });
    const cookie = await signIn(fan.email);
    for (const p of made.slice(0, MAX_CART_LINES)) {
      expect((await postForm("/cart", { intent: "add", productId: p.id, size: "One Size" }, { cookie })).status).toBe(
        303,
      );
    }
    const refused = await postForm(
      "/cart",
      { intent: "add", productId: made[MAX_CART_LINES]!.id, size: "One Size" },
      { cookie },
    );
    expect(refused.status).toBe(409);
    expect(await pageText(refused)).toContain(CART_MESSAGES.full);
    expect(await db().select().from(cartItems).where(eq(cartItems.userId, fan.id))).toHaveLength(MAX_CART_LINES);

    // Two adds racing can both pass the count: the 41st line is there, and checkout refuses it before anything.
    await db().insert(cartItems).values({
      userId: fan.id,
      productId: made[MAX_CART_LINES]!.id,
      sizeName: "One Size",
      colorName: "",
      quantity: 1,
    });
    const checkout = await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie });
    expect(checkout.status).toBe(400);
    expect(await pageText(checkout)).toContain(CART_MESSAGES.full);
    expect(await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, fan.id))).toHaveLength(0);
    const page = await pageText(await get("/cart?shipTo=MY", { cookie }));
    expect(page).toContain(CART_MESSAGES.full);
  });
});

describe("a group-buy join of every size up to the largest", () => {
  for (const size of SIZES) {
    it(`${size} product${size === 1 ? "" : "s"}: chosen, paid and fulfilled as ${size} order${size === 1 ? "" : "s"} in the group buy`, async () => {
      const h = await host(`GB Size Host ${size}`);
      const made = await makeProducts([h.id], size, `Join ${size} item`);
      const g = await groupBuyWith(h.id, made);
      const fan = await makeUser({ name: `Join ${size} Fan` });
      const cookie = await signIn(fan.email);
      const quantity = size === MAX_CHECKOUT_LINES ? MAX_ORDER_QUANTITY : 1;
      const start = await postSelection(
        g.id,
        made.map((p) => ({ productId: p.id, quantity })),
        cookie,
      );
      expect(start.status).toBe(302);
      expect(start.headers.get("Location")).toContain("/api/local-checkout/");
      const row = await checkoutOf(fan.id);

      await pay(row);
      await pay(row);
      const placed = await db().select().from(orders).where(eq(orders.checkoutSessionId, row.id));
      expect(placed).toHaveLength(size);
      expect(
        placed.every((o) => o.groupBuyId === g.id && o.purchaseMode === "group-buy" && o.status === "processing"),
      ).toBe(true);
      expect(placed.reduce((sum, o) => sum + o.quantity, 0)).toBe(size * quantity);
      const [after] = await db().select().from(groupBuys).where(eq(groupBuys.id, g.id));
      expect(after?.currentParticipants).toBe(1);
      expect(after!.currentSalesCents).toBe(placed.reduce((sum, o) => sum + (o.salesRmCents ?? 0), 0));
    });
  }

  it("one past the largest is refused by the selection form, and by the checkout however it is reached", async () => {
    const h = await host("GB Past Host");
    const made = await makeProducts([h.id], MAX_GROUP_BUY_LINES + 1, "Join past item");
    const g = await groupBuyWith(h.id, made);
    const fan = await makeUser({ name: "Join Past Fan" });
    const cookie = await signIn(fan.email);
    const refused = await postSelection(
      g.id,
      made.map((p) => ({ productId: p.id, quantity: 1 })),
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(await pageText(refused)).toContain(GROUP_BUY_ACTION_MESSAGES.tooManyProducts);

    const direct = await createGroupBuyCheckout(env, {
      user: sessionUserOf(fan),
      groupBuyId: g.id,
      items: made.map((p) => ({ productId: p.id, sizeName: "One Size", colorName: "", quantity: 1 })),
      origin: ORIGIN,
    });
    expect(direct).toMatchObject({ ok: false, status: 400, message: GROUP_BUY_ACTION_MESSAGES.tooManyProducts });
    expect(await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, fan.id))).toHaveLength(0);
  });
});
