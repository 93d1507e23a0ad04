// The cart's pure rules: what a line is, how lines add up and merge (a visitor's cart into a fan's at sign-in),
// the limits (distinct lines, quantity per line, stock, single-unit items), grouping by host, and the count the nav
// bar shows. Prices are never part of a cart: checkout prices every line from the database.

import { MAX_ORDER_QUANTITY } from "./orders";
import { MAX_CHECKOUT_LINES } from "./payments";

/** The most distinct lines (product, size, colour) one cart holds: one checkout carries them all. */
export const MAX_CART_LINES = MAX_CHECKOUT_LINES;

export const CART_MESSAGES = {
  added: "Added to your cart",
  updated: "Your cart was updated",
  removed: "Removed from your cart",
  full: `Your cart holds at most ${MAX_CART_LINES} different items. Please check out or remove one first.`,
  notInCart: "This item is not in your cart",
  empty: "Your cart is empty",
  chooseShipTo: "Please choose the country to ship to",
  unavailable: "This item is no longer for sale",
  ownProduct: "You cannot buy your own products.",
  fixProblems: "Please fix the items marked in your cart before checking out",
  signIn: "Please sign in to check out",
  changed: "Your cart changed in the meantime. Please try again",
  merged: "That size and colour was already in your cart: the two lines are now one",
  /** A merge (or a new quantity) past what one line may hold: the order maximum, the stock, one unit. */
  mergedTooMany: (inCart: number) =>
    `That size and colour is already in your cart (${inCart}): together it is too many`,
} as const;

/** One line of a cart: a product with its size and colour ('' when the product has none) and the quantity wanted. */
export type CartLine = {
  productId: string;
  sizeName: string;
  colorName: string;
  quantity: number;
};

/** The identity of a line: the same product, size and colour is one line whose quantities add up. */
export function cartLineKey(line: Pick<CartLine, "productId" | "sizeName" | "colorName">): string {
  return JSON.stringify([line.productId, line.sizeName, line.colorName]);
}

/** The most units of one line: one for vouchers and digital items, else up to the order maximum and the stock. */
export function maxLineQuantity(input: { singleUnit: boolean; availableUnits?: number }): number {
  const cap = input.singleUnit ? 1 : MAX_ORDER_QUANTITY;
  return input.availableUnits === undefined ? cap : Math.max(0, Math.min(cap, input.availableUnits));
}

export type AddResult = { ok: true; lines: CartLine[]; line: CartLine } | { ok: false; message: string };

/**
 * Adds `quantity` of a line to a cart: an existing line's quantity grows (capped at `maxQuantity`), a new line is
 * appended unless the cart already holds MAX_CART_LINES lines. Never mutates its input.
 */
export function addCartLine(
  lines: readonly CartLine[],
  add: CartLine,
  maxQuantity: number = MAX_ORDER_QUANTITY,
): AddResult {
  const cap = Math.max(1, Math.min(MAX_ORDER_QUANTITY, maxQuantity));
  const key = cartLineKey(add);
  const index = lines.findIndex((l) => cartLineKey(l) === key);
  if (index === -1) {
    if (lines.length >= MAX_CART_LINES) return { ok: false, message: CART_MESSAGES.full };
    const line = { ...add, quantity: Math.min(cap, Math.max(1, add.quantity)) };
    return { ok: true, lines: [...lines, line], line };
  }
  const existing = lines[index]!;
  const line = { ...existing, quantity: Math.min(cap, existing.quantity + Math.max(1, add.quantity)) };
  return { ok: true, lines: lines.map((l, i) => (i === index ? line : l)), line };
}

/**
 * A visitor's cart merged into a fan's cart at sign-in: the same line adds up (capped at the order maximum), new
 * lines follow the fan's own in the visitor's order, and lines past MAX_CART_LINES are dropped. Stock and prices are
 * checked again on /cart and at checkout.
 */
export function mergeCartLines(account: readonly CartLine[], visitor: readonly CartLine[]): CartLine[] {
  let merged: CartLine[] = [...account];
  for (const line of visitor) {
    const result = addCartLine(merged, line);
    if (result.ok) merged = result.lines;
  }
  return merged;
}

/** The number the nav bar shows: every unit of every line. */
export function cartItemCount(lines: readonly Pick<CartLine, "quantity">[]): number {
  return lines.reduce((sum, l) => sum + Math.max(0, l.quantity), 0);
}

