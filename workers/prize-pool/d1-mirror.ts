// The pool object's D1 mirror: what it imports from D1 when it first starts (seeded data, or storage lost), and the
// one flush queue per object that writes its ledger to D1 (prize_pool_contributions, prize_entries) with the
// pool's absolute totals (prize_pools), so D1 never goes backwards or loses a row. A failed flush is retried by the
// object's alarm.

import { CURRENT_ENTRIES_FORMAT } from "~/domain/draw";
import { ENTRY_SOURCE_TYPES } from "~/domain/pool";
import { POOL_CURRENCY } from "~/domain/pool";
import type { PoolInit, PoolStatus, PoolWinner } from "~/lib/pool-contract";
import type { LedgerRow, PoolStorage, StateRow } from "./storage";

/** Retry a failed D1 mirror this long after the failure (the alarm flushes it). */
export const MIRROR_RETRY_MS = 10_000;
/** Rows per D1 batch when mirroring. */
const MIRROR_CHUNK = 50;

const ENTRY_TYPES: readonly string[] = ENTRY_SOURCE_TYPES;

/** What D1 holds of a pool the object has never seen: its state row and its ledger, in ledger order. */
export async function readPoolFromD1(
  db: D1Database,
  params: Omit<PoolInit, "endAt"> & { endAt: number },
): Promise<{ state: Omit<StateRow, "close_at">; ledger: Omit<LedgerRow, "seq">[] }> {
  const [poolRows, contributionRows, entryRows] = await db.batch([
    db
      .prepare(
        `SELECT host_id, status, target_cents, currency, end_at, closed_at, close_reason, entries_digest,
                draw_block_height, draw_block_hash, winner_entry_number, winner_user_id, amount_cents
         FROM prize_pools WHERE id = ?`,
      )
      .bind(params.poolId),
    db
      .prepare(
        `SELECT source_key, source_type, amount_cents, currency, user_id, entry_number, created_at, reverses_key
         FROM prize_pool_contributions WHERE pool_id = ?`,
      )
      .bind(params.poolId),
    db
      .prepare(
        `SELECT source_key, source_type, user_id, entry_number, created_at, voided_at FROM prize_entries WHERE pool_id = ?`,
      )
      .bind(params.poolId),
  ]);
  const d1Pool = (poolRows?.results[0] ?? null) as Record<string, unknown> | null;
  const ledger = new Map<string, Omit<LedgerRow, "seq">>();
  for (const row of (contributionRows?.results ?? []) as Record<string, unknown>[]) {
    ledger.set(String(row.source_key), {
      source_key: String(row.source_key),
      source_type: String(row.source_type),
      amount_cents: Number(row.amount_cents),
      currency: String(row.currency ?? POOL_CURRENCY),
      user_id: (row.user_id as string | null) ?? null,
      entry_number: row.entry_number === null || row.entry_number === undefined ? null : Number(row.entry_number),
      created_at: Number(row.created_at ?? Date.now()),
      voided_at: null,
      reverses_key: (row.reverses_key as string | null) ?? null,
    });
  }
  for (const row of (entryRows?.results ?? []) as Record<string, unknown>[]) {
    const key = String(row.source_key);
    const known = ledger.get(key);
    const voidedAt = row.voided_at === null || row.voided_at === undefined ? null : Number(row.voided_at);
    if (known) {
      known.entry_number = Number(row.entry_number);
      known.voided_at = voidedAt;
    } else {
      // An entry with no money behind it (a free correct guess, a share bonus).
      ledger.set(key, {
        source_key: key,
        source_type: ENTRY_TYPES.includes(String(row.source_type)) ? String(row.source_type) : "product_purchase",
        amount_cents: 0,
        currency: String(d1Pool?.currency ?? params.currency ?? POOL_CURRENCY),
        user_id: (row.user_id as string | null) ?? null,
        entry_number: Number(row.entry_number),
        created_at: Number(row.created_at ?? Date.now()),
        voided_at: voidedAt,
        reverses_key: null,
      });
    }
  }

  const status = (d1Pool?.status as PoolStatus | undefined) ?? "open";
  const winner: PoolWinner | null =
    status === "drawn" && d1Pool && d1Pool.winner_entry_number !== null
      ? {
          entryNumber: Number(d1Pool.winner_entry_number),
          userId: (d1Pool.winner_user_id as string | null) ?? null,
          winnerName: `Entry #${Number(d1Pool.winner_entry_number)}`,
          prizeCents: 0,
          blockHeight: Number(d1Pool.draw_block_height),
          blockHash: String(d1Pool.draw_block_hash),
        }
      : null;
  return {
    state: {
      pool_id: params.poolId,
      host_id: String(d1Pool?.host_id ?? params.hostId),
      target_cents: d1Pool ? Number(d1Pool.target_cents) : params.targetCents,
      currency: String(d1Pool?.currency ?? params.currency ?? POOL_CURRENCY).toUpperCase(),
      end_at: d1Pool ? Number(d1Pool.end_at) : params.endAt,
      status,
      close_reason: (d1Pool?.close_reason as string | null) ?? null,
      closed_at: d1Pool?.closed_at === null || d1Pool?.closed_at === undefined ? null : Number(d1Pool.closed_at),
      entries_digest: (d1Pool?.entries_digest as string | null) ?? null,
      winner: winner ? JSON.stringify(winner) : null,
    },
    ledger: [...ledger.values()].sort(
      (a, b) => (a.entry_number ?? Infinity) - (b.entry_number ?? Infinity) || a.created_at - b.created_at,
    ),
  };
}

