// The public commitment log (docs/decisions/550-a-commitment-log-nobody-can-rewrite.md, docs/product.md#the-public-log):
// one append-only, hash-chained log across every pool. Each commitment, void of a draw and refused block of any pool
// appends a record beside the pool's own draw log record (decision 390) in the same batch; record n carries the hash of
// record n-1. Pure (Web Crypto only): the server appends by these rules and the verification page checks, in the
// browser, that the chain a person kept is still the prefix of today's chain, and the path from a pool's record to
// the head.

import { sha256Hex } from "./draw";
import { COMMITMENT_KINDS, GENESIS_LOG_HASH } from "./draw-commitment";

/** "genesis" is record 0 only (written by migration 0030); the others mirror a pool's draw log record. */
export const TRANSPARENCY_KINDS = ["genesis", ...COMMITMENT_KINDS] as const;
export type TransparencyKind = (typeof TRANSPARENCY_KINDS)[number];

/** Records per page of /transparency and /transparency.json. */
export const TRANSPARENCY_PAGE_SIZE = 100;

/** One explorer's tip as heard when the commitment was made. */
export interface TipSeen {
  explorer: string;
  height: number;
}

/** One record of the public log. */
export interface TransparencyRecord {
  /** 0 (the genesis record), 1, 2... dense across all pools: the order of the log. */
  seq: number;
  kind: TransparencyKind;
  /** The pool and its own draw log record (seq and hash) this record mirrors; null for the genesis record. */
  poolId: string | null;
  poolSeq: number | null;
  poolRecordHash: string | null;
  /** The pool's published entries digest when the record was made. */
  entriesDigest: string | null;
  /** Valid (not void) entries of the pool's frozen list by source (prize_entries.source_type). */
  entryCounts: Record<string, number>;
  /** A commit: the committed height. A void or refused block: the height given up. */
  blockHeight: number | null;
  /** A commit: the agreed tip (height, hash, header time in Unix seconds) and the highest tip heard. */
  tipHeight: number | null;
  tipHash: string | null;
  tipTime: number | null;
  highestTip: number | null;
  /** A commit: every answering explorer's tip. */
  tipsSeen: TipSeen[];
  reason: string | null;
  /** When the pool's record was made, ms since the epoch. */
  createdAt: number;
  /** The previous record's hash (64 zeros for the genesis record). */
  prevHash: string;
  /** SHA-256 hex of `${prevHash}\n${transparencyLine(record)}`. */
  hash: string;
}

export type TransparencyBody = Omit<TransparencyRecord, "prevHash" | "hash">;

/** The head of the log: its last record's number and hash (what a person keeps to check the log later). */
export interface LogHead {
  seq: number;
  hash: string;
}

/**
 * The genesis record: the log starts here (migration 0030 inserts it with GENESIS_TRANSPARENCY_HASH).
 * @public the test that recomputes the migration's literal hashes it
 */
export const GENESIS_TRANSPARENCY_BODY: TransparencyBody = {
  seq: 0,
  kind: "genesis",
  poolId: null,
  poolSeq: null,
  poolRecordHash: null,
  entriesDigest: null,
  entryCounts: {},
  blockHeight: null,
  tipHeight: null,
  tipHash: null,
  tipTime: null,
  highestTip: null,
  tipsSeen: [],
  reason: "The public commitment log starts here",
  createdAt: Date.UTC(2026, 10, 26),
};
/**
 * transparencyHash(GENESIS_LOG_HASH, GENESIS_TRANSPARENCY_BODY), written literally by migration 0030 (a test checks it).
 * @public the seed chains its records after it
 */
export const GENESIS_TRANSPARENCY_HASH = "3982340c52e0fc3c893c3ddefdff51f9dab3eb98d01839fa874bbed96479cf3f";

/**
 * The canonical line of a record: a JSON array of every field but the hashes, in this order, entry counts as
 * [source, count] pairs sorted by source and tips as [explorer, height] pairs in the order heard. JSON keeps it
 * unambiguous whatever a reason or an explorer address contains.
 */
