// Group buys: discount tiers by sales, refunds of the difference, and the create/edit form rules.
// Buyers are charged the original price; when the group buy ends, the final tier's discount is refunded per order.

import { MS_PER_DAY, parseDay, parseInstant } from "./countdown";
import { MAX_ORDER_QUANTITY } from "./orders";
import { MAX_CHECKOUT_LINES, reversedPartCents } from "./payments";
import {
  divideRoundHalfUp,
  moneyTextProblem,
  parseMoneyToCents,
  percentToBasisPoints,
  progressPercent,
  splitByPercents,
} from "./money";
import type { RevenueRule } from "./revenue";

/** The most products (lines) one group-buy join pays in one checkout: the largest multi-line checkout. */
export const MAX_GROUP_BUY_LINES = MAX_CHECKOUT_LINES;

/** Group buy amounts are shown in RM. */
export const GROUP_BUY_CURRENCY = "MYR";

export interface GroupBuyTier {
  /** Sales (in cents) from which this tier applies. */
  salesThresholdCents: number;
  discountPercent: number;
}

/** Demo/default tiers: RM 0 at 5%, RM 2,000 at 8%, RM 5,000 at 12%, RM 8,000 at 15%. */
export const DEFAULT_GROUP_BUY_TIERS: readonly GroupBuyTier[] = [
  { salesThresholdCents: 0, discountPercent: 5 },
  { salesThresholdCents: 200_000, discountPercent: 8 },
  { salesThresholdCents: 500_000, discountPercent: 12 },
  { salesThresholdCents: 800_000, discountPercent: 15 },
];

export const GROUP_BUY_TIERS_MIN = 2;
export const GROUP_BUY_TIERS_MAX = 6;
export const GROUP_BUY_DISCOUNT_MIN = 1;
export const GROUP_BUY_DISCOUNT_MAX = 50;
/** Target at least RM 1,000, in steps of RM 1,000. */
export const GROUP_BUY_TARGET_MIN_CENTS = 100_000;
export const GROUP_BUY_TARGET_STEP_CENTS = 100_000;
/** Step of the tier threshold input (RM 100). */
export const GROUP_BUY_THRESHOLD_STEP_CENTS = 10_000;
/** An added tier takes the last threshold + RM 2,000 and the last discount + 5, capped at 30. */
export const NEXT_TIER_THRESHOLD_INCREMENT_CENTS = 200_000;
export const NEXT_TIER_DISCOUNT_INCREMENT = 5;
export const NEXT_TIER_DISCOUNT_CAP = 30;

function byThreshold(tiers: readonly GroupBuyTier[]): GroupBuyTier[] {
  return [...tiers].sort((a, b) => a.salesThresholdCents - b.salesThresholdCents);
}

/** The highest tier whose threshold is at or below the sales; null when sales are below every tier. */
export function currentTier(tiers: readonly GroupBuyTier[], salesCents: number): GroupBuyTier | null {
  let found: GroupBuyTier | null = null;
  for (const tier of byThreshold(tiers)) {
    if (tier.salesThresholdCents <= salesCents) found = tier;
  }
  return found;
}

/** The lowest tier whose threshold is above the sales; null when the top tier is reached. */
export function nextTier(tiers: readonly GroupBuyTier[], salesCents: number): GroupBuyTier | null {
  return byThreshold(tiers).find((tier) => tier.salesThresholdCents > salesCents) ?? null;
}

/** Sales still needed to reach the next tier ('RM x to go'); null when there is no next tier. */
export function amountToNextTier(tiers: readonly GroupBuyTier[], salesCents: number): number | null {
  const next = nextTier(tiers, salesCents);
  return next ? next.salesThresholdCents - salesCents : null;
}

/**
 * The discount every order finally gets: the current tier's when the target is met, 0 when it is not ("if the
 * target is not met the original price applies with no discount").
 */
export function finalDiscountPercent(tiers: readonly GroupBuyTier[], salesCents: number, targetCents: number): number {
  if (salesCents < targetCents) return 0;
  return currentTier(tiers, salesCents)?.discountPercent ?? 0;
}

