import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  checkoutSessions,
  groupBuyProducts,
  groupBuys,
  groupBuyShares,
  groupBuyTiers,
  hostDebits,
  orders,
  prizeEntries,
  productColors,
  products,
  productSizes,
  refunds,
} from "~/db/schema";
import { GROUP_BUY_ACTION_MESSAGES } from "~/domain/group-buy";
import { UNFULFILLABLE_REASONS } from "~/domain/payments";
import { fulfilCheckoutSession } from "~/lib/payments/fulfil/fulfil.server";
import { closeGroupBuy } from "~/lib/payments/refunds/group-buy-close.server";
import { closePool, poolStub } from "~/lib/pools.server";
import { createGroupBuyCheckout, GroupBuySelectionSchema } from "~/lib/payments/checkout/group-buy-checkout.server";
import type { SessionUser } from "~/lib/session.server";
import { db, get, makeSessionUser, makeUser, ORIGIN, postForm, signIn, withoutNetwork } from "./helpers";

// Joining a group buy: one checkout for several products at the original price (priced on the server), a paid
// checkout adds its RM value to sales and one participant, the group-buy share to the host's pool, and one entry,
// two after a share; a repeated delivery counts once; a join after the end or on one's own group buy is refused.

const DAY = 24 * 60 * 60 * 1000;

async function fixture(opts: { endAt?: Date } = {}) {
  const host = await makeUser({ name: "GB Host" });
  const made = [];
  for (const [name, price] of [
    ["Mug", 2_000],
    ["Apron", 3_500],
  ] as const) {
    const [p] = await db().insert(products).values({ hostId: host.id, name, category: "physical" }).returning();
    await db()
      .insert(productSizes)
      .values({ productId: p!.id, name: "One Size", priceCents: price, availableUnits: 10, position: 0 });
    await db().insert(productColors).values({ productId: p!.id, name: "Blue", availableUnits: 10 });
    made.push(p!);
  }
  const [g] = await db()
    .insert(groupBuys)
    .values({
      hostId: host.id,
      name: "Kitchen",
      status: "active",
      targetCents: 100_000,
      currency: "MYR",
      endAt: opts.endAt ?? new Date(Date.now() + DAY),
    })
    .returning();
  await db()
    .insert(groupBuyTiers)
    .values([
      { groupBuyId: g!.id, salesThresholdCents: 0, discountPercent: 5, position: 0 },
      { groupBuyId: g!.id, salesThresholdCents: 100_000, discountPercent: 10, position: 1 },
    ]);
  await db()
    .insert(groupBuyProducts)
    .values(made.map((p) => ({ groupBuyId: g!.id, productId: p.id })));
  return { host, groupBuyId: g!.id, mug: made[0]!, apron: made[1]! };
}

function items(f: Awaited<ReturnType<typeof fixture>>, mugs: number, aprons: number) {
  return GroupBuySelectionSchema.parse({
    items: [
      { productId: f.mug.id, sizeName: "One Size", colorName: "Blue", quantity: String(mugs) },
      { productId: f.apron.id, sizeName: "One Size", colorName: "Blue", quantity: String(aprons) },
    ],
  }).items;
}

async function pay(sessionId: string) {
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
  const session = {
    id: row!.id,
    object: "checkout.session",
    amount_total: row!.amountCents,
    currency: "usd",
    client_reference_id: row!.metadata.checkout_id,
    customer_email: row!.customerEmail,
    customer_details: { email: row!.customerEmail, name: "Fan", address: null },
    metadata: row!.metadata,
    payment_intent: `pi_test_${row!.id.slice(-12)}`,
    payment_status: "paid",
    status: "complete",
  };
  return fulfilCheckoutSession(env, session as Parameters<typeof fulfilCheckoutSession>[1]);
}

