// Queries of the prize pool screens (settings, management, details, history) and the public draw pages. Every
// host-scoped function takes the signed-in host's id and filters by it, so a host only ever reads their own pools.

import { and, asc, count, desc, eq, gte, inArray, isNotNull, sql, sum } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  guessWinGames,
  guessWinParticipants,
  prizeEntries,
  prizeMiniPrizes,
  prizePoolContributions,
  prizePools,
  prizeWinners,
  userProfiles,
} from "~/db/schema";
import type { MiniPrize } from "~/domain/pool";

// --- profile and mini prizes ----------------------------------------------------------------------------------

/** Saves the host's pool target and duration (the next pool's terms, decision 640) on their own profile. */
export async function setProfilePoolTerms(
  db: Db,
  hostId: string,
  terms: { targetCents: number; durationDays: number },
): Promise<void> {
  await db
    .update(userProfiles)
    .set({ prizePoolTargetCents: terms.targetCents, prizePoolDurationDays: terms.durationDays, updatedAt: new Date() })
    .where(eq(userProfiles.userId, hostId));
}

/**
 * SQL: the pool has an entry, or one on its way (docs/product.md#pool-settings, decision 560): an entry row (void or
 * not), the object's mirrored count, a contribution reserved for the pool that asks for an entry (reserved in D1
 * before the pool object makes the entry), or a correct guess of the host's ended game not yet taken by a pool
 * (appended by the open pool's object when it admits them).
 */
function poolEntered(poolId: string, hostId: string) {
  return sql`(exists (select 1 from ${prizeEntries} e where e.pool_id = ${poolId})
    or exists (select 1 from ${prizePools} p where p.id = ${poolId} and p.entries_count > 0)
    or exists (select 1 from pool_contribution_keys k where k.pool_id = ${poolId} and k.earns_entry = 1)
    or exists (select 1 from ${guessWinParticipants} g join ${guessWinGames} gg on gg.id = g.game_id
      where gg.host_id = ${hostId} and gg.status = 'completed' and g.is_correct = 1 and g.payment_status = 'paid'
        and g.confirmed_at is not null and g.pool_id is null))`;
}

/** Whether the host's pool has an entry (or one on its way): its mini prizes can no longer change. */
export async function poolHasEntries(db: Db, poolId: string, hostId: string): Promise<boolean> {
  const row = await db.get<{ entered: number }>(sql`select ${poolEntered(poolId, hostId)} as entered`);
  return Boolean(row?.entered);
}

/**
 * Replaces a pool's mini prizes with `rows` in one batch (all or nothing), only while the pool is open and nobody
 * has entered it: they are fixed once it has an entry (decision 560) and when it closes (its draw awards them).
 * Returns "ok", or changes nothing and returns "closed" (the pool has closed) or "entered" (it has an entry).
 */
export async function replaceMiniPrizes(
  db: Db,
  poolId: string,
  hostId: string,
  rows: readonly MiniPrize[],
): Promise<"ok" | "closed" | "entered"> {
  const poolOpen = sql`exists (select 1 from ${prizePools} where ${prizePools.id} = ${poolId} and ${prizePools.hostId} = ${hostId} and ${prizePools.status} = 'open')`;
  const editable = sql`(${poolOpen} and not ${poolEntered(poolId, hostId)})`;
  const remove = db
    .delete(prizeMiniPrizes)
    .where(and(eq(prizeMiniPrizes.poolId, poolId), eq(prizeMiniPrizes.hostId, hostId), editable))
    .returning({ id: prizeMiniPrizes.id });
  // Distinct creation times keep the saved order (rows are listed by created_at). Each row is inserted only while
  // the pool is editable, in the same batch as the delete, so a pool closing or entered meanwhile keeps its mini
  // prizes as fixed.
  const now = Date.now();
  const inserts = rows.map((row, i) =>
    db
      .insert(prizeMiniPrizes)
      .select(
        sql`select ${crypto.randomUUID()}, ${poolId}, ${hostId}, ${row.name}, ${row.amountText}, ${row.quantityText}, ${now + i} where ${editable}`,
      )
      .returning({ id: prizeMiniPrizes.id }),
  );
  const check = db
    .select({ open: sql<number>`${poolOpen}`, entered: sql<number>`${poolEntered(poolId, hostId)}` })
    .from(prizePools)
    .where(eq(prizePools.id, poolId))
    .limit(1);
  // The check runs first in the batch: what it sees is what the writes after it saw.
  const [state, , ...inserted] = await db.batch([check, remove, ...inserts]);
  const [seen] = state;
  if (!seen?.open) return "closed";
  if (seen.entered) return "entered";
  if (rows.length > 0 && !inserted.some((r) => r.length > 0)) return "closed";
  return "ok";
}

// --- one pool's figures ---------------------------------------------------------------------------------------

/** The sum of a pool's ledger (D1 mirror), in cents. */
export async function poolContributionSum(db: Db, poolId: string): Promise<number> {
  const [row] = await db
    .select({ total: sum(prizePoolContributions.amountCents) })
    .from(prizePoolContributions)
    .where(eq(prizePoolContributions.poolId, poolId));
  return Number(row?.total ?? 0);
}

