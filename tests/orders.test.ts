import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { orders, products, shippingUpdates, vouchers } from "~/db/schema";
import { updateHostOrderStatus } from "~/db/queries/orders.server";
import { parseCsv } from "./support/csv";
import { cookieFrom, db, get, makeUser, pageText, postForm, signIn } from "./helpers";

type User = { id: string; email: string };
type Category = "physical" | "digital" | "voucher";

let host: User;
let otherHost: User;
let buyer: User;
let stranger: User;
let hostCookie: string;
let otherHostCookie: string;
let buyerCookie: string;
let strangerCookie: string;
let physicalProduct: string;
let digitalProduct: string;
let voucherProduct: string;
let otherProduct: string;

const tag = crypto.randomUUID().slice(0, 6).toUpperCase();
const address = {
  name: "Ah Kow Tan",
  street: "12 Jalan Rahsia",
  city: "Penang",
  state: "PG",
  postal_code: "10200",
  country: "MY",
};

async function makeOrder(fields: {
  hostId: string;
  productId: string;
  productName: string;
  category: Category;
  status?: (typeof orders.$inferInsert)["status"];
  purchaseMode?: "buy-now" | "group-buy";
  customerName?: string | null;
  customerEmail?: string | null;
  userId?: string | null;
  amountCents?: number;
  trackingNumber?: string | null;
  createdAt?: Date;
}) {
  const id = crypto.randomUUID();
  const orderNumber = `ORD-${id.slice(-8).toUpperCase()}`;
  await db()
    .insert(orders)
    .values({
      id,
      orderNumber,
      userId: fields.userId ?? null,
      hostId: fields.hostId,
      productId: fields.productId,
      status: fields.status ?? "processing",
      amountCents: fields.amountCents ?? 1250,
      unitPriceCents: fields.amountCents ?? 1250,
      quantity: 1,
      currency: "USD",
      purchaseMode: fields.purchaseMode ?? "buy-now",
      customerName: fields.customerName === undefined ? "Siti Aminah" : fields.customerName,
      customerEmail: fields.customerEmail === undefined ? "siti@example.com" : fields.customerEmail,
      shippingAddress: address,
      productName: fields.productName,
      productCategory: fields.category,
      trackingNumber: fields.trackingNumber ?? null,
      createdAt: fields.createdAt ?? new Date(),
    });
  return { id, orderNumber };
}

async function readOrder(id: string) {
  const [row] = await db().select().from(orders).where(eq(orders.id, id));
  const updates = await db().select().from(shippingUpdates).where(eq(shippingUpdates.orderId, id));
  return { row, updates };
}

function decodeToast(res: Response): string | null {
  const pair = cookieFrom(res, "__Host-toast");
  if (!pair) return null;
  const value = pair.slice(pair.indexOf("=") + 1);
  const encoded = value.slice(0, value.lastIndexOf("."));
  return (JSON.parse(decodeURIComponent(atob(encoded))) as { message: string }).message;
}

const update = (fields: Record<string, string>, cookie: string) =>
  postForm("/orders?tab=orders", { intent: "update-status", ...fields }, { cookie });

beforeAll(async () => {
  host = await makeUser({ name: "Kampung Kitchen" });
  otherHost = await makeUser({ name: "Other Host" });
  buyer = await makeUser({ name: "Buyer" });
  stranger = await makeUser({ name: "Stranger" });
  physicalProduct = crypto.randomUUID();
  digitalProduct = crypto.randomUUID();
  voucherProduct = crypto.randomUUID();
  otherProduct = crypto.randomUUID();
  await db()
    .insert(products)
    .values([
      { id: physicalProduct, hostId: host.id, name: "Sambal Jar", category: "physical" },
      { id: digitalProduct, hostId: host.id, name: "Recipe E-book", category: "digital" },
      { id: voucherProduct, hostId: host.id, name: "Cooking Class", category: "voucher" },
      { id: otherProduct, hostId: otherHost.id, name: "Sambal Jar", category: "physical" },
    ]);
  [hostCookie, otherHostCookie, buyerCookie, strangerCookie] = await Promise.all([
    signIn(host.email),
    signIn(otherHost.email),
    signIn(buyer.email),
    signIn(stranger.email),
  ]);
});

