import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { checkoutSessions, entrySpend, guessWinGames, orders, productSizes, products } from "~/db/schema";
import { createGuessCheckout, createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import type { SessionUser } from "~/lib/session.server";
import { db, makeSignedInUser, ORIGIN, sessionUserOf } from "../helpers";
import { checkoutSessionEvent, deliverWebhook } from "./webhooks";

// The entry gate's tests (spend limits, the credit-card cap, eligibility on the payment path): fans, a host's
// digital product and game, checkouts started as the pages start them and paid by a signed event or the local
// checkout page.

export async function newFan(name = "Gate Fan") {
  const user = await makeSignedInUser({ name });
  return { ...user, session: sessionUserOf(user, name) as SessionUser };
}

/** A host with a digital product at `priceCents` (USD) and a running game with `feeCents` minimum fee. */
export async function newHost(priceCents = 2_000) {
  const host = await makeSignedInUser({ name: "Gate Host" });
  const [product] = await db()
    .insert(products)
    .values({ hostId: host.id, name: `Gate Pass ${crypto.randomUUID().slice(0, 6)}`, category: "digital" })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: product!.id, name: "One Size", priceCents, availableUnits: 1_000, position: 0 });
  return { host, productId: product!.id };
}

export async function newGame(hostId: string, feeCents = 500) {
  const [game] = await db()
    .insert(guessWinGames)
    .values({
      hostId,
      question: `Which lantern is lit ${crypto.randomUUID().slice(0, 6)}?`,
      options: ["Red", "Blue", "Green"],
      correctAnswer: "Blue",
      entryFeeCents: feeCents,
    })
    .returning();
  return game!;
}

export async function checkoutRow(id: string) {
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
  return row!;
}

/** Starts a product checkout (quantity `quantity`) with consent to no entry, as /payment does. */
export async function startPurchase(fan: { session: SessionUser }, productId: string, quantity = 1) {
  const result = await createProductCheckout(env, {
    user: fan.session,
    productId,
    sizeName: "One Size",
    quantity,
    origin: ORIGIN,
  });
  if (!result.ok) throw new Error(result.message);
  return checkoutRow(result.sessionId);
}

/** A purchase paid by a signed `checkout.session.completed` (a debit card unless the event says otherwise). */
export async function buy(
  fan: { session: SessionUser },
  productId: string,
  opts: { quantity?: number; overrides?: Record<string, unknown> } = {},
) {
  const row = await startPurchase(fan, productId, opts.quantity);
  const res = await deliverWebhook(checkoutSessionEvent(row, { overrides: opts.overrides ?? {} }));
  expect(res.status).toBe(200);
  return { row, order: await orderOf(row.id) };
}

/** A checkout paid on the local checkout page with a card of `funding` type. */
export async function payOnLocalPage(checkoutId: string, funding: "credit" | "debit" | "prepaid") {
  const res = await SELF.fetch(`${ORIGIN}/api/local-checkout/${encodeURIComponent(checkoutId)}/pay`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN },
    body: new URLSearchParams({ funding }).toString(),
    redirect: "manual",
  });
  expect(res.status).toBe(303);
}

export async function orderOf(checkoutId: string) {
  const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, checkoutId));
  return order!;
}

export async function startGuess(fan: { session: SessionUser }, gameId: string, feeCents?: number) {
  return createGuessCheckout(env, {
    user: fan.session,
    gameId,
    answer: "Blue",
    ...(feeCents ? { feeCents } : {}),
    origin: ORIGIN,
  });
}

export async function spendRows(checkoutId: string) {
  return db().select().from(entrySpend).where(eq(entrySpend.checkoutId, checkoutId));
}
