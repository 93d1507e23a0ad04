import { SELF } from "cloudflare:test";
import Stripe from "stripe";
import type { checkoutSessions } from "~/db/schema";
import { LOCAL_CONNECT_WEBHOOK_SECRET } from "~/lib/payments/connect/connect.server";
import { LOCAL_WEBHOOK_SECRET } from "~/lib/payments/providers/provider.server";
import { eventEnvelope } from "~/lib/stripe-event";
import { ORIGIN } from "../helpers";

// Stripe-format webhook events as the tests send them: signed with Stripe's own SDK (the local provider's secrets)
// and POSTed to the built worker, like Stripe (or the local provider) does.

const cryptoProvider = Stripe.createSubtleCryptoProvider();

type SignOptions = { secret?: string; timestamp?: number };

/** The Stripe-Signature header for `payload` (the payments webhook's secret and the current time unless told). */
export function stripeSignature(payload: string, opts: SignOptions = {}): Promise<string> {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: opts.secret ?? LOCAL_WEBHOOK_SECRET,
    timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
    cryptoProvider,
  });
}

async function post(path: string, event: object | string, opts: SignOptions): Promise<Response> {
  const payload = typeof event === "string" ? event : JSON.stringify(event);
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": await stripeSignature(payload, opts) },
    body: payload,
  });
}

/** Delivers an event (an object, or the exact JSON text) to /api/webhooks/stripe, signed. */
export function deliverWebhook(event: object | string, opts: SignOptions = {}): Promise<Response> {
  return post("/api/webhooks/stripe", event, opts);
}

/** Delivers an event to /api/webhooks/stripe-connect, signed with the Connect webhook's secret unless told. */
export function deliverConnectWebhook(event: object | string, opts: SignOptions = {}): Promise<Response> {
  return post("/api/webhooks/stripe-connect", event, { ...opts, secret: opts.secret ?? LOCAL_CONNECT_WEBHOOK_SECRET });
}

export const newEventId = () => `evt_test_${crypto.randomUUID().replace(/-/g, "")}`;

/** A Stripe event of `type` about `object`. */
export function stripeEvent(type: string, object: object, id = newEventId()) {
  return eventEnvelope(type, object, id);
}

/** The shipping address the tests' buyers give at checkout. */
export const BUYER_ADDRESS = {
  line1: "1 Jalan Test",
  line2: null,
  city: "George Town",
  state: "Penang",
  postal_code: "10200",
  country: "MY",
};

/**
 * A checkout session event (`checkout.session.completed` unless told) for a checkout row, paid in full:
 * the buyer's name (and address, when given) as the provider reports them; `overrides` replace session fields.
 */
export function checkoutSessionEvent(
  row: typeof checkoutSessions.$inferSelect,
  opts: {
    type?: string;
    eventId?: string;
    buyerName?: string;
    address?: typeof BUYER_ADDRESS | null;
    overrides?: Record<string, unknown>;
  } = {},
) {
  const details: Record<string, unknown> = { email: row.customerEmail, name: opts.buyerName ?? "Fan" };
  if (opts.address !== undefined) details.address = opts.address;
  return stripeEvent(
    opts.type ?? "checkout.session.completed",
    {
      id: row.id,
      object: "checkout.session",
      amount_subtotal: row.amountCents,
      amount_total: row.amountCents,
      client_reference_id: row.metadata.checkout_id,
      currency: "usd",
      customer_email: row.customerEmail,
      customer_details: details,
      livemode: false,
      metadata: row.metadata,
      mode: "payment",
      payment_intent: `pi_test_${row.id.slice(-12)}`,
      payment_status: "paid",
      status: "complete",
      ...opts.overrides,
    },
    opts.eventId ?? newEventId(),
  );
}
