import { and, asc, count, eq, gt, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { miniPrizeWinners, payouts, prizeDraws, prizeEntryDisqualifications, prizePools, prizeWinners } from "~/db/schema";
import type { BitcoinBlock } from "~/domain/draw";

/** Publishes a digest for a closed pool that has none yet. */
export async function setEntriesDigestIfMissing(db: Db, poolId: string, digest: string): Promise<void> {
  await db
    .update(prizePools)
    .set({ entriesDigest: digest, updatedAt: new Date() })
    .where(and(eq(prizePools.id, poolId), isNull(prizePools.entriesDigest)));
}

/** Commits a closed pool to a block height once (a height already set is kept). */
export async function setDrawHeightIfMissing(db: Db, poolId: string, height: number): Promise<void> {
  await db
    .update(prizePools)
    .set({ drawBlockHeight: height, updatedAt: new Date() })
    .where(and(eq(prizePools.id, poolId), eq(prizePools.status, "closed"), isNull(prizePools.drawBlockHeight)));
}

/** Open pools past their end, or at their target with an entry to draw. */
export function listPoolsDueToClose(db: Db, now: Date, limit: number) {
  return db
    .select()
    .from(prizePools)
    .where(
      and(
        eq(prizePools.status, "open"),
        or(
          lte(prizePools.endAt, now),
          and(gt(prizePools.targetCents, 0), sql`${prizePools.amountCents} >= ${prizePools.targetCents}`, gt(prizePools.entriesCount, 0)),
        ),
      ),
    )
    .limit(limit);
}

/** Closed pools with entries and no committed height. */
export function listUncommittedPools(db: Db, limit: number) {
  return db
    .select({ id: prizePools.id })
    .from(prizePools)
    .where(and(eq(prizePools.status, "closed"), isNull(prizePools.drawBlockHeight), gt(prizePools.entriesCount, 0)))
    .limit(limit);
}

/** Closed pools with a committed height (waiting for their block), lowest height first. */
export function listCommittedPools(db: Db, limit: number) {
  return db
    .select({ id: prizePools.id })
    .from(prizePools)
    .where(and(eq(prizePools.status, "closed"), isNotNull(prizePools.drawBlockHeight)))
    .orderBy(prizePools.drawBlockHeight)
    .limit(limit);
}

/** Every draw of a pool, first attempt first. */
export function listPoolDraws(db: Db, poolId: string) {
  return db.select().from(prizeDraws).where(eq(prizeDraws.poolId, poolId)).orderBy(asc(prizeDraws.attempt));
}

/** The entries of a closed pool disqualified after its close (their payment reversed), by entry number. */
export async function listDisqualifiedEntries(db: Db, poolId: string): Promise<number[]> {
  const rows = await db
    .select({ entryNumber: prizeEntryDisqualifications.entryNumber })
    .from(prizeEntryDisqualifications)
    .where(eq(prizeEntryDisqualifications.poolId, poolId))
    .orderBy(asc(prizeEntryDisqualifications.entryNumber));
  return rows.map((row) => row.entryNumber);
}

/** Records that a frozen entry's payment was reversed after the close (once). */
export async function insertDisqualification(db: Db, poolId: string, entryNumber: number, reversalKey: string): Promise<void> {
  await db.insert(prizeEntryDisqualifications).values({ poolId, entryNumber, reversalKey }).onConflictDoNothing();
}

export interface DrawRecord {
  poolId: string;
  attempt: number;
  height: number;
  hash: string;
  header: BitcoinBlock;
  entryNumber: number;
  userId: string | null;
  winnerName: string;
  prizeCents: number;
  currency: string;
  /** When the winning entry is disqualified already: the draw is recorded void and the next block is committed. */
  voidReason: string | null;
}

/**
 * Records a draw in one batch (a transaction): the prize_draws attempt (unique per pool), and either the winner
 * (pool drawn, main prize row) or, for a disqualified winner, the void draw and the next block committed.
 * Applies only while the pool is closed at that height. Returns true when this call moved the pool to drawn.
 */
export async function recordDraw(db: Db, draw: DrawRecord): Promise<boolean> {
  const now = new Date();
  const poolAtHeight = and(
    eq(prizePools.id, draw.poolId),
    eq(prizePools.status, "closed"),
    eq(prizePools.drawBlockHeight, draw.height),
  );
  const drawRow = db
    .insert(prizeDraws)
    .values({
      poolId: draw.poolId,
      attempt: draw.attempt,
      blockHeight: draw.height,
      blockHash: draw.hash,
      blockHeader: draw.header,
      winnerEntryNumber: draw.entryNumber,
      winnerUserId: sql`(SELECT id FROM users WHERE id = ${draw.userId})`,
      drawnAt: now,
      voidedAt: draw.voidReason ? now : null,
      voidReason: draw.voidReason,
    })
    .onConflictDoNothing();
  if (draw.voidReason) {
    await db.batch([
      drawRow,
      db
        .update(prizePools)
        .set({ drawBlockHeight: draw.height + 1, updatedAt: now })
        .where(poolAtHeight),
    ]);
    return false;
  }
  const [, moved] = await db.batch([
    drawRow,
    db
      .update(prizePools)
      .set({
        status: "drawn",
        drawBlockHash: draw.hash,
        drawBlockHeader: draw.header,
        winnerEntryNumber: draw.entryNumber,
        winnerUserId: sql`(SELECT id FROM users WHERE id = ${draw.userId})`,
        drawnAt: now,
        updatedAt: now,
      })
      .where(poolAtHeight)
      .returning({ id: prizePools.id }),
    db
      .insert(prizeWinners)
      .values({
        poolId: draw.poolId,
        userId: sql`(SELECT id FROM users WHERE id = ${draw.userId})`,
        winnerName: draw.winnerName,
        prizeAmountCents: draw.prizeCents,
        currency: draw.currency,
        prizeType: "main",
        entryNumber: draw.entryNumber,
        blockHash: draw.hash,
        createdAt: now,
      })
      .onConflictDoNothing(),
  ]);
  return moved.length === 1;
}

/**
 * Voids a drawn pool's winning draw (its payment reversed before the prize was paid): the draw row is marked void,
 * the main prize row and the mini prize winners removed, and the pool goes back to closed, committed to the next block. Returns false (and
 * changes nothing) unless the pool is drawn with that winning entry and its prize has no payout.
 */
export async function voidWinningDraw(db: Db, poolId: string, entryNumber: number, reason: string): Promise<boolean> {
  const [pool] = await db
    .select({ status: prizePools.status, winner: prizePools.winnerEntryNumber, height: prizePools.drawBlockHeight })
    .from(prizePools)
    .where(eq(prizePools.id, poolId))
    .limit(1);
  if (!pool || pool.status !== "drawn" || pool.winner !== entryNumber || pool.height === null) return false;
  const [paid] = await db
    .select({ n: count() })
    .from(payouts)
    .innerJoin(prizeWinners, eq(prizeWinners.id, payouts.prizeWinnerId))
    .where(and(eq(prizeWinners.poolId, poolId), eq(prizeWinners.prizeType, "main")));
  if ((paid?.n ?? 0) > 0) return false;
  const now = new Date();
  await db.batch([
    db
      .update(prizeDraws)
      .set({ voidedAt: now, voidReason: reason })
      .where(and(eq(prizeDraws.poolId, poolId), eq(prizeDraws.blockHeight, pool.height), isNull(prizeDraws.voidedAt))),
    db.delete(prizeWinners).where(and(eq(prizeWinners.poolId, poolId), eq(prizeWinners.prizeType, "main"))),
    // The mini prizes are drawn again from the next block too (their candidates exclude the new main winner).
    db.delete(miniPrizeWinners).where(eq(miniPrizeWinners.poolId, poolId)),
    db
      .update(prizePools)
      .set({
        status: "closed",
        drawBlockHeight: pool.height + 1,
        drawBlockHash: null,
        drawBlockHeader: null,
        winnerEntryNumber: null,
        winnerUserId: null,
        drawnAt: null,
        updatedAt: now,
      })
      .where(and(eq(prizePools.id, poolId), eq(prizePools.status, "drawn"), eq(prizePools.winnerEntryNumber, entryNumber))),
  ]);
  return true;
}
