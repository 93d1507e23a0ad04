import { env } from "cloudflare:test";
import { and, eq, inArray, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  checkoutSessions,
  disputes,
  earningsLedger,
  hostDebits,
  mailOutbox,
  orders,
  prizePoolContributions,
  products,
  productSizes,
  refundParts,
  refunds,
  userProfiles,
  vouchers,
} from "~/db/schema";
import { createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { closePool, poolStub } from "~/lib/pools.server";
import { db, get, makeUser, ORIGIN, pageText, postForm, sessionUserOf, signIn, withoutNetwork } from "./helpers";
import { BUYER_ADDRESS, checkoutSessionEvent, deliverWebhook, newEventId, stripeEvent } from "./support/webhooks";

// A refund made in Stripe's dashboard (no metadata) or a dispute (never our metadata) of a cart payment, which paid
// several hosts: it counts on the cart's orders, split in proportion to what each has left
// (docs/decisions/160-cart-refunds-and-disputes.md): each order's refunded total and state, its voucher, its host's
// pool share and entry, its host's earnings; what the buyer and each host see; replays count once.

withoutNetwork();

async function host(name: string) {
  const h = await makeUser({ name });
  await db().update(userProfiles).set({ country: "MY" }).where(eq(userProfiles.userId, h.id));
  return { ...h, cookie: await signIn(h.email) };
}

async function product(hostId: string, name: string, priceCents: number, category: "physical" | "digital" | "voucher") {
  const [p] = await db()
    .insert(products)
    .values({
      hostId,
      name,
      category,
      voucherValueCents: category === "voucher" ? priceCents : null,
      voucherExpiresAt: category === "voucher" ? new Date(Date.now() + 90 * 86_400_000) : null,
    })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: p!.id, name: "One Size", priceCents, availableUnits: 10, position: 0 });
  return p!;
}

/**
 * A paid cart of USD 80.00 across two hosts: host A's lamp (30.00) and print (10.00), host B's class voucher (40.00).
 * Each host's pool gets 10% of their part (A 4.00, B 4.00) and one entry for the buyer.
 */
async function paidCart() {
  const a = await host("Split Host A");
  const b = await host("Split Host B");
  const lamp = await product(a.id, "Split Lamp", 3_000, "physical");
  const print = await product(a.id, "Split Print", 1_000, "digital");
  const lesson = await product(b.id, "Split Class", 4_000, "voucher");
  const fan = await makeUser({ name: "Split Buyer" });
  const cookie = await signIn(fan.email);
  for (const p of [lamp, print, lesson])
    expect((await postForm("/cart", { intent: "add", productId: p.id, size: "One Size" }, { cookie })).status).toBe(
      303,
    );
  expect((await postForm("/cart", { intent: "checkout", shipTo: "MY" }, { cookie })).status).toBe(302);
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.userId, fan.id));
  const paymentIntent = `pi_test_${crypto.randomUUID().replace(/-/g, "")}`;
  const paid = checkoutSessionEvent(row!, {
    buyerName: "Split Buyer",
    address: BUYER_ADDRESS,
    overrides: { payment_intent: paymentIntent },
  });
  expect((await deliverWebhook(paid)).status).toBe(200);
  const placed = await db().select().from(orders).where(eq(orders.checkoutSessionId, row!.id)).orderBy(orders.line);
  const byProduct = (id: string) => placed.find((o) => o.productId === id)!;
  const cart = {
    a,
    b,
    fan: { ...fan, cookie },
    sessionId: row!.id,
    paymentIntent,
    lamp: byProduct(lamp.id),
    print: byProduct(print.id),
    lesson: byProduct(lesson.id),
  };
  expect(cart.lamp.poolId && cart.lesson.poolId && cart.lamp.poolId !== cart.lesson.poolId).toBeTruthy();
  expect(cart.print.poolId).toBe(cart.lamp.poolId);
  return cart;
}

