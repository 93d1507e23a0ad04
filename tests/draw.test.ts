import { env, SELF } from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mailOutbox, payouts, prizeEntries, prizePools, prizeWinners } from "~/db/schema";
import { reversalVoidsDraw } from "~/domain/pool";
import { runPrizeCron } from "~/lib/payments/connect/prizes.server";
import { entriesDigest, sha256Hex, verifyBlock } from "~/domain/draw";
import { DRAW_COMMIT_MARGIN } from "~/domain/draw-commitment";
import { verifyPublishedDraw } from "~/domain/draw-verification";
import { distributePool } from "~/domain/revenue";
import {
  DEFAULT_BLOCK_EXPLORERS,
  commitDrawHeight,
  drawPool,
  explorerBases,
  fetchVerifiedBlock,
  recordCommitment,
  runPoolCron,
} from "~/lib/draw.server";
import type { PoolLiveMessage } from "~/lib/pool-contract";
import { applyPaymentReversal } from "~/lib/pool-reversal.server";
import { addContribution, closePool, openPool, poolStub, publicPoolState } from "~/lib/pools.server";
import { poolsApi } from "../workers/pools-api";
import { runScheduled } from "../workers/scheduled";
import fixture from "./fixtures/bitcoin-blocks.json";
import { db, get, makeUser, ORIGIN, signIn } from "./helpers";
import { commitToParent as commitToParentOf } from "./support/draw";
import { bothHealthy, EXPLORER_A, EXPLORER_B, fakeExplorers, healthy, stubGlobalFetch } from "./support/explorers";

// Real mainnet blocks (tests/fixtures/bitcoin-blocks.json), served by fake Esplora explorers: no network.
const BLOCK = fixture.blocks.find((block) => block.height === 503252)!;
const OTHER_BLOCK = fixture.blocks.find((block) => block.height === 1)!;
const LATER_BLOCK = fixture.blocks.find((block) => block.height === 840000)!;
const GENESIS = fixture.blocks.find((block) => block.height === 0)!;

const CONFIRMED_TIP = BLOCK.height + 10;

