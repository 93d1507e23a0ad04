import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { listShipToCountries } from "~/db/queries/profiles.server";
import {
  checkoutSessions,
  productColors,
  productImages,
  products,
  productSizes,
  type NewCheckoutSession,
} from "~/db/schema";
import { isAccountSuspended } from "~/db/queries/admin.server";
import { getActiveGameForGuess } from "~/db/queries/games.server";
import { GAME_ENTRY_FEE_MAX_CENTS, productCategory } from "~/domain/catalog";
import { convertCents, isSupportedCurrency } from "~/domain/currency";
import type { SessionUser } from "~/lib/session.server";
import { randomId } from "./payments/local.server";
import {
  getPaymentProvider,
  PaymentsNotConfiguredError,
  type CheckoutLineItem,
  type CheckoutPurpose,
  type PaymentProvider,
  type ProviderOptions,
} from "./payments/provider.server";

// Starting a hosted checkout: every amount comes from the database, never from the request. A checkout_sessions
// row is written first (so the webhook can always find what was sold), then the provider's session is created.

export const CHECKOUT_MESSAGES = {
  signIn: "Please sign in to make a payment",
  productNotFound: "Product not found",
  chooseSize: "Please choose a size",
  chooseColour: "Please choose a colour",
  quantity: "Please choose a quantity from 1 to 99",
  singleUnit: "Vouchers and digital items are sold one at a time",
  outOfStock: "Sorry, this item is out of stock",
  belowMinimum: "The total is below the minimum card payment (USD 0.50)",
  invalidEmail: "Please enter a valid email address",
  deposit: "Please enter a valid deposit amount (minimum USD 1).",
  /** The product checkout's failure text ('Unable to start checkout: Checkout failed'). */
  failed: "Checkout failed",
  /** The host-side payment failure text (deposits). */
  paymentInitFailed: "Payment initialization failed. Please try again.",
  noUrl: "No checkout URL returned",
  notConfigured: "Payments are not configured",
  /** The host's account is suspended by the platform owner. */
  hostSuspended: "This shop is not available right now, so it cannot take payments.",
} as const;

export function onlyLeftMessage(units: number): string {
  return `Only ${units} left in stock`;
}

/** Checkout is created in USD (the spec); prices are stored in USD. */
export const CHECKOUT_CURRENCY = "USD" as const;
/** Stripe's smallest USD card charge. */
export const MIN_CHARGE_CENTS = 50;
export const MAX_QUANTITY = 99;
export const MIN_DEPOSIT_CENTS = 100;
/** Stripe's largest USD Checkout amount (999,999.99). */
export const MAX_CHARGE_CENTS = 99_999_999;

export type CheckoutError = {
  ok: false;
  status: 400 | 401 | 403 | 404 | 409 | 502 | 503;
  message: string;
  field?: "productId" | "sizeName" | "colorName" | "quantity" | "customerEmail" | "amountCents";
};
export type CheckoutResult =
  | { ok: true; url: string; sessionId: string; amountCents: number; currency: "USD" }
  | CheckoutError;

const fail = (status: CheckoutError["status"], message: string, field?: CheckoutError["field"]): CheckoutError => ({
  ok: false,
  status,
  message,
  ...(field ? { field } : {}),
});

const optionalText = z
  .string()
  .nullish()
  .transform((v) => (v ?? "").trim())
  .pipe(z.string().max(100));

const quantitySchema = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v) => (v === undefined || v === null || v === "" ? 1 : typeof v === "number" ? v : Number(v.trim())))
  .pipe(z.number().int().min(1).max(MAX_QUANTITY));

const emailSchema = z
  .string()
  .nullish()
  .transform((v) => (v ?? "").trim().toLowerCase())
  .pipe(z.union([z.literal(""), z.email().max(254)]));

const originSchema = z.url().transform((v) => new URL(v).origin);

/** What a buy-now form or JSON body may send. Anything else (a price, an amount) is ignored. */
export const ProductCheckoutSchema = z.object({
  productId: z.string({ error: CHECKOUT_MESSAGES.productNotFound }).trim().min(1).max(100),
  sizeName: optionalText,
  colorName: optionalText,
  quantity: quantitySchema,
  /** The buyer's display currency; the charge is always USD. */
  currency: z.unknown().optional(),
  customerEmail: emailSchema,
  origin: originSchema,
  /** Where Cancel on the checkout page returns to (a same-site path); defaults to the product's buy-now page. */
  cancelPath: z.string().startsWith("/").max(300).optional(),
});

