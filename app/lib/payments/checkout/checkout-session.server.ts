import { redirectDocument } from "react-router";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { isAccountSuspended } from "~/db/queries/admin.server";
import { expireCheckoutSession, insertCheckoutSession, rekeyCheckoutSession } from "~/db/queries/checkout.server";
import { listShipToCountries } from "~/db/queries/profiles.server";
import type { NewCheckoutSession } from "~/db/schema";
import { CHECKOUT_CURRENCY, GUESS_CHECKOUT_TTL_MS, type CheckoutPurpose } from "~/domain/payments";
import { HOST_DEPOSIT_MAX_CENTS, HOST_DEPOSIT_MIN_CENTS, POOL_MESSAGES } from "~/domain/pool";
import type { SessionUser } from "~/lib/session.server";
import { entryOutlook } from "~/lib/entry-gate.server";
import { NO_ENTRY_CONSENT_TEXT, PURCHASE_NO_ENTRY_TEXT } from "~/domain/spend-limits";
import { randomId } from "../providers/local.server";
import { encodeProductLine } from "../shared/checkout-lines.server";
import { successUrl } from "../shared/payment-records";
import { getPaymentProvider, PaymentsNotConfiguredError } from "../providers/provider.server";
import type { CheckoutLineItem, PaymentProvider, ProviderOptions } from "../providers/types";
import {
  CHECKOUT_MESSAGES,
  fail,
  GUESS_MESSAGES,
  parseGuessChoice,
  parseProductChoice,
  quoteGuess,
  quoteProduct,
  type CheckoutError,
} from "./quote.server";

// Step 2 of the pipeline: a checkout session. A checkout_sessions row is written first (so the webhook can always
// find what was sold), then the provider's hosted session is created; the browser is handed to it.

export type CheckoutResult =
  { ok: true; url: string; sessionId: string; amountCents: number; currency: typeof CHECKOUT_CURRENCY } | CheckoutError;

/**
 * Hands the browser to the checkout page: a full page load (the page is Stripe's, or the local provider's under
 * /api, never a route of this app), so every purpose uses this one helper.
 */
export function redirectToCheckout(result: { url: string }): Response {
  return redirectDocument(result.url);
}

const emailSchema = z
  .string()
  .nullish()
  .transform((v) => (v ?? "").trim().toLowerCase())
  .pipe(z.union([z.literal(""), z.email().max(254)]));

const originSchema = z.url().transform((v) => new URL(v).origin);

function safePath(path: string | undefined, fallback: string): string {
  return path && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : fallback;
}

function absoluteUrl(url: string | null | undefined, origin: string): string | null {
  if (!url) return null;
  try {
    return new URL(url, origin).toString();
  } catch {
    return null;
  }
}

export type ProductCheckoutInput = {
  user: SessionUser | null;
  productId: string;
  sizeName?: string | null;
  colorName?: string | null;
  quantity?: number | string | null;
  customerEmail?: string | null;
  origin: string;
  /** Where Cancel on the checkout page returns to (a same-site path); defaults to the product's buy-now page. */
  cancelPath?: string;
  /** See StartCheckout.noEntryConsent (/buy-now sends it; /payment showed the entry notice already). */
  noEntryConsent?: boolean;
};

/**
 * Starts checkout for one product: validates the choice against the database (size, colour, quantity, stock; not
 * the buyer's own product), prices it from the size row, writes the checkout row and asks the provider for a
 * hosted session.
 */
