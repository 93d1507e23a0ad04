// Payment enums, limits and the pure rules of money flowing back (refund state, return window).

import { convertCents, displayCents, isSupportedCurrency, type SupportedCurrency } from "./currency";
import { splitByWeights } from "./money";

/** Who created a checkout session: Stripe, or the local provider that stands in for it offline. */
export const CHECKOUT_PROVIDERS = ["stripe", "local"] as const;
/** What a checkout pays for. */
export const CHECKOUT_PURPOSES = ["product", "guess_entry", "host_deposit", "group_buy", "cart"] as const;
export type CheckoutPurpose = (typeof CHECKOUT_PURPOSES)[number];
export const CHECKOUT_STATUSES = ["open", "complete", "expired"] as const;
export const CHECKOUT_PAYMENT_STATUSES = ["unpaid", "paid"] as const;
/** A webhook event's processing state (recorded by event id). */
export const PAYMENT_EVENT_STATUSES = ["received", "processed", "ignored", "failed"] as const;

/**
 * A refund or dispute event held for its payment (decision 380) that is still unmatched this long after it arrived is
 * listed for the admin: by then the payment's completion should long have come.
 */
export const UNMATCHED_EVENT_ALERT_MS = 60 * 60 * 1000;

/**
 * The one rounding rule of money flowing back (decision 380): the part of `partCents` (a payment's pool share, or its
 * platform fee) given back once `reversedCents` of the payment's `paymentCents` are refunded or withdrawn in all,
 * rounded down, and exactly the whole part once the whole payment is. A pool's ledger, the host's earnings ledger and
 * a group buy's tier refunds all take what one refund gives back as this at the level after it minus this at the
 * level before it, so the share a pool gives back is the share the earnings ledger books, and any sequence of
 * refunds, disputes and restores ends at the part of what is reversed then.
 */
export function reversedPartCents(partCents: number, paymentCents: number, reversedCents: number): number {
  for (const value of [partCents, paymentCents, reversedCents]) {
    if (!Number.isSafeInteger(value)) throw new RangeError("amounts must be whole numbers of cents");
  }
  if (paymentCents <= 0 || partCents <= 0) return 0;
  const reversed = Math.min(Math.max(0, reversedCents), paymentCents);
  return Number((BigInt(reversed) * BigInt(partCents)) / BigInt(paymentCents));
}

/** One order's part of a payment for several orders: its part (its pool share), its amount and what of it is reversed. */
export type OrderPart = { partCents: number; paymentCents: number; reversedCents: number };

/**
 * The one rule for a payment for several orders (a group-buy join, a cart host's part) whose part is the sum of its
 * orders' parts, each rounded per order: what it gives back is the sum over its orders of `reversedPartCents` of each
 * order's part at that order's own reversed level, as the host's earnings ledger books it order by order. Never the
 * rule taken once over the payment as a whole, whose rounding differs from the orders' by a cent or more.
 */
export function reversedPartsCents(orders: readonly OrderPart[]): number {
  return orders.reduce(
    (sum, order) => sum + reversedPartCents(order.partCents, order.paymentCents, order.reversedCents),
    0,
  );
}

/** Checkout is created in USD; prices are stored in USD (docs/product.md#cart-and-checkout). */
export const CHECKOUT_CURRENCY = "USD" as const;
/**
 * A price in checkout-currency cents: a price stored in another currency of the rate table is converted (rounded
 * half up once); one outside the table is taken as it is.
 */
export function toCheckoutCents(cents: number, currency: string): number {
  return currency === CHECKOUT_CURRENCY || !isSupportedCurrency(currency)
    ? cents
    : convertCents(cents, currency, CHECKOUT_CURRENCY);
}

/**
 * What checkout charges for `quantity` units at a unit price in checkout-currency cents (toCheckoutCents): the unit
 * times the quantity. The one rule a purchase is charged by; a page shows it with shownPurchaseCents.
 */
export function purchaseChargeCents(unitCheckoutCents: number, quantity: number): number {
  return unitCheckoutCents * quantity;
}

/**
 * A purchase total as a page shows it: what checkout charges (purchaseChargeCents), converted once into the display
 * currency. Never a rounded display unit price times the quantity, which can differ by a cent.
 */
export function shownPurchaseCents(unitCheckoutCents: number, quantity: number, shown: SupportedCurrency): number {
  return displayCents(purchaseChargeCents(unitCheckoutCents, quantity), CHECKOUT_CURRENCY, shown);
}