/** The flush queue: one per object, so flushes never overlap and D1 only ever moves forward. */
export class D1Mirror {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly env: Env,
    private readonly storage: PoolStorage,
  ) {}

  /** Queues a flush of every unmirrored ledger row; resolves once the rows present now are in D1. */
  mirror(): Promise<void> {
    const run = this.tail.then(() => this.flush());
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async flush(): Promise<void> {
    const pool = this.storage.row();
    if (!pool) return;
    const db = this.env.DB;
    for (;;) {
      const rows = this.storage.unmirrored(MIRROR_CHUNK);
      if (rows.length === 0) return;
      const lastSeq = rows[rows.length - 1]!.seq;
      const totals = this.storage.totalsUpTo(lastSeq);
      const statements: D1PreparedStatement[] = [];
      for (const row of rows) {
        // A user id that is not (or no longer) an account is stored as null rather than failing the batch.
        statements.push(
          db
            .prepare(
              `INSERT OR IGNORE INTO prize_pool_contributions
                 (id, pool_id, host_id, source_type, source_key, amount_cents, currency, user_id, entry_number, created_at,
                  reverses_key)
               VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT id FROM users WHERE id = ?), ?, ?, ?)`,
            )
            .bind(
              crypto.randomUUID(),
              pool.pool_id,
              pool.host_id,
              row.source_type,
              row.source_key,
              row.amount_cents,
              row.currency,
              row.user_id,
              row.entry_number,
              row.created_at,
              row.reverses_key,
            ),
        );
        if (row.entry_number !== null) {
          statements.push(
            db
              .prepare(
                `INSERT OR IGNORE INTO prize_entries (id, pool_id, entry_number, user_id, source_type, source_key, created_at)
                 VALUES (?, ?, ?, (SELECT id FROM users WHERE id = ?), ?, ?, ?)`,
              )
              .bind(
                crypto.randomUUID(),
                pool.pool_id,
                row.entry_number,
                row.user_id,
                ENTRY_TYPES.includes(row.source_type) ? row.source_type : null,
                row.source_key,
                row.created_at,
              ),
            // A void (or restored) entry: the row is re-queued with its new state.
            db
              .prepare("UPDATE prize_entries SET voided_at = ? WHERE pool_id = ? AND entry_number = ?")
              .bind(row.voided_at, pool.pool_id, row.entry_number),
          );
        }
      }
      statements.push(
        db
          .prepare("UPDATE prize_pools SET amount_cents = ?, entries_count = ?, updated_at = ? WHERE id = ?")
          .bind(totals.amount, totals.entries, Date.now(), pool.pool_id),
      );
      await db.batch(statements);
      this.storage.markMirrored(lastSeq);
    }
  }

  /** Writes a closed pool's state to its prize_pools row (a row closed before keeps its first close). */
  async mirrorClose(pool: StateRow, totals: { amountCents: number; entries: number }): Promise<void> {
    await this.env.DB.prepare(
      `UPDATE prize_pools SET
         status = CASE WHEN status = 'open' THEN 'closed' ELSE status END,
         closed_at = COALESCE(closed_at, ?),
         close_reason = COALESCE(close_reason, ?),
         entries_format = CASE WHEN entries_digest IS NULL THEN ? ELSE entries_format END,
         entries_digest = COALESCE(entries_digest, ?),
         amount_cents = ?, entries_count = ?, updated_at = ?
       WHERE id = ?`,
    )
      .bind(
        pool.closed_at,
        pool.close_reason,
        CURRENT_ENTRIES_FORMAT,
        pool.entries_digest,
        totals.amountCents,
        totals.entries,
        Date.now(),
        pool.pool_id,
      )
      .run();
  }
}