describe("joining a group buy", () => {
  it("refuses an empty selection with 'Please select at least one product'", () => {
    const parsed = GroupBuySelectionSchema.safeParse({ items: [{ productId: "x", quantity: "0" }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(GROUP_BUY_ACTION_MESSAGES.selectProduct);
  });

  it("prices several products on the server in one checkout and, once paid, counts sales, one participant and one entry", async () => {
    const f = await fixture();
    const buyer = await makeSessionUser("Joiner");
    const result = await createGroupBuyCheckout(env, {
      user: buyer,
      groupBuyId: f.groupBuyId,
      items: items(f, 2, 1),
      origin: ORIGIN,
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.amountCents).toBe(2 * 2_000 + 3_500);
    await pay(result.sessionId);
    await pay(result.sessionId);
    const rows = await db().select().from(orders).where(eq(orders.checkoutSessionId, result.sessionId));
    expect(rows).toHaveLength(2);
    expect(rows.every((o) => o.groupBuyId === f.groupBuyId && o.purchaseMode === "group-buy")).toBe(true);
    // USD 40.00 -> RM 181.82 and USD 35.00 -> RM 159.09 (rate table, half up), counted once.
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, f.groupBuyId));
    expect(g).toMatchObject({ currentSalesCents: 18_182 + 15_909, currentParticipants: 1 });
    const entries = await db().select().from(prizeEntries).where(eq(prizeEntries.userId, buyer.id));
    expect(entries).toHaveLength(1);
    const stock = await db().select().from(productSizes).where(eq(productSizes.productId, f.mug.id));
    expect(stock[0]!.availableUnits).toBe(8);
    // A second checkout by the same fan adds sales but not a participant.
    const again = await createGroupBuyCheckout(env, {
      user: buyer,
      groupBuyId: f.groupBuyId,
      items: items(f, 1, 0),
      origin: ORIGIN,
    });
    if (!again.ok) throw new Error(again.message);
    await pay(again.sessionId);
    const [g2] = await db().select().from(groupBuys).where(eq(groupBuys.id, f.groupBuyId));
    expect(g2).toMatchObject({ currentSalesCents: 18_182 + 15_909 + 9_091, currentParticipants: 1 });
  });

  it("an order whose stock ran out before the payment is cancelled, refunded in full and taken out of the sales", async () => {
    const f = await fixture();
    const buyer = await makeSessionUser("Sold Out Fan");
    const result = await createGroupBuyCheckout(env, {
      user: buyer,
      groupBuyId: f.groupBuyId,
      items: items(f, 1, 1),
      origin: ORIGIN,
    });
    if (!result.ok) throw new Error(result.message);
    // Someone else bought the last mugs between this checkout and its payment.
    await db().update(productSizes).set({ availableUnits: 0 }).where(eq(productSizes.productId, f.mug.id));
    await pay(result.sessionId);
    await pay(result.sessionId);
    const rows = await db().select().from(orders).where(eq(orders.checkoutSessionId, result.sessionId));
    const mug = rows.find((o) => o.productId === f.mug.id)!;
    const apron = rows.find((o) => o.productId === f.apron.id)!;
    expect(mug).toMatchObject({
      status: "cancelled",
      refundReason: UNFULFILLABLE_REASONS.soldOut,
      refundedCents: 2_000,
      refundState: "full",
    });
    expect(apron.status).not.toBe("cancelled");
    expect(apron.refundedCents).toBe(0);
    const stored = await db().select().from(refunds).where(eq(refunds.orderId, mug.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ amountCents: 2_000, origin: "unfulfillable", status: "succeeded" });
    // Only the apron counts: RM 159.09 of sales, its 10% in the pool, its stock taken and the mug's left alone.
    const [g] = await db().select().from(groupBuys).where(eq(groupBuys.id, f.groupBuyId));
    expect(g).toMatchObject({ currentSalesCents: 15_909, currentParticipants: 1 });
    expect((await poolStub(env, apron.poolId!).state()).amountCents).toBe(350);
    expect(
      (await db().select().from(productSizes).where(eq(productSizes.productId, f.mug.id)))[0]!.availableUnits,
    ).toBe(0);
    expect(
      (await db().select().from(productSizes).where(eq(productSizes.productId, f.apron.id)))[0]!.availableUnits,
    ).toBe(9);
    // Less than half of the payment came back: the fan keeps the entry.
    const entries = await db().select().from(prizeEntries).where(eq(prizeEntries.userId, buyer.id));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.voidedAt ?? null).toBeNull();
  });

  it("a checkout of physical products asks for a shipping address in a country the host ships to, and the orders carry it", async () => {
    const f = await fixture();
    const buyer = await makeSessionUser("Shipping Joiner");
    const result = await createGroupBuyCheckout(env, {
      user: buyer,
      groupBuyId: f.groupBuyId,
      items: items(f, 1, 1),
      origin: ORIGIN,
    });
    if (!result.ok) throw new Error(result.message);
    const checkoutPath = `/api/local-checkout/${result.sessionId}`;
    expect(await (await get(checkoutPath)).text()).toContain("Street address");
    // No address: refused, nothing is paid.
    const bare = await postForm(`${checkoutPath}/pay`, {});
    expect(bare.status).toBe(400);
    expect(await bare.text()).toContain("Please enter the recipient");
    // The host (Malaysia, no list of its own) does not ship to Singapore.
    const address = { name: "Ada Joiner", street: "1 Jalan Ampang", city: "Kuala Lumpur", postal_code: "50450" };
    const abroad = await postForm(`${checkoutPath}/pay`, { ...address, country: "SG" });
    expect(abroad.status).toBe(400);
    expect(await abroad.text()).toContain("This shop does not ship to SG");
    expect(await db().select().from(orders).where(eq(orders.checkoutSessionId, result.sessionId))).toHaveLength(0);
    const paid = await postForm(`${checkoutPath}/pay`, { ...address, country: "MY" });
    expect(paid.status).toBe(303);
    const rows = await db().select().from(orders).where(eq(orders.checkoutSessionId, result.sessionId));
    expect(rows).toHaveLength(2);
    for (const order of rows)
      expect(order.shippingAddress).toMatchObject({ name: "Ada Joiner", city: "Kuala Lumpur", country: "MY" });
  });

  it("Share for 2x Entry gives two entries per checkout", async () => {
    const f = await fixture();
    const buyer = await makeSessionUser("Sharer");
    await db().insert(groupBuyShares).values({ userId: buyer.id, groupBuyId: f.groupBuyId });
    const result = await createGroupBuyCheckout(env, {
      user: buyer,
      groupBuyId: f.groupBuyId,
      items: items(f, 1, 0),
      origin: ORIGIN,
    });
    if (!result.ok) throw new Error(result.message);
    await pay(result.sessionId);
    await pay(result.sessionId);
    const entries = await db().select().from(prizeEntries).where(eq(prizeEntries.userId, buyer.id));
    expect(entries).toHaveLength(2);
  });

  it("refuses a join after the end, the host's own group buy, and a product it does not offer", async () => {
    const ended = await fixture({ endAt: new Date(Date.now() - 1000) });
    const buyer = await makeSessionUser("Late");
    const late = await createGroupBuyCheckout(env, {
      user: buyer,
      groupBuyId: ended.groupBuyId,
      items: items(ended, 1, 0),
      origin: ORIGIN,
    });
    expect(late).toMatchObject({ ok: false, status: 409, message: GROUP_BUY_ACTION_MESSAGES.ended });
    const f = await fixture();
    const hostUser: SessionUser = {
      id: f.host.id,
      email: f.host.email,
      role: "user",
      creatorName: "GB Host",
      avatarUrl: null,
      emailConfirmed: true,
    };
    const own = await createGroupBuyCheckout(env, {
      user: hostUser,
      groupBuyId: f.groupBuyId,
      items: items(f, 1, 0),
      origin: ORIGIN,
    });
    expect(own).toMatchObject({ ok: false, status: 403 });
    const other = await fixture();
    const foreign = await createGroupBuyCheckout(env, {
      user: buyer,
      groupBuyId: f.groupBuyId,
      items: items(other, 1, 0),
      origin: ORIGIN,
    });
    expect(foreign).toMatchObject({ ok: false, status: 404 });
    expect(await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, buyer.id))).toHaveLength(0);
  });
});

