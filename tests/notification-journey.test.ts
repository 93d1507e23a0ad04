import { env } from "cloudflare:test";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  checkoutSessions,
  mailOutbox,
  notifications,
  orders,
  products,
  productSizes,
  userShippingCountries,
} from "~/db/schema";
import { createCartCheckout } from "~/lib/payments/checkout/cart-checkout.server";
import { runScheduled } from "../workers/scheduled";
import { db, makeSignedInUser, ORIGIN, postForm, sessionUserOf } from "./helpers";
import { addUpdate, setStatus, SHIP_TO } from "./support/shipping";

// A fan's whole journey shows in their inbox and their mailbox in the order it happened, each fact once: a cart
// paid by bank transfer (pending, then arrived), shipped with two tracking updates, delivered, and a refund
// (docs/product.md#notifications, decision 570).

describe("a fan's journey", () => {
  it("cart, bank transfer pending then paid, shipped, two updates, delivered, a refund: in order, once each", async () => {
    const host = await makeSignedInUser({ name: "Journey Host" });
    const fan = await makeSignedInUser({ name: "Journey Fan" });
    await db().insert(userShippingCountries).values({ hostId: host.id, countryCode: "MY" });
    const [lamp] = await db()
      .insert(products)
      .values({ hostId: host.id, name: "Rattan Lamp", category: "physical", status: "active" })
      .returning();
    await db()
      .insert(productSizes)
      .values({ productId: lamp!.id, name: "One Size", priceCents: 4_000, availableUnits: 30, position: 0 });
    const added = await postForm(
      "/cart",
      { intent: "add", productId: lamp!.id, sizeName: "One Size", quantity: "1" },
      { cookie: fan.cookie },
    );
    expect(added.status).toBeLessThan(400);
    const started = await createCartCheckout(env, { user: sessionUserOf(fan), shipTo: "MY", origin: ORIGIN });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, started.sessionId));

    // The bank transfer at the local provider: pending, then arrived (the cron runs between and after; a repeated
    // press changes nothing).
    for (let i = 0; i < 2; i++) {
      const pending = await postForm(`/api/local-checkout/${row!.id}/bank-transfer`, SHIP_TO);
      expect(pending.status).toBe(303);
      await runScheduled(env, new Date());
    }
    for (let i = 0; i < 2; i++) {
      const arrived = await postForm(`/api/local-checkout/${row!.id}/bank-transfer/arrive`, {});
      expect(arrived.status).toBe(303);
      await runScheduled(env, new Date());
    }
    const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, row!.id));
    expect(order).toBeTruthy();

    // Shipped, two tracking updates, delivered (Shipped and Delivered each set twice: told once).
    for (let i = 0; i < 2; i++)
      expect(
        (await setStatus(host, order!.id, "shipped", { trackingNumber: "TRK-JOURNEY1", carrier: "DHL" })).status,
      ).toBe(302);
    expect(
      (
        await addUpdate(host, order!.id, {
          description: "Arrived at the sorting hub",
          location: "Shah Alam",
        })
      ).status,
    ).toBe(302);
    expect((await addUpdate(host, order!.id, { description: "Out for delivery", location: "" })).status).toBe(302);
    for (let i = 0; i < 2; i++) {
      const res = await setStatus(host, order!.id, "delivered");
      expect(res.status).toBe(302);
    }

    // A partial refund by the host.
    const refund = await postForm(
      "/orders?tab=orders",
      {
        intent: "refund",
        orderId: order!.id,
        amount: "10.00",
        reason: "Scratched shade",
        refundKey: crypto.randomUUID(),
      },
      { cookie: host.cookie },
    );
    expect(refund.status).toBe(302);
    await runScheduled(env, new Date());

    const n = order!.orderNumber;
    const expected = [
      "Awaiting your bank transfer",
      "Payment received, order confirmed: Rattan Lamp",
      `Your order ${n} has shipped`,
      `Tracking update for order ${n}`,
      `Tracking update for order ${n}`,
      `Your order ${n} was delivered`,
      `Refund of USD 10.00 for order ${n}`,
    ];
    const inbox = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, fan.id))
      .orderBy(asc(notifications.createdAt), asc(notifications.id));
    expect(inbox.map((x) => x.subject)).toEqual(expected);
    expect(new Set(inbox.map((x) => x.key)).size).toBe(expected.length);
    const mails = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, fan.email))
      .orderBy(asc(mailOutbox.createdAt));
    expect(mails.map((m) => m.subject)).toEqual(expected);
    // Each has a plain-text part and an HTML part.
    for (const mail of mails) {
      expect(mail.textBody.length).toBeGreaterThan(0);
      expect(mail.htmlBody).toContain("<p");
    }
  });
});
