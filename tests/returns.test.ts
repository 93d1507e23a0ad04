import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, orders, refunds, returnRequests, vouchers } from "~/db/schema";
import { REFUND_MESSAGES } from "~/domain/payments";
import { RETURN_MESSAGES } from "~/domain/returns";
import { REFUND_FORM_EXPIRED } from "~/lib/returns.server";
import { startPhysicalCheckout, type Account } from "./support/shipping";
import { db, get, makeSignedInUser, ORIGIN, postForm, withRevenueRules } from "./helpers";

// Returns and host refunds, through the built worker: the buyer asks on the order page within the 7-day return
// policy, the host answers on /orders (approve = one refund, decline = a reason), the buyer is mailed either way.

const account = (name: string): Promise<Account> => makeSignedInUser({ name });

/** A host's physical product at USD 40.00 and a fan's order of it, paid through the local provider. */
async function paidOrder(host: Account, fan: Account) {
  const started = { sessionId: await startPhysicalCheckout(host, fan) };
  const paid = await postForm(`/api/local-checkout/${started.sessionId}/pay`, {
    name: "Ada Buyer",
    street: "1 Jalan Test",
    city: "George Town",
    postal_code: "10200",
    country: "MY",
  });
  expect(paid.status).toBeLessThan(400);
  await paid.body?.cancel();
  const [order] = await db().select().from(orders).where(eq(orders.checkoutSessionId, started.sessionId));
  expect(order?.status).not.toBe("pending");
  return order!;
}

/** The host ships the order, then marks it Delivered on /orders (the return window starts; decision 580). */
async function deliver(host: Account, orderId: string) {
  const shipped = await postForm(
    "/orders",
    { intent: "update-status", orderId, status: "shipped", trackingNumber: "TRK-RET1", carrier: "DHL" },
    { cookie: host.cookie },
  );
  expect(shipped.status).toBe(302);
  const res = await postForm(
    "/orders",
    { intent: "update-status", orderId, status: "delivered" },
    { cookie: host.cookie },
  );
  expect(res.status).toBe(302);
}

function askReturn(fan: Account, orderNumber: string, reason = "It arrived cracked") {
  return postForm(`/order/${orderNumber}`, { intent: "request-return", reason }, { cookie: fan.cookie });
}

async function requestsOf(orderId: string) {
  return db().select().from(returnRequests).where(eq(returnRequests.orderId, orderId));
}

async function text(res: Response) {
  return (await res.text()).replace(/<!-- -->/g, "");
}

