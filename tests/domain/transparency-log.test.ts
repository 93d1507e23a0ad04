import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GENESIS_LOG_HASH } from "~/domain/draw-commitment";
import {
  checkExtends,
  checkPoolInLog,
  entryCountsText,
  fetchLogFrom,
  GENESIS_TRANSPARENCY_BODY,
  GENESIS_TRANSPARENCY_HASH,
  nextTransparencyRecord,
  parseKeptHead,
  poolLogStampText,
  readTransparencyRecord,
  transparencyHash,
  transparencyLine,
  transparencyReason,
  verifyTransparencyChain,
  type TransparencyRecord,
} from "~/domain/transparency-log";

// The public commitment log of decision 550, pure: the server appends by these rules and the verification page
// checks a kept head and a pool's path to the head with them in the browser.

const GENESIS: TransparencyRecord = {
  ...GENESIS_TRANSPARENCY_BODY,
  prevHash: GENESIS_LOG_HASH,
  hash: GENESIS_TRANSPARENCY_HASH,
};

function poolBody(poolId: string, poolSeq: number, at: number) {
  return {
    kind: "commit" as const,
    poolId,
    poolSeq,
    poolRecordHash: `${poolSeq}`.padStart(64, "a"),
    entriesDigest: "d".repeat(64),
    entryCounts: { product_purchase: 7, free_entry: 2, postal_entry: 1 },
    blockHeight: 900_003,
    tipHeight: 900_000,
    tipHash: "b".repeat(64),
    tipTime: 1_790_000_000,
    highestTip: 900_000,
    tipsSeen: [
      { explorer: "https://blockstream.info/api", height: 900_000 },
      { explorer: "https://mempool.space/api", height: 900_000 },
    ],
    reason: "commitment at close",
    createdAt: at,
  };
}

/** Genesis and `n` pool records, chained. */
async function chain(n: number): Promise<TransparencyRecord[]> {
  const records = [GENESIS];
  for (let i = 0; i < n; i++) {
    records.push(await nextTransparencyRecord(records.at(-1)!, poolBody(`pool-${i % 3}`, Math.floor(i / 3), 1000 + i)));
  }
  return records;
}

/** Every record from `from` on recomputed over its (possibly edited) fields, as an operator rewriting the log would. */
async function rewriteFrom(records: TransparencyRecord[], from: number): Promise<TransparencyRecord[]> {
  const out = records.slice(0, from);
  for (const record of records.slice(from)) {
    const prevHash = out.at(-1)!.hash;
    out.push({ ...record, prevHash, hash: await transparencyHash(prevHash, record) });
  }
  return out;
}

const headOf = (records: TransparencyRecord[]) => ({ seq: records.at(-1)!.seq, hash: records.at(-1)!.hash });

describe("the genesis record", () => {
  it("hashes to the literal migration 0030 writes", async () => {
    expect(await transparencyHash(GENESIS_LOG_HASH, GENESIS_TRANSPARENCY_BODY)).toBe(GENESIS_TRANSPARENCY_HASH);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name === "0030_transparency_log.sql")!.queries.join("\n");
    expect(migration).toContain(`'${GENESIS_TRANSPARENCY_HASH}'`);
    expect(migration).toContain(`${GENESIS_TRANSPARENCY_BODY.createdAt}`);
    expect(migration).toContain(`'${GENESIS_TRANSPARENCY_BODY.reason}'`);
  });
});

