// Recomputing a pool's draw from its published inputs: the opaque entries.txt, its digest, and every draw (block
// height, hash and header fields, the published winning entry, void or not). Pure (Web Crypto and BigInt only): the
// server draws with the same rules (pickWinner, redrawExclusions) and the verification page runs this in the browser.

import {
  bytesToHex,
  ENTRY_LIST_SOURCES,
  parseEntriesText,
  pickWinner,
  verifyDrawBlock,
  type BitcoinBlock,
  type BlockVerification,
  type EntryListSource,
  type FrozenEntry,
} from "./draw";
import {
  checkBlockTime,
  checkChainFromTip,
  checkCommitmentRule,
  verifyCommitmentLog,
  type AcceptanceCheck,
  type CommitmentRecord,
} from "./draw-commitment";

/** One published draw of a pool, first attempt first. A void draw was redrawn from a fresh commitment. */
export interface PublishedDraw {
  attempt: number;
  blockHeight: number;
  blockHash: string;
  /** The header fields stored with the draw (rebuilt and hashed by the verifier), or null when not published. */
  block: BitcoinBlock | null;
  winnerEntryNumber: number;
  voided: boolean;
  voidReason?: string | null;
  /** The stored headers from the recorded tip + 1 to the block − 1. */
  chainHeaders?: BitcoinBlock[] | null;
  /** The log record (seq) of the commitment the draw was made under. */
  commitmentSeq?: number | null;
}

/**
 * The entries a draw leaves out: the winners of every earlier draw that was voided (their payment was reversed
 * before the prize settled). `draws` are the pool's draws before the one being made, in attempt order.
 */
export function redrawExclusions(draws: readonly { voided: boolean; winnerEntryNumber: number }[]): number[] {
  return draws.filter((draw) => draw.voided).map((draw) => draw.winnerEntryNumber);
}

export interface DrawRecomputation {
  attempt: number;
  blockHeight: number;
  blockHash: string;
  /** Entries left out as earlier voided winners. */
  excluded: number[];
  /** Valid entries (not void, not excluded) the hash was taken modulo. */
  validCount: number;
  /** BigInt(hash) mod validCount. */
  index: number | null;
  /** The valid entry at that position in entry-number order. */
  entryNumber: number | null;
  /** The recomputed winner equals the published one. */
  matches: boolean;
  /** The header rebuilt from its fields hashes to the block hash, meets its target and the difficulty floor. */
  header: BlockVerification | null;
  voided: boolean;
  voidReason: string | null;
  /** The commitment obeys the rule: 3 past the highest tip, within the tip allowance, explorers not lagging. */
  commitment: AcceptanceCheck;
  /** The block descends from the recorded tip through the stored headers. */
  chain: AcceptanceCheck;
  /** The block's time is later than the commitment minus 2 hours. */
  blockTime: AcceptanceCheck;
}

export interface DrawVerificationReport {
  /** SHA-256 hex of the downloaded entries.txt bytes. */
  computedDigest: string;
  /** It equals the published digest. */
  digestMatches: boolean;
  /** The list could be read as entries.txt (else `error`). */
  parsed: boolean;
  error: string | null;
  entries: number;
  validEntries: number;
  voidEntries: number;
  /** A form 2 list (decision 530): how many entries each source earned, in ENTRY_LIST_SOURCES order; else null. */
  sources: { source: EntryListSource; count: number }[] | null;
  draws: DrawRecomputation[];
  /** The pool's draw log chains: every record names the previous one's hash and hashes to its own. */
  log: AcceptanceCheck;
  /** Every check passed: digest, list, log, and each draw's commitment, descent, time, header and winner. */
  ok: boolean;
}

/** SHA-256 hex of the exact bytes (the published digest is taken over entries.txt as served). */
export async function digestOf(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(data))));
}

/** Recomputes every draw's winner from the frozen list: each draw leaves out the winners of the voided draws before it. */
export function recomputeDraws(
  entries: readonly FrozenEntry[],
  draws: readonly PublishedDraw[],
): Omit<DrawRecomputation, "header" | "commitment" | "chain" | "blockTime">[] {
  const ordered = [...draws].sort((a, b) => a.attempt - b.attempt);
  return ordered.map((draw, i) => {
    const excluded = redrawExclusions(ordered.slice(0, i));
    let index: number | null = null;
    let entryNumber: number | null = null;
    let validCount = 0;
    try {
      const pick = pickWinner(entries, draw.blockHash, excluded);
      ({ index, entryNumber, validCount } = pick);
    } catch {
      // No valid entry left, or a malformed hash: no winner can be recomputed.
    }
    return {
      attempt: draw.attempt,
      blockHeight: draw.blockHeight,
      blockHash: draw.blockHash,
      excluded,
      validCount,
      index,
      entryNumber,
      matches: entryNumber !== null && entryNumber === draw.winnerEntryNumber,
      voided: draw.voided,
      voidReason: draw.voidReason ?? null,
    };
  });
}

