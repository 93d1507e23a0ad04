// Prize pool rules: settings form, progress, closing, and the defaults of a new pool.

import { addDays, MS_PER_DAY, parseInstant } from "./countdown";
import { formatCents, moneyTextProblem, parseMoneyToCents, progressPercent } from "./money";
import { MAX_CHARGE_CENTS, reversedPartCents, type RefundOrigin } from "./payments";

/** Pools are kept and shown in USD. */
export const POOL_CURRENCY = "USD";

export const POOL_DURATION_DAYS = [7, 14, 30, 60, 90] as const;
export type PoolDurationDays = (typeof POOL_DURATION_DAYS)[number];
/** Duration of a new pool, of the automatic next pool, and of the fallback window when a host has no pool. */
export const DEFAULT_POOL_DURATION_DAYS: PoolDurationDays = 30;

/** Target at least USD 1,000, in steps of USD 1,000. */
export const POOL_TARGET_MIN_CENTS = 100_000;
export const POOL_TARGET_STEP_CENTS = 100_000;
/** A host deposit is at least USD 1, and at most what one card payment can carry (USD 999,999.99). */
export const HOST_DEPOSIT_MIN_CENTS = 100;
export const HOST_DEPOSIT_MAX_CENTS = MAX_CHARGE_CENTS;

/** A new profile's prize_pool_target: USD 10,000 (1,000 in the original's local fallback path). */
export const DEFAULT_PROFILE_POOL_TARGET_CENTS = 1_000_000;

export const POOL_STATUSES = ["open", "closed", "drawn"] as const;
export type PoolStatus = (typeof POOL_STATUSES)[number];
export const DEFAULT_POOL_STATUS: PoolStatus = "open";
/** closed_early: the platform owner suspended the host (the pool is drawn as usual). */
export const POOL_CLOSE_REASONS = ["target_reached", "timer_expired", "closed_early"] as const;
export type PoolCloseReason = (typeof POOL_CLOSE_REASONS)[number];
/** What earned a main-prize entry (prize_entries.source_type). */
export const ENTRY_SOURCE_TYPES = [
  "product_purchase",
  "guess_entry",
  "group_buy_entry",
  "share_bonus",
  // Issue 29's free routes: the same weight as a paid entry, no money.
  "free_entry",
  "postal_entry",
] as const;
/**
 * Why a host's earnings carry a pool's debit (host_debits.reason). refund_after_close: a reversal of a closed pool's
 * payment, carried by the host; refund_restored: such a reversal undone (a failed refund, a won dispute);
 * restored_to_pool: a share the open pool gave back, undone after its close, whose money went to the host's open pool
 * instead (decision 151).
 */
export const HOST_DEBIT_REASONS = ["refund_after_close", "refund_restored", "restored_to_pool"] as const;
/** The kinds of prize a winner row records (prize_winners.prize_type). */
export const PRIZE_TYPES = ["main", "mini", "special"] as const;
/** A pool that reaches its target closes after this delay (so the last contribution's update is seen first). */
export const TARGET_HIT_CLOSE_DELAY_MS = 1000;
/** Target and duration may be edited only in the first 3 days of a pool's run. */
export const POOL_TERMS_EDIT_WINDOW_DAYS = 3;

export const POOL_MESSAGES = {
  target: "Please enter a target amount of at least 1,000 USD.",
  /** Our own message (the form's input steps by 1,000): a target between the steps, such as 1,500. */
  targetStep: "Please enter a target amount in steps of 1,000 USD (such as 1,000, 2,000 or 3,000).",
  /** Our own message (the form's input takes digits only): text that is not a plain amount, such as 1,500 or 2k. */
  targetNumber: "Please enter the target amount in digits only, such as 2000.",
  targetTooLarge: "That target amount is too large.",
  deposit: "Please enter a valid deposit amount (minimum USD 1).",
  /** Our own message: more than one card payment can carry. */
  depositMax: `A deposit can be at most ${formatCents(MAX_CHARGE_CENTS, POOL_CURRENCY)}.`,
  /** Our own message: an amount with fractions of a cent, such as 2.555. */
  depositDecimals: "Please enter the deposit in whole cents (at most 2 decimal places).",
  /** Our own message (the form offers only the five choices): used when a request carries another value. */
  duration: "Please choose a duration of 7, 14, 30, 60 or 90 days.",
  signInToSave: "Please sign in to save prize pool settings",
  signInToDeposit: "Please sign in",
  noPool: "No prize pool found",
} as const;

