// A fan's monthly limit on spend that earns entries, and the credit-card cap (issue 29 item 4,
// docs/decisions/520-spend-limits-and-the-credit-card-cap.md, docs/product.md#spend-limits). Pure: the rules, the
// codes and the texts a fan reads. app/lib/entry-gate.server.ts gathers the facts and decides.

import { z } from "zod";
import { convertCents } from "./currency";
import { formatCents, parseMoneyToCents } from "./money";

/** Spend is counted in the checkout currency (decision 290): every payment is charged in USD. */
export const SPEND_LIMIT_CURRENCY = "USD" as const;

/** A raise (or removing the limit) takes effect this long after it is asked for; a lowering at once. */
export const SPEND_LIMIT_RAISE_DELAY_MS = 24 * 60 * 60 * 1000;

/** The largest monthly limit a fan can set: USD 100,000. */
export const SPEND_LIMIT_MAX_CENTS = 10_000_000;

/** The monthly cap on credit-card spend that earns entries: £250 (the 2025 UK code for prize draw operators). */
export const CREDIT_CARD_CAP_GBP_CENTS = 25_000;

/** The credit-card cap in the checkout currency, converted with the rate table. */
export function creditCardCapUsdCents(): number {
  return convertCents(CREDIT_CARD_CAP_GBP_CENTS, "GBP", SPEND_LIMIT_CURRENCY);
}

/** A card's funding type as the provider reports it (Stripe's `payment_method_details.card.funding`). */
export const CARD_FUNDINGS = ["credit", "debit", "prepaid", "unknown"] as const;
export type CardFunding = (typeof CARD_FUNDINGS)[number];

/** The funding types the local checkout page offers. */
export const LOCAL_CARD_FUNDINGS = ["debit", "credit", "prepaid"] as const;
export type LocalCardFunding = (typeof LOCAL_CARD_FUNDINGS)[number];

/** Whether a payment's spend counts toward the credit-card cap: a credit card, or a card whose type is unknown. */
export function countsAsCredit(funding: CardFunding | null): boolean {
  return funding === "credit" || funding === "unknown";
}

/** Parses a provider's funding text; null when the payment was no card at all. */
export function cardFundingOf(text: string | null | undefined): CardFunding {
  return (CARD_FUNDINGS as readonly string[]).includes(text ?? "") ? (text as CardFunding) : "unknown";
}

/** The calendar month (UTC) a moment falls in, as 'YYYY-MM': spend is counted per month. */
export function spendMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** A fan's limit as stored: the limit in force and a raise waiting for its time (null cents: no limit). */
export interface SpendLimitSetting {
  monthlyUsdCents: number | null;
  pendingUsdCents: number | null;
  pendingFrom: Date | null;
}

export const NO_SPEND_LIMIT: SpendLimitSetting = { monthlyUsdCents: null, pendingUsdCents: null, pendingFrom: null };

/** The limit in force at `now` (a pending raise counts from its time); null: no limit. */
export function effectiveSpendLimit(setting: SpendLimitSetting, now: Date): number | null {
  if (setting.pendingFrom && now.getTime() >= setting.pendingFrom.getTime()) return setting.pendingUsdCents;
  return setting.monthlyUsdCents;
}

/** Whether `next` is a raise of `current` (null is no limit, above every number). */
function isRaise(current: number | null, next: number | null): boolean {
  if (current === null) return false;
  return next === null || next > current;
}

/**
 * The setting after a fan asks for `next` at `now`: a lowering (or a first limit) applies at once and cancels a
 * pending raise; a raise, or removing the limit, waits SPEND_LIMIT_RAISE_DELAY_MS (asking again restarts the wait).
 */
export function changeSpendLimit(setting: SpendLimitSetting, next: number | null, now: Date): SpendLimitSetting {
  const current = effectiveSpendLimit(setting, now);
  if (!isRaise(current, next)) return { monthlyUsdCents: next, pendingUsdCents: null, pendingFrom: null };
  if (current === next) return { monthlyUsdCents: current, pendingUsdCents: null, pendingFrom: null };
  return {
    monthlyUsdCents: current,
    pendingUsdCents: next,
    pendingFrom: new Date(now.getTime() + SPEND_LIMIT_RAISE_DELAY_MS),
  };
}

/** Why a payment earns no entry, beyond the eligibility refusals (app/domain/eligibility.ts). */
export const ENTRY_GATE_CODES = ["spend_limit", "card_cap", "pool_cap", "check_failed"] as const;
export type EntryGateCode = (typeof ENTRY_GATE_CODES)[number];

