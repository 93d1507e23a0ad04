import { getDb, type Db } from "~/db/client.server";
import { getCheckoutSession } from "~/db/queries/checkout.server";
import { listEndedGroupBuysOf } from "~/db/queries/group-buys.server";
import { getOrderById } from "~/db/queries/orders.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import {
  claimRefundFailureMail,
  claimRefundMail,
  claimReversalStep,
  findCheckoutIdByPaymentIntent,
  getDispute,
  getOrderPayment,
  getPaymentForRefund,
  getRefund,
  listPaymentOrders,
  listRefundParts,
  storeDispute,
  storeRefund,
  type RefundPartInput,
} from "~/db/queries/refunds.server";
import { formatCents } from "~/domain/money";
import type { RevenueRules } from "~/domain/revenue";
import {
  allocateAcrossOrders,
  disputeCounts,
  entryStanding,
  hostRefundFailedMail,
  isRefundOrigin,
  isRefundStatus,
  refundCounts,
  refundFailedMail,
  refundMail,
  REVERSAL_STEPS,
  type PaymentOrderTotals,
  type RefundOrigin,
  type RefundPartKind,
  type ReversalStep,
} from "~/domain/payments";
import { reversalVoidsDraw } from "~/domain/pool";
import { siteOrigin } from "~/lib/config.server";
import { sendMail } from "~/lib/mail.server";
import { notify } from "~/lib/notify.server";
import { applyPaymentReversal } from "~/lib/pool-reversal.server";
import type { ReversalOutcome } from "~/lib/pools.server";
import { idOf, type DisputeObject, type RefundObject } from "../shared/events.server";
import { cartContributionKey, contributionKey, shareBonusKey } from "../shared/payment-records";
import { orderSharesGivenBackCents } from "../fulfil/pool-ledger.server";
import { bookGroupBuyEarnings, bookRefundEarnings, refundReversalOf } from "./refund-earnings.server";

// The pipeline's last step: money flowing back. A refund (asked for in refund-request.server.ts, or reported by the
// provider) and a dispute are stored by the provider's id; the order's and checkout's refunded totals are recomputed
// from the stored rows in the same batch; the pool share is reversed once per refund or dispute id (keyed by that id,
// restored with '<id>:restore' when a refund fails or a dispute is won). See docs/decisions/080-refunds-and-disputes.md.

/** The metadata our refunds carry to the provider (and back in its events), so an event finds its order. */
export const REFUND_METADATA_KEYS = {
  checkoutSessionId: "checkout_session_id",
  orderId: "order_id",
  origin: "origin",
  reason: "reason",
} as const;

export type ApplyOutcome =
  | { kind: "ignored"; note: string }
  /** Of a payment not known (not paid) yet: the webhook holds the event until it is (decision 380). */
  | { kind: "unknown_payment"; note: string }
  | { kind: "applied"; id: string; checkoutSessionId: string; orderId: string | null };

/** The payment an event's object belongs to, the order it names (if any) and the payment's orders. */
type LocatedPayment = {
  checkoutSessionId: string;
  paymentIntentId: string;
  orderId: string | null;
  orders: PaymentOrderTotals[];
};

/**
 * The payment (our checkout id) and order an event's object belongs to: the order our metadata names (and its
 * checkout), else the checkout our metadata names, else the checkout of its payment intent.
 */
async function locatePayment(
  env: Env,
  object: { payment_intent?: RefundObject["payment_intent"]; metadata?: Record<string, string> | null },
): Promise<LocatedPayment | null> {
  const db = getDb(env);
  const metadata = object.metadata ?? {};
  const intent = idOf(object.payment_intent);
  const named = metadata[REFUND_METADATA_KEYS.orderId];
  if (named) {
    const order = await getOrderPayment(db, named);
    if (order?.checkoutSessionId) {
      return {
        checkoutSessionId: order.checkoutSessionId,
        paymentIntentId: intent ?? order.paymentIntentId ?? order.checkoutSessionId,
        orderId: order.id,
        orders: [],
      };
    }
  }
  let checkoutSessionId: string | null = null;
  const fromMetadata = metadata[REFUND_METADATA_KEYS.checkoutSessionId];
  if (fromMetadata && (await getPaymentForRefund(db, fromMetadata))) checkoutSessionId = fromMetadata;
  if (!checkoutSessionId && intent) checkoutSessionId = await findCheckoutIdByPaymentIntent(db, intent);
  if (!checkoutSessionId) return null;
  // A payment is known once its checkout was fulfilled (paid): before that (an asynchronous payment awaiting its
  // money, a completion not delivered yet) the event waits for it (decision 380).
  if ((await getPaymentForRefund(db, checkoutSessionId))?.paymentStatus !== "paid") return null;
  // A refund from the provider's dashboard (no metadata) or a dispute refunds the payment's only order, if it has
  // one; of a payment for several orders (a cart), it is split over them (splitOverOrders).
  const orders = await listPaymentOrders(db, checkoutSessionId);
  const orderId = orders.length === 1 ? orders[0]!.id : null;
  return { checkoutSessionId, paymentIntentId: intent ?? checkoutSessionId, orderId, orders };
}

