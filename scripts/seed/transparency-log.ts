// The public commitment log (decision 550) of the seeded pools: every draw log record the seed made, in time order,
// chained after the genesis record migration 0030 wrote, with the pool's digest and valid entries by source at the
// time, exactly as the app appends them (app/db/queries/transparency.server.ts).
import type { CommitmentKind } from "../../app/domain/draw-commitment";
import {
  GENESIS_TRANSPARENCY_HASH,
  nextTransparencyRecord,
  transparencyReason,
  type LogHead,
} from "../../app/domain/transparency-log";
import type { Rows } from "./context";

export async function addTransparencyLog(rows: Rows): Promise<void> {
  const time = (value: Date | number) => (value instanceof Date ? value.getTime() : value);
  const records = [...rows.drawCommitments].sort(
    (a, b) => time(a.createdAt) - time(b.createdAt) || a.poolId.localeCompare(b.poolId) || a.seq - b.seq,
  );
  let head: LogHead = { seq: 0, hash: GENESIS_TRANSPARENCY_HASH };
  for (const poolRecord of records) {
    const pool = rows.prizePools.find((row) => row.id === poolRecord.poolId);
    const entryCounts: Record<string, number> = {};
    for (const entry of rows.prizeEntries) {
      if (entry.poolId !== poolRecord.poolId || entry.voidedAt) continue;
      const source = entry.sourceType ?? "unrecorded";
      entryCounts[source] = (entryCounts[source] ?? 0) + 1;
    }
    const previous = rows.drawCommitments
      .filter((row) => row.poolId === poolRecord.poolId && row.seq < poolRecord.seq)
      .sort((a, b) => b.seq - a.seq)[0];
    const kind = poolRecord.kind as CommitmentKind;
    const record = await nextTransparencyRecord(head, {
      kind,
      poolId: poolRecord.poolId,
      poolSeq: poolRecord.seq,
      poolRecordHash: poolRecord.hash,
      entriesDigest: pool?.entriesDigest ?? null,
      entryCounts,
      blockHeight: poolRecord.blockHeight ?? null,
      tipHeight: poolRecord.tipHeight ?? null,
      tipHash: poolRecord.tipHash ?? null,
      tipTime: poolRecord.tipTime ?? null,
      highestTip: poolRecord.highestTip ?? null,
      tipsSeen: [],
      reason: transparencyReason(kind, poolRecord.reason ?? null, (previous?.kind as CommitmentKind) ?? null),
      createdAt: time(poolRecord.createdAt),
    });
    rows.transparencyLog.push({ ...record, createdAt: new Date(record.createdAt) });
    head = record;
  }
}
