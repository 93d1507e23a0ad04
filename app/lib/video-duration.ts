// Pure readers of a video's type and duration from its bytes (no I/O): MP4 (ISO BMFF `moov`/`mvhd`) and WebM
// (Matroska EBML `Segment`/`Info`/`TimecodeScale` + `Duration`). Used when a Guess & Win video upload completes.

export type VideoKind = { ext: "mp4" | "webm"; contentType: "video/mp4" | "video/webm" };

const FTYP = [0x66, 0x74, 0x79, 0x70]; // "ftyp"
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

function matchAt(bytes: Uint8Array, at: number, pattern: readonly number[]): boolean {
  if (at < 0 || bytes.length < at + pattern.length) return false;
  return pattern.every((b, i) => bytes[at + i] === b);
}

/** The video type told by a file's first bytes: MP4 (`ftyp` box at offset 4) or WebM (EBML magic); else null. */
export function sniffVideoType(bytes: Uint8Array): VideoKind | null {
  if (matchAt(bytes, 4, FTYP)) return { ext: "mp4", contentType: "video/mp4" };
  if (matchAt(bytes, 0, EBML_MAGIC)) return { ext: "webm", contentType: "video/webm" };
  return null;
}

const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const u64 = (b: Uint8Array, at: number) => u32(b, at) * 2 ** 32 + u32(b, at + 4);
const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

/** Seconds from an `mvhd` box whose type field starts at `typeAt` (size sits 4 bytes before), or null. */
function readMvhd(b: Uint8Array, typeAt: number): number | null {
  const body = typeAt + 4;
  if (b.length < body + 4) return null;
  const version = b[body]!;
  let timescale: number;
  let duration: number;
  if (version === 1) {
    if (b.length < body + 4 + 16 + 12) return null;
    timescale = u32(b, body + 4 + 16);
    duration = u64(b, body + 4 + 16 + 4);
  } else if (version === 0) {
    if (b.length < body + 4 + 8 + 8) return null;
    timescale = u32(b, body + 4 + 8);
    duration = u32(b, body + 4 + 8 + 4);
  } else return null;
  // An all-ones duration means "unknown".
  if (!timescale || duration === 0xffffffff || duration === Number.MAX_SAFE_INTEGER) return null;
  const seconds = duration / timescale;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/** Walks boxes in [start, end) looking for `type`; returns where its type field and its end are. */
function findBox(b: Uint8Array, start: number, end: number, type: string): { typeAt: number; end: number } | null {
  let at = start;
  while (at + 8 <= end) {
    let size = u32(b, at);
    const name = fourcc(b, at + 4);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) return null;
      size = u64(b, at + 8);
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header) return null;
    if (name === type) return { typeAt: at + 4, end: Math.min(at + size, end) };
    at += size;
  }
  return null;
}

/**
 * The duration in seconds of an MP4 from some of its bytes: the start of the file (top-level boxes walked to
 * `moov` → `mvhd`), or any other stretch that holds the `moov` box (e.g. the tail of a file whose `moov` sits after
 * `mdat`), where `mvhd` is found by its type. Null when the bytes do not hold it.
 */
export function mp4Duration(bytes: Uint8Array): number | null {
  if (matchAt(bytes, 4, FTYP)) {
    const moov = findBox(bytes, 0, bytes.length, "moov");
    if (moov) {
      const mvhd = findBox(bytes, moov.typeAt + 4, moov.end, "mvhd");
      if (mvhd) return readMvhd(bytes, mvhd.typeAt);
    }
  }
  // Scan for "moov" followed closely by "mvhd" (its first child in practice).
  for (let i = 4; i + 8 <= bytes.length; i++) {
    if (bytes[i] === 0x6d && fourcc(bytes, i) === "mvhd" && fourcc(bytes, i - 8) === "moov") {
      const seconds = readMvhd(bytes, i);
      if (seconds !== null) return seconds;
    }
  }
  for (let i = 4; i + 8 <= bytes.length; i++) {
    if (bytes[i] === 0x6d && fourcc(bytes, i) === "mvhd") {
      const size = u32(bytes, i - 4);
      if (size >= 100 && size <= 200) {
        const seconds = readMvhd(bytes, i);
        if (seconds !== null) return seconds;
      }
    }
  }
  return null;
}

// --- EBML / WebM --------------------------------------------------------------------------------------------------

const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const EBML_HEADER = 0x1a45dfa3;

type Vint = { value: number; length: number; unknown: boolean };

/** An EBML variable-length integer; `keepMarker` for element ids. */
function readVint(b: Uint8Array, at: number, keepMarker: boolean): Vint | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || at + length > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i]!;
    if (b[at + i] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function readUint(b: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + b[at + i]!;
  return value;
}

function readFloat(b: Uint8Array, at: number, size: number): number | null {
  const view = new DataView(b.buffer, b.byteOffset + at, size);
  if (size === 4) return view.getFloat32(0);
  if (size === 8) return view.getFloat64(0);
  return null;
}

/** The duration in seconds of a WebM/Matroska file from its first bytes (Segment → Info), or null. */
export function webmDuration(bytes: Uint8Array): number | null {
  let at = 0;
  // Top level: skip the EBML header, enter the Segment.
  while (at < bytes.length) {
    const id = readVint(bytes, at, true);
    if (!id) return null;
    const size = readVint(bytes, at + id.length, false);
    if (!size) return null;
    const body = at + id.length + size.length;
    if (id.value === SEGMENT) {
      at = body;
      break;
    }
    if (id.value !== EBML_HEADER || size.unknown) return null;
    at = body + size.value;
  }
  // Inside the Segment: find Info, skipping other sized children (SeekHead, Void, ...).
  while (at < bytes.length) {
    const id = readVint(bytes, at, true);
    if (!id) return null;
    const size = readVint(bytes, at + id.length, false);
    if (!size || size.unknown) return null;
    const body = at + id.length + size.length;
    if (id.value === INFO) return readInfo(bytes, body, Math.min(body + size.value, bytes.length));
    at = body + size.value;
  }
  return null;
}

function readInfo(b: Uint8Array, start: number, end: number): number | null {
  let scale = 1_000_000;
  let duration: number | null = null;
  let at = start;
  while (at < end) {
    const id = readVint(b, at, true);
    if (!id) break;
    const size = readVint(b, at + id.length, false);
    if (!size || size.unknown) break;
    const body = at + id.length + size.length;
    if (body + size.value > b.length) break;
    if (id.value === TIMECODE_SCALE && size.value >= 1 && size.value <= 8) scale = readUint(b, body, size.value);
    if (id.value === DURATION) duration = readFloat(b, body, size.value);
    at = body + size.value;
  }
  if (duration === null || !Number.isFinite(duration) || duration < 0 || !scale) return null;
  return (duration * scale) / 1e9;
}

/** The duration in seconds of an MP4 or WebM from its first bytes, or null when it cannot be read from them. */
export function videoDuration(bytes: Uint8Array): number | null {
  const kind = sniffVideoType(bytes);
  if (kind?.ext === "mp4") return mp4Duration(bytes);
  if (kind?.ext === "webm") return webmDuration(bytes);
  return null;
}
