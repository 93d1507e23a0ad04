import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, orders, shippingUpdates } from "~/db/schema";
import { SHIPPING_MESSAGES } from "~/domain/shipping";
import { RETURN_MESSAGES } from "~/domain/returns";
import { db, decodedHtml, get, pageText, postForm } from "./helpers";
import { account, addUpdate, orderRow, paidPhysicalOrder, setStatus } from "./support/shipping";

// The shipping timeline a host writes on /orders (docs/product.md#shipping-and-delivery, decision 580): carriers
// from the list with their tracking links, tracking updates on the host's own orders only, Delivered only after
// Shipped (the only stamp of delivery), the buyer told once per fact.

/** A local datetime-local value `minutesAgo` minutes ago, read as UTC (tzOffset 0). */
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString().slice(0, 16);

async function mailsTo(email: string, subjectLike: string) {
  return db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), like(mailOutbox.subject, subjectLike)));
}

describe("Delivered only after Shipped", () => {
  it("refuses Delivered before Shipped with a clear message and changes nothing; after Shipped it stamps delivery once", async () => {
    const host = await account("Deliver Host");
    const fan = await account("Deliver Fan");
    const order = await paidPhysicalOrder(host, fan);

    const early = await setStatus(host, order.id, "delivered");
    expect(early.status).toBe(409);
    expect(await pageText(early)).toContain(SHIPPING_MESSAGES.deliveredBeforeShipped);
    const before = await orderRow(order.id);
    expect(before).toMatchObject({ status: "processing", deliveredAt: null, shippedAt: null });

    expect((await setStatus(host, order.id, "shipped", { trackingNumber: "TRK-DLV1", carrier: "UPS" })).status).toBe(
      302,
    );
    const shipped = await orderRow(order.id);
    expect(shipped.shippedAt).toBeInstanceOf(Date);
    expect(shipped.deliveredAt).toBeNull();

    expect((await setStatus(host, order.id, "delivered")).status).toBe(302);
    const delivered = await orderRow(order.id);
    expect(delivered.status).toBe("delivered");
    expect(delivered.deliveredAt).toBeInstanceOf(Date);
    // Marked again later: the first delivery time stays.
    expect((await setStatus(host, order.id, "delivered")).status).toBe(302);
    expect((await orderRow(order.id)).deliveredAt).toEqual(delivered.deliveredAt);

    // The buyer was told once of each fact (the mail the current pipeline sends).
    expect(await mailsTo(fan.email, `Your order ${order.orderNumber} has shipped`)).toHaveLength(1);
    expect(await mailsTo(fan.email, `Your order ${order.orderNumber} was delivered`)).toHaveLength(1);
    const [shippedMail] = await mailsTo(fan.email, `Your order ${order.orderNumber} has shipped`);
    expect(shippedMail!.textBody).toContain("Tracking number: TRK-DLV1 (UPS)");
    expect(shippedMail!.textBody).toContain("/shipping-tracking?tracking=TRK-DLV1");
    expect(shippedMail!.textBody).toContain("https://www.ups.com/track?tracknum=TRK-DLV1");
  });

  it("'completed' alone does not stamp delivery: no return window opens", async () => {
    const host = await account("Complete Host");
    const fan = await account("Complete Fan");
    const order = await paidPhysicalOrder(host, fan);
    expect((await setStatus(host, order.id, "completed")).status).toBe(302);
    expect(await orderRow(order.id)).toMatchObject({ status: "completed", deliveredAt: null });
    const ask = await postForm(
      `/order/${order.orderNumber}`,
      { intent: "request-return", reason: "Never came" },
      { cookie: fan.cookie },
    );
    expect(ask.status).toBe(409);
    expect(await pageText(ask)).toContain(RETURN_MESSAGES.notDelivered);
  });

  it("refuses a carrier outside the list", async () => {
    const host = await account("Carrier Host");
    const fan = await account("Carrier Fan");
    const order = await paidPhysicalOrder(host, fan);
    const res = await setStatus(host, order.id, "shipped", { trackingNumber: "TRK-C1", carrier: "Evil Post" });
    expect(res.status).toBe(400);
    expect(await pageText(res)).toContain(SHIPPING_MESSAGES.carrierRequired);
    const spaced = await setStatus(host, order.id, "shipped", { trackingNumber: "TRK 1", carrier: "DHL" });
    expect(spaced.status).toBe(400);
    expect(await orderRow(order.id)).toMatchObject({ status: "processing", trackingNumber: null, carrier: null });
  });
});

