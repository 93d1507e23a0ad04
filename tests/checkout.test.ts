import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CURRENCIES, formatIn, type SupportedCurrency } from "~/domain/currency";
import { formatCents, percentOf } from "~/domain/money";
import { CHECKOUT_CURRENCY, shownPurchaseCents, toCheckoutCents } from "~/domain/payments";
import { checkoutSessions, orders, productColors, products, productSizes } from "~/db/schema";
import { createHostDepositCheckout, createProductCheckout } from "~/lib/payments/checkout/checkout-session.server";
import {
  CHECKOUT_MESSAGES,
  onlyLeftMessage,
  quoteVariants,
  type ProductQuote,
} from "~/lib/payments/checkout/quote.server";
import { confirmCheckout } from "~/lib/payments/webhook/confirm.server";
import { db, makeSessionUser, makeUser, ORIGIN } from "./helpers";

/** A host with a physical product: Small USD 25.00 / Large USD 40.00, colour Red, the given stock. */
async function productFixture(opts: { units?: number; colourUnits?: number; status?: "active" | "inactive" } = {}) {
  const host = await makeUser({ name: "Host" });
  const [product] = await db()
    .insert(products)
    .values({ hostId: host.id, name: "Linen Runner", category: "physical", status: opts.status ?? "active" })
    .returning();
  await db()
    .insert(productSizes)
    .values([
      { productId: product!.id, name: "Small", priceCents: 2500, availableUnits: opts.units ?? 10, position: 0 },
      { productId: product!.id, name: "Large", priceCents: 4000, availableUnits: opts.units ?? 10, position: 1 },
    ]);
  await db()
    .insert(productColors)
    .values({ productId: product!.id, name: "Red", hex: "#f00", availableUnits: opts.colourUnits ?? 10 });
  return { host, product: product! };
}

async function checkoutRow(id: string) {
  const [row] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
  return row;
}

describe("product checkout", () => {
  it("prices from the database and ignores any price in the request", async () => {
    const { host, product } = await productFixture();
    const user = await makeSessionUser();
    const tampered = {
      user,
      productId: product.id,
      sizeName: "Large",
      colorName: "Red",
      quantity: "2",
      currency: "usd",
      origin: ORIGIN,
      // What a tampered form could add: none of it is read.
      price: 1,
      amount: 1,
      amountCents: 1,
      unitPriceCents: 1,
    } as Parameters<typeof createProductCheckout>[1];
    const result = await createProductCheckout(env, tampered);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.amountCents).toBe(8000);
    expect(result.url).toBe(`${ORIGIN}/api/local-checkout/${result.sessionId}`);

    const row = await checkoutRow(result.sessionId);
    expect(row).toMatchObject({
      provider: "local",
      purpose: "product",
      amountCents: 8000,
      currency: "USD",
      status: "open",
      paymentStatus: "unpaid",
      userId: user.id,
      hostId: host.id,
      customerEmail: user.email,
      successUrl: `${ORIGIN}/payment/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${ORIGIN}/buy-now/${product.id}`,
    });
    expect(row!.metadata).toMatchObject({
      purpose: "product",
      product_id: product.id,
      size: "Large",
      color: "Red",
      quantity: "2",
      unit_price_cents: "4000",
      user_id: user.id,
      host_id: host.id,
    });
  });

  it("charges size price × quantity for each size", async () => {
    const { product } = await productFixture();
    const user = await makeSessionUser();
    for (const [sizeName, quantity, expected] of [
      ["Small", 1, 2500],
      ["Small", 3, 7500],
      ["Large", 1, 4000],
    ] as const) {
      const result = await createProductCheckout(env, {
        user,
        productId: product.id,
        sizeName,
        colorName: "Red",
        quantity,
        origin: ORIGIN,
      });
      expect(result.ok && result.amountCents).toBe(expected);
      if (result.ok) expect((await checkoutRow(result.sessionId))!.amountCents).toBe(expected);
    }
  });

  it("refuses a missing or unknown size", async () => {
    const { product } = await productFixture();
    const user = await makeSessionUser();
    for (const sizeName of [undefined, "", "XXL"]) {
      const result = await createProductCheckout(env, {
        user,
        productId: product.id,
        sizeName,
        colorName: "Red",
        origin: ORIGIN,
      });
      expect(result).toMatchObject({ ok: false, status: 400, message: CHECKOUT_MESSAGES.chooseSize });
    }
  });

  it("refuses a missing colour when the product has colours", async () => {
    const { product } = await productFixture();
    const user = await makeSessionUser();
    const result = await createProductCheckout(env, { user, productId: product.id, sizeName: "Small", origin: ORIGIN });
    expect(result).toMatchObject({ ok: false, message: CHECKOUT_MESSAGES.chooseColour });
  });

  it("refuses an unknown or inactive product", async () => {
    const user = await makeSessionUser();
    const unknown = await createProductCheckout(env, {
      user,
      productId: crypto.randomUUID(),
      sizeName: "Small",
      origin: ORIGIN,
    });
    expect(unknown).toMatchObject({ ok: false, status: 404, message: "Product not found" });
    const { product } = await productFixture({ status: "inactive" });
    const inactive = await createProductCheckout(env, {
      user,
      productId: product.id,
      sizeName: "Small",
      colorName: "Red",
      origin: ORIGIN,
    });
    expect(inactive).toMatchObject({ ok: false, status: 404, message: "Product not found" });
  });

  it("refuses zero stock, and more than the stock left", async () => {
    const user = await makeSessionUser();
    const empty = await productFixture({ units: 0 });
    const none = await createProductCheckout(env, {
      user,
      productId: empty.product.id,
      sizeName: "Small",
      colorName: "Red",
      origin: ORIGIN,
    });
    expect(none).toMatchObject({ ok: false, status: 409, message: "Sorry, this item is out of stock" });

    const few = await productFixture({ units: 10, colourUnits: 3 });
    const tooMany = await createProductCheckout(env, {
      user,
      productId: few.product.id,
      sizeName: "Small",
      colorName: "Red",
      quantity: 4,
      origin: ORIGIN,
    });
    expect(tooMany).toMatchObject({ ok: false, status: 409, message: onlyLeftMessage(3) });
    expect(onlyLeftMessage(3)).toBe("Only 3 left in stock");
  });

  it("refuses quantities outside 1 to 99", async () => {
    const { product } = await productFixture();
    const user = await makeSessionUser();
    for (const quantity of [0, -1, 1.5, 100, "abc"]) {
      const result = await createProductCheckout(env, {
        user,
        productId: product.id,
        sizeName: "Small",
        colorName: "Red",
        quantity,
        origin: ORIGIN,
      });
      expect(result).toMatchObject({ ok: false, status: 400, message: CHECKOUT_MESSAGES.quantity });
    }
  });

  it("asks a visitor to sign in and writes nothing", async () => {
    const { product } = await productFixture();
    const result = await createProductCheckout(env, {
      user: null,
      productId: product.id,
      sizeName: "Small",
      colorName: "Red",
      origin: ORIGIN,
    });
    expect(result).toMatchObject({ ok: false, status: 401, message: "Please sign in to make a payment" });
  });
});

