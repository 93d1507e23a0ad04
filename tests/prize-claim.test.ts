import { env, SELF } from "cloudflare:test";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  adminAuditLog,
  drawCommitments,
  payoutMethods,
  payouts,
  prizeClaims,
  prizeDraws,
  prizePoolContributions,
  prizePools,
  prizeWinners,
} from "~/db/schema";
import { verifyPublishedDraw } from "~/domain/draw-verification";
import { PRIZE_CLAIM_MESSAGES, UNCLAIMED_VOID_REASON } from "~/domain/prize-claims";
import { distributePool } from "~/domain/revenue";
import { drawPool, type Fetcher } from "~/lib/draw.server";
import { localAccountObject, localConnectEvent } from "~/lib/payments/connect/connect-local.server";
import { runPrizeCron } from "~/lib/payments/connect/prizes.server";
import { runUnclaimedPrizeCron } from "~/lib/prize-claims.server";
import { addContribution, closePool, openPool, publicPoolState } from "~/lib/pools.server";
import { db, get, makeSignedInUser, makeUser, ORIGIN, pageText, postForm, signIn, withoutNetwork } from "./helpers";
import { commitToParent, fixtureBlock, type FixtureBlock } from "./support/draw";
import { deliverConnectWebhook } from "./support/webhooks";

// Claiming a main prize (docs/product.md#winners, decision 540): within 30 days of the winner notice, an ID check the
// admin records, a payout method; payment after settlement only with all three; an unclaimed prize redrawn once from
// a new recorded commitment, then carried to the host's next pool.

const DAY = 86_400_000;
// The block explorers a closing pool asks are unreachable; the draws below get their own fake explorers.
withoutNetwork();
const BLOCK = fixtureBlock(503252);
const LATER_BLOCK = fixtureBlock(840000);

/** Two Esplora-style explorers (the Worker's defaults) that both serve `block` with 10 confirmations. */
function explorersWith(block: FixtureBlock): Fetcher {
  return async (input: string) => {
    const url = String(input);
    const path = url.replace(/^https:\/\/(blockstream\.info|mempool\.space)\/api/, "");
    if (path === "/blocks/tip/height") return new Response(String(block.height + 10));
    if (path === `/block-height/${block.height}`) return new Response(block.id);
    if (path === `/block/${block.id}`) return Response.json(block);
    return new Response("Not found", { status: 404 });
  };
}
const down: Fetcher = async () => {
  throw new TypeError("connection refused");
};

/** A pool with 5 entries (one fan each, signed up with e-mail confirmed), closed and committed to `BLOCK`. */
async function committedPool() {
  const host = await makeUser({ name: "Claim Host" });
  const fans = await Promise.all(Array.from({ length: 5 }, (_, i) => makeUser({ name: `Claim Fan ${i}` })));
  const pool = await openPool(env, { hostId: host.id, targetCents: 10_000_000 });
  for (const [i, fan] of fans.entries()) {
    await addContribution(env, {
      hostId: host.id,
      sourceType: "product_purchase",
      sourceKey: `pi_claim_${pool.id}_${i}`,
      amountCents: 10_000,
      currency: "USD",
      userId: fan.id,
      earnsEntry: true,
    });
  }
  await closePool(env, pool.id, "timer_expired");
  await commitToParent(pool.id, BLOCK);
  return { host, fans, poolId: pool.id };
}

async function drawnPool() {
  const made = await committedPool();
  const outcome = await drawPool(env, made.poolId, { fetcher: explorersWith(BLOCK) });
  expect(outcome.status).toBe("drawn");
  const entryNumber = (outcome as { entryNumber: number }).entryNumber;
  return { ...made, entryNumber, winner: made.fans[entryNumber]! };
}

async function claimOf(poolId: string, entryNumber: number) {
  const [row] = await db()
    .select()
    .from(prizeClaims)
    .where(and(eq(prizeClaims.poolId, poolId), eq(prizeClaims.entryNumber, entryNumber)));
  return row;
}

async function payoutOf(payoutId: string) {
  const [row] = await db().select().from(payouts).where(eq(payouts.id, payoutId));
  return row!;
}

