const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every state-changing request from a browser must come from this site: its Origin header has to equal the
 * request's own origin. Webhooks are signed instead and are exempt.
 */
export function isAllowedOrigin(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const url = new URL(request.url);
  if (url.pathname.startsWith("/api/webhooks/")) return true;
  return request.headers.get("Origin") === url.origin;
}
