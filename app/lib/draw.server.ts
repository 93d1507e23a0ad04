// The close-and-draw cycle (DESIGN decision 5, docs/decisions/003-the-draw.md, 390-a-draw-nobody-can-steer.md). At
// close a pool's entry list is frozen, its digest published and the draw committed (and logged) to a block
// DRAW_COMMIT_MARGIN past the highest tip of at least two answering explorers (domain/draw-commitment.ts). Once that
// block has enough confirmations it is fetched from every explorer and must descend from the recorded tip;
// the ones that answer (at least two, on different hosts) must agree on its hash, its header is rebuilt and checked
// (double SHA-256, proof of work, difficulty at least MIN_BLOCK_DIFFICULTY), and the winner is the valid entry at
// position BigInt(hash) mod (valid entries). Anything missing or wrong means no winner this run: the next cron run
// retries. There is never a made-up block.

import { getDb } from "~/db/client.server";
import {
  commitDrawHeight as commitDrawHeightRow,
  delayDraw,
  insertDisqualification,
  listCommitmentLog,
  listCommittedPools,
  listDisqualifiedEntries,
  listPoolDraws,
  listPoolsDueToClose,
  listUncommittedPools,
  recordDraw,
  setEntriesDigestIfMissing,
  voidWinningDraw,
} from "~/db/queries/draw.server";
import { getDisplayName } from "~/db/queries/pools.server";
import { getPoolLogStamp } from "~/db/queries/transparency.server";
import { z } from "zod";
import {
  blockHashFromHeader,
  blockHeaderFields,
  buildBlockHeader,
  CURRENT_ENTRIES_FORMAT,
  entriesDigest,
  entriesFormatOf,
  hashToDecimal,
  pickWinner,
  verifyDrawBlock,
  type BitcoinBlock,
} from "~/domain/draw";
import {
  agreedTipHeight,
  checkBlockAcceptance,
  commitmentHash,
  decideCommitment,
  GENESIS_LOG_HASH,
  MIN_AGREEING_EXPLORERS,
  type AgreedTipHeader,
  type CommitmentRecord,
  type ExplorerTip,
} from "~/domain/draw-commitment";
import { redrawExclusions } from "~/domain/draw-verification";
import { poolLogStampText } from "~/domain/transparency-log";
import { isPrizeUnsettled, poolCloseReason } from "~/domain/pool";
import { formatCents } from "~/domain/money";
import { distributePool } from "~/domain/revenue";
import { siteOrigin } from "~/lib/config.server";
import { notify } from "~/lib/notify.server";
import {
  closePool,
  endExpiredGamesAndAdmit,
  getPool,
  initPoolObject,
  poolStub,
  reapplyReservations,
} from "~/lib/pools.server";

/**
 * The block explorers every draw asks (Esplora-style APIs run by different operators). Configuration
 * (BLOCK_EXPLORER_URLS) can only add to these.
 */
export const DEFAULT_BLOCK_EXPLORERS: readonly string[] = ["https://blockstream.info/api", "https://mempool.space/api"];

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

/**
 * The explorers a draw asks: the defaults, then any https URL in BLOCK_EXPLORER_URLS (comma-separated) that is not
 * one of them. Configuration never removes a default.
 */
export function explorerBases(env: Partial<Pick<Env, "BLOCK_EXPLORER_URLS">>): string[] {
  const configured = (env.BLOCK_EXPLORER_URLS ?? "")
    .split(",")
    .map((url) => url.trim().replace(/\/+$/, ""))
    .filter((url) => /^https:\/\/[^\s/]+/.test(url));
  return [...new Set([...DEFAULT_BLOCK_EXPLORERS, ...configured])];
}

/** Explorers on the same host are one source: keep the first of each host. */
function independentExplorers(bases: readonly string[]): string[] {
  const hosts = new Set<string>();
  const out: string[] = [];
  for (const base of bases) {
    let host: string;
    try {
      host = new URL(base).hostname;
    } catch {
      continue;
    }
    if (hosts.has(host)) continue;
    hosts.add(host);
    out.push(base);
  }
  return out;
}

