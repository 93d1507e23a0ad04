import { env as workerEnv } from "cloudflare:workers";
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import {
  addCartItem,
  changeCartItem,
  listCartHosts,
  listCartLines,
  removeCartItem,
  replaceCartLines,
} from "~/db/queries/cart.server";
import { getProductShipping, getProductVariants, type ProductVariants } from "~/db/queries/products.server";
import type { ViewerKey } from "~/db/queries/sessions.server";
import { listShipToCountries } from "~/db/queries/profiles.server";
import {
  addCartLine,
  CART_MESSAGES,
  cartItemCount,
  changeCartLine,
  decodeCartLines,
  encodeCartLines,
  groupByHost,
  MAX_CART_LINES,
  maxLineQuantity,
  mergeCartLines,
  notShippingMessage,
  onlyOption,
  type CartLine,
} from "~/domain/cart";
import { productCategory } from "~/domain/catalog";
import { countryByCode, isCountryCode } from "~/domain/currency";
import { MAX_ORDER_QUANTITY } from "~/domain/orders";
import { MAX_CHARGE_CENTS, MIN_CHARGE_CENTS } from "~/domain/payments";
import { CART_COOKIE, readCookie } from "./cookies.server";
import {
  CHECKOUT_MESSAGES,
  ProductChoiceSchema,
  quoteVariants,
  type ProductQuote,
} from "./payments/checkout/quote.server";
import type { SessionUser } from "./session.server";

// The cart: a signed-in fan's lives in D1 (cart_items), a visitor's in a signed cookie that carries only product,
// size, colour and quantity. Both are priced and checked from the database whenever they are shown or paid; at
// sign-in the visitor's cart is merged into the account's.

export { CART_COOKIE };
const CART_COOKIE_DAYS = 30;

function signature(value: string): string | null {
  const secret = workerEnv.SESSION_SECRET;
  if (!secret) return null;
  return createHmac("sha256", `cart:${secret}`).update(value).digest("base64url");
}

