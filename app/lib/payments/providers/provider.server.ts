import { isDemoMode } from "~/lib/config.server";
import { createLocalProvider } from "./local.server";
import type { PaymentProvider, ProviderOptions } from "./types";
import { createStripeProvider } from "./stripe.server";

/** Raised when neither Stripe nor the local provider may be used (production without a Stripe key). */
export class PaymentsNotConfiguredError extends Error {
  constructor() {
    super("Payments are not configured");
    this.name = "PaymentsNotConfiguredError";
  }
}

/** The signing secret of the local provider's events, used only when no Stripe key is configured. */
export const LOCAL_WEBHOOK_SECRET = "whsec_local_development_only_not_a_real_secret";

/** The local provider keeps its sessions and its books in D1, so it needs the environment. */
type PaymentEnv = Env;

/**
 * The local provider stands in for Stripe only where nobody can lose money: no Stripe key configured and demo
 * mode on (local development, tests). A deployment without a Stripe key gets no payments at all.
 */
export function isLocalPaymentsEnabled(env: Pick<Env, "DEMO_MODE" | "STRIPE_SECRET_KEY">): boolean {
  return !env.STRIPE_SECRET_KEY && isDemoMode(env);
}

/**
 * The secret webhook signatures are checked against: STRIPE_WEBHOOK_SECRET, else (local payments only) the fixed
 * local secret. Null means webhooks cannot be verified (Stripe key without a webhook secret).
 */
export function webhookSecret(
  env: Pick<Env, "DEMO_MODE" | "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET">,
): string | null {
  if (env.STRIPE_WEBHOOK_SECRET) return env.STRIPE_WEBHOOK_SECRET;
  return isLocalPaymentsEnabled(env) ? LOCAL_WEBHOOK_SECRET : null;
}

/** Stripe when STRIPE_SECRET_KEY is set, else the local provider (demo mode only). */
export function getPaymentProvider(env: PaymentEnv, origin: string, options: ProviderOptions = {}): PaymentProvider {
  if (env.STRIPE_SECRET_KEY) return createStripeProvider(env.STRIPE_SECRET_KEY, options.stripeHttpClient);
  if (isLocalPaymentsEnabled(env)) return createLocalProvider(env, origin);
  throw new PaymentsNotConfiguredError();
}