/** Stripe's smallest USD card charge. */
export const MIN_CHARGE_CENTS = 50;
/** Stripe's largest USD Checkout amount (999,999.99). */
export const MAX_CHARGE_CENTS = 99_999_999;
/** A guess checkout can be paid for 30 minutes (Stripe's minimum session lifetime). */
export const GUESS_CHECKOUT_TTL_MS = 30 * 60 * 1000;
/** The shortest and longest a Stripe Checkout Session may stay payable (its `expires_at`, from its creation). */
export const CHECKOUT_MIN_TTL_MS = 30 * 60 * 1000;
export const CHECKOUT_MAX_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * When a group buy's checkout stops being payable: at the group buy's end, but never sooner than 30 minutes after it
 * was created nor later than 24 hours (the window Stripe accepts for `expires_at`).
 */
export function groupBuyCheckoutExpiresAt(endAt: Date, now: Date): Date {
  const at = Math.min(
    Math.max(endAt.getTime(), now.getTime() + CHECKOUT_MIN_TTL_MS),
    now.getTime() + CHECKOUT_MAX_TTL_MS,
  );
  return new Date(at);
}

// --- the largest multi-line checkout (a cart, a group-buy join) ----------------------------------------------------
// docs/decisions/370-largest-checkout-and-no-payment-dropped.md

/** D1 binds at most 100 parameters per statement: no statement may bind a parameter per line of a large checkout. */
export const D1_MAX_BOUND_PARAMETERS = 100;
/** Stripe Checkout takes at most 100 line items. */
export const STRIPE_MAX_LINE_ITEMS = 100;
/** Stripe metadata: at most 50 keys, each value at most 500 characters. */
export const STRIPE_MAX_METADATA_KEYS = 50;
export const STRIPE_MAX_METADATA_VALUE_CHARS = 500;
/**
 * Metadata keys a multi-line checkout keeps for everything but its lines (purpose, user, host, group buy, shared,
 * description, ship_to, needs_shipping, checkout_id, the local page's saved address): the rest carry the lines.
 */
export const CHECKOUT_RESERVED_METADATA_KEYS = 10;
/** The metadata values the lines travel in: `items`, `items_2`, … `items_40`. */
export const CHECKOUT_LINE_CHUNKS = STRIPE_MAX_METADATA_KEYS - CHECKOUT_RESERVED_METADATA_KEYS;
/** A product id (a UUID) and the longest size or colour name (the product form's option limit). */
export const CHECKOUT_PRODUCT_ID_CHARS = 36;
export const CHECKOUT_OPTION_NAME_CHARS = 100;
/**
 * The longest one line can be in the metadata, as JSON `["<id>","<size>","<colour>",99,99999999]`: every character
 * of a name may need escaping (`"` becomes `\"`), so a name takes at most twice its length.
 */
export const CHECKOUT_LINE_MAX_CHARS =
  `["${"x".repeat(CHECKOUT_PRODUCT_ID_CHARS)}","${"x".repeat(2 * CHECKOUT_OPTION_NAME_CHARS)}","${"x".repeat(2 * CHECKOUT_OPTION_NAME_CHARS)}",99,99999999]`
    .length + 1;
/**
 * D1's share: the one statement of a checkout whose parameters grow with its lines would bind one per line plus a
 * few fixed ones; fulfilment writes each line in statements of its own (a fixed number of parameters each), so D1
 * allows this many lines and is not the tightest bound.
 */
export const D1_MAX_CHECKOUT_LINES = D1_MAX_BOUND_PARAMETERS - 4;
/** How many lines the metadata carries whatever their names: whole lines per value, times the values. */
export const METADATA_MAX_CHECKOUT_LINES =
  CHECKOUT_LINE_CHUNKS * Math.floor(STRIPE_MAX_METADATA_VALUE_CHARS / CHECKOUT_LINE_MAX_CHARS);
/**
 * The largest cart or group-buy join, in distinct lines (product, size, colour): the tightest of D1, Stripe's line
 * items and the metadata. Every checkout up to it is fulfilled; more is refused when adding and at checkout.
 */
export const MAX_CHECKOUT_LINES = Math.min(D1_MAX_CHECKOUT_LINES, STRIPE_MAX_LINE_ITEMS, METADATA_MAX_CHECKOUT_LINES);

