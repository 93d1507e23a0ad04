// Games and guesses: a Guess & Win game with its guesses (paid through local checkouts, or free after a share), the
// fees feeding the host's pool and a correct guess's entry once its game has ended.
import type * as schema from "../../app/db/schema";
import { GAME_CURRENCY } from "../../app/domain/catalog";
import { DEFAULT_REVENUE_RULES, poolContributionCents } from "../../app/domain/revenue";
import { contributionKey, paidLocalCheckoutRow } from "../../app/lib/payments/shared/payment-records";
import type { GameSpec } from "./content";
import type { Host, Person, Seed } from "./context";
import { gameSvg } from "./media";
import { chance, HOUR, int, pick, random, sample, token } from "./random";

type GameStatus = "active" | "completed";
/** The game a guess is on, and the span the guesses fall in. */
type Round = {
  host: Host;
  spec: GameSpec;
  game: schema.NewGuessWinGame;
  poolId: string;
  publishedAt: Date;
  until: Date;
};

function gameRow(seed: Seed, host: Host, spec: GameSpec, publishedAt: Date, until: Date, status: GameStatus) {
  const gameId = crypto.randomUUID();
  const game: schema.NewGuessWinGame = {
    id: gameId,
    hostId: host.id,
    question: spec.question,
    description: spec.description,
    imageUrl: seed.uploads.svg(
      `games/${host.id}/${gameId}.svg`,
      gameSvg(spec.question, host.name, host.spec.palette[0], host.spec.palette[1]),
    ),
    videoUrl: null,
    videoDurationSeconds: null,
    options: [...spec.options],
    correctAnswer: spec.correct,
    entryFeeCents: spec.feeCents,
    currency: GAME_CURRENCY,
    status,
    viewsCount: int(200, 4000),
    likesCount: int(12, 380),
    commentsCount: int(0, 60),
    sharesCount: 0,
    participantsCount: 0,
    totalEntryFeesCents: 0,
    createdAt: publishedAt,
    updatedAt: status === "completed" ? until : publishedAt,
    publishedAt,
    endedAt: status === "completed" ? until : null,
  };
  seed.rows.guessWinGames.push(game);
  return game;
}

/** The local checkout that paid a guess's fee, and the fee's pool contribution. */
function payGuess(seed: Seed, round: Round, player: Person, answer: string, paymentKey: string, fee: number, at: Date) {
  const { host, spec, game, poolId } = round;
  seed.rows.checkoutSessions.push(
    paidLocalCheckoutRow({
      sessionId: paymentKey,
      reference: `chk_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`,
      purpose: "guess_entry",
      userId: player.id,
      hostId: host.id,
      amountCents: fee,
      customerEmail: player.email,
      metadata: {
        purpose: "guess_entry",
        game_id: game.id!,
        answer,
        host_id: host.id,
        user_id: player.id,
        description: spec.question.slice(0, 450),
        game_question: spec.question.slice(0, 450),
        selected_answer: answer.slice(0, 450),
      },
      origin: seed.siteOrigin,
      cancelPath: "/guess-win",
      paidAt: at,
      rates: DEFAULT_REVENUE_RULES,
    }),
  );
  seed.pools.event(poolId, {
    at,
    userId: player.id,
    sourceType: "guess_entry",
    sourceKey: contributionKey(paymentKey),
    contributionCents: poolContributionCents("guess_win_entries", fee),
    earnsEntry: false,
  });
}

/** One player's guess: paid (a fee feeding the pool 100%) or free after sharing; only a correct guess earns an entry. */
function addGuess(seed: Seed, round: Round, player: Person): void {
  const { rows } = seed;
  const { host, spec, game, poolId, publishedAt, until } = round;
  const ended = game.status === "completed";
  const at = new Date(publishedAt.getTime() + random() * (until.getTime() - publishedAt.getTime()));
  const correct = chance(0.45);
  const answer = correct ? spec.correct : pick(spec.options.filter((o) => o !== spec.correct));
  const free = chance(0.2);
  const guessId = crypto.randomUUID();
  const paymentKey = free ? null : `cs_local_${token(24)}`;
  const fee = free ? 0 : chance(0.25) ? spec.feeCents * 2 : spec.feeCents;
  const participant: schema.NewGuessWinParticipant = {
    id: guessId,
    gameId: game.id!,
    userId: player.id,
    answer,
    isCorrect: correct,
    kind: free ? "free" : "paid",
    entryFeeCents: fee,
    currency: GAME_CURRENCY,
    // Nothing is owed for a free guess.
    paymentStatus: "paid",
    paymentKey,
    // Sealed: a correct guess holds an entry only once its game has ended (at its pool round's close).
    poolId: correct && ended ? poolId : null,
    confirmedAt: at,
    createdAt: at,
  };
  if (free) {
    rows.gameShares.push({
      userId: player.id,
      gameId: game.id!,
      hostId: host.id,
      createdAt: new Date(at.getTime() - HOUR),
    });
    rows.freeGuessUsage.push({ userId: player.id, gameId: game.id!, guessId, createdAt: at });
    game.sharesCount! += 1;
  }
  rows.guessWinParticipants.push(participant);
  rows.userActivity.push({
    userId: player.id,
    activityType: "guess_submitted",
    activityData: { game_id: game.id!, amount: fee },
    createdAt: at,
  });
  game.participantsCount! += 1;
  game.totalEntryFeesCents! += fee;
  // The fee reaches the pool at payment; the entry of a correct guess is appended when the round closes.
  if (paymentKey && fee > 0) payGuess(seed, round, player, answer, paymentKey, fee, at);
  if (correct && ended) {
    seed.pools.event(poolId, {
      at: until,
      userId: player.id,
      sourceType: "guess_entry",
      sourceKey: `guess:${guessId}`,
      contributionCents: 0,
      earnsEntry: true,
      onEntry: (n) => {
        participant.entryNumber = n;
      },
    });
  }
}

/** A game and its guesses from `playerCount` of the host's tribe (not the demo fan) between `publishedAt` and `until`. */
export function addGame(
  seed: Seed,
  host: Host,
  spec: GameSpec,
  poolId: string,
  publishedAt: Date,
  until: Date,
  status: GameStatus,
  playerCount: number,
): schema.NewGuessWinGame {
  const game = gameRow(seed, host, spec, publishedAt, until, status);
  const round: Round = { host, spec, game, poolId, publishedAt, until };
  const players = sample(
    host.members.filter((m) => m !== seed.demoFan),
    playerCount,
  );
  for (const player of players) addGuess(seed, round, player);
  return game;
}
