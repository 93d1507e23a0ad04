import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  checkoutSessions,
  orders,
  paymentEvents,
  paymentProcessingFees,
  productColors,
  products,
  productSizes,
  refunds,
  vouchers,
} from "~/db/schema";
import { createHostDepositCheckout, createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { confirmCheckout } from "~/lib/payments/webhook/confirm.server";
import { LOCAL_WEBHOOK_SECRET } from "~/lib/payments/providers/provider.server";
import { poolStub } from "~/lib/pools.server";
import { localCheckout } from "../workers/local-checkout";
import { webhooks } from "../workers/webhooks";
import { simulatedProcessingFeeCents, UNFULFILLABLE_REASONS } from "~/domain/payments";
import { db, get, makeSessionUser, makeUser, ORIGIN, postForm, signIn } from "./helpers";
import { BUYER_ADDRESS, checkoutSessionEvent, deliverWebhook, stripeEvent, stripeSignature } from "./support/webhooks";

// Events are signed with Stripe's own SDK and POSTed to the built worker's /api/webhooks/stripe. With no Stripe
// key configured (tests), the webhook's secret is the local provider's.

const SECRET = LOCAL_WEBHOOK_SECRET;

type Category = "physical" | "digital" | "voucher";

/** A host's product with sizes Small (USD 25) / Large (USD 40), 10 units each, and colour Red (10 units). */
async function productFixture(category: Category = "physical") {
  const host = await makeUser({ name: "Host" });
  const [product] = await db()
    .insert(products)
    .values({
      hostId: host.id,
      name: category === "voucher" ? "Cooking Class" : "Linen Runner",
      category,
      voucherValueCents: category === "voucher" ? 5000 : null,
      voucherExpiresAt: category === "voucher" ? new Date(Date.now() + 90 * 86_400_000) : null,
    })
    .returning();
  const [small, large] = await db()
    .insert(productSizes)
    .values([
      { productId: product!.id, name: "Small", priceCents: 2500, availableUnits: 10, position: 0 },
      { productId: product!.id, name: "Large", priceCents: 4000, availableUnits: 10, position: 1 },
    ])
    .returning();
  const [red] = await db()
    .insert(productColors)
    .values({ productId: product!.id, name: "Red", availableUnits: 10 })
    .returning();
  return { host, product: product!, small: small!, large: large!, red: red! };
}

/** A product checkout started through the local provider: Large × quantity, Red. */
async function startCheckout(category: Category = "physical", quantity = 2) {
  const fixture = await productFixture(category);
  const user = await makeSessionUser();
  const result = await createProductCheckout(env, {
    user,
    productId: fixture.product.id,
    sizeName: "Large",
    colorName: "Red",
    quantity,
    origin: ORIGIN,
  });
  if (!result.ok) throw new Error(result.message);
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, result.sessionId));
  return { ...fixture, user, sessionId: result.sessionId, row: row! };
}

/** A Stripe-shaped event for a checkout session (paid by Ada Buyer, shipping to George Town). */
const sessionEvent = (
  type: string,
  row: typeof checkoutSessions.$inferSelect,
  overrides: Record<string, unknown> = {},
  eventId?: string,
) =>
  JSON.stringify(
    checkoutSessionEvent(row, { type, overrides, eventId, buyerName: "Ada Buyer", address: BUYER_ADDRESS }),
  );

async function ordersFor(sessionId: string) {
  return db().select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
}

async function units(sizeId: string, colourId: string) {
  const [size] = await db().select().from(productSizes).where(eq(productSizes.id, sizeId));
  const [colour] = await db().select().from(productColors).where(eq(productColors.id, colourId));
  return { size: size!.availableUnits, colour: colour!.availableUnits };
}

async function eventStatus(id: string) {
  const [row] = await db().select().from(paymentEvents).where(eq(paymentEvents.id, id));
  return row?.status;
}

/** The contributions in the pool's ledger (its Durable Object) for a checkout. */
async function ledgerFor(poolId: string, sessionId: string) {
  const entries = await poolStub(env, poolId).entries();
  const state = await poolStub(env, poolId).state();
  return { entries: entries.filter((e) => e.sourceKey === `checkout:${sessionId}`), state };
}

