import { env } from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { bookEarning } from "~/db/queries/earnings.server";
import { getPayout } from "~/db/queries/payouts.server";
import {
  checkoutSessions,
  groupBuyProducts,
  groupBuyRefunds,
  groupBuys,
  groupBuyTiers,
  mailOutbox,
  notificationDeliveries,
  notifications,
  orders,
  payoutMethods,
  prizeClaims,
  prizePools,
  products,
  productSizes,
  refunds,
  returnRequests,
} from "~/db/schema";
import { formatCents } from "~/domain/money";
import { createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { createGroupBuyCheckout, GroupBuySelectionSchema } from "~/lib/payments/checkout/group-buy-checkout.server";
import { localAccountObject, localConnectEvent } from "~/lib/payments/connect/connect-local.server";
import { runPrizeCron } from "~/lib/payments/connect/prizes.server";
import { processPayout, requestWithdrawal, retryPayout } from "~/lib/payments/connect/payouts.server";
import { closeGroupBuy } from "~/lib/payments/refunds/group-buy-close.server";
import { addContribution, closePool, openPool } from "~/lib/pools.server";
import { runScheduled } from "../workers/scheduled";
import { db, makeSignedInUser, makeUser, ORIGIN, postForm, sessionUserOf, signIn, withoutNetwork } from "./helpers";
import { commitToParent } from "./support/draw";
import { bothHealthy, DRAW_BLOCK, stubGlobalFetch } from "./support/explorers";
import { subscribe, vapidEnv } from "./support/push";
import { checkoutSessionEvent, deliverConnectWebhook, deliverWebhook, stripeEvent } from "./support/webhooks";

// Each event the app tells, triggered the way the app really meets it (signed webhook events, the pages' form posts,
// the cron), delivered at once and run again: one notification per recipient under the event's key, one outbox
// mail for it, and the words the person reads (docs/product.md#notifications, decision 570).

withoutNetwork();

const DAY = 86_400_000;

type Person = { id: string; email: string };

/**
 * Exactly one notification under `key`, exactly one e-mail delivery of it (sent), and its mail in the outbox: as
 * many mails with its subject reached the address as the account has notifications with that subject (two failed
 * attempts of one payout read alike), so a doubled mail fails. Answers the notification and its mail.
 */
async function toldOnce(person: Person, key: string) {
  const rows = await db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, person.id), eq(notifications.key, key)));
  expect(rows).toHaveLength(1);
  const notice = rows[0]!;
  const deliveries = await db()
    .select()
    .from(notificationDeliveries)
    .where(and(eq(notificationDeliveries.notificationId, notice.id), eq(notificationDeliveries.channel, "email")));
  expect(deliveries.map((d) => [d.target, d.status])).toEqual([[person.email, "sent"]]);
  const alike = await db()
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, person.id), eq(notifications.subject, notice.subject)));
  const mails = await db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, person.email), eq(mailOutbox.subject, notice.subject)));
  expect(mails).toHaveLength(alike.length);
  const mail = mails.find((m) => m.textBody.startsWith(notice.text));
  expect(mail).toBeDefined();
  return { notice, mail: mail! };
}

/** Every notification an account holds (kind and key), oldest first. */
async function inbox(person: Person) {
  return (
    await db()
      .select({ kind: notifications.kind, key: notifications.key })
      .from(notifications)
      .where(eq(notifications.userId, person.id))
      .orderBy(asc(notifications.createdAt), asc(notifications.key))
  ).map((n) => `${n.kind} ${n.key}`);
}

const times = <T>(n: number, f: () => Promise<T>) => Promise.all(Array.from({ length: n }, f));

/** A host's physical product at USD 40.00 (one size "One", 10 in stock). */
async function hostProduct(hostId: string, name: string) {
  const [product] = await db()
    .insert(products)
    .values({ hostId, name, category: "physical", status: "active", priceMinCents: 4000, priceMaxCents: 4000 })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: product!.id, name: "One", priceCents: 4000, availableUnits: 10, position: 0 });
  return product!;
}

