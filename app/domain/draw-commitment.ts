// Committing a closed pool's draw to a future Bitcoin block, and accepting that block (DESIGN decision 5,
// docs/decisions/390-a-draw-nobody-can-steer.md). Pure (Web Crypto and BigInt only): the cron commits and accepts by
// these rules, and the verification page checks every recorded commitment and draw against them in the browser.

import { blockHashFromHeader, buildBlockHeader, sha256Hex, type BitcoinBlock } from "./draw";

/** The committed block is this many blocks past the highest tip the explorers report. */
export const DRAW_COMMIT_MARGIN = 3;
/** Explorers (on different hosts) that must answer, for a tip and for a block. */
export const MIN_AGREEING_EXPLORERS = 2;
/** A tip more than this many blocks (plus one per TIP_ALLOWANCE_MINUTES_PER_BLOCK since the agreed tip) above the agreed tip is ignored. */
export const TIP_ALLOWANCE_BLOCKS = 6;
export const TIP_ALLOWANCE_MINUTES_PER_BLOCK = 5;
/**
 * Block times may run about 2 hours either way of real time (a node accepts a header up to 2 hours ahead of its
 * clock, and miners' clocks lag). An agreed tip whose header time is more than this before the commitment means the
 * explorers are lagging (no commitment this run); a drawn block's time must be later than the commitment minus this.
 */
export const BLOCK_TIME_TOLERANCE_MS = 2 * 60 * 60 * 1000;

const MS_PER_MINUTE = 60_000;

/** One explorer's answer for its chain tip. */
export interface ExplorerTip {
  explorer: string;
  height: number;
}

/** The tip at least two explorers agree on, with its header time (Unix seconds). */
export interface AgreedTipHeader {
  height: number;
  hash: string;
  /** The tip block's header time, Unix seconds. */
  time: number;
}

/**
 * The agreed height: the highest height at least MIN_AGREEING_EXPLORERS of the answering explorers have reached (the
 * second-highest tip), or null when fewer answered. A lagging explorer cannot lower it while two others are ahead.
 */
export function agreedTipHeight(tips: readonly ExplorerTip[]): number | null {
  if (tips.length < MIN_AGREEING_EXPLORERS) return null;
  const heights = tips.map((tip) => tip.height).sort((a, b) => b - a);
  return heights[MIN_AGREEING_EXPLORERS - 1]!;
}

/** How far above the agreed tip a reported tip may be: 6 + (minutes since the agreed tip's header time ÷ 5). */
export function tipAllowance(agreedTipTime: number, now: Date | number): number {
  const minutes = Math.max(0, (Number(now) - agreedTipTime * 1000) / MS_PER_MINUTE);
  return TIP_ALLOWANCE_BLOCKS + Math.floor(minutes / TIP_ALLOWANCE_MINUTES_PER_BLOCK);
}

export type CommitmentDecision = { ok: true; blockHeight: number; highestTip: number } | { ok: false; reason: string };

/**
 * The height a closing pool commits to: DRAW_COMMIT_MARGIN past the highest tip among the answering explorers,
 * ignoring a tip further above the agreed tip than tipAllowance. No commitment when fewer than two explorers
 * answered, or when the agreed tip's header time is more than BLOCK_TIME_TOLERANCE_MS before now (the explorers are
 * lagging: the next run tries again).
 */
export function decideCommitment(
  tips: readonly ExplorerTip[],
  agreed: AgreedTipHeader,
  now: Date | number,
): CommitmentDecision {
  if (tips.length < MIN_AGREEING_EXPLORERS) {
    return { ok: false, reason: `${tips.length} of ${MIN_AGREEING_EXPLORERS} block explorers answered for the tip` };
  }
  if (agreed.time * 1000 < Number(now) - BLOCK_TIME_TOLERANCE_MS) {
    return {
      ok: false,
      reason: `the explorers are lagging: the agreed tip ${agreed.height} is from ${new Date(agreed.time * 1000).toISOString()}`,
    };
  }
  const allowance = tipAllowance(agreed.time, now);
  const heard = tips
    .map((tip) => tip.height)
    .filter((height) => height >= agreed.height && height - agreed.height <= allowance);
  const highestTip = Math.max(agreed.height, ...heard);
  return { ok: true, blockHeight: highestTip + DRAW_COMMIT_MARGIN, highestTip };
}