export type Validated<T> = { ok: true; value: T } | { ok: false; message: string };

/** A target typed in USD ("5000"): at least 1,000 and a multiple of 1,000; returns cents. */
export function validatePoolTarget(input: unknown): Validated<number> {
  const cents = parseMoneyToCents(input);
  if (cents === null) {
    const problem = moneyTextProblem(input);
    const message =
      problem === "invalid"
        ? POOL_MESSAGES.targetNumber
        : problem === "decimals"
          ? POOL_MESSAGES.targetStep
          : problem === "tooLarge"
            ? POOL_MESSAGES.targetTooLarge
            : POOL_MESSAGES.target;
    return { ok: false, message };
  }
  if (cents < POOL_TARGET_MIN_CENTS) return { ok: false, message: POOL_MESSAGES.target };
  if (cents % POOL_TARGET_STEP_CENTS !== 0) return { ok: false, message: POOL_MESSAGES.targetStep };
  return { ok: true, value: cents };
}

export function isPoolDuration(days: unknown): days is PoolDurationDays {
  return typeof days === "number" && (POOL_DURATION_DAYS as readonly number[]).includes(days);
}

/**
 * The terms of a host's next pool (decision 640): the target and duration last saved in prize pool settings; a
 * stored duration that is not one of the choices (none is written so) falls back to the default.
 */
export function nextPoolTerms(saved: { targetCents: number; durationDays: number } | null): {
  targetCents: number;
  durationDays: PoolDurationDays;
} {
  return {
    targetCents: saved?.targetCents ?? DEFAULT_PROFILE_POOL_TARGET_CENTS,
    durationDays: isPoolDuration(saved?.durationDays) ? saved.durationDays : DEFAULT_POOL_DURATION_DAYS,
  };
}

/** A duration in days from a select ("30" or 30): one of 7, 14, 30, 60, 90. */
export function validatePoolDuration(input: unknown): Validated<PoolDurationDays> {
  const days = typeof input === "string" && /^\d+$/.test(input.trim()) ? Number(input.trim()) : input;
  return isPoolDuration(days) ? { ok: true, value: days } : { ok: false, message: POOL_MESSAGES.duration };
}

/** A host deposit typed in USD ("25.50"): at least USD 1 and at most USD 999,999.99; returns cents. */
export function validateHostDeposit(input: unknown): Validated<number> {
  const cents = parseMoneyToCents(input);
  if (cents === null) {
    const problem = moneyTextProblem(input);
    const message =
      problem === "decimals"
        ? POOL_MESSAGES.depositDecimals
        : problem === "tooLarge"
          ? POOL_MESSAGES.depositMax
          : POOL_MESSAGES.deposit;
    return { ok: false, message };
  }
  if (cents < HOST_DEPOSIT_MIN_CENTS) return { ok: false, message: POOL_MESSAGES.deposit };
  if (cents > HOST_DEPOSIT_MAX_CENTS) return { ok: false, message: POOL_MESSAGES.depositMax };
  return { ok: true, value: cents };
}

export interface MiniPrizeInput {
  name?: unknown;
  amountText?: unknown;
  quantityText?: unknown;
}

export interface MiniPrize {
  name: string;
  /** Free text such as "100" or "15%". */
  amountText: string;
  /** Free text such as "10" or "unlimited". */
  quantityText: string;
}

/** Mini prize rows as saved: trimmed, and rows without a name dropped. */
/** The most mini prizes a pool can have (the settings form's limit; every read of a pool's mini prizes takes them all). */
export const MAX_MINI_PRIZES = 20;