describe("a purchase total as the buy page shows it", () => {
  const TABLE = CURRENCIES.map((c) => c.code) as SupportedCurrency[];

  /** What checkout charges for a size priced `priceCents` in `currency`, `quantity` units (quoteVariants, as checkout). */
  function charged(priceCents: number, currency: string, quantity: number): ProductQuote {
    const quote = quoteVariants(
      {
        product: {
          id: "p",
          hostId: "h",
          name: "P",
          category: "physical",
          status: "active",
          currency,
          voucherValueCents: null,
          voucherExpiresAt: null,
        },
        sizes: [{ id: "s", name: "One", priceCents, currency, availableUnits: 99 }],
        colours: [],
        imageUrl: "",
      },
      { productId: "p", sizeName: "One", colorName: "", quantity },
    );
    if (!quote.ok) throw new Error(quote.message);
    return quote;
  }

  /** The total /buy-now (and /product) shows: the page's sizes carry toCheckoutCents, the total is shownPurchaseCents. */
  function shown(priceCents: number, currency: string, quantity: number, to: SupportedCurrency): string {
    return formatCents(shownPurchaseCents(toCheckoutCents(priceCents, currency), quantity, to), to);
  }

  it("equals what checkout charges, in any display currency, for any (discounted) price and quantity", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 90 }),
        fc.integer({ min: 1, max: 99 }),
        fc.constantFrom<SupportedCurrency>(...TABLE),
        fc.constantFrom<SupportedCurrency>(...TABLE),
        (basePriceCents, discountPercent, quantity, stored, to) => {
          const priceCents = Math.max(1, basePriceCents - percentOf(basePriceCents, discountPercent));
          const quote = charged(priceCents, stored, quantity);
          expect(shown(priceCents, stored, quantity, to)).toBe(formatIn(quote.amountCents, CHECKOUT_CURRENCY, to));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("shows RM 127.27 for two at USD 14.00, what checkout charges (USD 28.00), not twice a rounded RM 63.64", () => {
    expect(charged(1400, "USD", 2).amountCents).toBe(2800);
    expect(formatIn(2800, "USD", "MYR")).toBe("RM 127.27");
    expect(shown(1400, "USD", 2, "MYR")).toBe("RM 127.27");
    // A discounted price: USD 20.00 with 30% off is USD 14.00.
    expect(shown(2000 - percentOf(2000, 30), "USD", 2, "MYR")).toBe("RM 127.27");
  });
});

