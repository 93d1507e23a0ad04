import Stripe from "stripe";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { recordPaymentEvent, setPaymentEventOutcome } from "~/db/queries/checkout.server";
import { holdPaymentEvent, listWaitingPaymentEvents, markPaymentEventApplied } from "~/db/queries/refunds.server";
import { signPayload } from "../providers/local.server";
import { webhookSecret } from "../providers/provider.server";
import { EventEnvelopeSchema, FulfilmentDataError } from "../shared/events.server";

// The webhook pipeline, whatever the events it is given handlers for: a signed delivery is verified, its event
// recorded by id once, dispatched to its handler, held when its payment is not known yet (decision 380), and its
// outcome recorded. webhook.server.ts runs it with every handler (Stripe's deliveries, the local checkout page);
// refunds/refund-events.server.ts with the money-back handlers, for the events a provider hands back to the code
// that asked it for a refund. It imports no handler, so a handler's code may run events through it without a cycle.

/** A signature older than this (seconds) is refused, so a captured delivery cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Stripe's events are a few kilobytes; anything far larger is not one. */
export const MAX_WEBHOOK_BODY_BYTES = 512 * 1024;

const cryptoProvider = Stripe.createSubtleCryptoProvider();

export type WebhookResult = {
  status: 200 | 400 | 413 | 500;
  body: { received: true; duplicate?: true; ignored?: string; failed?: true; held?: true } | { error: string };
};

/** `held`: a refund or dispute event of a payment not known yet, kept until it is (decision 380). */
export type Handled = { outcome: "processed" | "ignored" | "held"; duplicate?: boolean; note?: string };

/** How one event type is applied; `holdable` for the types that may wait for their payment (money flowing back). */
export type Handler = { schema: z.ZodType; apply: (env: Env, object: never) => Promise<Handled>; holdable?: true };

/** The handlers a run of the pipeline applies events with, by event type. */
export type Handlers = Record<string, Handler>;

/** Verifies a delivery's signature and applies its event with `handlers`. */
export async function receiveSignedEvent(
  env: Env,
  body: string,
  signature: string | null | undefined,
  handlers: Handlers,
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
  return processEvent(env, event, handlers);
}

/**
 * An event made on this machine (the local provider's), signed exactly as Stripe signs its deliveries and received
 * like one: signature verified, recorded by id, applied once.
 */
export async function deliverEvent(
  env: Env,
  event: { id: string; type: string },
  handlers: Handlers,
): Promise<WebhookResult> {
  const secret = webhookSecret(env);
  if (!secret) return { status: 500, body: { error: "Webhook secret not configured" } };
  const payload = JSON.stringify(event, null, 2);
  return receiveSignedEvent(env, payload, await signPayload(payload, secret), handlers);
}

/** Whether a retry of the same event could succeed (D1 or a Durable Object briefly unavailable), not bad data. */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof FulfilmentDataError || error instanceof z.ZodError || error instanceof SyntaxError) return false;
  const message = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
  return !/constraint failed|SQLITE_CONSTRAINT|FOREIGN KEY|NOT NULL constraint|CHECK constraint/i.test(message);
}

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
export async function applyHeldEvents(env: Env, paymentIntentId: string | null, handlers: Handlers): Promise<number> {
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
      result = await dispatch(env, held.type, object, handlers);
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

async function dispatch(env: Env, type: string, object: unknown, handlers: Handlers): Promise<Handled> {
  const handler = handlers[type];
  if (!handler) return { outcome: "ignored", note: `unhandled event type ${type}` };
  const parsed = handler.schema.safeParse(object);
  if (!parsed.success) return { outcome: "ignored", note: `malformed ${type} object` };
  return handler.apply(env, parsed.data as never);
}

/**
 * Applies one verified event: records its id once, dispatches it, and records the outcome. Repeats of a processed
 * event are acknowledged as duplicates; an event being (or having failed to be) processed is applied again, which
 * every handler makes harmless. 500 only when a retry could help.
 */
export async function processEvent(env: Env, event: unknown, handlers: Handlers): Promise<WebhookResult> {
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
    const handled = await dispatch(env, type, data.object, handlers);
    if (handled.outcome === "ignored") console.info("webhook: ignored event", { id, type, note: handled.note });
    if (handled.outcome === "held") {
      // Kept by its id until its payment is known: applied at the end of that payment's fulfilment, or by the cron.
      if (!handlers[type]?.holdable) throw new Error(`webhook: ${type} cannot be held`);
      await holdPaymentEvent(db, {
        eventId: id,
        type,
        ...heldEventIds(type, data.object),
        object: JSON.stringify(data.object),
      });
      // The payment may have become known meanwhile (its fulfilment ran while this was being held): apply it now.
      const intent = heldEventIds(type, data.object).paymentIntentId;
      if (intent) await applyHeldEvents(env, intent, handlers);
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
