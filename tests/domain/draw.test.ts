import { describe, expect, it } from "vitest";
import fixture from "../fixtures/bitcoin-blocks.json";
import {
  type BitcoinBlock,
  bitsToTarget,
  blockHashFromHeader,
  buildBlockHeader,
  bytesToHex,
  blockDifficulty,
  canonicalEntriesText,
  DEMO_PARTICIPANTS_DEFAULT,
  entriesDigest,
  frozenEntryList,
  hashToDecimal,
  MIN_BLOCK_DIFFICULTY,
  parseDemoParticipants,
  parseEntriesText,
  pickWinner,
  POW_LIMIT,
  sha256Hex,
  verifyBlock,
  verifyDrawBlock,
  winnerIndex,
} from "~/domain/draw";

const blocks: BitcoinBlock[] = fixture.blocks;
const genesis = blocks[0] as BitcoinBlock;

describe("winnerIndex", () => {
  it("is the hash as a number mod the entry count, for each real block", () => {
    for (const block of blocks) {
      const hash = BigInt(`0x${block.id}`);
      for (const count of [200, 7, 1, 2, 10_000, 123_457]) {
        expect(winnerIndex(block.id, count)).toBe(Number(hash % BigInt(count)));
      }
    }
  });

  it("matches values computed independently", () => {
    // computed once outside this code base (Python int(hash, 16) % n)
    expect(winnerIndex(genesis.id, 200)).toBe(79);
    expect(winnerIndex(genesis.id, 7)).toBe(2);
    expect(winnerIndex(genesis.id, 1)).toBe(0);
    expect(winnerIndex((blocks[1] as BitcoinBlock).id, 200)).toBe(144);
    expect(winnerIndex((blocks[2] as BitcoinBlock).id, 200)).toBe(56);
    expect(winnerIndex((blocks[2] as BitcoinBlock).id, 7)).toBe(1);
  });

  it("accepts upper case and a 0x prefix", () => {
    expect(winnerIndex(genesis.id.toUpperCase(), 200)).toBe(79);
    expect(winnerIndex(`0x${genesis.id}`, 200)).toBe(79);
    expect(winnerIndex("ff", 16)).toBe(15);
  });

  it("throws the draw's messages", () => {
    expect(() => winnerIndex(genesis.id, 0)).toThrow("No participants available for winner selection");
    expect(() => winnerIndex(genesis.id, -3)).toThrow("No participants available for winner selection");
    expect(() => winnerIndex("xyz", 10)).toThrow("Invalid hexadecimal hash");
    expect(() => winnerIndex("", 10)).toThrow("Invalid hexadecimal hash");
    expect(() => winnerIndex("0x", 10)).toThrow("Invalid hexadecimal hash");
    expect(() => winnerIndex("12 34", 10)).toThrow("Invalid hexadecimal hash");
    expect(() => winnerIndex(genesis.id, 2.5)).toThrow(RangeError);
  });

  it("shows the hash in decimal", () => {
    expect(hashToDecimal(genesis.id)).toBe("10628944869218562084050143519444549580389464591454674019345556079");
    expect(() => hashToDecimal("nope")).toThrow("Invalid hexadecimal hash");
  });
});

describe("parseDemoParticipants", () => {
  it.each([
    [undefined, 200],
    [null, 200],
    ["", 200],
    ["abc", 200],
    [Number.NaN, 200],
    [Number.POSITIVE_INFINITY, 200],
    ["200", 200],
    ["500", 500],
    ["12.9", 12],
    [" 42 ", 42],
    [7, 7],
    ["2", 2],
    ["1", 2],
    [0, 2],
    ["-5", 2],
    ["10000", 10000],
    ["10001", 10000],
    [99_999, 10000],
  ])("%j -> %i", (input, count) => {
    expect(parseDemoParticipants(input)).toBe(count);
  });

  it("defaults to 200", () => {
    expect(DEMO_PARTICIPANTS_DEFAULT).toBe(200);
  });
});

