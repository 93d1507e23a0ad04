import { Hono, type Context } from "hono";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { listShipToCountries } from "~/db/queries/profiles.server";
import { getCheckoutSession, setCheckoutMetadata } from "~/db/queries/checkout.server";
import type { CheckoutSession } from "~/db/schema";
import { formatCents } from "~/domain/money";
import {
  captureLocalPayment,
  deliverLocalEvent,
  LOCAL_DISPUTE_OUTCOMES,
  simulateLocalDispute,
  simulateLocalRefundFailure,
} from "~/lib/payments/providers/local-events.server";
import {
  LOCAL_CHECKOUT_PATH,
  LOCAL_FUNDING_KEY,
  localCheckoutSessionObject,
  localEvent,
} from "~/lib/payments/providers/local.server";
import { LOCAL_CARD_FUNDINGS, type LocalCardFunding } from "~/domain/spend-limits";
import { isLocalPaymentsEnabled } from "~/lib/payments/providers/provider.server";
import type { ShippingAddress } from "~/lib/payments/providers/types";

/**
 * The local provider's checkout page, mounted at /api/local-checkout: what Stripe's hosted page does, with test
 * buttons instead of a card form. Each choice becomes a Stripe-format signed event delivered in-process to the
 * webhook handler, so payments take the same code path as with Stripe. Gone (404) whenever Stripe is configured.
 */
export const localCheckout = new Hono<{ Bindings: Env }>();

type Ctx = Context<{ Bindings: Env }>;

localCheckout.use("*", async (c, next) => {
  if (!isLocalPaymentsEnabled(c.env)) return c.json({ error: "Not found" }, 404);
  await next();
  c.header("Cache-Control", "no-store");
  c.header("X-Frame-Options", "DENY");
  c.header(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
});

const required = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max);

const ShippingSchema = z.object({
  name: required("Please enter the recipient's name", 100),
  street: required("Please enter the street address", 200),
  city: required("Please enter the city", 100),
  state: z.string().trim().max(100).default(""),
  postal_code: required("Please enter the postal code", 20),
  country: z
    .string({ error: "Please enter a two-letter country code" })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "Please enter a two-letter country code"),
});

async function loadSession(env: Env, id: string): Promise<CheckoutSession | undefined> {
  const row = await getCheckoutSession(getDb(env), id);
  return row?.provider === "local" ? row : undefined;
}

function isExpired(row: CheckoutSession): boolean {
  return row.status === "expired" || (row.expiresAt !== null && row.expiresAt.getTime() < Date.now());
}

function successUrlOf(row: CheckoutSession): string {
  return row.successUrl.replace("{CHECKOUT_SESSION_ID}", encodeURIComponent(row.id));
}

/** Whether the checkout collects a shipping address: startCheckout marks those that do (physical items). */
function needsShipping(row: CheckoutSession): boolean {
  return row.metadata.needs_shipping === "1";
}

/** Signs and delivers one event for this session to the webhook handler; null when it was accepted. */
async function deliver(
  c: Ctx,
  row: CheckoutSession,
  type: "checkout.session.completed" | "checkout.session.async_payment_succeeded",
  paymentStatus: "paid" | "unpaid",
  shipping: ShippingAddress | null,
): Promise<string | null> {
  // A paid event is the provider capturing the money: recorded in its own books first (decision 400).
  const event =
    paymentStatus === "paid"
      ? await captureLocalPayment(c.env, row, type, shipping)
      : localEvent(type, localCheckoutSessionObject(row, paymentStatus, shipping));
  const response = await deliverLocalEvent(c.env, event);
  if (response.status === 200) return null;
  console.error("local checkout: the webhook refused an event", { type, session: row.id, status: response.status });
  return `The payment could not be recorded (the webhook answered ${response.status}). Please try again.`;
}