/** The visitor's cart from its cookie; an unsigned, forged or malformed cookie is an empty cart. */
export function readVisitorCart(request: Request): CartLine[] {
  const raw = readCookie(request, CART_COOKIE);
  if (!raw) return [];
  const dot = raw.lastIndexOf(".");
  if (dot <= 0) return [];
  const value = raw.slice(0, dot);
  const expected = signature(value);
  const given = Buffer.from(raw.slice(dot + 1));
  if (!expected || given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) return [];
  try {
    return decodeCartLines(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    return [];
  }
}

/** The Set-Cookie header that stores a visitor's cart (an empty cart clears the cookie). */
export function visitorCartCookie(lines: readonly CartLine[]): string {
  const value = Buffer.from(encodeCartLines(lines), "utf8").toString("base64url");
  const sig = lines.length > 0 ? signature(value) : null;
  return `${CART_COOKIE}=${sig ? `${value}.${sig}` : ""}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${sig ? CART_COOKIE_DAYS * 24 * 60 * 60 : 0}`;
}

/** The nav bar's count: from the session's query for a fan, from the cookie for a visitor. */
export function cartCount(user: SessionUser | null, request: Request): number {
  return user ? (user.cartItems ?? 0) : cartItemCount(readVisitorCart(request));
}

/**
 * At sign-in: the visitor's cart (if any) is merged into the account's, and the Set-Cookie header that clears the
 * cookie is returned (null when there was no cookie).
 */
export async function mergeVisitorCart(db: Db, userId: string, request: Request): Promise<string | null> {
  if (!readCookie(request, CART_COOKIE)) return null;
  const visitor = readVisitorCart(request);
  if (visitor.length > 0) {
    const account = await listCartLines(db, userId);
    await replaceCartLines(db, userId, mergeCartLines(account, visitor));
  }
  return visitorCartCookie([]);
}

// --- changing a cart ---------------------------------------------------------------------------------------------

export type CartError = { ok: false; status: 400 | 403 | 404 | 409; message: string };
const refuse = (status: CartError["status"], message: string): CartError => ({ ok: false, status, message });

const lineText = z
  .string()
  .nullish()
  .transform((v) => (v ?? "").trim())
  .pipe(z.string().max(100));

/** A line of the cart named by /cart's forms, with the new quantity for an update. */
export const CartLineSchema = z.object({
  productId: z.string({ error: CART_MESSAGES.notInCart }).trim().min(1, CART_MESSAGES.notInCart).max(100),
  sizeName: lineText,
  colorName: lineText,
});
/**
 * /cart's change of a line: the line (product, size, colour as it is in the cart), its new quantity, and its new
 * size and colour (absent: unchanged).
 */
export const CartLineChangeSchema = CartLineSchema.extend({
  quantity: z.coerce
    .number({ error: CHECKOUT_MESSAGES.quantity })
    .int(CHECKOUT_MESSAGES.quantity)
    .min(1, CHECKOUT_MESSAGES.quantity)
    .max(MAX_ORDER_QUANTITY, CHECKOUT_MESSAGES.quantity),
  newSizeName: z.string().trim().max(100, CHECKOUT_MESSAGES.chooseSize).optional(),
  newColorName: z.string().trim().max(100, CHECKOUT_MESSAGES.chooseColour).optional(),
});

type Holder = { user: SessionUser | null; request: Request };
export type CartChange = { ok: true; message: string; setCookie: string | null };

/** The lines of whoever is asking: the account's or the visitor's cookie's. */
export function loadCartLines(db: Db, holder: Holder): Promise<CartLine[]> {
  return holder.user ? listCartLines(db, holder.user.id) : Promise.resolve(readVisitorCart(holder.request));
}

/**
 * Add to Cart: the choice is parsed with the product-choice schema, the product must be for sale and not the fan's
 * own, the size and colour must exist and be chosen (a post without them, as a /shop card's one-click add sends,
 * takes the product's only size and colour, and is refused for a product with more than one of either: decision
 * 600), and the line's quantity never passes the stock, the single-unit rule or the order maximum.
 */
export async function addToCart(
  db: Db,
  holder: Holder,
  input: Record<string, unknown>,
): Promise<CartChange | CartError> {
  const parsed = ProductChoiceSchema.safeParse(input);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "");
    if (field === "quantity") return refuse(400, CHECKOUT_MESSAGES.quantity);
    if (field === "productId") return refuse(404, CHECKOUT_MESSAGES.productNotFound);
    return refuse(400, field === "colorName" ? CHECKOUT_MESSAGES.chooseColour : CHECKOUT_MESSAGES.chooseSize);
  }
  const choice = parsed.data;
  const found = await getProductVariants(db, choice.productId);
  if (found) {
    // Only a product's only size and colour are taken without a choice (docs/product.md#cart-and-checkout).
    if (!choice.sizeName) {
      const only = onlyOption(found.sizes);
      if (only === null) return refuse(400, CHECKOUT_MESSAGES.chooseSize);
      choice.sizeName = only;
    }
    if (!choice.colorName && found.colours.length > 0) {
      const only = onlyOption(found.colours);
      if (only === null) return refuse(400, CHECKOUT_MESSAGES.chooseColour);
      choice.colorName = only;
    }
  }
  const lines = await loadCartLines(db, holder);
  const key = {
    productId: choice.productId,
    sizeName: choice.sizeName,
    colorName: found?.colours.length ? choice.colorName : "",
  };
  const inCart = lines.find(
    (l) => l.productId === key.productId && l.sizeName === key.sizeName && l.colorName === key.colorName,
  );
  // The whole line after adding must still be sellable: the stock and limits are checked on its new quantity.
  const quote = quoteVariants(
    found,
    { ...choice, quantity: Math.min(MAX_ORDER_QUANTITY, (inCart?.quantity ?? 0) + choice.quantity) },
    holder.user?.id,
  );
  if (!quote.ok) {
    if (quote.status === 409 && quote.field === "quantity" && inCart)
      return refuse(409, `${quote.message} (you already have ${inCart.quantity} in your cart)`);
    return refuse(
      quote.status === 403 ? 403 : quote.status === 404 ? 404 : quote.status === 409 ? 409 : 400,
      quote.message,
    );
  }
  const line: CartLine = { ...key, quantity: choice.quantity };
  const max = maxLineQuantity({ singleUnit: quote.category !== "physical", availableUnits: availableOf(quote) });
  if (holder.user) {
    const now = await addCartItem(db, holder.user.id, line, max);
    if (now === null) return refuse(409, CART_MESSAGES.full);
    return { ok: true, message: CART_MESSAGES.added, setCookie: null };
  }
  const added = addCartLine(lines, line, max);
  if (!added.ok) return refuse(409, added.message);
  return { ok: true, message: CART_MESSAGES.added, setCookie: visitorCartCookie(added.lines) };
}

