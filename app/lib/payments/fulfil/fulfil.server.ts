import { getDb } from "~/db/client.server";
import {
  claimUndeliverableCheckout,
  findCheckoutRow,
  getCheckoutSession,
  markCheckoutAwaitingPayment,
  markUnpaidCheckoutExpired,
  UNDELIVERABLE_KEY,
} from "~/db/queries/checkout.server";
import { getOrderForCheckout, listCartCheckoutsMissingContribution } from "~/db/queries/orders.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { UNFULFILLABLE_REASONS } from "~/domain/payments";
import type { CheckoutSession } from "~/db/schema";
import { FulfilmentDataError, paymentIntentOf, type CheckoutSessionObject } from "../shared/events.server";
import { fulfilCart } from "./fulfil-cart.server";
import { fulfilHostDeposit } from "./fulfil-deposit.server";
import { fulfilGroupBuy } from "./fulfil-group-buy.server";
import { fulfilGuessEntry } from "./fulfil-guess.server";
import { fulfilProduct } from "./fulfil-product.server";
import { refundUnfulfillable } from "../refunds/refund-request.server";
import { tellOrderPlaced, tellPaymentFailed, tellPaymentPending } from "./order-notices.server";

// Applying a paid checkout exactly once, per purpose. Each purpose's first step is one atomic D1 batch whose gate
// is a conditional UPDATE (payment_status 'unpaid' -> 'paid') plus a unique key of what it creates, so racing or
// repeated deliveries create one thing; the steps after it (voucher, pool contribution) are idempotent and resumed
// by any later delivery. Fulfilment starts only from the webhook and the payment success page's confirmation.

export type FulfilOutcome =
  | {
      /** refunded: nothing could be delivered, the payment was refunded in full. */
      kind: "fulfilled" | "already_fulfilled" | "refunded";
      checkoutId: string;
      purpose: CheckoutSession["purpose"];
      orderId?: string;
      orderNumber?: string;
      poolId?: string | null;
      entryNumber?: number | null;
    }
  | { kind: "awaiting_payment" | "expired" | "unknown_session"; checkoutId?: string };

function findRow(env: Env, session: CheckoutSessionObject) {
  return findCheckoutRow(getDb(env), session.id, session.metadata?.checkout_id ?? session.client_reference_id);
}

/** Why the provider's amount or currency is not the checkout's (null: they match). */
function amountMismatch(row: CheckoutSession, session: CheckoutSessionObject): string | null {
  if (typeof session.amount_total === "number" && session.amount_total !== row.amountCents) {
    return `amount ${session.amount_total} of session ${session.id} does not match checkout ${row.id} (${row.amountCents})`;
  }
  if (session.currency && session.currency.toUpperCase() !== row.currency.toUpperCase()) {
    return `currency ${session.currency} of session ${session.id} is not ${row.currency}`;
  }
  return null;
}

function checkAmount(row: CheckoutSession, session: CheckoutSessionObject): void {
  const mismatch = amountMismatch(row, session);
  if (mismatch) throw new FulfilmentDataError(mismatch);
}

/**
 * Fulfils a paid checkout session (`checkout.session.completed` with payment_status 'paid', or
 * `checkout.session.async_payment_succeeded`). Safe to call any number of times, concurrently, from the webhook and
 * from the success page: the first call fulfils, later calls finish any step left undone and report
 * 'already_fulfilled'.
 */
export async function fulfilCheckoutSession(env: Env, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const db = getDb(env);
  const row = await findRow(env, session);
  if (!row) return { kind: "unknown_session" };
  // A payment that is not what the checkout asked for is never delivered: it is refunded in full, with the reason.
  const mismatch = amountMismatch(row, session);
  if (mismatch)
    return refundUndeliverable(
      env,
      row,
      session,
      new FulfilmentDataError(mismatch, UNFULFILLABLE_REASONS.amountMismatch),
    );
  // Refunded in full as undeliverable by an earlier delivery: it stays refunded, never fulfilled afterwards.
  const undeliverable = row.metadata[UNDELIVERABLE_KEY];
  if (undeliverable)
    return refundUndeliverable(
      env,
      row,
      session,
      new FulfilmentDataError(`checkout ${row.id} was refunded as undeliverable`, undeliverable),
    );
  let outcome: FulfilOutcome;
  try {
    outcome = await fulfilByPurpose(env, db, row, session);
  } catch (error) {
    if (!(error instanceof FulfilmentDataError)) throw error;
    return refundUndeliverable(env, row, session, error);
  }
  // The buyer's confirmation and the hosts' "New order", from here for every purchase mode: keyed by the checkout,
  // so every delivery (the webhook, the payment page, the cron) may tell and each person hears once.
  if (
    (outcome.kind === "fulfilled" || outcome.kind === "already_fulfilled") &&
    (row.purpose === "product" || row.purpose === "cart" || row.purpose === "group_buy")
  ) {
    try {
      await tellOrderPlaced(env, db, row, session.id, {
        fulfilledNow: outcome.kind === "fulfilled",
        // A bank transfer's checkout completed unpaid before: its confirmation says the transfer arrived.
        transferArrived: row.status === "complete" && row.paymentStatus === "unpaid",
      });
    } catch (error) {
      console.error("fulfilment: order notices failed", { checkout: row.id, error });
    }
  }
  return outcome;
}

