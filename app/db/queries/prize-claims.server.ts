import { aliasedTable, and, count, desc, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { payouts, prizeClaims, prizeDraws, prizePools, prizeWinners, userProfiles, users } from "~/db/schema";
import { UNCLAIMED_VOID_REASON, type PrizeClaimLapseOutcome } from "~/domain/prize-claims";

// Main-prize claims (decision 540) and the public list of winners (/winners).

/** The winner's claim of a pool's main prize (the newest, when they won it before a redraw). */
export async function getUserPoolClaim(db: Db, poolId: string, userId: string) {
  const [row] = await db
    .select()
    .from(prizeClaims)
    .where(and(eq(prizeClaims.poolId, poolId), eq(prizeClaims.userId, userId)))
    .orderBy(desc(prizeClaims.createdAt))
    .limit(1);
  return row;
}

export async function getClaim(db: Db, claimId: string) {
  const [row] = await db.select().from(prizeClaims).where(eq(prizeClaims.id, claimId)).limit(1);
  return row;
}

/**
 * Confirms the winner's own claim while its window is open (one conditional update: a second confirmation, a late
 * one, or another account's changes nothing). Returns true when this call confirmed it.
 */
export async function confirmClaim(
  db: Db,
  c: { claimId: string; userId: string; legalName: string; withholdName: boolean; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(prizeClaims)
    .set({ confirmedAt: c.now, legalName: c.legalName, withholdName: c.withholdName })
    .where(
      and(
        eq(prizeClaims.id, c.claimId),
        eq(prizeClaims.userId, c.userId),
        isNull(prizeClaims.confirmedAt),
        isNull(prizeClaims.lapsedAt),
        sql`${prizeClaims.claimBy} > ${c.now.getTime()}`,
      ),
    )
    .returning({ id: prizeClaims.id });
  return rows.length === 1;
}

/** Records a confirmed claim's age and identity check once. Returns true when this call recorded it. */
export async function recordIdCheck(
  db: Db,
  c: { claimId: string; adminId: string; note: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(prizeClaims)
    .set({ idCheckedAt: c.now, idCheckedBy: c.adminId, idCheckNote: c.note })
    .where(
      and(
        eq(prizeClaims.id, c.claimId),
        isNotNull(prizeClaims.confirmedAt),
        isNull(prizeClaims.idCheckedAt),
        isNull(prizeClaims.lapsedAt),
      ),
    )
    .returning({ id: prizeClaims.id });
  return rows.length === 1;
}

/** Whether a prize payout's claim is confirmed and its ID check recorded (else the payout waits). */
export async function prizeClaimCleared(db: Db, payoutId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: prizeClaims.id })
    .from(prizeClaims)
    .where(
      and(
        eq(prizeClaims.payoutId, payoutId),
        isNotNull(prizeClaims.confirmedAt),
        isNotNull(prizeClaims.idCheckedAt),
        isNull(prizeClaims.lapsedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Claims whose window has ended unconfirmed and that have not lapsed yet, with their pool's state and payout. */
export function listLapsedClaims(db: Db, now: Date, limit = 20) {
  return db
    .select({
      claim: prizeClaims,
      poolStatus: prizePools.status,
      poolWinnerEntry: prizePools.winnerEntryNumber,
      hostId: prizePools.hostId,
      payout: payouts,
    })
    .from(prizeClaims)
    .innerJoin(prizePools, eq(prizePools.id, prizeClaims.poolId))
    .leftJoin(payouts, eq(payouts.id, prizeClaims.payoutId))
    .where(and(isNull(prizeClaims.confirmedAt), isNull(prizeClaims.lapsedAt), lte(prizeClaims.claimBy, now)))
    .orderBy(prizeClaims.claimBy)
    .limit(limit);
}

/** How many times a pool's main prize was redrawn because nobody claimed it. */
export async function countUnclaimedRedraws(db: Db, poolId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(prizeDraws)
    .where(and(eq(prizeDraws.poolId, poolId), eq(prizeDraws.voidReason, UNCLAIMED_VOID_REASON)));
  return row?.n ?? 0;
}

/** Marks an unconfirmed claim lapsed, once. Returns true when this call marked it. */
export async function markClaimLapsed(
  db: Db,
  claimId: string,
  outcome: PrizeClaimLapseOutcome,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(prizeClaims)
    .set({ lapsedAt: now, lapseOutcome: outcome })
    .where(and(eq(prizeClaims.id, claimId), isNull(prizeClaims.confirmedAt), isNull(prizeClaims.lapsedAt)))
    .returning({ id: prizeClaims.id });
  return rows.length === 1;
}

const hosts = aliasedTable(userProfiles, "host_profiles");

/**
 * /winners: every drawn pool, newest draw first (a page of `limit`, one more to tell whether there is a next), with
 * its main prize, its winner's account facts (the objection at entry, the region) and the claim (the legal name, the
 * objection on winning, a lapse). Never the e-mail or the real name to the page: publicWinner decides what shows.
 */
export function listDrawnPoolWinners(db: Db, { limit, offset }: { limit: number; offset: number }) {
  return db
    .select({
      poolId: prizePools.id,
      drawnAt: prizePools.drawnAt,
      hostName: hosts.creatorName,
      prizeAmountCents: prizeWinners.prizeAmountCents,
      currency: prizeWinners.currency,
      winnerName: prizeWinners.winnerName,
      accountId: users.id,
      withheldAtEntry: users.withholdWinnerName,
      region: userProfiles.region,
      country: userProfiles.country,
      legalName: prizeClaims.legalName,
      withheldOnWinning: prizeClaims.withholdName,
      lapseOutcome: prizeClaims.lapseOutcome,
    })
    .from(prizePools)
    .innerJoin(prizeWinners, and(eq(prizeWinners.poolId, prizePools.id), eq(prizeWinners.prizeType, "main")))
    .leftJoin(hosts, eq(hosts.userId, prizePools.hostId))
    .leftJoin(users, and(eq(users.id, prizeWinners.userId), isNull(users.deletedAt)))
    .leftJoin(userProfiles, eq(userProfiles.userId, prizeWinners.userId))
    .leftJoin(
      prizeClaims,
      and(eq(prizeClaims.poolId, prizePools.id), eq(prizeClaims.entryNumber, prizeWinners.entryNumber)),
    )
    .where(eq(prizePools.status, "drawn"))
    .orderBy(desc(prizePools.drawnAt), desc(prizePools.id))
    .limit(limit)
    .offset(offset);
}

/**
 * The admin's record of claims, newest first: the real names (account and legal), e-mail and date of birth, whether
 * the winner objected to publication, and the state of the claim and its ID check. For the regulator too.
 */
export function listAdminClaims(db: Db, { limit, offset }: { limit: number; offset: number }) {
  return db
    .select({
      id: prizeClaims.id,
      poolId: prizeClaims.poolId,
      entryNumber: prizeClaims.entryNumber,
      amountCents: prizeClaims.prizeAmountCents,
      currency: prizeClaims.currency,
      noticedAt: prizeClaims.noticedAt,
      claimBy: prizeClaims.claimBy,
      confirmedAt: prizeClaims.confirmedAt,
      legalName: prizeClaims.legalName,
      withheldOnWinning: prizeClaims.withholdName,
      idCheckedAt: prizeClaims.idCheckedAt,
      idCheckNote: prizeClaims.idCheckNote,
      lapsedAt: prizeClaims.lapsedAt,
      lapseOutcome: prizeClaims.lapseOutcome,
      accountName: userProfiles.creatorName,
      email: users.email,
      dateOfBirth: users.dateOfBirth,
      withheldAtEntry: users.withholdWinnerName,
      payoutStatus: payouts.status,
    })
    .from(prizeClaims)
    .leftJoin(users, eq(users.id, prizeClaims.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, prizeClaims.userId))
    .leftJoin(payouts, eq(payouts.id, prizeClaims.payoutId))
    .orderBy(desc(prizeClaims.createdAt), desc(prizeClaims.id))
    .limit(limit)
    .offset(offset);
}