/** Lines grouped by host, hosts in the order their first line appears. */
export function groupByHost<T extends { hostId: string }>(items: readonly T[]): { hostId: string; items: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.hostId);
    if (group) group.push(item);
    else groups.set(item.hostId, [item]);
  }
  return [...groups].map(([hostId, grouped]) => ({ hostId, items: grouped }));
}

/**
 * Said before checkout (docs/product.md#cart-and-checkout) wherever a physical item's host does not ship to the
 * fan's country (the Ship-to choice, else their profile country): the product page, Buy Now and each cart line.
 * `countryName` is the country's name as the app shows it (countryByCode).
 */
export function notShippingMessage(countryName: string): string {
  return `Does not ship to ${countryName}`;
}

/** Whether Add to Cart must ask for a choice: the product has more than one size or more than one colour. */
export function needsVariantChoice(variants: { sizes: number; colours: number }): boolean {
  return variants.sizes > 1 || variants.colours > 1;
}

/**
 * What a post without a size (or colour) takes, as a one-click Add to Cart (a /shop card) sends it: the product's
 * only size (colour); null when it has more than one, which must be chosen, or none.
 */
export function onlyOption(options: readonly { name: string }[]): string | null {
  return options.length === 1 ? options[0]!.name : null;
}

export type LineChange =
  { ok: true; lines: CartLine[]; merged: boolean } | { ok: false; reason: "notInCart" | "tooMany"; inCart: number };

/**
 * A cart line changed to another size, colour and quantity (docs/decisions/600-variants-chosen-and-editable-cart-lines.md):
 * the line keeps its place; when the new size and colour are already another line of the cart, the two merge into
 * that line (quantities added, at most `maxQuantity`, else refused). Never mutates its input.
 */
export function changeCartLine(
  lines: readonly CartLine[],
  from: Pick<CartLine, "productId" | "sizeName" | "colorName">,
  to: CartLine,
  maxQuantity: number,
): LineChange {
  const fromKey = cartLineKey(from);
  const index = lines.findIndex((l) => cartLineKey(l) === fromKey);
  if (index === -1) return { ok: false, reason: "notInCart", inCart: 0 };
  const toKey = cartLineKey(to);
  const other = toKey === fromKey ? -1 : lines.findIndex((l) => cartLineKey(l) === toKey);
  if (other === -1) {
    if (to.quantity > maxQuantity) return { ok: false, reason: "tooMany", inCart: 0 };
    return { ok: true, lines: lines.map((l, i) => (i === index ? { ...to } : l)), merged: false };
  }
  const inCart = lines[other]!.quantity;
  if (inCart + to.quantity > maxQuantity) return { ok: false, reason: "tooMany", inCart };
  const merged = { ...lines[other]!, quantity: inCart + to.quantity };
  return { ok: true, lines: lines.flatMap((l, i) => (i === index ? [] : i === other ? [merged] : [l])), merged: true };
}

// --- the visitor's cart cookie ---------------------------------------------------------------------------------

/** A visitor's cart as its cookie carries it: [productId, size, colour, quantity] per line (signed by the server). */
export function encodeCartLines(lines: readonly CartLine[]): string {
  return JSON.stringify(lines.slice(0, MAX_CART_LINES).map((l) => [l.productId, l.sizeName, l.colorName, l.quantity]));
}

function isText(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length <= max;
}

/**
 * Reads the lines of a cart cookie's payload; anything malformed is dropped (a bad line, never the whole cart), the
 * same line twice adds up, and quantities are whole numbers from 1 to the order maximum.
 */
export function decodeCartLines(payload: string): CartLine[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  let lines: CartLine[] = [];
  for (const raw of parsed.slice(0, MAX_CART_LINES)) {
    if (!Array.isArray(raw) || raw.length !== 4) continue;
    const [productId, sizeName, colorName, quantity] = raw as unknown[];
    if (!isText(productId, 100) || productId === "" || !isText(sizeName, 100) || !isText(colorName, 100)) continue;
    if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1) continue;
    const added = addCartLine(lines, {
      productId,
      sizeName,
      colorName,
      quantity: Math.min(quantity, MAX_ORDER_QUANTITY),
    });
    if (added.ok) lines = added.lines;
  }
  return lines;
}