export function cleanMiniPrizes(rows: readonly MiniPrizeInput[]): MiniPrize[] {
  const str = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  return rows
    .map((row) => ({ name: str(row.name), amountText: str(row.amountText), quantityText: str(row.quantityText) }))
    .filter((row) => row.name !== "");
}

/** A mini prize's quantity as shown on the profile: 'N left' for a whole number, otherwise 'Unlimited'. */
export function miniPrizeQuantityText(quantityText: unknown): string {
  const text =
    typeof quantityText === "string"
      ? quantityText.trim()
      : typeof quantityText === "number"
        ? String(quantityText)
        : "";
  return /^\d+$/.test(text) ? `${Number(text)} left` : "Unlimited";
}

/**
 * What a mini prize's amount means, said with its unit: a plain number is the gift's value in the pool's currency
 * ("26" reads "worth USD 26.00"); anything else ("15%") is shown as the host typed it; null without an amount.
 */
export function miniPrizeValueText(amountText: string): string | null {
  const text = amountText.trim();
  if (text === "") return null;
  const cents = parseMoneyToCents(text);
  return cents === null ? text : `worth ${formatCents(cents, POOL_CURRENCY)}`;
}

/** A mini prize as one line: its name and, in brackets, what its amount means ("Signed print (worth USD 26.00)"). */
export function miniPrizeLabel(prize: { name: string; amountText: string }): string {
  const value = miniPrizeValueText(prize.amountText);
  return value ? `${prize.name} (${value})` : prize.name;
}

export interface PoolSettingsInput {
  targetAmount: unknown;
  durationDays: unknown;
  miniPrizes?: readonly MiniPrizeInput[];
}

export interface PoolSettings {
  targetCents: number;
  durationDays: PoolDurationDays;
  miniPrizes: MiniPrize[];
}

/** The settings form (target, then duration); the deposit is validated on its own with `validateHostDeposit`. */
export function validatePoolSettings(input: PoolSettingsInput): Validated<PoolSettings> {
  const target = validatePoolTarget(input.targetAmount);
  if (!target.ok) return target;
  const duration = validatePoolDuration(input.durationDays);
  if (!duration.ok) return duration;
  return {
    ok: true,
    value: {
      targetCents: target.value,
      durationDays: duration.value,
      miniPrizes: cleanMiniPrizes(input.miniPrizes ?? []),
    },
  };
}

/** Progress toward the target as a whole percent, rounded, capped at 100 (0 with no target). */
export function poolProgressPercent(amountCents: number, targetCents: number): number {
  return progressPercent(amountCents, targetCents);
}

/**
 * A pool with a positive target closes once its amount reaches the target, if it has an entry to draw. Without
 * one it stays open (until its end, or until a fan's entry): a pool closed with no entries carries its amount over
 * to the next pool, which would start at its target and close again at once, pool after pool (a host's deposit,
 * which makes no entry, can fill a target on its own).
 */
export function shouldCloseForTarget(amountCents: number, targetCents: number, entries: number): boolean {
  return targetCents > 0 && amountCents >= targetCents && entries > 0;
}

/**
 * Why a pool should close now, or null: 'target_reached' when the amount has reached a positive target and the
 * pool has an entry (checked first), else 'timer_expired' when its end time is at or before now. A missing or
 * invalid end time never expires.
 */
export function poolCloseReason(
  amountCents: number,
  targetCents: number,
  entries: number,
  endAt: Date | string | number | null | undefined,
  now: Date,
): PoolCloseReason | null {
  if (shouldCloseForTarget(amountCents, targetCents, entries)) return "target_reached";
  const end = parseInstant(endAt);
  if (end && end.getTime() <= now.getTime()) return "timer_expired";
  return null;
}

/** The end of a pool starting at `start` and running `durationDays`. */
export function poolEndAt(start: Date, durationDays: number = DEFAULT_POOL_DURATION_DAYS): Date {
  return addDays(start, durationDays);
}

/** Target and duration are editable while fewer than 3 days of the pool's run have passed. */
export function canEditPoolTerms(startAt: Date | string | number, now: Date): boolean {
  const start = parseInstant(startAt);
  if (!start) return false;
  return now.getTime() - start.getTime() < POOL_TERMS_EDIT_WINDOW_DAYS * MS_PER_DAY;
}

