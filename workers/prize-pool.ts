import { DurableObject } from "cloudflare:workers";
import { carryOverKey } from "~/domain/contribution-keys";
import { CURRENT_ENTRIES_FORMAT, entriesDigest } from "~/domain/draw";
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
import { POOL_CAP_SETTING_TTL_MS, type PoolEntryCap } from "~/domain/pool-cap";
import { poolEntryCap } from "~/lib/pool-cap.server";
import type {
  ContributionInput,
  ContributionResult,
  PoolCloseReason,
  PoolEntry,
  PoolInit,
  PoolLiveMessage,
  PoolState,
  PoolWinner,
  ReversalInput,
  ReversalResult,
  VoidEntryResult,
} from "~/lib/pool-contract";
import {
  addContribution,
  hostAutoRenews,
  linkSealedGuesses,
  listRoundGuessEntries,
  openNextPool,
  sealRound,
} from "~/lib/pools.server";
import {
  assertCloseReason,
  assertContribution,
  assertInit,
  assertReversal,
  liveMessage,
  poolState,
  toMs,
} from "./prize-pool/calls";
import { D1Mirror, MIRROR_RETRY_MS, readPoolFromD1 } from "./prize-pool/d1-mirror";
import { PoolStorage, type StateRow } from "./prize-pool/storage";

// The RPC and live-message contract lives in app/lib/pool-contract.ts (imported by both sides).
export type * from "~/lib/pool-contract";

/**
 * One instance per prize pool (named by the pool id): the only writer of the pool's amount and entry list.
 *
 * Contributions form an append-only ledger keyed by their source, so a source applied twice counts once; the
 * amount is always the sum of the ledger. Every call's ledger write is synchronous SQL done before its first
 * await, so the input gate serialises concurrent calls and entry numbers are issued 0, 1, 2... exactly once.
 * D1 (prize_pools, prize_pool_contributions, prize_entries) is a mirror written by one flush queue per object
 * with absolute totals, so it never goes backwards or loses a row; a failed flush is retried by the alarm.
 *
 * This file holds the calls (RPC methods, the WebSocket upgrade and messages, the alarm); the object's own storage
 * is prize-pool/storage.ts, its D1 mirror prize-pool/d1-mirror.ts, the checks of the calls' input and the live
 * message prize-pool/calls.ts.
 */
export class PrizePool extends DurableObject<Env> {
  private readonly storage: PoolStorage;
  private readonly d1: D1Mirror;
  private finishing: Promise<void> | null = null;
  /** The per-person cap setting as last read (shared by concurrent calls), and when. */
  private capRead: { cap: Promise<PoolEntryCap>; at: number } | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.storage = new PoolStorage(ctx.storage);
    this.d1 = new D1Mirror(env, this.storage);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  // --- RPC ------------------------------------------------------------------------------------------------------

