import { createContext, redirect, type RouterContextProvider } from "react-router";
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

/** Where a guarded page sends a visitor: /signin, then back to the page asked for. */
export function signinRedirectUrl(request: Request): string {
  const url = new URL(request.url);
  return `/signin?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/** The signed-in user, or a redirect to /signin?redirectTo=… for a visitor. */
export function requireUser(context: Ctx, request: Request): SessionUser {
  const user = context.get(userContext);
  if (!user) throw redirect(signinRedirectUrl(request));
  return user;
}

/** The platform owner, or 403 for anyone else (a visitor is sent to sign in first). */
export function requireAdmin(context: Ctx, request: Request): SessionUser {
  const user = requireUser(context, request);
  if (user.role !== "admin") throw new Response("Forbidden", { status: 403 });
  return user;
}

/** Only same-site relative paths are followed after sign-in, never another origin. */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}
