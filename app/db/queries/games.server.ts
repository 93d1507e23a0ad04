import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { guessWinGames, userProfiles } from "~/db/schema";

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

export type PublicGame = Awaited<ReturnType<typeof listActiveGames>>[number];

/** Active games, newest first; optionally one host's. */
export function listActiveGames(db: Db, { limit, hostId }: { limit: number; hostId?: string }) {
  const active = eq(guessWinGames.status, "active");
  return db
    .select(publicGame)
    .from(guessWinGames)
    .leftJoin(userProfiles, eq(userProfiles.userId, guessWinGames.hostId))
    .where(hostId ? and(active, eq(guessWinGames.hostId, hostId)) : active)
    .orderBy(desc(guessWinGames.createdAt), desc(guessWinGames.id))
    .limit(limit);
}

/** One game, public fields plus the correct answer (the route decides who may see it), or undefined. */
export async function getGame(db: Db, id: string) {
  const [row] = await db
    .select({ ...publicGame, correctAnswer: guessWinGames.correctAnswer })
    .from(guessWinGames)
    .leftJoin(userProfiles, eq(userProfiles.userId, guessWinGames.hostId))
    .where(eq(guessWinGames.id, id))
    .limit(1);
  return row;
}

/** A host's games of every status, newest first. */
export function listHostGames(db: Db, hostId: string, limit: number) {
  return db
    .select({
      id: guessWinGames.id,
      question: guessWinGames.question,
      status: guessWinGames.status,
      entryFeeCents: guessWinGames.entryFeeCents,
      currency: guessWinGames.currency,
      participantsCount: guessWinGames.participantsCount,
      totalEntryFeesCents: guessWinGames.totalEntryFeesCents,
      createdAt: guessWinGames.createdAt,
    })
    .from(guessWinGames)
    .where(eq(guessWinGames.hostId, hostId))
    .orderBy(desc(guessWinGames.createdAt), desc(guessWinGames.id))
    .limit(limit);
}

export async function countHostGames(db: Db, hostId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(guessWinGames).where(eq(guessWinGames.hostId, hostId));
  return row?.n ?? 0;
}
