// The close-and-draw cycle (DESIGN decision 5). At close a pool's entry list is frozen, its digest published and
// the draw committed to the next Bitcoin block (tip + 1). Once that block has enough confirmations, it is fetched
// from two independent Esplora-style explorers, which must agree on its hash; its header is rebuilt and checked
// (double SHA-256 and proof of work), and the winner is BigInt(hash) mod entries. Anything missing or wrong means
// no winner this run: the next cron run retries. There is never a made-up block.

import { and, eq, gt, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { prizePools, userProfiles } from "~/db/schema";
import { entriesDigest, FIRST_ENTRY_NUMBER, hashToDecimal, verifyBlock, winnerIndex, type BitcoinBlock } from "~/domain/draw";
import { poolCloseReason } from "~/domain/pool";
import { formatCents } from "~/domain/money";
import { distributePool } from "~/domain/revenue";
import { notify } from "~/lib/notify.server";
import { closePool, getPool, initPoolObject, poolStub } from "~/lib/pools.server";

/** Confirmations a committed block needs before it is used, when BLOCK_CONFIRMATIONS is unset or invalid. */
export const DEFAULT_BLOCK_CONFIRMATIONS = 6;
/** How long one explorer request may take. */
export const EXPLORER_TIMEOUT_MS = 5_000;
/** Pools handled per cron step and run. */
const CRON_BATCH = 25;

export type Fetcher = (input: string, init?: RequestInit) => Promise<Response>;

export interface ExplorerOptions {
  /** Defaults to the global fetch (looked up at call time, so tests can stub it). */
  fetcher?: Fetcher;
  /** Esplora-style base URLs; defaults to env.BLOCK_EXPLORER_URLS. */
  explorers?: string[];
  /** Defaults to env.BLOCK_CONFIRMATIONS, else 6. */
  confirmations?: number;
  timeoutMs?: number;
}

type Resolved = { fetcher: Fetcher; explorers: string[]; confirmations: number; timeoutMs: number };

/** The explorers configured in BLOCK_EXPLORER_URLS (comma-separated base URLs, without trailing slashes). */
export function explorerBases(env: Partial<Pick<Env, "BLOCK_EXPLORER_URLS">>): string[] {
  return (env.BLOCK_EXPLORER_URLS ?? "")
    .split(",")
    .map((url) => url.trim().replace(/\/+$/, ""))
    .filter((url) => url !== "");
}

/** BLOCK_CONFIRMATIONS as a whole number of at least 1, else 6. */
export function requiredConfirmations(env: Partial<Pick<Env, "BLOCK_CONFIRMATIONS">>): number {
  const value = Number.parseInt(env.BLOCK_CONFIRMATIONS ?? "", 10);
  return Number.isSafeInteger(value) && value >= 1 ? value : DEFAULT_BLOCK_CONFIRMATIONS;
}

function resolve(env: Partial<Pick<Env, "BLOCK_EXPLORER_URLS" | "BLOCK_CONFIRMATIONS">>, options: ExplorerOptions = {}): Resolved {
  return {
    fetcher: options.fetcher ?? ((input, init) => fetch(input, init)),
    explorers: (options.explorers ?? explorerBases(env)).map((url) => url.replace(/\/+$/, "")),
    confirmations: options.confirmations ?? requiredConfirmations(env),
    timeoutMs: options.timeoutMs ?? EXPLORER_TIMEOUT_MS,
  };
}

// --- explorer client ------------------------------------------------------------------------------------------

async function getText(options: Resolved, url: string): Promise<string> {
  const response = await options.fetcher(url, {
    headers: { Accept: "text/plain, application/json" },
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.text()).trim();
}

const HASH = /^[0-9a-f]{64}$/;
const ZERO_HASH = "0".repeat(64);

const blockSchema = z.object({
  id: z.string().regex(/^[0-9a-fA-F]{64}$/),
  height: z.number().int().nonnegative().optional(),
  version: z.number().int(),
  timestamp: z.number().int(),
  bits: z.number().int(),
  nonce: z.number().int(),
  merkle_root: z.string(),
  // Explorers give the genesis block no previous hash.
  previousblockhash: z.string().nullish(),
});

export async function fetchTipHeight(base: string, options: Resolved): Promise<number> {
  const text = await getText(options, `${base}/blocks/tip/height`);
  if (!/^\d+$/.test(text)) throw new Error(`${base} gave a tip height that is not a number`);
  return Number(text);
}

export async function fetchBlockHashAt(base: string, height: number, options: Resolved): Promise<string> {
  const hash = (await getText(options, `${base}/block-height/${height}`)).toLowerCase();
  if (!HASH.test(hash)) throw new Error(`${base} gave a block hash that is not 64 hex digits`);
  return hash;
}

export async function fetchBlock(base: string, hash: string, options: Resolved): Promise<BitcoinBlock> {
  const parsed = blockSchema.safeParse(JSON.parse(await getText(options, `${base}/block/${hash}`)));
  if (!parsed.success) throw new Error(`${base} gave a block in an unexpected shape`);
  const block = parsed.data;
  return { ...block, id: block.id.toLowerCase(), previousblockhash: block.previousblockhash ?? ZERO_HASH };
}

/** The chain tip: the highest height any configured explorer reports, or null when none answers. */
export async function currentTipHeight(env: Env, options?: ExplorerOptions): Promise<number | null> {
  const resolved = resolve(env, options);
  const results = await Promise.allSettled(resolved.explorers.map((base) => fetchTipHeight(base, resolved)));
  const heights = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  for (const result of results) {
    if (result.status === "rejected") console.warn("draw: explorer tip unavailable", String(result.reason));
  }
  return heights.length > 0 ? Math.max(...heights) : null;
}

/** The two explorers a draw uses: the first two different ones configured. */
function drawExplorers(resolved: Resolved): string[] {
  return [...new Set(resolved.explorers)].slice(0, 2);
}

export type VerifiedBlock = { ok: true; hash: string; block: BitcoinBlock } | { ok: false; reason: string };

/**
 * The block at `height`, fetched from the first two explorers and accepted only when both have it with at least
 * `confirmations` confirmations, agree on its hash, and both copies' rebuilt headers hash to it and meet their
 * proof-of-work target.
 */
export async function fetchVerifiedBlock(
  env: Env,
  height: number,
  options?: ExplorerOptions & { tips?: number[] },
): Promise<VerifiedBlock> {
  const resolved = resolve(env, options);
  const explorers = drawExplorers(resolved);
  if (explorers.length < 2) return { ok: false, reason: "two different block explorers are needed" };
  try {
    const tips = options?.tips ?? (await Promise.all(explorers.map((base) => fetchTipHeight(base, resolved))));
    const confirmations = Math.min(...tips) - height + 1;
    if (confirmations < resolved.confirmations) {
      return { ok: false, reason: `block ${height} has ${Math.max(confirmations, 0)} of ${resolved.confirmations} confirmations` };
    }
    const hashes = await Promise.all(explorers.map((base) => fetchBlockHashAt(base, height, resolved)));
    if (hashes[0] !== hashes[1]) {
      return { ok: false, reason: `explorers disagree on block ${height}: ${hashes[0]} / ${hashes[1]}` };
    }
    const hash = hashes[0]!;
    const blocks = await Promise.all(explorers.map((base) => fetchBlock(base, hash, resolved)));
    for (const [index, block] of blocks.entries()) {
      if (block.id !== hash) return { ok: false, reason: `${explorers[index]} returned block ${block.id}, not ${hash}` };
      if (block.height !== undefined && block.height !== height) {
        return { ok: false, reason: `${explorers[index]} says block ${hash} is at height ${block.height}, not ${height}` };
      }
      const verification = await verifyBlock(block);
      if (!verification.ok) return { ok: false, reason: `${explorers[index]}: ${verification.reason}` };
    }
    return { ok: true, hash, block: blocks[0]! };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** The fields a verifier needs to rebuild the 80-byte header (nothing else an explorer sent is kept). */
export function blockHeaderFields(block: BitcoinBlock): BitcoinBlock {
  return {
    id: block.id,
    height: block.height,
    version: block.version,
    previousblockhash: block.previousblockhash,
    merkle_root: block.merkle_root,
    timestamp: block.timestamp,
    bits: block.bits,
    nonce: block.nonce,
  };
}

// --- the result -----------------------------------------------------------------------------------------------

/** The spec's winner RPC shape, less winner_user_id (which needs the entry list). */
export interface DrawResult {
  winner_index: number;
  winner_entry_number: number;
  decimal_hash: string;
}

/**
 * The winner of `entriesCount` entries (numbered from 0) for a block hash: index BigInt(hash) mod count, which is
 * also the winning entry number. Throws 'No participants available for winner selection' for no entries and
 * 'Invalid hexadecimal hash' for a bad hash.
 */
export function drawResult(entriesCount: number, blockHash: string): DrawResult {
  const index = winnerIndex(blockHash, entriesCount);
  return { winner_index: index, winner_entry_number: FIRST_ENTRY_NUMBER + index, decimal_hash: hashToDecimal(blockHash) };
}

// --- commitment and draw --------------------------------------------------------------------------------------

/**
 * Commits a closed pool with entries to the next block (tip + 1) unless it already has a height. Returns the
 * committed height, or null when there is nothing to commit or no explorer answered (the cron retries).
 * `tipHeight` lets the cron fetch the tip once for many pools. Never throws for explorer failures.
 */
export async function commitDrawHeight(
  env: Env,
  poolId: string,
  options?: ExplorerOptions & { tipHeight?: number | null },
): Promise<number | null> {
  const pool = await getPool(env, poolId);
  if (!pool || pool.status !== "closed" || pool.entriesCount <= 0) return null;
  if (pool.drawBlockHeight !== null) return pool.drawBlockHeight;
  if (pool.entriesDigest === null) {
    // Normally published at close; a pool closed some other way (imported data) gets it now, before any height.
    await initPoolObject(env, pool);
    const digest = await entriesDigest(await poolStub(env, poolId).entries());
    await getDb(env)
      .update(prizePools)
      .set({ entriesDigest: digest, updatedAt: new Date() })
      .where(and(eq(prizePools.id, poolId), isNull(prizePools.entriesDigest)));
  }
  const tip = options?.tipHeight ?? (await currentTipHeight(env, options));
  if (tip === null) {
    console.warn("draw: no explorer answered; pool", poolId, "waits for the next run to commit a block height");
    return null;
  }
  const height = tip + 1;
  await getDb(env)
    .update(prizePools)
    .set({ drawBlockHeight: height, updatedAt: new Date() })
    .where(and(eq(prizePools.id, poolId), eq(prizePools.status, "closed"), isNull(prizePools.drawBlockHeight)));
  return (await getPool(env, poolId))?.drawBlockHeight ?? null;
}

export type DrawOutcome =
  | { status: "drawn"; poolId: string; blockHash: string; entryNumber: number; userId: string | null; result: DrawResult }
  | { status: "waiting"; poolId: string; reason: string }
  | { status: "skipped"; poolId: string; reason: string };

/**
 * Draws a committed pool's winner when its block is available and verified: records prize_pools (status drawn,
 * block hash, winning entry and user, drawn_at) and the main prize_winners row (60% of the pool), then tells
 * the pool's sockets. Any failure leaves the pool closed and committed for the next run.
 */
export async function drawPool(
  env: Env,
  poolId: string,
  options?: ExplorerOptions & { tips?: number[] },
): Promise<DrawOutcome> {
  const pool = await getPool(env, poolId);
  if (!pool) return { status: "skipped", poolId, reason: "unknown pool" };
  if (pool.status !== "closed") return { status: "skipped", poolId, reason: `pool is ${pool.status}` };
  if (pool.drawBlockHeight === null) return { status: "skipped", poolId, reason: "no block height committed yet" };
  if (options?.tips && options.tips.length > 0) {
    const confirmations = Math.min(...options.tips) - pool.drawBlockHeight + 1;
    const needed = resolve(env, options).confirmations;
    if (confirmations < needed) {
      return { status: "waiting", poolId, reason: `block ${pool.drawBlockHeight} has ${Math.max(confirmations, 0)} of ${needed} confirmations` };
    }
  }

  await initPoolObject(env, pool);
  const stub = poolStub(env, poolId);
  const entries = await stub.entries();
  if (entries.length === 0) return { status: "skipped", poolId, reason: "no entries" };
  const digest = await entriesDigest(entries);
  if (pool.entriesDigest === null) return { status: "waiting", poolId, reason: "no entries digest published" };
  if (digest !== pool.entriesDigest) {
    console.error("draw: the entry list of pool", poolId, "does not match its published digest");
    return { status: "waiting", poolId, reason: "entry list does not match the published digest" };
  }

  const height = pool.drawBlockHeight;
  const block = await fetchVerifiedBlock(env, height, options);
  if (!block.ok) {
    console.warn("draw: no winner yet for pool", poolId, "at block", height, "-", block.reason);
    return { status: "waiting", poolId, reason: block.reason };
  }

  const result = drawResult(entries.length, block.hash);
  const entry = entries[result.winner_index];
  if (!entry || entry.entryNumber !== result.winner_entry_number) {
    return { status: "waiting", poolId, reason: "entry numbers are not dense" };
  }
  const state = await stub.state();
  const prizeCents = distributePool(state.amountCents).mainPrize;
  const db = getDb(env);
  const [profile] = entry.userId
    ? await db
        .select({ name: userProfiles.creatorName })
        .from(userProfiles)
        .where(eq(userProfiles.userId, entry.userId))
        .limit(1)
    : [];
  const winnerName = profile?.name ?? `Entry #${entry.entryNumber}`;
  const now = Date.now();
  // One batch (a transaction): the pool row only moves from closed to drawn once; the winner row is unique per pool.
  const [drawn] = await env.DB.batch([
    env.DB.prepare(
      `UPDATE prize_pools SET status = 'drawn', draw_block_hash = ?, draw_block_header = ?, winner_entry_number = ?,
         winner_user_id = (SELECT id FROM users WHERE id = ?), drawn_at = ?, updated_at = ?
       WHERE id = ? AND status = 'closed' AND draw_block_height = ?`,
    ).bind(block.hash, JSON.stringify(blockHeaderFields(block.block)), entry.entryNumber, entry.userId, now, now, poolId, height),
    env.DB.prepare(
      `INSERT OR IGNORE INTO prize_winners
         (id, pool_id, user_id, winner_name, prize_amount_cents, currency, prize_type, entry_number, block_hash, created_at)
       SELECT ?, ?, (SELECT id FROM users WHERE id = ?), ?, ?, ?, 'main', ?, ?, ?
       WHERE EXISTS (SELECT 1 FROM prize_pools WHERE id = ? AND status = 'drawn' AND draw_block_hash = ?)`,
    ).bind(
      crypto.randomUUID(),
      poolId,
      entry.userId,
      winnerName,
      prizeCents,
      state.currency,
      entry.entryNumber,
      block.hash,
      now,
      poolId,
      block.hash,
    ),
  ]);
  await stub.announceWinner({
    entryNumber: entry.entryNumber,
    userId: entry.userId,
    winnerName,
    prizeCents,
    blockHeight: height,
    blockHash: block.hash,
  });
  // The winner hears of it once: only the run that moved the pool to drawn tells them.
  if (entry.userId && drawn?.meta.changes === 1) {
    await notify(env, entry.userId, "winner", {
      subject: "You won the main prize!",
      text: `Your entry #${entry.entryNumber} won the main prize of ${formatCents(prizeCents, state.currency)}. See how it was drawn: /winner-selection/${poolId}`,
      url: `/winner-selection/${poolId}`,
    });
  }
  return { status: "drawn", poolId, blockHash: block.hash, entryNumber: entry.entryNumber, userId: entry.userId, result };
}

// --- the cron -------------------------------------------------------------------------------------------------

export interface PoolCronSummary {
  closed: { poolId: string; reason: string }[];
  committed: { poolId: string; height: number }[];
  drawn: string[];
  waiting: { poolId: string; reason: string }[];
  errors: { poolId: string; error: string }[];
}

/**
 * One cron run: closes open pools that are past their end (timer_expired) or at their target (target_reached,
 * normally done by the object's alarm already), commits block heights for closed pools lacking one, and draws
 * committed pools whose block is ready. A zero-entry pool stays 'closed' with no height and no winner.
 */
export async function runPoolCron(env: Env, now: Date, options?: ExplorerOptions): Promise<PoolCronSummary> {
  const summary: PoolCronSummary = { closed: [], committed: [], drawn: [], waiting: [], errors: [] };
  const db = getDb(env);
  const fail = (poolId: string, error: unknown) => {
    console.error("pool cron:", poolId, error);
    summary.errors.push({ poolId, error: error instanceof Error ? error.message : String(error) });
  };

  const due = await db
    .select()
    .from(prizePools)
    .where(
      and(
        eq(prizePools.status, "open"),
        or(
          lte(prizePools.endAt, now),
          and(gt(prizePools.targetCents, 0), sql`${prizePools.amountCents} >= ${prizePools.targetCents}`),
        ),
      ),
    )
    .limit(CRON_BATCH);
  for (const pool of due) {
    const reason = poolCloseReason(pool.amountCents, pool.targetCents, pool.endAt, now);
    if (!reason) continue;
    try {
      const state = await closePool(env, pool.id, reason);
      summary.closed.push({ poolId: pool.id, reason: state.closeReason ?? reason });
    } catch (error) {
      fail(pool.id, error);
    }
  }

  const uncommitted = await db
    .select({ id: prizePools.id })
    .from(prizePools)
    .where(and(eq(prizePools.status, "closed"), isNull(prizePools.drawBlockHeight), gt(prizePools.entriesCount, 0)))
    .limit(CRON_BATCH);
  if (uncommitted.length > 0) {
    const tipHeight = await currentTipHeight(env, options);
    for (const pool of uncommitted) {
      if (tipHeight === null) {
        summary.waiting.push({ poolId: pool.id, reason: "no explorer answered for the tip height" });
        continue;
      }
      try {
        const height = await commitDrawHeight(env, pool.id, { ...options, tipHeight });
        if (height !== null) summary.committed.push({ poolId: pool.id, height });
      } catch (error) {
        fail(pool.id, error);
      }
    }
  }

  const committed = await db
    .select({ id: prizePools.id })
    .from(prizePools)
    .where(and(eq(prizePools.status, "closed"), isNotNull(prizePools.drawBlockHeight)))
    .orderBy(prizePools.drawBlockHeight)
    .limit(CRON_BATCH);
  if (committed.length === 0) return summary;
  // Both explorers' tips once per run: most committed pools are only waiting for confirmations.
  const resolved = resolve(env, options);
  let tips: number[];
  try {
    tips = await Promise.all(drawExplorers(resolved).map((base) => fetchTipHeight(base, resolved)));
  } catch (error) {
    const reason = `block explorers unavailable: ${error instanceof Error ? error.message : String(error)}`;
    console.warn("pool cron:", reason);
    for (const pool of committed) summary.waiting.push({ poolId: pool.id, reason });
    return summary;
  }
  for (const pool of committed) {
    try {
      const outcome = await drawPool(env, pool.id, { ...options, tips });
      if (outcome.status === "drawn") summary.drawn.push(pool.id);
      else summary.waiting.push({ poolId: pool.id, reason: outcome.reason });
    } catch (error) {
      fail(pool.id, error);
    }
  }
  return summary;
}
