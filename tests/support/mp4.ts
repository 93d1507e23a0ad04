import { concatBytes } from "~/lib/bytes";

// Video fixtures for the upload tests: MP4 files built in memory (app/lib/video-duration.ts reads them).

function box(type: string, ...children: Uint8Array[]): Uint8Array {
  const length = 8 + children.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(length);
  new DataView(out.buffer).setUint32(0, length);
  out.set(
    [...type].map((c) => c.charCodeAt(0)),
    4,
  );
  let at = 8;
  for (const c of children) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A minimal MP4 (ftyp + moov/mvhd version 0 [+ mdat]) of the given length; `moovLast` puts moov after mdat. */
export function buildMp4(
  seconds: number,
  opts: { timescale?: number; mdatBytes?: number; moovLast?: boolean } = {},
): Uint8Array<ArrayBuffer> {
  const timescale = opts.timescale ?? 1000;
  const ftyp = box("ftyp", new TextEncoder().encode("isom\0\0\x02\0isomiso2mp41"));
  const mvhdBody = new Uint8Array(100);
  const view = new DataView(mvhdBody.buffer);
  view.setUint32(12, timescale);
  view.setUint32(16, Math.round(seconds * timescale));
  view.setUint32(20, 0x00010000); // rate 1.0
  const moov = box("moov", box("mvhd", mvhdBody));
  const mdat = box("mdat", new Uint8Array(opts.mdatBytes ?? 16));
  return opts.moovLast ? concatBytes([ftyp, mdat, moov]) : concatBytes([ftyp, moov, mdat]);
}
