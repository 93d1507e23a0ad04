import Stripe from "stripe";
import { eventEnvelope } from "~/lib/stripe-event";
import { getDb } from "~/db/client.server";
import { getCheckoutSession } from "~/db/queries/checkout.server";
import {
  hasLocalMovement,
  isLocallyCaptured,
  localNetCents,
  recordLocalMovement,
} from "~/db/queries/local-provider.server";
import type { CheckoutSession } from "~/db/schema";
import { simulatedProcessingFeeCents } from "~/domain/payments";
import { LOCAL_CARD_FUNDINGS, type CardFunding } from "~/domain/spend-limits";
import { localPaymentIntentId, localSessionIdOf } from "../shared/payment-records";
import type { PaymentProvider, ProviderSession, ShippingAddress } from "./types";

// The local payment provider: what Stripe Checkout does, on this machine, with no money involved. Sessions live in
// checkout_sessions (provider 'local'); the test checkout page (workers/local-checkout.ts) turns the buyer's click
// into Stripe-format events, signed exactly as Stripe signs them and delivered to the same webhook handler. The
// provider itself never calls the webhook: what it has to report (a refund's events) it hands back to its caller.

/** Where the local checkout page lives (the Hono sub-app mounted at /api/local-checkout). */
export const LOCAL_CHECKOUT_PATH = "/api/local-checkout";
/** A local session can be paid for 24 hours, like a Stripe Checkout Session. */
export const LOCAL_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The checkout metadata key where the local checkout page keeps how the buyer paid: a card's funding type
 * (LOCAL_CARD_FUNDINGS) or "none" (a bank transfer). Never sent in the session's events.
 */
export const LOCAL_FUNDING_KEY = "local_funding";

/** The funding type a local payment reports: the chosen card type, null for a bank transfer, debit unless told. */
export function localFundingOf(value: string | undefined): CardFunding | null {
  if (value === "none") return null;
  return (LOCAL_CARD_FUNDINGS as readonly string[]).includes(value ?? "") ? (value as CardFunding) : "debit";
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random id in Stripe's style: prefix + base62 characters. */
export function randomId(prefix: string, length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = prefix;
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

export function localCheckoutUrl(origin: string, sessionId: string): string {
  return `${origin}${LOCAL_CHECKOUT_PATH}/${encodeURIComponent(sessionId)}`;
}

function toProviderSession(row: CheckoutSession): ProviderSession {
  return {
    id: row.id,
    status: row.status,
    paymentStatus: row.paymentStatus,
    amountTotalCents: row.amountCents,
    currency: row.currency.toLowerCase(),
    metadata: row.metadata,
    customerEmail: row.customerEmail,
    paymentIntentId: row.paymentIntentId,
    reference: row.metadata.checkout_id ?? null,
  };
}

/** The local refund id of an idempotency key: the same key always answers the same refund, as Stripe's does. */
export async function localRefundId(idempotencyKey: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`refund:${idempotencyKey}`)),
  );
  let out = "re_local_";
  for (const byte of digest.slice(0, 24)) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

export function createLocalProvider(env: Env, origin: string): PaymentProvider {
  return {
    name: "local",

    async createCheckoutSession(input) {
      const id = randomId("cs_local_");
      return {
        id,
        url: localCheckoutUrl(origin, id),
        expiresAt: input.expiresAt ?? new Date(Date.now() + LOCAL_SESSION_TTL_MS),
      };
    },

    async processingFee({ paymentIntentId, amountCents, currency, balanceTransactionId }) {
      // No card network here: the fee Stripe would charge for a US card, reported the way Stripe reports it. A local
      // payment's balance transaction exists as soon as it is paid; a payment intent the local provider did not make
      // has none here, unless a charge event names its balance transaction.
      if (!balanceTransactionId && !paymentIntentId.startsWith("pi_local_")) return null;
      const id = balanceTransactionId ?? `txn_local_${paymentIntentId.replace(/^pi_local_/, "")}`;
      return { balanceTransactionId: id, feeCents: simulatedProcessingFeeCents(amountCents), currency };
    },

    async cardFunding({ checkoutSessionId }) {
      // What the buyer chose on the local checkout page (LOCAL_FUNDING_KEY); a debit card unless told.
      const row = await getCheckoutSession(getDb(env), checkoutSessionId);
      return localFundingOf(row?.metadata[LOCAL_FUNDING_KEY]);
    },

    async retrieveSession(id) {
      const row = await getCheckoutSession(getDb(env), id);
      return row && row.provider === "local" ? toProviderSession(row) : null;
    },

    async refund(input) {
      // No money moved, so nothing goes back; the refund is recorded through the same events Stripe sends
      // (refund.created while pending, refund.updated once it succeeded), which this provider hands back to its
      // caller (it imports no webhook code) for the caller to apply through the webhook pipeline.
      const id = await localRefundId(input.idempotencyKey);
      // As Stripe does, a new refund larger than what the payment still holds is refused (a dashboard refund or a
      // dispute may have taken it already); the same key again answers the same refund.
      const checkoutSessionId = input.metadata.checkout_session_id ?? localSessionIdOf(input.paymentIntentId);
      const db = getDb(env);
      if (!(await hasLocalMovement(db, `refund:${id}`)) && (await isLocallyCaptured(db, checkoutSessionId))) {
        const held = await localNetCents(db, checkoutSessionId);
        if (input.amountCents > held) {
          throw new Error(
            `Refund amount (${input.amountCents}) is greater than unrefunded amount on charge (${Math.max(held, 0)})`,
          );
        }
      }
      const refund = localRefundObject({ id, ...input });
      // The provider's own record of the money going back (the same key is the same refund, recorded once).
      await recordLocalMovement(db, {
        id: `refund:${id}`,
        checkoutSessionId,
        paymentIntentId: input.paymentIntentId,
        kind: "refund",
        amountCents: input.amountCents,
        currency: input.currency,
      });
      // Handed back to the caller, which applies them through the webhook pipeline as Stripe's deliveries are.
      const events = (["pending", "succeeded"] as const).map((status) =>
        localEvent(
          status === "pending" ? "refund.created" : "refund.updated",
          { ...refund, status },
          `evt_local_${id}_${status}`,
        ),
      );
      return { id, status: "succeeded", events };
    },
  };
}

