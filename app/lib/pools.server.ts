// The prize pool service: the rest of the app opens, feeds and closes pools through these functions only.
// Each pool's amount and entry list are written by its PrizePool Durable Object (workers/prize-pool.ts); D1's
// prize_pools row is the index (one open pool per host) and a mirror of the object's totals.

import { z } from "zod";
import { getDb } from "~/db/client.server";
import {
  findRecordedSource,
  getDisplayName,
  getHostDebit,
  getHostPoolSettings,
  getOpenPoolForHost,
  getPaymentContribution,
  getPoolById,
  getPoolsByIds,
  insertHostDebit,
  insertOpenPool,
  linkGuessEntries,
  listPendingCarryOvers,
  sumHostDebitsForSource,
  updateOpenPoolTerms,
  type PoolRow,
} from "~/db/queries/pools.server";
import {
  bindReservation,
  listUnappliedReservations,
  markReservationApplied,
  reserveContributionKey,
} from "~/db/queries/contribution-keys.server";
import { listCommitmentLog, listPoolDraws } from "~/db/queries/draw.server";
import { endExpiredGames, endRoundGames, listSealedGuessEntries } from "~/db/queries/games.server";
import { entriesFormatOf, frozenEntryList, hashToDecimal, type BitcoinBlock, type FrozenEntry } from "~/domain/draw";
import type { CommitmentRecord } from "~/domain/draw-commitment";
import { carryOverKey } from "~/domain/contribution-keys";
import {
  DEFAULT_POOL_DURATION_DAYS,
  nextPoolTerms,
  POOL_CURRENCY,
  poolEndAt,
  reversalShareCents,
  reversalVoidsEntry,
} from "~/domain/pool";
import { CONTRIBUTION_TYPES } from "~/domain/revenue";
import { selfExcludedAccounts } from "~/lib/self-exclusion.server";
import {
  poolSocketPath,
  type PoolCloseReason,
  type PoolState,
  type ReversalResult,
  type SealedGuessEntry,
  type VoidEntryResult,
} from "~/lib/pool-contract";

export type { PoolCloseReason, PoolRow, PoolState };

/** How many times addContribution follows a pool that closed under it to the host's next pool. */
const MAX_CONTRIBUTION_ATTEMPTS = 5;

/** The WebSocket path of a pool's live updates (served by workers/pools-api.ts). */
export const poolSocketUrl = poolSocketPath;

/** The pool's Durable Object, named by the pool id. */
export function poolStub(env: Pick<Env, "PRIZE_POOL">, poolId: string) {
  return env.PRIZE_POOL.get(env.PRIZE_POOL.idFromName(poolId));
}

/** A pool's D1 row by id, or null. */
export function getPool(env: Pick<Env, "DB">, poolId: string): Promise<PoolRow | null> {
  return getPoolById(getDb(env), poolId);
}

/** The D1 rows of the given pools (unknown ids are left out). */
export async function getPools(env: Pick<Env, "DB">, poolIds: readonly string[]): Promise<PoolRow[]> {
  if (poolIds.length === 0) return [];
  return getPoolsByIds(getDb(env), poolIds);
}

/** The host's open pool (from D1), or null. */
export function getOpenPool(env: Pick<Env, "DB">, hostId: string): Promise<PoolRow | null> {
  return getOpenPoolForHost(getDb(env), hostId);
}

/** Sets up (or re-syncs the terms of) the pool's Durable Object from its D1 row. Idempotent. */
export function initPoolObject(env: Pick<Env, "PRIZE_POOL">, pool: PoolRow): Promise<PoolState> {
  return poolStub(env, pool.id).init({
    poolId: pool.id,
    hostId: pool.hostId,
    targetCents: pool.targetCents,
    endAt: pool.endAt.getTime(),
    currency: pool.currency,
  });
}

/**
 * Opens a pool for the host: inserts the D1 row and sets up its object. The partial unique index allows one open
 * pool per host; when the host already has one, that pool is returned unchanged.
 */
