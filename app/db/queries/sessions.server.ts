import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { chatMessages, sessions, userProfiles, users, type NewSession } from "~/db/schema";
import { cartCountColumn } from "./cart.server";
import { columnPlaceholder, preparedRead } from "~/db/prepared.server";

export async function insertSession(db: Db, row: NewSession): Promise<void> {
  await db.insert(sessions).values(row);
}

/**
 * The account behind an unexpired session id (the token's hash), with its display name, avatar, profile status and
 * count of unread chat messages and the units in the cart (the nav bar's counts, in this one query).
 */
export async function getSessionAccount(db: Db, sessionId: string, now: Date) {
  return sessionAccountRead(db).get({ sessionId, now });
}

const sessionAccountRead = preparedRead((db) =>
  db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      emailConfirmedAt: users.emailConfirmedAt,
      creatorName: userProfiles.creatorName,
      avatarUrl: userProfiles.avatarUrl,
      status: userProfiles.status,
      unreadMessages: sql<number>`(select count(*) from ${chatMessages} where ${chatMessages.recipientId} = ${users.id} and ${chatMessages.readAt} is null)`,
      cartItems: cartCountColumn(users.id),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(and(eq(sessions.id, columnPlaceholder(sessions.id, "sessionId")), gt(sessions.expiresAt, columnPlaceholder(sessions.expiresAt, "now"))))
    .limit(1)
    .prepare(),
);

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
