import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  checkoutSessions,
  groupBuyProducts,
  groupBuys,
  groupBuyTiers,
  productColors,
  products,
  productSizes,
  userProfiles,
} from "~/db/schema";
import { closeGroupBuy } from "~/lib/payments/refunds/group-buy-close.server";
import { requestRefund } from "~/lib/payments/refunds/refund-request.server";
import { db, makeUser, postForm, signIn, withoutNetwork } from "./helpers";
import { BUYER_ADDRESS, checkoutSessionEvent, deliverWebhook, stripeEvent } from "./support/webhooks";
import { expectConserved, moneyOf } from "./support/conservation";
import { joinGroupBuyPaid } from "./support/group-buy-join";

// One payment for several orders (a group-buy join, a cart) puts one contribution in the host's pool, while the
// host's earnings ledger books every refund per order. The pool gives back each order's share by the one rule of
// money flowing back (decision 380, amended): the sum over the orders of what each order's share gives back at its
// own refunded level, so the pool gives back, to the cent, the pool share the ledger books. Before, the pool took
// the rule once over the whole payment, and the roundings differed by a cent or more per join or cart.

withoutNetwork();

const ids = () => crypto.randomUUID().replace(/-/g, "");

/** Odd prices whose 10% pool shares round differently per order than over their sum. */
const GROUP_BUY_PRICES = [2_345, 1_999, 1_501, 777, 3_333, 1_234, 999];
const CART_PRICES = [1_299, 2_345, 777, 999, 1_501, 3_333];

async function newHost(name: string) {
  const host = await makeUser({ name });
  await db().update(userProfiles).set({ country: "MY" }).where(eq(userProfiles.userId, host.id));
  return host;
}

async function newProduct(hostId: string, name: string, priceCents: number, category: "physical" | "digital") {
  const [product] = await db().insert(products).values({ hostId, name, category }).returning();
  await db()
    .insert(productSizes)
    .values({ productId: product!.id, name: "One Size", priceCents, availableUnits: 10, position: 0 });
  return product!;
}

/** A dashboard refund (no metadata) of the payment, which the app splits over its orders. */
function dashboardRefund(paymentIntent: string, amount: number) {
  const refund = {
    id: `re_test_${ids()}`,
    object: "refund",
    amount,
    currency: "usd",
    status: "succeeded",
    payment_intent: paymentIntent,
    charge: null,
    metadata: {},
  };
  return stripeEvent("refund.created", refund);
}

/** A group buy at a 12% tier from the first RM, and a fan's paid join with one line per price (distinct products). */
async function joinGroupBuy(prices: readonly number[]) {
  const host = await newHost("Join Host");
  const [groupBuy] = await db()
    .insert(groupBuys)
    .values({
      hostId: host.id,
      name: "Many Lines",
      status: "active",
      targetCents: 1_000,
      currency: "MYR",
      endAt: new Date(Date.now() + 86_400_000),
    })
    .returning();
  await db()
    .insert(groupBuyTiers)
    .values({ groupBuyId: groupBuy!.id, salesThresholdCents: 0, discountPercent: 12, position: 0 });
  const items = [];
  for (const [i, price] of prices.entries()) {
    const product = await newProduct(host.id, `Join Mug ${i}`, price, "physical");
    await db().insert(productColors).values({ productId: product.id, name: "Blue", availableUnits: 10 });
    await db().insert(groupBuyProducts).values({ groupBuyId: groupBuy!.id, productId: product.id });
    items.push({ productId: product.id, sizeName: "One Size", colorName: "Blue", quantity: "1" });
  }
  const { row, paymentIntent } = await joinGroupBuyPaid(groupBuy!.id, items, "Join Fan");
  return { groupBuy: groupBuy!, row, paymentIntent };
}

