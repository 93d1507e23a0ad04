import {
  createExecutionContext,
  createScheduledController,
  env,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { hostDebits, prizeEntries, prizePoolContributions, prizePools, userProfiles } from "~/db/schema";
import { entriesDigest, sha256Hex } from "~/domain/draw";
import { MS_PER_DAY } from "~/domain/countdown";
import {
  addContribution,
  closePool,
  getOpenPool,
  openPool,
  poolSocketUrl,
  poolStub,
  reapplyReservations,
} from "~/lib/pools.server";
import { runScheduled } from "../workers/scheduled";
import { poolsApi } from "../workers/pools-api";
import type { PoolLiveMessage } from "~/lib/pool-contract";
import { applyPaymentReversal } from "~/lib/pool-reversal.server";
import { db, makeUser } from "./helpers";
import { testedWorker } from "./support/built-worker";

// The pool objects run in this isolate, so stubbing the global fetch reaches them. No test may touch the
// network: the block explorers are "down" unless a test says otherwise (a close then waits to commit).
let explorerCalls: string[] = [];
beforeEach(() => {
  explorerCalls = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL) => {
    explorerCalls.push(input instanceof Request ? input.url : String(input));
    throw new TypeError("network disabled in tests");
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const sale = (hostId: string, sourceKey: string, amountCents: number, userId: string | null, earnsEntry = true) => ({
  hostId,
  sourceType: "product_purchase" as const,
  sourceKey,
  amountCents,
  currency: "USD",
  userId,
  earnsEntry,
});

async function poolRow(poolId: string) {
  const [row] = await db().select().from(prizePools).where(eq(prizePools.id, poolId));
  if (!row) throw new Error(`no pool ${poolId}`);
  return row;
}

async function d1Ledger(poolId: string) {
  const contributions = await db()
    .select()
    .from(prizePoolContributions)
    .where(eq(prizePoolContributions.poolId, poolId));
  const entries = await db()
    .select()
    .from(prizeEntries)
    .where(eq(prizeEntries.poolId, poolId))
    .orderBy(asc(prizeEntries.entryNumber));
  return { contributions, entries };
}

describe("contributions", () => {
  it("sums 200 concurrent contributions exactly and numbers their entries 0..199 once each", async () => {
    const host = await makeUser({ name: "Concurrent Host" });
    // Ten fans of 20 entries each: the per-person cap (max(10%, 20), decision 560) lets every one of them in.
    const fans = await Promise.all(Array.from({ length: 10 }, (_, n) => makeUser({ name: `Fan ${n + 1}` })));
    const amounts = Array.from({ length: 200 }, (_, i) => 100 + i * 7);
    const expectedSum = amounts.reduce((a, b) => a + b, 0);

    // No pool yet: the 200 calls race to open the host's pool too.
    const results = await Promise.all(
      amounts.map((amount, i) =>
        addContribution(env, sale(host.id, `pi_conc_${host.id}_${i}`, amount, fans[i % 10]!.id)),
      ),
    );

    const poolIds = new Set(results.map((r) => r.poolId));
    expect(poolIds.size).toBe(1);
    const poolId = results[0]!.poolId;
    expect(results.every((r) => !r.duplicate)).toBe(true);
    expect(results.map((r) => r.entryNumber).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 200 }, (_, i) => i));

    const state = await poolStub(env, poolId).state();
    expect(state).toMatchObject({ status: "open", amountCents: expectedSum, entries: 200 });

    const pool = await poolRow(poolId);
    expect(pool).toMatchObject({ status: "open", amountCents: expectedSum, entriesCount: 200 });
    const { contributions, entries } = await d1Ledger(poolId);
    expect(contributions).toHaveLength(200);
    expect(contributions.reduce((sum, row) => sum + row.amountCents, 0)).toBe(expectedSum);
    expect(entries.map((e) => e.entryNumber)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    // Every entry row carries the contribution that earned it.
    const byKey = new Map(contributions.map((c) => [c.sourceKey, c]));
    for (const entry of entries) expect(byKey.get(entry.sourceKey)?.entryNumber).toBe(entry.entryNumber);
  });

  it("counts a source key once, however often it arrives", async () => {
    const host = await makeUser({ name: "Dedupe Host" });
    const fan = await makeUser({ name: "Dedupe Fan" });
    const key = `evt_dup_${host.id}`;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => addContribution(env, sale(host.id, key, 1234, fan.id))),
    );

    expect(new Set(results.map((r) => r.entryNumber))).toEqual(new Set([0]));
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    // Later, once it is in D1: the original result again.
    const again = await addContribution(env, sale(host.id, key, 1234, fan.id));
    expect(again).toEqual({ poolId: results[0]!.poolId, entryNumber: 0, duplicate: true });

    const poolId = results[0]!.poolId;
    expect(await poolStub(env, poolId).state()).toMatchObject({ amountCents: 1234, entries: 1 });
    expect(await poolRow(poolId)).toMatchObject({ amountCents: 1234, entriesCount: 1 });
    const { contributions, entries } = await d1Ledger(poolId);
    expect(contributions).toHaveLength(1);
    expect(entries).toHaveLength(1);
  });

  it("gives entries only to contributions that earn one", async () => {
    const host = await makeUser({ name: "Deposit Host" });
    const fan = await makeUser({ name: "Deposit Fan" });
    const deposit = await addContribution(env, {
      hostId: host.id,
      sourceType: "host_deposit",
      sourceKey: `dep_${host.id}`,
      amountCents: 5000,
      currency: "USD",
      userId: host.id,
      earnsEntry: false,
    });
    const purchase = await addContribution(env, sale(host.id, `pi_first_${host.id}`, 300, fan.id));
    expect(deposit.entryNumber).toBeNull();
    expect(purchase.entryNumber).toBe(0);
    expect(await poolRow(purchase.poolId)).toMatchObject({ amountCents: 5300, entriesCount: 1 });
  });

  it("refuses a contribution in another currency", async () => {
    const host = await makeUser({ name: "Currency Host" });
    await expect(
      addContribution(env, { ...sale(host.id, `pi_myr_${host.id}`, 100, null), currency: "MYR" }),
    ).rejects.toThrow(/USD/);
  });
});

