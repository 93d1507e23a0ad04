// The verifiable draw. When a pool closes its entry list is frozen and its SHA-256 digest published; the winner is
// the entry numbered BigInt(block hash) mod entry count, from a later Bitcoin block whose header is rebuilt from its
// fields and checked (double SHA-256 equals the id, hash within the proof-of-work target). Uses only Web Crypto, so
// the same code runs in the Worker and in the browser on the public verification page.

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
  /** The contribution's unique source key (Stripe event or payment id). */
  sourceKey: string;
}

/**
 * The canonical text of an entry list: one line "entryNumber:sourceKey\n" per entry, sorted by entry number
 * (decimal, no padding). Throws for a negative or fractional entry number, a repeated entry number, or a source key
 * containing a line break (which would make the text ambiguous).
 */
export function canonicalEntriesText(entries: readonly DrawEntry[]): string {
  const seen = new Set<number>();
  for (const entry of entries) {
    if (!Number.isSafeInteger(entry.entryNumber) || entry.entryNumber < FIRST_ENTRY_NUMBER) {
      throw new RangeError(`Invalid entry number: ${entry.entryNumber}`);
    }
    if (seen.has(entry.entryNumber)) throw new RangeError(`Duplicate entry number: ${entry.entryNumber}`);
    seen.add(entry.entryNumber);
    if (typeof entry.sourceKey !== "string" || /[\r\n]/.test(entry.sourceKey)) {
      throw new RangeError(`Invalid source key for entry ${entry.entryNumber}`);
    }
  }
  return [...entries]
    .sort((a, b) => a.entryNumber - b.entryNumber)
    .map((entry) => `${entry.entryNumber}:${entry.sourceKey}\n`)
    .join("");
}

/** SHA-256 hex of `canonicalEntriesText(entries)`: the digest published when a pool's entries are frozen. */
export async function entriesDigest(entries: readonly DrawEntry[]): Promise<string> {
  return sha256Hex(canonicalEntriesText(entries));
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

/** Bitcoin mainnet's proof-of-work limit: no valid block has a target above this. */
export const POW_LIMIT = (1n << 224n) - 1n;

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