export function transparencyLine(record: TransparencyBody): string {
  const counts = Object.keys(record.entryCounts)
    .sort()
    .map((source) => [source, record.entryCounts[source]!]);
  return JSON.stringify([
    record.seq,
    record.kind,
    record.poolId,
    record.poolSeq,
    record.poolRecordHash,
    record.entriesDigest,
    counts,
    record.blockHeight,
    record.tipHeight,
    record.tipHash,
    record.tipTime,
    record.highestTip,
    record.tipsSeen.map((tip) => [tip.explorer, tip.height]),
    record.reason,
    record.createdAt,
  ]);
}

/** The hash of a record: SHA-256 hex of `${prevHash}\n${line}`. */
export function transparencyHash(prevHash: string, record: TransparencyBody): Promise<string> {
  return sha256Hex(`${prevHash}\n${transparencyLine(record)}`);
}

/** The record after `head`: numbered next and chained to its hash. */
export async function nextTransparencyRecord(
  head: LogHead,
  body: Omit<TransparencyBody, "seq">,
): Promise<TransparencyRecord> {
  const record = { ...body, seq: head.seq + 1 };
  return { ...record, prevHash: head.hash, hash: await transparencyHash(head.hash, record) };
}

/** Why a pool's record was made, in words (the public log's reason): a commitment says which one it is. */
export function transparencyReason(
  kind: (typeof COMMITMENT_KINDS)[number],
  poolReason: string | null,
  previousKind: (typeof COMMITMENT_KINDS)[number] | null,
): string {
  if (kind === "void") return `draw voided: ${poolReason ?? "the winning payment was reversed"}`;
  if (kind === "delay") return `committed block refused: ${poolReason ?? "it failed the acceptance rules"}`;
  if (previousKind === "void") return "redraw: committed afresh after the draw was voided";
  if (previousKind === "delay") return "committed afresh after a refused block";
  return "commitment at close";
}

export type ChainCheck = { ok: true } | { ok: false; seq: number; reason: string };

/**
 * A run of records (any order; checked by seq) chains: dense numbers, each naming the previous record's hash and
 * hashing to its own. The first record's own hash is recomputed too (an edited record shows), and when it is the
 * genesis record it must name 64 zeros. An edit anywhere breaks the hash of that record.
 */
export async function verifyTransparencyChain(records: readonly TransparencyRecord[]): Promise<ChainCheck> {
  const ordered = [...records].sort((a, b) => a.seq - b.seq);
  let previous: TransparencyRecord | null = null;
  for (const record of ordered) {
    if (previous && record.seq !== previous.seq + 1) {
      return { ok: false, seq: previous.seq + 1, reason: `record ${previous.seq + 1} is missing` };
    }
    if (record.seq === 0 && record.prevHash !== GENESIS_LOG_HASH) {
      return { ok: false, seq: 0, reason: "the genesis record does not name 64 zeros as its previous hash" };
    }
    if (previous && record.prevHash !== previous.hash) {
      return { ok: false, seq: record.seq, reason: `record ${record.seq} does not name record ${previous.seq}'s hash` };
    }
    if ((await transparencyHash(record.prevHash, record)) !== record.hash) {
      return {
        ok: false,
        seq: record.seq,
        reason: `record ${record.seq} does not hash to its published hash: it was edited`,
      };
    }
    previous = record;
  }
  return { ok: true };
}

/**
 * The current chain extends `anchor` (a head a person kept, or a pool's record): `records` run from the anchor's seq
 * to the head, the record at the anchor's seq still has the anchor's hash, and every record from there chains to the
 * head. A chain rewritten consistently (every later hash recomputed) passes the chain check but not the anchor: the
 * kept hash no longer appears at its seq.
 */
export async function checkExtends(
  records: readonly TransparencyRecord[],
  anchor: LogHead,
  head: LogHead,
): Promise<ChainCheck> {
  const ordered = [...records].sort((a, b) => a.seq - b.seq);
  const first = ordered[0];
  if (!first || first.seq !== anchor.seq) {
    return { ok: false, seq: anchor.seq, reason: `the log has no record ${anchor.seq}` };
  }
  if (first.hash !== anchor.hash.toLowerCase()) {
    return {
      ok: false,
      seq: anchor.seq,
      reason: `record ${anchor.seq} now has the hash ${first.hash}, not ${anchor.hash.toLowerCase()}: the log was rewritten since`,
    };
  }
  const chain = await verifyTransparencyChain(ordered);
  if (!chain.ok) return chain;
  const last = ordered.at(-1)!;
  if (last.seq !== head.seq || last.hash !== head.hash) {
    return { ok: false, seq: last.seq, reason: `the records end at ${last.seq}, not at the head ${head.seq}` };
  }
  return { ok: true };
}

