import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { checkoutSessions } from "~/db/schema";
import { createGroupBuyCheckout, GroupBuySelectionSchema } from "~/lib/payments/checkout/group-buy-checkout.server";
import { db, makeSessionUser, ORIGIN } from "../helpers";
import { checkoutSessionEvent, deliverWebhook } from "./webhooks";

type JoinItem = { productId: string; sizeName: string; colorName: string; quantity: string };

/**
 * A new fan joins a group buy with these items and pays: the checkout is started as the join page starts it and its
 * paid event (under a fresh payment intent) is delivered signed. Returns the checkout row and the payment intent.
 */
export async function joinGroupBuyPaid(groupBuyId: string, items: JoinItem[], fanName: string) {
  const fan = await makeSessionUser(fanName);
  const started = await createGroupBuyCheckout(env, {
    user: fan,
    groupBuyId,
    items: GroupBuySelectionSchema.parse({ items }).items,
    origin: ORIGIN,
  });
  if (!started.ok) throw new Error(started.message);
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, started.sessionId));
  const paymentIntent = `pi_test_${crypto.randomUUID().replace(/-/g, "")}`;
  const paid = await deliverWebhook(
    checkoutSessionEvent(row!, { buyerName: fanName, address: null, overrides: { payment_intent: paymentIntent } }),
  );
  expect(paid.status).toBe(200);
  return { row: row!, paymentIntent };
}
