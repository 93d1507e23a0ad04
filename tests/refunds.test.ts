import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deleteOrEndGame } from "~/db/queries/game-host.server";
import { deleteOrArchiveProduct } from "~/db/queries/product-admin.server";
import {
  checkoutSessions,
  disputes,
  earningsLedger,
  guessWinGames,
  hostDebits,
  mailOutbox,
  orders,
  poolContributionKeys,
  prizeEntryDisqualifications,
  prizePoolContributions,
  prizePools,
  products,
  productSizes,
  refunds,
  vouchers,
} from "~/db/schema";
import { REFUND_MESSAGES, UNFULFILLABLE_REASONS, unfulfillableRefundKey } from "~/domain/payments";
import { formatCents } from "~/domain/money";
import { orderNumber } from "~/domain/orders";
import { DEFAULT_REVENUE_RULES } from "~/domain/revenue";
import { createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { contributionKey, localPaymentIntentId, paidLocalCheckoutRow } from "~/lib/payments/shared/payment-records";
import { requestRefund } from "~/lib/payments/refunds/refund-request.server";
import { processStripeEvent } from "~/lib/payments/webhook/webhook.server";
import {
  addContribution,
  closePool,
  ensureOpenPool,
  getOpenPool,
  poolStub,
  reapplyReservations,
} from "~/lib/pools.server";
import {
  db,
  envWithPoolsDown,
  get,
  makeUser,
  ORIGIN,
  pageText,
  postForm,
  sessionUserOf,
  signIn,
  withoutNetwork,
} from "./helpers";
import { checkoutSessionEvent, deliverWebhook, newEventId, stripeEvent } from "./support/webhooks";

// Money flowing back: requestRefund (the API the returns and sealed-guess features call), the refund and dispute
// webhook events, and what they reverse: the order's refunded total and state, its download and voucher, the pool
// share and entry (or, once the pool has closed, a host debit and the host's earnings).

withoutNetwork();

type Category = "physical" | "digital" | "voucher";

/** A host's product at USD 40.00 (one size, `units` in stock) and a buyer. */
async function shopFixture(category: Category = "voucher", units = 10) {
  const host = await makeUser({ name: "Refund Host" });
  const buyer = await makeUser({ name: "Refund Buyer" });
  const user = sessionUserOf(buyer, "Refund Buyer");
  const email = buyer.email;
  const [product] = await db()
    .insert(products)
    .values({
      hostId: host.id,
      name: category === "voucher" ? "Pottery Class" : "Field Guide",
      category,
      voucherValueCents: category === "voucher" ? 4000 : null,
      voucherExpiresAt: category === "voucher" ? new Date(Date.now() + 90 * 86_400_000) : null,
    })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: product!.id, name: "Standard", priceCents: 4000, availableUnits: units, position: 0 });
  return { host, user, email, product: product! };
}

/** Starts a buy-now checkout of one unit through the local provider. */
async function startCheckout(fixture: Awaited<ReturnType<typeof shopFixture>>) {
  const started = await createProductCheckout(env, {
    user: fixture.user,
    productId: fixture.product.id,
    sizeName: "Standard",
    colorName: null,
    quantity: 1,
    origin: ORIGIN,
  });
  if (!started.ok) throw new Error(started.message);
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, started.sessionId));
  return row!;
}

/** The `checkout.session.completed` (paid) event of a checkout row. */
const paidEvent = (row: typeof checkoutSessions.$inferSelect, paymentIntent: string) =>
  checkoutSessionEvent(row, { buyerName: "Refund Buyer", address: null, overrides: { payment_intent: paymentIntent } });

/** A paid buy-now order of USD 40.00 (a host's product, one unit), through a checkout and its signed webhook event. */
async function paidOrder(category: Category = "voucher") {
  const fixture = await shopFixture(category);
  const row = await startCheckout(fixture);
  const paymentIntent = `pi_test_${crypto.randomUUID().replace(/-/g, "")}`;
  expect((await deliverWebhook(paidEvent(row, paymentIntent))).status).toBe(200);
  const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, row.id));
  expect(order?.poolId).toBeTruthy();
  return {
    host: fixture.host,
    user: fixture.user,
    product: fixture.product,
    sessionId: row.id,
    paymentIntent,
    order: order!,
  };
}

async function orderRow(id: string) {
  const [row] = await db().select().from(orders).where(eq(orders.id, id));
  return row!;
}

async function voucherOf(orderId: string) {
  const [row] = await db().select().from(vouchers).where(eq(vouchers.orderId, orderId));
  return row;
}

async function poolOf(poolId: string) {
  const stub = poolStub(env, poolId);
  const [state, entries] = await Promise.all([stub.state(), stub.entries()]);
  return {
    amountCents: state.amountCents,
    entries: state.entries,
    voided: entries.filter((e) => e.voided).map((e) => e.entryNumber),
  };
}

function refundObject(p: {
  id: string;
  amount: number;
  status: string;
  paymentIntent: string;
  metadata?: Record<string, string>;
}) {
  return {
    id: p.id,
    object: "refund",
    amount: p.amount,
    currency: "usd",
    status: p.status,
    payment_intent: p.paymentIntent,
    charge: null,
    metadata: p.metadata ?? {},
  };
}

function disputeObject(p: { id: string; amount: number; status: string; paymentIntent: string }) {
  return {
    id: p.id,
    object: "dispute",
    amount: p.amount,
    currency: "usd",
    status: p.status,
    payment_intent: p.paymentIntent,
    charge: null,
  };
}

/** The mails the buyer received about refunds, oldest first. */
async function refundMailsTo(email: string) {
  const mails = await db()
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, email))
    .orderBy(mailOutbox.createdAt);
  return mails.filter((m) => m.subject.startsWith("Refund of") || m.subject.includes("is approved"));
}

