import type { Db } from "~/db/client.server";
import { bookGuessEntry } from "~/db/queries/earnings.server";
import { getGameForJudging, getGuessByPaymentKey, insertPaidGuess } from "~/db/queries/guesses.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import type { CheckoutSession } from "~/db/schema";
import { FulfilmentDataError, paymentIntentOf, type CheckoutSessionObject } from "../shared/events.server";
import type { FulfilOutcome } from "./fulfil.server";
import { REFUND_MESSAGES } from "~/domain/payments";
import { refusedGuessRefundReason } from "~/domain/spend-limits";
import { contributionKey } from "../shared/payment-records";
import { contribute } from "./pool-ledger.server";
import { checkPaymentEntry } from "./entry-check.server";
import { requestRefund } from "../refunds/refund-request.server";

/**
 * A paid guess: one atomic batch claims the session and inserts the guess (its correctness recorded on the
 * server only, never shown while the game runs) with `confirmed_at` set when the game still runs at that moment.
 * A confirmed guess sends 100% of its fee to the host's open pool (keyed by the session) and earns no entry now:
 * a correct one gets its entry when its game ends (host, end date, or the pool round's close). A guess confirmed
 * after its game ended is late: no fee in the pool, no entry, and it is refunded.
 */
export async function fulfilGuessEntry(
  env: Env,
  db: Db,
  row: CheckoutSession,
  session: CheckoutSessionObject,
): Promise<FulfilOutcome> {
  const meta = row.metadata;
  if (!meta.game_id || !meta.answer || !row.hostId || !row.userId) {
    throw new FulfilmentDataError(`guess checkout ${row.id} lacks the game, answer, host or user`);
  }
  const game = await getGameForJudging(db, meta.game_id);
  if (!game) throw new FulfilmentDataError(`game ${meta.game_id} of checkout ${row.id} no longer exists`);
  const isCorrect = meta.answer === game.correctAnswer;
  // Every entry check asked again now the payment is in (decision 520), unless its guess exists already: a guess
  // that may not count is never recorded, and the payment is refunded in full with the reason (fulfil.server.ts).
  if (!(await getGuessByPaymentKey(db, session.id))) {
    const entry = await checkPaymentEntry(env, row, session, {
      hostId: row.hostId,
      amountCents: row.amountCents,
      route: "paid_guess",
    });
    if (!entry.earnsEntry)
      throw new FulfilmentDataError(
        `guess checkout ${row.id} may not count (${entry.refusal ?? "refused"})`,
        refusedGuessRefundReason(entry.message ?? ""),
      );
  }
  const now = new Date();
  const rates = await getRevenueRules(db);

  // The fee only (no entry: an entry now would tell whether the answer was right while the game runs), reserved in
  // the payment's batch.
  const fee = {
    hostId: row.hostId,
    sourceType: "guess_entry" as const,
    sourceKey: contributionKey(session.id),
    amountCents: row.amountCents,
    currency: row.currency,
    userId: row.userId,
    earnsEntry: false,
  };
  const { claimed, inserted } = await insertPaidGuess(db, {
    checkoutId: row.id,
    paymentIntentId: paymentIntentOf(session),
    rates,
    sessionId: session.id,
    gameId: game.id,
    userId: row.userId,
    answer: meta.answer,
    isCorrect,
    feeCents: row.amountCents,
    currency: row.currency,
    now,
    contribution: fee,
  });
  if (!inserted && claimed) {
    console.warn("fulfilment: guess checkout claimed but its participant already existed", { checkout: row.id });
  }

  const participant = await getGuessByPaymentKey(db, session.id);
  if (!participant) throw new Error(`participant for checkout ${row.id} is missing after fulfilment`);
  const kind = inserted ? "fulfilled" : "already_fulfilled";

  if (participant.confirmedAt === null) {
    // Late: the game ended before our server confirmed the payment.
    await refundLateGuess(env, row, participant.id);
    return { kind, checkoutId: row.id, purpose: row.purpose, poolId: null, entryNumber: null };
  }

  await bookGuessEntry(
    db,
    {
      guessId: participant.id,
      hostId: row.hostId,
      amountCents: row.amountCents,
      currency: row.currency,
      question: game.question,
      paidAt: row.completedAt ?? now,
    },
    (row.rates ?? rates).guess_win_entries,
  );

  const contribution = await contribute(env, db, fee);
  return { kind, checkoutId: row.id, purpose: row.purpose, poolId: contribution.poolId, entryNumber: null };
}

/** What the buyer of a late guess is told (refund reason, mail, the feed's banner). */
export const LATE_GUESS_REASON =
  "This game had already ended when your payment was confirmed, so your guess could not count. Your entry fee has been refunded in full.";

/** The refund key of a late guess (one refund per guess, reused on every retry). */
export function lateGuessRefundKey(guessId: string): string {
  return `late-guess:${guessId}`;
}

/**
 * A guess confirmed after its game ended earns nothing: its whole fee goes back to the buyer through the one refund
 * path (requestRefund), keyed by the guess, whose refund mail tells the buyer why. A repeat finds it refunded and
 * does nothing; a provider failure throws, so the webhook's delivery is retried.
 */
async function refundLateGuess(env: Env, row: CheckoutSession, guessId: string): Promise<void> {
  const result = await requestRefund(env, {
    checkoutSessionId: row.id,
    orderId: null,
    amountCents: row.amountCents,
    origin: "unfulfillable",
    reason: LATE_GUESS_REASON,
    idempotencyKey: lateGuessRefundKey(guessId),
  });
  if (!result.ok) {
    if (result.message === REFUND_MESSAGES.nothingLeft) return;
    throw new Error(`late guess ${guessId} (checkout ${row.id}) could not be refunded: ${result.message}`);
  }
}