function availableOf(quote: ProductQuote): number {
  return Math.min(quote.size.availableUnits, quote.colour ? quote.colour.availableUnits : Number.POSITIVE_INFINITY);
}

/**
 * Changes a line of the cart: its quantity, and its size and colour (decision 600). The new choice is checked like
 * Add to Cart (the product for sale and not the fan's own, the size and colour exist, the stock, the single-unit
 * rule, the order maximum); a size and colour already in the cart merges the two lines, their quantities added and
 * checked together. Only the holder's own cart is read and changed: a line of someone else's cart is not in it.
 */
export async function updateCartLine(
  db: Db,
  holder: Holder,
  input: Record<string, unknown>,
): Promise<CartChange | CartError> {
  const parsed = CartLineChangeSchema.safeParse(input);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "");
    if (field === "quantity") return refuse(400, CHECKOUT_MESSAGES.quantity);
    if (field === "newSizeName") return refuse(400, CHECKOUT_MESSAGES.chooseSize);
    if (field === "newColorName") return refuse(400, CHECKOUT_MESSAGES.chooseColour);
    return refuse(404, CART_MESSAGES.notInCart);
  }
  const { newSizeName, newColorName, ...from } = parsed.data;
  const [lines, found] = await Promise.all([loadCartLines(db, holder), getProductVariants(db, from.productId)]);
  const current = lines.find(
    (l) => l.productId === from.productId && l.sizeName === from.sizeName && l.colorName === from.colorName,
  );
  if (!current) return refuse(404, CART_MESSAGES.notInCart);
  const to: CartLine = {
    productId: from.productId,
    sizeName: newSizeName || from.sizeName,
    colorName: found?.colours.length ? newColorName || from.colorName : "",
    quantity: from.quantity,
  };
  const sameLine = to.sizeName === from.sizeName && to.colorName === from.colorName;
  const other = sameLine
    ? undefined
    : lines.find((l) => l.productId === to.productId && l.sizeName === to.sizeName && l.colorName === to.colorName);
  const total = to.quantity + (other?.quantity ?? 0);
  const quote = quoteVariants(found, { ...to, quantity: Math.min(MAX_ORDER_QUANTITY, total) }, holder.user?.id);
  if (!quote.ok) {
    if (quote.status === 409 && quote.field === "quantity" && other)
      return refuse(409, `${quote.message} (${CART_MESSAGES.mergedTooMany(other.quantity)})`);
    return refuse(
      quote.status === 403 ? 403 : quote.status === 404 ? 404 : quote.status === 409 ? 409 : 400,
      quote.message,
    );
  }
  const max = maxLineQuantity({ singleUnit: quote.category !== "physical", availableUnits: availableOf(quote) });
  const change = changeCartLine(lines, from, to, max);
  if (!change.ok) {
    if (change.reason === "notInCart") return refuse(404, CART_MESSAGES.notInCart);
    return refuse(409, change.inCart > 0 ? CART_MESSAGES.mergedTooMany(change.inCart) : CHECKOUT_MESSAGES.quantity);
  }
  const message = change.merged ? CART_MESSAGES.merged : CART_MESSAGES.updated;
  if (holder.user) {
    const done = await changeCartItem(db, holder.user.id, { from, to, max });
    if (!done) return refuse(409, CART_MESSAGES.changed);
    return { ok: true, message, setCookie: null };
  }
  return { ok: true, message, setCookie: visitorCartCookie(change.lines) };
}