describe("closing", () => {
  it("closes 1 s after the target is reached, opens the next pool, and sends later money there", async () => {
    const host = await makeUser({ name: "Target Host" });
    const fan = await makeUser({ name: "Target Fan" });
    await db().update(userProfiles).set({ prizePoolTargetCents: 100_000 }).where(eq(userProfiles.userId, host.id));
    const first = await openPool(env, { hostId: host.id, targetCents: 100_000, durationDays: 14 });
    const stub = poolStub(env, first.id);

    await addContribution(env, sale(host.id, `pi_t1_${host.id}`, 60_000, fan.id));
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm())).toBeNull();
    const hitAt = Date.now();
    await addContribution(env, sale(host.id, `pi_t2_${host.id}`, 45_000, fan.id));
    const alarm = await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm! - hitAt).toBeGreaterThanOrEqual(900);
    expect(alarm! - hitAt).toBeLessThan(5_000);
    // Reaching the target does not close at once: a contribution within the second still counts.
    const late = await addContribution(env, sale(host.id, `pi_t3_${host.id}`, 500, fan.id));
    expect(late.poolId).toBe(first.id);
    const frozenBefore = await stub.entries();

    expect(await runDurableObjectAlarm(stub)).toBe(true);

    const closed = await poolRow(first.id);
    expect(closed).toMatchObject({
      status: "closed",
      closeReason: "target_reached",
      amountCents: 105_500,
      entriesCount: 3,
    });
    expect(closed.closedAt).toBeInstanceOf(Date);
    expect(closed.entriesDigest).toBe(await entriesDigest(frozenBefore));
    // The explorers are down: closed, but the block height waits for the cron.
    expect(closed.drawBlockHeight).toBeNull();
    expect(explorerCalls.some((url) => url.endsWith("/blocks/tip/height"))).toBe(true);

    const next = await getOpenPool(env, host.id);
    expect(next).not.toBeNull();
    expect(next!.id).not.toBe(first.id);
    expect(next!.targetCents).toBe(100_000);
    expect(next!.autoRenew).toBe(true);
    expect(next!.endAt.getTime() - next!.startAt.getTime()).toBe(30 * MS_PER_DAY);
    expect(Math.abs(next!.startAt.getTime() - Date.now())).toBeLessThan(60_000);

    // Money after the close goes to the new pool; the closed pool's entries never change.
    const after = await addContribution(env, sale(host.id, `pi_t4_${host.id}`, 700, fan.id));
    expect(after).toMatchObject({ poolId: next!.id, entryNumber: 0, duplicate: false });
    const direct = await stub.contribute({ ...sale(host.id, `pi_t5_${host.id}`, 700, fan.id) });
    expect(direct).toMatchObject({ accepted: false, reason: "closed", closeReason: "target_reached" });
    expect(await stub.entries()).toEqual(frozenBefore);
    expect(await poolStub(env, first.id).state()).toMatchObject({ status: "closed", amountCents: 105_500, entries: 3 });
    expect((await d1Ledger(first.id)).entries).toHaveLength(3);
    expect(await poolRow(next!.id)).toMatchObject({ amountCents: 700, entriesCount: 1 });
  });

  it("keeps a pool whose target a deposit filled open until a fan's entry, instead of closing and reopening it", async () => {
    // A pool closed with no entries carries its amount over: closing this one would open a pool already at its
    // target, which would close at once, and so on, pool after pool.
    const host = await makeUser({ name: "Deposit Host" });
    const fan = await makeUser({ name: "Deposit Fan" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 100_000, durationDays: 14 });
    const stub = poolStub(env, pool.id);
    await addContribution(env, {
      ...sale(host.id, `dep_fill_${host.id}`, 100_000, host.id, false),
      sourceType: "host_deposit",
    });
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm())).toBeNull();
    await runScheduled(env, new Date());
    await runScheduled(env, new Date());
    expect(await poolRow(pool.id)).toMatchObject({ status: "open", amountCents: 100_000, entriesCount: 0 });
    expect(await db().select().from(prizePools).where(eq(prizePools.hostId, host.id))).toHaveLength(1);

    // The first fan's entry closes it for its target, as any pool at its target.
    await addContribution(env, sale(host.id, `pi_fill_${host.id}`, 1_000, fan.id));
    expect(await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm())).not.toBeNull();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await poolRow(pool.id)).toMatchObject({
      status: "closed",
      closeReason: "target_reached",
      amountCents: 101_000,
      entriesCount: 1,
    });
    const next = await getOpenPool(env, host.id);
    expect(next!.id).not.toBe(pool.id);
    expect(await poolRow(next!.id)).toMatchObject({ status: "open", amountCents: 0 });
  });

  it("opens the next pool with the target the host saved while the closed pool's terms were locked", async () => {
    const host = await makeUser({ name: "Retarget Host" });
    const first = await openPool(env, { hostId: host.id, targetCents: 1_000_000 });
    await db().update(userProfiles).set({ prizePoolTargetCents: 2_000_000 }).where(eq(userProfiles.userId, host.id));
    await closePool(env, first.id, "timer_expired");
    const next = await getOpenPool(env, host.id);
    expect(next!.id).not.toBe(first.id);
    expect(next!.targetCents).toBe(2_000_000);
  });

  it("routes a contribution to the next pool when the pool closed under it", async () => {
    const host = await makeUser({ name: "Race Host" });
    const fan = await makeUser({ name: "Race Fan" });
    const first = await openPool(env, { hostId: host.id, targetCents: 100_000 });
    // The object closes, but D1 has not heard yet (as if the close were still in flight).
    await runInDurableObject(poolStub(env, first.id), (_instance, state) => {
      state.storage.sql.exec(
        "UPDATE pool_state SET status = 'closed', close_reason = 'timer_expired', closed_at = ?",
        Date.now(),
      );
    });
    const result = await addContribution(env, sale(host.id, `pi_race_${host.id}`, 900, fan.id));
    expect(result.poolId).not.toBe(first.id);
    expect(result.entryNumber).toBe(0);
    expect(await poolRow(first.id)).toMatchObject({ status: "closed", closeReason: "timer_expired" });
    expect((await getOpenPool(env, host.id))!.id).toBe(result.poolId);
  });

  it("closes a pool whose end has passed when the cron runs (timer_expired)", async () => {
    const host = await makeUser({ name: "Expiry Host" });
    const fan = await makeUser({ name: "Expiry Fan" });
    await db().update(userProfiles).set({ prizePoolTargetCents: 500_000 }).where(eq(userProfiles.userId, host.id));
    const pool = await openPool(env, { hostId: host.id, targetCents: 500_000, durationDays: 7 });
    await addContribution(env, sale(host.id, `pi_exp_${host.id}`, 2_500, fan.id));
    await db()
      .update(prizePools)
      .set({ endAt: new Date(Date.now() - 60_000) })
      .where(eq(prizePools.id, pool.id));

    await runScheduled(env, new Date());

    const closed = await poolRow(pool.id);
    expect(closed).toMatchObject({
      status: "closed",
      closeReason: "timer_expired",
      entriesCount: 1,
      amountCents: 2_500,
    });
    expect(closed.entriesDigest).toMatch(/^[0-9a-f]{64}$/);
    const next = await getOpenPool(env, host.id);
    expect(next).toMatchObject({ targetCents: 500_000, status: "open" });
    expect(next!.id).not.toBe(pool.id);
  });

  it("runs the cron through the Worker's scheduled handler", async () => {
    const host = await makeUser({ name: "Handler Host" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 500_000 });
    await db()
      .update(prizePools)
      .set({ endAt: new Date(Date.now() - 1_000) })
      .where(eq(prizePools.id, pool.id));
    const worker = await testedWorker();
    const ctx = createExecutionContext();
    worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await poolRow(pool.id)).toMatchObject({ status: "closed", closeReason: "timer_expired" });
  });

  it("leaves a pool without entries closed, with no block and no winner", async () => {
    const host = await makeUser({ name: "Empty Host" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 100_000 });
    await addContribution(env, {
      hostId: host.id,
      sourceType: "host_deposit",
      sourceKey: `dep_empty_${host.id}`,
      amountCents: 1_000,
      currency: "USD",
      userId: host.id,
      earnsEntry: false,
    });
    const state = await closePool(env, pool.id, "timer_expired");
    // No entry to draw: the amount moved on to the host's next pool.
    expect(state).toMatchObject({ status: "closed", entries: 0, amountCents: 0 });
    // Nothing to commit: no explorer is even asked.
    expect(explorerCalls).toEqual([]);
    await runScheduled(env, new Date());
    const row = await poolRow(pool.id);
    expect(row).toMatchObject({ status: "closed", drawBlockHeight: null, winnerEntryNumber: null });
    expect(row.entriesDigest).toBe(await entriesDigest([]));
    // Closing again changes nothing.
    expect(await closePool(env, pool.id, "target_reached")).toMatchObject({
      status: "closed",
      closeReason: "timer_expired",
    });
  });
});

