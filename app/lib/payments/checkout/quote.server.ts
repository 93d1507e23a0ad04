import { z } from "zod";
import type { Db } from "~/db/client.server";
import { getActiveGameForGuess } from "~/db/queries/games.server";
import { getProductVariants, type ProductVariants } from "~/db/queries/products.server";
import { GAME_ENTRY_FEE_MAX_CENTS, productCategory } from "~/domain/catalog";
import { MAX_ORDER_QUANTITY } from "~/domain/orders";
import { MAX_CHARGE_CENTS, MIN_CHARGE_CENTS, purchaseChargeCents, toCheckoutCents } from "~/domain/payments";
import { GUESS_WIN_MESSAGES } from "~/lib/guess-win";

// Step 1 of the pipeline: pricing a choice from the database (never from the request). The payment review page
// shows a quote; a checkout session charges it.

export const CHECKOUT_MESSAGES = {
  signIn: "Please sign in to make a payment",
  productNotFound: "Product not found",
  chooseSize: "Please choose a size",
  chooseColour: "Please choose a colour",
  quantity: `Please choose a quantity from 1 to ${MAX_ORDER_QUANTITY}`,
  singleUnit: "Vouchers and digital items are sold one at a time",
  outOfStock: "Sorry, this item is out of stock",
  belowMinimum: "The total is below the minimum card payment (USD 0.50)",
  invalidEmail: "Please enter a valid email address",
  deposit: "Please enter a valid deposit amount (minimum USD 1).",
  ownProduct: "You cannot buy your own products.",
  /** The product checkout's failure text ('Unable to start checkout: Checkout failed'). */
  failed: "Checkout failed",
  /** The host-side payment failure text (deposits). */
  paymentInitFailed: "Payment initialization failed. Please try again.",
  noUrl: "No checkout URL returned",
  notConfigured: "Payments are not configured",
  /** The host's account is suspended by the platform owner. */
  hostSuspended: "This shop is not available right now, so it cannot take payments.",
} as const;

export const GUESS_MESSAGES = {
  signIn: "Please sign in to play",
  gameNotFound: "This game is not open for guesses",
  chooseAnswer: "Please select an answer first!",
  fee: "Please enter an entry fee from the game's minimum up to USD 100",
  ownGame: GUESS_WIN_MESSAGES.ownGame,
} as const;

export function onlyLeftMessage(units: number): string {
  return `Only ${units} left in stock`;
}

/** The most a fan may pay for one guess (USD 100). */
export const MAX_GUESS_FEE_CENTS = GAME_ENTRY_FEE_MAX_CENTS;

export type CheckoutError = {
  ok: false;
  status: 400 | 401 | 403 | 404 | 409 | 502 | 503;
  message: string;
  field?: "productId" | "sizeName" | "colorName" | "quantity" | "customerEmail" | "amountCents" | "noEntryConsent";
};

