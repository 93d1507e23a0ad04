// The host earnings ledger: what each money event adds to or takes from a host's balance, when money becomes
// available, the platform fee on withdrawals, revenue periods and the daily series. Pure: no I/O.
//
// Every row of the ledger (earnings_ledger) is one money event and is never edited. A row records the money the
// event moved in full (gross: what the buyer was charged, the ad revenue received, a refund as a negative amount)
// and its parts at the rates in force when it happened: the host's part (`amountCents`, what the row adds to or
// takes from the host's balance), the prize pool's and the platform's. Balances are sums of rows.

import { MS_PER_DAY, parseDay } from "./countdown";
import { splitByPercents } from "./money";
import { RETURN_WINDOW_DAYS, reversedPartCents } from "./payments";
import { BALANCE_PLATFORM_FEE_PERCENT, distributePool, withdrawableBalanceCents, type RevenueRule } from "./revenue";

export const EARNING_KINDS = [
  /** The host's share of a shop sale (buy now). */
  "shop_sale",
  /** The host's share of a group-buy order, booked once the group buy is finalised (net of its tier refund). */
  "group_buy_sale",
  /** A Guess & Win entry fee (by default 100% to the pool, so the host's part is 0; recorded for the totals). */
  "guess_entry",
  /** The host's share of ad revenue the platform owner recorded for a period. */
  "ad_revenue",
  /** The host's 25% of a drawn pool. */
  "pool_share",
  /** A refund (or a lost dispute) of a sale: the host's part taken back; after the pool closed, the pool's part too. */
  "refund",
  /** The platform fee on a withdrawal (4% by default), one row per withdrawal attempt. */
  "platform_fee",
  /** Money leaving to the host's payout account. */
  "withdrawal",
  /** A cancelled, refused or reversed withdrawal: its amount returns. */
  "withdrawal_return",
  /** The fee of a cancelled, refused or reversed withdrawal returns. */
  "fee_return",
] as const;
export type EarningKind = (typeof EARNING_KINDS)[number];

export const EARNING_KIND_LABELS: Readonly<Record<EarningKind, string>> = {
  shop_sale: "Shop Sale",
  group_buy_sale: "Group Buy",
  guess_entry: "Guess & Win Entry",
  ad_revenue: "Ad Revenue",
  pool_share: "Prize Pool Share",
  refund: "Refund",
  platform_fee: "Platform Fee",
  withdrawal: "Withdrawal",
  withdrawal_return: "Withdrawal Returned",
  fee_return: "Platform Fee Returned",
};

export function isEarningKind(value: unknown): value is EarningKind {
  return typeof value === "string" && (EARNING_KINDS as readonly string[]).includes(value);
}

/** Kinds that are revenue (money paid in by fans or advertisers), in the order the revenue pages list them. */
export const REVENUE_KINDS = ["shop_sale", "guess_entry", "ad_revenue", "group_buy_sale"] as const;
export type RevenueKind = (typeof REVENUE_KINDS)[number];

export const REVENUE_KIND_LABELS: Readonly<Record<RevenueKind, string>> = {
  shop_sale: "Shop Sales",
  guess_entry: "Guess & Win",
  ad_revenue: "Ad Revenue",
  group_buy_sale: "Group Buy",
};

// --- shares ---------------------------------------------------------------------------------------------------

/** The parts of one money event. gross = host + pool + platform, always. */
export interface EventShares {
  grossCents: number;
  hostCents: number;
  poolCents: number;
  platformCents: number;
}

/**
 * A sale (or entry fee, or ad revenue) split by the revenue rule in force when it was paid. The parts add up to
 * the gross exactly (largest remainder, pool first, then host, then platform: the rounding of `splitRevenue`).
 */
export function saleShares(grossCents: number, rule: RevenueRule): EventShares {
  const [poolCents = 0, hostCents = 0, platformCents = 0] = splitByPercents(grossCents, [
    rule.prizePoolPercent,
    rule.hostPercent,
    rule.platformFeePercent,
  ]);
  return { grossCents, hostCents, poolCents, platformCents };
}

/**
 * A refund of `refundCents` (positive) of a sale of which `alreadyRefundedCents` were refunded before, split in the
 * proportions the sale was recorded with. The parts of all refunds so far are computed together (pool and platform
 * rounded down, the host the rest) and this refund takes the difference, so partial refunds never give back more
 * than a part held and refunding the whole sale takes back exactly its parts. While the sale's pool is open the pool
 * gives back its part; once it has closed the pool never shrinks, so the host carries the pool's part too
 * (`poolClosed`). All parts are negative (or zero).
 */
