import type Stripe from "stripe";
import type { CheckoutPurpose } from "~/domain/payments";
import type { CardFunding } from "~/domain/spend-limits";

// What a payment provider is, as the pipeline sees it: Stripe (stripe.server.ts) and the local provider
// (local.server.ts) both implement PaymentProvider. A leaf: it imports no provider, so a provider and the code that
// picks one (provider.server.ts) never import each other.

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
  /** Always USD (docs/product.md#cart-and-checkout). */
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
  refund(input: RefundInput): Promise<ProviderRefund>;
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
  /** The card's funding type of a paid payment (the credit-card cap, decision 520). */
  cardFunding: CardFundingLookup;
}

/**
 * How a paid payment was funded: a card's funding type (its charge's `payment_method_details.card.funding`), or
 * null when it was paid otherwise (a bank transfer). "unknown": a card whose type could not be read.
 */
export type CardFundingLookup = (input: {
  paymentIntentId: string;
  checkoutSessionId: string;
}) => Promise<CardFunding | null>;

export type ProcessingFee = { balanceTransactionId: string; feeCents: number; currency: string };

export type ProviderOptions = {
  /** Transport for the Stripe SDK (tests give a recording fake); defaults to the fetch client. */
  stripeHttpClient?: Stripe.HttpClient;
};

/**
 * A Stripe-format event a provider hands back to its caller instead of sending it (the local provider's refund
 * events): the caller applies it through the webhook pipeline (refunds/refund-request.server.ts).
 */
export type ProviderEvent = { id: string; type: string; data: { object: unknown } };

/** A provider's answer to a refund: its id and status, and the events it hands back to be applied (Stripe: none). */
export type ProviderRefund = { id: string; status: string; events: ProviderEvent[] };
