// Secrets and optional bindings that `wrangler types` cannot see in wrangler.toml.
interface AppSecrets {
  /** Signs the flash-message cookie; required in production. */
  SESSION_SECRET?: string;
  /**
   * Keys the hashes self-exclusions are kept under (HMAC-SHA-256; app/lib/self-exclusion.server.ts). Required in
   * production and never changed once set: a new value loses every self-exclusion kept under the old one.
   */
  SELF_EXCLUSION_SECRET?: string;
  /** Stripe secret key; without it the local payment provider is used. */
  STRIPE_SECRET_KEY?: string;
  /** Stripe webhook signing secret (whsec_…). */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Signing secret (whsec_…) of the Stripe Connect webhook endpoint (/api/webhooks/stripe-connect). */
  STRIPE_CONNECT_WEBHOOK_SECRET?: string;
  /** Web Push (VAPID, RFC 8292): the P-256 public key (65 bytes) and private key (32 bytes), base64url. */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  /** The contact push services see, e.g. "mailto:ops@example.com" (default: mailto: MAIL_FROM). */
  VAPID_SUBJECT?: string;
  /** Cloudflare Turnstile's secret key: the free entry form's bot check (app/lib/bot-check.server.ts). */
  TURNSTILE_SECRET_KEY?: string;
  /** Cloudflare `send_email` binding for outgoing mail (production). */
  EMAIL?: SendEmail;
}

// Declaration merging: the secrets join the Env interfaces `wrangler types` generates.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
interface Env extends AppSecrets {}

declare namespace Cloudflare {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Env extends AppSecrets {}
}