/**
 * The refund owed on one order paid at the original price once the final discount is known. Rounding is in the
 * buyer's favour: the discounted price is rounded down (floor), so the refund, paid minus that price, is rounded
 * up. `perOrderRefundCents(999, 15)` -> 150 (price 849.15 floors to 849). Discounts are clamped to 0..100.
 */
export function perOrderRefundCents(paidCents: number, finalDiscountPercent: number): number {
  if (!Number.isSafeInteger(paidCents)) throw new RangeError(`paidCents must be a safe integer, got ${paidCents}`);
  if (paidCents <= 0) return 0;
  const basisPoints = BigInt(Math.min(10000, Math.max(0, percentToBasisPoints(finalDiscountPercent))));
  const discountedPrice = (BigInt(paidCents) * (10000n - basisPoints)) / 10000n;
  return paidCents - Number(discountedPrice);
}

/** The tier the "add tier" button creates after `last`; the first tier (RM 0 at 5%) when there is none. */
export function nextDefaultTier(last: GroupBuyTier | null | undefined): GroupBuyTier {
  const first = DEFAULT_GROUP_BUY_TIERS[0] as GroupBuyTier;
  if (!last) return { ...first };
  return {
    salesThresholdCents: last.salesThresholdCents + NEXT_TIER_THRESHOLD_INCREMENT_CENTS,
    discountPercent: Math.min(NEXT_TIER_DISCOUNT_CAP, last.discountPercent + NEXT_TIER_DISCOUNT_INCREMENT),
  };
}

/** Sales over target as a whole percent, rounded, capped at 100. */
export function groupBuyProgressPercent(salesCents: number, targetCents: number): number {
  return progressPercent(salesCents, targetCents);
}

export const GROUP_BUY_STATUSES = ["active", "completed", "cancelled", "draft"] as const;
export type GroupBuyStatus = (typeof GROUP_BUY_STATUSES)[number];
/** The one refund a group buy's end gives an order: the final tier's difference, or all of it when cancelled. */
export const GROUP_BUY_REFUND_KINDS = ["final_tier", "cancellation"] as const;
export type GroupBuyRefundKind = (typeof GROUP_BUY_REFUND_KINDS)[number];

/** 'Active', 'Completed', 'Cancelled', 'Draft', else 'Unknown'. */
export function groupBuyStatusLabel(status: unknown): string {
  switch (status) {
    case "active":
      return "Active";
    case "completed":
      return "Completed";
    case "cancelled":
      return "Cancelled";
    case "draft":
      return "Draft";
    default:
      return "Unknown";
  }
}

// --- the form -------------------------------------------------------------------------------------------------

/** The form's length limits (its inputs' maxLength), checked on the server too. */
export const GROUP_BUY_NAME_MAX = 120;
export const GROUP_BUY_DESCRIPTION_MAX = 2000;

export const GROUP_BUY_MESSAGES = {
  name: "Please enter a group buy name",
  nameTooLong: `Group buy name must be at most ${GROUP_BUY_NAME_MAX} characters`,
  description: "Please enter a description",
  descriptionTooLong: `Description must be at most ${GROUP_BUY_DESCRIPTION_MAX} characters`,
  target: "Please enter a target amount of at least RM 1,000",
  /** Our own message (the form's input steps by 1,000): a target between the steps, such as 1,500. */
  targetStep: "Please enter a target amount in steps of RM 1,000 (such as 1,000, 2,000 or 3,000)",
  /** Our own message (the form's input takes digits only): text that is not a plain amount, such as 1,500 or 2k. */
  targetNumber: "Please enter the target amount in digits only, such as 2000",
  /** Our own message: a target beyond what integer cents can hold exactly. */
  targetTooLarge: "That target amount is too large",
  endDateMissing: "Please select an end date",
  /** Our own message (the date input offers only real days): a day that does not exist, such as 2027-02-31. */
  endDateInvalid: "That end date does not exist; please choose a real day",
  endDatePast: "End date must be in the future",
  tiersTooFew: "Please provide at least 2 valid discount tiers",
  thresholdOrder: "Each tier must have a higher sales threshold than the previous tier",
  discountOrder: "Each tier must have a higher discount percentage than the previous tier",
  /** Our own message (the form cannot add a 7th tier): used when a request carries more than 6. */
  tiersTooMany: "A group buy can have at most 6 discount tiers",
} as const;

