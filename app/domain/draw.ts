// The verifiable draw. When a pool closes its entry list is frozen and published as entries.txt (entry numbers and
// opaque keys, void entries marked) with its SHA-256 digest; the winner is the valid entry at position
// BigInt(block hash) mod (valid entries) of a later Bitcoin block whose header is rebuilt from its fields and checked
// (double SHA-256 equals the id, hash within the proof-of-work target, difficulty at least MIN_BLOCK_DIFFICULTY).
// Uses only Web Crypto, so the same code runs in the Worker and in the browser on the public verification page.

// The commitment and acceptance rules (DRAW_COMMIT_MARGIN...) live in ./draw-commitment.ts.

/** Entry numbers start at 0, so the winner index is the winning entry number. */
export const FIRST_ENTRY_NUMBER = 0;

export const INVALID_HASH_MESSAGE = "Invalid hexadecimal hash";
export const NO_PARTICIPANTS_MESSAGE = "No participants available for winner selection";

/** Winner demo on /winner-selection: participant count 2..10000, default 200. */
export const DEMO_PARTICIPANTS_MIN = 2;
export const DEMO_PARTICIPANTS_MAX = 10_000;
export const DEMO_PARTICIPANTS_DEFAULT = 200;

const HEX = /^[0-9a-f]+$/i;
const HASH_HEX = /^[0-9a-f]{64}$/i;

function hashDigits(blockHashHex: string): string {
  const hex = blockHashHex.trim().replace(/^0x/i, "");
  if (!HEX.test(hex)) throw new Error(INVALID_HASH_MESSAGE);
  return hex;
}

/** The block hash as a decimal number (the "decimal hash" shown next to the winner). */
export function hashToDecimal(blockHashHex: string): string {
  return BigInt(`0x${hashDigits(blockHashHex)}`).toString(10);
}

/**
 * The winning entry number: BigInt('0x' + hash) mod entryCount. Throws Error('No participants available for
 * winner selection') when there are no entries and Error('Invalid hexadecimal hash') when the hash is not hex
 * (an optional 0x prefix is allowed).
 */
export function winnerIndex(blockHashHex: string, entryCount: number): number {
  if (!Number.isSafeInteger(entryCount)) throw new RangeError(`entryCount must be a whole number, got ${entryCount}`);
  if (entryCount <= 0) throw new Error(NO_PARTICIPANTS_MESSAGE);
  return Number(BigInt(`0x${hashDigits(blockHashHex)}`) % BigInt(entryCount));
}

/** The demo's participant count from user input: unparseable -> 200, otherwise a whole number clamped to 2..10000. */
export function parseDemoParticipants(input: unknown): number {
  const parsed =
    typeof input === "number" ? input : typeof input === "string" ? Number.parseInt(input.trim(), 10) : Number.NaN;
  if (!Number.isFinite(parsed)) return DEMO_PARTICIPANTS_DEFAULT;
  return Math.min(DEMO_PARTICIPANTS_MAX, Math.max(DEMO_PARTICIPANTS_MIN, Math.trunc(parsed)));
}

// --- hashing helpers ------------------------------------------------------------------------------------------

export function bytesToHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || (hex.length > 0 && !HEX.test(hex))) throw new Error(INVALID_HASH_MESSAGE);
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
}

/** SHA-256 of UTF-8 text, as lowercase hex. */
export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(await sha256(new TextEncoder().encode(text)));
}

// --- the frozen entry list ------------------------------------------------------------------------------------

export interface DrawEntry {
  /** Whole number from 0. */
  entryNumber: number;
  /** The contribution's unique source key (payment id, guess id...): private, published only as its hash. */
  sourceKey: string;
  /** A void entry (its payment refunded or lost in a dispute above half before the close) keeps its line. */
  voided?: boolean;
  /** What earned it (prize_entries.source_type: product_purchase, free_entry...); unknown or absent counts as paid. */
  sourceType?: string | null;
}

/**
 * How entries.txt writes a line (prize_pools.entries_format, decision 530). 1: "entryNumber:key[:void]", the form of
 * every list frozen before the free routes; 2: "entryNumber:key:source[:void]", each entry marked by its source. The
 * digest is the SHA-256 of the text in the pool's own form, so a list frozen in form 1 verifies as it always did.
 */