// --- refunds ---------------------------------------------------------------------------------------------------

/** An order's refund state, kept apart from its fulfilment status. */
export const REFUND_STATES = ["none", "partial", "full"] as const;
export type RefundState = (typeof REFUND_STATES)[number];
/** A provider refund's status (Stripe's values). */
export const REFUND_STATUSES = ["pending", "requires_action", "succeeded", "failed", "canceled"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
/** Where a refund came from ("group_buy": a group buy's end-of-group-buy refund, which never voids an entry). */
export const REFUND_ORIGINS = ["host", "return", "dispute", "unfulfillable", "provider", "group_buy"] as const;
export type RefundOrigin = (typeof REFUND_ORIGINS)[number];
/** A buyer's return request. */
export const RETURN_REQUEST_STATUSES = ["requested", "approved", "declined"] as const;
export type ReturnRequestStatus = (typeof RETURN_REQUEST_STATUSES)[number];

/** The return policy (docs/product.md#refunds-and-disputes): a buyer may ask for a return within 7 days of delivery. */
export const RETURN_WINDOW_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The refund state of a payment of `amountCents` after `refundedCents` have been given back. */
export function refundState(amountCents: number, refundedCents: number): RefundState {
  if (refundedCents <= 0) return "none";
  return refundedCents >= amountCents ? "full" : "partial";
}

/** How much of a payment can still be refunded. */
export function refundableCents(amountCents: number, refundedCents: number): number {
  return Math.max(0, amountCents - Math.max(0, refundedCents));
}

/**
 * A return may be asked for from delivery (or, for items that are never shipped, from payment) until 7 days later.
 * `deliveredAt` null means not delivered yet: no return.
 */
export function returnWindowOpen(deliveredAt: Date | null, now: Date = new Date()): boolean {
  if (!deliveredAt) return false;
  const age = now.getTime() - deliveredAt.getTime();
  return age >= 0 && age <= RETURN_WINDOW_DAYS * DAY_MS;
}

/** The last moment a return may be asked for. */
export function returnDeadline(deliveredAt: Date): Date {
  return new Date(deliveredAt.getTime() + RETURN_WINDOW_DAYS * DAY_MS);
}

/** Money given back without the order's own request: a refund, or a dispute (a chargeback). */
/**
 * What the local payment provider records of the money it moves (local_provider_movements, decision 400), each with
 * its sign: a capture brings money in; a refund, and a dispute's withdrawal, take it out; a refund that failed, and
 * a won dispute's reinstatement, bring it back.
 */
export const LOCAL_MOVEMENT_KINDS = [
  "capture",
  "refund",
  "refund_failed",
  "dispute_withdrawn",
  "dispute_reinstated",
] as const;
export type LocalMovementKind = (typeof LOCAL_MOVEMENT_KINDS)[number];
export const LOCAL_MOVEMENT_SIGN: Readonly<Record<LocalMovementKind, 1 | -1>> = {
  capture: 1,
  refund: -1,
  refund_failed: 1,
  dispute_withdrawn: -1,
  dispute_reinstated: 1,
};

export const REFUND_PART_KINDS = ["refund", "dispute"] as const;
export type RefundPartKind = (typeof REFUND_PART_KINDS)[number];

/** One order of a payment with what it cost and what of it has been given back. */
export type PaymentOrderTotals = { id: string; amountCents: number; refundedCents: number };

/**
 * How a refund or dispute that names no order (Stripe's dashboard, a chargeback) of a payment for several orders (a
 * cart) counts on each order (docs/decisions/160-cart-refunds-and-disputes.md): in proportion to what is still
 * refundable of each order, in integer cents by largest remainder (earlier lines first on a tie), so no order gets
 * more than it has left. Beyond everything still refundable (a dispute of a payment already partly refunded), each
 * order gets what it has left and the rest is split in proportion to the orders' amounts. One part per order, in
 * the orders' (line) order, zero included; the parts add up to the amount.
 */
export function allocateAcrossOrders(
  amountCents: number,
  orders: readonly PaymentOrderTotals[],
): { orderId: string; amountCents: number }[] {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0)
    throw new RangeError(`amountCents must be a non-negative integer, got ${amountCents}`);
  const left = orders.map((o) => refundableCents(o.amountCents, o.refundedCents));
  const leftTotal = left.reduce((sum, cents) => sum + cents, 0);
  let parts: number[];
  if (amountCents <= leftTotal) parts = splitByWeights(amountCents, left);
  else {
    const excess = splitByWeights(
      amountCents - leftTotal,
      orders.map((o) => Math.max(0, o.amountCents)),
    );
    parts = left.map((cents, i) => cents + (excess[i] ?? 0));
    // Orders that all cost nothing: the whole excess stays with the first.
    const given = parts.reduce((sum, cents) => sum + cents, 0);
    if (given < amountCents && parts.length > 0) parts[0]! += amountCents - given;
  }
  return orders.map((o, i) => ({ orderId: o.id, amountCents: parts[i] ?? 0 }));
}

