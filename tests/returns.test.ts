import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, orders, platformSettings, products, productSizes, returnRequests } from "~/db/schema";
import { REVENUE_RULES_SETTING_KEY } from "~/domain/revenue";
import { RETURN_MESSAGES } from "~/domain/returns";
import { createProductCheckout } from "~/lib/payments/checkout-session.server";
import type { SessionUser } from "~/lib/session.server";
import { db, get, makeUser, ORIGIN, postForm, signIn } from "./helpers";

// Returns and host refunds, through the built worker: the buyer asks on the order page within the 7-day return
// policy, the host answers on /orders (approve = one refund, decline = a reason), the buyer is mailed either way.

type Account = { id: string; email: string; cookie: string };

async function account(name: string): Promise<Account> {
  const u = await makeUser({ name });
  return { ...u, cookie: await signIn(u.email) };
}

function sessionUser(u: { id: string; email: string }): SessionUser {
  return { id: u.id, email: u.email, role: "user", creatorName: "Buyer", avatarUrl: null, emailConfirmed: true };
}

/** A host's physical product at USD 40.00 and a fan's order of it, paid through the local provider. */
async function paidOrder(host: Account, fan: Account) {
  const [product] = await db()
    .insert(products)
    .values({ hostId: host.id, name: `Rattan Lamp ${crypto.randomUUID().slice(0, 6)}`, category: "physical", status: "active", priceMinCents: 4000, priceMaxCents: 4000 })
    .returning();
  await db().insert(productSizes).values({ productId: product!.id, name: "One", priceCents: 4000, availableUnits: 10, position: 0 });
  const started = await createProductCheckout(env, { user: sessionUser(fan), productId: product!.id, sizeName: "One", quantity: 1, origin: ORIGIN });
  if (!started.ok) throw new Error(started.message);
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

/** The host marks the order completed on /orders (the return window starts). */
async function deliver(host: Account, orderId: string) {
  const res = await postForm("/orders", { intent: "update-status", orderId, status: "completed" }, { cookie: host.cookie });
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
    expect(rows[0]).toMatchObject({ status: "requested", reason: "The shade arrived cracked", userId: fan.id, hostId: host.id });

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
    await db().update(orders).set({ deliveredAt: new Date(Date.now() - 8 * 86_400_000) }).where(eq(orders.id, order.id));
    const late = await askReturn(fan, order.orderNumber);
    expect(late.status).toBe(409);
    expect(await text(late)).toContain(RETURN_MESSAGES.windowClosed);
    expect(await text(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }))).not.toContain("Request a return</button>");
    expect(await requestsOf(order.id)).toHaveLength(0);
  });

  it("keeps one open request per order, also when two arrive at once", async () => {
    const host = await account("Once Host");
    const fan = await account("Once Fan");
    const order = await paidOrder(host, fan);
    await deliver(host, order.id);
    const answers = await Promise.all([askReturn(fan, order.orderNumber, "first"), askReturn(fan, order.orderNumber, "second")]);
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

    const foreign = await postForm("/orders", { intent: "decline-return", returnId: request!.id, declineReason: "No" }, { cookie: otherHost.cookie });
    expect(foreign.status).toBe(404);
    const noReason = await postForm("/orders", { intent: "decline-return", returnId: request!.id, declineReason: "" }, { cookie: host.cookie });
    expect(noReason.status).toBe(400);
    expect(await text(noReason)).toContain(RETURN_MESSAGES.declineReasonRequired);
    expect((await requestsOf(order.id))[0]!.status).toBe("requested");

    const declined = await postForm(
      "/orders",
      { intent: "decline-return", returnId: request!.id, declineReason: "The colour matches the photos" },
      { cookie: host.cookie },
    );
    expect(declined.status).toBe(302);
    expect((await requestsOf(order.id))[0]).toMatchObject({ status: "declined", declineReason: "The colour matches the photos" });
    const mail = await db().select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, fan.email)));
    const decision = mail.find((m) => m.subject === `Your return of order ${order.orderNumber} was declined`);
    expect(decision?.textBody).toContain("Reason: The colour matches the photos");

    const twice = await postForm("/orders", { intent: "decline-return", returnId: request!.id, declineReason: "Again" }, { cookie: host.cookie });
    expect(twice.status).toBe(409);
    expect((await requestsOf(order.id))[0]!.declineReason).toBe("The colour matches the photos");

    const page = await text(await get(`/order/${order.orderNumber}`, { cookie: fan.cookie }));
    expect(page).toContain("Return declined");
    expect(page).toContain("Host&#x27;s answer: The colour matches the photos");
    expect(await text(await get("/my-orders", { cookie: fan.cookie }))).toContain("Return declined");
    expect(await text(await get("/orders", { cookie: host.cookie }))).not.toContain("Return requests (");
  });
});

describe("page copy", () => {
  it("states the pool share from the platform's revenue rules, not a fixed 10%", async () => {
    const host = await account("Copy Host");
    await db()
      .insert(platformSettings)
      .values({ settingKey: REVENUE_RULES_SETTING_KEY, settingValue: { shop_sales: { prize_pool_contribution: 12.5, host_share: 87.5 } } })
      .onConflictDoUpdate({ target: platformSettings.settingKey, set: { settingValue: { shop_sales: { prize_pool_contribution: 12.5, host_share: 87.5 } } } });
    try {
      expect(await text(await get("/shop", { cookie: host.cookie }))).toContain("12.5% of every purchase goes to the creator");
      expect(await text(await get("/", { cookie: host.cookie }))).toContain("12.5% of every purchase and 100% of Guess");
      expect(await text(await get("/terms", { cookie: host.cookie }))).toContain("A stated share of each purchase (12.5%)");
      expect(await text(await get("/add-product", { cookie: host.cookie }))).toContain("12.5% of every sale goes to your prize pool.");
      expect(await text(await get(`/profile/${host.id}`, { cookie: host.cookie }))).toContain("12.5% sales power up the prize pool");
    } finally {
      await db().delete(platformSettings).where(eq(platformSettings.settingKey, REVENUE_RULES_SETTING_KEY));
    }
  });
});