describe("/group-buy-product-selection", () => {
  it("shows each product's sizes and colours with stock and a stepper; an empty join is refused with the message", async () => {
    const f = await fixture();
    const html = await (await get(`/group-buy-product-selection/${f.groupBuyId}`)).text();
    expect(html).toContain("Mug");
    expect(html).toContain("One Size (10 left)");
    expect(html).toContain("Blue (10 left)");
    expect(html).toContain("Join Group Buy");
    const buyer = await makeUser({ name: "Empty Joiner" });
    const cookie = await signIn(buyer.email);
    const res = await postForm(`/group-buy-product-selection/${f.groupBuyId}`, {}, { cookie });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(GROUP_BUY_ACTION_MESSAGES.selectProduct);
    // A tampered quantity gets the form's words, not the validator's.
    for (const quantity of ["-2", "1000", "1.5", "abc"]) {
      const bad = await postForm(
        `/group-buy-product-selection/${f.groupBuyId}`,
        { productId: f.mug.id, sizeName: "One Size", colorName: "Blue", quantity },
        { cookie },
      );
      expect(bad.status, quantity).toBe(400);
      const text = (await bad.text()).replace(/<!-- -->/g, "");
      expect(text, quantity).toContain("Please choose a quantity from 0 to 99");
      expect(text, quantity).not.toMatch(/Too (small|big)|Invalid input/);
    }
    const ok = await postForm(
      `/group-buy-product-selection/${f.groupBuyId}`,
      { productId: f.mug.id, sizeName: "One Size", colorName: "Blue", quantity: "2" },
      { cookie },
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toContain("/api/local-checkout/");

    // A visitor is asked to sign in, with a link back to this page, and nothing is started.
    const visitor = await postForm(`/group-buy-product-selection/${f.groupBuyId}`, {
      productId: f.mug.id,
      sizeName: "One Size",
      colorName: "Blue",
      quantity: "1",
    });
    expect(visitor.status).toBe(401);
    const page = await visitor.text();
    expect(page).toContain("Please sign in to make a payment");
    expect(page).toContain(`/signin?redirectTo=${encodeURIComponent(`/group-buy-product-selection/${f.groupBuyId}`)}`);
  });
});

describe("/group-buy-product-selection with a digital product", () => {
  it("says it is sold one at a time, and the checkout refuses two", async () => {
    const f = await fixture();
    const [ebook] = await db()
      .insert(products)
      .values({ hostId: f.host.id, name: "Recipe E-book", category: "digital" })
      .returning();
    await db()
      .insert(productSizes)
      .values({ productId: ebook!.id, name: "PDF", priceCents: 900, availableUnits: 100, position: 0 });
    await db().insert(groupBuyProducts).values({ groupBuyId: f.groupBuyId, productId: ebook!.id });
    const html = await (await get(`/group-buy-product-selection/${f.groupBuyId}`)).text();
    const card = html.slice(html.indexOf("Recipe E-book"));
    expect(card.slice(0, card.indexOf("</li>"))).toContain("Vouchers and digital items are sold one at a time");
    const buyer = await makeUser({ name: "Two E-books" });
    const res = await postForm(
      `/group-buy-product-selection/${f.groupBuyId}`,
      { productId: ebook!.id, sizeName: "PDF", colorName: "", quantity: "2" },
      { cookie: await signIn(buyer.email) },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Vouchers and digital items are sold one at a time");
    expect(await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, buyer.id))).toHaveLength(0);
  });
});

