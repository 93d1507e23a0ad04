import Stripe from "stripe";
import { cardFundingOf } from "~/domain/spend-limits";
import type { CreateCheckoutSessionInput, PaymentProvider, ProviderSession, RefundInput } from "./types";

/** A Stripe client for the Workers runtime: fetch transport, a bounded timeout, the SDK's own retries. */
export function createStripeClient(secretKey: string, httpClient?: Stripe.HttpClient): Stripe {
  return new Stripe(secretKey, {
    httpClient: httpClient ?? Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    timeout: 20_000,
  });
}

/** Country codes Stripe Checkout does not ship to; a host's list is filtered so one of them cannot break checkout. */
const UNSHIPPABLE_COUNTRIES = new Set([
  "AS",
  "CC",
  "CU",
  "CX",
  "FM",
  "HM",
  "IR",
  "KP",
  "MH",
  "MP",
  "NF",
  "PW",
  "SD",
  "SY",
  "UM",
  "VI",
]);

/** The Checkout Session parameters for one of our checkouts (amounts from the server only). */
export function checkoutSessionParams(input: CreateCheckoutSessionInput): Stripe.Checkout.SessionCreateParams {
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: "payment",
    client_reference_id: input.reference,
    line_items: input.lineItems.map((item) => ({
      quantity: item.quantity,
      price_data: {
        currency: input.currency.toLowerCase(),
        unit_amount: item.unitAmountCents,
        product_data: {
          name: item.name,
          ...(item.description ? { description: item.description } : {}),
          ...(item.imageUrl && item.imageUrl.startsWith("https://") ? { images: [item.imageUrl] } : {}),
        },
      },
    })),
    metadata: input.metadata,
    payment_intent_data: { metadata: input.metadata },
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
  };
  if (input.customerEmail) params.customer_email = input.customerEmail;
  if (input.expiresAt) params.expires_at = Math.floor(input.expiresAt.getTime() / 1000);
  const countries = (input.shippingCountries ?? [])
    .map((c) => c.toUpperCase())
    .filter((c) => !UNSHIPPABLE_COUNTRIES.has(c));
  if (countries.length > 0) {
    params.shipping_address_collection = {
      allowed_countries: countries as Stripe.Checkout.SessionCreateParams.ShippingAddressCollection.AllowedCountry[],
    };
  }
  return params;
}

/** Our view of a Stripe Checkout Session (as retrieved, or as carried by an event). */
export function toProviderSession(session: Stripe.Checkout.Session): ProviderSession {
  const intent = session.payment_intent;
  return {
    id: session.id,
    status: session.status ?? "open",
    paymentStatus: session.payment_status,
    amountTotalCents: session.amount_total,
    currency: session.currency,
    metadata: session.metadata ?? {},
    customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
    paymentIntentId: typeof intent === "string" ? intent : (intent?.id ?? null),
    reference: session.client_reference_id,
    raw: session,
  };
}

export function createStripeProvider(secretKey: string, httpClient?: Stripe.HttpClient): PaymentProvider {
  const stripe = createStripeClient(secretKey, httpClient);
  return {
    name: "stripe",

    async createCheckoutSession(input) {
      const session = await stripe.checkout.sessions.create(checkoutSessionParams(input), {
        idempotencyKey: `checkout-session:${input.reference}`,
      });
      return {
        id: session.id,
        url: session.url,
        expiresAt: session.expires_at ? new Date(session.expires_at * 1000) : null,
      };
    },

    async retrieveSession(id) {
      try {
        return toProviderSession(await stripe.checkout.sessions.retrieve(id));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw error;
      }
    },

    async refund(input: RefundInput) {
      const refund = await stripe.refunds.create(
        {
          payment_intent: input.paymentIntentId,
          amount: input.amountCents,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      // Stripe sends its refund events to the webhook itself: none to hand back.
      return { id: refund.id, status: refund.status ?? "pending", events: [] };
    },

    async processingFee({ paymentIntentId, balanceTransactionId }) {
      if (balanceTransactionId) {
        const balance = await stripe.balanceTransactions.retrieve(balanceTransactionId);
        return { balanceTransactionId: balance.id, feeCents: balance.fee, currency: balance.currency.toUpperCase() };
      }
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId, {
        expand: ["latest_charge.balance_transaction"],
      });
      const charge = intent.latest_charge;
      if (!charge || typeof charge === "string") return null;
      const balance = charge.balance_transaction;
      if (!balance || typeof balance === "string") return null;
      return { balanceTransactionId: balance.id, feeCents: balance.fee, currency: balance.currency.toUpperCase() };
    },

    async cardFunding({ paymentIntentId }) {
      // The charge's card, as Stripe reports it: a payment by another method is no card (null).
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] });
      const charge = intent.latest_charge;
      if (!charge || typeof charge === "string") return "unknown";
      const details = charge.payment_method_details;
      if (details && details.type !== "card") return null;
      return cardFundingOf(details?.card?.funding);
    },
  };
}
