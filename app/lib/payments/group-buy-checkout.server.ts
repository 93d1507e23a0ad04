import { z } from "zod";
import { getDb } from "~/db/client.server";
import { getGroupBuy, hasSharedGroupBuy, listGroupBuyProductIds } from "~/db/queries/group-buys.server";
import { listShipToCountries } from "~/db/queries/profiles.server";
import { GROUP_BUY_ACTION_MESSAGES } from "~/domain/group-buy";
import { MAX_ORDER_QUANTITY } from "~/domain/orders";
import { MAX_CHARGE_CENTS, MIN_CHARGE_CENTS } from "~/domain/payments";
import type { SessionUser } from "~/lib/session.server";
import { type CheckoutResult, startCheckout } from "./checkout-session.server";
import type { CheckoutLineItem, ProviderOptions } from "./provider.server";
import { CHECKOUT_MESSAGES, fail, quoteProduct } from "./quote.server";

// The group-buy purpose's checkout: one checkout for every product a fan chose in a group buy, each line priced on
// the server at the original price (the tier discount is refunded when the group buy ends).

/** The most lines one group-buy checkout carries (its items travel in the provider's 500-character metadata). */
export const MAX_GROUP_BUY_LINES = 8;

const lineSchema = z.object({
  productId: z.string({ error: GROUP_BUY_ACTION_MESSAGES.selectProduct }).trim().min(1, GROUP_BUY_ACTION_MESSAGES.selectProduct).max(100, GROUP_BUY_ACTION_MESSAGES.selectProduct),
  sizeName: z.string({ error: CHECKOUT_MESSAGES.chooseSize }).trim().max(100, CHECKOUT_MESSAGES.chooseSize).default(""),
  colorName: z.string({ error: CHECKOUT_MESSAGES.chooseColour }).trim().max(100, CHECKOUT_MESSAGES.chooseColour).default(""),
  quantity: z.coerce
    .number({ error: GROUP_BUY_ACTION_MESSAGES.quantity })
    .int(GROUP_BUY_ACTION_MESSAGES.quantity)
    .min(0, GROUP_BUY_ACTION_MESSAGES.quantity)
    .max(MAX_ORDER_QUANTITY, GROUP_BUY_ACTION_MESSAGES.quantity),
});

/** The selection form: lines with a quantity of 0 are dropped; at least one must remain. */
export const GroupBuySelectionSchema = z.object({
  items: z
    .array(lineSchema)
    .max(50)
    .transform((items) => items.filter((i) => i.quantity > 0))
    .refine((items) => items.length > 0, GROUP_BUY_ACTION_MESSAGES.selectProduct)
    .refine((items) => items.length <= MAX_GROUP_BUY_LINES, `Please choose at most ${MAX_GROUP_BUY_LINES} products in one checkout`),
});
export type GroupBuySelection = z.output<typeof GroupBuySelectionSchema>["items"];

/** A group-buy checkout line as stored in the checkout's metadata: [product, size, colour, quantity, unit cents]. */
export type GroupBuyLine = [productId: string, size: string, colour: string, quantity: number, unitCents: number];

export function encodeGroupBuyLines(lines: readonly GroupBuyLine[]): string {
  return JSON.stringify(lines);
}

const storedLines = z.array(z.tuple([z.string(), z.string(), z.string(), z.number().int().min(1), z.number().int().min(0)]));

export function decodeGroupBuyLines(value: string | undefined): GroupBuyLine[] | null {
  try {
    const parsed = storedLines.safeParse(JSON.parse(value ?? ""));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Starts one checkout for a fan's group-buy selection: the group buy must be active and not past its end, every
 * product must be one it offers, and each line is quoted from the database (size, colour, stock, not the fan's own).
 */
export async function createGroupBuyCheckout(
  env: Env,
  input: { user: SessionUser | null; groupBuyId: string; items: GroupBuySelection; origin: string },
  options: ProviderOptions = {},
): Promise<CheckoutResult> {
  if (!input.user) return fail(401, CHECKOUT_MESSAGES.signIn);
  const user = input.user;
  const db = getDb(env);
  const groupBuy = await getGroupBuy(db, input.groupBuyId);
  if (!groupBuy || groupBuy.status === "draft") return fail(404, "Group buy not found");
  if (groupBuy.status !== "active") return fail(409, GROUP_BUY_ACTION_MESSAGES.notActive);
  if (groupBuy.endAt.getTime() <= Date.now()) return fail(409, GROUP_BUY_ACTION_MESSAGES.ended);
  if (groupBuy.hostId === user.id) return fail(403, CHECKOUT_MESSAGES.ownProduct);
  const offered = new Set(await listGroupBuyProductIds(db, groupBuy.id));

  const lines: GroupBuyLine[] = [];
  const lineItems: CheckoutLineItem[] = [];
  let amountCents = 0;
  let physical = false;
  for (const item of input.items) {
    if (!offered.has(item.productId)) return fail(404, CHECKOUT_MESSAGES.productNotFound, "productId");
    const quote = await quoteProduct(db, item, user.id);
    if (!quote.ok) return quote;
    lines.push([quote.product.id, quote.size.name, quote.colour?.name ?? "", quote.quantity, quote.unitPriceCents]);
    lineItems.push({
      name: quote.product.name,
      description: quote.colour ? `Size ${quote.size.name} · Colour ${quote.colour.name}` : `Size ${quote.size.name}`,
      imageUrl: null,
      unitAmountCents: quote.unitPriceCents,
      quantity: quote.quantity,
    });
    amountCents += quote.amountCents;
    if (quote.category === "physical") physical = true;
  }
  if (amountCents < MIN_CHARGE_CENTS) return fail(400, CHECKOUT_MESSAGES.belowMinimum);
  if (amountCents > MAX_CHARGE_CENTS) return fail(400, CHECKOUT_MESSAGES.quantity, "quantity");
  const encoded = encodeGroupBuyLines(lines);
  if (encoded.length > 500) return fail(400, `Please choose fewer products in one checkout`);
  // A physical item ships: the checkout collects an address in a country the host ships to, as Buy Now's does.
  const [shared, shippingCountries] = await Promise.all([
    hasSharedGroupBuy(db, user.id, groupBuy.id),
    physical ? listShipToCountries(db, groupBuy.hostId) : null,
  ]);

  return startCheckout(env, input.origin, options, {
    purpose: "group_buy",
    user,
    hostId: groupBuy.hostId,
    amountCents,
    customerEmail: user.email,
    metadata: {
      purpose: "group_buy",
      group_buy_id: groupBuy.id,
      items: encoded,
      shared: shared ? "1" : "0",
      user_id: user.id,
      host_id: groupBuy.hostId,
      description: `Group buy: ${groupBuy.name}`.slice(0, 450),
    },
    lineItems,
    shippingCountries,
    cancelUrl: `${input.origin}/group-buy-product-selection/${encodeURIComponent(groupBuy.id)}`,
    failureMessage: CHECKOUT_MESSAGES.failed,
  });
}
