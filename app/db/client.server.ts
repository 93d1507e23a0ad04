import { drizzle } from "drizzle-orm/d1";
import { DB_BOOKMARK_COOKIE, hostCookie, readCookie } from "~/lib/cookies.server";
import { batchingReads } from "./read-batch.server";

export type Db = ReturnType<typeof drizzle>;

/**
 * The drizzle client over the Worker's D1 binding. Query functions take it as their first argument. It is built
 * without the schema: the app uses only the query builder (no `db.query` relational API), and with a schema drizzle
 * walks every table of it again on each call (a measurable share of a page's CPU, several calls per request).
 */
export function getDb(env: Pick<Env, "DB">) {
  // One client per binding (per request, the request's D1 session): loaders, actions and the session lookup of a
  // request share it instead of building a dialect and session each.
  let db = clients.get(env.DB);
  if (!db) {
    db = drizzle(env.DB);
    clients.set(env.DB, db);
  }
  return db;
}

const clients = new WeakMap<D1Database, ReturnType<typeof drizzle>>();

// --- read replication (D1's Sessions API) ------------------------------------------------------------------------

/** The browser session's newest D1 bookmark: its reads are served by a replica at least that new. */
export { DB_BOOKMARK_COOKIE };
/** A day: a bookmark older than that is behind every replica anyway. */
const BOOKMARK_COOKIE_SECONDS = 24 * 60 * 60;
/** D1 bookmarks are short hex-and-dash tokens; anything else in the cookie is ignored. */
const BOOKMARK_SHAPE = /^[0-9A-Za-z-]{1,128}$/;
/**
 * Pages read right after a write this browser did not make itself (the payment provider's webhook and the pool
 * object write the order, entries and pool): their first query goes to the primary.
 */
const FROM_PRIMARY_PATHS: readonly string[] = ["/payment/success"];

export type DbSession = {
  /** The request's bindings with DB replaced by the session: every getDb(env) in the request uses it. */
  env: Env;
  /** How the session started: the browser's bookmark, "first-primary" or "first-unconstrained". */
  constraint: string;
  /** The Set-Cookie value carrying the session's newest bookmark, or null when it has not moved. */
  bookmarkCookie(): string | null;
};

/**
 * One D1 session per request, the one place reads get their consistency: it starts from the bookmark the browser
 * sent (so a fan's page after their own write, on any replica, sees that write), from the primary on the pages
 * read right after a payment, and anywhere otherwise. Writes always go to the primary; the session's bookmark
 * then moves past them and goes back to the browser in the cookie.
 */
export function openDbSession(env: Env, request: Request): DbSession {
  const sent = readCookie(request, DB_BOOKMARK_COOKIE);
  const bookmark = sent && BOOKMARK_SHAPE.test(sent) ? sent : null;
  const fromPrimary = FROM_PRIMARY_PATHS.includes(new URL(request.url).pathname);
  let constraint = fromPrimary ? "first-primary" : (bookmark ?? "first-unconstrained");
  let session: D1DatabaseSession;
  try {
    session = env.DB.withSession(constraint);
  } catch {
    // A bookmark D1 does not accept (forged, or from another database): start like a new browser.
    constraint = "first-unconstrained";
    session = env.DB.withSession(constraint);
  }
  return {
    // The request's concurrent reads share one D1 call (./read-batch.server.ts).
    env: { ...env, DB: batchingReads(session) },
    constraint,
    bookmarkCookie() {
      const latest = session.getBookmark();
      if (!latest || latest === bookmark || !BOOKMARK_SHAPE.test(latest)) return null;
      return hostCookie(DB_BOOKMARK_COOKIE, latest, BOOKMARK_COOKIE_SECONDS);
    },
  };
}
