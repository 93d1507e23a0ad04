import { and, eq, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { poolContributionKeys } from "~/db/schema";

// Contribution keys (pool_contribution_keys): a pool contribution's source key reserved once in D1, with its
// request, before the pool object records it. A leaf: the payment batches of the checkout, guesses, orders and
// group-buys aggregates reserve through it, and the pool service binds and confirms through it, without any of
// those aggregate files importing another.

export type ContributionReservation = typeof poolContributionKeys.$inferSelect;

export type ContributionKeyValues = {
  sourceKey: string;
  hostId: string;
  sourceType: ContributionReservation["sourceType"];
  amountCents: number;
  currency: string;
  userId: string | null;
  earnsEntry: boolean;
};

/**
 * The statement a payment's fulfilment batch reserves its contribution's source key with (no pool yet: the first
 * addContribution binds it), only while `when` holds (e.g. the order this batch inserted goes ahead). Reserved in
 * the same transaction as the payment, a contribution the pool object never confirmed is found by the cron, and
 * the key binds to one pool however the webhook and the success page race a closing pool.
 */
export function reserveContributionStatement(db: Db, values: ContributionKeyValues, when: SQL = sql`1`) {
  // Every column of the table, in its order (source_key, host_id, pool_id, source_type, amount_cents, currency,
  // user_id, earns_entry, created_at, applied_at).
  return db
    .insert(poolContributionKeys)
    .select(
      sql`select ${values.sourceKey}, ${values.hostId}, null, ${values.sourceType}, ${values.amountCents}, ${values.currency},
        ${values.userId}, ${values.earnsEntry ? 1 : 0}, ${Date.now()}, null where ${when}`,
    )
    .onConflictDoNothing();
}

/** Reserves a source key with its request (the first caller wins); returns the reservation and whether it is new. */
export async function reserveContributionKey(
  db: Db,
  values: Omit<typeof poolContributionKeys.$inferInsert, "createdAt" | "appliedAt">,
): Promise<{ row: ContributionReservation; created: boolean }> {
  const [inserted] = await db.insert(poolContributionKeys).values(values).onConflictDoNothing().returning();
  if (inserted) return { row: inserted, created: true };
  const [row] = await db
    .select()
    .from(poolContributionKeys)
    .where(eq(poolContributionKeys.sourceKey, values.sourceKey))
    .limit(1);
  if (!row) throw new Error(`Could not reserve contribution ${values.sourceKey}`);
  return { row, created: false };
}

/** Binds a reservation to a pool: sets it when unset, or moves it from a pool that refused it (closed). */
export async function bindReservation(
  db: Db,
  sourceKey: string,
  from: string | null,
  to: string,
): Promise<string | null> {
  await db
    .update(poolContributionKeys)
    .set({ poolId: to })
    .where(
      and(
        eq(poolContributionKeys.sourceKey, sourceKey),
        from === null ? isNull(poolContributionKeys.poolId) : eq(poolContributionKeys.poolId, from),
        isNull(poolContributionKeys.appliedAt),
      ),
    );
  const [row] = await db
    .select({ poolId: poolContributionKeys.poolId })
    .from(poolContributionKeys)
    .where(eq(poolContributionKeys.sourceKey, sourceKey))
    .limit(1);
  return row?.poolId ?? null;
}

/** Marks a reservation applied (its pool object confirmed it). */
export async function markReservationApplied(db: Db, sourceKey: string, poolId: string): Promise<void> {
  await db
    .update(poolContributionKeys)
    .set({ appliedAt: new Date(), poolId })
    .where(and(eq(poolContributionKeys.sourceKey, sourceKey), isNull(poolContributionKeys.appliedAt)));
}

/** Reservations no pool object has confirmed, created before `before` (the cron re-applies them). */
export function listUnappliedReservations(db: Db, before: Date, limit: number) {
  return db
    .select()
    .from(poolContributionKeys)
    .where(and(isNull(poolContributionKeys.appliedAt), lt(poolContributionKeys.createdAt, before)))
    .orderBy(poolContributionKeys.createdAt)
    .limit(limit);
}
