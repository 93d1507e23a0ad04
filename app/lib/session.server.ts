import type { Db } from "~/db/client.server";
import {
  deleteSession,
  getSessionAccount,
  insertSession,
  touchSession,
  type SessionViewer,
} from "~/db/queries/sessions.server";
import { SESSION_ABSOLUTE_MS, sessionExpiry, sessionNeedsTouch, type UserRole } from "~/domain/accounts";
import { hostCookie, readCookie, SESSION_COOKIE } from "./cookies.server";
import { randomToken, sha256Hex } from "./crypto.server";

export { SESSION_COOKIE };

/** The signed-in account as loaders and components see it. */
export type SessionUser = {
  id: string;
  email: string;
  role: UserRole;
  creatorName: string;
  avatarUrl: string | null;
  /** Chat messages sent to this account and not read yet (the nav bar's count). */
  unreadMessages?: number;
  /** Units in the fan's cart (the nav bar's count). */
  cartItems?: number;
  /** Notifications not read yet (the nav bar's bell; counted up to 100). */
  unreadNotifications?: number;
  /** The owner confirmed the e-mail address: free guesses count and prizes are paid only then. */
  emailConfirmed: boolean;
};

/** Creates a session row and returns the Set-Cookie header that carries its token. */
export async function createSession(db: Db, userId: string, request: Request): Promise<string> {
  const token = randomToken();
  const now = new Date();
  await insertSession(db, {
    id: await sha256Hex(token),
    userId,
    createdAt: now,
    // Idle and absolute lifetimes (decision 410): each request within the idle time pushes this forward.
    expiresAt: sessionExpiry(now, now),
    ip: request.headers.get("CF-Connecting-IP"),
    userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null,
  });
  return hostCookie(SESSION_COOKIE, token, SESSION_ABSOLUTE_MS / 1000);
}

/**
 * The request's session as reads can name it: the hash of the cookie's token (the sessions row's id) and the time
 * it must not have expired by. Null for a request without a session cookie. Reads keyed by the viewer take it in
 * place of the user's id and resolve the account in the same query (sessions.server.ts, `ViewerKey`), so a page's
 * reads and the session lookup travel to D1 together.
 */
export async function sessionViewerOf(request: Request): Promise<SessionViewer | null> {
  const token = readCookie(request, SESSION_COOKIE);
  if (!token) return null;
  return { sessionId: await sha256Hex(token), now: new Date() };
}

/** The signed-in account of a session, or null when it is unknown, expired or its account suspended. */
export async function getSessionUserOf(db: Db, viewer: SessionViewer): Promise<SessionUser | null> {
  // A suspended account's sessions end at once, even one created just before the suspension (sessions.server).
  const row = await getSessionAccount(db, viewer.sessionId, viewer.now);
  if (!row) return null;
  const { emailConfirmedAt, sessionCreatedAt, sessionExpiresAt, ...user } = row;
  // Used now: its idle deadline moves forward (at most one write an hour), never past its absolute end.
  if (
    sessionCreatedAt &&
    sessionExpiresAt &&
    sessionNeedsTouch(new Date(sessionCreatedAt), new Date(sessionExpiresAt), viewer.now)
  ) {
    await touchSession(db, viewer.sessionId, sessionExpiry(new Date(sessionCreatedAt), viewer.now));
  }
  return {
    ...user,
    unreadMessages: Number(user.unreadMessages) || 0,
    cartItems: Number(user.cartItems) || 0,
    unreadNotifications: Number(user.unreadNotifications) || 0,
    creatorName: user.creatorName ?? user.email.split("@")[0],
    avatarUrl: user.avatarUrl ?? null,
    emailConfirmed: emailConfirmedAt !== null,
  };
}

/** The user behind the request's session cookie, or null when absent, unknown or expired. */
export async function getSessionUser(db: Db, request: Request): Promise<SessionUser | null> {
  const viewer = await sessionViewerOf(request);
  return viewer ? getSessionUserOf(db, viewer) : null;
}

/** Deletes the request's session server-side and returns the Set-Cookie header that clears the cookie. */
export async function destroySession(db: Db, request: Request): Promise<string> {
  const token = readCookie(request, SESSION_COOKIE);
  if (token) await deleteSession(db, await sha256Hex(token));
  return hostCookie(SESSION_COOKIE, "", 0);
}

/** The session id (hash of the cookie token) of the request, to keep it when the account's other sessions end. */
export async function currentSessionId(request: Request): Promise<string | null> {
  const token = readCookie(request, SESSION_COOKIE);
  return token ? sha256Hex(token) : null;
}