describe("the buyer's refund mail (sent by the refund path, once per refund)", () => {
  it("a host's refund: one mail, and none more for the same request again or its replayed events", async () => {
    const { sessionId, order, user, paymentIntent } = await paidOrder();
    const request = {
      checkoutSessionId: sessionId,
      orderId: order.id,
      amountCents: 1500,
      origin: "host" as const,
      reason: "One cup was chipped",
      idempotencyKey: "host-mail-1",
    };
    const first = await requestRefund(env, request);
    expect(first.ok).toBe(true);
    expect(await requestRefund(env, request)).toEqual(first);
    // Stripe's own events for the same refund (created, then updated), each delivered twice.
    const refundId = first.ok ? first.refundId : "";
    for (const status of ["pending", "succeeded", "succeeded"]) {
      const res = await deliverWebhook(
        stripeEvent(
          status === "pending" ? "refund.created" : "refund.updated",
          refundObject({
            id: refundId,
            amount: 1500,
            status,
            paymentIntent,
            metadata: { checkout_session_id: sessionId, order_id: order.id, origin: "host" },
          }),
        ),
      );
      expect(res.status).toBe(200);
    }
    const mails = await refundMailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Refund of USD 15.00 for order ${order.orderNumber}`);
    expect(mails[0]!.textBody).toContain(`Refund Host refunded USD 15.00 of your order ${order.orderNumber}`);
    expect(mails[0]!.textBody).toContain("Reason: One cup was chipped");
    expect(mails[0]!.textBody).toContain("Refunds take 3-5 business days to appear on your statement.");
    // Sent from the refund path (a webhook in production), the link is absolute: the configured SITE_ORIGIN.
    expect(mails[0]!.textBody).toContain(`See the order: ${ORIGIN}/order/${order.orderNumber}`);

    // A second refund (another key) is another mail.
    expect((await requestRefund(env, { ...request, amountCents: 500, idempotencyKey: "host-mail-2" })).ok).toBe(true);
    expect((await refundMailsTo(user.email)).map((m) => m.subject)).toEqual([
      `Refund of USD 15.00 for order ${order.orderNumber}`,
      `Refund of USD 5.00 for order ${order.orderNumber}`,
    ]);
  });

  it("an undeliverable payment's automatic refund: one mail with the reason, however often it is asked for", async () => {
    const { sessionId, order, user } = await paidOrder("digital");
    const request = {
      checkoutSessionId: sessionId,
      orderId: order.id,
      amountCents: 4000,
      origin: "unfulfillable" as const,
      reason: UNFULFILLABLE_REASONS.gone,
      idempotencyKey: unfulfillableRefundKey(sessionId, order.id),
    };
    expect((await requestRefund(env, request)).ok).toBe(true);
    expect(await requestRefund(env, request)).toEqual({ ok: false, message: REFUND_MESSAGES.nothingLeft });
    const mails = await refundMailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Refund of ${formatCents(4000, "USD")} for order ${order.orderNumber}`);
    expect(mails[0]!.textBody).toContain(`Reason: ${UNFULFILLABLE_REASONS.gone}`);
  });

  it("a refund made in the provider's dashboard (events only): one mail", async () => {
    const { order, user, paymentIntent } = await paidOrder();
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const created = stripeEvent("refund.created", refundObject({ id, amount: 4000, status: "pending", paymentIntent }));
    const updated = stripeEvent(
      "refund.updated",
      refundObject({ id, amount: 4000, status: "succeeded", paymentIntent }),
    );
    // Reordered, and each delivered three times (the same event id) plus once more under a new event id.
    for (const e of [updated, created, updated, created, updated, created, { ...updated, id: newEventId() }])
      expect((await deliverWebhook(e)).status).toBe(200);
    const mails = await refundMailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([`Refund of USD 40.00 for order ${order.orderNumber}`]);
    expect(mails[0]!.textBody).toContain(
      `USD 40.00 of your order ${order.orderNumber} (Pottery Class) is refunded to your payment method.`,
    );
  });
});

describe("a refund that does not go through", () => {
  it("pending, then failed: the buyer is mailed once more that it did not go through, the host once, and replays send nothing", async () => {
    const { order, user, host, paymentIntent, sessionId } = await paidOrder();
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const metadata = {
      checkout_session_id: sessionId,
      order_id: order.id,
      origin: "host",
      reason: "One cup was chipped",
    };
    const created = stripeEvent(
      "refund.created",
      refundObject({ id, amount: 4000, status: "pending", paymentIntent, metadata }),
    );
    const failed = stripeEvent(
      "refund.failed",
      refundObject({ id, amount: 4000, status: "failed", paymentIntent, metadata }),
    );
    expect((await deliverWebhook(created)).status).toBe(200);
    expect((await refundMailsTo(user.email)).map((m) => m.subject)).toEqual([
      `Refund of USD 40.00 for order ${order.orderNumber}`,
    ]);

    // Five concurrent deliveries, a replay under a new event id, and the older event arriving late.
    const responses = await Promise.all([...Array(5)].map(() => deliverWebhook(failed)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    for (const e of [{ ...failed, id: newEventId() }, created, { ...created, id: newEventId() }])
      expect((await deliverWebhook(e)).status).toBe(200);

    const mails = await refundMailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Refund of USD 40.00 for order ${order.orderNumber}`,
      `Refund of USD 40.00 for order ${order.orderNumber} did not go through`,
    ]);
    const text = mails[1]!.textBody;
    expect(text).toContain(
      `The refund of USD 40.00 for your order ${order.orderNumber} (Pottery Class) did not go through, so no money is returned to your payment method.`,
    );
    expect(text).toContain("This corrects our earlier e-mail, which said the refund was on its way.");
    expect(text).toContain("If you still expect a refund, contact Refund Host.");
    expect(text).not.toContain("3-5 business days");
    // The pool was open: its entry counts again, so the mail says nothing about a missed draw.
    expect(text).not.toContain("prize pool entry");
    expect(text).toContain(`See the order: ${ORIGIN}/order/${order.orderNumber}`);

    // The host is told once, to refund again: the buyer has not been paid back.
    const hostMails = await refundMailsTo(host.email);
    expect(hostMails.map((m) => m.subject)).toEqual([
      `Refund of USD 40.00 for order ${order.orderNumber} did not go through`,
    ]);
    expect(hostMails[0]!.textBody).toContain(
      `for order ${order.orderNumber} (Pottery Class) did not go through, so the buyer has not been paid back.`,
    );
    expect(hostMails[0]!.textBody).toContain("refund it again from Orders");
    expect(hostMails[0]!.textBody).toContain(`See your orders: ${ORIGIN}/orders`);

    // What the buyer sees: the refund did not go through, the order is not refunded, the entry counts.
    const cookie = await signIn(user.email);
    const page = await pageText(await get(`/order/${order.orderNumber}`, { cookie }));
    expect(page).toContain("Refund did not go through (One cup was chipped)");
    expect(page).not.toMatch(/refunded/i);
    expect(page).not.toContain("not in the draw");
    const mine = await pageText(await get("/my-orders", { cookie }));
    expect(mine).toContain("Refund of USD 40.00 did not go through (One cup was chipped)");
    expect(mine).not.toContain("of USD 40.00 refunded");
  });

  it("failed on first sight (a dashboard refund, or requested and failed at once): one mail, that it did not go through", async () => {
    const { order, user, paymentIntent } = await paidOrder();
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const failed = stripeEvent("refund.failed", refundObject({ id, amount: 4000, status: "failed", paymentIntent }));
    await Promise.all([...Array(3)].map(() => deliverWebhook(failed)));
    // Its older news arriving afterwards (created while pending) changes nothing and mails nothing.
    expect(
      (
        await deliverWebhook(
          stripeEvent("refund.created", refundObject({ id, amount: 4000, status: "pending", paymentIntent })),
        )
      ).status,
    ).toBe(200);
    const mails = await refundMailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Refund of USD 40.00 for order ${order.orderNumber} did not go through`,
    ]);
    expect(mails[0]!.textBody).not.toContain("corrects");
    expect(mails[0]!.textBody).not.toContain("is refunded to your payment method");
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 0, refundState: "none" });
    const [row] = await db().select().from(refunds).where(eq(refunds.id, id));
    expect(row).toMatchObject({ status: "failed", buyerMailedAt: null });
    expect(row!.buyerFailureMailedAt).not.toBeNull();
  });
});