/** BLOCK_CONFIRMATIONS as a whole number of at least 1, else 6. */
export function requiredConfirmations(env: Partial<Pick<Env, "BLOCK_CONFIRMATIONS">>): number {
  const value = Number.parseInt(env.BLOCK_CONFIRMATIONS ?? "", 10);
  return Number.isSafeInteger(value) && value >= 1 ? value : DEFAULT_BLOCK_CONFIRMATIONS;
}

function resolve(
  env: Partial<Pick<Env, "BLOCK_EXPLORER_URLS" | "BLOCK_CONFIRMATIONS">>,
  options: ExplorerOptions = {},
): Resolved {
  return {
    fetcher: options.fetcher ?? ((input, init) => fetch(input, init)),
    explorers: independentExplorers((options.explorers ?? explorerBases(env)).map((url) => url.replace(/\/+$/, ""))),
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

/** Every explorer's tip height; the ones that did not answer are left out (and logged). */
async function explorerTips(resolved: Resolved): Promise<{ base: string; tip: number }[]> {
  const results = await Promise.allSettled(resolved.explorers.map((base) => fetchTipHeight(base, resolved)));
  const tips: { base: string; tip: number }[] = [];
  results.forEach((result, index) => {
    if (result.status === "fulfilled") tips.push({ base: resolved.explorers[index]!, tip: result.value });
    else console.warn("draw: explorer tip unavailable", String(result.reason));
  });
  return tips;
}

export type AgreedTip =
  { ok: true; tips: ExplorerTip[]; tip: AgreedTipHeader; explorers: string[] } | { ok: false; reason: string };

/**
 * The explorers' tips and the tip at least two independent explorers agree on: the highest height two of them have
 * reached (a lagging explorer cannot lower it), with the same block hash there from every explorer that has it, and
 * that block's header (rebuilt and hashed to its id) for its time. A tip only one explorer reports is never agreed.
 */
export async function agreedTip(env: Env, options?: ExplorerOptions): Promise<AgreedTip> {
  const resolved = resolve(env, options);
  const tips = (await explorerTips(resolved)).map((t) => ({ explorer: t.base, height: t.tip }));
  const height = agreedTipHeight(tips);
  if (height === null) {
    return { ok: false, reason: `${tips.length} of ${MIN_AGREEING_EXPLORERS} block explorers answered for the tip` };
  }
  try {
    const ahead = tips.filter((t) => t.height >= height).map((t) => t.explorer);
    const hashes = await Promise.all(ahead.map((base) => fetchBlockHashAt(base, height, resolved)));
    if (new Set(hashes).size !== 1) return { ok: false, reason: `explorers disagree on block ${height}` };
    const hash = hashes[0]!;
    const header = await fetchBlock(ahead[0]!, hash, resolved);
    if ((await blockHashFromHeader(buildBlockHeader(header))) !== hash) {
      return { ok: false, reason: `${ahead[0]} gave a header for block ${height} that does not hash to ${hash}` };
    }
    return { ok: true, tips, tip: { height, hash, time: header.timestamp }, explorers: ahead };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

export type VerifiedBlock = { ok: true; hash: string; block: BitcoinBlock } | { ok: false; reason: string };

/**
 * The block at `height`, accepted only when at least two independent explorers answer, every explorer that answers
 * has it with at least `confirmations` confirmations and the same hash, and every copy's rebuilt header hashes to it,
 * meets its proof-of-work target and has at least the draw's minimum difficulty.
 */
export async function fetchVerifiedBlock(
  env: Env,
  height: number,
  options?: ExplorerOptions & { tips?: { base: string; tip: number }[] },
): Promise<VerifiedBlock> {
  const resolved = resolve(env, options);
  try {
    const tips = options?.tips ?? (await explorerTips(resolved));
    if (tips.length < MIN_AGREEING_EXPLORERS) {
      return { ok: false, reason: `${tips.length} of ${MIN_AGREEING_EXPLORERS} block explorers answered` };
    }
    const confirmations = Math.min(...tips.map((t) => t.tip)) - height + 1;
    if (confirmations < resolved.confirmations) {
      return {
        ok: false,
        reason: `block ${height} has ${Math.max(confirmations, 0)} of ${resolved.confirmations} confirmations`,
      };
    }
    const explorers = tips.map((t) => t.base);
    const hashes = await Promise.all(explorers.map((base) => fetchBlockHashAt(base, height, resolved)));
    if (new Set(hashes).size !== 1) {
      return { ok: false, reason: `explorers disagree on block ${height}: ${hashes.join(" / ")}` };
    }
    const hash = hashes[0]!;
    const blocks = await Promise.all(explorers.map((base) => fetchBlock(base, hash, resolved)));
    for (const [index, block] of blocks.entries()) {
      if (block.id !== hash)
        return { ok: false, reason: `${explorers[index]} returned block ${block.id}, not ${hash}` };
      if (block.height !== undefined && block.height !== height) {
        return {
          ok: false,
          reason: `${explorers[index]} says block ${hash} is at height ${block.height}, not ${height}`,
        };
      }
      const verification = await verifyDrawBlock(block);
      if (!verification.ok) return { ok: false, reason: `${explorers[index]}: ${verification.reason}` };
    }
    return { ok: true, hash, block: blocks[0]! };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

// --- the result -----------------------------------------------------------------------------------------------

/** The draw's public result (the original app's winner call), less winner_user_id (which needs the entry list). */
export interface DrawResult {
  winner_index: number;
  winner_entry_number: number;
  decimal_hash: string;
}

// --- commitment and draw --------------------------------------------------------------------------------------

/** The next record of a pool's draw log: numbered after the last, chained to its hash. */
export async function nextLogRecord(
  env: Env,
  poolId: string,
  fields: Omit<CommitmentRecord, "poolId" | "seq" | "prevHash" | "hash">,
): Promise<CommitmentRecord> {
  const log = await listCommitmentLog(getDb(env), poolId);
  const last = log.at(-1);
  const body = { ...fields, poolId, seq: last ? last.seq + 1 : 0 };
  const prevHash = last?.hash ?? GENESIS_LOG_HASH;
  return { ...body, prevHash, hash: await commitmentHash(prevHash, body) };
}

/**
 * Records a commitment of a closed, uncommitted pool (its tip, the highest tip heard, the committed height and the
 * time) in its log and sets the height, together. Returns true when committed. The cron's rule is commitDrawHeight;
 * this is the one writer of a commitment.
 */
export async function recordCommitment(
  env: Env,
  poolId: string,
  commitment: {
    blockHeight: number;
    tip: AgreedTipHeader;
    highestTip: number;
    at: Date;
    /** Every answering explorer's tip, for the public log (decision 550). */
    tips?: readonly ExplorerTip[];
  },
): Promise<boolean> {
  const record = await nextLogRecord(env, poolId, {
    kind: "commit",
    blockHeight: commitment.blockHeight,
    tipHeight: commitment.tip.height,
    tipHash: commitment.tip.hash,
    tipTime: commitment.tip.time,
    highestTip: commitment.highestTip,
    reason: null,
    createdAt: commitment.at.getTime(),
  });
  const tipsSeen = (commitment.tips ?? []).map((tip) => ({ explorer: tip.explorer, height: tip.height }));
  return commitDrawHeightRow(getDb(env), record, tipsSeen);
}

/**
 * Commits a closed pool with entries to block (highest tip + DRAW_COMMIT_MARGIN) by the rule of decideCommitment,
 * unless it already has a height, recording the commitment in the pool's log. Returns the committed height, or null
 * when there is nothing to commit, fewer than two explorers answered or agreed, or the explorers lag (the cron
 * retries). `agreed` lets the cron ask the explorers once for many pools. Never throws for explorer failures.
 */
export async function commitDrawHeight(
  env: Env,
  poolId: string,
  options?: ExplorerOptions & { agreed?: AgreedTip; now?: Date },
): Promise<number | null> {
  const pool = await getPool(env, poolId);
  if (!pool || pool.status !== "closed" || pool.entriesCount <= 0) return null;
  if (pool.drawBlockHeight !== null) return pool.drawBlockHeight;
  const db = getDb(env);
  if (pool.entriesDigest === null) {
    // Normally published at close; a pool closed some other way (imported data) gets it now, before any height.
    await initPoolObject(env, pool);
    await setEntriesDigestIfMissing(
      db,
      poolId,
      await entriesDigest(await poolStub(env, poolId).entries(), CURRENT_ENTRIES_FORMAT),
      CURRENT_ENTRIES_FORMAT,
    );
  }
  const agreed = options?.agreed ?? (await agreedTip(env, options));
  const now = options?.now ?? new Date();
  const decision = agreed.ok ? decideCommitment(agreed.tips, agreed.tip, now) : agreed;
  if (!agreed.ok || !decision.ok) {
    console.warn(
      "draw: pool",
      poolId,
      "waits for the next run to commit a block height -",
      decision.ok ? "" : decision.reason,
    );
    return null;
  }
  await recordCommitment(env, poolId, {
    blockHeight: decision.blockHeight,
    tip: agreed.tip,
    highestTip: decision.highestTip,
    at: now,
    tips: agreed.tips,
  });
  return (await getPool(env, poolId))?.drawBlockHeight ?? null;
}

/**
 * The headers from the tip + 1 to the block − 1, walking back from the block by its previous-block hashes: each
 * from the first explorer whose header rebuilds to the hash asked for. Null when no explorer gave one (wait).
 */
async function fetchHeadersBack(
  resolved: Resolved,
  explorers: readonly string[],
  block: BitcoinBlock,
  count: number,
): Promise<BitcoinBlock[] | null> {
  const headers: BitcoinBlock[] = [];
  let hash = block.previousblockhash;
  for (let i = 0; i < count; i++) {
    let found: BitcoinBlock | null = null;
    for (const base of explorers) {
      try {
        const header = await fetchBlock(base, hash, resolved);
        if (header.id === hash && (await blockHashFromHeader(buildBlockHeader(header))) === hash) {
          found = blockHeaderFields(header);
          break;
        }
      } catch (error) {
        console.warn("draw: header", hash, "unavailable from", base, String(error));
      }
    }
    if (!found) return null;
    headers.unshift(found);
    hash = found.previousblockhash;
  }
  return headers;
}

export type DrawOutcome =
  | {
      status: "drawn";
      poolId: string;
      blockHash: string;
      entryNumber: number;
      userId: string | null;
      result: DrawResult;
    }
  | { status: "redrawn"; poolId: string; blockHash: string; entryNumber: number; nextHeight: number | null }
  | { status: "delayed"; poolId: string; reason: string }
  | { status: "waiting"; poolId: string; reason: string }
  | { status: "skipped"; poolId: string; reason: string };

/**
 * Draws a committed pool's winner when its block is available and verified: the valid entry at position
 * hash mod (valid entries), leaving out every earlier winner whose draw was voided. Records the draw, the pool
 * (status drawn, block, winning entry and user) and the main prize row (60% of the pool), then tells the pool's
 * sockets. A winner whose payment was reversed after the close is recorded as a void draw and a fresh block is
 * committed. Any failure leaves the pool closed and committed for the next run.
 */
export async function drawPool(
  env: Env,
  poolId: string,
  options?: ExplorerOptions & { tips?: { base: string; tip: number }[] },
): Promise<DrawOutcome> {
  const pool = await getPool(env, poolId);
  if (!pool) return { status: "skipped", poolId, reason: "unknown pool" };
  if (pool.status !== "closed") return { status: "skipped", poolId, reason: `pool is ${pool.status}` };
  if (pool.drawBlockHeight === null) return { status: "skipped", poolId, reason: "no block height committed yet" };
  const height = pool.drawBlockHeight;
  if (options?.tips && options.tips.length > 0) {
    const confirmations = Math.min(...options.tips.map((t) => t.tip)) - height + 1;
    const needed = resolve(env, options).confirmations;
    if (confirmations < needed) {
      return {
        status: "waiting",
        poolId,
        reason: `block ${height} has ${Math.max(confirmations, 0)} of ${needed} confirmations`,
      };
    }
  }

  await initPoolObject(env, pool);
  const stub = poolStub(env, poolId);
  const entries = await stub.entries();
  if (entries.length === 0) return { status: "skipped", poolId, reason: "no entries" };
  const digest = await entriesDigest(entries, entriesFormatOf(pool.entriesFormat));
  if (pool.entriesDigest === null) return { status: "waiting", poolId, reason: "no entries digest published" };
  if (digest !== pool.entriesDigest) {
    console.error("draw: the entry list of pool", poolId, "does not match its published digest");
    return { status: "waiting", poolId, reason: "entry list does not match the published digest" };
  }

  const db = getDb(env);
  const draws = await listPoolDraws(db, poolId);
  // The same rule the verification page recomputes: earlier voided winners are left out.
  const excluded = redrawExclusions(
    draws.map((draw) => ({ voided: draw.voidedAt !== null, winnerEntryNumber: draw.winnerEntryNumber })),
  );
  if (entries.filter((entry) => !entry.voided && !excluded.includes(entry.entryNumber)).length === 0) {
    return { status: "skipped", poolId, reason: "no valid entries left" };
  }
  const log = await listCommitmentLog(db, poolId);
  const commitment = log.findLast((record) => record.kind === "commit" && record.blockHeight === height);
  if (!commitment || commitment.tipHeight === null || commitment.tipHeight >= height) {
    // A height committed before the log existed (or by hand) names no tip: it is given up and committed afresh.
    return delay(env, poolId, height, `no recorded commitment with a tip below block ${height}`);
  }
  const block = await fetchVerifiedBlock(env, height, options);
  if (!block.ok) {
    console.warn("draw: no winner yet for pool", poolId, "at block", height, "-", block.reason);
    return { status: "waiting", poolId, reason: block.reason };
  }
  const resolved = resolve(env, options);
  const headers = await fetchHeadersBack(resolved, resolved.explorers, block.block, height - commitment.tipHeight - 1);
  if (!headers)
    return {
      status: "waiting",
      poolId,
      reason: `the headers between the tip ${commitment.tipHeight} and block ${height} are unavailable`,
    };
  const acceptance = await checkBlockAcceptance(commitment, headers, { ...block.block, height });
  if (!acceptance.ok) return delay(env, poolId, height, acceptance.reason);

  const pick = pickWinner(entries, block.hash, excluded);
  const entry = entries.find((candidate) => candidate.entryNumber === pick.entryNumber)!;
  const disqualified = (await listDisqualifiedEntries(db, poolId)).includes(entry.entryNumber);
  const state = await stub.state();
  const prizeCents = distributePool(state.amountCents).mainPrize;
  const winnerName = (entry.userId ? await getDisplayName(db, entry.userId) : null) ?? `Entry #${entry.entryNumber}`;
  const voidReason = disqualified ? "the winning entry's payment was refunded or lost in a dispute" : null;
  const drawn = await recordDraw(db, {
    poolId,
    attempt: draws.length,
    height,
    hash: block.hash,
    header: blockHeaderFields(block.block),
    chainHeaders: headers,
    commitmentSeq: commitment.seq,
    entryNumber: entry.entryNumber,
    userId: entry.userId,
    winnerName,
    prizeCents,
    currency: state.currency,
    voidReason,
    voidRecord: voidReason
      ? await nextLogRecord(env, poolId, {
          ...NO_TIP,
          kind: "void",
          blockHeight: height,
          reason: voidReason,
          createdAt: Date.now(),
        })
      : undefined,
  });
  if (disqualified) {
    // Committed afresh past the tip at this time (or by the next cron run when the explorers cannot say).
    const nextHeight = await commitDrawHeight(env, poolId, options);
    return { status: "redrawn", poolId, blockHash: block.hash, entryNumber: entry.entryNumber, nextHeight };
  }
  await stub.announceWinner({
    entryNumber: entry.entryNumber,
    userId: entry.userId,
    winnerName,
    prizeCents,
    blockHeight: height,
    blockHash: block.hash,
  });
  // The winner hears of it once: only the run that moved the pool to drawn tells them.
  if (entry.userId && drawn) {
    await notify(env, entry.userId, "winner", {
      key: `prize-won:${poolId}`,
      subject: "You won the main prize!",
      text: `Your entry #${entry.entryNumber} won the main prize of ${formatCents(prizeCents, state.currency)}. See how it was drawn: ${siteOrigin(env)}/winner-selection/${poolId}\n\n${poolLogStampText(await getPoolLogStamp(db, poolId))}`,
      url: `/winner-selection/${poolId}`,
    });
  }
  const result: DrawResult = {
    winner_index: pick.index,
    winner_entry_number: entry.entryNumber,
    decimal_hash: hashToDecimal(block.hash),
  };
  return {
    status: "drawn",
    poolId,
    blockHash: block.hash,
    entryNumber: entry.entryNumber,
    userId: entry.userId,
    result,
  };
}

export const NO_TIP = { tipHeight: null, tipHash: null, tipTime: null, highestTip: null } as const;

/**
 * The committed block was refused: never swapped silently. The pool shows "draw delayed" (the admin sees why), the
 * refusal is recorded in its log, and the height is given up so that the next run commits afresh (recorded too).
 */
async function delay(env: Env, poolId: string, height: number, reason: string): Promise<DrawOutcome> {
  console.error("draw: pool", poolId, "refused block", height, "-", reason);
  const record = await nextLogRecord(env, poolId, {
    ...NO_TIP,
    kind: "delay",
    blockHeight: height,
    reason,
    createdAt: Date.now(),
  });
  await delayDraw(getDb(env), record);
  return { status: "delayed", poolId, reason };
}

/**
 * A frozen entry's payment was reversed (above half) after its pool closed: it can no longer win. When it already
 * won and the prize has not settled (nor been paid), the draw is voided and the prize is redrawn from the next
 * block. Returns true when a redraw was set up.
 */
export async function disqualifyWinner(
  env: Env,
  poolId: string,
  entryNumber: number,
  reversalKey: string,
  voidsDraw = true,
  options?: ExplorerOptions,
): Promise<boolean> {
  const db = getDb(env);
  await insertDisqualification(db, poolId, entryNumber, reversalKey);
  // A refund the host or the platform makes after the draw is booked to the host and the draw stands.
  if (!voidsDraw) return false;
  const pool = await getPool(env, poolId);
  if (!pool || pool.status !== "drawn" || pool.winnerEntryNumber !== entryNumber || !pool.drawnAt) return false;
  const now = new Date();
  if (!isPrizeUnsettled(pool.drawnAt, now)) return false;
  const reason = "the winning entry's payment was reversed by the buyer or the card provider";
  return voidDrawAndRedraw(env, poolId, entryNumber, reason, now, options);
}

/**
 * Voids a drawn pool's winning draw (a void record with `reason` in its log; a pending prize payout cancelled) and
 * sets up the redraw: the pool goes back to closed and commits afresh past the tip at this time, by the same rule
 * over the valid entries less every voided winner. Used for a reversed winning payment and for an unclaimed prize
 * (decision 540). Returns false (and changes nothing) unless the pool is drawn with that winning entry.
 */
export async function voidDrawAndRedraw(
  env: Env,
  poolId: string,
  entryNumber: number,
  reason: string,
  now: Date,
  options?: ExplorerOptions,
): Promise<boolean> {
  const pool = await getPool(env, poolId);
  if (!pool || pool.status !== "drawn" || pool.winnerEntryNumber !== entryNumber) return false;
  const record = await nextLogRecord(env, poolId, {
    ...NO_TIP,
    kind: "void",
    blockHeight: pool.drawBlockHeight,
    reason,
    createdAt: now.getTime(),
  });
  const voided = await voidWinningDraw(getDb(env), poolId, entryNumber, record);
  if (voided) {
    await initPoolObject(env, pool);
    await poolStub(env, poolId).reopenDraw();
    // A fresh commitment past the tip at the time of the void (or by the next cron run when the explorers cannot say).
    await commitDrawHeight(env, poolId, options);
  }
  return voided;
}

// --- the cron -------------------------------------------------------------------------------------------------

export interface PoolCronSummary {
  closed: { poolId: string; reason: string }[];
  committed: { poolId: string; height: number }[];
  drawn: string[];
  waiting: { poolId: string; reason: string }[];
  errors: { poolId: string; error: string }[];
  reapplied: string[];
  /** Hosts whose games passed their end date this run (ended, entries admitted). */
  gamesEnded: number;
}

/**
 * One cron run: re-applies contributions no pool object confirmed (and pending carry-overs), closes open pools that
 * are past their end (timer_expired) or at their target (target_reached, normally done by the object's alarm
 * already), commits block heights for closed pools lacking one, and draws committed pools whose block is ready. A
 * zero-entry pool stays 'closed' with no height and no winner (its amount went to the host's next pool).
 */
export async function runPoolCron(env: Env, now: Date, options?: ExplorerOptions): Promise<PoolCronSummary> {
  const summary: PoolCronSummary = {
    closed: [],
    committed: [],
    drawn: [],
    waiting: [],
    errors: [],
    reapplied: [],
    gamesEnded: 0,
  };
  const db = getDb(env);
  const fail = (poolId: string, error: unknown) => {
    console.error("pool cron:", poolId, error);
    summary.errors.push({ poolId, error: error instanceof Error ? error.message : String(error) });
  };

  // Games past their end date end now; their correct guesses' entries go to their host's open pool.
  try {
    const games = await endExpiredGamesAndAdmit(env, now);
    summary.gamesEnded = games.hosts;
  } catch (error) {
    fail("games", error);
  }

  const recovery = await reapplyReservations(env, now, CRON_BATCH);
  summary.reapplied = recovery.reapplied;
  for (const failure of recovery.errors) fail(failure.sourceKey, failure.error);

  for (const pool of await listPoolsDueToClose(db, now, CRON_BATCH)) {
    const reason = poolCloseReason(pool.amountCents, pool.targetCents, pool.entriesCount, pool.endAt, now);
    if (!reason) continue;
    try {
      const state = await closePool(env, pool.id, reason);
      summary.closed.push({ poolId: pool.id, reason: state.closeReason ?? reason });
    } catch (error) {
      fail(pool.id, error);
    }
  }

  const uncommitted = await listUncommittedPools(db, CRON_BATCH);
  if (uncommitted.length > 0) {
    const agreed = await agreedTip(env, options);
    const decision = agreed.ok ? decideCommitment(agreed.tips, agreed.tip, now) : agreed;
    for (const pool of uncommitted) {
      if (!decision.ok) {
        summary.waiting.push({ poolId: pool.id, reason: decision.reason });
        continue;
      }
      try {
        const height = await commitDrawHeight(env, pool.id, { ...options, agreed, now });
        if (height !== null) summary.committed.push({ poolId: pool.id, height });
      } catch (error) {
        fail(pool.id, error);
      }
    }
  }

  const committed = await listCommittedPools(db, CRON_BATCH);
  if (committed.length === 0) return summary;
  // Every explorer's tip once per run: most committed pools are only waiting for confirmations.
  const tips = await explorerTips(resolve(env, options));
  if (tips.length < MIN_AGREEING_EXPLORERS) {
    const reason = `block explorers unavailable: ${tips.length} of ${MIN_AGREEING_EXPLORERS} answered`;
    console.warn("pool cron:", reason);
    for (const pool of committed) summary.waiting.push({ poolId: pool.id, reason });
    return summary;
  }
  for (const pool of committed) {
    try {
      const outcome = await drawPool(env, pool.id, { ...options, tips });
      if (outcome.status === "drawn") summary.drawn.push(pool.id);
      else if (outcome.status === "redrawn") {
        summary.waiting.push({
          poolId: pool.id,
          reason:
            outcome.nextHeight === null
              ? "redraw: a new block is committed on the next run"
              : `redraw at block ${outcome.nextHeight}`,
        });
      } else summary.waiting.push({ poolId: pool.id, reason: outcome.reason });
    } catch (error) {
      fail(pool.id, error);
    }
  }
  return summary;
}