/** Removes a line from the cart. */
export async function removeFromCart(
  db: Db,
  holder: Holder,
  input: Record<string, unknown>,
): Promise<CartChange | CartError> {
  const parsed = CartLineSchema.safeParse(input);
  if (!parsed.success) return refuse(404, CART_MESSAGES.notInCart);
  const line = parsed.data;
  if (holder.user) {
    if (!(await removeCartItem(db, holder.user.id, line))) return refuse(404, CART_MESSAGES.notInCart);
    return { ok: true, message: CART_MESSAGES.removed, setCookie: null };
  }
  const lines = readVisitorCart(holder.request);
  const next = lines.filter(
    (l) => !(l.productId === line.productId && l.sizeName === line.sizeName && l.colorName === line.colorName),
  );
  if (next.length === lines.length) return refuse(404, CART_MESSAGES.notInCart);
  return { ok: true, message: CART_MESSAGES.removed, setCookie: visitorCartCookie(next) };
}

// --- shipping, said before checkout ------------------------------------------------------------------------------

/** The Ship-to choice a page's address carries (?shipTo=, an ISO country code in any case), or null. */
export function shipToChoice(value: string | null | undefined): string | null {
  const code = (value ?? "").trim().toUpperCase();
  return isCountryCode(code) ? code : null;
}

/**
 * "Does not ship to {country}" for a product page and Buy Now (decision 600): the Ship-to choice, else the signed-in
 * viewer's profile country, checked by the shop's shipping rule in the page's own D1 batch (call it with the page's
 * other reads). Null for a product that is not physical, a host who ships there, or without either country (no
 * query then).
 */
export async function productShippingNotice(
  db: Db,
  productId: string,
  input: { shipTo: string | null; viewer: ViewerKey | null },
): Promise<string | null> {
  if (!input.shipTo && !input.viewer) return null;
  const found = await getProductShipping(
    db,
    productId,
    input.shipTo ? { country: input.shipTo } : { viewer: input.viewer! },
  );
  if (!found || productCategory(found.category) !== "physical" || found.ships) return null;
  return isCountryCode(found.country) ? notShippingMessage(countryByCode(found.country).name) : null;
}

// --- pricing a cart ----------------------------------------------------------------------------------------------

export type PricedCartLine = {
  line: CartLine;
  /** Null when the product no longer exists. */
  product: ProductVariants["product"] | null;
  imageUrl: string | null;
  hostId: string;
  /** The checkout's price of one unit, in USD cents (0 when the line cannot be priced). */
  unitPriceCents: number;
  amountCents: number;
  physical: boolean;
  /** The most this line can be set to now (stock, single-unit rule, order maximum). */
  maxQuantity: number;
  quote: ProductQuote | null;
  /** What stops this line from being paid now, or null. */
  problem: string | null;
  /** The product's sizes and colours with their units left, for changing the line on /cart (empty when gone). */
  sizes: { name: string; availableUnits: number }[];
  colours: { name: string; availableUnits: number }[];
};

export type PricedCart = {
  lines: PricedCartLine[];
  groups: { hostId: string; hostName: string; items: PricedCartLine[]; subtotalCents: number }[];
  totalCents: number;
  itemCount: number;
  /** The chosen ship-to country (null when none was chosen). */
  shipTo: string | null;
  needsShipping: boolean;
  /** What stops the whole cart from being paid (the first problem), or null. */
  problem: string | null;
};