describe("requestRefund", () => {
  it("refuses 0, more than is refundable, and an unknown order with a clear message, changing nothing", async () => {
    const { sessionId, order } = await paidOrder();
    const base = { checkoutSessionId: sessionId, orderId: order.id, origin: "host" as const, reason: null };
    expect(await requestRefund(env, { ...base, amountCents: 0, idempotencyKey: "k0" })).toEqual({
      ok: false,
      message: REFUND_MESSAGES.notPositive,
    });
    expect(await requestRefund(env, { ...base, amountCents: 4001, idempotencyKey: "k1" })).toEqual({
      ok: false,
      message: REFUND_MESSAGES.tooMuch("USD 40.00"),
    });
    expect(await requestRefund(env, { ...base, orderId: "nope", amountCents: 100, idempotencyKey: "k2" })).toEqual({
      ok: false,
      message: REFUND_MESSAGES.notFound,
    });
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 0, refundState: "none" });
    expect(await db().select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(0);
  });

  it("a partial refund through the local provider: stored with its order, the pool share reversed once, the entry kept", async () => {
    const { sessionId, order, host } = await paidOrder();
    const before = await poolOf(order.poolId!);
    const request = {
      checkoutSessionId: sessionId,
      orderId: order.id,
      amountCents: 1000,
      origin: "host" as const,
      reason: "Scratched box",
      idempotencyKey: `host:${order.id}:n1`,
    };
    const first = await requestRefund(env, request);
    expect(first).toMatchObject({ ok: true, status: "succeeded" });
    // A retry with the same key answers the same refund and changes nothing.
    const again = await requestRefund(env, request);
    expect(again).toEqual(first);
    const stored = await db().select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      amountCents: 1000,
      status: "succeeded",
      origin: "host",
      reason: "Scratched box",
      reversal: "applied",
    });
    expect(await orderRow(order.id)).toMatchObject({
      refundedCents: 1000,
      refundState: "partial",
      refundReason: "Scratched box",
    });
    const after = await poolOf(order.poolId!);
    // The pool share of USD 10.00 at the contribution's 10%: USD 1.00.
    expect(after.amountCents).toBe(before.amountCents - 100);
    expect(after.voided).toEqual([]);
    expect((await voucherOf(order.id))?.status).toBe("active");
    // The host's earnings take back the host's part of USD 10.00, once.
    const ledger = await db()
      .select()
      .from(earningsLedger)
      .where(and(eq(earningsLedger.hostId, host.id), eq(earningsLedger.kind, "refund")));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ grossCents: -1000, poolCents: -100, orderId: order.id });
    expect(ledger[0]!.amountCents + ledger[0]!.poolCents + ledger[0]!.platformCents).toBe(-1000);
  });
});

describe("refund events", () => {
  it("replayed 5 times, reordered and concurrent: the order, pool and entry change once; a failed refund restores all", async () => {
    const { order, paymentIntent } = await paidOrder("voucher");
    const before = await poolOf(order.poolId!);
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const succeeded = stripeEvent(
      "refund.updated",
      refundObject({ id, amount: 4000, status: "succeeded", paymentIntent }),
    );
    const created = stripeEvent("refund.created", refundObject({ id, amount: 4000, status: "pending", paymentIntent }));
    // The update arrives first, then five copies of each concurrently.
    expect((await deliverWebhook(succeeded)).status).toBe(200);
    const responses = await Promise.all(
      [...Array(5)].flatMap(() => [deliverWebhook(created), deliverWebhook(succeeded)]),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    // A dashboard refund (no metadata) of a one-order payment is that order's.
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 4000, refundState: "full", status: "refunded" });
    const [row] = await db().select().from(refunds).where(eq(refunds.id, id));
    expect(row).toMatchObject({ status: "succeeded", orderId: order.id, origin: "provider", reversal: "applied" });
    expect((await voucherOf(order.id))?.status).toBe("void");
    const refunded = await poolOf(order.poolId!);
    expect(refunded.amountCents).toBe(before.amountCents - 400);
    expect(refunded.voided).toEqual([order.entryNumber]);
    expect(refunded.entries).toBe(before.entries - 1);

    // The refund fails after all (replayed and concurrent): everything it voided comes back, once.
    const failed = stripeEvent("refund.failed", refundObject({ id, amount: 4000, status: "failed", paymentIntent }));
    await Promise.all([...Array(5)].map(() => deliverWebhook(failed)));
    await deliverWebhook(created);
    // The order is back in the status its payment gave it (a voucher order: paid).
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 0, refundState: "none", status: "paid" });
    expect((await voucherOf(order.id))?.status).toBe("active");
    const restored = await poolOf(order.poolId!);
    expect(restored).toEqual(before);
    const [after] = await db().select().from(refunds).where(eq(refunds.id, id));
    expect(after).toMatchObject({ status: "failed", reversal: "restored" });
  });

  it("a redeemed voucher stays redeemed under a full refund", async () => {
    const { order, paymentIntent } = await paidOrder("voucher");
    await db()
      .update(vouchers)
      .set({ status: "redeemed", redeemedAt: new Date() })
      .where(eq(vouchers.orderId, order.id));
    await deliverWebhook(
      stripeEvent(
        "refund.created",
        refundObject({ id: `re_test_${crypto.randomUUID()}`, amount: 4000, status: "succeeded", paymentIntent }),
      ),
    );
    expect((await voucherOf(order.id))?.status).toBe("redeemed");
    expect(await orderRow(order.id)).toMatchObject({ refundState: "full" });
  });

  it("charge.refunded applies the refunds it lists once and ignores one that lists none", async () => {
    const { order, paymentIntent } = await paidOrder("digital");
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const charge = {
      id: `ch_test_${id}`,
      object: "charge",
      payment_intent: paymentIntent,
      refunds: { data: [refundObject({ id, amount: 500, status: "succeeded", paymentIntent })] },
    };
    for (let i = 0; i < 3; i++) expect((await deliverWebhook(stripeEvent("charge.refunded", charge))).status).toBe(200);
    await deliverWebhook(
      stripeEvent("refund.updated", refundObject({ id, amount: 500, status: "succeeded", paymentIntent })),
    );
    const empty = await deliverWebhook(stripeEvent("charge.refunded", { ...charge, refunds: null }));
    expect(await empty.json()).toMatchObject({ received: true, ignored: expect.stringContaining("refund events") });
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 500, refundState: "partial" });
  });

  it("a refund after the pool closed is booked to the host (host debit and earnings), not the pool", async () => {
    const { order, paymentIntent, host } = await paidOrder("digital");
    await closePool(env, order.poolId!, "closed_early");
    const before = await poolOf(order.poolId!);
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const refund = stripeEvent(
      "refund.created",
      refundObject({ id, amount: 4000, status: "succeeded", paymentIntent }),
    );
    await Promise.all([...Array(5)].map(() => deliverWebhook(refund)));
    expect(await poolOf(order.poolId!)).toEqual(before);
    const debits = await db().select().from(hostDebits).where(eq(hostDebits.reversalKey, id));
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({ hostId: host.id, amountCents: 400, reason: "refund_after_close" });
    const [row] = await db()
      .select()
      .from(earningsLedger)
      .where(eq(earningsLedger.sourceKey, `refund:${id}`));
    // The host carries the pool's part too: the whole sale's host and pool parts come back off their balance.
    expect(row).toMatchObject({ hostId: host.id, grossCents: -4000, poolCents: 0 });
    const [sale] = await db()
      .select()
      .from(earningsLedger)
      .where(eq(earningsLedger.sourceKey, `sale:${order.id}`));
    expect(row!.amountCents).toBe(-(sale!.amountCents + sale!.poolCents));
  });
});