/**
 * The order a refund or dispute counts on, or its parts on the payment's orders: as first stored (a later event keeps
 * them), else, when it names no order of a payment for several orders, `allocateAcrossOrders` over what each order
 * has left (docs/decisions/160-cart-refunds-and-disputes.md).
 */
async function splitOverOrders(
  env: Env,
  kind: RefundPartKind,
  id: string,
  payment: LocatedPayment,
  amountCents: number,
): Promise<{ orderId: string | null; parts: RefundPartInput[] | null }> {
  const db = getDb(env);
  const stored = kind === "refund" ? await getRefund(db, id) : await getDispute(db, id);
  if (stored) {
    const parts = await listRefundParts(db, kind, id);
    return { orderId: stored.orderId, parts: parts.length > 0 ? parts : null };
  }
  if (payment.orderId === null && payment.orders.length > 1)
    return { orderId: null, parts: allocateAcrossOrders(amountCents, payment.orders) };
  return { orderId: payment.orderId, parts: null };
}

/**
 * Applies a provider refund's status exactly once per (refund id, status transition): stores the refund with its
 * order (or its parts on a cart's orders), recomputes the orders' and checkout's refunded totals and refund states (a
 * full refund voids the download link and an unredeemed voucher; a failed one restores them), reverses the pool share
 * (restored when it fails) and books it in the host's earnings. Replays, reordered events and concurrent deliveries
 * end in the same state.
 */
export async function applyRefund(env: Env, refund: RefundObject): Promise<ApplyOutcome> {
  const status = refund.status ?? "pending";
  if (!isRefundStatus(status)) return { kind: "ignored", note: `refund ${refund.id} has an unknown status ${status}` };
  const payment = await locatePayment(env, refund);
  if (!payment) return { kind: "unknown_payment", note: `refund ${refund.id} is not of a payment we know yet` };
  const { orderId, parts } = await splitOverOrders(env, "refund", refund.id, payment, refund.amount);
  const origin = refund.metadata?.[REFUND_METADATA_KEYS.origin];
  await storeRefund(
    getDb(env),
    {
      id: refund.id,
      checkoutSessionId: payment.checkoutSessionId,
      paymentIntentId: payment.paymentIntentId,
      orderId,
      amountCents: refund.amount,
      currency: refund.currency.toUpperCase(),
      status,
      origin: isRefundOrigin(origin) ? origin : "provider",
      reason: refund.metadata?.[REFUND_METADATA_KEYS.reason] ?? null,
    },
    parts,
  );
  await settleReversal(env, "refund", refund.id);
  await bookEndedGroupBuys(env, "refund", refund.id);
  await mailRefundToBuyer(env, refund.id);
  return { kind: "applied", id: refund.id, checkoutSessionId: payment.checkoutSessionId, orderId };
}

/**
 * The buyer's mails about a refund, sent from here whoever asked for it, each claimed once in D1 so a replayed
 * event, a second request with the same key or a racing delivery sends nothing more: the refund the first time it
 * counts (pending or succeeded, decision 131), and that it did not go through once it has failed or been canceled
 * (correcting the first mail when there was one; a refund failed on first sight gets only this one, decision 150).
 * To the buyer's account (always e-mailed), else to the address the payment was made with.
 */