describe("the canonical line", () => {
  it("is a JSON array with entry counts sorted by source, whatever order they were counted in", () => {
    const a = transparencyLine({ seq: 1, ...poolBody("p", 0, 5) });
    const b = transparencyLine({
      seq: 1,
      ...poolBody("p", 0, 5),
      entryCounts: { postal_entry: 1, free_entry: 2, product_purchase: 7 },
    });
    expect(a).toBe(b);
    expect(JSON.parse(a)[6]).toEqual([
      ["free_entry", 2],
      ["postal_entry", 1],
      ["product_purchase", 7],
    ]);
  });

  it("cannot be confused by a reason holding separators or line breaks", async () => {
    const one = { seq: 1, ...poolBody("p", 0, 5), reason: 'a|b\n"c"', tipsSeen: [] };
    const other = { ...one, reason: "a|b", tipsSeen: [] };
    expect(await transparencyHash("0".repeat(64), one)).not.toBe(await transparencyHash("0".repeat(64), other));
  });
});

describe("appending", () => {
  it("numbers each record after the head and chains it to the head's hash", async () => {
    const records = await chain(4);
    expect(records.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4]);
    for (let i = 1; i < records.length; i++) expect(records[i]!.prevHash).toBe(records[i - 1]!.hash);
    expect(await verifyTransparencyChain(records)).toEqual({ ok: true });
  });

  it("says in the reason whether a commitment is a redraw", () => {
    expect(transparencyReason("commit", null, null)).toBe("commitment at close");
    expect(transparencyReason("commit", null, "void")).toBe("redraw: committed afresh after the draw was voided");
    expect(transparencyReason("commit", null, "delay")).toBe("committed afresh after a refused block");
    expect(transparencyReason("void", "unclaimed within 30 days", "commit")).toBe(
      "draw voided: unclaimed within 30 days",
    );
    expect(transparencyReason("delay", "block too old", "commit")).toBe("committed block refused: block too old");
  });
});

describe("an edited record", () => {
  it("no longer hashes to its published hash", async () => {
    const records = await chain(5);
    records[3] = { ...records[3]!, entryCounts: { product_purchase: 8, free_entry: 2, postal_entry: 1 } };
    expect(await verifyTransparencyChain(records)).toEqual({
      ok: false,
      seq: 3,
      reason: "record 3 does not hash to its published hash: it was edited",
    });
  });

  it("with its own hash recomputed, breaks the next record's link", async () => {
    const records = await chain(5);
    const edited = { ...records[2]!, blockHeight: 900_004 };
    records[2] = { ...edited, hash: await transparencyHash(edited.prevHash, edited) };
    expect(await verifyTransparencyChain(records)).toMatchObject({ ok: false, seq: 3 });
  });

  it("removed, leaves a gap", async () => {
    const records = await chain(5);
    records.splice(2, 1);
    expect(await verifyTransparencyChain(records)).toEqual({ ok: false, seq: 2, reason: "record 2 is missing" });
  });
});

describe("a kept head", () => {
  it("is extended by the honest log that grew since", async () => {
    const records = await chain(9);
    const kept = { seq: 4, hash: records[4]!.hash };
    expect(await checkExtends(records.slice(4), kept, headOf(records))).toEqual({ ok: true });
  });

  it("exposes a consistently rewritten log (every later hash recomputed), which chains perfectly", async () => {
    const records = await chain(9);
    const kept = { seq: 6, hash: records[6]!.hash };
    records[3] = { ...records[3]!, entriesDigest: "e".repeat(64) };
    const rewritten = await rewriteFrom(records, 3);
    // The rewritten log passes every chain check on its own...
    expect(await verifyTransparencyChain(rewritten)).toEqual({ ok: true });
    // ...but the kept head's hash is no longer at its number.
    const check = await checkExtends(rewritten.slice(6), kept, headOf(rewritten));
    expect(check).toMatchObject({ ok: false, seq: 6 });
    expect(check.ok ? "" : check.reason).toContain("the log was rewritten since");
  });

  it("rejects a log that has no record at the kept number", async () => {
    const records = await chain(3);
    expect(await checkExtends([], { seq: 7, hash: "a".repeat(64) }, headOf(records))).toEqual({
      ok: false,
      seq: 7,
      reason: "the log has no record 7",
    });
  });

  it("is read from the form: a whole number and 64 hex digits", () => {
    expect(parseKeptHead(" 12 ", "AB".repeat(32))).toEqual({ seq: 12, hash: "ab".repeat(32) });
    expect(parseKeptHead("twelve", "a".repeat(64))).toEqual({
      error: "Enter the record number you kept (a whole number).",
    });
    expect(parseKeptHead("12", "xyz")).toEqual({ error: "Enter the record hash you kept (64 hexadecimal digits)." });
  });
});

