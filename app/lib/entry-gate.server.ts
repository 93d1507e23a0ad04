// Whether a payment earns its entry (issue 29 items 4 and 5, docs/decisions/520-spend-limits-and-the-credit-card-cap.md):
// one function, entryOutlook, combining every entry check: eligibility (entryRefusal), the fan's monthly spend
// limit, the credit-card cap and the per-person pool cap (entryCapReached). Checkout asks it before paying (a paid
// guess refused, a purchase told it earns no entry); fulfilment asks it again through decideEntry, which records the
// answer once per payment in the entry-spend ledger and never fails a payment (no entry, logged, when it cannot
// decide).

import { getDb } from "~/db/client.server";
import {
  findEntrySpend,
  getSpendLimit,
  listEntrySpendOfCheckout,
  monthEntrySpend,
  recordEntrySpend,
  saveSpendLimit,
} from "~/db/queries/spend-limits.server";
import { ENTRY_REFUSAL_MESSAGES, type EntryRoute } from "~/domain/eligibility";
import {
  changeSpendLimit,
  countsAsCredit,
  CREDIT_CARD_CAP_TEXT,
  PAID_GUESS_REFUSED_TEXT,
  PAYMENT_EARNED_NO_ENTRY_TEXT,
  PURCHASE_NO_ENTRY_TEXT,
  spendLimitLeftText,
  creditCardCapUsdCents,
  effectiveSpendLimit,
  ENTRY_GATE_MESSAGES,
  spendMonth,
  type CardFunding,
  type EntryGateCode,
  type SpendLimitSetting,
} from "~/domain/spend-limits";
import { entryRefusal } from "~/lib/entry-eligibility.server";
import { entryCapReached } from "~/lib/pool-cap.server";

export interface EntryOutlookInput {
  userId: string;
  /** The host whose pool the entry is for. */
  hostId: string;
  route: EntryRoute;
  /** What the payment counts toward the month, in USD cents. */
  amountUsdCents: number;
  /** The card's funding type, once known (at fulfilment); at checkout it is not, and the cap is not checked. */
  funding?: CardFunding | null;
  now: Date;
}

export type EntryOutlook = { expected: true } | { expected: false; code: string; message: string };

const refused = (code: EntryGateCode): EntryOutlook => ({ expected: false, code, message: ENTRY_GATE_MESSAGES[code] });

/** Whether the payment is expected to earn its entry, and why not when it is not. */
export async function entryOutlook(env: Env, input: EntryOutlookInput): Promise<EntryOutlook> {
  const refusal = await entryRefusal(env, {
    userId: input.userId,
    hostId: input.hostId,
    route: input.route,
    now: input.now,
  });
  if (refusal) return { expected: false, code: refusal.code, message: refusal.message };
  const db = getDb(env);
  const [setting, spent] = await Promise.all([
    getSpendLimit(db, input.userId),
    monthEntrySpend(db, input.userId, spendMonth(input.now)),
  ]);
  const limit = effectiveSpendLimit(setting, input.now);
  if (limit !== null && spent.total + input.amountUsdCents > limit) return refused("spend_limit");
  if (countsAsCredit(input.funding ?? null) && spent.credit + input.amountUsdCents > creditCardCapUsdCents())
    return refused("card_cap");
  if (await entryCapReached(env, { hostId: input.hostId, userId: input.userId })) return refused("pool_cap");
  return { expected: true };
}

/** What fulfilment decided for one payment's entry with one host. */
export type EntryDecision = { earnsEntry: boolean; refusal: string | null; message: string | null };

/** The message a recorded refusal code stands for (an eligibility refusal's, or the entry gate's). */
function refusalMessage(code: string | null): string | null {
  if (!code) return null;
  const messages: Record<string, string> = { ...ENTRY_REFUSAL_MESSAGES, ...ENTRY_GATE_MESSAGES };
  return Object.hasOwn(messages, code) ? messages[code]! : null;
}

function decisionOf(earnsEntry: boolean, refusal: string | null, message: string | null = null): EntryDecision {
  if (earnsEntry) return { earnsEntry, refusal: null, message: null };
  return { earnsEntry, refusal, message: message ?? refusalMessage(refusal) ?? ENTRY_GATE_MESSAGES.check_failed };
}

/**
 * Fulfilment's check: the outlook asked again with the card's funding type, recorded once per payment and host in
 * the entry-spend ledger (a repeated or racing delivery reads the first answer back, so the spend counts once).
 * Never throws: a check that fails means no entry, logged, and the payment goes ahead.
 */