async function mailRefundToBuyer(env: Env, refundId: string): Promise<void> {
  const db = getDb(env);
  const refunded = await claimRefundMail(db, refundId);
  const failed = refunded ? null : await claimRefundFailureMail(db, refundId);
  if (!refunded && !failed) return;
  const refund = await getRefund(db, refundId);
  if (!refund) return;
  // The orders it refunds (one, or a cart's orders it was split over), read once for the buyer's mail and the hosts'.
  const targets = await refundOrders(db, refund);
  // The order it refunds, else (a cart split, a guess's fee, a deposit) the payment.
  const order = refund.orderId ? targets[0]?.order : undefined;
  const payment = order ? null : await getCheckoutSession(db, refund.checkoutSessionId);
  if (!order && !payment) return;
  // A cart refund split over its orders names each order and its part.
  const split = order ? [] : targets;
  const input = {
    origin: refund.origin,
    siteOrigin: siteOrigin(env),
    amount: formatCents(refund.amountCents, refund.currency),
    reason: refund.reason,
    order: order
      ? { orderNumber: order.orderNumber, productName: order.productName, hostName: order.hostName ?? null }
      : null,
    purpose: payment?.purpose ?? "product",
    parts: split.map((part) => ({
      orderNumber: part.order.orderNumber,
      productName: part.order.productName,
      amount: formatCents(part.amountCents, refund.currency),
    })),
  };
  const missedDraw =
    order && order.entryNumber !== null && order.entryVoided !== null && order.poolOpen !== null
      ? entryStanding({ voided: order.entryVoided === 1, poolOpen: order.poolOpen === 1 }) === "missed_draw"
      : false;
  const mail = failed
    ? refundFailedMail({
        ...input,
        announced: failed.announced,
        missedDrawEntry: missedDraw ? order!.entryNumber : null,
      })
    : refundMail(input);
  const userId = order ? order.userId : (payment?.userId ?? null);
  const email = order ? order.customerEmail : (payment?.customerEmail ?? null);
  try {
    if (userId)
      await notify(env, userId, "refund", { ...mail, key: `${failed ? "refund-failed" : "refund"}:${refundId}` });
    else if (email) await sendMail(env, db, { to: email, subject: mail.subject, text: mail.text });
  } catch (error) {
    console.error("refunds: the buyer's refund mail failed", { refundId, error });
  }
  if (failed) await tellHostsRefundFailed(env, refund.id, refund.currency, targets);
}

/** The orders a refund is for, each with its part: its one order, or each order of a cart payment it was split over. */
async function refundOrders(db: Db, refund: { id: string; orderId: string | null; amountCents: number }) {
  const parts = refund.orderId
    ? [{ orderId: refund.orderId, amountCents: refund.amountCents }]
    : (await listRefundParts(db, "refund", refund.id)).filter((part) => part.amountCents > 0);
  const found = await Promise.all(
    parts.map(async (part) => ({ order: await getOrderById(db, part.orderId), amountCents: part.amountCents })),
  );
  return found.flatMap(({ order, amountCents }) => (order ? [{ order, amountCents }] : []));
}

/**
 * A refund that did not go through leaves the buyer unpaid: the host of each order it was for is told once, with
 * the buyer's failure mail, so they can refund it again from Orders.
 */
async function tellHostsRefundFailed(
  env: Env,
  refundId: string,
  currency: string,
  targets: Awaited<ReturnType<typeof refundOrders>>,
) {
  for (const { order, amountCents } of targets) {
    if (!order.hostId) continue;
    const mail = hostRefundFailedMail({
      amount: formatCents(amountCents, currency),
      orderNumber: order.orderNumber,
      productName: order.productName,
      customerName: order.customerName,
      siteOrigin: siteOrigin(env),
    });
    await notify(env, order.hostId, "refund", { ...mail, key: `refund-failed:${refundId}:${order.id}` });
  }
}

/** What a dispute event says happened, beyond the object's own status. */
export type DisputeEventKind = "created" | "updated" | "funds_withdrawn" | "funds_reinstated" | "closed";

/**
 * Applies a dispute event once: the dispute is stored by id (its final status and withdrawn/reinstated flags only
 * ever move forward); while its funds are withdrawn, or once it is lost, it counts like a refund of the disputed
 * amount (totals, voids and pool reversal); reinstated funds or a won dispute restore.
 */
export async function applyDispute(env: Env, dispute: DisputeObject, event: DisputeEventKind): Promise<ApplyOutcome> {
  const payment = await locatePayment(env, { payment_intent: dispute.payment_intent, metadata: null });
  if (!payment) return { kind: "unknown_payment", note: `dispute ${dispute.id} is not of a payment we know yet` };
  const { orderId, parts } = await splitOverOrders(env, "dispute", dispute.id, payment, dispute.amount);
  await storeDispute(
    getDb(env),
    {
      id: dispute.id,
      checkoutSessionId: payment.checkoutSessionId,
      paymentIntentId: payment.paymentIntentId,
      orderId,
      amountCents: dispute.amount,
      currency: dispute.currency.toUpperCase(),
      status: dispute.status,
      fundsWithdrawn: event === "funds_withdrawn",
      fundsReinstated: event === "funds_reinstated",
    },
    parts,
  );
  await settleReversal(env, "dispute", dispute.id);
  await bookEndedGroupBuys(env, "dispute", dispute.id);
  await tellHostsDisputeOpened(env, dispute, orderId);
  return { kind: "applied", id: dispute.id, checkoutSessionId: payment.checkoutSessionId, orderId };
}