/** Refund statuses whose money counts as given back (Stripe's pending refunds are committed; failed ones are not). */
export const COUNTED_REFUND_STATUSES = [
  "pending",
  "requires_action",
  "succeeded",
] as const satisfies readonly RefundStatus[];
/** Refund statuses no later event changes. */
export const FINAL_REFUND_STATUSES = ["failed", "canceled"] as const satisfies readonly RefundStatus[];

/** Whether a refund in this status counts in the payment's refunded total. */
export function refundCounts(status: string): boolean {
  return (COUNTED_REFUND_STATUSES as readonly string[]).includes(status);
}

/**
 * The order a refund's statuses follow: pending/requires_action (0) -> succeeded (1) -> failed/canceled (2). An event
 * carrying a lower rank than the stored status is older news (events arrive out of order) and changes nothing.
 */
export function refundStatusRank(status: string): number {
  if ((FINAL_REFUND_STATUSES as readonly string[]).includes(status)) return 2;
  return status === "succeeded" ? 1 : 0;
}

export function isRefundStatus(value: unknown): value is RefundStatus {
  return typeof value === "string" && (REFUND_STATUSES as readonly string[]).includes(value);
}

export function isRefundOrigin(value: unknown): value is RefundOrigin {
  return typeof value === "string" && (REFUND_ORIGINS as readonly string[]).includes(value);
}

/** Stripe's dispute statuses after which nothing changes (a won or lost dispute, or a closed inquiry). */
export const FINAL_DISPUTE_STATUSES = ["won", "lost", "warning_closed"] as const;
/** Dispute statuses under which withdrawn funds stay with the buyer. */
export const DISPUTE_RETURNED_STATUSES = ["won", "warning_closed"] as const;

/**
 * Whether a dispute's amount counts as given back: a lost dispute always; otherwise while its funds are withdrawn
 * and not reinstated (a won dispute's funds come back).
 */
export function disputeCounts(dispute: { status: string; fundsWithdrawn: boolean; fundsReinstated: boolean }): boolean {
  if (dispute.status === "lost") return true;
  if ((DISPUTE_RETURNED_STATUSES as readonly string[]).includes(dispute.status)) return false;
  return dispute.fundsWithdrawn && !dispute.fundsReinstated;
}

/**
 * A refund's or dispute's pool reversal, claimed step by step so each provider event moves it at most once:
 * none -> applying -> applied (-> restoring -> restored when it stops counting). A refund or dispute that never
 * counted stays at none.
 */
export const REVERSAL_STEPS = ["none", "applying", "applied", "restoring", "restored"] as const;
export type ReversalStep = (typeof REVERSAL_STEPS)[number];

/** The messages requestRefund answers a refund it cannot make with. */
export const REFUND_MESSAGES = {
  notPositive: "Enter a refund amount greater than 0.",
  notPaid: "This payment cannot be refunded: it was not paid.",
  notFound: "This payment or order was not found.",
  nothingLeft: "This order has already been refunded in full.",
  tooMuch: (refundable: string) => `You can refund at most ${refundable}.`,
  providerFailed: "The payment provider could not make the refund. Please try again.",
} as const;

/** The local provider's simulated processing fee (Stripe's standard US card price): 2.9% + 30 cents. */
export const LOCAL_PROCESSING_FEE_PERCENT = 2.9;
export const LOCAL_PROCESSING_FEE_FIXED_CENTS = 30;

/** The fee the local provider reports for a payment of `amountCents` (rounded to the cent, never above the amount). */
export function simulatedProcessingFeeCents(amountCents: number): number {
  if (amountCents <= 0) return 0;
  return Math.min(
    amountCents,
    Math.round((amountCents * LOCAL_PROCESSING_FEE_PERCENT) / 100) + LOCAL_PROCESSING_FEE_FIXED_CENTS,
  );
}

