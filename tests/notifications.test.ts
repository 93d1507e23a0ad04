import { env } from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  checkoutSessions,
  groupBuyProducts,
  groupBuys,
  groupBuyTiers,
  mailOutbox,
  notificationDeliveries,
  notifications,
  products,
  productSizes,
  userProfiles,
} from "~/db/schema";
import { createCartCheckout } from "~/lib/payments/checkout/cart-checkout.server";
import { createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { createGroupBuyCheckout, GroupBuySelectionSchema } from "~/lib/payments/checkout/group-buy-checkout.server";
import { fulfilCheckoutSession } from "~/lib/payments/fulfil/fulfil.server";
import { runScheduled } from "../workers/scheduled";
import { db, makeUser, ORIGIN, postForm, sessionUserOf, signIn, withoutNetwork } from "./helpers";
import { checkoutSessionEvent, deliverWebhook } from "./support/webhooks";

// Every fact becomes one notification per recipient (its key names the fact), one outbox mail and one push per
// allowed channel, whoever tells it and however often: the webhook, the payment page's confirmation and the cron
// racing, or a step run three times (docs/product.md#notifications, decision 570).

withoutNetwork();

async function product(
  hostId: string,
  name: string,
  opts: { units?: number; category?: "physical" | "digital" | "voucher"; priceCents?: number } = {},
) {
  const [p] = await db()
    .insert(products)
    .values({
      hostId,
      name,
      category: opts.category ?? "physical",
      status: "active",
      voucherValueCents: opts.category === "voucher" ? 5_000 : null,
    })
    .returning();
  const [size] = await db()
    .insert(productSizes)
    .values({
      productId: p!.id,
      name: "One Size",
      priceCents: opts.priceCents ?? 2_000,
      availableUnits: opts.units ?? 50,
      position: 0,
    })
    .returning();
  return { ...p!, sizeId: size!.id };
}

async function checkoutRow(id: string) {
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
  return row!;
}

async function buyNow(buyer: { id: string; email: string }, productId: string, quantity = 1) {
  const started = await createProductCheckout(env, {
    user: sessionUserOf(buyer),
    productId,
    sizeName: "One Size",
    quantity,
    origin: ORIGIN,
  });
  if (!started.ok) throw new Error(JSON.stringify(started));
  return checkoutRow(started.sessionId);
}

/** The checkout session object the payment page's confirmation fulfils from (as the provider reports it). */
function sessionObject(row: Awaited<ReturnType<typeof checkoutRow>>) {
  return checkoutSessionEvent(row, { address: null }).data.object as Parameters<typeof fulfilCheckoutSession>[1];
}

async function inbox(userId: string) {
  return db()
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.createdAt), asc(notifications.id));
}

async function mailsTo(address: string) {
  return db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, address)).orderBy(asc(mailOutbox.createdAt));
}