type Cart = Awaited<ReturnType<typeof paidCart>>;

async function poolOf(poolId: string) {
  const stub = poolStub(env, poolId);
  const [state, entries] = await Promise.all([stub.state(), stub.entries()]);
  return {
    amountCents: state.amountCents,
    entries: state.entries,
    voided: entries.filter((e) => e.voided).map((e) => e.entryNumber),
  };
}

/** Each host's pool (A's, B's) as it is now. */
const pools = async (cart: Cart) => ({ a: await poolOf(cart.lamp.poolId!), b: await poolOf(cart.lesson.poolId!) });

async function totals(cart: Cart) {
  const rows = await db().select().from(orders).where(eq(orders.checkoutSessionId, cart.sessionId));
  const of = (id: string) => {
    const o = rows.find((r) => r.id === id)!;
    return [o.refundedCents, o.refundState];
  };
  const [payment] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, cart.sessionId));
  return {
    lamp: of(cart.lamp.id),
    print: of(cart.print.id),
    lesson: of(cart.lesson.id),
    payment: [payment!.refundedCents, payment!.refundState],
  };
}

const voucherStatus = async (orderId: string) =>
  (await db().select().from(vouchers).where(eq(vouchers.orderId, orderId)))[0]?.status;

/** The earnings rows a refund or dispute booked per order: order id -> [gross, host's amount]. */
async function earningsOf(kind: "refund" | "dispute", id: string) {
  const rows = await db()
    .select()
    .from(earningsLedger)
    .where(like(earningsLedger.sourceKey, `${kind}:${id}:%`));
  return rows;
}

const refundId = () => `re_test_${crypto.randomUUID().replace(/-/g, "")}`;
const disputeId = () => `dp_test_${crypto.randomUUID().replace(/-/g, "")}`;