/** The reason a buyer reads when a paid checkout cannot be delivered and is refunded automatically. */
export const UNFULFILLABLE_REASONS = {
  soldOut: "This item sold out before your payment arrived, so your payment has been refunded in full.",
  gone: "This item is no longer available, so your payment has been refunded in full.",
  hostSuspended: "This shop can no longer take orders, so your payment has been refunded in full.",
  groupBuyGone: "This group buy is no longer available, so your payment has been refunded in full.",
  amountMismatch: "Your payment did not match the price of your order, so it has been refunded in full.",
} as const;

/** The idempotency key of the automatic refund of a paid checkout that cannot be delivered (or of one of its orders). */
export function unfulfillableRefundKey(checkoutSessionId: string, orderId?: string | null): string {
  return orderId ? `unfulfillable:${checkoutSessionId}:${orderId}` : `unfulfillable:${checkoutSessionId}`;
}

/** What the buyer's refund mail is about: the refund, and the order (or, without one, the payment) it gives back. */
export type RefundMailInput = {
  origin: RefundOrigin;
  /** The site's public origin ("https://tribe.example"): the mail's links are absolute, its push `url` a path. */
  siteOrigin: string;
  /** The refunded amount, formatted ("USD 15.00"). */
  amount: string;
  /** The reason the buyer sees, or null. */
  reason: string | null;
  order: { orderNumber: string; productName: string; hostName: string | null } | null;
  /** The checkout's purpose, for a refund of a payment without an order (a guess's fee, a deposit). */
  purpose: CheckoutPurpose;
  /** A refund of a cart payment split over its orders (no one order named): each order's part, formatted. */
  parts?: readonly RefundMailPart[];
};

export type RefundMailPart = { orderNumber: string; productName: string; amount: string };

/** The lines naming each order of a split refund and its part ("- Order ORD-1 (Lamp): USD 30.00"). */
function partLines(parts: readonly RefundMailPart[]): string {
  return parts.map((part) => `\n- Order ${part.orderNumber} (${part.productName}): ${part.amount}`).join("");
}

/**
 * The one mail a buyer gets for a refund, whoever made it (the host, an approved return, a group buy's end, an
 * undeliverable payment, a late guess, the provider's dashboard). An approved return's refund is its approval mail.
 */
export function refundMail(input: RefundMailInput): { subject: string; text: string; url: string } {
  const { amount, order } = input;
  const reason = input.reason ? `\n\nReason: ${input.reason}` : "";
  const timing = "\n\nRefunds take 3-5 business days to appear on your statement.";
  if (order) {
    const url = `/order/${order.orderNumber}`;
    const link = `\n\nSee the order: ${input.siteOrigin}${url}`;
    if (input.origin === "return") {
      return {
        subject: `Your return of order ${order.orderNumber} is approved`,
        text: `The host approved your return of ${order.productName} (order ${order.orderNumber}). A refund of ${amount} goes back to your payment method.${timing}${link}`,
        url,
      };
    }
    const first =
      input.origin === "host"
        ? `${order.hostName ?? "The host"} refunded ${amount} of your order ${order.orderNumber} (${order.productName}).`
        : `${amount} of your order ${order.orderNumber} (${order.productName}) is refunded to your payment method.`;
    return {
      subject: `Refund of ${amount} for order ${order.orderNumber}`,
      text: `${first}${reason}${timing}${link}`,
      url,
    };
  }
  if (input.parts?.length) {
    return {
      subject: `Refund of ${amount} for ${input.parts.length} orders`,
      text: `${amount} of your cart payment is refunded to your payment method:${partLines(input.parts)}${reason}${timing}\n\nSee your orders: ${input.siteOrigin}/my-orders`,
      url: "/my-orders",
    };
  }
  const guess = input.purpose === "guess_entry";
  return {
    subject: guess ? `Refund of ${amount} for your guess` : `Refund of ${amount}`,
    text: `${amount} you paid${guess ? " for your guess" : ""} is refunded to your payment method.${reason}${timing}`,
    url: guess ? "/guess-win" : "/",
  };
}

/** What the buyer's mail says when a refund did not go through (failed or canceled). */
export type RefundFailedMailInput = RefundMailInput & {
  /** Whether the buyer had been mailed this refund before (it was pending, then failed): the mail corrects that one. */
  announced: boolean;
  /** The order's prize pool entry when it was void as its pool closed: the refund removed it from a draw that is final. */
  missedDrawEntry: number | null;
};

