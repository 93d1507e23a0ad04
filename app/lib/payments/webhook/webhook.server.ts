import {
  ChargeObjectSchema,
  CheckoutSessionObjectSchema,
  paymentIntentOf,
  type ChargeObject,
  type CheckoutSessionObject,
} from "../shared/events.server";
import {
  fulfilCheckoutSession,
  markAwaitingPayment,
  markDelayedPaymentFailed,
  markUnpaidSessionExpired,
  type FulfilOutcome,
} from "../fulfil/fulfil.server";
import { MONEY_BACK_HANDLERS } from "../refunds/refund-events.server";
import {
  applyHeldEvents,
  processEvent,
  receiveSignedEvent,
  type Handler,
  type Handlers,
  type WebhookResult,
} from "./event-pipeline.server";
import { recordChargeProcessingFee, recordSessionProcessingFee } from "./processing-fees.server";

// The webhook step: a verified provider event is recorded by id once and dispatched to its handler. Stripe's
// deliveries and the local provider's (signed the same way) come through handleStripeWebhook; the pipeline itself
// (verify, record, dispatch, hold) is event-pipeline.server.ts, run here with every handler.

/** Verifies a delivery's signature and applies its event. */
export function handleStripeWebhook(
  env: Env,
  body: string,
  signature: string | null | undefined,
): Promise<WebhookResult> {
  return receiveSignedEvent(env, body, signature, WEBHOOK_HANDLERS);
}

function sessionHandler(run: (env: Env, session: CheckoutSessionObject) => Promise<FulfilOutcome>): Handler {
  return {
    schema: CheckoutSessionObjectSchema,
    apply: async (env, session: CheckoutSessionObject) => {
      const result = await run(env, session);
      if (result.kind === "unknown_session")
        return { outcome: "ignored", note: `unknown checkout session ${session.id}` };
      return { outcome: "processed", duplicate: result.kind === "already_fulfilled" };
    },
  };
}

/**
 * `charge.updated`: what we read is the balance transaction Stripe adds to a charge after the fact, for the
 * payment's processing fee (recorded once, in whichever order this and the session's events come).
 */
const chargeUpdatedHandler: Handler = {
  schema: ChargeObjectSchema,
  apply: async (env, charge: ChargeObject) => {
    const outcome = await recordChargeProcessingFee(env, charge);
    if (outcome === "recorded") return { outcome: "processed" };
    if (outcome === "already_recorded") return { outcome: "processed", duplicate: true };
    if (outcome === "unknown_payment")
      return { outcome: "ignored", note: `charge ${charge.id} is not of a payment we know` };
    return { outcome: "ignored", note: `charge ${charge.id}: no processing fee to record yet` };
  },
};

/**
 * Fulfils a paid session, then records its payment's processing fee and applies the refund and dispute events of its
 * payment that arrived before it (held, decision 380).
 */
async function fulfilPaid(env: Env, session: CheckoutSessionObject): Promise<FulfilOutcome> {
  const outcome = await fulfilCheckoutSession(env, session);
  await recordSessionProcessingFee(env, session);
  const paymentIntentId = paymentIntentOf(session);
  if (outcome.kind !== "unknown_session" && paymentIntentId) await applyHeldPaymentEvents(env, paymentIntentId);
  return outcome;
}

/** Every event type the pipeline applies, with the object it carries. */
export const WEBHOOK_HANDLERS: Handlers = {
  "checkout.session.completed": sessionHandler((env, session) =>
    session.payment_status === "paid" || session.payment_status === "no_payment_required"
      ? fulfilPaid(env, session)
      : markAwaitingPayment(env, session),
  ),
  "checkout.session.async_payment_succeeded": sessionHandler(fulfilPaid),
  "checkout.session.async_payment_failed": sessionHandler(markDelayedPaymentFailed),
  "checkout.session.expired": sessionHandler(markUnpaidSessionExpired),
  "charge.updated": chargeUpdatedHandler,
  ...MONEY_BACK_HANDLERS,
};

/**
 * Applies the held events (of one payment intent, or with null every one: the cron's sweep, so a crash between a
 * payment's fulfilment and this step loses nothing), first received first; returns how many were applied.
 */
export function applyHeldPaymentEvents(env: Env, paymentIntentId: string | null): Promise<number> {
  return applyHeldEvents(env, paymentIntentId, WEBHOOK_HANDLERS);
}

/**
 * Applies one verified webhook event (recorded by id once, dispatched, its outcome recorded).
 * @public The webhook routes reach the pipeline through handleStripeWebhook; tests call this with a failing database to
 * check that a failed event answers 500 and is retried.
 */
export function processStripeEvent(env: Env, event: unknown): Promise<WebhookResult> {
  return processEvent(env, event, WEBHOOK_HANDLERS);
}
