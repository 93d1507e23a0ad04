import { and, count, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { hostNotSuspended } from "~/db/queries/admin.server";
import { hostIdSql, type ProfileAddress } from "~/db/queries/host-refs.server";
import { confirmedWhileRunning } from "~/db/queries/guesses.server";
import type { Db } from "~/db/client.server";
import { viewerIdSql, type ViewerKey } from "~/db/queries/sessions.server";
import {
  freeGuessUsage,
  gameLikes,
  gameSaves,
  gameShares,
  guessWinGames,
  guessWinParticipants,
  prizePools,
  tribeMembers,
  userProfiles,
  users,
} from "~/db/schema";

/** What anyone may see of a game: never the correct answer. */
const publicGame = {
  id: guessWinGames.id,
  hostId: guessWinGames.hostId,
  hostName: userProfiles.creatorName,
  hostAvatarUrl: userProfiles.avatarUrl,
  question: guessWinGames.question,
  description: guessWinGames.description,
  imageUrl: guessWinGames.imageUrl,
  videoUrl: guessWinGames.videoUrl,
  options: guessWinGames.options,
  entryFeeCents: guessWinGames.entryFeeCents,
  currency: guessWinGames.currency,
  status: guessWinGames.status,
  viewsCount: guessWinGames.viewsCount,
  likesCount: guessWinGames.likesCount,
  commentsCount: guessWinGames.commentsCount,
  sharesCount: guessWinGames.sharesCount,
  participantsCount: guessWinGames.participantsCount,
  totalEntryFeesCents: guessWinGames.totalEntryFeesCents,
  expiresAt: guessWinGames.expiresAt,
  createdAt: guessWinGames.createdAt,
};

/** Active games, newest first; optionally one host's. */
export function listActiveGames(
  db: Db,
  { limit, offset = 0, hostId }: { limit: number; offset?: number; hostId?: string | ProfileAddress },
) {
  const active = and(eq(guessWinGames.status, "active"), hostNotSuspended(guessWinGames.hostId));
  return db
    .select(publicGame)
    .from(guessWinGames)
    .leftJoin(userProfiles, eq(userProfiles.userId, guessWinGames.hostId))
    .where(hostId ? and(active, eq(guessWinGames.hostId, hostIdSql(hostId))) : active)
    .orderBy(desc(guessWinGames.createdAt), desc(guessWinGames.id))
    .limit(limit)
    .offset(offset);
}

/** One game, public fields plus the correct answer (the route decides who may see it), or undefined. */
export async function getGame(db: Db, id: string) {
  const [row] = await db
    .select({ ...publicGame, correctAnswer: guessWinGames.correctAnswer })
    .from(guessWinGames)
    .leftJoin(userProfiles, eq(userProfiles.userId, guessWinGames.hostId))
    .where(and(eq(guessWinGames.id, id), hostNotSuspended(guessWinGames.hostId)))
    .limit(1);
  return row;
}

export async function countHostGames(db: Db, hostId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(guessWinGames).where(eq(guessWinGames.hostId, hostId));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Guess & Win feed (fan side)

/** Counters moving is not an edit of the game: updated_at is left alone. */
const keepUpdatedAt = () => ({ updatedAt: sql`${guessWinGames.updatedAt}` });

/** Games per page of the /guess-win feed. */
export const FEED_PAGE_SIZE = 12;

/** One page of active games, newest first, paged in SQL (one extra row tells whether a next page exists). */
export async function listActiveGamesPage(
  db: Db,
  { page, pageSize = FEED_PAGE_SIZE }: { page: number; pageSize?: number },
) {
  const rows = await db
    .select(publicGame)
    .from(guessWinGames)
    .leftJoin(userProfiles, eq(userProfiles.userId, guessWinGames.hostId))
    .where(and(eq(guessWinGames.status, "active"), hostNotSuspended(guessWinGames.hostId)))
    .orderBy(desc(guessWinGames.createdAt), desc(guessWinGames.id))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  return { games: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/**
 * One page of the viewer's saved games (/guess-win?tab=saved, docs/decisions/610-wishlist-and-saved-games.md),
 * newest save first: only games on the feed (active, host not suspended); a save of a game that has ended stays
 * stored but is not listed. Read by the viewer's session, in the session's own batch.
 */
export async function listSavedGamesPage(
  db: Db,
  viewer: ViewerKey,
  { page, pageSize = FEED_PAGE_SIZE }: { page: number; pageSize?: number },
) {
  const rows = await db
    .select(publicGame)
    .from(gameSaves)
    .innerJoin(guessWinGames, eq(guessWinGames.id, gameSaves.gameId))
    .leftJoin(userProfiles, eq(userProfiles.userId, guessWinGames.hostId))
    .where(
      and(
        eq(gameSaves.userId, viewerIdSql(viewer)),
        eq(guessWinGames.status, "active"),
        hostNotSuspended(guessWinGames.hostId),
      ),
    )
    .orderBy(desc(gameSaves.createdAt), desc(gameSaves.gameId))
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  return { games: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/**
 * The page of the /guess-win feed that shows an active game (the feed's order: newest first, then id), counted in
 * SQL; null when the game is not on the feed (ended, paused, its host suspended, or no such game).
 */
export async function activeGameFeedPage(db: Db, gameId: string, pageSize = FEED_PAGE_SIZE): Promise<number | null> {
  const onFeed = and(eq(guessWinGames.status, "active"), hostNotSuspended(guessWinGames.hostId));
  const [game] = await db
    .select({ createdAt: guessWinGames.createdAt })
    .from(guessWinGames)
    .where(and(eq(guessWinGames.id, gameId), onFeed))
    .limit(1);
  if (!game) return null;
  const [ahead] = await db
    .select({ n: count() })
    .from(guessWinGames)
    .where(
      and(
        onFeed,
        or(
          gt(guessWinGames.createdAt, game.createdAt),
          and(eq(guessWinGames.createdAt, game.createdAt), gt(guessWinGames.id, gameId)),
        ),
      ),
    );
  return Math.floor((ahead?.n ?? 0) / pageSize) + 1;
}

/** The open pool (amount, target, end) of each host, for the feed's pool strip. */
export async function listOpenPoolsForHosts(db: Db, hostIds: string[]) {
  if (hostIds.length === 0) return [];
  return db
    .select({
      id: prizePools.id,
      hostId: prizePools.hostId,
      amountCents: prizePools.amountCents,
      targetCents: prizePools.targetCents,
      currency: prizePools.currency,
      endAt: prizePools.endAt,
    })
    .from(prizePools)
    .where(and(inArray(prizePools.hostId, hostIds), eq(prizePools.status, "open")))
    .limit(hostIds.length);
}

/** What the signed-in fan has done with these games and hosts (likes, saves, shares, free guesses, tribes). */
export async function getFanGameState(db: Db, userId: string, gameIds: string[], hostIds: string[]) {
  if (gameIds.length === 0) return { liked: [], saved: [], shared: [], freeUsed: [], tribes: [] };
  const [liked, saved, shared, freeUsed, tribes] = await Promise.all([
    db
      .select({ id: gameLikes.gameId })
      .from(gameLikes)
      .where(and(eq(gameLikes.userId, userId), inArray(gameLikes.gameId, gameIds))),
    db
      .select({ id: gameSaves.gameId })
      .from(gameSaves)
      .where(and(eq(gameSaves.userId, userId), inArray(gameSaves.gameId, gameIds))),
    db
      .select({ id: gameShares.gameId })
      .from(gameShares)
      .where(and(eq(gameShares.userId, userId), inArray(gameShares.gameId, gameIds))),
    db
      .select({ id: freeGuessUsage.gameId })
      .from(freeGuessUsage)
      .where(and(eq(freeGuessUsage.userId, userId), inArray(freeGuessUsage.gameId, gameIds))),
    hostIds.length === 0
      ? Promise.resolve([])
      : db
          .select({ id: tribeMembers.hostId })
          .from(tribeMembers)
          .where(and(eq(tribeMembers.userId, userId), inArray(tribeMembers.hostId, hostIds))),
  ]);
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  return { liked: ids(liked), saved: ids(saved), shared: ids(shared), freeUsed: ids(freeUsed), tribes: ids(tribes) };
}

/** An active game with what a guess needs (the correct answer stays on the server), or undefined. */
export async function getActiveGameForGuess(db: Db, gameId: string) {
  const [row] = await db
    .select({
      id: guessWinGames.id,
      hostId: guessWinGames.hostId,
      question: guessWinGames.question,
      options: guessWinGames.options,
      correctAnswer: guessWinGames.correctAnswer,
      entryFeeCents: guessWinGames.entryFeeCents,
      currency: guessWinGames.currency,
      imageUrl: guessWinGames.imageUrl,
      hostName: userProfiles.creatorName,
      hostAvatarUrl: userProfiles.avatarUrl,
    })
    .from(guessWinGames)
    .leftJoin(userProfiles, eq(userProfiles.userId, guessWinGames.hostId))
    .where(
      and(
        eq(guessWinGames.id, gameId),
        eq(guessWinGames.status, "active"),
        // Past its end date a game takes no guess, even before the cron has ended it.
        sql`(${guessWinGames.expiresAt} IS NULL OR ${guessWinGames.expiresAt} > ${Date.now()})`,
        hostNotSuspended(guessWinGames.hostId),
      ),
    )
    .limit(1);
  return row;
}

/** Like or unlike (the wanted state, so a repeat changes nothing); likes_count moves in the same batch. */
export async function setGameLike(db: Db, userId: string, gameId: string, on: boolean): Promise<number> {
  const change = on
    ? db.insert(gameLikes).values({ userId, gameId }).onConflictDoNothing()
    : db.delete(gameLikes).where(and(eq(gameLikes.userId, userId), eq(gameLikes.gameId, gameId)));
  await db.batch([
    change,
    db
      .update(guessWinGames)
      .set({
        ...keepUpdatedAt(),
        likesCount: on ? sql`${guessWinGames.likesCount} + 1` : sql`max(${guessWinGames.likesCount} - 1, 0)`,
      })
      .where(and(eq(guessWinGames.id, gameId), sql`changes() = 1`)),
  ]);
  const [row] = await db
    .select({ n: guessWinGames.likesCount })
    .from(guessWinGames)
    .where(eq(guessWinGames.id, gameId))
    .limit(1);
  return row?.n ?? 0;
}

/** Save or unsave (the wanted state). */
export async function setGameSave(db: Db, userId: string, gameId: string, on: boolean): Promise<void> {
  if (on) await db.insert(gameSaves).values({ userId, gameId }).onConflictDoNothing();
  else await db.delete(gameSaves).where(and(eq(gameSaves.userId, userId), eq(gameSaves.gameId, gameId)));
}

/** Records a share once per fan and game; shares_count grows only when the row is new (one batch). */
export async function recordGameShare(db: Db, userId: string, game: { id: string; hostId: string }): Promise<number> {
  await db.batch([
    db.insert(gameShares).values({ userId, gameId: game.id, hostId: game.hostId }).onConflictDoNothing(),
    db
      .update(guessWinGames)
      .set({ ...keepUpdatedAt(), sharesCount: sql`${guessWinGames.sharesCount} + 1` })
      .where(and(eq(guessWinGames.id, game.id), sql`changes() = 1`)),
  ]);
  const [row] = await db
    .select({ n: guessWinGames.sharesCount })
    .from(guessWinGames)
    .where(eq(guessWinGames.id, game.id))
    .limit(1);
  return row?.n ?? 0;
}

export type FreeGuessEligibility = "eligible" | "not_member" | "not_shared" | "used";

/**
 * Who may use a free guess (docs/product.md#guess-and-win): a tribe member of the host who has shared the game and
 * not yet used its free guess.
 */
export async function freeGuessEligibility(
  db: Db,
  userId: string,
  game: { id: string; hostId: string },
): Promise<FreeGuessEligibility> {
  const [[member], [shared], [used]] = await Promise.all([
    db
      .select({ one: sql`1` })
      .from(tribeMembers)
      .where(
        and(eq(tribeMembers.userId, userId), eq(tribeMembers.hostId, game.hostId), eq(tribeMembers.status, "active")),
      )
      .limit(1),
    db
      .select({ one: sql`1` })
      .from(gameShares)
      .where(and(eq(gameShares.userId, userId), eq(gameShares.gameId, game.id)))
      .limit(1),
    db
      .select({ one: sql`1` })
      .from(freeGuessUsage)
      .where(and(eq(freeGuessUsage.userId, userId), eq(freeGuessUsage.gameId, game.id)))
      .limit(1),
  ]);
  if (used) return "used";
  if (!member) return "not_member";
  if (!shared) return "not_shared";
  return "eligible";
}

/**
 * Spends the fan's free guess on a game: the guess row (kind free), the free_guess_usage row and
 * participants_count +1 in ONE batch. The usage primary key (user, game) makes a second or racing request fail
 * as a whole: null is returned and nothing changed.
 */
export async function insertFreeGuess(
  db: Db,
  input: { userId: string; gameId: string; answer: string; isCorrect: boolean; currency: string },
): Promise<{ guessId: string } | null> {
  const guessId = crypto.randomUUID();
  try {
    await db.batch([
      db.insert(guessWinParticipants).values({
        id: guessId,
        gameId: input.gameId,
        userId: input.userId,
        answer: input.answer,
        isCorrect: input.isCorrect,
        kind: "free",
        entryFeeCents: 0,
        currency: input.currency,
        paymentStatus: "paid",
        paymentKey: freeGuessKey(input.gameId, input.userId),
        // A free guess is confirmed when it is made (while its game runs); it stays sealed until its game ends.
        confirmedAt: confirmedWhileRunning(input.gameId, new Date()),
      }),
      db.insert(freeGuessUsage).values({ userId: input.userId, gameId: input.gameId, guessId }),
      db
        .update(guessWinGames)
        .set({ ...keepUpdatedAt(), participantsCount: sql`${guessWinGames.participantsCount} + 1` })
        .where(eq(guessWinGames.id, input.gameId)),
    ]);
  } catch (error) {
    const message = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
    if (/UNIQUE constraint|PRIMARY KEY|SQLITE_CONSTRAINT/i.test(message)) return null;
    throw error;
  }
  return { guessId };
}

/** The pool source key (and the guess's payment key) of a fan's free guess on a game. */
export function freeGuessKey(gameId: string, userId: string): string {
  return `free:${gameId}:${userId}`;
}

// --- pool rounds: a game runs inside one round of its host's pool ----------------------------------------------

/** The pool source key of a guess's entry, granted when its pool round closes. */
export function guessEntryKey(guessId: string): string {
  return `guess:${guessId}`;
}

/**
 * Ends the host's running games at the close of their pool round (the answer is then public): status completed,
 * ended at the earlier of the game's own end date and the close.
 */
export async function endRoundGames(db: Db, hostId: string, closedAt: Date): Promise<void> {
  const at = closedAt.getTime();
  await db.run(sql`
    UPDATE guess_win_games
    SET status = 'completed',
        ended_at = COALESCE(ended_at, CASE WHEN expires_at IS NOT NULL AND expires_at < ${at} THEN expires_at ELSE ${at} END),
        updated_at = updated_at
    WHERE host_id = ${hostId} AND (status IN ('active', 'paused') OR ended_at IS NULL AND status = 'completed')`);
}

/**
 * Ends the games whose end date has passed (status completed, ended at their end date) and answers their hosts, so
 * the cron can admit their correct guesses' entries to each host's open pool.
 */
export async function endExpiredGames(db: Db, now: Date, limit = 100): Promise<string[]> {
  const rows = await db
    .update(guessWinGames)
    .set({ status: "completed", endedAt: sql`${guessWinGames.expiresAt}`, updatedAt: sql`${guessWinGames.updatedAt}` })
    .where(
      and(
        inArray(guessWinGames.status, ["active", "paused"]),
        isNull(guessWinGames.endedAt),
        sql`${guessWinGames.expiresAt} IS NOT NULL AND ${guessWinGames.expiresAt} <= ${now.getTime()}`,
        sql`${guessWinGames.id} IN (SELECT id FROM guess_win_games WHERE status IN ('active', 'paused') AND ended_at IS NULL
              AND expires_at IS NOT NULL AND expires_at <= ${now.getTime()} LIMIT ${limit})`,
      ),
    )
    .returning({ hostId: guessWinGames.hostId });
  return [...new Set(rows.map((row) => row.hostId))];
}

/**
 * The correct guesses on the host's ended games that earn an entry in the pool open when their game ended (or the
 * closing one): paid (or free), not refunded, confirmed by our server while their game ran (confirmed_at is only
 * ever set then; a guess confirmed later is late and refunded), and not yet holding an entry. Oldest first, with
 * the guesser's e-mail and whether their account is closed (whether it still earns an entry is asked when it is
 * appended: app/lib/pools.server.ts).
 */
export async function listSealedGuessEntries(
  db: Db,
  hostId: string,
): Promise<{ sourceKey: string; userId: string; email: string; closed: boolean }[]> {
  const rows = await db
    .select({
      id: guessWinParticipants.id,
      userId: guessWinParticipants.userId,
      email: users.email,
      deletedAt: users.deletedAt,
    })
    .from(guessWinParticipants)
    .innerJoin(guessWinGames, eq(guessWinGames.id, guessWinParticipants.gameId))
    .innerJoin(users, eq(users.id, guessWinParticipants.userId))
    .where(
      and(
        eq(guessWinGames.hostId, hostId),
        eq(guessWinGames.status, "completed"),
        eq(guessWinParticipants.isCorrect, true),
        eq(guessWinParticipants.paymentStatus, "paid"),
        isNull(guessWinParticipants.poolId),
        sql`${guessWinParticipants.confirmedAt} IS NOT NULL AND ${guessWinGames.endedAt} IS NOT NULL`,
        // An entry already appended (its pool's link to the guess not written yet) is never appended twice.
        sql`NOT EXISTS (SELECT 1 FROM prize_entries e WHERE e.source_key = 'guess:' || ${guessWinParticipants.id})`,
        // Nor one a pool took with no entry (its account held the per-person cap, decision 560).
        sql`NOT EXISTS (SELECT 1 FROM prize_pool_contributions c WHERE c.source_key = 'guess:' || ${guessWinParticipants.id})`,
      ),
    )
    .orderBy(guessWinParticipants.confirmedAt, guessWinParticipants.id);
  return rows.map((row) => ({
    sourceKey: guessEntryKey(row.id),
    userId: row.userId,
    email: row.email,
    closed: row.deletedAt !== null,
  }));
}
