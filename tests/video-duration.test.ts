import { describe, expect, it } from "vitest";
import { mp4Duration, sniffVideoType, videoDuration, webmDuration } from "~/lib/video-duration";

// Bytes are built here, box by box and element by element, so the parsers are checked against the formats.

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function box(type: string, body: number[]): number[] {
  const size = 8 + body.length;
  return [(size >>> 24) & 0xff, (size >>> 16) & 0xff, (size >>> 8) & 0xff, size & 0xff, ...ascii(type), ...body];
}

const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

/** mvhd version 0: version/flags, creation, modification, timescale, duration, then the rest (rate, volume, matrix...). */
function mvhd0(timescale: number, duration: number): number[] {
  return box("mvhd", [
    0,
    0,
    0,
    0,
    ...be32(0),
    ...be32(0),
    ...be32(timescale),
    ...be32(duration),
    ...new Array(80).fill(0),
  ]);
}

/** mvhd version 1: 64-bit creation/modification/duration. */
function mvhd1(timescale: number, duration: number): number[] {
  const hi = Math.floor(duration / 2 ** 32);
  return box("mvhd", [
    1,
    0,
    0,
    0,
    ...new Array(16).fill(0),
    ...be32(timescale),
    ...be32(hi),
    ...be32(duration >>> 0),
    ...new Array(80).fill(0),
  ]);
}

const ftyp = box("ftyp", [...ascii("isom"), 0, 0, 2, 0, ...ascii("isomiso2mp41")]);

function mp4(moov: number[], opts: { moovLast?: boolean; mdat?: number } = {}): Uint8Array {
  const mdat = box("mdat", new Array(opts.mdat ?? 32).fill(7));
  return new Uint8Array(opts.moovLast ? [...ftyp, ...mdat, ...moov] : [...ftyp, ...moov, ...mdat]);
}

// EBML: ids keep their marker bits; sizes here are 1-byte (0x80 | n) or 8-byte.
function el(id: number[], body: number[]): number[] {
  if (body.length < 127) return [...id, 0x80 | body.length, ...body];
  const n = body.length;
  return [...id, 0x01, 0, 0, 0, ...be32(n), ...body];
}
function f64(n: number): number[] {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, n);
  return [...b];
}
function f32(n: number): number[] {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, n);
  return [...b];
}
const EBML = [0x1a, 0x45, 0xdf, 0xa3];
const SEGMENT = [0x18, 0x53, 0x80, 0x67];
const INFO = [0x15, 0x49, 0xa9, 0x66];
const SEEKHEAD = [0x11, 0x4d, 0x9b, 0x74];
const TIMECODE_SCALE = [0x2a, 0xd7, 0xb1];
const DURATION = [0x44, 0x89];
const ebmlHeader = el(EBML, [...el([0x42, 0x82], ascii("webm")), ...el([0x42, 0x87], [4])]);

function webm(info: number[], opts: { unknownSegmentSize?: boolean } = {}): Uint8Array {
  const children = [...el(SEEKHEAD, [0xec, 0x81, 0]), ...el(INFO, info)];
  const segment = opts.unknownSegmentSize
    ? [...SEGMENT, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, ...children]
    : el(SEGMENT, children);
  return new Uint8Array([...ebmlHeader, ...segment]);
}

describe("sniffVideoType", () => {
  it("tells MP4 by ftyp at offset 4 and WebM by its EBML magic", () => {
    expect(sniffVideoType(mp4(box("moov", mvhd0(1000, 45_000))))?.ext).toBe("mp4");
    expect(sniffVideoType(webm(el(DURATION, f64(45_000))))?.ext).toBe("webm");
  });
  it("refuses text, images and short input", () => {
    expect(sniffVideoType(new TextEncoder().encode("just some text pretending"))).toBeNull();
    expect(sniffVideoType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull();
    expect(sniffVideoType(new Uint8Array([0, 0, 0]))).toBeNull();
  });
});

describe("mp4Duration", () => {
  it("reads mvhd v0 timescale and duration", () => {
    expect(mp4Duration(mp4(box("moov", mvhd0(1000, 45_000))))).toBe(45);
    expect(mp4Duration(mp4(box("moov", mvhd0(600, 12_000))))).toBe(20);
    expect(mp4Duration(mp4(box("moov", mvhd0(90_000, 2_700_000))))).toBe(30);
  });
  it("reads mvhd v1 (64-bit duration)", () => {
    expect(mp4Duration(mp4(box("moov", mvhd1(1000, 90_500))))).toBe(90.5);
  });
  it("finds moov after mdat, and mvhd in a tail slice of the file", () => {
    const file = mp4(box("moov", mvhd0(1000, 61_000)), { moovLast: true, mdat: 5000 });
    expect(mp4Duration(file)).toBe(61);
    expect(mp4Duration(file.slice(file.length - 200))).toBe(61);
  });
  it("answers null without moov/mvhd, or with a zero timescale", () => {
    expect(mp4Duration(new Uint8Array([...ftyp, ...box("mdat", [1, 2, 3])]))).toBeNull();
    expect(mp4Duration(mp4(box("moov", mvhd0(0, 100))))).toBeNull();
    expect(mp4Duration(new Uint8Array())).toBeNull();
  });
});

describe("webmDuration", () => {
  it("reads Info Duration (float64) with the default TimecodeScale of 1 ms", () => {
    expect(webmDuration(webm(el(DURATION, f64(45_000))))).toBe(45);
  });
  it("applies TimecodeScale and a float32 Duration", () => {
    // scale 1,000,000,000 ns: Duration counted in seconds
    expect(webmDuration(webm([...el(TIMECODE_SCALE, be32(1_000_000_000)), ...el(DURATION, f32(20))]))).toBe(20);
  });
  it("enters a Segment of unknown size", () => {
    expect(webmDuration(webm(el(DURATION, f64(31_500)), { unknownSegmentSize: true }))).toBe(31.5);
  });
  it("answers null without a Duration", () => {
    expect(webmDuration(webm(el(TIMECODE_SCALE, [0x0f, 0x42, 0x40])))).toBeNull();
    expect(webmDuration(new Uint8Array(ebmlHeader))).toBeNull();
  });
});

describe("videoDuration", () => {
  it("dispatches by type and refuses other bytes", () => {
    expect(videoDuration(mp4(box("moov", mvhd0(1000, 30_000))))).toBe(30);
    expect(videoDuration(webm(el(DURATION, f64(12_000))))).toBe(12);
    expect(videoDuration(new TextEncoder().encode("not a video at all"))).toBeNull();
  });
});
