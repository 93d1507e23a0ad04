import { and, eq, gt, Param, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { unreadNotificationsSql } from "~/db/queries/notifications.server";
import { chatMessages, sessions, userProfiles, users, type NewSession } from "~/db/schema";
import { cartCountColumn } from "./cart.server";
import { columnPlaceholder, preparedRead } from "~/db/prepared.server";

/** A signed-in viewer named by their session: the token's hash (the row's id) and the time it must outlive. */
export type SessionViewer = { sessionId: string; now: Date };

/**
 * Whom a read is for: a user id, or a request's session resolved to its account in the same query. Pages read
 * their viewer's own rows (a like, a membership, a country) by the session, so those reads go to D1 in one batch
 * with the session's own lookup instead of after it.
 */
export type ViewerKey = string | SessionViewer;

/** How a prepared read is keyed by its viewer. */
export type ViewerShape = "id" | "session";
export const viewerShape = (viewer: ViewerKey): ViewerShape => (typeof viewer === "string" ? "id" : "session");
/** The values of a viewer's placeholders ("viewer", and "viewerAt" for a session). */
export const viewerValues = (viewer: ViewerKey) =>
  typeof viewer === "string" ? { viewer } : { viewer: viewer.sessionId, viewerAt: viewer.now };
/** The viewer's placeholders in a prepared read, compared with `column` (a user id column). */
export const viewerParam = (shape: ViewerShape, column: AnySQLiteColumn) =>
  shape === "id" ? columnPlaceholder(column, "viewer") : sessionUserId();

/**
 * The account id of a session as a subquery: null when the session is unknown, has expired by then, or its account is
 * suspended (the rules of getSessionUserOf in lib/session.server.ts). With no session given, it reads the "viewer"
 * and "viewerAt" placeholders of a prepared read.
 */
function sessionUserId(session?: SessionViewer): SQL {
  const id = session ? new Param(session.sessionId, sessions.id) : columnPlaceholder(sessions.id, "viewer");
  const now = session ? new Param(session.now, sessions.expiresAt) : columnPlaceholder(sessions.expiresAt, "viewerAt");
  return sql`(select ${sessions.userId} from ${sessions} left join ${userProfiles} on ${userProfiles.userId} = ${sessions.userId}
    where ${sessions.id} = ${id} and ${sessions.expiresAt} > ${now}
      and coalesce(${userProfiles.status}, 'active') <> 'suspended')`;
}

/** The viewer's account id in a read built per call: the id, or their session resolved in the same query. */
export const viewerIdSql = (viewer: ViewerKey): string | SQL =>
  typeof viewer === "string" ? viewer : sessionUserId(viewer);

export async function insertSession(db: Db, row: NewSession): Promise<void> {
  await db.insert(sessions).values(row);
}

/**
 * The account behind an unexpired session id (the token's hash), with its display name, avatar, profile status and
 * count of unread chat messages and notifications and the units in the cart (the nav bar's counts, in this one
 * query).
 */
export async function getSessionAccount(db: Db, sessionId: string, now: Date) {
  return sessionAccountRead(db).get(viewerValues({ sessionId, now }));
}

// The account of the session in the "viewer" placeholder, by the same rule as every read keyed by a session
// (sessionUserId): none for an unknown or expired session or a suspended account.
const sessionAccountRead = preparedRead((db) =>
  db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      emailConfirmedAt: users.emailConfirmedAt,
      creatorName: userProfiles.creatorName,
      avatarUrl: userProfiles.avatarUrl,
      unreadMessages: sql<number>`(select count(*) from ${chatMessages} where ${chatMessages.recipientId} = ${users.id} and ${chatMessages.readAt} is null)`,
      cartItems: cartCountColumn(users.id),
      unreadNotifications: unreadNotificationsSql(users.id),
      // The session's own times, to push its idle deadline forward (lib/session.server.ts).
      sessionCreatedAt: sql<
        number | null
      >`(select ${sessions.createdAt} from ${sessions} where ${sessions.id} = ${columnPlaceholder(sessions.id, "viewer")})`,
      sessionExpiresAt: sql<
        number | null
      >`(select ${sessions.expiresAt} from ${sessions} where ${sessions.id} = ${columnPlaceholder(sessions.id, "viewer")})`,
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, sessionUserId()))
    .limit(1)
    .prepare(),
);

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Moves an unexpired session's end to `expiresAt` (its idle deadline after a request). */
export async function touchSession(db: Db, sessionId: string, expiresAt: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ expiresAt })
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, new Date())));
}
