import { Hono } from "hono";
import { handleConnectWebhook } from "~/lib/payments/connect/connect-events.server";

/** Stripe Connect events (account.updated, transfer.*, payout.*), mounted at /api/webhooks; own signing secret. */
export const connectWebhooks = new Hono<{ Bindings: Env }>();

const MAX_BODY_BYTES = 512 * 1024;

connectWebhooks.post("/stripe-connect", async (c) => {
  const body = await c.req.text();
  if (body.length > MAX_BODY_BYTES) return c.json({ error: "Payload too large" }, 413);
  const result = await handleConnectWebhook(c.env, body, c.req.header("Stripe-Signature"));
  return c.json(result.body, result.status);
});
