import type { Db } from "~/db/client.server";
import { bookGuessEntry } from "~/db/queries/earnings.server";
import { getGameForJudging, getParticipantByPaymentKey, insertPaidGuess, setPaidGuessPool } from "~/db/queries/guesses.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import type { CheckoutSession } from "~/db/schema";
import { FulfilmentDataError, paymentIntentOf, type CheckoutSessionObject } from "./events.server";
import type { FulfilOutcome } from "./fulfil.server";
import { contribute, contributionKey } from "./pool-ledger.server";

/**
 * A paid guess: one atomic batch claims the session and inserts the participant with is_correct decided here (the
 * game's counters move only when the row is new). Then 100% of the fee goes to the host's pool (keyed by the
 * session); only a correct guess earns an entry.
 */
export async function fulfilGuessEntry(env: Env, db: Db, row: CheckoutSession, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const meta = row.metadata;
  if (!meta.game_id || !meta.answer || !row.hostId || !row.userId) {
    throw new FulfilmentDataError(`guess checkout ${row.id} lacks the game, answer, host or user`);
  }
  const game = await getGameForJudging(db, meta.game_id);
  if (!game) throw new FulfilmentDataError(`game ${meta.game_id} of checkout ${row.id} no longer exists`);
  const isCorrect = meta.answer === game.correctAnswer;
  const now = new Date();
  const rates = await getRevenueRules(db);

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
  });
  if (!inserted && claimed) {
    console.warn("fulfilment: guess checkout claimed but its participant already existed", { checkout: row.id });
  }

  const participant = await getParticipantByPaymentKey(db, session.id);
  if (!participant) throw new Error(`participant for checkout ${row.id} is missing after fulfilment`);

  await bookGuessEntry(
    db,
    {
      participantId: participant.id,
      hostId: row.hostId,
      amountCents: row.amountCents,
      currency: row.currency,
      question: game.question,
      paidAt: row.completedAt ?? now,
    },
    (row.rates ?? rates).guess_win_entries,
  );

  let { poolId, entryNumber } = participant;
  if (poolId === null) {
    const contribution = await contribute(env, db, {
      hostId: row.hostId,
      sourceType: "guess_entry",
      sourceKey: contributionKey(session.id),
      amountCents: row.amountCents,
      currency: row.currency,
      userId: row.userId,
      earnsEntry: isCorrect,
    });
    poolId = contribution.poolId;
    entryNumber = isCorrect ? contribution.entryNumber : null;
    await setPaidGuessPool(db, participant.id, { poolId, entryNumber });
  }
  return { kind: inserted ? "fulfilled" : "already_fulfilled", checkoutId: row.id, purpose: row.purpose, poolId, entryNumber };
}
