// The host side of Guess & Win: create, edit, pause/resume, end or delete a game, its participants and its daily
// participation. Every change is scoped to the game's host in its WHERE clause.
import { and, count, desc, eq, gte, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { payableCheckoutReferences } from "~/db/queries/checkout.server";
import { guessWinGames, guessWinParticipants, userActivity, userAnalytics, userProfiles } from "~/db/schema";
import { canEditGame, GAME_CURRENCY, nextPauseStatus } from "~/domain/catalog";

export type GameInput = {
  question: string;
  description: string;
  videoUrl: string;
  videoKey: string | null;
  videoDurationSeconds: number;
  options: string[];
  correctAnswer: string;
  entryFeeCents: number;
};

/** 'YYYY-MM-DD' in UTC. */
export function utcDate(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Inserts an active, published game, its 'game_created' activity and the day's games_created +1, in one batch. */
export async function createGame(db: Db, hostId: string, input: GameInput, now = new Date()): Promise<string> {
  const id = crypto.randomUUID();
  await db.batch([
    db.insert(guessWinGames).values({
      id,
      hostId,
      question: input.question,
      description: input.description,
      videoUrl: input.videoUrl,
      videoKey: input.videoKey,
      videoDurationSeconds: Math.floor(input.videoDurationSeconds),
      options: input.options,
      correctAnswer: input.correctAnswer,
      entryFeeCents: input.entryFeeCents,
      currency: GAME_CURRENCY,
      status: "active",
      publishedAt: now,
    }),
    db.insert(userActivity).values({
      userId: hostId,
      activityType: "game_created",
      activityData: {
        game_id: id,
        question: input.question,
        entry_fee: input.entryFeeCents / 100,
        options_count: input.options.length,
      },
    }),
    db
      .insert(userAnalytics)
      .values({ userId: hostId, date: utcDate(now), gamesCreated: 1 })
      .onConflictDoUpdate({
        target: [userAnalytics.userId, userAnalytics.date],
        set: { gamesCreated: sql`${userAnalytics.gamesCreated} + 1` },
      }),
  ]);
  return id;
}

/** A game with everything its host may edit (correct answer and video key included), or undefined. */
export async function getHostGame(db: Db, id: string) {
  const [row] = await db.select().from(guessWinGames).where(eq(guessWinGames.id, id)).limit(1);
  return row;
}

/**
 * Saves a host's edit; the video fields change only when a new video is given. The answer and options change only
 * while nobody has guessed, and nothing changes once the game is completed (both checked in the same statement, so a
 * guess or the game's end racing the edit cannot slip between): "completed" for an ended game, "locked" when the
 * answer would change after a guess, "not_found" when the game is not the host's.
 */
export async function updateGame(
  db: Db,
  id: string,
  hostId: string,
  input: GameInput,
): Promise<"saved" | "locked" | "completed" | "not_found"> {
  const sameAnswer = and(
    eq(guessWinGames.correctAnswer, input.correctAnswer),
    sql`${guessWinGames.options} = ${JSON.stringify(input.options)}`,
  );
  const noGuess = sql`NOT EXISTS (SELECT 1 FROM guess_win_participants p WHERE p.game_id = ${guessWinGames.id})`;
  const result = await db
    .update(guessWinGames)
    .set({
      question: input.question,
      description: input.description,
      videoUrl: input.videoUrl,
      videoKey: input.videoKey,
      videoDurationSeconds: Math.floor(input.videoDurationSeconds),
      options: input.options,
      correctAnswer: input.correctAnswer,
      entryFeeCents: input.entryFeeCents,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(guessWinGames.id, id),
        eq(guessWinGames.hostId, hostId),
        ne(guessWinGames.status, "completed"),
        or(sameAnswer, noGuess),
      ),
    )
    .run();
  if (result.meta.changes > 0) return "saved";
  const [mine] = await db
    .select({ status: guessWinGames.status })
    .from(guessWinGames)
    .where(and(eq(guessWinGames.id, id), eq(guessWinGames.hostId, hostId)))
    .limit(1);
  if (!mine) return "not_found";
  return canEditGame(mine.status) ? "locked" : "completed";
}

/** Pause ↔ resume a host's game; answers the new status, or null when it is not theirs or already completed. */
export async function togglePause(db: Db, id: string, hostId: string): Promise<"active" | "paused" | null> {
  const game = await getHostGame(db, id);
  if (!game || game.hostId !== hostId || game.status === "completed") return null;
  const next = nextPauseStatus(game.status);
  const result = await db
    .update(guessWinGames)
    .set({ status: next, updatedAt: new Date() })
    .where(and(eq(guessWinGames.id, id), eq(guessWinGames.hostId, hostId), eq(guessWinGames.status, game.status)))
    .run();
  return result.meta.changes > 0 ? next : null;
}

/**
 * Deletes a host's game, or ENDS it (completed, ended_at) when it has paid guesses or pool entries, which are kept,
 * or a guess checkout that may still be paid.
 * Answers what happened and the R2 video key to remove after a delete.
 */
export async function deleteOrEndGame(
  db: Db,
  id: string,
  hostId: string,
): Promise<{ outcome: "deleted" | "ended"; videoKey: string | null } | null> {
  const game = await getHostGame(db, id);
  if (!game || game.hostId !== hostId) return null;
  const [kept] = await db
    .select({ n: count() })
    .from(guessWinParticipants)
    .where(
      and(
        eq(guessWinParticipants.gameId, id),
        or(
          eq(guessWinParticipants.paymentStatus, "paid"),
          eq(guessWinParticipants.paymentStatus, "refunded"),
          isNotNull(guessWinParticipants.entryNumber),
        ),
      ),
    );
  // A guess checkout that may still be paid keeps the game too (ended, so a guess paid after it is refunded).
  const [payable] = await db
    .select({ yes: sql<number>`${payableCheckoutReferences({ gameId: id })}` })
    .from(guessWinGames)
    .where(eq(guessWinGames.id, id));
  if ((kept?.n ?? 0) > 0 || payable?.yes) {
    await db
      .update(guessWinGames)
      .set({ status: "completed", endedAt: game.endedAt ?? new Date(), updatedAt: new Date() })
      .where(and(eq(guessWinGames.id, id), eq(guessWinGames.hostId, hostId)))
      .run();
    return { outcome: "ended", videoKey: null };
  }
  // Only unpaid, entry-less guesses remain: they go with the game.
  await db.batch([
    db.delete(guessWinParticipants).where(eq(guessWinParticipants.gameId, id)),
    db.delete(guessWinGames).where(and(eq(guessWinGames.id, id), eq(guessWinGames.hostId, hostId))),
  ]);
  // A video may back several games (a host can reuse its URL): remove it only when no other game uses it.
  const videoKey = game.videoKey && !(await isVideoKeyUsed(db, game.videoKey)) ? game.videoKey : null;
  return { outcome: "deleted", videoKey };
}

/** True when any game (other than `exceptGameId`) still plays this R2 video. */
export async function isVideoKeyUsed(db: Db, videoKey: string, exceptGameId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: guessWinGames.id })
    .from(guessWinGames)
    .where(
      exceptGameId
        ? and(eq(guessWinGames.videoKey, videoKey), ne(guessWinGames.id, exceptGameId))
        : eq(guessWinGames.videoKey, videoKey),
    )
    .limit(1);
  return !!row;
}

