import { getDb } from "~/db/client.server";
import {
  findCheckoutByReference,
  findCheckoutRow,
  getCheckoutSession,
  hasProcessingFee,
  recordProcessingFee,
} from "~/db/queries/checkout.server";
import { findCheckoutIdByPaymentIntent } from "~/db/queries/refunds.server";
import type { CheckoutSession } from "~/db/schema";
import { idOf, paymentIntentOf, type ChargeObject, type CheckoutSessionObject } from "../shared/events.server";
import { getPaymentProvider } from "../providers/provider.server";
import type { ProcessingFee } from "../providers/types";

// A payment's processing fee (the platform's cost, never booked to the host; docs/decisions/101 and 130), recorded
// once per payment intent from whichever comes first with a balance transaction: the paid session's lookup at
// fulfilment, or the `charge.updated` event Stripe sends when it creates the balance transaction later.

export type FeeOutcome = "recorded" | "already_recorded" | "not_yet" | "unknown_payment";

/** Stores the fee of one of our payments, once; a lookup that fails is logged and left for a later event. */
async function recordFeeOnce(
  env: Env,
  input: {
    paymentIntentId: string;
    row: CheckoutSession | undefined;
    amountCents: number;
    currency: string;
    /** A balance transaction the event carries expanded: no lookup needed. */
    known?: ProcessingFee;
    balanceTransactionId?: string;
    /** Throw a failed lookup (an event the provider redelivers) instead of leaving it for a later event. */
    rethrow?: boolean;
  },
): Promise<FeeOutcome> {
  const db = getDb(env);
  const { paymentIntentId, row } = input;
  try {
    if (await hasProcessingFee(db, paymentIntentId)) return "already_recorded";
    const fee =
      input.known ??
      (await getPaymentProvider(env, "").processingFee({
        paymentIntentId,
        amountCents: input.amountCents,
        currency: input.currency,
        ...(input.balanceTransactionId ? { balanceTransactionId: input.balanceTransactionId } : {}),
      }));
    if (!fee) return "not_yet";
    const inserted = await recordProcessingFee(db, {
      paymentIntentId,
      checkoutSessionId: row?.id ?? null,
      provider: row?.provider ?? (paymentIntentId.startsWith("pi_local_") ? "local" : "stripe"),
      balanceTransactionId: fee.balanceTransactionId,
      amountCents: input.amountCents,
      feeCents: fee.feeCents,
      currency: fee.currency,
    });
    return inserted ? "recorded" : "already_recorded";
  } catch (error) {
    console.error("payments: could not record the processing fee", { paymentIntentId, error });
    if (input.rethrow) throw error;
    return "not_yet";
  }
}

/**
 * At fulfilment of a paid session: its payment's fee, when the provider already has the balance transaction. One
 * created later arrives as `charge.updated` (recordChargeProcessingFee); fulfilment never waits for it.
 */
export async function recordSessionProcessingFee(env: Env, session: CheckoutSessionObject): Promise<FeeOutcome> {
  const paymentIntentId = paymentIntentOf(session);
  if (!paymentIntentId || session.payment_status !== "paid") return "not_yet";
  const db = getDb(env);
  if (await hasProcessingFee(db, paymentIntentId)) return "already_recorded";
  const row = await findCheckoutRow(db, session.id, session.metadata?.checkout_id ?? session.client_reference_id);
  return recordFeeOnce(env, {
    paymentIntentId,
    row,
    amountCents: session.amount_total ?? row?.amountCents ?? 0,
    currency: (session.currency ?? row?.currency ?? "USD").toUpperCase(),
  });
}

/**
 * `charge.updated` naming the charge's balance transaction: the fee of that payment, if it is ours (its payment
 * intent recorded at fulfilment, or our checkout named in the metadata the charge carries), recorded once whether
 * it comes before or after the session's events. A charge of a payment we do not know is left alone.
 */
export async function recordChargeProcessingFee(env: Env, charge: ChargeObject): Promise<FeeOutcome> {
  const paymentIntentId = idOf(charge.payment_intent);
  const balance = charge.balance_transaction ?? null;
  if (!paymentIntentId || !balance) return "not_yet";
  const db = getDb(env);
  const byIntent = await findCheckoutIdByPaymentIntent(db, paymentIntentId);
  const reference = charge.metadata?.checkout_id ?? null;
  const row = byIntent
    ? await getCheckoutSession(db, byIntent)
    : reference
      ? await findCheckoutByReference(db, reference)
      : undefined;
  if (!row) return "unknown_payment";
  // A checkout paid with another payment intent is not this charge's.
  if (row.paymentIntentId && row.paymentIntentId !== paymentIntentId) return "unknown_payment";
  return recordFeeOnce(env, {
    paymentIntentId,
    row,
    amountCents: charge.amount ?? row.amountCents,
    currency: (charge.currency ?? row.currency).toUpperCase(),
    rethrow: true,
    ...(typeof balance === "string"
      ? { balanceTransactionId: balance }
      : {
          known: { balanceTransactionId: balance.id, feeCents: balance.fee, currency: balance.currency.toUpperCase() },
        }),
  });
}