describe("inline order status update", () => {
  it("keeps a refund that lands between the page's check and the write: the write changes nothing and says so", async () => {
    const order = await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
      status: "refunded",
    });
    const before = await readOrder(order.id);
    const change = {
      hostId: host.id,
      orderId: order.id,
      status: "shipped",
      trackingNumber: "TRK-LATE1",
      carrier: null,
      description: "Shipped",
    } as const;
    expect(await updateHostOrderStatus(db(), change)).toBe(false);
    expect(await readOrder(order.id)).toEqual(before);
    expect(await db().select().from(shippingUpdates).where(eq(shippingUpdates.orderId, order.id))).toHaveLength(0);

    const open = await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
    });
    expect(await updateHostOrderStatus(db(), { ...change, orderId: open.id })).toBe(true);
    expect((await readOrder(open.id)).row?.status).toBe("shipped");
    expect(await db().select().from(shippingUpdates).where(eq(shippingUpdates.orderId, open.id))).toHaveLength(1);
  });

  it("refuses a status outside the allowed set and changes nothing", async () => {
    const digital = await makeOrder({
      hostId: host.id,
      productId: digitalProduct,
      productName: "Recipe E-book",
      category: "digital",
    });
    const physical = await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
    });
    const before = await readOrder(digital.id);

    const shippedDigital = await update(
      { orderId: digital.id, status: "shipped", trackingNumber: "TRK-DIGI1" },
      hostCookie,
    );
    expect(shippedDigital.status).toBe(400);
    expect(await shippedDigital.text()).toContain("This status cannot be set for this order");
    expect(await readOrder(digital.id)).toEqual(before);

    for (const order of [digital, physical]) {
      const snapshot = await readOrder(order.id);
      const paid = await update({ orderId: order.id, status: "paid" }, hostCookie);
      expect(paid.status).toBe(400);
      expect(await readOrder(order.id)).toEqual(snapshot);
    }
    const pendingShippingDigital = await update({ orderId: digital.id, status: "pending_shipping" }, hostCookie);
    expect(pendingShippingDigital.status).toBe(400);
    expect(await readOrder(digital.id)).toEqual(before);
  });

  it("refuses shipped without a tracking number", async () => {
    const order = await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
    });
    const before = await readOrder(order.id);
    for (const trackingNumber of [undefined, "", "   "]) {
      const res = await update(
        { orderId: order.id, status: "shipped", ...(trackingNumber === undefined ? {} : { trackingNumber }) },
        hostCookie,
      );
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Please enter a tracking number for shipped orders");
    }
    expect(await readOrder(order.id)).toEqual(before);
  });

  it("answers another host's order with 404 'Order not found' and leaves it unchanged", async () => {
    const order = await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
    });
    const before = await readOrder(order.id);
    const res = await update({ orderId: order.id, status: "shipped", trackingNumber: `TRK-X${tag}` }, otherHostCookie);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Order not found");
    expect(await readOrder(order.id)).toEqual(before);
    const missing = await update({ orderId: crypto.randomUUID(), status: "completed" }, hostCookie);
    expect(missing.status).toBe(404);
  });

  it("requires a signed-in host", async () => {
    const order = await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
    });
    const res = await postForm("/orders", { intent: "update-status", orderId: order.id, status: "completed" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("/signin");
    expect((await readOrder(order.id)).row.status).toBe("processing");
  });

  it("ships an order with tracking and carrier, records a shipping update and flashes the message", async () => {
    const order = await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
    });
    const before = await readOrder(order.id);
    const tracking = `TRK-S${tag}`;
    const res = await update(
      {
        orderId: order.id,
        status: "shipped",
        trackingNumber: ` ${tracking} `,
        carrier: "DHL",
        redirectTo: "/orders?tab=orders&status=shipped",
      },
      hostCookie,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/orders?tab=orders&status=shipped");
    expect(decodeToast(res)).toBe(`Order ${order.orderNumber} updated successfully!`);
    const after = await readOrder(order.id);
    expect(after.row.status).toBe("shipped");
    expect(after.row.trackingNumber).toBe(tracking);
    expect(after.row.carrier).toBe("DHL");
    expect(after.row.updatedAt.getTime()).toBeGreaterThanOrEqual(before.row.updatedAt.getTime());
    expect(after.updates).toHaveLength(1);
    expect(after.updates[0]).toMatchObject({
      status: "shipped",
      description: `Shipped with DHL, tracking ${tracking}`,
    });

    const done = await update({ orderId: order.id, status: "completed" }, hostCookie);
    expect(done.status).toBe(302);
    const completed = await readOrder(order.id);
    expect(completed.row.status).toBe("completed");
    expect(completed.row.trackingNumber).toBe(tracking);
    expect(completed.updates.map((u) => u.description).sort()).toEqual([
      "Order completed",
      `Shipped with DHL, tracking ${tracking}`,
    ]);
  });

  it("lets a digital order be completed", async () => {
    const order = await makeOrder({
      hostId: host.id,
      productId: digitalProduct,
      productName: "Recipe E-book",
      category: "digital",
    });
    const res = await update({ orderId: order.id, status: "completed" }, hostCookie);
    expect(res.status).toBe(302);
    const after = await readOrder(order.id);
    expect(after.row.status).toBe("completed");
    expect(after.updates.map((u) => u.description)).toEqual(["Order completed"]);
  });
});

