import { and, desc, eq, inArray, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { chatMessages, userProfiles } from "~/db/schema";

/** The latest messages between two users, returned oldest first for display. */
export async function listThread(db: Db, userId: string, otherId: string, limit = 50) {
  const rows = await db
    .select({
      id: chatMessages.id,
      senderId: chatMessages.senderId,
      body: chatMessages.body,
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    .where(
      or(
        and(eq(chatMessages.senderId, userId), eq(chatMessages.recipientId, otherId)),
        and(eq(chatMessages.senderId, otherId), eq(chatMessages.recipientId, userId)),
      ),
    )
    .orderBy(desc(chatMessages.createdAt))
    .limit(limit);
  return rows.reverse();
}

/** The people a user talked with most recently (from their latest messages), newest conversation first. */
export async function listConversations(db: Db, userId: string, scan = 100) {
  const recent = await db
    .select({
      senderId: chatMessages.senderId,
      recipientId: chatMessages.recipientId,
      body: chatMessages.body,
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    .where(or(eq(chatMessages.senderId, userId), eq(chatMessages.recipientId, userId)))
    .orderBy(desc(chatMessages.createdAt))
    .limit(scan);
  const latest = new Map<string, { lastMessage: string; lastAt: Date }>();
  for (const message of recent) {
    const other = message.senderId === userId ? message.recipientId : message.senderId;
    if (!latest.has(other)) latest.set(other, { lastMessage: message.body, lastAt: message.createdAt });
  }
  if (latest.size === 0) return [];
  const names = await db
    .select({ userId: userProfiles.userId, creatorName: userProfiles.creatorName, avatarUrl: userProfiles.avatarUrl })
    .from(userProfiles)
    .where(inArray(userProfiles.userId, [...latest.keys()]))
    .limit(latest.size);
  const byId = new Map(names.map((n) => [n.userId, n]));
  return [...latest].map(([otherId, last]) => ({
    userId: otherId,
    creatorName: byId.get(otherId)?.creatorName ?? "Member",
    avatarUrl: byId.get(otherId)?.avatarUrl ?? null,
    ...last,
  }));
}