/**
 * The people taking part in a pool: distinct fans with an entry or a contribution in it (the host's own deposits
 * are not participation).
 */
export async function countPoolParticipants(db: Db, poolId: string): Promise<number> {
  const result = await db.get<{ n: number }>(sql`
    SELECT COUNT(*) AS n FROM (
      SELECT ${prizeEntries.userId} AS user_id FROM ${prizeEntries}
        WHERE ${prizeEntries.poolId} = ${poolId} AND ${prizeEntries.userId} IS NOT NULL
      UNION
      SELECT ${prizePoolContributions.userId} FROM ${prizePoolContributions}
        WHERE ${prizePoolContributions.poolId} = ${poolId} AND ${prizePoolContributions.userId} IS NOT NULL
          AND ${prizePoolContributions.sourceType} != 'host_deposit'
    )`);
  return Number(result?.n ?? 0);
}

// --- a host's winners, pools and growth -----------------------------------------------------------------------

/** A page of the winners of the host's pools, newest first. */
export function listHostWinnersPage(db: Db, hostId: string, { limit, offset }: { limit: number; offset: number }) {
  return db
    .select({
      id: prizeWinners.id,
      poolId: prizeWinners.poolId,
      winnerName: prizeWinners.winnerName,
      prizeAmountCents: prizeWinners.prizeAmountCents,
      currency: prizeWinners.currency,
      prizeType: prizeWinners.prizeType,
      entryNumber: prizeWinners.entryNumber,
      gameQuestion: guessWinGames.question,
      createdAt: prizeWinners.createdAt,
    })
    .from(prizeWinners)
    .innerJoin(prizePools, eq(prizePools.id, prizeWinners.poolId))
    .leftJoin(guessWinGames, eq(guessWinGames.id, prizeWinners.gameId))
    .where(eq(prizePools.hostId, hostId))
    .orderBy(desc(prizeWinners.createdAt), desc(prizeWinners.id))
    .limit(limit)
    .offset(offset);
}

/**
 * The host's contributions per UTC day from `since` on (all their pools): total cents and number of
 * contributions, only days that have any.
 */
export async function dailyContributions(db: Db, hostId: string, since: Date) {
  const day = sql<string>`strftime('%Y-%m-%d', ${prizePoolContributions.createdAt} / 1000, 'unixepoch')`;
  const rows = await db
    .select({ day, totalCents: sum(prizePoolContributions.amountCents), contributions: count() })
    .from(prizePoolContributions)
    .where(and(eq(prizePoolContributions.hostId, hostId), gte(prizePoolContributions.createdAt, since)))
    .groupBy(day)
    .orderBy(day)
    .limit(100);
  return rows.map((row) => ({
    day: row.day,
    totalCents: Number(row.totalCents ?? 0),
    contributions: row.contributions,
  }));
}

/** A page of the host's pools (open and closed), newest first, with the main winner's name when drawn. */
export function listHostPools(db: Db, hostId: string, { limit, offset }: { limit: number; offset: number }) {
  return db
    .select({
      id: prizePools.id,
      status: prizePools.status,
      targetCents: prizePools.targetCents,
      amountCents: prizePools.amountCents,
      currency: prizePools.currency,
      entriesCount: prizePools.entriesCount,
      startAt: prizePools.startAt,
      endAt: prizePools.endAt,
      closedAt: prizePools.closedAt,
      drawDelayReason: prizePools.drawDelayReason,
      closeReason: prizePools.closeReason,
      drawBlockHeight: prizePools.drawBlockHeight,
      winnerEntryNumber: prizePools.winnerEntryNumber,
      winnerName: prizeWinners.winnerName,
    })
    .from(prizePools)
    .leftJoin(prizeWinners, and(eq(prizeWinners.poolId, prizePools.id), eq(prizeWinners.prizeType, "main")))
    .where(eq(prizePools.hostId, hostId))
    .orderBy(sql`${prizePools.status} = 'open' desc`, desc(prizePools.createdAt), desc(prizePools.id))
    .limit(limit)
    .offset(offset);
}

/** Ledger sums of several pools at once (for pools whose mirrored amount may lag), by pool id. */
export async function contributionSums(db: Db, poolIds: readonly string[]): Promise<Map<string, number>> {
  if (poolIds.length === 0) return new Map();
  const rows = await db
    .select({ poolId: prizePoolContributions.poolId, total: sum(prizePoolContributions.amountCents) })
    .from(prizePoolContributions)
    .where(inArray(prizePoolContributions.poolId, [...poolIds]))
    .groupBy(prizePoolContributions.poolId)
    .limit(poolIds.length);
  return new Map(rows.map((row) => [row.poolId, Number(row.total ?? 0)]));
}

// --- public draw pages ----------------------------------------------------------------------------------------

