import { createContext, type RouterContextProvider } from "react-router";
import { getDb } from "~/db/client.server";
import { getEnv } from "./context";
import type { SessionViewer } from "~/db/queries/sessions.server";
import { getSessionUserOf, sessionViewerOf, type SessionUser } from "./session.server";

export type { SessionUser } from "./session.server";

type Ctx = Readonly<RouterContextProvider>;

/**
 * The request's viewer: their session as reads can name it, and the signed-in user, read on first use. The read is
 * not sent by the middleware but by the first loader or action that asks, so it travels to D1 in one batch with the
 * reads the page's loaders start at the same time (db/read-batch.server.ts) instead of in a round trip of its own.
 */
type RequestViewer = { session: SessionViewer | null; user: () => Promise<SessionUser | null> };

const viewerContext = createContext<RequestViewer>({ session: null, user: async () => null });

/** Root middleware: names the request's session for every loader and action; the user is read when first asked. */
export async function prepareViewer({ request, context }: { request: Request; context: Ctx }) {
  const session = await sessionViewerOf(request);
  const db = getDb(getEnv(context));
  let user: Promise<SessionUser | null> | undefined;
  context.set(viewerContext, {
    session,
    user: () => (user ??= session ? getSessionUserOf(db, session) : Promise.resolve(null)),
  });
}

/** The signed-in user, or null for a visitor (an unknown, expired or suspended session too). */
export function getOptionalUser(context: Ctx): Promise<SessionUser | null> {
  return context.get(viewerContext).user();
}

/**
 * The viewer for reads of their own rows, before the user is known: the session (resolved in the same query), or
 * null for a request without one. A session that turns out unknown or expired matches no rows.
 */
export function viewerSession(context: Ctx): SessionViewer | null {
  return context.get(viewerContext).session;
}

// Any origin works as the base: only whether a target stays on it matters, and the path is what we send back.
const REDIRECT_BASE = "https://tribe.invalid";

/**
 * Where to send the browser after sign-in (or a form): the target resolved against the site's origin exactly as a
 * browser resolves a Location header (tabs and newlines dropped, "\\" read as "/", dot segments removed), accepted
 * only when it stays on the site, and returned as that normalised absolute path. Anything else gives `fallback`:
 * "//evil.example", "/\\evil.example", "/\t/evil.example" (a decoded "/%09/…"), absolute URLs, "javascript:".
 */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.length > 2048) return fallback;
  let url: URL;
  try {
    url = new URL(to, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE) return fallback;
  const path = url.pathname + url.search + url.hash;
  // A path that itself starts with two slashes would be read as another host when sent back.
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return fallback;
  return path;
}
