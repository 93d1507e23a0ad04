import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutSessions, orders } from "~/db/schema";
import { db, get, pageText, postForm } from "./helpers";
import { checkoutSessionEvent, deliverWebhook } from "./support/webhooks";
import { account, SHIP_TO, startPhysicalCheckout } from "./support/shipping";

// A bank transfer that has not arrived yet shows on the buyer's /my-orders as "Awaiting payment" with its amount
// (docs/product.md#shipping-and-delivery): once it arrives it is the order; once it fails it is no longer listed.

const myOrders = async (cookie: string) => pageText(await get("/my-orders", { cookie }));

describe("pending bank transfers on /my-orders", () => {
  it("shows the buyer's own pending transfer with its amount until it arrives, then the order", async () => {
    const host = await account("Transfer Host");
    const fan = await account("Transfer Fan");
    const stranger = await account("Transfer Stranger");
    const sessionId = await startPhysicalCheckout(host, fan);
    // Before a payment method was chosen the checkout is not a pending payment.
    expect(await myOrders(fan.cookie)).not.toContain("Awaiting payment");

    const chosen = await postForm(`/api/local-checkout/${sessionId}/bank-transfer`, SHIP_TO);
    expect(chosen.status).toBe(303);
    const waiting = await myOrders(fan.cookie);
    expect(waiting).toContain("Awaiting payment");
    expect(waiting).toMatch(/Batik Tote [^·]*\(One\).*USD 40\.00 Awaiting payment/);
    // Only the buyer's own.
    expect(await myOrders(stranger.cookie)).not.toContain("Awaiting payment");
    expect(await myOrders(host.cookie)).not.toContain("Awaiting payment");

    const arrived = await postForm(`/api/local-checkout/${sessionId}/bank-transfer/arrive`, {});
    expect(arrived.status).toBe(303);
    const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
    const paid = await myOrders(fan.cookie);
    expect(paid).not.toContain("Awaiting payment");
    expect(paid).toContain(order!.orderNumber);
  });

  it("no longer lists a transfer that failed", async () => {
    const host = await account("Failed Transfer Host");
    const fan = await account("Failed Transfer Fan");
    const sessionId = await startPhysicalCheckout(host, fan);
    expect((await postForm(`/api/local-checkout/${sessionId}/bank-transfer`, SHIP_TO)).status).toBe(303);
    expect(await myOrders(fan.cookie)).toContain("Awaiting payment");

    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    const failed = checkoutSessionEvent(row!, {
      type: "checkout.session.async_payment_failed",
      overrides: { payment_status: "unpaid" },
    });
    expect((await deliverWebhook(failed)).status).toBe(200);
    const after = await myOrders(fan.cookie);
    expect(after).not.toContain("Awaiting payment");
    expect(await db().select().from(orders).where(eq(orders.checkoutSessionId, sessionId))).toHaveLength(0);
  });
});