export type ProductCheckoutInput = {
  user: SessionUser | null;
  productId: unknown;
  sizeName?: unknown;
  colorName?: unknown;
  quantity?: unknown;
  currency?: unknown;
  customerEmail?: unknown;
  origin: string;
  cancelPath?: string;
};

const FIELD_MESSAGES: Record<string, { message: string; field: CheckoutError["field"] }> = {
  productId: { message: CHECKOUT_MESSAGES.productNotFound, field: "productId" },
  sizeName: { message: CHECKOUT_MESSAGES.chooseSize, field: "sizeName" },
  colorName: { message: CHECKOUT_MESSAGES.chooseColour, field: "colorName" },
  quantity: { message: CHECKOUT_MESSAGES.quantity, field: "quantity" },
  customerEmail: { message: CHECKOUT_MESSAGES.invalidEmail, field: "customerEmail" },
};

function safePath(path: string | undefined, fallback: string): string {
  return path && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : fallback;
}

/** The success address, in Stripe's template form (the provider fills in the session id). */
export function successUrl(origin: string): string {
  return `${origin}/payment/success?session_id={CHECKOUT_SESSION_ID}`;
}

/** A size price in USD cents (prices are stored in USD; a row in another table currency is converted). */
function toUsdCents(cents: number, currency: string): number {
  return currency === CHECKOUT_CURRENCY || !isSupportedCurrency(currency)
    ? cents
    : convertCents(cents, currency, CHECKOUT_CURRENCY);
}

function absoluteUrl(url: string | null | undefined, origin: string): string | null {
  if (!url) return null;
  try {
    return new URL(url, origin).toString();
  } catch {
    return null;
  }
}

export type ProductQuote = {
  ok: true;
  product: { id: string; hostId: string; name: string; category: string | null; status: string };
  size: typeof productSizes.$inferSelect;
  colour: typeof productColors.$inferSelect | undefined;
  category: ReturnType<typeof productCategory>;
  imageUrl: string | null;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
};

/**
 * Prices a product choice from the database (size, colour, quantity and stock checked) without starting a
 * checkout: the payment review page shows it, and createProductCheckout charges it.
 */
export async function quoteProduct(
  db: ReturnType<typeof getDb>,
  { productId, sizeName, colorName, quantity }: { productId: string; sizeName?: string; colorName?: string; quantity: number },
): Promise<ProductQuote | CheckoutError> {
  const [product] = await db
    .select({
      id: products.id,
      hostId: products.hostId,
      name: products.name,
      category: products.category,
      status: products.status,
    })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  if (!product || product.status !== "active") return fail(404, CHECKOUT_MESSAGES.productNotFound, "productId");

  const [sizes, colours, [image]] = await Promise.all([
    db
      .select()
      .from(productSizes)
      .where(eq(productSizes.productId, product.id))
      .orderBy(asc(productSizes.position))
      .limit(50),
    db
      .select()
      .from(productColors)
      .where(eq(productColors.productId, product.id))
      .orderBy(asc(productColors.position))
      .limit(50),
    db
      .select({ url: productImages.url })
      .from(productImages)
      .where(eq(productImages.productId, product.id))
      .orderBy(asc(productImages.position))
      .limit(1),
  ]);

  const size = sizeName ? sizes.find((s) => s.name === sizeName) : undefined;
  if (!size) return fail(400, CHECKOUT_MESSAGES.chooseSize, "sizeName");
  const colour = colours.length > 0 ? colours.find((c) => c.name === colorName) : undefined;
  if (colours.length > 0 && !colour) return fail(400, CHECKOUT_MESSAGES.chooseColour, "colorName");

  const category = productCategory(product.category);
  if (category !== "physical" && quantity > 1) return fail(400, CHECKOUT_MESSAGES.singleUnit, "quantity");

  const available = Math.min(size.availableUnits, colour ? colour.availableUnits : Number.POSITIVE_INFINITY);
  if (available <= 0) return fail(409, CHECKOUT_MESSAGES.outOfStock, "quantity");
  if (quantity > available) return fail(409, onlyLeftMessage(available), "quantity");

  const unitPriceCents = toUsdCents(size.priceCents, size.currency);
  const amountCents = unitPriceCents * quantity;
  if (amountCents < MIN_CHARGE_CENTS) return fail(400, CHECKOUT_MESSAGES.belowMinimum);
  if (amountCents > MAX_CHARGE_CENTS) return fail(400, CHECKOUT_MESSAGES.quantity, "quantity");

  return { ok: true, product, size, colour, category, imageUrl: image?.url ?? null, quantity, unitPriceCents, amountCents };
}