async function readShipping(
  c: Ctx,
  row: CheckoutSession,
): Promise<{ shipping: ShippingAddress | null; error?: string }> {
  if (!needsShipping(row)) return { shipping: null };
  const form = await c.req.parseBody();
  const parsed = ShippingSchema.safeParse(Object.fromEntries(Object.entries(form).map(([k, v]) => [k, String(v)])));
  if (!parsed.success) return { shipping: null, error: parsed.error.issues[0]?.message ?? "Please enter your address" };
  // Like Stripe's allowed_countries: only the countries the host ships to.
  // A cart (several hosts) ships to the one country the fan chose on /cart, which every host of it ships to.
  const allowed =
    row.purpose === "cart"
      ? [row.metadata.ship_to ?? ""]
      : row.hostId
        ? await listShipToCountries(getDb(c.env), row.hostId)
        : [];
  if (!allowed.includes(parsed.data.country)) {
    return {
      shipping: null,
      error: `This shop does not ship to ${parsed.data.country}. It ships to: ${allowed.join(", ")}.`,
    };
  }
  return { shipping: parsed.data };
}

localCheckout.get("/:id", async (c) => {
  const row = await loadSession(c.env, c.req.param("id"));
  if (!row) return c.html(page("Checkout not found", `<p>This checkout does not exist.</p>`), 404);
  return c.html(checkoutPage(row));
});

localCheckout.post("/:id/pay", async (c) => {
  const row = await loadSession(c.env, c.req.param("id"));
  if (!row) return c.html(page("Checkout not found", `<p>This checkout does not exist.</p>`), 404);
  if (row.status !== "open" || row.paymentStatus !== "unpaid" || isExpired(row)) return c.redirect(pathOf(row), 303);
  const { shipping, error } = await readShipping(c, row);
  if (error) return c.html(checkoutPage(row, error), 400);
  const funding = FundingSchema.safeParse((await c.req.parseBody()).funding ?? "debit");
  if (!funding.success) return c.html(checkoutPage(row, "Choose a card type: debit, credit or prepaid."), 400);
  // The card's funding type, as Stripe's charge reports it (the credit-card cap, decision 520).
  await keepFunding(c.env, row, funding.data);
  const failure = await deliver(c, row, "checkout.session.completed", "paid", shipping);
  if (failure) return c.html(checkoutPage(row, failure), 502);
  return c.redirect(successUrlOf(row), 303);
});

const FundingSchema = z.enum(LOCAL_CARD_FUNDINGS);

/** How the buyer paid, kept on the checkout for the provider's funding lookup (never sent in events). */
async function keepFunding(env: Env, row: CheckoutSession, funding: LocalCardFunding | "none"): Promise<void> {
  row.metadata = { ...row.metadata, [LOCAL_FUNDING_KEY]: funding };
  await setCheckoutMetadata(getDb(env), row.id, row.metadata);
}

localCheckout.post("/:id/bank-transfer", async (c) => {
  const row = await loadSession(c.env, c.req.param("id"));
  if (!row) return c.html(page("Checkout not found", `<p>This checkout does not exist.</p>`), 404);
  if (row.status !== "open" || row.paymentStatus !== "unpaid" || isExpired(row)) return c.redirect(pathOf(row), 303);
  const { shipping, error } = await readShipping(c, row);
  if (error) return c.html(checkoutPage(row, error), 400);
  if (shipping) {
    // Stripe keeps the collected address on the session for the later event; so do we.
    row.metadata = { ...row.metadata, local_shipping: JSON.stringify(shipping) };
    await setCheckoutMetadata(getDb(c.env), row.id, row.metadata);
  }
  // A bank transfer is no card: the credit-card cap does not apply to it.
  await keepFunding(c.env, row, "none");
  const failure = await deliver(c, row, "checkout.session.completed", "unpaid", shipping);
  if (failure) return c.html(checkoutPage(row, failure), 502);
  return c.redirect(pathOf(row), 303);
});

localCheckout.post("/:id/bank-transfer/arrive", async (c) => {
  const row = await loadSession(c.env, c.req.param("id"));
  if (!row) return c.html(page("Checkout not found", `<p>This checkout does not exist.</p>`), 404);
  if (row.status !== "complete" || row.paymentStatus !== "unpaid") return c.redirect(pathOf(row), 303);
  const saved = row.metadata.local_shipping;
  const shipping = saved ? (ShippingSchema.safeParse(JSON.parse(saved)).data ?? null) : null;
  const failure = await deliver(c, row, "checkout.session.async_payment_succeeded", "paid", shipping);
  if (failure) return c.html(checkoutPage(row, failure), 502);
  return c.redirect(successUrlOf(row), 303);
});

