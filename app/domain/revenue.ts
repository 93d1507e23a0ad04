// Revenue splits per source, the prize-pool distribution, host totals and contribution labels.

import { parseMoneyToCents, percentOf, splitByPercents } from "./money";

// --- revenue split per source ---------------------------------------------------------------------------------

export const REVENUE_SOURCES = ["shop_sales", "guess_win_entries", "ad_revenue", "group_buy_sales"] as const;
export type RevenueSource = (typeof REVENUE_SOURCES)[number];

/** How one source's money is divided, in percent (at most two decimals each, adding up to 100). */
export interface RevenueRule {
  platformFeePercent: number;
  prizePoolPercent: number;
  hostPercent: number;
}

export type RevenueRules = Readonly<Record<RevenueSource, Readonly<RevenueRule>>>;

/** Defaults used when the platform setting is missing or invalid (platform fee / prize pool / host). */
export const DEFAULT_REVENUE_RULES: RevenueRules = {
  shop_sales: { platformFeePercent: 0, prizePoolPercent: 10, hostPercent: 90 },
  guess_win_entries: { platformFeePercent: 0, prizePoolPercent: 100, hostPercent: 0 },
  ad_revenue: { platformFeePercent: 20, prizePoolPercent: 30, hostPercent: 50 },
  group_buy_sales: { platformFeePercent: 0, prizePoolPercent: 10, hostPercent: 90 },
};

/** The platform_settings key whose setting_value overrides the defaults. */
export const REVENUE_RULES_SETTING_KEY = "revenue_distribution_rules";

/** Host deposits go 100% to the pool. */
export const HOST_DEPOSIT_POOL_PERCENT = 100;

export interface RevenueSplit {
  prizePool: number;
  host: number;
  platformFee: number;
}

/**
 * Divides an amount from one source into prize pool, host and platform fee parts that add up to the amount
 * exactly (largest-remainder rounding of `splitByPercents`, in the order prize pool, host, platform fee, so a
 * tied leftover cent goes to the pool first).
 */
export function splitRevenue(
  source: RevenueSource,
  amountCents: number,
  rules: RevenueRules = DEFAULT_REVENUE_RULES,
): RevenueSplit {
  const rule = rules[source];
  const [prizePool = 0, host = 0, platformFee = 0] = splitByPercents(amountCents, [
    rule.prizePoolPercent,
    rule.hostPercent,
    rule.platformFeePercent,
  ]);
  return { prizePool, host, platformFee };
}

/** The part of an amount that feeds the prize pool (the `prizePool` part of `splitRevenue`). */
export function poolContributionCents(
  source: RevenueSource,
  amountCents: number,
  rules: RevenueRules = DEFAULT_REVENUE_RULES,
): number {
  return splitRevenue(source, amountCents, rules).prizePool;
}

// --- prize pool distribution ----------------------------------------------------------------------------------

export const MAIN_PRIZE_PERCENT = 60;
export const HOST_POOL_SHARE_PERCENT = 25;
export const PLATFORM_POOL_SHARE_PERCENT = 15;

export interface PoolDistribution {
  mainPrize: number;
  hostShare: number;
  platformShare: number;
}

/**
 * Splits a pool into main prize 60%, host 25%, platform 15%. The parts always add up to the pool: each is
 * rounded down and the leftover cents go to the largest dropped fractions, main prize first on a tie
 * (`distributePool(1)` -> 1/0/0, `distributePool(101)` -> 61/25/15).
 */
export function distributePool(poolCents: number): PoolDistribution {
  const [mainPrize = 0, hostShare = 0, platformShare = 0] = splitByPercents(poolCents, [
    MAIN_PRIZE_PERCENT,
    HOST_POOL_SHARE_PERCENT,
    PLATFORM_POOL_SHARE_PERCENT,
  ]);
  return { mainPrize, hostShare, platformShare };
}

// --- contributions --------------------------------------------------------------------------------------------

