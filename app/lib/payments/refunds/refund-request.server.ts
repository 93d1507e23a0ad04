import { getDb } from "~/db/client.server";
import { getPaymentForRefund, getRefund, listPaymentOrders } from "~/db/queries/refunds.server";
import { formatCents } from "~/domain/money";
import {
  isRefundStatus,
  REFUND_MESSAGES,
  refundableCents,
  unfulfillableRefundKey,
  type RefundOrigin,
  type RefundStatus,
} from "~/domain/payments";
import { getPaymentProvider } from "../providers/provider.server";
import type { ProviderRefund } from "../providers/types";
import { applyProviderEvents } from "./refund-events.server";
import { applyRefund, REFUND_METADATA_KEYS } from "./refunds.server";

// Asking for a refund: checked against what the payment still holds, sent to the provider with an idempotency key,
// and applied as the provider reports it (the events it hands back, then its answer) by the same code the refund
// webhook events run (refunds.server.ts). See docs/decisions/080-refunds-and-disputes.md.

export type RefundRequest = {
  /** Our checkout_sessions id of the payment being refunded. */
  checkoutSessionId: string;
  /** The order it refunds (product purchases; one order of a multi-item checkout), else null (guess fee, deposit). */
  orderId: string | null;
  /** > 0 and at most what is still refundable of that order (or of the payment when orderId is null). */
  amountCents: number;
  origin: RefundOrigin;
  /** Shown to the buyer (order page, /my-orders, mail), or null. */
  reason: string | null;
  /** One key per intended refund, reused on retry (see the conventions in refund-contract / decision 080). */
  idempotencyKey: string;
};

export type RefundRequestResult = { ok: true; refundId: string; status: RefundStatus } | { ok: false; message: string };

/** Stripe's limit on a metadata value. */
const METADATA_VALUE_MAX = 500;

/** Asks the provider for the refund and applies what it reports (the same code path as the refund webhook events). */
export async function requestRefund(env: Env, request: RefundRequest): Promise<RefundRequestResult> {
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0)
    return { ok: false, message: REFUND_MESSAGES.notPositive };
  if (!request.idempotencyKey || request.idempotencyKey.length > 255)
    throw new RangeError("A refund needs an idempotency key of 1 to 255 characters");
  const db = getDb(env);
  const payment = await getPaymentForRefund(db, request.checkoutSessionId);
  if (!payment) return { ok: false, message: REFUND_MESSAGES.notFound };
  if (payment.paymentStatus !== "paid") return { ok: false, message: REFUND_MESSAGES.notPaid };
  let refundable = refundableCents(payment.amountCents, payment.refundedCents);
  if (request.orderId !== null) {
    const order = (await listPaymentOrders(db, payment.id)).find((o) => o.id === request.orderId);
    if (!order) return { ok: false, message: REFUND_MESSAGES.notFound };
    refundable = Math.min(refundable, refundableCents(order.amountCents, order.refundedCents));
  }
  if (refundable <= 0) return { ok: false, message: REFUND_MESSAGES.nothingLeft };
  if (request.amountCents > refundable)
    return { ok: false, message: REFUND_MESSAGES.tooMuch(formatCents(refundable, payment.currency)) };

  const sent = await sendRefund(env, {
    ...request,
    paymentIntentId: payment.paymentIntentId ?? payment.id,
    currency: payment.currency,
  });
  if (!sent.ok) return sent;
  const stored = await getRefund(db, sent.refundId);
  return { ok: true, refundId: sent.refundId, status: (stored?.status as RefundStatus | undefined) ?? sent.status };
}

/**
 * The provider call and its application, without requestRefund's checks: for a caller that recorded (and checked)
 * the refund itself before, such as a group buy's end, whose retry must resume a refund already applied.
 */
export async function sendRefund(
  env: Env,
  input: RefundRequest & { paymentIntentId: string; currency: string },
): Promise<RefundRequestResult> {
  const metadata: Record<string, string> = {
    [REFUND_METADATA_KEYS.checkoutSessionId]: input.checkoutSessionId,
    [REFUND_METADATA_KEYS.origin]: input.origin,
    ...(input.orderId ? { [REFUND_METADATA_KEYS.orderId]: input.orderId } : {}),
    ...(input.reason ? { [REFUND_METADATA_KEYS.reason]: input.reason.slice(0, METADATA_VALUE_MAX) } : {}),
  };
  let answer: ProviderRefund;
  try {
    answer = await getPaymentProvider(env, "").refund({
      paymentIntentId: input.paymentIntentId,
      amountCents: input.amountCents,
      currency: input.currency,
      idempotencyKey: input.idempotencyKey,
      metadata,
    });
    // The events a provider hands back (the local provider's refund.created and refund.updated) go through the
    // webhook pipeline now, as Stripe's arrive through it later.
    await applyProviderEvents(env, answer.events);
  } catch (error) {
    console.error("refunds: the provider refused a refund", {
      checkout: input.checkoutSessionId,
      key: input.idempotencyKey,
      error,
    });
    return { ok: false, message: REFUND_MESSAGES.providerFailed };
  }
  const status: RefundStatus = isRefundStatus(answer.status) ? answer.status : "pending";
  await applyRefund(env, {
    id: answer.id,
    object: "refund",
    amount: input.amountCents,
    currency: input.currency.toLowerCase(),
    status,
    payment_intent: input.paymentIntentId,
    charge: null,
    metadata,
  });
  return { ok: true, refundId: answer.id, status };
}

/**
 * Refunds a paid checkout (or one of its orders) that cannot be delivered, in full, with the reason the buyer reads
 * (origin unfulfillable). The key is fixed per checkout and order, so every delivery of the payment's event asks for
 * the same refund; a provider failure is thrown so the webhook answers 500 and the provider retries.
 */
export async function refundUnfulfillable(
  env: Env,
  checkoutSessionId: string,
  orderId: string | null,
  amountCents: number,
  reason: string,
) {
  const result = await requestRefund(env, {
    checkoutSessionId,
    orderId,
    amountCents,
    origin: "unfulfillable",
    reason,
    idempotencyKey: unfulfillableRefundKey(checkoutSessionId, orderId),
  });
  if (result.ok || result.message === REFUND_MESSAGES.nothingLeft) return;
  console.error("refunds: automatic refund of an undeliverable payment failed", {
    checkoutSessionId,
    orderId,
    message: result.message,
  });
  throw new Error(`automatic refund of checkout ${checkoutSessionId} failed: ${result.message}`);
}