function fulfilByPurpose(
  env: Env,
  db: ReturnType<typeof getDb>,
  row: CheckoutSession,
  session: CheckoutSessionObject,
): Promise<FulfilOutcome> {
  switch (row.purpose) {
    case "product":
      return fulfilProduct(env, db, row, session);
    case "host_deposit":
      return fulfilHostDeposit(env, db, row, session);
    case "guess_entry":
      return fulfilGuessEntry(env, db, row, session);
    case "group_buy":
      return fulfilGroupBuy(env, db, row, session);
    case "cart":
      return fulfilCart(env, db, row, session);
    default:
      throw new FulfilmentDataError(
        `checkout ${row.id} has purpose ${row.purpose}, which this handler does not fulfil`,
      );
  }
}

/**
 * A paid checkout that cannot be delivered at all (what it was for is gone: a product deleted, a group buy deleted):
 * claimed once and refunded in full with the reason the buyer reads, never acknowledged and dropped (decision 370).
 * Only when none of it was created; a checkout whose orders exist refunds those one by one, and the error stands.
 */
async function refundUndeliverable(
  env: Env,
  row: CheckoutSession,
  session: CheckoutSessionObject,
  error: FulfilmentDataError,
): Promise<FulfilOutcome> {
  const db = getDb(env);
  if (await getOrderForCheckout(db, [session.id, row.id])) throw error;
  console.warn("fulfilment: paid checkout cannot be delivered; refunding it in full", {
    checkout: row.id,
    error: error.message,
  });
  const reason = error.reason ?? UNFULFILLABLE_REASONS.gone;
  const claim = {
    paymentIntentId: paymentIntentOf(session),
    now: new Date(),
    rates: row.rates ?? (await getRevenueRules(db)),
  };
  await claimUndeliverableCheckout(db, row.id, claim, reason);
  // Claimed as undeliverable by this call or an earlier one; claimed by a fulfilment that created nothing, the
  // same. The refund is keyed by the checkout, so a repeat sends nothing new.
  // What the provider captured, when it says (a payment short of the price is refunded as captured), less what a
  // delivery before this one has refunded already.
  const captured =
    typeof session.amount_total === "number" ? Math.min(session.amount_total, row.amountCents) : row.amountCents;
  const left = captured - row.refundedCents;
  if (left > 0) await refundUnfulfillable(env, row.id, null, left, reason);
  return { kind: "refunded", checkoutId: row.id, purpose: row.purpose, poolId: null, entryNumber: null };
}

/** `checkout.session.completed` with payment still to come (bank transfer): the session is complete, unpaid. */
export async function markAwaitingPayment(env: Env, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const row = await findRow(env, session);
  if (!row) return { kind: "unknown_session" };
  checkAmount(row, session);
  await markCheckoutAwaitingPayment(getDb(env), row.id, paymentIntentOf(session));
  if (row.paymentStatus === "unpaid" && row.purpose !== "host_deposit") {
    try {
      await tellPaymentPending(env, row);
    } catch (error) {
      console.error("fulfilment: payment pending notice failed", { checkout: row.id, error });
    }
  }
  return { kind: "awaiting_payment", checkoutId: row.id };
}

/** `async_payment_failed`: the delayed payment (a bank transfer) failed; the buyer is told, once. */
export async function markDelayedPaymentFailed(env: Env, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const outcome = await markUnpaidSessionExpired(env, session);
  const row = outcome.kind === "expired" ? await findRow(env, session) : null;
  if (row && row.paymentStatus === "unpaid") {
    try {
      await tellPaymentFailed(env, row);
    } catch (error) {
      console.error("fulfilment: payment failed notice failed", { checkout: row.id, error });
    }
  }
  return outcome;
}

/** `checkout.session.expired` or `async_payment_failed`: an unpaid session will never be paid. */
export async function markUnpaidSessionExpired(env: Env, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const row = await findRow(env, session);
  if (!row) return { kind: "unknown_session" };
  await markUnpaidCheckoutExpired(getDb(env), row.id);
  return { kind: "expired", checkoutId: row.id };
}

/** How long a paid checkout's fulfilment may be under way before the cron resumes it. */
export const RESUME_AFTER_MS = 60_000;

/** The checkout session object of a paid checkout as we recorded it (what resuming its fulfilment needs). */
export function recordedSessionObject(row: CheckoutSession): CheckoutSessionObject {
  return {
    id: row.id,
    object: "checkout.session",
    amount_total: row.amountCents,
    currency: row.currency.toLowerCase(),
    payment_status: "paid",
    status: "complete",
    client_reference_id: row.metadata.checkout_id ?? null,
    metadata: row.metadata,
    payment_intent: row.paymentIntentId,
    customer_email: row.customerEmail,
  };
}

/**
 * The cron's recovery step for payments whose pool contribution is not reserved in their own D1 batch (a cart's
 * per-host contributions): a paid cart with an order still lacking its pool after a minute had its fulfilment cut
 * off, so it is resumed from what we recorded (every step after the batch is idempotent). Guess fees, buy-now,
 * group-buy and deposit payments reserve theirs in the batch and are re-applied by `reapplyReservations`.
 */
export async function resumeUnfinishedFulfilments(
  env: Env,
  now: Date,
  limit = 25,
): Promise<{ resumed: string[]; errors: string[] }> {
  const db = getDb(env);
  const summary = { resumed: [] as string[], errors: [] as string[] };
  for (const { id } of await listCartCheckoutsMissingContribution(
    db,
    new Date(now.getTime() - RESUME_AFTER_MS),
    limit,
  )) {
    try {
      const row = await getCheckoutSession(db, id);
      if (!row || row.paymentStatus !== "paid") continue;
      await fulfilCheckoutSession(env, recordedSessionObject(row));
      summary.resumed.push(id);
    } catch (error) {
      console.error("cron: resuming the fulfilment of checkout failed", { id, error });
      summary.errors.push(id);
    }
  }
  return summary;
}