export const fail = (
  status: CheckoutError["status"],
  message: string,
  field?: CheckoutError["field"],
): CheckoutError => ({
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
  .pipe(z.number().int().min(1).max(MAX_ORDER_QUANTITY));

/**
 * A product choice, as buy-now's form, /payment's address (?product&size&colour&qty) and a JSON body send it:
 * the one schema all of them parse. Anything else (a price, an amount) is ignored.
 */
export const ProductChoiceSchema = z.object({
  productId: z.string({ error: CHECKOUT_MESSAGES.productNotFound }).trim().min(1).max(100),
  sizeName: optionalText,
  colorName: optionalText,
  quantity: quantitySchema,
});
export type ProductChoice = z.output<typeof ProductChoiceSchema>;

const CHOICE_FIELDS: Record<
  string,
  { message: string; field: CheckoutError["field"]; status: CheckoutError["status"] }
> = {
  productId: { message: CHECKOUT_MESSAGES.productNotFound, field: "productId", status: 404 },
  sizeName: { message: CHECKOUT_MESSAGES.chooseSize, field: "sizeName", status: 400 },
  colorName: { message: CHECKOUT_MESSAGES.chooseColour, field: "colorName", status: 400 },
  quantity: { message: CHECKOUT_MESSAGES.quantity, field: "quantity", status: 400 },
};

/** Parses a product choice; a bad field answers with its own message. */
export function parseProductChoice(input: Record<string, unknown>): { ok: true; value: ProductChoice } | CheckoutError {
  const parsed = ProductChoiceSchema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const known = CHOICE_FIELDS[String(parsed.error.issues[0]?.path[0] ?? "")];
  return known ? fail(known.status, known.message, known.field) : fail(400, CHECKOUT_MESSAGES.failed);
}

export type ProductQuote = {
  ok: true;
  product: ProductVariants["product"];
  size: ProductVariants["sizes"][number];
  colour: ProductVariants["colours"][number] | undefined;
  category: ReturnType<typeof productCategory>;
  imageUrl: string | null;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
};

/**
 * Prices a product choice from the database (size, colour, quantity and stock checked) without starting a
 * checkout. `buyerId` refuses a host's own product.
 */
export async function quoteProduct(
  db: Db,
  choice: ProductChoice,
  buyerId?: string,
): Promise<ProductQuote | CheckoutError> {
  const quote = quoteVariants(await getProductVariants(db, choice.productId), choice, buyerId);
  if (!quote.ok) return quote;
  if (quote.amountCents < MIN_CHARGE_CENTS) return fail(400, CHECKOUT_MESSAGES.belowMinimum);
  if (quote.amountCents > MAX_CHARGE_CENTS) return fail(400, CHECKOUT_MESSAGES.quantity, "quantity");
  return quote;
}

/**
 * Prices one line of a purchase from its product as loaded (size, colour, quantity and stock checked; `buyerId`
 * refuses a host's own product), without the card-charge limits: a cart prices each line with this and checks the
 * limits on its total.
 */
export function quoteVariants(
  found: ProductVariants | undefined,
  choice: ProductChoice,
  buyerId?: string,
): ProductQuote | CheckoutError {
  if (!found || found.product.status !== "active") return fail(404, CHECKOUT_MESSAGES.productNotFound, "productId");
  const { product, sizes, colours, imageUrl } = found;
  if (buyerId && product.hostId === buyerId) return fail(403, CHECKOUT_MESSAGES.ownProduct, "productId");
  const { quantity } = choice;

  const size = choice.sizeName ? sizes.find((s) => s.name === choice.sizeName) : undefined;
  if (!size) return fail(400, CHECKOUT_MESSAGES.chooseSize, "sizeName");
  const colour = colours.length > 0 ? colours.find((c) => c.name === choice.colorName) : undefined;
  if (colours.length > 0 && !colour) return fail(400, CHECKOUT_MESSAGES.chooseColour, "colorName");

  const category = productCategory(product.category);
  if (category !== "physical" && quantity > 1) return fail(400, CHECKOUT_MESSAGES.singleUnit, "quantity");

  const available = Math.min(size.availableUnits, colour ? colour.availableUnits : Number.POSITIVE_INFINITY);
  if (available <= 0) return fail(409, CHECKOUT_MESSAGES.outOfStock, "quantity");
  if (quantity > available) return fail(409, onlyLeftMessage(available), "quantity");

  const unitPriceCents = toCheckoutCents(size.priceCents, size.currency);
  const amountCents = purchaseChargeCents(unitPriceCents, quantity);
  return { ok: true, product, size, colour, category, imageUrl, quantity, unitPriceCents, amountCents };
}

/** A paid guess as the review page, the guess form and the checkout send it: the one schema they parse. */
export const GuessChoiceSchema = z.object({
  gameId: z.string().trim().min(1).max(100),
  answer: z.string().min(1).max(500),
  /** Whole cents (a number, or digits); absent means the game's minimum. */
  feeCents: z
    .union([z.number(), z.string().max(12)])
    .nullish()
    .transform((v) =>
      v === undefined || v === null || v === "" ? undefined : typeof v === "number" ? v : Number(v.trim()),
    ),
});
export type GuessChoice = z.output<typeof GuessChoiceSchema>;

/** Parses a guess choice; a bad field answers with its own message. */
export function parseGuessChoice(input: Record<string, unknown>): { ok: true; value: GuessChoice } | CheckoutError {
  const parsed = GuessChoiceSchema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const key = String(parsed.error.issues[0]?.path[0] ?? "");
  if (key === "answer") return fail(400, GUESS_MESSAGES.chooseAnswer);
  if (key === "feeCents") return fail(400, GUESS_MESSAGES.fee, "amountCents");
  return fail(404, GUESS_MESSAGES.gameNotFound);
}

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
 * a whole number of cents from the game's entry fee (in USD) up to USD 100. No fee means the minimum. `guesserId`
 * refuses a host's guess on their own game.
 */
export async function quoteGuess(db: Db, choice: GuessChoice, guesserId?: string): Promise<GuessQuote> {
  const game = await getActiveGameForGuess(db, choice.gameId);
  if (!game) return fail(404, GUESS_MESSAGES.gameNotFound);
  if (guesserId && game.hostId === guesserId) return fail(403, GUESS_MESSAGES.ownGame);
  if (!game.options.includes(choice.answer)) return fail(400, GUESS_MESSAGES.chooseAnswer);
  const minFeeCents = Math.max(MIN_CHARGE_CENTS, toCheckoutCents(game.entryFeeCents, game.currency));
  const fee = choice.feeCents ?? minFeeCents;
  if (!Number.isSafeInteger(fee) || fee < minFeeCents || fee > MAX_GUESS_FEE_CENTS) {
    return fail(400, GUESS_MESSAGES.fee, "amountCents");
  }
  return { ok: true, game, answer: choice.answer, minFeeCents, feeCents: fee };
}
