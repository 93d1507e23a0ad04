import { UNSUBSCRIBE_PATH } from "~/lib/unsubscribe-path";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every state-changing request from a browser must come from this site: its Origin header has to equal the
 * request's own origin. Webhooks are signed instead and are exempt, and so is the one-click unsubscribe (RFC 8058:
 * the mail provider posts it, from no origin of ours; its URL is signed per account and category).
 */
export function isAllowedOrigin(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const url = new URL(request.url);
  if (url.pathname.startsWith("/api/webhooks/")) return true;
  if (url.pathname === UNSUBSCRIBE_PATH) return true;
  return request.headers.get("Origin") === url.origin;
}