describe("a buyer asks for a return", () => {
  it("within 7 days of delivery, with a reason; the host sees it on /orders and the buyer on the order page", async () => {
    const host = await account("Return Host");
    const fan = await account("Return Fan");
    const order = await paidOrder(host, fan);
    await deliver(host, order.id);

    const res = await askReturn(fan, order.orderNumber, "The shade arrived cracked");
    expect(res.status).toBe(302);
    const rows = await requestsOf(order.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: "requested",
      reason: "The shade arrived cracked",
      userId: fan.id,
      hostId: host.id,
    });

    const page = await text(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }));
    expect(page).toContain("Return requested");
    expect(page).toContain("Reason: The shade arrived cracked");
    expect(page).not.toContain("Request a return</button>");

    const hostPage = await text(await get("/orders", { cookie: host.cookie }));
    expect(hostPage).toContain("Return requests (1)");
    expect(hostPage).toContain("The shade arrived cracked");

    expect(await text(await get("/my-orders", { cookie: fan.cookie }))).toContain("Return requested");
  });

  it("is refused before delivery, after the 7 days, without a reason, and by anyone but the buyer: nothing is stored", async () => {
    const host = await account("Window Host");
    const fan = await account("Window Fan");
    const stranger = await account("Window Stranger");
    const order = await paidOrder(host, fan);

    const early = await askReturn(fan, order.orderNumber);
    expect(early.status).toBe(409);
    expect(await text(early)).toContain(RETURN_MESSAGES.notDelivered);

    await deliver(host, order.id);
    const empty = await askReturn(fan, order.orderNumber, "   ");
    expect(empty.status).toBe(400);
    expect(await text(empty)).toContain(RETURN_MESSAGES.reasonRequired);

    expect((await askReturn(stranger, order.orderNumber)).status).toBe(404);
    // The host is not the buyer.
    expect((await askReturn(host, order.orderNumber)).status).toBe(404);

    // Delivered 8 days ago: the window has closed.
    await db()
      .update(orders)
      .set({ deliveredAt: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(orders.id, order.id));
    const late = await askReturn(fan, order.orderNumber);
    expect(late.status).toBe(409);
    expect(await text(late)).toContain(RETURN_MESSAGES.windowClosed);
    expect(await text(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }))).not.toContain(
      "Request a return</button>",
    );
    expect(await requestsOf(order.id)).toHaveLength(0);
  });

  it("is refused for a voucher already used at the host's scanner, and its page offers none", async () => {
    const host = await account("Voucher Return Host");
    const fan = await account("Voucher Return Fan");
    const order = await paidOrder(host, fan);
    await deliver(host, order.id);
    await db()
      .insert(vouchers)
      .values({
        code: `VCH-${crypto.randomUUID().slice(0, 8).toUpperCase()}`,
        orderId: order.id,
        productId: order.productId!,
        hostId: host.id,
        buyerId: fan.id,
        valueCents: 4000,
        status: "redeemed",
        redeemedAt: new Date(),
        expiresAt: new Date(Date.now() + 30 * 86_400_000),
      });
    const used = await askReturn(fan, order.orderNumber);
    expect(used.status).toBe(409);
    expect(await text(used)).toContain(RETURN_MESSAGES.voucherUsed);
    expect(await text(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }))).not.toContain(
      "Request a return</button>",
    );
    expect(await requestsOf(order.id)).toHaveLength(0);
  });

  it("keeps one open request per order, also when two arrive at once", async () => {
    const host = await account("Once Host");
    const fan = await account("Once Fan");
    const order = await paidOrder(host, fan);
    await deliver(host, order.id);
    const answers = await Promise.all([
      askReturn(fan, order.orderNumber, "first"),
      askReturn(fan, order.orderNumber, "second"),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([302, 409]);
    const again = await askReturn(fan, order.orderNumber, "third");
    expect(again.status).toBe(409);
    expect(await text(again)).toContain(RETURN_MESSAGES.alreadyOpen);
    expect(await requestsOf(order.id)).toHaveLength(1);
  });
});

describe("the host declines a return", () => {
  it("with a reason: the buyer is mailed it and sees it; another host cannot answer; a second answer changes nothing", async () => {
    const host = await account("Decline Host");
    const otherHost = await account("Decline Other");
    const fan = await account("Decline Fan");
    const order = await paidOrder(host, fan);
    await deliver(host, order.id);
    expect((await askReturn(fan, order.orderNumber, "Wrong colour")).status).toBe(302);
    const [request] = await requestsOf(order.id);

    const foreign = await postForm(
      "/orders",
      { intent: "decline-return", returnId: request!.id, declineReason: "No" },
      { cookie: otherHost.cookie },
    );
    expect(foreign.status).toBe(404);
    const noReason = await postForm(
      "/orders",
      { intent: "decline-return", returnId: request!.id, declineReason: "" },
      { cookie: host.cookie },
    );
    expect(noReason.status).toBe(400);
    expect(await text(noReason)).toContain(RETURN_MESSAGES.declineReasonRequired);
    expect((await requestsOf(order.id))[0]!.status).toBe("requested");

    const declined = await postForm(
      "/orders",
      { intent: "decline-return", returnId: request!.id, declineReason: "The colour matches the photos" },
      { cookie: host.cookie },
    );
    expect(declined.status).toBe(302);
    expect((await requestsOf(order.id))[0]).toMatchObject({
      status: "declined",
      declineReason: "The colour matches the photos",
    });
    const mail = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, fan.email)));
    const decision = mail.find((m) => m.subject === `Your return of order ${order.orderNumber} was declined`);
    expect(decision?.textBody).toContain("Reason: The colour matches the photos");
    expect(decision?.textBody).toContain(`See the order: ${ORIGIN}/order/${order.orderNumber}`);

    const twice = await postForm(
      "/orders",
      { intent: "decline-return", returnId: request!.id, declineReason: "Again" },
      { cookie: host.cookie },
    );
    expect(twice.status).toBe(409);
    expect((await requestsOf(order.id))[0]!.declineReason).toBe("The colour matches the photos");

    const page = await text(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }));
    expect(page).toContain("Return declined");
    expect(page).toContain("Host&#x27;s answer: The colour matches the photos");
    expect(await text(await get("/my-orders", { cookie: fan.cookie }))).toContain("Return declined");
    expect(await text(await get("/orders", { cookie: host.cookie }))).not.toContain("Return requests (");
  });
});

