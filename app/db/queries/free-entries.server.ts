// Reads and writes of the free entry routes (issue 29, decision 530): free entries with their sending address and
// void, postal entries by card, and the facts the free route checks about an account and a host.

import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { freeEntries, postalEntries, prizePools, userProfiles, users } from "~/db/schema";

/** What the free route checks about the entrant: confirmed e-mail, account age, the name objection. */
export async function getEntrantFacts(db: Db, userId: string) {
  const [row] = await db
    .select({
      emailConfirmedAt: users.emailConfirmedAt,
      createdAt: users.createdAt,
      deletedAt: users.deletedAt,
      withholdWinnerName: users.withholdWinnerName,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** A host whose pool may be entered: an active, not deleted account with a profile. Null otherwise. */
export async function getEnterableHost(db: Db, hostId: string) {
  const [row] = await db
    .select({ id: users.id, name: userProfiles.creatorName, status: userProfiles.status, deletedAt: users.deletedAt })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, hostId))
    .limit(1);
  if (!row || row.deletedAt !== null || row.status !== "active") return null;
  return { id: row.id, name: row.name };
}

/** The account's objection to their name being published if they win (set, never cleared, by an entry form). */
export async function setWithholdWinnerName(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ withholdWinnerName: true }).where(eq(users.id, userId));
}

export type FreeEntryInsert = {
  poolId: string;
  hostId: string;
  userId: string;
  entryDay: string;
  address: string;
  sourceKey: string;
};

/**
 * Records a free entry unless its key exists (the account entered this pool today) or its address made `limit`
 * free entries that day: one statement, so two requests at once cannot both pass the address count.
 */
export async function insertFreeEntry(
  db: Db,
  row: FreeEntryInsert,
  limit: number,
): Promise<"inserted" | "duplicate" | "address_limit"> {
  const result = await db.run(sql`
    INSERT INTO free_entries (id, pool_id, host_id, user_id, entry_day, address, source_key)
    SELECT ${crypto.randomUUID()}, ${row.poolId}, ${row.hostId}, ${row.userId}, ${row.entryDay}, ${row.address}, ${row.sourceKey}
    WHERE (SELECT COUNT(*) FROM free_entries WHERE entry_day = ${row.entryDay} AND address = ${row.address}) < ${limit}
    ON CONFLICT (source_key) DO NOTHING`);
  if (result.meta.changes > 0) return "inserted";
  const [existing] = await db
    .select({ id: freeEntries.id })
    .from(freeEntries)
    .where(eq(freeEntries.sourceKey, row.sourceKey))
    .limit(1);
  return existing ? "duplicate" : "address_limit";
}

/** The pool and entry number a free entry got (the pool object's answer). */
export async function setFreeEntryOutcome(db: Db, sourceKey: string, poolId: string, entryNumber: number | null) {
  await db.update(freeEntries).set({ poolId, entryNumber }).where(eq(freeEntries.sourceKey, sourceKey));
}

