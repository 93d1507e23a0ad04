import {
  ChargeObjectSchema,
  DisputeObjectSchema,
  RefundObjectSchema,
  type ChargeObject,
  type DisputeObject,
  type RefundObject,
} from "../shared/events.server";
import type { ProviderEvent } from "../providers/types";
import { deliverEvent, type Handled, type Handler, type Handlers } from "../webhook/event-pipeline.server";
import { applyDispute, applyRefund, type ApplyOutcome, type DisputeEventKind } from "./refunds.server";

// The money-back events (refund.*, charge.refunded, charge.dispute.*) and how the webhook pipeline applies them.
// webhook.server.ts applies them with the rest of its handlers; applyProviderEvents runs the events a provider
// hands back from a refund (the local provider's) through the same pipeline, for the code that asked for it.

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
    holdable: true,
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
  holdable: true,
};

function disputeHandler(kind: DisputeEventKind): Handler {
  return {
    schema: DisputeObjectSchema,
    apply: async (env, dispute: DisputeObject) => handled(await applyDispute(env, dispute, kind)),
    holdable: true,
  };
}

/** The events of money flowing back; each may be held until its payment is known (decision 380). */
export const MONEY_BACK_HANDLERS: Handlers = {
  "refund.created": refundHandler(),
  "refund.updated": refundHandler(),
  "refund.failed": refundHandler("failed"),
  "charge.refunded": chargeRefundedHandler,
  "charge.dispute.created": disputeHandler("created"),
  "charge.dispute.updated": disputeHandler("updated"),
  "charge.dispute.funds_withdrawn": disputeHandler("funds_withdrawn"),
  "charge.dispute.funds_reinstated": disputeHandler("funds_reinstated"),
  "charge.dispute.closed": disputeHandler("closed"),
};

/**
 * Applies, in order, the events a provider handed back from a refund (the local provider's refund.created and
 * refund.updated), signed and received like a Stripe delivery; throws when the pipeline does not accept one.
 */
export async function applyProviderEvents(env: Env, events: readonly ProviderEvent[]): Promise<void> {
  for (const event of events) {
    const response = await deliverEvent(env, event, MONEY_BACK_HANDLERS);
    if (response.status !== 200) throw new Error(`event ${event.id}: the webhook answered ${response.status}`);
  }
}