describe("live updates", () => {
  it("answers 400 without an upgrade and 404 for an unknown pool", async () => {
    const host = await makeUser({ name: "Socket Host" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 100_000 });
    expect(poolSocketUrl(pool.id)).toBe(`/api/pools/${pool.id}/live`);
    expect((await poolsApi.request(`/${pool.id}/live`, {}, env)).status).toBe(400);
    const unknown = await poolsApi.request(`/${crypto.randomUUID()}/live`, { headers: { Upgrade: "websocket" } }, env);
    expect(unknown.status).toBe(404);
    expect((await poolsApi.request(`/${crypto.randomUUID()}`, {}, env)).status).toBe(404);
  });

  it("sends the state on connect and every accepted contribution to each socket", async () => {
    const host = await makeUser({ name: "Live Host" });
    const fan = await makeUser({ name: "Live Fan" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 100_000 });
    const res = await poolsApi.request(`/${pool.id}/live`, { headers: { Upgrade: "websocket" } }, env);
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const messages: PoolLiveMessage[] = [];
    const waitFor = (count: number) =>
      vi.waitFor(() => {
        if (messages.length < count) throw new Error(`${messages.length} messages so far`);
      });
    ws.addEventListener("message", (event) => {
      messages.push(JSON.parse(String(event.data)));
    });
    ws.accept();
    await waitFor(1);
    expect(messages[0]).toEqual({
      type: "pool",
      poolId: pool.id,
      amountCents: 0,
      entries: 0,
      status: "open",
      targetCents: 100_000,
    });

    await addContribution(env, sale(host.id, `pi_live_${host.id}`, 2_000, fan.id));
    await addContribution(env, sale(host.id, `pi_live_${host.id}`, 2_000, fan.id)); // duplicate: no message
    await addContribution(env, {
      ...sale(host.id, `dep_live_${host.id}`, 3_000, host.id, false),
      sourceType: "host_deposit",
    });
    await closePool(env, pool.id, "timer_expired");
    await waitFor(4);
    expect(messages.slice(1)).toEqual([
      // Public: the entry number, never who holds it.
      {
        type: "pool",
        poolId: pool.id,
        amountCents: 2_000,
        entries: 1,
        status: "open",
        targetCents: 100_000,
        lastEntry: { entryNumber: 0 },
      },
      { type: "pool", poolId: pool.id, amountCents: 5_000, entries: 1, status: "open", targetCents: 100_000 },
      { type: "pool", poolId: pool.id, amountCents: 5_000, entries: 1, status: "closed", targetCents: 100_000 },
    ]);
    ws.close(1000, "done");

    const publicState = await (await poolsApi.request(`/${pool.id}`, {}, env)).json();
    expect(publicState).toMatchObject({
      id: pool.id,
      status: "closed",
      amountCents: 5_000,
      targetCents: 100_000,
      entries: 1,
      closeReason: "timer_expired",
      drawBlockHeight: null,
      socketUrl: `/api/pools/${pool.id}/live`,
    });
    const frozen = (await (await poolsApi.request(`/${pool.id}/entries`, {}, env)).json()) as { entries: unknown[] };
    // Published with the opaque key (SHA-256 of the source key), never the payment id itself.
    expect(frozen.entries).toEqual([
      { entryNumber: 0, key: await sha256Hex(`pi_live_${host.id}`), voided: false, source: "paid" },
    ]);
  });
});

