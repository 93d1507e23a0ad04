import { and, count, desc, eq, gt, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { chatConversations, chatMessages, tribeMembers, userProfiles } from "~/db/schema";
import { conversationPair } from "~/domain/chat";

/** The conversation with this id if `userId` is one of its two parties (else null: nobody else may see it). */
export async function getConversationForUser(db: Db, conversationId: string, userId: string) {
  const [row] = await db
    .select({
      id: chatConversations.id,
      userLowId: chatConversations.userLowId,
      userHighId: chatConversations.userHighId,
    })
    .from(chatConversations)
    .where(
      and(
        eq(chatConversations.id, conversationId),
        or(eq(chatConversations.userLowId, userId), eq(chatConversations.userHighId, userId)),
      ),
    )
    .limit(1);
  if (!row) return null;
  return { id: row.id, otherId: row.userLowId === userId ? row.userHighId : row.userLowId };
}

/** A chat partner's public basics (null for an unknown or suspended account). */
export async function getChatPartner(db: Db, userId: string) {
  const [row] = await db
    .select({
      userId: userProfiles.userId,
      creatorName: userProfiles.creatorName,
      avatarUrl: userProfiles.avatarUrl,
      profilePublic: userProfiles.profilePublic,
    })
    .from(userProfiles)
    .where(and(eq(userProfiles.userId, userId), ne(userProfiles.status, "suspended")))
    .limit(1);
  return row ?? null;
}

/**
 * Whether `userId` may open a conversation with `otherId`: they already have one, one is in the other's tribe
 * (a host and a member), or the other is a host with a public profile (a fan writing through /chat?creator=).
 */
export async function canStartConversation(
  db: Db,
  userId: string,
  otherId: string,
  otherIsPublic: boolean,
): Promise<boolean> {
  if (userId === otherId) return false;
  if (otherIsPublic) return true;
  const [low, high] = conversationPair(userId, otherId);
  const [existing, tribe] = await db.batch([
    db
      .select({ id: chatConversations.id })
      .from(chatConversations)
      .where(and(eq(chatConversations.userLowId, low), eq(chatConversations.userHighId, high)))
      .limit(1),
    db
      .select({ userId: tribeMembers.userId })
      .from(tribeMembers)
      .where(
        or(
          and(eq(tribeMembers.userId, userId), eq(tribeMembers.hostId, otherId)),
          and(eq(tribeMembers.userId, otherId), eq(tribeMembers.hostId, userId)),
        ),
      )
      .limit(1),
  ]);
  return existing.length > 0 || tribe.length > 0;
}

/** The id of the conversation between `a` and `b`, or null when they have none (creates nothing). */
export async function findConversation(db: Db, a: string, b: string): Promise<string | null> {
  const [userLowId, userHighId] = conversationPair(a, b);
  const [row] = await db
    .select({ id: chatConversations.id })
    .from(chatConversations)
    .where(and(eq(chatConversations.userLowId, userLowId), eq(chatConversations.userHighId, userHighId)))
    .limit(1);
  return row?.id ?? null;
}

/** The pair's conversation id, created on first use (one per pair, enforced by a unique index). */
export async function getOrCreateConversation(db: Db, a: string, b: string): Promise<string> {
  const [userLowId, userHighId] = conversationPair(a, b);
  await db.insert(chatConversations).values({ userLowId, userHighId }).onConflictDoNothing();
  const id = await findConversation(db, a, b);
  if (!id) throw new Error("conversation was not created");
  return id;
}

/** The newest `limit` messages of a conversation, oldest first for display. */
export async function listThreadMessages(db: Db, conversationId: string, limit: number) {
  const rows = await db
    .select({
      id: chatMessages.id,
      senderId: chatMessages.senderId,
      body: chatMessages.body,
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    .where(eq(chatMessages.conversationId, conversationId))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(limit);
  return rows.reverse();
}

/** Marks everything the other party sent in this conversation as read by `userId`. */
export async function markConversationRead(db: Db, conversationId: string, userId: string): Promise<void> {
  await db
    .update(chatMessages)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(chatMessages.conversationId, conversationId),
        eq(chatMessages.recipientId, userId),
        isNull(chatMessages.readAt),
      ),
    );
}

/** How many messages the account sent since `since` (the sending rate limit). */
export async function countMessagesSentSince(db: Db, senderId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(chatMessages)
    .where(and(eq(chatMessages.senderId, senderId), gt(chatMessages.createdAt, since)));
  return row?.n ?? 0;
}

/** Stores a message and moves the conversation to the top of both parties' lists, in one batch. */
export async function insertChatMessage(
  db: Db,
  input: { conversationId: string; senderId: string; recipientId: string; body: string; now: Date },
) {
  const id = crypto.randomUUID();
  await db.batch([
    db.insert(chatMessages).values({
      id,
      conversationId: input.conversationId,
      senderId: input.senderId,
      recipientId: input.recipientId,
      body: input.body,
      createdAt: input.now,
    }),
    db
      .update(chatConversations)
      .set({ lastMessageAt: input.now })
      .where(eq(chatConversations.id, input.conversationId)),
  ]);
  return { id, senderId: input.senderId, body: input.body, createdAt: input.now };
}

/** The user's conversations with a message in them, newest first: the other party, the last message, unread count. */
export function listConversations(db: Db, userId: string, limit = 50) {
  const otherId = sql<string>`case when ${chatConversations.userLowId} = ${userId} then ${chatConversations.userHighId} else ${chatConversations.userLowId} end`;
  return db
    .select({
      id: chatConversations.id,
      userId: userProfiles.userId,
      creatorName: userProfiles.creatorName,
      avatarUrl: userProfiles.avatarUrl,
      lastAt: chatConversations.lastMessageAt,
      lastMessage: sql<string>`(select ${chatMessages.body} from ${chatMessages} where ${chatMessages.conversationId} = ${chatConversations.id} order by ${chatMessages.createdAt} desc limit 1)`,
      unread: sql<number>`(select count(*) from ${chatMessages} where ${chatMessages.conversationId} = ${chatConversations.id} and ${chatMessages.recipientId} = ${userId} and ${chatMessages.readAt} is null)`,
    })
    .from(chatConversations)
    .innerJoin(userProfiles, eq(userProfiles.userId, otherId))
    .where(
      and(
        ne(userProfiles.status, "suspended"),
        or(eq(chatConversations.userLowId, userId), eq(chatConversations.userHighId, userId)),
        isNotNull(chatConversations.lastMessageAt),
      ),
    )
    .orderBy(desc(chatConversations.lastMessageAt))
    .limit(limit);
}