async function connectVerified(userId: string) {
  const accountId = `acct_local_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
  await db()
    .insert(payoutMethods)
    .values({ userId, holderName: "Claim Fan", accountLast4: "", bankName: "", connectedAccountId: accountId });
  const payload = JSON.stringify(
    localConnectEvent(
      "account.updated",
      localAccountObject(accountId, { payoutsEnabled: true, holderName: "Claim Fan", country: "US" }),
      accountId,
    ),
  );
  expect((await deliverConnectWebhook(payload)).status).toBe(200);
}

describe("claiming a main prize", () => {
  it("the winner notice opens a 30-day claim: the winner claims on the page, anyone else gets 404", async () => {
    const { poolId, entryNumber, winner } = await drawnPool();
    const noticedAt = new Date();
    expect((await runPrizeCron(env, noticedAt)).announced).toBe(1);
    const claim = (await claimOf(poolId, entryNumber))!;
    expect(claim.claimBy.getTime() - claim.noticedAt.getTime()).toBe(30 * DAY);
    expect(claim.confirmedAt).toBeNull();

    const cookie = await signIn(winner.email);
    // The winner's notice points at the claim.
    const payoutsPage = await pageText(await get("/payouts", { cookie }));
    expect(payoutsPage).toContain("Claim your prize");

    const other = await makeSignedInUser({ name: "Not The Winner" });
    expect((await get(`/prize-claim/${poolId}`, { cookie: other.cookie })).status).toBe(404);
    expect((await postForm(`/prize-claim/${poolId}`, { legalName: "Thief" }, { cookie: other.cookie })).status).toBe(
      404,
    );

    const page = await pageText(await get(`/prize-claim/${poolId}`, { cookie }));
    expect(page).toContain("Your full legal name");
    expect(page).toContain("Name withheld at the winner's request");

    // Bad input: a clear message, a 400, nothing changed.
    const bad = await postForm(`/prize-claim/${poolId}`, { legalName: " " }, { cookie });
    expect(bad.status).toBe(400);
    expect(await pageText(bad)).toContain(PRIZE_CLAIM_MESSAGES.legalName);
    expect((await claimOf(poolId, entryNumber))!.confirmedAt).toBeNull();

    const ok = await postForm(
      `/prize-claim/${poolId}`,
      { legalName: "  Ada   Claim Fan  ", withholdName: "on" },
      { cookie },
    );
    expect(ok.status).toBe(200);
    expect(await pageText(ok)).toContain(PRIZE_CLAIM_MESSAGES.confirmed);
    const confirmed = (await claimOf(poolId, entryNumber))!;
    expect(confirmed).toMatchObject({ legalName: "Ada Claim Fan", withholdName: true });
    expect(confirmed.confirmedAt).not.toBeNull();

    // Twice counts once.
    const again = await postForm(`/prize-claim/${poolId}`, { legalName: "Someone Else" }, { cookie });
    expect(again.status).toBe(409);
    expect((await claimOf(poolId, entryNumber))!.legalName).toBe("Ada Claim Fan");
  }, 60_000);

  it("after 30 days the claim is refused and changes nothing", async () => {
    const { poolId, entryNumber, winner } = await drawnPool();
    // The winner notice went out 31 days ago.
    await runPrizeCron(env, new Date(Date.now() - 31 * DAY));
    const cookie = await signIn(winner.email);
    const late = await postForm(`/prize-claim/${poolId}`, { legalName: "Late Winner" }, { cookie });
    expect(late.status).toBe(409);
    expect(await pageText(late)).toContain(PRIZE_CLAIM_MESSAGES.windowClosed);
    const claim = (await claimOf(poolId, entryNumber))!;
    expect(claim.confirmedAt).toBeNull();
    expect(claim.legalName).toBeNull();
  }, 60_000);

  it("pays only a confirmed claim whose ID check an admin recorded (admin only, audit-logged), after settlement", async () => {
    const { poolId, entryNumber, winner } = await drawnPool();
    const noticedAt = new Date();
    await runPrizeCron(env, noticedAt);
    const claim = (await claimOf(poolId, entryNumber))!;
    await connectVerified(winner.id);
    const afterSettlement = new Date(Date.now() + 31 * DAY);

    // Unclaimed: not paid (and the payout stays pending).
    let summary = await runPrizeCron(env, afterSettlement);
    expect(summary.waitingForClaim).toBeGreaterThanOrEqual(1);
    expect((await payoutOf(claim.payoutId!)).status).toBe("pending");

    const cookie = await signIn(winner.email);
    expect((await postForm(`/prize-claim/${poolId}`, { legalName: "Paid Claim Fan" }, { cookie })).status).toBe(200);

    // Claimed but no ID check recorded: still not paid.
    summary = await runPrizeCron(env, afterSettlement);
    expect(summary.waitingForClaim).toBeGreaterThanOrEqual(1);
    expect((await payoutOf(claim.payoutId!)).status).toBe("pending");

    // Only the admin records the check: a fan (even the winner) gets 403 and nothing changes; a visitor is sent to sign in.
    const fields = { intent: "record-id-check", claimId: claim.id, note: "Passport 123456789, born 1990-04-02" };
    expect((await postForm("/admin", fields, { cookie })).status).toBe(403);
    expect((await postForm("/admin", fields)).status).toBe(302);
    expect((await claimOf(poolId, entryNumber))!.idCheckedAt).toBeNull();

    const admin = await makeUser({ role: "admin", name: "Claim Admin" });
    const adminCookie = await signIn(admin.email);
    const short = await postForm("/admin", { ...fields, note: "ok" }, { cookie: adminCookie });
    expect(short.status).toBe(400);
    expect((await claimOf(poolId, entryNumber))!.idCheckedAt).toBeNull();

    const recorded = await postForm("/admin", fields, { cookie: adminCookie });
    expect(recorded.status).toBe(200);
    expect(await pageText(recorded)).toContain(PRIZE_CLAIM_MESSAGES.idRecorded);
    const checked = (await claimOf(poolId, entryNumber))!;
    expect(checked).toMatchObject({ idCheckedBy: admin.id, idCheckNote: fields.note });
    const audit = await db()
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.adminId, admin.id), eq(adminAuditLog.action, "prize_id_checked")));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.targetUserId).toBe(winner.id);
    // Recorded once.
    expect((await postForm("/admin", fields, { cookie: adminCookie })).status).toBe(409);

    // Before the settlement period ends, nothing is paid even now.
    await runPrizeCron(env, new Date());
    expect((await payoutOf(claim.payoutId!)).status).toBe("pending");
    summary = await runPrizeCron(env, afterSettlement);
    expect(summary.paid).toBe(1);
    expect((await payoutOf(claim.payoutId!)).status).toBe("completed");
  }, 60_000);
});

async function browserCheck(poolId: string) {
  const state = await publicPoolState(env, poolId);
  const res = await SELF.fetch(`${ORIGIN}/winner-selection/${poolId}/entries.txt`);
  expect(res.status).toBe(200);
  return verifyPublishedDraw({
    entriesText: await res.text(),
    publishedDigest: state!.entriesDigest,
    draws: state!.draws,
    log: state!.log,
  });
}

describe("an unclaimed main prize", () => {
  it("is redrawn once from a new recorded commitment (void reason 'unclaimed'), then carried to the host's next pool, never redrawn twice", async () => {
    const { host, fans, poolId, entryNumber: first } = await drawnPool();
    const firstNotice = new Date();
    await runPrizeCron(env, firstNotice);
    const firstClaim = (await claimOf(poolId, first))!;

    // Within the window: nothing happens to this pool (other tests' lapsed claims may be handled meanwhile).
    const early = await runUnclaimedPrizeCron(env, new Date(firstNotice.getTime() + 29 * DAY), { fetcher: down });
    expect([...early.redrawn, ...early.carried]).not.toContain(poolId);
    expect((await claimOf(poolId, first))!.lapsedAt).toBeNull();

    // 30 days pass without a confirmed claim: the draw is voided (reason "unclaimed") and the pool waits for a new
    // commitment (the explorers are down at the void; the cron commits on its next run).
    const lapse = new Date(firstNotice.getTime() + 30 * DAY + 1);
    const ran = await runUnclaimedPrizeCron(env, lapse, { fetcher: down });
    expect(ran.redrawn).toContain(poolId);
    // Run again: no second void.
    expect((await runUnclaimedPrizeCron(env, lapse, { fetcher: down })).redrawn).not.toContain(poolId);
    const [reopened] = await db().select().from(prizePools).where(eq(prizePools.id, poolId));
    expect(reopened).toMatchObject({ status: "closed", drawBlockHeight: null, winnerEntryNumber: null });
    expect(await db().select().from(prizeWinners).where(eq(prizeWinners.poolId, poolId))).toEqual([]);
    expect((await payoutOf(firstClaim.payoutId!)).status).toBe("cancelled");
    expect((await claimOf(poolId, first))!.lapseOutcome).toBe("redrawn");
    let log = await db()
      .select()
      .from(drawCommitments)
      .where(eq(drawCommitments.poolId, poolId))
      .orderBy(asc(drawCommitments.seq));
    expect(log.map((r) => [r.kind, r.reason])).toEqual([
      ["commit", null],
      ["void", UNCLAIMED_VOID_REASON],
    ]);

    // The new commitment is recorded, then drawn by the same rule with the unclaimed winner left out.
    await commitToParent(poolId, LATER_BLOCK);
    const second = await drawPool(env, poolId, { fetcher: explorersWith(LATER_BLOCK) });
    expect(second.status).toBe("drawn");
    const secondEntry = (second as { entryNumber: number }).entryNumber;
    const valid = [0, 1, 2, 3, 4].filter((n) => n !== first);
    expect(secondEntry).toBe(valid[Number(BigInt(`0x${LATER_BLOCK.id}`) % BigInt(valid.length))]);
    log = await db().select().from(drawCommitments).where(eq(drawCommitments.poolId, poolId));
    expect(log.filter((r) => r.kind === "commit").map((r) => r.blockHeight)).toEqual([
      BLOCK.height,
      LATER_BLOCK.height,
    ]);

    // The verification page still verifies: both draws recomputed, the redraw leaving out the first winner.
    const report = await browserCheck(poolId);
    expect(report).toMatchObject({ digestMatches: true, entries: 5, validEntries: 5, log: { ok: true } });
    expect(report.draws.map((d) => [d.entryNumber, d.excluded, d.matches, d.voided, d.header?.ok, d.chain.ok])).toEqual(
      [
        [first, [], true, true, true, true],
        [secondEntry, [first], true, false, true, true],
      ],
    );
    const page = await SELF.fetch(`${ORIGIN}/winner-selection/${poolId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(UNCLAIMED_VOID_REASON);

    // The second winner does not claim either: no third draw; the main prize goes to the host's next pool, once.
    const secondNotice = new Date(Date.now() + DAY);
    expect((await runPrizeCron(env, secondNotice)).announced).toBe(1);
    const secondClaim = (await claimOf(poolId, secondEntry))!;
    const late = new Date(secondNotice.getTime() + 31 * DAY);
    const carried = await runUnclaimedPrizeCron(env, late, { fetcher: down });
    expect(carried.carried).toContain(poolId);
    expect(carried.redrawn).not.toContain(poolId);
    expect((await runUnclaimedPrizeCron(env, late, { fetcher: down })).carried).not.toContain(poolId);
    const [still] = await db().select().from(prizePools).where(eq(prizePools.id, poolId));
    expect(still).toMatchObject({ status: "drawn", winnerEntryNumber: secondEntry });
    expect(await db().select().from(prizeDraws).where(eq(prizeDraws.poolId, poolId))).toHaveLength(2);
    expect((await payoutOf(secondClaim.payoutId!)).status).toBe("cancelled");
    expect((await claimOf(poolId, secondEntry))!.lapseOutcome).toBe("carried_over");
    const carry = await db()
      .select()
      .from(prizePoolContributions)
      .where(eq(prizePoolContributions.sourceKey, `unclaimed:${poolId}`));
    expect(carry).toHaveLength(1);
    expect(carry[0]).toMatchObject({
      hostId: host.id,
      sourceType: "carry_over",
      amountCents: distributePool(50_000).mainPrize,
    });
    expect(carry[0]!.poolId).not.toBe(poolId);

    // Each winner's claim page says what became of their prize.
    const firstPage = await pageText(await get(`/prize-claim/${poolId}`, { cookie: await signIn(fans[first]!.email) }));
    expect(firstPage).toContain("was not claimed within 30 days of the winner notice, so it was drawn again.");
    const secondPage = await pageText(
      await get(`/prize-claim/${poolId}`, { cookie: await signIn(fans[secondEntry]!.email) }),
    );
    expect(secondPage).toContain("so it went to the host's next prize pool.");
  }, 90_000);
});