export const ENTRIES_FORMATS = [1, 2] as const;
export type EntriesFormat = (typeof ENTRIES_FORMATS)[number];
/** The form a list is frozen in now. */
export const CURRENT_ENTRIES_FORMAT: EntriesFormat = 2;

/** A pool's recorded form (prize_pools.entries_format); anything unknown reads as form 1, the older one. */
export function entriesFormatOf(value: number | null | undefined): EntriesFormat {
  return value === 2 ? 2 : 1;
}

/** The source an entries.txt line names: the free route, a postcard, a correct guess, a share bonus, or a payment. */
export const ENTRY_LIST_SOURCES = ["paid", "free", "postal", "guess", "bonus"] as const;
export type EntryListSource = (typeof ENTRY_LIST_SOURCES)[number];

/** The entries.txt source of an entry's source type (docs/product.md#free-entry). */
export function entryListSource(sourceType: string | null | undefined): EntryListSource {
  switch (sourceType) {
    case "free_entry":
      return "free";
    case "postal_entry":
      return "postal";
    case "guess_entry":
      return "guess";
    case "share_bonus":
      return "bonus";
    default:
      return "paid";
  }
}

/** One line of the published entries.txt: the entry number, the opaque key, its source (form 2) and whether it is void. */
export interface FrozenEntry {
  entryNumber: number;
  /** SHA-256 hex of the entry's source key: a buyer who knows their payment id can find their line. */
  key: string;
  voided: boolean;
  /** Form 2 lists only. */
  source?: EntryListSource;
}

/** The opaque key published for a source key: SHA-256 hex of it. */
export function opaqueEntryKey(sourceKey: string): Promise<string> {
  return sha256Hex(sourceKey);
}

/** The frozen list of entries as published (opaque keys, and in form 2 each entry's source), by entry number. */
export async function frozenEntryList(
  entries: readonly DrawEntry[],
  format: EntriesFormat = CURRENT_ENTRIES_FORMAT,
): Promise<FrozenEntry[]> {
  for (const entry of entries) {
    if (typeof entry.sourceKey !== "string" || /[\r\n]/.test(entry.sourceKey)) {
      throw new RangeError(`Invalid source key for entry ${entry.entryNumber}`);
    }
  }
  const lines = await Promise.all(
    entries.map(async (entry): Promise<FrozenEntry> => {
      const line: FrozenEntry = {
        entryNumber: entry.entryNumber,
        key: await opaqueEntryKey(entry.sourceKey),
        voided: entry.voided === true,
      };
      if (format === 2) line.source = entryListSource(entry.sourceType);
      return line;
    }),
  );
  checkEntryNumbers(lines);
  return lines.sort((a, b) => a.entryNumber - b.entryNumber);
}

function checkEntryNumbers(entries: readonly { entryNumber: number }[]): void {
  const seen = new Set<number>();
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.entryNumber) || entry.entryNumber < FIRST_ENTRY_NUMBER) {
      throw new RangeError(`Invalid entry number: ${entry.entryNumber}`);
    }
    if (seen.has(entry.entryNumber)) throw new RangeError(`Duplicate entry number: ${entry.entryNumber}`);
    seen.add(entry.entryNumber);
  }
}

/** The text marking a void line of entries.txt. */
export const VOID_MARK = "void";

/**
 * entries.txt, the canonical text of a frozen entry list: one line per entry, sorted by entry number,
 * "entryNumber:key\n" for a valid entry and "entryNumber:key:void\n" for a void one (decimal, no padding; key =
 * SHA-256 hex of the source key); in form 2 the entry's source follows the key ("3:key:free\n", "4:key:paid:void\n").
 * Every line of a list has a source or none does.
 */
export function canonicalEntriesText(entries: readonly FrozenEntry[]): string {
  checkEntryNumbers(entries);
  const sourced = entries.filter((entry) => entry.source !== undefined).length;
  if (sourced !== 0 && sourced !== entries.length) throw new RangeError("Every entry names its source, or none does");
  for (const entry of entries) {
    if (!HASH_HEX.test(entry.key)) throw new RangeError(`Invalid opaque key for entry ${entry.entryNumber}`);
    if (entry.source !== undefined && !ENTRY_LIST_SOURCES.includes(entry.source)) {
      throw new RangeError(`Invalid source for entry ${entry.entryNumber}`);
    }
  }
  return [...entries]
    .sort((a, b) => a.entryNumber - b.entryNumber)
    .map(
      (entry) =>
        `${entry.entryNumber}:${entry.key.toLowerCase()}${entry.source ? `:${entry.source}` : ""}${entry.voided ? `:${VOID_MARK}` : ""}\n`,
    )
    .join("");
}