function refundObject(p: { id: string; amount: number; status: string; paymentIntent: string }) {
  return {
    id: p.id,
    object: "refund",
    amount: p.amount,
    currency: "usd",
    status: p.status,
    payment_intent: p.paymentIntent,
    charge: null,
    metadata: {},
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

/** A page's visible text for a signed-in user. */
async function text(path: string, cookie: string) {
  return pageText(await get(path, { cookie }));
}

/** Delivers each event `times` times at once, every delivery answered 200. */
async function deliverAll(events: object[], times = 5) {
  for (const e of events) {
    const responses = await Promise.all([...Array(times)].map(() => deliverWebhook(e)));
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
  }
}

describe("a cart payment refunded in Stripe's dashboard (no order named)", () => {
  it("in full: every order refunded, each host's pool share reversed and entry voided, once; a failed refund restores all", async () => {
    const cart = await paidCart();
    const before = await pools(cart);
    const id = refundId();
    const refund = (status: string) =>
      stripeEvent(
        `refund.${status === "pending" ? "created" : status === "failed" ? "failed" : "updated"}`,
        refundObject({ id, amount: 8_000, status, paymentIntent: cart.paymentIntent }),
      );
    // The update first, then each event five times at once, then the creation again.
    const succeeded = refund("succeeded");
    const created = refund("pending");
    await deliverAll([succeeded, created, succeeded]);

    expect(await totals(cart)).toEqual({
      lamp: [3_000, "full"],
      print: [1_000, "full"],
      lesson: [4_000, "full"],
      payment: [8_000, "full"],
    });
    expect(await voucherStatus(cart.lesson.id)).toBe("void");
    const [row] = await db().select().from(refunds).where(eq(refunds.id, id));
    expect(row).toMatchObject({
      orderId: null,
      amountCents: 8_000,
      status: "succeeded",
      origin: "provider",
      reversal: "applied",
    });
    const parts = await db().select().from(refundParts).where(eq(refundParts.sourceId, id));
    expect(parts.map((p) => [p.orderId, p.amountCents, p.reversal]).sort()).toEqual(
      [
        [cart.lamp.id, 3_000, "applied"],
        [cart.print.id, 1_000, "applied"],
        [cart.lesson.id, 4_000, "applied"],
      ].sort(),
    );
    const after = await pools(cart);
    expect(after.a).toEqual({
      amountCents: before.a.amountCents - 400,
      entries: before.a.entries - 1,
      voided: [cart.lamp.entryNumber],
    });
    expect(after.b).toEqual({
      amountCents: before.b.amountCents - 400,
      entries: before.b.entries - 1,
      voided: [cart.lesson.entryNumber],
    });
    // One reversal per order, each on its own host's contribution (the first of a fully refunded part takes the rest).
    const reversals = await db()
      .select()
      .from(prizePoolContributions)
      .where(like(prizePoolContributions.reversesKey, `checkout:${cart.sessionId}%`));
    expect(reversals.map((r) => r.sourceKey).sort()).toEqual(
      [`${id}:${cart.lamp.id}`, `${id}:${cart.print.id}`, `${id}:${cart.lesson.id}`].sort(),
    );
    const reversedBy = (hostId: string) =>
      reversals.filter((r) => r.hostId === hostId).reduce((sum, r) => sum + r.amountCents, 0);
    expect([reversedBy(cart.a.id), reversedBy(cart.b.id)]).toEqual([-400, -400]);
    // Each host's earnings give back each of their orders' sale, once.
    const booked = await earningsOf("refund", id);
    expect(booked.map((r) => [r.hostId, r.orderId, r.grossCents]).sort()).toEqual(
      [
        [cart.a.id, cart.lamp.id, -3_000],
        [cart.a.id, cart.print.id, -1_000],
        [cart.b.id, cart.lesson.id, -4_000],
      ].sort(),
    );

    // What the buyer sees: every order refunded, with the refund's line.
    const mine = await text("/my-orders", cart.fan.cookie);
    for (const o of [cart.lamp, cart.print, cart.lesson]) expect(mine).toContain(o.orderNumber);
    expect(mine).toContain("USD 30.00 of USD 30.00 refunded");
    expect(mine).toContain("USD 40.00 of USD 40.00 refunded");
    const lampPage = await text(`/order/${cart.lamp.orderNumber}`, cart.fan.cookie);
    expect(lampPage).toContain("USD 30.00 of USD 30.00 refunded");
    // The refund's line on the order: its part, with its label.
    expect(lampPage).toContain("USD 30.00 Refunded");
    expect(mine).toContain("Refunded");
    // Each host sees their own orders refunded, and the refunds in their revenue.
    const aOrders = await text("/orders", cart.a.cookie);
    expect(aOrders).toContain("USD 30.00 of USD 30.00 refunded");
    expect(aOrders).toContain("USD 10.00 of USD 10.00 refunded");
    expect(aOrders).not.toContain(cart.lesson.productName);
    const bOrders = await text("/orders", cart.b.cookie);
    expect(bOrders).toContain("USD 40.00 of USD 40.00 refunded");
    expect(bOrders).not.toContain(cart.lamp.productName);
    const aRevenue = await text("/revenue", cart.a.cookie);
    expect(aRevenue).toContain(`${cart.lamp.orderNumber} · Refund`);
    expect(aRevenue).toContain(`${cart.print.orderNumber} · Refund`);
    expect(aRevenue).not.toContain(cart.lesson.productName);

    // The buyer's one mail names each order and its part.
    const buyerMails = async () =>
      (
        await db()
          .select()
          .from(mailOutbox)
          .where(eq(mailOutbox.toAddress, cart.fan.email))
          .orderBy(mailOutbox.createdAt)
      ).filter((m) => m.subject.startsWith("Refund of"));
    const [refundedMail] = await buyerMails();
    expect(refundedMail?.subject).toBe("Refund of USD 80.00 for 3 orders");
    expect(refundedMail?.textBody).toContain(`- Order ${cart.lamp.orderNumber} (Split Lamp): USD 30.00`);
    expect(refundedMail?.textBody).toContain(`- Order ${cart.lesson.orderNumber} (Split Class): USD 40.00`);

    // The refund fails after all (five times at once, then a late creation): everything comes back, once.
    await deliverAll([refund("failed"), created]);
    // The buyer is told once that it did not go through, and each host once about each of their orders.
    expect((await buyerMails()).map((m) => m.subject)).toEqual([
      "Refund of USD 80.00 for 3 orders",
      "Refund of USD 80.00 for 3 orders did not go through",
    ]);
    const hostNotices = async (email: string) =>
      (await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)))
        .map((m) => m.subject)
        .filter((s) => s.endsWith("did not go through"))
        .sort();
    expect(await hostNotices(cart.a.email)).toEqual(
      [
        `Refund of USD 10.00 for order ${cart.print.orderNumber} did not go through`,
        `Refund of USD 30.00 for order ${cart.lamp.orderNumber} did not go through`,
      ].sort(),
    );
    expect(await hostNotices(cart.b.email)).toEqual([
      `Refund of USD 40.00 for order ${cart.lesson.orderNumber} did not go through`,
    ]);
    expect(await totals(cart)).toEqual({
      lamp: [0, "none"],
      print: [0, "none"],
      lesson: [0, "none"],
      payment: [0, "none"],
    });
    expect(await voucherStatus(cart.lesson.id)).toBe("active");
    expect(await pools(cart)).toEqual(before);
    const restored = await db().select().from(refundParts).where(eq(refundParts.sourceId, id));
    expect(restored.map((p) => p.reversal)).toEqual(["restored", "restored", "restored"]);
    expect((await db().select().from(refunds).where(eq(refunds.id, id)))[0]!.reversal).toBe("restored");
    const net = (await earningsOf("refund", id)).reduce((sum, r) => sum + r.amountCents, 0);
    expect(net).toBe(0);
    expect(await text(`/order/${cart.lamp.orderNumber}`, cart.fan.cookie)).not.toContain("of USD 30.00 refunded");
  });

  it("in part, twice: split by what each order has left; entries kept until more than half of a host's part is refunded", async () => {
    const cart = await paidCart();
    const before = await pools(cart);
    const first = refundId();
    const half = stripeEvent(
      "refund.created",
      refundObject({ id: first, amount: 4_000, status: "succeeded", paymentIntent: cart.paymentIntent }),
    );
    await deliverAll([half]);
    // 40.00 of 80.00 in proportion to 30 : 10 : 40.
    expect(await totals(cart)).toEqual({
      lamp: [1_500, "partial"],
      print: [500, "partial"],
      lesson: [2_000, "partial"],
      payment: [4_000, "partial"],
    });
    expect(await voucherStatus(cart.lesson.id)).toBe("active");
    const halfway = await pools(cart);
    expect(halfway.a).toEqual({ ...before.a, amountCents: before.a.amountCents - 200 });
    expect(halfway.b).toEqual({ ...before.b, amountCents: before.b.amountCents - 200 });
    const lampPage = await text(`/order/${cart.lamp.orderNumber}`, cart.fan.cookie);
    expect(lampPage).toContain("USD 15.00 of USD 30.00 refunded");
    expect(lampPage).toContain("USD 15.00 Refunded");
    expect(await text("/orders", cart.b.cookie)).toContain("USD 20.00 of USD 40.00 refunded");

    // A second dashboard refund of 25.00 (a replay of the first among its events): split over what is left.
    const second = refundId();
    await deliverAll([
      stripeEvent(
        "refund.created",
        refundObject({ id: second, amount: 2_500, status: "pending", paymentIntent: cart.paymentIntent }),
      ),
      half,
    ]);
    const parts = await db().select().from(refundParts).where(eq(refundParts.sourceId, second));
    const partOf = (orderId: string) => parts.find((p) => p.orderId === orderId)!.amountCents;
    // Left: 15.00 : 5.00 : 20.00 -> 9.375 : 3.125 : 12.50, largest remainder.
    expect([partOf(cart.lamp.id), partOf(cart.print.id), partOf(cart.lesson.id)]).toEqual([938, 312, 1_250]);
    expect(await totals(cart)).toEqual({
      lamp: [2_438, "partial"],
      print: [812, "partial"],
      lesson: [3_250, "partial"],
      payment: [6_500, "partial"],
    });
    // More than half of each host's part is refunded now: both entries are void.
    const now = await pools(cart);
    expect(now.a.voided).toEqual([cart.lamp.entryNumber]);
    expect(now.b.voided).toEqual([cart.lesson.entryNumber]);
    // Each order's share at its own refunded level, as the earnings ledger books it (decision 380): the lamp's 3.00 at
    // 24.38 of 30.00 refunded gives back 2.43, the print's 1.00 at 8.12 of 10.00 gives back 0.81 (not 3.25 for host
    // A's part as a whole).
    expect(now.a.amountCents).toBe(before.a.amountCents - 243 - 81);
    const booked = await db()
      .select()
      .from(earningsLedger)
      .where(inArray(earningsLedger.orderId, [cart.lamp.id, cart.print.id]));
    expect(booked.filter((r) => r.kind === "refund").reduce((sum, r) => sum + r.poolCents, 0)).toBe(-(243 + 81));
    expect(now.b.amountCents).toBe(before.b.amountCents - 200 - 125);
    const bPage = await text(`/order/${cart.lesson.orderNumber}`, cart.fan.cookie);
    expect(bPage).toContain("USD 32.50 of USD 40.00 refunded");
    expect(bPage).toContain("USD 12.50 Refunded");
    expect(bPage).toContain("USD 20.00 Refunded");
    expect(bPage).not.toContain("USD 25.00 Refunded");
  });
});

