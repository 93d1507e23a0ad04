import { env, SELF } from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mailOutbox, prizeEntries, prizePools, prizeWinners } from "~/db/schema";
import { entriesDigest, sha256Hex, verifyBlock } from "~/domain/draw";
import { verifyPublishedDraw } from "~/domain/draw-verification";
import { distributePool } from "~/domain/revenue";
import {
  DEFAULT_BLOCK_EXPLORERS,
  DRAW_COMMIT_MARGIN,
  commitDrawHeight,
  drawPool,
  drawResult,
  explorerBases,
  fetchVerifiedBlock,
  runPoolCron,
  type Fetcher,
} from "~/lib/draw.server";
import type { PoolLiveMessage } from "~/lib/pool-contract";
import { addContribution, applyPaymentReversal, closePool, openPool, poolStub, publicPoolState } from "~/lib/pools.server";
import { poolsApi } from "../workers/pools-api";
import { runScheduled } from "../workers/scheduled";
import fixture from "./fixtures/bitcoin-blocks.json";
import { db, makeUser, ORIGIN } from "./helpers";

// Real mainnet blocks (tests/fixtures/bitcoin-blocks.json), served by fake Esplora explorers: no network.
const BLOCK = fixture.blocks.find((block) => block.height === 503252)!;
const OTHER_BLOCK = fixture.blocks.find((block) => block.height === 1)!;
const GENESIS = fixture.blocks.find((block) => block.height === 0)!;
type FixtureBlock = (typeof fixture.blocks)[number];

// The explorers the Worker is configured with (wrangler.toml); the fakes answer for exactly these.
const [EXPLORER_A, EXPLORER_B] = explorerBases(env) as [string, string];

interface FakeExplorer {
  tip?: number;
  /** What /block-height/{h} answers for heights up to the tip it has no block for (default: one chain shared by all). */
  chain?: string;
  /** "reject": the request fails (network); a number: that HTTP status for everything. */
  down?: "reject" | number;
  /** Blocks it knows, by height (their ids are what /block-height/{h} answers). */
  blocks?: Record<number, Partial<FixtureBlock> & { id: string }>;
}

function fakeExplorers(config: Record<string, FakeExplorer>): Fetcher & { calls: string[] } {
  const calls: string[] = [];
  const fetcher = async (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push(url);
    const base = Object.keys(config).find((prefix) => url.startsWith(`${prefix}/`));
    if (!base) throw new TypeError(`unexpected request in a test: ${url}`);
    const explorer = config[base]!;
    if (explorer.down === "reject") throw new TypeError("connection refused");
    if (typeof explorer.down === "number") return new Response("unavailable", { status: explorer.down });
    const path = url.slice(base.length);
    const blocks = Object.entries(explorer.blocks ?? {});
    if (path === "/blocks/tip/height" && explorer.tip !== undefined) return new Response(String(explorer.tip));
    const atHeight = /^\/block-height\/(\d+)$/.exec(path);
    if (atHeight) {
      const height = Number(atHeight[1]);
      const block = explorer.blocks?.[height];
      if (block) return new Response(block.id);
      // Every other block up to the tip: a hash of the explorer's chain (the same chain unless told otherwise).
      if (explorer.tip !== undefined && height <= explorer.tip) return new Response(await sha256Hex(`${explorer.chain ?? "main"}:${height}`));
      return new Response("Block not found", { status: 404 });
    }
    const byHash = /^\/block\/([0-9a-f]{64})$/.exec(path);
    if (byHash) {
      const found = blocks.find(([, block]) => block.id === byHash[1]);
      return found ? Response.json(found[1]) : new Response("Block not found", { status: 404 });
    }
    return new Response("Not found", { status: 404 });
  };
  return Object.assign(fetcher as Fetcher, { calls });
}

