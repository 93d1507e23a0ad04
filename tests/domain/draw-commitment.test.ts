import { describe, expect, it } from "vitest";
import { blockHashFromHeader, buildBlockHeader, sha256Hex, type BitcoinBlock } from "~/domain/draw";
import {
  agreedTipHeight,
  checkBlockTime,
  checkChainFromTip,
  checkCommitmentRule,
  commitmentHash,
  decideCommitment,
  GENESIS_LOG_HASH,
  tipAllowance,
  verifyCommitmentLog,
  type CommitmentRecord,
} from "~/domain/draw-commitment";

// The commitment and acceptance rules of decision 390, pure: the cron decides by them and the verification page
// checks every recorded commitment and draw against them.

const NOW = Date.UTC(2026, 10, 26, 12, 0);
const tips = (...heights: number[]) => heights.map((height, i) => ({ explorer: `https://e${i}.example/api`, height }));

describe("decideCommitment", () => {
  it("commits 3 past the highest tip; a lagging explorer cannot lower it", () => {
    const reported = tips(900_000, 900_000, 899_900);
    expect(agreedTipHeight(reported)).toBe(900_000);
    expect(decideCommitment(reported, { height: 900_000, hash: "a".repeat(64), time: NOW / 1000 - 60 }, NOW)).toEqual({
      ok: true,
      blockHeight: 900_003,
      highestTip: 900_000,
    });
  });

  it("waits when the agreed tip is more than 2 hours old (the explorers lag), and needs two answers", () => {
    const old = { height: 899_900, hash: "a".repeat(64), time: NOW / 1000 - 100 * 600 };
    expect(decideCommitment(tips(900_000, 899_900), old, NOW)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/lagging/),
    });
    expect(agreedTipHeight(tips(900_000))).toBeNull();
    expect(decideCommitment(tips(900_000), { height: 900_000, hash: "a".repeat(64), time: NOW / 1000 }, NOW)).toEqual({
      ok: false,
      reason: "1 of 2 block explorers answered for the tip",
    });
  });

  it("ignores a tip more than 6 + minutes/5 blocks above the agreed tip", () => {
    const agreed = { height: 900_000, hash: "a".repeat(64), time: NOW / 1000 - 30 * 60 };
    expect(tipAllowance(agreed.time, NOW)).toBe(12);
    expect(decideCommitment(tips(900_000, 900_000, 900_012), agreed, NOW)).toMatchObject({
      ok: true,
      blockHeight: 900_015,
    });
    expect(decideCommitment(tips(900_000, 900_000, 900_013), agreed, NOW)).toMatchObject({
      ok: true,
      blockHeight: 900_003,
    });
  });
});

/** A made-up chain of headers (difficulty 1, ids their real double SHA-256) from a tip hash. */
async function chain(tipHash: string, count: number, firstTime: number): Promise<BitcoinBlock[]> {
  const blocks: BitcoinBlock[] = [];
  let prev = tipHash;
  for (let i = 0; i < count; i++) {
    const fields = {
      version: 0x20000000,
      previousblockhash: prev,
      merkle_root: await sha256Hex(`m${i}`),
      timestamp: firstTime + i * 600,
      bits: 0x1d00ffff,
      nonce: i,
    };
    const id = await blockHashFromHeader(buildBlockHeader(fields));
    blocks.push({ ...fields, id });
    prev = id;
  }
  return blocks;
}

describe("acceptance", () => {
  it("a block descends from the recorded tip through the stored headers, or is refused", async () => {
    const tipHash = await sha256Hex("tip");
    const [a, b, block] = await chain(tipHash, 3, NOW / 1000);
    const at = { ...block!, height: 103 };
    expect(await checkChainFromTip({ tipHeight: 100, tipHash }, [a!, b!], at)).toEqual({ ok: true });
    // Another tip, a missing header, or a header changed after the fact.
    const other = await sha256Hex("other");
    expect(await checkChainFromTip({ tipHeight: 100, tipHash: other }, [a!, b!], at)).toEqual({
      ok: false,
      reason: `block 101 does not descend from the recorded tip ${other}`,
    });
    expect(await checkChainFromTip({ tipHeight: 100, tipHash }, [b!], at)).toMatchObject({ ok: false });
    expect(await checkChainFromTip({ tipHeight: 100, tipHash }, [{ ...a!, nonce: 7 }, b!], at)).toEqual({
      ok: false,
      reason: `the header of block 101 does not hash to ${a!.id}`,
    });
  });

  it("a block must be later than the commitment minus 2 hours", () => {
    const committedAt = NOW;
    expect(checkBlockTime(committedAt, NOW / 1000 - 119 * 60)).toEqual({ ok: true });
    expect(checkBlockTime(committedAt, NOW / 1000 - 120 * 60).ok).toBe(false);
  });
});

describe("the draw log", () => {
  async function record(
    seq: number,
    prevHash: string,
    fields: Partial<CommitmentRecord> = {},
  ): Promise<CommitmentRecord> {
    const body = {
      poolId: "p",
      seq,
      kind: "commit" as const,
      blockHeight: 900_003,
      tipHeight: 900_000,
      tipHash: "a".repeat(64),
      tipTime: NOW / 1000 - 60,
      highestTip: 900_000,
      reason: null,
      createdAt: NOW,
      ...fields,
    };
    return { ...body, prevHash, hash: await commitmentHash(prevHash, body) };
  }

  it("chains each record to the one before; an edit or a gap shows", async () => {
    const first = await record(0, GENESIS_LOG_HASH);
    const second = await record(1, first.hash, {
      kind: "void",
      tipHeight: null,
      tipHash: null,
      tipTime: null,
      highestTip: null,
      reason: "dispute lost",
    });
    expect(await verifyCommitmentLog([first, second])).toEqual({ ok: true });
    expect(await verifyCommitmentLog([{ ...first, blockHeight: 900_004 }, second])).toEqual({
      ok: false,
      reason: "record 0 does not hash to its recorded hash",
    });
    expect(await verifyCommitmentLog([second])).toMatchObject({ ok: false });
  });

  it("a commitment obeys the rule: 3 past the highest tip, within the allowance, not lagging", async () => {
    expect(checkCommitmentRule(await record(0, GENESIS_LOG_HASH))).toEqual({ ok: true });
    expect(checkCommitmentRule(await record(0, GENESIS_LOG_HASH, { blockHeight: 900_001 }))).toEqual({
      ok: false,
      reason: "block 900001 is not 3 past the highest tip 900000",
    });
    expect(
      checkCommitmentRule(await record(0, GENESIS_LOG_HASH, { highestTip: 900_050, blockHeight: 900_053 })).ok,
    ).toBe(false);
    expect(checkCommitmentRule(await record(0, GENESIS_LOG_HASH, { tipTime: NOW / 1000 - 3 * 3600 })).ok).toBe(false);
  });
});
