import { describe, expect, it } from "vitest";
import fixture from "../fixtures/bitcoin-blocks.json";
import { canonicalEntriesText, frozenEntryList, pickWinner, sha256Hex, type BitcoinBlock } from "~/domain/draw";
import { commitmentHash, GENESIS_LOG_HASH, type CommitmentRecord } from "~/domain/draw-commitment";
import { recomputeDraws, redrawExclusions, verifyPublishedDraw, type PublishedDraw } from "~/domain/draw-verification";

// The verification page's computation (pure, shared with the server's draw): from the opaque entries.txt, its
// digest and the published draws.

const blocks: BitcoinBlock[] = fixture.blocks;
const BLOCK = blocks.find((block) => block.height === 503252)!;
const GENESIS = blocks.find((block) => block.height === 0)!;

async function list(count: number, voided: number[] = []) {
  const entries = Array.from({ length: count }, (_, i) => ({
    entryNumber: i,
    sourceKey: `checkout:cs_${i}`,
    voided: voided.includes(i),
  }));
  const text = canonicalEntriesText(await frozenEntryList(entries));
  return { text, digest: await sha256Hex(text), frozen: await frozenEntryList(entries) };
}

function draw(
  attempt: number,
  winnerEntryNumber: number,
  voided = false,
  block: BitcoinBlock | null = BLOCK,
): PublishedDraw {
  return {
    attempt,
    blockHeight: block?.height ?? 1,
    blockHash: BLOCK.id,
    block,
    winnerEntryNumber,
    voided,
    chainHeaders: [],
    commitmentSeq: attempt,
  };
}

/**
 * A hash-chained log with one commitment per attempt to `block` from its parent (the only tip the fixture lets a real
 * block descend from: it holds no three consecutive headers), made when the block was mined, unless told otherwise.
 */
async function logFor(
  attempts: number,
  tip: { hash?: string; createdAt?: number } = {},
  block: BitcoinBlock = BLOCK,
): Promise<CommitmentRecord[]> {
  const log: CommitmentRecord[] = [];
  let prevHash = GENESIS_LOG_HASH;
  for (let seq = 0; seq < attempts; seq++) {
    const body = {
      poolId: "pool-1",
      seq,
      kind: "commit" as const,
      blockHeight: block.height!,
      tipHeight: block.height! - 1,
      tipHash: tip.hash ?? block.previousblockhash,
      tipTime: block.timestamp - 600,
      highestTip: block.height! - 1,
      reason: null,
      createdAt: tip.createdAt ?? block.timestamp * 1000,
    };
    const hash = await commitmentHash(prevHash, body);
    log.push({ ...body, prevHash, hash });
    prevHash = hash;
  }
  return log;
}

/** Every check but the margin rule, which a commitment at the block's parent cannot meet. */
function passesAllButTheMargin(report: Awaited<ReturnType<typeof verifyPublishedDraw>>) {
  expect(report).toMatchObject({ digestMatches: true, parsed: true, log: { ok: true }, ok: false });
  for (const d of report.draws) {
    expect(d).toMatchObject({ matches: true, header: { ok: true }, chain: { ok: true }, blockTime: { ok: true } });
    expect(d.commitment).toEqual({
      ok: false,
      reason: `block ${d.blockHeight} is not 3 past the highest tip ${d.blockHeight - 1}`,
    });
  }
}