describe("seeded pools", () => {
  it("continues the entry numbers of a pool whose rows are only in D1", async () => {
    const host = await makeUser({ name: "Seeded Host" });
    const fan = await makeUser({ name: "Seeded Fan" });
    const poolId = crypto.randomUUID();
    const now = new Date();
    await db()
      .insert(prizePools)
      .values({
        id: poolId,
        hostId: host.id,
        targetCents: 1_000_000,
        amountCents: 1_500,
        entriesCount: 2,
        endAt: new Date(now.getTime() + 10 * MS_PER_DAY),
      });
    await db()
      .insert(prizePoolContributions)
      .values([
        {
          poolId,
          hostId: host.id,
          sourceType: "product_purchase",
          sourceKey: `seed_a_${poolId}`,
          amountCents: 1_500,
          userId: fan.id,
          entryNumber: 0,
        },
      ]);
    await db()
      .insert(prizeEntries)
      .values([
        { poolId, entryNumber: 0, userId: fan.id, sourceType: "product_purchase", sourceKey: `seed_a_${poolId}` },
        { poolId, entryNumber: 1, userId: fan.id, sourceType: "guess_entry", sourceKey: `seed_b_${poolId}` },
      ]);
    const result = await addContribution(env, sale(host.id, `pi_after_seed_${poolId}`, 500, fan.id));
    expect(result).toMatchObject({ poolId, entryNumber: 2 });
    expect(await poolRow(poolId)).toMatchObject({ amountCents: 2_000, entriesCount: 3 });
    const again = await addContribution(env, sale(host.id, `seed_b_${poolId}`, 0, fan.id));
    expect(again).toEqual({ poolId, entryNumber: 1, duplicate: true });
    const rows = await db()
      .select()
      .from(prizeEntries)
      .where(and(eq(prizeEntries.poolId, poolId), eq(prizeEntries.entryNumber, 2)));
    expect(rows).toHaveLength(1);
  });
});

