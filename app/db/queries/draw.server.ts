import { and, asc, eq, gt, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import {
  drawCommitments,
  miniPrizeWinners,
  payouts,
  prizeDraws,
  prizeEntryDisqualifications,
  prizePools,
  prizeWinners,
} from "~/db/schema";
import type { BitcoinBlock, EntriesFormat } from "~/domain/draw";
import type { CommitmentRecord } from "~/domain/draw-commitment";
import type { TipSeen } from "~/domain/transparency-log";
import { withLogAppend } from "./transparency.server";

/** Publishes a digest (of entries.txt in `format`) for a closed pool that has none yet. */
export async function setEntriesDigestIfMissing(
  db: Db,
  poolId: string,
  digest: string,
  format: EntriesFormat,
): Promise<void> {
  await db
    .update(prizePools)
    .set({ entriesDigest: digest, entriesFormat: format, updatedAt: new Date() })
    .where(and(eq(prizePools.id, poolId), isNull(prizePools.entriesDigest)));
}

/** A pool's draw log, first record first. */
export async function listCommitmentLog(db: Db, poolId: string): Promise<CommitmentRecord[]> {
  const rows = await db
    .select()
    .from(drawCommitments)
    .where(eq(drawCommitments.poolId, poolId))
    .orderBy(asc(drawCommitments.seq));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.getTime() }));
}

/**
 * Writes a pool's draw log record, its public log record (withLogAppend, decision 550) and `statements` in one batch:
 * the way a draw log record is written (commitDrawHeight's conditional insert aside, also through withLogAppend), so
 * the pool's log and the public log never part.
 */
async function batchWithLogRecord(db: Db, record: CommitmentRecord, statements: BatchItem<"sqlite">[]): Promise<void> {
  await withLogAppend(db, record, [], (logInsert) =>
    db.batch([
      db.insert(drawCommitments).values({ ...record, createdAt: new Date(record.createdAt) }),
      logInsert,
      ...statements,
    ]),
  );
}

/**
 * Commits a closed pool to a block height once (a height already set is kept), with its commitment record: the
 * record is written only while the pool is closed and uncommitted, and the height only with it (one batch; a second
 * run racing for the same record number fails on the log's key and changes nothing). Returns true when committed.
 */
export async function commitDrawHeight(
  db: Db,
  record: CommitmentRecord,
  tipsSeen: readonly TipSeen[] = [],
): Promise<boolean> {
  const now = new Date(record.createdAt);
  return withLogAppend(db, record, tipsSeen, async (logInsert) => {
    const [, , moved] = await db.batch([
      // Every column in the table's order: written only while the pool is closed and uncommitted.
      db.insert(drawCommitments)
        .select(sql`SELECT ${record.poolId}, ${record.seq}, ${record.kind}, ${record.blockHeight}, ${record.tipHeight}, ${record.tipHash},
        ${record.tipTime}, ${record.highestTip}, ${record.reason}, ${record.createdAt}, ${record.prevHash}, ${record.hash}
      WHERE EXISTS (SELECT 1 FROM prize_pools WHERE id = ${record.poolId} AND status = 'closed' AND draw_block_height IS NULL)`),
      logInsert,
      db
        .update(prizePools)
        .set({ drawBlockHeight: record.blockHeight, updatedAt: now })
        .where(
          and(
            eq(prizePools.id, record.poolId),
            eq(prizePools.status, "closed"),
            isNull(prizePools.drawBlockHeight),
            sql`EXISTS (SELECT 1 FROM draw_commitments WHERE pool_id = ${record.poolId} AND seq = ${record.seq})`,
          ),
        )
        .returning({ id: prizePools.id }),
    ]);
    return moved.length === 1;
  });
}

/**
 * A committed block was refused (not descending from the recorded tip, too old): the record says why, the pool shows
 * "draw delayed" with that reason and gives up the height, so the next run commits afresh (recorded too). Applies
 * only while the pool is closed at that height.
 */
export async function delayDraw(db: Db, record: CommitmentRecord): Promise<void> {
  const now = new Date(record.createdAt);
  await batchWithLogRecord(db, record, [
    db
      .update(prizePools)
      .set({ drawBlockHeight: null, drawDelayReason: record.reason, updatedAt: now })
      .where(
        and(
          eq(prizePools.id, record.poolId),
          eq(prizePools.status, "closed"),
          eq(prizePools.drawBlockHeight, record.blockHeight!),
        ),
      ),
  ]);
}