/** A tier row as the form submits it: whole RM threshold and whole percent, as text or numbers. */
export interface GroupBuyTierInput {
  salesThreshold: unknown;
  discountPercentage: unknown;
}

export interface GroupBuyFormInput {
  name: unknown;
  description: unknown;
  /** RM, e.g. "5000". */
  targetAmount: unknown;
  /** "YYYY-MM-DD" from the date input (the end of that day, UTC) or a full timestamp. */
  endDate: unknown;
  tiers: readonly GroupBuyTierInput[];
}

export interface GroupBuyForm {
  name: string;
  description: string;
  targetCents: number;
  endAt: Date;
  tiers: GroupBuyTier[];
}

export type GroupBuyField = "name" | "description" | "targetAmount" | "endDate" | "tiers";

export type GroupBuyFormResult =
  { ok: true; value: GroupBuyForm } | { ok: false; field: GroupBuyField; message: string };

/** A tier value read as a whole number; invalid input becomes 0 ("12.7" -> 12, "abc" -> 0). */
export function parseTierNumber(value: unknown): number {
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : 0;
  if (typeof value === "string") {
    const parsed = Number.parseInt(value.trim(), 10);
    return Number.isFinite(parsed) ? parsed : 0;
  }
  return 0;
}

/** The end of a date-only value's day in UTC, or the instant of a full timestamp; null when absent or invalid. */
function parseEndDate(value: unknown): Date | null {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) {
    const day = parseDay(value.trim());
    return day ? new Date(day.getTime() + MS_PER_DAY - 1) : null;
  }
  return parseInstant(value);
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Validates the create/edit form in the order of its fields and returns the first failure (the screen shows one alert):
 * name, description, target (at least RM 1,000 in steps of 1,000), end date present, end date in the future, then
 * the tiers. Only tiers with a threshold of at least 0 and a discount above 0 up to 50 count; at least 2 must; each
 * counted tier, compared with the counted tier before it, needs a higher threshold and then a higher discount.
 */
