import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { entrySpend, spendLimits } from "~/db/schema";
import { NO_SPEND_LIMIT, type CardFunding, type SpendLimitSetting } from "~/domain/spend-limits";

// Spend limits and the entry-spend ledger (decision 520): a fan's limit, and one row per payment and host saying
// whether it earned its entry, which the month's spend and the credit-card cap are counted from.

export type EntrySpendRow = typeof entrySpend.$inferSelect;

/** A fan's limit setting (no row: no limit). */
export async function getSpendLimit(db: Db, userId: string): Promise<SpendLimitSetting & { isSet: boolean }> {
  const [row] = await db.select().from(spendLimits).where(eq(spendLimits.userId, userId)).limit(1);
  if (!row) return { ...NO_SPEND_LIMIT, isSet: false };
  return {
    monthlyUsdCents: row.monthlyUsdCents,
    pendingUsdCents: row.pendingUsdCents,
    pendingFrom: row.pendingFrom,
    isSet: true,
  };
}

/** Stores a fan's limit setting (the rule that made it is changeSpendLimit). */
export async function saveSpendLimit(db: Db, userId: string, setting: SpendLimitSetting): Promise<void> {
  const values = {
    monthlyUsdCents: setting.monthlyUsdCents,
    pendingUsdCents: setting.pendingUsdCents,
    pendingFrom: setting.pendingFrom,
    updatedAt: new Date(),
  };
  await db
    .insert(spendLimits)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: spendLimits.userId, set: values });
}

/** What a fan's payments that earned entries add up to in a month, in USD cents; and their credit-card part. */
export async function monthEntrySpend(
  db: Db,
  userId: string,
  month: string,
): Promise<{ total: number; credit: number }> {
  const [row] = await db
    .select({
      total: sql<number>`coalesce(sum(${entrySpend.amountUsdCents}), 0)`,
      credit: sql<number>`coalesce(sum(case when ${entrySpend.funding} in ('credit', 'unknown') then ${entrySpend.amountUsdCents} else 0 end), 0)`,
    })
    .from(entrySpend)
    .where(and(eq(entrySpend.userId, userId), eq(entrySpend.month, month), eq(entrySpend.earnsEntry, true)));
  return { total: Number(row?.total ?? 0), credit: Number(row?.credit ?? 0) };
}

/** The decision recorded for a payment's entry with a host, if one was. */
export async function findEntrySpend(db: Db, checkoutId: string, hostId: string): Promise<EntrySpendRow | undefined> {
  const [row] = await db
    .select()
    .from(entrySpend)
    .where(and(eq(entrySpend.checkoutId, checkoutId), eq(entrySpend.hostId, hostId)))
    .limit(1);
  return row;
}

export type EntrySpendInput = {
  checkoutId: string;
  hostId: string;
  userId: string;
  month: string;
  amountUsdCents: number;
  funding: CardFunding | null;
  /** A refusal decided before (eligibility, the pool cap): recorded as no entry. */
  refusal: string | null;
  /** The fan's limit in force (null: none) and the credit-card cap, both in USD cents. */
  limitUsdCents: number | null;
  creditCapUsdCents: number;
  now: Date;
};

/**
 * Records a payment's entry decision once (the first call wins; later calls and racing ones read it back). The limit
 * and the credit-card cap are checked in the same statement that inserts, against the month's recorded spend, so
 * two payments racing cannot both pass a limit that only one fits.
 */
export async function recordEntrySpend(db: Db, v: EntrySpendInput): Promise<EntrySpendRow> {
  const credit = v.funding === "credit" || v.funding === "unknown" ? 1 : 0;
  const counted = sql`select coalesce(sum(amount_usd_cents), 0) from entry_spend
    where user_id = ${v.userId} and month = ${v.month} and earns_entry = 1`;
  const countedCredit = sql`select coalesce(sum(amount_usd_cents), 0) from entry_spend
    where user_id = ${v.userId} and month = ${v.month} and earns_entry = 1 and funding in ('credit', 'unknown')`;
  await db.run(sql`insert into entry_spend
      (checkout_id, host_id, user_id, month, amount_usd_cents, funding, earns_entry, refusal, created_at)
    select ${v.checkoutId}, ${v.hostId}, ${v.userId}, ${v.month}, ${v.amountUsdCents}, ${v.funding},
      case when decided.refusal is null then 1 else 0 end, decided.refusal, ${v.now.getTime()}
    from (select case
      when ${v.refusal} is not null then ${v.refusal}
      when ${v.limitUsdCents} is not null and (${counted}) + ${v.amountUsdCents} > ${v.limitUsdCents} then 'spend_limit'
      when ${credit} = 1 and (${countedCredit}) + ${v.amountUsdCents} > ${v.creditCapUsdCents} then 'card_cap'
      else null end as refusal) as decided
    where true
    on conflict (checkout_id, host_id) do nothing`);
  const row = await findEntrySpend(db, v.checkoutId, v.hostId);
  if (!row) throw new Error(`entry spend of checkout ${v.checkoutId} was not recorded`);
  return row;
}

/** The entry decisions recorded for one of a fan's payments (one per host). */
export async function listEntrySpendOfCheckout(db: Db, checkoutId: string, userId: string): Promise<EntrySpendRow[]> {
  return db
    .select()
    .from(entrySpend)
    .where(and(eq(entrySpend.checkoutId, checkoutId), eq(entrySpend.userId, userId)))
    .limit(50);
}