export const CONTRIBUTION_TYPES = [
  "product_purchase",
  "guess_entry",
  "ad_revenue",
  "group_buy_entry",
  "host_deposit",
  "manual_adjustment",
  "refund",
  "withdrawal",
  "carry_over",
  // Issue 29's free routes: an entry with no money (amount 0).
  "free_entry",
  "postal_entry",
] as const;
export type ContributionType = (typeof CONTRIBUTION_TYPES)[number];

export const CONTRIBUTION_LABELS: Readonly<Record<ContributionType, string>> = {
  product_purchase: "Store Sales",
  guess_entry: "Entry Fees",
  ad_revenue: "Ad Revenue",
  group_buy_entry: "Group Buy Entries",
  host_deposit: "Host Deposits",
  manual_adjustment: "Manual Adjustments",
  refund: "Refunds",
  withdrawal: "Withdrawals",
  carry_over: "Carried Over",
  free_entry: "Free Entries",
  postal_entry: "Postal Entries",
};

export const OTHER_CONTRIBUTION_LABEL = "Other";

export function isContributionType(type: unknown): type is ContributionType {
  return typeof type === "string" && (CONTRIBUTION_TYPES as readonly string[]).includes(type);
}

/** The display label of a contribution source type; anything unknown is 'Other'. */
export function contributionLabel(type: unknown): string {
  return isContributionType(type) ? CONTRIBUTION_LABELS[type] : OTHER_CONTRIBUTION_LABEL;
}

/** Sources listed with zero on the pool management screen when a pool has no contributions yet. */
export const CONTRIBUTION_PLACEHOLDER_TYPES: readonly ContributionType[] = [
  "product_purchase",
  "guess_entry",
  "ad_revenue",
  "group_buy_entry",
  "host_deposit",
];

/** The revenue rule that governs a contribution type, or null for types not split by a rule (deposits, adjustments). */
export function revenueSourceForContribution(type: ContributionType): RevenueSource | null {
  switch (type) {
    case "product_purchase":
      return "shop_sales";
    case "guess_entry":
      return "guess_win_entries";
    case "ad_revenue":
      return "ad_revenue";
    case "group_buy_entry":
      return "group_buy_sales";
    default:
      return null;
  }
}

// --- host balance and sample figures --------------------------------------------------------------------------

/** Platform fee on the host's balance; the withdrawable balance is the balance minus this fee. */
export const BALANCE_PLATFORM_FEE_PERCENT = 4;

/**
 * Balance minus the platform fee (4%, or the platform setting); the fee is rounded down, in the host's favour.
 * Nothing is withdrawable from a zero or negative balance (a negative balance blocks withdrawals).
 */
export function withdrawableBalanceCents(
  balanceCents: number,
  feePercent: number = BALANCE_PLATFORM_FEE_PERCENT,
): number {
  if (balanceCents <= 0) return 0;
  return balanceCents - percentOf(balanceCents, feePercent);
}

export const WITHDRAW_INVALID_AMOUNT = "Please enter a valid amount to withdraw";
export const WITHDRAW_EXCEEDS_BALANCE = "Withdrawal amount cannot exceed your withdrawable balance";

/** The smallest withdrawal: the withdraw dialog's amount input has min 1. */
export const WITHDRAW_MIN_CENTS = 100;

/** Validates a withdrawal amount typed as decimal text (at least 1) against the withdrawable balance (both in cents). */
export function validateWithdrawal(
  amountInput: unknown,
  withdrawableCents: number,
): { ok: true; amountCents: number } | { ok: false; message: string } {
  const amountCents = parseMoneyToCents(amountInput);
  if (amountCents === null || amountCents < WITHDRAW_MIN_CENTS) return { ok: false, message: WITHDRAW_INVALID_AMOUNT };
  if (amountCents > withdrawableCents) return { ok: false, message: WITHDRAW_EXCEEDS_BALANCE };
  return { ok: true, amountCents };
}

/** The pool's share of a revenue source as page copy reads it ("10%", "12.5%"), from the rules in force. */
export function poolShareText(rules: RevenueRules, source: RevenueSource): string {
  return `${rules[source].prizePoolPercent}%`;
}