beforeEach(() => {
  // Unless a test says otherwise, the explorers are unreachable.
  stubGlobalFetch(fakeExplorers({ [EXPLORER_A]: { down: "reject" }, [EXPLORER_B]: { down: "reject" } }));
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function poolRow(poolId: string) {
  const [row] = await db().select().from(prizePools).where(eq(prizePools.id, poolId));
  if (!row) throw new Error(`no pool ${poolId}`);
  return row;
}

async function winnersOf(poolId: string) {
  return db().select().from(prizeWinners).where(eq(prizeWinners.poolId, poolId));
}

/** commitToParent (tests/support/draw.ts), by default to the fixture block 503,252. */
async function commitToParent(
  poolId: string,
  block: { height: number; previousblockhash: string; timestamp: number } = BLOCK,
) {
  await commitToParentOf(poolId, block);
}

/**
 * A pool with `count` entries (one fan each) plus a host deposit, closed while no explorer answers, then committed to
 * the fixture block (commitToParent).
 */
async function committedPool(count = 7) {
  const host = await makeUser({ name: "Draw Host" });
  const fans = await Promise.all(Array.from({ length: count }, (_, i) => makeUser({ name: `Draw Fan ${i}` })));
  const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
  for (const [i, fan] of fans.entries()) {
    await addContribution(env, {
      hostId: host.id,
      sourceType: i % 2 === 0 ? "product_purchase" : "guess_entry",
      sourceKey: `pi_draw_${pool.id}_${i}`,
      amountCents: 1_000 + i,
      currency: "USD",
      userId: fan.id,
      earnsEntry: true,
    });
  }
  await addContribution(env, {
    hostId: host.id,
    sourceType: "host_deposit",
    sourceKey: `dep_draw_${pool.id}`,
    amountCents: 50_000,
    currency: "USD",
    userId: host.id,
    earnsEntry: false,
  });
  await closePool(env, pool.id, "timer_expired");
  await commitToParent(pool.id);
  const amountCents = fans.reduce((sum, _, i) => sum + 1_000 + i, 50_000);
  return { host, fans, pool, amountCents };
}

/** The pool has no winner and waits, committed, for the next run. */
async function expectNoWinner(poolId: string) {
  const row = await poolRow(poolId);
  expect(row).toMatchObject({
    status: "closed",
    drawBlockHeight: BLOCK.height,
    drawBlockHash: null,
    winnerEntryNumber: null,
    winnerUserId: null,
    drawnAt: null,
  });
  expect(await winnersOf(poolId)).toEqual([]);
}

describe("commitment at close", () => {
  it("freezes the entry list, publishes its digest and commits 3 blocks past the agreed tip", async () => {
    const { pool } = await committedPool(4);
    const row = await poolRow(pool.id);
    const entries = await db()
      .select({
        entryNumber: prizeEntries.entryNumber,
        sourceKey: prizeEntries.sourceKey,
        sourceType: prizeEntries.sourceType,
      })
      .from(prizeEntries)
      .where(eq(prizeEntries.poolId, pool.id))
      .orderBy(asc(prizeEntries.entryNumber));
    expect(entries.map((e) => e.entryNumber)).toEqual([0, 1, 2, 3]);
    expect(row).toMatchObject({ status: "closed", entriesCount: 4, drawBlockHeight: BLOCK.height });
    expect(row.entriesDigest).toBe(await entriesDigest(entries));
    expect(row.closedAt).toBeInstanceOf(Date);
  });

  it("commits on a later cron run when no explorer answered at close", async () => {
    const host = await makeUser({ name: "Late Commit Host" });
    const fan = await makeUser({ name: "Late Commit Fan" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
    await addContribution(env, {
      hostId: host.id,
      sourceType: "product_purchase",
      sourceKey: `pi_late_${pool.id}`,
      amountCents: 900,
      currency: "USD",
      userId: fan.id,
      earnsEntry: true,
    });
    await closePool(env, pool.id, "timer_expired");
    expect(await poolRow(pool.id)).toMatchObject({ status: "closed", drawBlockHeight: null });

    const tip = BLOCK.height + 100;
    const summary = await runPoolCron(env, new Date(), {
      fetcher: fakeExplorers({ [EXPLORER_A]: { tip }, [EXPLORER_B]: { tip: tip - 2, realTip: tip } }),
    });
    // Both explorers have block tip - 2 (same hash); the higher tip, 2 above it, is within the allowance: 3 past it.
    expect(summary.committed).toContainEqual({ poolId: pool.id, height: tip + 3 });
    expect(await poolRow(pool.id)).toMatchObject({
      status: "closed",
      drawBlockHeight: tip + 3,
      winnerEntryNumber: null,
    });
  });

  it("never commits on a tip only one explorer reports, or on explorers that disagree", async () => {
    const host = await makeUser({ name: "Tip Host" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
    await addContribution(env, {
      hostId: host.id,
      sourceType: "product_purchase",
      sourceKey: `pi_tip_${pool.id}`,
      amountCents: 900,
      currency: "USD",
      userId: null,
      earnsEntry: true,
    });
    await closePool(env, pool.id, "timer_expired");
    const tip = BLOCK.height + 50;
    // Only one explorer answers.
    const lonely = fakeExplorers({ [EXPLORER_A]: { tip }, [EXPLORER_B]: { down: "reject" } });
    expect(await commitDrawHeight(env, pool.id, { fetcher: lonely })).toBeNull();
    // Both answer, but on different chains at the tip.
    const forked = fakeExplorers({ [EXPLORER_A]: { tip }, [EXPLORER_B]: { tip, chain: "fork" } });
    expect(await commitDrawHeight(env, pool.id, { fetcher: forked })).toBeNull();
    const summary = await runPoolCron(env, new Date(), { fetcher: forked });
    expect(summary.waiting.find((w) => w.poolId === pool.id)?.reason).toMatch(/disagree/);
    expect(await poolRow(pool.id)).toMatchObject({ drawBlockHeight: null });
    // Agreeing explorers: committed at least 3 past the tip they agree on.
    expect(await commitDrawHeight(env, pool.id, { fetcher: bothHealthy(tip) })).toBe(tip + DRAW_COMMIT_MARGIN);
  });

  it("asks the explorers in code; configuration can only add to them", () => {
    expect(explorerBases({})).toEqual([...DEFAULT_BLOCK_EXPLORERS]);
    expect(explorerBases({ BLOCK_EXPLORER_URLS: "" })).toEqual([...DEFAULT_BLOCK_EXPLORERS]);
    expect(explorerBases({ BLOCK_EXPLORER_URLS: "https://explorer.example/api/, http://insecure.example" })).toEqual([
      ...DEFAULT_BLOCK_EXPLORERS,
      "https://explorer.example/api",
    ]);
  });
});

describe("the draw", () => {
  it("picks entry BigInt(hash) mod N from a block both explorers serve and that verifies", async () => {
    const { pool, fans, amountCents } = await committedPool(7);
    const socket = await poolsApi.request(`/${pool.id}/live`, { headers: { Upgrade: "websocket" } }, env);
    const ws = socket.webSocket!;
    const messages: PoolLiveMessage[] = [];
    ws.addEventListener("message", (event) => {
      messages.push(JSON.parse(String(event.data)));
    });
    ws.accept();

    const fetcher = bothHealthy(CONFIRMED_TIP);
    const outcome = await drawPool(env, pool.id, { fetcher });

    const expectedEntry = Number(BigInt(`0x${BLOCK.id}`) % 7n);
    const winner = fans[expectedEntry]!;
    expect(outcome).toMatchObject({
      status: "drawn",
      blockHash: BLOCK.id,
      entryNumber: expectedEntry,
      userId: winner.id,
    });
    // The winner's mail (sent by the cron, which knows no request origin) links to the draw at SITE_ORIGIN.
    const [won] = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, winner.email), eq(mailOutbox.subject, "You won the main prize!")));
    expect(won?.textBody).toContain(`See how it was drawn: ${ORIGIN}/winner-selection/${pool.id}`);
    // Both explorers were asked for the block.
    for (const base of [EXPLORER_A, EXPLORER_B]) {
      expect(fetcher.calls).toContain(`${base}/block-height/${BLOCK.height}`);
      expect(fetcher.calls).toContain(`${base}/block/${BLOCK.id}`);
    }

    const row = await poolRow(pool.id);
    expect(row).toMatchObject({
      status: "drawn",
      drawBlockHeight: BLOCK.height,
      drawBlockHash: BLOCK.id,
      winnerEntryNumber: expectedEntry,
      winnerUserId: winner.id,
    });
    expect(row.drawnAt).toBeInstanceOf(Date);
    // The header fields are published, so a browser can rebuild the header and check its hash offline.
    expect(row.drawBlockHeader).toEqual({
      id: BLOCK.id,
      height: BLOCK.height,
      version: BLOCK.version,
      previousblockhash: BLOCK.previousblockhash,
      merkle_root: BLOCK.merkle_root,
      timestamp: BLOCK.timestamp,
      bits: BLOCK.bits,
      nonce: BLOCK.nonce,
    });
    expect(await verifyBlock(row.drawBlockHeader!)).toEqual({ ok: true });
    const winners = await winnersOf(pool.id);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({
      prizeType: "main",
      userId: winner.id,
      winnerName: `Draw Fan ${expectedEntry}`,
      prizeAmountCents: distributePool(amountCents).mainPrize,
      currency: "USD",
      entryNumber: expectedEntry,
      blockHash: BLOCK.id,
    });

    await vi.waitFor(() => {
      if (!messages.some((m) => m.winner)) throw new Error("no winner message yet");
    });
    expect(messages.find((m) => m.winner)).toMatchObject({
      type: "pool",
      poolId: pool.id,
      status: "drawn",
      entries: 7,
      winner: { entryNumber: expectedEntry, blockHash: BLOCK.id, blockHeight: BLOCK.height },
    });
    // Live messages are public: no user id anywhere.
    expect(JSON.stringify(messages)).not.toContain(winner.id);
    ws.close(1000, "done");

    expect(await publicPoolState(env, pool.id)).toMatchObject({
      status: "drawn",
      entries: 7,
      drawBlockHeight: BLOCK.height,
      drawBlockHash: BLOCK.id,
      decimalHash: BigInt(`0x${BLOCK.id}`).toString(10),
      winnerEntryNumber: expectedEntry,
      winnerName: `Draw Fan ${expectedEntry}`,
    });

    // Drawing again changes nothing.
    expect(await drawPool(env, pool.id, { fetcher })).toMatchObject({ status: "skipped" });
    expect(await winnersOf(pool.id)).toHaveLength(1);
  });

  it("has no winner when the header fails verification (tampered nonce), then draws once it is right", async () => {
    const { pool } = await committedPool(5);
    const tampered = { ...BLOCK, nonce: BLOCK.nonce + 1 };
    const outcome = await drawPool(env, pool.id, {
      fetcher: fakeExplorers({
        [EXPLORER_A]: healthy(CONFIRMED_TIP, { [BLOCK.height]: tampered }),
        [EXPLORER_B]: healthy(CONFIRMED_TIP, { [BLOCK.height]: tampered }),
      }),
    });
    expect(outcome).toMatchObject({ status: "waiting" });
    expect((outcome as { reason: string }).reason).toMatch(/does not match the block id/);
    await expectNoWinner(pool.id);

    // The next run, with the real block, draws.
    const retry = await drawPool(env, pool.id, { fetcher: bothHealthy(CONFIRMED_TIP) });
    expect(retry).toMatchObject({ status: "drawn", entryNumber: Number(BigInt(`0x${BLOCK.id}`) % 5n) });
  });

  it("has no winner when one explorer serves a tampered header", async () => {
    const { pool } = await committedPool(3);
    const outcome = await drawPool(env, pool.id, {
      fetcher: fakeExplorers({
        [EXPLORER_A]: healthy(CONFIRMED_TIP),
        [EXPLORER_B]: healthy(CONFIRMED_TIP, { [BLOCK.height]: { ...BLOCK, nonce: 0 } }),
      }),
    });
    expect(outcome).toMatchObject({ status: "waiting" });
    await expectNoWinner(pool.id);
  });

  it("has no winner when the explorers disagree on the block at the height", async () => {
    const { pool } = await committedPool(3);
    const outcome = await drawPool(env, pool.id, {
      fetcher: fakeExplorers({
        [EXPLORER_A]: healthy(CONFIRMED_TIP),
        // A valid block, but another one: explorer B claims block 1 is at this height.
        [EXPLORER_B]: healthy(CONFIRMED_TIP, { [BLOCK.height]: { ...OTHER_BLOCK } }),
      }),
    });
    expect(outcome).toMatchObject({ status: "waiting" });
    expect((outcome as { reason: string }).reason).toMatch(/disagree/);
    await expectNoWinner(pool.id);
  });

  it("has no winner when an explorer is down (request fails or answers 500)", async () => {
    const { pool } = await committedPool(3);
    for (const down of ["reject", 500] as const) {
      const outcome = await drawPool(env, pool.id, {
        fetcher: fakeExplorers({
          [EXPLORER_A]: healthy(CONFIRMED_TIP),
          [EXPLORER_B]: { ...healthy(CONFIRMED_TIP), down },
        }),
      });
      expect(outcome).toMatchObject({ status: "waiting" });
      await expectNoWinner(pool.id);
    }
    // An explorer that is up but does not have the block yet.
    const missing = await drawPool(env, pool.id, {
      fetcher: fakeExplorers({ [EXPLORER_A]: healthy(CONFIRMED_TIP), [EXPLORER_B]: healthy(CONFIRMED_TIP, {}) }),
    });
    expect(missing).toMatchObject({ status: "waiting" });
    await expectNoWinner(pool.id);
  });

  it("has no winner while the block has too few confirmations", async () => {
    const { pool } = await committedPool(3);
    // 5 confirmations on one explorer, 6 on the other: the smaller counts (6 are required by default).
    const fetcher = fakeExplorers({ [EXPLORER_A]: healthy(BLOCK.height + 5), [EXPLORER_B]: healthy(BLOCK.height + 4) });
    const outcome = await drawPool(env, pool.id, { fetcher });
    expect(outcome).toMatchObject({ status: "waiting" });
    expect((outcome as { reason: string }).reason).toMatch(/5 of 6 confirmations/);
    // It never even asked for the block.
    expect(fetcher.calls.some((url) => url.includes("/block-height/"))).toBe(false);
    await expectNoWinner(pool.id);
    // Not mined yet at all.
    expect(await drawPool(env, pool.id, { fetcher: bothHealthy(BLOCK.height - 1) })).toMatchObject({
      status: "waiting",
    });
    await expectNoWinner(pool.id);
  });

  it("needs two explorers", async () => {
    const { pool } = await committedPool(2);
    const outcome = await drawPool(env, pool.id, { fetcher: bothHealthy(CONFIRMED_TIP), explorers: [EXPLORER_A] });
    expect(outcome).toMatchObject({ status: "waiting", reason: "1 of 2 block explorers answered" });
    await expectNoWinner(pool.id);
  });

  it("draws from the cron, through the configured explorers", async () => {
    const { pool, fans } = await committedPool(6);
    // Still too early: nothing happens.
    vi.restoreAllMocks();
    stubGlobalFetch(bothHealthy(BLOCK.height + 2));
    await runScheduled(env, new Date());
    await expectNoWinner(pool.id);

    vi.restoreAllMocks();
    stubGlobalFetch(bothHealthy(CONFIRMED_TIP));
    await runScheduled(env, new Date());
    const expectedEntry = Number(BigInt(`0x${BLOCK.id}`) % 6n);
    expect(await poolRow(pool.id)).toMatchObject({
      status: "drawn",
      drawBlockHash: BLOCK.id,
      winnerEntryNumber: expectedEntry,
      winnerUserId: fans[expectedEntry]!.id,
    });
    expect(await poolStub(env, pool.id).state()).toMatchObject({
      status: "drawn",
      winner: { entryNumber: expectedEntry },
    });
  });
});

describe("block verification", () => {
  it("refuses a block whose hash verifies but whose difficulty is 1 (genesis, with no previous hash)", async () => {
    const genesis = { ...GENESIS, previousblockhash: null as unknown as string };
    const result = await fetchVerifiedBlock(env, 0, {
      fetcher: fakeExplorers({
        [EXPLORER_A]: healthy(100, { 0: genesis }),
        [EXPLORER_B]: healthy(100, { 0: genesis }),
      }),
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/difficulty 1 is below the draw's minimum/);
  });

  it("has no winner when the committed block is a valid-hash difficulty-1 header", async () => {
    const { pool } = await committedPool(3);
    const easy = { ...OTHER_BLOCK, height: BLOCK.height };
    const outcome = await drawPool(env, pool.id, {
      fetcher: fakeExplorers({
        [EXPLORER_A]: healthy(CONFIRMED_TIP, { [BLOCK.height]: easy }),
        [EXPLORER_B]: healthy(CONFIRMED_TIP, { [BLOCK.height]: easy }),
      }),
    });
    expect(outcome).toMatchObject({ status: "waiting" });
    expect((outcome as { reason: string }).reason).toMatch(/below the draw's minimum/);
    await expectNoWinner(pool.id);
  });
});

/** What the verification page computes in the browser: from the opaque entries.txt and the published draws only. */
async function browserCheck(poolId: string) {
  const state = await publicPoolState(env, poolId);
  const res = await SELF.fetch(`${ORIGIN}/winner-selection/${poolId}/entries.txt`);
  expect(res.status).toBe(200);
  const text = await res.text();
  // Opaque: no private source key is published.
  expect(text).not.toMatch(/pi_|checkout:|guess:/);
  return verifyPublishedDraw({
    entriesText: text,
    publishedDigest: state!.entriesDigest,
    draws: state!.draws,
    log: state!.log,
  });
}

describe("void entries and redraws", () => {
  it("a winning entry refunded through the provider before payout is voided and redrawn from a fresh commitment; the refund is booked to the host", async () => {
    const { pool, host } = await committedPool(7);
    const first = await drawPool(env, pool.id, { fetcher: bothHealthy(CONFIRMED_TIP) });
    expect(first.status).toBe("drawn");
    const winning = (first as { entryNumber: number }).entryNumber;
    const winnerKey = `pi_draw_${pool.id}_${winning}`;
    const before = await poolRow(pool.id);

    // The winner's payment is refunded in full (replayed): a host debit, and a void set up once.
    const refund = {
      sourceKey: winnerKey,
      reversalKey: `re_winner_${pool.id}`,
      reversedCents: 10_000,
      paymentCents: 10_000,
      cumulativeReversedCents: 10_000,
    };
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await applyPaymentReversal(env, refund));
    expect(outcomes[0]).toMatchObject({ kind: "host_debit", hostId: host.id, redrawn: true });
    expect(outcomes.slice(1).every((o) => o.kind === "host_debit" && !o.booked && !o.redrawn)).toBe(true);

    // No explorer answered at the void: the pool waits, uncommitted, for the cron to commit past the tip then.
    const reopened = await poolRow(pool.id);
    expect(reopened).toMatchObject({
      status: "closed",
      drawBlockHeight: null,
      winnerEntryNumber: null,
      entriesDigest: before.entriesDigest,
      amountCents: before.amountCents,
    });
    expect(await winnersOf(pool.id)).toEqual([]);
    const state = await publicPoolState(env, pool.id);
    expect(state!.log.map((r) => [r.kind, r.blockHeight])).toEqual([
      ["commit", BLOCK.height],
      ["void", BLOCK.height],
    ]);
    expect(state!.log[1]!.reason).toMatch(/reversed by the buyer or the card provider/);

    // The new block: a later real one (840,000), by the same rule over the valid entries, the refunded winner left out.
    await commitToParent(pool.id, LATER_BLOCK);
    const later = { [LATER_BLOCK.height]: LATER_BLOCK };
    const second = await drawPool(env, pool.id, {
      fetcher: fakeExplorers({
        [EXPLORER_A]: healthy(LATER_BLOCK.height + 10, later),
        [EXPLORER_B]: healthy(LATER_BLOCK.height + 10, later),
      }),
    });
    expect(second.status).toBe("drawn");
    const valid = [0, 1, 2, 3, 4, 5, 6].filter((n) => n !== winning);
    const expected = valid[Number(BigInt(`0x${LATER_BLOCK.id}`) % BigInt(valid.length))];
    expect((second as { entryNumber: number }).entryNumber).toBe(expected);
    const draws = await publicPoolState(env, pool.id);
    expect(draws?.draws.map((d) => [d.blockHeight, d.winnerEntryNumber, d.voided])).toEqual([
      [BLOCK.height, winning, true],
      [LATER_BLOCK.height, expected, false],
    ]);
    expect(await winnersOf(pool.id)).toHaveLength(1);

    // The browser's recomputation from the opaque list finds both draws' winners, the redraw leaving out the first;
    // each block descends from its recorded tip and was mined after its commitment. These test commitments are at
    // the block's parent (the fixture has no three consecutive headers), so the margin check says so.
    const report = await browserCheck(pool.id);
    expect(report).toMatchObject({ digestMatches: true, entries: 7, validEntries: 7, log: { ok: true } });
    expect(
      report.draws.map((d) => [
        d.entryNumber,
        d.excluded,
        d.matches,
        d.voided,
        d.header?.ok,
        d.chain.ok,
        d.blockTime.ok,
      ]),
    ).toEqual([
      [winning, [], true, true, true, true, true],
      [expected, [winning], true, false, true, true, true],
    ]);
    expect(report.draws.map((d) => d.commitment)).toEqual([
      { ok: false, reason: `block ${BLOCK.height} is not 3 past the highest tip ${BLOCK.height - 1}` },
      { ok: false, reason: `block ${LATER_BLOCK.height} is not 3 past the highest tip ${LATER_BLOCK.height - 1}` },
    ]);
    expect(report.ok).toBe(false);
  }, 90_000);

  it("an entry voided while the pool was open is marked void in the frozen list and never wins", async () => {
    const host = await makeUser({ name: "Void Host" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
    for (let i = 0; i < 4; i++) {
      await addContribution(env, {
        hostId: host.id,
        sourceType: "product_purchase",
        sourceKey: `pi_void_${pool.id}_${i}`,
        amountCents: 1_000,
        currency: "USD",
        userId: null,
        earnsEntry: true,
      });
    }
    const winnerWithAll = Number(BigInt(`0x${BLOCK.id}`) % 4n);
    await applyPaymentReversal(env, {
      sourceKey: `pi_void_${pool.id}_${winnerWithAll}`,
      reversalKey: `re_void_${pool.id}`,
      reversedCents: 10_000,
      paymentCents: 10_000,
      cumulativeReversedCents: 10_000,
    });
    await closePool(env, pool.id, "timer_expired");
    await commitToParent(pool.id);
    const row = await poolRow(pool.id);
    expect(row).toMatchObject({ entriesCount: 3, amountCents: 3_000, drawBlockHeight: BLOCK.height });
    const entries = await poolStub(env, pool.id).entries();
    expect(row.entriesDigest).toBe(await entriesDigest(entries));
    expect(entries.filter((e) => e.voided).map((e) => e.entryNumber)).toEqual([winnerWithAll]);

    const outcome = await drawPool(env, pool.id, { fetcher: bothHealthy(CONFIRMED_TIP) });
    const valid = [0, 1, 2, 3].filter((n) => n !== winnerWithAll);
    expect(outcome).toMatchObject({ status: "drawn", entryNumber: valid[Number(BigInt(`0x${BLOCK.id}`) % 3n)] });

    // The verification page's recomputation: the void line is marked, the winner is taken among the 3 valid entries.
    const report = await browserCheck(pool.id);
    expect(report).toMatchObject({ digestMatches: true, entries: 4, validEntries: 3, voidEntries: 1 });
    expect(report.draws).toHaveLength(1);
    expect(report.draws[0]).toMatchObject({
      validCount: 3,
      entryNumber: valid[Number(BigInt(`0x${BLOCK.id}`) % 3n)],
      matches: true,
    });
  });
});

/** A closed pool with `count` entries (one fan each), no height committed yet (no explorer answered at close). */
async function closedPool(count: number) {
  const host = await makeUser({ name: "Commit Host" });
  const fans = await Promise.all(Array.from({ length: count }, (_, i) => makeUser({ name: `Commit Fan ${i}` })));
  const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
  for (const [i, fan] of fans.entries()) {
    await addContribution(env, {
      hostId: host.id,
      sourceType: "product_purchase",
      sourceKey: `pi_commit_${pool.id}_${i}`,
      amountCents: 2_000,
      currency: "USD",
      userId: fan.id,
      earnsEntry: true,
    });
  }
  await closePool(env, pool.id, "timer_expired");
  expect(await poolRow(pool.id)).toMatchObject({ status: "closed", drawBlockHeight: null });
  return { host, fans, pool };
}

const EXPLORER_C = "https://lagging-explorer.example/api";

describe("a draw nobody can steer: commitment", () => {
  it("an explorer 100 blocks behind cannot move the commitment below the real tip", async () => {
    const { pool } = await closedPool(2);
    const tip = BLOCK.height + 1_000;
    const explorers = [EXPLORER_A, EXPLORER_B, EXPLORER_C];
    const lagging = { tip: tip - 100, realTip: tip };
    // Two explorers at the real tip and one 100 behind: 3 past the real tip, not 3 past the lagging one.
    const three = fakeExplorers({ [EXPLORER_A]: { tip }, [EXPLORER_B]: { tip }, [EXPLORER_C]: lagging });
    expect(await commitDrawHeight(env, pool.id, { fetcher: three, explorers })).toBe(tip + 3);
    const [record] = (await publicPoolState(env, pool.id))!.log;
    expect(record).toMatchObject({
      kind: "commit",
      seq: 0,
      blockHeight: tip + 3,
      tipHeight: tip,
      highestTip: tip,
      reason: null,
    });
    expect(record!.tipHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Math.abs(record!.tipTime! * 1000 - Date.now())).toBeLessThan(5 * 60_000);
    expect(Math.abs(record!.createdAt - Date.now())).toBeLessThan(60_000);

    // Only one explorer at the real tip and the lagging one: the tip they agree on is 100 blocks (16 hours) old, so
    // the explorers are lagging and nothing is committed (never 3 past the lagging tip).
    const other = await closedPool(2);
    const two = fakeExplorers({ [EXPLORER_A]: { tip }, [EXPLORER_C]: lagging });
    expect(
      await commitDrawHeight(env, other.pool.id, { fetcher: two, explorers: [EXPLORER_A, EXPLORER_C] }),
    ).toBeNull();
    const summary = await runPoolCron(env, new Date(), { fetcher: two, explorers: [EXPLORER_A, EXPLORER_C] });
    expect(summary.waiting.find((w) => w.poolId === other.pool.id)?.reason).toMatch(/explorers are lagging/);
    expect(await poolRow(other.pool.id)).toMatchObject({ drawBlockHeight: null });
  });

  it("ignores a tip too far above the agreed one, and takes the highest tip within the allowance", async () => {
    const { pool } = await closedPool(2);
    const tip = BLOCK.height + 2_000;
    // 50 above the agreed tip a minute after it: more than 6 + 1/5 blocks: ignored.
    const racing = fakeExplorers({
      [EXPLORER_A]: { tip },
      [EXPLORER_B]: { tip },
      [EXPLORER_C]: { tip: tip + 50, realTip: tip },
    });
    expect(
      await commitDrawHeight(env, pool.id, { fetcher: racing, explorers: [EXPLORER_A, EXPLORER_B, EXPLORER_C] }),
    ).toBe(tip + 3);
    const other = await closedPool(2);
    // 4 above: within the allowance, so 3 past it.
    const ahead = fakeExplorers({
      [EXPLORER_A]: { tip },
      [EXPLORER_B]: { tip },
      [EXPLORER_C]: { tip: tip + 4, realTip: tip },
    });
    expect(
      await commitDrawHeight(env, other.pool.id, { fetcher: ahead, explorers: [EXPLORER_A, EXPLORER_B, EXPLORER_C] }),
    ).toBe(tip + 7);
    expect((await publicPoolState(env, other.pool.id))!.log[0]).toMatchObject({
      tipHeight: tip,
      highestTip: tip + 4,
      blockHeight: tip + 7,
    });
  });

  it("a lone answering explorer commits nothing", async () => {
    const { pool } = await closedPool(2);
    const lone = fakeExplorers({ [EXPLORER_A]: { tip: BLOCK.height + 500 }, [EXPLORER_B]: { down: 503 } });
    expect(await commitDrawHeight(env, pool.id, { fetcher: lone })).toBeNull();
    const summary = await runPoolCron(env, new Date(), { fetcher: lone });
    expect(summary.waiting.find((w) => w.poolId === pool.id)?.reason).toBe(
      "1 of 2 block explorers answered for the tip",
    );
    expect(await poolRow(pool.id)).toMatchObject({ status: "closed", drawBlockHeight: null });
    expect((await publicPoolState(env, pool.id))!.log).toEqual([]);
  });
});

describe("a draw nobody can steer: acceptance", () => {
  it("a block that does not descend from the recorded tip is refused by the cron: the draw is delayed and committed afresh", async () => {
    const { pool } = await closedPool(3);
    const elsewhere = await sha256Hex("a tip on another chain");
    expect(
      await recordCommitment(env, pool.id, {
        blockHeight: BLOCK.height,
        tip: { height: BLOCK.height - 1, hash: elsewhere, time: BLOCK.timestamp - 600 },
        highestTip: BLOCK.height - 1,
        at: new Date(BLOCK.timestamp * 1000),
      }),
    ).toBe(true);
    const summary = await runPoolCron(env, new Date(), { fetcher: bothHealthy(CONFIRMED_TIP) });
    const reason = summary.waiting.find((w) => w.poolId === pool.id)?.reason;
    expect(reason).toBe(`block ${BLOCK.height} does not descend from the recorded tip ${elsewhere}`);
    expect(await poolRow(pool.id)).toMatchObject({
      status: "closed",
      drawBlockHeight: null,
      drawDelayReason: reason,
      winnerEntryNumber: null,
    });
    expect(await winnersOf(pool.id)).toEqual([]);
    // The pool page says the draw is delayed; the admin sees why.
    const page = await (await SELF.fetch(`${ORIGIN}/winner-selection/${pool.id}`)).text();
    expect(page).toContain("Draw delayed");
    expect(page).toContain("does not descend from the recorded tip");
    const admin = await makeUser({ role: "admin", name: "Draw Admin" });
    const adminPage = await (await get("/admin", { cookie: await signIn(admin.email) })).text();
    expect(adminPage).toContain("Delayed draws");
    expect(adminPage).toContain(`block ${BLOCK.height} does not descend from the recorded tip`);

    // The next run commits afresh past the tip then, and records it.
    const next = await runPoolCron(env, new Date(), { fetcher: bothHealthy(CONFIRMED_TIP) });
    expect(next.committed).toContainEqual({ poolId: pool.id, height: CONFIRMED_TIP + 3 });
    expect((await publicPoolState(env, pool.id))!.log.map((r) => [r.kind, r.blockHeight, r.tipHeight])).toEqual([
      ["commit", BLOCK.height, BLOCK.height - 1],
      ["delay", BLOCK.height, null],
      ["commit", CONFIRMED_TIP + 3, CONFIRMED_TIP],
    ]);
  });

  it("a block too old for its commitment (mined more than 2 hours before it) is refused by the cron", async () => {
    const { pool } = await closedPool(3);
    // The commitment claims to have been made 3 hours after the block was mined: the block was known by then.
    expect(
      await recordCommitment(env, pool.id, {
        blockHeight: BLOCK.height,
        tip: { height: BLOCK.height - 1, hash: BLOCK.previousblockhash, time: BLOCK.timestamp - 600 },
        highestTip: BLOCK.height - 1,
        at: new Date(BLOCK.timestamp * 1000 + 3 * 60 * 60 * 1000),
      }),
    ).toBe(true);
    const outcome = await drawPool(env, pool.id, { fetcher: bothHealthy(CONFIRMED_TIP) });
    expect(outcome).toMatchObject({ status: "delayed" });
    expect((outcome as { reason: string }).reason).toMatch(/is not later than the commitment .* minus 2 hours/);
    expect(await poolRow(pool.id)).toMatchObject({ status: "closed", drawBlockHeight: null, winnerEntryNumber: null });
    expect(await winnersOf(pool.id)).toEqual([]);
  });
});

describe("a draw nobody can steer: voids", () => {
  it("a charged-back winner with a pending payout is redrawn on a block past the tip at the void", async () => {
    const { pool, fans } = await committedPool(5);
    const first = await drawPool(env, pool.id, { fetcher: bothHealthy(CONFIRMED_TIP) });
    expect(first.status).toBe("drawn");
    const winning = (first as { entryNumber: number }).entryNumber;
    // The same cron run that announces the prize creates its pending payout.
    await runPrizeCron(env, new Date());
    const [payout] = await db().select().from(payouts).where(eq(payouts.userId, fans[winning]!.id));
    expect(payout).toMatchObject({ payoutType: "prize_winner", status: "pending" });

    // Days later the winner's card payment is charged back (a lost dispute); the explorers' tip is far past the block.
    const tipAtVoid = BLOCK.height + 4_000;
    vi.restoreAllMocks();
    stubGlobalFetch(bothHealthy(tipAtVoid));
    const outcome = await applyPaymentReversal(env, {
      sourceKey: `pi_draw_${pool.id}_${winning}`,
      reversalKey: `dp_winner_${pool.id}`,
      reversedCents: 1_000 + winning,
      paymentCents: 1_000 + winning,
      cumulativeReversedCents: 1_000 + winning,
      voidsDraw: reversalVoidsDraw("dispute"),
    });
    expect(outcome).toMatchObject({ kind: "host_debit", redrawn: true });

    // The payout was cancelled first; the pool is committed afresh 3 past the tip at the void, not to the next block.
    const [cancelled] = await db().select().from(payouts).where(eq(payouts.id, payout!.id));
    expect(cancelled).toMatchObject({ status: "cancelled", prizeWinnerId: null });
    expect(await poolRow(pool.id)).toMatchObject({
      status: "closed",
      drawBlockHeight: tipAtVoid + 3,
      winnerEntryNumber: null,
    });
    expect(await winnersOf(pool.id)).toEqual([]);
    const log = (await publicPoolState(env, pool.id))!.log;
    expect(log.map((r) => [r.kind, r.blockHeight, r.tipHeight])).toEqual([
      ["commit", BLOCK.height, BLOCK.height - 1],
      ["void", BLOCK.height, null],
      ["commit", tipAtVoid + 3, tipAtVoid],
    ]);
    expect(log[1]!.reason).toMatch(/reversed by the buyer or the card provider/);
    expect(log[2]!.createdAt).toBeGreaterThanOrEqual(log[1]!.createdAt);
  });

  it("a host refund of a winning order leaves the draw standing, booked against the host's earnings", async () => {
    const { pool, fans, host } = await committedPool(5);
    const first = await drawPool(env, pool.id, { fetcher: bothHealthy(CONFIRMED_TIP) });
    const winning = (first as { entryNumber: number }).entryNumber;
    await runPrizeCron(env, new Date());
    vi.restoreAllMocks();
    stubGlobalFetch(bothHealthy(BLOCK.height + 4_000));
    const outcome = await applyPaymentReversal(env, {
      sourceKey: `pi_draw_${pool.id}_${winning}`,
      reversalKey: `re_host_${pool.id}`,
      reversedCents: 1_000 + winning,
      paymentCents: 1_000 + winning,
      cumulativeReversedCents: 1_000 + winning,
      voidsDraw: reversalVoidsDraw("host"),
    });
    expect(outcome).toMatchObject({ kind: "host_debit", hostId: host.id, redrawn: false });
    expect((outcome as { debitCents: number }).debitCents).toBeGreaterThan(0);
    expect(await poolRow(pool.id)).toMatchObject({
      status: "drawn",
      drawBlockHeight: BLOCK.height,
      winnerEntryNumber: winning,
      winnerUserId: fans[winning]!.id,
    });
    const [payout] = await db().select().from(payouts).where(eq(payouts.userId, fans[winning]!.id));
    expect(payout).toMatchObject({ status: "pending" });
    expect((await publicPoolState(env, pool.id))!.log.map((r) => r.kind)).toEqual(["commit"]);
    expect(reversalVoidsDraw("return")).toBe(false);
    expect(reversalVoidsDraw("unfulfillable")).toBe(false);
    expect(reversalVoidsDraw("provider")).toBe(true);
  });
});
