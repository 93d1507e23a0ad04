import { Hono } from "hono";
import { handleStripeWebhook } from "~/lib/payments/webhook/webhook.server";

/** Payment webhooks, mounted at /api/webhooks. Signed instead of same-origin (the origin check exempts them). */
export const webhooks = new Hono<{ Bindings: Env }>();

webhooks.post("/stripe", async (c) => {
  const result = await handleStripeWebhook(c.env, await c.req.text(), c.req.header("Stripe-Signature"));
  return c.json(result.body, result.status);
});