describe("host deposit checkout", () => {
  it("refuses less than USD 1 and starts a 100%-to-pool deposit otherwise", async () => {
    const host = await makeSessionUser();
    for (const amountCents of [0, 99, -100, 150.5, "x"]) {
      const result = await createHostDepositCheckout(env, { user: host, amountCents, origin: ORIGIN });
      expect(result).toMatchObject({
        ok: false,
        status: 400,
        message: "Please enter a valid deposit amount (minimum USD 1).",
      });
    }
    // Over the most one payment carries is said as such, not as the minimum.
    const tooMuch = await createHostDepositCheckout(env, { user: host, amountCents: 100_000_000, origin: ORIGIN });
    expect(tooMuch).toMatchObject({ ok: false, status: 400, message: "A deposit can be at most USD 999,999.99." });
    const result = await createHostDepositCheckout(env, { user: host, amountCents: 2500, origin: ORIGIN });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(await checkoutRow(result.sessionId)).toMatchObject({
      purpose: "host_deposit",
      amountCents: 2500,
      hostId: host.id,
      userId: host.id,
    });
  });
});

describe("Stripe provider", () => {
  /**
   * A fetch that records each request and answers like Stripe's Checkout Sessions endpoints (create, retrieve),
   * with responses in the shape the API returns. `pay()` makes the session paid, as after the buyer paid.
   */
  function fakeStripe() {
    const requests: { url: string; method: string; headers: Headers; body: string }[] = [];
    const sessionId = `cs_test_a1${crypto.randomUUID().replace(/-/g, "")}`;
    let session: Record<string, unknown> | null = null;
    const json = (value: unknown, status = 200) =>
      new Response(JSON.stringify(value), {
        status,
        headers: { "Content-Type": "application/json", "Request-Id": "req_test_123" },
      });
    const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const body = await request.text();
      requests.push({ url: request.url, method: request.method, headers: request.headers, body });
      const path = new URL(request.url).pathname;
      if (request.method === "POST" && path === "/v1/checkout/sessions") {
        const params = new URLSearchParams(body);
        const amount =
          Number(params.get("line_items[0][price_data][unit_amount]")) * Number(params.get("line_items[0][quantity]"));
        session = {
          id: sessionId,
          object: "checkout.session",
          amount_subtotal: amount,
          amount_total: amount,
          cancel_url: params.get("cancel_url"),
          client_reference_id: params.get("client_reference_id"),
          collected_information: null,
          created: Math.floor(Date.now() / 1000),
          currency: "usd",
          customer: null,
          customer_details: null,
          customer_email: params.get("customer_email"),
          expires_at: Math.floor(Date.now() / 1000) + 86400,
          livemode: false,
          metadata: Object.fromEntries(
            [...params].filter(([k]) => k.startsWith("metadata[")).map(([k, v]) => [k.slice(9, -1), v]),
          ),
          mode: "payment",
          payment_intent: null,
          payment_status: "unpaid",
          status: "open",
          success_url: params.get("success_url"),
          url: `https://checkout.stripe.com/c/pay/${sessionId}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
        };
        return json(session);
      }
      if (request.method === "GET" && path === `/v1/checkout/sessions/${sessionId}` && session) return json(session);
      return json({ error: { type: "invalid_request_error", message: `No such checkout.session: '${path}'` } }, 404);
    }) as typeof fetch;
    const pay = () => {
      session = {
        ...session,
        status: "complete",
        payment_status: "paid",
        payment_intent: "pi_test_3Q1x2y3z",
        url: null,
        customer_details: {
          email: session?.customer_email,
          name: "Ada Buyer",
          address: {
            line1: "1 Jalan Test",
            line2: null,
            city: "George Town",
            state: null,
            postal_code: "10200",
            country: "MY",
          },
        },
      };
    };
    return { requests, sessionId, pay, httpClient: Stripe.createFetchHttpClient(fetchFn) };
  }

  it("creates a Checkout Session with the server-side amount and the webhook's metadata", async () => {
    const { host, product } = await productFixture();
    const user = await makeSessionUser();
    const stripe = fakeStripe();
    const stripeEnv = { ...env, STRIPE_SECRET_KEY: "sk_test_fake_key" };

    const result = await createProductCheckout(
      stripeEnv,
      { user, productId: product.id, sizeName: "Large", colorName: "Red", quantity: 2, origin: ORIGIN },
      { stripeHttpClient: stripe.httpClient },
    );
    expect(result).toMatchObject({ ok: true, sessionId: stripe.sessionId, amountCents: 8000 });
    expect(stripe.requests).toHaveLength(1);
    const [request] = stripe.requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("https://api.stripe.com/v1/checkout/sessions");
    expect(request!.headers.get("Authorization")).toBe("Bearer sk_test_fake_key");
    expect(request!.headers.get("Content-Type")).toContain("application/x-www-form-urlencoded");

    const params = new URLSearchParams(request!.body);
    const reference = params.get("client_reference_id")!;
    expect(reference).toMatch(/^chk_/);
    expect(request!.headers.get("Idempotency-Key")).toBe(`checkout-session:${reference}`);
    expect(params.get("mode")).toBe("payment");
    expect(params.get("line_items[0][price_data][unit_amount]")).toBe("4000");
    expect(params.get("line_items[0][price_data][currency]")).toBe("usd");
    expect(params.get("line_items[0][quantity]")).toBe("2");
    expect(params.get("line_items[0][price_data][product_data][name]")).toBe("Linen Runner");
    expect(params.get("success_url")).toBe(`${ORIGIN}/payment/success?session_id={CHECKOUT_SESSION_ID}`);
    expect(params.get("cancel_url")).toBe(`${ORIGIN}/buy-now/${product.id}`);
    expect(params.get("customer_email")).toBe(user.email);
    expect(params.get("metadata[purpose]")).toBe("product");
    expect(params.get("metadata[checkout_id]")).toBe(reference);
    expect(params.get("metadata[product_id]")).toBe(product.id);
    expect(params.get("metadata[size]")).toBe("Large");
    expect(params.get("metadata[color]")).toBe("Red");
    expect(params.get("metadata[quantity]")).toBe("2");
    expect(params.get("metadata[user_id]")).toBe(user.id);
    expect(params.get("metadata[host_id]")).toBe(host.id);
    expect(params.get("shipping_address_collection[allowed_countries][0]")).toBe("MY");

    // The row was written under the reference and re-keyed by Stripe's session id.
    expect(await checkoutRow(reference)).toBeUndefined();
    expect(await checkoutRow(stripe.sessionId)).toMatchObject({
      provider: "stripe",
      amountCents: 8000,
      url: expect.stringContaining("https://checkout.stripe.com/"),
    });
  });

  it("reports a provider failure as 'Checkout failed' and leaves the row expired", async () => {
    const { product } = await productFixture();
    const user = await makeSessionUser();
    const failing = Stripe.createFetchHttpClient(
      (async () =>
        new Response(JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid currency" } }), {
          status: 400,
          headers: { "Content-Type": "application/json" },
        })) as typeof fetch,
    );
    const result = await createProductCheckout(
      { ...env, STRIPE_SECRET_KEY: "sk_test_fake_key" },
      { user, productId: product.id, sizeName: "Small", colorName: "Red", origin: ORIGIN },
      { stripeHttpClient: failing },
    );
    expect(result).toMatchObject({ ok: false, status: 502, message: "Checkout failed" });
  });

  it("confirms a paid session the webhook has not reached yet by asking Stripe, and fulfils it once", async () => {
    const { product } = await productFixture();
    const user = await makeSessionUser();
    const stripe = fakeStripe();
    const stripeEnv = { ...env, STRIPE_SECRET_KEY: "sk_test_fake_key" };
    const options = { stripeHttpClient: stripe.httpClient };
    const started = await createProductCheckout(
      stripeEnv,
      { user, productId: product.id, sizeName: "Small", colorName: "Red", quantity: 1, origin: ORIGIN },
      options,
    );
    expect(started.ok).toBe(true);

    // Not paid yet: confirmed as pending, nothing fulfilled.
    expect(await confirmCheckout(stripeEnv, stripe.sessionId, user, options)).toMatchObject({ ok: true, paid: false });
    expect(await db().select().from(orders).where(eq(orders.checkoutSessionId, stripe.sessionId))).toHaveLength(0);

    stripe.pay();
    const confirmed = await confirmCheckout(stripeEnv, stripe.sessionId, user, options);
    expect(confirmed).toMatchObject({
      ok: true,
      paid: true,
      amount: 2500,
      payment_type: "product",
      orderNumber: `ORD-${stripe.sessionId.slice(-8).toUpperCase()}`,
      entryNumber: 0,
    });
    expect(await confirmCheckout(stripeEnv, stripe.sessionId, user, options)).toMatchObject({ ok: true, paid: true });
    const list = await db().select().from(orders).where(eq(orders.checkoutSessionId, stripe.sessionId));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ paymentIntentId: "pi_test_3Q1x2y3z", customerName: "Ada Buyer" });
    expect(stripe.requests.filter((r) => r.method === "GET")).toHaveLength(2);

    // Another user learns nothing.
    const stranger = await makeSessionUser();
    expect(await confirmCheckout(stripeEnv, stripe.sessionId, stranger, options)).toMatchObject({
      ok: false,
      message: "Failed to confirm payment",
    });
  });
});