describe("a pool's path to the head", () => {
  it("passes when its records name its draw log records and chain to the head", async () => {
    const records = await chain(9);
    const mine = records.filter((r) => r.poolId === "pool-1");
    const poolLog = mine.map((r) => ({ seq: r.poolSeq!, hash: r.poolRecordHash! }));
    const published = mine.map((r) => ({ seq: r.seq, hash: r.hash }));
    const report = await checkPoolInLog({
      records: records.slice(published[0]!.seq),
      head: headOf(records),
      poolId: "pool-1",
      poolLog,
      published,
      kept: null,
    });
    expect(report).toEqual({ mirrored: { ok: true }, path: { ok: true }, kept: null });
  });

  it("fails when a record after the pool's was edited, and when the record does not name the pool's draw log record", async () => {
    const records = await chain(9);
    const mine = records.filter((r) => r.poolId === "pool-0");
    const published = mine.map((r) => ({ seq: r.seq, hash: r.hash }));
    const edited = records.map((r) => (r.seq === 8 ? { ...r, reason: "nothing happened" } : r));
    const report = await checkPoolInLog({
      records: edited.slice(1),
      head: headOf(records),
      poolId: "pool-0",
      poolLog: mine.map((r) => ({ seq: r.poolSeq!, hash: r.poolSeq === 1 ? "f".repeat(64) : r.poolRecordHash! })),
      published,
      kept: { seq: 2, hash: records[2]!.hash },
    });
    expect(report.mirrored).toMatchObject({ ok: false, seq: 4 });
    expect(report.path).toMatchObject({ ok: false, seq: 8 });
    expect(report.kept).toMatchObject({ ok: false, seq: 8 });
  });
});

describe("reading the JSON pages", () => {
  it("follows next links from a record to the head, and reads each record's shape", async () => {
    const records = await chain(250);
    const asked: string[] = [];
    const serve = async (path: string) => {
      asked.push(path);
      const from = Number(new URL(path, "https://tribe.test").searchParams.get("from"));
      const page = records.slice(from, from + 100);
      return {
        head: headOf(records),
        records: JSON.parse(JSON.stringify(page)),
        next: from + 100 <= 250 ? `/transparency.json?from=${from + 100}` : null,
      };
    };
    const got = await fetchLogFrom(serve, 30);
    expect(asked).toEqual(["/transparency.json?from=30", "/transparency.json?from=130", "/transparency.json?from=230"]);
    expect(got.records).toEqual(records.slice(30));
    expect(got.head).toEqual(headOf(records));
    expect(readTransparencyRecord({ ...records[1], seq: "1" })).toBeNull();
    expect(readTransparencyRecord({ ...records[1], entryCounts: { free_entry: "2" } })).toBeNull();
  });
});

describe("texts", () => {
  it("counts entries by source, largest first", () => {
    expect(entryCountsText({ free_entry: 2, product_purchase: 7, postal_entry: 1 })).toBe(
      "7 purchases, 2 free entries, 1 postal entries",
    );
    expect(entryCountsText({})).toBe("no valid entries");
  });

  it("puts the pool's record and the head in a notice", () => {
    const text = poolLogStampText({ record: { seq: 4, hash: "a".repeat(64) }, head: { seq: 9, hash: "b".repeat(64) } });
    expect(text).toContain(`#4, SHA-256 ${"a".repeat(64)}`);
    expect(text).toContain(`#9, SHA-256 ${"b".repeat(64)}`);
  });
});
