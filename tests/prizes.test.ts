import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  adminAuditLog,
  earningsLedger,
  mailOutbox,
  miniPrizeWinners,
  payoutMethods,
  payouts,
  prizeClaims,
  prizeEntries,
  prizeMiniPrizes,
  prizePools,
  prizeWinners,
  userProfiles,
  users,
} from "~/db/schema";
import { voidWinningDraw } from "~/db/queries/draw.server";
import { NO_TIP, nextLogRecord } from "~/lib/draw.server";
import { replaceMiniPrizes } from "~/db/queries/pool-screens.server";
import { drawMiniPrizes } from "~/domain/mini-prizes";
import { distributePool } from "~/domain/revenue";
import { PRIZE_SETTLEMENT_DAYS } from "~/domain/pool";
import { localAccountObject, localConnectEvent } from "~/lib/payments/connect/connect-local.server";
import { drawPendingMiniPrizes, runPrizeCron } from "~/lib/payments/connect/prizes.server";
import { db, get, makeUser, pageText, postForm, signIn } from "./helpers";
import { deliverConnectWebhook } from "./support/webhooks";

const DAY = 86_400_000;

async function drawnPool(opts: { amountCents: number; drawnAt: Date; winnerConfirmed?: boolean }) {
  const host = await makeUser({ name: "Pool Host" });
  const winner = await makeUser({ name: "Lucky Fan", emailConfirmed: opts.winnerConfirmed ?? true });
  const poolId = crypto.randomUUID();
  await db()
    .insert(prizePools)
    .values({
      id: poolId,
      hostId: host.id,
      status: "drawn",
      targetCents: 100_000,
      amountCents: opts.amountCents,
      endAt: new Date(opts.drawnAt.getTime() - DAY),
      closedAt: new Date(opts.drawnAt.getTime() - DAY),
      drawBlockHash: "00000000000000000002a7c4c1e48d76c5a37902165a270156b7a8d72728a054",
      winnerEntryNumber: 0,
      winnerUserId: winner.id,
      drawnAt: opts.drawnAt,
    });
  await db()
    .insert(prizeWinners)
    .values({
      poolId,
      userId: winner.id,
      winnerName: "Lucky Fan",
      prizeAmountCents: distributePool(opts.amountCents).mainPrize,
      prizeType: "main",
      entryNumber: 0,
    });
  return { host, winner, poolId };
}

/** The winner's claim confirmed and its ID check recorded (the claim's own flow: tests/prize-claim.test.ts). */
async function clearClaim(userId: string) {
  const rows = await db()
    .update(prizeClaims)
    .set({ confirmedAt: new Date(), legalName: "Lucky Fan", idCheckedAt: new Date(), idCheckNote: "Passport seen" })
    .where(eq(prizeClaims.userId, userId))
    .returning({ id: prizeClaims.id });
  expect(rows).toHaveLength(1);
}