/**
 * The whole check: the digest of the downloaded entries.txt, its lines (opaque keys, void entries marked), and for
 * each draw its header (double SHA-256, proof of work, difficulty floor) and winner (the valid entry at position
 * BigInt(hash) mod valid entries, in entry-number order, earlier voided winners left out).
 */
export async function verifyPublishedDraw(input: {
  entriesText: Uint8Array | string;
  publishedDigest: string | null;
  draws: readonly PublishedDraw[];
  /** The pool's draw log (commitments, voids, refused blocks). */
  log: readonly CommitmentRecord[];
}): Promise<DrawVerificationReport> {
  const computedDigest = await digestOf(input.entriesText);
  const digestMatches = input.publishedDigest !== null && computedDigest === input.publishedDigest.toLowerCase();
  const text = typeof input.entriesText === "string" ? input.entriesText : new TextDecoder().decode(input.entriesText);
  let entries: FrozenEntry[] = [];
  let error: string | null = null;
  try {
    entries = parseEntriesText(text);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const recomputed = error === null ? recomputeDraws(entries, input.draws) : [];
  const draws: DrawRecomputation[] = [];
  for (const draw of recomputed) {
    const published = input.draws.find((d) => d.attempt === draw.attempt)!;
    const header = published.block ? await verifyDrawBlock({ ...published.block, id: published.blockHash }) : null;
    const heightOk = !published.block?.height || published.block.height === published.blockHeight;
    draws.push({
      ...draw,
      header:
        header && header.ok && !heightOk
          ? { ok: false, reason: `the header is for block ${published.block!.height}` }
          : header,
      ...(await checkAgainstCommitment(published, input.log)),
    });
  }
  const log = await verifyCommitmentLog(input.log);
  const voidEntries = entries.filter((entry) => entry.voided).length;
  const sources =
    entries.length > 0 && entries[0]!.source !== undefined
      ? ENTRY_LIST_SOURCES.map((source) => ({
          source,
          count: entries.filter((entry) => entry.source === source).length,
        })).filter((row) => row.count > 0)
      : null;
  return {
    computedDigest,
    digestMatches,
    parsed: error === null,
    error,
    entries: entries.length,
    validEntries: entries.length - voidEntries,
    voidEntries,
    sources,
    draws,
    log,
    ok:
      digestMatches &&
      error === null &&
      log.ok &&
      draws.every(
        (draw) => draw.matches && draw.header?.ok === true && draw.commitment.ok && draw.chain.ok && draw.blockTime.ok,
      ),
  };
}

/**
 * A draw against the commitment it was made under: the record exists and is for its height, obeys the commitment
 * rule, the block descends from its recorded tip through the stored headers, and its time is later than the
 * commitment minus 2 hours.
 */
async function checkAgainstCommitment(
  draw: PublishedDraw,
  log: readonly CommitmentRecord[],
): Promise<Pick<DrawRecomputation, "commitment" | "chain" | "blockTime">> {
  const record = log.find((r) => r.seq === draw.commitmentSeq && r.kind === "commit");
  if (!record || record.blockHeight !== draw.blockHeight) {
    const missing = { ok: false as const, reason: `no recorded commitment to block ${draw.blockHeight}` };
    return { commitment: missing, chain: missing, blockTime: missing };
  }
  const commitment = checkCommitmentRule(record);
  if (!draw.block || record.tipHeight === null || record.tipHash === null) {
    const unknown = {
      ok: false as const,
      reason: draw.block ? "the commitment records no tip" : "the block header is not published",
    };
    return { commitment, chain: unknown, blockTime: unknown };
  }
  const block = { ...draw.block, id: draw.blockHash, height: draw.blockHeight };
  const chain = await checkChainFromTip(
    { tipHeight: record.tipHeight, tipHash: record.tipHash },
    draw.chainHeaders ?? [],
    block,
  );
  return { commitment, chain, blockTime: checkBlockTime(record.createdAt, block.timestamp) };
}