describe("entriesDigest and entries.txt", () => {
  const entries = [
    { entryNumber: 0, sourceKey: "evt_a" },
    { entryNumber: 1, sourceKey: "evt_b", voided: true },
    { entryNumber: 2, sourceKey: "evt_c" },
  ];

  it("publishes one line per entry with the SHA-256 of its source key, void entries marked, by entry number", async () => {
    // Form 1, the lines of every list frozen before entries.txt named sources (decision 530; form 2 in entries-format.test.ts).
    const lines = await frozenEntryList([entries[2]!, entries[0]!, entries[1]!], 1);
    expect(lines.map((line) => line.entryNumber)).toEqual([0, 1, 2]);
    expect(lines[0]!.key).toBe(await sha256Hex("evt_a"));
    // sha256("evt_a"), computed independently (printf evt_a | sha256sum).
    expect(lines[0]!.key).toBe("eff4ea5d5a29d2c6f9f25802b8dffbfdefbeab3d77688f9d1dddf97c0629c8fc");
    const text = canonicalEntriesText(lines);
    expect(text).toBe(
      `0:${await sha256Hex("evt_a")}\n1:${await sha256Hex("evt_b")}:void\n2:${await sha256Hex("evt_c")}\n`,
    );
    // The source keys themselves never appear.
    expect(text).not.toMatch(/evt_/);
    expect(await entriesDigest(entries, 1)).toBe(await sha256Hex(text));
    expect(parseEntriesText(text)).toEqual(lines);
  });

  it("sorts numerically, not as text", async () => {
    const text = canonicalEntriesText(
      await frozenEntryList([
        { entryNumber: 10, sourceKey: "k10" },
        { entryNumber: 9, sourceKey: "k9" },
      ]),
    );
    expect(text.split("\n").map((line) => line.split(":")[0])).toEqual(["9", "10", ""]);
  });

  it("changes when any entry changes, or is voided", async () => {
    const changed = [...entries.slice(0, 2), { entryNumber: 2, sourceKey: "evt_x" }];
    expect(await entriesDigest(changed)).not.toBe(await entriesDigest(entries));
    const voided = [entries[0]!, entries[1]!, { ...entries[2]!, voided: true }];
    expect(await entriesDigest(voided)).not.toBe(await entriesDigest(entries));
  });

  it("digests an empty list as the empty text", async () => {
    expect(await entriesDigest([])).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("rejects ambiguous lists and malformed text", async () => {
    await expect(frozenEntryList([{ entryNumber: -1, sourceKey: "a" }])).rejects.toThrow(RangeError);
    await expect(frozenEntryList([{ entryNumber: 1.5, sourceKey: "a" }])).rejects.toThrow(RangeError);
    await expect(
      frozenEntryList([
        { entryNumber: 1, sourceKey: "a" },
        { entryNumber: 1, sourceKey: "b" },
      ]),
    ).rejects.toThrow(RangeError);
    await expect(frozenEntryList([{ entryNumber: 0, sourceKey: "a\nb" }])).rejects.toThrow(RangeError);
    expect(() => parseEntriesText("0:abc\n")).toThrow(RangeError);
    expect(() => parseEntriesText(`0:${"a".repeat(64)}`)).toThrow(RangeError);
    expect(() => parseEntriesText(`0:${"a".repeat(64)}\n0:${"b".repeat(64)}\n`)).toThrow(RangeError);
  });
});

describe("pickWinner", () => {
  const hash = (blocks[2] as BitcoinBlock).id;

  it("is the valid entry at position hash mod (valid entries), in entry-number order", () => {
    const entries = Array.from({ length: 10 }, (_, i) => ({ entryNumber: i, voided: i === 3 || i === 7 }));
    const valid = [0, 1, 2, 4, 5, 6, 8, 9];
    const pick = pickWinner(entries, hash);
    expect(pick.validCount).toBe(8);
    expect(pick.index).toBe(Number(BigInt(`0x${hash}`) % 8n));
    expect(pick.entryNumber).toBe(valid[pick.index]);
  });

  it("with no void entry equals winnerIndex", () => {
    for (const count of [1, 2, 7, 200]) {
      const entries = Array.from({ length: count }, (_, i) => ({ entryNumber: i, voided: false }));
      expect(pickWinner(entries, hash).entryNumber).toBe(winnerIndex(hash, count));
    }
  });

  it("leaves out earlier winners of a redraw", () => {
    const entries = Array.from({ length: 5 }, (_, i) => ({ entryNumber: i, voided: false }));
    const first = pickWinner(entries, hash);
    const second = pickWinner(entries, hash, [first.entryNumber]);
    expect(second.entryNumber).not.toBe(first.entryNumber);
    expect(second.validCount).toBe(4);
  });

  it("refuses a list with no valid entry", () => {
    expect(() => pickWinner([{ entryNumber: 0, voided: true }], hash)).toThrow(
      "No participants available for winner selection",
    );
  });
});

describe("buildBlockHeader", () => {
  it("rebuilds the genesis header byte for byte", () => {
    const header = buildBlockHeader(genesis);
    expect(header).toHaveLength(80);
    expect(bytesToHex(header)).toBe(
      "01000000" +
        "0000000000000000000000000000000000000000000000000000000000000000" +
        "3ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a" +
        "29ab5f49" +
        "ffff001d" +
        "1dac2b7c",
    );
  });

  it("writes the version, timestamp, bits and nonce little-endian", () => {
    const block = blocks[2] as BitcoinBlock;
    const view = new DataView(buildBlockHeader(block).buffer);
    expect(view.getUint32(0, true)).toBe(block.version);
    expect(view.getUint32(68, true)).toBe(block.timestamp);
    expect(view.getUint32(72, true)).toBe(block.bits);
    expect(view.getUint32(76, true)).toBe(block.nonce);
  });

  it("writes a negative int32 version as its unsigned bits", () => {
    const view = new DataView(buildBlockHeader({ ...genesis, version: -1 }).buffer);
    expect(view.getUint32(0, true)).toBe(0xffffffff);
  });

  it("rejects malformed fields", () => {
    expect(() => buildBlockHeader({ ...genesis, merkle_root: "abc" })).toThrow(RangeError);
    expect(() => buildBlockHeader({ ...genesis, previousblockhash: "zz".repeat(32) })).toThrow(RangeError);
    expect(() => buildBlockHeader({ ...genesis, nonce: -1 })).toThrow(RangeError);
    expect(() => buildBlockHeader({ ...genesis, nonce: 2 ** 32 })).toThrow(RangeError);
    expect(() => buildBlockHeader({ ...genesis, timestamp: 1.5 })).toThrow(RangeError);
    expect(() => buildBlockHeader({ ...genesis, version: 2 ** 32 })).toThrow(RangeError);
  });
});

describe("blockHashFromHeader", () => {
  it("double-SHA-256 hashes each real header to its id", async () => {
    for (const block of blocks) {
      expect(await blockHashFromHeader(buildBlockHeader(block))).toBe(block.id);
    }
  });

  it("needs exactly 80 bytes", async () => {
    await expect(blockHashFromHeader(new Uint8Array(79))).rejects.toThrow(RangeError);
  });
});

describe("bitsToTarget", () => {
  it("decodes the compact form", () => {
    expect(bitsToTarget(0x1d00ffff)).toBe(0xffffn << 208n);
    expect(bitsToTarget(486604799)).toBe(0xffffn << 208n);
    expect(bitsToTarget(402690497)).toBe(0x91c1n << 168n); // 0x180091c1, block 503252
    expect(bitsToTarget(0x03123456)).toBe(0x123456n);
    expect(bitsToTarget(0x02123456)).toBe(0x1234n);
    expect(bitsToTarget(0x01123456)).toBe(0x12n);
    expect(bitsToTarget(0x00123456)).toBe(0n);
    expect(bitsToTarget(0x04800000)).toBe(0n);
  });

  it("rejects negative targets and non-uint32 values", () => {
    expect(() => bitsToTarget(0x04923456)).toThrow(RangeError);
    expect(() => bitsToTarget(-1)).toThrow(RangeError);
    expect(() => bitsToTarget(2 ** 32)).toThrow(RangeError);
  });

  it("keeps the proof-of-work limit of mainnet", () => {
    expect(POW_LIMIT).toBe(BigInt(`0x${"0".repeat(8)}${"f".repeat(56)}`));
    expect(bitsToTarget(0x1d00ffff) <= POW_LIMIT).toBe(true);
  });
});

describe("verifyBlock", () => {
  it("accepts the three real blocks", async () => {
    for (const block of blocks) {
      expect(await verifyBlock(block)).toEqual({ ok: true });
    }
  });

  it("accepts an upper-case id", async () => {
    expect(await verifyBlock({ ...genesis, id: genesis.id.toUpperCase() })).toEqual({ ok: true });
  });

  it("fails the hash check when the nonce changes", async () => {
    for (const block of blocks) {
      const result = await verifyBlock({ ...block, nonce: (block.nonce + 1) % 2 ** 32 });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(/does not match/);
    }
  });

  it("fails proof of work when the id is replaced by the changed header's hash", async () => {
    for (const block of blocks) {
      const tampered = { ...block, nonce: (block.nonce + 1) % 2 ** 32 };
      const id = await blockHashFromHeader(buildBlockHeader(tampered));
      const result = await verifyBlock({ ...tampered, id });
      expect(result).toEqual({ ok: false, reason: "Block hash does not meet its proof-of-work target" });
    }
  });

  it("fails when other header fields change", async () => {
    expect((await verifyBlock({ ...genesis, timestamp: genesis.timestamp + 1 })).ok).toBe(false);
    expect((await verifyBlock({ ...genesis, merkle_root: "00".repeat(32) })).ok).toBe(false);
    expect((await verifyBlock({ ...genesis, version: 2 })).ok).toBe(false);
    expect((await verifyBlock({ ...genesis, id: (blocks[1] as BitcoinBlock).id })).ok).toBe(false);
  });

  it("rejects a target easier than mainnet allows", async () => {
    const easy = { ...genesis, bits: 0x207fffff };
    const id = await blockHashFromHeader(buildBlockHeader(easy));
    const result = await verifyBlock({ ...easy, id });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/out of range/);
  });

  it("verifyDrawBlock refuses a valid-hash block below the minimum difficulty (difficulty 1)", async () => {
    expect(await verifyBlock(genesis)).toEqual({ ok: true });
    const result = await verifyDrawBlock(genesis);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/below the draw's minimum/);
    expect(blockDifficulty(genesis.bits)).toBe(1n);
    const recent = blocks.find((block) => block.height === 503252)!;
    expect(blockDifficulty(recent.bits) >= MIN_BLOCK_DIFFICULTY).toBe(true);
    expect(await verifyDrawBlock(recent)).toEqual({ ok: true });
  });

  it("reports malformed blocks instead of throwing", async () => {
    for (const broken of [
      { ...genesis, id: "not-a-hash" },
      { ...genesis, merkle_root: "xyz" },
      { ...genesis, nonce: -1 },
      { ...genesis, bits: 0x04923456 },
    ]) {
      const result = await verifyBlock(broken);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
    }
  });
});