  /**
   * Sets the pool up (idempotent). A fresh object first imports whatever D1 already holds for the pool (seeded
   * data, or storage lost), so entry numbers continue instead of restarting. Called again on an open pool with a
   * different target or end time (settings edited in the first days), it takes the new terms.
   */
  async init(params: PoolInit): Promise<PoolState> {
    const existing = this.storage.row();
    if (existing) {
      if (existing.pool_id !== params.poolId) throw new Error(`This object holds pool ${existing.pool_id}`);
      if (existing.status === "open") this.updateTerms(params);
      return this.state();
    }
    assertInit(params);
    const endAt = toMs(params.endAt);
    let failure: unknown = null;
    // Hold every other event until the import is done; an error is rethrown outside so the object is not reset.
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.storage.row()) return;
      try {
        await this.importFromD1({ ...params, endAt });
      } catch (error) {
        failure = error;
      }
    });
    if (failure) throw failure;
    return this.state();
  }

  /**
   * Records a contribution once per source key. See ContributionResult. A contribution that asks for an entry gets
   * one unless its account already holds the per-person cap (decision 560): then the money still counts and no
   * entry is made (entryNumber null, capReached). The cap setting is read first; the count and the append after it
   * are synchronous, so concurrent contributions are capped exactly.
   */
  async contribute(input: ContributionInput): Promise<ContributionResult> {
    if (!this.storage.row())
      return {
        accepted: false,
        duplicate: false,
        entryNumber: null,
        amountCents: 0,
        entries: 0,
        reason: "uninitialised",
      };
    assertContribution(input);
    const cap = input.earnsEntry ? await this.entryCap() : null;
    const pool = this.storage.row()!;

    // Everything up to the first await is synchronous SQL, so concurrent calls cannot interleave here.
    const seen = this.storage.recorded(input.sourceKey);
    if (seen) {
      return { accepted: true, duplicate: true, entryNumber: seen.entry_number, ...this.totals() };
    }
    if (pool.status === "open" && Date.now() >= pool.end_at) {
      // Past its end time the pool takes nothing more: it closes now (the cron would a moment later).
      this.markClosed("timer_expired");
    }
    if (this.storage.row()!.status !== "open") {
      return {
        accepted: false,
        duplicate: false,
        entryNumber: null,
        ...this.totals(),
        reason: "closed",
        closeReason: this.storage.row()!.close_reason as PoolCloseReason | null,
      };
    }
    const currency = (input.currency || POOL_CURRENCY).toUpperCase();
    if (currency !== pool.currency) throw new RangeError(`This pool is kept in ${pool.currency}, not ${currency}`);

    const capReached = cap !== null && !this.storage.mayEarnEntry(input.userId, cap);
    const entryNumber = cap !== null && !capReached ? this.storage.nextEntryNumber() : null;
    this.storage.append({
      source_key: input.sourceKey,
      source_type: input.sourceType,
      amount_cents: input.amountCents,
      currency,
      user_id: input.userId,
      entry_number: entryNumber,
      created_at: Date.now(),
    });
    const totals = this.totals();
    this.broadcast(entryNumber === null ? undefined : { entryNumber });

    if (shouldCloseForTarget(totals.amountCents, pool.target_cents, totals.entries) && pool.close_at === null) {
      const closeAt = Date.now() + TARGET_HIT_CLOSE_DELAY_MS;
      this.storage.setCloseAt(closeAt);
      await this.ctx.storage.setAlarm(closeAt);
    }

    try {
      await this.d1.mirror();
    } catch (error) {
      // The ledger (the truth) has the contribution; D1 catches up on the next flush or the retry alarm.
      console.error("prize pool: D1 mirror failed", pool.pool_id, error);
      await this.scheduleRetry();
    }
    return { accepted: true, duplicate: false, entryNumber, ...totals, ...(capReached ? { capReached } : {}) };
  }

  /**
   * Applies a refund or dispute event to the payment's contribution while the pool is open: one ledger row keyed by
   * the reversal key (the pool share at the contribution's own rate, never more than the contribution in total)
   * and the entry voided while more than half the payment is reversed. Once the pool has closed nothing changes
   * here: the result says "closed" with the share the host owes instead. Idempotent per reversal key.
   */
  async reverse(input: ReversalInput): Promise<ReversalResult> {
    const pool = this.storage.row();
    const base = { shareCents: 0, entryNumber: null, entryVoided: false, amountCents: 0, poolReversedCents: 0 };
    if (!pool) return { outcome: "uninitialised", ...base };
    assertReversal(input);
    const original = this.storage.payment(input.sourceKey);
    if (!original) return { outcome: "unknown_source", ...base, amountCents: this.totals().amountCents };
    const shareCents = reversalShareCents({
      contributionCents: original.amount_cents,
      alreadyReversedCents: this.storage.reversedInPool(input.sourceKey),
      reversedCents: input.reversedCents,
      paymentCents: input.paymentCents,
      cumulativeReversedCents: input.cumulativeReversedCents,
      givenBackCents: input.givenBackCents,
    });
    const seen = this.storage.has(input.reversalKey);
    const result = (outcome: ReversalResult["outcome"], share: number): ReversalResult => ({
      outcome,
      shareCents: share,
      entryNumber: original.entry_number,
      entryVoided: this.storage.isVoided(original.seq),
      poolReversedCents: this.storage.reversedInPool(input.sourceKey),
      amountCents: this.totals().amountCents,
    });
    if (seen) return result("duplicate", 0);
    if (pool.status !== "open") return result("closed", 0);

    const now = Date.now();
    this.storage.appendReversal(input.reversalKey, original, shareCents, now);
    if (original.entry_number !== null && input.keepEntry !== true) {
      const voids = reversalVoidsEntry(input.cumulativeReversedCents, input.paymentCents);
      this.storage.setVoided(original.seq, voids ? (original.voided_at ?? now) : null);
    }
    this.broadcast();
    try {
      await this.d1.mirror();
    } catch (error) {
      console.error("prize pool: D1 mirror failed", pool.pool_id, error);
      await this.scheduleRetry();
    }
    return result("applied", shareCents);
  }

  /**
   * Voids an entry the platform owner refused (a free entry, decision 530) while the pool is open: the entry keeps
   * its number and its line and the draw skips it, through the same voided_at as a refunded payment's entry, so the
   * totals, the D1 mirror and the digest at the freeze follow. Once the pool has closed (or is past its end) nothing
   * changes. Idempotent.
   */
  async voidEntry(sourceKey: string): Promise<VoidEntryResult> {
    const pool = this.storage.row();
    if (!pool) return { outcome: "uninitialised", entryNumber: null };
    if (typeof sourceKey !== "string" || sourceKey === "") throw new TypeError("voidEntry needs a source key");
    const original = this.storage.payment(sourceKey);
    if (!original || original.entry_number === null) return { outcome: "unknown_source", entryNumber: null };
    if (this.storage.isVoided(original.seq)) return { outcome: "already_void", entryNumber: original.entry_number };
    // Past its end time the pool takes nothing more and changes nothing more: it closes now (as contribute does).
    if (pool.status === "open" && Date.now() >= pool.end_at) this.markClosed("timer_expired");
    if (this.storage.row()!.status !== "open") return { outcome: "closed", entryNumber: original.entry_number };
    this.storage.setVoided(original.seq, Date.now());
    this.broadcast();
    try {
      await this.d1.mirror();
    } catch (error) {
      console.error("prize pool: D1 mirror failed", pool.pool_id, error);
      await this.scheduleRetry();
    }
    return { outcome: "voided", entryNumber: original.entry_number };
  }

  /** Sum of the ledger in cents and the number of valid entries (zeros before init). */
  totals(): { amountCents: number; entries: number } {
    return this.storage.totals();
  }

  state(): PoolState {
    const pool = this.storage.row();
    if (!pool) throw new Error("This prize pool has not been set up");
    return poolState(pool, this.totals());
  }

  /**
   * Closes the pool (idempotent; the first reason wins) and freezes its entry list. Then, each time it is called
   * until it succeeds: writes the closed state and the entries digest to D1, opens the host's next pool, and tries
   * to commit the draw to a future block height.
   */
  async close(reason: PoolCloseReason): Promise<PoolState> {
    const pool = this.storage.row();
    if (!pool) throw new Error("This prize pool has not been set up");
    assertCloseReason(reason);
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
   * pool that closed meanwhile leaves them to its close. A guess whose account holds the per-person cap is taken with no
   * entry (decision 560). Returns how many guesses were taken now.
   */
  async admitGuesses(): Promise<{ admitted: number; entries: number }> {
    const pool = this.storage.row();
    if (!pool || pool.status !== "open" || Date.now() >= pool.end_at)
      return { admitted: 0, entries: this.totals().entries };
    const [guesses, cap] = await Promise.all([listRoundGuessEntries(this.env, pool.host_id), this.entryCap()]);
    // After the await: only a still-open pool takes them (a close appends them itself, before freezing its list).
    if (this.storage.row()?.status !== "open") return { admitted: 0, entries: this.totals().entries };
    let admitted = 0;
    this.storage.transaction(() => {
      admitted = this.storage.appendGuessEntries(guesses, this.storage.row()!.currency, cap);
    });
    if (admitted === 0) return { admitted, entries: this.totals().entries };
    this.broadcast();
    try {
      await this.d1.mirror();
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
    return this.storage.entries();
  }

  /** A drawn winner was disqualified (its payment reversed before the prize settled): back to closed, no winner. */
  reopenDraw(): PoolState {
    const pool = this.storage.row();
    if (!pool) throw new Error("This prize pool has not been set up");
    if (pool.status === "drawn") {
      this.storage.clearWinner();
      this.broadcast();
    }
    return this.state();
  }

  /** Records the drawn winner (written to D1 by the draw) and tells every socket. Idempotent. */
  announceWinner(winner: PoolWinner): PoolState {
    const pool = this.storage.row();
    if (!pool) throw new Error("This prize pool has not been set up");
    if (pool.status === "open") throw new Error("An open pool has no winner");
    if (pool.status !== "drawn" || pool.winner !== JSON.stringify(winner)) {
      this.storage.setWinner(JSON.stringify(winner));
    }
    this.broadcast();
    return this.state();
  }

  // --- WebSockets (hibernation API) -----------------------------------------------------------------------------

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    if (!this.storage.row()) return new Response("Unknown pool", { status: 404 });
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
    const reply = message === "state" && stateReplyDue(spent.budget, now) && this.storage.row() !== null;
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
    const pool = this.storage.row();
    if (!pool) return;
    await this.d1.mirror();
    if (pool.status === "open" && pool.close_at !== null) await this.close("target_reached");
  }

  // --- internals ------------------------------------------------------------------------------------------------

  /** Stops taking contributions (the first reason wins). Synchronous, so nothing can slip in after it. */
  private markClosed(reason: PoolCloseReason): void {
    const pool = this.storage.row();
    if (!pool || pool.status !== "open") return;
    this.storage.markClosed(reason, Date.now());
    this.broadcast();
  }

  /**
   * The per-person cap setting (decision 560), read from D1 at most every POOL_CAP_SETTING_TTL_MS; concurrent calls
   * share one read, and a failed read is not kept.
   */
  private entryCap(): Promise<PoolEntryCap> {
    const now = Date.now();
    if (this.capRead && now - this.capRead.at < POOL_CAP_SETTING_TTL_MS) return this.capRead.cap;
    const cap = poolEntryCap(this.env);
    const read = { cap, at: now };
    this.capRead = read;
    cap.catch(() => {
      if (this.capRead === read) this.capRead = null;
    });
    return cap;
  }

  private message(lastEntry?: PoolLiveMessage["lastEntry"]): PoolLiveMessage {
    return liveMessage(this.state(), lastEntry);
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
    const pool = this.storage.row();
    if (!pool || pool.status !== "open") return;
    const endAt = toMs(params.endAt);
    if (!Number.isSafeInteger(params.targetCents) || params.targetCents < 0) return;
    if (params.targetCents === pool.target_cents && endAt === pool.end_at) return;
    this.storage.setTerms(params.targetCents, endAt);
    // A lowered target may already be reached.
    const totals = this.totals();
    if (pool.close_at === null && shouldCloseForTarget(totals.amountCents, params.targetCents, totals.entries)) {
      const closeAt = Date.now() + TARGET_HIT_CLOSE_DELAY_MS;
      this.storage.setCloseAt(closeAt);
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
    const { state, ledger } = await readPoolFromD1(this.env.DB, params);
    this.storage.transaction(() => {
      this.storage.insertState(state);
      for (const row of ledger) this.storage.importRow(row);
    });
    // A seeded pool that is already past its target closes like any other.
    const pool = this.storage.row();
    const totals = this.totals();
    if (pool && pool.status === "open" && shouldCloseForTarget(totals.amountCents, pool.target_cents, totals.entries)) {
      const closeAt = Date.now() + TARGET_HIT_CLOSE_DELAY_MS;
      this.storage.setCloseAt(closeAt);
      await this.ctx.storage.setAlarm(closeAt);
    }
  }

  /**
   * The rest of the close, retried until it succeeds (each step is idempotent): ends the host's running games of
   * this round and appends one entry per correct guess confirmed before its game ended; with no valid entry, moves
   * the amount out (carried to the host's next pool); freezes the list (its digest); mirrors to D1; opens the
   * host's next pool; carries the amount over; commits the draw to a future block.
   */
  private async finishClose(): Promise<void> {
    let pool: StateRow | null = this.storage.row();
    if (!pool) return;
    if (pool.entries_digest === null) {
      const guesses = await sealRound(this.env, {
        hostId: pool.host_id,
        poolId: pool.pool_id,
        closedAt: pool.closed_at ?? Date.now(),
      });
      // With no next pool (auto-renew off: the host's account was deleted) there is nowhere to carry an amount to.
      // A correct guess's entry is capped per person like any other (decision 560).
      const [renews, cap] = await Promise.all([hostAutoRenews(this.env, pool.host_id), this.entryCap()]);
      pool = this.storage.row()!;
      if (pool.entries_digest === null) {
        const before = this.totals();
        const closing = pool;
        this.storage.transaction(() => {
          this.storage.appendGuessEntries(guesses, this.storage.row()!.currency, cap);
          const totals = this.totals();
          if (renews && totals.entries === 0 && totals.amountCents > 0) {
            this.storage.appendCarryOut(carryOverKey(closing.pool_id, "out"), -totals.amountCents, closing.currency);
          }
        });
        // In the current entries.txt form (each entry's source named); mirrorClose records the form with the digest.
        const digest = await entriesDigest(this.entries(), CURRENT_ENTRIES_FORMAT);
        this.storage.setEntriesDigest(digest);
        pool = this.storage.row()!;
        const after = this.totals();
        if (after.entries !== before.entries || after.amountCents !== before.amountCents) this.broadcast();
      }
    }
    await this.d1.mirror();
    const totals = this.totals();
    await this.d1.mirrorClose(pool, totals);
    await linkSealedGuesses(this.env, pool.pool_id);
    // Auto-renew (on unless the host's account was deleted): the host's next pool opens now, for 30 days.
    const next = await openNextPool(this.env, { hostId: pool.host_id, targetCents: pool.target_cents });
    const carried = this.storage.amountOf(carryOverKey(pool.pool_id, "out"));
    if (carried !== undefined && next) {
      // A pool that closed with no entries hands its amount to the host's next pool (the cron retries a failure).
      await addContribution(this.env, {
        hostId: pool.host_id,
        sourceType: "carry_over",
        sourceKey: carryOverKey(pool.pool_id, "in"),
        amountCents: -carried,
        currency: pool.currency,
        userId: null,
        earnsEntry: false,
      });
    }
    // Commit to a future block; when no explorer answers, the cron commits on its next run.
    if (totals.entries > 0) await commitDrawHeight(this.env, pool.pool_id);
  }
}
