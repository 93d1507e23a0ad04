import { data } from "react-router";

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
 * A route param that must look like an id before any query runs; anything else (missing, too long, odd
 * characters) is a 404, never a 500.
 */
export function idParam(value: string | undefined): string {
  if (value === undefined || !ID_LIKE.test(value)) notFound();
  return value;
}

/** Owner check for a host's product, game, pool or group buy. */
export function assertOwner(hostId: string, userId: string): void {
  if (hostId !== userId) forbidden();
}

/** A positive page number from `?page=`; 1 for anything else. Capped so OFFSET stays cheap. */
export function pageParam(request: Request, max = 500): number {
  const raw = new URL(request.url).searchParams.get("page");
  const page = raw && /^\d{1,4}$/.test(raw) ? Number(raw) : 1;
  return Math.min(Math.max(page, 1), max);
}