export async function createProductCheckout(
  env: Env,
  input: ProductCheckoutInput,
  options: ProviderOptions = {},
): Promise<CheckoutResult> {
  if (!input.user) return fail(401, CHECKOUT_MESSAGES.signIn);
  const choice = parseProductChoice(input);
  if (!choice.ok) return choice;
  const email = emailSchema.safeParse(input.customerEmail);
  if (!email.success) return fail(400, CHECKOUT_MESSAGES.invalidEmail, "customerEmail");
  const origin = originSchema.safeParse(input.origin);
  if (!origin.success) return fail(400, CHECKOUT_MESSAGES.failed);
  const user = input.user;
  const db = getDb(env);

  const quote = await quoteProduct(db, choice.value, user.id);
  if (!quote.ok) return quote;
  const { product, size, colour, category, unitPriceCents, amountCents, quantity } = quote;

  const shippingCountries = category === "physical" ? await listShipToCountries(db, product.hostId) : null;

  const variant = colour ? `${size.name}, ${colour.name}` : size.name;
  const description = `${product.name} (${variant})${quantity > 1 ? ` x ${quantity}` : ""}`;
  const metadata: Record<string, string> = {
    purpose: "product",
    ...encodeProductLine([product.id, size.name, colour?.name ?? "", quantity, unitPriceCents]),
    category,
    user_id: user.id,
    host_id: product.hostId,
    description,
  };
  const lineItems: CheckoutLineItem[] = [
    {
      name: product.name,
      description: colour ? `Size ${size.name} · Colour ${colour.name}` : `Size ${size.name}`,
      imageUrl: absoluteUrl(quote.imageUrl, origin.data),
      unitAmountCents: unitPriceCents,
      quantity,
    },
  ];

  return startCheckout(env, origin.data, options, {
    purpose: "product",
    user,
    hostId: product.hostId,
    amountCents,
    customerEmail: email.data || user.email,
    metadata,
    lineItems,
    shippingCountries,
    cancelUrl: `${origin.data}${safePath(input.cancelPath, `/buy-now/${encodeURIComponent(product.id)}`)}`,
    failureMessage: CHECKOUT_MESSAGES.failed,
    ...(input.noEntryConsent === undefined ? {} : { noEntryConsent: input.noEntryConsent }),
  });
}

export const HostDepositSchema = z.object({
  amountCents: z
    .union([z.number(), z.string()])
    .transform((v) => (typeof v === "number" ? v : Number(v.trim())))
    .pipe(
      z
        .number()
        .int()
        .min(HOST_DEPOSIT_MIN_CENTS, POOL_MESSAGES.deposit)
        .max(HOST_DEPOSIT_MAX_CENTS, POOL_MESSAGES.depositMax),
    ),
  origin: originSchema,
});

/** Starts checkout for a host's deposit into their own prize pool (100% goes to the pool, never an entry). */
export async function createHostDepositCheckout(
  env: Env,
  input: { user: SessionUser | null; amountCents: number | string; origin: string; cancelPath?: string },
  options: ProviderOptions = {},
): Promise<CheckoutResult> {
  if (!input.user) return fail(401, CHECKOUT_MESSAGES.signIn);
  const parsed = HostDepositSchema.safeParse(input);
  if (!parsed.success) {
    // Over the maximum says so; anything else (not a whole number of cents, below USD 1) gets the form's text.
    const overMax = parsed.error.issues.some((issue) => issue.message === POOL_MESSAGES.depositMax);
    return fail(400, overMax ? POOL_MESSAGES.depositMax : CHECKOUT_MESSAGES.deposit, "amountCents");
  }
  const { amountCents, origin } = parsed.data;
  const user = input.user;
  const description = "Prize pool deposit";
  return startCheckout(env, origin, options, {
    purpose: "host_deposit",
    user,
    hostId: user.id,
    amountCents,
    customerEmail: user.email,
    metadata: { purpose: "host_deposit", user_id: user.id, host_id: user.id, description },
    lineItems: [
      {
        name: description,
        description: "100% of a deposit goes to your prize pool",
        unitAmountCents: amountCents,
        quantity: 1,
      },
    ],
    shippingCountries: null,
    cancelUrl: `${origin}${safePath(input.cancelPath, "/payment/cancel")}`,
    failureMessage: CHECKOUT_MESSAGES.paymentInitFailed,
  });
}

/**
 * Starts checkout for a paid guess: 100% of the fee goes to the host's prize pool when it is paid; whether the
 * answer is correct is decided on the server and never sent to the browser. A host cannot guess on their own
 * game. The session can be paid for 30 minutes.
 */