const DisputeSchema = z.object({
  outcome: z.enum(LOCAL_DISPUTE_OUTCOMES, { error: "Choose how the dispute ends" }),
});

/** Demo only: the buyer's bank disputes a paid payment, ending lost or won (Stripe's charge.dispute.* events). */
localCheckout.post("/:id/dispute", async (c) => {
  const row = await loadSession(c.env, c.req.param("id"));
  if (!row) return c.html(page("Checkout not found", `<p>This checkout does not exist.</p>`), 404);
  const form = await c.req.parseBody();
  const parsed = DisputeSchema.safeParse({ outcome: typeof form.outcome === "string" ? form.outcome : undefined });
  if (!parsed.success)
    return c.html(checkoutPage(row, parsed.error.issues[0]?.message ?? "Choose how the dispute ends"), 400);
  const result = await simulateLocalDispute(c.env, { checkoutSessionId: row.id, outcome: parsed.data.outcome });
  if (!result.ok) return c.html(checkoutPage(row, result.message), 409);
  return c.html(
    checkoutPage(
      row,
      undefined,
      `Dispute ${result.disputeId} ${parsed.data.outcome === "lost" ? "lost: the payment counts as refunded" : "won: the funds were reinstated"}.`,
    ),
  );
});

/** Demo only: a refund of what is left of a paid payment that is pending and then fails (refund.created, refund.failed). */
localCheckout.post("/:id/refund-failure", async (c) => {
  const row = await loadSession(c.env, c.req.param("id"));
  if (!row) return c.html(page("Checkout not found", `<p>This checkout does not exist.</p>`), 404);
  const result = await simulateLocalRefundFailure(c.env, { checkoutSessionId: row.id });
  if (!result.ok) return c.html(checkoutPage(row, result.message), 409);
  return c.html(
    checkoutPage(row, undefined, `Refund ${result.refundId} was pending and then failed: the payment stays paid.`),
  );
});

localCheckout.post("/:id/cancel", async (c) => {
  const row = await loadSession(c.env, c.req.param("id"));
  if (!row) return c.html(page("Checkout not found", `<p>This checkout does not exist.</p>`), 404);
  return c.redirect(row.cancelUrl, 303);
});

// --- HTML ------------------------------------------------------------------------------------------------------

