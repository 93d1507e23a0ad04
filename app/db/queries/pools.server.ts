import { desc, eq, sql, sum } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { guessWinGames, prizePoolContributions, prizePools, prizeWinners } from "~/db/schema";

/** The host's open pool, or else their latest one, or undefined when they never had one. */
export async function getCurrentPool(db: Db, hostId: string) {
  const [row] = await db
    .select({
      id: prizePools.id,
      status: prizePools.status,
      targetCents: prizePools.targetCents,
      amountCents: prizePools.amountCents,
      currency: prizePools.currency,
      entriesCount: prizePools.entriesCount,
      autoRenew: prizePools.autoRenew,
      startAt: prizePools.startAt,
      endAt: prizePools.endAt,
      closedAt: prizePools.closedAt,
      drawBlockHeight: prizePools.drawBlockHeight,
      entriesDigest: prizePools.entriesDigest,
    })
    .from(prizePools)
    .where(eq(prizePools.hostId, hostId))
    .orderBy(sql`${prizePools.status} = 'open' desc`, desc(prizePools.createdAt))
    .limit(1);
  return row;
}

/** A pool's ledger summed per source type (at most one row per type). */
export async function listContributionTotals(db: Db, poolId: string) {
  const rows = await db
    .select({ sourceType: prizePoolContributions.sourceType, totalCents: sum(prizePoolContributions.amountCents) })
    .from(prizePoolContributions)
    .where(eq(prizePoolContributions.poolId, poolId))
    .groupBy(prizePoolContributions.sourceType)
    .limit(20);
  return rows.map((row) => ({ sourceType: row.sourceType, totalCents: Number(row.totalCents ?? 0) }));
}

/** The latest winners across a host's pools. */
export function listHostWinners(db: Db, hostId: string, limit = 5) {
  return db
    .select({
      id: prizeWinners.id,
      winnerName: prizeWinners.winnerName,
      prizeAmountCents: prizeWinners.prizeAmountCents,
      currency: prizeWinners.currency,
      prizeType: prizeWinners.prizeType,
      gameQuestion: guessWinGames.question,
      createdAt: prizeWinners.createdAt,
    })
    .from(prizeWinners)
    .innerJoin(prizePools, eq(prizePools.id, prizeWinners.poolId))
    .leftJoin(guessWinGames, eq(guessWinGames.id, prizeWinners.gameId))
    .where(eq(prizePools.hostId, hostId))
    .orderBy(desc(prizeWinners.createdAt))
    .limit(limit);
}
