import { getDb } from "~/db/client.server";
import { isEmailConfirmed } from "~/db/queries/accounts.server";
import { bookPoolShare } from "~/db/queries/earnings.server";
import {
  applyPayoutEvent,
  createPrizePayout,
  getDefaultPayoutMethod,
  getPayout,
  listNewMainPrizes,
  listPayablePrizePayouts,
  listUserPrizes,
  listSettledPoolsWithoutHostShare,
  setPrizeDestination,
} from "~/db/queries/payouts.server";
import {
  listUserMiniPrizes,
  listPoolEntryHolders,
  listPoolMiniPrizes,
  listPoolsAwaitingMiniPrizeDraw,
  recordMiniPrizeWinners,
} from "~/db/queries/mini-prizes.server";
import { MS_PER_DAY } from "~/domain/countdown";
import { drawMiniPrizes, miniPrizeCandidates } from "~/domain/mini-prizes";
import { formatCents } from "~/domain/money";
import { PRIZE_MESSAGES, payoutMethodProblem, winnerMail } from "~/domain/payouts";
import { PRIZE_SETTLEMENT_DAYS } from "~/domain/pool";
import { notify } from "~/lib/notify.server";
import { processPayout } from "./payouts.server";
import { recordAudit } from "~/db/queries/admin.server";
import { prizeClaimCleared } from "~/db/queries/prize-claims.server";
import { claimDeadline } from "~/domain/prize-claims";
import { siteOrigin } from "~/lib/config.server";

// Winners are paid: a drawn pool's main prize becomes a prize_winner payout (the winner is told at once, by a notice
// on their pages and a mail unless they switched winner notifications off); after the settlement period it is
// transferred to the winner's own connected account through the payout state machine, and the host's 25% enters
// the earnings ledger (the platform's 15% recorded on the same row). A winner without a payout method keeps a
// pending prize and is asked to add one; the admin can settle a prize by hand.

export interface PrizeCronSummary {
  announced: number;
  paid: number;
  waitingForMethod: number;
  waitingForConfirmation: number;
  /** Prizes past settlement whose claim is not confirmed or whose ID check is not recorded yet. */
  waitingForClaim: number;
  hostShares: number;
  miniPrizeWinners: number;
}

export async function runPrizeCron(env: Env, now: Date): Promise<PrizeCronSummary> {
  const db = getDb(env);
  const summary: PrizeCronSummary = {
    announced: 0,
    paid: 0,
    waitingForMethod: 0,
    waitingForConfirmation: 0,
    waitingForClaim: 0,
    hostShares: 0,
    miniPrizeWinners: 0,
  };

  summary.miniPrizeWinners = await drawPendingMiniPrizes(env);

  for (const prize of await listNewMainPrizes(db)) {
    if (!prize.userId || !prize.drawnAt || prize.entryNumber === null) continue;
    const payableAt = new Date(prize.drawnAt.getTime() + PRIZE_SETTLEMENT_DAYS * MS_PER_DAY);
    // The winner notice: the payout and the claim, whose window starts now (decision 540).
    const claimBy = claimDeadline(now);
    const created = await createPrizePayout(db, {
      winnerId: prize.winnerId,
      userId: prize.userId,
      amountCents: prize.amountCents,
      currency: prize.currency,
      payableAt,
      poolId: prize.poolId,
      entryNumber: prize.entryNumber,
      noticedAt: now,
      claimBy,
    });
    if (!created) continue;
    summary.announced++;
    const mail = winnerMail(
      prize.winnerName,
      formatCents(prize.amountCents, prize.currency),
      payableAt.toISOString().slice(0, 10),
      { url: `${siteOrigin(env)}/prize-claim/${prize.poolId}`, by: claimBy.toISOString().slice(0, 10) },
    );
    // The winner's switches decide the channels (the inbox always has it).
    await notify(env, prize.userId, "winner", {
      key: `prize-payable:${prize.winnerId}`,
      ...mail,
      url: `/prize-claim/${prize.poolId}`,
    });
  }

  for (const { payout, poolWinner, poolStatus } of await listPayablePrizePayouts(db, now)) {
    // The pool was redrawn (its winning payment reversed before settlement): this prize is no longer owed.
    if (poolStatus !== "drawn" || poolWinner !== payout.userId) {
      await applyPayoutEvent(db, payout, "cancel", now);
      continue;
    }
    // Paid only on a claim the winner confirmed in time and whose age and identity check an admin recorded.
    if (!(await prizeClaimCleared(db, payout.id))) {
      summary.waitingForClaim++;
      continue;
    }
    // A prize is paid only to a confirmed account (the winner's e-mail address proven theirs).
    if (!(await isEmailConfirmed(db, payout.userId))) {
      summary.waitingForConfirmation++;
      continue;
    }
    const method = await getDefaultPayoutMethod(db, payout.userId);
    if (payoutMethodProblem(method) || !method?.connectedAccountId) {
      summary.waitingForMethod++;
      continue;
    }
    await setPrizeDestination(db, payout.id, method.id, method.connectedAccountId);
    const done = await processPayout(env, "", payout.id, now);
    if (done?.status === "completed") summary.paid++;
  }

  const settledBefore = new Date(now.getTime() - PRIZE_SETTLEMENT_DAYS * MS_PER_DAY);
  for (const pool of await listSettledPoolsWithoutHostShare(db, settledBefore)) {
    const settledAt = new Date((pool.drawnAt?.getTime() ?? now.getTime()) + PRIZE_SETTLEMENT_DAYS * MS_PER_DAY);
    if (await bookPoolShare(db, { ...pool, settledAt })) summary.hostShares++;
  }
  return summary;
}

