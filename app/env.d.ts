// Secrets and optional bindings that `wrangler types` cannot see in wrangler.toml.
interface AppSecrets {
  /** Signs the flash-message cookie; required in production. */
  SESSION_SECRET?: string;
  /** Stripe secret key; without it the local payment provider is used. */
  STRIPE_SECRET_KEY?: string;
  /** Stripe webhook signing secret (whsec_…). */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Signing secret (whsec_…) of the Stripe Connect webhook endpoint (/api/webhooks/stripe-connect). */
  STRIPE_CONNECT_WEBHOOK_SECRET?: string;
  /** Cloudflare `send_email` binding for outgoing mail (production). */
  EMAIL?: SendEmail;
}

interface Env extends AppSecrets {}

declare namespace Cloudflare {
  interface Env extends AppSecrets {}
}