describe("a cart refunded after one host's pool closed", () => {
  it("that host carries its pool share (host debits, earnings), the other host's open pool gives it back", async () => {
    const cart = await paidCart();
    await closePool(env, cart.lamp.poolId!, "closed_early");
    const before = await pools(cart);
    const id = refundId();
    await deliverAll([
      stripeEvent(
        "refund.created",
        refundObject({ id, amount: 8_000, status: "succeeded", paymentIntent: cart.paymentIntent }),
      ),
    ]);
    const after = await pools(cart);
    // Host A's frozen pool never changes; its share is booked to the host, once per order.
    expect(after.a).toEqual(before.a);
    const debits = await db()
      .select()
      .from(hostDebits)
      .where(like(hostDebits.reversalKey, `${id}:%`));
    expect(debits.map((d) => [d.hostId, d.reversalKey]).sort()).toEqual(
      [
        [cart.a.id, `${id}:${cart.lamp.id}`],
        [cart.a.id, `${id}:${cart.print.id}`],
      ].sort(),
    );
    expect(debits.reduce((sum, d) => sum + d.amountCents, 0)).toBe(400);
    expect(after.b).toEqual({
      amountCents: before.b.amountCents - 400,
      entries: before.b.entries - 1,
      voided: [cart.lesson.entryNumber],
    });
    const booked = await earningsOf("refund", id);
    const hostA = booked.filter((r) => r.hostId === cart.a.id);
    const sales = await db().select().from(earningsLedger).where(like(earningsLedger.sourceKey, "sale:%"));
    const saleOf = (orderId: string) => sales.find((r) => r.orderId === orderId)!;
    // Host A gives back the host's and the pool's parts of both sales; host B only the host's part.
    expect(hostA.reduce((sum, r) => sum + r.amountCents, 0)).toBe(
      -[cart.lamp.id, cart.print.id].reduce((sum, o) => sum + saleOf(o).amountCents + saleOf(o).poolCents, 0),
    );
    expect(booked.find((r) => r.hostId === cart.b.id)!.amountCents).toBe(-saleOf(cart.lesson.id).amountCents);
  });
});

