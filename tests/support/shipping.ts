// The shipping tests' common steps (decision 580): a host's physical product paid for by a fan through the local
// provider, and the host's status changes on /orders.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { orders, products, productSizes } from "~/db/schema";
import { createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { db, makeSignedInUser, ORIGIN, postForm, sessionUserOf } from "../helpers";

export type Account = { id: string; email: string; cookie: string };

export const account = (name: string): Promise<Account> => makeSignedInUser({ name });

/** A host's physical product at USD 40.00, checked out by the fan (not paid yet): the checkout's session id. */
export async function startPhysicalCheckout(host: Account, fan: Account): Promise<string> {
  const [product] = await db()
    .insert(products)
    .values({
      hostId: host.id,
      name: `Batik Tote ${crypto.randomUUID().slice(0, 6)}`,
      category: "physical",
      status: "active",
      priceMinCents: 4000,
      priceMaxCents: 4000,
    })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: product!.id, name: "One", priceCents: 4000, availableUnits: 10, position: 0 });
  const started = await createProductCheckout(env, {
    user: sessionUserOf(fan),
    productId: product!.id,
    sizeName: "One",
    quantity: 1,
    origin: ORIGIN,
  });
  if (!started.ok) throw new Error(started.message);
  return started.sessionId;
}

export const SHIP_TO = {
  name: "Ada Buyer",
  street: "1 Jalan Test",
  city: "George Town",
  postal_code: "10200",
  country: "MY",
};

/** The fan's order of a host's physical product at USD 40.00, paid by card through the local provider. */
export async function paidPhysicalOrder(host: Account, fan: Account) {
  const sessionId = await startPhysicalCheckout(host, fan);
  const paid = await postForm(`/api/local-checkout/${sessionId}/pay`, SHIP_TO);
  expect(paid.status).toBeLessThan(400);
  await paid.body?.cancel();
  const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
  expect(order?.status).toBe("processing");
  return order!;
}

/** The host sets an order's status on /orders (with the tracking number and carrier, for Shipped). */
export function setStatus(host: Account, orderId: string, status: string, extra: Record<string, string> = {}) {
  return postForm(
    "/orders?tab=orders",
    { intent: "update-status", orderId, status, ...extra },
    { cookie: host.cookie },
  );
}

/** The host adds a tracking update on /orders. */
export function addUpdate(host: Account, orderId: string, fields: Record<string, string>) {
  return postForm("/orders?tab=orders", { intent: "add-tracking", orderId, ...fields }, { cookie: host.cookie });
}

export async function orderRow(orderId: string) {
  const [row] = await db().select().from(orders).where(eq(orders.id, orderId));
  return row!;
}
