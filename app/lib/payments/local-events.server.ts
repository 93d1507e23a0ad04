import { getDb } from "~/db/client.server";
import { getCheckoutSession } from "~/db/queries/checkout.server";
import { refundableCents } from "~/domain/payments";
import { localDisputeObject, localEvent, localRefundObject, randomId, signPayload, type LocalEventType } from "./local.server";
import { localPaymentIntentId } from "./payment-records";
import { isLocalPaymentsEnabled, webhookSecret } from "./provider.server";
import { handleStripeWebhook, type WebhookResult } from "./webhook.server";

/**
 * The local provider's delivery: signs a Stripe-format event exactly as Stripe signs it and hands the signed body
 * to the same webhook handler Stripe's deliveries reach (signature verified, event recorded by id, applied once).
 */
export async function deliverLocalEvent(env: Env, event: { id: string; type: string }): Promise<WebhookResult> {
  const secret = webhookSecret(env);
  if (!secret) return { status: 500, body: { error: "Webhook secret not configured" } };
  const payload = JSON.stringify(event, null, 2);
  return handleStripeWebhook(env, payload, await signPayload(payload, secret));
}

/** How a simulated dispute ends: the bank sides with the buyer (lost) or with the shop (won). */
export const LOCAL_DISPUTE_OUTCOMES = ["lost", "won"] as const;
export type LocalDisputeOutcome = (typeof LOCAL_DISPUTE_OUTCOMES)[number];

export type LocalDisputeResult = { ok: true; disputeId: string } | { ok: false; message: string };

/**
 * Demo mode only: a chargeback on a paid local payment, as Stripe reports one. It sends the signed events Stripe
 * sends, in order: charge.dispute.created, charge.dispute.funds_withdrawn, then for a won dispute
 * charge.dispute.funds_reinstated, and charge.dispute.closed with the outcome.
 */
export async function simulateLocalDispute(
  env: Env,
  input: { checkoutSessionId: string; outcome: LocalDisputeOutcome; amountCents?: number },
): Promise<LocalDisputeResult> {
  if (!isLocalPaymentsEnabled(env)) return { ok: false, message: "Disputes can only be simulated with the local payment provider." };
  const row = await getCheckoutSession(getDb(env), input.checkoutSessionId);
  if (!row || row.provider !== "local") return { ok: false, message: "This checkout does not exist." };
  if (row.paymentStatus !== "paid") return { ok: false, message: "Only a paid checkout can be disputed." };
  const amountCents = input.amountCents ?? row.amountCents;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents > row.amountCents) {
    return { ok: false, message: "A dispute is for more than 0 and at most the amount paid." };
  }
  const id = randomId("dp_local_");
  const base = { id, paymentIntentId: row.paymentIntentId ?? localPaymentIntentId(row.id), amountCents, currency: row.currency };
  const steps: [LocalEventType, string][] = [
    ["charge.dispute.created", "needs_response"],
    ["charge.dispute.funds_withdrawn", "needs_response"],
    ...(input.outcome === "won" ? ([["charge.dispute.funds_reinstated", "won"]] as [LocalEventType, string][]) : []),
    ["charge.dispute.closed", input.outcome],
  ];
  for (const [type, status] of steps) {
    const response = await deliverLocalEvent(env, localEvent(type, localDisputeObject({ ...base, status })));
    if (response.status !== 200) return { ok: false, message: `The webhook answered ${response.status}; please try again.` };
  }
  return { ok: true, disputeId: id };
}

export type LocalRefundFailureResult = { ok: true; refundId: string } | { ok: false; message: string };

/**
 * Demo mode only: a refund of what is left of a paid local payment, made in the provider's dashboard, that the
 * card network then returns, as Stripe reports one: refund.created (pending), then refund.failed. The buyer is mailed
 * the refund and then that it did not go through (docs/decisions/150-refund-failure-mail.md).
 */
export async function simulateLocalRefundFailure(env: Env, input: { checkoutSessionId: string }): Promise<LocalRefundFailureResult> {
  if (!isLocalPaymentsEnabled(env)) return { ok: false, message: "Refunds can only be simulated with the local payment provider." };
  const row = await getCheckoutSession(getDb(env), input.checkoutSessionId);
  if (!row || row.provider !== "local") return { ok: false, message: "This checkout does not exist." };
  if (row.paymentStatus !== "paid") return { ok: false, message: "Only a paid checkout can be refunded." };
  const amountCents = refundableCents(row.amountCents, row.refundedCents);
  if (amountCents <= 0) return { ok: false, message: "This payment has already been refunded in full." };
  const id = randomId("re_local_");
  const refund = localRefundObject({
    id,
    paymentIntentId: row.paymentIntentId ?? localPaymentIntentId(row.id),
    amountCents,
    currency: row.currency,
    metadata: { checkout_session_id: row.id },
  });
  for (const [type, status] of [["refund.created", "pending"], ["refund.failed", "failed"]] as const) {
    const response = await deliverLocalEvent(env, localEvent(type, { ...refund, status }));
    if (response.status !== 200) return { ok: false, message: `The webhook answered ${response.status}; please try again.` };
  }
  return { ok: true, refundId: id };
}
