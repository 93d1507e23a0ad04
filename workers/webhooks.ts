import { Hono } from "hono";
import Stripe from "stripe";
import { processStripeEvent } from "~/lib/fulfilment.server";
import { webhookSecret } from "~/lib/payments/provider.server";

/** Payment webhooks, mounted at /api/webhooks. Signed instead of same-origin (the origin check exempts them). */
export const webhooks = new Hono<{ Bindings: Env }>();

/** A signature older than this (seconds) is refused, so a captured delivery cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Stripe's events are a few kilobytes; anything far larger is not one. */
const MAX_BODY_BYTES = 512 * 1024;

const cryptoProvider = Stripe.createSubtleCryptoProvider();

webhooks.post("/stripe", async (c) => {
  const secret = webhookSecret(c.env);
  if (!secret) {
    console.error("webhook: STRIPE_WEBHOOK_SECRET is not set; refusing events until it is");
    return c.json({ error: "Webhook secret not configured" }, 500);
  }
  const signature = c.req.header("Stripe-Signature");
  if (!signature) return c.json({ error: "Missing Stripe-Signature header" }, 400);
  const body = await c.req.text();
  if (body.length > MAX_BODY_BYTES) return c.json({ error: "Payload too large" }, 413);

  let event: unknown;
  try {
    event = await Stripe.webhooks.constructEventAsync(
      body,
      signature,
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
      cryptoProvider,
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      return c.json({ error: "Invalid signature" }, 400);
    }
    // The signature was verified before parsing, so this is a signed body that is not an event: acknowledge it.
    console.warn("webhook: signed payload is not a JSON event", { error: String(error) });
    return c.json({ received: true, ignored: "malformed payload" }, 200);
  }

  const result = await processStripeEvent(c.env, event);
  return c.json(result.body, result.status);
});
