import { getDb } from "~/db/client.server";
import { listCartLines } from "~/db/queries/cart.server";
import { CART_MESSAGES, MAX_CART_LINES } from "~/domain/cart";
import { isCountryCode } from "~/domain/currency";
import { priceCart } from "~/lib/cart.server";
import type { SessionUser } from "~/lib/session.server";
import { type CheckoutResult, startCheckout } from "./checkout-session.server";
import { encodeCheckoutLines, type CheckoutLine } from "../shared/checkout-lines.server";
import type { CheckoutLineItem, ProviderOptions } from "../providers/types";
import { CHECKOUT_MESSAGES, fail } from "./quote.server";

// The cart purpose's checkout: one checkout for every line of a fan's cart, across hosts, each line priced on the
// server from the database (the cart itself holds no prices). Lines travel in the checkout's metadata
// (checkout-lines.server.ts), split over as many 500-character values as they need.

/**
 * Starts one checkout for the signed-in fan's whole cart: every line must be payable now (for sale, not the fan's
 * own, in stock, within the limits, shipped to the chosen country), and the total within the card limits. Physical
 * items are shipped to the chosen country, which the checkout page then requires.
 */
export async function createCartCheckout(
  env: Env,
  input: { user: SessionUser | null; shipTo?: string | null; origin: string },
  options: ProviderOptions = {},
): Promise<CheckoutResult> {
  if (!input.user) return fail(401, CART_MESSAGES.signIn);
  const user = input.user;
  const db = getDb(env);
  const shipTo =
    typeof input.shipTo === "string" && isCountryCode(input.shipTo.trim().toUpperCase())
      ? input.shipTo.trim().toUpperCase()
      : null;
  const cart = await priceCart(db, { lines: await listCartLines(db, user.id), buyerId: user.id, shipTo });
  if (cart.lines.length === 0) return fail(400, CART_MESSAGES.empty);
  // More lines than one checkout can carry and fulfil (decision 370): refused before anything is written.
  if (cart.lines.length > MAX_CART_LINES) return fail(400, CART_MESSAGES.full);
  const broken = cart.lines.find((l) => l.problem);
  if (broken) {
    const name = broken.product?.name ?? "An item";
    return fail(broken.problem === CHECKOUT_MESSAGES.ownProduct ? 403 : 409, `${name}: ${broken.problem}`);
  }
  if (cart.problem) return fail(400, cart.problem);

  const lines: CheckoutLine[] = [];
  const lineItems: CheckoutLineItem[] = [];
  for (const l of cart.lines) {
    const q = l.quote!;
    lines.push([q.product.id, q.size.name, q.colour?.name ?? "", q.quantity, q.unitPriceCents]);
    lineItems.push({
      name: q.product.name,
      description: q.colour ? `Size ${q.size.name} · Colour ${q.colour.name}` : `Size ${q.size.name}`,
      imageUrl: null,
      unitAmountCents: q.unitPriceCents,
      quantity: q.quantity,
    });
  }
  const items = encodeCheckoutLines(lines);
  if (!items) return fail(400, CART_MESSAGES.full);
  const hosts = cart.groups.map((g) => g.hostName);
  const description = `Cart: ${cart.itemCount} item${cart.itemCount === 1 ? "" : "s"} from ${hosts.join(", ")}`.slice(
    0,
    450,
  );

  return startCheckout(env, input.origin, options, {
    purpose: "cart",
    user,
    hostId: null,
    amountCents: cart.totalCents,
    customerEmail: user.email,
    metadata: {
      purpose: "cart",
      ...items,
      ...(cart.needsShipping && cart.shipTo ? { ship_to: cart.shipTo } : {}),
      user_id: user.id,
      description,
    },
    lineItems,
    shippingCountries: cart.needsShipping && cart.shipTo ? [cart.shipTo] : null,
    cancelUrl: `${input.origin}/cart${cart.shipTo ? `?shipTo=${cart.shipTo}` : ""}`,
    failureMessage: CHECKOUT_MESSAGES.failed,
    entries: cartEntries(
      cart.lines.map((l) => ({ hostId: l.quote!.product.hostId, amountCents: l.quote!.amountCents })),
    ),
  });
}

/** A cart's entries: one per host, for that host's lines together. */
function cartEntries(lines: { hostId: string; amountCents: number }[]): { hostId: string; amountCents: number }[] {
  const byHost = new Map<string, number>();
  for (const l of lines) byHost.set(l.hostId, (byHost.get(l.hostId) ?? 0) + l.amountCents);
  return [...byHost].map(([hostId, amountCents]) => ({ hostId, amountCents }));
}