export async function openPool(
  env: Env,
  input: { hostId: string; targetCents: number; durationDays?: number; now?: Date },
): Promise<PoolRow> {
  if (!Number.isSafeInteger(input.targetCents) || input.targetCents < 0) {
    throw new TypeError("targetCents must be a whole number of cents");
  }
  const durationDays = input.durationDays ?? DEFAULT_POOL_DURATION_DAYS;
  if (!Number.isInteger(durationDays) || durationDays <= 0) throw new TypeError("durationDays must be a whole number");
  const now = input.now ?? new Date();
  await insertOpenPool(getDb(env), {
    hostId: input.hostId,
    targetCents: input.targetCents,
    currency: POOL_CURRENCY,
    startAt: now,
    endAt: poolEndAt(now, durationDays),
  });
  const pool = await getOpenPool(env, input.hostId);
  if (!pool) throw new Error(`Could not open a prize pool for host ${input.hostId}`);
  await initPoolObject(env, pool);
  return pool;
}

/** Whether the host's pools renew after a close (off once their account is deleted). */
export async function hostAutoRenews(env: Env, hostId: string): Promise<boolean> {
  return (await getHostPoolSettings(getDb(env), hostId))?.autoRenew ?? true;
}

/** The host's open pool, opening one (the target and duration saved in their settings) when there is none. */
export async function ensureOpenPool(env: Env, hostId: string): Promise<PoolRow> {
  const open = await getOpenPool(env, hostId);
  if (open) return open;
  return openPool(env, { hostId, ...nextPoolTerms(await getHostPoolSettings(getDb(env), hostId)) });
}

/**
 * Opens the host's next pool after a close (unless the host's auto-renew is off) with the target and duration saved
 * in prize pool settings (decision 640; the closed pool's target without a profile).
 */
export async function openNextPool(env: Env, closed: { hostId: string; targetCents: number }): Promise<PoolRow | null> {
  const settings = await getHostPoolSettings(getDb(env), closed.hostId);
  // Auto-renew stops when the host's account is deleted (the profile's switch is turned off then).
  if (settings && !settings.autoRenew) return null;
  const terms = nextPoolTerms(
    settings ?? { targetCents: closed.targetCents, durationDays: DEFAULT_POOL_DURATION_DAYS },
  );
  return openPool(env, { hostId: closed.hostId, ...terms });
}

const contributionSchema = z.object({
  hostId: z.string().min(1),
  sourceType: z.enum(CONTRIBUTION_TYPES),
  sourceKey: z
    .string()
    .min(1)
    .max(500)
    .refine((key) => !/[\r\n]/.test(key), "a source key cannot contain a line break"),
  amountCents: z.number().int().refine(Number.isSafeInteger, "amount out of range"),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .transform((code) => code.toUpperCase()),
  userId: z.string().min(1).nullable(),
  earnsEntry: z.boolean(),
});

export type ContributionRequest = z.input<typeof contributionSchema>;

export interface ContributionOutcome {
  poolId: string;
  /** The entry number earned, or null (no entry earned). */
  entryNumber: number | null;
  /** True when this source key had been recorded before; nothing was added. */
  duplicate: boolean;
  /** True when an entry was asked for and the account held the per-person cap: no entry (decision 560). */
  capReached?: boolean;
}

/**
 * Adds money (and, when `earnsEntry`, an entry) to the host's open pool, opening one if needed. The source key is
 * first reserved once in D1 with the request, bound to one pool: the webhook and the success page racing a closing
 * pool both call that pool's object (which counts the key once), and a pool that refused it (closed) hands the
 * reservation on to the host's next pool. A source key recorded before returns the original result. When the pool
 * object fails, the reservation stays unapplied and the cron re-applies it (`reapplyReservations`).
 */
