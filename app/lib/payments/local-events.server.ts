import { signPayload } from "./local.server";
import { webhookSecret } from "./provider.server";
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
