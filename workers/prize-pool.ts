import { DurableObject } from "cloudflare:workers";
import { CONTRIBUTION_SOURCE_TYPES, ENTRY_SOURCE_TYPES } from "~/db/schema";
import { carryOverKey } from "~/domain/contribution-keys";
import { entriesDigest } from "~/domain/draw";
import {
  POOL_CURRENCY,
  reversalShareCents,
  reversalVoidsEntry,
  shouldCloseForTarget,
  TARGET_HIT_CLOSE_DELAY_MS,
} from "~/domain/pool";
import {
  addressTag,
  connectionRefusal,
  openSockets,
  freshBudget,
  POOL_SOCKETS_PER_ADDRESS,
  POOL_SOCKETS_PER_POOL,
  SOCKET_CLOSE_REASONS,
  SOCKET_POLICY_CLOSE,
  spendMessage,
  stateReplyDue,
  type SocketBudget,
} from "~/domain/socket-budget";
import { commitDrawHeight } from "~/lib/draw.server";
import type {
  ContributionInput,
  ContributionResult,
  PoolCloseReason,
  PoolEntry,
  PoolInit,
  PoolLiveMessage,
  PoolState,
  PoolStatus,
  PoolWinner,
  ReversalInput,
  ReversalResult,
  SealedGuessEntry,
} from "~/lib/pool-contract";
import {
  addContribution,
  hostAutoRenews,
  linkSealedGuesses,
  listRoundGuessEntries,
  openNextPool,
  sealRound,
} from "~/lib/pools.server";

// The RPC and live-message contract lives in app/lib/pool-contract.ts (imported by both sides).
export type * from "~/lib/pool-contract";

// --- storage --------------------------------------------------------------------------------------------------

/** Retry a failed D1 mirror this long after the failure (the alarm flushes it). */
const MIRROR_RETRY_MS = 10_000;
/** Rows per D1 batch when mirroring. */
const MIRROR_CHUNK = 50;

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