async function orderRow(id: string) {
  const [row] = await db().select().from(orders).where(eq(orders.id, id));
  return row!;
}

async function refundsOf(orderId: string) {
  return db().select().from(refunds).where(eq(refunds.orderId, orderId));
}

function refund(
  host: Account,
  orderId: string,
  amount: string,
  refundKey: string | null = crypto.randomUUID(),
  reason = "",
) {
  const fields: Record<string, string> = { intent: "refund", orderId, amount, reason };
  if (refundKey !== null) fields.refundKey = refundKey;
  return postForm("/orders", fields, { cookie: host.cookie });
}

describe("the host refunds an order from /orders", () => {
  it("in part and then the rest; refuses bad amounts and another host, changing nothing; the buyer sees and is mailed", async () => {
    const host = await account("Refund Host");
    const otherHost = await account("Refund Other");
    const fan = await account("Refund Fan");
    const order = await paidOrder(host, fan);

    const foreign = await refund(otherHost, order.id, "10.00");
    expect(foreign.status).toBe(404);
    for (const [amount, message] of [
      ["0", REFUND_MESSAGES.notPositive],
      ["-5", REFUND_MESSAGES.notPositive],
      ["ten", REFUND_MESSAGES.notPositive],
      ["1.999", REFUND_MESSAGES.notPositive],
      ["40.01", REFUND_MESSAGES.tooMuch("USD 40.00")],
    ] as const) {
      const res = await refund(host, order.id, amount);
      expect(res.status, amount).toBe(400);
      expect(await text(res)).toContain(message.replace(/'/g, "&#x27;"));
    }
    const noKey = await refund(host, order.id, "10.00", null);
    expect(noKey.status).toBe(400);
    expect(await text(noKey)).toContain(REFUND_FORM_EXPIRED);
    expect(await refundsOf(order.id)).toHaveLength(0);
    expect((await orderRow(order.id)).refundedCents).toBe(0);

    // The host's list offers the refund with a fresh nonce per page load.
    const list = await text(await get("/orders", { cookie: host.cookie }));
    expect(list).toContain(`Refund order ${order.orderNumber}`);
    expect(list).toMatch(/name="refundKey" value="[0-9a-f-]{36}"/);

    const key = crypto.randomUUID();
    const partial = await refund(host, order.id, "15.00", key, "One lamp shade was scratched");
    expect(partial.status).toBe(302);
    // The same form submitted again (double click, retry) refunds once.
    const again = await refund(host, order.id, "15.00", key, "One lamp shade was scratched");
    expect(again.status).toBeLessThan(500);
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 1500, refundState: "partial" });
    expect((await refundsOf(order.id))[0]).toMatchObject({
      origin: "host",
      amountCents: 1500,
      reason: "One lamp shade was scratched",
    });

    const hostList = await text(await get("/orders", { cookie: host.cookie }));
    expect(hostList).toContain("Partially refunded");
    expect(hostList).toContain("USD 15.00 of USD 40.00 refunded");
    const mine = await text(await get("/my-orders", { cookie: fan.cookie }));
    expect(mine).toContain("Partially refunded");
    expect(mine).toContain("USD 15.00 of USD 40.00 refunded");
    expect(mine).toContain("Refunded by the host: One lamp shade was scratched");
    const mail = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, fan.email));
    expect(mail.filter((m) => m.subject === `Refund of USD 15.00 for order ${order.orderNumber}`)).toHaveLength(1);

    // Two submits of one form at once: one refund.
    const racing = crypto.randomUUID();
    await Promise.all([refund(host, order.id, "5.00", racing), refund(host, order.id, "5.00", racing)]);
    expect(await refundsOf(order.id)).toHaveLength(2);
    expect((await orderRow(order.id)).refundedCents).toBe(2000);

    expect((await refund(host, order.id, "20.00")).status).toBe(302);
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 4000, refundState: "full" });
    const full = await refund(host, order.id, "1.00");
    expect(full.status).toBe(400);
    expect(await text(full)).toContain(REFUND_MESSAGES.nothingLeft);
    expect(await refundsOf(order.id)).toHaveLength(3);

    const page = await text(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }));
    expect(page).toContain("USD 40.00 of USD 40.00 refunded");
    expect(page).toContain("Refunded by the host: One lamp shade was scratched");
  });
});

