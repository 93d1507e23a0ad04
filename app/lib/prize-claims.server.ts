// Claiming a main prize (decision 540): the winner confirms within PRIZE_CLAIM_DAYS of the winner notice, an admin
// records the age and identity check (audit-logged), and the payout waits for both (prizes.server.ts). A claim nobody
// confirmed in time lapses: the prize is redrawn once from a new, recorded commitment (a void record with reason
// "unclaimed", by the draw's own void-and-redraw), and when the second winner does not claim either, the main prize
// is carried to the host's next pool.

import { getDb } from "~/db/client.server";
import { recordAudit } from "~/db/queries/admin.server";
import { applyPayoutEvent } from "~/db/queries/payouts.server";
import {
  confirmClaim,
  countUnclaimedRedraws,
  getClaim,
  getUserPoolClaim,
  listAdminClaims,
  listDrawnPoolWinners,
  listLapsedClaims,
  markClaimLapsed,
  recordIdCheck,
} from "~/db/queries/prize-claims.server";
import { unclaimedPrizeKey } from "~/domain/contribution-keys";
import { formatCents } from "~/domain/money";
import {
  ADMIN_CLAIMS_PAGE_SIZE,
  idCheckSchema,
  isClaimOpen,
  PRIZE_CLAIM_MESSAGES,
  prizeClaimSchema,
  publicWinner,
  UNCLAIMED_REDRAWS,
  UNCLAIMED_VOID_REASON,
  WINNERS_PAGE_SIZE,
} from "~/domain/prize-claims";
import { voidDrawAndRedraw, type ExplorerOptions } from "~/lib/draw.server";
import { addContribution } from "~/lib/pools.server";

export type ClaimResult =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 404 | 409; message: string; fieldErrors?: Record<string, string> };

/** The signed-in winner's claim of a pool's main prize, for the claim page; undefined when they have none. */
export async function claimView(env: Env, poolId: string, userId: string, now = new Date()) {
  const claim = await getUserPoolClaim(getDb(env), poolId, userId);
  if (!claim) return undefined;
  return {
    id: claim.id,
    poolId: claim.poolId,
    prize: formatCents(claim.prizeAmountCents, claim.currency),
    claimBy: claim.claimBy.toISOString(),
    open: isClaimOpen(claim, now),
    confirmedAt: claim.confirmedAt?.toISOString() ?? null,
    legalName: claim.legalName,
    withholdName: claim.withholdName,
    idChecked: claim.idCheckedAt !== null,
    lapseOutcome: claim.lapseOutcome,
  };
}

/** The winner confirms their claim (legal name, objection to publication) while its window is open. */
export async function claimPrize(
  env: Env,
  userId: string,
  poolId: string,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<ClaimResult> {
  const db = getDb(env);
  const claim = await getUserPoolClaim(db, poolId, userId);
  if (!claim) return { ok: false, status: 404, message: PRIZE_CLAIM_MESSAGES.notFound };
  const parsed = prizeClaimSchema.safeParse(input);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? PRIZE_CLAIM_MESSAGES.legalName;
    return { ok: false, status: 400, message, fieldErrors: { legalName: message } };
  }
  if (claim.confirmedAt) return { ok: false, status: 409, message: PRIZE_CLAIM_MESSAGES.alreadyConfirmed };
  if (!isClaimOpen(claim, now)) return { ok: false, status: 409, message: PRIZE_CLAIM_MESSAGES.windowClosed };
  const done = await confirmClaim(db, { claimId: claim.id, userId, ...parsed.data, now });
  if (!done) {
    // Raced: confirmed by a second request, or the window closed between the read and the update.
    const after = await getClaim(db, claim.id);
    return {
      ok: false,
      status: 409,
      message: after?.confirmedAt ? PRIZE_CLAIM_MESSAGES.alreadyConfirmed : PRIZE_CLAIM_MESSAGES.windowClosed,
    };
  }
  return { ok: true, message: PRIZE_CLAIM_MESSAGES.confirmed };
}

/** The admin records a confirmed claim's age and identity check (audit-logged). */
export async function recordPrizeIdCheck(
  env: Env,
  adminId: string,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<ClaimResult> {
  const parsed = idCheckSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? "note");
    const message = issue?.message ?? PRIZE_CLAIM_MESSAGES.idNote;
    // The admin's table shows the error beside the claim's row.
    const row = typeof input.claimId === "string" ? input.claimId : field;
    return { ok: false, status: field === "claimId" ? 404 : 400, message, fieldErrors: { [row]: message } };
  }
  const db = getDb(env);
  const claim = await getClaim(db, parsed.data.claimId);
  if (!claim) return { ok: false, status: 404, message: PRIZE_CLAIM_MESSAGES.claimNotFound };
  if (claim.idCheckedAt) return { ok: false, status: 409, message: PRIZE_CLAIM_MESSAGES.alreadyChecked };
  if (!claim.confirmedAt || claim.lapsedAt)
    return { ok: false, status: 409, message: PRIZE_CLAIM_MESSAGES.notConfirmed };
  const done = await recordIdCheck(db, { claimId: claim.id, adminId, note: parsed.data.note, now });
  if (!done) return { ok: false, status: 409, message: PRIZE_CLAIM_MESSAGES.alreadyChecked };
  await recordAudit(db, {
    adminId,
    action: "prize_id_checked",
    targetUserId: claim.userId,
    detail: { claimId: claim.id, poolId: claim.poolId, note: parsed.data.note },
  });
  return { ok: true, message: PRIZE_CLAIM_MESSAGES.idRecorded };
}