export async function decideEntry(
  env: Env,
  input: Omit<EntryOutlookInput, "funding"> & {
    checkoutId: string;
    /** The card's funding type, read only when no decision is recorded yet (it may ask the provider). */
    funding: () => Promise<CardFunding | null>;
  },
): Promise<EntryDecision> {
  const db = getDb(env);
  const base = {
    checkoutId: input.checkoutId,
    hostId: input.hostId,
    userId: input.userId,
    month: spendMonth(input.now),
    amountUsdCents: input.amountUsdCents,
    funding: null as CardFunding | null,
    now: input.now,
    creditCapUsdCents: creditCardCapUsdCents(),
  };
  try {
    const recorded = await findEntrySpend(db, input.checkoutId, input.hostId);
    if (recorded) return decisionOf(recorded.earnsEntry, recorded.refusal);
    base.funding = await input.funding();
    const outlook = await entryOutlook(env, { ...input, funding: base.funding });
    const setting = await getSpendLimit(db, input.userId);
    const row = await recordEntrySpend(db, {
      ...base,
      refusal: outlook.expected ? null : outlook.code,
      limitUsdCents: effectiveSpendLimit(setting, input.now),
    });
    const message = !outlook.expected && row.refusal === outlook.code ? outlook.message : null;
    return decisionOf(row.earnsEntry, row.refusal, message);
  } catch (error) {
    console.error("entry gate: could not decide whether a payment earns its entry; it earns none", {
      checkout: input.checkoutId,
      host: input.hostId,
      error,
    });
    try {
      const row = await recordEntrySpend(db, { ...base, refusal: "check_failed", limitUsdCents: null });
      return decisionOf(row.earnsEntry, row.refusal);
    } catch {
      return decisionOf(false, "check_failed");
    }
  }
}

/** A fan's limit as their pages show it: in force, waiting, and this month's counted spend. */
export async function spendLimitView(env: Env, userId: string, now: Date) {
  const db = getDb(env);
  const [setting, spent] = await Promise.all([getSpendLimit(db, userId), monthEntrySpend(db, userId, spendMonth(now))]);
  const limit = effectiveSpendLimit(setting, now);
  const waiting = setting.pendingFrom && setting.pendingFrom.getTime() > now.getTime();
  return {
    isSet: setting.isSet,
    limitUsdCents: limit,
    pending: waiting ? { usdCents: setting.pendingUsdCents, from: setting.pendingFrom!.toISOString() } : null,
    spentUsdCents: spent.total,
    creditSpentUsdCents: spent.credit,
    creditCapUsdCents: creditCardCapUsdCents(),
    month: spendMonth(now),
  };
}

/** A fan sets their limit (null: no limit): lowered at once, raised after 24 hours. Answers the new setting. */
export async function setSpendLimit(
  env: Env,
  userId: string,
  next: number | null,
  now: Date,
): Promise<{ setting: SpendLimitSetting; change: "lowered" | "raised" | "unchanged" }> {
  const db = getDb(env);
  const current = await getSpendLimit(db, userId);
  const setting = changeSpendLimit(current, next, now);
  await saveSpendLimit(db, userId, setting);
  const before = effectiveSpendLimit(current, now);
  const change = setting.pendingFrom
    ? "raised"
    : current.isSet && before === setting.monthlyUsdCents && !current.pendingFrom
      ? "unchanged"
      : "lowered";
  return { setting, change };
}

/** What a checkout page says about the entry before paying (null for a visitor: nothing to check yet). */
export type EntryNotice = { expected: boolean; text: string };

/**
 * The notice a checkout page shows (/buy-now, /cart, the group-buy join, /payment): whether the payment is
 * expected to earn its entry and why not, and that credit-card spend on entries is capped. `amountUsdCents` null:
 * the page does not know the amount yet (a size or quantity still to choose), so it says what is left of the limit.
 */
export async function checkoutEntryNotice(
  env: Env,
  input: { userId: string | null; hostId: string; route: EntryRoute; amountUsdCents: number | null; now: Date },
): Promise<EntryNotice | null> {
  if (!input.userId || input.userId === "") return null;
  const outlook = await entryOutlook(env, {
    ...input,
    userId: input.userId,
    amountUsdCents: input.amountUsdCents ?? 0,
  });
  if (!outlook.expected)
    return {
      expected: false,
      text: `${outlook.message} ${input.route === "paid_guess" ? PAID_GUESS_REFUSED_TEXT : PURCHASE_NO_ENTRY_TEXT}`,
    };
  const view = await spendLimitView(env, input.userId, input.now);
  if (input.amountUsdCents === null && view.limitUsdCents !== null) {
    const left = Math.max(view.limitUsdCents - view.spentUsdCents, 0);
    if (left === 0) return { expected: false, text: `${ENTRY_GATE_MESSAGES.spend_limit} ${PURCHASE_NO_ENTRY_TEXT}` };
    return {
      expected: true,
      text: `${spendLimitLeftText(left)} ${CREDIT_CARD_CAP_TEXT}`,
    };
  }
  return {
    expected: true,
    text: `${input.route === "paid_guess" ? "This guess can count for an entry." : "This purchase earns an entry in the prize pool."} ${CREDIT_CARD_CAP_TEXT}`,
  };
}

/**
 * After paying (/payment/success): why the payment earned no entry, when it did not; and whether to prompt the fan
 * to set a spending limit (none set yet: the prompt after a first purchase, docs/product.md#spend-limits).
 */
export async function paymentEntryAfterwards(env: Env, userId: string, checkoutId: string) {
  const db = getDb(env);
  const [rows, setting] = await Promise.all([
    listEntrySpendOfCheckout(db, checkoutId, userId),
    getSpendLimit(db, userId),
  ]);
  const refused = rows.find((r) => !r.earnsEntry);
  return {
    noEntry: refused ? `${decisionOf(false, refused.refusal).message} ${PAYMENT_EARNED_NO_ENTRY_TEXT}` : null,
    promptLimit: !setting.isSet,
  };
}
