// Host refunds and returns: the host refunds an order in full or in part from /orders; a buyer asks within the 7-day return policy, the host approves (a refund through the payments pipeline,
// one idempotency key per request) or declines with a reason, and the buyer is mailed either way.
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { getHostOrder, getOrderById } from "~/db/queries/orders.server";
import {
  createReturnRequest,
  decideReturnRequest,
  getReturnRequestWithOrder,
  listOrderReturnRequests,
} from "~/db/queries/returns.server";
import { formatCents } from "~/domain/money";
import { REFUND_MESSAGES, refundableCents } from "~/domain/payments";
import { checkRefundAmount, RETURN_MESSAGES, RETURN_REASON_MAX_LENGTH, returnEligibility } from "~/domain/returns";
import type { SessionUser } from "~/lib/auth.server";
import { siteOrigin } from "~/lib/config.server";
import { sendMail } from "~/lib/mail.server";
import { notify } from "~/lib/notify.server";
import { requestRefund } from "~/lib/payments/refunds/refund-request.server";

export type ReturnOutcome =
  { ok: true; message: string } | { ok: false; status: 400 | 403 | 404 | 409 | 502; message: string };

const reason = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(RETURN_REASON_MAX_LENGTH, `Please keep the reason under ${RETURN_REASON_MAX_LENGTH} characters`);

export const ReturnRequestSchema = z.object({ reason: reason(RETURN_MESSAGES.reasonRequired) });
export const DeclineReturnSchema = z.object({
  returnId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, RETURN_MESSAGES.requestNotFound),
  declineReason: reason(RETURN_MESSAGES.declineReasonRequired),
});
export const ApproveReturnSchema = z.object({
  returnId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, RETURN_MESSAGES.requestNotFound),
});

/** A page load's refund nonce expired or was tampered with. */
export const REFUND_FORM_EXPIRED = "This form has expired. Please reload the page and try again.";

export const HostRefundSchema = z.object({
  orderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Order not found"),
  /** Currency units as typed ("12.50"); checked against the order by checkRefundAmount. */
  amount: z.string({ error: REFUND_MESSAGES.notPositive }).max(20, REFUND_MESSAGES.notPositive),
  reason: z.string().trim().max(RETURN_REASON_MAX_LENGTH, RETURN_MESSAGES.reasonTooLong).optional().default(""),
  /** One per page load: a double submit of the same form carries the same key, so it refunds once. */
  refundKey: z.string({ error: REFUND_FORM_EXPIRED }).regex(/^[A-Za-z0-9-]{16,64}$/, REFUND_FORM_EXPIRED),
});
export type HostRefundInput = z.output<typeof HostRefundSchema>;

/** The idempotency key of a host's refund from /orders (the refund contract's convention). */
export function hostRefundKey(orderId: string, nonce: string): string {
  return `host:${orderId}:${nonce}`;
}

/** The idempotency key of an approved return: one refund per request. */
export function returnRefundKey(returnId: string): string {
  return `return:${returnId}`;
}

/**
 * The host refunds one of their orders, in full or in part. Another host's order is answered as missing; the amount
 * must be above 0 and at most what is left (nothing changes otherwise). The buyer is mailed by the refund path.
 */
export async function hostRefund(env: Env, hostId: string, input: HostRefundInput): Promise<ReturnOutcome> {
  const db = getDb(env);
  const order = await getHostOrder(db, hostId, input.orderId);
  if (!order) return { ok: false, status: 404, message: "Order not found" };
  if (order.status === "pending" || !order.checkoutSessionId)
    return { ok: false, status: 409, message: REFUND_MESSAGES.notPaid };
  const amount = checkRefundAmount(input.amount, order);
  if (!amount.ok) return { ok: false, status: 400, message: amount.message };
  const result = await requestRefund(env, {
    checkoutSessionId: order.checkoutSessionId,
    orderId: order.id,
    amountCents: amount.amountCents,
    origin: "host",
    reason: input.reason === "" ? null : input.reason,
    idempotencyKey: hostRefundKey(order.id, input.refundKey),
  });
  if (!result.ok)
    return {
      ok: false,
      status: result.message === REFUND_MESSAGES.providerFailed ? 502 : 409,
      message: result.message,
    };
  // The buyer's mail goes from the refund path (requestRefund -> applyRefund), once per refund.
  const refunded = formatCents(amount.amountCents, order.currency);
  return {
    ok: true,
    message:
      result.status === "succeeded"
        ? `Refunded ${refunded} on order ${order.orderNumber}`
        : `Refund of ${refunded} on order ${order.orderNumber} is on its way`,
  };
}

/**
 * Whether the signed-in account is the buyer of an order: the order is the account's by id (placed by it, or a guest
 * order it claimed through a mailed link). An e-mail string never makes anyone a buyer: addresses change hands.
 */
export function isOrderBuyer(order: { userId: string | null }, user: Pick<SessionUser, "id">): boolean {
  return order.userId !== null && order.userId === user.id;
}