describe("refunds and disputes against the pool (applyPaymentReversal)", () => {
  /** A host's open pool with three purchases of USD 100 each (10% = 1,000 cents in the pool, one entry each). */
  async function poolWithPurchases() {
    const host = await makeUser({ name: "Refund Host" });
    const fans = await Promise.all([0, 1, 2].map((i) => makeUser({ name: `Refund Fan ${i}` })));
    const keys = fans.map((_, i) => `checkout:cs_refund_${host.id}_${i}`);
    const results = [];
    for (const [i, fan] of fans.entries())
      results.push(await addContribution(env, sale(host.id, keys[i]!, 1_000, fan.id)));
    return { host, fans, keys, poolId: results[0]!.poolId };
  }

  it("while the pool is open: a negative row keyed by the refund, the entry voided above half, once under replay", async () => {
    const { keys, poolId } = await poolWithPurchases();
    const partial = {
      sourceKey: keys[0]!,
      reversalKey: "re_partial_1",
      reversedCents: 4_000,
      paymentCents: 10_000,
      cumulativeReversedCents: 4_000,
    };
    // Replayed 5 times, concurrently: one row, entry still valid (40% refunded).
    const first = await Promise.all(Array.from({ length: 5 }, () => applyPaymentReversal(env, partial)));
    expect(first.filter((r) => r.kind === "pool" && r.result.outcome === "applied")).toHaveLength(1);
    expect(await poolStub(env, poolId).state()).toMatchObject({ amountCents: 2_600, entries: 3 });

    // A second refund takes it above half: the entry is void, its number kept.
    const second = { ...partial, reversalKey: "re_partial_2", reversedCents: 2_000, cumulativeReversedCents: 6_000 };
    for (let i = 0; i < 5; i++) await applyPaymentReversal(env, second);
    const state = await poolStub(env, poolId).state();
    expect(state).toMatchObject({ amountCents: 2_400, entries: 2 });
    const entries = await poolStub(env, poolId).entries();
    expect(entries.map((e) => [e.entryNumber, e.voided])).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ]);

    // The D1 mirror: the reversal rows keyed by the refund ids, the entry marked void, totals of valid entries.
    const { contributions, entries: d1Entries } = await d1Ledger(poolId);
    const reversals = contributions.filter((c) => c.reversesKey === keys[0]);
    expect(reversals.map((c) => [c.sourceKey, c.amountCents]).sort()).toEqual([
      ["re_partial_1", -400],
      ["re_partial_2", -200],
    ]);
    expect(d1Entries.find((e) => e.entryNumber === 0)?.voidedAt).not.toBeNull();
    expect(await poolRow(poolId)).toMatchObject({ amountCents: 2_400, entriesCount: 2 });

    // A new purchase never reuses the void number.
    const next = await addContribution(
      env,
      sale((await poolRow(poolId)).hostId, `checkout:cs_after_void_${poolId}`, 500, null),
    );
    expect(next.entryNumber).toBe(3);
  });

  it("a failed refund restores the money and un-voids the entry while the pool is open", async () => {
    const { keys, poolId } = await poolWithPurchases();
    await applyPaymentReversal(env, {
      sourceKey: keys[1]!,
      reversalKey: "re_full",
      reversedCents: 10_000,
      paymentCents: 10_000,
      cumulativeReversedCents: 10_000,
    });
    expect(await poolStub(env, poolId).state()).toMatchObject({ amountCents: 2_000, entries: 2 });
    const restore = {
      sourceKey: keys[1]!,
      reversalKey: "re_full:restore",
      reversedCents: -10_000,
      paymentCents: 10_000,
      cumulativeReversedCents: 0,
    };
    await Promise.all(Array.from({ length: 5 }, () => applyPaymentReversal(env, restore)));
    expect(await poolStub(env, poolId).state()).toMatchObject({ amountCents: 3_000, entries: 3 });
    expect((await poolStub(env, poolId).entries()).every((e) => !e.voided)).toBe(true);
    // The running totals the object reads (kept by triggers) equal the ledger summed afresh.
    const [running, summed] = await runInDurableObject(poolStub(env, poolId), (_instance, state) => [
      state.storage.sql.exec("SELECT amount, entries FROM ledger_totals").one(),
      state.storage.sql
        .exec(
          "SELECT COALESCE(SUM(amount_cents), 0) AS amount, COUNT(CASE WHEN entry_number IS NOT NULL AND voided_at IS NULL THEN 1 END) AS entries FROM ledger",
        )
        .one(),
    ]);
    expect(running).toEqual(summed);
  });

  it("after the close: the pool share is a host debit, the frozen list and amount never change", async () => {
    const { host, keys, poolId } = await poolWithPurchases();
    await closePool(env, poolId, "timer_expired");
    const frozen = await poolStub(env, poolId).entries();
    const before = await poolRow(poolId);

    const refund = {
      sourceKey: keys[2]!,
      reversalKey: "re_after_close",
      reversedCents: 10_000,
      paymentCents: 10_000,
      cumulativeReversedCents: 10_000,
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => applyPaymentReversal(env, refund)));
    expect(results.every((r) => r.kind === "host_debit" && r.debitCents === 1_000)).toBe(true);
    expect(results.filter((r) => r.kind === "host_debit" && r.booked)).toHaveLength(1);

    const debits = await db().select().from(hostDebits).where(eq(hostDebits.hostId, host.id));
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({
      poolId,
      reversalKey: "re_after_close",
      sourceKey: keys[2],
      amountCents: 1_000,
      reason: "refund_after_close",
    });
    expect(await poolStub(env, poolId).entries()).toEqual(frozen);
    const after = await poolRow(poolId);
    expect(after).toMatchObject({
      amountCents: before.amountCents,
      entriesCount: before.entriesCount,
      entriesDigest: before.entriesDigest,
    });
    expect((await d1Ledger(poolId)).contributions.some((c) => c.sourceKey === "re_after_close")).toBe(false);
  });

  it("does nothing for a payment that never reached a pool", async () => {
    expect(
      await applyPaymentReversal(env, {
        sourceKey: "checkout:cs_unknown",
        reversalKey: "re_x",
        reversedCents: 1,
        paymentCents: 1,
        cumulativeReversedCents: 1,
      }),
    ).toEqual({ kind: "no_contribution" });
  });
});