export function refundShares(
  refundCents: number,
  sale: EventShares,
  alreadyRefundedCents: number,
  poolClosed: boolean,
): EventShares {
  if (!Number.isSafeInteger(refundCents) || refundCents <= 0) throw new RangeError("refund must be a positive integer");
  if (!Number.isSafeInteger(alreadyRefundedCents) || alreadyRefundedCents < 0)
    throw new RangeError("already refunded must be 0 or more");
  if (alreadyRefundedCents + refundCents > sale.grossCents) throw new RangeError("refund exceeds the sale");
  const before = cumulativeParts(alreadyRefundedCents, sale);
  const after = cumulativeParts(alreadyRefundedCents + refundCents, sale);
  const pool = after.pool - before.pool;
  const platform = after.platform - before.platform;
  const host = refundCents - pool - platform;
  return poolClosed
    ? { grossCents: -refundCents, hostCents: -(host + pool), poolCents: 0, platformCents: -platform }
    : { grossCents: -refundCents, hostCents: -host, poolCents: -pool, platformCents: -platform };
}

/** The parts of a sale given back once `refunded` of it is, by the one rule of money flowing back (`reversedPartCents`). */
function cumulativeParts(refunded: number, sale: EventShares): { pool: number; platform: number } {
  return {
    pool: reversedPartCents(sale.poolCents, sale.grossCents, refunded),
    platform: reversedPartCents(sale.platformCents, sale.grossCents, refunded),
  };
}

// --- pending and available ------------------------------------------------------------------------------------

/** The host may refund an order from /orders for 14 days after it was paid. */
export const HOST_REFUND_WINDOW_DAYS = 14;

/**
 * When a sale's money becomes available to withdraw: once both the buyer's return window (7 days after delivery)
 * and the host's refund window (14 days after payment) have passed. Digital products and vouchers are delivered
 * at payment. A physical order not delivered yet has no date: its money stays pending (null). Guess entries, ad
 * revenue, pool shares, and all debits (refunds, fees, withdrawals) are available when they happen.
 */
export function saleAvailableAt(paidAt: Date, deliveredAt: Date | null): Date | null {
  if (!deliveredAt) return null;
  return new Date(
    Math.max(
      paidAt.getTime() + HOST_REFUND_WINDOW_DAYS * MS_PER_DAY,
      deliveredAt.getTime() + RETURN_WINDOW_DAYS * MS_PER_DAY,
    ),
  );
}

// --- platform fee and withdrawals -----------------------------------------------------------------------------

/**
 * The platform fee booked with a withdrawal of `amountCents` from an available balance of `balanceCents`: the
 * smallest fee after which "withdrawable = balance - fee" still holds exactly, i.e. what stays withdrawable is the
 * withdrawable balance before minus the amount. So any sequence of withdrawals takes out at most what was
 * withdrawable at the start, and never more than the balance (the fee is at most 4% of the balance).
 */
export function withdrawalFeeCents(
  amountCents: number,
  balanceCents: number,
  feePercent: number = BALANCE_PLATFORM_FEE_PERCENT,
): number {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError("amount must be a positive integer");
  const withdrawable = withdrawableBalanceCents(balanceCents, feePercent);
  if (amountCents > withdrawable) throw new RangeError("amount exceeds the withdrawable balance");
  const target = withdrawable - amountCents;
  // withdrawableBalanceCents(balance - amount - fee) falls by 0 or 1 per cent of fee: binary search the first hit.
  let lo = 0;
  let hi = balanceCents - amountCents;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (withdrawableBalanceCents(balanceCents - amountCents - mid, feePercent) <= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// --- periods --------------------------------------------------------------------------------------------------

export const REVENUE_PERIODS = ["week", "month", "year"] as const;
export type RevenuePeriod = (typeof REVENUE_PERIODS)[number];
export const DEFAULT_REVENUE_PERIOD: RevenuePeriod = "month";
export const REVENUE_PERIOD_LABELS: Readonly<Record<RevenuePeriod, string>> = {
  week: "Week",
  month: "Month",
  year: "Year",
};
/** A custom range may span at most this many days. */
export const MAX_CUSTOM_RANGE_DAYS = 366;

export function isRevenuePeriod(value: unknown): value is RevenuePeriod {
  return typeof value === "string" && (REVENUE_PERIODS as readonly string[]).includes(value);
}

/** A half-open range of instants [start, end). Days are UTC calendar days. */
export interface DateRange {
  start: Date;
  end: Date;
}

function utcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/**
 * The range of a revenue period ending with today (UTC): week = the last 7 days including today, month = from the
 * 1st of this month, year = from 1 January. The end is the start of tomorrow.
 */
export function periodRange(period: RevenuePeriod, now: Date): DateRange {
  const today = utcDay(now);
  const end = new Date(today.getTime() + MS_PER_DAY);
  switch (period) {
    case "week":
      return { start: new Date(today.getTime() - 6 * MS_PER_DAY), end };
    case "month":
      return { start: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)), end };
    case "year":
      return { start: new Date(Date.UTC(today.getUTCFullYear(), 0, 1)), end };
  }
}