describe("an order, told once whoever tells it", () => {
  it("the webhook (twice), the payment page and the cron racing make one confirmation and one New order each", async () => {
    const host = await makeUser({ name: "Race Host" });
    const fan = await makeUser({ name: "Race Fan" });
    const item = await product(host.id, "Rattan Basket");
    const row = await buyNow(fan, item.id);
    const event = checkoutSessionEvent(row, { address: null });
    const [a, b] = await Promise.all([
      deliverWebhook(event),
      deliverWebhook(checkoutSessionEvent(row, { address: null })),
      fulfilCheckoutSession(env, sessionObject(row)),
      runScheduled(env, new Date()),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    // A step run three times more changes nothing.
    for (let i = 0; i < 3; i++) await fulfilCheckoutSession(env, sessionObject(row));
    await runScheduled(env, new Date());

    const fanInbox = await inbox(fan.id);
    expect(fanInbox.map((n) => [n.kind, n.key])).toEqual([["order_confirmed", `order-confirmed:${row.id}`]]);
    expect(fanInbox[0]!.subject).toBe("Order confirmed: Rattan Basket");
    const hostInbox = await inbox(host.id);
    expect(hostInbox.map((n) => [n.kind, n.key])).toEqual([["sale", `new-order:${row.id}`]]);

    const fanMails = await mailsTo(fan.email);
    expect(fanMails.map((m) => m.subject)).toEqual(["Order confirmed: Rattan Basket"]);
    expect(fanMails[0]!.textBody).toContain("1 x Rattan Basket (One Size): USD 20.00");
    expect(fanMails[0]!.htmlBody).toContain("Rattan Basket");
    // Mail about a purchase is transactional: no unsubscribe.
    expect(fanMails[0]!.headers).toBeNull();
    const hostMails = await mailsTo(host.email);
    expect(hostMails).toHaveLength(1);
    expect(hostMails[0]!.subject).toMatch(/^New order ORD-\w{8}: Rattan Basket$/);
    expect(hostMails[0]!.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(hostMails[0]!.headers?.["List-Unsubscribe"]).toMatch(/^<https?:\/\/[^>]+\/unsubscribe\?u=.+&c=sales&s=.+>$/);
    expect(hostMails[0]!.textBody).toContain("Stop these e-mails: ");

    const deliveries = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.notificationId, fanInbox[0]!.id));
    expect(deliveries.map((d) => [d.channel, d.status, d.attempts])).toEqual([["email", "sent", 1]]);
  });

  it("a cart names each voucher code and download and tells each host of their part", async () => {
    const voucherHost = await makeUser({ name: "Voucher Host" });
    const digitalHost = await makeUser({ name: "Digital Host" });
    const fan = await makeUser({ name: "Cart Fan" });
    const cookie = await signIn(fan.email);
    const spa = await product(voucherHost.id, "Spa Voucher", { category: "voucher" });
    const ebook = await product(digitalHost.id, "Batik Patterns", { category: "digital" });
    for (const p of [spa, ebook])
      expect(
        (await postForm("/cart", { intent: "add", productId: p.id, sizeName: "One Size", quantity: "1" }, { cookie }))
          .status,
      ).toBeLessThan(400);
    const started = await createCartCheckout(env, { user: sessionUserOf(fan), origin: ORIGIN });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const row = await checkoutRow(started.sessionId);
    expect((await deliverWebhook(checkoutSessionEvent(row, { address: null }))).status).toBe(200);
    expect((await deliverWebhook(checkoutSessionEvent(row, { address: null }))).status).toBe(200);

    const [confirmation, ...more] = await mailsTo(fan.email);
    expect(more).toEqual([]);
    expect(confirmation!.subject).toBe("Order confirmed: 2 items");
    expect(confirmation!.textBody).toMatch(/Voucher code: VCH-[A-Z0-9]{8}/);
    expect(confirmation!.textBody).toMatch(/Download it from your order: https?:\/\/\S+\/order\/ORD-/);
    expect((await mailsTo(voucherHost.email)).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^New order ORD-[\w-]+: Spa Voucher$/),
    ]);
    expect((await mailsTo(digitalHost.email)).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^New order ORD-[\w-]+: Batik Patterns$/),
    ]);
  });

  it("a group buy's host gets a New order mail, and its fans hear once when a tier is reached", async () => {
    const host = await makeUser({ name: "GB Host" });
    const mug = await product(host.id, "Clay Mug", { priceCents: 50_000 });
    const [g] = await db()
      .insert(groupBuys)
      .values({
        hostId: host.id,
        name: "Kitchen",
        status: "active",
        targetCents: 500_000,
        currency: "MYR",
        endAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    await db()
      .insert(groupBuyTiers)
      .values([
        { groupBuyId: g!.id, salesThresholdCents: 0, discountPercent: 5, position: 0 },
        { groupBuyId: g!.id, salesThresholdCents: 300_000, discountPercent: 15, position: 1 },
      ]);
    await db().insert(groupBuyProducts).values({ groupBuyId: g!.id, productId: mug.id });
    const join = async (name: string) => {
      const fan = await makeUser({ name });
      const started = await createGroupBuyCheckout(env, {
        user: sessionUserOf(fan),
        groupBuyId: g!.id,
        items: GroupBuySelectionSchema.parse({ items: [{ productId: mug.id, sizeName: "One Size", quantity: "1" }] })
          .items,
        origin: ORIGIN,
      });
      if (!started.ok) throw new Error(started.message);
      const row = await checkoutRow(started.sessionId);
      for (let i = 0; i < 3; i++)
        expect((await deliverWebhook(checkoutSessionEvent(row, { address: null }))).status).toBe(200);
      return { fan, row };
    };
    const first = await join("First Joiner");
    const hostMails = await mailsTo(host.email);
    expect(hostMails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^New group-buy order ORD-\w{8}: Clay Mug$/),
    ]);
    expect(hostMails[0]!.textBody).toContain("in your group buy");
    expect((await mailsTo(first.fan.email)).map((m) => m.subject)).toEqual(["Order confirmed: Clay Mug"]);

    // USD 500 a mug is well over RM 3,000 at the rate table: the second join reaches the 15% tier.
    const second = await join("Second Joiner");
    await runScheduled(env, new Date());
    await runScheduled(env, new Date());
    for (const fan of [first.fan, second.fan]) {
      const tier = (await inbox(fan.id)).filter((n) => n.kind === "group_buy");
      expect(tier.map((n) => n.subject)).toEqual(['Group buy "Kitchen" reached 15% off']);
      expect((await mailsTo(fan.email)).filter((m) => m.subject.includes("reached"))).toHaveLength(1);
    }
  });
});