/**
 * Starts checkout for one product: validates the choice against the database (size, colour, quantity, stock),
 * prices it from the size row, writes the checkout_sessions row and asks the provider for a hosted session.
 */
export async function createProductCheckout(
  env: Env,
  input: ProductCheckoutInput,
  options: ProviderOptions = {},
): Promise<CheckoutResult> {
  if (!input.user) return fail(401, CHECKOUT_MESSAGES.signIn);
  const parsed = ProductCheckoutSchema.safeParse(input);
  if (!parsed.success) {
    const key = String(parsed.error.issues[0]?.path[0] ?? "");
    const known = FIELD_MESSAGES[key];
    return known ? fail(key === "productId" ? 404 : 400, known.message, known.field) : fail(400, CHECKOUT_MESSAGES.failed);
  }
  const { productId, sizeName, colorName, quantity, customerEmail, origin, cancelPath } = parsed.data;
  const user = input.user;
  const db = getDb(env);

  const quote = await quoteProduct(db, { productId, sizeName, colorName, quantity });
  if (!quote.ok) return quote;
  const { product, size, colour, category, unitPriceCents, amountCents } = quote;
  const image = quote.imageUrl ? { url: quote.imageUrl } : undefined;

  const shippingCountries = category === "physical" ? await listShipToCountries(db, product.hostId) : null;

  const variant = colour ? `${size.name}, ${colour.name}` : size.name;
  const description = `${product.name} (${variant})${quantity > 1 ? ` x ${quantity}` : ""}`;
  const metadata: Record<string, string> = {
    purpose: "product",
    product_id: product.id,
    category,
    size: size.name,
    ...(colour ? { color: colour.name } : {}),
    quantity: String(quantity),
    unit_price_cents: String(unitPriceCents),
    user_id: user.id,
    host_id: product.hostId,
    description,
  };
  const lineItems: CheckoutLineItem[] = [
    {
      name: product.name,
      description: colour ? `Size ${size.name} · Colour ${colour.name}` : `Size ${size.name}`,
      imageUrl: absoluteUrl(image?.url, origin),
      unitAmountCents: unitPriceCents,
      quantity,
    },
  ];

  return startCheckout(env, origin, options, {
    purpose: "product",
    user,
    hostId: product.hostId,
    amountCents,
    customerEmail: customerEmail || user.email,
    metadata,
    lineItems,
    shippingCountries,
    cancelUrl: `${origin}${safePath(cancelPath, `/buy-now/${encodeURIComponent(product.id)}`)}`,
    failureMessage: CHECKOUT_MESSAGES.failed,
  });
}

export const HostDepositSchema = z.object({
  amountCents: z
    .union([z.number(), z.string()])
    .transform((v) => (typeof v === "number" ? v : Number(v.trim())))
    .pipe(z.number().int().min(MIN_DEPOSIT_CENTS).max(MAX_CHARGE_CENTS)),
  origin: originSchema,
});