async function startCheckout(fan: Person, productId: string) {
  const started = await createProductCheckout(env, {
    user: sessionUserOf(fan),
    productId,
    sizeName: "One",
    quantity: 1,
    origin: ORIGIN,
  });
  if (!started.ok) throw new Error(started.message);
  return started.sessionId;
}

async function orderOf(checkoutSessionId: string) {
  const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, checkoutSessionId));
  expect(order).toBeDefined();
  return order!;
}

/** A fan's order of a host's USD 40.00 product, paid by the provider's signed webhook event under its payment intent. */
async function paidByWebhook(hostName: string, fanName: string) {
  const host = await makeUser({ name: hostName });
  const fan = await makeUser({ name: fanName });
  const product = await hostProduct(host.id, "Rattan Lamp");
  const sessionId = await startCheckout(fan, product.id);
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
  const paymentIntent = `pi_test_${crypto.randomUUID().replace(/-/g, "")}`;
  const paid = checkoutSessionEvent(row!, { address: null, overrides: { payment_intent: paymentIntent } });
  expect((await deliverWebhook(paid)).status).toBe(200);
  return { host, fan, paymentIntent, order: await orderOf(sessionId) };
}

describe("a dispute opened (host)", () => {
  it("its events delivered three times at once and in any order tell the host once, with the order and amount", async () => {
    const { host, paymentIntent, order } = await paidByWebhook("Dispute Host", "Dispute Fan");
    const id = `dp_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const dispute = (status: string) => ({
      id,
      object: "dispute",
      amount: 4000,
      currency: "usd",
      status,
      payment_intent: paymentIntent,
      charge: null,
    });
    for (const type of ["charge.dispute.created", "charge.dispute.funds_withdrawn", "charge.dispute.closed"]) {
      const event = stripeEvent(type, dispute(type.endsWith("closed") ? "lost" : "needs_response"));
      const answers = await times(3, () => deliverWebhook(event));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      // The same news resent under a new event id.
      expect((await deliverWebhook(stripeEvent(type, dispute("needs_response")))).status).toBe(200);
    }
    const { notice, mail } = await toldOnce(host, `dispute:${id}`);
    expect(notice.kind).toBe("dispute");
    expect(notice.subject).toBe(`A payment was disputed: order ${order.orderNumber}`);
    expect(notice.url).toBe("/orders");
    expect(mail.textBody).toContain(
      `The buyer's bank opened a dispute of USD 40.00 on order ${order.orderNumber} (Rattan Lamp).`,
    );
    expect(mail.textBody).toContain(`${ORIGIN}/orders`);
    // Mail about money is transactional: no unsubscribe.
    expect(mail.headers).toBeNull();
    expect((await inbox(host)).filter((n) => n.startsWith("dispute "))).toEqual([`dispute dispute:${id}`]);
  });
});