describe("a host's full refund ends the order (status refunded)", () => {
  const refundForm = (orderId: string, amount: string, refundKey: string) => ({
    intent: "refund",
    orderId,
    amount,
    reason: "",
    refundKey,
  });

  it("refunded in full from /orders: status refunded, once; no status change; the Refunded filter finds it; not 'On the way' for the fan", async () => {
    const { host, user, order } = await paidOrder("physical");
    expect(order.status).toBe("processing");
    const hostCookie = await signIn(host.email);
    const key = crypto.randomUUID();
    const refunded = await postForm("/orders?tab=orders", refundForm(order.id, "40.00", key), { cookie: hostCookie });
    expect(refunded.status).toBe(302);
    // The same form sent again (same key) is the same refund: it counts once.
    await postForm("/orders?tab=orders", refundForm(order.id, "40.00", key), { cookie: hostCookie });
    const after = await orderRow(order.id);
    expect(after).toMatchObject({ refundedCents: 4000, refundState: "full", status: "refunded" });

    // The host can no longer mark it shipped (or anything else): 409 with the message, nothing changed.
    for (const status of ["shipped", "processing", "completed"]) {
      const res = await postForm(
        "/orders?tab=orders",
        { intent: "update-status", orderId: order.id, status, trackingNumber: "TRK-REFUNDED1" },
        { cookie: hostCookie },
      );
      expect(res.status).toBe(409);
      expect(await pageText(res)).toContain("This order can no longer be updated");
    }
    expect(await orderRow(order.id)).toEqual(after);

    // The Refunded filter finds it, with no status editor; the processing filter does not.
    const listed = await (await get("/orders?tab=orders&status=refunded", { cookie: hostCookie })).text();
    expect(listed).toContain(order.orderNumber);
    expect(listed).not.toContain(`Update order ${order.orderNumber}`);
    expect(await (await get("/orders?tab=orders&status=processing", { cookie: hostCookie })).text()).not.toContain(
      order.orderNumber,
    );

    // The fan's 'On the way' card does not count it.
    const fanCookie = await signIn(user.email);
    expect(await pageText(await get("/my-orders", { cookie: fanCookie }))).toMatch(/On the way 0 /);
  });

  it("a full refund of a shipped order that then fails gives the order back its status (shipped), once", async () => {
    const { host, order, paymentIntent } = await paidOrder("physical");
    const hostCookie = await signIn(host.email);
    const shipped = await postForm(
      "/orders?tab=orders",
      { intent: "update-status", orderId: order.id, status: "shipped", trackingNumber: "TRK-BACK1" },
      { cookie: hostCookie },
    );
    expect(shipped.status).toBe(302);
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const created = stripeEvent("refund.created", refundObject({ id, amount: 4000, status: "pending", paymentIntent }));
    for (const e of [created, created]) expect((await deliverWebhook(e)).status).toBe(200);
    expect(await orderRow(order.id)).toMatchObject({ refundState: "full", status: "refunded" });
    const failed = stripeEvent("refund.failed", refundObject({ id, amount: 4000, status: "failed", paymentIntent }));
    for (const e of [failed, created, failed]) expect((await deliverWebhook(e)).status).toBe(200);
    expect(await orderRow(order.id)).toMatchObject({
      refundedCents: 0,
      refundState: "none",
      status: "shipped",
      trackingNumber: "TRK-BACK1",
    });
  });

  it("a partial refund keeps the order's status, and the host can still update it", async () => {
    const { host, order } = await paidOrder("physical");
    const hostCookie = await signIn(host.email);
    expect(
      (await postForm("/orders?tab=orders", refundForm(order.id, "10.00", crypto.randomUUID()), { cookie: hostCookie }))
        .status,
    ).toBe(302);
    expect(await orderRow(order.id)).toMatchObject({
      refundedCents: 1000,
      refundState: "partial",
      status: "processing",
    });
    const shipped = await postForm(
      "/orders?tab=orders",
      { intent: "update-status", orderId: order.id, status: "shipped", trackingNumber: "TRK-PARTIAL1" },
      { cookie: hostCookie },
    );
    expect(shipped.status).toBe(302);
    expect((await orderRow(order.id)).status).toBe("shipped");
  });
});