const LINE = new RegExp(`^(0|[1-9]\\d*):([0-9a-f]{64})(?::(${ENTRY_LIST_SOURCES.join("|")}))?(:void)?$`);

/** Parses entries.txt (either form) back into its lines; throws RangeError on anything that is not exactly that format. */
export function parseEntriesText(text: string): FrozenEntry[] {
  if (text === "") return [];
  if (!text.endsWith("\n")) throw new RangeError("entries.txt must end with a line break");
  const entries = text
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const match = LINE.exec(line);
      if (!match) throw new RangeError(`Not an entries.txt line: ${line.slice(0, 80)}`);
      const entry: FrozenEntry = { entryNumber: Number(match[1]), key: match[2]!, voided: match[4] !== undefined };
      if (match[3] !== undefined) entry.source = match[3] as EntryListSource;
      return entry;
    });
  checkEntryNumbers(entries);
  const sourced = entries.filter((entry) => entry.source !== undefined).length;
  if (sourced !== 0 && sourced !== entries.length) throw new RangeError("Every entry names its source, or none does");
  return entries;
}

/** SHA-256 hex of entries.txt for these entries (in the given form): the digest published when a pool's entries are frozen. */
export async function entriesDigest(
  entries: readonly DrawEntry[],
  format: EntriesFormat = CURRENT_ENTRIES_FORMAT,
): Promise<string> {
  return sha256Hex(canonicalEntriesText(await frozenEntryList(entries, format)));
}

export interface DrawPick {
  /** Position among the valid entries (in entry-number order). */
  index: number;
  entryNumber: number;
  /** How many entries were eligible. */
  validCount: number;
}

/**
 * The winner of a frozen list for a block hash: the valid (not void, not excluded) entry at position
 * BigInt(hash) mod (number of valid entries), in entry-number order. `excluded` lists earlier winners whose prize was
 * redrawn. Throws 'No participants available for winner selection' when no entry is eligible.
 */
export function pickWinner(
  entries: readonly { entryNumber: number; voided: boolean }[],
  blockHashHex: string,
  excluded: readonly number[] = [],
): DrawPick {
  const skip = new Set(excluded);
  const valid = entries
    .filter((entry) => !entry.voided && !skip.has(entry.entryNumber))
    .map((entry) => entry.entryNumber)
    .sort((a, b) => a - b);
  const index = winnerIndex(blockHashHex, valid.length);
  return { index, entryNumber: valid[index]!, validCount: valid.length };
}

// --- Bitcoin block headers ------------------------------------------------------------------------------------

/** The header fields of a block as a Blockstream-style /block/{hash} response gives them (bits as an integer). */
export interface BlockHeaderFields {
  version: number;
  previousblockhash: string;
  merkle_root: string;
  timestamp: number;
  bits: number;
  nonce: number;
}

export interface BitcoinBlock extends BlockHeaderFields {
  /** The block hash, 64 hex digits as explorers display it. */
  id: string;
  height?: number;
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

/** Bitcoin mainnet's proof-of-work limit: no valid block has a target above this. */
export const POW_LIMIT = (1n << 224n) - 1n;

/** The target of difficulty 1 (bits 0x1d00ffff); a block's difficulty is this divided by its target. */
export const DIFFICULTY_1_TARGET = 0xffffn << 208n;

/**
 * The least difficulty a draw block may have: 10^12. Bitcoin's difficulty passed it in January 2018 and has not
 * been below it since (it is about 10^14 today), while a header at difficulty 10^12 costs about 4.3 * 10^21 double
 * SHA-256s to forge: a made-up block with a valid hash (difficulty 1, seconds of work) is refused.
 */
export const MIN_BLOCK_DIFFICULTY = 1_000_000_000_000n;

/** The largest target (easiest block) a draw accepts: the difficulty-1 target / MIN_BLOCK_DIFFICULTY. */
export const MAX_DRAW_TARGET = DIFFICULTY_1_TARGET / MIN_BLOCK_DIFFICULTY;

/** A block's difficulty (whole part) from its bits. */
export function blockDifficulty(bits: number): bigint {
  const target = bitsToTarget(bits);
  return target > 0n ? DIFFICULTY_1_TARGET / target : 0n;
}

function assertUint32(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new RangeError(`Invalid block ${name}: ${value}`);
  }
}