describe("a dispute of a cart payment", () => {
  it("funds withdrawn: counts on every order once; won and reinstated: everything restored once", async () => {
    const cart = await paidCart();
    const before = await pools(cart);
    const id = disputeId();
    const dispute = (status: string) => disputeObject({ id, amount: 8_000, status, paymentIntent: cart.paymentIntent });
    const created = stripeEvent("charge.dispute.created", dispute("needs_response"));
    const withdrawn = stripeEvent("charge.dispute.funds_withdrawn", dispute("needs_response"));
    await deliverAll([withdrawn, created, withdrawn]);
    expect(await totals(cart)).toEqual({
      lamp: [3_000, "full"],
      print: [1_000, "full"],
      lesson: [4_000, "full"],
      payment: [8_000, "full"],
    });
    expect(await voucherStatus(cart.lesson.id)).toBe("void");
    const lost = await pools(cart);
    expect(lost.a).toEqual({
      amountCents: before.a.amountCents - 400,
      entries: before.a.entries - 1,
      voided: [cart.lamp.entryNumber],
    });
    expect(lost.b).toEqual({
      amountCents: before.b.amountCents - 400,
      entries: before.b.entries - 1,
      voided: [cart.lesson.entryNumber],
    });
    const booked = await earningsOf("dispute", id);
    expect(booked.map((r) => [r.hostId, r.orderId, r.grossCents]).sort()).toEqual(
      [
        [cart.a.id, cart.lamp.id, -3_000],
        [cart.a.id, cart.print.id, -1_000],
        [cart.b.id, cart.lesson.id, -4_000],
      ].sort(),
    );
    expect(await text("/orders", cart.b.cookie)).toContain("USD 40.00 of USD 40.00 refunded");
    expect(await text(`/order/${cart.print.orderNumber}`, cart.fan.cookie)).toContain(
      "USD 10.00 of USD 10.00 refunded",
    );

    // Won: the funds come back (both events, five times each at once; then a late copy of the withdrawal).
    const closed = stripeEvent("charge.dispute.closed", dispute("won"));
    const reinstated = stripeEvent("charge.dispute.funds_reinstated", dispute("won"));
    await Promise.all([...Array(5)].flatMap(() => [deliverWebhook(closed), deliverWebhook(reinstated)]));
    await deliverWebhook(stripeEvent("charge.dispute.funds_withdrawn", dispute("needs_response"), newEventId()));
    expect(await totals(cart)).toEqual({
      lamp: [0, "none"],
      print: [0, "none"],
      lesson: [0, "none"],
      payment: [0, "none"],
    });
    expect(await voucherStatus(cart.lesson.id)).toBe("active");
    expect(await pools(cart)).toEqual(before);
    expect((await db().select().from(disputes).where(eq(disputes.id, id)))[0]).toMatchObject({
      status: "won",
      orderId: null,
      reversal: "restored",
    });
    expect((await earningsOf("dispute", id)).reduce((sum, r) => sum + r.amountCents, 0)).toBe(0);
  });

  it("lost (closed first, then the rest, each five times): counts once on each order, after a partial refund split over what was left", async () => {
    const cart = await paidCart();
    const before = await pools(cart);
    // The host refunds half the lamp from /orders first (our own refund, naming its order).
    const refunded = await postForm(
      "/orders",
      { intent: "refund", orderId: cart.lamp.id, amount: "15.00", refundKey: crypto.randomUUID(), reason: "Scratched" },
      { cookie: cart.a.cookie },
    );
    expect(refunded.status).toBe(302);
    expect((await totals(cart)).lamp).toEqual([1_500, "partial"]);
    const id = disputeId();
    const dispute = (status: string) => disputeObject({ id, amount: 6_500, status, paymentIntent: cart.paymentIntent });
    await deliverAll([
      stripeEvent("charge.dispute.closed", dispute("lost")),
      stripeEvent("charge.dispute.created", dispute("needs_response")),
      stripeEvent("charge.dispute.funds_withdrawn", dispute("needs_response")),
    ]);
    // What was left (15.00 : 10.00 : 40.00) is what the dispute took.
    expect(await totals(cart)).toEqual({
      lamp: [3_000, "full"],
      print: [1_000, "full"],
      lesson: [4_000, "full"],
      payment: [8_000, "full"],
    });
    const after = await pools(cart);
    expect(after.a.amountCents).toBe(before.a.amountCents - 400);
    expect(after.b.amountCents).toBe(before.b.amountCents - 400);
    expect(after.a.voided).toEqual([cart.lamp.entryNumber]);
    expect(after.b.voided).toEqual([cart.lesson.entryNumber]);
    const parts = await db()
      .select()
      .from(refundParts)
      .where(and(eq(refundParts.kind, "dispute"), eq(refundParts.sourceId, id)));
    expect(parts.map((p) => [p.orderId, p.amountCents]).sort()).toEqual(
      [
        [cart.lamp.id, 1_500],
        [cart.print.id, 1_000],
        [cart.lesson.id, 4_000],
      ].sort(),
    );
  });
});

