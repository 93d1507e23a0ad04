import { data, redirect, type RouterContextProvider } from "react-router";
import { getOptionalUser, type SessionUser } from "./auth.server";

// The one guards module: who may see or change a thing. A visitor is sent to sign in; a missing thing is 404; a
// thing that is someone else's is 403 (404 where existence itself must not leak); the admin pages are the owner's.

type Ctx = Readonly<RouterContextProvider>;

/** Ids, slugs, order numbers and voucher codes: letters, digits, '-' and '_', at most 64 characters. */
const ID_LIKE = /^[A-Za-z0-9_-]{1,64}$/;

/** Answers 404 (rendered by the nearest ErrorBoundary). */
export function notFound(): never {
  throw data(null, { status: 404 });
}

/** Answers 403: signed in, but not allowed to see or change this. */
export function forbidden(): never {
  throw new Response("Forbidden", { status: 403 });
}

/**
 * Where a guarded page sends a visitor: /signin, then back to the page asked for. A page loaded in the background
 * (a client-side navigation) is asked for at React Router's data address, `/my-orders.data?_routes=…` (`/_root.data`
 * for the home page); the way back is the page's own address, not that one.
 */
export function signinRedirectUrl(request: Request): string {
  const url = new URL(request.url);
  let path = url.pathname;
  if (path.endsWith(".data")) {
    path = path.slice(0, -".data".length);
    if (path === "/_root") path = "/";
    url.searchParams.delete("_routes");
  }
  return `/signin?redirectTo=${encodeURIComponent(path + url.search)}`;
}

/** The signed-in user, or a redirect to /signin?redirectTo=… for a visitor. */
export async function requireUser(context: Ctx, request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(context);
  if (!user) throw redirect(signinRedirectUrl(request));
  return user;
}

/** The platform owner, or 403 for anyone else (a visitor is sent to sign in first). */
export async function requireAdmin(context: Ctx, request: Request): Promise<SessionUser> {
  const user = await requireUser(context, request);
  if (user.role !== "admin") throw new Response("Forbidden", { status: 403 });
  return user;
}

/** Owner check for a host's product, game, pool, group buy or order: 403 for anyone else. */
export function assertOwner(hostId: string, userId: string): void {
  if (hostId !== userId) forbidden();
}

/**
 * A route param that must look like an id before any query runs; anything else (missing, too long, odd
 * characters) is a 404, never a 500.
 */
export function idParam(value: string | undefined): string {
  if (value === undefined || !ID_LIKE.test(value)) notFound();
  return value;
}

/** A positive page number from `?page=`; 1 for anything else. Capped so OFFSET stays cheap. */
export function pageParam(request: Request, max = 500): number {
  const raw = new URL(request.url).searchParams.get("page");
  const page = raw && /^\d{1,4}$/.test(raw) ? Number(raw) : 1;
  return Math.min(Math.max(page, 1), max);
}
