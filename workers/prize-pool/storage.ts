// The pool object's own storage (its SQLite database): the pool's state row and its append-only ledger, with the
// running totals kept by triggers. Every method is synchronous SQL, so a call that uses it before its first await
// cannot interleave with another call (the input gate).

import { mayEarnEntry, type PoolEntryCap } from "~/domain/pool-cap";
import type { PoolEntry, PoolCloseReason, SealedGuessEntry } from "~/lib/pool-contract";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS pool_state (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    pool_id TEXT NOT NULL,
    host_id TEXT NOT NULL,
    target_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    end_at INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',
    close_reason TEXT,
    closed_at INTEGER,
    close_at INTEGER,
    entries_digest TEXT,
    winner TEXT
  )`,
  // The append-only ledger. seq orders it; entry_number is issued from 0 only to contributions that earn one.
  `CREATE TABLE IF NOT EXISTS ledger (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    source_key TEXT NOT NULL UNIQUE,
    source_type TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    user_id TEXT,
    entry_number INTEGER UNIQUE,
    created_at INTEGER NOT NULL,
    mirrored INTEGER NOT NULL DEFAULT 0,
    voided_at INTEGER,
    reverses_key TEXT
  )`,
  `CREATE INDEX IF NOT EXISTS ledger_unmirrored ON ledger (mirrored, seq)`,
  // An account's entries, counted for the per-person cap on every entry it earns (decision 560).
  `CREATE INDEX IF NOT EXISTS ledger_user_entries ON ledger (user_id) WHERE entry_number IS NOT NULL`,
];

/**
 * The ledger's running totals (the pool's amount and its valid entries), kept by triggers inside every statement
 * that writes the ledger, so no code path can miss one and reading them does not grow with the ledger (summing it
 * on every contribution made a long-lived pool slower with each entry). Created, and filled from the ledger an
 * older object already holds, when the object starts.
 */
const TOTALS_TABLE = `CREATE TABLE IF NOT EXISTS ledger_totals (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  amount INTEGER NOT NULL,
  entries INTEGER NOT NULL
)`;
const TOTALS_FROM_LEDGER = `INSERT INTO ledger_totals (singleton, amount, entries)
  SELECT 1, COALESCE(SUM(amount_cents), 0), COUNT(CASE WHEN entry_number IS NOT NULL AND voided_at IS NULL THEN 1 END)
  FROM ledger`;
const VALID_ENTRY = (row: "NEW" | "OLD") => `(${row}.entry_number IS NOT NULL AND ${row}.voided_at IS NULL)`;
const TOTALS_TRIGGERS = [
  `CREATE TRIGGER IF NOT EXISTS ledger_totals_insert AFTER INSERT ON ledger BEGIN
     UPDATE ledger_totals SET amount = amount + NEW.amount_cents, entries = entries + ${VALID_ENTRY("NEW")};
   END`,
  `CREATE TRIGGER IF NOT EXISTS ledger_totals_update AFTER UPDATE OF amount_cents, entry_number, voided_at ON ledger BEGIN
     UPDATE ledger_totals SET amount = amount - OLD.amount_cents + NEW.amount_cents,
       entries = entries - ${VALID_ENTRY("OLD")} + ${VALID_ENTRY("NEW")};
   END`,
  `CREATE TRIGGER IF NOT EXISTS ledger_totals_delete AFTER DELETE ON ledger BEGIN
     UPDATE ledger_totals SET amount = amount - OLD.amount_cents, entries = entries - ${VALID_ENTRY("OLD")};
   END`,
];

/** Columns added after the first release, for objects whose ledger table predates them. */
const LEDGER_ADDED_COLUMNS: Record<string, string> = {
  voided_at: "ALTER TABLE ledger ADD COLUMN voided_at INTEGER",
  reverses_key: "ALTER TABLE ledger ADD COLUMN reverses_key TEXT",
};

export type StateRow = {
  pool_id: string;
  host_id: string;
  target_cents: number;
  currency: string;
  end_at: number;
  status: string;
  close_reason: string | null;
  closed_at: number | null;
  close_at: number | null;
  entries_digest: string | null;
  winner: string | null;
};

export type LedgerRow = {
  seq: number;
  source_key: string;
  source_type: string;
  amount_cents: number;
  currency: string;
  user_id: string | null;
  entry_number: number | null;
  created_at: number;
  voided_at: number | null;
  reverses_key: string | null;
};

/** The pool's state and ledger in the object's SQLite storage. */
export class PoolStorage {
  private readonly sql: SqlStorage;

  /** Creates (or brings up to date) the tables, the running totals and their triggers. */
  constructor(private readonly storage: DurableObjectStorage) {
    this.sql = storage.sql;
    for (const statement of SCHEMA) this.sql.exec(statement);
    const columns = new Set(
      this.sql
        .exec<{ name: string }>("PRAGMA table_info(ledger)")
        .toArray()
        .map((c) => c.name),
    );
    for (const [column, statement] of Object.entries(LEDGER_ADDED_COLUMNS)) {
      if (!columns.has(column)) this.sql.exec(statement);
    }
    storage.transactionSync(() => {
      this.sql.exec(TOTALS_TABLE);
      if (this.sql.exec("SELECT 1 FROM ledger_totals").toArray().length === 0) this.sql.exec(TOTALS_FROM_LEDGER);
      for (const trigger of TOTALS_TRIGGERS) this.sql.exec(trigger);
    });
  }

  /** Runs `write` as one transaction (synchronous). */
  transaction(write: () => void): void {
    this.storage.transactionSync(write);
  }

  // --- the state row ----------------------------------------------------------------------------------------------

  row(): StateRow | null {
    return this.sql.exec<StateRow>("SELECT * FROM pool_state WHERE singleton = 1").toArray()[0] ?? null;
  }

  /** Records the state of a pool the object has never seen (its first init). */
  insertState(state: Omit<StateRow, "close_at">): void {
    this.sql.exec(
      `INSERT INTO pool_state (singleton, pool_id, host_id, target_cents, currency, end_at, status, close_reason,
                               closed_at, entries_digest, winner)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      state.pool_id,
      state.host_id,
      state.target_cents,
      state.currency,
      state.end_at,
      state.status,
      state.close_reason,
      state.closed_at,
      state.entries_digest,
      state.winner,
    );
  }

  setTerms(targetCents: number, endAt: number): void {
    this.sql.exec("UPDATE pool_state SET target_cents = ?, end_at = ?", targetCents, endAt);
  }

  /** When the target-hit close is due. */
  setCloseAt(closeAt: number): void {
    this.sql.exec("UPDATE pool_state SET close_at = ?", closeAt);
  }

  markClosed(reason: PoolCloseReason, closedAt: number): void {
    this.sql.exec("UPDATE pool_state SET status = 'closed', close_reason = ?, closed_at = ?", reason, closedAt);
  }

  /** Freezes the entry list: its digest, written once. */
  setEntriesDigest(digest: string): void {
    this.sql.exec("UPDATE pool_state SET entries_digest = ? WHERE entries_digest IS NULL", digest);
  }

  /** Back to closed with no winner (a disqualified winner's draw was voided). */
  clearWinner(): void {
    this.sql.exec("UPDATE pool_state SET status = 'closed', winner = NULL");
  }

  /** Drawn, with the winner (JSON). */
  setWinner(winner: string): void {
    this.sql.exec("UPDATE pool_state SET status = 'drawn', winner = ?", winner);
  }

  // --- the ledger -------------------------------------------------------------------------------------------------

  /** Sum of the ledger in cents and the number of valid entries (zeros before init). */
  totals(): { amountCents: number; entries: number } {
    const row = this.sql.exec<{ amount: number; entries: number }>("SELECT amount, entries FROM ledger_totals").one();
    return { amountCents: row.amount, entries: row.entries };
  }

  /** The entry list by entry number; void entries keep their line. */
  entries(): PoolEntry[] {
    return this.sql
      .exec<{
        entry_number: number;
        source_key: string;
        source_type: string;
        user_id: string | null;
        voided_at: number | null;
      }>(
        "SELECT entry_number, source_key, source_type, user_id, voided_at FROM ledger WHERE entry_number IS NOT NULL ORDER BY entry_number",
      )
      .toArray()
      .map((row) => ({
        entryNumber: row.entry_number,
        sourceKey: row.source_key,
        userId: row.user_id,
        voided: row.voided_at !== null,
        sourceType: row.source_type,
      }));
  }

  /** The ledger row recorded under a source key (its entry number), or undefined. */
  recorded(sourceKey: string): { entry_number: number | null } | undefined {
    return this.sql
      .exec<{ entry_number: number | null }>("SELECT entry_number FROM ledger WHERE source_key = ?", sourceKey)
      .toArray()[0];
  }

  has(sourceKey: string): boolean {
    return this.sql.exec("SELECT 1 FROM ledger WHERE source_key = ?", sourceKey).toArray().length > 0;
  }

  /** The valid (not void) entries an account holds in this pool. */
  heldEntries(userId: string): number {
    return this.sql
      .exec<{ n: number }>(
        "SELECT COUNT(*) AS n FROM ledger WHERE user_id = ? AND entry_number IS NOT NULL AND voided_at IS NULL",
        userId,
      )
      .one().n;
  }

  /**
   * Whether an account may earn one more entry now under the per-person cap (decision 560): its valid entries
   * against the cap of the pool's valid entries at this moment. An entry with no account behind it is not capped.
   * Synchronous, so the count and the append that follows it cannot interleave with another call.
   */
  mayEarnEntry(userId: string | null, cap: PoolEntryCap): boolean {
    if (userId === null) return true;
    return mayEarnEntry(this.heldEntries(userId), this.totals().entries, cap);
  }

  nextEntryNumber(): number {
    return this.sql.exec<{ next: number }>("SELECT COALESCE(MAX(entry_number) + 1, 0) AS next FROM ledger").one().next;
  }

  /** Appends a contribution (or a guess's entry) to the ledger. */
  append(row: Omit<LedgerRow, "seq" | "voided_at" | "reverses_key">): void {
    this.sql.exec(
      `INSERT INTO ledger (source_key, source_type, amount_cents, currency, user_id, entry_number, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      row.source_key,
      row.source_type,
      row.amount_cents,
      row.currency,
      row.user_id,
      row.entry_number,
      row.created_at,
    );
  }

  /**
   * Appends an entry (no money) for each sealed guess not yet in the ledger, in order; a guess whose account already
   * holds the per-person cap is recorded with no entry (entry number null), so it is counted as seen and never
   * earns one later. Returns how many rows were appended.
   */
  appendGuessEntries(guesses: readonly SealedGuessEntry[], currency: string, cap: PoolEntryCap): number {
    let appended = 0;
    for (const guess of guesses) {
      if (this.has(guess.sourceKey)) continue;
      const entryNumber = guess.earnsEntry && this.mayEarnEntry(guess.userId, cap) ? this.nextEntryNumber() : null;
      this.sql.exec(
        `INSERT INTO ledger (source_key, source_type, amount_cents, currency, user_id, entry_number, created_at)
         VALUES (?, 'guess_entry', 0, ?, ?, ?, ?)`,
        guess.sourceKey,
        currency,
        guess.userId,
        entryNumber,
        Date.now(),
      );
      appended++;
    }
    return appended;
  }

  /** Moves a no-entry pool's amount out (once per key): a negative carry_over row. */
  appendCarryOut(sourceKey: string, amountCents: number, currency: string): void {
    this.sql.exec(
      `INSERT OR IGNORE INTO ledger (source_key, source_type, amount_cents, currency, user_id, entry_number, created_at)
       VALUES (?, 'carry_over', ?, ?, NULL, NULL, ?)`,
      sourceKey,
      amountCents,
      currency,
      Date.now(),
    );
  }

  /** The amount recorded under a source key, or undefined. */
  amountOf(sourceKey: string): number | undefined {
    return this.sql
      .exec<{ amount: number }>("SELECT amount_cents AS amount FROM ledger WHERE source_key = ?", sourceKey)
      .toArray()[0]?.amount;
  }

  // --- reversals --------------------------------------------------------------------------------------------------

  /** A payment's own ledger row (not a reversal row), or undefined. */
  payment(sourceKey: string): LedgerRow | undefined {
    return this.sql
      .exec<LedgerRow>("SELECT * FROM ledger WHERE source_key = ? AND reverses_key IS NULL", sourceKey)
      .toArray()[0];
  }

  /** The pool share of a payment reversed in the ledger so far (positive). */
  reversedInPool(sourceKey: string): number {
    return -this.sql
      .exec<{ total: number }>(
        "SELECT COALESCE(SUM(amount_cents), 0) AS total FROM ledger WHERE reverses_key = ?",
        sourceKey,
      )
      .one().total;
  }

  isVoided(seq: number): boolean {
    return this.sql.exec<{ v: number | null }>("SELECT voided_at AS v FROM ledger WHERE seq = ?", seq).one().v !== null;
  }

  /** Appends a reversal row: minus the pool share, keyed by the reversal key. */
  appendReversal(reversalKey: string, original: LedgerRow, shareCents: number, now: number): void {
    this.sql.exec(
      `INSERT INTO ledger (source_key, source_type, amount_cents, currency, user_id, entry_number, created_at, reverses_key)
       VALUES (?, 'refund', ?, ?, ?, NULL, ?, ?)`,
      reversalKey,
      -shareCents,
      original.currency,
      original.user_id,
      now,
      original.source_key,
    );
  }

  /** Voids (a time) or restores (null) an entry; the row is mirrored again. */
  setVoided(seq: number, voidedAt: number | null): void {
    this.sql.exec("UPDATE ledger SET voided_at = ?, mirrored = 0 WHERE seq = ?", voidedAt, seq);
  }

  // --- what the D1 mirror reads and writes ------------------------------------------------------------------------

  /** Ledger rows imported from D1 (already mirrored), in one go with the state (see `transaction`). */
  importRow(row: Omit<LedgerRow, "seq">): void {
    this.sql.exec(
      `INSERT INTO ledger (source_key, source_type, amount_cents, currency, user_id, entry_number, created_at, mirrored,
                           voided_at, reverses_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      row.source_key,
      row.source_type,
      row.amount_cents,
      row.currency,
      row.user_id,
      row.entry_number,
      row.created_at,
      row.voided_at,
      row.reverses_key,
    );
  }

  /** The next rows not yet in D1, oldest first. */
  unmirrored(limit: number): LedgerRow[] {
    return this.sql
      .exec<LedgerRow>(
        `SELECT seq, source_key, source_type, amount_cents, currency, user_id, entry_number, created_at, voided_at,
                reverses_key
         FROM ledger WHERE mirrored = 0 ORDER BY seq LIMIT ?`,
        limit,
      )
      .toArray();
  }

  /**
   * Absolute totals of what D1 holds once the rows up to `lastSeq` are flushed: the running totals less the rows
   * after it not yet mirrored (a short tail). A row re-queued for its new void state (an entry voided with no ledger
   * row appended, decision 530) is earlier than rows D1 already has: those are not subtracted.
   */
  totalsUpTo(lastSeq: number): { amount: number; entries: number } {
    return this.sql
      .exec<{ amount: number; entries: number }>(
        `SELECT t.amount - COALESCE(SUM(l.amount_cents), 0) AS amount,
                t.entries - COUNT(CASE WHEN l.entry_number IS NOT NULL AND l.voided_at IS NULL THEN 1 END) AS entries
         FROM ledger_totals t LEFT JOIN ledger l ON l.seq > ? AND l.mirrored = 0`,
        lastSeq,
      )
      .one();
  }

  markMirrored(lastSeq: number): void {
    this.sql.exec("UPDATE ledger SET mirrored = 1 WHERE mirrored = 0 AND seq <= ?", lastSeq);
  }
}