function pathOf(row: CheckoutSession): string {
  return `${LOCAL_CHECKOUT_PATH}/${encodeURIComponent(row.id)}`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f4f5; color: #18181b; margin: 0; padding: 2rem 1rem; }
  main { max-width: 28rem; margin: 0 auto; background: #fff; border-radius: 12px; padding: 1.5rem; box-shadow: 0 1px 3px #0002; }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
  .banner { background: #fef3c7; border: 1px solid #f59e0b; border-radius: 8px; padding: .5rem .75rem; margin: 0 0 1rem; font-size: .9rem; }
  .error { background: #fee2e2; border: 1px solid #ef4444; border-radius: 8px; padding: .5rem .75rem; margin: 0 0 1rem; }
  table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
  td { padding: .4rem 0; vertical-align: top; } td.amount { text-align: right; white-space: nowrap; }
  tr.total td { border-top: 1px solid #e4e4e7; font-weight: 600; padding-top: .6rem; }
  label { display: block; font-size: .85rem; margin: .5rem 0 .2rem; }
  input, select { width: 100%; box-sizing: border-box; padding: .45rem; border: 1px solid #d4d4d8; border-radius: 6px; font: inherit; }
  .buttons { display: grid; gap: .5rem; margin-top: 1rem; }
  button, a.button { font: inherit; padding: .65rem; border-radius: 8px; border: 1px solid #d4d4d8; background: #fff; cursor: pointer; text-align: center; text-decoration: none; color: inherit; }
  button.primary { background: #4f46e5; color: #fff; border-color: #4f46e5; }
  .muted { color: #71717a; font-size: .85rem; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

function summary(row: CheckoutSession): string {
  const quantity = Number(row.metadata.quantity ?? "1") || 1;
  const unit = Number(row.metadata.unit_price_cents ?? row.amountCents) || row.amountCents;
  const label = row.metadata.description ?? (row.purpose === "host_deposit" ? "Prize pool deposit" : "Payment");
  return `<table>
  <tr><td>${escapeHtml(label)}<br><span class="muted">${quantity} × ${escapeHtml(formatCents(unit, row.currency))}</span></td>
      <td class="amount">${escapeHtml(formatCents(row.amountCents, row.currency))}</td></tr>
  <tr class="total"><td>Total</td><td class="amount">${escapeHtml(formatCents(row.amountCents, row.currency))}</td></tr>
</table>`;
}

function shippingFields(): string {
  const field = (name: string, label: string, extra = "") =>
    `<label for="${name}">${label}</label><input id="${name}" name="${name}" ${extra}>`;
  return `<fieldset style="border:0;padding:0;margin:0"><legend><strong>Shipping address</strong></legend>
${field("name", "Full name", 'required autocomplete="name"')}
${field("street", "Street address", 'required autocomplete="street-address"')}
${field("city", "City", 'required autocomplete="address-level2"')}
${field("state", "State / region", 'autocomplete="address-level1"')}
${field("postal_code", "Postal code", 'required autocomplete="postal-code"')}
${field("country", "Country (two-letter code, e.g. MY)", 'required maxlength="2" autocomplete="country"')}
</fieldset>`;
}

function checkoutPage(row: CheckoutSession, error?: string, notice?: string): string {
  const base = pathOf(row);
  const head = `<h1>Test checkout — no real money moves</h1>
<p class="banner">This is the local payment provider. No card is charged; the buttons below send the same signed
events Stripe would.</p>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}${notice ? `<p class="banner" role="status">${escapeHtml(notice)}</p>` : ""}${summary(row)}`;

  if (row.paymentStatus === "paid") {
    return page(
      "Checkout paid",
      `${head}<p>This checkout has been paid.</p><div class="buttons"><a class="button" href="${escapeHtml(successUrlOf(row))}">View payment</a></div>
<form method="post" action="${base}/dispute" class="buttons">
  <p class="muted">Test a chargeback: the buyer's bank disputes this payment.</p>
  <button type="submit" name="outcome" value="lost">Simulate a dispute the shop loses</button>
  <button type="submit" name="outcome" value="won">Simulate a dispute the shop wins</button>
</form>
<form method="post" action="${base}/refund-failure" class="buttons">
  <p class="muted">Test a refund that does not go through: refunded in the provider's dashboard, pending, then failed.</p>
  <button type="submit">Simulate a refund that fails</button>
</form>`,
    );
  }
  if (isExpired(row)) {
    return page(
      "Checkout expired",
      `${head}<p>This checkout has expired. Nothing was charged.</p><div class="buttons"><a class="button" href="${escapeHtml(row.cancelUrl)}">Go back</a></div>`,
    );
  }
  if (row.status === "complete") {
    return page(
      "Waiting for bank transfer",
      `${head}<p><strong>Waiting for your bank transfer.</strong> Nothing is fulfilled until the money arrives.</p>
<form method="post" action="${base}/bank-transfer/arrive" class="buttons">
  <button class="primary" type="submit">Simulate bank transfer arrival</button>
  <a class="button" href="${escapeHtml(successUrlOf(row))}">View payment status</a>
</form>`,
    );
  }
  return page(
    "Test checkout",
    `${head}
<form method="post" action="${base}/pay">
  ${row.customerEmail ? `<p class="muted">Receipt to ${escapeHtml(row.customerEmail)}</p>` : ""}
  ${needsShipping(row) ? shippingFields() : ""}
  <label for="funding">Card type (test)</label>
  <select id="funding" name="funding">${LOCAL_CARD_FUNDINGS.map((f) => `<option value="${f}">${f[0]!.toUpperCase()}${f.slice(1)} card</option>`).join("")}</select>
  <div class="buttons">
    <button class="primary" type="submit">Pay with card (test)</button>
    <button type="submit" formaction="${base}/bank-transfer">Bank transfer (delayed)</button>
    <button type="submit" formaction="${base}/cancel" formnovalidate>Cancel</button>
  </div>
</form>`,
  );
}