describe("payments with one order behave as before", () => {
  it("a dashboard refund and a dispute of a buy-now payment count on its order, with no parts", async () => {
    const soleHost = await host("Single Host");
    const item = await product(soleHost.id, "Single Mug", 2_000, "digital");
    const fan = await makeUser({ name: "Single Buyer" });
    const started = await createProductCheckout(env, {
      user: sessionUserOf(fan, "Single Buyer"),
      productId: item.id,
      sizeName: "One Size",
      colorName: null,
      quantity: 1,
      origin: ORIGIN,
    });
    if (!started.ok) throw new Error(started.message);
    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, started.sessionId));
    const paymentIntent = `pi_test_${crypto.randomUUID().replace(/-/g, "")}`;
    expect(
      (
        await deliverWebhook(
          checkoutSessionEvent(row!, {
            buyerName: "Single Buyer",
            address: null,
            overrides: { payment_intent: paymentIntent },
          }),
        )
      ).status,
    ).toBe(200);
    const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, row!.id));
    const before = await poolOf(order!.poolId!);

    const rid = refundId();
    await deliverAll([
      stripeEvent("refund.created", refundObject({ id: rid, amount: 500, status: "succeeded", paymentIntent })),
    ]);
    const did = disputeId();
    await deliverAll([
      stripeEvent(
        "charge.dispute.funds_withdrawn",
        disputeObject({ id: did, amount: 1_500, status: "needs_response", paymentIntent }),
      ),
    ]);
    expect((await db().select().from(refunds).where(eq(refunds.id, rid)))[0]).toMatchObject({
      orderId: order!.id,
      reversal: "applied",
    });
    expect((await db().select().from(disputes).where(eq(disputes.id, did)))[0]).toMatchObject({
      orderId: order!.id,
      reversal: "applied",
    });
    expect(await db().select().from(refundParts).where(eq(refundParts.sourceId, rid))).toHaveLength(0);
    expect(await db().select().from(refundParts).where(eq(refundParts.sourceId, did))).toHaveLength(0);
    const [after] = await db().select().from(orders).where(eq(orders.id, order!.id));
    expect(after).toMatchObject({ refundedCents: 2_000, refundState: "full" });
    const pool = await poolOf(order!.poolId!);
    expect(pool).toEqual({
      amountCents: before.amountCents - 200,
      entries: before.entries - 1,
      voided: [order!.entryNumber],
    });
    const keys = (await db().select().from(earningsLedger).where(eq(earningsLedger.orderId, order!.id)))
      .map((r) => r.sourceKey)
      .sort();
    expect(keys).toEqual([`dispute:${did}`, `refund:${rid}`, `sale:${order!.id}`].sort());
  });
});
