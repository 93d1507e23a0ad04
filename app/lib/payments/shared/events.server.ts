import { z } from "zod";
import type { Address } from "~/db/schema";
import { cardFundingOf, type CardFunding } from "~/domain/spend-limits";

// The provider objects the pipeline reads, in Stripe's shape (the local provider sends the same): the fields we
// use, validated; anything else is ignored.

/**
 * Bad or unusable data in an event, or a paid checkout that cannot be delivered (what it was for is gone): never
 * retried. A paid checkout that raises it before anything of it was created is refunded in full with `reason`, the
 * text the buyer reads (fulfil.server.ts); nothing paid is acknowledged and dropped.
 */
export class FulfilmentDataError extends Error {
  readonly reason: string | null;
  constructor(message: string, reason: string | null = null) {
    super(message);
    this.name = "FulfilmentDataError";
    this.reason = reason;
  }
}

const AddressSchema = z.object({
  line1: z.string().nullish(),
  line2: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  postal_code: z.string().nullish(),
  country: z.string().nullish(),
});

const IdOrObject = z.union([z.string(), z.object({ id: z.string() }), z.null()]).optional();

/** The id of an expandable field (a string id, or the expanded object). */
export function idOf(value: z.infer<typeof IdOrObject>): string | null {
  return typeof value === "string" ? value : (value?.id ?? null);
}

/** A charge as an expanded payment intent carries it: the card's funding type (decision 520). */
const ChargeCardSchema = z.object({
  id: z.string(),
  payment_method_details: z
    .object({ type: z.string().nullish(), card: z.object({ funding: z.string().nullish() }).nullish() })
    .nullish(),
});

/** A session's payment intent: its id, or the object (expanded with its latest charge when asked for). */
const PaymentIntentField = z
  .union([
    z.string(),
    z.object({ id: z.string(), latest_charge: z.union([z.string(), ChargeCardSchema, z.null()]).optional() }),
    z.null(),
  ])
  .optional();

/** The fields of a Stripe `checkout.session` object that fulfilment reads. */
export const CheckoutSessionObjectSchema = z.object({
  id: z.string().min(1).max(255),
  object: z.literal("checkout.session"),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  payment_status: z.string(),
  status: z.string().nullish(),
  mode: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  payment_intent: PaymentIntentField,
  customer_email: z.string().nullish(),
  customer_details: z
    .object({ email: z.string().nullish(), name: z.string().nullish(), address: AddressSchema.nullish() })
    .nullish(),
  collected_information: z
    .object({
      shipping_details: z.object({ name: z.string().nullish(), address: AddressSchema.nullish() }).nullish(),
    })
    .nullish(),
});
export type CheckoutSessionObject = z.infer<typeof CheckoutSessionObjectSchema>;

/** A Stripe `refund` object. */
export const RefundObjectSchema = z.object({
  id: z.string().min(1).max(255),
  object: z.literal("refund"),
  amount: z.number().int().nonnegative(),
  currency: z.string().min(3).max(3),
  status: z.string().nullish(),
  payment_intent: IdOrObject,
  charge: IdOrObject,
  metadata: z.record(z.string(), z.string()).nullish(),
  failure_reason: z.string().nullish(),
});
export type RefundObject = z.infer<typeof RefundObjectSchema>;

/**
 * A Stripe `charge` object, as `charge.refunded` (its refunds, when expanded) and `charge.updated` (its balance
 * transaction, an id once Stripe created it; the object when expanded) carry it.
 */
export const ChargeObjectSchema = z.object({
  id: z.string().min(1).max(255),
  object: z.literal("charge"),
  amount: z.number().int().nonnegative().nullish(),
  currency: z.string().min(3).max(3).nullish(),
  status: z.string().nullish(),
  payment_intent: IdOrObject,
  balance_transaction: z
    .union([
      z.string().min(1).max(255),
      z.object({
        id: z.string().min(1).max(255),
        fee: z.number().int().nonnegative(),
        currency: z.string().min(3).max(3),
      }),
      z.null(),
    ])
    .optional(),
  metadata: z.record(z.string(), z.string()).nullish(),
  refunds: z.object({ data: z.array(z.unknown()) }).nullish(),
});
export type ChargeObject = z.infer<typeof ChargeObjectSchema>;

/** A Stripe `dispute` object. */
export const DisputeObjectSchema = z.object({
  id: z.string().min(1).max(255),
  object: z.literal("dispute"),
  amount: z.number().int().nonnegative(),
  currency: z.string().min(3).max(3),
  status: z.string().min(1).max(50),
  payment_intent: IdOrObject,
  charge: IdOrObject,
});
export type DisputeObject = z.infer<typeof DisputeObjectSchema>;

export const EventEnvelopeSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.unknown() }),
});

export function paymentIntentOf(session: CheckoutSessionObject): string | null {
  return idOf(session.payment_intent);
}

/**
 * The card's funding type when the session carries its payment intent expanded with the latest charge
 * (`payment_method_details.card.funding`); null when that charge was no card; undefined when the session does not say.
 */
export function sessionCardFunding(session: CheckoutSessionObject): CardFunding | null | undefined {
  const intent = session.payment_intent;
  if (!intent || typeof intent === "string") return undefined;
  const charge = intent.latest_charge;
  if (!charge || typeof charge === "string") return undefined;
  const details = charge.payment_method_details;
  if (!details) return undefined;
  if (details.type && details.type !== "card") return null;
  return cardFundingOf(details.card?.funding);
}

/** The shipping address a session collected, as stored on an order, or null. */
export function shippingOf(session: CheckoutSessionObject): Address | null {
  const details = session.collected_information?.shipping_details;
  const address = details?.address ?? session.customer_details?.address;
  if (!address?.line1 && !address?.city) return null;
  return {
    name: details?.name ?? session.customer_details?.name ?? "",
    street: [address.line1, address.line2].filter(Boolean).join(", "),
    city: address.city ?? "",
    state: address.state ?? "",
    postal_code: address.postal_code ?? "",
    country: address.country ?? "",
  };
}
