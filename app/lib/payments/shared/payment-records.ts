// The pipeline's names and rows for a payment that need no bindings: the pool ledger's keys of a checkout, the local
// provider's payment intent id, and the checkout row a paid local checkout leaves. The Worker and the demo seed
// (scripts/seed.ts, in Node) both use them, so seeded payments refund, and reverse their pool share, like real ones.

import type { NewCheckoutSession } from "~/db/schema";
import type { RevenueRules } from "~/domain/revenue";

/** The pool ledger's source key of a checkout payment. */
export function contributionKey(sessionId: string): string {
  return `checkout:${sessionId}`;
}

/**
 * The pool ledger's key of one host's share of a cart checkout: a cart pays several hosts, and each host's pool gets
 * one contribution (with one entry for the buyer) per checkout.
 */
export function cartContributionKey(sessionId: string, hostId: string): string {
  return `${contributionKey(sessionId)}:host:${hostId}`;
}

/** The source key of the second entry a shared group-buy checkout earns (no money). */
export function shareBonusKey(sessionId: string): string {
  return `${contributionKey(sessionId)}:share`;
}

/** The payment intent id the local provider reports for a session (stable across its events). */
export function localPaymentIntentId(sessionId: string): string {
  return `pi_local_${sessionId.replace(/^cs_local_/, "")}`;
}

/** The local checkout session a local payment intent belongs to (the inverse of localPaymentIntentId). */
export function localSessionIdOf(paymentIntentId: string): string {
  return `cs_local_${paymentIntentId.replace(/^pi_local_/, "")}`;
}

/** The success address, in Stripe's template form (the provider fills in the session id). */
export function successUrl(origin: string): string {
  return `${origin}/payment/success?session_id={CHECKOUT_SESSION_ID}`;
}

/**
 * The checkout_sessions row of a local-provider checkout once it is paid: written by startCheckout under a reference
 * (kept in the metadata as checkout_id), re-keyed to the provider's session id, then claimed by the paid event with
 * its payment intent and the revenue rules in force. For payments recorded without the checkout (the demo seed).
 * @public The seed (scripts/seed/) records its payments with it; no code of the app does.
 */
export function paidLocalCheckoutRow(input: {
  sessionId: string;
  reference: string;
  purpose: NewCheckoutSession["purpose"];
  userId: string;
  hostId: string | null;
  amountCents: number;
  customerEmail: string;
  metadata: Record<string, string>;
  origin: string;
  cancelPath: string;
  paidAt: Date;
  rates: RevenueRules;
}): NewCheckoutSession {
  return {
    id: input.sessionId,
    provider: "local",
    purpose: input.purpose,
    userId: input.userId,
    hostId: input.hostId,
    amountCents: input.amountCents,
    currency: "USD",
    status: "complete",
    paymentStatus: "paid",
    paymentIntentId: localPaymentIntentId(input.sessionId),
    customerEmail: input.customerEmail,
    successUrl: successUrl(input.origin),
    cancelUrl: `${input.origin}${input.cancelPath}`,
    url: null,
    metadata: { ...input.metadata, checkout_id: input.reference },
    expiresAt: new Date(input.paidAt.getTime() + 24 * 60 * 60 * 1000),
    createdAt: input.paidAt,
    completedAt: input.paidAt,
    rates: input.rates,
  };
}