export async function addContribution(env: Env, request: ContributionRequest): Promise<ContributionOutcome> {
  const input = contributionSchema.parse(request);
  const db = getDb(env);
  const open = await ensureOpenPool(env, input.hostId);
  const reserved = await reserveContributionKey(db, {
    sourceKey: input.sourceKey,
    hostId: input.hostId,
    poolId: open.id,
    sourceType: input.sourceType,
    amountCents: input.amountCents,
    currency: input.currency,
    userId: input.userId,
    earnsEntry: input.earnsEntry,
  });
  const reservation = reserved.row;
  if (!reserved.created && reservation.appliedAt !== null) {
    const recorded = await findRecordedSource(db, reservation.sourceKey);
    if (recorded) return { ...recorded, duplicate: true };
  }
  // The first request wins: a second call with other terms still applies the reserved ones.
  const contribution = {
    sourceKey: reservation.sourceKey,
    sourceType: reservation.sourceType,
    amountCents: reservation.amountCents,
    currency: reservation.currency,
    userId: reservation.userId,
    earnsEntry: reservation.earnsEntry,
  };
  let poolId = reservation.poolId ?? (await bindReservation(db, reservation.sourceKey, null, open.id));
  for (let attempt = 0; attempt < MAX_CONTRIBUTION_ATTEMPTS; attempt++) {
    if (poolId === null) throw new Error(`Reservation ${reservation.sourceKey} has no pool`);
    const pool = poolId === open.id ? open : await getPool(env, poolId);
    if (!pool) throw new Error(`Unknown prize pool: ${poolId}`);
    if (contribution.currency !== pool.currency) {
      throw new RangeError(
        `Prize pools are kept in ${pool.currency}; convert the ${contribution.currency} amount first`,
      );
    }
    const stub = poolStub(env, pool.id);
    let result = await stub.contribute(contribution);
    if (result.reason === "uninitialised") {
      await initPoolObject(env, pool);
      result = await stub.contribute(contribution);
    }
    if (result.accepted) {
      await markReservationApplied(db, reservation.sourceKey, pool.id);
      // The pool object knows whether it had the key before (a reservation made by the payment's batch is not one).
      return {
        poolId: pool.id,
        entryNumber: result.entryNumber,
        duplicate: result.duplicate,
        ...(result.capReached ? { capReached: true } : {}),
      };
    }
    if (result.reason === "closed") {
      // The object closed the pool; if D1 still lists it as open, finish the close (which opens the next pool).
      if ((await getPool(env, pool.id))?.status === "open")
        await closePool(env, pool.id, result.closeReason ?? "timer_expired");
      const next = await ensureOpenPool(env, reservation.hostId);
      poolId = await bindReservation(db, reservation.sourceKey, pool.id, next.id);
      continue;
    }
    throw new Error(`Prize pool ${pool.id} refused the contribution (${result.reason ?? "unknown"})`);
  }
  throw new Error(`Could not add contribution ${input.sourceKey}: the host's pools kept closing`);
}

/** How long a reservation may stay unapplied before the cron re-applies it (a call may still be under way). */
export const REAPPLY_AFTER_MS = 60_000;

/**
 * The cron's recovery step: re-applies every reserved contribution no pool object has confirmed (the object failed
 * after the payment's D1 batch), and hands every no-entry pool's carried amount to the host's next pool. Each
 * counts once (the reservation and the object's ledger are keyed by source).
 */
