import { and, eq, exists, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { claimCheckoutStatement } from "~/db/queries/checkout.server";
import { reserveContributionStatement, type ContributionKeyValues } from "~/db/queries/contribution-keys.server";
import { guessWinGames, guessWinParticipants } from "~/db/schema";
import type { RevenueRules } from "~/domain/revenue";

// Paid guesses (guess_win_participants of kind 'paid', keyed by their checkout session).

/**
 * The confirmation time of a guess written now: `now` when its game is still running at the moment the row is
 * written (not ended, not past its end date), else NULL (a late guess: refunded, never an entry). Evaluated inside
 * the INSERT, so a guess racing its game's end is either confirmed before the end or late, never both.
 */
export function confirmedWhileRunning(gameId: string, now: Date): SQL {
  return sql`CASE WHEN EXISTS (SELECT 1 FROM guess_win_games g WHERE g.id = ${gameId} AND g.status <> 'completed'
      AND g.ended_at IS NULL AND (g.expires_at IS NULL OR g.expires_at > ${now.getTime()})) THEN ${now.getTime()} ELSE NULL END`;
}

/** A game's host and answer (what judging a guess needs), whatever its status, or undefined. */
export async function getGameForJudging(db: Db, gameId: string) {
  const [row] = await db
    .select({
      id: guessWinGames.id,
      hostId: guessWinGames.hostId,
      correctAnswer: guessWinGames.correctAnswer,
      question: guessWinGames.question,
    })
    .from(guessWinGames)
    .where(eq(guessWinGames.id, gameId))
    .limit(1);
  return row;
}

/**
 * A paid guess in ONE batch: claims the checkout, inserts the guess (payment_key = session id, unique, so a
 * repeat inserts nothing) and bumps the game's counters only when the row is new.
 */
export async function insertPaidGuess(
  db: Db,
  input: {
    checkoutId: string;
    paymentIntentId: string | null;
    rates: RevenueRules | null;
    sessionId: string;
    gameId: string;
    userId: string;
    answer: string;
    isCorrect: boolean;
    feeCents: number;
    currency: string;
    now: Date;
    /** The fee's pool contribution, reserved in this batch when the guess is new and confirmed (not late). */
    contribution: ContributionKeyValues;
  },
): Promise<{ claimed: boolean; inserted: boolean }> {
  const guessId = crypto.randomUUID();
  const isNewGuess = exists(
    db
      .select({ one: sql`1` })
      .from(guessWinParticipants)
      .where(eq(guessWinParticipants.id, guessId)),
  );
  const [claimed, inserted] = await db.batch([
    claimCheckoutStatement(db, input.checkoutId, {
      paymentIntentId: input.paymentIntentId,
      now: input.now,
      rates: input.rates,
    }),
    db
      .insert(guessWinParticipants)
      .values({
        id: guessId,
        gameId: input.gameId,
        userId: input.userId,
        answer: input.answer,
        isCorrect: input.isCorrect,
        kind: "paid",
        entryFeeCents: input.feeCents,
        currency: input.currency,
        paymentStatus: "paid",
        paymentKey: input.sessionId,
        // Confirmed by our server now, if the game still runs; otherwise late (refunded, no entry).
        confirmedAt: confirmedWhileRunning(input.gameId, input.now),
        createdAt: input.now,
      })
      .onConflictDoNothing({ target: guessWinParticipants.paymentKey })
      .returning({ id: guessWinParticipants.id }),
    db
      .update(guessWinGames)
      .set({
        participantsCount: sql`${guessWinGames.participantsCount} + 1`,
        totalEntryFeesCents: sql`${guessWinGames.totalEntryFeesCents} + ${input.feeCents}`,
        updatedAt: sql`${guessWinGames.updatedAt}`,
      })
      .where(and(eq(guessWinGames.id, input.gameId), isNewGuess)),
    reserveContributionStatement(
      db,
      input.contribution,
      exists(
        db
          .select({ one: sql`1` })
          .from(guessWinParticipants)
          .where(and(eq(guessWinParticipants.id, guessId), isNotNull(guessWinParticipants.confirmedAt))),
      ),
    ),
  ]);
  return { claimed: claimed.length === 1, inserted: inserted.length === 1 };
}

/** The guess a paid checkout created. */
export async function getGuessByPaymentKey(db: Db, paymentKey: string) {
  const [row] = await db
    .select({
      id: guessWinParticipants.id,
      poolId: guessWinParticipants.poolId,
      entryNumber: guessWinParticipants.entryNumber,
      confirmedAt: guessWinParticipants.confirmedAt,
      paymentStatus: guessWinParticipants.paymentStatus,
    })
    .from(guessWinParticipants)
    .where(eq(guessWinParticipants.paymentKey, paymentKey))
    .limit(1);
  return row;
}