/**
 * Prices every line from the database exactly as checkout will (size, colour, stock, the single-unit rule, not the
 * buyer's own product), checks shipping for physical items against the chosen country by the one shipping rule
 * (the host's countries, else the host's own), and groups the lines by host with subtotals. Totals are USD cents.
 */
export async function priceCart(
  db: Db,
  input: { lines: readonly CartLine[]; buyerId: string | null; shipTo: string | null },
): Promise<PricedCart> {
  const shipTo = input.shipTo && isCountryCode(input.shipTo) ? input.shipTo : null;
  const variants = await Promise.all(input.lines.map((l) => getProductVariants(db, l.productId)));
  const hostIds = [...new Set(variants.flatMap((v) => (v ? [v.product.hostId] : [])))];
  const [hosts, shipping] = await Promise.all([
    listCartHosts(db, hostIds),
    Promise.all(hostIds.map(async (id) => [id, await listShipToCountries(db, id)] as const)),
  ]);
  const hostName = new Map(hosts.map((h) => [h.hostId, h.creatorName ?? "This shop"]));
  const suspended = new Set(hosts.filter((h) => h.status === "suspended").map((h) => h.hostId));
  const shipsTo = new Map(shipping);

  const lines: PricedCartLine[] = input.lines.map((line, i) => {
    const found = variants[i];
    const quote = quoteVariants(found, line, input.buyerId ?? undefined);
    const hostId = found?.product.hostId ?? "";
    const physical = (quote.ok ? quote.category : "physical") === "physical";
    const size = found?.sizes.find((s) => s.name === line.sizeName);
    const colour = found?.colours.find((c) => c.name === line.colorName);
    const available = Math.min(size?.availableUnits ?? 0, colour ? colour.availableUnits : Number.POSITIVE_INFINITY);
    let problem: string | null = quote.ok ? null : quote.message;
    if (!problem && suspended.has(hostId)) problem = CHECKOUT_MESSAGES.hostSuspended;
    if (!problem && physical && shipTo && !(shipsTo.get(hostId) ?? []).includes(shipTo)) {
      problem = notShippingMessage(countryByCode(shipTo).name);
    }
    return {
      line,
      product: found?.product ?? null,
      imageUrl: found?.imageUrl ?? null,
      hostId,
      unitPriceCents: quote.ok ? quote.unitPriceCents : 0,
      amountCents: quote.ok ? quote.amountCents : 0,
      physical,
      maxQuantity: Math.max(
        1,
        maxLineQuantity({ singleUnit: quote.ok && quote.category !== "physical", availableUnits: available }),
      ),
      quote: quote.ok ? quote : null,
      problem,
      sizes: (found?.sizes ?? []).map((s) => ({ name: s.name, availableUnits: s.availableUnits })),
      colours: (found?.colours ?? []).map((c) => ({ name: c.name, availableUnits: c.availableUnits })),
    };
  });

  const groups = groupByHost(lines).map((g) => ({
    hostId: g.hostId,
    hostName: hostName.get(g.hostId) ?? "Unavailable items",
    items: g.items,
    subtotalCents: g.items.reduce((sum, l) => sum + l.amountCents, 0),
  }));
  const totalCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  const needsShipping = lines.some((l) => l.physical && l.quote !== null);
  let problem: string | null = lines.length > MAX_CART_LINES ? CART_MESSAGES.full : null;
  if (!problem && lines.some((l) => l.problem)) problem = CART_MESSAGES.fixProblems;
  if (!problem && lines.length === 0) problem = CART_MESSAGES.empty;
  if (!problem && needsShipping && !shipTo) problem = CART_MESSAGES.chooseShipTo;
  if (!problem && totalCents < MIN_CHARGE_CENTS) problem = CHECKOUT_MESSAGES.belowMinimum;
  if (!problem && totalCents > MAX_CHARGE_CENTS) problem = CHECKOUT_MESSAGES.quantity;
  return { lines, groups, totalCents, itemCount: cartItemCount(input.lines), shipTo, needsShipping, problem };
}
