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
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
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

/**
 * The policy of an HTML page whose inline scripts carry `nonce`. `widgetOrigin`: a third-party widget's origin
 * allowed to load its script and frame on this page (Turnstile on the free entry page, where it is configured).
 */
export function pagePolicy(
  nonce: string,
  options: { connectOrigins?: readonly string[]; widgetOrigin?: string } = {},
): string {
  const connect = new Set<string>(["'self'", ...BROWSER_EXPLORER_ORIGINS, ...(options.connectOrigins ?? [])]);
  const widget = options.widgetOrigin ? ` ${options.widgetOrigin}` : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${widget}`,
    "style-src 'self' 'unsafe-inline'",
    // Product images may be https URLs; QR codes and previews are data: and blob: URLs.
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    "font-src 'self' data:",
    `connect-src ${[...connect].join(" ")}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    options.widgetOrigin ? `frame-src ${options.widgetOrigin}` : "frame-src 'none'",
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

/**
 * Powerful features the pages never use are switched off; the camera only for the voucher scanner. Only features
 * browsers know are listed: an unknown one ("bluetooth" in Chromium) makes the browser warn on every page.
 */
export function permissionsPolicy(pathname: string): string {
  const camera = CAMERA_PAGES.some((page) => pathname === page) ? "camera=(self)" : "camera=()";
  return [camera, "microphone=()", "geolocation=()", "payment=()", "usb=()", "serial=()"].join(", ");
}

/** The headers every response carries besides its CSP. */
function baselineHeaders(pathname: string): [string, string][] {
  return [
    ["Strict-Transport-Security", "max-age=63072000; includeSubDomains"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Permissions-Policy", permissionsPolicy(pathname)],
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
  ];
}

/** The headers every response carries (the CSP only when the response has none of its own). */
export function applySecurityHeaders(headers: Headers, pathname: string): void {
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", RESOURCE_POLICY);
  for (const [name, value] of baselineHeaders(pathname)) headers.set(name, value);
}

/**
 * The policy of the static files (public/ and the build's assets), served by Cloudflare's asset routing before the
 * Worker runs: scripts, styles and images of this site only. The one document among them, the offline page, has
 * inline styles and one inline handler (its "Try again" button), allowed by its hash.
 */
export const STATIC_ASSET_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-hashes' 'sha256-9gOBGqEQINNDuds+tkXbNzih6klbz+KeCyxEj4KRLeM='",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * public/_headers (Cloudflare's static-asset header rules): the same baseline for every static file. Kept equal to
 * this text by tests/security.test.ts, so one change here and a copy there stay together.
 * @public The committed public/_headers is its output; the Worker never calls it.
 */
export function staticHeadersFile(): string {
  const lines = [["Content-Security-Policy", STATIC_ASSET_POLICY], ...baselineHeaders("/")].map(
    ([n, v]) => `  ${n}: ${v}`,
  );
  return [
    "# Security headers of every static file (scripts, styles, icons, manifest, offline page), generated from",
    "# staticHeadersFile() in app/lib/security-headers.ts; tests/security.test.ts checks they are the same.",
    "/*",
    ...lines,
    "",
  ].join("\n");
}