describe("bank transfers", () => {
  it("pending, then arrived: the fan hears that it waits and then that it arrived, once each", async () => {
    const host = await makeUser({ name: "Transfer Host" });
    const fan = await makeUser({ name: "Transfer Fan" });
    const item = await product(host.id, "Woven Mat");
    const row = await buyNow(fan, item.id);
    const pending = checkoutSessionEvent(row, { address: null, overrides: { payment_status: "unpaid" } });
    expect((await deliverWebhook(pending)).status).toBe(200);
    expect(
      (await deliverWebhook(checkoutSessionEvent(row, { address: null, overrides: { payment_status: "unpaid" } })))
        .status,
    ).toBe(200);
    expect((await inbox(fan.id)).map((n) => n.subject)).toEqual(["Awaiting your bank transfer"]);

    const arrived = checkoutSessionEvent(row, { type: "checkout.session.async_payment_succeeded", address: null });
    expect((await deliverWebhook(arrived)).status).toBe(200);
    expect((await inbox(fan.id)).map((n) => n.subject)).toEqual([
      "Awaiting your bank transfer",
      "Payment received, order confirmed: Woven Mat",
    ]);
    expect((await mailsTo(fan.email)).map((m) => m.subject)).toEqual([
      "Awaiting your bank transfer",
      "Payment received, order confirmed: Woven Mat",
    ]);
  });

  it("pending, then failed: the fan is told nothing was bought", async () => {
    const host = await makeUser({ name: "Failed Host" });
    const fan = await makeUser({ name: "Failed Fan" });
    const row = await buyNow(fan, (await product(host.id, "Bamboo Tray")).id);
    await deliverWebhook(checkoutSessionEvent(row, { address: null, overrides: { payment_status: "unpaid" } }));
    for (let i = 0; i < 2; i++) {
      const failed = checkoutSessionEvent(row, {
        type: "checkout.session.async_payment_failed",
        address: null,
        overrides: { payment_status: "unpaid" },
      });
      expect((await deliverWebhook(failed)).status).toBe(200);
    }
    expect((await mailsTo(fan.email)).map((m) => m.subject)).toEqual([
      "Awaiting your bank transfer",
      "Your bank transfer did not go through",
    ]);
    expect(await mailsTo(host.email)).toEqual([]);
  });
});

describe("low stock", () => {
  it("mails the host once each time a size goes from above 10 units to 10 or fewer", async () => {
    const host = await makeUser({ name: "Stock Host" });
    const item = await product(host.id, "Linen Scarf", { units: 12 });
    const buy = async (quantity: number) => {
      const fan = await makeUser({ name: "Stock Fan" });
      const row = await buyNow(fan, item.id, quantity);
      for (let i = 0; i < 2; i++) await deliverWebhook(checkoutSessionEvent(row, { address: null }));
    };
    const lowStockMails = async () =>
      (await mailsTo(host.email)).filter((m) => m.subject === "Low stock: Linen Scarf (One Size)");
    await buy(1); // 11 left
    expect(await lowStockMails()).toHaveLength(0);
    await buy(1); // 10 left: crossed
    expect(await lowStockMails()).toHaveLength(1);
    expect((await lowStockMails())[0]!.textBody).toContain("has 10 units left");
    await buy(2); // 8 left: still low, no new crossing
    expect(await lowStockMails()).toHaveLength(1);
    // Restocked, then sold down past the line again: a new crossing.
    await db().update(productSizes).set({ availableUnits: 14 }).where(eq(productSizes.id, item.sizeId));
    await buy(5); // 9 left
    expect(await lowStockMails()).toHaveLength(2);
    expect((await inbox(host.id)).filter((n) => n.kind === "low_stock")).toHaveLength(2);
  });
});

describe("switches", () => {
  it("a switch turned off stops that category's mail but not the inbox", async () => {
    const host = await makeUser({ name: "Quiet Host" });
    await db().update(userProfiles).set({ salesNotifications: false }).where(eq(userProfiles.userId, host.id));
    const fan = await makeUser({ name: "Quiet Fan" });
    await db()
      .update(userProfiles)
      .set({
        emailNotifications: false,
        salesNotifications: false,
        winnerNotifications: false,
        poolNotifications: false,
      })
      .where(eq(userProfiles.userId, fan.id));
    const row = await buyNow(fan, (await product(host.id, "Silent Bowl")).id);
    await deliverWebhook(checkoutSessionEvent(row, { address: null }));
    // The host's sale: in the inbox, not mailed.
    expect((await inbox(host.id)).map((n) => n.kind)).toEqual(["sale"]);
    expect(await mailsTo(host.email)).toEqual([]);
    const hostDeliveries = await db()
      .select()
      .from(notificationDeliveries)
      .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
      .where(and(eq(notifications.userId, host.id)));
    expect(hostDeliveries).toEqual([]);
    // The fan's confirmation is transactional: mailed whatever the switches say.
    expect((await mailsTo(fan.email)).map((m) => m.subject)).toEqual(["Order confirmed: Silent Bowl"]);
  });
});
