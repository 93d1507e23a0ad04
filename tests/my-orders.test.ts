import { beforeAll, describe, expect, it } from "vitest";
import { orders, prizeEntries, prizePools, products, refunds, returnRequests } from "~/db/schema";
import { buyerOrderStats } from "~/db/queries/orders.server";
import { db, get, makeUser, signIn } from "./helpers";

let buyer: { id: string; email: string };
let cookie: string;

async function order(fields: {
  userId: string | null;
  email?: string;
  hostId: string;
  productId: string;
  name: string;
  category: "physical" | "digital" | "voucher";
  entry?: number;
  poolId?: string;
  createdAt?: Date;
}) {
  const id = crypto.randomUUID();
  await db()
    .insert(orders)
    .values({
      id,
      orderNumber: `ORD-${id.slice(-8).toUpperCase()}`,
      userId: fields.userId,
      customerEmail: fields.email ?? null,
      hostId: fields.hostId,
      productId: fields.productId,
      status: "paid",
      amountCents: 1250,
      unitPriceCents: 1250,
      quantity: 1,
      currency: "USD",
      productName: fields.name,
      productCategory: fields.category,
      entryNumber: fields.entry ?? null,
      poolId: fields.poolId ?? null,
      ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
    });
  return id;
}

beforeAll(async () => {
  const host = await makeUser({ name: "Kampung Kitchen" });
  const other = await makeUser();
  buyer = await makeUser({ name: "Buyer" });
  const productId = crypto.randomUUID();
  await db().insert(products).values({ id: productId, hostId: host.id, name: "Sambal Jar" });
  await order({ userId: buyer.id, hostId: host.id, productId, name: "Sambal Jar", category: "physical", entry: 7 });
  await order({ userId: buyer.id, hostId: host.id, productId, name: "Cooking Class Voucher", category: "voucher" });
  await order({ userId: buyer.id, hostId: host.id, productId, name: "Recipe E-book", category: "digital" });
  // A guest order that only names the buyer's address: not theirs until claimed through a mailed link (decision 410).
  await order({
    userId: null,
    email: buyer.email,
    hostId: host.id,
    productId,
    name: "Guest Order By Address",
    category: "digital",
  });
  await order({ userId: other.id, hostId: host.id, productId, name: "Someone Else's Order", category: "physical" });
  cookie = await signIn(buyer.email);
});

describe("/my-orders", () => {
  it("lists the buyer's own orders (by account), not an order that only names their e-mail, and nobody else's", async () => {
    const html = await (await get("/my-orders", { cookie })).text();
    expect(html).toContain("Sambal Jar");
    expect(html).toContain("Cooking Class Voucher");
    expect(html).toContain("Recipe E-book");
    expect(html).not.toContain("Guest Order By Address");
    expect(html).not.toContain("Someone Else&#x27;s Order");
    expect(html).not.toContain("Someone Else's Order");
    expect(html).toContain("Prize pool entry #<!-- -->7");
  });

  it("filters by type and searches by product or host name", async () => {
    const vouchers = await (await get("/my-orders?type=voucher", { cookie })).text();
    expect(vouchers).toContain("Cooking Class Voucher");
    expect(vouchers).not.toContain("Sambal Jar");
    const byProduct = await (await get("/my-orders?q=e-book", { cookie })).text();
    expect(byProduct).toContain("Recipe E-book");
    expect(byProduct).not.toContain("Cooking Class Voucher");
    const byHost = await (await get("/my-orders?q=kampung", { cookie })).text();
    expect(byHost).toContain("Sambal Jar");
    const none = await (await get("/my-orders?q=%25_nothing", { cookie })).text();
    expect(none).toContain("No orders found");
  });

  it("counts on the 'Prize pool entries' card only the entries that stand, not one a refund voided", async () => {
    const host = await makeUser({ name: "Entry Host" });
    const fan = await makeUser({ name: "Entry Fan" });
    const productId = crypto.randomUUID();
    await db().insert(products).values({ id: productId, hostId: host.id, name: "Kaya Jar" });
    const [pool] = await db()
      .insert(prizePools)
      .values({ hostId: host.id, targetCents: 100_000, currency: "USD", endAt: new Date(Date.now() + 86_400_000) })
      .returning();
    await db()
      .insert(prizeEntries)
      .values([
        { poolId: pool!.id, entryNumber: 0, userId: fan.id, sourceKey: `pi_a_${fan.id}` },
        { poolId: pool!.id, entryNumber: 1, userId: fan.id, sourceKey: `pi_b_${fan.id}`, voidedAt: new Date() },
      ]);
    await order({
      userId: fan.id,
      hostId: host.id,
      productId,
      name: "Kaya Jar",
      category: "physical",
      entry: 0,
      poolId: pool!.id,
    });
    await order({
      userId: fan.id,
      hostId: host.id,
      productId,
      name: "Kaya Jar",
      category: "physical",
      entry: 1,
      poolId: pool!.id,
    });
    expect((await buyerOrderStats(db(), { userId: fan.id })).entries).toBe(1);
    const page = await (await get("/my-orders", { cookie: await signIn(fan.email) })).text();
    expect(page).toMatch(/Prize pool entries<\/[a-z]+>\s*<[a-z]+[^>]*>1</);
  });

  it("shows the empty state to a buyer with no orders", async () => {
    const { email } = await makeUser();
    const html = await (await get("/my-orders", { cookie: await signIn(email) })).text();
    expect(html).toContain("No orders found");
    expect(html).toContain("Browse Shop");
  });

  it("ignores a malformed filter instead of failing", async () => {
    expect((await get("/my-orders?type=weapons&page=-3", { cookie })).status).toBe(200);
  });
});

