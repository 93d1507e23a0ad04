import Stripe from "stripe";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { recordPaymentEvent, setPaymentEventOutcome } from "~/db/queries/checkout.server";
import { holdPaymentEvent, listWaitingPaymentEvents, markPaymentEventApplied } from "~/db/queries/refunds.server";
import {
  ChargeObjectSchema,
  CheckoutSessionObjectSchema,
  DisputeObjectSchema,
  EventEnvelopeSchema,
  FulfilmentDataError,
  paymentIntentOf,
  RefundObjectSchema,
  type ChargeObject,
  type CheckoutSessionObject,
  type DisputeObject,
  type RefundObject,
} from "../shared/events.server";
import {
  fulfilCheckoutSession,
  markAwaitingPayment,
  markUnpaidSessionExpired,
  type FulfilOutcome,
} from "../fulfil/fulfil.server";
import { recordChargeProcessingFee, recordSessionProcessingFee } from "./processing-fees.server";
import { webhookSecret } from "../providers/provider.server";
import { applyDispute, applyRefund, type ApplyOutcome, type DisputeEventKind } from "../refunds/refunds.server";

// The webhook step: a verified provider event is recorded by id once and dispatched to its handler. Stripe's
// deliveries and the local provider's (signed the same way) come through handleStripeWebhook.

/** A signature older than this (seconds) is refused, so a captured delivery cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Stripe's events are a few kilobytes; anything far larger is not one. */
export const MAX_WEBHOOK_BODY_BYTES = 512 * 1024;

const cryptoProvider = Stripe.createSubtleCryptoProvider();

export type WebhookResult = {
  status: 200 | 400 | 413 | 500;
  body: { received: true; duplicate?: true; ignored?: string; failed?: true; held?: true } | { error: string };
};

/** Verifies a delivery's signature and applies its event. */
export async function handleStripeWebhook(
  env: Env,
  body: string,
  signature: string | null | undefined,
): Promise<WebhookResult> {
  const secret = webhookSecret(env);
  if (!secret) {
    console.error("webhook: STRIPE_WEBHOOK_SECRET is not set; refusing events until it is");
    return { status: 500, body: { error: "Webhook secret not configured" } };
  }
  if (!signature) return { status: 400, body: { error: "Missing Stripe-Signature header" } };
  if (body.length > MAX_WEBHOOK_BODY_BYTES) return { status: 413, body: { error: "Payload too large" } };
  let event: unknown;
  try {
    event = await Stripe.webhooks.constructEventAsync(
      body,
      signature,
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
      cryptoProvider,
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      return { status: 400, body: { error: "Invalid signature" } };
    // The signature was verified before parsing, so this is a signed body that is not an event: acknowledge it.
    console.warn("webhook: signed payload is not a JSON event", { error: String(error) });
    return { status: 200, body: { received: true, ignored: "malformed payload" } };
  }
  return processStripeEvent(env, event);
}

/** Whether a retry of the same event could succeed (D1 or a Durable Object briefly unavailable), not bad data. */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof FulfilmentDataError || error instanceof z.ZodError || error instanceof SyntaxError) return false;
  const message = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
  return !/constraint failed|SQLITE_CONSTRAINT|FOREIGN KEY|NOT NULL constraint|CHECK constraint/i.test(message);
}

/** `held`: a refund or dispute event of a payment not known yet, kept until it is (decision 380). */
export type Handled = { outcome: "processed" | "ignored" | "held"; duplicate?: boolean; note?: string };

type Handler = { schema: z.ZodType; apply: (env: Env, object: never) => Promise<Handled> };

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

function handled(result: ApplyOutcome): Handled {
  if (result.kind === "unknown_payment") return { outcome: "held", note: result.note };
  return result.kind === "ignored" ? { outcome: "ignored", note: result.note } : { outcome: "processed" };
}

