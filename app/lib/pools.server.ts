// The prize pool service: the rest of the app opens, feeds and closes pools through these functions only.
// Each pool's amount and entry list are written by its PrizePool Durable Object (workers/prize-pool.ts); D1's
// prize_pools row is the index (one open pool per host) and a mirror of the object's totals.

import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import {
  CONTRIBUTION_SOURCE_TYPES,
  prizeEntries,
  prizePoolContributions,
  prizePools,
  userProfiles,
  type PrizePool as PoolRow,
} from "~/db/schema";
import { hashToDecimal, type BitcoinBlock } from "~/domain/draw";
import {
  DEFAULT_POOL_DURATION_DAYS,
  DEFAULT_PROFILE_POOL_TARGET_CENTS,
  POOL_CURRENCY,
  poolEndAt,
} from "~/domain/pool";
import type {
  ContributionSourceType,
  PoolCloseReason,
  PoolState,
  PrizePool as PrizePoolObject,
} from "../../workers/prize-pool";

export type { ContributionSourceType, PoolCloseReason, PoolRow, PoolState };

/** How many times addContribution follows a pool that closed under it to the host's next pool. */
const MAX_CONTRIBUTION_ATTEMPTS = 5;

/** The WebSocket path of a pool's live updates (served by workers/pools-api.ts). */
export function poolSocketUrl(poolId: string): string {
  return `/api/pools/${encodeURIComponent(poolId)}/live`;
}

/** The pool's Durable Object, named by the pool id. */
export function poolStub(env: Pick<Env, "PRIZE_POOL">, poolId: string): DurableObjectStub<PrizePoolObject> {
  return env.PRIZE_POOL.get(env.PRIZE_POOL.idFromName(poolId));
}

/** A pool's D1 row by id, or null. */
export async function getPool(env: Pick<Env, "DB">, poolId: string): Promise<PoolRow | null> {
  const [row] = await getDb(env).select().from(prizePools).where(eq(prizePools.id, poolId)).limit(1);
  return row ?? null;
}

/** The D1 rows of the given pools (unknown ids are left out). */
export async function getPools(env: Pick<Env, "DB">, poolIds: readonly string[]): Promise<PoolRow[]> {
  if (poolIds.length === 0) return [];
  return getDb(env).select().from(prizePools).where(inArray(prizePools.id, [...poolIds]));
}