/** A kept head as typed into the verification form: a record number and a 64-hex-digit hash. */
export function parseKeptHead(seqText: string, hashText: string): LogHead | { error: string } {
  const seq = seqText.trim();
  const hash = hashText.trim().toLowerCase();
  if (!/^\d{1,12}$/.test(seq)) return { error: "Enter the record number you kept (a whole number)." };
  if (!/^[0-9a-f]{64}$/.test(hash)) return { error: "Enter the record hash you kept (64 hexadecimal digits)." };
  return { seq: Number(seq), hash };
}

// --- reading the JSON pages in the browser --------------------------------------------------------------------------

const isInt = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value);
const isIntOrNull = (value: unknown) => value === null || isInt(value);
const isStringOrNull = (value: unknown) => value === null || typeof value === "string";

/** A record from /transparency.json, or null when it is not one (the browser checks shapes without zod). */
export function readTransparencyRecord(value: unknown): TransparencyRecord | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (!isInt(v.seq) || !isInt(v.createdAt)) return null;
  if (typeof v.kind !== "string" || !(TRANSPARENCY_KINDS as readonly string[]).includes(v.kind)) return null;
  if (typeof v.prevHash !== "string" || typeof v.hash !== "string") return null;
  for (const key of ["poolId", "poolRecordHash", "entriesDigest", "tipHash", "reason"]) {
    if (!isStringOrNull(v[key])) return null;
  }
  for (const key of ["poolSeq", "blockHeight", "tipHeight", "tipTime", "highestTip"]) {
    if (!isIntOrNull(v[key])) return null;
  }
  const counts = v.entryCounts;
  if (typeof counts !== "object" || counts === null || Array.isArray(counts)) return null;
  if (!Object.values(counts).every(isInt)) return null;
  if (!Array.isArray(v.tipsSeen)) return null;
  const tips: TipSeen[] = [];
  for (const tip of v.tipsSeen as unknown[]) {
    if (typeof tip !== "object" || tip === null) return null;
    const t = tip as Record<string, unknown>;
    if (typeof t.explorer !== "string" || !isInt(t.height)) return null;
    tips.push({ explorer: t.explorer, height: t.height });
  }
  return {
    seq: v.seq,
    kind: v.kind as TransparencyKind,
    poolId: v.poolId as string | null,
    poolSeq: v.poolSeq as number | null,
    poolRecordHash: v.poolRecordHash as string | null,
    entriesDigest: v.entriesDigest as string | null,
    entryCounts: { ...(counts as Record<string, number>) },
    blockHeight: v.blockHeight as number | null,
    tipHeight: v.tipHeight as number | null,
    tipHash: v.tipHash as string | null,
    tipTime: v.tipTime as number | null,
    highestTip: v.highestTip as number | null,
    tipsSeen: tips,
    reason: v.reason as string | null,
    createdAt: v.createdAt,
    prevHash: v.prevHash,
    hash: v.hash,
  };
}

/** The path of the JSON page of records from `seq` on, oldest first (how a verifier walks to the head). */
export function transparencyFromPath(seq: number): string {
  return `/transparency.json?from=${seq}`;
}

/**
 * Fetches the records from `from` to the head by following the JSON pages' `next` links (oldest first), reading each
 * record's shape. `getJson` is fetch in the browser, the worker in tests. Stops after `maxPages`.
 */
export async function fetchLogFrom(
  getJson: (path: string) => Promise<unknown>,
  from: number,
  maxPages = 1000,
): Promise<{ head: LogHead; records: TransparencyRecord[] }> {
  const records: TransparencyRecord[] = [];
  let path: string | null = transparencyFromPath(from);
  let head: LogHead | null = null;
  for (let page = 0; path && page < maxPages; page++) {
    const body = (await getJson(path)) as Record<string, unknown> | null;
    if (typeof body !== "object" || body === null || !Array.isArray(body.records)) {
      throw new Error(`${path} is not a page of the log`);
    }
    const pageHead = body.head as Record<string, unknown> | undefined;
    if (!head && pageHead && isInt(pageHead.seq) && typeof pageHead.hash === "string") {
      head = { seq: pageHead.seq, hash: pageHead.hash };
    }
    for (const value of body.records as unknown[]) {
      const record = readTransparencyRecord(value);
      if (!record) throw new Error(`${path} holds a record in an unexpected shape`);
      if (!head || record.seq <= head.seq) records.push(record);
    }
    const last = records.at(-1);
    path = typeof body.next === "string" && head && last && last.seq < head.seq ? body.next : null;
  }
  if (!head) throw new Error("the log did not say its head");
  return { head, records };
}

