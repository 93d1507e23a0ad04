// The public commitment log (decision 550): reading it in pages, and appending a pool's draw log record to it in the
// same batch as the record itself.
import { and, asc, desc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import { drawCommitments, prizeEntries, prizePools, transparencyLog } from "~/db/schema";
import type { CommitmentRecord } from "~/domain/draw-commitment";
import {
  nextTransparencyRecord,
  transparencyReason,
  type LogHead,
  type PoolLogStamp,
  type TipSeen,
  type TransparencyRecord,
} from "~/domain/transparency-log";

type Row = typeof transparencyLog.$inferSelect;

function toRecord(row: Row): TransparencyRecord {
  return { ...row, createdAt: row.createdAt.getTime() };
}

/** The log's last record (the genesis record at least, written by migration 0030). */
export async function getLogHead(db: Db): Promise<LogHead> {
  const [row] = await db
    .select({ seq: transparencyLog.seq, hash: transparencyLog.hash })
    .from(transparencyLog)
    .orderBy(desc(transparencyLog.seq))
    .limit(1);
  if (!row) throw new Error("the public commitment log has no genesis record (migration 0030)");
  return row;
}

/** Records newest first, below `before` when given. */
export async function listLogNewestFirst(
  db: Db,
  options: { before?: number; limit: number; offset?: number },
): Promise<TransparencyRecord[]> {
  const rows = await db
    .select()
    .from(transparencyLog)
    .where(options.before === undefined ? undefined : lt(transparencyLog.seq, options.before))
    .orderBy(desc(transparencyLog.seq))
    .limit(options.limit)
    .offset(options.offset ?? 0);
  return rows.map(toRecord);
}

/** Records oldest first from `from` on. */
export async function listLogFrom(db: Db, options: { from: number; limit: number }): Promise<TransparencyRecord[]> {
  const rows = await db
    .select()
    .from(transparencyLog)
    .where(gte(transparencyLog.seq, options.from))
    .orderBy(asc(transparencyLog.seq))
    .limit(options.limit);
  return rows.map(toRecord);
}

/** A pool's records in the public log, first first (few: a commitment, and a void or refusal per redraw). */
export async function listPoolLogRecords(db: Db, poolId: string): Promise<TransparencyRecord[]> {
  const rows = await db
    .select()
    .from(transparencyLog)
    .where(eq(transparencyLog.poolId, poolId))
    .orderBy(asc(transparencyLog.seq))
    .limit(100);
  return rows.map(toRecord);
}

/** A pool's published digest and its valid (not void) entries by source, as the public log records them. */
async function poolEntryFacts(
  db: Db,
  poolId: string,
): Promise<{ entriesDigest: string | null; entryCounts: Record<string, number> }> {
  const [pool, counts] = await Promise.all([
    db.select({ digest: prizePools.entriesDigest }).from(prizePools).where(eq(prizePools.id, poolId)).limit(1),
    db
      .select({ source: prizeEntries.sourceType, count: sql<number>`count(*)` })
      .from(prizeEntries)
      .where(and(eq(prizeEntries.poolId, poolId), isNull(prizeEntries.voidedAt)))
      .groupBy(prizeEntries.sourceType),
  ]);
  const entryCounts: Record<string, number> = {};
  for (const row of counts) entryCounts[row.source ?? "unrecorded"] = Number(row.count);
  return { entriesDigest: pool[0]?.digest ?? null, entryCounts };
}

/** The kind of the pool's record before `seq` (to say whether a commitment is a redraw), or null. */
async function previousPoolRecordKind(db: Db, poolId: string, seq: number): Promise<CommitmentRecord["kind"] | null> {
  const [row] = await db
    .select({ kind: drawCommitments.kind })
    .from(drawCommitments)
    .where(and(eq(drawCommitments.poolId, poolId), lt(drawCommitments.seq, seq)))
    .orderBy(desc(drawCommitments.seq))
    .limit(1);
  return row?.kind ?? null;
}

/**
 * The public log's insert for `record`, written only when the pool's own record (`poolRecord`, inserted earlier in
 * the same batch) is there with its hash: a pool record a batch did not write is never mirrored. Its seq is the
 * primary key, so a concurrent append that took the number makes the whole batch fail and change nothing.
 */
function transparencyInsert(db: Db, record: TransparencyRecord, poolRecord: CommitmentRecord) {
  return db.insert(transparencyLog).select(
    sql`SELECT ${record.seq}, ${record.kind}, ${record.poolId}, ${record.poolSeq}, ${record.poolRecordHash},
      ${record.entriesDigest}, ${JSON.stringify(record.entryCounts)}, ${record.blockHeight}, ${record.tipHeight},
      ${record.tipHash}, ${record.tipTime}, ${record.highestTip}, ${JSON.stringify(record.tipsSeen)}, ${record.reason},
      ${record.createdAt}, ${record.prevHash}, ${record.hash}
      WHERE EXISTS (SELECT 1 FROM draw_commitments WHERE pool_id = ${poolRecord.poolId} AND seq = ${poolRecord.seq}
        AND hash = ${poolRecord.hash})`,
  );
}

/** Appends racing for the same number retry this many times (each loss means another append landed). */
const MAX_APPEND_ATTEMPTS = 50;

/**
 * Writes a pool's draw log record and its public log record together: `run` gets the public log's insert and runs
 * one batch with the pool's record inserted before it. Appends are serialized by the log's primary key: the record
 * is numbered head + 1 and chained to the head's hash; when another append took that number first, the batch fails
 * as a whole, and it is built again on the new head. Any other failure is thrown as it was.
 */
export async function withLogAppend<T>(
  db: Db,
  poolRecord: CommitmentRecord,
  tipsSeen: readonly TipSeen[],
  run: (logInsert: BatchItem<"sqlite">) => Promise<T>,
): Promise<T> {
  const [facts, previousKind] = await Promise.all([
    poolEntryFacts(db, poolRecord.poolId),
    previousPoolRecordKind(db, poolRecord.poolId, poolRecord.seq),
  ]);
  const body = {
    kind: poolRecord.kind,
    poolId: poolRecord.poolId,
    poolSeq: poolRecord.seq,
    poolRecordHash: poolRecord.hash,
    ...facts,
    blockHeight: poolRecord.blockHeight,
    tipHeight: poolRecord.tipHeight,
    tipHash: poolRecord.tipHash,
    tipTime: poolRecord.tipTime,
    highestTip: poolRecord.highestTip,
    tipsSeen: [...tipsSeen],
    reason: transparencyReason(poolRecord.kind, poolRecord.reason, previousKind),
    createdAt: poolRecord.createdAt,
  };
  for (let attempt = 1; ; attempt++) {
    const record = await nextTransparencyRecord(await getLogHead(db), body);
    try {
      return await run(transparencyInsert(db, record, poolRecord));
    } catch (error) {
      const head = await getLogHead(db);
      if (head.seq < record.seq || attempt >= MAX_APPEND_ATTEMPTS) throw error;
    }
  }
}

/** A pool's latest record in the log (null before its first) and the head, read together (one batch). */
export async function getPoolLogStamp(db: Db, poolId: string): Promise<PoolLogStamp> {
  const [record, head] = await db.batch([
    db
      .select({ seq: transparencyLog.seq, hash: transparencyLog.hash })
      .from(transparencyLog)
      .where(eq(transparencyLog.poolId, poolId))
      .orderBy(desc(transparencyLog.seq))
      .limit(1),
    db
      .select({ seq: transparencyLog.seq, hash: transparencyLog.hash })
      .from(transparencyLog)
      .orderBy(desc(transparencyLog.seq))
      .limit(1),
  ]);
  if (!head[0]) throw new Error("the public commitment log has no genesis record (migration 0030)");
  return { record: record[0] ?? null, head: head[0] };
}
