import { z } from "zod";
import { CHECKOUT_LINE_CHUNKS, STRIPE_MAX_METADATA_VALUE_CHARS } from "~/domain/payments";

// The one codec of checkout lines, [product, size, colour, quantity, unit cents], as a checkout's metadata carries
// them. A multi-line checkout (a cart's, a group-buy join's): JSON arrays of lines split over `items`, `items_2`,
// `items_3`… each at most 500 characters (Stripe's metadata limits; the largest checkout is MAX_CHECKOUT_LINES,
// decision 370). A product checkout (buy now): its one line as named values (`product_id`, `size`, `color`,
// `quantity`, `unit_price_cents`), which the database also reads (a payable checkout's product). Checkout writes
// lines with the encoders and fulfilment reads them with the decoders, nowhere else.

/** One line of a multi-line checkout: [product, size, colour ('' for none), quantity, unit cents]. */
export type CheckoutLine = [productId: string, size: string, colour: string, quantity: number, unitCents: number];

/** The metadata key of the n-th (0-based) value of lines: `items`, then `items_2`, `items_3`… */
export function lineChunkKey(index: number): string {
  return index === 0 ? "items" : `items_${index + 1}`;
}

const storedLines = z.array(
  z.tuple([z.string(), z.string(), z.string(), z.number().int().min(1), z.number().int().min(0)]),
);

function parseChunk(value: string): CheckoutLine[] | null {
  try {
    const parsed = storedLines.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The metadata values that carry the lines, or null when they do not fit the values a checkout has for them. */
export function encodeCheckoutLines(lines: readonly CheckoutLine[]): Record<string, string> | null {
  const chunks: CheckoutLine[][] = [];
  for (const line of lines) {
    const last = chunks.at(-1);
    if (last && JSON.stringify([...last, line]).length <= STRIPE_MAX_METADATA_VALUE_CHARS) last.push(line);
    else chunks.push([line]);
  }
  if (chunks.length === 0 || chunks.length > CHECKOUT_LINE_CHUNKS) return null;
  if (chunks.some((c) => JSON.stringify(c).length > STRIPE_MAX_METADATA_VALUE_CHARS)) return null;
  return Object.fromEntries(chunks.map((c, i) => [lineChunkKey(i), JSON.stringify(c)]));
}

/** Every line a checkout's metadata carries, in order, or null when they are missing or malformed. */
export function decodeCheckoutLines(metadata: Record<string, string>): CheckoutLine[] | null {
  const lines: CheckoutLine[] = [];
  for (let i = 0; i < CHECKOUT_LINE_CHUNKS; i++) {
    const value = metadata[lineChunkKey(i)];
    if (value === undefined) break;
    const chunk = parseChunk(value);
    if (!chunk) return null;
    lines.push(...chunk);
  }
  return lines.length > 0 ? lines : null;
}

/** The metadata values of a product checkout's one line (no `color` when it has none). */
export function encodeProductLine([productId, size, colour, quantity, unitCents]: CheckoutLine): Record<
  string,
  string
> {
  return {
    product_id: productId,
    size,
    ...(colour ? { color: colour } : {}),
    quantity: String(quantity),
    unit_price_cents: String(unitCents),
  };
}

function positiveInt(value: string | undefined): number | null {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** A product checkout's one line ('' for no colour), or null when its product, size, quantity or price is missing. */
export function decodeProductLine(metadata: Record<string, string>): CheckoutLine | null {
  const quantity = positiveInt(metadata.quantity);
  const unitCents = positiveInt(metadata.unit_price_cents);
  if (!metadata.product_id || !metadata.size || !quantity || !unitCents) return null;
  return [metadata.product_id, metadata.size, metadata.color ?? "", quantity, unitCents];
}