/** Starts checkout for a host's deposit into their own prize pool (100% goes to the pool). */
export async function createHostDepositCheckout(
  env: Env,
  input: { user: SessionUser | null; amountCents: unknown; origin: string; cancelPath?: string },
  options: ProviderOptions = {},
): Promise<CheckoutResult> {
  if (!input.user) return fail(401, CHECKOUT_MESSAGES.signIn);
  const parsed = HostDepositSchema.safeParse(input);
  if (!parsed.success) return fail(400, CHECKOUT_MESSAGES.deposit, "amountCents");
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

export const GUESS_MESSAGES = {
  signIn: "Please sign in to play",
  gameNotFound: "This game is not open for guesses",
  chooseAnswer: "Please select an answer first!",
  fee: "Please enter an entry fee from the game's minimum up to USD 100",
} as const;

/** The most a fan may pay for one guess (USD 100). */
export const MAX_GUESS_FEE_CENTS = GAME_ENTRY_FEE_MAX_CENTS;

export type GuessQuote =
  | {
      ok: true;
      game: NonNullable<Awaited<ReturnType<typeof getActiveGameForGuess>>>;
      answer: string;
      minFeeCents: number;
      feeCents: number;
    }
  | CheckoutError;

/**
 * Checks a paid guess against the database: the game is active, the answer is one of its options, and the fee is
 * a whole number of cents from the game's entry fee (in USD) up to USD 100. No fee means the minimum.
 */
export async function quoteGuess(
  db: ReturnType<typeof getDb>,
  { gameId, answer, feeCents }: { gameId: unknown; answer: unknown; feeCents?: unknown },
): Promise<GuessQuote> {
  const id = typeof gameId === "string" ? gameId.trim() : "";
  if (!id || id.length > 100) return fail(404, GUESS_MESSAGES.gameNotFound);
  const game = await getActiveGameForGuess(db, id);
  if (!game) return fail(404, GUESS_MESSAGES.gameNotFound);
  const chosen = typeof answer === "string" ? answer : "";
  if (!chosen || !game.options.includes(chosen)) return fail(400, GUESS_MESSAGES.chooseAnswer);
  const minFeeCents = Math.max(MIN_CHARGE_CENTS, toUsdCents(game.entryFeeCents, game.currency));
  const raw = feeCents === undefined || feeCents === null || feeCents === "" ? minFeeCents : Number(feeCents);
  if (!Number.isSafeInteger(raw) || raw < minFeeCents || raw > MAX_GUESS_FEE_CENTS) {
    return fail(400, GUESS_MESSAGES.fee, "amountCents");
  }
  return { ok: true, game, answer: chosen, minFeeCents, feeCents: raw };
}

/**
 * Starts checkout for a paid guess: 100% of the fee goes to the host's prize pool when it is paid; whether the
 * answer is correct is decided by fulfilment on the server and never sent to the browser.
 */
export async function createGuessCheckout(
  env: Env,
  input: { user: SessionUser | null; gameId: unknown; answer: unknown; feeCents?: unknown; origin: string },
  options: ProviderOptions = {},
): Promise<CheckoutResult> {
  if (!input.user) return fail(401, GUESS_MESSAGES.signIn);
  const origin = originSchema.safeParse(input.origin);
  if (!origin.success) return fail(400, CHECKOUT_MESSAGES.paymentInitFailed);
  const user = input.user;
  const quote = await quoteGuess(getDb(env), input);
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
};

/**
 * Writes the checkout_sessions row under a reference id, creates the provider's session (idempotent per reference)
 * and re-keys the row by the provider's session id. The reference also travels in the session's metadata
 * (checkout_id) and client_reference_id, so the webhook finds the row even if re-keying never happened.
 */
async function startCheckout(env: Env, origin: string, options: ProviderOptions, c: StartCheckout): Promise<CheckoutResult> {
  if (c.hostId && (await isAccountSuspended(getDb(env), c.hostId))) return fail(403, CHECKOUT_MESSAGES.hostSuspended);
  let provider: PaymentProvider;
  try {
    provider = getPaymentProvider(env, origin, options);
  } catch (error) {
    if (error instanceof PaymentsNotConfiguredError) return fail(503, CHECKOUT_MESSAGES.notConfigured);
    throw error;
  }
  const db = getDb(env);
  const reference = randomId("chk_", 24);
  const metadata = { ...c.metadata, checkout_id: reference };
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
  await db.insert(checkoutSessions).values(row);

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
    });
  } catch (error) {
    console.error("checkout: provider refused to create a session", { reference, provider: provider.name, error });
    await db.update(checkoutSessions).set({ status: "expired" }).where(eq(checkoutSessions.id, reference));
    return fail(502, c.failureMessage);
  }
  if (!session.url) {
    await db.update(checkoutSessions).set({ status: "expired" }).where(eq(checkoutSessions.id, reference));
    return fail(502, CHECKOUT_MESSAGES.noUrl);
  }

  try {
    await db
      .update(checkoutSessions)
      .set({ id: session.id, url: session.url, expiresAt: session.expiresAt })
      .where(eq(checkoutSessions.id, reference));
  } catch (error) {
    // The session exists and its metadata names our row: the webhook and the success page still find it.
    console.error("checkout: could not re-key the checkout row", { reference, sessionId: session.id, error });
  }
  return { ok: true, url: session.url, sessionId: session.id, amountCents: c.amountCents, currency: CHECKOUT_CURRENCY };
}
