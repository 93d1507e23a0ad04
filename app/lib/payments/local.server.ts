import Stripe from "stripe";
import { getDb } from "~/db/client.server";
import { getCheckoutSession } from "~/db/queries/checkout.server";
import type { CheckoutSession } from "~/db/schema";
import type { PaymentProvider, ProviderSession, ShippingAddress } from "./provider.server";

// The local payment provider: what Stripe Checkout does, on this machine, with no money involved. Sessions live in
// checkout_sessions (provider 'local'); the test checkout page (workers/local-checkout.ts) turns the buyer's click
// into Stripe-format events, signed exactly as Stripe signs them and delivered to the same webhook handler.

/** Where the local checkout page lives (the Hono sub-app mounted at /api/local-checkout). */
export const LOCAL_CHECKOUT_PATH = "/api/local-checkout";
/** A local session can be paid for 24 hours, like a Stripe Checkout Session. */
export const LOCAL_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random id in Stripe's style: prefix + base62 characters. */
export function randomId(prefix: string, length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = prefix;
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

/** The payment intent id the local provider reports for a session (stable across its events). */
export function localPaymentIntentId(sessionId: string): string {
  return `pi_local_${sessionId.replace(/^cs_local_/, "")}`;
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

export function createLocalProvider(env: Pick<Env, "DB">, origin: string): PaymentProvider {
  return {
    name: "local",

    async createCheckoutSession(input) {
      const id = randomId("cs_local_");
      return { id, url: localCheckoutUrl(origin, id), expiresAt: input.expiresAt ?? new Date(Date.now() + LOCAL_SESSION_TTL_MS) };
    },

    async retrieveSession(id) {
      const row = await getCheckoutSession(getDb(env), id);
      return row && row.provider === "local" ? toProviderSession(row) : null;
    },

    async refund() {
      // No money moved, so there is nothing to give back; report what Stripe would.
      return { id: randomId("re_local_"), status: "succeeded" };
    },
  };
}

// --- events ----------------------------------------------------------------------------------------------------

export type LocalEventType =
  | "checkout.session.completed"
  | "checkout.session.async_payment_succeeded"
  | "checkout.session.async_payment_failed";

/**
 * The `checkout.session` object Stripe sends for a session: the fields the webhook reads, in Stripe's shape.
 */
export function localCheckoutSessionObject(
  row: CheckoutSession,
  paymentStatus: "paid" | "unpaid",
  shipping: ShippingAddress | null = null,
) {
  const created = Math.floor(row.createdAt.getTime() / 1000);
  const { local_shipping: _saved, ...metadata } = row.metadata;
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

/** A Stripe-format event wrapping a session object. */
export function localEvent(type: LocalEventType, session: ReturnType<typeof localCheckoutSessionObject>) {
  return {
    id: randomId("evt_local_"),
    object: "event" as const,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object: session },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** The `Stripe-Signature` header for a payload: `t=<unix seconds>,v1=<HMAC-SHA256(secret, t + "." + payload)>`. */
export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): Promise<string> {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    timestamp,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
}
