import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listLocalMovements, localNetCents } from "~/db/queries/local-provider.server";
import { orders, products, productSizes } from "~/db/schema";
import { createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { getPaymentProvider } from "~/lib/payments/providers/provider.server";
import { requestRefund } from "~/lib/payments/refunds/refund-request.server";
import { db, makeSessionUser, makeUser, ORIGIN, postForm } from "./helpers";

// The local provider's own books (local_provider_movements, decision 400): what its checkout page captured, what
// went back by refund or dispute and what came back again, recorded by the provider and read by the model test.

async function paidDigital(priceCents = 2_500) {
  const host = await makeUser({ name: "Books Host" });
  const [p] = await db()
    .insert(products)
    .values({ hostId: host.id, name: "Books Item", category: "digital" })
    .returning();
  await db()
    .insert(productSizes)
    .values({ productId: p!.id, name: "One Size", priceCents, availableUnits: 5, position: 0 });
  const started = await createProductCheckout(env, {
    user: await makeSessionUser(),
    productId: p!.id,
    sizeName: "One Size",
    quantity: 1,
    origin: ORIGIN,
  });
  if (!started.ok) throw new Error(started.message);
  const pay = await postForm(`/api/local-checkout/${started.sessionId}/pay`, {});
  expect(pay.status).toBe(303);
  const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, started.sessionId));
  return { sessionId: started.sessionId, order: order! };
}

const page = (sessionId: string, action: string, fields: Record<string, string> = {}) =>
  SELF.fetch(`${ORIGIN}/api/local-checkout/${sessionId}/${action}`, {
    method: "POST",
    headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });

const kinds = async (sessionId: string) =>
  (await listLocalMovements(db(), sessionId)).map((m) => [m.kind, m.amountCents]);

describe("the local provider's books", () => {
  it("record the capture once, however often the buyer clicks Pay", async () => {
    const { sessionId } = await paidDigital(2_500);
    expect((await postForm(`/api/local-checkout/${sessionId}/pay`, {})).status).toBe(303);
    expect(await kinds(sessionId)).toEqual([["capture", 2_500]]);
    expect(await localNetCents(db(), sessionId)).toBe(2_500);
  });

  it("record a host's refund once per idempotency key, a lost dispute's withdrawal and a won one's reinstatement", async () => {
    const { sessionId, order } = await paidDigital(2_500);
    const refund = {
      checkoutSessionId: sessionId,
      orderId: order.id,
      amountCents: 500,
      origin: "host" as const,
      reason: null,
      idempotencyKey: `books:${order.id}`,
    };
    expect((await requestRefund(env, refund)).ok).toBe(true);
    expect((await requestRefund(env, refund)).ok).toBe(true);
    expect(await localNetCents(db(), sessionId)).toBe(2_000);

    expect((await page(sessionId, "dispute", { outcome: "won" })).status).toBe(200);
    expect(await localNetCents(db(), sessionId)).toBe(2_000);
    expect((await page(sessionId, "dispute", { outcome: "lost" })).status).toBe(200);
    expect(await kinds(sessionId)).toEqual([
      ["capture", 2_500],
      ["refund", 500],
      ["dispute_withdrawn", 2_500],
      ["dispute_reinstated", 2_500],
      ["dispute_withdrawn", 2_500],
    ]);
    expect(await localNetCents(db(), sessionId)).toBe(-500);
  });

  it("record a failing dashboard refund going back and coming back: the provider still holds the payment", async () => {
    const { sessionId } = await paidDigital(1_999);
    expect((await page(sessionId, "refund-failure")).status).toBe(200);
    expect(await kinds(sessionId)).toEqual([
      ["capture", 1_999],
      ["refund", 1_999],
      ["refund_failed", 1_999],
    ]);
    expect(await localNetCents(db(), sessionId)).toBe(1_999);
  });

  it("refuse, as Stripe does, a new refund larger than what the payment still holds; the same key still answers", async () => {
    const { sessionId, order } = await paidDigital(2_000);
    const provider = getPaymentProvider(env, "");
    const refund = (amountCents: number, key: string) =>
      provider.refund({
        paymentIntentId: order.paymentIntentId!,
        amountCents,
        currency: "USD",
        idempotencyKey: key,
        metadata: { checkout_session_id: sessionId },
      });
    expect((await refund(1_500, `hold:${order.id}:1`)).status).toBe("succeeded");
    // 500 is left: a new refund of 600 is refused and moves nothing.
    await expect(refund(600, `hold:${order.id}:2`)).rejects.toThrow(/greater than unrefunded amount/);
    expect(await localNetCents(db(), sessionId)).toBe(500);
    // The first refund's key again is the same refund, recorded once; the 500 left can still go back.
    expect((await refund(1_500, `hold:${order.id}:1`)).status).toBe("succeeded");
    expect((await refund(500, `hold:${order.id}:3`)).status).toBe("succeeded");
    expect(await kinds(sessionId)).toEqual([
      ["capture", 2_000],
      ["refund", 1_500],
      ["refund", 500],
    ]);
  });
});
