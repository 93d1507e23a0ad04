// Recomputing a pool's draw from its published inputs: the opaque entries.txt, its digest, and every draw (block
// height, hash and header fields, the published winning entry, void or not). Pure (Web Crypto and BigInt only): the
// server draws with the same rules (pickWinner, redrawExclusions) and the verification page runs this in the browser.

import {
  bytesToHex,
  parseEntriesText,
  pickWinner,
  verifyDrawBlock,
  type BitcoinBlock,
  type BlockVerification,
  type FrozenEntry,
} from "./draw";

/** One published draw of a pool, first attempt first. A void draw was redrawn from the next block. */
export interface PublishedDraw {
  attempt: number;
  blockHeight: number;
  blockHash: string;
  /** The header fields stored with the draw (rebuilt and hashed by the verifier), or null when not published. */
  block: BitcoinBlock | null;
  winnerEntryNumber: number;
  voided: boolean;
  voidReason?: string | null;
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
  draws: DrawRecomputation[];
  /** Every check passed: digest, list, each draw's header and winner. */
  ok: boolean;
}

/** SHA-256 hex of the exact bytes (the published digest is taken over entries.txt as served). */
export async function digestOf(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(data))));
}

/** Recomputes every draw's winner from the frozen list: each draw leaves out the winners of the voided draws before it. */
export function recomputeDraws(entries: readonly FrozenEntry[], draws: readonly PublishedDraw[]): Omit<DrawRecomputation, "header">[] {
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
      header: header && header.ok && !heightOk ? { ok: false, reason: `the header is for block ${published.block!.height}` } : header,
    });
  }
  const voidEntries = entries.filter((entry) => entry.voided).length;
  return {
    computedDigest,
    digestMatches,
    parsed: error === null,
    error,
    entries: entries.length,
    validEntries: entries.length - voidEntries,
    voidEntries,
    draws,
    ok: digestMatches && error === null && draws.every((draw) => draw.matches && draw.header?.ok === true),
  };
}