export async function reapplyReservations(
  env: Env,
  now: Date,
  limit = 25,
): Promise<{ reapplied: string[]; errors: { sourceKey: string; error: string }[] }> {
  const db = getDb(env);
  const summary = { reapplied: [] as string[], errors: [] as { sourceKey: string; error: string }[] };
  const pending = await listUnappliedReservations(db, new Date(now.getTime() - REAPPLY_AFTER_MS), limit);
  for (const carry of await listPendingCarryOvers(db, limit)) {
    pending.push({
      sourceKey: carryOverKey(carry.poolId, "in"),
      hostId: carry.hostId,
      poolId: null,
      sourceType: "carry_over",
      amountCents: -carry.amountCents,
      currency: carry.currency,
      userId: null,
      earnsEntry: false,
      createdAt: now,
      appliedAt: null,
    });
  }
  for (const row of pending) {
    try {
      await addContribution(env, {
        hostId: row.hostId,
        sourceType: row.sourceType,
        sourceKey: row.sourceKey,
        amountCents: row.amountCents,
        currency: row.currency,
        userId: row.userId,
        earnsEntry: row.earnsEntry,
      });
      summary.reapplied.push(row.sourceKey);
    } catch (error) {
      summary.errors.push({ sourceKey: row.sourceKey, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return summary;
}

/**
 * The games part of a pool's close (called by its object): ends the host's running games of the round (answers
 * published) and lists the correct guesses confirmed before their game ended, which the object appends as entries.
 */
export async function sealRound(
  env: Env,
  round: { hostId: string; poolId: string; closedAt: number },
): Promise<SealedGuessEntry[]> {
  const db = getDb(env);
  await endRoundGames(db, round.hostId, new Date(round.closedAt));
  return admissibleGuessEntries(env, await listSealedGuessEntries(db, round.hostId));
}

/** The correct, confirmed guesses of the host's ended games that hold no entry yet (the pool object appends them). */
export async function listRoundGuessEntries(env: Env, hostId: string): Promise<SealedGuessEntry[]> {
  return admissibleGuessEntries(env, await listSealedGuessEntries(getDb(env), hostId));
}

/**
 * Whether each correct guess still earns its entry when it is appended: the guesser was eligible when they guessed
 * (entryRefusal at checkout), but may have closed their account or excluded themselves from draws since (decision
 * 510). Such a guess is appended without an entry; its fee stays in the pool.
 */
async function admissibleGuessEntries(
  env: Env,
  rows: readonly { sourceKey: string; userId: string; email: string; closed: boolean }[],
): Promise<SealedGuessEntry[]> {
  const open = rows.filter((row) => !row.closed);
  const excluded = await selfExcludedAccounts(env, open, new Date());
  return rows.map((row) => ({
    sourceKey: row.sourceKey,
    userId: row.userId,
    earnsEntry: !row.closed && !excluded.has(row.userId),
  }));
}

/**
 * A game ended before its pool round closed (the host ended it, or its end date passed): its correct guesses'
 * entries go to the host's open pool now (appended by the pool object, once each). With no open pool they wait for
 * the host's next pool's close. Returns how many entries were appended.
 */
export async function admitEndedGames(env: Env, hostId: string): Promise<number> {
  const open = await getOpenPool(env, hostId);
  if (!open) return 0;
  await initPoolObject(env, open);
  return (await poolStub(env, open.id).admitGuesses()).admitted;
}

/**
 * The cron's games step: ends the games past their end date and admits their correct guesses' entries to each
 * host's open pool.
 */
export async function endExpiredGamesAndAdmit(env: Env, now: Date): Promise<{ hosts: number; admitted: number }> {
  const hosts = await endExpiredGames(getDb(env), now);
  let admitted = 0;
  for (const hostId of hosts) {
    try {
      admitted += await admitEndedGames(env, hostId);
    } catch (error) {
      // The entries wait in D1 (correct, confirmed, no entry yet): the pool's close appends them at the latest.
      console.error("games cron: admitting ended games' entries failed", hostId, error);
    }
  }
  return { hosts: hosts.length, admitted };
}

/** After a close is mirrored: each sealed guess in the pool points at its entry. */
export function linkSealedGuesses(env: Env, poolId: string): Promise<void> {
  return linkGuessEntries(getDb(env), poolId);
}

// --- refunds and disputes ---------------------------------------------------------------------------------------

const reversalSchema = z
  .object({
    sourceKey: z.string().min(1).max(500),
    reversalKey: z.string().min(1).max(500),
    reversedCents: z.number().int().refine(Number.isSafeInteger),
    paymentCents: z.number().int().nonnegative().refine(Number.isSafeInteger),
    cumulativeReversedCents: z.number().int().nonnegative().refine(Number.isSafeInteger),
    /** A payment for several orders: the share it gives back in all after this event, order by order. */
    givenBackCents: z.number().int().nonnegative().refine(Number.isSafeInteger).optional(),
    /** A reversal that never voids the entry (a group buy's tier refund). */
    keepEntry: z.boolean().default(false),
    /** For a restore (negative amount): the key of the reversal it undoes. */
    restoresKey: z.string().min(1).max(500).optional(),
    /** A reversal the platform did not start (reversalVoidsDraw): it voids the drawn winner's draw; others leave it standing. */
    voidsDraw: z.boolean().default(true),
  })
  .refine((value) => value.cumulativeReversedCents <= value.paymentCents, "cannot reverse more than the payment");

export type PaymentReversal = z.input<typeof reversalSchema>;

export type ReversalOutcome =
  | { kind: "no_contribution" }
  | { kind: "pool"; poolId: string; result: ReversalResult }
  | {
      kind: "host_debit";
      poolId: string;
      hostId: string;
      debitCents: number;
      booked: boolean;
      redrawn: boolean;
      /** The open pool a restored share went to (restored_to_pool), else null. */
      carriedToPoolId: string | null;
    };

/** A frozen entry a reversal voided after its pool closed: it can no longer win (the draw's `disqualifyWinner`). */
export type Disqualification = { poolId: string; entryNumber: number; reversalKey: string; voidsDraw: boolean };

/**
 * Applies a refund or dispute event (or a restoring event: key + ':restore', negative amount) to the pool the
 * payment contributed to. While that pool is open its object appends a negative ledger row keyed by the reversal
 * key (the pool share at the contribution's own rate) and voids the buyer's entry while more than half the payment
 * is reversed (restores un-void it). Once the pool has closed, the frozen list and the pool amount never change: the
 * pool share is booked as a host debit keyed by the reversal key; and if the payment holds the drawn winning entry
 * and the prize has not settled, the prize is redrawn from a fresh commitment when the buyer or the provider started the
 * reversal (`voidsDraw`; a host's or the platform's refund leaves the draw standing). A restore after the close of a share the
 * open pool gave back goes to the host's open pool (a carry_over contribution keyed by the restore; decision 151):
 * the entry stays out of the closed pool's draw. `keepEntry` (a group buy's tier refund)
 * moves only money, never the entry. Idempotent per reversal key.
 *
 * The pool's part of `applyPaymentReversal` (app/lib/pool-reversal.server.ts): after a close it names the frozen
 * entry the reversal voids (`disqualify`) and leaves `redrawn` false; its caller disqualifies that entry, which
 * redraws the prize when it had won.
 */
export async function reversePoolShare(
  env: Env,
  reversal: PaymentReversal,
): Promise<{ outcome: ReversalOutcome; disqualify: Disqualification | null }> {
  const input = reversalSchema.parse(reversal);
  const db = getDb(env);
  const contribution = await getPaymentContribution(db, input.sourceKey);
  if (!contribution) return { outcome: { kind: "no_contribution" }, disqualify: null };
  const pool = await getPool(env, contribution.poolId);
  if (!pool) return { outcome: { kind: "no_contribution" }, disqualify: null };
  await initPoolObject(env, pool);
  const result = await poolStub(env, pool.id).reverse({
    reversalKey: input.reversalKey,
    sourceKey: input.sourceKey,
    reversedCents: input.reversedCents,
    paymentCents: input.paymentCents,
    cumulativeReversedCents: input.cumulativeReversedCents,
    givenBackCents: input.givenBackCents,
    keepEntry: input.keepEntry,
  });
  if (result.outcome === "unknown_source" || result.outcome === "uninitialised")
    return { outcome: { kind: "no_contribution" }, disqualify: null };
  if (result.outcome !== "closed") return { outcome: { kind: "pool", poolId: pool.id, result }, disqualify: null };

  // Closed: the share of this event, computed once against everything reversed so far (in the pool and as debits)
  // and booked under its key; a repeat (a retry after a crash, a concurrent delivery) reads the booked row.
  let booked = false;
  let debit = await getHostDebit(db, input.reversalKey);
  if (!debit) {
    const alreadyDebited = await sumHostDebitsForSource(db, input.sourceKey);
    const debitCents = reversalShareCents({
      contributionCents: contribution.amountCents,
      alreadyReversedCents: result.poolReversedCents + alreadyDebited,
      reversedCents: input.reversedCents,
      paymentCents: input.paymentCents,
      cumulativeReversedCents: input.cumulativeReversedCents,
      givenBackCents: input.givenBackCents,
    });
    // A restore of a share the pool itself gave back while it was open (no host debit under the restored key): the
    // frozen pool cannot take it back, so it goes to the host's open pool, like any contribution that arrives after
    // a close (decision 151); not for a host whose pools no longer renew (account deleted), as with a carry-over.
    const toPool =
      debitCents < 0 &&
      input.restoresKey !== undefined &&
      (await getHostDebit(db, input.restoresKey)) === null &&
      (await hostAutoRenews(env, contribution.hostId));
    booked = await insertHostDebit(db, {
      hostId: contribution.hostId,
      poolId: pool.id,
      reversalKey: input.reversalKey,
      sourceKey: input.sourceKey,
      amountCents: debitCents,
      currency: contribution.currency,
      reason: toPool ? "restored_to_pool" : debitCents < 0 ? "refund_restored" : "refund_after_close",
    });
    debit = (await getHostDebit(db, input.reversalKey))!;
  }
  let carriedToPoolId: string | null = null;
  if (debit.reason === "restored_to_pool" && debit.amountCents < 0) {
    // Keyed by the restore: counted once, in one pool (the reservation hands it on if that pool closes meanwhile;
    // the cron re-applies it if the pool object call is lost).
    const carried = await addContribution(env, {
      hostId: contribution.hostId,
      sourceType: "carry_over",
      sourceKey: input.reversalKey,
      amountCents: -debit.amountCents,
      currency: contribution.currency,
      userId: null,
      earnsEntry: false,
    });
    carriedToPoolId = carried.poolId;
  }
  const disqualify =
    contribution.entryNumber !== null &&
    !input.keepEntry &&
    reversalVoidsEntry(input.cumulativeReversedCents, input.paymentCents)
      ? {
          poolId: pool.id,
          entryNumber: contribution.entryNumber,
          reversalKey: input.reversalKey,
          voidsDraw: input.voidsDraw,
        }
      : null;
  return {
    outcome: {
      kind: "host_debit",
      poolId: pool.id,
      hostId: contribution.hostId,
      debitCents: debit.amountCents,
      booked,
      redrawn: false,
      carriedToPoolId,
    },
    disqualify,
  };
}

/**
 * Voids an entry of an open pool through its object (the platform owner's void of a free entry before the freeze;
 * the refunds' voided_at path, so counts and the digest stay right). See VoidEntryResult.
 */
export async function voidPoolEntry(env: Env, poolId: string, sourceKey: string): Promise<VoidEntryResult> {
  const pool = await getPool(env, poolId);
  if (!pool) return { outcome: "unknown_source", entryNumber: null };
  if (pool.status !== "open") return { outcome: "closed", entryNumber: null };
  await initPoolObject(env, pool);
  return poolStub(env, poolId).voidEntry(sourceKey);
}

/**
 * Closes a pool (idempotent; a pool already closed keeps its first reason): freezes its entry list, writes the
 * closed state and entries digest to D1, opens the host's next pool and commits the draw to a future block.
 */
export async function closePool(env: Env, poolId: string, reason: PoolCloseReason): Promise<PoolState> {
  const pool = await getPool(env, poolId);
  if (!pool) throw new Error(`Unknown prize pool: ${poolId}`);
  await initPoolObject(env, pool);
  return poolStub(env, poolId).close(reason);
}

/**
 * Changes an open pool's target and/or end time (the settings screen, first days of a run): D1 first, then the
 * object. Returns the updated row, or null when the pool is not open.
 */
export async function updatePoolTerms(
  env: Env,
  poolId: string,
  terms: { targetCents?: number; endAt?: Date },
): Promise<PoolRow | null> {
  const row = await updateOpenPoolTerms(getDb(env), poolId, terms);
  if (!row) return null;
  await initPoolObject(env, row);
  return row;
}

/** The public state of a pool, with every input of its draw, for verification pages. */
export interface PublicPoolState {
  id: string;
  hostId: string;
  status: PoolRow["status"];
  amountCents: number;
  targetCents: number;
  currency: string;
  entries: number;
  startAt: string;
  endAt: string;
  closedAt: string | null;
  closeReason: PoolCloseReason | null;
  entriesDigest: string | null;
  drawBlockHeight: number | null;
  drawBlockHash: string | null;
  /** The drawn block's header fields, to rebuild and hash the header. */
  block: BitcoinBlock | null;
  decimalHash: string | null;
  winnerEntryNumber: number | null;
  winnerName: string | null;
  drawnAt: string | null;
  /** Every draw, first first: a void one was redrawn from a fresh commitment (its winning payment was reversed). */
  draws: PublicDraw[];
  /** The pool's hash-chained draw log: commitments (with their tips), voids and refused blocks. */
  log: CommitmentRecord[];
  /** Why the draw is delayed (its committed block was refused), else null. */
  drawDelayReason: string | null;
  socketUrl: string;
}

export interface PublicDraw {
  attempt: number;
  blockHeight: number;
  blockHash: string;
  block: BitcoinBlock;
  winnerEntryNumber: number;
  voided: boolean;
  voidReason: string | null;
  chainHeaders: BitcoinBlock[] | null;
  commitmentSeq: number | null;
}

export async function publicPoolState(env: Env, poolId: string): Promise<PublicPoolState | null> {
  const pool = await getPool(env, poolId);
  if (!pool) return null;
  const db = getDb(env);
  const winnerName = pool.winnerUserId ? await getDisplayName(db, pool.winnerUserId) : null;
  const draws = (await listPoolDraws(db, pool.id)).map((draw) => ({
    attempt: draw.attempt,
    blockHeight: draw.blockHeight,
    blockHash: draw.blockHash,
    block: draw.blockHeader,
    winnerEntryNumber: draw.winnerEntryNumber,
    voided: draw.voidedAt !== null,
    voidReason: draw.voidReason,
    chainHeaders: draw.chainHeaders,
    commitmentSeq: draw.commitmentSeq,
  }));
  const log = await listCommitmentLog(db, pool.id);
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    id: pool.id,
    hostId: pool.hostId,
    status: pool.status,
    amountCents: pool.amountCents,
    targetCents: pool.targetCents,
    currency: pool.currency,
    entries: pool.entriesCount,
    startAt: pool.startAt.toISOString(),
    endAt: pool.endAt.toISOString(),
    closedAt: iso(pool.closedAt),
    closeReason: pool.closeReason,
    entriesDigest: pool.entriesDigest,
    drawBlockHeight: pool.drawBlockHeight,
    drawBlockHash: pool.drawBlockHash,
    block: pool.drawBlockHeader ?? null,
    decimalHash: pool.drawBlockHash ? hashToDecimal(pool.drawBlockHash) : null,
    winnerEntryNumber: pool.winnerEntryNumber,
    winnerName,
    drawnAt: iso(pool.drawnAt),
    draws,
    log,
    drawDelayReason: pool.drawDelayReason ?? null,
    socketUrl: poolSocketUrl(pool.id),
  };
}

/** A closed pool's frozen entry list as published (entry number, opaque key, void), or null while open. */
export async function frozenEntries(env: Env, poolId: string): Promise<FrozenEntry[] | null> {
  const pool = await getPool(env, poolId);
  if (!pool || pool.status === "open") return null;
  await initPoolObject(env, pool);
  return frozenEntryList(await poolStub(env, poolId).entries(), entriesFormatOf(pool.entriesFormat));
}