describe("tracking updates", () => {
  it("a host adds updates to their own order only, validated; the buyer's order page and /shipping-tracking show them newest first", async () => {
    const host = await account("Timeline Host");
    const other = await account("Timeline Other Host");
    const fan = await account("Timeline Fan");
    const order = await paidPhysicalOrder(host, fan);
    // Placed two hours ago, so an update may be dated half an hour ago.
    await db()
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 2 * 3_600_000) })
      .where(eq(orders.id, order.id));
    expect(
      (await setStatus(host, order.id, "shipped", { trackingNumber: "TRK-TL1", carrier: "Royal Mail" })).status,
    ).toBe(302);
    // Shipped an hour ago.
    await db()
      .update(shippingUpdates)
      .set({ createdAt: new Date(Date.now() - 3_600_000) })
      .where(eq(shippingUpdates.orderId, order.id));

    const first = await addUpdate(host, order.id, {
      description: "Arrived at the sorting hub",
      location: "Shah Alam",
      time: minutesAgo(30),
      tzOffset: "0",
    });
    expect(first.status, await pageText(first.clone())).toBe(302);
    const second = await addUpdate(host, order.id, { description: "Out for delivery", location: "" });
    expect(second.status, await pageText(second.clone())).toBe(302);

    // Another host's order is answered as missing; nothing is written.
    const foreign = await addUpdate(other, order.id, { description: "Hijacked", time: minutesAgo(5) });
    expect(foreign.status).toBe(404);
    // Bad input: 400 with the message, nothing written.
    const future = await addUpdate(host, order.id, {
      description: "From the future",
      time: new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 16),
      tzOffset: "0",
    });
    expect(future.status).toBe(400);
    expect(await pageText(future)).toContain(SHIPPING_MESSAGES.timeInFuture);
    const early = await addUpdate(host, order.id, {
      description: "Before the order",
      time: "2020-01-01T10:00",
      tzOffset: "0",
    });
    expect(early.status).toBe(400);
    expect(await pageText(early)).toContain(SHIPPING_MESSAGES.timeBeforeOrder);
    const empty = await addUpdate(host, order.id, { description: "   " });
    expect(empty.status).toBe(400);
    expect(await pageText(empty)).toContain(SHIPPING_MESSAGES.descriptionRequired);
    const badTime = await addUpdate(host, order.id, { description: "Odd", time: "yesterday" });
    expect(badTime.status).toBe(400);

    const rows = await db().select().from(shippingUpdates).where(eq(shippingUpdates.orderId, order.id));
    expect(rows.map((r) => r.description).sort()).toEqual([
      "Arrived at the sorting hub",
      "Out for delivery",
      "Shipped with Royal Mail, tracking TRK-TL1",
    ]);

    // Newest first on the buyer's order page and on the public tracking page.
    for (const page of [
      await pageText(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie })),
      await pageText(await get("/shipping-tracking?tracking=TRK-TL1")),
    ]) {
      const out = page.indexOf("Out for delivery");
      const hub = page.indexOf("Arrived at the sorting hub");
      const shipped = page.indexOf("Shipped with Royal Mail, tracking TRK-TL1");
      expect(out).toBeGreaterThan(-1);
      expect(out).toBeLessThan(hub);
      expect(hub).toBeLessThan(shipped);
      expect(page).toContain("Shah Alam");
      expect(page).not.toContain("Hijacked");
    }

    // The buyer was told of each update once.
    expect(await mailsTo(fan.email, `Tracking update for order ${order.orderNumber}`)).toHaveLength(2);
  });

  it("shows the carrier's tracking link built from its template (URL-encoded) and none for Other", async () => {
    const host = await account("Link Host");
    const fan = await account("Link Fan");
    const dhl = await paidPhysicalOrder(host, fan);
    expect((await setStatus(host, dhl.id, "shipped", { trackingNumber: "JD_0142-77", carrier: "DHL" })).status).toBe(
      302,
    );
    const dhlPage = await decodedHtml(await get(`/order/${dhl.orderNumber}`, { cookie: fan.cookie }));
    expect(dhlPage).toContain(
      'href="https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=JD_0142-77"',
    );
    const tracking = await decodedHtml(await get("/shipping-tracking?tracking=JD_0142-77"));
    expect(tracking).toContain("tracking-id=JD_0142-77");

    const other = await paidPhysicalOrder(host, fan);
    expect((await setStatus(host, other.id, "shipped", { trackingNumber: "LOCAL-9", carrier: "Other" })).status).toBe(
      302,
    );
    const otherPage = await decodedHtml(await get(`/order/${other.orderNumber}`, { cookie: fan.cookie }));
    expect(otherPage).toContain("Other");
    expect(otherPage).not.toContain("Track on the carrier's site");
  });
});