/** One page of a UTC day's free entries counted per sending address, most first. */
export async function listAddressCounts(db: Db, day: string, page: number, pageSize: number) {
  const rows = await db
    .select({ address: freeEntries.address, entries: count(), voided: sql<number>`COUNT(${freeEntries.voidedAt})` })
    .from(freeEntries)
    .where(eq(freeEntries.entryDay, day))
    .groupBy(freeEntries.address)
    .orderBy(desc(count()), asc(freeEntries.address))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  return { rows: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/** The free entries of a day from the given addresses (at most `perAddress` each), with entrant, host and pool state. */
export async function listFreeEntriesOfAddresses(
  db: Db,
  day: string,
  addresses: readonly string[],
  perAddress: number,
) {
  if (addresses.length === 0) return [];
  const host = sql<string>`(SELECT creator_name FROM user_profiles WHERE user_id = ${freeEntries.hostId})`;
  const rows = await db
    .select({
      id: freeEntries.id,
      address: freeEntries.address,
      poolId: freeEntries.poolId,
      poolStatus: prizePools.status,
      entryNumber: freeEntries.entryNumber,
      entrantEmail: users.email,
      hostName: host,
      createdAt: freeEntries.createdAt,
      voidedAt: freeEntries.voidedAt,
      voidReason: freeEntries.voidReason,
    })
    .from(freeEntries)
    .innerJoin(prizePools, eq(prizePools.id, freeEntries.poolId))
    .leftJoin(users, eq(users.id, freeEntries.userId))
    .where(and(eq(freeEntries.entryDay, day), inArray(freeEntries.address, [...addresses])))
    .orderBy(asc(freeEntries.address), asc(freeEntries.createdAt))
    .limit(addresses.length * perAddress);
  return rows;
}

/** A free entry the admin may void, with its pool's state. */
export async function getFreeEntry(db: Db, id: string) {
  const [row] = await db
    .select({
      id: freeEntries.id,
      poolId: freeEntries.poolId,
      userId: freeEntries.userId,
      sourceKey: freeEntries.sourceKey,
      entryNumber: freeEntries.entryNumber,
      voidedAt: freeEntries.voidedAt,
      address: freeEntries.address,
    })
    .from(freeEntries)
    .where(eq(freeEntries.id, id))
    .limit(1);
  return row ?? null;
}

/** Marks a free entry void with the admin's reason (once). */
export async function markFreeEntryVoided(
  db: Db,
  input: { id: string; adminId: string; reason: string; at: Date; entryNumber: number | null },
): Promise<boolean> {
  const result = await db
    .update(freeEntries)
    .set({ voidedAt: input.at, voidReason: input.reason, voidedBy: input.adminId, entryNumber: input.entryNumber })
    .where(and(eq(freeEntries.id, input.id), isNull(freeEntries.voidedAt)))
    .returning({ id: freeEntries.id });
  return result.length > 0;
}

/** Records a postal card once (by its reference). False when the card was recorded before. */
export async function insertPostalEntry(
  db: Db,
  row: {
    cardReference: string;
    hostId: string;
    poolId: string;
    userId: string;
    receivedOn: string;
    recordedBy: string;
    sourceKey: string;
  },
): Promise<boolean> {
  const result = await db
    .insert(postalEntries)
    .values(row)
    .onConflictDoNothing({ target: postalEntries.cardReference })
    .returning({ id: postalEntries.id });
  return result.length > 0;
}

export async function getPostalEntry(db: Db, cardReference: string) {
  const [row] = await db.select().from(postalEntries).where(eq(postalEntries.cardReference, cardReference)).limit(1);
  return row ?? null;
}

export async function setPostalEntryOutcome(db: Db, sourceKey: string, poolId: string, entryNumber: number | null) {
  await db.update(postalEntries).set({ poolId, entryNumber }).where(eq(postalEntries.sourceKey, sourceKey));
}

/** One page of recorded postal entries, newest first, with entrant, host and recording admin. */
export async function listPostalEntries(db: Db, page: number, pageSize: number) {
  const name = (column: typeof postalEntries.hostId | typeof postalEntries.recordedBy) =>
    sql<string | null>`(SELECT creator_name FROM user_profiles WHERE user_id = ${column})`;
  const rows = await db
    .select({
      id: postalEntries.id,
      cardReference: postalEntries.cardReference,
      receivedOn: postalEntries.receivedOn,
      entryNumber: postalEntries.entryNumber,
      poolId: postalEntries.poolId,
      entrantEmail: users.email,
      hostName: name(postalEntries.hostId),
      recordedByName: name(postalEntries.recordedBy),
      createdAt: postalEntries.createdAt,
    })
    .from(postalEntries)
    .leftJoin(users, eq(users.id, postalEntries.userId))
    .orderBy(desc(postalEntries.createdAt), desc(postalEntries.id))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  return { rows: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}
