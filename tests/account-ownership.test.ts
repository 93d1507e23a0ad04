import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders, products, users } from "~/db/schema";
import { runScheduled } from "../workers/scheduled";
import { db, decodedHtml, get, makeUser, PASSWORD, pageText, postForm, signIn } from "./helpers";
import { mailedToken, mailsTo, signupFields } from "./support/accounts";

// Issue 27, point 1 (decision 410): orders belong to accounts, not to e-mail strings. An address that changes hands
// (a deleted account's, or one its owner moved away from) takes no orders with it, and a deleted account's personal
// data leaves its orders: at once for closed ones, by the cron for open ones when they close.

const DAY_MS = 24 * 60 * 60 * 1000;
const ADDRESS = {
  name: "Alice Original",
  street: "12 Jalan Ampang",
  city: "Kuala Lumpur",
  state: "WP",
  postal_code: "50450",
  country: "MY",
};

async function buyerWithOrders() {
  const host = await makeUser({ name: "Ownership Host" });
  const buyer = await makeUser({ name: "Alice Original" });
  const productId = crypto.randomUUID();
  await db().insert(products).values({ id: productId, hostId: host.id, name: "Batik Scarf" });
  const order = async (name: string, fields: Partial<typeof orders.$inferInsert>) => {
    const id = crypto.randomUUID();
    const orderNumber = `ORD-${id.slice(-8).toUpperCase()}`;
    await db()
      .insert(orders)
      .values({
        id,
        orderNumber,
        userId: buyer.id,
        customerEmail: buyer.email,
        customerName: "Alice Original",
        shippingAddress: ADDRESS,
        billingAddress: ADDRESS,
        hostId: host.id,
        productId,
        amountCents: 4200,
        unitPriceCents: 4200,
        quantity: 1,
        currency: "USD",
        productName: name,
        productCategory: "physical",
        ...fields,
      });
    return { id, orderNumber };
  };
  // Delivered a month ago: closed. Shipped, not delivered: open.
  const closed = await order("Closed Batik Scarf", {
    status: "completed",
    deliveredAt: new Date(Date.now() - 30 * DAY_MS),
  });
  const open = await order("Open Batik Scarf", { status: "shipped" });
  return { host, buyer, closed, open };
}

async function orderRow(id: string) {
  const [row] = await db().select().from(orders).where(eq(orders.id, id));
  return row!;
}

/** Signs up a new, unconfirmed account with `email` through the form (no mailbox needed) and signs it in. */
async function newcomerWith(email: string) {
  const fields = signupFields({ email, password: "newcomer-password-1", confirmPassword: "newcomer-password-1" });
  expect((await postForm("/signup", fields)).status).toBe(302);
  const [account] = await db().select().from(users).where(eq(users.email, email));
  expect(account?.emailConfirmedAt).toBeNull();
  return signIn(email, "newcomer-password-1");
}

async function expectNoAccessTo(cookie: string, o: { orderNumber: string }) {
  const list = await pageText(await get("/my-orders", { cookie }));
  expect(list).not.toContain("Batik Scarf");
  expect((await get(`/order/${o.orderNumber}`, { cookie })).status).toBe(404);
  const ret = await postForm(
    `/order/${o.orderNumber}`,
    { intent: "request-return", reason: "Not what I ordered at all" },
    { cookie },
  );
  expect(ret.status).toBe(404);
}