describe("a refund failed (fan, and the host who must refund again)", () => {
  it("refund.failed delivered three times at once, then its older news, tells each once", async () => {
    const { host, fan, paymentIntent, order } = await paidByWebhook("Failed Refund Host", "Failed Refund Fan");
    const id = `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
    const refund = (status: string) => ({
      id,
      object: "refund",
      amount: 4000,
      currency: "usd",
      status,
      payment_intent: paymentIntent,
      charge: null,
      metadata: { checkout_session_id: order.checkoutSessionId, order_id: order.id, origin: "host", reason: "Chipped" },
    });
    const failed = stripeEvent("refund.failed", refund("failed"));
    expect((await times(3, () => deliverWebhook(failed))).map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await deliverWebhook(stripeEvent("refund.created", refund("pending")))).status).toBe(200);
    expect((await deliverWebhook(stripeEvent("refund.failed", refund("failed")))).status).toBe(200);
    await runScheduled(env, new Date());

    const buyer = await toldOnce(fan, `refund-failed:${id}`);
    expect(buyer.notice.subject).toBe(`Refund of USD 40.00 for order ${order.orderNumber} did not go through`);
    expect(buyer.mail.textBody).toContain(
      `The refund of USD 40.00 for your order ${order.orderNumber} (Rattan Lamp) did not go through`,
    );
    expect(buyer.mail.textBody).toContain(`${ORIGIN}/order/${order.orderNumber}`);
    // No refund was sent, so no "refund sent" notice either.
    expect(await inbox(fan)).toEqual([
      `order_confirmed order-confirmed:${order.checkoutSessionId}`,
      `refund refund-failed:${id}`,
    ]);

    const seller = await toldOnce(host, `refund-failed:${id}:${order.id}`);
    expect(seller.notice.subject).toBe(`Refund of USD 40.00 for order ${order.orderNumber} did not go through`);
    expect(seller.mail.textBody).toContain("refund it again from Orders");
  });
});

type Account = Person & { cookie: string };

/** A fan's order paid through the local provider's payment page, shipped then marked Delivered by the host. */
async function deliveredOrder(host: Account, fan: Account) {
  const product = await hostProduct(host.id, `Clay Vase ${crypto.randomUUID().slice(0, 4)}`);
  const sessionId = await startCheckout(fan, product.id);
  const paid = await postForm(`/api/local-checkout/${sessionId}/pay`, {
    name: "Ada Buyer",
    street: "1 Jalan Test",
    city: "George Town",
    postal_code: "10200",
    country: "MY",
  });
  expect(paid.status).toBeLessThan(400);
  await paid.body?.cancel();
  const order = await orderOf(sessionId);
  const steps: Record<string, string>[] = [
    { intent: "update-status", orderId: order.id, status: "shipped", trackingNumber: "TRK-EV1", carrier: "DHL" },
    { intent: "update-status", orderId: order.id, status: "delivered" },
  ];
  for (const fields of steps) expect((await postForm("/orders", fields, { cookie: host.cookie })).status).toBe(302);
  return { order, product };
}

async function returnRequestOf(orderId: string) {
  const rows = await db().select().from(returnRequests).where(eq(returnRequests.orderId, orderId));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe("a return requested (host) and decided (fan)", () => {
  it("asked three times at once: the host is told once; declined three times at once: the fan is told once", async () => {
    const host = await makeSignedInUser({ name: "Return Host" });
    const fan = await makeSignedInUser({ name: "Return Fan" });
    const { order, product } = await deliveredOrder(host, fan);
    const ask = () =>
      postForm(`/order/${order.orderNumber}`, { intent: "request-return", reason: "It arrived cracked" }, fan);
    await times(3, ask);
    await ask();
    const request = await returnRequestOf(order.id);

    const asked = await toldOnce(host, `return-requested:${request.id}`);
    expect(asked.notice.kind).toBe("return_requested");
    expect(asked.notice.subject).toBe(`Return requested for order ${order.orderNumber}`);
    expect(asked.mail.textBody).toContain(`asked to return ${product.name} (order ${order.orderNumber}).`);
    expect(asked.mail.textBody).toContain("Reason: It arrived cracked");
    expect(asked.mail.textBody).toContain(`Accept or decline it in Customer Orders: ${ORIGIN}/orders`);

    const decline = () =>
      postForm(
        "/orders",
        { intent: "decline-return", returnId: request.id, declineReason: "The colour matches the photos" },
        host,
      );
    await times(3, decline);
    await decline();
    await runScheduled(env, new Date());
    const decided = await toldOnce(fan, `return-decided:${request.id}`);
    expect(decided.notice.kind).toBe("return_decision");
    expect(decided.notice.subject).toBe(`Your return of order ${order.orderNumber} was declined`);
    expect(decided.notice.url).toBe(`/order/${order.orderNumber}`);
    expect(decided.mail.textBody).toContain("Reason: The colour matches the photos");
    expect(decided.mail.textBody).toContain(`See the order: ${ORIGIN}/order/${order.orderNumber}`);
    expect(decided.mail.headers).toBeNull();
  });

  it("approved twice at once: the fan is told once, by the refund it made", async () => {
    const host = await makeSignedInUser({ name: "Approve Host" });
    const fan = await makeSignedInUser({ name: "Approve Fan" });
    const { order } = await deliveredOrder(host, fan);
    await postForm(`/order/${order.orderNumber}`, { intent: "request-return", reason: "Too small" }, fan);
    const request = await returnRequestOf(order.id);
    const approve = () => postForm("/orders", { intent: "approve-return", returnId: request.id }, host);
    await times(2, approve);
    await approve();
    await runScheduled(env, new Date());
    const made = await db().select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(made).toHaveLength(1);
    const { notice, mail } = await toldOnce(fan, `refund:${made[0]!.id}`);
    expect(notice.kind).toBe("refund");
    expect(notice.subject).toBe(`Your return of order ${order.orderNumber} is approved`);
    expect(mail.textBody).toContain("USD 40.00");
    expect((await inbox(fan)).filter((n) => n.startsWith("refund "))).toEqual([`refund refund:${made[0]!.id}`]);
  });
});

/**
 * A host's group buy "Kitchen" (target `targetCents` RM cents, one tier: 10% off from the start) of a USD 500.00 mug,
 * joined and paid by two fans through the signed webhook; then its end passes and two closes and the cron race to
 * finalise it, and the cron runs twice more.
 */
async function endedGroupBuy(hostName: string, targetCents: number) {
  const host = await makeUser({ name: hostName });
  const [mug] = await db()
    .insert(products)
    .values({ hostId: host.id, name: "Clay Mug", category: "physical", status: "active" })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: mug!.id, name: "One Size", priceCents: 50_000, availableUnits: 50, position: 0 });
  const [g] = await db()
    .insert(groupBuys)
    .values({
      hostId: host.id,
      name: "Kitchen",
      status: "active",
      targetCents,
      currency: "MYR",
      endAt: new Date(Date.now() + DAY),
    })
    .returning();
  await db()
    .insert(groupBuyTiers)
    .values({ groupBuyId: g!.id, salesThresholdCents: 0, discountPercent: 10, position: 0 });
  await db().insert(groupBuyProducts).values({ groupBuyId: g!.id, productId: mug!.id });
  const fans: Person[] = [];
  for (const name of ["Final Fan A", "Final Fan B"]) {
    const fan = await makeUser({ name });
    const started = await createGroupBuyCheckout(env, {
      user: sessionUserOf(fan),
      groupBuyId: g!.id,
      items: GroupBuySelectionSchema.parse({ items: [{ productId: mug!.id, sizeName: "One Size", quantity: "1" }] })
        .items,
      origin: ORIGIN,
    });
    if (!started.ok) throw new Error(started.message);
    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, started.sessionId));
    expect((await deliverWebhook(checkoutSessionEvent(row!, { address: null }))).status).toBe(200);
    fans.push(fan);
  }
  // Its end passes.
  await db()
    .update(groupBuys)
    .set({ endAt: new Date(Date.now() - 1000) })
    .where(eq(groupBuys.id, g!.id));
  const now = new Date();
  await Promise.all([
    closeGroupBuy(env, g!.id, { mode: "end", now }),
    closeGroupBuy(env, g!.id, { mode: "end", now }),
    runScheduled(env, now),
  ]);
  await runScheduled(env, now);
  await runScheduled(env, now);
  return { host, groupBuyId: g!.id, fans };
}

describe("a group buy finalised (host) and its final refund (fan)", () => {
  it("two closes and the cron racing, then the cron twice more: the host told once, each fan's refund once", async () => {
    // RM 1,000: the two orders meet it, so the final tier applies.
    const { host, groupBuyId, fans } = await endedGroupBuy("Final Host", 100_000);
    const finalised = await toldOnce(host, `group-buy-finalised:${groupBuyId}`);
    expect(finalised.notice.kind).toBe("group_buy_finalised");
    expect(finalised.notice.subject).toBe('Group buy "Kitchen" finalised');
    expect(finalised.mail.textBody).toContain(
      'Your group buy "Kitchen" ended at 10% off: its 2 paid orders were refunded the difference',
    );
    expect(finalised.mail.textBody).toContain(`${ORIGIN}/group-buy-management`);
    // A sales notice: it carries the one-click unsubscribe.
    expect(finalised.mail.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    for (const fan of fans) {
      const [order] = await db().select().from(orders).where(eq(orders.userId, fan.id));
      const tier = await db().select().from(groupBuyRefunds).where(eq(groupBuyRefunds.orderId, order!.id));
      expect(tier).toHaveLength(1);
      expect(tier[0]!.refundId).toBeTruthy();
      const { notice, mail } = await toldOnce(fan, `refund:${tier[0]!.refundId}`);
      expect(notice.subject).toBe(`Refund of USD 50.00 for order ${order!.orderNumber}`);
      expect(mail.textBody).toContain('The group buy "Kitchen" reached a discount tier.');
      expect((await inbox(fan)).filter((n) => n.startsWith("refund "))).toHaveLength(1);
    }
  });

  it("its target not met: the host is told once that the orders keep their price, and no fan hears of a refund", async () => {
    const { host, groupBuyId, fans } = await endedGroupBuy("Unmet Host", 5_000_000);
    const { notice, mail } = await toldOnce(host, `group-buy-finalised:${groupBuyId}`);
    expect(notice.subject).toBe('Group buy "Kitchen" finalised');
    expect(mail.textBody).toContain(
      'Your group buy "Kitchen" ended with no discount: its 2 paid orders keep their price, and your share is in your earnings.',
    );
    expect(mail.textBody).not.toContain("refunded");
    for (const fan of fans) expect((await inbox(fan)).filter((n) => n.startsWith("refund "))).toEqual([]);
  });
});

/** A host with USD 100.00 of earnings available and a verified Connect account (through the Connect webhook). */
async function hostReadyToWithdraw(name: string) {
  const host = await makeUser({ name });
  await bookEarning(db(), {
    hostId: host.id,
    kind: "ad_revenue",
    sourceKey: `test-credit:${crypto.randomUUID()}`,
    amountCents: 10_000,
    grossCents: 20_000,
    poolCents: 6_000,
    platformCents: 4_000,
    description: "Test ad revenue",
    availableAt: new Date(Date.now() - 7 * DAY),
    occurredAt: new Date(Date.now() - 7 * DAY),
  });
  await verifiedConnectAccount(host.id, name);
  return host;
}

/** A verified, default Connect payout account for the user, through the Connect webhook (as onboarding makes it). */
async function verifiedConnectAccount(userId: string, name: string) {
  const accountId = `acct_local_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
  await db()
    .insert(payoutMethods)
    .values({ userId, holderName: name, accountLast4: "", bankName: "", connectedAccountId: accountId });
  const verified = localConnectEvent(
    "account.updated",
    localAccountObject(accountId, { payoutsEnabled: true, holderName: name, country: "US" }),
    accountId,
  );
  expect((await deliverConnectWebhook(verified)).status).toBe(200);
}

describe("a payout sent or failed (host)", () => {
  it("sent: the withdrawal, its transfer event three times at once and the step run again tell the host once", async () => {
    const host = await hostReadyToWithdraw("Payout Host");
    const requested = await requestWithdrawal(env, ORIGIN, host.id, "40");
    if (!requested.ok) throw new Error(requested.message);
    const payout = requested.payout;
    expect(payout).toMatchObject({ status: "completed", attempt: 0 });
    const created = localConnectEvent("transfer.created", {
      id: payout.transferId,
      object: "transfer",
      metadata: { payout_id: payout.id, attempt: "0" },
    });
    await times(3, () => deliverConnectWebhook(created));
    for (let i = 0; i < 3; i++) await processPayout(env, ORIGIN, payout.id);
    await runScheduled(env, new Date());

    const { notice, mail } = await toldOnce(host, `payout-sent:${payout.id}:0`);
    expect(notice.kind).toBe("payout_result");
    expect(notice.subject).toBe("Your withdrawal of USD 40.00 is on its way");
    expect(notice.url).toBe("/payouts");
    expect(mail.textBody).toContain("We sent your withdrawal of USD 40.00 to your payout account.");
    expect(mail.textBody).toContain(`${ORIGIN}/payouts`);
    expect((await inbox(host)).filter((n) => n.startsWith("payout_result "))).toEqual([
      `payout_result payout-sent:${payout.id}:0`,
    ]);

    // Its bank payout (paid by the local provider) then fails at the bank: Stripe's payout.failed, delivered three
    // times at once and again under a new event id, tells the host once.
    const bankId = (await getPayout(db(), payout.id))!.bankPayoutId!;
    expect(bankId).toBeTruthy();
    const account = (await db().select().from(payoutMethods).where(eq(payoutMethods.userId, host.id)))[0]!;
    const bankFailed = () =>
      localConnectEvent(
        "payout.failed",
        { id: bankId, object: "payout", metadata: { payout_request_id: payout.id } },
        account.connectedAccountId!,
      );
    const failedEvent = bankFailed();
    expect((await times(3, () => deliverConnectWebhook(failedEvent))).map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await deliverConnectWebhook(bankFailed())).status).toBe(200);
    expect(await getPayout(db(), payout.id)).toMatchObject({ status: "completed", bankPayoutStatus: "failed" });
    // A payout.paid for it delivered late (Stripe sends no order): the bank's refusal stands.
    const latePaid = localConnectEvent(
      "payout.paid",
      { id: bankId, object: "payout", metadata: { payout_request_id: payout.id } },
      account.connectedAccountId!,
    );
    expect((await deliverConnectWebhook(latePaid)).status).toBe(200);
    expect(await getPayout(db(), payout.id)).toMatchObject({ status: "completed", bankPayoutStatus: "failed" });
    const bounced = await toldOnce(host, `bank-payout-failed:${bankId}`);
    expect(bounced.notice.subject).toBe("Your bank did not accept your withdrawal of USD 40.00");
    expect(bounced.mail.textBody).toContain(
      "Your withdrawal of USD 40.00 reached your payout account, but your bank did not accept its payout.",
    );
    expect(bounced.mail.textBody).toContain(`${ORIGIN}/payouts`);
    expect((await inbox(host)).filter((n) => n.startsWith("payout_result "))).toEqual([
      `payout_result payout-sent:${payout.id}:0`,
      `payout_result bank-payout-failed:${bankId}`,
    ]);
  });

  it("failed: a refused transfer told once per attempt; a reversal delivered three times at once told once", async () => {
    const host = await hostReadyToWithdraw("Refused Host");
    // The local provider refuses a transfer of 13.13 every time.
    const refused = await requestWithdrawal(env, ORIGIN, host.id, "13.13");
    if (!refused.ok) throw new Error(refused.message);
    const id = refused.payout.id;
    expect(refused.payout.status).toBe("failed");
    const first = await toldOnce(host, `payout-failed:${id}:0`);
    expect(first.notice.subject).toBe("Your withdrawal of USD 13.13 did not go through");
    expect(first.mail.textBody).toContain(
      "Your withdrawal of USD 13.13 did not go through: Payout temporarily unavailable. The money is back in your balance",
    );
    // Retried (from Payouts) and refused again: a new attempt, told once; the first is not told again.
    await retryPayout(env, ORIGIN, host.id, id);
    await runScheduled(env, new Date());
    await toldOnce(host, `payout-failed:${id}:1`);
    await toldOnce(host, `payout-failed:${id}:0`);

    const sent = await requestWithdrawal(env, ORIGIN, host.id, "20");
    if (!sent.ok) throw new Error(sent.message);
    const reversal = localConnectEvent("transfer.reversed", {
      id: sent.payout.transferId,
      object: "transfer",
      metadata: { payout_id: sent.payout.id },
    });
    await times(3, () => deliverConnectWebhook(reversal));
    await deliverConnectWebhook({ ...reversal, id: `evt_again_${crypto.randomUUID()}` });
    expect(await getPayout(db(), sent.payout.id)).toMatchObject({ status: "failed" });
    const reversed = await toldOnce(host, `payout-failed:${sent.payout.id}:0`);
    expect(reversed.notice.subject).toBe("Your withdrawal of USD 20.00 did not go through");
    expect(reversed.mail.textBody).toContain("did not go through: The transfer was reversed.");
    await toldOnce(host, `payout-sent:${sent.payout.id}:0`);
  });
});

// The draw block, confirmed 10 blocks deep by both explorers once they are up.
const BLOCK = DRAW_BLOCK;
const CONFIRMED_TIP = BLOCK.height + 10;

/** Both configured explorers up, agreeing on a chain holding the draw block with a tip 10 blocks above it. */
function explorersUp() {
  vi.restoreAllMocks();
  stubGlobalFetch(bothHealthy(CONFIRMED_TIP));
}

describe("a pool closed and drawn (fans holding entries, and the host)", () => {
  it("the cron racing itself and run again tells each once, with their entry numbers and the verification link; the prize paid, once", async () => {
    const host = await makeUser({ name: "Pool Host" });
    const ada = await makeUser({ name: "Pool Fan Ada" });
    const ben = await makeUser({ name: "Pool Fan Ben" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
    // Entries #0 and #2 are Ada's, #1 is Ben's; the host's deposit earns none.
    for (const [i, fan] of [ada, ben, ada].entries())
      await addContribution(env, {
        hostId: host.id,
        sourceType: "product_purchase",
        sourceKey: `pi_notice_${pool.id}_${i}`,
        amountCents: 1_000,
        currency: "USD",
        userId: fan.id,
        earnsEntry: true,
      });
    await addContribution(env, {
      hostId: host.id,
      sourceType: "host_deposit",
      sourceKey: `dep_notice_${pool.id}`,
      amountCents: 50_000,
      currency: "USD",
      userId: host.id,
      earnsEntry: false,
    });
    // Closed at its end (no explorer answers at that moment), then committed to the fixture block.
    await closePool(env, pool.id, "timer_expired");
    await commitToParent(pool.id, BLOCK);
    const link = `${ORIGIN}/winner-selection/${pool.id}`;
    // Ada's browser is subscribed to push and push is configured: her notice also goes there, once.
    const pushEnv = await vapidEnv();
    const adaBrowser = await subscribe(ada.id);
    const pushed: string[] = [];
    vi.restoreAllMocks();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.startsWith("https://push.test/")) throw new TypeError("network disabled in tests");
      pushed.push(url);
      return new Response(null, { status: 201 });
    });

    // The cron twice at once and once more, the explorers still down: closed, not drawn.
    await Promise.all([runScheduled(pushEnv, new Date()), runScheduled(pushEnv, new Date())]);
    await runScheduled(pushEnv, new Date());
    expect(pushed).toEqual([adaBrowser]);
    const [closedRow] = await db().select().from(prizePools).where(eq(prizePools.id, pool.id));
    expect(closedRow!.status).toBe("closed");
    const closedKey = `pool-closed:${pool.id}`;
    const closedForAda = await toldOnce(ada, closedKey);
    expect(closedForAda.notice.kind).toBe("pool_closed");
    expect(closedForAda.notice.subject).toBe("Pool Host's prize pool closed");
    expect(closedForAda.notice.url).toBe(`/winner-selection/${pool.id}`);
    expect(closedForAda.mail.textBody).toContain(
      "Pool Host's prize pool closed at USD 530.00 with 3 entries. Your entries: #0, #2.",
    );
    expect(closedForAda.mail.textBody).toContain(
      `The winner is drawn from Bitcoin block ${BLOCK.height}; check the entry list and the draw: ${link}`,
    );
    // Pool updates can be switched off: the mail carries the one-click unsubscribe.
    expect(closedForAda.mail.headers?.["List-Unsubscribe"]).toMatch(/c=pool/);
    const adaPushes = await db()
      .select({ target: notificationDeliveries.target, status: notificationDeliveries.status })
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.notificationId, closedForAda.notice.id),
          eq(notificationDeliveries.channel, "push"),
        ),
      );
    expect(adaPushes).toEqual([{ target: adaBrowser, status: "sent" }]);
    expect((await toldOnce(ben, closedKey)).mail.textBody).toContain("Your entry: #1.");
    const closedForHost = await toldOnce(host, closedKey);
    expect(closedForHost.notice.subject).toBe("Your prize pool closed");
    expect(closedForHost.mail.textBody).toContain(`Your prize pool closed at USD 530.00 with 3 entries.`);
    expect(closedForHost.mail.textBody).toContain(link);
    for (const person of [host, ada, ben])
      expect((await inbox(person)).filter((n) => n.startsWith("pool_drawn"))).toEqual([]);

    // The explorers answer: the cron twice at once draws, and once more changes nothing.
    explorersUp();
    await Promise.all([runScheduled(env, new Date()), runScheduled(env, new Date())]);
    await runScheduled(env, new Date());
    const [drawnRow] = await db().select().from(prizePools).where(eq(prizePools.id, pool.id));
    const winningEntry = Number(BigInt(`0x${BLOCK.id}`) % 3n);
    expect(drawnRow).toMatchObject({ status: "drawn", drawBlockHash: BLOCK.id, winnerEntryNumber: winningEntry });
    const winner = winningEntry === 1 ? ben : ada;
    const loser = winningEntry === 1 ? ada : ben;
    const drawnKey = `pool-drawn:${pool.id}`;
    const won = await toldOnce(winner, drawnKey);
    expect(won.notice.kind).toBe("pool_drawn");
    expect(won.notice.subject).toBe("Pool Host's prize pool was drawn");
    expect(won.mail.textBody).toContain(
      `Pool Host's prize pool was drawn: entry #${winningEntry} won the main prize (that's yours!).`,
    );
    expect(won.mail.textBody).toContain(`See how it was drawn: ${link}`);
    const lost = await toldOnce(loser, drawnKey);
    expect(lost.mail.textBody).toContain(`entry #${winningEntry} won the main prize.`);
    expect(lost.mail.textBody).not.toContain("that's yours");
    const drawnForHost = await toldOnce(host, drawnKey);
    expect(drawnForHost.mail.textBody).toContain(
      `Your prize pool was drawn: entry #${winningEntry} won the main prize. ${link}`,
    );
    // The winner's own notices, once each: the prize won, and the prize payable with its claim (the cron's prize
    // step, racing itself too); nobody else gets either.
    const prize = await toldOnce(winner, `prize-won:${pool.id}`);
    expect(prize.notice.subject).toBe("You won the main prize!");
    expect(prize.mail.textBody).toContain(`Your entry #${winningEntry} won the main prize of USD`);
    const payable = (await inbox(winner)).find((n) => n.startsWith("winner prize-payable:"));
    expect(payable).toBeDefined();
    const claim = await toldOnce(winner, payable!.slice("winner ".length));
    expect(claim.notice.url).toBe(`/prize-claim/${pool.id}`);
    for (const person of [host, ada, ben])
      expect((await inbox(person)).filter((n) => n.startsWith("pool_") || n.startsWith("winner ")).sort()).toEqual(
        [
          `pool_closed ${closedKey}`,
          `pool_drawn ${drawnKey}`,
          ...(person === winner ? [payable!, `winner prize-won:${pool.id}`] : []),
        ].sort(),
      );

    // The prize paid (a payout sent to a prize winner): the winner claims it, an admin records the ID check, and
    // after settlement the cron's prize step, racing itself and run again, pays it and tells the winner once.
    const cookie = await signIn(winner.email);
    expect((await postForm(`/prize-claim/${pool.id}`, { legalName: "Pool Winner" }, { cookie })).status).toBe(200);
    const [claimRow] = await db().select().from(prizeClaims).where(eq(prizeClaims.poolId, pool.id));
    const admin = await makeSignedInUser({ role: "admin", name: "Notice Admin" });
    const check = { intent: "record-id-check", claimId: claimRow!.id, note: "Passport 123456789, born 1990-04-02" };
    expect((await postForm("/admin", check, admin)).status).toBe(200);
    await verifiedConnectAccount(winner.id, "Pool Winner");
    const afterSettlement = new Date(Date.now() + 31 * DAY);
    await Promise.all([runPrizeCron(env, afterSettlement), runPrizeCron(env, afterSettlement)]);
    await runScheduled(env, afterSettlement);
    const paid = (await getPayout(db(), claimRow!.payoutId!))!;
    expect(paid).toMatchObject({ status: "completed", payoutType: "prize_winner", attempt: 0 });
    const sentPrize = await toldOnce(winner, `payout-sent:${paid.id}:0`);
    const amount = formatCents(paid.amountCents, paid.currency);
    expect(sentPrize.notice.subject).toBe(`Your prize of ${amount} is on its way`);
    expect(sentPrize.mail.textBody).toContain(`We sent your prize of ${amount} to your payout account.`);
    expect((await inbox(winner)).filter((n) => n.startsWith("payout_result "))).toEqual([
      `payout_result payout-sent:${paid.id}:0`,
    ]);
  });
});
