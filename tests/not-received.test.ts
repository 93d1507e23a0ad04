import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hostBalances } from "~/db/queries/earnings.server";
import { earningsLedger, mailOutbox, orders, returnRequests } from "~/db/schema";
import { HOST_REFUND_WINDOW_DAYS } from "~/domain/earnings";
import { RETURN_WINDOW_DAYS } from "~/domain/payments";
import { DEEMED_DELIVERY_DAYS, SHIPPING_MESSAGES } from "~/domain/shipping";
import { db, get, pageText, postForm } from "./helpers";
import { account, type Account, orderRow, paidPhysicalOrder, setStatus } from "./support/shipping";

// The buyer's "not received" report (docs/product.md#shipping-and-delivery, decision 580): within 7 days of
// Delivered (else of Shipped + 30 days) it opens a return and holds that sale's earnings until the host answers.

const DAY = 86_400_000;

const reportNotReceived = (fan: Account, orderNumber: string) =>
  postForm(`/order/${orderNumber}`, { intent: "not-received" }, { cookie: fan.cookie });

/** The host's sale row of an order and whether its money is available at `at`. */
async function saleAvailable(hostId: string, orderId: string, at: Date): Promise<boolean> {
  const [sale] = await db()
    .select()
    .from(earningsLedger)
    .where(and(eq(earningsLedger.orderId, orderId), eq(earningsLedger.kind, "shop_sale")));
  expect(sale).toBeDefined();
  expect(sale!.amountCents).toBeGreaterThan(0);
  // The sale is this host's only credit (debits count at once): it is available exactly when nothing is pending.
  return (await hostBalances(db(), hostId, at)).pendingCents === 0;
}

/** Moves an order's shipping (and delivery) back in time, as if it happened `daysAgo` days ago. */
async function backdate(orderId: string, fields: { shippedDaysAgo: number; deliveredDaysAgo?: number }) {
  await db()
    .update(orders)
    .set({
      shippedAt: new Date(Date.now() - fields.shippedDaysAgo * DAY),
      deliveredAt: fields.deliveredDaysAgo === undefined ? null : new Date(Date.now() - fields.deliveredDaysAgo * DAY),
    })
    .where(eq(orders.id, orderId));
}