export interface UnclaimedSummary {
  redrawn: string[];
  carried: string[];
  voided: number;
}

/**
 * The cron's step for claims past their window unconfirmed: the first lapse of a pool's main prize voids the draw
 * (reason "unclaimed") and redraws it from a new commitment; a lapse after that cancels the payout and carries the
 * main prize to the host's next pool (keyed per pool: counted once). A claim whose draw was voided for another
 * reason meanwhile just lapses.
 */
export async function runUnclaimedPrizeCron(env: Env, now: Date, options?: ExplorerOptions): Promise<UnclaimedSummary> {
  const db = getDb(env);
  const summary: UnclaimedSummary = { redrawn: [], carried: [], voided: 0 };
  for (const { claim, poolStatus, poolWinnerEntry, hostId, payout } of await listLapsedClaims(db, now)) {
    if (poolStatus !== "drawn" || poolWinnerEntry !== claim.entryNumber) {
      if (await markClaimLapsed(db, claim.id, "voided", now)) summary.voided++;
      continue;
    }
    if ((await countUnclaimedRedraws(db, claim.poolId)) < UNCLAIMED_REDRAWS) {
      // The draw's void-and-redraw: void record, pending payout cancelled, a fresh recorded commitment.
      const voided = await voidDrawAndRedraw(env, claim.poolId, claim.entryNumber, UNCLAIMED_VOID_REASON, now, options);
      if (voided && (await markClaimLapsed(db, claim.id, "redrawn", now))) summary.redrawn.push(claim.poolId);
      continue;
    }
    // Redrawn once already: the prize is not drawn again. It goes to the host's next pool (decision 540).
    // Each step counts once (a conditional cancel, a keyed contribution), so a run cut short is finished by the next.
    if (payout && payout.status === "pending") await applyPayoutEvent(db, payout, "cancel", now);
    await addContribution(env, {
      hostId,
      sourceType: "carry_over",
      sourceKey: unclaimedPrizeKey(claim.poolId),
      amountCents: claim.prizeAmountCents,
      currency: claim.currency,
      userId: null,
      earnsEntry: false,
    });
    if (await markClaimLapsed(db, claim.id, "carried_over", now)) summary.carried.push(claim.poolId);
  }
  return summary;
}

/** A page of /winners: each drawn pool with what is published of its winner. */
export async function winnersPage(env: Env, page: number) {
  const rows = await listDrawnPoolWinners(getDb(env), {
    limit: WINNERS_PAGE_SIZE + 1,
    offset: (page - 1) * WINNERS_PAGE_SIZE,
  });
  return {
    page,
    hasNext: rows.length > WINNERS_PAGE_SIZE,
    winners: rows.slice(0, WINNERS_PAGE_SIZE).map((row) => ({
      poolId: row.poolId,
      hostName: row.hostName,
      prize: formatCents(row.prizeAmountCents, row.currency),
      drawnAt: row.drawnAt?.toISOString() ?? null,
      carriedOver: row.lapseOutcome === "carried_over",
      winner: publicWinner({
        accountExists: row.accountId !== null,
        withheldAtEntry: row.withheldAtEntry,
        withheldOnWinning: row.withheldOnWinning,
        legalName: row.legalName,
        winnerName: row.winnerName,
        region: row.region,
        country: row.country,
      }),
    })),
  };
}

/** The admin's section: a page of claims with the real names (also of winners whose name /winners withholds). */
export async function adminClaimsSection(env: Env, page: number) {
  const rows = await listAdminClaims(getDb(env), {
    limit: ADMIN_CLAIMS_PAGE_SIZE + 1,
    offset: (page - 1) * ADMIN_CLAIMS_PAGE_SIZE,
  });
  return {
    page,
    hasNext: rows.length > ADMIN_CLAIMS_PAGE_SIZE,
    claims: rows.slice(0, ADMIN_CLAIMS_PAGE_SIZE).map((row) => ({
      id: row.id,
      poolId: row.poolId,
      entryNumber: row.entryNumber,
      prize: formatCents(row.amountCents, row.currency),
      accountName: row.accountName,
      legalName: row.legalName,
      email: row.email,
      dateOfBirth: row.dateOfBirth,
      withheld: Boolean(row.withheldAtEntry || row.withheldOnWinning),
      noticedAt: row.noticedAt.toISOString(),
      claimBy: row.claimBy.toISOString(),
      confirmedAt: row.confirmedAt?.toISOString() ?? null,
      idCheckedAt: row.idCheckedAt?.toISOString() ?? null,
      idCheckNote: row.idCheckNote,
      lapseOutcome: row.lapseOutcome,
      payoutStatus: row.payoutStatus,
    })),
  };
}