async function connectVerified(userId: string) {
  const accountId = `acct_local_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
  await db()
    .insert(payoutMethods)
    .values({ userId, holderName: "Lucky Fan", accountLast4: "", bankName: "", connectedAccountId: accountId });
  const payload = JSON.stringify(
    localConnectEvent(
      "account.updated",
      localAccountObject(accountId, { payoutsEnabled: true, holderName: "Lucky Fan", country: "US" }),
      accountId,
    ),
  );
  const res = await deliverConnectWebhook(payload);
  expect(res.status).toBe(200);
}

const HASH = "00000000000000000002a7c4c1e48d76c5a37902165a270156b7a8d72728a054";

/** A drawn pool with entries (#0 the main winner's) of three fans (one entry void) and two mini prizes. */
async function drawnPoolWithMiniPrizes() {
  const pool = await drawnPool({ amountCents: 10_000, drawnAt: new Date() });
  const ana = await makeUser({ name: "Ana Mini" });
  const ben = await makeUser({ name: "Ben Mini" });
  const cleo = await makeUser({ name: "Cleo Mini" });
  const holders = [
    [0, pool.winner.id],
    [1, ana.id],
    [2, ben.id],
    [3, ana.id],
    [4, pool.winner.id],
    [5, cleo.id],
  ] as const;
  await db()
    .insert(prizeEntries)
    .values(
      holders.map(([entryNumber, userId]) => ({
        poolId: pool.poolId,
        entryNumber,
        userId,
        sourceType: "product_purchase" as const,
        sourceKey: `mini-test:${pool.poolId}:${entryNumber}`,
        voidedAt: entryNumber === 5 ? new Date() : null,
      })),
    );
  const now = Date.now();
  await db()
    .insert(prizeMiniPrizes)
    .values([
      {
        poolId: pool.poolId,
        hostId: pool.host.id,
        name: "Signed poster",
        amountText: "26",
        quantityText: "1",
        createdAt: new Date(now),
      },
      {
        poolId: pool.poolId,
        hostId: pool.host.id,
        name: "Sticker pack",
        amountText: "",
        quantityText: "unlimited",
        createdAt: new Date(now + 1),
      },
    ]);
  return { ...pool, ana, ben, cleo };
}

const miniWinnersOf = (poolId: string) =>
  db().select().from(miniPrizeWinners).where(eq(miniPrizeWinners.poolId, poolId));

const prizeOf = async (userId: string) =>
  (
    await db()
      .select()
      .from(payouts)
      .where(and(eq(payouts.userId, userId), eq(payouts.payoutType, "prize_winner")))
  )[0];

describe("winners are paid", () => {
  it("a drawn pool: the winner is told at once, paid 60% after the settlement period, the host gets 25% once", async () => {
    const drawnAt = new Date();
    const { host, winner } = await drawnPool({ amountCents: 10_000, drawnAt });
    await runPrizeCron(env, drawnAt);
    await runPrizeCron(env, drawnAt);
    const prize = await prizeOf(winner.id);
    expect(prize).toMatchObject({ status: "pending", amountCents: 6_000 });
    expect(prize!.payableAt!.getTime()).toBe(drawnAt.getTime() + PRIZE_SETTLEMENT_DAYS * DAY);
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, winner.email));
    expect(mails.filter((m) => m.subject.startsWith("You won"))).toHaveLength(1);
    const cookie = await signIn(winner.email);
    expect(await (await get("/dashboard", { cookie })).text()).toContain("Claim your prize");
    await clearClaim(winner.id);
    const dashboard = await (await get("/dashboard", { cookie })).text();
    expect(dashboard).toContain("You won the main prize of USD 60.00!");
    expect(dashboard).toContain("Add a payout method to receive your prize.");
    // Nothing is paid or booked before the settlement period ends.
    expect(await db().select().from(earningsLedger).where(eq(earningsLedger.hostId, host.id))).toHaveLength(0);

    const later = new Date(drawnAt.getTime() + (PRIZE_SETTLEMENT_DAYS + 1) * DAY);
    const waiting = await runPrizeCron(env, later);
    expect(waiting.waitingForMethod).toBeGreaterThanOrEqual(1);
    expect((await prizeOf(winner.id))!.status).toBe("pending");
    const shares = await db().select().from(earningsLedger).where(eq(earningsLedger.hostId, host.id));
    expect(shares).toHaveLength(1);
    expect(shares[0]).toMatchObject({
      kind: "pool_share",
      amountCents: 2_500,
      grossCents: 10_000,
      poolCents: 6_000,
      platformCents: 1_500,
    });

    await connectVerified(winner.id);
    await runPrizeCron(env, later);
    await runPrizeCron(env, later);
    const paid = await prizeOf(winner.id);
    expect(paid).toMatchObject({ status: "completed", amountCents: 6_000, feeCents: 0 });
    expect(paid!.transferId).toMatch(/^tr_local_/);
    expect(await db().select().from(earningsLedger).where(eq(earningsLedger.hostId, host.id))).toHaveLength(1);
    const page = await (await get("/payouts", { cookie })).text();
    expect(page).not.toContain("You won the main prize");
    expect(page).toContain("Prize");
    expect(page).toContain("Completed");
  });

  it("no mail when the winner switched winner notifications off", async () => {
    const { winner } = await drawnPool({ amountCents: 5_000, drawnAt: new Date() });
    await db().update(userProfiles).set({ winnerNotifications: false }).where(eq(userProfiles.userId, winner.id));
    await runPrizeCron(env, new Date());
    expect(await prizeOf(winner.id)).toBeDefined();
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, winner.email))).toHaveLength(0);
  });

  it("a redrawn pool cancels the old winner's unpaid prize", async () => {
    const drawnAt = new Date(Date.now() - (PRIZE_SETTLEMENT_DAYS + 5) * DAY);
    const { winner, poolId } = await drawnPool({ amountCents: 5_000, drawnAt });
    await runPrizeCron(env, new Date(drawnAt.getTime() + DAY));
    const other = await makeUser();
    await db().update(prizePools).set({ winnerUserId: other.id }).where(eq(prizePools.id, poolId));
    await runPrizeCron(env, new Date());
    expect((await prizeOf(winner.id))!.status).toBe("cancelled");
  });

  it("the admin sees unclaimed prizes and settles one by hand, recording how", async () => {
    const drawnAt = new Date(Date.now() - (PRIZE_SETTLEMENT_DAYS + 10) * DAY);
    const { winner } = await drawnPool({ amountCents: 20_000, drawnAt });
    await runPrizeCron(env, new Date(drawnAt.getTime() + DAY));
    const admin = await makeUser({ role: "admin" });
    const cookie = await signIn(admin.email);
    const page = await (await get("/admin", { cookie })).text();
    expect(page).toContain("Unclaimed prizes");
    expect(page).toContain(winner.email);
    const prize = await prizeOf(winner.id);
    const short = await postForm("/admin", { intent: "settle-prize", payoutId: prize!.id, note: "ok" }, { cookie });
    expect(short.status).toBe(400);
    const done = await postForm(
      "/admin",
      { intent: "settle-prize", payoutId: prize!.id, note: "Paid by Wise transfer, ref W-1234" },
      { cookie },
    );
    expect(done.status).toBe(200);
    expect(await prizeOf(winner.id)).toMatchObject({
      status: "completed",
      manualNote: "Paid by Wise transfer, ref W-1234",
    });
    const again = await postForm(
      "/admin",
      { intent: "settle-prize", payoutId: prize!.id, note: "Paid twice by mistake" },
      { cookie },
    );
    expect(again.status).toBe(409);
    const audit = await db().select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, winner.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "prize_settled_by_hand",
      detail: { note: "Paid by Wise transfer, ref W-1234" },
    });
    expect(await (await get("/admin", { cookie })).text()).toContain("Settled a prize by hand");
  });

  it("a prize is paid only to a confirmed account: the winner is asked to confirm first", async () => {
    const drawnAt = new Date(Date.now() - (PRIZE_SETTLEMENT_DAYS + 1) * DAY);
    const { winner } = await drawnPool({ amountCents: 10_000, drawnAt, winnerConfirmed: false });
    await connectVerified(winner.id);
    await runPrizeCron(env, drawnAt);
    await clearClaim(winner.id);
    const waiting = await runPrizeCron(env, new Date());
    expect(waiting.waitingForConfirmation).toBeGreaterThanOrEqual(1);
    expect((await prizeOf(winner.id))!.status).toBe("pending");
    const cookie = await signIn(winner.email);
    expect(await (await get("/dashboard", { cookie })).text()).toContain(
      "Confirm your email address to receive your prize.",
    );

    await db().update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, winner.id));
    await runPrizeCron(env, new Date());
    expect(await prizeOf(winner.id)).toMatchObject({ status: "completed", amountCents: 6_000 });
  });
});

describe("mini prizes", () => {
  it("are drawn once from the block hash: N distinct winners other than the main winner, 'unlimited' to every other fan", async () => {
    const { poolId, winner, ana, ben } = await drawnPoolWithMiniPrizes();
    const summary = await runPrizeCron(env, new Date());
    expect(summary.miniPrizeWinners).toBe(3);
    await runPrizeCron(env, new Date());
    const rows = await miniWinnersOf(poolId);
    expect(rows).toHaveLength(3);
    expect(rows.some((r) => r.userId === winner.id)).toBe(false);
    const prizes = await db().select().from(prizeMiniPrizes).where(eq(prizeMiniPrizes.poolId, poolId));
    const poster = prizes.find((p) => p.name === "Signed poster")!;
    const sticker = prizes.find((p) => p.name === "Sticker pack")!;
    // Ana counts once (entry #1), Ben at #2; Cleo's only entry is void.
    expect(
      rows
        .filter((r) => r.miniPrizeId === sticker.id)
        .map((r) => r.entryNumber)
        .sort(),
    ).toEqual([1, 2]);
    const expected = await drawMiniPrizes(
      HASH,
      [{ quantityText: "1" }],
      [
        { userId: ana.id, entryNumber: 1 },
        { userId: ben.id, entryNumber: 2 },
      ],
    );
    expect(
      rows.filter((r) => r.miniPrizeId === poster.id).map((r) => ({ userId: r.userId, entryNumber: r.entryNumber })),
    ).toEqual([{ userId: expected[0]!.userId, entryNumber: expected[0]!.entryNumber }]);

    // The verification page lists them with the candidates the browser recomputes them from.
    const page = await (await get(`/winner-selection/${poolId}`)).text();
    expect(page).toContain("Mini prizes");
    expect(page).toContain("Sticker pack");
    expect(page).toContain("Candidates (2)");
    expect(page).toContain("Check the mini prize winners");
    // A mini prize's amount is its value in the pool's currency, said as such (not a bare "(26)").
    const text = await pageText(new Response(page));
    expect(text).toContain("Signed poster (worth USD 26.00)");
    expect(text).not.toContain("(26)");
  });

  it("winners see them; the host (only) marks each delivered once", async () => {
    const { poolId, host, ana } = await drawnPoolWithMiniPrizes();
    await runPrizeCron(env, new Date());
    const anaCookie = await signIn(ana.email);
    const before = await (await get("/dashboard", { cookie: anaCookie })).text();
    expect(before).toContain("You won a mini prize: Sticker pack!");
    expect(before).toContain("Pool Host will deliver it to you.");

    const hostCookie = await signIn(host.email);
    const screen = await (await get("/prize-pool-management", { cookie: hostCookie })).text();
    expect(screen).toContain("Mini Prize Winners");
    expect(screen).toContain("Mark delivered");
    expect(await pageText(new Response(screen))).toContain("Signed poster (worth USD 26.00) · entry #");
    const [row] = (await miniWinnersOf(poolId)).filter((r) => r.userId === ana.id && r.entryNumber === 1);
    const stranger = await makeUser({ name: "Other Host" });
    const refused = await postForm(
      "/prize-pool-management",
      { intent: "mark-delivered", miniPrizeWinnerId: row!.id },
      { cookie: await signIn(stranger.email) },
    );
    expect(refused.status).toBe(404);
    expect(
      await postForm(
        "/prize-pool-management",
        { intent: "mark-delivered", miniPrizeWinnerId: "nope" },
        { cookie: hostCookie },
      ),
    ).toHaveProperty("status", 400);
    const done = await postForm(
      "/prize-pool-management",
      { intent: "mark-delivered", miniPrizeWinnerId: row!.id },
      { cookie: hostCookie },
    );
    expect(done.status).toBe(302);
    const again = await postForm(
      "/prize-pool-management",
      { intent: "mark-delivered", miniPrizeWinnerId: row!.id },
      { cookie: hostCookie },
    );
    expect(again.status).toBe(409);
    expect((await miniWinnersOf(poolId)).filter((r) => r.deliveredAt !== null).map((r) => r.id)).toEqual([row!.id]);
    expect(await (await get("/dashboard", { cookie: anaCookie })).text()).toContain("Pool Host marked it delivered on");
  });

  it("a redrawn pool draws its mini prizes again from the next block", async () => {
    const { poolId } = await drawnPoolWithMiniPrizes();
    await drawPendingMiniPrizes(env);
    expect(await miniWinnersOf(poolId)).toHaveLength(3);
    await db().update(prizePools).set({ drawBlockHeight: 800_000 }).where(eq(prizePools.id, poolId));
    const record = await nextLogRecord(env, poolId, {
      ...NO_TIP,
      kind: "void",
      blockHeight: 800_000,
      reason: "test reversal",
      createdAt: Date.now(),
    });
    expect(await voidWinningDraw(db(), poolId, 0, record)).toBe(true);
    expect(await miniWinnersOf(poolId)).toHaveLength(0);
  });

  it("are fixed when the pool closes: a closed pool's mini prizes cannot be replaced", async () => {
    const { poolId, host } = await drawnPoolWithMiniPrizes();
    const replaced = await replaceMiniPrizes(db(), poolId, host.id, [
      { name: "Swapped", amountText: "", quantityText: "1" },
    ]);
    expect(replaced).toBe("closed");
    expect(
      (await db().select().from(prizeMiniPrizes).where(eq(prizeMiniPrizes.poolId, poolId))).map((p) => p.name).sort(),
    ).toEqual(["Signed poster", "Sticker pack"]);
  });
});
