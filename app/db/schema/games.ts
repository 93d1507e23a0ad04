// Guess & Win: games, guesses (participants), likes, saves, shares and the one free guess.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { GAME_STATUSES, GUESS_KINDS, GUESS_PAYMENT_STATUSES } from "../../domain/catalog";
import { id, timestamp, createdAt, updatedAt, cents, currency, bool, count } from "./columns";
import { users } from "./accounts";
import { prizePools } from "./pools";

export const guessWinGames = sqliteTable(
  "guess_win_games",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    description: text("description").notNull().default(""),
    imageUrl: text("image_url"),
    videoUrl: text("video_url"),
    /** R2 key when the video was uploaded rather than linked. */
    videoKey: text("video_key"),
    videoDurationSeconds: integer("video_duration_seconds"),
    /** 2 to 6 answer options. */
    options: text("options", { mode: "json" }).$type<string[]>().notNull(),
    /** One of options. */
    correctAnswer: text("correct_answer").notNull(),
    /** The minimum entry fee; a player may pay more. */
    entryFeeCents: cents("entry_fee_cents").notNull(),
    currency: currency(),
    status: text("status", { enum: GAME_STATUSES }).notNull().default("active"),
    viewsCount: count("views_count"),
    likesCount: count("likes_count"),
    commentsCount: count("comments_count"),
    sharesCount: count("shares_count"),
    participantsCount: count("participants_count"),
    totalEntryFeesCents: cents("total_entry_fees_cents").notNull().default(0),
    expiresAt: timestamp("expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    publishedAt: timestamp("published_at"),
    endedAt: timestamp("ended_at"),
  },
  (t) => [
    index("guess_win_games_status_created_idx").on(t.status, t.createdAt),
    index("guess_win_games_host_idx").on(t.hostId),
    // A host's active games, newest first (profile Guess & Win tab).
    index("guess_win_games_host_status_created_idx").on(t.hostId, t.status, t.createdAt),
  ],
);

export const guessWinParticipants = sqliteTable(
  "guess_win_participants",
  {
    id: id(),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "restrict" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    answer: text("answer").notNull(),
    isCorrect: bool("is_correct").notNull().default(false),
    kind: text("kind", { enum: GUESS_KINDS }).notNull(),
    entryFeeCents: cents("entry_fee_cents").notNull().default(0),
    currency: currency(),
    paymentStatus: text("payment_status", { enum: GUESS_PAYMENT_STATUSES }).notNull().default("pending"),
    /** Checkout session / payment id of a paid guess: a payment makes one guess. */
    paymentKey: text("payment_key"),
    poolId: text("pool_id").references(() => prizePools.id, { onDelete: "restrict" }),
    entryNumber: integer("entry_number"),
    /** When our server confirmed the guess (its payment, or at once for a free guess); sealed until the game ends. */
    confirmedAt: timestamp("confirmed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("guess_win_participants_payment_key_unique").on(t.paymentKey),
    index("guess_win_participants_game_created_idx").on(t.gameId, t.createdAt),
    index("guess_win_participants_user_idx").on(t.userId),
  ],
);

export const gameLikes = sqliteTable(
  "game_likes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.gameId] }), index("game_likes_game_idx").on(t.gameId)],
);

export const gameSaves = sqliteTable(
  "game_saves",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.gameId] }),
    index("game_saves_game_idx").on(t.gameId),
    // A fan's saved games, newest first (/guess-win?tab=saved).
    index("game_saves_user_created_idx").on(t.userId, t.createdAt),
  ],
);

export const gameShares = sqliteTable(
  "game_shares",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "cascade" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.gameId] }), index("game_shares_game_idx").on(t.gameId)],
);

/** One free guess per user per game, enforced by the primary key. */
export const freeGuessUsage = sqliteTable(
  "free_guess_usage",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    gameId: text("game_id")
      .notNull()
      .references(() => guessWinGames.id, { onDelete: "cascade" }),
    /** The guess the free use was spent on. */
    guessId: text("participant_id").references(() => guessWinParticipants.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.gameId] })],
);

export type GuessWinGame = typeof guessWinGames.$inferSelect;
export type NewGuessWinGame = typeof guessWinGames.$inferInsert;
export type GuessWinParticipant = typeof guessWinParticipants.$inferSelect;
export type NewGuessWinParticipant = typeof guessWinParticipants.$inferInsert;
export type GameShare = typeof gameShares.$inferSelect;
export type FreeGuessUse = typeof freeGuessUsage.$inferSelect;
