import { getDb } from "~/db/client.server";
import { getCheckoutSession } from "~/db/queries/checkout.server";
import { isLocallyCaptured, recordLocalMovement } from "~/db/queries/local-provider.server";
import type { CheckoutSession } from "~/db/schema";
import { refundableCents } from "~/domain/payments";
import {
  localCheckoutSessionObject,
  localDisputeObject,
  localEvent,
  localRefundObject,
  randomId,
  type LocalEventType,
} from "./local.server";
import { localPaymentIntentId } from "../shared/payment-records";
import { isLocalPaymentsEnabled } from "./provider.server";
import type { ShippingAddress } from "./types";
import { deliverEvent, type WebhookResult } from "../webhook/event-pipeline.server";
import { WEBHOOK_HANDLERS } from "../webhook/webhook.server";

/**
 * The local provider's delivery: signs a Stripe-format event exactly as Stripe signs it and hands the signed body
 * to the same webhook handler Stripe's deliveries reach (signature verified, event recorded by id, applied once).
 * For the demo pages and tests that act as the provider's outside world (the buyer paying, a bank's dispute).
 */
export function deliverLocalEvent(env: Env, event: { id: string; type: string }): Promise<WebhookResult> {
  return deliverEvent(env, event, WEBHOOK_HANDLERS);
}

type LocalEvent = ReturnType<typeof localEvent>;

/**
 * The buyer pays a local checkout (the card button, or the bank transfer arriving): the provider records the capture
 * in its own books (decision 400) and answers the paid `checkout.session` event it sends, for the caller to deliver.
 */
export async function captureLocalPayment(
  env: Env,
  row: CheckoutSession,
  type: "checkout.session.completed" | "checkout.session.async_payment_succeeded",
  shipping: ShippingAddress | null,
): Promise<LocalEvent> {
  const paymentIntentId = row.paymentIntentId ?? localPaymentIntentId(row.id);
  await recordLocalMovement(getDb(env), {
    id: `capture:${row.id}`,
    checkoutSessionId: row.id,
    paymentIntentId,
    kind: "capture",
    amountCents: row.amountCents,
    currency: row.currency,
  });
  return localEvent(type, localCheckoutSessionObject(row, "paid", shipping));
}

/** Whether the provider holds a payment for this checkout: captured in its books, or (events sent by hand) marked paid. */
async function isPaid(env: Env, row: CheckoutSession): Promise<boolean> {
  return row.paymentStatus === "paid" || (await isLocallyCaptured(getDb(env), row.id));
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
  const built = await localDisputeEvents(env, input);
  if (!built.ok) return built;
  for (const event of built.events) {
    const response = await deliverLocalEvent(env, event);
    if (response.status !== 200)
      return { ok: false, message: `The webhook answered ${response.status}; please try again.` };
  }
  return { ok: true, disputeId: built.disputeId };
}

/**
 * A dispute's events in the order Stripe sends them, with the funds it withdraws (and, won, reinstates) recorded in
 * the provider's books; the caller delivers them (at once, or held and reordered as the model-based test does).
 */
export async function localDisputeEvents(
  env: Env,
  input: { checkoutSessionId: string; outcome: LocalDisputeOutcome; amountCents?: number },
): Promise<{ ok: true; disputeId: string; events: LocalEvent[] } | { ok: false; message: string }> {
  if (!isLocalPaymentsEnabled(env))
    return { ok: false, message: "Disputes can only be simulated with the local payment provider." };
  const row = await getCheckoutSession(getDb(env), input.checkoutSessionId);
  if (!row || row.provider !== "local") return { ok: false, message: "This checkout does not exist." };
  if (!(await isPaid(env, row))) return { ok: false, message: "Only a paid checkout can be disputed." };
  const amountCents = input.amountCents ?? row.amountCents;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents > row.amountCents) {
    return { ok: false, message: "A dispute is for more than 0 and at most the amount paid." };
  }
  const id = randomId("dp_local_");
  const paymentIntentId = row.paymentIntentId ?? localPaymentIntentId(row.id);
  const base = { id, paymentIntentId, amountCents, currency: row.currency };
  const steps: [LocalEventType, string][] = [
    ["charge.dispute.created", "needs_response"],
    ["charge.dispute.funds_withdrawn", "needs_response"],
    ...(input.outcome === "won" ? ([["charge.dispute.funds_reinstated", "won"]] as [LocalEventType, string][]) : []),
    ["charge.dispute.closed", input.outcome],
  ];
  const db = getDb(env);
  const movement = { checkoutSessionId: row.id, paymentIntentId, amountCents, currency: row.currency };
  await recordLocalMovement(db, { ...movement, id: `dispute_withdrawn:${id}`, kind: "dispute_withdrawn" });
  if (input.outcome === "won")
    await recordLocalMovement(db, { ...movement, id: `dispute_reinstated:${id}`, kind: "dispute_reinstated" });
  return {
    ok: true,
    disputeId: id,
    events: steps.map(([type, status]) => localEvent(type, localDisputeObject({ ...base, status }))),
  };
}

