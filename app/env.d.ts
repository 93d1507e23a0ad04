// Secrets and optional bindings that `wrangler types` cannot see in wrangler.toml.
declare namespace Cloudflare {
  interface Env {
    /** Signs password-reset tokens and other short-lived links. */
    SESSION_SECRET?: string;
    /** Stripe secret key; without it the local payment provider is used. */
    STRIPE_SECRET_KEY?: string;
    /** Stripe webhook signing secret (whsec_…). */
    STRIPE_WEBHOOK_SECRET?: string;
    /** Cloudflare Email Routing binding for outgoing mail (production). */
    EMAIL?: SendEmail;
  }
}