/** The pool amount shown to the host: the larger of the stored amount and the sum of its contributions. */
export function displayedPoolCents(storedCents: number, contributionSumCents: number): number {
  return Math.max(storedCents, contributionSumCents);
}

// --- refunds and disputes against a pool contribution ---------------------------------------------------------

/** A payment's entry is void while more than half of it is reversed (a full refund always is). */
export function reversalVoidsEntry(cumulativeReversedCents: number, paymentCents: number): boolean {
  if (paymentCents <= 0) return cumulativeReversedCents > 0;
  return cumulativeReversedCents * 2 > paymentCents || cumulativeReversedCents >= paymentCents;
}

export interface ReversalShareInput {
  /** The payment's contribution to the pool (its pool share at the rate in force when it was paid). */
  contributionCents: number;
  /** The pool share already reversed for this payment (net of restores). */
  alreadyReversedCents: number;
  /** This event's amount of the payment; negative restores (a failed refund). */
  reversedCents: number;
  paymentCents: number;
  /** The payment's reversed amount after this event. */
  cumulativeReversedCents: number;
  /**
   * For a payment for several orders (a group-buy join, a cart host's part): the share it gives back in all after
   * this event, order by order (`reversedPartsCents`). Without it, the contribution's share at the payment's level.
   */
  givenBackCents?: number;
}

/**
 * The pool share of one refund or dispute event (positive reverses, negative restores): what the payment's
 * contribution gives back at the payment's reversed level after the event (`reversedPartCents`, the one rule the
 * earnings ledger and group buys use too; for a payment for several orders, the sum of its orders' parts,
 * `givenBackCents`) minus what it has given back already. A fully reversed payment has given
 * back exactly its contribution, the total stays between 0 and the contribution, and a restore while other refunds or
 * disputes still cover the payment gives back only what they no longer cover (decision 380). A counting event never
 * gives back and a restore never takes.
 */
export function reversalShareCents(input: ReversalShareInput): number {
  if (input.paymentCents <= 0) return 0;
  const contribution = Math.max(0, input.contributionCents);
  const already = Math.min(Math.max(0, input.alreadyReversedCents), contribution);
  const level =
    input.givenBackCents === undefined
      ? reversedPartCents(contribution, input.paymentCents, input.cumulativeReversedCents)
      : Math.min(Math.max(0, input.givenBackCents), contribution);
  const share = level - already;
  // An event moves the pool its own way only: one that counts never gives back and a restore never takes, so a level
  // read before a concurrent event's row (stale) cannot undo what that event reversed.
  return input.reversedCents > 0 ? Math.max(0, share) : input.reversedCents < 0 ? Math.min(0, share) : 0;
}

/** Days after a draw before its main prize is paid: a refund or lost dispute of the winning payment within them redraws. */
export const PRIZE_SETTLEMENT_DAYS = 30;

/** When a prize drawn at `drawnAt` settles (may be paid). */
export function prizeSettlesAt(drawnAt: Date | number): Date {
  const ms = drawnAt instanceof Date ? drawnAt.getTime() : drawnAt;
  return new Date(ms + PRIZE_SETTLEMENT_DAYS * MS_PER_DAY);
}

/** Whether a drawn prize is still within its settlement period at `now` (a reversal then redraws it). */
export function isPrizeUnsettled(drawnAt: Date | number, now: Date): boolean {
  return now.getTime() < prizeSettlesAt(drawnAt).getTime();
}

/**
 * Whether a reversal of the winning payment voids its draw (within the settlement period): only one the platform
 * did not start, a lost dispute or a refund the buyer obtained through the provider (a refund made outside the app,
 * with none of our metadata). A refund the host or the platform makes (the host's refund, an approved return, an
 * order that could not be fulfilled, a group buy's refund) is booked against the host's earnings and the draw stands:
 * otherwise a host could refund the winning order until a friend wins.
 */
export function reversalVoidsDraw(origin: RefundOrigin): boolean {
  return origin === "dispute" || origin === "provider";
}