export type LocalRefundFailureResult = { ok: true; refundId: string } | { ok: false; message: string };

/**
 * Demo mode only: a refund of what is left of a paid local payment, made in the provider's dashboard, that the
 * card network then returns, as Stripe reports one: refund.created (pending), then refund.failed. The buyer is mailed
 * the refund and then that it did not go through (docs/decisions/150-refund-failure-mail.md).
 */
export async function simulateLocalRefundFailure(
  env: Env,
  input: { checkoutSessionId: string },
): Promise<LocalRefundFailureResult> {
  const built = await localDashboardRefundEvents(env, { checkoutSessionId: input.checkoutSessionId, fails: true });
  if (!built.ok) return built;
  for (const event of built.events) {
    const response = await deliverLocalEvent(env, event);
    if (response.status !== 200)
      return { ok: false, message: `The webhook answered ${response.status}; please try again.` };
  }
  return { ok: true, refundId: built.refundId };
}

/**
 * A refund made in the provider's dashboard (its metadata names only the checkout, or nothing when `bare`): of
 * `amountCents` (what is left of the payment by default), refund.created while pending, then refund.updated once it
 * succeeded or refund.failed when the card network returns it (`fails`). The provider's books record the money going
 * back and, failed, coming back again; the caller delivers the events.
 */
export async function localDashboardRefundEvents(
  env: Env,
  input: { checkoutSessionId: string; amountCents?: number; fails?: boolean; bare?: boolean },
): Promise<{ ok: true; refundId: string; events: LocalEvent[] } | { ok: false; message: string }> {
  if (!isLocalPaymentsEnabled(env))
    return { ok: false, message: "Refunds can only be simulated with the local payment provider." };
  const row = await getCheckoutSession(getDb(env), input.checkoutSessionId);
  if (!row || row.provider !== "local") return { ok: false, message: "This checkout does not exist." };
  if (!(await isPaid(env, row))) return { ok: false, message: "Only a paid checkout can be refunded." };
  const amountCents = input.amountCents ?? refundableCents(row.amountCents, row.refundedCents);
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    return { ok: false, message: "This payment has already been refunded in full." };
  const id = randomId("re_local_");
  const paymentIntentId = row.paymentIntentId ?? localPaymentIntentId(row.id);
  const refund = localRefundObject({
    id,
    paymentIntentId,
    amountCents,
    currency: row.currency,
    metadata: input.bare ? {} : { checkout_session_id: row.id },
  });
  const db = getDb(env);
  const movement = { checkoutSessionId: row.id, paymentIntentId, amountCents, currency: row.currency };
  await recordLocalMovement(db, { ...movement, id: `refund:${id}`, kind: "refund" });
  if (input.fails) await recordLocalMovement(db, { ...movement, id: `refund_failed:${id}`, kind: "refund_failed" });
  const last = input.fails ? (["refund.failed", "failed"] as const) : (["refund.updated", "succeeded"] as const);
  const steps = [["refund.created", "pending"] as const, last];
  return { ok: true, refundId: id, events: steps.map(([type, status]) => localEvent(type, { ...refund, status })) };
}