// --- the public log ---------------------------------------------------------------------------------------------

export const COMMITMENT_KINDS = ["commit", "void", "delay"] as const;
export type CommitmentKind = (typeof COMMITMENT_KINDS)[number];

/** One record of a pool's append-only draw log: a commitment, a void of a draw, or a refused block. */
export interface CommitmentRecord {
  poolId: string;
  /** 0, 1, 2... per pool. */
  seq: number;
  kind: CommitmentKind;
  /** A commit: the committed height. A void or delay: the height that was given up. */
  blockHeight: number | null;
  /** A commit: the agreed tip (height, hash, header time in Unix seconds) and the highest tip heard. */
  tipHeight: number | null;
  tipHash: string | null;
  tipTime: number | null;
  highestTip: number | null;
  reason: string | null;
  /** When the record was made, ms since the epoch (a commit: the time of commitment). */
  createdAt: number;
  /** The previous record's hash (GENESIS_LOG_HASH for the first). */
  prevHash: string;
  /** SHA-256 of prevHash and this record's canonical line. */
  hash: string;
}

export const GENESIS_LOG_HASH = "0".repeat(64);

/** The canonical line of a record (every field, "-" for none), hashed with the previous record's hash. */
export function commitmentLine(record: Omit<CommitmentRecord, "hash" | "prevHash">): string {
  const field = (value: string | number | null) => (value === null ? "-" : String(value).replace(/[|\n]/g, " "));
  return [
    record.poolId,
    record.seq,
    record.kind,
    record.blockHeight,
    record.tipHeight,
    record.tipHash,
    record.tipTime,
    record.highestTip,
    record.createdAt,
    record.reason,
  ]
    .map(field)
    .join("|");
}

/** The hash of a record: SHA-256 hex of `${prevHash}\n${line}`. */
export function commitmentHash(prevHash: string, record: Omit<CommitmentRecord, "hash" | "prevHash">): Promise<string> {
  return sha256Hex(`${prevHash}\n${commitmentLine(record)}`);
}

/** The log's records chain: numbered from 0, each naming the previous record's hash and hashing to its own. */
export async function verifyCommitmentLog(
  records: readonly CommitmentRecord[],
): Promise<{ ok: true } | { ok: false; reason: string }> {
  let prev = GENESIS_LOG_HASH;
  for (const [index, record] of [...records].sort((a, b) => a.seq - b.seq).entries()) {
    if (record.seq !== index) return { ok: false, reason: `record ${index} is missing` };
    if (record.prevHash !== prev)
      return { ok: false, reason: `record ${index} does not name the previous record's hash` };
    if ((await commitmentHash(prev, record)) !== record.hash)
      return { ok: false, reason: `record ${index} does not hash to its recorded hash` };
    prev = record.hash;
  }
  return { ok: true };
}