function hashBytesLittleEndian(hex: string, name: string): Uint8Array {
  if (!HASH_HEX.test(hex)) throw new RangeError(`Invalid block ${name}: ${hex}`);
  return hexToBytes(hex).reverse();
}

/**
 * The 80-byte header: version, previous block hash, merkle root, timestamp, bits, nonce. Integers are
 * little-endian 32-bit (a version given as a negative int32 is written as its unsigned bits); the two hashes are
 * written byte-reversed from their displayed hex, as Bitcoin does.
 */
export function buildBlockHeader(block: BlockHeaderFields): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(block.version) || block.version < -0x80000000 || block.version > 0xffffffff) {
    throw new RangeError(`Invalid block version: ${block.version}`);
  }
  assertUint32(block.timestamp, "timestamp");
  assertUint32(block.bits, "bits");
  assertUint32(block.nonce, "nonce");
  const header = new Uint8Array(80);
  const view = new DataView(header.buffer);
  view.setUint32(0, block.version >>> 0, true);
  header.set(hashBytesLittleEndian(block.previousblockhash, "previousblockhash"), 4);
  header.set(hashBytesLittleEndian(block.merkle_root, "merkle_root"), 36);
  view.setUint32(68, block.timestamp, true);
  view.setUint32(72, block.bits, true);
  view.setUint32(76, block.nonce, true);
  return header;
}

/** Double SHA-256 of an 80-byte header, byte-reversed to the hex form explorers display. */
export async function blockHashFromHeader(header: Uint8Array): Promise<string> {
  if (header.length !== 80) throw new RangeError(`A block header is 80 bytes, got ${header.length}`);
  const hash = await sha256(await sha256(header));
  return bytesToHex(hash.reverse());
}

/**
 * The proof-of-work target encoded by `bits` (compact form: 1 byte exponent, 3 byte mantissa):
 * mantissa × 256^(exponent − 3). Throws RangeError for a negative encoding (sign bit set with a non-zero mantissa).
 */
export function bitsToTarget(bits: number): bigint {
  assertUint32(bits, "bits");
  const exponent = bits >>> 24;
  const mantissa = bits & 0x007fffff;
  if ((bits & 0x00800000) !== 0 && mantissa !== 0) throw new RangeError(`Negative target in bits: ${bits}`);
  if (exponent <= 3) return BigInt(mantissa >>> (8 * (3 - exponent)));
  return BigInt(mantissa) << BigInt(8 * (exponent - 3));
}

export type BlockVerification = { ok: true } | { ok: false; reason: string };

/**
 * Rebuilds the header from the block's fields and checks that its double SHA-256 equals `block.id` and that the
 * hash is at or below the target of `bits` (which must be positive and within mainnet's proof-of-work limit).
 * Never throws: malformed fields give `{ ok: false, reason }`.
 */
export async function verifyBlock(block: BitcoinBlock): Promise<BlockVerification> {
  let hash: string;
  let target: bigint;
  try {
    if (typeof block.id !== "string" || !HASH_HEX.test(block.id)) throw new RangeError(`Invalid block id: ${block.id}`);
    hash = await blockHashFromHeader(buildBlockHeader(block));
    target = bitsToTarget(block.bits);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (hash !== block.id.toLowerCase()) {
    return { ok: false, reason: `Block hash ${hash} does not match the block id ${block.id}` };
  }
  if (target <= 0n || target > POW_LIMIT) {
    return { ok: false, reason: `Proof-of-work target of bits ${block.bits} is out of range` };
  }
  if (BigInt(`0x${hash}`) > target) {
    return { ok: false, reason: "Block hash does not meet its proof-of-work target" };
  }
  return { ok: true };
}

/**
 * verifyBlock, and the block's difficulty is at least MIN_BLOCK_DIFFICULTY: the check every draw block passes (on
 * the server before drawing, and in the browser on the verification page).
 */
export async function verifyDrawBlock(block: BitcoinBlock): Promise<BlockVerification> {
  const verification = await verifyBlock(block);
  if (!verification.ok) return verification;
  if (bitsToTarget(block.bits) > MAX_DRAW_TARGET) {
    return {
      ok: false,
      reason: `Block difficulty ${blockDifficulty(block.bits)} is below the draw's minimum of ${MIN_BLOCK_DIFFICULTY}`,
    };
  }
  return { ok: true };
}