/** A refund event: the refund's status as the object reports it (`refund.failed`: failed, whatever it says). */
function refundHandler(forced?: "failed"): Handler {
  return {
    schema: RefundObjectSchema,
    apply: async (env, refund: RefundObject) =>
      handled(await applyRefund(env, forced ? { ...refund, status: forced } : refund)),
  };
}

/**
 * `charge.refunded` repeats what the refund events say; the refunds it lists (when expanded) are applied like
 * theirs, which changes nothing for a refund already applied.
 */
const chargeRefundedHandler: Handler = {
  schema: ChargeObjectSchema,
  apply: async (env, charge: ChargeObject) => {
    const listed = (charge.refunds?.data ?? []).flatMap((item) => {
      const parsed = RefundObjectSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    if (listed.length === 0)
      return { outcome: "ignored", note: `charge ${charge.id}: its refunds come as refund events` };
    const results = [];
    for (const refund of listed) {
      results.push(
        await applyRefund(env, { ...refund, payment_intent: refund.payment_intent ?? charge.payment_intent }),
      );
    }
    // One refund of a payment not known yet holds the whole event (applying it again later changes nothing for the
    // refunds applied now).
    const waiting = results.find((r) => r.kind === "unknown_payment");
    if (waiting) return handled(waiting);
    return results.some((r) => r.kind === "applied") ? { outcome: "processed" } : handled(results[0]!);
  },
};

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

function disputeHandler(kind: DisputeEventKind): Handler {
  return {
    schema: DisputeObjectSchema,
    apply: async (env, dispute: DisputeObject) => handled(await applyDispute(env, dispute, kind)),
  };
}

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
const HANDLERS: Record<string, Handler> = {
  "checkout.session.completed": sessionHandler((env, session) =>
    session.payment_status === "paid" || session.payment_status === "no_payment_required"
      ? fulfilPaid(env, session)
      : markAwaitingPayment(env, session),
  ),
  "checkout.session.async_payment_succeeded": sessionHandler(fulfilPaid),
  "checkout.session.async_payment_failed": sessionHandler(markUnpaidSessionExpired),
  "checkout.session.expired": sessionHandler(markUnpaidSessionExpired),
  "refund.created": refundHandler(),
  "refund.updated": refundHandler(),
  "refund.failed": refundHandler("failed"),
  "charge.refunded": chargeRefundedHandler,
  "charge.updated": chargeUpdatedHandler,
  "charge.dispute.created": disputeHandler("created"),
  "charge.dispute.updated": disputeHandler("updated"),
  "charge.dispute.funds_withdrawn": disputeHandler("funds_withdrawn"),
  "charge.dispute.funds_reinstated": disputeHandler("funds_reinstated"),
  "charge.dispute.closed": disputeHandler("closed"),
};

/** The event types held when their payment is not known yet: refunds and disputes (money flowing back). */
const HELD_EVENT_TYPES = new Set([
  "refund.created",
  "refund.updated",
  "refund.failed",
  "charge.refunded",
  ...Object.keys(HANDLERS).filter((t) => t.startsWith("charge.dispute.")),
]);

/** The payment intent and charge a held event's object names (for a charge, the charge itself). */
function heldEventIds(type: string, object: unknown): { paymentIntentId: string | null; chargeId: string | null } {
  const value = (object ?? {}) as { id?: unknown; payment_intent?: unknown; charge?: unknown };
  const id = (v: unknown) =>
    typeof v === "string"
      ? v
      : v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string"
        ? (v as { id: string }).id
        : null;
  return {
    paymentIntentId: id(value.payment_intent),
    chargeId: type === "charge.refunded" ? id(value.id) : id(value.charge),
  };
}

/**
 * Applies the held events (of one payment intent, or with null every one: the cron's sweep, so a crash between a
 * payment's fulfilment and this step loses nothing), first received first. An event is marked applied once its
 * payment is known and it was applied; every apply is idempotent (refunds and disputes by id, statuses forward
 * only), so an event applied by two callers at once still counts once. Returns how many were applied.
 */
export async function applyHeldPaymentEvents(env: Env, paymentIntentId: string | null): Promise<number> {
  const db = getDb(env);
  let applied = 0;
  for (const held of await listWaitingPaymentEvents(db, paymentIntentId)) {
    let object: unknown;
    try {
      object = JSON.parse(held.object);
    } catch {
      object = null;
    }
    let result: Handled;
    try {
      result = await dispatch(env, held.type, object);
    } catch (error) {
      // Left waiting: the next call (a later event of the payment, the cron) applies it again.
      console.error("webhook: applying a held event failed", { id: held.eventId, error });
      continue;
    }
    if (result.outcome === "held") continue;
    if (await markPaymentEventApplied(db, held.eventId)) applied++;
    if (result.outcome === "ignored")
      console.info("webhook: a held event was ignored", { id: held.eventId, note: result.note });
  }
  return applied;
}

async function dispatch(env: Env, type: string, object: unknown): Promise<Handled> {
  const handler = HANDLERS[type];
  if (!handler) return { outcome: "ignored", note: `unhandled event type ${type}` };
  const parsed = handler.schema.safeParse(object);
  if (!parsed.success) return { outcome: "ignored", note: `malformed ${type} object` };
  return handler.apply(env, parsed.data as never);
}

/**
 * Applies one verified webhook event: records its id once, dispatches it, and records the outcome. Repeats of a
 * processed event are acknowledged as duplicates; an event being (or having failed to be) processed is applied
 * again, which every handler makes harmless. 500 only when a retry could help.
 */
export async function processStripeEvent(env: Env, event: unknown): Promise<WebhookResult> {
  const envelope = EventEnvelopeSchema.safeParse(event);
  if (!envelope.success) {
    console.warn("webhook: acknowledged an event without id, type or data");
    return { status: 200, body: { received: true, ignored: "malformed event" } };
  }
  const { id, type, data } = envelope.data;
  const db = getDb(env);
  try {
    const recorded = await recordPaymentEvent(db, id, type);
    if (recorded === "processed" || recorded === "ignored")
      return { status: 200, body: { received: true, duplicate: true } };
  } catch (error) {
    console.error("webhook: could not record event", { id, type, error });
    return { status: 500, body: { error: "Temporarily unable to record the event" } };
  }

  try {
    const handled = await dispatch(env, type, data.object);
    if (handled.outcome === "ignored") console.info("webhook: ignored event", { id, type, note: handled.note });
    if (handled.outcome === "held") {
      // Kept by its id until its payment is known: applied at the end of that payment's fulfilment, or by the cron.
      if (!HELD_EVENT_TYPES.has(type)) throw new Error(`webhook: ${type} cannot be held`);
      await holdPaymentEvent(db, {
        eventId: id,
        type,
        ...heldEventIds(type, data.object),
        object: JSON.stringify(data.object),
      });
      // The payment may have become known meanwhile (its fulfilment ran while this was being held): apply it now.
      const intent = heldEventIds(type, data.object).paymentIntentId;
      if (intent) await applyHeldPaymentEvents(env, intent);
    }
    await setPaymentEventOutcome(db, id, {
      status: handled.outcome === "held" ? "processed" : handled.outcome,
      error: handled.note ?? null,
      processed: true,
    });
    return {
      status: 200,
      body: {
        received: true,
        ...(handled.duplicate ? { duplicate: true as const } : {}),
        ...(handled.outcome === "ignored" ? { ignored: handled.note ?? "ignored" } : {}),
        ...(handled.outcome === "held" ? { held: true as const } : {}),
      },
    };
  } catch (error) {
    const retry = isRetryableError(error);
    const message = error instanceof Error ? error.message : String(error);
    console.error("webhook: event failed", { id, type, retry, error });
    try {
      await setPaymentEventOutcome(db, id, { status: "failed", error: message.slice(0, 1000), processed: false });
    } catch (recordError) {
      console.error("webhook: could not record the failure", { id, recordError });
    }
    return retry
      ? { status: 500, body: { error: "Temporary failure; please retry" } }
      : { status: 200, body: { received: true, failed: true } };
  }
}