/** A commitment record obeys the rule it was made by: margin past the highest tip, tip allowance, explorers not lagging. */
export function checkCommitmentRule(record: CommitmentRecord): { ok: true } | { ok: false; reason: string } {
  if (record.kind !== "commit") return { ok: false, reason: "not a commitment" };
  const { blockHeight, tipHeight, tipHash, tipTime, highestTip } = record;
  if (blockHeight === null || tipHeight === null || tipHash === null || tipTime === null || highestTip === null) {
    return { ok: false, reason: "the commitment does not record its tip (height, hash and header time)" };
  }
  if (highestTip < tipHeight)
    return { ok: false, reason: `the highest tip ${highestTip} is below the agreed tip ${tipHeight}` };
  if (highestTip - tipHeight > tipAllowance(tipTime, record.createdAt)) {
    return { ok: false, reason: `the highest tip ${highestTip} is too far above the agreed tip ${tipHeight}` };
  }
  if (blockHeight !== highestTip + DRAW_COMMIT_MARGIN) {
    return {
      ok: false,
      reason: `block ${blockHeight} is not ${DRAW_COMMIT_MARGIN} past the highest tip ${highestTip}`,
    };
  }
  if (tipTime * 1000 < record.createdAt - BLOCK_TIME_TOLERANCE_MS) {
    return {
      ok: false,
      reason: `the agreed tip's time is more than 2 hours before the commitment: the explorers lagged`,
    };
  }
  return { ok: true };
}

// --- accepting the committed block ------------------------------------------------------------------------------

/** The header fields a chain link needs (as stored with a draw: every block between the tip and the drawn block). */
export type ChainHeader = BitcoinBlock;

export type AcceptanceCheck = { ok: true } | { ok: false; reason: string };

/**
 * The drawn block descends from the recorded tip: `headers` are the blocks from tip + 1 to block − 1 in height
 * order, each rebuilt header hashing to its id, the first naming the tip's hash as its previous block, each next
 * naming the one before, and the block naming the last. Offline: only the stored headers are needed.
 */
export async function checkChainFromTip(
  commitment: { tipHeight: number; tipHash: string },
  headers: readonly ChainHeader[],
  block: BitcoinBlock & { height: number },
): Promise<AcceptanceCheck> {
  if (headers.length !== block.height - commitment.tipHeight - 1) {
    return {
      ok: false,
      reason: `${headers.length} headers stored between the tip ${commitment.tipHeight} and block ${block.height}`,
    };
  }
  let prev = commitment.tipHash.toLowerCase();
  for (const [index, header] of [...headers, block].entries()) {
    let hash: string;
    try {
      hash = await blockHashFromHeader(buildBlockHeader(header));
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
    const height = commitment.tipHeight + 1 + index;
    if (hash !== header.id.toLowerCase())
      return { ok: false, reason: `the header of block ${height} does not hash to ${header.id}` };
    if (header.previousblockhash.toLowerCase() !== prev) {
      return { ok: false, reason: `block ${height} does not descend from the recorded tip ${commitment.tipHash}` };
    }
    prev = hash;
  }
  return { ok: true };
}

/** The drawn block's time is later than the commitment minus BLOCK_TIME_TOLERANCE_MS: it was not mined before it. */
export function checkBlockTime(committedAt: number, blockTime: number): AcceptanceCheck {
  if (blockTime * 1000 > committedAt - BLOCK_TIME_TOLERANCE_MS) return { ok: true };
  return {
    ok: false,
    reason: `block time ${new Date(blockTime * 1000).toISOString()} is not later than the commitment (${new Date(committedAt).toISOString()}) minus 2 hours`,
  };
}

/** Every acceptance rule but the explorers' agreement: at the committed height, descending from the tip, recent enough. */
export async function checkBlockAcceptance(
  commitment: Pick<CommitmentRecord, "blockHeight" | "tipHeight" | "tipHash" | "createdAt">,
  headers: readonly ChainHeader[],
  block: BitcoinBlock & { height: number },
): Promise<AcceptanceCheck> {
  if (commitment.blockHeight !== block.height)
    return { ok: false, reason: `block ${block.height} is not the committed block ${commitment.blockHeight}` };
  if (commitment.tipHeight === null || commitment.tipHash === null)
    return { ok: false, reason: "the commitment records no tip" };
  const chain = await checkChainFromTip(
    { tipHeight: commitment.tipHeight, tipHash: commitment.tipHash },
    headers,
    block,
  );
  if (!chain.ok) return chain;
  return checkBlockTime(commitment.createdAt, block.timestamp);
}
