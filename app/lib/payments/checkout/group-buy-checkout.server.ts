import { z } from "zod";
import { getDb } from "~/db/client.server";
import { getGroupBuy, hasSharedGroupBuy, listGroupBuyProductIds } from "~/db/queries/group-buys.server";
import { listShipToCountries } from "~/db/queries/profiles.server";
import { GROUP_BUY_ACTION_MESSAGES, MAX_GROUP_BUY_LINES } from "~/domain/group-buy";
import { MAX_ORDER_QUANTITY } from "~/domain/orders";
import { groupBuyCheckoutExpiresAt, MAX_CHARGE_CENTS, MIN_CHARGE_CENTS } from "~/domain/payments";
import type { SessionUser } from "~/lib/session.server";
import { encodeCheckoutLines, type CheckoutLine } from "../shared/checkout-lines.server";
import { type CheckoutResult, startCheckout } from "./checkout-session.server";
import type { CheckoutLineItem, ProviderOptions } from "../providers/types";
import { CHECKOUT_MESSAGES, fail, quoteProduct } from "./quote.server";

// The group-buy purpose's checkout: one checkout for every product a fan chose in a group buy, each line priced on
// the server at the original price (the tier discount is refunded when the group buy ends).

const lineSchema = z.object({
  productId: z
    .string({ error: GROUP_BUY_ACTION_MESSAGES.selectProduct })
    .trim()
    .min(1, GROUP_BUY_ACTION_MESSAGES.selectProduct)
    .max(100, GROUP_BUY_ACTION_MESSAGES.selectProduct),
  sizeName: z.string({ error: CHECKOUT_MESSAGES.chooseSize }).trim().max(100, CHECKOUT_MESSAGES.chooseSize).default(""),
  colorName: z
    .string({ error: CHECKOUT_MESSAGES.chooseColour })
    .trim()
    .max(100, CHECKOUT_MESSAGES.chooseColour)
    .default(""),
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
    .max(200)
    .transform((items) => items.filter((i) => i.quantity > 0))
    .refine((items) => items.length > 0, GROUP_BUY_ACTION_MESSAGES.selectProduct)
    .refine((items) => items.length <= MAX_GROUP_BUY_LINES, GROUP_BUY_ACTION_MESSAGES.tooManyProducts),
});
export type GroupBuySelection = z.output<typeof GroupBuySelectionSchema>["items"];

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
  // More lines than one checkout can carry and fulfil (decision 370), however the selection reached here.
  if (input.items.length === 0) return fail(400, GROUP_BUY_ACTION_MESSAGES.selectProduct);
  if (input.items.length > MAX_GROUP_BUY_LINES) return fail(400, GROUP_BUY_ACTION_MESSAGES.tooManyProducts);
  const offered = new Set(await listGroupBuyProductIds(db, groupBuy.id));

  const lines: CheckoutLine[] = [];
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
  const encoded = encodeCheckoutLines(lines);
  if (!encoded) return fail(400, GROUP_BUY_ACTION_MESSAGES.tooManyProducts);
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
      ...encoded,
      shared: shared ? "1" : "0",
      user_id: user.id,
      host_id: groupBuy.hostId,
      description: `Group buy: ${groupBuy.name}`.slice(0, 450),
    },
    lineItems,
    shippingCountries,
    cancelUrl: `${input.origin}/group-buy-product-selection/${encodeURIComponent(groupBuy.id)}`,
    failureMessage: CHECKOUT_MESSAGES.failed,
    // Payable until the group buy ends (at least 30 minutes, at most 24 hours): a payment after the end is still
    // booked at the final tier (or refunded after a cancellation), but few should arrive then.
    expiresAt: groupBuyCheckoutExpiresAt(groupBuy.endAt, new Date()),
  });
}
