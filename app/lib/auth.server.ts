import { createContext, type RouterContextProvider } from "react-router";
import { getDb } from "~/db/client.server";
import { getEnv } from "./context";
import { getSessionUser, type SessionUser } from "./session.server";

export type { SessionUser } from "./session.server";

/** The signed-in user (or null), loaded once per request by the root middleware. */
export const userContext = createContext<SessionUser | null>(null);

type Ctx = Readonly<RouterContextProvider>;

/** Root middleware: resolves the session cookie to a user for every loader and action. */
export async function loadUser({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) {
  context.set(userContext, await getSessionUser(getDb(getEnv(context)), request));
}

export function getOptionalUser(context: Ctx): SessionUser | null {
  return context.get(userContext);
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