type StateRow = {
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

type LedgerRow = {
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

const SOURCE_TYPES: readonly string[] = CONTRIBUTION_SOURCE_TYPES;
const ENTRY_TYPES: readonly string[] = ENTRY_SOURCE_TYPES;

function assertContribution(input: ContributionInput): void {
  if (typeof input.sourceKey !== "string" || input.sourceKey.length === 0 || input.sourceKey.length > 500) {
    throw new TypeError("A contribution needs a source key of 1 to 500 characters");
  }
  if (/[\r\n]/.test(input.sourceKey)) throw new TypeError("A source key cannot contain a line break");
  if (!SOURCE_TYPES.includes(input.sourceType)) throw new TypeError(`Unknown source type: ${input.sourceType}`);
  if (!Number.isSafeInteger(input.amountCents)) throw new TypeError("amountCents must be a whole number of cents");
  if (input.userId !== null && typeof input.userId !== "string") throw new TypeError("userId must be a string or null");
  if (typeof input.earnsEntry !== "boolean") throw new TypeError("earnsEntry must be a boolean");
}

function toMs(value: number | Date): number {
  const ms = value instanceof Date ? value.getTime() : value;
  if (!Number.isFinite(ms)) throw new TypeError("endAt must be a time");
  return ms;
}

/**
 * One instance per prize pool (named by the pool id): the only writer of the pool's amount and entry list.
 *
 * Contributions form an append-only ledger keyed by their source, so a source applied twice counts once; the
 * amount is always the sum of the ledger. Every call's ledger write is synchronous SQL done before its first
 * await, so the input gate serialises concurrent calls and entry numbers are issued 0, 1, 2... exactly once.
 * D1 (prize_pools, prize_pool_contributions, prize_entries) is a mirror written by one flush queue per object
 * with absolute totals, so it never goes backwards or loses a row; a failed flush is retried by the alarm.
 */
export class PrizePool extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private mirrorTail: Promise<void> = Promise.resolve();
  private finishing: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
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
    ctx.storage.transactionSync(() => {
      this.sql.exec(TOTALS_TABLE);
      if (this.sql.exec("SELECT 1 FROM ledger_totals").toArray().length === 0) this.sql.exec(TOTALS_FROM_LEDGER);
      for (const trigger of TOTALS_TRIGGERS) this.sql.exec(trigger);
    });
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  // --- RPC ------------------------------------------------------------------------------------------------------

  /**
   * Sets the pool up (idempotent). A fresh object first imports whatever D1 already holds for the pool (seeded
   * data, or storage lost), so entry numbers continue instead of restarting. Called again on an open pool with a
   * different target or end time (settings edited in the first days), it takes the new terms.
   */
  async init(params: PoolInit): Promise<PoolState> {
    const existing = this.row();
    if (existing) {
      if (existing.pool_id !== params.poolId) throw new Error(`This object holds pool ${existing.pool_id}`);
      if (existing.status === "open") this.updateTerms(params);
      return this.state();
    }
    if (typeof params.poolId !== "string" || params.poolId === "") throw new TypeError("poolId is required");
    if (typeof params.hostId !== "string" || params.hostId === "") throw new TypeError("hostId is required");
    if (!Number.isSafeInteger(params.targetCents) || params.targetCents < 0) {
      throw new TypeError("targetCents must be a whole number of cents");
    }
    const endAt = toMs(params.endAt);
    let failure: unknown = null;
    // Hold every other event until the import is done; an error is rethrown outside so the object is not reset.
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.row()) return;
      try {
        await this.importFromD1({ ...params, endAt });
      } catch (error) {
        failure = error;
      }
    });
    if (failure) throw failure;
    return this.state();
  }

  /** Records a contribution once per source key. See ContributionResult. */
  async contribute(input: ContributionInput): Promise<ContributionResult> {
    const pool = this.row();
    if (!pool)
      return {
        accepted: false,
        duplicate: false,
        entryNumber: null,
        amountCents: 0,
        entries: 0,
        reason: "uninitialised",
      };
    assertContribution(input);

    // Everything up to the first await is synchronous SQL, so concurrent calls cannot interleave here.
    const seen = this.sql
      .exec<{ entry_number: number | null }>("SELECT entry_number FROM ledger WHERE source_key = ?", input.sourceKey)
      .toArray()[0];
    if (seen) {
      return { accepted: true, duplicate: true, entryNumber: seen.entry_number, ...this.totals() };
    }
    if (pool.status === "open" && Date.now() >= pool.end_at) {
      // Past its end time the pool takes nothing more: it closes now (the cron would a moment later).
      this.markClosed("timer_expired");
    }
    if (this.row()!.status !== "open") {
      return {
        accepted: false,
        duplicate: false,
        entryNumber: null,
        ...this.totals(),
        reason: "closed",
        closeReason: this.row()!.close_reason as PoolCloseReason | null,
      };
    }
    const currency = (input.currency || POOL_CURRENCY).toUpperCase();
    if (currency !== pool.currency) throw new RangeError(`This pool is kept in ${pool.currency}, not ${currency}`);

    const entryNumber = input.earnsEntry
      ? this.sql.exec<{ next: number }>("SELECT COALESCE(MAX(entry_number) + 1, 0) AS next FROM ledger").one().next
      : null;
    this.sql.exec(
      `INSERT INTO ledger (source_key, source_type, amount_cents, currency, user_id, entry_number, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      input.sourceKey,
      input.sourceType,
      input.amountCents,
      currency,
      input.userId,
      entryNumber,
      Date.now(),
    );
    const totals = this.totals();
    this.broadcast(entryNumber === null ? undefined : { entryNumber });

    if (shouldCloseForTarget(totals.amountCents, pool.target_cents, totals.entries) && pool.close_at === null) {
      const closeAt = Date.now() + TARGET_HIT_CLOSE_DELAY_MS;
      this.sql.exec("UPDATE pool_state SET close_at = ?", closeAt);
      await this.ctx.storage.setAlarm(closeAt);
    }

    try {
      await this.mirror();
    } catch (error) {
      // The ledger (the truth) has the contribution; D1 catches up on the next flush or the retry alarm.
      console.error("prize pool: D1 mirror failed", pool.pool_id, error);
      await this.scheduleRetry();
    }
    return { accepted: true, duplicate: false, entryNumber, ...totals };
  }

  /**
   * Applies a refund or dispute event to the payment's contribution while the pool is open: one ledger row keyed by
   * the reversal key (the pool share at the contribution's own rate, never more than the contribution in total)
   * and the entry voided while more than half the payment is reversed. Once the pool has closed nothing changes
   * here: the result says "closed" with the share the host owes instead. Idempotent per reversal key.
   */
  async reverse(input: ReversalInput): Promise<ReversalResult> {
    const pool = this.row();
    const base = { shareCents: 0, entryNumber: null, entryVoided: false, amountCents: 0, poolReversedCents: 0 };
    if (!pool) return { outcome: "uninitialised", ...base };
    if (typeof input.reversalKey !== "string" || input.reversalKey === "" || input.reversalKey.length > 500) {
      throw new TypeError("A reversal needs a key of 1 to 500 characters");
    }
    for (const value of [
      input.reversedCents,
      input.paymentCents,
      input.cumulativeReversedCents,
      input.givenBackCents ?? 0,
    ]) {
      if (!Number.isSafeInteger(value)) throw new TypeError("Reversal amounts must be whole numbers of cents");
    }
    const original = this.sql
      .exec<LedgerRow>("SELECT * FROM ledger WHERE source_key = ? AND reverses_key IS NULL", input.sourceKey)
      .toArray()[0];
    if (!original) return { outcome: "unknown_source", ...base, amountCents: this.totals().amountCents };
    const reversedInPool = () =>
      -this.sql
        .exec<{ total: number }>(
          "SELECT COALESCE(SUM(amount_cents), 0) AS total FROM ledger WHERE reverses_key = ?",
          input.sourceKey,
        )
        .one().total;
    const reversedSoFar = reversedInPool();
    const shareCents = reversalShareCents({
      contributionCents: original.amount_cents,
      alreadyReversedCents: reversedSoFar,
      reversedCents: input.reversedCents,
      paymentCents: input.paymentCents,
      cumulativeReversedCents: input.cumulativeReversedCents,
      givenBackCents: input.givenBackCents,
    });
    const seen = this.sql.exec("SELECT 1 FROM ledger WHERE source_key = ?", input.reversalKey).toArray().length > 0;
    const result = (outcome: ReversalResult["outcome"], share: number): ReversalResult => ({
      outcome,
      shareCents: share,
      entryNumber: original.entry_number,
      entryVoided:
        this.sql.exec<{ v: number | null }>("SELECT voided_at AS v FROM ledger WHERE seq = ?", original.seq).one().v !==
        null,
      poolReversedCents: reversedInPool(),
      amountCents: this.totals().amountCents,
    });
    if (seen) return result("duplicate", 0);
    if (pool.status !== "open") return result("closed", 0);

    const now = Date.now();
    this.sql.exec(
      `INSERT INTO ledger (source_key, source_type, amount_cents, currency, user_id, entry_number, created_at, reverses_key)
       VALUES (?, 'refund', ?, ?, ?, NULL, ?, ?)`,
      input.reversalKey,
      -shareCents,
      original.currency,
      original.user_id,
      now,
      input.sourceKey,
    );
    if (original.entry_number !== null && input.keepEntry !== true) {
      const voids = reversalVoidsEntry(input.cumulativeReversedCents, input.paymentCents);
      this.sql.exec(
        "UPDATE ledger SET voided_at = ?, mirrored = 0 WHERE seq = ?",
        voids ? (original.voided_at ?? now) : null,
        original.seq,
      );
    }
    this.broadcast();
    try {
      await this.mirror();
    } catch (error) {
      console.error("prize pool: D1 mirror failed", pool.pool_id, error);
      await this.scheduleRetry();
    }
    return result("applied", shareCents);
  }

  /** Sum of the ledger in cents and the number of valid entries (zeros before init). */
  totals(): { amountCents: number; entries: number } {
    const row = this.sql.exec<{ amount: number; entries: number }>("SELECT amount, entries FROM ledger_totals").one();
    return { amountCents: row.amount, entries: row.entries };
  }

  state(): PoolState {
    const pool = this.row();
    if (!pool) throw new Error("This prize pool has not been set up");
    return {
      poolId: pool.pool_id,
      hostId: pool.host_id,
      status: pool.status as PoolStatus,
      targetCents: pool.target_cents,
      ...this.totals(),
      currency: pool.currency,
      endAt: pool.end_at,
      closeReason: pool.close_reason as PoolCloseReason | null,
      closedAt: pool.closed_at,
      closeAt: pool.close_at,
      entriesDigest: pool.entries_digest,
      winner: pool.winner ? (JSON.parse(pool.winner) as PoolWinner) : null,
    };
  }

  /**
   * Closes the pool (idempotent; the first reason wins) and freezes its entry list. Then, each time it is called
   * until it succeeds: writes the closed state and the entries digest to D1, opens the host's next pool, and tries
   * to commit the draw to a future block height.
   */
  async close(reason: PoolCloseReason): Promise<PoolState> {
    const pool = this.row();
    if (!pool) throw new Error("This prize pool has not been set up");
    if (reason !== "target_reached" && reason !== "timer_expired" && reason !== "closed_early") {
      throw new TypeError(`Unknown close reason: ${reason}`);
    }
    this.markClosed(reason);
    this.finishing ??= this.finishClose().finally(() => {
      this.finishing = null;
    });
    await this.finishing;
    return this.state();
  }

  /**
   * Games of this round ended before the pool closed (the host ended them, or their end date passed): appends one
   * entry for each correct guess our server confirmed while its game ran, to this pool while it is open. Keyed by
   * `guess:{participant id}`, so a repeat, a concurrent call or the close's own append counts each guess once; a
   * pool that closed meanwhile leaves them to its close. Returns how many entries were appended now.
   */
  async admitGuesses(): Promise<{ admitted: number; entries: number }> {
    const pool = this.row();
    if (!pool || pool.status !== "open" || Date.now() >= pool.end_at)
      return { admitted: 0, entries: this.totals().entries };
    const guesses = await listRoundGuessEntries(this.env, pool.host_id);
    // After the await: only a still-open pool takes them (a close appends them itself, before freezing its list).
    if (this.row()?.status !== "open") return { admitted: 0, entries: this.totals().entries };
    let admitted = 0;
    this.ctx.storage.transactionSync(() => {
      admitted = this.appendGuessEntries(guesses);
    });
    if (admitted === 0) return { admitted, entries: this.totals().entries };
    this.broadcast();
    try {
      await this.mirror();
      await linkSealedGuesses(this.env, pool.pool_id);
    } catch (error) {
      // The ledger has the entries; the mirror retries, and the close links them at the latest.
      console.error("prize pool: D1 mirror of admitted guesses failed", pool.pool_id, error);
      await this.scheduleRetry();
    }
    return { admitted, entries: this.totals().entries };
  }

  /** The frozen (or current) entry list for the draw, by entry number; void entries keep their line. */
  entries(): PoolEntry[] {
    return this.sql
      .exec<{ entry_number: number; source_key: string; user_id: string | null; voided_at: number | null }>(
        "SELECT entry_number, source_key, user_id, voided_at FROM ledger WHERE entry_number IS NOT NULL ORDER BY entry_number",
      )
      .toArray()
      .map((row) => ({
        entryNumber: row.entry_number,
        sourceKey: row.source_key,
        userId: row.user_id,
        voided: row.voided_at !== null,
      }));
  }

  /** A drawn winner was disqualified (its payment reversed before the prize settled): back to closed, no winner. */
  reopenDraw(): PoolState {
    const pool = this.row();
    if (!pool) throw new Error("This prize pool has not been set up");
    if (pool.status === "drawn") {
      this.sql.exec("UPDATE pool_state SET status = 'closed', winner = NULL");
      this.broadcast();
    }
    return this.state();
  }

  /** Records the drawn winner (written to D1 by the draw) and tells every socket. Idempotent. */
  announceWinner(winner: PoolWinner): PoolState {
    const pool = this.row();
    if (!pool) throw new Error("This prize pool has not been set up");
    if (pool.status === "open") throw new Error("An open pool has no winner");
    if (pool.status !== "drawn" || pool.winner !== JSON.stringify(winner)) {
      this.sql.exec("UPDATE pool_state SET status = 'drawn', winner = ?", JSON.stringify(winner));
    }
    this.broadcast();
    return this.state();
  }

  // --- WebSockets (hibernation API) -----------------------------------------------------------------------------

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    if (!this.row()) return new Response("Unknown pool", { status: 404 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    // Connection limits (decision 430): per client address (the Worker forwards CF-Connecting-IP) and per pool.
    // A refused socket is accepted and closed at once with the reason, so the page sees why and stays on its figures.
    const tag = addressTag(request.headers.get("CF-Connecting-IP"));
    const refusal = connectionRefusal(
      { fromAddress: openSockets(this.ctx.getWebSockets(tag)), total: openSockets(this.ctx.getWebSockets()) },
      { perAddress: POOL_SOCKETS_PER_ADDRESS, total: POOL_SOCKETS_PER_POOL },
    );
    if (refusal) {
      server.accept();
      server.close(SOCKET_POLICY_CLOSE, refusal);
      return new Response(null, { status: 101, webSocket: client });
    }
    this.ctx.acceptWebSocket(server, [tag]);
    server.serializeAttachment(freshBudget(Date.now()));
    server.send(JSON.stringify(this.message()));
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // "ping" is answered by the auto-response without waking the object. Every other message is counted against
    // the socket's budget (kept in its attachment, so it survives hibernation); over it the socket is closed.
    // "state" asks for a fresh snapshot: answered at most once per STATE_REPLY_INTERVAL_MS (every change is
    // broadcast anyway, so a coalesced request misses nothing).
    if (ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    const spent = spendMessage((ws.deserializeAttachment() as SocketBudget | null) ?? freshBudget(now), now);
    if (!spent.withinBudget) {
      ws.close(SOCKET_POLICY_CLOSE, SOCKET_CLOSE_REASONS.tooManyMessages);
      return;
    }
    const reply = message === "state" && stateReplyDue(spent.budget, now) && this.row() !== null;
    ws.serializeAttachment(reply ? { ...spent.budget, stateSentAt: now } : spent.budget);
    if (reply) ws.send(JSON.stringify(this.message()));
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // Already closed, or a reserved code (1005/1006) that cannot be echoed.
    }
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    try {
      ws.close(1011, "error");
    } catch {
      // Already closed.
    }
  }

  // --- alarm: the target-hit close (1 s after the hit) and D1 mirror retries --------------------------------------

  async alarm(): Promise<void> {
    const pool = this.row();
    if (!pool) return;
    await this.mirror();
    if (pool.status === "open" && pool.close_at !== null) await this.close("target_reached");
  }

  // --- internals ------------------------------------------------------------------------------------------------

  /** Appends an entry (no money) for each sealed guess not yet in the ledger; synchronous. Returns how many. */
  private appendGuessEntries(guesses: readonly SealedGuessEntry[]): number {
    const pool = this.row()!;
    let appended = 0;
    for (const guess of guesses) {
      const seen = this.sql.exec("SELECT 1 FROM ledger WHERE source_key = ?", guess.sourceKey).toArray().length > 0;
      if (seen) continue;
      const next = this.sql
        .exec<{ next: number }>("SELECT COALESCE(MAX(entry_number) + 1, 0) AS next FROM ledger")
        .one().next;
      this.sql.exec(
        `INSERT INTO ledger (source_key, source_type, amount_cents, currency, user_id, entry_number, created_at)
         VALUES (?, 'guess_entry', 0, ?, ?, ?, ?)`,
        guess.sourceKey,
        pool.currency,
        guess.userId,
        next,
        Date.now(),
      );
      appended++;
    }
    return appended;
  }

  /** Stops taking contributions (the first reason wins). Synchronous, so nothing can slip in after it. */
  private markClosed(reason: PoolCloseReason): void {
    const pool = this.row();
    if (!pool || pool.status !== "open") return;
    this.sql.exec("UPDATE pool_state SET status = 'closed', close_reason = ?, closed_at = ?", reason, Date.now());
    this.broadcast();
  }

  private row(): StateRow | null {
    return this.sql.exec<StateRow>("SELECT * FROM pool_state WHERE singleton = 1").toArray()[0] ?? null;
  }

  private message(lastEntry?: PoolLiveMessage["lastEntry"]): PoolLiveMessage {
    const state = this.state();
    const message: PoolLiveMessage = {
      type: "pool",
      poolId: state.poolId,
      amountCents: state.amountCents,
      entries: state.entries,
      status: state.status,
      targetCents: state.targetCents,
    };
    if (lastEntry) message.lastEntry = { entryNumber: lastEntry.entryNumber };
    if (state.winner) {
      const { entryNumber, winnerName, prizeCents, blockHeight, blockHash } = state.winner;
      message.winner = { entryNumber, winnerName, prizeCents, blockHeight, blockHash };
    }
    return message;
  }

  private broadcast(lastEntry?: PoolLiveMessage["lastEntry"]): void {
    const sockets = this.ctx.getWebSockets();
    if (sockets.length === 0) return;
    const text = JSON.stringify(this.message(lastEntry));
    for (const ws of sockets) {
      try {
        ws.send(text);
      } catch {
        // A socket that is closing; it leaves getWebSockets() on its own.
      }
    }
  }

  private updateTerms(params: PoolInit): void {
    const pool = this.row();
    if (!pool || pool.status !== "open") return;
    const endAt = toMs(params.endAt);
    if (!Number.isSafeInteger(params.targetCents) || params.targetCents < 0) return;
    if (params.targetCents === pool.target_cents && endAt === pool.end_at) return;
    this.sql.exec("UPDATE pool_state SET target_cents = ?, end_at = ?", params.targetCents, endAt);
    // A lowered target may already be reached.
    const totals = this.totals();
    if (pool.close_at === null && shouldCloseForTarget(totals.amountCents, params.targetCents, totals.entries)) {
      const closeAt = Date.now() + TARGET_HIT_CLOSE_DELAY_MS;
      this.sql.exec("UPDATE pool_state SET close_at = ?", closeAt);
      void this.ctx.storage.setAlarm(closeAt);
    }
    this.broadcast();
  }

  private async scheduleRetry(): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null) await this.ctx.storage.setAlarm(Date.now() + MIRROR_RETRY_MS);
  }

  /** Imports the D1 rows of a pool the object has never seen, then records its state. */
  private async importFromD1(params: Omit<PoolInit, "endAt"> & { endAt: number }): Promise<void> {
    const db = this.env.DB;
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

    this.ctx.storage.transactionSync(() => {
      this.sql.exec(
        `INSERT INTO pool_state (singleton, pool_id, host_id, target_cents, currency, end_at, status, close_reason,
                                 closed_at, entries_digest, winner)
         VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        params.poolId,
        String(d1Pool?.host_id ?? params.hostId),
        d1Pool ? Number(d1Pool.target_cents) : params.targetCents,
        String(d1Pool?.currency ?? params.currency ?? POOL_CURRENCY).toUpperCase(),
        d1Pool ? Number(d1Pool.end_at) : params.endAt,
        status,
        (d1Pool?.close_reason as string | null) ?? null,
        d1Pool?.closed_at === null || d1Pool?.closed_at === undefined ? null : Number(d1Pool.closed_at),
        (d1Pool?.entries_digest as string | null) ?? null,
        winner ? JSON.stringify(winner) : null,
      );
      const rows = [...ledger.values()].sort(
        (a, b) => (a.entry_number ?? Infinity) - (b.entry_number ?? Infinity) || a.created_at - b.created_at,
      );
      for (const row of rows) {
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
    });
    // A seeded pool that is already past its target closes like any other.
    const pool = this.row();
    const totals = this.totals();
    if (pool && pool.status === "open" && shouldCloseForTarget(totals.amountCents, pool.target_cents, totals.entries)) {
      const closeAt = Date.now() + TARGET_HIT_CLOSE_DELAY_MS;
      this.sql.exec("UPDATE pool_state SET close_at = ?", closeAt);
      await this.ctx.storage.setAlarm(closeAt);
    }
  }

  /** Queues a flush of every unmirrored ledger row; resolves once the rows present now are in D1. */
  private mirror(): Promise<void> {
    const run = this.mirrorTail.then(() => this.flushMirror());
    this.mirrorTail = run.catch(() => undefined);
    return run;
  }

  private async flushMirror(): Promise<void> {
    const pool = this.row();
    if (!pool) return;
    const db = this.env.DB;
    for (;;) {
      const rows = this.sql
        .exec<LedgerRow>(
          `SELECT seq, source_key, source_type, amount_cents, currency, user_id, entry_number, created_at, voided_at,
                  reverses_key
           FROM ledger WHERE mirrored = 0 ORDER BY seq LIMIT ?`,
          MIRROR_CHUNK,
        )
        .toArray();
      if (rows.length === 0) return;
      const lastSeq = rows[rows.length - 1]!.seq;
      // Absolute totals of the ledger up to the last row written in this batch (the running totals less the rows
      // written since, a short tail): D1 always equals a prefix of it.
      const totals = this.sql
        .exec<{ amount: number; entries: number }>(
          `SELECT t.amount - COALESCE(SUM(l.amount_cents), 0) AS amount,
                  t.entries - COUNT(CASE WHEN l.entry_number IS NOT NULL AND l.voided_at IS NULL THEN 1 END) AS entries
           FROM ledger_totals t LEFT JOIN ledger l ON l.seq > ?`,
          lastSeq,
        )
        .one();
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
      this.sql.exec("UPDATE ledger SET mirrored = 1 WHERE mirrored = 0 AND seq <= ?", lastSeq);
    }
  }

  /**
   * The rest of the close, retried until it succeeds (each step is idempotent): ends the host's running games of
   * this round and appends one entry per correct guess confirmed before its game ended; with no valid entry, moves
   * the amount out (carried to the host's next pool); freezes the list (its digest); mirrors to D1; opens the
   * host's next pool; carries the amount over; commits the draw to a future block.
   */
  private async finishClose(): Promise<void> {
    let pool = this.row();
    if (!pool) return;
    if (pool.entries_digest === null) {
      const guesses = await sealRound(this.env, {
        hostId: pool.host_id,
        poolId: pool.pool_id,
        closedAt: pool.closed_at ?? Date.now(),
      });
      // With no next pool (auto-renew off: the host's account was deleted) there is nowhere to carry an amount to.
      const renews = await hostAutoRenews(this.env, pool.host_id);
      pool = this.row()!;
      if (pool.entries_digest === null) {
        const before = this.totals();
        this.ctx.storage.transactionSync(() => {
          this.appendGuessEntries(guesses);
          const totals = this.totals();
          if (renews && totals.entries === 0 && totals.amountCents > 0) {
            this.sql.exec(
              `INSERT OR IGNORE INTO ledger (source_key, source_type, amount_cents, currency, user_id, entry_number, created_at)
               VALUES (?, 'carry_over', ?, ?, NULL, NULL, ?)`,
              carryOverKey(pool!.pool_id, "out"),
              -totals.amountCents,
              pool!.currency,
              Date.now(),
            );
          }
        });
        const digest = await entriesDigest(this.entries());
        this.sql.exec("UPDATE pool_state SET entries_digest = ? WHERE entries_digest IS NULL", digest);
        pool = this.row()!;
        const after = this.totals();
        if (after.entries !== before.entries || after.amountCents !== before.amountCents) this.broadcast();
      }
    }
    await this.mirror();
    const totals = this.totals();
    await this.env.DB.prepare(
      `UPDATE prize_pools SET
         status = CASE WHEN status = 'open' THEN 'closed' ELSE status END,
         closed_at = COALESCE(closed_at, ?),
         close_reason = COALESCE(close_reason, ?),
         entries_digest = COALESCE(entries_digest, ?),
         amount_cents = ?, entries_count = ?, updated_at = ?
       WHERE id = ?`,
    )
      .bind(
        pool.closed_at,
        pool.close_reason,
        pool.entries_digest,
        totals.amountCents,
        totals.entries,
        Date.now(),
        pool.pool_id,
      )
      .run();
    await linkSealedGuesses(this.env, pool.pool_id);
    // Auto-renew (on unless the host's account was deleted): the host's next pool opens now, for 30 days.
    const next = await openNextPool(this.env, { hostId: pool.host_id, targetCents: pool.target_cents });
    const carried = this.sql
      .exec<{ amount: number }>(
        "SELECT amount_cents AS amount FROM ledger WHERE source_key = ?",
        carryOverKey(pool.pool_id, "out"),
      )
      .toArray()[0];
    if (carried && next) {
      // A pool that closed with no entries hands its amount to the host's next pool (the cron retries a failure).
      await addContribution(this.env, {
        hostId: pool.host_id,
        sourceType: "carry_over",
        sourceKey: carryOverKey(pool.pool_id, "in"),
        amountCents: -carried.amount,
        currency: pool.currency,
        userId: null,
        earnsEntry: false,
      });
    }
    // Commit to a future block; when no explorer answers, the cron commits on its next run.
    if (totals.entries > 0) await commitDrawHeight(this.env, pool.pool_id);
  }
}
