// The web's security baseline for every response: a Content-Security-Policy (with a per-response nonce for pages),
// no framing, HSTS, a referrer policy and a permissions policy that grants the camera to the voucher scanner only.
// Pure functions of their inputs; workers/app.ts and app/entry.server.tsx apply them, and the page cache re-stamps
// the nonce of a stored page for each response.

/** Where a form may send the browser: this site (pages, the local checkout) and Stripe's hosted checkout. */
export const FORM_ACTION_SOURCES = ["'self'", "https://checkout.stripe.com"] as const;

/** Public Esplora APIs the draw-verification page asks for block headers from the browser. */
export const BROWSER_EXPLORER_ORIGINS = ["https://blockstream.info", "https://mempool.space"] as const;

/** The one page that may use the camera. */
export const CAMERA_PAGES = ["/voucher-scanner"] as const;

/** A fresh random nonce (128 bits, base64url) for one response. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The https origins of extra explorer URLs (e.g. BLOCK_EXPLORER_URLS), for connect-src; anything else is dropped. */
export function httpsOrigins(urls: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "https:") origins.add(parsed.origin);
    } catch {
      // not a URL: nothing to allow
    }
  }
  return [...origins];
}

/** The policy of an HTML page whose inline scripts carry `nonce`. */
export function pagePolicy(nonce: string, options: { connectOrigins?: readonly string[] } = {}): string {
  const connect = new Set<string>(["'self'", ...BROWSER_EXPLORER_ORIGINS, ...(options.connectOrigins ?? [])]);
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    // Product images may be https URLs; QR codes and previews are data: and blob: URLs.
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    "font-src 'self' data:",
    `connect-src ${[...connect].join(" ")}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${FORM_ACTION_SOURCES.join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The policy of every other response (JSON, files, redirects): nothing runs, nothing frames it. */
export const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The policy with its nonce replaced (a stored page answered again gets a fresh one). */
export function withNonce(policy: string, nonce: string): string {
  return policy.replace(/'nonce-[^']*'/g, `'nonce-${nonce}'`);
}

export function permissionsPolicy(pathname: string): string {
  const camera = CAMERA_PAGES.some((page) => pathname === page) ? "camera=(self)" : "camera=()";
  return [camera, "microphone=()", "geolocation=()", "payment=()", "usb=()", "serial=()", "bluetooth=()"].join(", ");
}

/** The headers every response carries (the CSP only when the response has none of its own). */
export function applySecurityHeaders(headers: Headers, pathname: string): void {
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", RESOURCE_POLICY);
  headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", permissionsPolicy(pathname));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
}