// --- what a pool page and a notice carry ----------------------------------------------------------------------------

/** A pool's latest record in the public log (null before its first commitment) and the log's head at that moment. */
export interface PoolLogStamp {
  record: LogHead | null;
  head: LogHead;
}

/** The stamp in words, for a notice: the pool's record and the head, to keep and check on the verification page. */
export function poolLogStampText(stamp: PoolLogStamp): string {
  const record = stamp.record
    ? `This pool's record in the public commitment log: #${stamp.record.seq}, SHA-256 ${stamp.record.hash}.`
    : "This pool has no record in the public commitment log yet.";
  return `${record} The log's head when this was sent: #${stamp.head.seq}, SHA-256 ${stamp.head.hash}. Keep them: the verification page proves the log still extends them.`;
}

/** How the log names each entry source (prize_entries.source_type; "unrecorded" for an entry stored without one). */
export const ENTRY_SOURCE_LABELS: Record<string, string> = {
  product_purchase: "purchases",
  guess_entry: "correct guesses",
  group_buy_entry: "group buys",
  share_bonus: "share bonuses",
  free_entry: "free entries",
  postal_entry: "postal entries",
  unrecorded: "unrecorded source",
};

/** "12 purchases, 3 free entries" (largest first), or "no valid entries". */
export function entryCountsText(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([source, count]) => `${count} ${ENTRY_SOURCE_LABELS[source] ?? source}`);
  return parts.length > 0 ? parts.join(", ") : "no valid entries";
}

// --- a pool's place in the log, checked in the browser --------------------------------------------------------------

export interface PoolLogReport {
  /** The pool's records in the public log are there as published and name the pool's own draw log records by hash. */
  mirrored: ChainCheck;
  /** The log from the pool's latest record to the head chains (null when the pool has no record in the log). */
  path: ChainCheck | null;
  /** The log still extends the head the person kept (null when none was given). */
  kept: ChainCheck | null;
}

/**
 * The checks the verification page runs on the records it fetched from the public log (oldest first, from the lower
 * of the kept head and the pool's first record, to the head): the pool's records in it name the pool's own draw log
 * records by their hashes, the path from the pool's latest record to the head chains, and the kept head is still there
 * with the chain from it to the head intact.
 */
export async function checkPoolInLog(input: {
  records: readonly TransparencyRecord[];
  head: LogHead;
  poolId: string;
  /** The pool's own draw log records (decision 390) with their hashes. */
  poolLog: readonly { seq: number; hash: string }[];
  /** The pool's records in the public log as this page published them. */
  published: readonly LogHead[];
  kept: LogHead | null;
}): Promise<PoolLogReport> {
  const bySeq = new Map(input.records.map((record) => [record.seq, record]));
  const fromSeq = (seq: number) => input.records.filter((record) => record.seq >= seq);
  let mirrored: ChainCheck = { ok: true };
  for (const published of input.published) {
    const record = bySeq.get(published.seq);
    const poolRecord = input.poolLog.find((entry) => entry.seq === record?.poolSeq);
    if (!record || record.hash !== published.hash) {
      mirrored = { ok: false, seq: published.seq, reason: `record ${published.seq} is not in the log as published` };
    } else if (record.poolId !== input.poolId || !poolRecord || poolRecord.hash !== record.poolRecordHash) {
      mirrored = {
        ok: false,
        seq: published.seq,
        reason: `record ${published.seq} does not name this pool's draw log record by its hash`,
      };
    }
    if (!mirrored.ok) break;
  }
  const latest = input.published.at(-1);
  const path = latest ? await checkExtends(fromSeq(latest.seq), latest, input.head) : null;
  const kept = input.kept ? await checkExtends(fromSeq(input.kept.seq), input.kept, input.head) : null;
  return { mirrored, path, kept };
}