describe("a payment for several orders gives back the pool share the earnings ledger books, to the cent", () => {
  it(
    "a group-buy join of seven orders finalised at a 12% tier, then host refunds and a dashboard refund",
    { timeout: 120_000 },
    async () => {
      const { groupBuy, row, paymentIntent } = await joinGroupBuy(GROUP_BUY_PRICES);
      const joined = await moneyOf(row.id);
      expect(joined.orders).toHaveLength(GROUP_BUY_PRICES.length);
      // Each order's 10% share, rounded per order: 1,219 in the pool.
      expect(joined.poolCents).toBe(1_219);

      await db()
        .update(groupBuys)
        .set({ endAt: new Date(Date.now() - 1_000) })
        .where(eq(groupBuys.id, groupBuy.id));
      expect(await closeGroupBuy(env, groupBuy.id, { mode: "end" })).toMatchObject({
        ok: true,
        refunded: GROUP_BUY_PRICES.length,
      });
      const finalised = await expectConserved(row.id, "tier refunds");
      // 14.66 of tier refunds; each order's share gives back its own part (144 in all; the payment as a whole: 146).
      expect(finalised.refundedCents).toBe(1_466);
      expect(joined.poolCents - finalised.poolCents).toBe(144);

      // Host refunds of parts of two orders, then a dashboard refund split over every order.
      const byPrice = (price: number) => finalised.orders.find((o) => o.amountCents === price)!;
      for (const [price, amount] of [
        [1_999, 433],
        [777, 101],
      ] as const) {
        const refunded = await requestRefund(env, {
          checkoutSessionId: row.id,
          orderId: byPrice(price).id,
          amountCents: amount,
          origin: "host",
          reason: null,
          idempotencyKey: ids(),
        });
        expect(refunded).toMatchObject({ ok: true });
        await expectConserved(row.id, `host refund of ${amount}`);
      }
      expect((await deliverWebhook(dashboardRefund(paymentIntent, 1_777))).status).toBe(200);
      const after = await expectConserved(row.id, "dashboard refund");
      expect(after.refundedCents).toBe(1_466 + 433 + 101 + 1_777);
    },
  );

  it(
    "a cart of six orders from one host, partly refunded order by order and by a dashboard refund",
    { timeout: 120_000 },
    async () => {
      const host = await newHost("Cart Host");
      const fan = await makeUser({ name: "Cart Fan" });
      const cookie = await signIn(fan.email);
      for (const [i, price] of CART_PRICES.entries()) {
        const product = await newProduct(host.id, `Cart Print ${i}`, price, "digital");
        expect(
          (await postForm("/cart", { intent: "add", productId: product.id, size: "One Size" }, { cookie })).status,
        ).toBe(303);
      }
      expect((await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie })).status).toBe(302);
      const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, fan.id));
      const paymentIntent = `pi_test_${ids()}`;
      expect(
        (
          await deliverWebhook(
            checkoutSessionEvent(row!, {
              buyerName: "Cart Fan",
              address: BUYER_ADDRESS,
              overrides: { payment_intent: paymentIntent },
            }),
          )
        ).status,
      ).toBe(200);
      const paid = await expectConserved(row.id, "paid");
      expect(paid.orders).toHaveLength(CART_PRICES.length);
      const byPrice = (price: number) => paid.orders.find((o) => o.amountCents === price)!;
      // Parts of five orders: per order the pool gives back 356 in all (the host's part as a whole: 357).
      for (const [price, amount] of [
        [1_299, 433],
        [2_345, 1_001],
        [777, 250],
        [1_501, 777],
        [3_333, 1_111],
      ] as const) {
        const refunded = await requestRefund(env, {
          checkoutSessionId: row.id,
          orderId: byPrice(price).id,
          amountCents: amount,
          origin: "host",
          reason: null,
          idempotencyKey: ids(),
        });
        expect(refunded).toMatchObject({ ok: true });
        await expectConserved(row.id, `refund of ${amount}`);
      }
      expect(paid.poolCents - (await moneyOf(row.id)).poolCents).toBe(356);
      expect((await deliverWebhook(dashboardRefund(paymentIntent, 2_024))).status).toBe(200);
      const after = await expectConserved(row.id, "dashboard refund");
      expect(after.refundedCents).toBe(433 + 1_001 + 250 + 777 + 1_111 + 2_024);
    },
  );

  it(
    "a lost dispute of a whole 40-order join is stored on every order (one statement binding every part was refused), and the end sends no tier refund",
    { timeout: 180_000 },
    async () => {
      const prices = Array.from({ length: 40 }, (_, i) => 1_001 + 37 * i);
      const { groupBuy, row, paymentIntent } = await joinGroupBuy(prices);
      const paid = await moneyOf(row.id);
      expect(paid.orders).toHaveLength(40);
      const dispute = {
        id: `dp_test_${ids()}`,
        object: "dispute",
        amount: paid.capturedCents,
        currency: "usd",
        status: "lost",
        payment_intent: paymentIntent,
        charge: null,
      };
      const response = await deliverWebhook(stripeEvent("charge.dispute.closed", dispute));
      expect(response.status, await response.clone().text()).toBe(200);
      const disputed = await expectConserved(row.id, "lost dispute");
      expect(disputed.orders.every((o) => o.refundedCents === o.amountCents && o.refundState === "full")).toBe(true);
      expect(disputed.poolCents).toBe(0);
      await db()
        .update(groupBuys)
        .set({ endAt: new Date(Date.now() - 1_000) })
        .where(eq(groupBuys.id, groupBuy.id));
      expect(await closeGroupBuy(env, groupBuy.id, { mode: "end" })).toMatchObject({ ok: true, refunded: 0 });
      const ended = await expectConserved(row.id, "group buy ended");
      expect(ended.refundedCents).toBe(paid.capturedCents);
    },
  );
});