describe("/orders and /voucher-management", () => {
  it("shows only the host's own orders, filtered in SQL, on the tab the path picks", async () => {
    const mine = await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: `Kaya Toast ${tag}`,
      category: "physical",
    });
    const theirs = await makeOrder({
      hostId: otherHost.id,
      productId: otherProduct,
      productName: `Kaya Toast ${tag}`,
      category: "physical",
    });
    const html = await (
      await get(`/orders?q=${encodeURIComponent(`kaya toast ${tag}`)}`, { cookie: hostCookie })
    ).text();
    expect(html).toContain(mine.orderNumber);
    expect(html).not.toContain(theirs.orderNumber);
    expect(html).toContain("All Status");

    const vouchersPage = await (await get("/voucher-management", { cookie: hostCookie })).text();
    expect(vouchersPage).toContain("Voucher Management");
    expect(vouchersPage).toContain("/voucher-scanner");
    expect(vouchersPage).toContain("Redeemed");
    // Each list has its own path now; an older link naming the other tab is sent there with its filters.
    const ordersTab = await get("/voucher-management?tab=orders", { cookie: hostCookie });
    expect(ordersTab.status).toBe(302);
    expect(ordersTab.headers.get("Location")).toBe("/orders?tab=orders");
    expect(await (await get("/orders?tab=orders", { cookie: hostCookie })).text()).toContain("Customer Orders");
  });
});

describe("/order/{orderNumber}", () => {
  it("is shown to the buyer and the host only", async () => {
    const order = await makeOrder({
      hostId: host.id,
      userId: buyer.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
    });
    const asBuyer = await get(`/order/${order.orderNumber}`, { cookie: buyerCookie });
    expect(asBuyer.status).toBe(200);
    const html = await asBuyer.text();
    expect(html).toContain("Sambal Jar");
    expect(html).toContain("TBD");
    expect((await get(`/order/${order.orderNumber}`, { cookie: hostCookie })).status).toBe(200);
    expect((await get(`/order/${order.orderNumber}`, { cookie: strangerCookie })).status).toBe(404);
    expect((await get(`/order/${order.orderNumber}`, { cookie: otherHostCookie })).status).toBe(404);
  });
});