describe("a group buy's end refunds through the refunds pipeline", () => {
  // A pool's close asks block explorers for a height: no network in tests.
  withoutNetwork();

  it("a tier refund while the pool is open takes the pool share back and keeps the entry; each refund is recorded", async () => {
    const f = await fixture();
    const buyer = await makeSessionUser("Tier Fan");
    const result = await createGroupBuyCheckout(env, {
      user: buyer,
      groupBuyId: f.groupBuyId,
      items: items(f, 1, 0),
      origin: ORIGIN,
    });
    if (!result.ok) throw new Error(result.message);
    await pay(result.sessionId);
    const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, result.sessionId));
    const before = await poolStub(env, order!.poolId!).state();
    // Ended with its (lowered) target met: the 5% tier.
    await db()
      .update(groupBuys)
      .set({ endAt: new Date(Date.now() - 1000), targetCents: 5_000 })
      .where(eq(groupBuys.id, f.groupBuyId));
    expect(await closeGroupBuy(env, f.groupBuyId, { mode: "end" })).toMatchObject({ ok: true, refunded: 1 });
    // 5% of USD 20.00 back to the fan; the pool gives back its 10% of that.
    const stored = await db().select().from(refunds).where(eq(refunds.orderId, order!.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ amountCents: 100, origin: "group_buy", status: "succeeded" });
    expect((await db().select().from(orders).where(eq(orders.id, order!.id)))[0]).toMatchObject({
      refundedCents: 100,
      refundState: "partial",
    });
    const after = await poolStub(env, order!.poolId!).state();
    expect(after.amountCents).toBe(before.amountCents - 10);
    expect(after.entries).toBe(before.entries);
  });

  it("cancelled after the pool closed: the frozen pool keeps its amount and the host carries the share", async () => {
    const f = await fixture();
    const buyer = await makeSessionUser("Late Cancel Fan");
    const result = await createGroupBuyCheckout(env, {
      user: buyer,
      groupBuyId: f.groupBuyId,
      items: items(f, 1, 1),
      origin: ORIGIN,
    });
    if (!result.ok) throw new Error(result.message);
    await pay(result.sessionId);
    const rows = await db().select().from(orders).where(eq(orders.checkoutSessionId, result.sessionId));
    const poolId = rows[0]!.poolId!;
    await closePool(env, poolId, "closed_early");
    const before = await poolStub(env, poolId).state();
    expect(await closeGroupBuy(env, f.groupBuyId, { mode: "cancel", hostId: f.host.id })).toMatchObject({
      ok: true,
      refunded: 2,
    });
    expect(await poolStub(env, poolId).state()).toMatchObject({
      amountCents: before.amountCents,
      entries: before.entries,
    });
    const stored = await db().select().from(refunds).where(eq(refunds.checkoutSessionId, result.sessionId));
    expect(stored.map((r) => r.amountCents).sort()).toEqual([2_000, 3_500]);
    const debits = await db().select().from(hostDebits).where(eq(hostDebits.hostId, f.host.id));
    expect(debits.map((d) => d.reversalKey).sort()).toEqual(stored.map((r) => r.id).sort());
    // The whole pool share of the checkout (10% of USD 55.00) is the host's to carry.
    expect(debits.reduce((sum, d) => sum + d.amountCents, 0)).toBe(550);
  });
});