const healthy = (tip: number, block: FakeExplorer["blocks"] = { [BLOCK.height]: BLOCK }): FakeExplorer => ({ tip, blocks: block });
const bothHealthy = (tip: number) => fakeExplorers({ [EXPLORER_A]: healthy(tip), [EXPLORER_B]: healthy(tip) });
const CONFIRMED_TIP = BLOCK.height + 10;

/** The global fetch, as seen by the pool objects too (they run in this isolate). */
function stubGlobalFetch(fetcher: Fetcher) {
  return vi.spyOn(globalThis, "fetch").mockImplementation((input: RequestInfo | URL) => fetcher(String(input instanceof Request ? input.url : input)));
}

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

/**
 * A pool with `count` entries (one fan each) plus a host deposit, closed while the explorers report the tip just
 * below the fixture block, so its draw is committed to that block.
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
  vi.restoreAllMocks();
  // The agreed tip is 3 below the fixture block, so the draw commits to it.
  stubGlobalFetch(bothHealthy(BLOCK.height - DRAW_COMMIT_MARGIN));
  await closePool(env, pool.id, "timer_expired");
  vi.restoreAllMocks();
  stubGlobalFetch(fakeExplorers({ [EXPLORER_A]: { down: "reject" }, [EXPLORER_B]: { down: "reject" } }));
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

describe("drawResult", () => {
  it("is the decimal hash mod the number of entries", () => {
    const expected = BigInt(`0x${BLOCK.id}`) % 200n;
    expect(drawResult(200, BLOCK.id)).toEqual({
      winner_index: Number(expected),
      winner_entry_number: Number(expected),
      decimal_hash: BigInt(`0x${BLOCK.id}`).toString(10),
    });
    expect(() => drawResult(0, BLOCK.id)).toThrow("No participants available for winner selection");
    expect(() => drawResult(5, "xyz")).toThrow("Invalid hexadecimal hash");
  });
});

describe("commitment at close", () => {
  it("freezes the entry list, publishes its digest and commits 3 blocks past the agreed tip", async () => {
    const { pool } = await committedPool(4);
    const row = await poolRow(pool.id);
    const entries = await db()
      .select({ entryNumber: prizeEntries.entryNumber, sourceKey: prizeEntries.sourceKey })
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
      fetcher: fakeExplorers({ [EXPLORER_A]: { tip }, [EXPLORER_B]: { tip: tip - 2 } }),
    });
    // The tip both explorers have (the lower one, same hash on both), plus 3: a block nobody has mined yet.
    expect(summary.committed).toContainEqual({ poolId: pool.id, height: tip - 2 + 3 });
    expect(await poolRow(pool.id)).toMatchObject({ status: "closed", drawBlockHeight: tip + 1, winnerEntryNumber: null });
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
    expect(outcome).toMatchObject({ status: "drawn", blockHash: BLOCK.id, entryNumber: expectedEntry, userId: winner.id });
    // The winner's mail (sent by the cron, which knows no request origin) links to the draw at SITE_ORIGIN.
    const [won] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, winner.email), eq(mailOutbox.subject, "You won the main prize!")));
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
        fetcher: fakeExplorers({ [EXPLORER_A]: healthy(CONFIRMED_TIP), [EXPLORER_B]: { ...healthy(CONFIRMED_TIP), down } }),
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
    expect(await drawPool(env, pool.id, { fetcher: bothHealthy(BLOCK.height - 1) })).toMatchObject({ status: "waiting" });
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
    expect(await poolStub(env, pool.id).state()).toMatchObject({ status: "drawn", winner: { entryNumber: expectedEntry } });
  });
});

describe("block verification", () => {
  it("refuses a block whose hash verifies but whose difficulty is 1 (genesis, with no previous hash)", async () => {
    const genesis = { ...GENESIS, previousblockhash: null as unknown as string };
    const result = await fetchVerifiedBlock(env, 0, {
      fetcher: fakeExplorers({ [EXPLORER_A]: healthy(100, { 0: genesis }), [EXPLORER_B]: healthy(100, { 0: genesis }) }),
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
  return verifyPublishedDraw({ entriesText: text, publishedDigest: state!.entriesDigest, draws: state!.draws });
}

describe("void entries and redraws", () => {
  /** The fixture block served at a later height too (the explorers agree on it), for a redraw's next block. */
  const servesNext = (tip: number) => {
    const { height: _height, ...unplaced } = BLOCK;
    const blocks = { [BLOCK.height + 1]: unplaced as FixtureBlock };
    return fakeExplorers({ [EXPLORER_A]: healthy(tip, blocks), [EXPLORER_B]: healthy(tip, blocks) });
  };

  it("a winning entry refunded before payout is redrawn from the next block; the refund is booked to the host", async () => {
    const { pool, host } = await committedPool(7);
    const first = await drawPool(env, pool.id, { fetcher: bothHealthy(CONFIRMED_TIP) });
    expect(first.status).toBe("drawn");
    const winning = (first as { entryNumber: number }).entryNumber;
    const winnerKey = `pi_draw_${pool.id}_${winning}`;
    const before = await poolRow(pool.id);

    // The winner's payment is refunded in full (replayed): a host debit, and a redraw set up once.
    const refund = { sourceKey: winnerKey, reversalKey: `re_winner_${pool.id}`, reversedCents: 10_000, paymentCents: 10_000, cumulativeReversedCents: 10_000 };
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await applyPaymentReversal(env, refund));
    expect(outcomes[0]).toMatchObject({ kind: "host_debit", hostId: host.id, redrawn: true });
    expect(outcomes.slice(1).every((o) => o.kind === "host_debit" && !o.booked && !o.redrawn)).toBe(true);

    const reopened = await poolRow(pool.id);
    expect(reopened).toMatchObject({
      status: "closed",
      drawBlockHeight: BLOCK.height + 1,
      winnerEntryNumber: null,
      entriesDigest: before.entriesDigest,
      amountCents: before.amountCents,
    });
    expect(await winnersOf(pool.id)).toEqual([]);

    // The next block: the same rule over the valid entries, the refunded winner left out.
    const second = await drawPool(env, pool.id, { fetcher: servesNext(CONFIRMED_TIP) });
    expect(second.status).toBe("drawn");
    const valid = [0, 1, 2, 3, 4, 5, 6].filter((n) => n !== winning);
    const expected = valid[Number(BigInt(`0x${BLOCK.id}`) % BigInt(valid.length))];
    expect((second as { entryNumber: number }).entryNumber).toBe(expected);
    const draws = await publicPoolState(env, pool.id);
    expect(draws?.draws.map((d) => [d.blockHeight, d.winnerEntryNumber, d.voided])).toEqual([
      [BLOCK.height, winning, true],
      [BLOCK.height + 1, expected, false],
    ]);
    expect(await winnersOf(pool.id)).toHaveLength(1);

    // The browser's recomputation from the opaque list finds both draws' winners, the redraw leaving out the first.
    const report = await browserCheck(pool.id);
    expect(report).toMatchObject({ ok: true, digestMatches: true, entries: 7, validEntries: 7 });
    expect(report.draws.map((d) => [d.entryNumber, d.excluded, d.matches, d.voided, d.header?.ok])).toEqual([
      [winning, [], true, true, true],
      [expected, [winning], true, false, true],
    ]);
  });

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
    vi.restoreAllMocks();
    stubGlobalFetch(bothHealthy(BLOCK.height - DRAW_COMMIT_MARGIN));
    await closePool(env, pool.id, "timer_expired");
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
    expect(report).toMatchObject({ ok: true, entries: 4, validEntries: 3, voidEntries: 1 });
    expect(report.draws).toHaveLength(1);
    expect(report.draws[0]).toMatchObject({ validCount: 3, entryNumber: valid[Number(BigInt(`0x${BLOCK.id}`) % 3n)], matches: true });
  });
});