/**
 * The buyer's mail that a refund did not go through: the money stays paid, nothing comes back to the payment method.
 * When the refund had been announced (pending, then failed) it says this corrects that mail; a refund that failed
 * before any mail gets only this one, which never says money is coming.
 */
export function refundFailedMail(input: RefundFailedMailInput): { subject: string; text: string; url: string } {
  const { amount, order } = input;
  const correction = input.announced ? " This corrects our earlier e-mail, which said the refund was on its way." : "";
  const none = "did not go through, so no money is returned to your payment method.";
  if (order) {
    const url = `/order/${order.orderNumber}`;
    const entry =
      input.missedDrawEntry !== null
        ? `\n\nYour prize pool entry #${input.missedDrawEntry} was removed when the refund was made, so it was not in the pool's draw, which is final.`
        : "";
    const contact = `\n\nIf you still expect a refund, contact ${order.hostName ?? "the host"}.`;
    return {
      subject: `Refund of ${amount} for order ${order.orderNumber} did not go through`,
      text: `The refund of ${amount} for your order ${order.orderNumber} (${order.productName}) ${none}${correction}${entry}${contact}\n\nSee the order: ${input.siteOrigin}${url}`,
      url,
    };
  }
  if (input.parts?.length) {
    return {
      subject: `Refund of ${amount} for ${input.parts.length} orders did not go through`,
      text: `The refund of ${amount} of your cart payment ${none}${correction}${partLines(input.parts)}\n\nIf you still expect a refund, contact the hosts of these orders.\n\nSee your orders: ${input.siteOrigin}/my-orders`,
      url: "/my-orders",
    };
  }
  const guess = input.purpose === "guess_entry";
  return {
    subject: guess ? `Refund of ${amount} for your guess did not go through` : `Refund of ${amount} did not go through`,
    text: `The refund of ${amount} you paid${guess ? " for your guess" : ""} ${none}${correction}`,
    url: guess ? "/guess-win" : "/",
  };
}

/**
 * The host's notice that a refund of their order did not go through: the buyer has not been paid back, and the
 * order shows as not refunded, so the host can refund it again from Orders (or settle it with the buyer).
 */
export function hostRefundFailedMail(input: {
  amount: string;
  orderNumber: string;
  productName: string;
  customerName: string | null;
  siteOrigin: string;
}) {
  const { amount, orderNumber, productName } = input;
  return {
    subject: `Refund of ${amount} for order ${orderNumber} did not go through`,
    text:
      `The refund of ${amount} to ${input.customerName ?? "the buyer"} for order ${orderNumber} (${productName}) did not go through, ` +
      `so the buyer has not been paid back. The order shows as not refunded: refund it again from Orders, or contact the buyer.` +
      `\n\nSee your orders: ${input.siteOrigin}/orders`,
    url: "/orders",
  };
}

/** Where an order's prize pool entry stands: in its pool, void while the payment is refunded, or left out of a closed pool's draw. */
export type EntryStanding = "counts" | "void" | "missed_draw";

export function entryStanding(entry: { voided: boolean; poolOpen: boolean }): EntryStanding {
  if (!entry.voided) return "counts";
  return entry.poolOpen ? "void" : "missed_draw";
}

/** The buyer's words for an entry that does not count (order page, /my-orders); null when it counts. */
export const ENTRY_STANDING_TEXT: Readonly<Record<EntryStanding, string | null>> = {
  counts: null,
  void: "void while this payment is refunded",
  missed_draw: "not in the draw: it was void when the pool closed",
};

/**
 * Why an order's entry does not count (order page, /my-orders), from the order's query columns (1/0, null without an
 * entry); null when it counts.
 */
export function entryStandingText(entry: { entryVoided: number | null; poolOpen: number | null }): string | null {
  if (entry.entryVoided === null || entry.poolOpen === null) return null;
  return ENTRY_STANDING_TEXT[entryStanding({ voided: entry.entryVoided === 1, poolOpen: entry.poolOpen === 1 })];
}

/** Whether a refund did not go through (failed or canceled): nothing was given back. */
export function refundFailed(status: string): boolean {
  return (FINAL_REFUND_STATUSES as readonly string[]).includes(status);
}
