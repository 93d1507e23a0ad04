// Returns and the refunds a buyer sees: who may ask for a return, what a host's refund may be, and the words shown
// for each refund. Pure: no I/O.

import { formatCents, parseMoneyToCents } from "./money";
import {
  REFUND_MESSAGES,
  refundableCents,
  refundState,
  RETURN_WINDOW_DAYS,
  returnWindowOpen,
  type RefundOrigin,
  type RefundState,
  type ReturnRequestStatus,
} from "./payments";
import { effectiveDeliveredAt } from "./shipping";

/** The longest reason a buyer or host may give. */
export const RETURN_REASON_MAX_LENGTH = 500;

export const RETURN_MESSAGES = {
  reasonRequired: "Please tell the host why you want to return this order",
  reasonTooLong: `Please keep the reason under ${RETURN_REASON_MAX_LENGTH} characters`,
  notDelivered: "You can ask for a return once the order has been delivered",
  windowClosed: `Returns can be asked for within ${RETURN_WINDOW_DAYS} days of delivery (7-day return policy)`,
  alreadyOpen: "You have already asked to return this order. The host will answer soon.",
  fullyRefunded: "This order has already been refunded in full",
  notReturnable: "This order cannot be returned",
  voucherUsed: "This voucher has been used, so it cannot be returned",
  requested: "Return requested. The host will answer soon.",
  declineReasonRequired: "Please tell the buyer why the return is declined",
  alreadyAnswered: "This return request has already been answered",
  requestNotFound: "Return request not found",
} as const;

/** Order statuses that can never be returned (nothing was delivered, or it is already undone). */
const NOT_RETURNABLE_STATUSES = new Set(["pending", "cancelled", "refunded"]);

export type ReturnEligibility = { ok: true } | { ok: false; message: string };

/** Whether the buyer may ask for a return of an order now. */
export function returnEligibility(
  order: {
    status: string;
    deliveredAt: Date | null;
    /** When it was first shipped: a physical order never marked delivered counts as delivered 30 days later. */
    shippedAt?: Date | null;
    amountCents: number;
    refundedCents: number;
    hasOpenRequest: boolean;
    /** A voucher already used at the host's scanner (truthy), which cannot be given back. */
    voucherRedeemed?: number | boolean | null;
  },
  now: Date = new Date(),
): ReturnEligibility {
  if (order.hasOpenRequest) return { ok: false, message: RETURN_MESSAGES.alreadyOpen };
  if (refundableCents(order.amountCents, order.refundedCents) === 0)
    return { ok: false, message: RETURN_MESSAGES.fullyRefunded };
  if (NOT_RETURNABLE_STATUSES.has(order.status)) return { ok: false, message: RETURN_MESSAGES.notReturnable };
  if (order.voucherRedeemed) return { ok: false, message: RETURN_MESSAGES.voucherUsed };
  const delivered = effectiveDeliveredAt({ deliveredAt: order.deliveredAt, shippedAt: order.shippedAt ?? null });
  if (!delivered || delivered.getTime() > now.getTime()) return { ok: false, message: RETURN_MESSAGES.notDelivered };
  if (!returnWindowOpen(delivered, now)) return { ok: false, message: RETURN_MESSAGES.windowClosed };
  return { ok: true };
}

export type RefundAmountCheck = { ok: true; amountCents: number } | { ok: false; message: string };

/**
 * A host's refund amount (typed in currency units, "12.50"): more than 0 and at most what is left to refund, with
 * the messages of the refund API (requestRefund checks the same again).
 */
export function checkRefundAmount(
  input: unknown,
  order: { amountCents: number; refundedCents: number; currency: string },
): RefundAmountCheck {
  const left = refundableCents(order.amountCents, order.refundedCents);
  if (left === 0) return { ok: false, message: REFUND_MESSAGES.nothingLeft };
  const cents = typeof input === "string" ? parseMoneyToCents(input) : null;
  if (cents === null || cents <= 0) return { ok: false, message: REFUND_MESSAGES.notPositive };
  if (cents > left) return { ok: false, message: REFUND_MESSAGES.tooMuch(formatCents(left, order.currency)) };
  return { ok: true, amountCents: cents };
}

/** What a buyer reads for a refund by where it came from (when the refund carries no reason of its own). */
export const REFUND_ORIGIN_LABELS: Readonly<Record<RefundOrigin, string>> = {
  host: "Refunded by the host",
  return: "Return approved",
  dispute: "Card dispute",
  unfulfillable: "The order could not be delivered",
  provider: "Refunded",
  group_buy: "Group buy refund",
};

/** The badge text of an order's refund state, or null when nothing was refunded. */
export function refundStateText(state: RefundState): string | null {
  if (state === "full") return "Refunded";
  if (state === "partial") return "Partially refunded";
  return null;
}

/** An order's refund state from its amount and refunded total (the stored state may lag a group-buy refund). */
export function orderRefundState(order: { amountCents: number; refundedCents: number }): RefundState {
  return refundState(order.amountCents, order.refundedCents);
}

/** What the host and the buyer read for a "not received" report (a return request of that kind). */
export const NOT_RECEIVED_TEXT = "Reported not received";

export const RETURN_STATUS_TEXT: Readonly<Record<ReturnRequestStatus, string>> = {
  requested: "Return requested",
  approved: "Return approved",
  declined: "Return declined",
};