describe("the host approves a return", () => {
  it("refunds what is left once, even when approved twice at once; the buyer is mailed and sees it", async () => {
    const host = await account("Approve Host");
    const otherHost = await account("Approve Other");
    const fan = await account("Approve Fan");
    const order = await paidOrder(host, fan);
    await deliver(host, order.id);
    expect((await askReturn(fan, order.orderNumber, "Too small for my shelf")).status).toBe(302);
    const [request] = await requestsOf(order.id);

    const foreign = await postForm(
      "/orders",
      { intent: "approve-return", returnId: request!.id },
      { cookie: otherHost.cookie },
    );
    expect(foreign.status).toBe(404);
    expect(await refundsOf(order.id)).toHaveLength(0);

    const hostList = await text(await get("/orders", { cookie: host.cookie }));
    expect(hostList).toContain("Approve and refund USD 40.00");

    const approvals = await Promise.all([
      postForm("/orders", { intent: "approve-return", returnId: request!.id }, { cookie: host.cookie }),
      postForm("/orders", { intent: "approve-return", returnId: request!.id }, { cookie: host.cookie }),
    ]);
    expect(approvals.map((r) => r.status)).toContain(302);
    for (const r of approvals) expect(r.status).toBeLessThan(500);
    const rows = await refundsOf(order.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ origin: "return", amountCents: 4000 });
    expect(await orderRow(order.id)).toMatchObject({ refundedCents: 4000, refundState: "full" });
    expect((await requestsOf(order.id))[0]).toMatchObject({ status: "approved", refundId: rows[0]!.id });

    const later = await postForm(
      "/orders",
      { intent: "approve-return", returnId: request!.id },
      { cookie: host.cookie },
    );
    expect(later.status).toBe(409);
    expect(await text(later)).toContain(RETURN_MESSAGES.alreadyAnswered);
    expect(await refundsOf(order.id)).toHaveLength(1);

    const mail = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, fan.email));
    const approved = mail.filter((m) => m.subject === `Your return of order ${order.orderNumber} is approved`);
    expect(approved).toHaveLength(1);
    // The approval is the refund's one mail: no second mail about the same refund.
    expect(mail.filter((m) => m.subject.startsWith("Refund of"))).toEqual([]);
    expect(approved[0]!.textBody).toContain("A refund of USD 40.00 goes back to your payment method.");
    expect(approved[0]!.textBody).toContain(`See the order: ${ORIGIN}/order/${order.orderNumber}`);

    const mine = await text(await get("/my-orders", { cookie: fan.cookie }));
    expect(mine).toContain("Return approved");
    expect(mine).toContain("USD 40.00 of USD 40.00 refunded");
    const page = await text(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }));
    expect(page).toContain("Return approved");
    expect(page).toContain("Refunded");
  });
});

describe("page copy", () => {
  it("states the pool share from the platform's revenue rules, not a fixed 10%", async () => {
    const host = await account("Copy Host");
    await withRevenueRules({ shop_sales: { prize_pool_contribution: 12.5, host_share: 87.5 } }, async () => {
      expect(await text(await get("/shop", { cookie: host.cookie }))).toContain(
        "12.5% of every purchase goes to the creator",
      );
      expect(await text(await get("/", { cookie: host.cookie }))).toContain(
        "12.5% of every purchase and 100% of Guess",
      );
      expect(await text(await get("/terms", { cookie: host.cookie }))).toContain(
        "A stated share of each purchase (12.5%)",
      );
      expect(await text(await get("/add-product", { cookie: host.cookie }))).toContain(
        "12.5% of every sale goes to your prize pool.",
      );
      expect(await text(await get(`/profile/${host.id}`, { cookie: host.cookie }))).toContain(
        "12.5% sales power up the prize pool",
      );
      expect(await text(await get("/cart", { cookie: host.cookie }))).toContain(
        "12.5% of every purchase goes to each creator",
      );
    });
  });
});