/** The host's open pool (from D1), or null. */
export async function getOpenPool(env: Pick<Env, "DB">, hostId: string): Promise<PoolRow | null> {
  const [row] = await getDb(env)
    .select()
    .from(prizePools)
    .where(and(eq(prizePools.hostId, hostId), eq(prizePools.status, "open")))
    .limit(1);
  return row ?? null;
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
  const db = getDb(env);
  await db
    .insert(prizePools)
    .values({
      id: crypto.randomUUID(),
      hostId: input.hostId,
      status: "open",
      targetCents: input.targetCents,
      currency: POOL_CURRENCY,
      autoRenew: true,
      startAt: now,
      endAt: poolEndAt(now, durationDays),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const pool = await getOpenPool(env, input.hostId);
  if (!pool) throw new Error(`Could not open a prize pool for host ${input.hostId}`);
  await initPoolObject(env, pool);
  return pool;
}

/** The host's open pool, opening one (the profile's target, 30 days) when there is none. */
export async function ensureOpenPool(env: Env, hostId: string): Promise<PoolRow> {
  const open = await getOpenPool(env, hostId);
  if (open) return open;
  const [profile] = await getDb(env)
    .select({ targetCents: userProfiles.prizePoolTargetCents })
    .from(userProfiles)
    .where(eq(userProfiles.userId, hostId))
    .limit(1);
  return openPool(env, {
    hostId,
    targetCents: profile?.targetCents ?? DEFAULT_PROFILE_POOL_TARGET_CENTS,
    durationDays: DEFAULT_POOL_DURATION_DAYS,
  });
}

/** The automatic next pool after a close: same target, 30 days (auto-renew is always on). */
/**
 * Opens the host's next pool after a close (unless the host's auto-renew is off): 30 days, with the host's target (the closed pool's target unless the
 * host saved a new one in prize pool settings while the closed pool's terms were locked).
 */
export async function openNextPool(env: Env, closed: { hostId: string; targetCents: number }): Promise<PoolRow | null> {
  const [profile] = await getDb(env)
    .select({ targetCents: userProfiles.prizePoolTargetCents, autoRenew: userProfiles.prizePoolAutoRenew })
    .from(userProfiles)
    .where(eq(userProfiles.userId, closed.hostId))
    .limit(1);
  // Auto-renew stops when the host's account is deleted (the profile's switch is turned off then).
  if (profile && !profile.autoRenew) return null;
  const targetCents = profile?.targetCents ?? closed.targetCents;
  return openPool(env, { hostId: closed.hostId, targetCents, durationDays: DEFAULT_POOL_DURATION_DAYS });
}

const contributionSchema = z.object({
  hostId: z.string().min(1),
  sourceType: z.enum(CONTRIBUTION_SOURCE_TYPES),
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
}

/** Where a source key was recorded, in any pool (D1's ledger mirror), or null. */
async function findRecorded(env: Env, sourceKey: string): Promise<ContributionOutcome | null> {
  const db = getDb(env);
  const [contribution] = await db
    .select({ poolId: prizePoolContributions.poolId, entryNumber: prizePoolContributions.entryNumber })
    .from(prizePoolContributions)
    .where(eq(prizePoolContributions.sourceKey, sourceKey))
    .limit(1);
  if (contribution) return { ...contribution, duplicate: true };
  // Entries without money behind them (seeded free guesses) are only in prize_entries.
  const [entry] = await db
    .select({ poolId: prizeEntries.poolId, entryNumber: prizeEntries.entryNumber })
    .from(prizeEntries)
    .where(eq(prizeEntries.sourceKey, sourceKey))
    .limit(1);
  return entry ? { ...entry, duplicate: true } : null;
}

/**
 * Adds money (and, when `earnsEntry`, an entry) to the host's open pool, opening one if needed. A source key
 * already recorded in any pool returns the original result and adds nothing. When the pool closes under the
 * call (target reached a moment ago), the contribution goes to the host's next pool.
 */
export async function addContribution(env: Env, request: ContributionRequest): Promise<ContributionOutcome> {
  const input = contributionSchema.parse(request);
  const recorded = await findRecorded(env, input.sourceKey);
  if (recorded) return recorded;

  for (let attempt = 0; attempt < MAX_CONTRIBUTION_ATTEMPTS; attempt++) {
    const pool = await ensureOpenPool(env, input.hostId);
    if (input.currency !== pool.currency) {
      throw new RangeError(`Prize pools are kept in ${pool.currency}; convert the ${input.currency} amount first`);
    }
    const stub = poolStub(env, pool.id);
    const contribution = {
      sourceKey: input.sourceKey,
      sourceType: input.sourceType,
      amountCents: input.amountCents,
      currency: input.currency,
      userId: input.userId,
      earnsEntry: input.earnsEntry,
    };
    let result = await stub.contribute(contribution);
    if (result.reason === "uninitialised") {
      await initPoolObject(env, pool);
      result = await stub.contribute(contribution);
    }
    if (result.accepted) return { poolId: pool.id, entryNumber: result.entryNumber, duplicate: result.duplicate };
    if (result.reason === "closed") {
      // The object closed the pool; if D1 still lists it as open, finish the close (which opens the next pool).
      const stillOpen = await getOpenPool(env, input.hostId);
      if (stillOpen?.id === pool.id) await closePool(env, pool.id, result.closeReason ?? "target_reached");
      continue;
    }
    throw new Error(`Prize pool ${pool.id} refused the contribution (${result.reason ?? "unknown"})`);
  }
  throw new Error(`Could not add contribution ${input.sourceKey}: the host's pools kept closing`);
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
  const [row] = await getDb(env)
    .update(prizePools)
    .set({ targetCents: terms.targetCents, endAt: terms.endAt, updatedAt: new Date() })
    .where(and(eq(prizePools.id, poolId), eq(prizePools.status, "open")))
    .returning();
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
  socketUrl: string;
}

export async function publicPoolState(env: Env, poolId: string): Promise<PublicPoolState | null> {
  const db = getDb(env);
  const pool = await getPool(env, poolId);
  if (!pool) return null;
  let winnerName: string | null = null;
  if (pool.winnerUserId) {
    const [profile] = await db
      .select({ name: userProfiles.creatorName })
      .from(userProfiles)
      .where(eq(userProfiles.userId, pool.winnerUserId))
      .limit(1);
    winnerName = profile?.name ?? null;
  }
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
    socketUrl: poolSocketUrl(pool.id),
  };
}

/** A closed pool's frozen entry list (entry number and source key: the digest's input), or null while open. */
export async function frozenEntries(
  env: Env,
  poolId: string,
): Promise<{ entryNumber: number; sourceKey: string }[] | null> {
  const pool = await getPool(env, poolId);
  if (!pool || pool.status === "open") return null;
  await initPoolObject(env, pool);
  const entries = await poolStub(env, poolId).entries();
  return entries.map(({ entryNumber, sourceKey }) => ({ entryNumber, sourceKey }));
}