describe("orders follow accounts, not addresses", () => {
  it("shows a deleted account's orders to nobody who registers its old address, and erases its data from closed orders at once", async () => {
    const { buyer, closed, open } = await buyerWithOrders();
    const cookie = await signIn(buyer.email);
    // The deletion form lists the open order that keeps the buyer's details until it closes, not the closed one.
    const form = await pageText(await get("/settings?tab=account", { cookie }));
    expect(form).toContain(open.orderNumber);
    expect(form).not.toContain(closed.orderNumber);
    const deleted = await postForm(
      "/settings",
      { intent: "delete", confirmation: "DELETE", currentPassword: PASSWORD },
      { cookie },
    );
    expect(deleted.status).toBe(302);

    const gone = await orderRow(closed.id);
    expect([gone.customerName, gone.customerEmail, gone.shippingAddress, gone.billingAddress]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    // Money records stay.
    expect([gone.amountCents, gone.currency, gone.status]).toEqual([4200, "USD", "completed"]);
    const kept = await orderRow(open.id);
    expect(kept.customerName).toBe("Alice Original");
    expect(kept.shippingAddress).toEqual(ADDRESS);

    const newcomer = await newcomerWith(buyer.email);
    await expectNoAccessTo(newcomer, closed);
    await expectNoAccessTo(newcomer, open);
  });

  it("erases an open order's buyer data by the cron once it closes, not before", async () => {
    const { buyer, open } = await buyerWithOrders();
    const cookie = await signIn(buyer.email);
    await postForm("/settings", { intent: "delete", confirmation: "DELETE", currentPassword: PASSWORD }, { cookie });
    await runScheduled(env, new Date());
    expect((await orderRow(open.id)).customerName).toBe("Alice Original");
    // Delivered yesterday: inside the 7-day return window, still kept.
    await db()
      .update(orders)
      .set({ status: "delivered", deliveredAt: new Date(Date.now() - DAY_MS) })
      .where(eq(orders.id, open.id));
    await runScheduled(env, new Date());
    expect((await orderRow(open.id)).shippingAddress).toEqual(ADDRESS);
    // Past the window: erased by the next run.
    await db()
      .update(orders)
      .set({ status: "completed", deliveredAt: new Date(Date.now() - 8 * DAY_MS) })
      .where(eq(orders.id, open.id));
    await runScheduled(env, new Date());
    const row = await orderRow(open.id);
    expect([row.customerName, row.customerEmail, row.shippingAddress, row.billingAddress]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(row.amountCents).toBe(4200);
  });

  it("moves no order when the owner changes the e-mail: whoever registers the old address sees nothing", async () => {
    const { buyer, closed, open } = await buyerWithOrders();
    const cookie = await signIn(buyer.email);
    const moved = `moved-${crypto.randomUUID().slice(0, 8)}@example.com`;
    expect(
      (await postForm("/settings", { intent: "email", newEmail: moved, currentPassword: PASSWORD }, { cookie })).status,
    ).toBe(200);
    const token = await mailedToken(moved, "/settings/confirm-email");
    expect((await postForm("/settings/confirm-email", { token })).status).toBe(302);

    const newcomer = await newcomerWith(buyer.email);
    await expectNoAccessTo(newcomer, closed);
    await expectNoAccessTo(newcomer, open);
    // The owner, under the new address, still has both.
    const owner = await signIn(moved);
    const list = await pageText(await get("/my-orders", { cookie: owner }));
    expect(list).toContain("Closed Batik Scarf");
    expect(list).toContain("Open Batik Scarf");
    expect((await get(`/order/${open.orderNumber}`, { cookie: owner })).status).toBe(200);
  });

  it("adds a guest order to the confirmed account whose address it was paid with, only through the mailed link", async () => {
    const host = await makeUser({ name: "Guest Host" });
    const productId = crypto.randomUUID();
    await db().insert(products).values({ id: productId, hostId: host.id, name: "Guest Kuih" });
    // A guest order paid with an address before any account had it, and one paid after the account had it.
    const address = `guest-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const guestOrder = async (name: string, createdAt: Date) => {
      const id = crypto.randomUUID();
      await db()
        .insert(orders)
        .values({
          id,
          orderNumber: `ORD-${id.slice(-8).toUpperCase()}`,
          userId: null,
          customerEmail: address,
          hostId: host.id,
          productId,
          amountCents: 900,
          unitPriceCents: 900,
          quantity: 1,
          currency: "USD",
          productName: name,
          status: "paid",
          createdAt,
        });
      return id;
    };
    const before = await guestOrder("Early Guest Kuih", new Date(Date.now() - 60_000));
    const account = await makeUser({ email: address });
    const after = await guestOrder("Later Guest Kuih", new Date(Date.now() + 1000));
    const cookie = await signIn(address);
    expect(await pageText(await get("/my-orders", { cookie }))).not.toContain("Guest Kuih");
    expect(await pageText(await get("/settings?tab=account", { cookie }))).toContain(
      "1 order was paid as a guest with",
    );

    const asked = await postForm("/settings", { intent: "claim-orders" }, { cookie });
    expect(asked.status).toBe(200);
    expect(await decodedHtml(asked)).toContain(`We sent a link to ${address}`);
    const token = await mailedToken(address, "/settings/claim-orders");
    // Opening the link changes nothing; its button does, once.
    expect((await get(`/settings/claim-orders?token=${encodeURIComponent(token)}`)).status).toBe(200);
    expect((await orderRow(after)).userId).toBeNull();
    const claimed = await postForm("/settings/claim-orders", { token });
    expect(claimed.status).toBe(302);
    expect(claimed.headers.get("Location")).toBe("/my-orders");
    expect((await orderRow(after)).userId).toBe(account.id);
    // Paid before the address was the account's: not its to claim.
    expect((await orderRow(before)).userId).toBeNull();
    const list = await pageText(await get("/my-orders", { cookie }));
    expect(list).toContain("Later Guest Kuih");
    expect(list).not.toContain("Early Guest Kuih");
    expect((await postForm("/settings/claim-orders", { token })).status).toBe(400);
    // Nothing more to claim: no further mail.
    expect((await postForm("/settings", { intent: "claim-orders" }, { cookie })).status).toBe(409);
    expect(await mailsTo(address)).toHaveLength(1);
  });

  it("lets no unconfirmed account ask for a guest order's link", async () => {
    const host = await makeUser({ name: "Guest Host" });
    const productId = crypto.randomUUID();
    await db().insert(products).values({ id: productId, hostId: host.id, name: "Guest Kuih" });
    const address = `unconfirmed-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await makeUser({ email: address, emailConfirmed: false });
    const id = crypto.randomUUID();
    await db()
      .insert(orders)
      .values({
        id,
        orderNumber: `ORD-${id.slice(-8).toUpperCase()}`,
        userId: null,
        customerEmail: address,
        hostId: host.id,
        productId,
        amountCents: 900,
        unitPriceCents: 900,
        quantity: 1,
        currency: "USD",
        productName: "Unclaimed Kuih",
        status: "paid",
        createdAt: new Date(Date.now() + 1000),
      });
    const cookie = await signIn(address);
    expect((await postForm("/settings", { intent: "claim-orders" }, { cookie })).status).toBe(409);
    expect(await mailsTo(address)).toHaveLength(0);
  });

  it("tells in the privacy notice what deletion erases, when, and what stays", async () => {
    const html = await decodedHtml(await get("/privacy"));
    expect(html).toContain("When you delete your account");
    expect(html).toContain("erased from your orders that have closed");
    expect(html).toContain("inside its 7-day return window, or with an open return or dispute");
    expect(html).toContain("The amounts paid and refunded stay as money records");
    expect(html).toContain("Your orders belong to your account, not to your e-mail address");
  });
});