describe("/my-orders with a type, a search and a page together", () => {
  it("lists the second page of the matching orders with their refunds and return requests, and only theirs", async () => {
    const host = await makeUser({ name: "Pantry Host" });
    const pager = await makeUser({ name: "Pager" });
    const productId = crypto.randomUUID();
    await db().insert(products).values({ id: productId, hostId: host.id, name: "Chili Jar" });
    const base = Date.now() - 60 * 60_000;
    const at = (minute: number) => new Date(base + minute * 60_000);
    // 21 matching orders (20 a page), the oldest on page 2; a voucher and a plain jar the filters leave out.
    const jars: string[] = [];
    for (let n = 1; n <= 21; n++) {
      const name = `Chili Jar ${String(n).padStart(2, "0")}`;
      jars.push(
        await order({ userId: pager.id, hostId: host.id, productId, name, category: "physical", createdAt: at(n) }),
      );
    }
    await order({
      userId: pager.id,
      hostId: host.id,
      productId,
      name: "Chili Voucher",
      category: "voucher",
      createdAt: at(30),
    });
    await order({
      userId: pager.id,
      hostId: host.id,
      productId,
      name: "Plain Jar",
      category: "physical",
      createdAt: at(31),
    });
    const oldest = jars[0]!;
    await db().insert(returnRequests).values({
      id: crypto.randomUUID(),
      orderId: oldest,
      userId: pager.id,
      hostId: host.id,
      reason: "Lid was broken",
    });
    await db()
      .insert(refunds)
      .values({
        id: `re_${crypto.randomUUID()}`,
        checkoutSessionId: `cs_${crypto.randomUUID()}`,
        paymentIntentId: `pi_${crypto.randomUUID()}`,
        orderId: oldest,
        amountCents: 500,
        currency: "USD",
        status: "succeeded",
        origin: "host",
        reason: "Jar arrived cracked",
      });
    const pagerCookie = await signIn(pager.email);

    const first = await (await get("/my-orders?type=physical&q=chili", { cookie: pagerCookie })).text();
    expect(first).toContain("Chili Jar 21");
    expect(first).toContain("Chili Jar 02");
    for (const absent of ["Chili Jar 01", "Chili Voucher", "Plain Jar", "Return requested", "Jar arrived cracked"])
      expect(first).not.toContain(absent);

    const second = await (await get("/my-orders?type=physical&q=chili&page=2", { cookie: pagerCookie })).text();
    expect(second).toContain("Chili Jar 01");
    expect(second).toContain("Return requested");
    expect(second).toContain("Refunded by the host: Jar arrived cracked");
    for (const absent of ["Chili Jar 02", "Chili Jar 21", "Chili Voucher", "Plain Jar"])
      expect(second).not.toContain(absent);
  });
});