export function validateGroupBuyForm(input: GroupBuyFormInput, now: Date): GroupBuyFormResult {
  const name = text(input.name);
  if (name === "") return { ok: false, field: "name", message: GROUP_BUY_MESSAGES.name };
  if (name.length > GROUP_BUY_NAME_MAX) return { ok: false, field: "name", message: GROUP_BUY_MESSAGES.nameTooLong };
  const description = text(input.description);
  if (description === "") return { ok: false, field: "description", message: GROUP_BUY_MESSAGES.description };
  if (description.length > GROUP_BUY_DESCRIPTION_MAX) {
    return { ok: false, field: "description", message: GROUP_BUY_MESSAGES.descriptionTooLong };
  }

  const targetCents = parseMoneyToCents(input.targetAmount);
  if (targetCents === null) {
    const problem = moneyTextProblem(input.targetAmount);
    const message =
      problem === "invalid"
        ? GROUP_BUY_MESSAGES.targetNumber
        : problem === "decimals"
          ? GROUP_BUY_MESSAGES.targetStep
          : problem === "tooLarge"
            ? GROUP_BUY_MESSAGES.targetTooLarge
            : GROUP_BUY_MESSAGES.target;
    return { ok: false, field: "targetAmount", message };
  }
  if (targetCents < GROUP_BUY_TARGET_MIN_CENTS)
    return { ok: false, field: "targetAmount", message: GROUP_BUY_MESSAGES.target };
  if (targetCents % GROUP_BUY_TARGET_STEP_CENTS !== 0) {
    return { ok: false, field: "targetAmount", message: GROUP_BUY_MESSAGES.targetStep };
  }

  const endAt = parseEndDate(input.endDate);
  if (!endAt) {
    const dayShaped = typeof input.endDate === "string" && /^\d{4}-\d{2}-\d{2}$/.test(input.endDate.trim());
    return {
      ok: false,
      field: "endDate",
      message: dayShaped ? GROUP_BUY_MESSAGES.endDateInvalid : GROUP_BUY_MESSAGES.endDateMissing,
    };
  }
  if (endAt.getTime() <= now.getTime()) return { ok: false, field: "endDate", message: GROUP_BUY_MESSAGES.endDatePast };

  const tiers: GroupBuyTier[] = input.tiers
    .map((row) => ({
      threshold: parseTierNumber(row.salesThreshold),
      discountPercent: parseTierNumber(row.discountPercentage),
    }))
    .filter(
      (tier) =>
        tier.threshold >= 0 &&
        tier.discountPercent > 0 &&
        tier.discountPercent <= GROUP_BUY_DISCOUNT_MAX &&
        Number.isSafeInteger(tier.threshold * 100),
    )
    .map((tier) => ({ salesThresholdCents: tier.threshold * 100, discountPercent: tier.discountPercent }));
  if (tiers.length < GROUP_BUY_TIERS_MIN) {
    return { ok: false, field: "tiers", message: GROUP_BUY_MESSAGES.tiersTooFew };
  }
  for (let i = 1; i < tiers.length; i++) {
    const previous = tiers[i - 1] as GroupBuyTier;
    const tier = tiers[i] as GroupBuyTier;
    if (tier.salesThresholdCents <= previous.salesThresholdCents) {
      return { ok: false, field: "tiers", message: GROUP_BUY_MESSAGES.thresholdOrder };
    }
    if (tier.discountPercent <= previous.discountPercent) {
      return { ok: false, field: "tiers", message: GROUP_BUY_MESSAGES.discountOrder };
    }
  }
  if (input.tiers.length > GROUP_BUY_TIERS_MAX) {
    return { ok: false, field: "tiers", message: GROUP_BUY_MESSAGES.tiersTooMany };
  }

  return { ok: true, value: { name, description, targetCents, endAt, tiers } };
}

// --- finalisation -------------------------------------------------------------------------------------------------

/** One paid order of a group buy as finalisation sees it (all amounts in the order's own minor units). */
export interface GroupBuyOrderMoney {
  orderId: string;
  /** What the buyer was charged (the original price times quantity). */
  paidCents: number;
  /** What was refunded before finalisation (host refunds, returns, lost disputes). */
  refundedCents: number;
  /** The RM value of `paidCents`, converted with the rate table at payment and stored on the order. */
  salesRmCents: number;
  /** The pool percent recorded on the order at payment (the group-buy share of the platform settings). */
  poolPercent: number;
  /** The group-buy platform fee recorded on the order at payment; 0 when absent. */
  platformFeePercent?: number;
}

/** What one order gets at finalisation. */
export interface GroupBuyOrderRefund {
  orderId: string;
  /** The refund to send now; 0 means no refund (never negative). */
  refundCents: number;
  /** What the buyer finally pays: paid minus every refund. */
  finalPriceCents: number;
  /** The pool share to reverse for this refund: what the pool gives back for it (`reversedPartCents` of the order's share). */
  poolReversalCents: number;
}

export interface GroupBuyFinalisation {
  /** Sales in RM net of earlier refunds, the figure the tier and the target are judged on. */
  netSalesRmCents: number;
  targetMet: boolean;
  /** The discount of the final tier when the target was met; 0 otherwise (the original price stands). */
  finalDiscountPercent: number;
  refunds: GroupBuyOrderRefund[];
}