describe("a demo order as the seed writes it (scripts/seed.ts)", () => {
  /**
   * An order recorded the way the demo seed records one, without a checkout: a local session id, its payment intent,
   * the pool contribution under the checkout's key and, with `withCheckout`, the checkout row the seed writes with it
   * (paidLocalCheckoutRow, as a paid local checkout leaves it).
   */
  async function seededOrder(withCheckout: boolean) {
    const fixture = await shopFixture("physical");
    const sessionId = `cs_local_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
    const paidAt = new Date(Date.now() - 86_400_000);
    const contribution = await addContribution(env, {
      hostId: fixture.host.id,
      sourceType: "product_purchase",
      sourceKey: contributionKey(sessionId),
      amountCents: 400,
      currency: "USD",
      userId: fixture.user.id,
      earnsEntry: true,
    });
    const orderId = crypto.randomUUID();
    const [order] = await db()
      .insert(orders)
      .values({
        id: orderId,
        orderNumber: orderNumber(sessionId, orderId),
        userId: fixture.user.id,
        hostId: fixture.host.id,
        productId: fixture.product.id,
        checkoutSessionId: sessionId,
        paymentIntentId: localPaymentIntentId(sessionId),
        status: "processing",
        amountCents: 4000,
        unitPriceCents: 4000,
        customerEmail: fixture.email,
        customerName: "Refund Buyer",
        productName: fixture.product.name,
        productCategory: "physical",
        poolId: contribution.poolId,
        entryNumber: contribution.entryNumber,
        createdAt: paidAt,
      })
      .returning();
    if (withCheckout) {
      await db()
        .insert(checkoutSessions)
        .values(
          paidLocalCheckoutRow({
            sessionId,
            reference: `chk_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`,
            purpose: "product",
            userId: fixture.user.id,
            hostId: fixture.host.id,
            amountCents: 4000,
            customerEmail: fixture.email,
            metadata: {
              purpose: "product",
              product_id: fixture.product.id,
              category: "physical",
              size: "Standard",
              quantity: "1",
              unit_price_cents: "4000",
              user_id: fixture.user.id,
              host_id: fixture.host.id,
              description: "Field Guide (Standard)",
              needs_shipping: "1",
            },
            origin: ORIGIN,
            cancelPath: `/buy-now/${fixture.product.id}`,
            paidAt,
            rates: DEFAULT_REVENUE_RULES,
          }),
        );
    }
    return { ...fixture, order: order!, hostCookie: await signIn(fixture.host.email) };
  }

  const refund = (cookie: string, orderId: string) =>
    postForm(
      "/orders?tab=orders",
      { intent: "refund", orderId, amount: "40.00", reason: "", refundKey: crypto.randomUUID() },
      { cookie },
    );

  it("with the seed's checkout row, the host refunds it like a real one: order refunded, pool share and entry reversed, buyer mailed", async () => {
    const { order, hostCookie, email } = await seededOrder(true);
    const before = await poolOf(order.poolId!);
    const res = await refund(hostCookie, order.id);
    expect(res.status).toBe(302);
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 4000, refundState: "full", status: "refunded" });
    const [checkout] = await db()
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, order.checkoutSessionId!));
    expect(checkout).toMatchObject({ refundedCents: 4000, refundState: "full" });
    const after = await poolOf(order.poolId!);
    expect(after.amountCents).toBe(before.amountCents - 400);
    expect(after.voided).toEqual([order.entryNumber]);
    expect((await refundMailsTo(email)).map((m) => m.subject)).toEqual([
      `Refund of USD 40.00 for order ${order.orderNumber}`,
    ]);
  });

  it("without it (the seed before), the refund is refused as not found and nothing changes", async () => {
    const { order, hostCookie } = await seededOrder(false);
    const res = await refund(hostCookie, order.id);
    expect(res.status).toBe(409);
    expect(await pageText(res)).toContain(REFUND_MESSAGES.notFound);
    expect(await orderRow(order.id)).toEqual(order);
  });
});

describe("dispute events", () => {
  it("a lost dispute counts like a refund once, whatever the order and repetition of its events", async () => {
    const { order, paymentIntent } = await paidOrder("voucher");
    const before = await poolOf(order.poolId!);
    const id = `dp_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const dispute = (status: string) => disputeObject({ id, amount: 4000, status, paymentIntent });
    // Closed (lost) first, then the rest, each five times at once.
    const events = [
      stripeEvent("charge.dispute.closed", dispute("lost")),
      stripeEvent("charge.dispute.created", dispute("needs_response")),
      stripeEvent("charge.dispute.funds_withdrawn", dispute("needs_response")),
    ];
    for (const e of events) await Promise.all([...Array(5)].map(() => deliverWebhook(e)));
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 4000, refundState: "full" });
    expect((await voucherOf(order.id))?.status).toBe("void");
    const [row] = await db().select().from(disputes).where(eq(disputes.id, id));
    expect(row).toMatchObject({ status: "lost", fundsWithdrawn: true, reversal: "applied" });
    const after = await poolOf(order.poolId!);
    expect(after.amountCents).toBe(before.amountCents - 400);
    expect(after.voided).toEqual([order.entryNumber]);
  });

  it("a won dispute restores what its withdrawn funds reversed", async () => {
    const { order, paymentIntent } = await paidOrder("digital");
    const before = await poolOf(order.poolId!);
    const id = `dp_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const dispute = (status: string) => disputeObject({ id, amount: 4000, status, paymentIntent });
    await deliverWebhook(stripeEvent("charge.dispute.created", dispute("needs_response")));
    await deliverWebhook(stripeEvent("charge.dispute.funds_withdrawn", dispute("needs_response")));
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 4000, refundState: "full" });
    expect((await poolOf(order.poolId!)).voided).toEqual([order.entryNumber]);
    const closed = stripeEvent("charge.dispute.closed", dispute("won"));
    const reinstated = stripeEvent("charge.dispute.funds_reinstated", dispute("won"));
    await Promise.all([...Array(5)].flatMap(() => [deliverWebhook(closed), deliverWebhook(reinstated)]));
    // A late copy of the withdrawal changes nothing after the win.
    await deliverWebhook(stripeEvent("charge.dispute.funds_withdrawn", dispute("needs_response")));
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 0, refundState: "none" });
    expect(await poolOf(order.poolId!)).toEqual(before);
  });
});

describe("local provider disputes (demo mode)", () => {
  const dispute = (sessionId: string, outcome: string) =>
    SELF.fetch(`${ORIGIN}/api/local-checkout/${sessionId}/dispute`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ outcome }),
    });

  it("a simulated lost dispute sends Stripe's signed events: the payment counts as refunded; a won one restores", async () => {
    const lost = await paidOrder("voucher");
    const res = await dispute(lost.sessionId, "lost");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("lost: the payment counts as refunded");
    expect(await orderRow(lost.order.id)).toMatchObject({ refundedCents: 4000, refundState: "full" });
    expect((await voucherOf(lost.order.id))?.status).toBe("void");
    const [row] = await db().select().from(disputes).where(eq(disputes.checkoutSessionId, lost.sessionId));
    expect(row).toMatchObject({ status: "lost", fundsWithdrawn: true, orderId: lost.order.id });

    const won = await paidOrder("voucher");
    expect((await dispute(won.sessionId, "won")).status).toBe(200);
    expect(await orderRow(won.order.id)).toMatchObject({ refundedCents: 0, refundState: "none" });
    expect((await voucherOf(won.order.id))?.status).toBe("active");
  });

  it("refuses an outcome it does not know and an unknown checkout, changing nothing", async () => {
    const { sessionId, order } = await paidOrder("voucher");
    const bad = await dispute(sessionId, "maybe");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Choose how the dispute ends");
    expect((await dispute("cs_local_unknown", "lost")).status).toBe(404);
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 0, refundState: "none" });
  });
});

describe("local provider refund that fails (demo mode)", () => {
  const fail = (sessionId: string) =>
    SELF.fetch(`${ORIGIN}/api/local-checkout/${sessionId}/refund-failure`, {
      method: "POST",
      headers: { Origin: ORIGIN },
    });

  it("sends refund.created then refund.failed: the payment stays paid, the buyer gets the refund mail and its correction", async () => {
    const { sessionId, order, user } = await paidOrder("voucher");
    const res = await fail(sessionId);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("was pending and then failed: the payment stays paid.");
    // The order is back in the status its payment gave it (a voucher order: paid).
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 0, refundState: "none", status: "paid" });
    expect((await voucherOf(order.id))?.status).toBe("active");
    expect((await refundMailsTo(user.email)).map((m) => m.subject)).toEqual([
      `Refund of USD 40.00 for order ${order.orderNumber}`,
      `Refund of USD 40.00 for order ${order.orderNumber} did not go through`,
    ]);
  });

  it("refuses an unknown checkout (404) and one that was not paid (409), changing nothing", async () => {
    expect((await fail("cs_local_unknown")).status).toBe(404);
    const fixture = await shopFixture();
    const unpaid = await startCheckout(fixture);
    const res = await fail(unpaid.id);
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Only a paid checkout can be refunded.");
    expect(await db().select().from(refunds).where(eq(refunds.checkoutSessionId, unpaid.id))).toEqual([]);
  });
});

describe("nothing charged without delivery", () => {
  it("a payment for stock that ran out is cancelled and refunded in full with the reason, once; no voucher or entry", async () => {
    const fixture = await shopFixture("voucher", 1);
    const first = await startCheckout(fixture);
    const second = await startCheckout(fixture);
    await deliverWebhook(paidEvent(first, `pi_test_${crypto.randomUUID().replace(/-/g, "")}`));
    const late = paidEvent(second, `pi_test_${crypto.randomUUID().replace(/-/g, "")}`);
    for (let i = 0; i < 3; i++) expect((await deliverWebhook(late)).status).toBe(200);
    const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, second.id));
    expect(order).toMatchObject({
      status: "cancelled",
      refundState: "full",
      refundedCents: 4000,
      refundReason: UNFULFILLABLE_REASONS.soldOut,
      poolId: null,
      entryNumber: null,
    });
    const stored = await db().select().from(refunds).where(eq(refunds.checkoutSessionId, second.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      origin: "unfulfillable",
      reason: UNFULFILLABLE_REASONS.soldOut,
      orderId: order!.id,
      status: "succeeded",
    });
    expect(await voucherOf(order!.id)).toBeUndefined();
    expect(
      await db()
        .select()
        .from(poolContributionKeys)
        .where(eq(poolContributionKeys.sourceKey, `checkout:${second.id}`)),
    ).toHaveLength(0);
    expect(await db().select().from(earningsLedger).where(eq(earningsLedger.orderId, order!.id))).toHaveLength(0);
    // The stock never went below zero and the sale counts once.
    const [size] = await db().select().from(productSizes).where(eq(productSizes.productId, fixture.product.id));
    expect(size!.availableUnits).toBe(0);
    const [product] = await db().select().from(products).where(eq(products.id, fixture.product.id));
    expect(product!.salesCount).toBe(1);
    // Asking again with the same key is the same refund; nothing is left to refund.
    const again = await requestRefund(env, {
      checkoutSessionId: second.id,
      orderId: order!.id,
      amountCents: 4000,
      origin: "unfulfillable",
      reason: UNFULFILLABLE_REASONS.soldOut,
      idempotencyKey: unfulfillableRefundKey(second.id, order!.id),
    });
    expect(again).toEqual({ ok: false, message: REFUND_MESSAGES.nothingLeft });
  });

  it("a payment for an item that no longer exists is claimed and refunded in full, with no order", async () => {
    const fixture = await shopFixture("digital");
    const row = await startCheckout(fixture);
    await db().delete(productSizes).where(eq(productSizes.productId, fixture.product.id));
    await db().delete(products).where(eq(products.id, fixture.product.id));
    const paid = paidEvent(row, `pi_test_${crypto.randomUUID().replace(/-/g, "")}`);
    for (let i = 0; i < 3; i++) expect((await deliverWebhook(paid)).status).toBe(200);
    const [checkout] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, row.id));
    expect(checkout).toMatchObject({ paymentStatus: "paid", refundedCents: 4000, refundState: "full" });
    const stored = await db().select().from(refunds).where(eq(refunds.checkoutSessionId, row.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ origin: "unfulfillable", reason: UNFULFILLABLE_REASONS.gone, orderId: null });
    expect(await db().select().from(orders).where(eq(orders.checkoutSessionId, row.id))).toHaveLength(0);
  });

  it("a product or game with a checkout that may still be paid is archived (ended), never deleted", async () => {
    const fixture = await shopFixture("voucher");
    const row = await startCheckout(fixture);
    expect(await deleteOrArchiveProduct(db(), fixture.product.id, fixture.host.id)).toMatchObject({
      outcome: "archived",
    });
    // The buyer pays afterwards: the order is fulfilled from the archived product.
    await deliverWebhook(paidEvent(row, `pi_test_${crypto.randomUUID().replace(/-/g, "")}`));
    const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, row.id));
    expect(order).toMatchObject({ status: "paid", refundState: "none" });
    expect((await voucherOf(order!.id))?.status).toBe("active");

    // Without any checkout or order it is deleted.
    const unused = await shopFixture("voucher");
    expect(await deleteOrArchiveProduct(db(), unused.product.id, unused.host.id)).toMatchObject({ outcome: "deleted" });

    const [game] = await db()
      .insert(guessWinGames)
      .values({
        hostId: fixture.host.id,
        question: "Which clay?",
        options: ["Red", "White"],
        correctAnswer: "Red",
        entryFeeCents: 100,
        status: "active",
      })
      .returning();
    await db()
      .insert(checkoutSessions)
      .values({
        id: `cs_local_${crypto.randomUUID().replace(/-/g, "")}`,
        provider: "local",
        purpose: "guess_entry",
        userId: fixture.user.id,
        hostId: fixture.host.id,
        amountCents: 100,
        successUrl: `${ORIGIN}/payment/success`,
        cancelUrl: `${ORIGIN}/`,
        metadata: { purpose: "guess_entry", game_id: game!.id, answer: "Red" },
        expiresAt: new Date(Date.now() + 30 * 60_000),
      });
    expect(await deleteOrEndGame(db(), game!.id, fixture.host.id)).toMatchObject({ outcome: "ended" });
    expect(await db().select().from(guessWinGames).where(eq(guessWinGames.id, game!.id))).toHaveLength(1);
  });
});

describe("the contribution's reservation is part of the payment's batch", () => {
  /** Every pool of a host, with the ledger rows of one source key in each. */
  async function ledgersOf(hostId: string, sourceKey: string) {
    const pools = await db().select().from(prizePools).where(eq(prizePools.hostId, hostId));
    return Promise.all(
      pools.map(async (p) => ({
        poolId: p.id,
        rows: (await poolStub(env, p.id).entries()).filter((e) => e.sourceKey === sourceKey),
      })),
    );
  }

  it("a pool object failing after the batch: the reservation is there, the cron applies the money once", async () => {
    // The host has no pool yet: the first pool call (opening one) fails, before any pool code could reserve the key.
    const fixture = await shopFixture("digital");
    const row = await startCheckout(fixture);
    const paid = paidEvent(row, `pi_test_${crypto.randomUUID().replace(/-/g, "")}`);
    const broken = envWithPoolsDown();
    const failed = await processStripeEvent(broken, paid);
    expect(failed.status).toBe(500);
    const key = `checkout:${row.id}`;
    const [reserved] = await db().select().from(poolContributionKeys).where(eq(poolContributionKeys.sourceKey, key));
    expect(reserved).toMatchObject({ hostId: fixture.host.id, amountCents: 400, earnsEntry: true, appliedAt: null });
    const later = new Date(Date.now() + 5 * 60_000);
    await Promise.all([reapplyReservations(env, later), reapplyReservations(env, later)]);
    // The provider's redelivery finds the contribution recorded and gives the order its entry.
    expect((await processStripeEvent(env, paid)).status).toBe(200);
    const ledgers = await ledgersOf(fixture.host.id, key);
    expect(ledgers.flatMap((l) => l.rows)).toHaveLength(1);
    const holding = ledgers.find((l) => l.rows.length > 0)!;
    const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, row.id));
    expect(order).toMatchObject({ poolId: holding.poolId, entryNumber: holding.rows[0]!.entryNumber });
  });

  it("a payment racing its pool's close (webhook five times at once) counts in exactly one pool", async () => {
    const fixture = await shopFixture("digital");
    const pool = await ensureOpenPool(env, fixture.host.id);
    const row = await startCheckout(fixture);
    const paid = paidEvent(row, `pi_test_${crypto.randomUUID().replace(/-/g, "")}`);
    await Promise.all([...[...Array(5)].map(() => deliverWebhook(paid)), closePool(env, pool.id, "closed_early")]);
    const key = `checkout:${row.id}`;
    const ledgers = await ledgersOf(fixture.host.id, key);
    const holding = ledgers.filter((l) => l.rows.length > 0);
    expect(holding).toHaveLength(1);
    expect(holding[0]!.rows).toHaveLength(1);
    const [reserved] = await db().select().from(poolContributionKeys).where(eq(poolContributionKeys.sourceKey, key));
    expect(reserved!.poolId).toBe(holding[0]!.poolId);
    expect(reserved!.appliedAt).not.toBeNull();
    const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, row.id));
    expect(order!.poolId).toBe(holding[0]!.poolId);
  });
});

describe("a winning entry refunded before its prize settles", () => {
  it("is redrawn: the refund event after the draw voids the win and books the pool share to the host", async () => {
    const { order, paymentIntent, host } = await paidOrder("digital");
    await closePool(env, order.poolId!, "closed_early");
    // The pool was drawn on a block and this order's entry won; the prize is within its settlement period.
    await db()
      .update(prizePools)
      .set({
        status: "drawn",
        winnerEntryNumber: order.entryNumber,
        winnerUserId: order.userId,
        drawnAt: new Date(),
        drawBlockHeight: 800_000,
      })
      .where(eq(prizePools.id, order.poolId!));
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const refund = stripeEvent(
      "refund.created",
      refundObject({ id, amount: 4000, status: "succeeded", paymentIntent }),
    );
    await Promise.all([...Array(5)].map(() => deliverWebhook(refund)));
    const [pool] = await db().select().from(prizePools).where(eq(prizePools.id, order.poolId!));
    expect(pool).toMatchObject({ status: "closed", winnerEntryNumber: null });
    const disqualified = await db()
      .select()
      .from(prizeEntryDisqualifications)
      .where(eq(prizeEntryDisqualifications.poolId, order.poolId!));
    expect(disqualified.map((d) => [d.entryNumber, d.reversalKey])).toEqual([[order.entryNumber, id]]);
    expect(
      await db()
        .select()
        .from(hostDebits)
        .where(and(eq(hostDebits.reversalKey, id), eq(hostDebits.hostId, host.id))),
    ).toHaveLength(1);
  });
});

describe("a refund that fails after its pool closed and drew (decision 151)", () => {
  /** Two paid orders of one host's product (USD 40.00 each, USD 4.00 to the pool each) in the same open pool. */
  async function twoBuyersOnePool() {
    const fixture = await shopFixture("digital");
    const buy = async (f: Awaited<ReturnType<typeof shopFixture>>) => {
      const row = await startCheckout(f);
      const paymentIntent = `pi_test_${crypto.randomUUID().replace(/-/g, "")}`;
      expect((await deliverWebhook(paidEvent(row, paymentIntent))).status).toBe(200);
      const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, row.id));
      return { order: order!, paymentIntent };
    };
    const refunded = await buy(fixture);
    const otherBuyer = await makeUser({ name: "Other Buyer" });
    const other = await buy({ ...fixture, user: sessionUserOf(otherBuyer, "Other Buyer"), email: otherBuyer.email });
    expect(other.order.poolId).toBe(refunded.order.poolId);
    return { host: fixture.host, user: fixture.user, ...refunded, other: other.order };
  }

  it("the share the pool gave back goes to the host's open pool once; the entry stays out of the final draw, and the buyer is told so", async () => {
    const { host, user, order, paymentIntent, other } = await twoBuyersOnePool();
    const poolId = order.poolId!;
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const pending = stripeEvent("refund.created", refundObject({ id, amount: 4000, status: "pending", paymentIntent }));
    expect((await deliverWebhook(pending)).status).toBe(200);
    expect(await poolOf(poolId)).toMatchObject({ amountCents: 400, entries: 1, voided: [order.entryNumber] });

    // The pool closes with the other buyer's entry only, and draws it (its block and winner are public and final).
    await closePool(env, poolId, "closed_early");
    await db()
      .update(prizePools)
      .set({
        status: "drawn",
        winnerEntryNumber: other.entryNumber,
        winnerUserId: other.userId,
        drawnAt: new Date(),
        drawBlockHeight: 800_000,
      })
      .where(eq(prizePools.id, poolId));
    const closed = await poolOf(poolId);
    const next = await getOpenPool(env, host.id);
    expect(next && next.id !== poolId).toBe(true);
    const nextBefore = await poolOf(next!.id);

    // Then the refund fails: five concurrent deliveries, a replay under a new event id, and the older event late.
    const failed = stripeEvent("refund.failed", refundObject({ id, amount: 4000, status: "failed", paymentIntent }));
    const responses = await Promise.all([...Array(5)].map(() => deliverWebhook(failed)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    for (const e of [{ ...failed, id: newEventId() }, pending]) expect((await deliverWebhook(e)).status).toBe(200);

    // The buyer paid after all: the order is not refunded.
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 0, refundState: "none" });
    const [row] = await db().select().from(refunds).where(eq(refunds.id, id));
    expect(row).toMatchObject({ status: "failed", reversal: "restored" });
    // The drawn pool is untouched (its amount, its list with this entry void, its winner).
    expect(await poolOf(poolId)).toEqual(closed);
    const [drawn] = await db().select().from(prizePools).where(eq(prizePools.id, poolId));
    expect(drawn).toMatchObject({ status: "drawn", winnerEntryNumber: other.entryNumber });
    // The USD 4.00 share goes to the host's open pool, once, as a carried-over amount (no entry), and is booked once.
    expect(await poolOf(next!.id)).toEqual({ ...nextBefore, amountCents: nextBefore.amountCents + 400 });
    const carried = await db()
      .select()
      .from(prizePoolContributions)
      .where(eq(prizePoolContributions.sourceKey, `${id}:restore`));
    expect(carried.map((c) => [c.poolId, c.sourceType, c.amountCents, c.entryNumber])).toEqual([
      [next!.id, "carry_over", 400, null],
    ]);
    const debits = await db()
      .select()
      .from(hostDebits)
      .where(eq(hostDebits.sourceKey, `checkout:${order.checkoutSessionId}`));
    expect(debits.map((d) => [d.reversalKey, d.amountCents, d.reason])).toEqual([
      [`${id}:restore`, -400, "restored_to_pool"],
    ]);
    // The host's earnings: the refund's row and its exact opposite, once each.
    const booked = await db().select().from(earningsLedger).where(eq(earningsLedger.orderId, order.id));
    const refundRows = booked.filter((b) => b.kind === "refund");
    expect(refundRows.map((b) => b.sourceKey).sort()).toEqual([`refund:${id}`, `refund:${id}:restore`]);
    expect(refundRows.reduce((sum, b) => sum + b.amountCents, 0)).toBe(0);

    // The buyer: one mail that the refund was made, one that it did not go through and that the entry missed the draw.
    const mails = await refundMailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Refund of USD 40.00 for order ${order.orderNumber}`,
      `Refund of USD 40.00 for order ${order.orderNumber} did not go through`,
    ]);
    expect(mails[1]!.textBody).toContain(
      `Your prize pool entry #${order.entryNumber} was removed when the refund was made, so it was not in the pool's draw, which is final.`,
    );
    // Their pages never say the entry counts in that draw.
    const cookie = await signIn(user.email);
    const page = await pageText(await get(`/order/${order.orderNumber}`, { cookie }));
    expect(page).toContain(
      `Prize entry number ${order.entryNumber} · not in the draw: it was void when the pool closed`,
    );
    const mine = await pageText(await get("/my-orders", { cookie }));
    expect(mine).toContain(
      `Prize pool entry #${order.entryNumber} in Refund Host's pool · not in the draw: it was void when the pool closed`,
    );
  });

  it("a refund made after the close (booked to the host) that fails is undone on the host, not added to a pool", async () => {
    const { host, user, order, paymentIntent } = await twoBuyersOnePool();
    await closePool(env, order.poolId!, "closed_early");
    const next = await getOpenPool(env, host.id);
    const nextBefore = await poolOf(next!.id);
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    await deliverWebhook(
      stripeEvent("refund.created", refundObject({ id, amount: 4000, status: "succeeded", paymentIntent })),
    );
    const failed = stripeEvent("refund.failed", refundObject({ id, amount: 4000, status: "failed", paymentIntent }));
    await Promise.all([...Array(3)].map(() => deliverWebhook(failed)));
    const debits = await db()
      .select()
      .from(hostDebits)
      .where(eq(hostDebits.sourceKey, `checkout:${order.checkoutSessionId}`));
    expect(debits.map((d) => [d.reversalKey, d.amountCents, d.reason]).sort()).toEqual([
      [id, 400, "refund_after_close"],
      [`${id}:restore`, -400, "refund_restored"],
    ]);
    expect(await poolOf(next!.id)).toEqual(nextBefore);
    // The entry was in the closed pool's list all along.
    const cookie = await signIn(user.email);
    expect(await pageText(await get(`/order/${order.orderNumber}`, { cookie }))).not.toContain("not in the draw");
  });
});