// --- events ----------------------------------------------------------------------------------------------------

export type LocalEventType =
  | "checkout.session.completed"
  | "checkout.session.async_payment_succeeded"
  | "checkout.session.async_payment_failed"
  | "refund.created"
  | "refund.updated"
  | "refund.failed"
  | "charge.dispute.created"
  | "charge.dispute.funds_withdrawn"
  | "charge.dispute.funds_reinstated"
  | "charge.dispute.closed";

/**
 * The `checkout.session` object Stripe sends for a session: the fields the webhook reads, in Stripe's shape.
 */
export function localCheckoutSessionObject(
  row: CheckoutSession,
  paymentStatus: "paid" | "unpaid",
  shipping: ShippingAddress | null = null,
) {
  const created = Math.floor(row.createdAt.getTime() / 1000);
  const { local_shipping: _saved, [LOCAL_FUNDING_KEY]: _funding, ...metadata } = row.metadata;
  const address = shipping
    ? {
        line1: shipping.street,
        line2: null,
        city: shipping.city,
        state: shipping.state,
        postal_code: shipping.postal_code,
        country: shipping.country,
      }
    : null;
  return {
    id: row.id,
    object: "checkout.session" as const,
    amount_subtotal: row.amountCents,
    amount_total: row.amountCents,
    client_reference_id: row.metadata.checkout_id ?? null,
    created,
    currency: row.currency.toLowerCase(),
    customer_email: row.customerEmail,
    customer_details: { email: row.customerEmail, name: shipping?.name ?? null, address },
    collected_information: shipping ? { shipping_details: { name: shipping.name, address } } : null,
    expires_at: row.expiresAt ? Math.floor(row.expiresAt.getTime() / 1000) : created + LOCAL_SESSION_TTL_MS / 1000,
    livemode: false,
    metadata,
    mode: "payment" as const,
    payment_intent: localPaymentIntentId(row.id),
    payment_status: paymentStatus,
    status: "complete" as const,
    success_url: row.successUrl,
    cancel_url: row.cancelUrl,
    url: null,
  };
}

/** The `refund` object Stripe sends in refund events, for a local refund. */
export function localRefundObject(input: {
  id: string;
  paymentIntentId: string;
  amountCents: number;
  currency: string;
  metadata: Record<string, string>;
  status?: string;
}) {
  return {
    id: input.id,
    object: "refund" as const,
    amount: input.amountCents,
    currency: input.currency.toLowerCase(),
    status: input.status ?? "pending",
    payment_intent: input.paymentIntentId,
    charge: null,
    metadata: input.metadata,
    created: Math.floor(Date.now() / 1000),
    reason: null,
    failure_reason: null,
  };
}

/** The `dispute` object Stripe sends in charge.dispute.* events, for a local payment. */
export function localDisputeObject(input: {
  id: string;
  paymentIntentId: string;
  amountCents: number;
  currency: string;
  status: string;
}) {
  return {
    id: input.id,
    object: "dispute" as const,
    amount: input.amountCents,
    currency: input.currency.toLowerCase(),
    status: input.status,
    payment_intent: input.paymentIntentId,
    charge: null,
    reason: "general",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
  };
}

/** A Stripe-format event wrapping a provider object (a session, refund or dispute). */
export function localEvent<T extends { id: string; object: string }>(
  type: LocalEventType,
  object: T,
  id = randomId("evt_local_"),
) {
  return eventEnvelope(type, object, id);
}

/** The `Stripe-Signature` header for a payload: `t=<unix seconds>,v1=<HMAC-SHA256(secret, t + "." + payload)>`. */
export function signPayload(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): Promise<string> {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    timestamp,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
}
