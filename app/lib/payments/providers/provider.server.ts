import type Stripe from "stripe";
import { isDemoMode } from "~/lib/config.server";
import type { CheckoutPurpose } from "~/domain/payments";
import { createLocalProvider } from "./local.server";
import { createStripeProvider } from "./stripe.server";

/** One line of a checkout, priced on the server in minor units of the checkout currency. */
export type CheckoutLineItem = {
  name: string;
  description?: string;
  imageUrl?: string | null;
  unitAmountCents: number;
  quantity: number;
};

export type ShippingAddress = {
  name: string;
  street: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
};

export type CreateCheckoutSessionInput = {
  /** Our checkout_sessions id while the session is being created; also the idempotency reference. */
  reference: string;
  purpose: CheckoutPurpose;
  /** Always USD (the spec: checkout is created in USD). */
  currency: "USD";
  amountCents: number;
  lineItems: CheckoutLineItem[];
  /** What the webhook needs to fulfil (string values, Stripe's metadata limits). */
  metadata: Record<string, string>;
  customerEmail: string | null;
  /** ISO country codes the buyer may ship to; set only for physical goods. */
  shippingCountries: string[] | null;
  successUrl: string;
  cancelUrl: string;
  /** When the session stops taking payment; the provider's default (24 hours) when absent. */
  expiresAt?: Date;
};

/** A provider's view of a checkout session, in Stripe's terms. */
export type ProviderSession = {
  id: string;
  /** 'open' | 'complete' | 'expired' */
  status: string;
  /** 'paid' | 'unpaid' | 'no_payment_required' */
  paymentStatus: string;
  amountTotalCents: number | null;
  currency: string | null;
  metadata: Record<string, string>;
  customerEmail: string | null;
  paymentIntentId: string | null;
  /** Our checkout_sessions id (Stripe's client_reference_id). */
  reference: string | null;
  /** The provider's own object (a Stripe `checkout.session`), when there is one. */
  raw?: unknown;
};

export type RefundInput = {
  paymentIntentId: string;
  amountCents: number;
  currency: string;
  idempotencyKey: string;
  /** Our references (checkout session, order, origin, the reason the buyer sees), carried back in the refund's events. */
  metadata: Record<string, string>;
};

export interface PaymentProvider {
  readonly name: "stripe" | "local";
  /** Creates a hosted checkout session and returns its id and the address to send the browser to. */
  createCheckoutSession(
    input: CreateCheckoutSessionInput,
  ): Promise<{ id: string; url: string | null; expiresAt: Date | null }>;
  /** The session as the provider knows it, or null when it does not exist. */
  retrieveSession(id: string): Promise<ProviderSession | null>;
  /** A (partial) refund of a paid payment, idempotent per key: the same key answers the same refund. */
  refund(input: RefundInput): Promise<{ id: string; status: string }>;
  /**
   * The processing fee of a paid payment, from its charge's balance transaction (the one named, when a charge event
   * names it; else the payment intent's latest charge's); null while the payment has none yet (not charged, or the
   * balance transaction not created yet).
   */
  processingFee(input: {
    paymentIntentId: string;
    amountCents: number;
    currency: string;
    balanceTransactionId?: string;
  }): Promise<ProcessingFee | null>;
}

export type ProcessingFee = { balanceTransactionId: string; feeCents: number; currency: string };

/** Raised when neither Stripe nor the local provider may be used (production without a Stripe key). */
export class PaymentsNotConfiguredError extends Error {
  constructor() {
    super("Payments are not configured");
    this.name = "PaymentsNotConfiguredError";
  }
}

/** The signing secret of the local provider's events, used only when no Stripe key is configured. */
export const LOCAL_WEBHOOK_SECRET = "whsec_local_development_only_not_a_real_secret";

/** The local provider delivers its events to the webhook in-process, so it needs the whole environment. */
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

export type ProviderOptions = {
  /** Transport for the Stripe SDK (tests give a recording fake); defaults to the fetch client. */
  stripeHttpClient?: Stripe.HttpClient;
};

/** Stripe when STRIPE_SECRET_KEY is set, else the local provider (demo mode only). */
export function getPaymentProvider(env: PaymentEnv, origin: string, options: ProviderOptions = {}): PaymentProvider {
  if (env.STRIPE_SECRET_KEY) return createStripeProvider(env.STRIPE_SECRET_KEY, options.stripeHttpClient);
  if (isLocalPaymentsEnabled(env)) return createLocalProvider(env, origin);
  throw new PaymentsNotConfiguredError();
}