export const ENTRY_GATE_MESSAGES: Record<EntryGateCode, string> = {
  spend_limit: "This payment would take you past your monthly spending limit on entries.",
  card_cap: "Credit-card spend on entries is capped at £250 a month, and this payment would pass it.",
  pool_cap: "You already hold as many entries in this pool as one person may.",
  check_failed: "We could not check whether this payment may earn an entry.",
};

/** What checkout says about a purchase that earns no entry (before paying), after the reason. */
export const PURCHASE_NO_ENTRY_TEXT = "You can still buy it, but this purchase will earn no entry in the prize pool.";

/** What /buy-now says when it stops a purchase that would earn no entry, for the fan to confirm. */
export const NO_ENTRY_CONSENT_TEXT = "Press Buy Now again to buy it without an entry.";

/** What the payment result page says of a purchase that earned no entry, after the reason. */
export const PAYMENT_EARNED_NO_ENTRY_TEXT = "This payment earned no entry in the prize pool.";

/** The prompt after a first purchase, and on the sign-up welcome page, while no limit is set. */
export const SPEND_LIMIT_PROMPT_TEXT =
  "You can set a monthly limit on what you spend on entries (paid guesses and purchases that earn entries), including zero.";

/** What checkout says about a paid guess that may not count. */
export const PAID_GUESS_REFUSED_TEXT = "You cannot pay for a guess now.";

/** What checkout says while the amount is still to choose: what is left of the fan's limit this month. */
export function spendLimitLeftText(leftUsdCents: number): string {
  return `Your monthly spending limit on entries has ${formatCents(leftUsdCents, SPEND_LIMIT_CURRENCY)} left this month: a purchase above that still goes through but earns no entry.`;
}

/** What checkout says about every entry-earning payment by card. */
export const CREDIT_CARD_CAP_TEXT =
  "Credit-card spend on entries is capped at £250 a month: past it a payment by credit card earns no entry, and a paid guess is refunded.";

/** How refunds count: what is refunded stays counted (UI text, decision 520). */
export const REFUNDS_KEEP_COUNTING_TEXT = "Refunded spend still counts toward the month it was paid in.";

/** The refund reason a paid guess refused at fulfilment reads (its refusal first). */
export function refusedGuessRefundReason(message: string): string {
  return `${message} Your guess could not count, so your entry fee has been refunded in full.`;
}

/** The limit as a fan reads it. */
export function spendLimitText(cents: number | null): string {
  return cents === null ? "No limit" : `${formatCents(cents, SPEND_LIMIT_CURRENCY)} a month`;
}

export const SPEND_LIMIT_MESSAGES = {
  invalid: "Enter a monthly limit in USD as a whole number or with cents (0 or more), or choose no limit.",
  tooLarge: `The largest monthly limit is ${formatCents(SPEND_LIMIT_MAX_CENTS, SPEND_LIMIT_CURRENCY)}.`,
  lowered: "Your monthly spending limit is saved and applies now.",
  raised: "Your higher limit takes effect in 24 hours. Until then your current limit applies.",
  unchanged: "Your monthly spending limit is unchanged.",
} as const;

/**
 * The limit form (/spending-limit, and the optional field at sign-up): `limit` in USD ("50", "12.50", "0"), or
 * `noLimit` checked. Answers the limit in USD cents, or null for no limit.
 */
export const SpendLimitFormSchema = z
  .object({
    limit: z.string().trim().max(20).optional().default(""),
    noLimit: z.enum(["on", "1"]).optional(),
  })
  .transform((v, ctx) => {
    if (v.noLimit) return null;
    const cents = parseMoneyToCents(v.limit);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: SPEND_LIMIT_MESSAGES.invalid, path: ["limit"] });
      return z.NEVER;
    }
    if (cents > SPEND_LIMIT_MAX_CENTS) {
      ctx.addIssue({ code: "custom", message: SPEND_LIMIT_MESSAGES.tooLarge, path: ["limit"] });
      return z.NEVER;
    }
    return cents;
  });

/** The optional sign-up field: empty sets nothing; otherwise as the limit form. */
export const SignupSpendLimitSchema = z
  .string()
  .trim()
  .max(20)
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    const cents = parseMoneyToCents(v);
    if (cents === null || cents > SPEND_LIMIT_MAX_CENTS) {
      ctx.addIssue({
        code: "custom",
        message: cents === null ? SPEND_LIMIT_MESSAGES.invalid : SPEND_LIMIT_MESSAGES.tooLarge,
      });
      return z.NEVER;
    }
    return cents;
  });