/** The latest drawn pools of every host (public: what anyone can verify). */
export function listRecentDrawnPools(db: Db, limit: number) {
  return db
    .select({
      id: prizePools.id,
      hostName: userProfiles.creatorName,
      entriesCount: prizePools.entriesCount,
      drawBlockHeight: prizePools.drawBlockHeight,
      drawBlockHash: prizePools.drawBlockHash,
      winnerEntryNumber: prizePools.winnerEntryNumber,
      closeReason: prizePools.closeReason,
      drawnAt: prizePools.drawnAt,
      drawDelayReason: prizePools.drawDelayReason,
    })
    .from(prizePools)
    .leftJoin(userProfiles, eq(userProfiles.userId, prizePools.hostId))
    .where(and(eq(prizePools.status, "drawn"), isNotNull(prizePools.drawBlockHash)))
    .orderBy(desc(prizePools.drawnAt), desc(prizePools.id))
    .limit(limit);
}

/** One pool with everything its public verification page shows, or undefined. */
export async function getPoolForVerification(db: Db, poolId: string) {
  const [row] = await db
    .select({
      id: prizePools.id,
      hostId: prizePools.hostId,
      hostName: userProfiles.creatorName,
      status: prizePools.status,
      targetCents: prizePools.targetCents,
      amountCents: prizePools.amountCents,
      currency: prizePools.currency,
      entriesCount: prizePools.entriesCount,
      startAt: prizePools.startAt,
      endAt: prizePools.endAt,
      closedAt: prizePools.closedAt,
      closeReason: prizePools.closeReason,
      entriesDigest: prizePools.entriesDigest,
      entriesFormat: prizePools.entriesFormat,
      drawBlockHeight: prizePools.drawBlockHeight,
      drawBlockHash: prizePools.drawBlockHash,
      winnerEntryNumber: prizePools.winnerEntryNumber,
      winnerUserId: prizePools.winnerUserId,
      drawnAt: prizePools.drawnAt,
      drawDelayReason: prizePools.drawDelayReason,
    })
    .from(prizePools)
    .leftJoin(userProfiles, eq(userProfiles.userId, prizePools.hostId))
    .where(eq(prizePools.id, poolId))
    .limit(1);
  if (!row) return undefined;
  const [winner] = await db
    .select({
      name: prizeWinners.winnerName,
      prizeAmountCents: prizeWinners.prizeAmountCents,
      currency: prizeWinners.currency,
    })
    .from(prizeWinners)
    .where(and(eq(prizeWinners.poolId, poolId), eq(prizeWinners.prizeType, "main")))
    .limit(1);
  let winnerName = winner?.name ?? null;
  if (!winnerName && row.winnerUserId) {
    const [profile] = await db
      .select({ name: userProfiles.creatorName })
      .from(userProfiles)
      .where(eq(userProfiles.userId, row.winnerUserId))
      .limit(1);
    winnerName = profile?.name ?? null;
  }
  return {
    ...row,
    winnerName,
    mainPrize: winner ? { cents: winner.prizeAmountCents, currency: winner.currency } : null,
  };
}

/** The number of entries in a pool's (frozen) list. */
export async function countPoolEntries(db: Db, poolId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(prizeEntries).where(eq(prizeEntries.poolId, poolId));
  return row?.n ?? 0;
}

/** A page of a pool's entries by entry number: the digest's input, line by line. */
export function listPoolEntries(db: Db, poolId: string, { limit, offset }: { limit: number; offset: number }) {
  return db
    .select({
      entryNumber: prizeEntries.entryNumber,
      sourceKey: prizeEntries.sourceKey,
      voidedAt: prizeEntries.voidedAt,
    })
    .from(prizeEntries)
    .where(eq(prizeEntries.poolId, poolId))
    .orderBy(asc(prizeEntries.entryNumber))
    .limit(limit)
    .offset(offset);
}

/** Rows read per query when a whole entry list is exported. */
const ENTRY_EXPORT_CHUNK = 5000;

/** A pool's whole entry list by entry number (read in chunks, keyset-paginated on the entry number). */
export async function allPoolEntries(
  db: Db,
  poolId: string,
): Promise<{ entryNumber: number; sourceKey: string; voided: boolean; sourceType: string | null }[]> {
  const out: { entryNumber: number; sourceKey: string; voided: boolean; sourceType: string | null }[] = [];
  let after = -1;
  for (;;) {
    const rows = await db
      .select({
        entryNumber: prizeEntries.entryNumber,
        sourceKey: prizeEntries.sourceKey,
        voidedAt: prizeEntries.voidedAt,
        sourceType: prizeEntries.sourceType,
      })
      .from(prizeEntries)
      .where(and(eq(prizeEntries.poolId, poolId), sql`${prizeEntries.entryNumber} > ${after}`))
      .orderBy(asc(prizeEntries.entryNumber))
      .limit(ENTRY_EXPORT_CHUNK);
    out.push(
      ...rows.map((row) => ({
        entryNumber: row.entryNumber,
        sourceKey: row.sourceKey,
        voided: row.voidedAt !== null,
        sourceType: row.sourceType,
      })),
    );
    if (rows.length < ENTRY_EXPORT_CHUNK) return out;
    after = rows[rows.length - 1]!.entryNumber;
  }
}
