import { eq } from "drizzle-orm";
import { freeEntries, postalEntries } from "~/db/schema";
import type { PoolEntry } from "~/lib/pool-contract";
import { db } from "../helpers";

/**
 * The entry invariant's part for the free routes: every free entry of a pool is the 0-cent entry of a free_entries
 * row of that pool (one per account and UTC day, made before the pool closed), void exactly when the platform owner
 * voided it; every postal entry is a recorded card of that pool, received no later than the pool's close, counted
 * once. Returns a failure, or null.
 */
export async function checkFreeAndPostalEntry(
  pool: { id: string; closedAt: Date | null },
  entry: PoolEntry,
  ledgerAmount: number | undefined,
): Promise<string | null> {
  const label = `pool ${pool.id}: entry ${entry.entryNumber} (${entry.sourceKey})`;
  if (entry.sourceKey.startsWith("free:")) {
    if (entry.sourceType !== "free_entry") return `${label} is a free entry of source type ${entry.sourceType}`;
    if (ledgerAmount !== 0) return `${label} is a free entry that moved ${ledgerAmount} cents`;
    const [row] = await db().select().from(freeEntries).where(eq(freeEntries.sourceKey, entry.sourceKey));
    if (!row) return `${label} has no free entry recorded`;
    if (row.poolId !== pool.id) return `${label} is recorded for pool ${row.poolId}`;
    if (row.entryNumber !== null && row.entryNumber !== entry.entryNumber)
      return `${label} is recorded as entry ${row.entryNumber}`;
    if (row.userId !== entry.userId) return `${label} is held by ${entry.userId}, entered by ${row.userId}`;
    if ((row.voidedAt !== null) !== entry.voided)
      return `${label} is ${entry.voided ? "void" : "valid"}, but the owner ${row.voidedAt ? "voided" : "never voided"} it`;
    if (pool.closedAt && row.createdAt.getTime() > pool.closedAt.getTime())
      return `${label} was entered after the pool closed`;
    return null;
  }
  if (entry.sourceKey.startsWith("postal:")) {
    if (entry.sourceType !== "postal_entry") return `${label} is a postal entry of source type ${entry.sourceType}`;
    if (ledgerAmount !== 0) return `${label} is a postal entry that moved ${ledgerAmount} cents`;
    const rows = await db().select().from(postalEntries).where(eq(postalEntries.sourceKey, entry.sourceKey));
    if (rows.length !== 1) return `${label} has ${rows.length} recorded cards`;
    const card = rows[0]!;
    if (card.poolId !== pool.id) return `${label} is recorded for pool ${card.poolId}`;
    if (card.userId !== entry.userId) return `${label} is held by ${entry.userId}, sent by ${card.userId}`;
    if (entry.voided) return `${label} is void, and nothing voids a postal entry`;
    if (pool.closedAt && card.receivedOn > pool.closedAt.toISOString().slice(0, 10))
      return `${label} was received on ${card.receivedOn}, after the pool closed`;
    return null;
  }
  return `${label} has no source the run made`;
}
