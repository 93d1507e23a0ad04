import { and, count, desc, eq, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { containsText } from "~/db/text-match.server";
import {
  chatMessages,
  guessWinGames,
  guessWinParticipants,
  orders,
  prizePoolContributions,
  tribeMembers,
  userProfiles,
} from "~/db/schema";
import type { TribeQuery } from "~/domain/tribe";

/** SQL: the member behind tribe_members has an order, a guess or a message to the host since `since`. */
function activeCondition(hostId: string, since: Date): SQL<boolean> {
  const sinceMs = since.getTime();
  return sql<boolean>`(
    exists (select 1 from ${orders} where ${orders.userId} = ${tribeMembers.userId} and ${orders.hostId} = ${hostId} and ${orders.createdAt} > ${sinceMs})
    or exists (select 1 from ${guessWinParticipants} inner join ${guessWinGames} on ${guessWinGames.id} = ${guessWinParticipants.gameId}
      where ${guessWinParticipants.userId} = ${tribeMembers.userId} and ${guessWinGames.hostId} = ${hostId} and ${guessWinParticipants.createdAt} > ${sinceMs})
    or exists (select 1 from ${chatMessages} where ${chatMessages.senderId} = ${tribeMembers.userId} and ${chatMessages.recipientId} = ${hostId} and ${chatMessages.createdAt} > ${sinceMs})
  )`;
}

/**
 * One page of a host's tribe, newest members first, searched by name and filtered by activity (all, active,
 * inactive), paginated in SQL; `hasMore` tells whether a next page exists.
 */
export async function listTribeMembers(
  db: Db,
  hostId: string,
  query: TribeQuery,
  options: { since: Date; pageSize: number },
) {
  const active = activeCondition(hostId, options.since);
  const conditions: SQL[] = [eq(tribeMembers.hostId, hostId)];
  if (query.q) conditions.push(containsText(userProfiles.creatorName, query.q));
  if (query.filter === "active") conditions.push(active);
  if (query.filter === "inactive") conditions.push(sql`not ${active}`);
  const rows = await db
    .select({
      userId: tribeMembers.userId,
      joinedAt: tribeMembers.joinedAt,
      creatorName: userProfiles.creatorName,
      avatarUrl: userProfiles.avatarUrl,
      active: sql<number>`${active}`,
    })
    .from(tribeMembers)
    .innerJoin(userProfiles, eq(userProfiles.userId, tribeMembers.userId))
    .where(and(...conditions))
    .orderBy(desc(tribeMembers.joinedAt), desc(tribeMembers.userId))
    .limit(options.pageSize + 1)
    .offset((query.page - 1) * options.pageSize);
  return {
    members: rows.slice(0, options.pageSize).map((r) => ({ ...r, active: Boolean(r.active) })),
    hasMore: rows.length > options.pageSize,
  };
}

/** How many members the tribe has and how many of them are active. */
export async function countTribe(db: Db, hostId: string, since: Date) {
  const [row] = await db
    .select({
      total: count(),
      active: sql<number>`coalesce(sum(case when ${activeCondition(hostId, since)} then 1 else 0 end), 0)`,
    })
    .from(tribeMembers)
    .where(eq(tribeMembers.hostId, hostId));
  const total = row?.total ?? 0;
  const activeCount = Number(row?.active ?? 0);
  return { total, active: activeCount, inactive: total - activeCount };
}

/** The fans whose contributions to the host's pools add up to the most (refunds netted), largest first. */
export function listTopContributors(db: Db, hostId: string, limit: number) {
  const total = sql<number>`sum(${prizePoolContributions.amountCents})`;
  return (
    db
      .select({
        userId: prizePoolContributions.userId,
        creatorName: userProfiles.creatorName,
        avatarUrl: userProfiles.avatarUrl,
        totalCents: total,
        currency: prizePoolContributions.currency,
        contributions: count(),
      })
      .from(prizePoolContributions)
      .innerJoin(userProfiles, eq(userProfiles.userId, prizePoolContributions.userId))
      // The host's own deposits are not a fan's contribution.
      .where(
        and(
          eq(prizePoolContributions.hostId, hostId),
          isNotNull(prizePoolContributions.userId),
          ne(prizePoolContributions.userId, hostId),
        ),
      )
      .groupBy(prizePoolContributions.userId, prizePoolContributions.currency)
      .having(sql`${total} > 0`)
      .orderBy(desc(total))
      .limit(limit)
  );
}
