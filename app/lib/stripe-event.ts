// The one shape of a Stripe event as this app builds it: the local provider's payment and Connect events, and the
// tests' events. The webhooks parse what they receive with their own schemas (app/lib/payments).
import Stripe from "stripe";

/** A Stripe-format event of `type` about `object`; `account` is the connected account a Connect event concerns. */
export function eventEnvelope<K extends string, T extends object>(type: K, object: T, id: string, account?: string) {
  return {
    id,
    object: "event" as const,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    ...(account ? { account } : {}),
  };
}