/**
 * Draws the mini prizes of drawn pools that have none drawn yet, from the pool's block hash by the rule of
 * app/domain/mini-prizes.ts (the verification page recomputes it in the browser). Returns the winners recorded.
 */
export async function drawPendingMiniPrizes(env: Env): Promise<number> {
  const db = getDb(env);
  let recorded = 0;
  for (const pool of await listPoolsAwaitingMiniPrizeDraw(db)) {
    if (!pool.blockHash) continue;
    const [prizes, entries] = await Promise.all([listPoolMiniPrizes(db, pool.id), listPoolEntryHolders(db, pool.id)]);
    const awards = await drawMiniPrizes(pool.blockHash, prizes, miniPrizeCandidates(entries, pool.winnerUserId));
    recorded += await recordMiniPrizeWinners(
      db,
      pool.id,
      pool.blockHash,
      prizes.map((p) => p.id),
      awards,
    );
  }
  return recorded;
}

/** The admin settles an unpaid prize by hand (Stripe cannot pay the winner's country) and records how. */
export async function settlePrizeByHand(
  env: Env,
  adminId: string,
  payoutId: string,
  note: string,
  now = new Date(),
): Promise<{ ok: true; message: string } | { ok: false; status: 400 | 404 | 409; message: string }> {
  const text = note.trim();
  if (text.length < 5 || text.length > 500) return { ok: false, status: 400, message: PRIZE_MESSAGES.manualNote };
  const db = getDb(env);
  const payout = await getPayout(db, payoutId);
  if (!payout || payout.payoutType !== "prize_winner") return { ok: false, status: 404, message: "Prize not found" };
  const done = await applyPayoutEvent(db, payout, "settle_manually", now, { manualNote: text });
  if (done) {
    await recordAudit(db, {
      adminId,
      action: "prize_settled_by_hand",
      targetUserId: payout.userId,
      detail: { payoutId: payout.id, amountCents: payout.amountCents, currency: payout.currency, note: text },
    });
  }
  return done
    ? { ok: true, message: "Prize recorded as paid by hand." }
    : { ok: false, status: 409, message: PRIZE_MESSAGES.notSettleable };
}

export type PrizeNoticeStatus = "claim" | "settling" | "confirm_email" | "add_method" | "paying" | "failed";

/** The signed-in user's unpaid main prizes as notices (settling, waiting for a payout method, being paid, failed). */
export async function prizeNotices(env: Env, userId: string, now = new Date()) {
  const db = getDb(env);
  const [prizes, method, confirmed] = await Promise.all([
    listUserPrizes(db, userId),
    getDefaultPayoutMethod(db, userId),
    isEmailConfirmed(db, userId),
  ]);
  const hasMethod = payoutMethodProblem(method) === null;
  return prizes
    .filter((p) => p.status === "pending" || p.status === "processing" || p.status === "failed")
    .map((p) => ({
      amount: formatCents(p.amountCents, p.currency),
      poolId: p.poolId,
      status: (p.status === "failed"
        ? "failed"
        : p.status === "processing"
          ? "paying"
          : !p.claimConfirmed
            ? "claim"
            : !confirmed
              ? "confirm_email"
              : !hasMethod
                ? "add_method"
                : p.payableAt && p.payableAt.getTime() > now.getTime()
                  ? "settling"
                  : "paying") as PrizeNoticeStatus,
    }));
}

/** How long a delivered mini prize stays in the winner's notices. */
const DELIVERED_NOTICE_DAYS = 14;

/** The signed-in user's mini prizes: those not delivered yet, and those delivered in the last two weeks. */
export async function miniPrizeNotices(env: Env, userId: string, now = new Date()) {
  const rows = await listUserMiniPrizes(getDb(env), userId);
  return rows
    .filter((m) => !m.deliveredAt || now.getTime() - m.deliveredAt.getTime() < DELIVERED_NOTICE_DAYS * MS_PER_DAY)
    .map((m) => ({
      id: m.id,
      poolId: m.poolId,
      name: m.name,
      amountText: m.amountText,
      hostName: m.hostName ?? "Your host",
      entryNumber: m.entryNumber,
      deliveredAt: m.deliveredAt?.toISOString() ?? null,
    }));
}
