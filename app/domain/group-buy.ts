// Group buys: discount tiers by sales, refunds of the difference, and the create/edit form rules.
// Buyers are charged the original price; when the group buy ends, the final tier's discount is refunded per order.

import { parseInstant } from "./countdown";
import { parseMoneyToCents, percentToBasisPoints, progressPercent } from "./money";

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
/** Only one group buy may be active at a time. */
export const MAX_ACTIVE_GROUP_BUYS = 1;

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

export const GROUP_BUY_MESSAGES = {
  name: "Please enter a group buy name",
  description: "Please enter a description",
  target: "Please enter a target amount of at least RM 1,000",
  endDateMissing: "Please select an end date",
  endDatePast: "End date must be in the future",
  tiersTooFew: "Please provide at least 2 valid discount tiers",
  thresholdOrder: "Each tier must have a higher sales threshold than the previous tier",
  discountOrder: "Each tier must have a higher discount percentage than the previous tier",
  /** Not in the spec (its form cannot add a 7th tier); used when a request carries more than 6. */
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
  | { ok: true; value: GroupBuyForm }
  | { ok: false; field: GroupBuyField; message: string };

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
    return parseInstant(`${value.trim()}T23:59:59.999Z`);
  }
  return parseInstant(value);
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Validates the create/edit form in the spec's order and returns the first failure (the screen shows one alert):
 * name, description, target (at least RM 1,000 in steps of 1,000), end date present, end date in the future, then
 * the tiers. Only tiers with a threshold of at least 0 and a discount above 0 up to 50 count; at least 2 must; each
 * counted tier, compared with the counted tier before it, needs a higher threshold and then a higher discount.
 */
export function validateGroupBuyForm(input: GroupBuyFormInput, now: Date): GroupBuyFormResult {
  const name = text(input.name);
  if (name === "") return { ok: false, field: "name", message: GROUP_BUY_MESSAGES.name };
  const description = text(input.description);
  if (description === "") return { ok: false, field: "description", message: GROUP_BUY_MESSAGES.description };

  const targetCents = parseMoneyToCents(input.targetAmount);
  if (
    targetCents === null ||
    targetCents < GROUP_BUY_TARGET_MIN_CENTS ||
    targetCents % GROUP_BUY_TARGET_STEP_CENTS !== 0
  ) {
    return { ok: false, field: "targetAmount", message: GROUP_BUY_MESSAGES.target };
  }

  const endAt = parseEndDate(input.endDate);
  if (!endAt) return { ok: false, field: "endDate", message: GROUP_BUY_MESSAGES.endDateMissing };
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