export const DATE_RANGE_MESSAGES = {
  invalid: "Please enter valid dates (YYYY-MM-DD).",
  order: "The start date must be on or before the end date.",
  tooLong: `Please choose a range of at most ${MAX_CUSTOM_RANGE_DAYS} days.`,
} as const;

export function dayKey(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A custom range of whole days, both ends included: 'from' 00:00 to the start of the day after 'to'. */
export function customRange(
  from: unknown,
  to: unknown,
): { ok: true; range: DateRange } | { ok: false; message: string } {
  const start = parseDay(from);
  const last = parseDay(to);
  if (!start || !last) return { ok: false, message: DATE_RANGE_MESSAGES.invalid };
  if (last < start) return { ok: false, message: DATE_RANGE_MESSAGES.order };
  const end = new Date(last.getTime() + MS_PER_DAY);
  if ((end.getTime() - start.getTime()) / MS_PER_DAY > MAX_CUSTOM_RANGE_DAYS)
    return { ok: false, message: DATE_RANGE_MESSAGES.tooLong };
  return { ok: true, range: { start, end } };
}

/** Every UTC day of a range with its total (days without money are 0), for the daily chart. */
export function dailySeries(range: DateRange, totals: ReadonlyMap<string, number>): { day: string; cents: number }[] {
  const out: { day: string; cents: number }[] = [];
  for (let t = utcDay(range.start).getTime(); t < range.end.getTime(); t += MS_PER_DAY) {
    const day = dayKey(new Date(t));
    out.push({ day, cents: totals.get(day) ?? 0 });
  }
  return out;
}

// --- CSV ------------------------------------------------------------------------------------------------------

export const EARNINGS_CSV_HEADER = [
  "Date",
  "Type",
  "Description",
  "Reference",
  "Gross",
  "Prize Pool",
  "Platform",
  "Your Earnings",
  "Currency",
  "Status",
] as const;

// --- ad revenue -----------------------------------------------------------------------------------------------

/** Click-through rate as a percentage with one decimal ("2.5"); "0.0" without impressions. */
export function clickThroughRateText(clicks: number, impressions: number): string {
  if (impressions <= 0) return "0.0";
  const tenths = (BigInt(clicks) * 1000n * 2n + BigInt(impressions)) / (2n * BigInt(impressions));
  return `${tenths / 10n}.${tenths % 10n}`;
}

export const AD_REVENUE_MESSAGES = {
  host: "Please choose a host.",
  amount: "Please enter the ad revenue amount (more than 0).",
  impressions: "Please enter the number of impressions (a whole number, 0 or more).",
  clicks: "Clicks must be a whole number between 0 and the number of impressions.",
  duplicate: "Ad revenue for this host and period has already been recorded.",
} as const;

/** The platform_settings key of the withdrawal fee percent (default `BALANCE_PLATFORM_FEE_PERCENT`, 4). */
export const WITHDRAWAL_FEE_SETTING_KEY = "withdrawal_fee_percent";

export type PeriodChoice =
  | { period: RevenuePeriod; range: DateRange; from: string; to: string; error: null }
  | { period: "custom"; range: DateRange; from: string; to: string; error: string | null };

/**
 * The period of a revenue page from its query (`period=week|month|year`, or `from`/`to` days for a custom range).
 * Anything unknown is the default month; an invalid custom range falls back to the month with a message.
 */
export function choosePeriod(
  params: URLSearchParams,
  now: Date,
  fallback: RevenuePeriod = DEFAULT_REVENUE_PERIOD,
): PeriodChoice {
  const last = (range: DateRange) => dayKey(new Date(range.end.getTime() - MS_PER_DAY));
  const from = params.get("from");
  const to = params.get("to");
  if (params.get("period") === "custom" || from || to) {
    const custom = customRange(from, to);
    if (custom.ok) return { period: "custom", range: custom.range, from: from!, to: to!, error: null };
    const range = periodRange(fallback, now);
    return { period: "custom", range, from: from ?? "", to: to ?? "", error: custom.message };
  }
  const raw = params.get("period");
  const period = isRevenuePeriod(raw) ? raw : fallback;
  const range = periodRange(period, now);
  return { period, range, from: dayKey(range.start), to: last(range), error: null };
}

/** The query string of a period choice (for links such as Export and pagination). */
export function periodQuery(choice: PeriodChoice): string {
  return choice.period === "custom"
    ? `from=${encodeURIComponent(choice.from)}&to=${encodeURIComponent(choice.to)}`
    : `period=${choice.period}`;
}

// --- ledger rows of money events ---------------------------------------------------------------------------------
// One builder per kind of earning: the app books these rows (app/db/queries/earnings.server.ts) and the demo seed
// writes the same rows, so both follow one rule.

/** An earnings ledger row as booked (the columns of earnings_ledger a booking sets). */
export interface EarningRow {
  hostId: string;
  kind: EarningKind;
  sourceKey: string;
  amountCents: number;
  grossCents: number;
  poolCents: number;
  platformCents: number;
  currency: string;
  rates?: RevenueRule | null;
  description: string;
  orderId?: string | null;
  poolId?: string | null;
  referenceId?: string | null;
  availableAt: Date | null;
  occurredAt: Date;
}

/** The ledger's source key of a paid order (a shop or group-buy sale). */
export const saleSourceKey = (orderId: string) => `sale:${orderId}`;

/**
 * The host's share of a paid buy-now order at the rule in force when it was paid. Digital products and vouchers
 * are delivered at payment; a physical order's money stays pending until it is delivered (available_at null).
 */
export function shopSaleEarning(
  order: {
    id: string;
    hostId: string;
    amountCents: number;
    currency: string;
    productName: string;
    productCategory: string;
    paidAt: Date;
  },
  rule: RevenueRule,
): EarningRow {
  const shares = saleShares(order.amountCents, rule);
  return {
    hostId: order.hostId,
    kind: "shop_sale",
    sourceKey: saleSourceKey(order.id),
    amountCents: shares.hostCents,
    grossCents: shares.grossCents,
    poolCents: shares.poolCents,
    platformCents: shares.platformCents,
    currency: order.currency,
    rates: rule,
    description: order.productName,
    orderId: order.id,
    availableAt: order.productCategory !== "physical" ? saleAvailableAt(order.paidAt, order.paidAt) : null,
    occurredAt: order.paidAt,
  };
}

/** A paid Guess & Win entry fee (available at once; by default all of it went to the pool). */
export function guessEntryEarning(
  entry: {
    guessId: string;
    hostId: string;
    amountCents: number;
    currency: string;
    question: string;
    paidAt: Date;
  },
  rule: RevenueRule,
): EarningRow {
  const shares = saleShares(entry.amountCents, rule);
  return {
    hostId: entry.hostId,
    kind: "guess_entry",
    sourceKey: `guess:${entry.guessId}`,
    amountCents: shares.hostCents,
    grossCents: shares.grossCents,
    poolCents: shares.poolCents,
    platformCents: shares.platformCents,
    currency: entry.currency,
    rates: rule,
    description: entry.question,
    referenceId: entry.guessId,
    availableAt: entry.paidAt,
    occurredAt: entry.paidAt,
  };
}

/**
 * The host's 25% of a drawn pool (once per pool), recording the whole split: gross = the pool, pool = the main
 * prize (60%, the winner's), platform = 15%.
 */
export function poolShareEarning(pool: {
  id: string;
  hostId: string;
  amountCents: number;
  currency: string;
  settledAt: Date;
}): EarningRow {
  const split = distributePool(pool.amountCents);
  return {
    hostId: pool.hostId,
    kind: "pool_share",
    sourceKey: `pool-share:${pool.id}`,
    amountCents: split.hostShare,
    grossCents: pool.amountCents,
    poolCents: split.mainPrize,
    platformCents: split.platformShare,
    currency: pool.currency,
    description: "Host share (25%) of a drawn prize pool",
    poolId: pool.id,
    availableAt: pool.settledAt,
    occurredAt: pool.settledAt,
  };
}

/** The host's share of an ad revenue report (available at once). */
export function adRevenueEarning(
  report: {
    id: string;
    hostId: string;
    amountCents: number;
    currency: string;
    periodStart: string;
    periodEnd: string;
    recordedAt: Date;
  },
  rule: RevenueRule,
): EarningRow {
  const shares = saleShares(report.amountCents, rule);
  return {
    hostId: report.hostId,
    kind: "ad_revenue",
    sourceKey: `ad:${report.id}`,
    amountCents: shares.hostCents,
    grossCents: shares.grossCents,
    poolCents: shares.poolCents,
    platformCents: shares.platformCents,
    currency: report.currency,
    rates: rule,
    description: `Ad revenue ${report.periodStart} to ${report.periodEnd}`,
    referenceId: report.id,
    availableAt: report.recordedAt,
    occurredAt: report.recordedAt,
  };
}