/** Closed pools whose draw is delayed (a committed block was refused), with why: for the admin. */
export function listDelayedDraws(db: Db, limit = 50) {
  return db
    .select({
      id: prizePools.id,
      hostId: prizePools.hostId,
      reason: prizePools.drawDelayReason,
      closedAt: prizePools.closedAt,
      height: prizePools.drawBlockHeight,
    })
    .from(prizePools)
    .where(and(eq(prizePools.status, "closed"), isNotNull(prizePools.drawDelayReason)))
    .orderBy(asc(prizePools.closedAt))
    .limit(limit);
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
          and(
            gt(prizePools.targetCents, 0),
            sql`${prizePools.amountCents} >= ${prizePools.targetCents}`,
            gt(prizePools.entriesCount, 0),
          ),
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
export async function insertDisqualification(
  db: Db,
  poolId: string,
  entryNumber: number,
  reversalKey: string,
): Promise<void> {
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
  /** The headers from the recorded tip + 1 to the block − 1 (the block's descent from the tip). */
  chainHeaders: BitcoinBlock[];
  /** The commitment record the draw was made under. */
  commitmentSeq: number;
  /**
   * When the winning entry is disqualified already: the draw is recorded void (with `voidRecord` in the log) and the
   * pool gives up its height, to commit afresh past the tip at that time.
   */
  voidReason: string | null;
  voidRecord?: CommitmentRecord;
}

/**
 * Records a draw in one batch (a transaction): the prize_draws attempt (unique per pool), and either the winner
 * (pool drawn, main prize row) or, for a disqualified winner, the void draw logged and the height given up.
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
      chainHeaders: draw.chainHeaders,
      commitmentSeq: draw.commitmentSeq,
      winnerEntryNumber: draw.entryNumber,
      winnerUserId: sql`(SELECT id FROM users WHERE id = ${draw.userId})`,
      drawnAt: now,
      voidedAt: draw.voidReason ? now : null,
      voidReason: draw.voidReason,
    })
    .onConflictDoNothing();
  if (draw.voidReason) {
    const giveUp = db.update(prizePools).set({ drawBlockHeight: null, updatedAt: now }).where(poolAtHeight);
    const record = draw.voidRecord;
    if (record) {
      await batchWithLogRecord(db, record, [drawRow, giveUp]);
    } else await db.batch([drawRow, giveUp]);
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
        drawDelayReason: null,
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
 * Voids a drawn pool's winning draw (its payment reversed by the buyer or the provider before the prize settled): a
 * pending prize payout is cancelled first, the draw row is marked void, the main prize row and the mini prize winners
 * removed, the void recorded in the pool's log (`record`), and the pool goes back to closed with no height, to commit
 * afresh past the tip at this time. Returns false (and changes nothing) unless the pool is drawn with that winning
 * entry and its prize payout, if any, is still pending (not being paid, paid, or failed).
 */
export async function voidWinningDraw(
  db: Db,
  poolId: string,
  entryNumber: number,
  record: CommitmentRecord,
): Promise<boolean> {
  const [pool] = await db
    .select({ status: prizePools.status, winner: prizePools.winnerEntryNumber, height: prizePools.drawBlockHeight })
    .from(prizePools)
    .where(eq(prizePools.id, poolId))
    .limit(1);
  if (!pool || pool.status !== "drawn" || pool.winner !== entryNumber || pool.height === null) return false;
  const prizePayouts = await db
    .select({ id: payouts.id, status: payouts.status })
    .from(payouts)
    .innerJoin(prizeWinners, eq(prizeWinners.id, payouts.prizeWinnerId))
    .where(and(eq(prizeWinners.poolId, poolId), eq(prizeWinners.prizeType, "main")));
  if (prizePayouts.some((payout) => payout.status !== "pending")) return false;
  const height = pool.height;
  const now = new Date(record.createdAt);
  const reason = record.reason ?? "the winning payment was reversed";
  // The pending payout is cancelled and let go of the prize row (a cancelled payout keeps its amount for the record);
  // if it moved on meanwhile, the prize row's delete fails on its reference and the whole batch changes nothing.
  const cancels = prizePayouts.map((payout) =>
    db
      .update(payouts)
      .set({ status: "cancelled", prizeWinnerId: null, failureReason: `draw voided: ${reason}`, updatedAt: now })
      .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending"))),
  );
  await batchWithLogRecord(db, record, [
    db
      .update(prizeDraws)
      .set({ voidedAt: now, voidReason: reason })
      .where(and(eq(prizeDraws.poolId, poolId), eq(prizeDraws.blockHeight, height), isNull(prizeDraws.voidedAt))),
    ...cancels,
    db.delete(prizeWinners).where(and(eq(prizeWinners.poolId, poolId), eq(prizeWinners.prizeType, "main"))),
    // The mini prizes are drawn again from the new block too (their candidates exclude the new main winner).
    db.delete(miniPrizeWinners).where(eq(miniPrizeWinners.poolId, poolId)),
    db
      .update(prizePools)
      .set({
        status: "closed",
        drawBlockHeight: null,
        drawBlockHash: null,
        drawBlockHeader: null,
        winnerEntryNumber: null,
        winnerUserId: null,
        drawnAt: null,
        updatedAt: now,
      })
      .where(
        and(eq(prizePools.id, poolId), eq(prizePools.status, "drawn"), eq(prizePools.winnerEntryNumber, entryNumber)),
      ),
  ]);
  return true;
}