export async function createGuessCheckout(
  env: Env,
  input: {
    user: SessionUser | null;
    gameId: string;
    answer: string;
    feeCents?: number | string | null;
    origin: string;
  },
  options: ProviderOptions = {},
): Promise<CheckoutResult> {
  if (!input.user) return fail(401, GUESS_MESSAGES.signIn);
  const origin = originSchema.safeParse(input.origin);
  if (!origin.success) return fail(400, CHECKOUT_MESSAGES.paymentInitFailed);
  const choice = parseGuessChoice(input);
  if (!choice.ok) return choice;
  const user = input.user;
  const quote = await quoteGuess(getDb(env), choice.value, user.id);
  if (!quote.ok) return quote;
  const { game, answer, feeCents } = quote;
  const description = game.question.slice(0, 450);
  return startCheckout(env, origin.data, options, {
    purpose: "guess_entry",
    user,
    hostId: game.hostId,
    amountCents: feeCents,
    customerEmail: user.email,
    metadata: {
      purpose: "guess_entry",
      game_id: game.id,
      answer,
      host_id: game.hostId,
      user_id: user.id,
      description,
      game_question: game.question.slice(0, 450),
      selected_answer: answer.slice(0, 450),
    },
    lineItems: [
      {
        name: `Guess & Win entry: ${game.question}`.slice(0, 250),
        description: `Your answer: ${answer}`.slice(0, 250),
        imageUrl: absoluteUrl(game.imageUrl, origin.data),
        unitAmountCents: feeCents,
        quantity: 1,
      },
    ],
    shippingCountries: null,
    cancelUrl: `${origin.data}/guess-win`,
    failureMessage: CHECKOUT_MESSAGES.paymentInitFailed,
    ttlMs: GUESS_CHECKOUT_TTL_MS,
  });
}

type StartCheckout = {
  purpose: CheckoutPurpose;
  user: SessionUser;
  hostId: string | null;
  amountCents: number;
  customerEmail: string | null;
  metadata: Record<string, string>;
  lineItems: CheckoutLineItem[];
  shippingCountries: string[] | null;
  cancelUrl: string;
  failureMessage: string;
  /** How long the session may be paid for; the provider's default (24 hours) when absent. */
  ttlMs?: number;
  /** When the session stops being payable (30 minutes to 24 hours ahead); wins over `ttlMs`. */
  expiresAt?: Date;
  /** The entries it would earn, per host (a cart's hosts); by default one with `hostId` for its whole amount. */
  entries?: { hostId: string; amountCents: number }[];
  /**
   * false: the page showed nothing about the entry yet (/buy-now), so a purchase that would earn none is stopped
   * once with the reason (409, field `noEntryConsent`) and goes ahead when sent again with consent (true).
   */
  noEntryConsent?: boolean;
};

/** Purposes whose payment earns an entry (a paid guess's is earned when its game ends, if right). */
const ENTRY_PURPOSES: readonly CheckoutPurpose[] = ["product", "cart", "group_buy", "guess_entry"];

/**
 * Every entry check before paying (decision 520): a paid guess that may not count is refused; a purchase goes ahead,
 * and its checkout says it earns no entry (its metadata and the provider's line item).
 */
async function checkoutEntries(
  env: Env,
  c: StartCheckout,
): Promise<{ refused: string } | { noEntry: string[]; message: string | null }> {
  if (!ENTRY_PURPOSES.includes(c.purpose)) return { noEntry: [], message: null };
  const entries = c.entries ?? (c.hostId ? [{ hostId: c.hostId, amountCents: c.amountCents }] : []);
  const noEntry: string[] = [];
  let message: string | null = null;
  const now = new Date();
  for (const entry of entries) {
    const outlook = await entryOutlook(env, {
      userId: c.user.id,
      hostId: entry.hostId,
      route: c.purpose === "guess_entry" ? "paid_guess" : "entry_purchase",
      amountUsdCents: entry.amountCents,
      now,
    });
    if (outlook.expected) continue;
    if (c.purpose === "guess_entry") return { refused: outlook.message };
    noEntry.push(entry.hostId);
    message ??= outlook.message;
  }
  return { noEntry, message };
}