describe("nothing lost or counted twice", () => {
  it("the pool object failing after the payment's D1 batch: the cron re-applies the money once", async () => {
    const host = await makeUser({ name: "Recovery Host" });
    const fan = await makeUser({ name: "Recovery Fan" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 1_000_000 });
    // The object fails on the first call (after the reservation is written).
    const original = env.PRIZE_POOL.get.bind(env.PRIZE_POOL);
    const spy = vi.spyOn(env.PRIZE_POOL, "get").mockImplementationOnce(() => {
      throw new Error("pool object unavailable");
    });
    const key = `checkout:cs_recover_${host.id}`;
    await expect(addContribution(env, sale(host.id, key, 700, fan.id))).rejects.toThrow("pool object unavailable");
    spy.mockRestore();
    void original;
    expect(await poolStub(env, pool.id).state()).toMatchObject({ amountCents: 0, entries: 0 });

    // Two cron runs (a minute later): applied once.
    const later = new Date(Date.now() + 2 * 60_000);
    await reapplyReservations(env, later);
    await reapplyReservations(env, later);
    expect(await poolStub(env, pool.id).state()).toMatchObject({ amountCents: 700, entries: 1 });
    expect((await d1Ledger(pool.id)).contributions.filter((c) => c.sourceKey === key)).toHaveLength(1);
  });

  it("a payment racing a target close counts in one pool", async () => {
    const host = await makeUser({ name: "Race Host" });
    const first = await openPool(env, { hostId: host.id, targetCents: 1_000 });
    // Reaching the target schedules the close; the close happens while the same payment arrives twice more.
    await addContribution(env, sale(host.id, `checkout:cs_hit_${host.id}`, 1_000, null));
    const key = `checkout:cs_race_${host.id}`;
    const [a, , b] = await Promise.all([
      addContribution(env, sale(host.id, key, 300, null)),
      closePool(env, first.id, "target_reached"),
      addContribution(env, sale(host.id, key, 300, null)),
    ]);
    expect(a.poolId).toBe(b.poolId);
    const rows = await db().select().from(prizePoolContributions).where(eq(prizePoolContributions.sourceKey, key));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.poolId).toBe(a.poolId);
    // In whichever pool it landed, it is counted there once and nowhere else.
    const firstEntries = await poolStub(env, first.id).entries();
    const next = await getOpenPool(env, host.id);
    const nextEntries = next ? await poolStub(env, next.id).entries() : [];
    expect([...firstEntries, ...nextEntries].filter((e) => e.sourceKey === key)).toHaveLength(1);
  });

  it("refuses contributions after the pool's end time (they go to the host's next pool)", async () => {
    const host = await makeUser({ name: "Late Host" });
    const pool = await openPool(env, {
      hostId: host.id,
      targetCents: 1_000_000,
      durationDays: 7,
      now: new Date(Date.now() - 8 * MS_PER_DAY),
    });
    const result = await addContribution(env, sale(host.id, `checkout:cs_late_${host.id}`, 500, null));
    expect(result.poolId).not.toBe(pool.id);
    expect(await poolStub(env, pool.id).state()).toMatchObject({
      status: "closed",
      closeReason: "timer_expired",
      amountCents: 0,
    });
  });

  it("a pool that closes with no entries carries its amount to the host's next pool", async () => {
    const host = await makeUser({ name: "Carry Host" });
    const pool = await openPool(env, { hostId: host.id, targetCents: 1_000_000 });
    await addContribution(env, {
      ...sale(host.id, `dep_carry_${host.id}`, 2_500, host.id, false),
      sourceType: "host_deposit",
    });
    await closePool(env, pool.id, "timer_expired");
    expect(await poolRow(pool.id)).toMatchObject({
      status: "closed",
      amountCents: 0,
      entriesCount: 0,
      drawBlockHeight: null,
    });
    const next = await getOpenPool(env, host.id);
    expect(next).not.toBeNull();
    expect(await poolStub(env, next!.id).state()).toMatchObject({ amountCents: 2_500 });
    const carried = await db().select().from(prizePoolContributions).where(eq(prizePoolContributions.poolId, next!.id));
    expect(carried.map((c) => [c.sourceType, c.amountCents])).toEqual([["carry_over", 2_500]]);
  });
});