/** The host of each order a dispute is about is told it was opened, once (whichever of its events comes first). */
async function tellHostsDisputeOpened(env: Env, dispute: DisputeObject, orderId: string | null): Promise<void> {
  const db = getDb(env);
  const parts = orderId
    ? [{ orderId, amountCents: dispute.amount }]
    : (await listRefundParts(db, "dispute", dispute.id)).filter((part) => part.amountCents > 0);
  const currency = dispute.currency.toUpperCase();
  for (const part of parts) {
    const order = await getOrderById(db, part.orderId);
    if (!order?.hostId) continue;
    await notify(env, order.hostId, "dispute", {
      key: `dispute:${dispute.id}`,
      subject: `A payment was disputed: order ${order.orderNumber}`,
      text:
        `The buyer's bank opened a dispute of ${formatCents(part.amountCents, currency)} on order ${order.orderNumber} ` +
        `(${order.productName}). While it is open the amount is held from your earnings; if the shop wins it comes back.\n\n` +
        `${siteOrigin(env)}/orders`,
      url: "/orders",
    });
  }
}

/**
 * A refund or dispute of a group buy's order waits for the group buy's end to be booked in the host's earnings
 * (decision 340). When the group buy has ended by now and this one is still not booked (the end listed its refunds
 * while this one was being applied), the end is booked again (each row once), which books this one too.
 */
async function bookEndedGroupBuys(env: Env, kind: RefundPartKind, id: string): Promise<void> {
  for (const groupBuyId of await listEndedGroupBuysOf(getDb(env), kind, id))
    await bookGroupBuyEarnings(env, groupBuyId);
}

/**
 * Brings a refund's or dispute's pool reversal in line with whether it counts now: of the order it counts on (or the
 * payment), or of each of its parts on a cart's orders (keyed '<id>:<order id>'), each part on its own host's
 * contribution. Each step is claimed in D1 first (none/applying -> applying -> applied; applied -> restoring ->
 * restored), and the pool calls are keyed by the id (and '<id>:restore'), so a step interrupted by a crash is
 * finished by the next delivery and never doubled.
 */
async function settleReversal(env: Env, kind: RefundPartKind, id: string): Promise<void> {
  const db = getDb(env);
  const parts = await listRefundParts(db, kind, id);
  if (parts.length === 0) return settleReversalOf(env, kind, id, null);
  const counted = parts.filter((p) => p.amountCents > 0);
  for (const part of counted) await settleReversalOf(env, kind, id, part.orderId);
  // The refund's or dispute's own step follows its parts once they all agree (what a reader of the row sees).
  const settled = (await listRefundParts(db, kind, id)).filter((p) => p.amountCents > 0).map((p) => p.reversal);
  const step = settled[0];
  if ((step === "applied" || step === "restored") && settled.every((s) => s === step)) {
    await claimReversalStep(db, { kind, id }, { from: REVERSAL_STEPS.filter((s) => s !== step), to: step });
  }
}

/** One reversal (of a refund or dispute, or with `orderId` of its part on that order) brought in line, step by step. */
async function settleReversalOf(env: Env, kind: RefundPartKind, id: string, orderId: string | null): Promise<void> {
  const db = getDb(env);
  for (let step = 0; step < 4; step++) {
    const row = kind === "refund" ? await getRefund(db, id) : await getDispute(db, id);
    if (!row) return;
    const part = orderId === null ? null : (await listRefundParts(db, kind, id)).find((p) => p.orderId === orderId);
    if (orderId !== null && !part) return;
    const target = part
      ? {
          key: `${row.id}:${part.orderId}`,
          orderId: part.orderId,
          amountCents: part.amountCents,
          reversal: part.reversal,
        }
      : { key: row.id, orderId: row.orderId, amountCents: row.amountCents, reversal: row.reversal };
    const counts =
      kind === "refund"
        ? refundCounts(row.status)
        : disputeCounts(row as { status: string; fundsWithdrawn: boolean; fundsReinstated: boolean });
    const origin = kind === "refund" ? ((row as { origin: RefundOrigin }).origin ?? "provider") : "dispute";
    const on = { checkoutSessionId: row.checkoutSessionId, orderId: target.orderId };
    const earnings = { kind, id: target.key, ...on, amountCents: target.amountCents, currency: row.currency, origin };
    const claim = (from: ReversalStep[], to: ReversalStep, counting?: boolean) =>
      claimReversalStep(db, { kind, id, orderId: part?.orderId }, { from, to, counting });
    if (counts && (target.reversal === "none" || target.reversal === "applying")) {
      if (!(await claim(["none", "applying"], "applying", true))) continue;
      const outcome = await reverse(env, on, target.key, target.amountCents, origin);
      await bookRefundEarnings(env, { ...earnings, reversal: refundReversalOf(outcome), restore: false });
      await claim(["applying"], "applied");
      continue;
    }
    if (!counts && (target.reversal === "applied" || target.reversal === "restoring")) {
      if (!(await claim(["applied", "restoring"], "restoring", false))) continue;
      const outcome = await reverse(env, on, `${target.key}:restore`, -target.amountCents, origin, target.key);
      await bookRefundEarnings(env, { ...earnings, reversal: refundReversalOf(outcome), restore: true });
      await claim(["restoring"], "restored");
      continue;
    }
    return;
  }
}