/** One page of a host's games of every status with their stats, newest first. */
export function listHostGamesWithStats(db: Db, hostId: string, { limit, offset }: { limit: number; offset: number }) {
  return db
    .select({
      id: guessWinGames.id,
      question: guessWinGames.question,
      status: guessWinGames.status,
      entryFeeCents: guessWinGames.entryFeeCents,
      currency: guessWinGames.currency,
      participantsCount: guessWinGames.participantsCount,
      totalEntryFeesCents: guessWinGames.totalEntryFeesCents,
      viewsCount: guessWinGames.viewsCount,
      likesCount: guessWinGames.likesCount,
      createdAt: guessWinGames.createdAt,
    })
    .from(guessWinGames)
    .where(eq(guessWinGames.hostId, hostId))
    .orderBy(desc(guessWinGames.createdAt), desc(guessWinGames.id))
    .limit(limit)
    .offset(offset);
}

export const PARTICIPANTS_PAGE_SIZE = 20;

/** One page of a game's guesses, newest first (one extra row tells whether a next page exists). */
export async function listGameGuesses(db: Db, gameId: string, page: number) {
  const rows = await db
    .select({
      id: guessWinParticipants.id,
      name: userProfiles.creatorName,
      answer: guessWinParticipants.answer,
      isCorrect: guessWinParticipants.isCorrect,
      kind: guessWinParticipants.kind,
      entryFeeCents: guessWinParticipants.entryFeeCents,
      currency: guessWinParticipants.currency,
      paymentStatus: guessWinParticipants.paymentStatus,
      createdAt: guessWinParticipants.createdAt,
    })
    .from(guessWinParticipants)
    .leftJoin(userProfiles, eq(userProfiles.userId, guessWinParticipants.userId))
    .where(eq(guessWinParticipants.gameId, gameId))
    .orderBy(desc(guessWinParticipants.createdAt), desc(guessWinParticipants.id))
    .limit(PARTICIPANTS_PAGE_SIZE + 1)
    .offset((page - 1) * PARTICIPANTS_PAGE_SIZE);
  return { participants: rows.slice(0, PARTICIPANTS_PAGE_SIZE), hasNext: rows.length > PARTICIPANTS_PAGE_SIZE };
}

/** Guesses per UTC day over the last `days` days (oldest first, zero-filled), counted in SQL. */
export async function dailyParticipation(db: Db, gameId: string, days = 7, now = new Date()) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * 86_400_000);
  const day = sql<string>`strftime('%Y-%m-%d', ${guessWinParticipants.createdAt} / 1000, 'unixepoch')`;
  const rows = await db
    .select({ day, n: count() })
    .from(guessWinParticipants)
    .where(and(eq(guessWinParticipants.gameId, gameId), gte(guessWinParticipants.createdAt, since)))
    .groupBy(day);
  const byDay = new Map(rows.map((r) => [r.day, r.n]));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return { date, count: byDay.get(date) ?? 0 };
  });
}

/** Counts one view of a game. */
export async function recordGameView(db: Db, gameId: string) {
  await db
    .update(guessWinGames)
    .set({ viewsCount: sql`${guessWinGames.viewsCount} + 1` })
    .where(eq(guessWinGames.id, gameId))
    .run();
}