describe("not received", () => {
  it("within 7 days of Delivered: opens a return and holds the sale's earnings until the host answers; the host is told once", async () => {
    const host = await account("NR Host");
    const fan = await account("NR Fan");
    const order = await paidPhysicalOrder(host, fan);
    expect((await setStatus(host, order.id, "shipped", { trackingNumber: "TRK-NR1", carrier: "J&T" })).status).toBe(
      302,
    );
    expect((await setStatus(host, order.id, "delivered")).status).toBe(302);

    // Without the report the sale is available once both windows have passed.
    const later = new Date(Date.now() + (HOST_REFUND_WINDOW_DAYS + 1) * DAY);
    expect(await saleAvailable(host.id, order.id, later)).toBe(true);

    const page = await pageText(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }));
    expect(page).toContain("Report not received");
    const reported = await reportNotReceived(fan, order.orderNumber);
    expect(reported.status).toBe(302);
    const requests = await db().select().from(returnRequests).where(eq(returnRequests.orderId, order.id));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ kind: "not_received", status: "requested", userId: fan.id, hostId: host.id });

    // Held: not available however late, while the report is open.
    expect(await saleAvailable(host.id, order.id, new Date(Date.now() + 400 * DAY))).toBe(false);
    // A second report changes nothing.
    expect((await reportNotReceived(fan, order.orderNumber)).status).toBe(409);
    expect(await db().select().from(returnRequests).where(eq(returnRequests.orderId, order.id))).toHaveLength(1);

    // The host sees it among the return requests and was told once.
    const hostPage = await pageText(await get("/orders", { cookie: host.cookie }));
    expect(hostPage).toContain("Reported not received");
    const mails = await db()
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.toAddress, host.email),
          like(mailOutbox.subject, `Order ${order.orderNumber} reported not received`),
        ),
      );
    expect(mails).toHaveLength(1);

    // Declined with a reason: the hold ends and the sale is available on its usual schedule.
    const declined = await postForm(
      "/orders?tab=orders",
      { intent: "decline-return", returnId: requests[0]!.id, declineReason: "Signed for at your door on the 3rd" },
      { cookie: host.cookie },
    );
    expect(declined.status).toBe(302);
    expect(await saleAvailable(host.id, order.id, later)).toBe(true);
  });

  it("is refused more than 7 days after Delivered, before delivery, and for anyone but the buyer", async () => {
    const host = await account("NR Late Host");
    const fan = await account("NR Late Fan");
    const order = await paidPhysicalOrder(host, fan);
    const early = await reportNotReceived(fan, order.orderNumber);
    expect(early.status).toBe(409);
    expect(await pageText(early)).toContain(SHIPPING_MESSAGES.notReceivedNotDelivered);

    expect((await setStatus(host, order.id, "shipped", { trackingNumber: "TRK-NR2", carrier: "USPS" })).status).toBe(
      302,
    );
    expect((await setStatus(host, order.id, "delivered")).status).toBe(302);
    expect((await reportNotReceived(host, order.orderNumber)).status).toBe(404);

    await backdate(order.id, { shippedDaysAgo: 12, deliveredDaysAgo: RETURN_WINDOW_DAYS + 1 });
    const late = await reportNotReceived(fan, order.orderNumber);
    expect(late.status).toBe(409);
    expect(await pageText(late)).toContain(SHIPPING_MESSAGES.notReceivedWindowClosed);
    expect(await db().select().from(returnRequests).where(eq(returnRequests.orderId, order.id))).toHaveLength(0);
    expect(await pageText(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }))).not.toContain(
      "Report not received",
    );
  });

  it("runs from Shipped + 30 days when the host never marks delivery: the window, and the earnings' release", async () => {
    const host = await account("NR Deemed Host");
    const fan = await account("NR Deemed Fan");
    const order = await paidPhysicalOrder(host, fan);
    expect((await setStatus(host, order.id, "shipped", { trackingNumber: "TRK-NR3", carrier: "FedEx" })).status).toBe(
      302,
    );
    // "completed" alone stamps nothing.
    expect((await setStatus(host, order.id, "completed")).status).toBe(302);
    const shipped = await orderRow(order.id);
    expect(shipped.deliveredAt).toBeNull();

    // The money is released 30 + 7 days after Shipped (later than the host's 14-day refund window).
    const release = shipped.shippedAt!.getTime() + (DEEMED_DELIVERY_DAYS + RETURN_WINDOW_DAYS) * DAY;
    expect(await saleAvailable(host.id, order.id, new Date(release - 60_000))).toBe(false);
    expect(await saleAvailable(host.id, order.id, new Date(release + 60_000))).toBe(true);

    // 10 days after Shipped: not delivered yet, so no report.
    await backdate(order.id, { shippedDaysAgo: 10 });
    expect((await reportNotReceived(fan, order.orderNumber)).status).toBe(409);
    // 33 days after Shipped (3 days after the deemed delivery): the report is taken and holds the money.
    await backdate(order.id, { shippedDaysAgo: 33 });
    expect((await reportNotReceived(fan, order.orderNumber)).status).toBe(302);
    expect(await saleAvailable(host.id, order.id, new Date(Date.now() + 400 * DAY))).toBe(false);
  });

  it("is refused 38 days after Shipped when delivery was never marked", async () => {
    const host = await account("NR Expired Host");
    const fan = await account("NR Expired Fan");
    const order = await paidPhysicalOrder(host, fan);
    expect((await setStatus(host, order.id, "shipped", { trackingNumber: "TRK-NR4", carrier: "DHL" })).status).toBe(
      302,
    );
    await backdate(order.id, { shippedDaysAgo: DEEMED_DELIVERY_DAYS + RETURN_WINDOW_DAYS + 1 });
    const late = await reportNotReceived(fan, order.orderNumber);
    expect(late.status).toBe(409);
    expect(await pageText(late)).toContain(SHIPPING_MESSAGES.notReceivedWindowClosed);
  });
});