/**
 * Reverses (or, with a negative amount, restores) the pool share of `amountCents` of a payment, keyed by
 * `reversalKey`. The payment is the whole checkout (one contribution per checkout; for a cart, the refunded order's
 * host's part of it, also for each part of a refund or dispute split over the cart's orders): its share is taken at
 * the contribution's own rate and its entry is void while more than half of that payment is refunded. A group buy's
 * tier refund never voids an entry.
 */
async function reverse(
  env: Env,
  row: { checkoutSessionId: string; orderId: string | null },
  reversalKey: string,
  amountCents: number,
  origin: RefundOrigin,
  /** For a restore: the key of the reversal it undoes. */
  restoresKey?: string,
): Promise<ReversalOutcome> {
  const payment = await getPaymentForRefund(getDb(env), row.checkoutSessionId);
  if (!payment) return { kind: "no_contribution" };
  let paid = {
    amountCents: payment.amountCents,
    refundedCents: payment.refundedCents,
    sourceKey: contributionKey(payment.id),
  };
  // A payment for several orders contributed the sum of its orders' shares, each rounded per order: it gives back
  // each order's share at that order's refunded level, as the earnings ledger books it (decision 380).
  let givenBackCents: number | undefined;
  if (payment.purpose === "cart") {
    // A cart pays several hosts, each host's part its own contribution (docs/decisions/090-cart.md): the refunded
    // order's host's part is the payment whose share is reversed and whose entry may be voided.
    const orders = await listPaymentOrders(getDb(env), payment.id);
    const hostId = orders.find((o) => o.id === row.orderId)?.hostId;
    if (!hostId) return { kind: "no_contribution" };
    const part = orders.filter((o) => o.hostId === hostId);
    paid = {
      amountCents: part.reduce((sum, o) => sum + o.amountCents, 0),
      refundedCents: part.reduce((sum, o) => sum + o.refundedCents, 0),
      sourceKey: cartContributionKey(payment.id, hostId),
    };
    // An order cancelled at payment as undeliverable (refund_reason) is no part of the host's contribution.
    const contributing = part.filter((o) => !(o.status === "cancelled" && o.refundReason));
    givenBackCents = orderSharesGivenBackCents("cart", contributing, await ratesOf(env, payment.rates));
  } else if (payment.purpose === "group_buy") {
    // Every order of a join is in its contribution (an order found sold out at payment too, refunded in full).
    givenBackCents = orderSharesGivenBackCents(
      "group_buy",
      await listPaymentOrders(getDb(env), payment.id),
      await ratesOf(env, payment.rates),
    );
  }
  const cumulative = Math.min(paid.amountCents, Math.max(0, paid.refundedCents));
  const reversal = {
    reversedCents: amountCents,
    paymentCents: paid.amountCents,
    cumulativeReversedCents: cumulative,
    givenBackCents,
    // A group buy's tier refund moves money only; its cancellation (the whole payment back) voids like any other.
    keepEntry: origin === "group_buy" && cumulative < paid.amountCents,
    voidsDraw: reversalVoidsDraw(origin),
  };
  const outcome = await applyPaymentReversal(env, { ...reversal, sourceKey: paid.sourceKey, reversalKey, restoresKey });
  if (payment.purpose === "group_buy") {
    // The second entry a shared group buy earned goes with the first (it holds no money).
    await applyPaymentReversal(env, {
      ...reversal,
      givenBackCents: 0,
      sourceKey: shareBonusKey(payment.id),
      reversalKey: `${reversalKey}:share`,
      restoresKey: restoresKey === undefined ? undefined : `${restoresKey}:share`,
    });
  }
  return outcome;
}

/** The revenue rules a payment was made at (stored on its checkout), else those in force (as its fulfilment took them). */
async function ratesOf(env: Env, stored: RevenueRules | null): Promise<RevenueRules> {
  return stored ?? (await getRevenueRules(getDb(env)));
}