function assertOrderMoney(order: GroupBuyOrderMoney): void {
  for (const [name, value] of [
    ["paidCents", order.paidCents],
    ["refundedCents", order.refundedCents],
    ["salesRmCents", order.salesRmCents],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
  }
  if (order.refundedCents > order.paidCents) throw new RangeError("refundedCents cannot exceed paidCents");
}

/**
 * The RM value of what is left of an order after earlier refunds: its RM value at payment scaled by the share not
 * refunded, rounded half up once per order. An order refunded in full counts 0.
 */
export function netSalesRmCents(order: GroupBuyOrderMoney): number {
  assertOrderMoney(order);
  if (order.paidCents === 0) return 0;
  const net = BigInt(order.paidCents - order.refundedCents);
  return Number(divideRoundHalfUp(BigInt(order.salesRmCents) * net, BigInt(order.paidCents)));
}

/**
 * The rule a group-buy order is split by: the pool percent and the group-buy platform fee recorded on it at payment
 * (metadata `pool_percent`, `platform_fee_percent`), the host the rest. Its sale row in the earnings ledger
 * (`saleShares`) and its pool contribution (`poolShareCents`) are split by this one rule.
 */
export function groupBuyOrderRule(poolPercent: number, platformFeePercent = 0): RevenueRule {
  return {
    prizePoolPercent: poolPercent,
    platformFeePercent,
    hostPercent: Math.round((100 - poolPercent - platformFeePercent) * 100) / 100,
  };
}

/** The rule recorded on a group-buy order's metadata at payment, each part else the rule in force (`fallback`). */
export function recordedGroupBuyRule(
  metadata: Record<string, unknown> | null | undefined,
  fallback: RevenueRule,
): RevenueRule {
  const recorded = (key: string, otherwise: number) => {
    const value = metadata?.[key];
    return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 100 ? value : otherwise;
  };
  return groupBuyOrderRule(
    recorded("pool_percent", fallback.prizePoolPercent),
    recorded("platform_fee_percent", fallback.platformFeePercent),
  );
}

/**
 * The pool share of an amount at a recorded pool percent and group-buy platform fee. One rule for the pool and the
 * earnings ledger (docs/decisions/380-held-payment-events.md): the pool part of the order's sale split by largest
 * remainder (`splitByPercents` in the order pool, host, platform fee, as `saleShares` books it), per order, never per
 * cart or per group buy. With no platform fee it is the exact share rounded half up.
 */
export function poolShareCents(netCents: number, poolPercent: number, platformFeePercent = 0): number {
  if (!Number.isSafeInteger(netCents) || netCents < 0) throw new RangeError("netCents must be a non-negative integer");
  const rule = groupBuyOrderRule(poolPercent, platformFeePercent);
  return splitByPercents(netCents, [rule.prizePoolPercent, rule.hostPercent, rule.platformFeePercent])[0] ?? 0;
}

/** The refund of one order taking it from its current net amount down to `targetNetCents` (never below 0). */
function refundTo(order: GroupBuyOrderMoney, targetNetCents: number): GroupBuyOrderRefund {
  const netBefore = order.paidCents - order.refundedCents;
  const finalPriceCents = Math.max(0, Math.min(netBefore, targetNetCents));
  const refundCents = netBefore - finalPriceCents;
  return {
    orderId: order.orderId,
    refundCents,
    finalPriceCents,
    // The pool gives back its share by the one rule of money flowing back, as the pool itself computes it (decision 380).
    poolReversalCents:
      reversedPartCents(
        poolShareCents(order.paidCents, order.poolPercent, order.platformFeePercent),
        order.paidCents,
        order.paidCents - finalPriceCents,
      ) -
      reversedPartCents(
        poolShareCents(order.paidCents, order.poolPercent, order.platformFeePercent),
        order.paidCents,
        order.refundedCents,
      ),
  };
}

/**
 * Finalises a group buy: the final tier is judged on net RM sales; when the target is met, every order is refunded
 * what it paid net of earlier refunds minus its price at the final tier (the original paid amount minus
 * `perOrderRefundCents`, so the discount is rounded in the buyer's favour), never a negative amount. When the
 * target is not met the original price stands and nothing is refunded. Money conserves to the cent:
 * sum(paid) - sum(earlier refunds) - sum(refunds) = sum(final prices).
 */
export function planGroupBuyFinalisation(
  tiers: readonly GroupBuyTier[],
  targetRmCents: number,
  orders: readonly GroupBuyOrderMoney[],
): GroupBuyFinalisation {
  const netSales = orders.reduce((sum, order) => sum + netSalesRmCents(order), 0);
  const targetMet = netSales >= targetRmCents;
  const discount = finalDiscountPercent(tiers, netSales, targetRmCents);
  return {
    netSalesRmCents: netSales,
    targetMet,
    finalDiscountPercent: discount,
    refunds: planTierRefunds(orders, discount),
  };
}

/**
 * The refunds of a final discount already decided (stored when the group buy was closed): what a resumed close
 * records for orders that have no end refund yet.
 */
export function planTierRefunds(orders: readonly GroupBuyOrderMoney[], discountPercent: number): GroupBuyOrderRefund[] {
  return orders.map((order) => {
    assertOrderMoney(order);
    return refundTo(order, order.paidCents - perOrderRefundCents(order.paidCents, discountPercent));
  });
}

/** A cancelled group buy refunds every order in full (whatever is left after earlier refunds). */
export function planGroupBuyCancellation(orders: readonly GroupBuyOrderMoney[]): GroupBuyOrderRefund[] {
  return orders.map((order) => {
    assertOrderMoney(order);
    return refundTo(order, 0);
  });
}

/** The host may complete a group buy early only once its target is met (net RM sales at or above the target). */
export function canCompleteEarly(netSalesRm: number, targetRmCents: number): boolean {
  return netSalesRm >= targetRmCents;
}

export const GROUP_BUY_ACTION_MESSAGES = {
  /** A selection line's quantity: 0 (not chosen) to the order maximum, in whole units. */
  quantity: `Please choose a quantity from 0 to ${MAX_ORDER_QUANTITY}`,
  onlyOneActive: "Only one group buy can be active at a time",
  completedNotEditable: "A completed group buy cannot be edited",
  cancelledNotEditable: "A cancelled group buy cannot be edited",
  lessFavourable: "Once a fan has joined, the target and tiers cannot become less favourable",
  earlyBelowTarget: "The group buy can be completed early only once its target is met",
  deleteConfirm: "Are you sure you want to delete this group buy? This action cannot be undone.",
  ended: "This group buy has ended",
  notActive: "This group buy is not open for orders",
  selectProduct: "Please select at least one product",
  tooManyProducts: `Please choose at most ${MAX_GROUP_BUY_LINES} products in one checkout`,
  productsRequired: "Please choose at least one of your products",
  linkCopied: "Link Copied!",
} as const;

/**
 * Once a fan has joined, an edit may not make the terms less favourable to them: the target may not rise (a higher
 * target is harder to meet), and at every sales level the discount the new tiers give must be at least the old one.
 */
export function isLessFavourable(
  before: { targetCents: number; tiers: readonly GroupBuyTier[] },
  after: { targetCents: number; tiers: readonly GroupBuyTier[] },
): boolean {
  if (after.targetCents > before.targetCents) return true;
  const levels = new Set<number>([...before.tiers, ...after.tiers].map((t) => t.salesThresholdCents));
  for (const level of levels) {
    const old = currentTier(before.tiers, level)?.discountPercent ?? 0;
    const next = currentTier(after.tiers, level)?.discountPercent ?? 0;
    if (next < old) return true;
  }
  return false;
}

/** Share for 2x Entry: the checkout earns one entry, two when the fan shared this group buy. */
export const GROUP_BUY_ENTRIES_PER_CHECKOUT = 1;
export const GROUP_BUY_SHARED_ENTRIES_PER_CHECKOUT = 2;
export function groupBuyEntriesForCheckout(shared: boolean): number {
  return shared ? GROUP_BUY_SHARED_ENTRIES_PER_CHECKOUT : GROUP_BUY_ENTRIES_PER_CHECKOUT;
}
/** How long 'Link Copied!' shows after Share for 2x Entry. */
export const LINK_COPIED_MS = 2000;
