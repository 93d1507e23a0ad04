import { beforeAll, describe, expect, it } from "vitest";
import { products, productSizes } from "~/db/schema";
import { db, get, makeUser, postForm, signIn } from "./helpers";

let productId: string;
let cookie: string;

beforeAll(async () => {
  const host = await makeUser({ name: "Lamp Studio" });
  productId = crypto.randomUUID();
  await db().insert(products).values({
    id: productId,
    hostId: host.id,
    name: "Rattan Lamp",
    category: "digital",
    priceMinCents: 4200,
    priceMaxCents: 4200,
  });
  await db()
    .insert(productSizes)
    .values({ id: crypto.randomUUID(), productId, name: "Standard", priceCents: 4200, availableUnits: 3, position: 0 });
  const buyer = await makeUser();
  cookie = await signIn(buyer.email);
});

describe("/payment", () => {
  it("sends a user without payment data to the dashboard", async () => {
    const res = await get("/payment", { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
  });

  it("reviews the purchase with the price from the database", async () => {
    const res = await get(`/payment?product=${productId}&size=Standard&qty=1&price=1`, { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Rattan Lamp");
    expect(html).toContain("USD 42.00");
  });

  it("refuses a size that does not exist", async () => {
    const res = await get(`/payment?product=${productId}&size=Huge`, { cookie });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Please choose a size");
  });

  it("hands over to the checkout and comes back to a confirmed payment with an entry number", async () => {
    const start = await postForm(`/payment?product=${productId}&size=Standard&qty=1`, {}, { cookie });
    expect(start.status).toBe(302);
    const checkoutUrl = new URL(start.headers.get("Location")!);
    expect(checkoutUrl.pathname).toMatch(/^\/api\/local-checkout\//);
    const pay = await postForm(`${checkoutUrl.pathname}/pay`, {}, { cookie });
    expect(pay.status).toBe(303);
    const success = new URL(pay.headers.get("Location")!);
    expect(success.pathname).toBe("/payment/success");
    const page = await get(`${success.pathname}${success.search}`, { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Payment successful!");
    expect(html).toContain("USD 42.00");
    expect(html).toMatch(/Your prize pool entry number/);
  });

  it("answers 'No session ID found' without a session id, and hides someone else's payment", async () => {
    const missing = await get("/payment/success", { cookie });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("No session ID found");
    const other = await makeUser();
    const start = await postForm(`/payment?product=${productId}&size=Standard&qty=1`, {}, { cookie });
    const id = new URL(start.headers.get("Location")!).pathname.split("/").pop()!;
    const peek = await get(`/payment/success?session_id=${id}`, { cookie: await signIn(other.email) });
    expect(peek.status).toBe(404);
    expect(await peek.text()).not.toContain("USD 42.00");
  });
});