/**
 * Writes the checkout_sessions row under a reference id, creates the provider's session (idempotent per reference)
 * and re-keys the row by the provider's session id. The reference also travels in the session's metadata
 * (checkout_id) and client_reference_id, so the webhook finds the row even if re-keying never happened.
 */
export async function startCheckout(
  env: Env,
  origin: string,
  options: ProviderOptions,
  c: StartCheckout,
): Promise<CheckoutResult> {
  if (c.hostId && (await isAccountSuspended(getDb(env), c.hostId))) return fail(403, CHECKOUT_MESSAGES.hostSuspended);
  const entries = await checkoutEntries(env, c);
  if ("refused" in entries) return fail(403, entries.refused);
  if (entries.noEntry.length > 0 && c.noEntryConsent === false)
    return fail(
      409,
      `${entries.message ?? ""} ${PURCHASE_NO_ENTRY_TEXT} ${NO_ENTRY_CONSENT_TEXT}`.trim(),
      "noEntryConsent",
    );
  if (entries.noEntry.length > 0) {
    // Said before paying, on the provider's page too.
    c.metadata = { ...c.metadata, no_entry_hosts: entries.noEntry.join(",").slice(0, 450) };
    const [first, ...rest] = c.lineItems;
    if (first)
      c.lineItems = [
        { ...first, description: `${PURCHASE_NO_ENTRY_TEXT} ${first.description ?? ""}`.trim().slice(0, 250) },
        ...rest,
      ];
  }
  let provider: PaymentProvider;
  try {
    provider = getPaymentProvider(env, origin, options);
  } catch (error) {
    if (error instanceof PaymentsNotConfiguredError) return fail(503, CHECKOUT_MESSAGES.notConfigured);
    throw error;
  }
  const db = getDb(env);
  const reference = randomId("chk_", 24);
  // needs_shipping: the checkout collects a shipping address (the local checkout page asks for one when it is set).
  const metadata = { ...c.metadata, ...(c.shippingCountries ? { needs_shipping: "1" } : {}), checkout_id: reference };
  const row: NewCheckoutSession = {
    id: reference,
    provider: provider.name,
    purpose: c.purpose,
    userId: c.user.id,
    hostId: c.hostId,
    amountCents: c.amountCents,
    currency: CHECKOUT_CURRENCY,
    customerEmail: c.customerEmail,
    successUrl: successUrl(origin),
    cancelUrl: c.cancelUrl,
    metadata,
  };
  await insertCheckoutSession(db, row);

  let session: Awaited<ReturnType<PaymentProvider["createCheckoutSession"]>>;
  try {
    session = await provider.createCheckoutSession({
      reference,
      purpose: c.purpose,
      currency: CHECKOUT_CURRENCY,
      amountCents: c.amountCents,
      lineItems: c.lineItems,
      metadata,
      customerEmail: c.customerEmail,
      shippingCountries: c.shippingCountries,
      successUrl: row.successUrl,
      cancelUrl: row.cancelUrl,
      ...(c.expiresAt ? { expiresAt: c.expiresAt } : c.ttlMs ? { expiresAt: new Date(Date.now() + c.ttlMs) } : {}),
    });
  } catch (error) {
    console.error("checkout: provider refused to create a session", { reference, provider: provider.name, error });
    await expireCheckoutSession(db, reference);
    return fail(502, c.failureMessage);
  }
  if (!session.url) {
    await expireCheckoutSession(db, reference);
    return fail(502, CHECKOUT_MESSAGES.noUrl);
  }

  try {
    await rekeyCheckoutSession(db, reference, session);
  } catch (error) {
    // The session exists and its metadata names our row: the webhook and the success page still find it.
    console.error("checkout: could not re-key the checkout row", { reference, sessionId: session.id, error });
  }
  return { ok: true, url: session.url, sessionId: session.id, amountCents: c.amountCents, currency: CHECKOUT_CURRENCY };
}