describe("/shipping-tracking", () => {
  it("finds the order by exact tracking number with its updates newest first, without personal data", async () => {
    const tracking = `TRK-T${tag}`;
    const order = await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
      status: "shipped",
      customerName: "Ah Kow Tan",
      customerEmail: "ahkow@example.com",
      trackingNumber: tracking,
    });
    await db()
      .insert(shippingUpdates)
      .values([
        {
          orderId: order.id,
          status: "processing",
          description: "Parcel packed in Penang",
          createdAt: new Date("2026-03-01T08:00:00Z"),
        },
        {
          orderId: order.id,
          status: "shipped",
          description: "Parcel handed to the courier",
          createdAt: new Date("2026-03-02T09:30:00Z"),
        },
        {
          orderId: order.id,
          description: "Arrived at sorting centre",
          location: "Kuala Lumpur",
          createdAt: new Date("2026-03-03T10:15:00Z"),
        },
      ]);
    const res = await get(`/shipping-tracking?tracking=${encodeURIComponent(` ${tracking} `)}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(order.orderNumber);
    expect(html).toContain("Sambal Jar");
    expect(html).toContain("Shipped");
    expect(html).toContain("bg-blue-100");
    expect(html).toContain("Penang");
    expect(html).toContain("MY");
    expect(html).toContain("TBD");
    const newest = html.indexOf("Arrived at sorting centre");
    const middle = html.indexOf("Parcel handed to the courier");
    const oldest = html.indexOf("Parcel packed in Penang");
    expect(newest).toBeGreaterThan(-1);
    expect(newest).toBeLessThan(middle);
    expect(middle).toBeLessThan(oldest);
    expect(html).toContain("Mar 3, 2026");
    for (const secret of ["Ah Kow Tan", "ahkow@example.com", "12 Jalan Rahsia", "10200"])
      expect(html).not.toContain(secret);
  });

  it("says so for an unknown number, a partial number and an empty one", async () => {
    const tracking = `TRK-P${tag}`;
    await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
      status: "shipped",
      trackingNumber: tracking,
    });
    for (const q of ["TRK-NOPE-0000", tracking.slice(0, -2), tracking.toLowerCase(), "%", "TRK-%"]) {
      const html = await (await get(`/shipping-tracking?tracking=${encodeURIComponent(q)}`)).text();
      expect(html).toContain("No order found with this tracking number");
    }
    const empty = await (await get("/shipping-tracking?tracking=%20%20")).text();
    expect(empty).toContain("Please enter a tracking number");
    const idle = await (await get("/shipping-tracking")).text();
    expect(idle).toContain("Start Tracking");
  });

  it("shows 'No tracking updates available yet' for an order without history", async () => {
    const tracking = `TRK-E${tag}`;
    await makeOrder({
      hostId: host.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
      status: "shipped",
      trackingNumber: tracking,
    });
    const html = await (await get(`/shipping-tracking?tracking=${tracking}`)).text();
    expect(html).toContain("No tracking updates available yet");
  });
});

describe("CSV export", () => {
  it("contains exactly the filtered rows, quoted, and never another host's orders", async () => {
    const exportHost = await makeUser({ name: "Export Host" });
    const cookie = await signIn(exportHost.email);
    const productId = crypto.randomUUID();
    await db().insert(products).values({ id: productId, hostId: exportHost.id, name: "Laksa Kit" });
    const t0 = Date.parse("2026-02-01T00:00:00Z");
    const a = await makeOrder({
      hostId: exportHost.id,
      productId,
      productName: "Laksa Kit",
      category: "physical",
      status: "shipped",
      customerName: 'Tan, "Ah" Kow',
      customerEmail: "tan@example.com",
      amountCents: 123456,
      trackingNumber: `TRK-A${tag}`,
      createdAt: new Date(t0 + 3000),
    });
    const b = await makeOrder({
      hostId: exportHost.id,
      productId,
      productName: "Laksa Kit, large",
      category: "physical",
      status: "shipped",
      customerName: "Siti",
      amountCents: 5,
      createdAt: new Date(t0 + 2000),
    });
    const c = await makeOrder({
      hostId: exportHost.id,
      productId,
      productName: "Laksa Kit",
      category: "physical",
      status: "processing",
      customerName: "Tan Processing",
      createdAt: new Date(t0 + 1000),
    });
    const d = await makeOrder({
      hostId: exportHost.id,
      productId,
      productName: "Curry Paste",
      category: "physical",
      status: "shipped",
      customerName: "Muthu",
      createdAt: new Date(t0),
    });
    const foreign = await makeOrder({
      hostId: otherHost.id,
      productId: otherProduct,
      productName: "Laksa Kit",
      category: "physical",
      status: "shipped",
      customerName: 'Tan, "Ah" Kow',
    });

    const res = await get("/orders/export.csv?tab=orders&status=shipped&q=laksa", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await res.text();
    expect(text).toContain('"Tan, ""Ah"" Kow"');
    expect(text).toContain('"Laksa Kit, large"');
    const [header, ...rows] = parseCsv(text);
    expect(header[0]).toBe("Order Number");
    expect(header).toContain("Amount");
    expect(rows.map((r) => r[0])).toEqual([a.orderNumber, b.orderNumber]);
    const amount = header.indexOf("Amount");
    const name = header.indexOf("Customer Name");
    expect(rows[0][name]).toBe('Tan, "Ah" Kow');
    expect(rows[0][amount]).toBe("1234.56");
    expect(rows[1][amount]).toBe("0.05");
    expect(rows[0][header.indexOf("Tracking Number")]).toBe(`TRK-A${tag}`);
    expect(text).not.toContain(foreign.orderNumber);

    // The screen shows the same rows for the same filters.
    const html = await (await get("/orders?tab=orders&status=shipped&q=laksa", { cookie })).text();
    for (const o of [a, b]) expect(html).toContain(o.orderNumber);
    for (const o of [c, d, foreign]) expect(html).not.toContain(o.orderNumber);
    expect(html).toContain("/orders/export.csv?tab=orders&amp;q=laksa&amp;status=shipped");

    // Search by e-mail, and no filter at all: every own order, never another host's.
    const byEmail = parseCsv(await (await get("/orders/export.csv?q=TAN%40EXAMPLE", { cookie })).text());
    expect(byEmail.slice(1).map((r) => r[0])).toEqual([a.orderNumber]);
    const all = parseCsv(await (await get("/orders/export.csv", { cookie })).text());
    expect(all.slice(1).map((r) => r[0])).toEqual([a, b, c, d].map((o) => o.orderNumber));

    // The other host's export has only their orders.
    const theirs = await (await get("/orders/export.csv?q=laksa", { cookie: otherHostCookie })).text();
    expect(theirs).toContain(foreign.orderNumber);
    for (const o of [a, b, c, d]) expect(theirs).not.toContain(o.orderNumber);
  });

  it("shows each order's purchase mode, and for an order without a collected name the buyer account's name, then the e-mail", async () => {
    const modeHost = await makeUser({ name: "Mode Host" });
    const cookie = await signIn(modeHost.email);
    const fan = await makeUser({ name: "Nur Aisyah" });
    const productId = crypto.randomUUID();
    await db()
      .insert(products)
      .values({ id: productId, hostId: modeHost.id, name: "Batik Class", category: "voucher" });
    const t0 = Date.parse("2026-03-01T00:00:00Z");
    // A voucher checkout collects no address, so no name: the buyer's account names them.
    const voucher = await makeOrder({
      hostId: modeHost.id,
      productId,
      productName: "Batik Class",
      category: "voucher",
      customerName: null,
      customerEmail: fan.email,
      userId: fan.id,
      createdAt: new Date(t0 + 3000),
    });
    const grouped = await makeOrder({
      hostId: modeHost.id,
      productId,
      productName: "Batik Class",
      category: "voucher",
      purchaseMode: "group-buy",
      customerName: "Siti Aminah",
      createdAt: new Date(t0 + 2000),
    });
    // A guest's order (no account): the e-mail it was paid with.
    const guest = await makeOrder({
      hostId: modeHost.id,
      productId,
      productName: "Batik Class",
      category: "voucher",
      customerName: null,
      customerEmail: "walk-in@example.com",
      userId: null,
      createdAt: new Date(t0 + 1000),
    });

    const [header, ...rows] = parseCsv(await (await get("/orders/export.csv?tab=orders", { cookie })).text());
    const col = (name: string) => header.indexOf(name);
    expect(col("Purchase Mode")).toBeGreaterThan(-1);
    expect(rows.map((r) => [r[0], r[col("Customer Name")], r[col("Purchase Mode")]])).toEqual([
      [voucher.orderNumber, "Nur Aisyah", "buy-now"],
      [grouped.orderNumber, "Siti Aminah", "group-buy"],
      [guest.orderNumber, "walk-in@example.com", "buy-now"],
    ]);

    const page = await pageText(await get("/orders?tab=orders", { cookie }));
    expect(page).toContain("Mode");
    expect(page).toContain(`${voucher.orderNumber} `);
    expect(page).toMatch(new RegExp(`${voucher.orderNumber} .*? Nur Aisyah ${fan.email} Batik Class voucher Buy now `));
    expect(page).toMatch(
      new RegExp(`${grouped.orderNumber} .*? Siti Aminah siti@example.com Batik Class voucher Group buy `),
    );
    expect(page).toMatch(new RegExp(`${guest.orderNumber} .*? walk-in@example.com Batik Class voucher Buy now `));
    // The fallback name is searchable too, and the voucher list shows it.
    expect(
      parseCsv(await (await get("/orders/export.csv?tab=orders&q=aisyah", { cookie })).text())
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([voucher.orderNumber]);
  });

  it("exports vouchers with their shown status", async () => {
    const voucherHost = await makeUser({ name: "Voucher Host" });
    const cookie = await signIn(voucherHost.email);
    const productId = crypto.randomUUID();
    await db().insert(products).values({ id: productId, hostId: voucherHost.id, name: "Spa Day", category: "voucher" });
    const active = await makeOrder({
      hostId: voucherHost.id,
      productId,
      productName: "Spa Day",
      category: "voucher",
      status: "paid",
      customerName: "Lim, Mei",
    });
    const lapsed = await makeOrder({
      hostId: voucherHost.id,
      productId,
      productName: "Spa Day",
      category: "voucher",
      status: "paid",
      customerName: "Old Buyer",
    });
    await db()
      .insert(vouchers)
      .values([
        {
          code: `VCH-A${tag}`,
          orderId: active.id,
          productId,
          hostId: voucherHost.id,
          valueCents: 5000,
          expiresAt: new Date(Date.now() + 86_400_000),
        },
        {
          code: `VCH-L${tag}`,
          orderId: lapsed.id,
          productId,
          hostId: voucherHost.id,
          valueCents: 8500,
          expiresAt: new Date(Date.now() - 86_400_000),
        },
      ]);
    const res = await get("/orders/export.csv?tab=vouchers&status=active", { cookie });
    expect(res.headers.get("Content-Disposition")).toContain("vouchers-");
    const [header, ...rows] = parseCsv(await res.text());
    expect(header[0]).toBe("Voucher Code");
    expect(rows).toHaveLength(1);
    expect(rows[0][0]).toBe(`VCH-A${tag}`);
    expect(rows[0][header.indexOf("Customer Name")]).toBe("Lim, Mei");
    expect(rows[0][header.indexOf("Value")]).toBe("50.00");
    const expired = parseCsv(await (await get("/orders/export.csv?tab=vouchers&status=expired", { cookie })).text());
    expect(expired.slice(1).map((r) => [r[0], r[header.indexOf("Status")]])).toEqual([[`VCH-L${tag}`, "expired"]]);
  });

  it("requires sign-in", async () => {
    const res = await get("/orders/export.csv");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("/signin");
  });
});

describe("/my-orders card actions", () => {
  it("offers Use Voucher, Download and Track Order / View Order by type and status", async () => {
    const me = await makeUser({ name: "Card Buyer" });
    const cookie = await signIn(me.email);
    const voucherOrder = await makeOrder({
      hostId: host.id,
      userId: me.id,
      productId: voucherProduct,
      productName: "Cooking Class",
      category: "voucher",
      status: "paid",
    });
    const usedOrder = await makeOrder({
      hostId: host.id,
      userId: me.id,
      productId: voucherProduct,
      productName: "Cooking Class",
      category: "voucher",
      status: "paid",
    });
    await db()
      .insert(vouchers)
      .values([
        {
          code: `VCH-U${tag}`,
          orderId: voucherOrder.id,
          productId: voucherProduct,
          hostId: host.id,
          buyerId: me.id,
          valueCents: 5000,
          expiresAt: new Date(Date.now() + 86_400_000),
        },
        {
          code: `VCH-R${tag}`,
          orderId: usedOrder.id,
          productId: voucherProduct,
          hostId: host.id,
          buyerId: me.id,
          valueCents: 5000,
          status: "redeemed",
          expiresAt: new Date(Date.now() + 86_400_000),
        },
      ]);
    const tracking = `TRK-M${tag}`;
    await makeOrder({
      hostId: host.id,
      userId: me.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
      status: "shipped",
      trackingNumber: tracking,
    });
    const delivered = await makeOrder({
      hostId: host.id,
      userId: me.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
      status: "delivered",
    });
    const processing = await makeOrder({
      hostId: host.id,
      userId: me.id,
      productId: physicalProduct,
      productName: "Sambal Jar",
      category: "physical",
      status: "processing",
    });
    const digital = await makeOrder({
      hostId: host.id,
      userId: me.id,
      productId: digitalProduct,
      productName: "Recipe E-book",
      category: "digital",
      status: "paid",
    });

    const html = await (await get("/my-orders", { cookie })).text();
    expect(html).toContain(`href="/voucher/VCH-U${tag}"`);
    expect(html).toContain("Use Voucher");
    // A redeemed voucher reads "Used" (not "Expired").
    expect(html).toContain(">Used<");
    expect(html).not.toContain("Expired");
    expect(html).toContain(`href="/shipping-tracking?tracking=${tracking}"`);
    expect(html).toContain(`href="/order/${delivered.orderNumber}"`);
    // Each physical card's action: shipped and processing read "Track Order" (processing, with no tracking number
    // yet, to the order page and its progress), anything else "View Order".
    const cardAction = (href: string) =>
      new RegExp(`<a[^>]*href="${href.replace(/[?]/g, "\\?")}"[^>]*>([^<]+)</a>`).exec(html)?.[1];
    expect(cardAction(`/shipping-tracking?tracking=${tracking}`)).toBe("Track Order");
    expect(cardAction(`/order/${processing.orderNumber}`)).toBe("Track Order");
    expect(cardAction(`/order/${delivered.orderNumber}`)).toBe("View Order");
    expect(html).toContain(`value="${digital.id}"`);
    expect(html).toContain("Download");

    const download = await postForm("/my-orders", { intent: "download", orderId: digital.id }, { cookie });
    expect(download.status).toBe(302);
    expect(download.headers.get("Location")).toMatch(
      new RegExp(`^/api/downloads/${digital.id}\\?exp=\\d+&sig=[A-Za-z0-9_-]+$`),
    );

    const notMine = await postForm(
      "/my-orders",
      { intent: "download", orderId: digital.id },
      { cookie: strangerCookie },
    );
    expect(notMine.status).toBe(404);
    const notDigital = await postForm("/my-orders", { intent: "download", orderId: delivered.id }, { cookie });
    expect(notDigital.status).toBe(409);
  });
});