/** The buyer asks to return an order. One open request per order; only within the return window. */
export async function requestReturn(
  env: Env,
  user: SessionUser,
  orderId: string,
  reasonText: string,
  now = new Date(),
): Promise<ReturnOutcome> {
  const db = getDb(env);
  const order = await getOrderById(db, orderId);
  if (!order || !isOrderBuyer(order, user)) return { ok: false, status: 404, message: "Order not found" };
  const requests = await listOrderReturnRequests(db, order.id, 5);
  const eligible = returnEligibility({ ...order, hasOpenRequest: requests.some((r) => r.status === "requested") }, now);
  if (!eligible.ok) return { ok: false, status: 409, message: eligible.message };
  const created = await createReturnRequest(db, {
    orderId: order.id,
    userId: user.id,
    hostId: order.hostId,
    reason: reasonText,
  });
  if (!created) return { ok: false, status: 409, message: RETURN_MESSAGES.alreadyOpen };
  if (order.hostId) {
    await notify(env, order.hostId, "return_requested", {
      key: `return-requested:${created.id}`,
      subject: `Return requested for order ${order.orderNumber}`,
      text:
        `${order.customerName ?? "The buyer"} asked to return ${order.productName} (order ${order.orderNumber}).\n\n` +
        `Reason: ${reasonText}\n\nAccept or decline it in Customer Orders: ${siteOrigin(env)}/orders`,
      url: "/orders",
    });
  }
  return { ok: true, message: RETURN_MESSAGES.requested };
}

type DecidedRequest = NonNullable<Awaited<ReturnType<typeof getReturnRequestWithOrder>>>;

/** The host's own open request, or the refusal to answer with. Another host's request is answered as missing. */
export async function hostReturnRequest(
  env: Env,
  hostId: string,
  returnId: string,
): Promise<{ ok: true; request: DecidedRequest } | Extract<ReturnOutcome, { ok: false }>> {
  const request = await getReturnRequestWithOrder(getDb(env), returnId);
  if (!request || request.hostId !== hostId)
    return { ok: false, status: 404, message: RETURN_MESSAGES.requestNotFound };
  if (request.status !== "requested") return { ok: false, status: 409, message: RETURN_MESSAGES.alreadyAnswered };
  return { ok: true, request };
}

/** Mails the buyer a declined return (always sent: the buyer needs it whatever their notification switches say). */
export async function mailReturnDecision(
  env: Env,
  request: Pick<DecidedRequest, "id" | "userId" | "customerEmail" | "orderNumber" | "productName">,
  decision: { declineReason: string },
): Promise<void> {
  const subject = `Your return of order ${request.orderNumber} was declined`;
  const text =
    `The host declined your return of ${request.productName} (order ${request.orderNumber}).\n\n` +
    `Reason: ${decision.declineReason}\n\nSee the order: ${siteOrigin(env)}/order/${request.orderNumber}`;
  const url = `/order/${request.orderNumber}`;
  if (request.userId) {
    await notify(env, request.userId, "return_decision", { key: `return-decided:${request.id}`, subject, text, url });
  } else if (request.customerEmail) {
    try {
      await sendMail(env, getDb(env), { to: request.customerEmail, subject, text });
    } catch (error) {
      console.error("returns: decision mail failed", { orderNumber: request.orderNumber, error });
    }
  }
}

/** The host declines an open request with a reason; the buyer is mailed. A second answer changes nothing. */
export async function declineReturn(
  env: Env,
  hostId: string,
  returnId: string,
  declineReason: string,
): Promise<ReturnOutcome> {
  const found = await hostReturnRequest(env, hostId, returnId);
  if (!found.ok) return found;
  const decided = await decideReturnRequest(getDb(env), found.request.id, { status: "declined", declineReason });
  if (!decided) return { ok: false, status: 409, message: RETURN_MESSAGES.alreadyAnswered };
  await mailReturnDecision(env, found.request, { declineReason });
  return { ok: true, message: `Return of order ${found.request.orderNumber} declined. The buyer has been told why.` };
}

/**
 * The host approves an open request: what is left of the order is refunded through the payments pipeline with the
 * key `return:<id>` (so two approvals at once refund once), then the request is marked approved. The buyer's mail
 * (the approval, with the refund) is the refund's, sent by the refund path.
 */
export async function approveReturn(env: Env, hostId: string, returnId: string): Promise<ReturnOutcome> {
  const found = await hostReturnRequest(env, hostId, returnId);
  if (!found.ok) return found;
  const { request } = found;
  if (!request.checkoutSessionId) return { ok: false, status: 409, message: REFUND_MESSAGES.notPaid };
  const amountCents = refundableCents(request.amountCents, request.refundedCents);
  if (amountCents === 0) return { ok: false, status: 409, message: REFUND_MESSAGES.nothingLeft };
  const result = await requestRefund(env, {
    checkoutSessionId: request.checkoutSessionId,
    orderId: request.orderId,
    amountCents,
    origin: "return",
    reason: null,
    idempotencyKey: returnRefundKey(request.id),
  });
  if (!result.ok)
    return {
      ok: false,
      status: result.message === REFUND_MESSAGES.providerFailed ? 502 : 409,
      message: result.message,
    };
  // The approval reaches the buyer as the refund's mail (the refund path sends it once, origin "return").
  await decideReturnRequest(getDb(env), request.id, { status: "approved", refundId: result.refundId });
  return {
    ok: true,
    message: `Return of order ${request.orderNumber} approved: ${formatCents(amountCents, request.currency)} refunded.`,
  };
}