describe("webhook signature", () => {
  it("refuses a wrong signature with 400 and records nothing", async () => {
    const { row, sessionId } = await startCheckout();
    const eventId = `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const payload = sessionEvent("checkout.session.completed", row, {}, eventId);
    const res = await deliverWebhook(payload, { secret: "whsec_not_the_right_secret" });
    expect(res.status).toBe(400);
    expect(await eventStatus(eventId)).toBeUndefined();
    expect(await ordersFor(sessionId)).toHaveLength(0);

    const unsigned = await SELF.fetch(`${ORIGIN}/api/webhooks/stripe`, { method: "POST", body: payload });
    expect(unsigned.status).toBe(400);
    const tampered = await SELF.fetch(`${ORIGIN}/api/webhooks/stripe`, {
      method: "POST",
      headers: { "Stripe-Signature": await stripeSignature(payload) },
      body: payload.replace(`"amount_total":${row.amountCents}`, `"amount_total":1`),
    });
    expect(tampered.status).toBe(400);
    expect(await eventStatus(eventId)).toBeUndefined();
  });

  it("refuses a stale timestamp (10 minutes old) with 400", async () => {
    const { row, sessionId } = await startCheckout();
    const eventId = `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const payload = sessionEvent("checkout.session.completed", row, {}, eventId);
    const res = await deliverWebhook(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(res.status).toBe(400);
    expect(await eventStatus(eventId)).toBeUndefined();
    expect(await ordersFor(sessionId)).toHaveLength(0);
  });
});

describe("webhook fulfilment", () => {
  it("applies an event delivered 5 times in a row exactly once", async () => {
    const { row, sessionId, large, red, user, host, product } = await startCheckout("physical", 2);
    const eventId = `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const payload = sessionEvent("checkout.session.completed", row, {}, eventId);

    const bodies: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await deliverWebhook(payload);
      expect(res.status).toBe(200);
      bodies.push(await res.json());
    }
    expect(bodies[0]).toEqual({ received: true });
    for (const body of bodies.slice(1)) expect(body).toEqual({ received: true, duplicate: true });
    expect(await eventStatus(eventId)).toBe("processed");

    const list = await ordersFor(sessionId);
    expect(list).toHaveLength(1);
    const order = list[0]!;
    expect(order).toMatchObject({
      orderNumber: `ORD-${sessionId.slice(-8).toUpperCase()}`,
      userId: user.id,
      hostId: host.id,
      productId: product.id,
      status: "processing",
      purchaseMode: "buy-now",
      amountCents: 8000,
      unitPriceCents: 4000,
      currency: "USD",
      quantity: 2,
      sizeName: "Large",
      colorName: "Red",
      customerEmail: user.email,
      productName: "Linen Runner",
      productCategory: "physical",
      paymentIntentId: `pi_test_${sessionId.slice(-12)}`,
    });
    expect(order.shippingAddress).toMatchObject({ city: "George Town", country: "MY", postal_code: "10200" });
    expect(await units(large.id, red.id)).toEqual({ size: 8, colour: 8 });

    const [paidRow] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    expect(paidRow).toMatchObject({ status: "complete", paymentStatus: "paid" });

    // One contribution of 10% (shop sales) with one entry, recorded on the order.
    expect(order.poolId).toBeTruthy();
    expect(order.entryNumber).toBe(0);
    const ledger = await ledgerFor(order.poolId!, sessionId);
    expect(ledger.entries).toHaveLength(1);
    expect(ledger.state).toMatchObject({ amountCents: 800, entries: 1 });

    const [sale] = await db().select().from(products).where(eq(products.id, product.id));
    expect(sale).toMatchObject({ salesCount: 2, revenueCents: 8000 });
  });

  it("applies an event delivered 5 times concurrently exactly once", async () => {
    const { row, sessionId, large, red } = await startCheckout("physical", 3);
    const payload = sessionEvent("checkout.session.completed", row);
    const responses = await Promise.all(Array.from({ length: 5 }, () => deliverWebhook(payload)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    const list = await ordersFor(sessionId);
    expect(list).toHaveLength(1);
    expect(await units(large.id, red.id)).toEqual({ size: 7, colour: 7 });
    const ledger = await ledgerFor(list[0]!.poolId!, sessionId);
    expect(ledger.entries).toHaveLength(1);
    expect(ledger.state).toMatchObject({ amountCents: 1200, entries: 1 });
  });

  it("fulfils once when different events for the same session race", async () => {
    const { row, sessionId, large, red } = await startCheckout("physical", 1);
    const payloads = Array.from({ length: 4 }, () => sessionEvent("checkout.session.completed", row));
    payloads.push(sessionEvent("checkout.session.async_payment_succeeded", row));
    const responses = await Promise.all(payloads.map((p) => deliverWebhook(p)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await ordersFor(sessionId)).toHaveLength(1);
    expect(await units(large.id, red.id)).toEqual({ size: 9, colour: 9 });
  });

  it("creates nothing for an unpaid completed session until its async payment succeeds", async () => {
    const { row, sessionId, large, red } = await startCheckout("physical", 1);
    const completed = await deliverWebhook(
      sessionEvent("checkout.session.completed", row, { payment_status: "unpaid" }),
    );
    expect(completed.status).toBe(200);
    expect(await ordersFor(sessionId)).toHaveLength(0);
    expect(await units(large.id, red.id)).toEqual({ size: 10, colour: 10 });
    const [pending] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    expect(pending).toMatchObject({ status: "complete", paymentStatus: "unpaid" });

    const succeeded = await deliverWebhook(sessionEvent("checkout.session.async_payment_succeeded", row));
    expect(succeeded.status).toBe(200);
    expect(await ordersFor(sessionId)).toHaveLength(1);
    expect(await units(large.id, red.id)).toEqual({ size: 9, colour: 9 });
  });

  it("acknowledges an unknown event type with 200 and marks it ignored", async () => {
    const eventId = `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const payload = JSON.stringify({
      id: eventId,
      object: "event",
      type: "customer.created",
      data: { object: { id: "cus_1", object: "customer" } },
    });
    const res = await deliverWebhook(payload);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true });
    expect(await eventStatus(eventId)).toBe("ignored");
  });

  it("acknowledges malformed JSON with a valid signature and creates nothing", async () => {
    const { sessionId } = await startCheckout();
    const eventId = `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const payload = `{"id":"${eventId}","type":"checkout.session.completed","data":{"object":{"id":"${sessionId}"`;
    const res = await deliverWebhook(payload);
    expect(res.status).toBe(200);
    expect(await eventStatus(eventId)).toBeUndefined();
    expect(await ordersFor(sessionId)).toHaveLength(0);

    // Valid JSON but not a checkout session: acknowledged, nothing fulfilled.
    const odd = JSON.stringify({ id: eventId, type: "checkout.session.completed", data: { object: { id: 42 } } });
    expect((await deliverWebhook(odd)).status).toBe(200);
    expect(await eventStatus(eventId)).toBe("ignored");
    expect(await ordersFor(sessionId)).toHaveLength(0);
  });

  it("acknowledges a session it does not know", async () => {
    const { row } = await startCheckout();
    const eventId = `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const stranger = { ...row, id: "cs_test_not_ours_123", metadata: {} };
    const res = await deliverWebhook(
      sessionEvent("checkout.session.completed", stranger, { client_reference_id: null }, eventId),
    );
    expect(res.status).toBe(200);
    expect(await eventStatus(eventId)).toBe("ignored");
    expect(await ordersFor("cs_test_not_ours_123")).toHaveLength(0);
  });

  it("refunds an amount that does not match the checkout, as captured, and creates no order", async () => {
    const { row, sessionId } = await startCheckout();
    const eventId = `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const res = await deliverWebhook(sessionEvent("checkout.session.completed", row, { amount_total: 1 }, eventId));
    expect(res.status).toBe(200);
    expect(await eventStatus(eventId)).toBe("processed");
    expect(await ordersFor(sessionId)).toHaveLength(0);
    const stored = await db().select().from(refunds).where(eq(refunds.checkoutSessionId, row.id));
    expect(stored).toMatchObject([
      { amountCents: 1, origin: "unfulfillable", reason: UNFULFILLABLE_REASONS.amountMismatch },
    ]);
  });

  it("issues a voucher for a voucher product", async () => {
    const { row, sessionId } = await startCheckout("voucher", 1);
    expect((await deliverWebhook(sessionEvent("checkout.session.completed", row))).status).toBe(200);
    const [order] = await ordersFor(sessionId);
    expect(order).toMatchObject({ status: "paid", productCategory: "voucher", shippingAddress: null });
    const [voucher] = await db().select().from(vouchers).where(eq(vouchers.orderId, order!.id));
    expect(voucher).toMatchObject({
      code: `VCH-${order!.id.slice(-8).toUpperCase()}`,
      valueCents: 5000,
      status: "active",
    });
  });
});

describe("local provider", () => {
  const address = {
    name: "Ada Buyer",
    street: "1 Jalan Test",
    city: "George Town",
    state: "Penang",
    postal_code: "10200",
    country: "my",
  };

  it("shows a clear test checkout page", async () => {
    const { sessionId } = await startCheckout("physical", 2);
    const res = await get(`/api/local-checkout/${sessionId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Test checkout — no real money moves");
    expect(html).toContain("USD 80.00");
    expect(html).toContain("Pay with card (test)");
    expect(html).toContain("Bank transfer (delayed)");
    expect(html).toContain("Cancel");
    expect((await get(`/api/local-checkout/cs_local_unknown`)).status).toBe(404);
  });

  it("pays end to end: checkout, Pay, order, entry number on confirm", async () => {
    const { sessionId, user, large, red } = await startCheckout("physical", 2);
    const res = await postForm(`/api/local-checkout/${sessionId}/pay`, address);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${ORIGIN}/payment/success?session_id=${sessionId}`);

    const [order] = await ordersFor(sessionId);
    expect(order).toMatchObject({ amountCents: 8000, status: "processing", userId: user.id });
    expect(order!.shippingAddress).toMatchObject({ name: "Ada Buyer", country: "MY" });
    expect(await units(large.id, red.id)).toEqual({ size: 8, colour: 8 });

    const confirmed = await confirmCheckout(env, sessionId, user);
    expect(confirmed).toMatchObject({
      ok: true,
      amount: 8000,
      currency: "USD",
      payment_type: "product",
      paid: true,
      orderNumber: order!.orderNumber,
      entryNumber: 0,
    });

    // Paying again is refused (the page shows the paid state) and changes nothing.
    const again = await postForm(`/api/local-checkout/${sessionId}/pay`, address);
    expect(again.status).toBe(303);
    expect(await ordersFor(sessionId)).toHaveLength(1);
  });

  it("refuses a physical order without an address", async () => {
    const { sessionId } = await startCheckout("physical", 1);
    const res = await postForm(`/api/local-checkout/${sessionId}/pay`, {});
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Please enter the recipient");
    expect(await ordersFor(sessionId)).toHaveLength(0);
  });

  it("runs a delayed bank transfer: nothing until the transfer arrives", async () => {
    const { sessionId, user } = await startCheckout("physical", 1);
    const chosen = await postForm(`/api/local-checkout/${sessionId}/bank-transfer`, address);
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get("Location")).toBe(`/api/local-checkout/${sessionId}`);
    expect(await ordersFor(sessionId)).toHaveLength(0);
    expect(await confirmCheckout(env, sessionId, user)).toMatchObject({ ok: true, paid: false });

    const waiting = await (await get(`/api/local-checkout/${sessionId}`)).text();
    expect(waiting).toContain("Simulate bank transfer arrival");

    const arrived = await postForm(`/api/local-checkout/${sessionId}/bank-transfer/arrive`, {});
    expect(arrived.status).toBe(303);
    expect(arrived.headers.get("Location")).toBe(`${ORIGIN}/payment/success?session_id=${sessionId}`);
    const [order] = await ordersFor(sessionId);
    expect(order!.shippingAddress).toMatchObject({ street: "1 Jalan Test" });
    expect(await confirmCheckout(env, sessionId, user)).toMatchObject({ ok: true, paid: true, entryNumber: 0 });
  });

  it("cancels back to the product page", async () => {
    const { sessionId, product } = await startCheckout("physical", 1);
    const res = await postForm(`/api/local-checkout/${sessionId}/cancel`, {});
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${ORIGIN}/buy-now/${product.id}`);
    expect(await ordersFor(sessionId)).toHaveLength(0);
  });

  it("refuses a cross-site POST", async () => {
    const { sessionId } = await startCheckout("physical", 1);
    const res = await postForm(`/api/local-checkout/${sessionId}/pay`, address, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await ordersFor(sessionId)).toHaveLength(0);
  });

  it("puts a host deposit 100% into the pool without an entry", async () => {
    const host = await makeSessionUser();
    const result = await createHostDepositCheckout(env, { user: host, amountCents: 2500, origin: ORIGIN });
    if (!result.ok) throw new Error(result.message);
    const res = await postForm(`/api/local-checkout/${result.sessionId}/pay`, {});
    expect(res.status).toBe(303);
    const confirmed = await confirmCheckout(env, result.sessionId, host);
    expect(confirmed).toMatchObject({ ok: true, paid: true, payment_type: "host_deposit", amount: 2500 });
    const pool = await import("~/lib/pools.server").then((m) => m.getOpenPool(env, host.id));
    expect(pool).toBeTruthy();
    const ledger = await ledgerFor(pool!.id, result.sessionId);
    expect(ledger.entries).toHaveLength(0);
    expect(ledger.state).toMatchObject({ amountCents: 2500, entries: 0 });
  });

  it("confirms only the buyer's own session", async () => {
    const { sessionId } = await startCheckout("physical", 1);
    const stranger = await makeSessionUser();
    expect(await confirmCheckout(env, sessionId, stranger)).toMatchObject({
      ok: false,
      message: "Failed to confirm payment",
    });
    expect(await confirmCheckout(env, "", stranger)).toMatchObject({ ok: false, message: "No session ID found" });
  });
});

/** A Stripe-shaped `charge.updated` event for a payment: its charge now names its balance transaction (or not yet). */
function chargeUpdatedEvent(charge: {
  paymentIntent: string;
  amount: number;
  balanceTransaction: string | null;
  metadata?: Record<string, string>;
}) {
  return JSON.stringify(
    stripeEvent("charge.updated", {
      id: `ch_test_${charge.paymentIntent.slice(-12)}`,
      object: "charge",
      amount: charge.amount,
      amount_captured: charge.amount,
      currency: "usd",
      status: "succeeded",
      paid: true,
      payment_intent: charge.paymentIntent,
      balance_transaction: charge.balanceTransaction,
      metadata: charge.metadata ?? {},
    }),
  );
}

/** What /admin says the platform paid in processing fees (USD cents, payments), as an admin reads it. */
async function adminFeeFigures(): Promise<{ cents: number; payments: number }> {
  const admin = await makeUser({ role: "admin" });
  const page = (await (await get("/admin", { cookie: await signIn(admin.email) })).text()).replaceAll("<!-- -->", "");
  const match =
    /Payment processing fees \(the platform(?:&#x27;|')s cost\): (?:.*?)USD ([\d,]+\.\d\d) on (\d+) payments?/.exec(
      page,
    );
  if (!match) return { cents: 0, payments: 0 };
  return { cents: Math.round(Number(match[1]!.replaceAll(",", "")) * 100), payments: Number(match[2]) };
}

async function feesOf(paymentIntent: string) {
  return db().select().from(paymentProcessingFees).where(eq(paymentProcessingFees.paymentIntentId, paymentIntent));
}

describe("processing fees Stripe reports after fulfilment (charge.updated)", () => {
  it("records the fee the session's fulfilment had none for, once, and /admin shows it", async () => {
    const { row } = await startCheckout("physical", 1);
    const intent = `pi_test_${row.id.slice(-12)}`;
    const before = await adminFeeFigures();
    // Paid, but Stripe has no balance transaction yet: fulfilment records no fee.
    expect((await deliverWebhook(sessionEvent("checkout.session.completed", row))).status).toBe(200);
    expect(await ordersFor(row.id)).toHaveLength(1);
    expect(await feesOf(intent)).toEqual([]);
    // Stripe first says the charge changed without one, then names it; the same event comes three times.
    const early = await deliverWebhook(
      chargeUpdatedEvent({ paymentIntent: intent, amount: row.amountCents, balanceTransaction: null }),
    );
    expect(await early.json()).toMatchObject({ received: true, ignored: expect.stringContaining("no processing fee") });
    const named = chargeUpdatedEvent({
      paymentIntent: intent,
      amount: row.amountCents,
      balanceTransaction: `txn_test_${row.id.slice(-12)}`,
    });
    for (let i = 0; i < 3; i++) expect((await deliverWebhook(named)).status).toBe(200);
    // The same change delivered under another event id (Stripe's retries keep the id; a second event could not).
    const again = chargeUpdatedEvent({
      paymentIntent: intent,
      amount: row.amountCents,
      balanceTransaction: `txn_test_${row.id.slice(-12)}`,
    });
    expect(await (await deliverWebhook(again)).json()).toMatchObject({ received: true, duplicate: true });
    // A later redelivery of the session changes nothing either.
    expect((await deliverWebhook(sessionEvent("checkout.session.completed", row))).status).toBe(200);

    const fees = await feesOf(intent);
    expect(fees).toHaveLength(1);
    const feeCents = simulatedProcessingFeeCents(row.amountCents);
    expect(fees[0]).toMatchObject({
      checkoutSessionId: row.id,
      balanceTransactionId: `txn_test_${row.id.slice(-12)}`,
      amountCents: row.amountCents,
      feeCents,
      currency: "USD",
    });
    const after = await adminFeeFigures();
    expect(after.payments - before.payments).toBe(1);
    expect(after.cents - before.cents).toBe(feeCents);
  });

  it("records it once when charge.updated comes before the session's events, replayed and reordered", async () => {
    const { row } = await startCheckout("digital", 1);
    const intent = `pi_test_${row.id.slice(-12)}`;
    const before = await adminFeeFigures();
    // Our payment, found by the checkout our metadata names (fulfilment has not recorded its payment intent yet).
    const charge = chargeUpdatedEvent({
      paymentIntent: intent,
      amount: row.amountCents,
      balanceTransaction: `txn_test_${row.id.slice(-12)}`,
      metadata: row.metadata,
    });
    const completed = sessionEvent("checkout.session.completed", row);
    for (const payload of [charge, completed, charge, completed, charge, completed])
      expect((await deliverWebhook(payload)).status).toBe(200);
    expect(await ordersFor(row.id)).toHaveLength(1);
    const fees = await feesOf(intent);
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({
      checkoutSessionId: row.id,
      feeCents: simulatedProcessingFeeCents(row.amountCents),
    });
    const after = await adminFeeFigures();
    expect(after.payments - before.payments).toBe(1);
    expect(after.cents - before.cents).toBe(simulatedProcessingFeeCents(row.amountCents));
  });

  it("acknowledges and ignores a charge of a payment that is not ours", async () => {
    const before = await adminFeeFigures();
    const stranger = chargeUpdatedEvent({
      paymentIntent: "pi_test_someone_else",
      amount: 5000,
      balanceTransaction: "txn_test_someone_else",
      metadata: { checkout_id: "chk_nobody" },
    });
    const res = await deliverWebhook(stranger);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      received: true,
      ignored: expect.stringContaining("not of a payment we know"),
    });
    expect(await feesOf("pi_test_someone_else")).toEqual([]);
    expect(await adminFeeFigures()).toEqual(before);
  });
});

describe("with Stripe configured", () => {
  const stripeEnv = { ...env, STRIPE_SECRET_KEY: "sk_test_fake_key", STRIPE_WEBHOOK_SECRET: "whsec_test_configured" };

  async function post(payload: string, secret: string, bindings: Env) {
    return webhooks.request(
      "/stripe",
      { method: "POST", headers: { "Stripe-Signature": await stripeSignature(payload, { secret }) }, body: payload },
      bindings,
    );
  }

  it("verifies events with STRIPE_WEBHOOK_SECRET only", async () => {
    const { row, sessionId } = await startCheckout("physical", 1);
    const payload = sessionEvent("checkout.session.completed", row);
    expect((await post(payload, SECRET, stripeEnv)).status).toBe(400);
    expect(await ordersFor(sessionId)).toHaveLength(0);
    expect((await post(payload, "whsec_test_configured", stripeEnv)).status).toBe(200);
    expect(await ordersFor(sessionId)).toHaveLength(1);
  });

  it("refuses events (500, so Stripe retries) while the webhook secret is missing", async () => {
    const { row } = await startCheckout("physical", 1);
    const res = await post(sessionEvent("checkout.session.completed", row), SECRET, {
      ...env,
      STRIPE_SECRET_KEY: "sk_test_fake_key",
    });
    expect(res.status).toBe(500);
  });

  it("hides the local checkout page", async () => {
    const { sessionId } = await startCheckout("physical", 1);
    expect((await localCheckout.request(`/${sessionId}`, {}, stripeEnv)).status).toBe(404);
    expect((await localCheckout.request(`/${sessionId}/pay`, { method: "POST" }, stripeEnv)).status).toBe(404);
  });
});