describe("verifyPublishedDraw", () => {
  it("recomputes the digest and the winner among the valid entries, a void entry keeping its line", async () => {
    const { text, digest, frozen } = await list(9, [2]);
    const winner = pickWinner(frozen, BLOCK.id).entryNumber;
    const report = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: digest,
      draws: [draw(0, winner)],
      log: await logFor(1),
    });
    expect(report).toMatchObject({ digestMatches: true, entries: 9, validEntries: 8, voidEntries: 1 });
    passesAllButTheMargin(report);
    const valid = [0, 1, 3, 4, 5, 6, 7, 8];
    expect(report.draws[0]).toMatchObject({
      validCount: 8,
      entryNumber: valid[Number(BigInt(`0x${BLOCK.id}`) % 8n)],
      matches: true,
    });
    expect(report.draws[0]!.header).toEqual({ ok: true });
    expect(text).not.toContain("cs_");
  });

  it("a redraw leaves out the earlier voided winner, by the same rule", async () => {
    const { text, digest, frozen } = await list(5);
    const first = pickWinner(frozen, BLOCK.id).entryNumber;
    const second = pickWinner(frozen, BLOCK.id, [first]).entryNumber;
    expect(redrawExclusions([{ voided: true, winnerEntryNumber: first }])).toEqual([first]);
    const report = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: digest,
      draws: [draw(1, second), draw(0, first, true)],
      log: await logFor(2),
    });
    passesAllButTheMargin(report);
    expect(report.draws.map((d) => [d.attempt, d.entryNumber, d.excluded, d.voided])).toEqual([
      [0, first, [], true],
      [1, second, [first], false],
    ]);
  });

  it("fails on a changed list, a different published winner, or a block under the difficulty floor", async () => {
    const { text, digest, frozen } = await list(4);
    const winner = pickWinner(frozen, BLOCK.id).entryNumber;
    const tampered = await verifyPublishedDraw({
      entriesText: text
        .replace(/\n$/, "\n")
        .replace(/^0:/, "0:")
        .replace(/:[0-9a-f]/, ":0"),
      publishedDigest: digest,
      draws: [],
      log: [],
    });
    expect(tampered.digestMatches).toBe(false);
    expect(tampered.ok).toBe(false);

    const wrongWinner = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: digest,
      draws: [draw(0, (winner + 1) % 4)],
      log: await logFor(1),
    });
    expect(wrongWinner.ok).toBe(false);
    expect(wrongWinner.draws[0]).toMatchObject({ matches: false, entryNumber: winner });

    const weak = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: digest,
      draws: [{ ...draw(0, winner, false, GENESIS), blockHash: GENESIS.id }],
      log: [],
    });
    expect(weak.ok).toBe(false);
    expect(weak.draws[0]!.header).toMatchObject({ ok: false });
    expect((weak.draws[0]!.header as { reason: string }).reason).toMatch(/below the draw's minimum/);

    const garbage = await verifyPublishedDraw({
      entriesText: "not a list\n",
      publishedDigest: digest,
      draws: [draw(0, winner)],
      log: await logFor(1),
    });
    expect(garbage).toMatchObject({ parsed: false, ok: false });
  });

  it("recomputeDraws: no valid entry left gives no winner", async () => {
    const { frozen } = await list(1);
    const [only] = recomputeDraws(frozen, [draw(0, 0, true), draw(1, 0)]);
    expect(only).toMatchObject({ entryNumber: 0, matches: true });
    const second = recomputeDraws(frozen, [draw(0, 0, true), draw(1, 0)])[1];
    expect(second).toMatchObject({ entryNumber: null, index: null, matches: false, excluded: [0] });
  });

  it("refuses a block that does not descend from the recorded tip, or is too old for its commitment", async () => {
    const { text, digest, frozen } = await list(4);
    const winner = pickWinner(frozen, BLOCK.id).entryNumber;
    const elsewhere = await sha256Hex("a tip on another chain");
    const foreign = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: digest,
      draws: [draw(0, winner)],
      log: await logFor(1, { hash: elsewhere }),
    });
    expect(foreign.ok).toBe(false);
    expect(foreign.draws[0]!.chain).toEqual({
      ok: false,
      reason: `block ${BLOCK.height} does not descend from the recorded tip ${elsewhere}`,
    });

    const late = BLOCK.timestamp * 1000 + 2 * 60 * 60 * 1000;
    const old = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: digest,
      draws: [draw(0, winner)],
      log: await logFor(1, { createdAt: late }),
    });
    expect(old.ok).toBe(false);
    expect(old.draws[0]!.blockTime.ok).toBe(false);
    expect(old.draws[0]!.chain.ok).toBe(true);

    // No commitment recorded, or a log whose record was changed after the fact.
    const none = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: digest,
      draws: [draw(0, winner)],
      log: [],
    });
    expect(none.draws[0]!.commitment).toEqual({ ok: false, reason: `no recorded commitment to block ${BLOCK.height}` });
    const [record] = await logFor(1);
    const edited = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: digest,
      draws: [draw(0, winner)],
      log: [{ ...record!, tipTime: record!.tipTime! + 1 }],
    });
    expect(edited.log).toEqual({ ok: false, reason: "record 0 does not hash to its recorded hash" });
    expect(edited.ok).toBe(false);
  });
});
